// SPDX-License-Identifier: Apache-2.0
// Seeded random stress: cni_cache_agent (random stalls on all its output handshakes) and two host
// caches hammer 8 host lines (twice what the agent's sets hold) with random reads, writes,
// non-allocating reads, write-invalidates, flushes, loads, stores and prefetches. The coherence
// checker sees every state change and every performed access of every agent (the agent's
// monitor port; RdNA/WrInv misses where the home performs them) and checks single-writer /
// multiple-reader and every load's value; the adapter checks every response against the data it
// was performed with. CNI_STRESS_TRANSACTIONS sets the agent's request count (default 20000),
// CNI_SEED the seed.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <random>

#include "cache_bench.hpp"

namespace cni::tb::cache_test {
namespace {

uint64_t stress_transactions() {
  if (const char* s = std::getenv("CNI_STRESS_TRANSACTIONS")) return std::strtoull(s, nullptr, 0);
  return 20000;
}

struct StressResult {
  sim::Time end = 0;
  uint64_t requests = 0, host_ops = 0, loads_checked = 0, errors = 0;
  uint64_t hits = 0, misses = 0, writebacks = 0, snoops = 0;
};

class CacheStress : public SystemBench {
 protected:
  static constexpr unsigned kLines = 8;
  static constexpr unsigned kDevDepth = 6;   // engine requests queued or in flight
  static constexpr unsigned kHostDepth = 3;  // accesses in flight per host cache

  // `stall`: probability that each of the agent's output handshakes is held off in a cycle
  // (the engine's response ready half as often again).
  // `clean`: the agent's idle clean (cfg_clean_i; 0: off).
  StressResult stress(uint64_t n, const sim::HomeParams& hp, double stall = 0.2,
                      uint16_t clean = 0) {
    RtlCacheAgent::Options o;
    o.clean_cycles = clean;
    o.oreq_stall = stall;
    o.orsp_stall = stall;
    o.rsp_stall = std::min(0.9, 1.5 * stall);
    build(hp, o);
    std::mt19937_64 rng(seed);
    auto pick = [&](unsigned m) { return static_cast<unsigned>(rng() % m); };
    StressResult r;
    bool stop = false;
    unsigned dev_open = 0;

    std::function<void()> dev_issue = [&] {
      if (stop || dev_open >= kDevDepth) return;
      ++dev_open;
      const CaRequest q = random_ca_request(rng, kLB);
      dev->submit(
          q.op, line_addr(pick(kLines)),
          [&](const Result& res) {
            EXPECT_FALSE(res.err) << ca_op_name(res.op) << " 0x" << std::hex << res.addr;
            ++r.requests;
            --dev_open;
            if (r.requests >= n) stop = true;
            dev_issue();
          },
          q.data.data(), &q.be);
      dev_issue();
    };

    unsigned host_open[2] = {0, 0};
    std::function<void(unsigned)> host_issue = [&](unsigned h) {
      if (stop || host_open[h] >= kHostDepth) return;
      ++host_open[h];
      auto done = [&, h] {
        ++r.host_ops;
        --host_open[h];
        host_issue(h);
      };
      const Addr line = line_addr(pick(kLines));
      const unsigned off = pick(kLB), len = 1 + pick(std::min(16u, kLB - off));
      const unsigned kind = pick(100);
      if (kind < 45) {
        auto buf = std::make_shared<Line>();
        hosts[h]->load(line + off, buf->data(), len, [buf, done] { done(); });
      } else if (kind < 90) {
        Line data{};
        for (unsigned b = 0; b < len; ++b) data[b] = static_cast<uint8_t>(rng());
        hosts[h]->store(line + off, data.data(), len, done);
      } else {
        hosts[h]->prefetch(line, pick(2) != 0);
        k->after(sim::ns(5), done);
      }
      host_issue(h);
    };

    dev_issue();
    host_issue(0);
    host_issue(1);
    EXPECT_TRUE(run_until([&] { return stop; }, sim::ns(5'000.0 * static_cast<double>(n))))
        << r.requests << " of " << n << " requests done";
    stop = true;
    EXPECT_TRUE(run_until([&] {
      return dev_open == 0 && host_open[0] == 0 && host_open[1] == 0 && dev->idle() &&
             hosts[0]->idle() && hosts[1]->idle();
    })) << "the agents did not drain";
    // Every line read once more by a host: the checker compares each byte with its shadow.
    for (unsigned i = 0; i < kLines; ++i) host_load(0, line_addr(i));
    r.end = k->now();
    r.loads_checked = checker->loads_checked();
    r.errors = checker->errors().size() + dev->errors().size() + home->stats().errors;
    r.hits = dev->count(CaCounter::Hit);
    r.misses = dev->count(CaCounter::Miss);
    r.writebacks = dev->count(CaCounter::WriteBack);
    r.snoops = dev->count(CaCounter::Snoop);
    EXPECT_EQ(dev->count(CaCounter::Error), 0u);
    return r;
  }
};

TEST_F(CacheStress, RandomOperationsWithTwoHostCachesStayCoherent) {
  const uint64_t n = stress_transactions();
  const StressResult r = stress(n, host_home_params());
  EXPECT_GE(r.requests, n);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_GT(r.loads_checked, n / 2);
  // The run must exercise every path: hits, misses, write-backs and snoops of the agent.
  EXPECT_GT(r.hits, n / 20);
  EXPECT_GT(r.misses, n / 4);
  EXPECT_GT(r.writebacks, n / 50);
  EXPECT_GT(r.snoops, n / 20);
  std::printf("[ stress   ] %llu agent requests, %llu host accesses, %llu loads checked, "
              "%.1f us simulated\n",
              static_cast<unsigned long long>(r.requests),
              static_cast<unsigned long long>(r.host_ops),
              static_cast<unsigned long long>(r.loads_checked), sim::to_ns(r.end) / 1000.0);
}

TEST_F(CacheStress, WithoutOwnedForwardingAndExclusiveGrantsStaysCoherent) {
  sim::HomeParams hp = host_home_params();
  hp.forward_owned = false;
  hp.grant_exclusive = false;
  const StressResult r = stress(stress_transactions() / 4, hp);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_GT(r.snoops, 0u);
}

// Outputs held off most of the time: write-backs and responses wait in their registers while
// evictions, snoops and grants go on (two bugs the default run missed showed up so).
TEST_F(CacheStress, UnderHeavyBackPressureStaysCoherent) {
  const StressResult r = stress(stress_transactions() / 4, host_home_params(), 0.7);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_GT(r.writebacks, 0u);
}

// The idle clean (docs/cache-agent.md) writes back lines in O between the stream's requests,
// racing the hosts' snoops and the engine's next requests to the same lines.
TEST_F(CacheStress, WithTheIdleCleanStaysCoherent) {
  const StressResult r = stress(stress_transactions() / 4, host_home_params(), 0.2, 1);
  EXPECT_EQ(r.errors, 0u);
  EXPECT_GT(r.writebacks, 0u);
}

TEST_F(CacheStress, SameSeedGivesTheSameRun) {
  const StressResult a = stress(1500, host_home_params());
  const StressResult b = stress(1500, host_home_params());
  EXPECT_EQ(a.end, b.end);
  EXPECT_EQ(a.host_ops, b.host_ops);
  EXPECT_EQ(a.snoops, b.snoops);
}

}  // namespace
}  // namespace cni::tb::cache_test
