// SPDX-License-Identifier: Apache-2.0
// HostSystem and Core: topology, MemoryPort semantics (store buffer, forwarding, barrier,
// prefetch, uncached accesses), latency composition, and end-to-end coherence.
#include "cni/sim/host.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <stdexcept>
#include <string>

#include "coherence_checker.hpp"
#include "error_of.hpp"

using namespace cni;
using namespace cni::sim;
using CS = CacheState;
using cni::sim::test::error_of;

namespace {

class Host : public testing::Test {
 protected:
  // Build the host from enzian-eci with `overrides`; the checker watches socket 0 and 1 DRAM.
  void build(std::initializer_list<const char*> overrides = {}) {
    profile = Profile::load("enzian-eci");
    profile.set("link.jitter_ns", "0");  // the timing tests check exact sums
    for (const char* o : overrides) profile.set(o);
    k = std::make_unique<Kernel>();
    f = std::make_unique<Fabric>(*k, 128);
    sys = std::make_unique<HostSystem>(*k, *f, profile);
    checker = tb::CoherenceChecker();  // a test may build more than one host
    checker.watch(HostSystem::dram_base(0), 1 << 20);
    checker.watch(HostSystem::dram_base(1), 1 << 20);
    sys->set_observer(&checker);
  }
  void TearDown() override { EXPECT_TRUE(checker.errors().empty()) << checker.errors()[0]; }
  double p(const char* key) const { return profile.get_double(key); }

  Profile profile;
  std::unique_ptr<Kernel> k;
  std::unique_ptr<Fabric> f;
  std::unique_ptr<HostSystem> sys;
  tb::CoherenceChecker checker;
};

// An uncached window answering reads with addr ^ 0xff after `latency`, recording writes.
struct FakeRegisters : UncachedTarget {
  FakeRegisters(Kernel& k, Time latency) : k(k), latency(latency) {}
  void read64(proto::Addr addr, std::function<void(uint64_t)> done) override {
    k.after(latency, [addr, done] { done(addr ^ 0xff); });
  }
  void write64(proto::Addr addr, uint64_t value, std::function<void()> done) override {
    writes.emplace_back(addr, value);
    done();  // posted
  }
  Kernel& k;
  Time latency;
  std::vector<std::pair<proto::Addr, uint64_t>> writes;
};

}  // namespace

TEST_F(Host, AssignsAgentsNodesAndDramBySocket) {
  build({"host.sockets=2", "host.cores=4"});
  EXPECT_EQ(sys->num_sockets(), 2u);
  EXPECT_EQ(sys->num_cores(), 4u);
  EXPECT_EQ(sys->home_agent(1), 1);
  EXPECT_EQ(sys->cache_agent(0), 2);
  EXPECT_EQ(sys->cache_agent(3), 5);
  EXPECT_EQ(sys->device_agent(0), 6);
  EXPECT_EQ(sys->core_socket(1), 1u);
  EXPECT_EQ(sys->core_socket(2), 0u);
  EXPECT_EQ(sys->device_node(0), 2u);
  EXPECT_EQ(f->node_of(sys->cache_agent(1)), sys->socket_node(1));
  EXPECT_EQ(f->home_of(HostSystem::dram_base(1) + 0x1234), 1);
  EXPECT_NO_THROW((void)f->stats(sys->socket_node(0), sys->device_node(0)));
  EXPECT_THROW((void)f->stats(sys->socket_node(1), sys->device_node(0)), std::out_of_range);
  EXPECT_THROW((void)f->home_of(HostSystem::dram_base(2)), std::out_of_range);
}

