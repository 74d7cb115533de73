// SPDX-License-Identifier: Apache-2.0
// The Verilated device core as an agent of the host simulation: messages from the fabric enter
// the RTL's link ports under its credit protocol, messages the RTL emits go back into the
// fabric, the RTL is clocked by its own clock domain, and the PIO (a) stream can be looped back
// into (b) so messages sent by the CPU come back to it. The host may see the device's lines at
// another base than the RTL's DevBase (several devices on one node); the adapter moves the
// addresses of the device's lines between the two windows. Device logic outside the core
// reaches host-homed lines through its caching agent: submit() drives the endpoint's ca_* ports
// (the engine API of RtlCacheAgent), and the agent's monitor reports to a CoherenceObserver.
// While the core is quiescent (docs/endpoint.md, "Quiescence") its clock sleeps, for as long as
// the core promises nothing changes or until an input arrives; a run is the same with and
// without sleeping (Config::skip_idle), only faster.
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cache_port.hpp"
#include "cni/drv/pio.hpp"
#include "cni/drv/pio_stream.hpp"
#include "cni/sim/coherence.hpp"
#include "cni/sim/fabric.hpp"
#include "cni/sim/kernel.hpp"
#include "cni/sim/network.hpp"
#include "cni/sim/profile.hpp"
#include "device/endpoint.hpp"

namespace cni::tb {

class SimDevice : public sim::Agent {
 public:
  struct Config {
    double freq_mhz = 300.0;            // device clock
    double park_timeout_us = 50'000.0;  // parked request -> Retry
    uint32_t ret_excl_regions = ~0u;    // CSR RET_EXCL (bit per region: every region)
    uint16_t ca_clean_cycles = 0;       // CSR CA_CLEAN: the caching agent's idle clean (0: off)
    double credit_return_ns = 150.0;    // a tx credit travels back over the link
    bool loop_a_to_b = true;            // PIO (a) messages come back on (b)
    bool trace = false;
    std::string trace_name = "device";
    uint64_t host_offset = 0;  // the host sees device line 0 at the device's DevBase + this
    uint64_t seed = 1;         // Verilator randReset seed and the response stall's
    double ca_rsp_stall = 0.0;  // probability that the engine holds off a caching-agent response
    unsigned line_bytes = 128;  // picks the device model (Endpoint::Options::line_bytes)
    std::string variant;        // and its variant (Endpoint::Options::variant)
    bool skip_idle = true;      // the clock sleeps while the core is quiescent
    unsigned node = 0;          // the device's node (node_id_i: the source of its frames)
    double dram_stall = 0.0;    // Endpoint::Options::dram_stall (a model with DRAM-backed lines)
    // The MAC's queues (Endpoint::Options::net_channels): 2, a queue each way per channel, the
    // network held per channel; 1, one queue each way and one hold for both channels.
    unsigned net_channels = 2;
  };
  // Config from profile keys line_bytes, device.freq_mhz, device.park_timeout_us,
  // device.ca_clean_cycles (0 when the profile lacks it),
  // device.skip_idle (true when the profile lacks it), link.one_way_ns (credit_return_ns; 0 on
  // seed 000's buses, bus.model), device.cni (the CNI engine's configuration: NI2w, CNI16Q,
  // CNI512Q or CNI16Qm picks the model that carries it; absent: the build's own).
  static Config config_from(const sim::Profile& p);
  // The variant of this build's device model at `line_bytes`-byte lines, not pipelined, with the
  // CNI engine `cni` names (NI2w, CNI4, CNI16Q, CNI512Q, CNI16Qm, none) and EarlyPull = `early`;
  // std::invalid_argument, naming what the build has, when there is none.
  static std::string device_variant(unsigned line_bytes, const std::string& cni, bool early);

  SimDevice(sim::Kernel& k, sim::Fabric& f, sim::NodeId node, proto::AgentId id,
            const Config& cfg);
  ~SimDevice() override;

