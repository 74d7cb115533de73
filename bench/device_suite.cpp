// SPDX-License-Identifier: Apache-2.0
// cni-bench device: the device home agent's throughput and latency straight at the endpoint's
// link ports (the benchmark build of the Verilated core, no host models): for each message type
// a stream on distinct lines, one message per cycle offered (the link's rate), and the answers
// per cycle; then the latency of read requests under offered loads from one per cycle down to
// one per eight. Printed beside the previous home agent's figure: it took one message at a time,
// one every 2 cycles (the same streams of 32 reads, write-backs and snoop answers ran 31 message
// intervals in 62 cycles, 23 in 46, on its RTL), and answered a request 3 cycles after it
// arrived (as the pipeline does).
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
constexpr double kPreviousCyclesPerMessage = 2.0;

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
  DeviceBench(const Options& o, unsigned n, unsigned line_bytes)
      : o_(o), n_(n), line_bytes_(line_bytes) {}

  // A fresh device; `lines` distinct plain-memory lines are used.
  std::unique_ptr<Endpoint> fresh() {
    Endpoint::Options eo;
    eo.name = "device-bench";
    eo.seed = o_.seed;
    eo.trace = o_.trace;
    eo.line_bytes = line_bytes_;
    auto ep = std::make_unique<Endpoint>(eo);
    ep->reset();
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

 private:
  const Options& o_;
  unsigned n_;
  unsigned line_bytes_;
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
  DeviceBench b(o, n, line_bytes);
  auto streams = b.streams();
  auto loads = b.loads();
  double wall = std::chrono::duration<double>(Clock::now() - w0).count();
  const double before = 1.0 / kPreviousCyclesPerMessage;

  std::ostringstream js;
  js << "{\"suite\":\"device\",\"device_build\":\"" << tb::built_flavor()
     << "\",\"line_bytes\":" << line_bytes << ",\"messages\":" << n
     << ",\"previous_messages_per_cycle\":" << fmt(before, 3) << ",\"streams\":[";
  for (size_t i = 0; i < streams.size(); ++i) {
    const auto& r = streams[i];
    js << (i ? "," : "") << "{\"type\":\"" << r.type << "\",\"answer\":\"" << r.answer
       << "\",\"messages_per_cycle\":" << fmt(r.per_cycle, 3) << ",\"span_cycles\":" << r.span
       << ",\"latency_median_cycles\":" << (r.has_latency ? fmt(r.latency.median, 1) : "null")
       << "}";
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
    f << "table,type,answer,messages,messages_per_cycle,previous_messages_per_cycle,"
         "latency_median_cycles,latency_p99_cycles\n";
    for (const auto& r : streams) {
      f << "stream," << r.type << ',' << r.answer << ',' << r.n << ',' << fmt(r.per_cycle, 3) << ','
        << fmt(before, 3) << ',' << fmt(r.latency.median, 1) << ',' << fmt(r.latency.p99, 1)
        << '\n';
    }
    for (const auto& r : loads) {
      f << "load_every_" << r.interval << ",RdS,DataE," << r.n << ',' << fmt(r.per_cycle, 3)
        << ',' << fmt(before, 3) << ',' << fmt(r.latency.median, 1) << ','
        << fmt(r.latency.p99, 1) << '\n';
    }
  }
  if (!o.json) {
    std::printf("OpenCNI cni-bench device: the home agent at the endpoint's link ports, device "
                "model %s build, %u-byte lines, %u messages per stream on distinct lines\n",
                tb::built_flavor(), line_bytes, n);
    std::printf("\n(i) throughput per message type (offered: one message per cycle)\n");
    std::printf("%-8s %-12s %8s %10s %12s %9s %7s\n", "type", "answer", "msgs", "msgs/cycle",
                "previous", "ratio", "lat_md");
    for (const auto& r : streams) {
      std::printf("%-8s %-12s %8u %10.3f %12.3f %9.2f %7s\n", r.type.c_str(), r.answer.c_str(),
                  r.n, r.per_cycle, before, r.per_cycle / before,
                  r.has_latency ? fmt(r.latency.median).c_str() : "-");
    }
    std::printf("previous: the home agent before the pipeline took one message at a time, one "
                "every %.0f cycles, 3 cycles from request to answer\n", kPreviousCyclesPerMessage);
    std::printf("\n(ii) read latency under load (RdS on distinct lines, one every N cycles)\n");
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
