// SPDX-License-Identifier: Apache-2.0
// The host side of the NIC's PCIe system tests: an `enzian-pcie` host with the root complex on
// socket 0 under a coherence checker and the PCIe link (tb::PcieRcHost), and the network in
// near-end loopback (002 §5.2 measures so) with the NIC's MAC port; a NIC device is put on the
// link's endpoint side, then enumerate() runs firmware's enumeration on core 0.
#pragma once

#include <memory>

#include "cni/sim/network.hpp"
#include "nic/pcie_rc.hpp"

namespace cni::test {

struct PcieHost : tb::PcieRcHost {
  PcieHost() : tb::PcieRcHost(sim::Profile::load("enzian-pcie")) {
    sim::NetParams np = sim::NetParams::from_profile(profile);
    np.topology = sim::NetTopology::Loopback;
    np.nodes = 1;
    net = std::make_unique<sim::Network>(*k, np);
    port = std::make_unique<sim::NetPort>(*net, 0);
  }

  std::unique_ptr<sim::Network> net;
  std::unique_ptr<sim::NetPort> port;
};

}  // namespace cni::test
