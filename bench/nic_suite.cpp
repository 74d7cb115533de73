// SPDX-License-Identifier: Apache-2.0
// cni-bench nic: seed 002's NIC latencies (Table 1, Fig. 10) on the interfaces built so far --
// PCIe PIO (docs/nic.md) -- on the profile's host and PCIe link, the Verilated NIC
// (cni_nic_pcie) at nic.freq_mhz. Node 1 of a two-node network is a traffic generator and sink.
// Receive: node 1 sends one frame at a time, a random 0..2 us after the host has the one before,
// into the NIC; the latency runs from its last beat into the MAC's receive stream to the frame in
// the CPU's hands (a core polling all along). Transmit: a core sends one frame at a time, a
// random 0..2 us after the one before has reached node 1; the latency runs from the driver's
// send to the frame's last beat out of the MAC's transmit stream. Every frame's bytes are
// checked where they arrive.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench.hpp"
#include "cni/drv/nic_pio.hpp"
#include "cni/drv/pcie.hpp"
#include "cni/sim/frame.hpp"
#include "cni/sim/host.hpp"
#include "cni/sim/profile.hpp"
#include "coherence_checker.hpp"
#include "nic/nic_pcie_device.hpp"

namespace cni::bench {
namespace {

using sim::Time;

constexpr uint64_t kCfgBase = 0x3F'0000'0000;
constexpr uint64_t kBarWin = 0x40'0000'0000;

// 002 Table 1, PCIe PIO: P50, P95, P99, P100 in us.
struct PaperRow {
  unsigned size;
  double rx[4], tx[4];
};
constexpr PaperRow kTable1PciePio[] = {
    {64, {3.25, 3.26, 3.27, 3.39}, {0.34, 0.36, 0.38, 4.80}},
    {1536, {72.89, 72.93, 72.96, 73.05}, {1.82, 1.84, 1.86, 6.40}},
    {9600, {450.28, 450.35, 450.38, 451.10}, {9.91, 10.01, 10.07, 10.14}},
};

struct Pct {
  double p[4] = {0, 0, 0, 0};  // P50, P95, P99, P100
};
Pct percentiles(std::vector<double> v) {
  Pct r;
  if (v.empty()) return r;
  std::sort(v.begin(), v.end());
  const double q[4] = {0.50, 0.95, 0.99, 1.0};
  for (int i = 0; i < 4; ++i) {
    const size_t idx = static_cast<size_t>(std::ceil(q[i] * double(v.size()))) - 1;
    r.p[i] = v[std::min(idx, v.size() - 1)];
  }
  return r;
}

// A host from the profile with the root complex on socket 0, the PCIe link, the NIC behind it,
// and a two-node network (node 0: the NIC's MAC, node 1: the generator and sink).
class Rig {
 public:
  Rig(const sim::Profile& prof, uint64_t seed, const std::string& tlp_trace) : rng_(seed) {
    p_ = sim::pcie::PcieParams::from_profile(prof);
    f_ = std::make_unique<sim::Fabric>(k_, static_cast<unsigned>(prof.get_int("line_bytes")));
    sys_ = std::make_unique<sim::HostSystem>(k_, *f_, prof);
    checker_ = std::make_unique<tb::CoherenceChecker>(f_->line_bytes());
    sys_->set_observer(checker_.get());
    link_ = std::make_unique<sim::pcie::Link>(k_, p_, "pcie");
    if (!tlp_trace.empty()) {
      trace_ = std::make_unique<sim::pcie::TlpTrace>(tlp_trace);
      link_->set_trace(trace_.get());
    }
    const auto id =
        static_cast<proto::AgentId>(sys_->num_sockets() + sys_->num_cores() + sys_->num_devices());
    rc_ = std::make_unique<sim::pcie::RootComplex>(k_, *f_, id, link_->rc(), p_, "rc");
    f_->attach(*rc_, sys_->socket_node(0));
    rc_->set_observer(checker_.get());
    sim::NetParams np = sim::NetParams::from_profile(prof);
    np.topology = sim::NetTopology::PointToPoint;
    np.nodes = 2;
    net_ = std::make_unique<sim::Network>(k_, np);
    mac_ = std::make_unique<sim::NetPort>(*net_, 0);
    peer_ = std::make_unique<sim::NetPort>(*net_, 1);
    nic_mhz_ = prof.get_double("nic.freq_mhz");
    nic_ = std::make_unique<tb::NicPcieDevice>(k_, link_->ep(), p_, *mac_, nic_mhz_, seed);
    sys_->map_uncached(kCfgBase, 8192, rc_->config_window());
    sys_->map_uncached(kBarWin, 1ull << 30, rc_->bar_window());
    sys_->spawn(0, [&](drv::MemoryPort& m) {
      const drv::PcieSetup s{p_.mps, p_.mrrs, 0, 0};
      bars_ = drv::pcie_enumerate(m, kCfgBase, kBarWin, 1ull << 30, s);
    });
    sys_->run_programs();
    nic_->on_mac_rx([this](const std::vector<uint8_t>&, Time t) { rx_in_.push_back(t); });
    nic_->on_mac_tx([this](const std::vector<uint8_t>&, Time t) { tx_out_.push_back(t); });
    peer_->on_receive([this](const sim::Frame& f) { at_sink(f); });
  }

