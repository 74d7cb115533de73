// SPDX-License-Identifier: Apache-2.0
// The NIC as a PCIe device in the host simulation (docs/nic.md, "In the host simulation"): the
// Verilated cni_nic_pcie (the datapath with its PCIe PIO interface, the block model nic_pcie_s4)
// behind a PCIe endpoint (sim::pcie::Endpoint), its MAC on a port of the network model.
//
// The endpoint's BAR accesses become AXI4 bursts on the model's slave, a beat a cycle, in the
// order they came (the hard IP's bypass master: one write and one read burst at a time); a read
// burst's beats return the bytes asked (a burst with a beat answered SLVERR: the endpoint answers
// the read Completer Abort). Frames the network delivers enter the model's MAC
// receive stream a beat a cycle, without their FCS (tuser: the FCS check failed); frames the
// model sends leave for the network with their FCS appended, to the node their header names.
// The model's clock sleeps while it is idle and nothing waits for it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "cni/sim/kernel.hpp"
#include "cni/sim/network.hpp"
#include "cni/sim/pcie.hpp"
#include "nic/nic_mac.hpp"

namespace cni::tb {

struct NicPcieGeometry {
  unsigned slots = 0;  // frame slots per ring
  uint64_t slot_bytes = 0;
  uint64_t ring_bytes = 0;  // the receive ring at BAR offset 0, the transmit ring after it
  uint64_t regs = 0;        // the registers' BAR offset
  uint64_t bar_bytes = 0;   // BAR 0's size
  unsigned max_bytes = 0;   // the longest frame on the MAC's streams (its FCS not counted)
};

// The registers, by their word index at NicPcieGeometry::regs (docs/nic.md).
enum class NicReg : unsigned {
  RxHead = 0,
  RxTail = 1,
  TxPost = 2,
  TxTail = 3,
  Geometry = 4,
  Errors = 5
};
// RX_SLOT[i] is at regs + kNicRxSlot + 8 i.
inline constexpr uint64_t kNicRxSlot = 64;

struct NicPcieStats : NicMacStats {
  uint64_t axi_errors = 0;  // write bursts answered SLVERR and read beats answered SLVERR
};

class NicPcieDevice : public sim::pcie::BarTarget {
 public:
  using FrameObserver = NicFrameObserver;

  NicPcieDevice(sim::Kernel& k, sim::pcie::Link::Port& port, const sim::pcie::PcieParams& p,
                sim::NetPort& mac, double freq_mhz, uint64_t seed);
  ~NicPcieDevice() override;
  NicPcieDevice(const NicPcieDevice&) = delete;
  NicPcieDevice& operator=(const NicPcieDevice&) = delete;

  sim::pcie::Endpoint& endpoint();
  const NicPcieGeometry& geometry() const;
  const NicPcieStats& stats() const;
  void on_mac_rx(FrameObserver fn);  // the last beat entered the receive stream
  void on_mac_tx(FrameObserver fn);  // the last beat left the transmit stream

  void bar_write(unsigned bar, uint64_t offset, const uint8_t* data, unsigned n) override;
  void bar_read(unsigned bar, uint64_t offset, unsigned n,
                std::function<void(const uint8_t* data)> done) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cni::tb