TEST_F(Host, DeviceSlotsFollowTheCoresAndCountAgainstTheAgentIds) {
  build({"host.sockets=2", "host.cores=4", "node.devices=3"});
  EXPECT_EQ(sys->num_devices(), 3u);
  for (unsigned d = 0; d < 3; ++d) {
    EXPECT_EQ(sys->device_agent(d), 6 + d);
    EXPECT_EQ(sys->device_node(d), 2u + d);
    EXPECT_NO_THROW((void)f->stats(sys->socket_node(0), sys->device_node(d)));
  }
  const std::string none = error_of<std::out_of_range>([&] { (void)sys->device_node(3); });
  EXPECT_NE(none.find("no device slot 3"), std::string::npos) << none;

  // Without devices, 15 cores and a socket fill the 16 agent ids; one device more does not fit.
  Profile full = Profile::load("enzian-eci");
  full.set("host.cores=15");
  full.set("node.devices=0");
  Kernel k2;
  Fabric f2(k2);
  HostSystem host_only(k2, f2, full);
  EXPECT_EQ(host_only.num_devices(), 0u);
  EXPECT_EQ(f2.num_nodes(), 1u);
  full.set("node.devices=1");
  Fabric f3(k2);
  const std::string over = error_of<ProfileError>([&] { HostSystem s(k2, f3, full); });
  EXPECT_NE(over.find("node.devices (1)"), std::string::npos) << over;
}

TEST_F(Host, ExplicitPlacementAndBadPlacementErrors) {
  build({"host.sockets=2", "host.cores=3", "host.core_sockets=1,1,0"});
  EXPECT_EQ(sys->core_socket(0), 1u);
  EXPECT_EQ(sys->core_socket(2), 0u);
  Profile bad = Profile::load("enzian-eci");
  bad.set("host.core_sockets=0,3");
  Kernel k2;
  Fabric f2(k2);
  try {
    HostSystem s(k2, f2, bad);
    FAIL();
  } catch (const ProfileError& e) {
    EXPECT_NE(std::string(e.what()).find("host.core_sockets"), std::string::npos) << e.what();
  }
  Profile many = Profile::load("enzian-eci");
  many.set("host.cores=15");
  Fabric f3(k2);
  EXPECT_THROW(HostSystem(k2, f3, many), ProfileError);
}

TEST_F(Host, LocalMissCostsIssueOnChipDirectoryDramAndBack) {
  build();
  Time took = 0;
  sys->spawn(0, [&](drv::MemoryPort& port) {
    const Time t0 = k->now();
    (void)port.load64(0x1000);
    took = k->now() - t0;
  });
  sys->run_programs();
  const double want = p("core.access_ns") + p("cache.miss_ns") + p("onchip.latency_ns") +
                      p("dram.latency_ns") + p("home.dir_ns") + p("onchip.latency_ns");
  // DRAM also spends the line's transfer time at its bandwidth.
  const double xfer = 128 / (p("dram.bandwidth_gib_s") * 1.073741824);
  EXPECT_NEAR(to_ns(took), want + xfer, 0.01);
  EXPECT_EQ(sys->state_of(0, 0x1000), CS::E);
}

TEST_F(Host, RemoteMissCrossesTheLinkTwice) {
  build({"host.sockets=2", "host.cores=2"});
  Time took = 0;
  sys->spawn(1, [&](drv::MemoryPort& port) {  // core 1 is on socket 1; the line on socket 0
    const Time t0 = k->now();
    (void)port.load64(0x1000);
    took = k->now() - t0;
  });
  sys->run_programs();
  const double bw = p("link.bandwidth_gib_s") * 1.073741824;  // bytes per ns
  const double want = p("core.access_ns") + p("cache.miss_ns") + 4 * p("onchip.link_port_ns") +
                      2 * p("link.one_way_ns") + 16 / bw + 144 / bw + p("dram.latency_ns") +
                      128 / (p("dram.bandwidth_gib_s") * 1.073741824) + p("home.dir_ns");
  EXPECT_NEAR(to_ns(took), want, 0.01);
}

