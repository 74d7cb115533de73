// SPDX-License-Identifier: Apache-2.0
// Litmus tests on device lines (docs/host-sim.md, "Memory model and litmus tests"): the standard
// shapes on enzian-eci's ARMv8 cores with every location homed at the device (its line memory,
// across the coherent link, served by the RTL home agent) and with the locations mixed (x, z on
// the device, y in host memory), under the node's coherence checker with data values watched.
// Each observed outcome is one ARMv8 allows; each outcome the cores' model allows beyond
// sequential consistency is observed (tests/litmus_check.hpp). One flavor (the benchmark
// build's model, 128-byte lines: the RTL without its assertions compiled in, which the checking
// build's suites exercise): the shapes do not depend on the line size, and the runs are long.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <tuple>
#include <vector>

#include "cni/sim/litmus.hpp"
#include "system/fixture.hpp"
#include "litmus_check.hpp"

namespace cni::test {
namespace {

using sim::litmus::RunOptions;
using LTest = sim::litmus::Test;

class LitmusDevice : public testing::TestWithParam<std::tuple<LTest, std::string>> {};

TEST_P(LitmusDevice, ObservesOnlyAllowedOutcomesAndEveryRelaxedOne) {
  const auto& [t, homes] = GetParam();
  sim::Profile p = profile({"host.cores=6"});
  System s(p);
  const unsigned lb = s.dev.geometry().line_bytes;
  const unsigned mem = s.dev.geometry().base(tb::DeviceGeometry::kMem);
  const proto::Addr host = sim::HostSystem::dram_base(0) + (proto::Addr{1} << 20);
  s.checker(0).watch(s.dev.host_addr(mem), proto::Addr{t.locations} * lb);
  s.checker(0).watch(host, proto::Addr{t.locations} * lb);
  std::vector<unsigned> cores(s.host.num_cores());
  std::iota(cores.begin(), cores.end(), 0u);
  RunOptions o;
  o.iterations = 2000;
  // Every miss of a device line crosses the link twice (about 400 ns): the chains WRC and S
  // need span several, so the delays and start times range three times wider than on host
  // lines.
  o.max_access_jitter_ns = 3000;
  o.max_start_ns = 4000;
  o.address = [&](unsigned, unsigned loc) {
    const bool device = homes == "device" || loc % 2 == 0;
    return device ? s.dev.host_addr(mem + loc) : host + proto::Addr{loc} * lb;
  };
  check_litmus(t, sim::litmus::run(s.host, t, cores, o), o.iterations,
               s.host.core(0).params().model);
  EXPECT_TRUE(s.checker(0).errors().empty()) << s.checker(0).errors()[0];
  EXPECT_GT(s.checker(0).loads_checked(), 0u);
}

INSTANTIATE_TEST_SUITE_P(Standard, LitmusDevice,
                         testing::Combine(testing::ValuesIn(sim::litmus::standard_tests()),
                                          testing::Values("device", "mixed")),
                         [](const auto& i) {
                           return litmus_test_name(std::get<0>(i.param).name + "_" +
                                                   std::get<1>(i.param));
                         });

}  // namespace
}  // namespace cni::test
