// SPDX-License-Identifier: Apache-2.0
// The host side of the NIC's PCIe system tests: an `enzian-pcie` host with the root complex on
// socket 0 under a coherence checker, the PCIe link, and the network in near-end loopback (002
// §5.2 measures so) with the NIC's MAC port; a NIC device is put on the link's endpoint side,
// then enumerate() runs firmware's enumeration on core 0.
#pragma once

#include <memory>
#include <vector>

#include "cni/drv/pcie.hpp"
#include "cni/sim/host.hpp"
#include "cni/sim/network.hpp"
#include "cni/sim/pcie.hpp"
#include "cni/sim/profile.hpp"
#include "coherence_checker.hpp"

namespace cni::test {

struct PcieHost {
  static constexpr uint64_t kCfgBase = 0x3F'0000'0000;
  static constexpr uint64_t kBarWin = 0x40'0000'0000;

  PcieHost() {
    profile = sim::Profile::load("enzian-pcie");
    p = sim::pcie::PcieParams::from_profile(profile);
    k = std::make_unique<sim::Kernel>();
    f = std::make_unique<sim::Fabric>(*k, 128);
    sys = std::make_unique<sim::HostSystem>(*k, *f, profile);
    checker = std::make_unique<tb::CoherenceChecker>(128);
    sys->set_observer(checker.get());
    link = std::make_unique<sim::pcie::Link>(*k, p, "pcie");
    const auto id =
        static_cast<proto::AgentId>(sys->num_sockets() + sys->num_cores() + sys->num_devices());
    rc = std::make_unique<sim::pcie::RootComplex>(*k, *f, id, link->rc(), p, "rc");
    f->attach(*rc, sys->socket_node(0));
    rc->set_observer(checker.get());
    sim::NetParams np = sim::NetParams::from_profile(profile);
    np.topology = sim::NetTopology::Loopback;
    np.nodes = 1;
    net = std::make_unique<sim::Network>(*k, np);
    port = std::make_unique<sim::NetPort>(*net, 0);
    sys->map_uncached(kCfgBase, 8192, rc->config_window());
    sys->map_uncached(kBarWin, 1ull << 30, rc->bar_window());
  }
  // Firmware's enumeration of the endpoint on core 0 (MSI to `msi_address` when not 0).
  void enumerate(uint64_t msi_address = 0) {
    sys->spawn(0, [&](drv::MemoryPort& m) {
      const drv::PcieSetup s{p.mps, p.mrrs, msi_address, 0};
      bars = drv::pcie_enumerate(m, kCfgBase, kBarWin, 1ull << 30, s);
    });
    sys->run_programs();
  }
  double nic_mhz() const { return profile.get_double("nic.freq_mhz"); }

  sim::Profile profile;
  sim::pcie::PcieParams p;
  std::unique_ptr<sim::Kernel> k;
  std::unique_ptr<sim::Fabric> f;
  std::unique_ptr<sim::HostSystem> sys;
  std::unique_ptr<tb::CoherenceChecker> checker;
  std::unique_ptr<sim::pcie::Link> link;
  std::unique_ptr<sim::pcie::RootComplex> rc;
  std::unique_ptr<sim::Network> net;
  std::unique_ptr<sim::NetPort> port;
  std::vector<drv::PcieBar> bars;
};

}  // namespace cni::test