TEST_F(Host, StoreBufferForwardsToALaterLoad) {
  build();
  uint64_t seen = 0;
  Time took = 0;
  CS state_during = CS::I;
  sys->spawn(0, [&](drv::MemoryPort& port) {
    port.store64(0x2000, 0x1234);
    const Time t0 = k->now();
    seen = port.load64(0x2000);
    took = k->now() - t0;
    state_during = sys->state_of(0, 0x2000);
  });
  sys->run_programs();
  EXPECT_EQ(seen, 0x1234u);
  EXPECT_EQ(state_during, CS::IM) << "the value came from the store buffer, not the cache";
  EXPECT_NEAR(to_ns(took), p("core.access_ns") + p("l1.hit_ns"), 0.01);
  EXPECT_EQ(sys->core(0).stats().forwarded, 1u);
}

TEST_F(Host, LoadPartlyCoveredByTheStoreBufferWaitsForTheDrain) {
  build();
  const uint64_t pattern = 0x8877665544332211ull;
  sys->home(0).write_memory(0x3000, &pattern, 8);
  checker.set_shadow(0x3000, &pattern, 8);
  uint64_t seen = 0;
  Time took = 0;
  sys->spawn(0, [&](drv::MemoryPort& port) {
    const uint32_t lo = 0xaabbccdd;
    port.store(0x3000, &lo, 4);
    const Time t0 = k->now();
    seen = port.load64(0x3000);
    took = k->now() - t0;
  });
  sys->run_programs();
  EXPECT_EQ(seen, 0x88776655aabbccddull);
  EXPECT_GT(to_ns(took), 100.0) << "a partial overlap cannot forward";
}

TEST_F(Host, BarrierWaitsUntilStoresArePerformed) {
  build();
  Time took = 0;
  CS after = CS::I;
  sys->spawn(0, [&](drv::MemoryPort& port) {
    port.store64(0x4000, 1);
    const Time t0 = k->now();
    port.barrier();
    took = k->now() - t0;
    after = sys->state_of(0, 0x4000);
  });
  sys->run_programs();
  EXPECT_EQ(after, CS::M);
  EXPECT_GT(to_ns(took), p("dram.latency_ns") + 2 * p("onchip.latency_ns"));
  EXPECT_EQ(sys->core(0).stats().barriers, 1u);
}

TEST_F(Host, FullStoreBufferBlocksTheCore) {
  build({"core.store_buffer=2", "core.store_prefetch=false"});
  std::vector<Time> returned;
  sys->spawn(0, [&](drv::MemoryPort& port) {
    for (int i = 0; i < 3; ++i) {
      port.store64(0x5000 + 0x80 * i, i);
      returned.push_back(k->now());
    }
  });
  sys->run_programs();
  ASSERT_EQ(returned.size(), 3u);
  EXPECT_LT(to_ns(returned[1]), 5.0);
  EXPECT_GT(to_ns(returned[2]), 100.0) << "the third store waits for the first to drain";
}

TEST_F(Host, StoreAndLoadSpanLines) {
  build();
  uint8_t out[300], in[300];
  for (int i = 0; i < 300; ++i) out[i] = static_cast<uint8_t>(i * 7 + 1);
  sys->spawn(0, [&](drv::MemoryPort& port) {
    port.store(0x6000 + 100, out, 300);  // lines 0x6000, 0x6080, 0x6100, 0x6180
    port.barrier();
    port.load(0x6000 + 100, in, 300);
  });
  sys->run_programs();
  EXPECT_EQ(std::memcmp(in, out, 300), 0);
  for (proto::Addr l = 0x6000; l <= 0x6180; l += 0x80) EXPECT_EQ(sys->state_of(0, l), CS::M);
}

TEST_F(Host, PrefetchOverlapsMisses) {
  build();
  Time cold = 0, prefetched = 0;
  sys->spawn(0, [&](drv::MemoryPort& port) {
    Time t0 = k->now();
    for (int i = 0; i < 8; ++i) (void)port.load64(0x10000 + 0x80 * i);
    cold = k->now() - t0;
    t0 = k->now();
    for (int i = 0; i < 8; ++i) port.prefetch(0x20000 + 0x80 * i, false);
    for (int i = 0; i < 8; ++i) (void)port.load64(0x20000 + 0x80 * i);
    prefetched = k->now() - t0;
  });
  sys->run_programs();
  EXPECT_LT(prefetched * 4, cold);
  EXPECT_EQ(sys->cache(0).stats().prefetches, 8u);
}

