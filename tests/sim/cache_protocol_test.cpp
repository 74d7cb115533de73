// SPDX-License-Identifier: Apache-2.0
// Host caching agent against a scripted home: every caching-agent row of docs/protocol.md,
// including the races, driven deterministically by sending messages to the cache directly.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

#include "cni/sim/cache.hpp"
#include "script_agent.hpp"

using namespace cni;
using namespace cni::sim;
using namespace cni::sim::test;
using proto::Op;
using CS = CacheState;

namespace {

constexpr proto::AgentId kHome = 0, kCache = 1;

CacheParams small_params() {
  CacheParams p;
  p.line_bytes = 128;
  p.size_kib = 1;  // 8 lines: 4 sets x 2 ways (set stride 0x200)
  p.ways = 2;
  p.l1_size_kib = 1;
  p.l1_ways = 8;
  p.l1_hit = ns(1.5);
  p.hit = ns(20);
  p.miss = ns(15);
  p.snoop = ns(10);
  p.retry_backoff = ns(100);
  p.timeout = ns(1e6);  // 1 ms
  p.mshrs = 4;
  return p;
}

// One cache (agent 1) and a scripted home (agent 0) on one node, 20 ns apart.
class CacheProtocol : public testing::Test {
 protected:
  void SetUp() override { build(small_params()); }
  void build(const CacheParams& p) {
    k = std::make_unique<Kernel>();
    f = std::make_unique<Fabric>(*k);
    const NodeId n = f->add_node("socket0", ns(20), 0);
    home = std::make_unique<ScriptAgent>(kHome, *k, *f);
    cache = std::make_unique<HostCache>(*k, *f, kCache, p, "core0");
    f->attach(*home, n);
    f->attach(*cache, n);
    f->map_home(0, 1 << 20, kHome);
    cache->set_observer(&log);
  }
  // Let 10 us pass: every scripted exchange here settles well within that, and a pending
  // request's 1 ms coherence timeout does not fire.
  void run() { k->run_until(k->now() + ns(10'000)); }
  // Start a load of 8 bytes; `done_at` receives the completion time.
  void load(proto::Addr a, uint64_t& out, Time& done_at) {
    cache->load(a, &out, 8, [this, &done_at] { done_at = k->now(); });
  }
  void store(proto::Addr a, uint64_t v, Time& done_at) {
    cache->store(a, &v, 8, [this, &done_at] { done_at = k->now(); });
  }
  // Bring `line` into the cache in `grant` (DataS/DataE/DataM) via a load.
  void fill(proto::Addr line, Op grant, uint8_t seed) {
    uint64_t v;
    Time t = 0;
    load(line, v, t);
    run();
    const auto d = pattern(seed);
    home->answer(home->last(), grant, &d);
    run();
  }
  // Bring `line` to M via a store miss (RdX, DataE).
  void own(proto::Addr line, uint64_t value) {
    Time t = 0;
    store(line, value, t);
    run();
    const auto d = pattern(0);
    home->answer(home->last(), Op::DataE, &d);
    run();
  }

  std::unique_ptr<Kernel> k;
  std::unique_ptr<Fabric> f;
  std::unique_ptr<ScriptAgent> home;
  std::unique_ptr<HostCache> cache;
  StateLog log;
};

}  // namespace

TEST_F(CacheProtocol, ReadMissSendsRdSAfterMissTimeAndFillsShared) {
  uint64_t v = 0;
  Time done = 0;
  load(0x1008, v, done);
  run();
  ASSERT_EQ(home->got.size(), 1u);
  EXPECT_EQ(home->got[0].op, Op::RdS);
  EXPECT_EQ(home->got[0].addr, 0x1000u);
  EXPECT_EQ(home->got[0].len, 0);
  EXPECT_EQ(home->when[0], ns(15) + ns(20));
  EXPECT_EQ(cache->state_of(0x1000), CS::IS);
  const auto d = pattern(0x40);
  const Time answered = k->now();
  home->answer(home->got[0], Op::DataS, &d);
  run();
  EXPECT_EQ(cache->state_of(0x1000), CS::S);
  uint64_t want;
  std::memcpy(&want, d.data() + 8, 8);
  EXPECT_EQ(v, want);
  EXPECT_EQ(done, answered + ns(20));  // performed when the data arrives
  EXPECT_EQ(log.path(0x1000), "I>IS>S");
  // A second load hits the L1 filter.
  Time t0 = k->now();
  load(0x1010, v, done);
  run();
  EXPECT_EQ(done - t0, ns(1.5));
  EXPECT_EQ(home->got.size(), 1u);
}

TEST_F(CacheProtocol, ReadGrantedExclusiveThenStoreUpgradesSilently) {
  fill(0x2000, Op::DataE, 1);
  EXPECT_EQ(cache->state_of(0x2000), CS::E);
  Time done = 0;
  store(0x2000, 0xabcdef, done);
  run();
  EXPECT_EQ(cache->state_of(0x2000), CS::M);
  EXPECT_EQ(home->got.size(), 1u) << "E -> M must not send a message";
  EXPECT_EQ(log.path(0x2000), "I>IS>E>M");
}

TEST_F(CacheProtocol, StoreMissSendsRdXAndMergesIntoGrantedLine) {
  Time done = 0;
  store(0x3004, 0x1122334455667788ull, done);
  run();
  ASSERT_EQ(home->got.size(), 1u);
  EXPECT_EQ(home->last().op, Op::RdX);
  EXPECT_EQ(cache->state_of(0x3000), CS::IM);
  const auto d = pattern(0x10);
  home->answer(home->last(), Op::DataE, &d);
  run();
  EXPECT_EQ(cache->state_of(0x3000), CS::M);
  EXPECT_GT(done, 0u);
  uint64_t lo = 0, mid = 0;
  Time t;
  load(0x3000, lo, t);
  run();
  load(0x3004, mid, t);
  run();
  uint32_t first4;
  std::memcpy(&first4, d.data(), 4);
  EXPECT_EQ(lo & 0xffffffffu, first4);  // untouched bytes keep the grant's data
  EXPECT_EQ(mid, 0x1122334455667788ull);
  EXPECT_EQ(log.path(0x3000), "I>IM>E>M");  // the waiting store turns E into M at once
}

TEST_F(CacheProtocol, StoreToSharedLineSendsUpgAndEndsInModified) {
  fill(0x4000, Op::DataS, 7);
  Time done = 0;
  store(0x4000, 42, done);
  run();
  EXPECT_EQ(home->last().op, Op::Upg);
  EXPECT_EQ(cache->state_of(0x4000), CS::SM);
  // The S data stays readable while the upgrade is in flight.
  uint64_t v = 0;
  Time t = 0;
  load(0x4040, v, t);
  run();
  EXPECT_GT(t, 0u);
  EXPECT_EQ(done, 0u) << "the store must wait for UpgAck";
  home->answer(home->last(), Op::UpgAck);
  run();
  EXPECT_EQ(cache->state_of(0x4000), CS::M);
  EXPECT_GT(done, 0u);
  EXPECT_EQ(log.path(0x4000), "I>IS>S>SM>M");
}

TEST_F(CacheProtocol, UpgradeInvalidatedInFlightGoesToIMAndTakesData) {
  fill(0x5000, Op::DataS, 3);
  Time done = 0;
  store(0x5000, 99, done);
  run();
  const proto::Msg upg = home->last();
  ASSERT_EQ(upg.op, Op::Upg);
  // Another agent's ownership request reached the home first.
  home->send(Op::FwdInv, kCache, 0x5000, 7);
  run();
  EXPECT_EQ(home->last().op, Op::SnpAck);
  EXPECT_EQ(home->last().tag, 7);
  EXPECT_EQ(cache->state_of(0x5000), CS::IM);
  // The home then sees the Upg from a non-sharer and answers with data.
  const auto d = pattern(0x80);
  home->answer(upg, Op::DataE, &d);
  run();
  EXPECT_EQ(cache->state_of(0x5000), CS::M);
  uint64_t v = 0;
  Time t;
  load(0x5000, v, t);
  run();
  EXPECT_EQ(v, 99u);
  EXPECT_EQ(log.path(0x5000), "I>IS>S>SM>IM>E>M");
}

TEST_F(CacheProtocol, UpgAckForInvalidatedUpgradeIsAProtocolError) {
  fill(0x5000, Op::DataS, 3);
  Time done = 0;
  store(0x5000, 99, done);
  run();
  const proto::Msg upg = home->last();
  home->send(Op::FwdInv, kCache, 0x5000, 7);
  run();
  home->answer(upg, Op::UpgAck);
  EXPECT_THROW(run(), CoherenceError);
}

TEST_F(CacheProtocol, DirtyEvictionWritesBackAndLaterAccessWaitsForWbAck) {
  own(0x0, 0x5555);           // set 0, M
  fill(0x200, Op::DataE, 2);  // set 0, E
  uint64_t v = 0;
  Time t = 0;
  load(0x400, v, t);  // set 0 again: evicts the LRU line 0x0 (M)
  run();
  ASSERT_GE(home->got.size(), 4u);
  const proto::Msg wb = home->got[home->got.size() - 2];
  EXPECT_EQ(wb.op, Op::WB);
  EXPECT_EQ(wb.addr, 0x0u);
  EXPECT_EQ(wb.len, 128);
  uint64_t wb_word;
  std::memcpy(&wb_word, wb.data.data(), 8);
  EXPECT_EQ(wb_word, 0x5555u);
  EXPECT_EQ(home->last().op, Op::RdS);
  EXPECT_EQ(cache->state_of(0x0), CS::MI);
  // A load of the line being written back waits for the WbAck, then misses again.
  uint64_t again = 0;
  Time t2 = 0;
  load(0x0, again, t2);
  run();
  EXPECT_EQ(home->last().op, Op::RdS);
  EXPECT_EQ(home->last().addr, 0x400u);
  home->answer(wb, Op::WbAck);
  run();
  // Once the write-back completes the waiting load misses again (evicting clean 0x200).
  EXPECT_EQ(log.path(0x0), "I>IM>E>M>MI>I>IS");
  EXPECT_EQ(home->last().op, Op::RdS);
  EXPECT_EQ(home->last().addr, 0x0u);
  EXPECT_EQ(cache->state_of(0x200), CS::I);
  auto d = pattern(0);
  std::memcpy(d.data(), &wb_word, 8);  // the home now has the written-back data
  home->answer(home->last(), Op::DataE, &d);
  run();
  EXPECT_EQ(again, 0x5555u);
}

TEST_F(CacheProtocol, CleanEvictionIsSilent) {
  fill(0x0, Op::DataE, 1);
  fill(0x200, Op::DataS, 2);
  const size_t sent = home->got.size();
  uint64_t v;
  Time t;
  load(0x400, v, t);
  run();
  EXPECT_EQ(home->got.size(), sent + 1);  // only the RdS for 0x400
  EXPECT_EQ(home->last().op, Op::RdS);
  EXPECT_EQ(cache->state_of(0x0), CS::I);
  EXPECT_EQ(cache->stats().silent_drops, 1u);
  EXPECT_EQ(log.path(0x0), "I>IS>E>I");
}

TEST_F(CacheProtocol, FwdInvOnModifiedReturnsDirtyDataAndInvalidates) {
  own(0x6000, 0xfeed);
  home->send(Op::FwdInv, kCache, 0x6000, 3);
  const Time sent = k->now();
  run();
  const proto::Msg r = home->last();
  EXPECT_EQ(r.op, Op::SnpData);
  EXPECT_EQ(r.tag, 3);
  EXPECT_EQ(r.len, 128);
  uint64_t w;
  std::memcpy(&w, r.data.data(), 8);
  EXPECT_EQ(w, 0xfeedu);
  EXPECT_EQ(home->when.back() - sent, ns(20) + ns(10) + ns(20));  // there, snoop time, back
  EXPECT_EQ(cache->state_of(0x6000), CS::I);
  EXPECT_FALSE(cache->in_l1(0x6000));
}

TEST_F(CacheProtocol, FwdDownOnModifiedReturnsDataAndKeepsShared) {
  own(0x6000, 0xbeef);
  home->send(Op::FwdDown, kCache, 0x6000, 4);
  run();
  EXPECT_EQ(home->last().op, Op::SnpData);
  EXPECT_EQ(cache->state_of(0x6000), CS::S);
}

TEST_F(CacheProtocol, FwdDownOKeepsOwnedAndOwnedUpgradeKeepsDirtyData) {
  own(0x6000, 0xd1d1);
  home->send(Op::FwdDownO, kCache, 0x6000, 5);
  run();
  EXPECT_EQ(home->last().op, Op::SnpData);
  EXPECT_EQ(cache->state_of(0x6000), CS::O);
  // A store to O upgrades; if invalidated meanwhile, the dirty data goes with the SnpAck... as
  // SnpData, because the line was O.
  Time done = 0;
  store(0x6008, 7, done);
  run();
  EXPECT_EQ(home->last().op, Op::Upg);
  EXPECT_EQ(cache->state_of(0x6000), CS::SM);
  home->send(Op::FwdInv, kCache, 0x6000, 6);
  run();
  const proto::Msg r = home->last();
  EXPECT_EQ(r.op, Op::SnpData);
  uint64_t w;
  std::memcpy(&w, r.data.data(), 8);
  EXPECT_EQ(w, 0xd1d1u);
  EXPECT_EQ(cache->state_of(0x6000), CS::IM);
  EXPECT_EQ(log.path(0x6000), "I>IM>E>M>O>SM>IM");
}

TEST_F(CacheProtocol, SnoopsOnCleanLinesAckAndDowngrade) {
  fill(0x7000, Op::DataE, 1);
  home->send(Op::FwdDown, kCache, 0x7000, 1);
  run();
  EXPECT_EQ(home->last().op, Op::SnpAck);
  EXPECT_EQ(cache->state_of(0x7000), CS::S);
  home->send(Op::FwdInv, kCache, 0x7000, 2);
  run();
  EXPECT_EQ(home->last().op, Op::SnpAck);
  EXPECT_EQ(cache->state_of(0x7000), CS::I);
  // A conservative directory may snoop a line this cache no longer holds.
  home->send(Op::FwdInv, kCache, 0x7000, 3);
  run();
  EXPECT_EQ(home->last().op, Op::SnpAck);
  EXPECT_EQ(home->last().flags, 0);
  EXPECT_EQ(log.path(0x7000), "I>IS>E>S>I");
}

TEST_F(CacheProtocol, SnoopWhileWaitingForDataAcksAndKeepsWaiting) {
  uint64_t v = 0;
  Time t = 0;
  load(0x8000, v, t);
  run();
  const proto::Msg rds = home->last();
  home->send(Op::FwdInv, kCache, 0x8000, 9);
  run();
  EXPECT_EQ(home->last().op, Op::SnpAck);
  EXPECT_EQ(cache->state_of(0x8000), CS::IS);
  const auto d = pattern(9);
  home->answer(rds, Op::DataS, &d);
  run();
  EXPECT_EQ(cache->state_of(0x8000), CS::S);
  EXPECT_EQ(v, *reinterpret_cast<const uint64_t*>(d.data()));
}

TEST_F(CacheProtocol, WriteBackRacingSnoopAnswersSnpAckWithWbPending) {
  own(0x0, 0x77);
  fill(0x200, Op::DataE, 2);
  uint64_t v;
  Time t;
  load(0x400, v, t);  // evicts 0x0 -> WB
  run();
  const proto::Msg wb = home->got[home->got.size() - 2];
  ASSERT_EQ(wb.op, Op::WB);
  home->send(Op::FwdInv, kCache, 0x0, 11);
  run();
  const proto::Msg r = home->last();
  EXPECT_EQ(r.op, Op::SnpAck);
  EXPECT_EQ(r.flags, proto::kFlagWbPending);
  EXPECT_EQ(cache->state_of(0x0), CS::MI);
  home->answer(wb, Op::WbAck);
  run();
  EXPECT_EQ(cache->state_of(0x0), CS::I);
  // After the WbAck a snoop gets a plain SnpAck.
  home->send(Op::FwdInv, kCache, 0x0, 12);
  run();
  EXPECT_EQ(home->last().flags, 0);
}

TEST_F(CacheProtocol, RetryReissuesTheRequestAfterTheBackoff) {
  uint64_t v = 0;
  Time done = 0;
  load(0x9000, v, done);
  run();
  home->answer(home->last(), Op::Retry);
  const Time retry_sent = k->now();
  run();
  ASSERT_EQ(home->got.size(), 2u);
  EXPECT_EQ(home->got[1].op, Op::RdS);
  EXPECT_EQ(home->got[1].tag, home->got[0].tag);
  EXPECT_EQ(home->when[1] - retry_sent, ns(20) + ns(100) + ns(20));
  EXPECT_EQ(cache->stats().retries, 1u);
  const auto d = pattern(1);
  home->answer(home->got[1], Op::DataE, &d);
  run();
  EXPECT_EQ(cache->state_of(0x9000), CS::E);
  EXPECT_GT(done, 0u);
}

TEST_F(CacheProtocol, ErrorAnswerIsAFatalErrorNamingTheRequest) {
  uint64_t v;
  Time t;
  load(0x1000, v, t);
  run();
  home->answer(home->last(), Op::Error);
  try {
    run();
    FAIL() << "an Error answer must be fatal";
  } catch (const CoherenceError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("answered Error to RdS for line 0x1000"), std::string::npos) << msg;
  }
}

TEST_F(CacheProtocol, UnansweredRequestTimesOutAsAMachineCheck) {
  uint64_t v;
  Time t;
  load(0x1000, v, t);
  try {
    k->run([] { return false; });
    FAIL() << "the coherence timeout did not fire";
  } catch (const CoherenceError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("coherence timeout"), std::string::npos) << msg;
    EXPECT_NE(msg.find("RdS for line 0x1000"), std::string::npos) << msg;
  }
  EXPECT_EQ(k->now(), ns(15) + ns(1e6));
}

TEST_F(CacheProtocol, RetryRestartsTheTimeout) {
  uint64_t v;
  Time t;
  load(0x1000, v, t);
  // The home answers Retry just before each timeout, three times, then data: no machine check.
  for (int i = 0; i < 3; ++i) {
    k->run_until(k->now() + ns(0.9e6));
    home->answer(home->last(), Op::Retry);
  }
  k->run_until(k->now() + ns(0.9e6));
  const auto d = pattern(1);
  home->answer(home->last(), Op::DataS, &d);
  EXPECT_NO_THROW(run());
  EXPECT_EQ(cache->state_of(0x1000), CS::S);
}

// A miss the home keeps answering Retry (each answer inside the coherence timeout) is stopped
// by the retry watchdog, counted from its first request.
TEST_F(CacheProtocol, RetriesPastTheWatchdogAreAMachineCheck) {
  CacheParams p = small_params();
  p.retry_watchdog = ns(2e6);
  build(p);
  uint64_t v;
  Time t;
  load(0x1000, v, t);
  try {
    for (int i = 0; i < 10; ++i) {
      k->run_until(k->now() + ns(0.5e6));
      home->answer(home->last(), Op::Retry);
    }
    run();
    FAIL() << "the retry watchdog did not fire";
  } catch (const CoherenceError& e) {
    const std::string msg = e.what();
    EXPECT_NE(msg.find("retry watchdog: RdS for line 0x1000"), std::string::npos) << msg;
  }
  EXPECT_GE(k->now(), ns(2e6));
  EXPECT_LT(k->now(), ns(2.6e6));
}

TEST_F(CacheProtocol, MissesBeyondTheMshrsWaitInOrder) {
  uint64_t v[5];
  Time t[5] = {};
  for (int i = 0; i < 5; ++i) load(0x80 * i, v[i], t[i]);
  run();
  ASSERT_EQ(home->got.size(), 4u);
  EXPECT_EQ(cache->mshrs_in_use(), 4u);
  const auto d = pattern(0);
  home->answer(home->got[2], Op::DataS, &d);
  run();
  ASSERT_EQ(home->got.size(), 5u);
  EXPECT_EQ(home->got[4].addr, 0x200u);
  EXPECT_EQ(home->got[4].tag, home->got[2].tag);  // the freed MSHR
}

TEST_F(CacheProtocol, LoadWaitsOnOutstandingPrefetch) {
  cache->prefetch(0xa000, false);
  run();
  ASSERT_EQ(home->got.size(), 1u);
  EXPECT_EQ(home->last().op, Op::RdS);
  uint64_t v = 0;
  Time done = 0;
  load(0xa000, v, done);
  run();
  EXPECT_EQ(home->got.size(), 1u) << "the load must join the prefetch's MSHR";
  EXPECT_EQ(done, 0u);
  const auto d = pattern(5);
  const Time answered = k->now();
  home->answer(home->last(), Op::DataE, &d);
  run();
  EXPECT_EQ(done, answered + ns(20));
  EXPECT_EQ(v, *reinterpret_cast<const uint64_t*>(d.data()));
}

TEST_F(CacheProtocol, PrefetchOfPresentLineIsANoOpAndExclusivePrefetchUpgrades) {
  fill(0xb000, Op::DataS, 1);
  cache->prefetch(0xb000, false);
  run();
  EXPECT_EQ(home->got.size(), 1u);
  cache->prefetch(0xb000, true);
  run();
  EXPECT_EQ(home->last().op, Op::Upg);
  home->answer(home->last(), Op::UpgAck);
  run();
  EXPECT_EQ(cache->state_of(0xb000), CS::M);
}

TEST_F(CacheProtocol, AnswerMatchingNoRequestIsAProtocolError) {
  const auto d = pattern(0);
  home->send(Op::DataS, kCache, 0xc000, 2, &d);
  EXPECT_THROW(run(), CoherenceError);
}

TEST_F(CacheProtocol, RequestOpcodeToACacheIsAProtocolError) {
  home->send(Op::RdS, kCache, 0xc000, 0);
  EXPECT_THROW(run(), CoherenceError);
}

TEST_F(CacheProtocol, L1FilterDecidesTheHitLatency) {
  CacheParams p = small_params();
  p.size_kib = 4;  // 32 lines, 4 sets of 8
  p.ways = 8;
  p.l1_size_kib = 1;  // 8 lines, one set
  p.l1_ways = 8;
  p.mshrs = 16;
  build(p);
  for (unsigned i = 0; i < 9; ++i) fill(0x80 * i, Op::DataE, 0);
  // Line 0 fell out of the 8-line L1 filter (LRU) but is still cached.
  EXPECT_FALSE(cache->in_l1(0x0));
  EXPECT_TRUE(cache->in_l1(0x80 * 8));
  EXPECT_EQ(cache->state_of(0x0), CS::E);
  uint64_t v;
  Time t = 0;
  Time t0 = k->now();
  load(0x80 * 8, v, t);
  run();
  EXPECT_EQ(t - t0, ns(1.5));
  t0 = k->now();
  load(0x0, v, t);
  run();
  EXPECT_EQ(t - t0, ns(20));
  EXPECT_TRUE(cache->in_l1(0x0));
}

TEST(CacheParams, RejectsGeometryThatIsNotWholeSets) {
  CacheParams p = small_params();
  p.ways = 3;
  EXPECT_THROW(p.validate(), std::invalid_argument);
  p = small_params();
  p.mshrs = 0;
  EXPECT_THROW(p.validate(), std::invalid_argument);
}