  // The frame with number `n` of `wire` bytes on the line (FCS included), from node `src` to
  // `dst`, as the MAC's stream carries it (no FCS).
  std::vector<uint8_t> frame(unsigned wire, unsigned src, unsigned dst, uint32_t n) {
    sim::FrameHeader h;
    h.src = static_cast<uint16_t>(src);
    h.dst = static_cast<uint16_t>(dst);
    h.seq = n;
    std::vector<uint8_t> payload(wire - sim::kMinFrameBytes);
    for (auto& b : payload) b = static_cast<uint8_t>(rng_());
    sim::Frame f = sim::make_frame(h, payload);
    f.bytes.resize(f.bytes.size() - sim::kFcsBytes);
    return f.bytes;
  }

  // Receive latencies (us) of `iters` frames of `wire` bytes.
  std::vector<double> receive(unsigned wire, unsigned iters) {
    std::vector<std::vector<uint8_t>> frames;
    for (unsigned i = 0; i < iters; ++i) frames.push_back(frame(wire, 1, 0, i));
    rx_in_.clear();
    std::vector<Time> got(iters, 0);
    auto inject = [this, &frames](unsigned i) {
      sim::Frame f;
      f.src = 1;
      f.dst = 0;
      f.bytes = frames[i];
      const uint32_t fcs = sim::crc32(f.bytes);
      for (unsigned b = 0; b < sim::kFcsBytes; ++b)
        f.bytes.push_back(static_cast<uint8_t>(fcs >> (8 * b)));
      if (!peer_->try_send(f)) throw std::runtime_error("nic: the generator's port is full");
    };
    std::uniform_int_distribution<uint64_t> gap(0, 2000);
    inject(0);
    sys_->spawn(2, [&](drv::MemoryPort& m) {
      if (!rx_drv_) rx_drv_ = std::make_unique<drv::NicPio>(m, bars_[0].base, bars_[0].size);
      for (unsigned i = 0; i < iters; ++i) {
        const std::vector<uint8_t> f = rx_drv_->receive();
        got[i] = k_.now();
        if (f != frames[i]) ++mismatches_;
        if (i + 1 < iters)
          k_.after(sim::ns(static_cast<double>(gap(rng_))), [&, i] { inject(i + 1); });
      }
    });
    sys_->run_programs();
    std::vector<double> us;
    for (unsigned i = 0; i < iters; ++i) us.push_back(sim::to_ns(got[i] - rx_in_.at(i)) / 1000.0);
    return us;
  }

  // Transmit latencies (us) of `iters` frames of `wire` bytes.
  std::vector<double> transmit(unsigned wire, unsigned iters) {
    sink_.clear();
    sink_seen_ = 0;
    tx_out_.clear();
    std::vector<Time> start(iters, 0);
    std::uniform_int_distribution<uint64_t> gap(0, 2000);
    sys_->spawn(1, [&](drv::MemoryPort& m) {
      if (!tx_drv_) tx_drv_ = std::make_unique<drv::NicPio>(m, bars_[0].base, bars_[0].size);
      for (unsigned i = 0; i < iters; ++i) {
        sink_.push_back(frame(wire, 0, 1, i));
        m.pause_ns(gap(rng_));
        start[i] = k_.now();
        tx_drv_->send(sink_.back().data(), sink_.back().size());
        while (sink_seen_ <= i) m.pause_ns(100);
      }
    });
    sys_->run_programs();
    std::vector<double> us;
    for (unsigned i = 0; i < iters; ++i)
      us.push_back(sim::to_ns(tx_out_.at(i) - start[i]) / 1000.0);
    return us;
  }

