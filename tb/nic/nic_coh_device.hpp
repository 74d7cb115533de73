// SPDX-License-Identifier: Apache-2.0
// The NIC behind the coherent link (docs/nic.md, "Coherent PIO interface"; seed 002 Fig. 9c): the
// Verilated NIC with its coherent-PIO interface (cni_nic_eci: the datapath and cni_nic_coh, the
// block model nic_eci_l128) at its own clock, its line-wide streams joined to the PIO engine of a
// device core (SimDevice) -- protocol (a)'s stream into the NIC's transmit side, the NIC's good
// frames into protocol (b)'s stream -- and its MAC on a port of the network model.
//
// Between the two clocks each direction has the clock-domain crossing an FPGA design puts there
// (an AXI4-Stream clock converter): a FIFO of kCdcLines line-wide beats whose entries become
// visible on the reading side kCdcSyncCycles of that side's clock after they are written (the
// write pointer's synchronizer), and whose places, once read, become free to the writing side
// kCdcSyncCycles of the writer's clock later (the read pointer's).
#pragma once

#include <cstdint>
#include <memory>

#include "cni/sim/kernel.hpp"
#include "cni/sim/network.hpp"
#include "nic/nic_mac.hpp"

namespace cni::tb {

class SimDevice;

using NicCohStats = NicMacStats;

class NicCohDevice {
 public:
  static constexpr unsigned kCdcLines = 16;      // each direction's crossing FIFO, line-wide beats
  static constexpr unsigned kCdcSyncCycles = 2;  // write -> visible to the reader, its cycles

  // `dev`'s PIO streams are taken over: its (a) messages go to the NIC, not back to (b). Throws
  // std::invalid_argument when the device's line is not the NIC model's (line_bytes()).
  NicCohDevice(sim::Kernel& k, SimDevice& dev, sim::NetPort& mac, double freq_mhz, uint64_t seed);
  ~NicCohDevice();
  NicCohDevice(const NicCohDevice&) = delete;
  NicCohDevice& operator=(const NicCohDevice&) = delete;

  // The line the NIC model's PIO streams carry.
  static unsigned line_bytes();
  // The longest frame on the MAC's streams the datapath takes (its FCS not counted).
  unsigned max_bytes() const;
  // The datapath's receive buffer: frames and 64-byte words it holds at most.
  unsigned rx_buffer_frames() const;
  unsigned rx_buffer_beats() const;
  const NicCohStats& stats() const;
  void on_mac_rx(NicFrameObserver fn);  // the last beat entered the receive stream
  void on_mac_tx(NicFrameObserver fn);  // the last beat left the transmit stream

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cni::tb
