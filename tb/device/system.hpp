// SPDX-License-Identifier: Apache-2.0
// A simulated system built from a Profile (docs/host-sim.md, "Systems and nodes"): the nodes
// of a sim::Cluster -- each a host and its device slots in a coherence domain of its own, all
// on one kernel, their network ports joined by the network -- with a Verilated device core
// (SimDevice) in every device slot. The tests and every cni-bench suite build their systems
// with it; node.devices = 0 builds a host-only system.
//
// Every node has a coherence checker (tb::CoherenceChecker) that its host caches and its
// devices' caching agents report to: single writer / multiple readers and accesses in permitted
// states, on every line, in every run. It checks data values only on the ranges a test or a
// suite watches (checker(n).watch). A violation is reported like an RTL error when the system
// is destroyed (tb::rtl_error: the running test fails, cni-bench exits with an error). A test
// that attaches a checker of its own (set_observer) replaces the node's.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "cni/sim/cluster.hpp"
#include "cni/sim/profile.hpp"
#include "coherence_checker.hpp"
#include "device/sim_device.hpp"

namespace cni::tb {

class System : public sim::Cluster {
 public:
  // The host of a node sees its device d at DevBase + d * kDeviceWindow.
  static constexpr uint64_t kDeviceWindow = uint64_t{1} << 32;
  // Changes the configuration of device `device` of node `node` before it is built.
  using Configure = std::function<void(unsigned node, unsigned device, SimDevice::Config& cfg)>;

  // Every device's Config starts as SimDevice::config_from(its node's profile) with its
  // window's host_offset; `configure` may then change it (RET_EXCL, tracing, ...). In a system
  // of more than one device, "-n<node>d<device>" is appended to every trace_name so that the
  // waveforms do not overwrite each other.
  explicit System(const sim::Profile& profile, const Configure& configure = {});
  ~System();

  unsigned num_devices(unsigned node) { return this->node(node).host().num_devices(); }
  // Throws std::out_of_range naming the node and the device when there is no such device.
  SimDevice& device(unsigned node, unsigned device);
  // The node's coherence checker (std::out_of_range for no such node).
  CoherenceChecker& checker(unsigned node);

 private:
  std::vector<std::unique_ptr<CoherenceChecker>> checkers_;       // [node]
  std::vector<std::vector<std::unique_ptr<SimDevice>>> devices_;  // [node][device]
};

}  // namespace cni::tb
