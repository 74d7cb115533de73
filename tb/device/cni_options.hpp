// SPDX-License-Identifier: Apache-2.0
// The CNI driver's options for a simulated device (docs/cni.md section 7): the CNI region's
// register page as the host sees it, and the number of nodes. The system tests and
// `cni-bench cni` open their endpoints with it.
#pragma once

#include "cni/drv/cni.hpp"
#include "device/sim_device.hpp"

namespace cni::tb {

inline drv::CniOptions cni_options(const SimDevice& d, unsigned nodes) {
  drv::CniOptions o;
  o.region_base = d.host_addr(d.geometry().base(DeviceGeometry::kCni));
  o.nodes = nodes;
  return o;
}

}  // namespace cni::tb
