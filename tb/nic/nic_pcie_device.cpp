// SPDX-License-Identifier: Apache-2.0
#include "nic_pcie_device.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <string>

#include "Vcni_nic_pcie_s4.h"
#include "cni/sim/frame.hpp"
#include "vlt_model.hpp"

namespace cni::tb {

namespace {

using Model = Vcni_nic_pcie_s4;
constexpr unsigned kB = CNI_BLK_nic_pcie_s4_Bytes;
constexpr unsigned kSlots = CNI_BLK_nic_pcie_s4_Slots;
constexpr unsigned kSlotBeats = CNI_BLK_nic_pcie_s4_SlotBeats;
static_assert(kB == 64, "the adapter drives 64-byte beats (tkeep in one QData)");

// A wide port's bytes (Verilator keeps them in 32-bit words, least significant first).
template <class W>
void set_bytes(W& port, const uint8_t* src) {
  for (unsigned w = 0; w < kB / 4; ++w) {
    uint32_t v = 0;
    std::memcpy(&v, src + 4 * w, 4);
    port[w] = v;
  }
}
template <class W>
void get_bytes(const W& port, uint8_t* dst) {
  for (unsigned w = 0; w < kB / 4; ++w) {
    const uint32_t v = port[w];
    std::memcpy(dst + 4 * w, &v, 4);
  }
}

// A beat of an AXI write burst: its data and byte strobes.
struct Beat {
  std::array<uint8_t, kB> data{};
  uint64_t keep = 0;
};

}  // namespace

struct NicPcieDevice::Impl {
  struct WrJob {
    uint64_t beat = 0;  // first beat's address
    std::vector<Beat> beats;
    bool aw_done = false;
  };
  struct RdJob {
    uint64_t beat = 0;
    unsigned beats = 0;
    unsigned skip = 0, n = 0;  // the bytes asked: from `skip` in the first beat, n of them
    bool refused = false;      // a beat was answered SLVERR
    std::vector<uint8_t> got;
    bool ar_done = false;
    std::function<void(const uint8_t*)> done;
  };

  Impl(NicPcieDevice& outer, sim::Kernel& k, sim::pcie::Link::Port& port,
       const sim::pcie::PcieParams& p, sim::NetPort& mac, double freq_mhz, uint64_t seed)
      : k(k),
        mac(mac),
        ctx(make_context(seed, false)),
        m(std::make_unique<Model>(ctx.get(), "nic")),
        clk(k, "nic", freq_mhz),
        ep(k, port, p, config(), outer, "nic-ep") {
    geo.slots = kSlots;
    geo.slot_bytes = uint64_t{kSlotBeats} * kB;
    geo.ring_bytes = geo.slot_bytes * kSlots;
    geo.regs = 2 * geo.ring_bytes;
    geo.bar_bytes = 4 * geo.ring_bytes;
    geo.max_bytes = CNI_BLK_nic_pcie_s4_MaxBytes;
    make_current(ctx.get());
    m->clk_i = 0;
    m->rst_ni = 0;
    m->eval();
    for (int i = 0; i < 2; ++i) {
      m->clk_i = 1;
      m->eval();
      m->clk_i = 0;
      m->eval();
    }
    m->rst_ni = 1;
    m->eval();
    mac.on_receive([this](const sim::Frame& f) { from_network(f); });
    mac.on_space([this] { clk.wake(); });
    clk.on_rising([this](uint64_t) { edge(); });
    clk.start();
  }
  ~Impl() {
    make_current(ctx.get());
    m->final();
  }
  static sim::pcie::ConfigParams config() {
    sim::pcie::ConfigParams c;
    c.bars[0] = sim::pcie::BarSpec{4ull * kSlots * kSlotBeats * kB, true, false};
    c.msi_vectors = 1;
    return c;
  }

  // The frame without its FCS, cut into beats (the MAC checks and strips the FCS).
  void from_network(const sim::Frame& f) {
    if (f.bytes.size() <= sim::kFcsBytes) return;
    sim::Frame body = f;
    body.bytes.resize(f.bytes.size() - sim::kFcsBytes);
    for (sim::AxisBeat& b : sim::to_beats(body, kB)) rx.push_back(std::move(b));
    clk.wake();
  }

