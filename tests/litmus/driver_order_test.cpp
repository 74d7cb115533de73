// SPDX-License-Identifier: Apache-2.0
// The driver's ordering points on ARMv8 cores (docs/driver.md, "Memory ordering"): each test
// fails when the ordering point it names is taken out of the driver. CniEndpoint's are caught by
// the CNI system tests (tests/system/test_cni_system.cpp: a slot's valid word read with a plain
// load lets the 16-node traffic deliver a corrupt message; CNI4's RX status without DMB LD lets
// the four-node traffic read a stale CDR header).
#include <gtest/gtest.h>

#include <algorithm>
#include <span>
#include <vector>

#include "cni/drv/fastforward.hpp"
#include "cni/sim/fabric.hpp"
#include "cni/sim/host.hpp"
#include "cni/sim/kernel.hpp"
#include "cni/sim/profile.hpp"

namespace cni::test {
namespace {

// FastForwardChannel on ARMv8 cores whose accesses each reach the cache up to 1 us late
// (Core::set_access_jitter, as the litmus tests do): a poll of the sequence word can be on its
// way while the payload is rewritten, so without an ordering point between the two loads
// (wait()'s load-acquire) the payload's old bytes come back. Every byte of 300 calls is checked.
TEST(DriverOnArmv8, FastForwardPayloadsSurviveCoresWithLateLoads) {
  sim::Profile p = sim::Profile::load("enzian-eci");
  p.set("host.cores", "2");
  sim::Kernel k;
  sim::Fabric f(k, 128);
  sim::HostSystem host(k, f, p);
  sim::HostSystem* sys = &host;
  ASSERT_EQ(sys->core(0).params().model, sim::MemoryModel::ARMv8);
  for (unsigned c = 0; c < 2; ++c) sys->core(c).set_access_jitter(sim::ns(1000));
  const drv::FastForwardLayout layout{0x10000, 0x10080, 128, 0};
  constexpr unsigned kCalls = 300;
  unsigned bad = 0;
  auto request = [](unsigned i) {
    std::vector<uint8_t> r(120);
    for (unsigned b = 0; b < r.size(); ++b) r[b] = static_cast<uint8_t>(i * 31 + b);
    return r;
  };
  sys->spawn(0, [&](drv::MemoryPort& m) {
    drv::FastForwardChannel ch(m, layout);
    for (unsigned i = 0; i < kCalls; ++i) {
      std::vector<uint8_t> want = request(i);
      for (auto& b : want) b = static_cast<uint8_t>(~b);
      if (ch.call(request(i)) != want) ++bad;
    }
  });
  sys->spawn(1, [&](drv::MemoryPort& m) {
    drv::FastForwardChannel ch(m, layout);
    for (unsigned i = 0; i < kCalls; ++i) {
      ch.serve_one(
          [&](std::span<const uint8_t> req, std::span<uint8_t> resp) {
            if (!std::equal(req.begin(), req.end(), request(i).begin())) ++bad;
            for (size_t b = 0; b < req.size(); ++b) resp[b] = static_cast<uint8_t>(~req[b]);
          },
          120);
    }
  });
  sys->run_programs();
  EXPECT_EQ(bad, 0u) << "payloads read with old bytes";
}

}  // namespace
}  // namespace cni::test
