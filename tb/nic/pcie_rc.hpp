// SPDX-License-Identifier: Apache-2.0
// The host side of a PCIe system (docs/pcie.md), as the NIC's PCIe tests and `cni-bench nic` build
// it: the profile's host under a coherence checker, the root complex on socket 0, the PCIe link,
// the configuration and BAR windows in the host's uncached space. A device is put on the link's
// endpoint side (`link->ep()`), then enumerate() runs firmware's enumeration on core 0.
#pragma once

#include <memory>
#include <vector>

#include "cni/drv/pcie.hpp"
#include "cni/sim/host.hpp"
#include "cni/sim/pcie.hpp"
#include "cni/sim/profile.hpp"
#include "coherence_checker.hpp"

namespace cni::tb {

struct PcieRcHost {
  static constexpr uint64_t kCfgBase = 0x3F'0000'0000;
  static constexpr uint64_t kBarWin = 0x40'0000'0000;
  static constexpr uint64_t kBarWinBytes = 1ull << 30;

  explicit PcieRcHost(const sim::Profile& prof)
      : profile(prof),
        p(sim::pcie::PcieParams::from_profile(prof)),
        k(std::make_unique<sim::Kernel>()),
        f(std::make_unique<sim::Fabric>(*k, static_cast<unsigned>(prof.get_int("line_bytes")))),
        sys(std::make_unique<sim::HostSystem>(*k, *f, prof)),
        checker(std::make_unique<CoherenceChecker>(f->line_bytes())),
        link(std::make_unique<sim::pcie::Link>(*k, p, "pcie")) {
    sys->set_observer(checker.get());
    const auto id =
        static_cast<proto::AgentId>(sys->num_sockets() + sys->num_cores() + sys->num_devices());
    rc = std::make_unique<sim::pcie::RootComplex>(*k, *f, id, link->rc(), p, "rc");
    f->attach(*rc, sys->socket_node(0));
    rc->set_observer(checker.get());
    sys->map_uncached(kCfgBase, 8192, rc->config_window());
    sys->map_uncached(kBarWin, kBarWinBytes, rc->bar_window());
  }
  // Firmware's enumeration of the endpoint on core 0 (MSI to `msi_address` when not 0).
  void enumerate(uint64_t msi_address = 0) {
    sys->spawn(0, [&](drv::MemoryPort& m) {
      const drv::PcieSetup s{p.mps, p.mrrs, msi_address, 0};
      bars = drv::pcie_enumerate(m, kCfgBase, kBarWin, kBarWinBytes, s);
    });
    sys->run_programs();
  }
  double nic_mhz() const { return profile.get_double("nic.freq_mhz"); }

  sim::Profile profile;
  sim::pcie::PcieParams p;
  std::unique_ptr<sim::Kernel> k;
  std::unique_ptr<sim::Fabric> f;
  std::unique_ptr<sim::HostSystem> sys;
  std::unique_ptr<CoherenceChecker> checker;
  std::unique_ptr<sim::pcie::Link> link;
  std::unique_ptr<sim::pcie::RootComplex> rc;
  std::vector<drv::PcieBar> bars;
};

}  // namespace cni::tb
