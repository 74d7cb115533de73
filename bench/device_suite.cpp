// SPDX-License-Identifier: Apache-2.0
// cni-bench device: the device home agent's throughput and latency straight at the endpoint's
// link ports (the benchmark build of the Verilated core, no host models): for each message type
// a stream on distinct lines, one message per cycle offered (the link's rate), and the answers
// per cycle; then the latency of read requests under offered loads from one per cycle down to
// one per eight. The streams run on both configurations of the endpoint in the build, measured
// in the same run: the default (Pipelined = 0, the model every other suite runs) and, where the
// build carries its model at the profile's line size, the pipelined one (Pipelined = 1, the
// ECP5 board's; docs/endpoint.md, "Pipelined configuration"), which takes 5 more cycles per
// message.
#include <chrono>
#include <fstream>
#include <functional>
#include <map>
#include <sstream>
#include <stdexcept>

#include "bench.hpp"
#include "cni/proto.hpp"
#include "cni/sim/profile.hpp"
#include "device/endpoint.hpp"

namespace cni::bench {
namespace {

using proto::Addr;
using proto::Msg;
using proto::Op;
using tb::Endpoint;

constexpr uint8_t kHostA = 1, kHostB = 2;
// The build's model of the pipelined configuration (tb/rtl_endpoint.cmake, PIPE_LINES).
constexpr const char* kPipelined = "pipe";

struct StreamRow {
  std::string type;   // the message type streamed
  std::string answer; // the answer counted
  unsigned n = 0;
  uint64_t span = 0;      // cycles from the first answer to the last
  double per_cycle = 0;   // answers per cycle in that span
  Stats latency;          // cycles from a message at the port to its answer leaving
  bool has_latency = true;
};

struct LoadRow {
  unsigned interval = 0;  // a read offered every `interval` cycles
  unsigned n = 0;
  double per_cycle = 0;   // answers per cycle achieved
  Stats latency;
};

class DeviceBench {
 public:
  // `variant`: the model (Endpoint::Options::variant; "": the build's own).
  DeviceBench(const Options& o, unsigned n, unsigned line_bytes, std::string variant)
      : o_(o), n_(n), line_bytes_(line_bytes), variant_(std::move(variant)) {}

  // A fresh device; `lines` distinct plain-memory lines are used.
  std::unique_ptr<Endpoint> fresh() {
    Endpoint::Options eo;
    eo.name = "device-bench";
    eo.seed = o_.seed;
    eo.trace = o_.trace;
    eo.line_bytes = line_bytes_;
    eo.variant = variant_;
    auto ep = std::make_unique<Endpoint>(eo);
    ep->reset();
    pipelined_ = ep->geometry().pipelined;
    if (ep->geometry().mem_lines < n_) {
      throw std::runtime_error("device bench: " + std::to_string(n_) + " lines asked, the device has " +
                               std::to_string(ep->geometry().mem_lines) + " of plain memory");
    }
    return ep;
  }

  static Addr line(const Endpoint& ep, unsigned l) { return ep.geometry().addr_of(l); }

  // Drains every message the device emits, answering nothing; returns them.
  static std::vector<Msg> drain(Endpoint& ep, unsigned cycles) {
    std::vector<Msg> out;
    for (unsigned c = 0; c < cycles; ++c) {
      ep.tick();
      while (!ep.emitted().empty()) {
        out.push_back(ep.emitted().front().msg);
        ep.emitted().pop_front();
      }
    }
    return out;
  }

  // Offers `msgs` (each on its own line) at the link's rate, one every `interval` cycles, and
  // waits for one answer of `answer` per message, matched by address.
  StreamRow run(Endpoint& ep, const std::string& type, const std::vector<Msg>& msgs, Op answer,
                unsigned interval = 1) {
    std::map<Addr, uint64_t> presented;
    ep.on_rx([&](const Msg& m, uint64_t cycle) { presented.emplace(m.addr, cycle); });
    std::vector<double> lat;
    std::vector<uint64_t> at;
    size_t next = 0;
    uint64_t limit = ep.cycle() + 64ull * msgs.size() * interval + 2000;
    while (at.size() < msgs.size()) {
      if (ep.cycle() > limit) {
        throw std::runtime_error("device bench: " + type + ": " + std::to_string(at.size()) +
                                 " of " + std::to_string(msgs.size()) + " answers");
      }
      if (next < msgs.size() && ep.rx_queued() == 0 && (ep.cycle() % interval) == 0) {
        ep.send(msgs[next++]);
      }
      ep.tick();
      while (!ep.emitted().empty()) {
        const auto& t = ep.emitted().front();
        if (t.msg.op == answer) {
          auto it = presented.find(t.msg.addr);
          if (it != presented.end()) lat.push_back(double(t.cycle - it->second));
          at.push_back(t.cycle);
        }
        ep.emitted().pop_front();
      }
    }
    ep.on_rx({});
    StreamRow r;
    r.type = type;
    r.answer = proto::op_name(answer);
    r.n = static_cast<unsigned>(msgs.size());
    r.span = at.back() - at.front();
    r.per_cycle = r.span ? double(r.n - 1) / double(r.span) : 0.0;
    r.latency = stats_of(lat);
    return r;
  }

