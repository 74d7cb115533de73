// SPDX-License-Identifier: Apache-2.0
// The device's caching agent in the host simulation (SimDevice::submit), directed: its reads
// of lines dirty in a core's cache (FwdDownO and FwdDown), a core's store to a line it holds in
// M, WrInv over every host copy, RdNA leaving no state, a flush writing back, grants and
// snoops of one line crossing on the link (rule 8), the device's first-response latency
// samples ignoring its caching agent's traffic, and an engine on the engine bus (the scratch-pad
// engine's host ops) sharing the agent with the external port. The coherence checker watches
// every agent.
#include <cstring>
#include <functional>
#include <random>

#include "device/scratch_regs.hpp"
#include "device_cache.hpp"

namespace cni::test {
namespace {

using sim::CacheState;
using sim::DirState;

constexpr uint16_t bit(proto::AgentId a) { return static_cast<uint16_t>(1u << a); }

class DeviceCache : public DeviceCacheTest {
 protected:
  void SetUp() override { build(); }
  // Core c's cache agent id and the home of line `a`.
  proto::AgentId core_agent(unsigned c) const { return s->host.cache_agent(c); }
  sim::HomeAgent& home_of(Addr a) { return s->host.home(static_cast<unsigned>(a >> 32)); }
  CaLine memory(Addr a) {
    CaLine l{};
    home_of(a).read_memory(a, l.data(), lb);
    return l;
  }
};

TEST_F(DeviceCache, ReadSharedOfALineDirtyInACoreGetsTheCoresDataAndTheCoreKeepsOwned) {
  const Addr a = host_line(0, 1);
  const CaLine d = pattern(0x30);
  core_store(0, a, d.data(), lb);
  ASSERT_EQ(s->host.state_of(0, a), CacheState::M);
  const CaResult r = dev_op(CaOp::RdS, a);
  EXPECT_FALSE(r.err);
  EXPECT_TRUE(same_line(r.data, d)) << "FwdDownO: the core's data is forwarded";
  EXPECT_EQ(s->dev.cache().state(a), LineState::S);
  EXPECT_EQ(s->host.state_of(0, a), CacheState::O);
  EXPECT_EQ(home_of(a).dir_state(a), DirState::O);
  EXPECT_EQ(home_of(a).dir_owner(a), core_agent(0));
  EXPECT_EQ(home_of(a).dir_sharers(a), bit(dev_id()));
  EXPECT_FALSE(same_line(memory(a), d)) << "memory stays stale under an owner";
  EXPECT_TRUE(same_line(dev_op(CaOp::RdS, a).data, d)) << "a hit";
  EXPECT_EQ(s->counter(tb::csr::kCaHits), 1u);
}

TEST_F(DeviceCache, ReadSharedOfALineDirtyInACoreWithoutOwnedForwardingWritesMemory) {
  build({"home.forward_owned=false"});
  const Addr a = host_line(1, 2);  // on the far socket
  const CaLine d = pattern(0x31);
  core_store(1, a, d.data(), lb);
  const CaResult r = dev_op(CaOp::RdS, a);
  EXPECT_TRUE(same_line(r.data, d)) << "FwdDown: the core's data reaches memory and the device";
  EXPECT_EQ(s->dev.cache().state(a), LineState::S);
  EXPECT_EQ(s->host.state_of(1, a), CacheState::S);
  EXPECT_TRUE(same_line(memory(a), d));
  EXPECT_EQ(home_of(a).dir_sharers(a), bit(dev_id()) | bit(core_agent(1)));
}

TEST_F(DeviceCache, CoreStoreToALineTheDeviceHoldsModifiedIsServedWithTheDevicesData) {
  const Addr a = host_line(1, 3);
  const CaLine w = pattern(0x40);
  EXPECT_FALSE(dev_op(CaOp::Wr, a, &w).err);
  ASSERT_EQ(s->dev.cache().state(a), LineState::M);
  const uint64_t v = 0x1122334455667788ull;
  core_store(2, a + 16, &v, sizeof v);
  EXPECT_EQ(s->dev.cache().state(a), LineState::I) << "the device answered FwdInv with its data";
  EXPECT_EQ(s->counter(tb::csr::kCaSnoops), 1u);
  CaLine want = w;
  std::memcpy(want.data() + 16, &v, sizeof v);
  EXPECT_TRUE(same_line(core_load(2, a), want));
  EXPECT_TRUE(same_line(core_load(3, a), want)) << "and another core on the other socket";
}

TEST_F(DeviceCache, WriteInvalidateInvalidatesEveryHostCopyAndACoreReadsTheDevicesData) {
  const Addr a = host_line(0, 4);
  const CaLine d = pattern(0x50), w = pattern(0x90);
  core_store(0, a, d.data(), lb);
  core_load(1, a);
  core_load(2, a);
  ASSERT_EQ(s->host.state_of(0, a), CacheState::O);
  ASSERT_EQ(s->host.state_of(1, a), CacheState::S);
  ASSERT_EQ(s->host.state_of(2, a), CacheState::S);
  EXPECT_FALSE(dev_op(CaOp::WrInv, a, &w).err);
  for (unsigned c = 0; c < kCores; ++c) EXPECT_EQ(s->host.state_of(c, a), CacheState::I) << c;
  EXPECT_EQ(s->dev.cache().state(a), LineState::I) << "a WrInv miss allocates nothing";
  EXPECT_EQ(home_of(a).dir_state(a), DirState::I);
  EXPECT_TRUE(same_line(memory(a), w));
  EXPECT_TRUE(same_line(core_load(3, a), w));
}

TEST_F(DeviceCache, NonAllocatingReadLeavesNoStateAnywhere) {
  const Addr dirty = host_line(0, 5), clean = host_line(1, 5);
  const CaLine d = pattern(0x60);
  core_store(0, dirty, d.data(), lb);
  const CaResult r = dev_op(CaOp::RdNA, dirty);
  EXPECT_FALSE(r.err);
  EXPECT_TRUE(same_line(r.data, d));
  EXPECT_TRUE(same_line(dev_op(CaOp::RdNA, clean).data, CaLine{}));
  for (Addr a : {dirty, clean}) {
    EXPECT_EQ(s->dev.cache().state(a), LineState::I);
    EXPECT_EQ(chk->state(dev_id(), a), CacheState::I);
    EXPECT_NE(home_of(a).dir_owner(a), dev_id());
    EXPECT_EQ(home_of(a).dir_sharers(a) & bit(dev_id()), 0u);
  }
  EXPECT_EQ(s->host.state_of(0, dirty), CacheState::O) << "the dirty core keeps its line";
  EXPECT_EQ(home_of(clean).dir_state(clean), DirState::I);
  EXPECT_EQ(s->counter(tb::csr::kCaHits), 0u);
}

TEST_F(DeviceCache, FlushOfADirtyLineWritesItBack) {
  const Addr a = host_line(1, 6);
  const CaLine w = pattern(0x70);
  EXPECT_FALSE(dev_op(CaOp::Wr, a, &w).err);
  EXPECT_FALSE(dev_op(CaOp::Flush, a).err);
  EXPECT_EQ(s->dev.cache().state(a), LineState::I);
  EXPECT_EQ(s->counter(tb::csr::kCaWritebacks), 1u);
  EXPECT_EQ(home_of(a).dir_state(a), DirState::I);
  EXPECT_TRUE(same_line(memory(a), w));
  EXPECT_TRUE(same_line(core_load(0, a), w));
}

// A device RdX (or Wr) and a core's store race for one line, round after round with seeded
// timing. When the home grants the device first and then snoops it for the core, grant and
// snoop are on the link together; the device must take the grant first (rule 8), or it would
// keep the line in E or M after the home gave it to the core (the checker sees two writers).
TEST_F(DeviceCache, GrantsAndSnoopsCrossingOnTheLinkKeepOneWriter) {
  const Addr a = host_line(0, 7);
  const proto::AgentId dev = dev_id();
  sim::Time dat_sent = 0, dat_delivered = 0;
  unsigned crossed = 0;
  s->f.on_send([&](const proto::Msg& m, sim::Time t) {
    if (m.dst != dev || m.addr != a) return;
    if (m.chan() == proto::Chan::Dat) dat_sent = t;
    if (m.chan() == proto::Chan::Fwd && dat_sent > dat_delivered) ++crossed;
  });
  s->f.on_deliver([&](const proto::Msg& m, sim::Time t) {
    if (m.dst == dev && m.addr == a && m.chan() == proto::Chan::Dat) dat_delivered = t;
  });
  // Grants of other lines keep the device's DAT channel busy, so a grant of `a` may also wait
  // behind another one on its way in.
  bool stop = false;
  unsigned next = 0;
  std::function<void()> others = [&] {
    if (stop) return;
    s->dev.submit(CaOp::RdNA, host_line(next % 2, 8 + next % 8),
                  [&](const CaResult&) { others(); });
    ++next;
  };
  others();
  others();
  std::mt19937_64 rng(seed);
  constexpr unsigned kRounds = 1000;
  for (unsigned round = 0; round < kRounds; ++round) {
    const CaLine w = pattern(static_cast<uint8_t>(round));
    bool dev_done = false;
    s->dev.submit(
        round % 2 ? CaOp::Wr : CaOp::RdX, a,
        [&](const CaResult& r) {
          EXPECT_FALSE(r.err);
          dev_done = true;
        },
        w.data());
    const uint64_t delay = rng() % 200, v = round;
    const unsigned core = static_cast<unsigned>(rng() % kCores);
    on_core(core, [&](drv::MemoryPort& m) {
      m.pause_ns(delay);
      m.store64(a + 8 * (round % 16), v);
      m.barrier();
    });
    ASSERT_TRUE(run_until([&] { return dev_done; })) << "round " << round;
  }
  stop = true;
  ASSERT_TRUE(run_until([&] { return s->dev.cache().outstanding() == 0; }));
  EXPECT_GT(crossed, kRounds / 20) << "the race must put snoops behind grants on the link";
  (void)core_load(0, a);
}

// The device's first-response samples time its home agent; its caching agent's requests, sent
// while a host request is open, are not the home's answer.
TEST_F(DeviceCache, FirstResponseSamplesIgnoreTheCachingAgentsRequests) {
  bool stop = false;
  unsigned next = 0;
  std::function<void()> stream = [&] {
    if (stop) return;
    s->dev.submit(CaOp::RdNA, host_line(next % 2, next % 8), [&](const CaResult&) { stream(); });
    ++next;
  };
  for (unsigned i = 0; i < 4; ++i) stream();
  on_core(0, [&](drv::MemoryPort& m) {
    for (unsigned l = 0; l < 40; ++l) {
      (void)m.load64(s->dev.host_addr(l));
      m.pause_ns(100 + 7 * l);
    }
  });
  stop = true;
  ASSERT_TRUE(run_until([&] { return s->dev.cache().outstanding() == 0; }));
  const auto& samples = s->dev.first_response_cycles();
  ASSERT_EQ(samples.size(), 40u);
  // An uncontended request's answer leaves 3 cycles after it enters (docs/endpoint.md).
  for (uint32_t c : samples) EXPECT_GE(c, 3u);
  EXPECT_GT(next, 40u) << "the caching agent was busy meanwhile";
}

// An engine reaches host lines through the caching agent on the engine bus (docs/endpoint.md,
// "The caching agent on the engine bus"): the scratch-pad engine, driven by a core's uncached
// stores, reads a line dirty in another core's cache into its buffer and writes its buffer to
// another line, which a third core then reads; meanwhile the external port's own requests are
// answered to it, not to the engine.
TEST_F(DeviceCache, AnEngineReadsAndWritesHostLinesThroughTheAgentBesideTheExternalPort) {
  const tb::ScratchRegs regs(s->dev);
  const Addr a = host_line(0, 3), b = host_line(1, 4), c = host_line(0, 5);
  const CaLine d = pattern(0x50), w = pattern(0x90), e = pattern(0x20);
  core_store(0, a, d.data(), lb);
  core_store(2, c, e.data(), lb);
  // the engine's read of a (core 1 drives it) and the external port's read of c, together
  auto ext = std::make_shared<std::optional<CaResult>>();
  s->dev.submit(CaOp::RdS, c, [ext](const CaResult& r) { *ext = r; });
  bool err = true;
  CaLine got{};
  on_core(1, [&](drv::MemoryPort& m) {
    err = regs.host(m, CaOp::RdS, a);
    for (unsigned i = 0; i < lb / 8; ++i) {
      const uint64_t v = regs.word(m, i);
      std::memcpy(got.data() + 8 * i, &v, 8);
    }
  });
  EXPECT_FALSE(err);
  EXPECT_TRUE(same_line(got, d)) << "the engine's buffer holds core 0's data";
  EXPECT_EQ(s->dev.cache().state(a), LineState::S);
  EXPECT_EQ(s->host.state_of(0, a), CacheState::O);
  ASSERT_TRUE(run_until([&] { return ext->has_value(); }));
  EXPECT_FALSE((*ext)->err);
  EXPECT_TRUE(same_line((*ext)->data, e)) << "the external port got its own line";
  // the engine writes its buffer to b (every byte), then core 3 reads b
  on_core(1, [&](drv::MemoryPort& m) {
    for (unsigned i = 0; i < lb / 8; ++i) {
      uint64_t v = 0;
      std::memcpy(&v, w.data() + 8 * i, 8);
      regs.put_word(m, i, v);
    }
    err = regs.host(m, CaOp::Wr, b);
  });
  EXPECT_FALSE(err);
  EXPECT_EQ(s->dev.cache().state(b), LineState::M);
  EXPECT_TRUE(same_line(core_load(3, b), w)) << "a core reads the line the engine wrote";
  EXPECT_EQ(s->dev.cache().state(b), LineState::O);
  EXPECT_TRUE(s->dev.cache().errors().empty());
}

// An engine's writes of device lines through port B reach the coherence checker as home-side
// stores (pb_mon_*, SimDevice::set_observer): the scratch-pad engine writes a line a core has
// read (its RECALL takes the core's copy first), and the core's next load is checked against
// the engine's data.
TEST_F(DeviceCache, AnEnginesPortBWritesAreHomeSideStoresForTheChecker) {
  const tb::ScratchRegs regs(s->dev);
  const unsigned base = s->dev.geometry().base(tb::DeviceGeometry::kScratch);
  const Addr l = s->dev.host_addr(base + 2);
  chk->watch(s->dev.host_addr(base), Addr{4} * lb);
  EXPECT_TRUE(same_line(core_load(0, l), CaLine{})) << "device memory starts cleared";
  const CaLine w = pattern(0x44);
  const uint64_t stores = chk->stores_seen(), loads = chk->loads_checked();
  on_core(1, [&](drv::MemoryPort& m) {
    for (unsigned i = 0; i < lb / 8; ++i) {
      uint64_t v = 0;
      std::memcpy(&v, w.data() + 8 * i, 8);
      regs.put_word(m, i, v);
    }
    EXPECT_EQ(regs.line_op(m, 1, 2) & 2u, 0u);  // write line 2
  });
  EXPECT_EQ(chk->stores_seen(), stores + 1) << "the port-B write was reported";
  EXPECT_TRUE(same_line(core_load(0, l), w));
  EXPECT_GT(chk->loads_checked(), loads);
}

}  // namespace
}  // namespace cni::test
