// SPDX-License-Identifier: Apache-2.0
// cni_cache_agent with the C++ host home and two host caches, the coherence checker watching
// every agent: DataM then FwdDownO, RdNA of a line dirty in a host cache, WrInv over host
// copies, evictions, Error from the home, a flush racing a host read, and the same sequential
// operation stream run against sim::HostCache as the reference model.
#include <gtest/gtest.h>

#include <optional>
#include <random>
#include <vector>

#include "cache_bench.hpp"

namespace cni::tb::cache_test {
namespace {

using sim::DirState;
const Addr kA = line_addr(0);
constexpr uint16_t bit(proto::AgentId a) { return static_cast<uint16_t>(1u << a); }

using CacheSystem = SystemBench;

TEST_F(CacheSystem, ReadMissOfUncachedLineIsGrantedExclusiveThenHits) {
  const Line d = pattern(0x21);
  home->write_memory(kA, d.data(), kLB);
  checker->set_shadow(kA, d.data(), kLB);
  const Result r = op(CaOp::RdS, kA);
  EXPECT_TRUE(same_line(r.data, d));
  EXPECT_EQ(dev->state(kA), LS::E);
  EXPECT_EQ(home->dir_state(kA), DirState::X);
  EXPECT_EQ(home->dir_owner(kA), kDev);
  EXPECT_TRUE(same_line(op(CaOp::RdS, kA).data, d));
  EXPECT_EQ(dev->count(CaCounter::Miss), 1u);
  EXPECT_EQ(dev->count(CaCounter::Hit), 1u);
}

TEST_F(CacheSystem, DataMGrantThenFwdDownOLeavesTheAgentOwner) {
  const Line d = pattern(0x40);
  host_store(0, kA, d);  // host 0: M
  const Result r = op(CaOp::RdX, kA);
  EXPECT_TRUE(same_line(r.data, d)) << "the dirty line is forwarded";
  EXPECT_EQ(dev->state(kA), LS::M) << "DataM: the agent now owes the write-back";
  EXPECT_EQ(hosts[0]->state_of(kA), sim::CacheState::I);
  // A host read: FwdDownO to the agent, which keeps the line dirty in O.
  EXPECT_TRUE(same_line(host_load(1, kA), d));
  EXPECT_EQ(dev->state(kA), LS::O);
  EXPECT_EQ(home->dir_state(kA), DirState::O);
  EXPECT_EQ(home->dir_owner(kA), kDev);
  EXPECT_EQ(home->dir_sharers(kA), bit(kHost2));
  EXPECT_TRUE(same_line(memory(kA), Line{})) << "memory is still stale";
  // The owner writes: Upg from O invalidates the sharer.
  const Line w = pattern(0x50);
  EXPECT_FALSE(op(CaOp::WrInv, kA, &w).err);
  EXPECT_EQ(dev->state(kA), LS::M);
  EXPECT_EQ(hosts[1]->state_of(kA), sim::CacheState::I);
  EXPECT_TRUE(same_line(host_load(0, kA), w));
}

TEST_F(CacheSystem, NonAllocatingReadPullsADirtyHostLineAndTheHostKeepsOwned) {
  const Line d = pattern(0x60);
  host_store(0, kA, d);
  const Result r = op(CaOp::RdNA, kA);
  EXPECT_FALSE(r.err);
  EXPECT_TRUE(same_line(r.data, d));
  EXPECT_EQ(dev->state(kA), LS::I) << "no state at the requester";
  EXPECT_EQ(hosts[0]->state_of(kA), sim::CacheState::O);
  EXPECT_EQ(home->dir_state(kA), DirState::O);
  EXPECT_EQ(home->dir_sharers(kA), 0u) << "the requester is not in the directory";
  EXPECT_EQ(dev->count(CaCounter::Snoop), 0u);
}

TEST_F(CacheSystem, NonAllocatingReadWithoutOwnedForwardingLeavesTheHostShared) {
  sim::HomeParams hp = host_home_params();
  hp.forward_owned = false;
  build(hp);
  const Line d = pattern(0x61);
  host_store(0, kA, d);
  const Result r = op(CaOp::RdNA, kA);
  EXPECT_TRUE(same_line(r.data, d));
  EXPECT_EQ(dev->state(kA), LS::I);
  EXPECT_EQ(hosts[0]->state_of(kA), sim::CacheState::S);
  EXPECT_TRUE(same_line(memory(kA), d)) << "FwdDown writes the dirty data to memory";
  EXPECT_EQ(home->dir_sharers(kA), bit(kHost1));
}

TEST_F(CacheSystem, WriteInvalidateInvalidatesHostCopiesAndWritesMemory) {
  const Line d = pattern(0x70), w = pattern(0x90);
  host_store(0, kA, d);
  EXPECT_TRUE(same_line(host_load(1, kA), d));  // host 0: O, host 1: S
  ASSERT_EQ(hosts[0]->state_of(kA), sim::CacheState::O);
  ASSERT_EQ(hosts[1]->state_of(kA), sim::CacheState::S);
  const Result r = op(CaOp::WrInv, kA, &w);
  EXPECT_FALSE(r.err);
  EXPECT_EQ(hosts[0]->state_of(kA), sim::CacheState::I);
  EXPECT_EQ(hosts[1]->state_of(kA), sim::CacheState::I);
  EXPECT_EQ(dev->state(kA), LS::I);
  EXPECT_EQ(home->dir_state(kA), DirState::I);
  EXPECT_TRUE(same_line(memory(kA), w));
  EXPECT_TRUE(same_line(host_load(1, kA), w));
}

TEST_F(CacheSystem, DirtyVictimIsWrittenBackAndCleanVictimDroppedSilently) {
  const unsigned sets = cache_geometry().sets, ways = cache_geometry().ways;
  auto set0 = [&](unsigned k) { return line_addr(k * sets); };
  std::vector<Line> w(ways + 1);
  for (unsigned k = 0; k <= ways; ++k) {
    w[k] = pattern(uint8_t(0x11 * (k + 1)));
    EXPECT_FALSE(op(CaOp::Wr, set0(k), &w[k]).err);
  }
  EXPECT_EQ(dev->count(CaCounter::WriteBack), 1u) << "the set overflowed once";
  EXPECT_TRUE(same_line(memory(set0(0)), w[0])) << "the victim's data reached memory";
  EXPECT_EQ(home->dir_state(set0(0)), DirState::I);
  // Clean lines leave without a message: the directory still names the agent.
  const unsigned wb = dev->count(CaCounter::WriteBack);
  for (unsigned k = 0; k <= ways; ++k) op(CaOp::Flush, set0(k));
  for (unsigned k = 0; k <= ways; ++k) EXPECT_TRUE(same_line(op(CaOp::RdS, set0(k)).data, w[k]));
  EXPECT_EQ(dev->count(CaCounter::WriteBack), wb + ways) << "only the dirty lines were flushed";
  const unsigned wb2 = dev->count(CaCounter::WriteBack);
  op(CaOp::RdS, set0(ways + 1));  // evicts a clean line
  EXPECT_EQ(dev->count(CaCounter::WriteBack), wb2);
  // A host then reads the dropped line: the stale directory entry gets a SnpAck from I.
  for (unsigned k = 0; k <= ways + 1; ++k) host_load(0, set0(k));
  EXPECT_EQ(home->stats().errors, 0u);
}

TEST_F(CacheSystem, ErrorFromTheHomeReachesTheEngine) {
  const Addr outside = kHomeSize + kLB;  // home 0 by HomeShift, outside its range
  const Result r = op(CaOp::RdX, outside);
  EXPECT_TRUE(r.err);
  EXPECT_EQ(dev->state(outside), LS::I);
  EXPECT_EQ(dev->count(CaCounter::Error), 1u);
  unexpected_home_errors = 1;
}

TEST_F(CacheSystem, FlushRacingHostReadsEndsConsistent) {
  for (unsigned round = 0; round < 20; ++round) {
    const Line w = pattern(uint8_t(round));
    EXPECT_FALSE(op(CaOp::Wr, kA, &w).err);
    std::optional<Result> fl;
    Line l{};
    bool loaded = false;
    // The host read and the flush leave at nearly the same time, a few ns apart each round.
    hosts[round % 2]->load(kA, l.data(), kLB, [&] { loaded = true; }, sim::ns(round));
    submit(CaOp::Flush, kA, &fl);
    ASSERT_TRUE(run_until([&] { return fl.has_value() && loaded; }));
    EXPECT_FALSE(fl->err);
    EXPECT_TRUE(same_line(l, w)) << "round " << round;
    EXPECT_EQ(dev->state(kA), LS::I);
  }
}

// ---- HostCache as the reference model ---------------------------------------------------------

struct SeqOp {
  unsigned who;  // 0: the agent under test, 1-2: host cache 0-1
  CaOp op;       // for hosts: RdS = load, Wr = store of the mask
  Addr line;
  Line data;
  RtlCacheAgent::ByteMask mask;
};

std::vector<SeqOp> random_stream(uint64_t seed, unsigned n, unsigned lines) {
  std::mt19937_64 rng(seed);
  std::vector<SeqOp> ops;
  for (unsigned i = 0; i < n; ++i) {
    SeqOp o;
    o.who = static_cast<unsigned>(rng() % 3);
    const unsigned kind = static_cast<unsigned>(rng() % 6);
    o.op = o.who == 0 ? static_cast<CaOp>(kind) : (kind < 3 ? CaOp::RdS : CaOp::Wr);
    o.line = line_addr(static_cast<unsigned>(rng() % lines));
    for (unsigned b = 0; b < kLB; ++b) o.data[b] = static_cast<uint8_t>(rng());
    const unsigned off = static_cast<unsigned>(rng() % kLB);
    const unsigned len = 1 + static_cast<unsigned>(rng() % (kLB - off));
    for (unsigned b = off; b < off + len; ++b) o.mask.set(b);
    ops.push_back(o);
  }
  return ops;
}

class ReferenceModel : public SystemBench {
 protected:
  // Runs `ops` one at a time; returns every line read, then every line as host 0 reads it.
  std::vector<Line> run(const std::vector<SeqOp>& ops) {
    std::vector<Line> seen;
    for (const SeqOp& o : ops) {
      if (o.who > 0) {
        if (o.op == CaOp::RdS) {
          seen.push_back(host_load(o.who - 1, o.line));
        } else {
          bool done = false;
          hosts[o.who - 1]->store_line(o.line, o.data.data(), o.mask, [&] { done = true; });
          EXPECT_TRUE(run_until([&] { return done; }));
        }
        continue;
      }
      const bool read = o.op == CaOp::RdS || o.op == CaOp::RdX || o.op == CaOp::RdNA;
      if (dev) {
        const Result r = op(o.op, o.line, &o.data, &o.mask);
        EXPECT_FALSE(r.err);
        if (read) seen.push_back(r.data);
      } else if (read) {
        Line l{};
        bool done = false;
        ref->load(o.line, l.data(), kLB, [&] { done = true; });
        EXPECT_TRUE(run_until([&] { return done; }));
        seen.push_back(l);
      } else if (o.op != CaOp::Flush) {  // (a host cache has no flush: values do not change)
        RtlCacheAgent::ByteMask all;
        for (unsigned b = 0; b < kLB; ++b) all.set(b);
        bool done = false;
        ref->store_line(o.line, o.data.data(), o.op == CaOp::Wr ? o.mask : all,
                        [&] { done = true; });
        EXPECT_TRUE(run_until([&] { return done; }));
      }
    }
    for (unsigned i = 0; i < kLines; ++i) seen.push_back(host_load(0, line_addr(i)));
    return seen;
  }
  static constexpr unsigned kLines = 8;
};

TEST_F(ReferenceModel, SequentialOperationsReadWhatAHostCacheReads) {
  const auto ops = random_stream(seed, 1500, kLines);
  const std::vector<Line> rtl = run(ops);
  const uint64_t rtl_misses = dev->count(CaCounter::Miss);
  build(host_home_params(), {}, true);
  const std::vector<Line> reference = run(ops);
  ASSERT_EQ(rtl.size(), reference.size());
  for (size_t i = 0; i < rtl.size(); ++i) {
    ASSERT_TRUE(same_line(rtl[i], reference[i])) << "read " << i << " differs";
  }
  EXPECT_GT(rtl_misses, 100u);
}

}  // namespace
}  // namespace cni::tb::cache_test
