// SPDX-License-Identifier: Apache-2.0
// Seeded random stress: 4 cores on 2 sockets with tiny caches hammer a few lines homed in both
// sockets' DRAM with random loads, stores (some spanning lines), prefetches, barriers and
// pauses. The coherence checker checks every state change and every performed access; the
// homes must see no malformed or protocol-violating message.
#include <gtest/gtest.h>

#include <cstdlib>
#include <memory>
#include <random>
#include <string>

#include "cni/sim/host.hpp"
#include "coherence_checker.hpp"

using namespace cni;
using namespace cni::sim;

namespace {

struct StressResult {
  Time end = 0;
  uint64_t events = 0;
  uint64_t ops = 0;
  uint64_t writebacks = 0, snoops = 0, forwarded = 0;
  std::vector<std::string> errors;
};

// Lines: 6 per socket, all mapping to two sets of a 4-set, 2-way cache (set stride 0x200),
// so nearly every miss evicts.
proto::Addr line_addr(unsigned i) {
  const unsigned socket = i % 2;
  const unsigned k = i / 2;
  return HostSystem::dram_base(socket) + 0x10000 + (k % 2) * 0x80 + (k / 2) * 0x200;
}
constexpr unsigned kLines = 12;

StressResult run_stress(uint64_t seed, unsigned ops_per_core,
                        std::initializer_list<const char*> extra = {}) {
  Profile p = Profile::load("enzian-eci");
  for (const char* o :
       {"host.sockets=2", "host.cores=4", "cache.size_kib=1", "cache.ways=2", "l1.size_kib=1",
        "l1.ways=4", "cache.mshrs=3", "core.store_buffer=4", "home.max_transactions=4"}) {
    p.set(o);
  }
  for (const char* o : extra) p.set(o);
  Kernel k;
  Fabric f(k);
  HostSystem sys(k, f, p);
  tb::CoherenceChecker checker;
  for (unsigned s = 0; s < 2; ++s) checker.watch(HostSystem::dram_base(s), 1 << 20);
  sys.set_observer(&checker);

  StressResult r;
  for (unsigned c = 0; c < sys.num_cores(); ++c) {
    sys.spawn(c, [&, c](drv::MemoryPort& port) {
      std::mt19937_64 rng(seed * 1000003u + c);
      auto pick = [&](unsigned n) { return static_cast<unsigned>(rng() % n); };
      uint8_t buf[300];
      for (unsigned op = 0; op < ops_per_core; ++op) {
        const proto::Addr line = line_addr(pick(kLines));
        const unsigned kind = pick(100);
        if (kind < 40) {  // small load, may cross into the next line
          const unsigned n = 1 + pick(16);
          port.load(line + pick(128), buf, n);
        } else if (kind < 75) {  // small store
          const unsigned n = 1 + pick(16);
          for (unsigned i = 0; i < n; ++i) buf[i] = static_cast<uint8_t>(rng());
          port.store(line + pick(128), buf, n);
        } else if (kind < 80) {  // large access over several lines
          const unsigned n = 129 + pick(170);
          if (pick(2)) {
            for (unsigned i = 0; i < n; ++i) buf[i] = static_cast<uint8_t>(rng());
            port.store(line, buf, n);
          } else {
            port.load(line, buf, n);
          }
        } else if (kind < 90) {
          port.prefetch(line, pick(2) != 0);
        } else if (kind < 95) {
          port.barrier();
        } else {
          port.pause_ns(pick(50));
        }
      }
      port.barrier();
    });
  }
  sys.run_programs();
  // Every watched byte read once more: the checker compares with its shadow.
  sys.spawn(0, [&](drv::MemoryPort& port) {
    uint8_t b[128];
    for (unsigned i = 0; i < kLines; ++i) port.load(line_addr(i), b, 128);
  });
  sys.run_programs();

  r.end = k.now();
  r.events = k.events_processed();
  r.ops = uint64_t{ops_per_core} * sys.num_cores();
  r.errors = checker.errors();
  for (unsigned s = 0; s < 2; ++s) {
    if (sys.home(s).stats().errors != 0) {
      r.errors.push_back("home" + std::to_string(s) + ": " + sys.home(s).error_log().front());
    }
    r.writebacks += sys.home(s).stats().writebacks;
    r.snoops += sys.home(s).stats().snoops;
  }
  for (unsigned c = 0; c < sys.num_cores(); ++c) r.forwarded += sys.core(c).stats().forwarded;
  EXPECT_GT(checker.loads_checked(), r.ops / 4);
  return r;
}

// CNI_SIM_STRESS_OPS overrides the operations per core (default 30000, 120k in all) and
// CNI_SIM_STRESS_SEED the seed (default 1), for longer soak runs.
unsigned ops_per_core() {
  if (const char* s = std::getenv("CNI_SIM_STRESS_OPS")) return static_cast<unsigned>(std::atoi(s));
  return 30000;
}
uint64_t seed() {
  if (const char* s = std::getenv("CNI_SIM_STRESS_SEED")) return std::strtoull(s, nullptr, 0);
  return 1;
}

}  // namespace

TEST(Stress, RandomAccessesOnTwoSocketsStayCoherent) {
  const StressResult r = run_stress(seed(), ops_per_core());
  RecordProperty("seed", std::to_string(seed()));
  EXPECT_GE(r.ops, 100000u);
  EXPECT_TRUE(r.errors.empty()) << r.errors.size() << " errors, first: " << r.errors[0];
  // The stress must actually exercise evictions, snoops and store-buffer forwarding.
  EXPECT_GT(r.writebacks, 1000u);
  EXPECT_GT(r.snoops, 1000u);
  EXPECT_GT(r.forwarded, 100u);
}

TEST(Stress, WithoutOwnedForwardingAndExclusiveGrantsStaysCoherent) {
  const StressResult r = run_stress(seed() + 1, ops_per_core() / 3,
                                    {"home.forward_owned=false", "home.grant_exclusive=false"});
  EXPECT_TRUE(r.errors.empty()) << r.errors.size() << " errors, first: " << r.errors[0];
}

TEST(Stress, SameSeedGivesTheSameRun) {
  const StressResult a = run_stress(7, 2000);
  const StressResult b = run_stress(7, 2000);
  const StressResult c = run_stress(8, 2000);
  EXPECT_EQ(a.end, b.end);
  EXPECT_EQ(a.events, b.events);
  EXPECT_NE(a.end, c.end);
}