  // Transmit throughput: `m` frames of `wire` bytes sent back to back by one core; the time (ns)
  // from the first send to the last frame's last beat out of the MAC.
  double transmit_stream(unsigned wire, unsigned m) {
    sink_.clear();
    sink_seen_ = 0;
    tx_out_.clear();
    for (unsigned i = 0; i < m; ++i) sink_.push_back(frame(wire, 0, 1, i));
    Time t0 = 0;
    sys_->spawn(1, [&](drv::MemoryPort& mp) {
      if (!tx_drv_) tx_drv_ = std::make_unique<drv::NicPio>(mp, bars_[0].base, bars_[0].size);
      t0 = k_.now();
      for (unsigned i = 0; i < m; ++i) tx_drv_->send(sink_[i].data(), sink_[i].size());
      while (sink_seen_ < m) mp.pause_ns(100);
    });
    sys_->run_programs();
    return sim::to_ns(tx_out_.at(m - 1) - t0);
  }

  // Receive throughput: `m` frames of `wire` bytes from node 1, which keeps as many frames ahead
  // of the receiving core as the receive ring has slots (so none is dropped); the time (ns) from
  // the first frame's injection to the last one in the CPU.
  double receive_stream(unsigned wire, unsigned m, unsigned ahead) {
    std::vector<std::vector<uint8_t>> frames;
    for (unsigned i = 0; i < m; ++i) frames.push_back(frame(wire, 1, 0, i));
    rx_in_.clear();
    unsigned sent = 0;
    auto inject = [&] {
      sim::Frame f;
      f.src = 1;
      f.dst = 0;
      f.bytes = frames[sent++];
      const uint32_t fcs = sim::crc32(f.bytes);
      for (unsigned b = 0; b < sim::kFcsBytes; ++b) {
        f.bytes.push_back(static_cast<uint8_t>(fcs >> (8 * b)));
      }
      if (!peer_->try_send(f)) throw std::runtime_error("nic: the generator's port is full");
    };
    const Time t0 = k_.now();
    while (sent < std::min(m, ahead)) inject();
    Time t1 = 0;
    sys_->spawn(2, [&](drv::MemoryPort& mp) {
      if (!rx_drv_) rx_drv_ = std::make_unique<drv::NicPio>(mp, bars_[0].base, bars_[0].size);
      for (unsigned i = 0; i < m; ++i) {
        if (rx_drv_->receive() != frames[i]) ++mismatches_;
        if (sent < m) inject();
      }
      t1 = k_.now();
    });
    sys_->run_programs();
    return sim::to_ns(t1 - t0);
  }

  unsigned slots() const { return nic_->geometry().slots; }
  uint64_t mismatches() const { return mismatches_; }
  uint64_t coherence_errors() const { return checker_->errors().size(); }
  const tb::NicPcieStats& nic_stats() const { return nic_->stats(); }
  double nic_mhz() const { return nic_mhz_; }

 private:
  void at_sink(const sim::Frame& f) {
    std::vector<uint8_t> b = f.bytes;
    if (f.tuser || b.size() < sim::kFcsBytes) {
      ++mismatches_;
    } else {
      b.resize(b.size() - sim::kFcsBytes);
      if (sink_seen_ >= sink_.size() || b != sink_[sink_seen_]) ++mismatches_;
    }
    ++sink_seen_;
  }

