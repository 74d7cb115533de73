// SPDX-License-Identifier: Apache-2.0
#include "nic_pcie_device.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <string>

#include "Vcni_nic_pcie_s4.h"
#include "cni/sim/frame.hpp"
#include "nic/nic_model.hpp"

namespace cni::tb {

namespace {

using Model = Vcni_nic_pcie_s4;
constexpr unsigned kB = CNI_BLK_nic_pcie_s4_Bytes;
constexpr unsigned kSlots = CNI_BLK_nic_pcie_s4_Slots;
constexpr unsigned kSlotBeats = CNI_BLK_nic_pcie_s4_SlotBeats;

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
       const sim::pcie::PcieParams& p, sim::NetPort& port_net, double freq_mhz, uint64_t seed)
      : k(k),
        nic(k, port_net, st, "nic", freq_mhz, seed),
        ep(k, port, p, config(), outer, "nic-ep") {
    geo.slots = kSlots;
    geo.slot_bytes = uint64_t{kSlotBeats} * kB;
    geo.ring_bytes = geo.slot_bytes * kSlots;
    geo.regs = 2 * geo.ring_bytes;
    geo.bar_bytes = 4 * geo.ring_bytes;
    geo.max_bytes = CNI_BLK_nic_pcie_s4_MaxBytes;
    nic.start([this](Model& d) { drive(d); }, [this](Model& d) { sample(d); },
              [this] { return busy(); });
  }
  static sim::pcie::ConfigParams config() {
    sim::pcie::ConfigParams c;
    c.bars[0] = sim::pcie::BarSpec{4ull * kSlots * kSlotBeats * kB, true, false};
    c.msi_vectors = 1;
    return c;
  }

  void drive(Model& d) {
    d.s_axi_awvalid_i = !wr.empty() && !wr.front().aw_done;
    d.s_axi_wvalid_i = !wr.empty() && wr.front().aw_done;
    if (!wr.empty()) {
      const WrJob& j = wr.front();
      d.s_axi_awaddr_i = static_cast<uint32_t>(j.beat * kB);
      d.s_axi_awlen_i = static_cast<uint8_t>(j.beats.size() - 1);
      d.s_axi_awsize_i = 6;
      d.s_axi_awburst_i = 1;
      port_bytes_in(d.s_axi_wdata_i, j.beats.front().data.data(), kB);
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

  void sample(Model& d) {
    if (d.s_axi_awvalid_i && d.s_axi_awready_o) wr.front().aw_done = true;
    if (d.s_axi_wvalid_i && d.s_axi_wready_o) {
      wr.front().beats.erase(wr.front().beats.begin());
      if (wr.front().beats.empty()) wr.pop_front();
    }
    if (d.s_axi_bvalid_o && d.s_axi_bresp_o != 0) ++st.axi_errors;
    if (d.s_axi_arvalid_i && d.s_axi_arready_o) rd.front().ar_done = true;
    if (d.s_axi_rvalid_o && d.s_axi_rready_i) {
      uint8_t b[kB];
      port_bytes_out(d.s_axi_rdata_o, b, kB);
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
  }

  bool busy() const { return !wr.empty() || !rd.empty(); }

  sim::Kernel& k;
  NicPcieStats st;
  NicModel<Model, kB> nic;
  sim::pcie::Endpoint ep;
  NicPcieGeometry geo;
  std::deque<WrJob> wr;
  std::deque<RdJob> rd;
};

NicPcieDevice::NicPcieDevice(sim::Kernel& k, sim::pcie::Link::Port& port,
                             const sim::pcie::PcieParams& p, sim::NetPort& mac, double freq_mhz,
                             uint64_t seed)
    : impl_(std::make_unique<Impl>(*this, k, port, p, mac, freq_mhz, seed)) {}

NicPcieDevice::~NicPcieDevice() = default;

sim::pcie::Endpoint& NicPcieDevice::endpoint() { return impl_->ep; }
const NicPcieGeometry& NicPcieDevice::geometry() const { return impl_->geo; }
const NicPcieStats& NicPcieDevice::stats() const { return impl_->st; }
void NicPcieDevice::on_mac_rx(FrameObserver fn) { impl_->nic.mac().on_rx(std::move(fn)); }
void NicPcieDevice::on_mac_tx(FrameObserver fn) { impl_->nic.mac().on_tx(std::move(fn)); }

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
  impl_->nic.clock().wake();
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
  impl_->nic.clock().wake();
}

}  // namespace cni::tb
