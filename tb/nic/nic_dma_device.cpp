// SPDX-License-Identifier: Apache-2.0
#include "nic_dma_device.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <deque>
#include <stdexcept>
#include <string>
#include <vector>

#include "Vcni_nic_pcie_dma_r12.h"
#include "nic/nic_model.hpp"

namespace cni::tb {

namespace {
using Model = Vcni_nic_pcie_dma_r12;
constexpr unsigned kB = CNI_BLK_nic_pcie_dma_r12_Bytes;
constexpr uint64_t kRegBytes = 256;  // the AXI4-Lite slave's window (8 address bits)
}  // namespace

struct NicDmaDevice::Impl {
  // A register access on the AXI4-Lite slave.
  struct RegOp {
    bool write = false;
    uint8_t addr = 0;
    uint64_t data = 0;
    uint8_t strb = 0;
    std::function<void(bool ok, uint64_t data)> done;  // reads
    bool issued = false;
  };
  // A read burst of the AXI4 master, its data once the DMA read has completed.
  struct RdBurst {
    unsigned beats = 0, sent = 0;
    bool ready = false, ok = true;
    std::vector<uint8_t> data;
  };
  // The write burst under way.
  struct WrBurst {
    bool id = false;
    uint64_t addr = 0;
    unsigned beats = 0, got = 0;
    std::vector<uint8_t> data;
    std::vector<bool> strb;
  };

  Impl(NicDmaDevice& outer, sim::Kernel& k, sim::pcie::Link::Port& port,
       const sim::pcie::PcieParams& p, sim::NetPort& net, double freq_mhz, uint64_t seed)
      : k(k),
        nic(k, net, st, "nic-dma", freq_mhz, seed),
        ep(k, port, p, config(), outer, "nic-ep") {
    nic.start([this](Model& d) { drive(d); }, [this](Model& d) { sample(d); },
              [this] { return busy(); });
  }
  static sim::pcie::ConfigParams config() {
    sim::pcie::ConfigParams c;
    c.bars[0] = sim::pcie::BarSpec{kBarBytes, true, false};
    c.msi_vectors = 2;
    return c;
  }

  void drive(Model& d) {
    // registers: the oldest access
    RegOp* op = regs.empty() ? nullptr : &regs.front();
    d.s_axil_awvalid_i = op && op->write && !op->issued;
    d.s_axil_wvalid_i = d.s_axil_awvalid_i;
    d.s_axil_arvalid_i = op && !op->write && !op->issued;
    if (op) {
      d.s_axil_awaddr_i = op->addr;
      d.s_axil_araddr_i = op->addr;
      d.s_axil_wdata_i = op->data;
      d.s_axil_wstrb_i = op->strb;
    }
    d.s_axil_bready_i = 1;
    d.s_axil_rready_i = 1;
    // DMA: reads taken at once (the endpoint queues them), beats of a ready burst in order per
    // ID (a burst runs to its end; receive's first)
    d.m_axi_arready_i = 1;
    if (r_id < 0) {
      for (int id : {1, 0}) {
        if (!rd[id].empty() && rd[id].front().ready) {
          r_id = id;
          break;
        }
      }
    }
    d.m_axi_rvalid_i = r_id >= 0;
    if (r_id >= 0) {
      const RdBurst& b = rd[r_id].front();
      port_bytes_in(d.m_axi_rdata_i, b.data.data() + size_t{b.sent} * kB, kB);
      d.m_axi_rid_i = static_cast<uint8_t>(r_id);
      d.m_axi_rresp_i = b.ok ? 0 : 2;
      d.m_axi_rlast_i = b.sent + 1 == b.beats;
    }
    d.m_axi_awready_i = !wr_open;
    d.m_axi_wready_i = wr_open;
    d.m_axi_bvalid_i = !bq.empty() && bq.front().second;
    if (!bq.empty()) d.m_axi_bid_i = bq.front().first;
    d.m_axi_bresp_i = 0;
    d.msi_ready_i = 1;
  }

