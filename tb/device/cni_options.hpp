// SPDX-License-Identifier: Apache-2.0
// The CNI driver's options for a simulated device (docs/cni.md section 7): the CNI region's
// register page as the host sees it, the number of nodes, and (used by CNI16Qm only) where the
// receive queue lives in the node's host memory. The system tests and `cni-bench cni` open their
// endpoints with it.
#pragma once

#include <cstdint>

#include "cni/drv/cni.hpp"
#include "cni/sim/host.hpp"
#include "device/sim_device.hpp"

namespace cni::tb {

// The CNI engine's place on the engine bus (the engine registry's, cni_amap_pkg::ENG_CNI).
inline constexpr unsigned kCniEngine = engines::kEngineCni;

// The engine's ID register (docs/cni.md section 4) read through the CSR window: [3:0] the
// configuration (drv::CniConfig), [63:48] receive-queue slots. Tests ask it which engine a
// device model carries.
inline uint64_t cni_id(Endpoint& ep) {
  return ep.csr_read(csr::engine_reg(kCniEngine, 0x00)) |
         uint64_t(ep.csr_read(csr::engine_reg(kCniEngine, 0x04))) << 32;
}

// CNI16Qm's receive queue: 2 MiB into the first socket's memory, clear of the host lines the
// tests and benchmarks use.
constexpr drv::Addr kCniRqHostOffset = 0x200000;

inline drv::CniOptions cni_options(const SimDevice& d, unsigned nodes) {
  drv::CniOptions o;
  o.region_base = d.region_addr(DeviceGeometry::kCni);
  o.nodes = nodes;
  o.rq_host_base = sim::HostSystem::dram_base(0) + kCniRqHostOffset;
  return o;
}

}  // namespace cni::tb
