// SPDX-License-Identifier: Apache-2.0
// A Verilated NIC model in the host simulation, as every host interface's adapter has one: its
// Verilator context, the model out of reset, its own clock and its MAC side (nic_mac.hpp) on a
// network port. Each clock edge runs one cycle: the MAC side's inputs then the owner's, the
// handshakes the MAC side then the owner sees, the edge; the clock then sleeps while neither the
// owner (`busy`) nor the MAC side has anything under way and the model is idle (idle_o).
#pragma once

#include <cstdint>
#include <functional>
#include <memory>

#include "cni/sim/kernel.hpp"
#include "cni/sim/network.hpp"
#include "nic/nic_mac.hpp"
#include "vlt_model.hpp"

namespace cni::tb {

// Two clock cycles of a NIC model's active-low reset (clk_i, rst_ni), then out of reset.
template <class Model>
void nic_reset(Model& m) {
  m.clk_i = 0;
  m.rst_ni = 0;
  m.eval();
  for (int i = 0; i < 2; ++i) {
    m.clk_i = 1;
    m.eval();
    m.clk_i = 0;
    m.eval();
  }
  m.rst_ni = 1;
  m.eval();
}

// One cycle of a NIC model: its inputs driven with the clock low, the handshakes of the coming
// edge seen once they have settled, then the rising edge.
template <class Model, class Drive, class Sample>
void nic_cycle(Model& m, Drive&& drive, Sample&& sample) {
  drive();
  m.clk_i = 0;
  m.eval();
  sample();
  m.clk_i = 1;
  m.eval();
}

template <class Model, unsigned Bytes>
class NicModel {
 public:
  using Hook = std::function<void(Model&)>;

  NicModel(sim::Kernel& k, sim::NetPort& port, NicMacStats& st, const char* name, double freq_mhz,
           uint64_t seed)
      : st_(st),
        ctx_(make_context(seed, false)),
        m_(std::make_unique<Model>(ctx_.get(), "nic")),
        clk_(k, name, freq_mhz),
        mac_(k, port, st, [this] { clk_.wake(); }) {
    make_current(ctx_.get());
    nic_reset(*m_);
  }
  ~NicModel() {
    make_current(ctx_.get());
    m_->final();
  }
  NicModel(const NicModel&) = delete;
  NicModel& operator=(const NicModel&) = delete;

  // Starts the clock with the owner's share of each cycle.
  void start(Hook drive, Hook sample, std::function<bool()> busy) {
    drive_ = std::move(drive);
    sample_ = std::move(sample);
    busy_ = std::move(busy);
    clk_.on_rising([this](uint64_t) { edge(); });
    clk_.start();
  }

  sim::ClockDomain& clock() { return clk_; }
  NicMac<Model, Bytes>& mac() { return mac_; }

 private:
  void edge() {
    make_current(ctx_.get());
    ++st_.cycles;
    Model& d = *m_;
    nic_cycle(
        d,
        [&] {
          mac_.drive(d);
          drive_(d);
        },
        [&] {
          mac_.sample(d);
          sample_(d);
        });
    if (!busy_() && mac_.idle() && d.idle_o) clk_.sleep();
  }

  NicMacStats& st_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Model> m_;
  sim::ClockDomain clk_;
  NicMac<Model, Bytes> mac_;
  Hook drive_, sample_;
  std::function<bool()> busy_;
};

}  // namespace cni::tb