  void drive() {
    Model& d = *m;
    d.mac_rx_tvalid_i = !rx.empty();
    if (!rx.empty()) {
      set_bytes(d.mac_rx_tdata_i, rx.front().tdata.data());
      d.mac_rx_tkeep_i = rx.front().tkeep;
      d.mac_rx_tlast_i = rx.front().tlast;
      d.mac_rx_tuser_i = rx.front().tuser;
    }
    d.mac_tx_tready_i = !tx_held;
    d.s_axi_awvalid_i = !wr.empty() && !wr.front().aw_done;
    d.s_axi_wvalid_i = !wr.empty() && wr.front().aw_done;
    if (!wr.empty()) {
      const WrJob& j = wr.front();
      d.s_axi_awaddr_i = static_cast<uint32_t>(j.beat * kB);
      d.s_axi_awlen_i = static_cast<uint8_t>(j.beats.size() - 1);
      d.s_axi_awsize_i = 6;
      d.s_axi_awburst_i = 1;
      set_bytes(d.s_axi_wdata_i, j.beats.front().data.data());
      d.s_axi_wstrb_i = j.beats.front().keep;
      d.s_axi_wlast_i = j.beats.size() == 1;
    }
    d.s_axi_bready_i = 1;
    d.s_axi_arvalid_i = !rd.empty() && !rd.front().ar_done;
    if (!rd.empty()) {
      d.s_axi_araddr_i = static_cast<uint32_t>(rd.front().beat * kB);
      d.s_axi_arlen_i = static_cast<uint8_t>(rd.front().beats - 1);
      d.s_axi_arsize_i = 6;
      d.s_axi_arburst_i = 1;
    }
    d.s_axi_rready_i = 1;
  }

  void sample() {
    Model& d = *m;
    if (d.mac_rx_tvalid_i) {
      rx_cur.insert(rx_cur.end(), rx.front().tdata.begin(),
                    rx.front().tdata.begin() + std::popcount(rx.front().tkeep));
      if (rx.front().tlast) {
        if (rx_obs) rx_obs(rx_cur, k.now());
        rx_cur.clear();
      }
      rx.pop_front();
    }
    if (d.mac_tx_tvalid_o && d.mac_tx_tready_i) {
      uint8_t b[kB];
      get_bytes(d.mac_tx_tdata_o, b);
      tx_cur.insert(tx_cur.end(), b, b + std::popcount(static_cast<uint64_t>(d.mac_tx_tkeep_o)));
      if (d.mac_tx_tlast_o) {
        if (tx_obs) tx_obs(tx_cur, k.now());
        to_network(std::move(tx_cur));
        tx_cur.clear();
      }
    }
    if (d.s_axi_awvalid_i && d.s_axi_awready_o) wr.front().aw_done = true;
    if (d.s_axi_wvalid_i && d.s_axi_wready_o) {
      wr.front().beats.erase(wr.front().beats.begin());
      if (wr.front().beats.empty()) wr.pop_front();
    }
    if (d.s_axi_bvalid_o && d.s_axi_bresp_o != 0) ++st.axi_errors;
    if (d.s_axi_arvalid_i && d.s_axi_arready_o) rd.front().ar_done = true;
    if (d.s_axi_rvalid_o && d.s_axi_rready_i) {
      uint8_t b[kB];
      get_bytes(d.s_axi_rdata_o, b);
      RdJob& j = rd.front();
      j.got.insert(j.got.end(), b, b + kB);
      if (d.s_axi_rresp_o != 0) {
        ++st.axi_errors;
        j.refused = true;
      }
      if (d.s_axi_rlast_o) {
        RdJob done = std::move(j);
        rd.pop_front();
        done.done(done.refused ? nullptr : done.got.data() + done.skip);  // SLVERR: CA
      }
    }
    st.rx_frames += d.rx_cnt_frames_o;
    st.rx_runt += d.rx_cnt_runt_o;
    st.rx_oversize += d.rx_cnt_oversize_o;
    st.rx_bad_fcs += d.rx_cnt_bad_fcs_o;
    st.rx_overflow += d.rx_cnt_overflow_o;
    st.tx_frames += d.tx_cnt_frames_o;
  }

