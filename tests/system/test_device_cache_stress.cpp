// SPDX-License-Identifier: Apache-2.0
// Seeded random coherence stress with the device as one of the caching agents: four cores on
// two sockets (tiny caches, so lines are constantly evicted and written back) do random loads,
// stores, prefetches and barriers on host lines homed on both sockets and on device memory,
// while a traffic generator behind the device issues random RdS, RdX, Wr (random byte
// ranges), RdNA, WrInv and Flush of the same host lines through the device's caching agent, a
// few in flight. The coherence checker sees every state change and every performed access of
// every agent (the host caches, the device's monitor, RdNA/WrInv misses where the host home
// performs them) and checks single-writer/multiple-reader and every loaded value; the device
// adapter checks every response against the data it was performed with. The run must exercise
// every path (device hits, misses, write-backs, snoops of the device, RdNA of a line dirty in
// a host cache, WrInv invalidating host copies) and move no error counter of the device.
// CNI_STRESS_TRANSACTIONS sets the device's request count (default 100k; `make stress`: 10 M),
// CNI_SEED the seed.
#include <chrono>
#include <cstdio>
#include <map>
#include <random>

#include "device_cache.hpp"
#include "msg_trace.hpp"

namespace cni::test {
namespace {

uint64_t stress_transactions() {
  const char* s = std::getenv("CNI_STRESS_TRANSACTIONS");
  return s ? std::strtoull(s, nullptr, 0) : 100000;
}

struct Figures {
  uint64_t requests = 0, core_ops = 0, loads_checked = 0;
  uint64_t hits = 0, misses = 0, writebacks = 0, snoops = 0, retries = 0;
  uint64_t snoop_data = 0;    // SnpData from the device: it supplied a dirty line
  uint64_t rdna_dirty = 0;    // RdNA answered while a host cache held the line in O
  uint64_t wrinv_fwdinv = 0;  // FwdInv to host caches while a device WrInv of the line waited
  double sim_us = 0, wall_s = 0;
};

class DeviceCacheStress : public DeviceCacheTest {
 protected:
  static constexpr unsigned kSocketLines = 8;  // host lines on each socket
  static constexpr unsigned kDevLines = 16;    // device memory lines the cores use
  static constexpr unsigned kDevDepth = 6;     // device requests queued or in flight

  // A host with short latencies (a 10 ns link, 20 ns DRAM): a device request then costs about
  // half the device cycles it does with the fixture's, and the device's clock is what a run's
  // time goes to.
  void build_fast(double rsp_stall = 0.0, const std::vector<std::string>& more = {}) {
    std::vector<std::string> sets = {"link.one_way_ns=10", "dram.latency_ns=20",
                                     "onchip.latency_ns=5", "onchip.link_port_ns=2",
                                     "home.dir_ns=5"};
    sets.insert(sets.end(), more.begin(), more.end());
    build(sets, rsp_stall);
  }

  // Host line j of the stress: socket 0's are consecutive (two in each of the device's four
  // sets: mostly hits), socket 1's four lines apart (all in set 0 with two of socket 0's:
  // evictions and write-backs).
  Addr stress_line(unsigned j) const {
    return j < kSocketLines ? host_line(0, j) : host_line(1, 4 * (j - kSocketLines));
  }

