// SPDX-License-Identifier: Apache-2.0
// System-test fixture: systems built by tb::System from a profile, with the Verilated device
// core (checking build) in every device slot, driven through the driver library. The profile's
// line_bytes is the run's (tests/line_bytes.hpp): host and device at that size.
#pragma once

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "cni/sim/fabric.hpp"
#include "cni/sim/host.hpp"
#include "cni/sim/profile.hpp"
#include "device/system.hpp"
#include "line_bytes.hpp"

namespace cni::test {

// Device configuration for tests: RET_EXCL = `ret_excl`, waveforms named after the test.
inline tb::System::Configure test_devices(uint32_t ret_excl = ~0u) {
  return [ret_excl](unsigned, unsigned, tb::SimDevice::Config& cfg) {
    cfg.ret_excl_regions = ret_excl;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    if (info) cfg.trace_name = std::string(info->test_suite_name()) + "." + info->name();
  };
}

// A system of the profile's node 0 as most tests use it: its host, fabric and first device.
struct System : tb::System {
  explicit System(const sim::Profile& p, uint32_t ret_excl = ~0u)
      : tb::System(p, test_devices(ret_excl)),
        host(node(0).host()),
        f(node(0).fabric()),
        dev(device(0, 0)) {}
  uint32_t counter(tb::csr::Counter c) { return dev.endpoint().counter(c); }

  sim::HostSystem& host;
  sim::Fabric& f;
  tb::SimDevice& dev;
};

inline sim::Profile profile(std::vector<std::string> sets = {}) {
  auto p = sim::Profile::load("enzian-eci");
  p.set("line_bytes", std::to_string(test_line_bytes()));
  for (const auto& s : sets) p.set(s);
  return p;
}

}  // namespace cni::test
