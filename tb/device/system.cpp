// SPDX-License-Identifier: Apache-2.0
#include "device/system.hpp"

#include <stdexcept>
#include <string>

#include "rtl_errors.hpp"

namespace cni::tb {

System::System(const sim::Profile& profile, const Configure& configure) : sim::Cluster(profile) {
  unsigned total = 0;
  for (unsigned n = 0; n < num_nodes(); ++n) total += num_devices(n);
  devices_.resize(num_nodes());
  for (unsigned n = 0; n < num_nodes(); ++n) {
    sim::Node& nd = node(n);
    checkers_.push_back(std::make_unique<CoherenceChecker>(nd.fabric().line_bytes()));
    nd.host().set_observer(checkers_.back().get());
    for (unsigned d = 0; d < num_devices(n); ++d) {
      SimDevice::Config cfg = SimDevice::config_from(nd.profile());
      cfg.host_offset = d * kDeviceWindow;
      cfg.node = n;
      if (configure) configure(n, d, cfg);
      if (total > 1) cfg.trace_name += "-n" + std::to_string(n) + "d" + std::to_string(d);
      devices_[n].push_back(std::make_unique<SimDevice>(
          kernel(), nd.fabric(), nd.host().device_node(d), nd.host().device_agent(d), cfg));
      // the cores' uncached loads and stores of the device's window reach its engines' registers
      SimDevice& dev = *devices_[n].back();
      dev.set_observer(checkers_[n].get());
      nd.host().map_device_registers(dev.host_base(), dev.geometry().size_bytes());
      // the node's network port: its first device's MAC
      if (d == 0) dev.attach_network(nd.net_port());
    }
  }
}

System::~System() {
  for (unsigned n = 0; n < checkers_.size(); ++n) {
    const auto& errs = checkers_[n]->errors();
    if (errs.empty()) continue;
    rtl_error("coherence checker, node " + std::to_string(n) + ": " +
              std::to_string(errs.size()) + " violation(s); the first: " + errs.front());
  }
}

CoherenceChecker& System::checker(unsigned node) {
  if (node >= checkers_.size()) {
    throw std::out_of_range("System::checker: no node " + std::to_string(node) + " (" +
                            std::to_string(checkers_.size()) + " nodes)");
  }
  return *checkers_[node];
}

SimDevice& System::device(unsigned node, unsigned device) {
  if (node >= devices_.size() || device >= devices_[node].size()) {
    throw std::out_of_range(
        "System::device: no device " + std::to_string(device) + " on node " + std::to_string(node) +
        " (" + std::to_string(devices_.size()) + " nodes" +
        (node < devices_.size() ? ", " + std::to_string(devices_[node].size()) + " devices on it"
                                : std::string()) +
        ")");
  }
  return *devices_[node][device];
}

}  // namespace cni::tb