  void sample(Model& d) {
    if (!regs.empty()) {
      RegOp& op = regs.front();
      if ((d.s_axil_awvalid_i && d.s_axil_awready_o) || (d.s_axil_arvalid_i && d.s_axil_arready_o))
        op.issued = true;
      if (op.write && d.s_axil_bvalid_o) {
        if (d.s_axil_bresp_o != 0) ++st.reg_errors;
        regs.pop_front();
      } else if (!op.write && d.s_axil_rvalid_o) {
        if (d.s_axil_rresp_o != 0) ++st.reg_errors;
        RegOp done = std::move(op);
        regs.pop_front();
        done.done(d.s_axil_rresp_o == 0, d.s_axil_rdata_o);
      }
    }
    if (d.m_axi_arvalid_o) {  // arready is 1
      const int id = d.m_axi_arid_o;
      rd[id].push_back(RdBurst{d.m_axi_arlen_o + 1u, 0, false, true, {}});
      RdBurst* b = &rd[id].back();
      ++st.dma_reads;
      ep.dma_read(d.m_axi_araddr_o, b->beats * kB,
                  [this, b, a = alive](sim::pcie::CplStatus s, std::vector<uint8_t> bytes) {
                    if (a.expired()) return;
                    b->ok = s == sim::pcie::CplStatus::SC;
                    b->data = std::move(bytes);
                    b->data.resize(size_t{b->beats} * kB);
                    b->ready = true;
                    nic.clock().wake();
                  });
    }
    if (d.m_axi_rvalid_i && d.m_axi_rready_o) {
      RdBurst& b = rd[r_id].front();
      if (++b.sent == b.beats) {
        rd[r_id].pop_front();
        r_id = -1;
      }
    }
    if (d.m_axi_awvalid_o && d.m_axi_awready_i) {
      wr = WrBurst{d.m_axi_awid_o != 0, d.m_axi_awaddr_o, d.m_axi_awlen_o + 1u, 0, {}, {}};
      wr_open = true;
    }
    if (d.m_axi_wvalid_o && d.m_axi_wready_i) {
      uint8_t beat[kB];
      port_bytes_out(d.m_axi_wdata_o, beat, kB);
      for (unsigned i = 0; i < kB; ++i) {
        wr.data.push_back(beat[i]);
        wr.strb.push_back((d.m_axi_wstrb_o >> i) & 1);
      }
      if (++wr.got == wr.beats) {
        write_burst();
        wr_open = false;
      }
    }
    if (d.m_axi_bvalid_i && d.m_axi_bready_o) {
      bq.pop_front();
      ++bq_popped;
    }
    if (d.msi_valid_o && d.msi_ready_i) {
      ++st.msis;
      ep.msi(d.msi_vec_o);
    }
  }

  // The burst's strobed bytes as DMA writes, one per run of them; its response once the last
  // has left for the link.
  void write_burst() {
    ++st.dma_writes;
    bq.push_back({wr.id, false});
    const size_t slot = bq.size() - 1 + bq_popped;
    std::vector<std::pair<uint64_t, std::vector<uint8_t>>> runs;
    for (size_t i = 0; i < wr.data.size(); ++i) {
      if (!wr.strb[i]) continue;
      if (runs.empty() || i == 0 || !wr.strb[i - 1]) runs.push_back({wr.addr + i, {}});
      runs.back().second.push_back(wr.data[i]);
    }
    if (runs.empty()) {
      bq.back().second = true;
      return;
    }
    for (size_t r = 0; r < runs.size(); ++r) {
      const bool last = r + 1 == runs.size();
      ep.dma_write(runs[r].first, std::move(runs[r].second),
                   last ? std::function<void()>([this, slot, a = alive] {
                     if (a.expired()) return;
                     bq.at(slot - bq_popped).second = true;
                     nic.clock().wake();
                   })
                        : std::function<void()>());
    }
  }

  bool busy() const {
    return !regs.empty() || r_id >= 0 || wr_open || !bq.empty() || !rd[0].empty() || !rd[1].empty();
  }