  Figures stress(uint64_t n) {
    const auto wall0 = std::chrono::steady_clock::now();
    const sim::Time t0 = s->kernel().now();
    const proto::AgentId dev = dev_id();
    fig_ = Figures{};
    wrinv_at_home_.clear();
    Figures& r = fig_;
    bool stop = false;

    // Paths the counters cannot see, watched on the fabric.
    auto& wrinv_at_home = wrinv_at_home_;
    auto host_cache = [&](proto::AgentId a) { return a >= kSockets && a < kSockets + kCores; };
    s->f.on_deliver([&](const proto::Msg& m, sim::Time) {
      if (m.src == dev && m.op == proto::Op::WrInv) ++wrinv_at_home[m.addr];
    });
    s->f.on_send([&](const proto::Msg& m, sim::Time) {
      if (m.src == dev && m.op == proto::Op::SnpData) ++r.snoop_data;
      if (m.dst == dev && m.op == proto::Op::WrAck) --wrinv_at_home[m.addr];
      if (m.op == proto::Op::FwdInv && host_cache(m.dst) && wrinv_at_home[m.addr] > 0) {
        ++r.wrinv_fwdinv;
      }
      if (m.dst == dev && m.op == proto::Op::DataI) {
        for (unsigned c = 0; c < kCores; ++c) {
          if (s->host.state_of(c, m.addr) == sim::CacheState::O) {
            ++r.rdna_dirty;
            break;
          }
        }
      }
    });

    std::mt19937_64 rng(seed);
    auto pick = [&](uint64_t m) { return static_cast<unsigned>(rng() % m); };
    unsigned dev_open = 0;
    std::function<void()> dev_issue = [&] {
      while (!stop && dev_open < kDevDepth) {
        ++dev_open;
        const tb::CaRequest q = tb::random_ca_request(rng, lb);
        s->dev.submit(
            q.op, stress_line(pick(2 * kSocketLines)),
            [&](const CaResult& res) {
              EXPECT_FALSE(res.err) << tb::ca_op_name(res.op) << " 0x" << std::hex << res.addr;
              --dev_open;
              if (++r.requests >= n) stop = true;
              dev_issue();
            },
            q.data.data(), &q.be);
      }
    };

    // Give up (and fail below) if the device has not finished in 5 us of simulated time per
    // request, about 50 times what it needs.
    const uint64_t deadline_ns = static_cast<uint64_t>(sim::to_ns(t0)) + 5000 * n;
    for (unsigned c = 0; c < kCores; ++c) {
      s->host.spawn(c, [&, c](drv::MemoryPort& m) {
        std::mt19937_64 crng(seed * 1000 + c);
        uint64_t stamp = uint64_t(c + 1) << 48;
        while (!stop && m.now_ns() < deadline_ns) {
          const unsigned target = static_cast<unsigned>(crng() % 4);
          const Addr line = target < 3
                                ? stress_line(static_cast<unsigned>(crng() % (2 * kSocketLines)))
                                : s->dev.host_addr(static_cast<unsigned>(crng() % kDevLines));
          random_access(m, crng, line + 8 * (crng() % (lb / 8)), stamp, {40, 70, 80, 85});
          ++r.core_ops;
        }
        m.barrier();
      });
    }
    dev_issue();
    s->host.run_programs();
    stop = true;
    EXPECT_GE(r.requests, n) << "the device did not finish in time";
    EXPECT_TRUE(run_until([&] { return dev_open == 0 && s->dev.cache().outstanding() == 0; }))
        << "the device's requests did not drain";
    // Every line read once more by a core: the checker compares each byte with its shadow.
    for (unsigned j = 0; j < 2 * kSocketLines; ++j) core_load(j % kCores, stress_line(j));
    r.sim_us = sim::to_ns(s->kernel().now() - t0) / 1000.0;
    r.loads_checked = chk->loads_checked();
    r.hits = s->counter(tb::csr::kCaHits);
    r.misses = s->counter(tb::csr::kCaMisses);
    r.writebacks = s->counter(tb::csr::kCaWritebacks);
    r.snoops = s->counter(tb::csr::kCaSnoops);
    r.retries = s->counter(tb::csr::kCaRetries);
    r.wall_s = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
    std::printf(
        "[ stress   ] %llu device requests (%llu hits, %llu misses, %llu write-backs, %llu snoops, "
        "%llu with data; %llu RdNA of lines dirty in a host cache, %llu FwdInv of host copies "
        "for a WrInv), %llu core accesses, %llu loads checked, %.1f us simulated in %.1f s\n",
        static_cast<unsigned long long>(r.requests), static_cast<unsigned long long>(r.hits),
        static_cast<unsigned long long>(r.misses), static_cast<unsigned long long>(r.writebacks),
        static_cast<unsigned long long>(r.snoops), static_cast<unsigned long long>(r.snoop_data),
        static_cast<unsigned long long>(r.rdna_dirty),
        static_cast<unsigned long long>(r.wrinv_fwdinv),
        static_cast<unsigned long long>(r.core_ops),
        static_cast<unsigned long long>(r.loads_checked), r.sim_us, r.wall_s);
    RecordProperty("device_requests", std::to_string(r.requests));
    return r;
  }

