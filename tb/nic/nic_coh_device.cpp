// SPDX-License-Identifier: Apache-2.0
#include "nic_coh_device.hpp"

#include <cstring>
#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "Vcni_nic_eci_l128.h"
#include "device/sim_device.hpp"
#include "nic/cdc_fifo.hpp"
#include "nic/nic_model.hpp"

namespace cni::tb {

namespace {
using Model = Vcni_nic_eci_l128;
constexpr unsigned kB = CNI_BLK_nic_eci_l128_Bytes;
constexpr unsigned kLine = CNI_BLK_nic_eci_l128_LineBytes;
}  // namespace

struct NicCohDevice::Impl {
  // A line-wide beat in a crossing.
  struct Line {
    std::vector<uint8_t> data;
    uint16_t len = 0;
    bool last = false;
  };

  Impl(sim::Kernel& k, SimDevice& dev, sim::NetPort& port, double freq_mhz, uint64_t seed)
      : k(k), dev(dev), nic(k, port, st, "nic-coh", freq_mhz, seed) {
    if (dev.geometry().line_bytes != kLine) {
      throw std::invalid_argument("NicCohDevice: the device's " +
                                  std::to_string(dev.geometry().line_bytes) +
                                  "-byte lines are not the NIC model's " + std::to_string(kLine));
    }
    Endpoint& ep = dev.endpoint();
    ep.set_pa_ready([this] { return tx.can_write(this->k.now()); });
    ep.set_pa_sink([this](const Endpoint::PioBeat& b) { from_pio(b); });
    ep.set_pb_source(
        [this](Endpoint::PioBeat& b) {
          if (!rx.can_read(this->k.now())) return false;
          b = Endpoint::PioBeat{rx.front().data.data(), rx.front().len, rx.front().last};
          return true;
        },
        [this] { wake_at(rx.read(this->k.now()), [this] { nic.clock().wake(); }); });
    nic.start([this](Model& d) { drive(d); }, [this](Model& d) { sample(d); },
              [this] { return !tx.empty(); });
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

  // A line-wide beat of (a)'s stream into the transmit crossing.
  void from_pio(const Endpoint::PioBeat& b) {
    Line l;
    l.data.assign(b.data, b.data + kLine);
    l.len = b.len;
    l.last = b.last;
    wake_at(tx.write(k.now(), std::move(l)), [this] { nic.clock().wake(); });
  }

  void drive(Model& d) {
    d.pa_valid_i = tx.can_read(k.now());
    if (d.pa_valid_i) {
      port_bytes_in(d.pa_data_i, tx.front().data.data(), kLine);
      d.pa_len_i = tx.front().len;
      d.pa_last_i = tx.front().last;
    }
    d.pb_ready_i = rx.can_write(k.now());
  }

  void sample(Model& d) {
    if (d.pa_valid_i && d.pa_ready_o) wake_at(tx.read(k.now()), [this] { dev.wake(); });
    if (d.pb_valid_o && d.pb_ready_i) {
      Line l;
      l.data.resize(kLine);
      port_bytes_out(d.pb_data_o, l.data.data(), kLine);
      l.len = d.pb_len_o;
      l.last = d.pb_last_o;
      wake_at(rx.write(k.now(), std::move(l)), [this] { dev.wake(); });
    }
  }

  sim::Kernel& k;
  SimDevice& dev;
  NicCohStats st;
  NicModel<Model, kB> nic;
  // the crossings: (a) beats from the device to the NIC, (b) beats from the NIC to the device
  CdcFifo<Line> tx{kCdcLines, kCdcSyncCycles, dev.clock().period(), nic.clock().period()};
  CdcFifo<Line> rx{kCdcLines, kCdcSyncCycles, nic.clock().period(), dev.clock().period()};
  std::shared_ptr<int> alive = std::make_shared<int>(0);
};

NicCohDevice::NicCohDevice(sim::Kernel& k, SimDevice& dev, sim::NetPort& mac, double freq_mhz,
                           uint64_t seed)
    : impl_(std::make_unique<Impl>(k, dev, mac, freq_mhz, seed)) {}

NicCohDevice::~NicCohDevice() = default;

unsigned NicCohDevice::line_bytes() { return kLine; }
unsigned NicCohDevice::max_bytes() const { return CNI_BLK_nic_eci_l128_MaxBytes; }
unsigned NicCohDevice::rx_buffer_frames() const { return CNI_BLK_nic_eci_l128_Frames; }
unsigned NicCohDevice::rx_buffer_beats() const { return CNI_BLK_nic_eci_l128_RxBeats; }
const NicCohStats& NicCohDevice::stats() const { return impl_->st; }
void NicCohDevice::on_mac_rx(NicFrameObserver fn) { impl_->nic.mac().on_rx(std::move(fn)); }
void NicCohDevice::on_mac_tx(NicFrameObserver fn) { impl_->nic.mac().on_tx(std::move(fn)); }

}  // namespace cni::tb