  void deliver(const proto::Msg& m) override;
  // Joins the device's network port (its AXI4-Stream MAC side, docs/endpoint.md "Network port")
  // to the node's port on the network, as a MAC does: a frame the device sends leaves with its
  // FCS (the device waits while the network refuses it); a frame that arrives enters the device
  // without its FCS, marked bad when the FCS check failed (docs/network.md). With two channels
  // each is queued and held apart both ways: the device starts a frame of a channel only while
  // no earlier frame of it waits for the network (net_tx_room_i), and a channel's frames stop
  // coming while the device has kNetRxHold of them waiting to enter. std::logic_error if the
  // device sends a frame on a channel without room.
  void attach_network(sim::NetPort& port);
  // Frames the device sent to a node the network cannot reach (dropped by the MAC).
  uint64_t net_unroutable() const { return net_unroutable_; }
  // The core's clock, asleep or not (tests).
  const sim::ClockDomain& clock() const { return clk_; }

  // The core, brought up to the clock's cycle first (a direct access, a CSR read say, clocks it;
  // a sleeping clock wakes).
  Endpoint& endpoint();
  const DeviceGeometry& geometry() const { return ep_.geometry(); }
  // The host's address of device line 0 (DevBase + Config::host_offset) and of device line `line`.
  uint64_t host_base() const { return host_base_; }
  uint64_t host_addr(unsigned line) const;
  // The host's address of region r's first line (an engine's register page).
  uint64_t region_addr(DeviceGeometry::RegionId r) const { return host_addr(geometry().base(r)); }
  // Device cycles simulated up to now (slept ones included), and those the model was clocked.
  uint64_t cycles() const { return std::max(ep_.cycle(), cycle0_ + clk_.elapsed()); }
  uint64_t clocked_cycles() const { return ep_.clocked(); }
  // Layout of the PIO (c) channel (host addresses), for cni::drv::PioChannel.
  drv::PioChannelLayout pio_layout() const;
  // Layout of the PIO (a) and (b) channels (host addresses), for cni::drv::PioStream.
  drv::PioStreamLayout pio_stream_layout() const;
  // Wakes the core's clock: device logic outside the core has something for it (a (b) beat
  // offered through Endpoint::set_pb_source).
  void wake() { clk_.wake(); }

  // The caching agent's engine port (CachePort::submit; `addr` a host-homed line): requests
  // enter the endpoint in order as engine ids are free, `done` runs when the response leaves.
  void submit(CaOp op, proto::Addr addr, CachePort::Done done, const uint8_t* data = nullptr,
              const CaByteMask* be = nullptr);
  // Receives the caching agent's state changes (OM as SM) and performed accesses (the external
  // port's and the engines') under this device's agent id, its RdNA and WrInv misses under the
  // id of the home that performs them, and every engine write of a device line through port B
  // as a home-side store (on_home_store) under this device's id.
  void set_observer(sim::CoherenceObserver* obs) {
    obs_ = obs;
    port_.set_observer(obs);
  }
  // The caching agent's lines as its monitor reported them, its open requests, and the checks
  // of its responses and monitor reports (CachePort::errors).
  const CachePort& cache() const { return port_; }

  // Device-side processing latency, in device cycles, of every request that reached an idle
  // device: from the cycle it is at the device port to the cycle the first message (answer or
  // snoop) leaves the device.
  const std::vector<uint32_t>& first_response_cycles() const { return first_resp_; }
  void clear_latency_samples() { first_resp_.clear(); }

 private:
  sim::Kernel& k_;
  sim::Fabric& f_;
  Config cfg_;
  Endpoint ep_;
  CachePort port_;
  sim::CoherenceObserver* obs_ = nullptr;
  uint64_t host_base_ = 0;
  sim::ClockDomain clk_;
  uint64_t cycle0_ = 0;  // the core's cycle before the clock's edge 0
  // network port
  sim::NetPort* net_ = nullptr;
  // per channel (one queue: [0] only): sent by the device, refused by the network so far; the
  // port's rx_ready is low, the device is behind
  std::deque<sim::Frame> net_out_[2];
  bool net_rx_held_[2] = {false, false};
  uint64_t net_unroutable_ = 0;
  void net_retry();
  void on_edge(uint64_t cycle);
  unsigned open_reqs_ = 0;          // requests in, not yet answered
  bool awaiting_first_ = false;     // a request reached an idle device; its first output counts
  uint64_t first_in_cycle_ = 0;
  std::vector<uint32_t> first_resp_;
};

}  // namespace cni::tb