  // A frame leaves with its FCS, to the node its header names; held (the MAC not ready) while
  // the port's buffer is full.
  void to_network(std::vector<uint8_t> bytes) {
    sim::Frame f;
    f.src = mac.node();
    f.dst = bytes.size() >= sim::kFrameHeaderBytes ? sim::parse_header(bytes).dst : mac.node();
    const uint32_t fcs = sim::crc32(bytes);
    for (unsigned i = 0; i < sim::kFcsBytes; ++i)
      bytes.push_back(static_cast<uint8_t>(fcs >> (8 * i)));
    f.bytes = std::move(bytes);
    if (!mac.try_send(f)) {
      held = std::move(f);
      tx_held = true;
    }
  }

  void edge() {
    make_current(ctx.get());
    ++st.cycles;
    if (tx_held && mac.try_send(held)) tx_held = false;
    drive();
    m->clk_i = 0;
    m->eval();
    sample();
    m->clk_i = 1;
    m->eval();
    if (rx.empty() && wr.empty() && rd.empty() && !tx_held && m->idle_o) clk.sleep();
  }

  sim::Kernel& k;
  sim::NetPort& mac;
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Model> m;
  sim::ClockDomain clk;
  sim::pcie::Endpoint ep;
  NicPcieGeometry geo;
  NicPcieStats st;
  std::deque<sim::AxisBeat> rx;
  std::vector<uint8_t> rx_cur, tx_cur;
  std::deque<WrJob> wr;
  std::deque<RdJob> rd;
  sim::Frame held;
  bool tx_held = false;
  FrameObserver rx_obs, tx_obs;
};

NicPcieDevice::NicPcieDevice(sim::Kernel& k, sim::pcie::Link::Port& port,
                             const sim::pcie::PcieParams& p, sim::NetPort& mac, double freq_mhz,
                             uint64_t seed)
    : impl_(std::make_unique<Impl>(*this, k, port, p, mac, freq_mhz, seed)) {}

NicPcieDevice::~NicPcieDevice() = default;

sim::pcie::Endpoint& NicPcieDevice::endpoint() { return impl_->ep; }
const NicPcieGeometry& NicPcieDevice::geometry() const { return impl_->geo; }
const NicPcieStats& NicPcieDevice::stats() const { return impl_->st; }
void NicPcieDevice::on_mac_rx(FrameObserver fn) { impl_->rx_obs = std::move(fn); }
void NicPcieDevice::on_mac_tx(FrameObserver fn) { impl_->tx_obs = std::move(fn); }

void NicPcieDevice::bar_write(unsigned bar, uint64_t offset, const uint8_t* data, unsigned n) {
  if (bar != 0) throw std::logic_error("nic: a write to BAR " + std::to_string(bar));
  Impl::WrJob j;
  j.beat = offset / kB;
  const uint64_t end = offset + n;
  for (uint64_t a = j.beat * kB; a < end; a += kB) {
    Beat b;
    for (unsigned i = 0; i < kB; ++i) {
      if (a + i >= offset && a + i < end) {
        b.data[i] = data[a + i - offset];
        b.keep |= uint64_t{1} << i;
      }
    }
    j.beats.push_back(b);
  }
  impl_->wr.push_back(std::move(j));
  impl_->clk.wake();
}

void NicPcieDevice::bar_read(unsigned bar, uint64_t offset, unsigned n,
                             std::function<void(const uint8_t*)> done) {
  if (bar != 0) throw std::logic_error("nic: a read of BAR " + std::to_string(bar));
  Impl::RdJob j;
  j.beat = offset / kB;
  j.skip = static_cast<unsigned>(offset % kB);
  j.n = n;
  j.beats = static_cast<unsigned>((j.skip + n + kB - 1) / kB);
  j.done = std::move(done);
  impl_->rd.push_back(std::move(j));
  impl_->clk.wake();
}

}  // namespace cni::tb