  std::vector<StreamRow> streams() {
    std::vector<StreamRow> rows;
    auto req = [](const Endpoint& ep, Op op, uint8_t src, unsigned l) {
      return ep.make(op, src, line(ep, l), uint8_t(l));
    };
    auto with_line = [](Msg m, const Endpoint& ep, unsigned l) {
      m.len = static_cast<uint8_t>(ep.geometry().line_bytes);
      for (unsigned b = 0; b < m.len; ++b) m.data[b] = static_cast<uint8_t>(l * 7 + b);
      return m;
    };
    {  // reads of unshared lines: DataE
      auto ep = fresh();
      std::vector<Msg> m;
      for (unsigned l = 0; l < n_; ++l) m.push_back(req(*ep, Op::RdS, l % 2 ? kHostA : kHostB, l));
      rows.push_back(run(*ep, "RdS", m, Op::DataE));
    }
    {  // reads for ownership: DataE
      auto ep = fresh();
      std::vector<Msg> m;
      for (unsigned l = 0; l < n_; ++l) m.push_back(req(*ep, Op::RdX, l % 2 ? kHostA : kHostB, l));
      rows.push_back(run(*ep, "RdX", m, Op::DataE));
    }
    {  // upgrades of the sole sharer: UpgAck (RdS answered Shared first)
      auto ep = fresh();
      ep->csr_write(tb::csr::kRetExcl, 0);
      std::vector<Msg> setup, m;
      for (unsigned l = 0; l < n_; ++l) setup.push_back(req(*ep, Op::RdS, kHostA, l));
      run(*ep, "setup", setup, Op::DataS);
      for (unsigned l = 0; l < n_; ++l) m.push_back(req(*ep, Op::Upg, kHostA, l));
      rows.push_back(run(*ep, "Upg", m, Op::UpgAck));
    }
    {  // write-backs of owned lines: WbAck
      auto ep = fresh();
      std::vector<Msg> setup, m;
      for (unsigned l = 0; l < n_; ++l) setup.push_back(req(*ep, Op::RdX, kHostA, l));
      run(*ep, "setup", setup, Op::DataE);
      for (unsigned l = 0; l < n_; ++l) m.push_back(with_line(req(*ep, Op::WB, kHostA, l), *ep, l));
      rows.push_back(run(*ep, "WB", m, Op::WbAck));
    }
    for (bool dirty : {false, true}) {  // snoop answers completing a RdX of another's line
      // Each RdX of B on a line A owns holds a table entry until A's answer: the answers come
      // in batches of the entries a request may take.
      auto ep = fresh();
      const auto& g = ep->geometry();
      const unsigned batch = g.tt_entries - g.tt_reserve;
      std::vector<Msg> setup;
      for (unsigned l = 0; l < n_; ++l) setup.push_back(req(*ep, Op::RdX, kHostA, l));
      run(*ep, "setup", setup, Op::DataE);
      StreamRow total;
      std::vector<double> lat;
      for (unsigned first = 0; first < n_; first += batch) {
        const unsigned last = std::min(n_, first + batch);
        for (unsigned l = first; l < last; ++l) ep->send(req(*ep, Op::RdX, kHostB, l));
        std::vector<Msg> fwds;
        for (unsigned i = 0; i < 16 && fwds.size() < last - first; ++i) {
          for (auto& f : drain(*ep, 4 * batch)) {
            if (f.op == Op::FwdInv) fwds.push_back(f);
          }
        }
        if (fwds.size() != last - first) throw std::runtime_error("device bench: snoops missing");
        std::vector<Msg> m;
        for (const auto& f : fwds) {
          Msg a = ep->make(dirty ? Op::SnpData : Op::SnpAck, f.dst, f.addr, f.tag);
          if (dirty) a = with_line(a, *ep, unsigned((f.addr - line(*ep, 0)) / g.line_bytes));
          m.push_back(a);
        }
        StreamRow r = run(*ep, dirty ? "SnpData" : "SnpAck", m, Op::DataE);
        total.type = r.type;
        total.answer = r.answer;
        total.n += r.n - 1;  // answers after each batch's first
        total.span += r.span;
        lat.push_back(r.latency.median);
      }
      total.per_cycle = total.span ? double(total.n) / double(total.span) : 0.0;
      total.n += (n_ + batch - 1) / batch;
      total.latency = stats_of(lat);
      rows.push_back(total);
    }
    {  // write-backs and reads interleaved on the request channel: the memory port is shared
      auto ep = fresh();
      std::vector<Msg> setup, m;
      for (unsigned l = 0; l < n_ / 2; ++l) setup.push_back(req(*ep, Op::RdX, kHostA, l));
      run(*ep, "setup", setup, Op::DataE);
      for (unsigned l = 0; l < n_ / 2; ++l) {
        m.push_back(with_line(req(*ep, Op::WB, kHostA, l), *ep, l));
        m.push_back(req(*ep, Op::RdS, kHostB, n_ / 2 + l));
      }
      // both kinds of answer count: WbAck on RSP, DataE on DAT
      StreamRow wb = run_mixed(*ep, m);
      rows.push_back(wb);
    }
    return rows;
  }