  std::mt19937_64 rng_;
  sim::Kernel k_;
  sim::pcie::PcieParams p_;
  std::unique_ptr<sim::Fabric> f_;
  std::unique_ptr<sim::HostSystem> sys_;
  std::unique_ptr<tb::CoherenceChecker> checker_;
  std::unique_ptr<sim::pcie::TlpTrace> trace_;  // declared before the link that records into it
  std::unique_ptr<sim::pcie::Link> link_;
  std::unique_ptr<sim::pcie::RootComplex> rc_;
  std::unique_ptr<sim::Network> net_;
  std::unique_ptr<sim::NetPort> mac_, peer_;
  std::unique_ptr<tb::NicPcieDevice> nic_;
  std::unique_ptr<drv::NicPio> rx_drv_, tx_drv_;
  std::vector<drv::PcieBar> bars_;
  std::vector<Time> rx_in_, tx_out_;
  std::vector<std::vector<uint8_t>> sink_;
  size_t sink_seen_ = 0;
  uint64_t mismatches_ = 0;
  double nic_mhz_ = 0;
};

struct Result {
  std::string experiment, direction;
  unsigned size = 0;
  Pct pct;
  const double* paper = nullptr;  // Table 1's four figures, where it has the size
  double gbit_s = -1, mpps = -1;  // throughput rows
};

// 100 Gb/s Ethernet: a frame of `wire` bytes (FCS included) and 20 of preamble and gap.
double line_rate_mpps(unsigned wire) { return 100e3 / ((wire + 20) * 8.0); }

}  // namespace

int run_nic(const Options& o) {
  sim::Profile prof = sim::Profile::load(o.profile);
  for (const auto& s : o.sets) prof.set(s);
  prof.set("sim.seed", std::to_string(o.seed));
  Rig rig(prof, o.seed, o.tlp_trace);
  const unsigned iters = o.quick ? 10 : std::min(o.iterations, 200u);
  std::vector<Result> rows;
  const unsigned table_sizes[] = {64, 1536, 9600};
  std::fprintf(stderr, "[cni-bench] nic: PCIe PIO, %u frames per size:", iters);
  for (unsigned r = 0; r < 3; ++r) {
    const unsigned s = table_sizes[r];
    std::fprintf(stderr, " %u", s);
    rows.push_back({"latency", "rx", s, percentiles(rig.receive(s, iters)), kTable1PciePio[r].rx});
    rows.push_back({"latency", "tx", s, percentiles(rig.transmit(s, iters)), kTable1PciePio[r].tx});
  }
  std::fprintf(stderr, "\n");
  // Fig. 10: latency against the frame's size.
  const std::vector<unsigned> sweep =
      o.quick ? std::vector<unsigned>{64, 1024, 9600}
              : std::vector<unsigned>{64, 128, 256, 512, 1024, 1536, 2048, 4096, 8192, 9600};
  const unsigned sweep_iters = o.quick ? 3 : 20;
  std::fprintf(stderr, "[cni-bench] nic: sweep, %u frames per size:", sweep_iters);
  for (unsigned s : sweep) {
    std::fprintf(stderr, " %u", s);
    rows.push_back({"sweep", "rx", s, percentiles(rig.receive(s, sweep_iters)), nullptr});
    rows.push_back({"sweep", "tx", s, percentiles(rig.transmit(s, sweep_iters)), nullptr});
  }
  std::fprintf(stderr, "\n");

  // Throughput, one core each way.
  const std::vector<unsigned> tsizes = o.quick
                                           ? std::vector<unsigned>{64, 9600}
                                           : std::vector<unsigned>{64, 256, 1024, 1536, 4096, 9600};
  const unsigned frames = o.quick ? 8 : 100;
  std::fprintf(stderr, "[cni-bench] nic: throughput, %u frames per size:", frames);
  for (unsigned s : tsizes) {
    std::fprintf(stderr, " %u", s);
    for (const char* dir : {"rx", "tx"}) {
      const double t = dir[0] == 'r' ? rig.receive_stream(s, frames, rig.slots())
                                     : rig.transmit_stream(s, frames);
      Result r{"throughput", dir, s, {}, nullptr};
      r.gbit_s = frames * s * 8.0 / t;
      r.mpps = frames * 1e3 / t;
      rows.push_back(r);
    }
  }
  std::fprintf(stderr, "\n");

  std::ostringstream csv;
  csv << "experiment,interface,direction,size_bytes,p50_us,p95_us,p99_us,p100_us,"
         "paper_p50_us,paper_p95_us,paper_p99_us,paper_p100_us,gbit_s,mpps\n";
  std::ostringstream js;
  js << "{\"suite\":\"nic\",\"profile\":\"" << prof.name()
     << "\",\"nic_mhz\":" << fmt(rig.nic_mhz(), 2) << ",\"iterations\":" << iters << ",\"rows\":[";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Result& r = rows[i];
    js << (i ? "," : "") << "{\"experiment\":\"" << r.experiment
       << "\",\"interface\":\"pcie-pio\",\"direction\":\"" << r.direction
       << "\",\"size_bytes\":" << r.size;
    const char* names[4] = {"p50_us", "p95_us", "p99_us", "p100_us"};
    for (int q = 0; q < 4; ++q) {
      js << ",\"" << names[q] << "\":" << (r.gbit_s >= 0 ? "null" : fmt(r.pct.p[q], 3));
    }
    if (r.gbit_s >= 0) {
      js << ",\"gbit_s\":" << fmt(r.gbit_s, 4) << ",\"mpps\":" << fmt(r.mpps, 5)
         << ",\"line_rate_mpps\":" << fmt(line_rate_mpps(r.size), 4);
    } else {
      js << ",\"gbit_s\":null,\"mpps\":null";
    }
    if (r.paper) {
      js << ",\"paper_p50_us\":" << fmt(r.paper[0], 2)
         << ",\"ratio_p50\":" << fmt(r.pct.p[0] / r.paper[0], 3);
    }
    js << "}";
    csv << r.experiment << ",pcie-pio," << r.direction << "," << r.size;
    for (int q = 0; q < 4; ++q) csv << "," << (r.gbit_s >= 0 ? "" : fmt(r.pct.p[q], 3));
    for (int q = 0; q < 4; ++q) csv << "," << (r.paper ? fmt(r.paper[q], 2) : "");
    csv << "," << (r.gbit_s >= 0 ? fmt(r.gbit_s, 4) : "") << ","
        << (r.mpps >= 0 ? fmt(r.mpps, 5) : "") << "\n";
  }
  const uint64_t bad = rig.mismatches() + rig.coherence_errors();
  js << "],\"frames_dropped\":" << rig.nic_stats().rx_overflow
     << ",\"coherence_errors\":" << rig.coherence_errors()
     << ",\"result_mismatches\":" << rig.mismatches() << "}";
  emit_csv(o, "nic", csv.str());
  if (o.json || !o.json_out.empty()) emit_json(o, js.str());
  if (!o.json) {
    std::printf(
        "NIC latency over PCIe PIO (002 Table 1 and Fig. 10): profile %s, NIC at %.0f MHz,"
        " %u frames per size, one at a time\n",
        prof.name().c_str(), rig.nic_mhz(), iters);
    std::printf(
        "  receive: last beat into the MAC -> frame in the CPU (a core polling); transmit:"
        " the driver's send -> last beat out of the MAC\n");
    std::printf("  %-3s %6s  %9s %9s %9s %9s   %9s %9s %9s %9s   %6s\n", "dir", "bytes", "P50",
                "P95", "P99", "P100", "002 P50", "P95", "P99", "P100", "P50 x");
    for (const Result& r : rows) {
      if (r.experiment != "latency") continue;
      std::printf("  %-3s %6u  %9.2f %9.2f %9.2f %9.2f   %9.2f %9.2f %9.2f %9.2f   %6.2f\n",
                  r.direction.c_str(), r.size, r.pct.p[0], r.pct.p[1], r.pct.p[2], r.pct.p[3],
                  r.paper[0], r.paper[1], r.paper[2], r.paper[3], r.pct.p[0] / r.paper[0]);
    }
    std::printf("Latency against the frame's size (P50 of %u frames, us):\n  %6s %10s %10s\n",
                sweep_iters, "bytes", "rx", "tx");
    for (size_t i = 0; i < rows.size(); i += 2) {
      if (rows[i].experiment != "sweep") continue;
      std::printf("  %6u %10.2f %10.2f\n", rows[i].size, rows[i].pct.p[0], rows[i + 1].pct.p[0]);
    }
    std::printf(
        "Throughput, one core, %u frames back to back (receive: node 1 keeping %u "
        "frames ahead of the core, the ring's slots):\n  %6s %9s %9s %9s %9s %12s\n",
        frames, rig.slots(), "bytes", "rx Gb/s", "rx Mpps", "tx Gb/s", "tx Mpps", "100G Mpps");
    for (size_t i = 0; i + 1 < rows.size(); ++i) {
      if (rows[i].experiment != "throughput" || rows[i].direction != "rx") continue;
      std::printf("  %6u %9.3f %9.4f %9.3f %9.4f %12.3f\n", rows[i].size, rows[i].gbit_s,
                  rows[i].mpps, rows[i + 1].gbit_s, rows[i + 1].mpps, line_rate_mpps(rows[i].size));
    }
    std::printf(
        "frames checked: every one; mismatches %llu, coherence errors %llu, receive drops "
        "%llu\n",
        static_cast<unsigned long long>(rig.mismatches()),
        static_cast<unsigned long long>(rig.coherence_errors()),
        static_cast<unsigned long long>(rig.nic_stats().rx_overflow));
  }
  return bad == 0 ? 0 : 1;
}

}  // namespace cni::bench
