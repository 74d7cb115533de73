// SPDX-License-Identifier: Apache-2.0
#include "nic_coh_device.hpp"

#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "Vcni_nic_datapath_b64.h"
#include "device/sim_device.hpp"
#include "nic/nic_model.hpp"

namespace cni::tb {

namespace {
using Model = Vcni_nic_datapath_b64;
constexpr unsigned kB = CNI_BLK_nic_datapath_b64_Bytes;

uint64_t keep_of(size_t n) { return n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1; }
}  // namespace

struct NicCohDevice::Impl {
  // A datapath beat in the transmit crossing, and a line-wide beat in the receive crossing, with
  // the time its reader sees it.
  struct TxBeat {
    sim::AxisBeat b;
    sim::Time at = 0;
  };
  struct RxLine {
    std::vector<uint8_t> data;
    uint16_t len = 0;
    bool last = false;
    unsigned beats = 0;  // datapath beats it holds
    sim::Time at = 0;
  };

  Impl(sim::Kernel& k, SimDevice& dev, sim::NetPort& port, double freq_mhz, uint64_t seed)
      : k(k),
        dev(dev),
        nic(k, port, st, "nic-coh", freq_mhz, seed),
        lb(dev.geometry().line_bytes),
        per(lb / kB) {
    if (lb % kB != 0) {
      throw std::invalid_argument("NicCohDevice: " + std::to_string(lb) +
                                  "-byte lines are not whole 64-byte beats");
    }
    Endpoint& ep = dev.endpoint();
    ep.set_pa_ready([this] { return tx.size() + per <= kCdcBeats; });
    ep.set_pa_sink([this](const Endpoint::PioBeat& b) { from_pio(b); });
    ep.set_pb_source(
        [this](Endpoint::PioBeat& b) {
          if (rx.empty() || rx.front().at > this->k.now()) return false;
          b = Endpoint::PioBeat{rx.front().data.data(), rx.front().len, rx.front().last};
          return true;
        },
        [this] {
          rx_beats -= rx.front().beats;
          rx.pop_front();
        });
    nic.start([this](Model& d) { drive(d); }, [this](Model& d) { sample(d); },
              [this] { return busy(); });
  }
  ~Impl() {
    Endpoint& ep = dev.endpoint();
    ep.set_pa_ready([] { return true; });
    ep.set_pa_sink({});
    ep.set_pb_source({}, {});
  }

  // A wake-up at `at`, dropped if this adapter is gone by then.
  void wake_at(sim::Time at, std::function<void()> wake) {
    k.at(at, [w = std::weak_ptr<int>(alive), wake = std::move(wake)] {
      if (!w.expired()) wake();
    });
  }

  // A line-wide beat of (a)'s stream: the datapath beats that hold the message's bytes.
  void from_pio(const Endpoint::PioBeat& b) {
    const sim::Time at = k.now() + kCdcSyncCycles * nic.clock().period();
    for (unsigned j = 0; j < per; ++j) {
      const size_t off = pa_off + size_t{j} * kB;
      if (off >= b.len) break;
      TxBeat t;
      t.b.tdata.assign(b.data + j * kB, b.data + (j + 1) * kB);
      t.b.tkeep = keep_of(b.len - off);
      t.b.tlast = b.last && off + kB >= b.len;
      t.at = at;
      tx.push_back(std::move(t));
    }
    pa_off = b.last ? 0 : pa_off + lb;
    wake_at(at, [this] { nic.clock().wake(); });
  }

  void drive(Model& d) {
    d.host_tx_tvalid_i = !tx.empty() && tx.front().at <= k.now();
    if (d.host_tx_tvalid_i) {
      nic_set_bytes<kB>(d.host_tx_tdata_i, tx.front().b.tdata.data());
      d.host_tx_tkeep_i = tx.front().b.tkeep;
      d.host_tx_tlast_i = tx.front().b.tlast;
      d.host_tx_tuser_i = 0;
    }
    d.host_rx_tready_i = rx_beats + 1 <= kCdcBeats;
  }

  void sample(Model& d) {
    if (d.host_tx_tvalid_i && d.host_tx_tready_o) tx.pop_front();
    if (d.host_rx_tvalid_o && d.host_rx_tready_i) {
      if (cur.beats == 0) cur.data.assign(lb, 0);
      nic_get_bytes<kB>(d.host_rx_tdata_o, cur.data.data() + size_t{cur.beats} * kB);
      ++cur.beats;
      ++rx_beats;
      cur.len = d.host_rx_len_o;
      if (d.host_rx_tlast_o || cur.beats == per) {
        cur.last = d.host_rx_tlast_o;
        cur.at = k.now() + kCdcSyncCycles * dev.clock().period();
        wake_at(cur.at, [this] { dev.wake(); });
        rx.push_back(std::move(cur));
        cur = RxLine{};
      }
    }
  }

  bool busy() const { return !tx.empty(); }

  sim::Kernel& k;
  SimDevice& dev;
  NicCohStats st;
  NicModel<Model, kB> nic;
  const unsigned lb, per;
  std::deque<TxBeat> tx;
  size_t pa_off = 0;  // bytes of (a)'s current message already in the crossing
  std::deque<RxLine> rx;
  unsigned rx_beats = 0;  // datapath beats in the receive crossing
  RxLine cur;             // the line-wide beat being gathered
  std::shared_ptr<int> alive = std::make_shared<int>(0);
};

NicCohDevice::NicCohDevice(sim::Kernel& k, SimDevice& dev, sim::NetPort& mac, double freq_mhz,
                           uint64_t seed)
    : impl_(std::make_unique<Impl>(k, dev, mac, freq_mhz, seed)) {}

NicCohDevice::~NicCohDevice() = default;

unsigned NicCohDevice::max_bytes() const { return CNI_BLK_nic_datapath_b64_MaxBytes; }
unsigned NicCohDevice::rx_buffer_frames() const { return CNI_BLK_nic_datapath_b64_Frames; }
unsigned NicCohDevice::rx_buffer_beats() const { return CNI_BLK_nic_datapath_b64_RxBeats; }
const NicCohStats& NicCohDevice::stats() const { return impl_->st; }
void NicCohDevice::on_mac_rx(NicFrameObserver fn) { impl_->nic.mac().on_rx(std::move(fn)); }
void NicCohDevice::on_mac_tx(NicFrameObserver fn) { impl_->nic.mac().on_tx(std::move(fn)); }

}  // namespace cni::tb