  // The interleaved stream: every answer counts, whichever channel it leaves on.
  StreamRow run_mixed(Endpoint& ep, const std::vector<Msg>& msgs) {
    for (const auto& m : msgs) ep.send(m);
    std::vector<uint64_t> at;
    uint64_t limit = ep.cycle() + 64ull * msgs.size() + 2000;
    while (at.size() < msgs.size() && ep.cycle() < limit) {
      ep.tick();
      while (!ep.emitted().empty()) {
        const Op op = ep.emitted().front().msg.op;
        if (op == Op::WbAck || op == Op::DataE) at.push_back(ep.emitted().front().cycle);
        ep.emitted().pop_front();
      }
    }
    if (at.size() != msgs.size()) throw std::runtime_error("device bench: WB+RdS answers missing");
    StreamRow r;
    r.type = "WB+RdS";
    r.has_latency = false;  // two kinds of answer: the throughput is what the row shows
    r.answer = "WbAck/DataE";
    r.n = static_cast<unsigned>(msgs.size());
    r.span = at.back() - at.front();
    r.per_cycle = r.span ? double(r.n - 1) / double(r.span) : 0.0;
    return r;
  }

  std::vector<LoadRow> loads() {
    std::vector<LoadRow> rows;
    for (unsigned interval : {1u, 2u, 3u, 4u, 8u}) {
      auto ep = fresh();
      std::vector<Msg> m;
      for (unsigned l = 0; l < n_; ++l) {
        m.push_back(ep->make(Op::RdS, l % 2 ? kHostA : kHostB, line(*ep, l), uint8_t(l)));
      }
      StreamRow s = run(*ep, "RdS", m, Op::DataE, interval);
      LoadRow r;
      r.interval = interval;
      r.n = s.n;
      r.per_cycle = s.per_cycle;
      r.latency = s.latency;
      rows.push_back(r);
    }
    return rows;
  }

  // The configuration of the last device made, from its CONFIG register.
  bool pipelined() const { return pipelined_; }

