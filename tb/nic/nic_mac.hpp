// SPDX-License-Identifier: Apache-2.0
// The MAC side of a Verilated NIC model in the host simulation (docs/nic.md, "In the host
// simulation"), shared by every host interface's adapter: frames the network delivers enter the
// model's MAC receive stream (mac_rx_*) a beat a cycle, without their FCS (tuser: the FCS check
// failed); frames the model sends (mac_tx_*) leave for the network with their FCS appended, to
// the node their header names, the MAC held not ready while the port's buffer is full. The
// model's frame counters (rx_cnt_*, tx_cnt_*) are summed.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <vector>

#include "cni/sim/frame.hpp"
#include "cni/sim/kernel.hpp"
#include "cni/sim/network.hpp"
#include "port_bytes.hpp"

namespace cni::tb {

// Frames through the MAC's streams, by cause (the datapath's counters).
struct NicMacStats {
  uint64_t rx_frames = 0, rx_runt = 0, rx_oversize = 0, rx_bad_fcs = 0, rx_overflow = 0;
  uint64_t tx_frames = 0, tx_runt = 0, tx_oversize = 0;
  uint64_t cycles = 0;  // the model's cycles clocked
};

// Called with a frame's bytes on the MAC's stream (no FCS) when its last beat passes.
using NicFrameObserver = std::function<void(const std::vector<uint8_t>& frame, sim::Time t)>;

// Bytes: the MAC streams' beat (64: tkeep in one QData).
template <class Model, unsigned Bytes>
class NicMac {
  static_assert(Bytes == 64, "the MAC streams are 512 bits wide (tkeep in one QData)");

 public:
  // `wake` wakes the model's clock (a frame arrived, the network has room again); the counts go
  // to `st`.
  NicMac(sim::Kernel& k, sim::NetPort& port, NicMacStats& st, std::function<void()> wake)
      : k_(k), port_(port), st_(st), wake_(std::move(wake)) {
    port_.on_receive([this](const sim::Frame& f) { from_network(f); });
    port_.on_space([this] { wake_(); });
  }

  void on_rx(NicFrameObserver fn) { rx_obs_ = std::move(fn); }
  void on_tx(NicFrameObserver fn) { tx_obs_ = std::move(fn); }
  // Nothing waits to enter the model or to leave for the network.
  bool idle() const { return rx_.empty() && !tx_held_; }

  // Before the cycle's edge: offers a held frame to the network again, then drives the MAC
  // streams' inputs.
  void drive(Model& d) {
    if (tx_held_ && port_.try_send(held_)) tx_held_ = false;
    d.mac_rx_tvalid_i = !rx_.empty();
    if (!rx_.empty()) {
      port_bytes_in(d.mac_rx_tdata_i, rx_.front().tdata.data(), Bytes);
      d.mac_rx_tkeep_i = rx_.front().tkeep;
      d.mac_rx_tlast_i = rx_.front().tlast;
      d.mac_rx_tuser_i = rx_.front().tuser;
    }
    d.mac_tx_tready_i = !tx_held_;
  }

  // After the inputs settled, before the edge: the beats that pass in this cycle.
  void sample(const Model& d) {
    if (d.mac_rx_tvalid_i) {  // the receive stream has no tready
      const sim::AxisBeat& b = rx_.front();
      rx_cur_.insert(rx_cur_.end(), b.tdata.begin(), b.tdata.begin() + std::popcount(b.tkeep));
      if (b.tlast) {
        if (rx_obs_) rx_obs_(rx_cur_, k_.now());
        rx_cur_.clear();
      }
      rx_.pop_front();
    }
    if (d.mac_tx_tvalid_o && d.mac_tx_tready_i) {
      uint8_t b[Bytes];
      port_bytes_out(d.mac_tx_tdata_o, b, Bytes);
      tx_cur_.insert(tx_cur_.end(), b, b + std::popcount(static_cast<uint64_t>(d.mac_tx_tkeep_o)));
      if (d.mac_tx_tlast_o) {
        if (tx_obs_) tx_obs_(tx_cur_, k_.now());
        to_network(std::move(tx_cur_));
        tx_cur_.clear();
      }
    }
    st_.rx_frames += d.rx_cnt_frames_o;
    st_.rx_runt += d.rx_cnt_runt_o;
    st_.rx_oversize += d.rx_cnt_oversize_o;
    st_.rx_bad_fcs += d.rx_cnt_bad_fcs_o;
    st_.rx_overflow += d.rx_cnt_overflow_o;
    st_.tx_frames += d.tx_cnt_frames_o;
    st_.tx_runt += d.tx_cnt_runt_o;
    st_.tx_oversize += d.tx_cnt_oversize_o;
  }

 private:
  // The frame without its FCS, cut into beats (the MAC checks and strips the FCS).
  void from_network(const sim::Frame& f) {
    if (f.bytes.size() <= sim::kFcsBytes) return;
    sim::Frame body = f;
    body.bytes.resize(f.bytes.size() - sim::kFcsBytes);
    for (sim::AxisBeat& b : sim::to_beats(body, Bytes)) rx_.push_back(std::move(b));
    wake_();
  }

  void to_network(std::vector<uint8_t> bytes) {
    sim::Frame f;
    f.src = port_.node();
    f.dst = bytes.size() >= sim::kFrameHeaderBytes ? sim::parse_header(bytes).dst : port_.node();
    const uint32_t fcs = sim::crc32(bytes);
    for (unsigned i = 0; i < sim::kFcsBytes; ++i) {
      bytes.push_back(static_cast<uint8_t>(fcs >> (8 * i)));
    }
    f.bytes = std::move(bytes);
    if (!port_.try_send(f)) {
      held_ = std::move(f);
      tx_held_ = true;
    }
  }

  sim::Kernel& k_;
  sim::NetPort& port_;
  NicMacStats& st_;
  std::function<void()> wake_;
  std::deque<sim::AxisBeat> rx_;
  std::vector<uint8_t> rx_cur_, tx_cur_;
  sim::Frame held_;
  bool tx_held_ = false;
  NicFrameObserver rx_obs_, tx_obs_;
};

}  // namespace cni::tb
