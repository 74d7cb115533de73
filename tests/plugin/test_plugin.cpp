// SPDX-License-Identifier: Apache-2.0
// The plug-in test (docs/architecture.md, "Adding an engine"): a device model whose engine
// registry has one engine more than the project's, the probe (tests/plugin/engines.toml,
// tests/plugin/rtl/cni_probe_engine.sv), added by that registry entry alone. The test reaches the
// engine from C++ through the generated header only: its region in the address map the device
// reports, its register window, and its counter among the device's.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>

#include "cni/engines.hpp"
#include "cni/regs.hpp"
#include "device/endpoint.hpp"

namespace cni::test {
namespace {

using tb::DeviceGeometry;
using tb::Endpoint;
namespace csr = tb::csr;

class Plugin : public ::testing::Test {
 protected:
  void SetUp() override {
    Endpoint::Options o;
    o.name = std::string("Plugin.") + ::testing::UnitTest::GetInstance()->current_test_info()->name();
    ep = std::make_unique<Endpoint>(o);
    ep->reset();
  }
  void TearDown() override { EXPECT_FALSE(ep->got_error()) << "Verilator reported an error"; }
  uint32_t reg(uint32_t off) { return ep->csr_read(engines::engine_reg(engines::kEngineProbe, off)); }

  std::unique_ptr<Endpoint> ep;
};

// The generated header knows the engine: its region is the last one, its engine the last one, its
// counter the last one, all named as the registry names them.
static_assert(engines::kProbe == engines::kNumRegions - 1);
static_assert(engines::kEngineProbe == engines::kNumEngines - 1);
static_assert(engines::kProbeWrites == engines::kNumCounters - 1);

TEST(PluginHeader, NamesTheEngineItsRegionAndItsCounter) {
  EXPECT_STREQ(engines::kEngineNames[engines::kEngineProbe], "probe");
  EXPECT_STREQ(engines::kRegionNames[engines::kProbe], "probe");
  EXPECT_EQ(engines::kRegionOwner[engines::kProbe], int(engines::kEngineProbe));
  EXPECT_STREQ(engines::kCounterNames[engines::kProbeWrites], "probe_writes");
}

TEST_F(Plugin, TheDeviceReportsTheProbesRegionAndOwner) {
  const DeviceGeometry& g = ep->geometry();
  EXPECT_EQ(g.regions[engines::kProbe].lines, 4u);  // ProbeLines' test value
  EXPECT_EQ(g.regions[engines::kProbe].owner, int(engines::kEngineProbe));
  EXPECT_EQ(g.regions[engines::kProbe].base + g.regions[engines::kProbe].lines, g.num_lines());
}

// Its registers by their generated names (cni/regs.hpp from tests/plugin/rtl/cni_probe.rdl).
TEST_F(Plugin, TheProbesWindowAnswersThroughTheCsrBlock) {
  namespace probe = regs::eng_probe;
  EXPECT_EQ(ep->csr_read(probe::kId), 0x50524F42u);  // "PROB"
  EXPECT_EQ(ep->csr_read(probe::kBase), ep->geometry().regions[engines::kProbe].base);
  EXPECT_EQ(ep->csr_read(probe::kLines), 4u);
  ep->csr_write(probe::kScratch, 0xC0FFEE01u);
  EXPECT_EQ(reg(probe::kScratchOffset), 0xC0FFEE01u);
}

TEST_F(Plugin, TheProbesCounterCountsItsRegisterWrites) {
  const uint32_t before = ep->counter(csr::kProbeWrites);
  for (uint32_t i = 0; i < 3; ++i) ep->csr_write(regs::eng_probe::kScratch, i);
  ep->run(2);
  EXPECT_EQ(ep->counter(csr::kProbeWrites) - before, 3u);
}

TEST_F(Plugin, ThePlatformsRegionsAndEnginesKeepTheirPlaces) {
  // the project's engines come first, in the project registry's order
  EXPECT_EQ(engines::kEnginePio, 0u);
  EXPECT_EQ(ep->geometry().regions[engines::kMem].owner, -1);
  EXPECT_EQ(ep->geometry().regions[engines::kPioC].owner, int(engines::kEnginePio));
}

}  // namespace
}  // namespace cni::test