 private:
  const Options& o_;
  unsigned n_;
  unsigned line_bytes_;
  std::string variant_;
  bool pipelined_ = false;
};

}  // namespace

int run_device(const Options& o) {
  const unsigned n = o.quick ? 256 : 1024;
  // The profile's line size picks the device model (the suite uses no other profile key).
  sim::Profile p = sim::Profile::load(o.profile);
  for (const auto& s : o.sets) p.set(s);
  const auto line_bytes = static_cast<unsigned>(p.get_int("line_bytes"));
  using Clock = std::chrono::steady_clock;
  auto w0 = Clock::now();
  DeviceBench b(o, n, line_bytes, "");
  auto streams = b.streams();
  auto loads = b.loads();
  if (b.pipelined()) throw std::logic_error("device bench: the build's own model is pipelined");
  // The pipelined configuration's streams, where the build has its model at this line size.
  const bool has_pipe = Endpoint::has_model(line_bytes, kPipelined);
  std::vector<StreamRow> piped;
  if (has_pipe) {
    DeviceBench bp(o, n, line_bytes, kPipelined);
    piped = bp.streams();
    if (!bp.pipelined() || piped.size() != streams.size())
      throw std::logic_error("device bench: the pipelined model is not pipelined");
  }
  double wall = std::chrono::duration<double>(Clock::now() - w0).count();

  std::ostringstream js;
  js << "{\"suite\":\"device\",\"device_build\":\"" << tb::built_flavor()
     << "\",\"line_bytes\":" << line_bytes << ",\"messages\":" << n
     << ",\"pipelined_measured\":" << (has_pipe ? "true" : "false") << ",\"streams\":[";
  for (size_t i = 0; i < streams.size(); ++i) {
    const auto& r = streams[i];
    js << (i ? "," : "") << "{\"type\":\"" << r.type << "\",\"answer\":\"" << r.answer
       << "\",\"messages_per_cycle\":" << fmt(r.per_cycle, 3) << ",\"span_cycles\":" << r.span
       << ",\"latency_median_cycles\":" << (r.has_latency ? fmt(r.latency.median, 1) : "null")
       << ",\"pipelined_messages_per_cycle\":"
       << (has_pipe ? fmt(piped[i].per_cycle, 3) : "null")
       << ",\"pipelined_latency_median_cycles\":"
       << (has_pipe && piped[i].has_latency ? fmt(piped[i].latency.median, 1) : "null") << "}";
  }
  js << "],\"load\":[";
  for (size_t i = 0; i < loads.size(); ++i) {
    const auto& r = loads[i];
    js << (i ? "," : "") << "{\"interval_cycles\":" << r.interval << ",\"messages_per_cycle\":"
       << fmt(r.per_cycle, 3) << ",\"latency_median_cycles\":" << fmt(r.latency.median, 1)
       << ",\"latency_p99_cycles\":" << fmt(r.latency.p99, 1)
       << ",\"latency_max_cycles\":" << fmt(r.latency.max, 1) << "}";
  }
  js << "]}";
  emit_json(o, js.str());
  if (!o.csv_dir.empty()) {
    std::ofstream f(o.csv_dir + "/device.csv");
    if (!f) throw std::runtime_error("cannot write " + o.csv_dir + "/device.csv");
    f << "table,type,answer,messages,messages_per_cycle,latency_median_cycles,latency_p99_cycles,"
         "pipelined_messages_per_cycle,pipelined_latency_median_cycles\n";
    for (size_t i = 0; i < streams.size(); ++i) {
      const auto& r = streams[i];
      f << "stream," << r.type << ',' << r.answer << ',' << r.n << ',' << fmt(r.per_cycle, 3) << ','
        << fmt(r.latency.median, 1) << ',' << fmt(r.latency.p99, 1) << ','
        << (has_pipe ? fmt(piped[i].per_cycle, 3) : "") << ','
        << (has_pipe ? fmt(piped[i].latency.median, 1) : "") << '\n';
    }
    for (const auto& r : loads) {
      f << "load_every_" << r.interval << ",RdS,DataE," << r.n << ',' << fmt(r.per_cycle, 3)
        << ',' << fmt(r.latency.median, 1) << ',' << fmt(r.latency.p99, 1) << ",,\n";
    }
  }
  if (!o.json) {
    std::printf("OpenCNI cni-bench device: the home agent at the endpoint's link ports, device "
                "model %s build, %u-byte lines, %u messages per stream on distinct lines\n",
                tb::built_flavor(), line_bytes, n);
    std::printf("\n(i) throughput per message type (offered: one message per cycle)%s\n",
                has_pipe ? ", both configurations measured in this run" : "");
    std::printf("%-8s %-12s %8s %21s %21s\n", "", "", "", "Pipelined = 0", "Pipelined = 1");
    std::printf("%-8s %-12s %8s %10s %10s %10s %10s\n", "type", "answer", "msgs", "msgs/cycle",
                "lat_md", "msgs/cycle", "lat_md");
    for (size_t i = 0; i < streams.size(); ++i) {
      const auto& r = streams[i];
      const auto lat = [](const StreamRow& x) {
        return x.has_latency ? fmt(x.latency.median) : std::string("-");
      };
      std::printf("%-8s %-12s %8u %10.3f %10s %10s %10s\n", r.type.c_str(), r.answer.c_str(), r.n,
                  r.per_cycle, lat(r).c_str(), has_pipe ? fmt(piped[i].per_cycle, 3).c_str() : "-",
                  has_pipe ? lat(piped[i]).c_str() : "-");
    }
    std::printf("Pipelined = 0: the default configuration, the benchmarks' model; Pipelined = 1: "
                "the ECP5 board's (docs/endpoint.md); each read from the model's CONFIG "
                "register\n");
    if (!has_pipe) {
      std::printf("(the %s build carries no pipelined model at %u-byte lines)\n",
                  tb::built_flavor(), line_bytes);
    }
    std::printf("lat_md: cycles from a message at the device port to its answer leaving, "
                "median\n");
    std::printf("\n(ii) read latency under load (RdS on distinct lines, one every N cycles), "
                "Pipelined = 0\n");
    std::printf("%9s %10s %10s %10s %10s\n", "every_N", "msgs/cycle", "median_cy", "p99_cy",
                "max_cy");
    for (const auto& r : loads) {
      std::printf("%9u %10.3f %10.0f %10.0f %10.0f\n", r.interval, r.per_cycle,
                  r.latency.median, r.latency.p99, r.latency.max);
    }
    std::printf("latency: the request at the device port -> its answer leaving the device\n");
    std::printf("wall-clock: %.1f s\n", wall);
  }
  return 0;
}

}  // namespace cni::bench
