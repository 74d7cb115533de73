// SPDX-License-Identifier: Apache-2.0
// cni-bench nic: seed 002's NIC latencies (Table 1, Fig. 10) and throughput on the NIC's four
// host interfaces, each on the profile's host (enzian-pcie by default: the Enzian machine with
// its coherent link and its PCIe cable) with the Verilated NIC datapath at nic.freq_mhz
// (docs/nic.md): PCIe PIO (cni_nic_pcie behind the PCIe link and root complex), descriptor-ring
// DMA (cni_nic_pcie_dma, the same), coherent PIO (the datapath joined to the device core's PIO
// engine, protocols (a) and (b), over the coherent link) and the CNI engine's cachable queues
// (beyond 002: the engine's network port as the MAC). Node 1 of a two-node network is a traffic
// generator and sink.
// Receive: node 1 sends one frame at a time, a random 0..2 us after the host has the one before,
// into the NIC; the latency runs from its last beat into the MAC's receive stream to the frame in
// the CPU's hands (a core waiting all along: polling over PCIe, its read of the trigger line
// parked over the coherent link). Transmit: a core sends one frame at a time, a random 0..2 us
// after the one before has reached node 1; the latency runs from the driver's send to the frame's
// last beat out of the MAC's transmit stream. Every frame's bytes are checked where they arrive.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <deque>
#include <map>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "bench.hpp"
#include "cni/drv/cni_packet.hpp"
#include "cni/drv/nic_dma.hpp"
#include "cni/drv/nic_pio.hpp"
#include "cni/drv/pcie.hpp"
#include "cni/drv/pio_stream.hpp"
#include "cni/engines.hpp"
#include "cni/sim/frame.hpp"
#include "cni/sim/host.hpp"
#include "cni/sim/profile.hpp"
#include "coherence_checker.hpp"
#include "device/cni_options.hpp"
#include "device/system.hpp"
#include "nic/nic_coh_device.hpp"
#include "nic/nic_dma_device.hpp"
#include "nic/nic_pcie_device.hpp"
#include "nic/pcie_rc.hpp"

