// SPDX-License-Identifier: Apache-2.0
// System-test fixture: the host simulation (cores, caches, host home, coherent link) with the
// Verilated device core (checking build) attached, driven through the driver library.
#pragma once

#include <gtest/gtest.h>

#include <memory>
#include <string>
#include <vector>

#include "cni/sim/fabric.hpp"
#include "cni/sim/host.hpp"
#include "cni/sim/kernel.hpp"
#include "cni/sim/profile.hpp"
#include "device/sim_device.hpp"

namespace cni::test {

struct System {
  sim::Kernel k;
  sim::Fabric f;
  sim::HostSystem host;
  std::unique_ptr<tb::SimDevice> dev;

  explicit System(const sim::Profile& p, uint32_t ret_excl = 0xF)
      : f(k, static_cast<unsigned>(p.get_int("line_bytes"))), host(k, f, p) {
    auto cfg = tb::SimDevice::config_from(p);
    cfg.ret_excl_regions = ret_excl;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    if (info) cfg.trace_name = std::string(info->test_suite_name()) + "." + info->name();
    dev = std::make_unique<tb::SimDevice>(k, f, host.device_node(0), host.device_agent(0), cfg);
  }
  uint32_t counter(tb::csr::Counter c) { return dev->endpoint().counter(c); }
};

inline sim::Profile profile(std::vector<std::string> sets = {}) {
  auto p = sim::Profile::load("enzian-eci");
  for (const auto& s : sets) p.set(s);
  return p;
}

}  // namespace cni::test