  // What the fabric's observers count (members: the fabric keeps the observers).
  Figures fig_;
  std::map<Addr, unsigned> wrinv_at_home_;  // device WrInv delivered, WrAck not yet sent
};

TEST_F(DeviceCacheStress, RandomDeviceAndCoreAccessesToHostLinesStayCoherent) {
  build_fast();
  const uint64_t n = stress_transactions();
  const Figures r = stress(n);
  EXPECT_GT(r.loads_checked, r.core_ops / 4);
  // Every path of the device's caching agent.
  EXPECT_GT(r.hits, n / 20);
  EXPECT_GT(r.misses, n / 4);
  EXPECT_GT(r.writebacks, n / 50);
  EXPECT_GT(r.snoops, n / 20);
  EXPECT_GT(r.snoop_data, n / 100) << "snoops of dirty lines in the device";
  EXPECT_GT(r.rdna_dirty, n / 1000) << "RdNA of lines dirty in a host cache";
  EXPECT_GT(r.wrinv_fwdinv, n / 100) << "WrInv invalidating host copies";
  // The host home queues what it cannot take at once; it never answers Retry.
  EXPECT_EQ(r.retries, 0u);
}

// FwdDown instead of FwdDownO (memory updated, the owner left in S) and DataS to a read of an
// unshared line, with the fixture's longer latencies (a 40 ns link).
TEST_F(DeviceCacheStress, WithoutOwnedForwardingAndExclusiveGrantsStaysCoherent) {
  build({"home.forward_owned=false", "home.grant_exclusive=false"});
  const uint64_t n = stress_transactions() / 4;
  const Figures r = stress(n);
  EXPECT_GT(r.snoops, n / 20);
  EXPECT_GT(r.writebacks, n / 50);
}

// The device's engine holds off 70 % of the cycles' responses: reads' data waits in the
// agent's response register while snoops and grants go on.
TEST_F(DeviceCacheStress, UnderResponseBackPressureStaysCoherent) {
  build_fast(0.7);
  const uint64_t n = stress_transactions() / 10;
  const Figures r = stress(n);
  EXPECT_GT(r.snoops, n / 20);
}

// The device's clock sleeping while its core is quiescent (docs/endpoint.md, "Quiescence")
// changes nothing: every message at the same time, with and without response back-pressure.
TEST_F(DeviceCacheStress, SleepingDeviceClockGivesTheSameMessages) {
  for (double stall : {0.0, 0.5}) {
    SCOPED_TRACE("response stall " + std::to_string(stall));
    std::vector<std::string> traces[2];
    for (bool skip : {false, true}) {
      build_fast(stall, {std::string("device.skip_idle=") + (skip ? "true" : "false")});
      tb::MessageTrace trace(*s);
      stress(1500);
      traces[skip] = trace.lines();
    }
    ASSERT_FALSE(traces[0].empty());
    EXPECT_EQ(traces[0].size(), traces[1].size());
    EXPECT_TRUE(traces[0] == traces[1]);
  }
}

TEST_F(DeviceCacheStress, SameSeedGivesTheSameRun) {
  build_fast();
  const Figures a = stress(1500);
  build_fast();
  const Figures b = stress(1500);
  EXPECT_EQ(a.sim_us, b.sim_us);
  EXPECT_EQ(a.core_ops, b.core_ops);
  EXPECT_EQ(a.snoops, b.snoops);
}

}  // namespace
}  // namespace cni::test