TEST_F(Host, UncachedAccessesReachTheMappedTarget) {
  build();
  FakeRegisters regs(*k, ns(1000));
  sys->map_uncached(0x8000'0000, 0x1000, regs);
  uint64_t v = 0;
  Time took = 0;
  sys->spawn(0, [&](drv::MemoryPort& port) {
    port.uncached_store64(0x8000'0010, 77);
    const Time t0 = k->now();
    v = port.uncached_load64(0x8000'0008);
    took = k->now() - t0;
  });
  sys->run_programs();
  EXPECT_EQ(v, 0x8000'0008ull ^ 0xff);
  EXPECT_EQ(took, ns(1000));
  ASSERT_EQ(regs.writes.size(), 1u);
  EXPECT_EQ(regs.writes[0], std::make_pair(proto::Addr{0x8000'0010}, uint64_t{77}));
}

// A 16-byte uncached load of a target without a wider read: two 8-byte reads, one after the
// other; an address not 16-byte aligned is refused.
TEST_F(Host, AWideUncachedLoadIsTwoReadsOfANarrowTarget) {
  build();
  FakeRegisters regs(*k, ns(1000));
  sys->map_uncached(0x8000'0000, 0x1000, regs);
  uint64_t w[2] = {};
  Time took = 0;
  sys->spawn(0, [&](drv::MemoryPort& port) {
    const Time t0 = k->now();
    port.uncached_load128(0x8000'0020, w);
    took = k->now() - t0;
  });
  sys->run_programs();
  EXPECT_EQ(w[0], 0x8000'0020ull ^ 0xff);
  EXPECT_EQ(w[1], 0x8000'0028ull ^ 0xff);
  EXPECT_EQ(took, ns(2000));
  sys->spawn(0, [&](drv::MemoryPort& port) { port.uncached_load128(0x8000'0008, w); });
  EXPECT_THROW(sys->run_programs(), std::invalid_argument);
}

TEST_F(Host, UnmappedUncachedAccessFailsNamingTheAddress) {
  build();
  sys->spawn(0, [](drv::MemoryPort& port) { (void)port.uncached_load64(0x9000'0000); });
  try {
    sys->run_programs();
    FAIL();
  } catch (const std::out_of_range& e) {
    EXPECT_NE(std::string(e.what()).find("0x90000000"), std::string::npos) << e.what();
  }
}

TEST_F(Host, PortUsedOutsideItsProgramIsALogicError) {
  build();
  EXPECT_THROW((void)sys->port(0).load64(0), std::logic_error);
  EXPECT_THROW(sys->spawn(9, [](drv::MemoryPort&) {}), std::out_of_range);
}

TEST_F(Host, PauseAdvancesSimulatedTimeAndNowNsReadsIt) {
  build();
  uint64_t t0 = 0, t1 = 0;
  sys->spawn(0, [&](drv::MemoryPort& port) {
    t0 = port.now_ns();
    port.pause_ns(500);
    t1 = port.now_ns();
    EXPECT_EQ(port.line_bytes(), 128u);
  });
  sys->run_programs();
  EXPECT_EQ(t1 - t0, 500u);
}

TEST_F(Host, ProgramExceptionSurfacesFromRunPrograms) {
  build();
  sys->spawn(1, [](drv::MemoryPort& port) {
    port.pause_ns(10);
    throw std::runtime_error("driver gave up");
  });
  EXPECT_THROW(sys->run_programs(), std::runtime_error);
}

TEST_F(Host, MessagePassedBetweenSocketsArrivesWithItsPayload) {
  build({"host.sockets=2", "host.cores=2"});
  const proto::Addr data = HostSystem::dram_base(1) + 0x100, flag = 0x200;
  uint64_t got[4] = {};
  sys->spawn(0, [&](drv::MemoryPort& port) {
    const uint64_t payload[4] = {11, 22, 33, 44};
    port.store(data, payload, sizeof payload);
    port.barrier();
    port.store64(flag, 1);
  });
  sys->spawn(1, [&](drv::MemoryPort& port) {
    while (port.load64(flag) == 0) port.pause_ns(20);
    port.load(data, got, sizeof got);
  });
  sys->run_programs();
  EXPECT_EQ(got[0], 11u);
  EXPECT_EQ(got[3], 44u);
  EXPECT_GT(checker.loads_checked(), 2u);
}

TEST_F(Host, FastForwardPingPongBetweenSocketsTakesFourLinkRoundTrips) {
  // Two cores on different sockets bounce a counter through two lines (one per direction),
  // FastForward-style: each spins on its receive line in S and writes the other's.
  build({"host.sockets=2", "host.cores=2"});
  const proto::Addr to1 = 0x1000, to0 = HostSystem::dram_base(1) + 0x1000;
  constexpr int kRounds = 50;
  Time start = 0, end = 0;
  sys->spawn(0, [&](drv::MemoryPort& port) {
    start = k->now();
    for (uint64_t i = 1; i <= kRounds; ++i) {
      port.store64(to1, i);
      while (port.load64(to0) != i) {
      }
    }
    end = k->now();
  });
  sys->spawn(1, [&](drv::MemoryPort& port) {
    for (uint64_t i = 1; i <= kRounds; ++i) {
      while (port.load64(to1) != i) {
      }
      port.store64(to0, i);
    }
  });
  sys->run_programs();
  const double per_round = to_ns(end - start) / kRounds;
  RecordProperty("round_trip_ns", std::to_string(per_round));
  EXPECT_GT(per_round, 8 * p("link.one_way_ns"));
  EXPECT_LT(per_round, 12 * p("link.one_way_ns"));
}

namespace {

// A device stand-in with zero processing time, home of two lines A and B, playing PIO
// protocol (c): a read of A makes it fetch B back (FwdInv), and the answer to the read is A
// in E holding B's first word plus one. An ownership request for B is granted at once.
class InstantRpcDevice : public Agent {
 public:
  static constexpr proto::Addr kA = proto::Addr{0x10} << 32, kB = kA + 128;
  InstantRpcDevice(proto::AgentId id, Fabric& f) : Agent(id), f_(f) {}
  void deliver(const proto::Msg& m) override {
    proto::Msg r;
    r.src = id();
    r.dst = m.src;
    r.addr = m.addr;
    if (m.op == proto::Op::RdX && m.addr == kB) {
      r.op = proto::Op::DataE;
      r.tag = m.tag;
      r.len = 128;
    } else if (m.op == proto::Op::RdS && m.addr == kA) {
      pending_ = m;
      r.op = proto::Op::FwdInv;
      r.addr = kB;
      r.tag = 0;
    } else if (m.op == proto::Op::SnpData && m.addr == kB) {
      uint64_t w;
      std::memcpy(&w, m.data.data(), 8);
      ++w;
      r = proto::Msg{};
      r.op = proto::Op::DataE;
      r.src = id();
      r.dst = pending_.src;
      r.tag = pending_.tag;
      r.addr = kA;
      r.len = 128;
      std::memcpy(r.data.data(), &w, 8);
    } else {
      FAIL() << "unexpected " << m.str();
    }
    f_.send(r);
  }

 private:
  Fabric& f_;
  proto::Msg pending_;
};

}  // namespace

TEST_F(Host, RpcThroughAnInstantDeviceCostsTwoLinkRoundTripsPlusHostOverhead) {
  build();
  InstantRpcDevice dev(sys->device_agent(0), *f);
  f->attach(dev, sys->device_node(0));
  f->map_home(InstantRpcDevice::kA, 256, dev.id());
  uint64_t result = 0;
  Time took = 0;
  sys->spawn(0, [&](drv::MemoryPort& port) {
    port.prefetch(InstantRpcDevice::kB, true);  // B starts in E at the CPU
    port.pause_ns(1000);
    const Time t0 = k->now();
    port.store64(InstantRpcDevice::kB, 41);  // payload: E -> M silently
    port.barrier();
    result = port.load64(InstantRpcDevice::kA);  // the device answers after fetching B
    took = k->now() - t0;
  });
  sys->run_programs();
  EXPECT_EQ(result, 42u);
  EXPECT_EQ(sys->state_of(0, InstantRpcDevice::kA), CS::E);
  EXPECT_EQ(sys->state_of(0, InstantRpcDevice::kB), CS::I);
  RecordProperty("rpc_host_side_ns", std::to_string(to_ns(took)));
  // Two link round trips (4 x 150 ns) plus host-side overheads; the device's own processing
  // comes on top of this in a real run.
  EXPECT_GT(to_ns(took), 4 * p("link.one_way_ns"));
  EXPECT_LT(to_ns(took), 4 * p("link.one_way_ns") + 150.0);
}

// ---- the ARMv8 core (host.memory_model = armv8, enzian-eci's) -------------------------------

// Core 1 (socket 1) holds x; its load of y, a line homed across the link, misses; core 0 stores
// x meanwhile. Returns the value core 1 then reads from x through `second`.
static uint64_t load_after_a_miss(HostSystem& sys, Kernel& k,
                                  const std::function<uint64_t(drv::MemoryPort&, proto::Addr)>& second) {
  const proto::Addr x = HostSystem::dram_base(1) + 0x1000, y = HostSystem::dram_base(0) + 0x2000;
  sys.spawn(1, [&](drv::MemoryPort& m) { (void)m.load64(x); });
  sys.run_programs();
  uint64_t got = 0;
  sys.spawn(1, [&](drv::MemoryPort& m) {
    (void)m.load64(y);  // across the link: hundreds of ns
    got = second(m, x);
  });
  sys.spawn(0, [&](drv::MemoryPort& m) {
    m.pause_ns(50);
    m.store64(x, 1);
    m.barrier();
  });
  sys.run_programs();
  (void)k;
  return got;
}

TEST_F(Host, ArmLoadMaySeeALineInvalidatedWhileTheLoadBeforeItMissed) {
  build({"host.sockets=2", "host.cores=2"});
  EXPECT_EQ(load_after_a_miss(*sys, *k, [](drv::MemoryPort& m, proto::Addr x) {
              return m.load64(x);
            }),
            0u)
      << "the load could have issued with the earlier one: x's old value";
  EXPECT_EQ(sys->core(1).stats().stale_loads, 1u);
}

TEST_F(Host, ArmLoadBarrierAcquireAndDependencyKeepTheLoadAfterTheMiss) {
  using Second = std::function<uint64_t(drv::MemoryPort&, proto::Addr)>;
  const std::vector<std::pair<const char*, Second>> ways = {
      {"barrier_load", [](drv::MemoryPort& m, proto::Addr x) { m.barrier_load(); return m.load64(x); }},
      {"barrier", [](drv::MemoryPort& m, proto::Addr x) { m.barrier(); return m.load64(x); }},
      {"load_dep", [](drv::MemoryPort& m, proto::Addr x) { uint64_t v = 0; m.load_dep(x, &v, 8); return v; }},
      {"load_acquire64 first", [](drv::MemoryPort& m, proto::Addr x) { return m.load_acquire64(x); }},
  };
  for (const auto& [name, second] : ways) {
    build({"host.sockets=2", "host.cores=2"});
    EXPECT_EQ(load_after_a_miss(*sys, *k, second), 1u) << name;
    EXPECT_EQ(sys->core(1).stats().stale_loads, 0u) << name;
  }
}

TEST_F(Host, TsoLoadsStayInOrder) {
  build({"host.sockets=2", "host.cores=2", "host.memory_model=tso"});
  EXPECT_EQ(load_after_a_miss(*sys, *k, [](drv::MemoryPort& m, proto::Addr x) {
              return m.load64(x);
            }),
            1u);
}