namespace cni::bench {
namespace {

using sim::Time;

// 002 Table 1: P50, P95, P99, P100 in us, per interface.
struct PaperRow {
  unsigned size;
  double rx[4], tx[4];
};
constexpr PaperRow kTable1PcieDma[] = {
    {64, {65.39, 66.36, 67.65, 100.01}, {10.06, 10.35, 10.59, 16.49}},
    {1536, {64.77, 65.59, 66.21, 133.84}, {10.89, 11.12, 11.33, 30.84}},
    {9600, {65.89, 67.12, 68.05, 123.61}, {15.73, 16.05, 16.29, 41.99}},
};
constexpr PaperRow kTable1PciePio[] = {
    {64, {3.25, 3.26, 3.27, 3.39}, {0.34, 0.36, 0.38, 4.80}},
    {1536, {72.89, 72.93, 72.96, 73.05}, {1.82, 1.84, 1.86, 6.40}},
    {9600, {450.28, 450.35, 450.38, 451.10}, {9.91, 10.01, 10.07, 10.14}},
};
constexpr PaperRow kTable1EciPio[] = {
    {64, {1.05, 1.06, 1.07, 1.17}, {1.06, 1.12, 1.14, 1.18}},
    {1536, {7.24, 7.29, 7.39, 7.43}, {3.09, 3.26, 3.50, 3.59}},
    {9600, {39.43, 39.48, 39.50, 39.55}, {9.07, 9.19, 9.65, 9.95}},
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

// The measurements, on any host interface: a derived rig builds the host, the NIC and its MAC on
// port 0 of a two-node network (node 1: the generator and sink), then calls attach().
class Rig {
 public:
  virtual ~Rig() = default;
  virtual const char* interface() const = 0;
  virtual const char* title() const = 0;
  virtual const PaperRow* paper() const = 0;
  virtual sim::HostSystem& host() = 0;
  virtual const tb::NicMacStats& nic_stats() const = 0;
  virtual uint64_t coherence_errors() const = 0;
  // Frames of `wire` bytes node 1 may send ahead of the receiving core without overrunning the
  // interface's receive buffering.
  virtual unsigned rx_ahead(unsigned wire) const = 0;
  // Table 1's size whose P50 the profile's parameters were calibrated on (0: none): that row
  // equals the paper's by construction.
  virtual unsigned calibrated_size() const { return 0; }

  // Receive latencies (us) of `iters` frames of `wire` bytes.
  std::vector<double> receive(unsigned wire, unsigned iters) {
    std::vector<std::vector<uint8_t>> frames;
    for (unsigned i = 0; i < iters; ++i) frames.push_back(frame(wire, 1, 0, i));
    rx_in_.clear();
    std::vector<Time> got(iters, 0);
    std::uniform_int_distribution<uint64_t> gap(0, 2000);
    inject(frames[0]);
    host().spawn(rx_core(), [&](drv::MemoryPort& m) {
      drv::PacketPort& d = driver(rx_core(), m);
      for (unsigned i = 0; i < iters; ++i) {
        const std::vector<uint8_t> f = d.receive();
        got[i] = kern_->now();
        if (f != frames[i]) ++mismatches_;
        if (i + 1 < iters) {
          kern_->after(sim::ns(static_cast<double>(gap(rng_))), [&, i] { inject(frames[i + 1]); });
        }
      }
    });
    run();
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
    host().spawn(tx_core(), [&](drv::MemoryPort& m) {
      drv::PacketPort& d = driver(tx_core(), m);
      for (unsigned i = 0; i < iters; ++i) {
        sink_.push_back(frame(wire, 0, 1, i));
        m.pause_ns(gap(rng_));
        start[i] = kern_->now();
        d.send(sink_.back().data(), sink_.back().size());
        while (sink_seen_ <= i) m.pause_ns(100);
      }
    });
    run();
    std::vector<double> us;
    for (unsigned i = 0; i < iters; ++i) {
      us.push_back(sim::to_ns(tx_out_.at(i) - start[i]) / 1000.0);
    }
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
    host().spawn(tx_core(), [&](drv::MemoryPort& mp) {
      drv::PacketPort& d = driver(tx_core(), mp);
      t0 = kern_->now();
      for (unsigned i = 0; i < m; ++i) d.send(sink_[i].data(), sink_[i].size());
      while (sink_seen_ < m) mp.pause_ns(100);
    });
    run();
    return sim::to_ns(tx_out_.at(m - 1) - t0);
  }

  // Receive throughput: `m` frames of `wire` bytes from node 1, which keeps rx_ahead(wire) frames
  // ahead of the receiving core (so none is dropped); the time (ns) from the first frame's
  // injection to the last one in the CPU.
  double receive_stream(unsigned wire, unsigned m) {
    std::vector<std::vector<uint8_t>> frames;
    for (unsigned i = 0; i < m; ++i) frames.push_back(frame(wire, 1, 0, i));
    rx_in_.clear();
    unsigned sent = 0;
    const Time t0 = kern_->now();
    while (sent < std::min(m, rx_ahead(wire))) inject(frames[sent++]);
    Time t1 = 0;
    host().spawn(rx_core(), [&](drv::MemoryPort& mp) {
      drv::PacketPort& d = driver(rx_core(), mp);
      for (unsigned i = 0; i < m; ++i) {
        if (d.receive() != frames[i]) ++mismatches_;
        if (sent < m) inject(frames[sent++]);
      }
      t1 = kern_->now();
    });
    run();
    return sim::to_ns(t1 - t0);
  }

  // 002 s5.1's invocation, on a rig built with its MAC looped back: one core sends a request of
  // `bytes` (a frame as the MAC's stream carries it) and receives it back, the device holding it
  // in between (002's FPGA writes it to block RAM and reads it back; here the datapath's packet
  // buffers, store and forward each way). Latencies (ns) of `iters` invocations after `warm`.
  std::vector<double> invoke(unsigned bytes, unsigned warm, unsigned iters) {
    std::vector<double> ns;
    host().spawn(tx_core(), [&](drv::MemoryPort& m) {
      drv::PacketPort& d = driver(tx_core(), m);
      for (unsigned i = 0; i < warm + iters; ++i) {
        const std::vector<uint8_t> req = frame(bytes + sim::kFcsBytes, 0, 0, i);
        const Time t0 = kern_->now();
        if (call(d, req) && i >= warm) ns.push_back(sim::to_ns(kern_->now() - t0));
      }
    });
    run();
    return ns;
  }
  // Back-to-back invocations of `bytes` for `window_ns`: the latency of each (ns), and the time
  // they took (ns).
  std::pair<std::vector<double>, double> invoke_stream(unsigned bytes, double window_ns) {
    std::vector<double> lat;
    double elapsed = 0;
    host().spawn(tx_core(), [&](drv::MemoryPort& m) {
      drv::PacketPort& d = driver(tx_core(), m);
      std::vector<std::vector<uint8_t>> reqs;
      for (uint32_t i = 0; i < 4; ++i) reqs.push_back(frame(bytes + sim::kFcsBytes, 0, 0, i));
      const Time t0 = kern_->now();
      while (sim::to_ns(kern_->now() - t0) < window_ns) {
        const Time t1 = kern_->now();
        if (call(d, reqs[lat.size() % reqs.size()])) lat.push_back(sim::to_ns(kern_->now() - t1));
      }
      elapsed = sim::to_ns(kern_->now() - t0);
    });
    run();
    return {std::move(lat), elapsed};
  }

  uint64_t mismatches() const { return mismatches_; }
  double nic_mhz() const { return nic_mhz_; }

 protected:
  Rig(const sim::Profile& prof, uint64_t seed)
      : rng_(seed), nic_mhz_(prof.get_double("nic.freq_mhz")) {}

  // The kernel the rig's host runs on.
  void use_kernel(sim::Kernel& k) { kern_ = &k; }
  // The network on `k` and its ports: point to point between the NIC's MAC and node 1, or the
  // MAC looped back (near-end loopback, `loopback`: the invocations').
  void make_network(sim::Kernel& k, const sim::Profile& prof, bool loopback) {
    use_kernel(k);
    sim::NetParams np = sim::NetParams::from_profile(prof);
    np.topology = loopback ? sim::NetTopology::Loopback : sim::NetTopology::PointToPoint;
    np.nodes = loopback ? 1 : 2;
    net_ = std::make_unique<sim::Network>(k, np);
    mac_ = std::make_unique<sim::NetPort>(*net_, 0);
    if (loopback) return;
    peer_ = std::make_unique<sim::NetPort>(*net_, 1);
    peer_->on_receive([this](const sim::Frame& f) { at_sink(f); });
  }
  // Before the kernel goes (the derived rig's destructor, once its NIC is gone).
  void release_network() {
    peer_.reset();
    mac_.reset();
    net_.reset();
  }
  // The NIC's MAC events, as its adapter reports them.
  void on_mac_rx(const std::vector<uint8_t>&, Time t) { rx_in_.push_back(t); }
  void on_mac_tx(const std::vector<uint8_t>&, Time t) { tx_out_.push_back(t); }
  // The same events from a NIC adapter (its on_mac_rx and on_mac_tx).
  template <class Nic>
  void watch_mac(Nic& nic) {
    nic.on_mac_rx([this](const std::vector<uint8_t>& f, Time t) { on_mac_rx(f, t); });
    nic.on_mac_tx([this](const std::vector<uint8_t>& f, Time t) { on_mac_tx(f, t); });
  }
  // The driver of a core of the host (the receiving and the sending one), made on first use.
  virtual std::unique_ptr<drv::PacketPort> make_driver(drv::MemoryPort& m) = 0;
  // The cores that receive and send (one driver each; the same core: one driver for both).
  virtual unsigned rx_core() const { return 2; }
  virtual unsigned tx_core() const { return 1; }
  // Node 1 sends `bytes` (the MAC's stream) to node 0: by default a raw frame, with its FCS,
  // into the network port of node 1.
  virtual void inject(const std::vector<uint8_t>& bytes) {
    sim::Frame f;
    f.src = 1;
    f.dst = 0;
    f.bytes = bytes;
    const uint32_t fcs = sim::crc32(f.bytes);
    for (unsigned b = 0; b < sim::kFcsBytes; ++b) {
      f.bytes.push_back(static_cast<uint8_t>(fcs >> (8 * b)));
    }
    if (!peer_->try_send(f)) throw std::runtime_error("nic: the generator's port is full");
  }
  // Runs the programs spawned on the host (and whatever else the rig's nodes run meanwhile).
  virtual void run() { host().run_programs(); }
  // Node 1 has a frame from node 0 (the MAC's stream, no FCS); it checks it against the next one
  // the transmitting core sent.
  void sink(const std::vector<uint8_t>& b) {
    if (sink_seen_ >= sink_.size() || b != sink_[sink_seen_]) ++mismatches_;
    ++sink_seen_;
  }

  sim::NetPort& mac() { return *mac_; }
  sim::Kernel& kernel() { return *kern_; }

 private:
  // One invocation: `req` sent, the frame received checked against it; false on a mismatch.
  bool call(drv::PacketPort& d, const std::vector<uint8_t>& req) {
    d.send(req.data(), req.size());
    if (d.receive() == req) return true;
    ++mismatches_;
    return false;
  }
  drv::PacketPort& driver(unsigned core, drv::MemoryPort& m) {
    auto& d = drivers_[core];
    if (!d) d = make_driver(m);
    return *d;
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

  void at_sink(const sim::Frame& f) {
    std::vector<uint8_t> b = f.bytes;
    if (f.tuser || b.size() < sim::kFcsBytes) {
      ++mismatches_;
      ++sink_seen_;
      return;
    }
    b.resize(b.size() - sim::kFcsBytes);
    sink(b);
  }

  std::mt19937_64 rng_;
  double nic_mhz_ = 0;
  sim::Kernel* kern_ = nullptr;
  std::unique_ptr<sim::Network> net_;
  std::unique_ptr<sim::NetPort> mac_, peer_;
  std::map<unsigned, std::unique_ptr<drv::PacketPort>> drivers_;
  std::vector<Time> rx_in_, tx_out_;
  std::vector<std::vector<uint8_t>> sink_;
  size_t sink_seen_ = 0;
  uint64_t mismatches_ = 0;
};

// A host from the profile with the root complex on socket 0 and the PCIe link
// (tb::PcieRcHost; every TLP into `trace` when given, after a comment naming the interface) and
// the network; a derived rig puts its NIC on the link, then enumerates it (h_.enumerate()).
class PcieRig : public Rig {
 public:
  ~PcieRig() override { release_network(); }  // (the derived rig's NIC is gone by then)
  sim::HostSystem& host() override { return *h_.sys; }
  uint64_t coherence_errors() const override { return h_.checker->errors().size(); }

 protected:
  PcieRig(const sim::Profile& prof, uint64_t seed, sim::pcie::TlpTrace* trace, const char* iface,
          bool loopback)
      : Rig(prof, seed), h_(prof) {
    if (trace) {
      trace->comment(std::string(iface) + ": a simulation of its own, its time from 0");
      h_.link->set_trace(trace);
    }
    make_network(*h_.k, prof, loopback);
  }

  tb::PcieRcHost h_;
};

// PCIe PIO (002 Fig. 9b): the NIC with its PIO interface (cni_nic_pcie) behind the link.
class PciePioRig final : public PcieRig {
 public:
  PciePioRig(const sim::Profile& prof, uint64_t seed, sim::pcie::TlpTrace* trace,
             bool loopback = false)
      : PcieRig(prof, seed, trace, "pcie-pio", loopback) {
    nic_ = std::make_unique<tb::NicPcieDevice>(*h_.k, h_.link->ep(), h_.p, mac(), nic_mhz(), seed);
    h_.enumerate();
    watch_mac(*nic_);
  }
  ~PciePioRig() override { nic_.reset(); }

  const char* interface() const override { return "pcie-pio"; }
  const char* title() const override { return "PCIe PIO"; }
  const PaperRow* paper() const override { return kTable1PciePio; }
  const tb::NicMacStats& nic_stats() const override { return nic_->stats(); }
  // The receive ring's slots.
  unsigned rx_ahead(unsigned) const override { return nic_->geometry().slots; }

 private:
  std::unique_ptr<drv::PacketPort> make_driver(drv::MemoryPort& m) override {
    return std::make_unique<drv::NicPio>(m, h_.bars[0].base, h_.bars[0].size);
  }

  std::unique_ptr<tb::NicPcieDevice> nic_;
};

// Descriptor-ring DMA (002 Fig. 9a): the NIC with its DMA interface (cni_nic_pcie_dma) behind
// the link, rings of 64 entries and their buffers in socket 0's memory, the receive buffers
// posted by firmware; the drivers poll (no MSI) and spend the profile's host-software time per
// frame (nic.dma_tx_sw_ns, nic.dma_rx_sw_ns: calibrated on Table 1's 64-byte row).
class PcieDmaRig final : public PcieRig {
 public:
  PcieDmaRig(const sim::Profile& prof, uint64_t seed, sim::pcie::TlpTrace* trace,
             bool loopback = false)
      : PcieRig(prof, seed, trace, "pcie-dma", loopback) {
    nic_ = std::make_unique<tb::NicDmaDevice>(*h_.k, h_.link->ep(), h_.p, mac(), nic_mhz(), seed);
    h_.enumerate();
    layout_.bar = h_.bars[0].base;
    layout_.mem = sim::HostSystem::dram_base(0) + 0x1000'0000;
    costs_.tx_sw_ns = static_cast<uint64_t>(prof.get_int("nic.dma_tx_sw_ns"));
    costs_.rx_sw_ns = static_cast<uint64_t>(prof.get_int("nic.dma_rx_sw_ns"));
    h_.sys->spawn(0, [&](drv::MemoryPort& m) { drv::NicDma::configure(m, layout_); });
    h_.sys->run_programs();
    watch_mac(*nic_);
  }
  ~PcieDmaRig() override { nic_.reset(); }

  const char* interface() const override { return "pcie-dma"; }
  unsigned calibrated_size() const override { return 64; }
  const char* title() const override { return "PCIe DMA"; }
  const PaperRow* paper() const override { return kTable1PcieDma; }
  const tb::NicMacStats& nic_stats() const override { return nic_->stats(); }
  // The posted receive buffers, and what the datapath's receive buffer holds meanwhile.
  unsigned rx_ahead(unsigned wire) const override {
    const unsigned beats = (wire - sim::kFcsBytes + 63) / 64;
    return std::max(1u, std::min({1u << layout_.rx_log2, 16u, 256u / beats}));
  }

 private:
  std::unique_ptr<drv::PacketPort> make_driver(drv::MemoryPort& m) override {
    return std::make_unique<drv::NicDma>(m, layout_, costs_);
  }

  std::unique_ptr<tb::NicDmaDevice> nic_;
  drv::NicDmaLayout layout_;
  drv::NicDmaCosts costs_;
};

// Coherent PIO (002 Fig. 9c): the profile's node 0 with its device core (the fast build, the
// benchmark geometry: 76 overflow lines a channel), the datapath joined to its PIO engine.
class CoherentPioRig final : public Rig {
 public:
  CoherentPioRig(const sim::Profile& prof, uint64_t seed) : Rig(prof, seed) {
    sys_ = std::make_unique<tb::System>(prof);
    make_network(sys_->kernel(), prof, false);
    nic_ = std::make_unique<tb::NicCohDevice>(sys_->kernel(), sys_->device(0, 0), mac(), nic_mhz(),
                                              seed);
    layout_ = sys_->device(0, 0).pio_stream_layout();
    watch_mac(*nic_);
  }
  ~CoherentPioRig() override {
    nic_.reset();  // before the device it is joined to
    release_network();
  }

  const char* interface() const override { return "coherent-pio"; }
  const char* title() const override { return "coherent PIO"; }
  const PaperRow* paper() const override { return kTable1EciPio; }
  sim::HostSystem& host() override { return sys_->node(0).host(); }
  const tb::NicMacStats& nic_stats() const override { return nic_->stats(); }
  uint64_t coherence_errors() const override { return sys_->checker(0).errors().size(); }
  // What the datapath's receive buffer holds (its frames and its 64-byte words).
  unsigned rx_ahead(unsigned wire) const override {
    const unsigned beats = (wire - sim::kFcsBytes + 63) / 64;
    return std::max(1u, std::min(nic_->rx_buffer_frames(), nic_->rx_buffer_beats() / beats));
  }

 private:
  std::unique_ptr<drv::PacketPort> make_driver(drv::MemoryPort& m) override {
    return std::make_unique<drv::PioStream>(m, layout_);
  }

  std::unique_ptr<tb::System> sys_;
  std::unique_ptr<tb::NicCohDevice> nic_;
  drv::PioStreamLayout layout_;
};

// Cachable queues (beyond 002: seed 000's CNI16Q as the NIC's host interface): the profile's
// machine, two nodes on its network (net.*), each device carrying the CNI engine (the fast
// build's CNI16Q model at the profile's line size), whose network port is the NIC's MAC. A packet
// is one CNI message of the frame's bytes, ceil(n / 244) network messages (docs/cni.md sections
// 6, 7); node 1's core 0 generates and sinks them through its own engine. The MAC events are
// node 0's port: a message's last fragment handed to it (receive) and taken from it (transmit).
// One core of node 0 both receives and sends (one endpoint per device).
class CniQueueRig final : public Rig {
 public:
  static constexpr uint16_t kHandler = 1;

  CniQueueRig(const sim::Profile& prof, uint64_t seed) : Rig(prof, seed) {
    sim::Profile p = prof;
    p.set("nodes", "2");
    p.set("device.cni", "CNI16Q");
    sys_ = std::make_unique<tb::System>(p);
    use_kernel(sys_->kernel());
    sim::Network& net = sys_->network();
    net.on_deliver([this](unsigned node, const sim::Frame& f, Time t) {
      if (node == 0 && last_fragment(f)) on_mac_rx(f.bytes, t);
    });
    net.on_transmit([this](unsigned node, const sim::Frame& f, Time t) {
      if (node == 0 && last_fragment(f)) on_mac_tx(f.bytes, t);
    });
  }

  const char* interface() const override { return "cni-queues"; }
  const char* title() const override { return "CNI queues"; }
  const PaperRow* paper() const override { return nullptr; }
  sim::HostSystem& host() override { return sys_->node(0).host(); }
  const tb::NicMacStats& nic_stats() const override { return no_mac_; }
  uint64_t coherence_errors() const override {
    return sys_->checker(0).errors().size() + sys_->checker(1).errors().size();
  }
  // The engine holds a sender back when the receiver has no room (its window, docs/cni.md
  // section 6): nothing is dropped, however far ahead node 1 is; one receive queue's worth.
  unsigned rx_ahead(unsigned wire) const override {
    if (rx_slots_ == 0) throw std::logic_error("nic: the CNI queues' slots asked before opening");
    const auto frags =
        static_cast<unsigned>((wire - sim::kFcsBytes + drv::CniEndpoint::kFragmentBytes - 1) /
                              drv::CniEndpoint::kFragmentBytes);
    return std::max(1u, rx_slots_ / frags);
  }

 private:
  static bool last_fragment(const sim::Frame& f) {
    const sim::FrameHeader h = sim::parse_header(f.bytes);
    return h.type == engines::kNetTypeCniData && (h.flags & drv::CniEndpoint::kLast);
  }
  std::unique_ptr<drv::PacketPort> make_driver(drv::MemoryPort& m) override {
    auto port = std::make_unique<drv::CniPacketPort>(m, tb::cni_options(sys_->device(0, 0), 2), 1,
                                                     kHandler);
    rx_slots_ = port->endpoint().recv_slots();
    return port;
  }
  unsigned rx_core() const override { return 1; }
  unsigned tx_core() const override { return 1; }
  // Into node 1's outbox: its core sends it as one message to node 0.
  void inject(const std::vector<uint8_t>& bytes) override { outbox_.push_back(bytes); }
  // Node 1's core 0 meanwhile sends what is in the outbox and sinks what arrives, until node 0's
  // programs are done.
  void run() override {
    sys_->node(1).host().spawn(0, [&](drv::MemoryPort& m) {
      if (!peer_) {
        peer_ = std::make_unique<drv::CniPacketPort>(m, tb::cni_options(sys_->device(1, 0), 2), 0,
                                                     kHandler);
      }
      while (!host().all_done() || !outbox_.empty()) {
        if (!outbox_.empty()) {
          const std::vector<uint8_t> f = std::move(outbox_.front());
          outbox_.pop_front();
          peer_->send(f.data(), f.size());
        } else if (auto got = peer_->try_receive()) {
          sink(*got);
        } else {
          m.pause_ns(100);
        }
      }
    });
    sys_->run_programs();
  }

  std::unique_ptr<tb::System> sys_;
  std::unique_ptr<drv::CniPacketPort> peer_;
  std::deque<std::vector<uint8_t>> outbox_;
  tb::NicMacStats no_mac_;
  unsigned rx_slots_ = 0;  // the receive queue's slots, once the endpoint is open
};

struct Result {
  std::string interface, experiment, direction;
  unsigned size = 0;
  Pct pct;
  const double* paper = nullptr;  // Table 1's four figures, where it has the size
  double gbit_s = -1, mpps = -1;  // throughput rows
  bool calibrated = false;        // its P50 is the paper's by construction (the profile's)
};

// 100 Gb/s Ethernet: a frame of `wire` bytes (FCS included) and 20 of preamble and gap.
double line_rate_mpps(unsigned wire) { return 100e3 / ((wire + 20) * 8.0); }

const Result* find(const std::vector<Result>& rows, const std::string& iface,
                   const std::string& exp, const std::string& dir, unsigned size) {
  for (const Result& r : rows) {
    if (r.interface == iface && r.experiment == exp && r.direction == dir && r.size == size) {
      return &r;
    }
  }
  return nullptr;
}

// One of 002 Table 1's shape claims (docs/nic.md), as this run's figures bear it out.
struct Shape {
  std::string claim;
  double ours = 0, bound = 0;  // the run's figure, the bound it must meet
  bool at_most = false;        // ours <= bound (else ours >= bound)
  // Not gated: the model has nothing the claim rests on (said where it is printed).
  const char* ungated = nullptr;
  bool holds() const { return at_most ? ours <= bound : ours >= bound; }
};

struct Counts {
  uint64_t mismatches = 0, coherence_errors = 0, drops = 0;
};

// Every measurement of one interface, appended to `rows`.
void measure(Rig& rig, const Options& o, unsigned iters, std::vector<Result>& rows,
             unsigned& sweep_iters, unsigned& frames, Counts& c) {
  const std::string i = rig.interface();
  const unsigned table_sizes[] = {64, 1536, 9600};
  std::fprintf(stderr, "[cni-bench] nic: %s, %u frames per size:", rig.title(), iters);
  for (unsigned r = 0; r < 3; ++r) {
    const unsigned s = table_sizes[r];
    std::fprintf(stderr, " %u", s);
    const bool cal = rig.calibrated_size() == s;
    const PaperRow* paper = rig.paper() ? &rig.paper()[r] : nullptr;
    rows.push_back({i, "latency", "rx", s, percentiles(rig.receive(s, iters)),
                    paper ? paper->rx : nullptr, -1, -1, cal});
    rows.push_back({i, "latency", "tx", s, percentiles(rig.transmit(s, iters)),
                    paper ? paper->tx : nullptr, -1, -1, cal});
  }
  std::fprintf(stderr, "\n");
  // Fig. 10: latency against the frame's size.
  const std::vector<unsigned> sweep =
      o.quick ? std::vector<unsigned>{64, 1024, 9600}
              : std::vector<unsigned>{64, 128, 256, 512, 1024, 1536, 2048, 4096, 8192, 9600};
  sweep_iters = o.quick ? 3 : 20;
  std::fprintf(stderr, "[cni-bench] nic: %s sweep, %u frames per size:", rig.title(), sweep_iters);
  for (unsigned s : sweep) {
    std::fprintf(stderr, " %u", s);
    rows.push_back({i, "sweep", "rx", s, percentiles(rig.receive(s, sweep_iters)), nullptr});
    rows.push_back({i, "sweep", "tx", s, percentiles(rig.transmit(s, sweep_iters)), nullptr});
  }
  std::fprintf(stderr, "\n");
  // Throughput, one core each way.
  const std::vector<unsigned> tsizes = o.quick
                                           ? std::vector<unsigned>{64, 9600}
                                           : std::vector<unsigned>{64, 256, 1024, 1536, 4096, 9600};
  frames = o.quick ? 8 : 100;
  std::fprintf(stderr, "[cni-bench] nic: %s throughput, %u frames per size:", rig.title(), frames);
  for (unsigned s : tsizes) {
    std::fprintf(stderr, " %u", s);
    for (const char* dir : {"rx", "tx"}) {
      const double t =
          dir[0] == 'r' ? rig.receive_stream(s, frames) : rig.transmit_stream(s, frames);
      Result r{i, "throughput", dir, s, {}, nullptr};
      r.gbit_s = frames * s * 8.0 / t;
      r.mpps = frames * 1e3 / t;
      rows.push_back(r);
    }
  }
  std::fprintf(stderr, "\n");
  c.mismatches += rig.mismatches();
  c.coherence_errors += rig.coherence_errors();
  c.drops += rig.nic_stats().rx_overflow;
}

// Table 1's shape (002 s5.2): coherent PIO receives at least 5x faster than PCIe PIO at 1536 and
// 9600 B; PCIe PIO transmits a 64-byte frame no slower than coherent PIO; DMA latency is nearly
// flat across sizes (here: the largest P50 at most 1.5x the smallest, each way); coherent PIO has
// the smallest P100 - P50 spread.
std::vector<Shape> shapes(const std::vector<Result>& rows) {
  std::vector<Shape> v;
  for (unsigned s : {1536u, 9600u}) {
    const Result* p = find(rows, "pcie-pio", "latency", "rx", s);
    const Result* e = find(rows, "coherent-pio", "latency", "rx", s);
    if (p && e) {
      v.push_back({"rx " + std::to_string(s) + " B: PCIe PIO P50 / coherent PIO P50 >= 5",
                   p->pct.p[0] / e->pct.p[0], 5.0});
    }
  }
  const Result* p = find(rows, "pcie-pio", "latency", "tx", 64);
  const Result* e = find(rows, "coherent-pio", "latency", "tx", 64);
  if (p && e) {
    v.push_back({"tx 64 B: coherent PIO P50 / PCIe PIO P50 >= 1", e->pct.p[0] / p->pct.p[0], 1.0});
  }
  for (const char* dir : {"rx", "tx"}) {
    double lo = 0, hi = 0;
    for (unsigned s : {64u, 1536u, 9600u}) {
      if (const Result* d = find(rows, "pcie-dma", "latency", dir, s)) {
        lo = lo == 0 ? d->pct.p[0] : std::min(lo, d->pct.p[0]);
        hi = std::max(hi, d->pct.p[0]);
      }
    }
    if (lo > 0) {
      v.push_back(
          {std::string(dir) + ": PCIe DMA P50, largest / smallest of 64, 1536, 9600 B <= 1.5",
           hi / lo, 1.5, true});
    }
  }
  for (const char* other : {"pcie-pio", "pcie-dma"}) {
    for (const char* dir : {"rx", "tx"}) {
      for (unsigned s : {64u, 1536u, 9600u}) {
        p = find(rows, other, "latency", dir, s);
        e = find(rows, "coherent-pio", "latency", dir, s);
        if (!p || !e) continue;
        // DMA's spread in 002 is its host software's (interrupts, scheduling); the model's
        // host-software time per frame is a constant.
        v.push_back({std::string(dir) + " " + std::to_string(s) + " B: P100 - P50 spread, " +
                         other + " - coherent PIO (us) >= 0",
                     (p->pct.p[3] - p->pct.p[0]) - (e->pct.p[3] - e->pct.p[0]), 0.0, false,
                     std::string(other) == "pcie-dma"
                         ? "the model's DMA host software has no variation"
                         : nullptr});
      }
    }
  }
  return v;
}

}  // namespace

PcieInvocations pcie_invocations(const sim::Profile& prof, const std::string& iface, uint64_t seed,
                                 const std::vector<size_t>& payloads, unsigned iters,
                                 double window_ns) {
  std::unique_ptr<Rig> rig;
  if (iface == "pcie-pio") {
    rig = std::make_unique<PciePioRig>(prof, seed, nullptr, true);
  } else if (iface == "pcie-dma") {
    rig = std::make_unique<PcieDmaRig>(prof, seed, nullptr, true);
  } else {
    throw std::invalid_argument("no PCIe host interface '" + iface + "' (pcie-pio, pcie-dma)");
  }
  PcieInvocations r;
  for (size_t s : payloads) {
    if (s < kPcieMinPayload || s > kPcieMaxPayload) {
      throw std::invalid_argument(iface + ": a payload of " + std::to_string(s) +
                                  " bytes is not a frame the NIC carries (" +
                                  std::to_string(kPcieMinPayload) + " to " +
                                  std::to_string(kPcieMaxPayload) + ")");
    }
    PcieInvocation pt;
    pt.payload = s;
    pt.lat_ns = rig->invoke(static_cast<unsigned>(s), 2, iters);
    std::tie(pt.stream_lat_ns, pt.stream_ns) =
        rig->invoke_stream(static_cast<unsigned>(s), window_ns);
    r.points.push_back(std::move(pt));
  }
  r.mismatches = rig->mismatches();
  r.coherence_errors = rig->coherence_errors();
  return r;
}

int run_nic(const Options& o) {
  // enzian-pcie: the Enzian machine with both links (the coherent one and the PCIe cable)
  sim::Profile prof = sim::Profile::load(o.profile_given ? o.profile : "enzian-pcie");
  for (const auto& s : o.sets) prof.set(s);
  prof.set("sim.seed", std::to_string(o.seed));
  const unsigned iters = o.quick ? 10 : std::min(o.iterations, 200u);
  std::vector<Result> rows;
  unsigned sweep_iters = 0, frames = 0;
  Counts c;
  std::vector<std::string> ifaces;
  std::vector<unsigned> aheads;
  double nic_mhz = 0;
  // every TLP of both PCIe interfaces' runs, one after the other (declared before the rigs)
  std::unique_ptr<sim::pcie::TlpTrace> trace;
  if (!o.tlp_trace.empty()) trace = std::make_unique<sim::pcie::TlpTrace>(o.tlp_trace);
  {
    PciePioRig rig(prof, o.seed, trace.get());
    measure(rig, o, iters, rows, sweep_iters, frames, c);
    ifaces.push_back(rig.interface());
    aheads.push_back(rig.rx_ahead(64));
    nic_mhz = rig.nic_mhz();
  }
  {
    PcieDmaRig rig(prof, o.seed, trace.get());
    measure(rig, o, iters, rows, sweep_iters, frames, c);
    ifaces.push_back(rig.interface());
  }
  {
    CoherentPioRig rig(prof, o.seed);
    measure(rig, o, iters, rows, sweep_iters, frames, c);
    ifaces.push_back(rig.interface());
  }
  {
    CniQueueRig rig(prof, o.seed);
    measure(rig, o, iters, rows, sweep_iters, frames, c);
    ifaces.push_back(rig.interface());
  }
  const std::vector<Shape> shape = shapes(rows);

  std::ostringstream csv;
  csv << "experiment,interface,direction,size_bytes,p50_us,p95_us,p99_us,p100_us,"
         "paper_p50_us,paper_p95_us,paper_p99_us,paper_p100_us,gbit_s,mpps\n";
  std::ostringstream js;
  js << "{\"suite\":\"nic\",\"profile\":\"" << prof.name() << "\",\"nic_mhz\":" << fmt(nic_mhz, 2)
     << ",\"iterations\":" << iters << ",\"rows\":[";
  for (size_t i = 0; i < rows.size(); ++i) {
    const Result& r = rows[i];
    js << (i ? "," : "") << "{\"experiment\":\"" << r.experiment << "\",\"interface\":\""
       << r.interface << "\",\"direction\":\"" << r.direction << "\",\"size_bytes\":" << r.size;
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
         << ",\"ratio_p50\":" << fmt(r.pct.p[0] / r.paper[0], 3)
         << ",\"calibrated\":" << (r.calibrated ? "true" : "false");
    }
    js << "}";
    csv << r.experiment << "," << r.interface << "," << r.direction << "," << r.size;
    for (int q = 0; q < 4; ++q) csv << "," << (r.gbit_s >= 0 ? "" : fmt(r.pct.p[q], 3));
    for (int q = 0; q < 4; ++q) csv << "," << (r.paper ? fmt(r.paper[q], 2) : "");
    csv << "," << (r.gbit_s >= 0 ? fmt(r.gbit_s, 4) : "") << ","
        << (r.mpps >= 0 ? fmt(r.mpps, 5) : "") << "\n";
  }
  js << "],\"shape\":[";
  for (size_t i = 0; i < shape.size(); ++i) {
    js << (i ? "," : "") << "{\"claim\":\"" << shape[i].claim
       << "\",\"ours\":" << fmt(shape[i].ours, 3)
       << ",\"holds\":" << (shape[i].holds() ? "true" : "false")
       << ",\"gated\":" << (shape[i].ungated ? "false" : "true") << "}";
  }
  const uint64_t bad = c.mismatches + c.coherence_errors;
  const auto failed = static_cast<size_t>(std::count_if(
      shape.begin(), shape.end(), [](const Shape& sh) { return !sh.ungated && !sh.holds(); }));
  js << "],\"frames_dropped\":" << c.drops << ",\"coherence_errors\":" << c.coherence_errors
     << ",\"result_mismatches\":" << c.mismatches << "}";
  emit_csv(o, "nic", csv.str());
  if (o.json || !o.json_out.empty()) emit_json(o, js.str());
  if (!o.json) {
    std::printf(
        "NIC latency (002 Table 1 and Fig. 10): profile %s, NIC datapath at %.0f MHz, %u frames "
        "per size, one at a time\n",
        prof.name().c_str(), nic_mhz, iters);
    std::printf(
        "  receive: last beat into the MAC -> frame in the CPU (a core waiting); transmit:"
        " the driver's send -> last beat out of the MAC\n");
    std::printf("  %-13s %-3s %6s  %9s %9s %9s %9s   %9s %9s %9s %9s   %6s\n", "interface", "dir",
                "bytes", "P50", "P95", "P99", "P100", "002 P50", "P95", "P99", "P100", "P50 x");
    for (const Result& r : rows) {
      if (r.experiment != "latency") continue;
      std::printf("  %-13s %-3s %6u  %9.2f %9.2f %9.2f %9.2f", r.interface.c_str(),
                  r.direction.c_str(), r.size, r.pct.p[0], r.pct.p[1], r.pct.p[2], r.pct.p[3]);
      if (r.paper) {
        std::printf("   %9.2f %9.2f %9.2f %9.2f   %6.2f%s\n", r.paper[0], r.paper[1], r.paper[2],
                    r.paper[3], r.pct.p[0] / r.paper[0],
                    r.calibrated ? "  calibrated: equal by construction" : "");
      } else {
        std::printf("   %9s %9s %9s %9s   %6s  beyond the paper: no figure\n", "-", "-", "-", "-",
                    "-");
      }
    }
    std::printf(
        "  (pcie-dma: the profile's host-software time per frame, nic.dma_tx_sw_ns = %.0f and "
        "nic.dma_rx_sw_ns = %.0f, was calibrated on the 64-byte P50; the other sizes check it)\n",
        prof.get_double("nic.dma_tx_sw_ns"), prof.get_double("nic.dma_rx_sw_ns"));
    std::printf("Latency against the frame's size (P50 of %u frames, us):\n  %6s", sweep_iters,
                "bytes");
    for (const auto& i : ifaces)
      std::printf(" %16s %16s", (i + " rx").c_str(), (i + " tx").c_str());
    std::printf("\n");
    for (const Result& r : rows) {
      if (r.experiment != "sweep" || r.interface != ifaces[0] || r.direction != "rx") continue;
      std::printf("  %6u", r.size);
      for (const auto& i : ifaces) {
        const Result* rx = find(rows, i, "sweep", "rx", r.size);
        const Result* tx = find(rows, i, "sweep", "tx", r.size);
        std::printf(" %16.2f %16.2f", rx ? rx->pct.p[0] : 0.0, tx ? tx->pct.p[0] : 0.0);
      }
      std::printf("\n");
    }
    std::printf(
        "Throughput, one core each way, %u frames back to back (receive: node 1 keeping as many "
        "frames ahead of the core as the interface buffers: PCIe PIO the ring's %u slots, "
        "PCIe DMA and coherent PIO what the datapath's receive buffer holds, CNI queues a receive "
        "queue's worth, the engine holding node 1 back when it is full):\n  %-13s %6s %9s "
        "%9s %9s %9s "
        "%12s\n",
        frames, aheads[0], "interface", "bytes", "rx Gb/s", "rx Mpps", "tx Gb/s", "tx Mpps",
        "100G Mpps");
    for (const Result& r : rows) {
      if (r.experiment != "throughput" || r.direction != "rx") continue;
      const Result* tx = find(rows, r.interface, "throughput", "tx", r.size);
      std::printf("  %-13s %6u %9.3f %9.4f %9.3f %9.4f %12.3f\n", r.interface.c_str(), r.size,
                  r.gbit_s, r.mpps, tx->gbit_s, tx->mpps, line_rate_mpps(r.size));
    }
    std::printf("Table 1's shape (002 s5.2), on this run's figures:\n");
    for (const Shape& sh : shape) {
      std::printf("  %-76s %9.2f  %s%s%s\n", sh.claim.c_str(), sh.ours,
                  sh.holds() ? "holds" : "DOES NOT HOLD", sh.ungated ? " (not gated: " : "",
                  sh.ungated ? (std::string(sh.ungated) + ")").c_str() : "");
    }
    std::printf(
        "frames checked: every one; mismatches %llu, coherence errors %llu, receive drops "
        "%llu\n",
        static_cast<unsigned long long>(c.mismatches),
        static_cast<unsigned long long>(c.coherence_errors),
        static_cast<unsigned long long>(c.drops));
  }
  if (failed > 0) {
    std::fprintf(stderr, "cni-bench nic: %zu of Table 1's gated shape claims do not hold\n",
                 failed);
  }
  return bad == 0 && failed == 0 ? 0 : 1;
}

}  // namespace cni::bench