  sim::Kernel& k;
  NicDmaStats st;
  NicModel<Model, kB> nic;
  sim::pcie::Endpoint ep;
  std::deque<RegOp> regs;
  std::deque<RdBurst> rd[2];
  int r_id = -1;  // the ID whose burst is being returned
  WrBurst wr;
  bool wr_open = false;
  std::deque<std::pair<bool, bool>> bq;  // write responses: ID, its writes have left
  size_t bq_popped = 0;
  std::shared_ptr<int> alive_token = std::make_shared<int>(0);
  std::weak_ptr<int> alive = alive_token;
};

NicDmaDevice::NicDmaDevice(sim::Kernel& k, sim::pcie::Link::Port& port,
                           const sim::pcie::PcieParams& p, sim::NetPort& mac, double freq_mhz,
                           uint64_t seed)
    : impl_(std::make_unique<Impl>(*this, k, port, p, mac, freq_mhz, seed)) {}

NicDmaDevice::~NicDmaDevice() = default;

sim::pcie::Endpoint& NicDmaDevice::endpoint() { return impl_->ep; }
const NicDmaStats& NicDmaDevice::stats() const { return impl_->st; }
unsigned NicDmaDevice::max_bytes() const { return CNI_BLK_nic_pcie_dma_r12_MaxBytes; }
void NicDmaDevice::on_mac_rx(NicFrameObserver fn) { impl_->nic.mac().on_rx(std::move(fn)); }
void NicDmaDevice::on_mac_tx(NicFrameObserver fn) { impl_->nic.mac().on_tx(std::move(fn)); }

// Each 64-bit word the bytes touch, with the strobes of those bytes (a part of a word is
// refused by the registers; beyond their window, dropped and counted).
void NicDmaDevice::bar_write(unsigned bar, uint64_t offset, const uint8_t* data, unsigned n) {
  if (bar != 0) throw std::logic_error("nic: a write to BAR " + std::to_string(bar));
  for (uint64_t w = offset & ~uint64_t{7}; w < offset + n; w += 8) {
    if (w >= kRegBytes) {
      ++impl_->st.reg_errors;
      continue;
    }
    Impl::RegOp op;
    op.write = true;
    op.addr = static_cast<uint8_t>(w);
    for (unsigned i = 0; i < 8; ++i) {
      if (w + i >= offset && w + i < offset + n) {
        op.data |= uint64_t{data[w + i - offset]} << (8 * i);
        op.strb |= static_cast<uint8_t>(1u << i);
      }
    }
    impl_->regs.push_back(std::move(op));
  }
  impl_->nic.clock().wake();
}

// The words the bytes touch, read in order; the bytes asked once all are in (nullptr, a
// Completer Abort, when one was refused or lies beyond the registers' window).
void NicDmaDevice::bar_read(unsigned bar, uint64_t offset, unsigned n,
                            std::function<void(const uint8_t*)> done) {
  if (bar != 0) throw std::logic_error("nic: a read of BAR " + std::to_string(bar));
  const uint64_t first = offset & ~uint64_t{7}, end = offset + n;
  if (end > kRegBytes) {
    ++impl_->st.reg_errors;
    done(nullptr);
    return;
  }
  struct Gather {
    std::vector<uint8_t> bytes;
    bool ok = true;
    unsigned left = 0;
  };
  auto g = std::make_shared<Gather>();
  g->left = static_cast<unsigned>((end - first + 7) / 8);
  g->bytes.resize(size_t{g->left} * 8);
  for (uint64_t w = first; w < end; w += 8) {
    Impl::RegOp op;
    op.addr = static_cast<uint8_t>(w);
    op.done = [g, w, first, offset, done](bool ok, uint64_t v) {
      g->ok = g->ok && ok;
      std::memcpy(g->bytes.data() + (w - first), &v, 8);
      if (--g->left == 0) done(g->ok ? g->bytes.data() + (offset - first) : nullptr);
    };
    impl_->regs.push_back(std::move(op));
  }
  impl_->nic.clock().wake();
}

}  // namespace cni::tb
