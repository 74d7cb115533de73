// SPDX-License-Identifier: Apache-2.0
// Seeded random stress of the device's home agent through the real host models: several cores
// on two sockets (one caching agent each) with tiny caches, so lines are constantly evicted and
// written back, do random loads, stores, prefetches and barriers on device memory; the
// coherence checker checks single-writer/multiple-readers on every state change and every
// loaded value against the last value stored. CNI_STRESS_TRANSACTIONS sets how many coherence
// requests the device must have handled (default 100k; `make stress` runs millions).
#include <cstdlib>
#include <random>

#include "cni/proto.hpp"
#include "coherence_checker.hpp"
#include "fixture.hpp"

namespace cni::test {
namespace {

uint64_t env_u64(const char* name, uint64_t dflt) {
  const char* s = std::getenv(name);
  return s ? std::strtoull(s, nullptr, 0) : dflt;
}

struct StressResult {
  uint64_t device_requests = 0;
  uint32_t device_wb = 0, device_snoops = 0;
  uint64_t ops = 0;
  std::vector<std::string> errors;
  uint64_t loads_checked = 0;
};

StressResult run_stress(uint64_t seed, uint64_t target, unsigned lines_used, unsigned cores) {
  auto p = profile({"host.sockets=2", "host.cores=" + std::to_string(cores),
                    "cache.size_kib=1", "cache.ways=2", "l1.size_kib=1", "l1.ways=2",
                    "cache.mshrs=4", "link.one_way_ns=40", "core.store_buffer=4"});
  System s(p);
  const auto& g = s.dev.geometry();
  const unsigned lb = g.line_bytes;
  tb::CoherenceChecker chk(lb);
  // device memory is cleared at reset
  chk.watch(s.dev.host_base(), uint64_t(g.mem_lines) * lb, /*zero_init=*/true);
  s.host.set_observer(&chk);

  StressResult r;
  s.f.on_send([&](const proto::Msg& m, sim::Time) {
    if (m.dst == s.dev.id() && m.chan() == proto::Chan::Req) ++r.device_requests;
  });
  for (unsigned c = 0; c < cores; ++c) {
    s.host.spawn(c, [&, c](drv::MemoryPort& m) {
      std::mt19937_64 rng(seed * 1000 + c);
      uint64_t stamp = uint64_t(c + 1) << 48;
      while (r.device_requests < target) {
        unsigned l = static_cast<unsigned>(rng() % lines_used);
        random_access(m, rng, s.dev.host_addr(l) + 8 * (rng() % (lb / 8)), stamp,
                      {45, 80, 88, 93});
        ++r.ops;
      }
      m.barrier();
    });
  }
  s.host.run_programs();
  r.errors = chk.errors();
  r.loads_checked = chk.loads_checked();
  // The device must still be healthy: nothing malformed, nothing dropped.
  EXPECT_EQ(s.counter(tb::csr::kErrProto), 0u);
  EXPECT_EQ(s.counter(tb::csr::kErrCredit), 0u);
  EXPECT_EQ(s.counter(tb::csr::kErrAddr), 0u);
  r.device_wb = s.counter(tb::csr::kWb);
  r.device_snoops = s.counter(tb::csr::kSnoops);
  EXPECT_FALSE(s.dev.endpoint().got_error());
  return r;
}

TEST(CoherenceStress, RandomAccessesToDeviceMemoryKeepSingleWriterAndValues) {
  const uint64_t target = env_u64("CNI_STRESS_TRANSACTIONS", 100000);
  const uint64_t seed = env_u64("CNI_SEED", 1);
  RecordProperty("seed", std::to_string(seed));
  auto r = run_stress(seed, target, 48, 4);
  RecordProperty("device_requests", std::to_string(r.device_requests));
  EXPECT_GE(r.device_requests, target);
  EXPECT_GT(r.device_wb, target / 100) << "the stress must exercise write-backs";
  EXPECT_GT(r.device_snoops, target / 100) << "the stress must exercise snoops";
  EXPECT_GT(r.loads_checked, r.ops / 4);
  for (size_t i = 0; i < std::min<size_t>(r.errors.size(), 10); ++i) ADD_FAILURE() << r.errors[i];
  EXPECT_TRUE(r.errors.empty()) << r.errors.size() << " coherence violations (seed " << seed << ")";
}

TEST(CoherenceStress, HotSpotOnFewLinesWithManyAgents) {
  const uint64_t seed = env_u64("CNI_SEED", 1) + 77;
  auto r = run_stress(seed, 20000, 3, 6);
  EXPECT_GT(r.device_snoops, 1000u) << "six agents on three lines must snoop constantly";
  for (size_t i = 0; i < std::min<size_t>(r.errors.size(), 10); ++i) ADD_FAILURE() << r.errors[i];
  EXPECT_TRUE(r.errors.empty()) << "seed " << seed;
}

}  // namespace
}  // namespace cni::test
