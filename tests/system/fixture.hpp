// SPDX-License-Identifier: Apache-2.0
// System-test fixture: systems built by tb::System from a profile, with the Verilated device
// core (checking build) in every device slot, driven through the driver library. The profile's
// line_bytes is the run's (tests/line_bytes.hpp): host and device at that size.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "cni/drv/mem.hpp"
#include "cni/sim/fabric.hpp"
#include "cni/sim/host.hpp"
#include "cni/sim/profile.hpp"
#include "device/system.hpp"
#include "line_bytes.hpp"

namespace cni::test {

// A change of every device's configuration.
using DeviceConfig = std::function<void(tb::SimDevice::Config&)>;

// Device configuration for tests: RET_EXCL = `ret_excl`, waveforms named after the test, then
// `more`.
inline tb::System::Configure test_devices(uint32_t ret_excl = ~0u, DeviceConfig more = {}) {
  return [ret_excl, more](unsigned, unsigned, tb::SimDevice::Config& cfg) {
    cfg.ret_excl_regions = ret_excl;
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    if (info) cfg.trace_name = std::string(info->test_suite_name()) + "." + info->name();
    if (more) more(cfg);
  };
}

// A system of the profile's node 0 as most tests use it: its host, fabric and first device.
struct System : tb::System {
  explicit System(const sim::Profile& p, uint32_t ret_excl = ~0u, DeviceConfig more = {})
      : tb::System(p, test_devices(ret_excl, std::move(more))),
        host(node(0).host()),
        f(node(0).fabric()),
        dev(device(0, 0)) {}
  uint32_t counter(tb::csr::Counter c) { return dev.endpoint().counter(c); }

  sim::HostSystem& host;
  sim::Fabric& f;
  tb::SimDevice& dev;
};

// Cumulative percentages of a core's random accesses in the system stresses: 8-byte loads,
// 8-byte stores, prefetches, barriers; the rest are whole-line loads and stores.
struct AccessMix {
  unsigned load64, store64, prefetch, barrier;
};

// One random access of a core at the 8-byte word `addr`: a load, a store of ++stamp, a
// prefetch, a barrier, or a load or a store of random bytes of its whole line (write-back
// heavy).
inline void random_access(drv::MemoryPort& m, std::mt19937_64& rng, uint64_t addr,
                          uint64_t& stamp, const AccessMix& mix) {
  const unsigned lb = m.line_bytes();
  const unsigned op = static_cast<unsigned>(rng() % 100);
  if (op < mix.load64) {
    (void)m.load64(addr);
  } else if (op < mix.store64) {
    m.store64(addr, ++stamp);
  } else if (op < mix.prefetch) {
    m.prefetch(addr, op & 1);
  } else if (op < mix.barrier) {
    m.barrier();
  } else {
    std::vector<uint8_t> buf(lb);
    const uint64_t base = addr - addr % lb;
    if (op & 1) {
      for (auto& b : buf) b = static_cast<uint8_t>(rng());
      m.store(base, buf.data(), lb);
    } else {
      m.load(base, buf.data(), lb);
    }
  }
}

inline sim::Profile profile(std::vector<std::string> sets = {}) {
  auto p = sim::Profile::load("enzian-eci");
  p.set("line_bytes", std::to_string(test_line_bytes()));
  for (const auto& s : sets) p.set(s);
  return p;
}

}  // namespace cni::test
