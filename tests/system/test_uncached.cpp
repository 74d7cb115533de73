// SPDX-License-Identifier: Apache-2.0
// A core's uncached loads and stores of device registers travel over the coherent link (Nc,
// NcData/NcAck) to the engine that owns the register: here the scratch-pad engine's window.
#include <cstdint>
#include <stdexcept>

#include "cni/sim/coherence.hpp"
#include "fixture.hpp"

namespace cni::test {
namespace {

using Geo = tb::DeviceGeometry;

TEST(UncachedSystem, CoreStoresAndLoadsAnEngineRegisterOverTheLink) {
  System s(profile());
  const auto& g = s.dev.geometry();
  const uint64_t reg = s.dev.host_addr(g.base(Geo::kScratch)) + 0x80;  // line-buffer words 0, 1
  uint64_t got = 0, t_store = 0, t_load = 0;
  s.host.spawn(0, [&](drv::MemoryPort& m) {
    uint64_t t0 = m.now_ns();
    m.uncached_store64(reg, 0xFEEDC0DE12345678ull);
    t_store = m.now_ns() - t0;
    t0 = m.now_ns();
    got = m.uncached_load64(reg);
    t_load = m.now_ns() - t0;
  });
  s.host.run_programs();
  EXPECT_EQ(got, 0xFEEDC0DE12345678ull);
  // each access is a round trip over the link (and waits for its answer)
  const double rt = 2 * s.host.profile().get_double("link.one_way_ns");
  EXPECT_GE(double(t_store), rt);
  EXPECT_GE(double(t_load), rt);
  EXPECT_LT(double(t_load), rt + 200);
  EXPECT_EQ(s.host.uncached_link()->writes(), 1u);
  EXPECT_EQ(s.host.uncached_link()->reads(), 1u);
}

TEST(UncachedSystem, LoadOfAnAddressWithoutARegisterIsAMachineCheck) {
  System s(profile());
  const uint64_t plain = s.dev.host_addr(3);  // plain device memory: no engine's register
  s.host.spawn(0, [&](drv::MemoryPort& m) { (void)m.uncached_load64(plain); });
  try {
    s.host.run_programs();
    FAIL() << "the uncached load of plain memory was not refused";
  } catch (const sim::CoherenceError& e) {
    EXPECT_NE(std::string(e.what()).find("refused"), std::string::npos) << e.what();
  }
  EXPECT_EQ(s.counter(tb::csr::kNcErrors), 1u);
}

}  // namespace
}  // namespace cni::test
