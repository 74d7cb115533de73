// SPDX-License-Identifier: Apache-2.0
// Host home agent against scripted caching agents: grants, snoops, forwarding, write-backs
// (including races), queueing, malformed messages, timing.
#include "cni/sim/home.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <memory>

#include "script_agent.hpp"

using namespace cni;
using namespace cni::sim;
using namespace cni::sim::test;
using proto::Op;

namespace {

constexpr proto::Addr kLine = 0x4000;

HomeParams params() {
  HomeParams p;
  p.line_bytes = 128;
  p.dir = ns(10);
  p.dram_latency = ns(80);
  p.dram_bw_gib_s = 0;  // unlimited unless a test sets it
  p.max_transactions = 16;
  p.grant_exclusive = true;
  p.forward_owned = true;
  return p;
}

// A home (agent 0) for [0, 1 MiB) and three scripted caches (agents 1-3) on one node, 20 ns
// apart.
class Home : public testing::Test {
 protected:
  void SetUp() override { build(params()); }
  void build(const HomeParams& p) {
    k = std::make_unique<Kernel>();
    f = std::make_unique<Fabric>(*k);
    const NodeId n = f->add_node("socket0", ns(20), 0);
    home = std::make_unique<HomeAgent>(*k, *f, 0, 0, 1 << 20, p, "home0");
    f->attach(*home, n);
    for (proto::AgentId a = 1; a <= 3; ++a) {
      c[a] = std::make_unique<ScriptAgent>(a, *k, *f);
      f->attach(*c[a], n);
    }
  }
  void run() {
    k->run([] { return false; });
  }
  // Agent `a` sends `op` for kLine with tag 0x20 + a.
  void req(proto::AgentId a, Op op, proto::Addr addr = kLine,
           const std::array<uint8_t, proto::kMaxLineBytes>* data = nullptr) {
    c[a]->send(op, 0, addr, static_cast<uint8_t>(0x20 + a), data);
  }
  // Give agent `a` the line exclusively (RdX, DataE).
  void make_owner(proto::AgentId a) {
    req(a, Op::RdX);
    run();
    ASSERT_EQ(c[a]->last().op, Op::DataE);
  }
  // A home without exclusive grants, and agents 1 and 2 sharing the line: S{1, 2}.
  void share_1_and_2() {
    HomeParams p = params();
    p.grant_exclusive = false;
    build(p);
    req(1, Op::RdS);
    req(2, Op::RdS);
    run();
  }
  // Agent 1 owns the line; agent `a` sends `op`; agent 1 gets `snoop` and answers SnpData with
  // `dirty` (or SnpAck without it).
  void owner_answers(proto::AgentId a, Op op, Op snoop,
                     const std::array<uint8_t, proto::kMaxLineBytes>* dirty) {
    make_owner(1);
    req(a, op);
    run();
    ASSERT_EQ(c[1]->last().op, snoop);
    c[1]->answer(c[1]->last(), dirty ? Op::SnpData : Op::SnpAck, dirty);
    run();
  }
  uint64_t word(const proto::Msg& m) const {
    uint64_t w;
    std::memcpy(&w, m.data.data(), 8);
    return w;
  }

  std::unique_ptr<Kernel> k;
  std::unique_ptr<Fabric> f;
  std::unique_ptr<HomeAgent> home;
  std::unique_ptr<ScriptAgent> c[4];
};

}  // namespace

TEST_F(Home, FirstReaderGetsExclusiveAfterDirectoryAndDram) {
  const auto d = pattern(0x33);
  home->write_memory(kLine, d.data(), 128);
  req(1, Op::RdS);
  run();
  ASSERT_EQ(c[1]->got.size(), 1u);
  const proto::Msg g = c[1]->last();
  EXPECT_EQ(g.op, Op::DataE);
  EXPECT_EQ(g.tag, 0x21);
  EXPECT_EQ(g.len, 128);
  EXPECT_EQ(std::memcmp(g.data.data(), d.data(), 128), 0);
  EXPECT_EQ(c[1]->when[0], ns(20) + ns(80) + ns(10) + ns(20));
  EXPECT_EQ(home->dir_state(kLine), DirState::X);
  EXPECT_EQ(home->dir_owner(kLine), 1);
}

TEST_F(Home, WithoutGrantExclusiveFirstReaderGetsShared) {
  HomeParams p = params();
  p.grant_exclusive = false;
  build(p);
  req(1, Op::RdS);
  run();
  EXPECT_EQ(c[1]->last().op, Op::DataS);
  EXPECT_EQ(home->dir_state(kLine), DirState::S);
  EXPECT_EQ(home->dir_sharers(kLine), 1u << 1);
}

TEST_F(Home, ReadOfCleanOwnedLineDowngradesOwnerAndGrantsShared) {
  owner_answers(2, Op::RdS, Op::FwdDownO, nullptr);  // it was E
  EXPECT_EQ(c[2]->last().op, Op::DataS);
  EXPECT_EQ(home->dir_state(kLine), DirState::S);
  EXPECT_EQ(home->dir_sharers(kLine), (1u << 1) | (1u << 2));
}

TEST_F(Home, ReadOfDirtyLineIsForwardedAndOwnerKeepsOwned) {
  const auto dirty = pattern(0x77);
  owner_answers(2, Op::RdS, Op::FwdDownO, &dirty);
  const proto::Msg g = c[2]->last();
  EXPECT_EQ(g.op, Op::DataS);
  EXPECT_EQ(std::memcmp(g.data.data(), dirty.data(), 128), 0);
  uint64_t mem = 1;
  home->read_memory(kLine, &mem, 8);
  EXPECT_EQ(mem, 0u) << "the owner keeps the dirty data; memory is not written";
  EXPECT_EQ(home->dir_state(kLine), DirState::O);
  EXPECT_EQ(home->dir_owner(kLine), 1);
  EXPECT_EQ(home->dir_sharers(kLine), 1u << 2);
  // An ownership request then invalidates owner and sharer and receives the dirty line as DataM.
  req(3, Op::RdX);
  run();
  ASSERT_EQ(c[1]->last().op, Op::FwdInv);
  ASSERT_EQ(c[2]->last().op, Op::FwdInv);
  c[2]->answer(c[2]->last(), Op::SnpAck);
  c[1]->answer(c[1]->last(), Op::SnpData, &dirty);
  run();
  EXPECT_EQ(c[3]->last().op, Op::DataM);
  EXPECT_EQ(word(c[3]->last()), word(c[2]->got[0]));
  EXPECT_EQ(home->dir_state(kLine), DirState::X);
  EXPECT_EQ(home->dir_owner(kLine), 3);
}

TEST_F(Home, WithoutForwardingDirtyReadUpdatesMemory) {
  HomeParams p = params();
  p.forward_owned = false;
  build(p);
  const auto dirty = pattern(0x55);
  owner_answers(2, Op::RdS, Op::FwdDown, &dirty);
  EXPECT_EQ(c[2]->last().op, Op::DataS);
  uint64_t mem = 0;
  home->read_memory(kLine, &mem, 8);
  EXPECT_EQ(mem, word(c[2]->last()));
  EXPECT_EQ(home->dir_state(kLine), DirState::S);
}

TEST_F(Home, ReadExclusiveInvalidatesEverySharer) {
  req(1, Op::RdS);
  run();
  req(2, Op::RdS);
  run();
  c[1]->answer(c[1]->last(), Op::SnpAck);  // FwdDownO on the E holder
  run();
  ASSERT_EQ(home->dir_state(kLine), DirState::S);
  req(3, Op::RdX);
  run();
  ASSERT_EQ(c[1]->last().op, Op::FwdInv);
  ASSERT_EQ(c[2]->last().op, Op::FwdInv);
  const size_t before = c[3]->got.size();
  c[1]->answer(c[1]->last(), Op::SnpAck);
  run();
  EXPECT_EQ(c[3]->got.size(), before) << "the grant waits for every snoop answer";
  c[2]->answer(c[2]->last(), Op::SnpAck);
  run();
  EXPECT_EQ(c[3]->last().op, Op::DataE);
  EXPECT_EQ(home->dir_owner(kLine), 3);
}

TEST_F(Home, UpgradeFromSharerGetsUpgAckAndFromNonSharerGetsData) {
  share_1_and_2();
  req(1, Op::Upg);
  run();
  ASSERT_EQ(c[2]->last().op, Op::FwdInv);
  c[2]->answer(c[2]->last(), Op::SnpAck);
  run();
  EXPECT_EQ(c[1]->last().op, Op::UpgAck);
  EXPECT_EQ(home->dir_owner(kLine), 1);
  // Agent 2's copy was invalidated while its own Upg was in flight: treated as RdX.
  req(2, Op::Upg);
  run();
  ASSERT_EQ(c[1]->last().op, Op::FwdInv);
  const auto dirty = pattern(9);
  c[1]->answer(c[1]->last(), Op::SnpData, &dirty);
  run();
  EXPECT_EQ(c[2]->last().op, Op::DataM);
  EXPECT_EQ(home->dir_owner(kLine), 2);
}

TEST_F(Home, WriteBackFromOwnerUpdatesMemoryAndFreesTheLine) {
  make_owner(1);
  const auto d = pattern(0x42);
  req(1, Op::WB, kLine, &d);
  run();
  EXPECT_EQ(c[1]->last().op, Op::WbAck);
  EXPECT_EQ(c[1]->last().tag, 0x21);
  uint8_t mem[128];
  home->read_memory(kLine, mem, 128);
  EXPECT_EQ(std::memcmp(mem, d.data(), 128), 0);
  EXPECT_EQ(home->dir_state(kLine), DirState::I);
}

TEST_F(Home, WriteBackFromNonOwnerIsAnsweredErrorAndLeavesMemory) {
  make_owner(1);
  const auto d = pattern(0x42);
  req(2, Op::WB, kLine, &d);
  run();
  EXPECT_EQ(c[2]->last().op, Op::Error);
  uint64_t mem = 1;
  home->read_memory(kLine, &mem, 8);
  EXPECT_EQ(mem, 0u);
  EXPECT_EQ(home->stats().errors, 1u);
  ASSERT_EQ(home->error_log().size(), 1u);
  EXPECT_NE(home->error_log()[0].find("does not own"), std::string::npos);
}

TEST_F(Home, WriteBackAfterSnpAckWithWbPendingCompletesTheSnoop) {
  make_owner(1);
  req(2, Op::RdX);
  run();
  ASSERT_EQ(c[1]->last().op, Op::FwdInv);
  c[1]->answer(c[1]->last(), Op::SnpAck, nullptr, proto::kFlagWbPending);
  run();
  EXPECT_EQ(c[2]->got.size(), 0u) << "the grant must wait for the write-back's data";
  const auto d = pattern(0x61);
  req(1, Op::WB, kLine, &d);
  run();
  EXPECT_EQ(c[1]->last().op, Op::WbAck);
  ASSERT_EQ(c[2]->got.size(), 1u);
  EXPECT_EQ(c[2]->last().op, Op::DataE);
  EXPECT_EQ(std::memcmp(c[2]->last().data.data(), d.data(), 128), 0);
  EXPECT_EQ(home->dir_owner(kLine), 2);
}

TEST_F(Home, WriteBackOvertakingTheSnoopAnswerIsAbsorbed) {
  make_owner(1);
  req(2, Op::RdX);
  run();
  const proto::Msg snoop = c[1]->last();
  ASSERT_EQ(snoop.op, Op::FwdInv);
  const auto d = pattern(0x19);
  req(1, Op::WB, kLine, &d);
  run();
  EXPECT_EQ(c[1]->last().op, Op::WbAck);
  EXPECT_EQ(c[2]->got.size(), 0u);
  c[1]->answer(snoop, Op::SnpAck, nullptr, proto::kFlagWbPending);
  run();
  ASSERT_EQ(c[2]->got.size(), 1u);
  EXPECT_EQ(std::memcmp(c[2]->last().data.data(), d.data(), 128), 0);
  EXPECT_EQ(home->stats().errors, 0u);
}

TEST_F(Home, ConflictingRequestWaitsForTheLineInsteadOfRetry) {
  make_owner(1);
  req(2, Op::RdX);
  run();
  req(3, Op::RdS);
  run();
  EXPECT_EQ(c[3]->got.size(), 0u) << "no Retry: the request waits";
  EXPECT_EQ(home->queued(), 1u);
  c[1]->answer(c[1]->last(), Op::SnpAck);
  run();
  ASSERT_EQ(c[2]->got.size(), 2u);
  EXPECT_EQ(c[2]->got[0].op, Op::DataE);
  EXPECT_EQ(c[2]->got[1].op, Op::FwdDownO);  // then agent 3's read snoops the new owner
  EXPECT_LT(c[2]->when[0], c[2]->when[1]);
  EXPECT_EQ(home->stats().waited_busy, 1u);
}

TEST_F(Home, FullTransactionTableQueuesRequestsInOrder) {
  HomeParams p = params();
  p.max_transactions = 1;
  build(p);
  req(1, Op::RdS, 0x1000);
  req(2, Op::RdS, 0x2000);
  req(3, Op::RdS, 0x3000);
  run();
  ASSERT_EQ(c[1]->when.size(), 1u);
  ASSERT_EQ(c[2]->when.size(), 1u);
  ASSERT_EQ(c[3]->when.size(), 1u);
  // One transaction at a time: each grant leaves when the previous one has.
  EXPECT_EQ(c[2]->when[0] - c[1]->when[0], ns(90));
  EXPECT_EQ(c[3]->when[0] - c[2]->when[0], ns(90));
  EXPECT_EQ(home->stats().waited_full, 2u);
}

TEST_F(Home, DramBandwidthSerializesReads) {
  HomeParams p = params();
  p.dram_bw_gib_s = 1.0;  // 128 B every ~119 ns
  build(p);
  req(1, Op::RdS, 0x1000);
  req(2, Op::RdS, 0x2000);
  run();
  const Time occupancy = static_cast<Time>(std::llround(128 / (1073741824.0 / 1e12)));
  EXPECT_EQ(c[2]->when[0] - c[1]->when[0], occupancy);
}

TEST_F(Home, MalformedMessagesAreAnsweredOrDroppedAndCounted) {
  req(1, Op::RdS, 2 << 20);             // outside the home's range
  req(2, Op::RdS, kLine + 8);           // unaligned
  c[3]->send(Op::SnpAck, 0, kLine, 5);  // matches no transaction
  c[3]->send(Op::DataS, 0, kLine, 5);   // a home never receives data grants
  run();
  EXPECT_EQ(c[1]->last().op, Op::Error);
  EXPECT_EQ(c[2]->last().op, Op::Error);
  EXPECT_EQ(c[3]->got.size(), 0u);
  EXPECT_EQ(home->stats().errors, 4u);
  EXPECT_EQ(home->dir_state(kLine), DirState::I);
}

// Regression tests for races the random stress found.

TEST_F(Home, OwnedLineWrittenBackAfterSnpAckWithWbPendingEndsShared) {
  const auto dirty = pattern(0x31);
  owner_answers(2, Op::RdS, Op::FwdDownO, &dirty);  // 1 keeps O
  ASSERT_EQ(home->dir_state(kLine), DirState::O);
  req(3, Op::RdS);
  run();
  ASSERT_EQ(c[1]->last().op, Op::FwdDownO);
  c[1]->answer(c[1]->last(), Op::SnpAck, nullptr, proto::kFlagWbPending);  // 1 is evicting
  run();
  req(1, Op::WB, kLine, &dirty);
  EXPECT_NO_THROW(run());
  EXPECT_EQ(c[3]->last().op, Op::DataS);
  EXPECT_EQ(std::memcmp(c[3]->last().data.data(), dirty.data(), 128), 0);
  EXPECT_EQ(home->dir_state(kLine), DirState::S);
  EXPECT_EQ(home->dir_sharers(kLine), (1u << 2) | (1u << 3));
}

TEST_F(Home, WriteBackOvertakingSnpDataLeavesNoOwner) {
  make_owner(1);
  req(2, Op::RdS);
  run();
  const proto::Msg snoop = c[1]->last();
  ASSERT_EQ(snoop.op, Op::FwdDownO);
  // Agent 1 went M -> O on the snoop, then evicted O: its WB arrives before its SnpData.
  const auto dirty = pattern(0x44);
  req(1, Op::WB, kLine, &dirty);
  run();
  EXPECT_EQ(c[1]->last().op, Op::WbAck);
  c[1]->answer(snoop, Op::SnpData, &dirty);
  run();
  EXPECT_EQ(c[2]->last().op, Op::DataS);
  EXPECT_EQ(home->dir_state(kLine), DirState::S) << "agent 1 no longer holds the line";
  EXPECT_EQ(home->dir_sharers(kLine), 1u << 2);
  uint8_t mem[128];
  home->read_memory(kLine, mem, 128);
  EXPECT_EQ(std::memcmp(mem, dirty.data(), 128), 0);
}

TEST_F(Home, WriteBackArrivingWhileTheGrantLeavesIsNotQueuedBehindTheNextRequest) {
  make_owner(1);
  req(2, Op::RdS);
  run();
  const proto::Msg snoop = c[1]->last();
  ASSERT_EQ(snoop.op, Op::FwdDownO);
  // All three arrive together: agent 3's read (queued behind the line), agent 1's SnpData
  // (completes the transaction; the grant leaves dir_ns later), then agent 1's WB of the O
  // line it just kept. The WB must not wait behind agent 3's read, which would snoop agent 1
  // and wait for that very WB.
  const auto dirty = pattern(0x52);
  req(3, Op::RdS);
  c[1]->answer(snoop, Op::SnpData, &dirty);
  req(1, Op::WB, kLine, &dirty);
  run();
  EXPECT_EQ(c[1]->last().op, Op::WbAck);
  ASSERT_FALSE(c[3]->got.empty()) << "agent 3's read must not wait for the write-back forever";
  EXPECT_EQ(c[3]->last().op, Op::DataS);
  EXPECT_EQ(std::memcmp(c[3]->last().data.data(), dirty.data(), 128), 0);
  EXPECT_EQ(home->stats().errors, 0u);
  EXPECT_EQ(home->queued(), 0u);
}

// Non-allocating read (RdNA) and write-invalidate (WrInv), docs/protocol.md rule 3.

TEST_F(Home, NonAllocatingReadOfUncachedLineAnswersMemoryAndAddsNoState) {
  const auto d = pattern(0x21);
  home->write_memory(kLine, d.data(), 128);
  req(1, Op::RdNA);
  run();
  ASSERT_EQ(c[1]->got.size(), 1u);
  EXPECT_EQ(c[1]->last().op, Op::DataI);
  EXPECT_EQ(c[1]->last().tag, 0x21);
  EXPECT_EQ(c[1]->last().len, 128);
  EXPECT_EQ(std::memcmp(c[1]->last().data.data(), d.data(), 128), 0);
  EXPECT_EQ(home->dir_state(kLine), DirState::I);
}

TEST_F(Home, NonAllocatingReadOfSharedLineLeavesTheSharers) {
  HomeParams p = params();
  p.grant_exclusive = false;
  build(p);
  req(1, Op::RdS);
  run();
  req(2, Op::RdNA);
  run();
  EXPECT_EQ(c[2]->last().op, Op::DataI);
  EXPECT_EQ(c[1]->got.size(), 1u) << "a sharer is not snooped";
  EXPECT_EQ(home->dir_state(kLine), DirState::S);
  EXPECT_EQ(home->dir_sharers(kLine), 1u << 1);
}

TEST_F(Home, NonAllocatingReadOfDirtyLinePullsTheDataAndOwnerKeepsOwned) {
  const auto dirty = pattern(0x66);
  owner_answers(2, Op::RdNA, Op::FwdDownO, &dirty);
  ASSERT_EQ(c[2]->last().op, Op::DataI);
  EXPECT_EQ(std::memcmp(c[2]->last().data.data(), dirty.data(), 128), 0);
  uint64_t mem = 1;
  home->read_memory(kLine, &mem, 8);
  EXPECT_EQ(mem, 0u) << "the owner keeps the dirty data";
  EXPECT_EQ(home->dir_state(kLine), DirState::O);
  EXPECT_EQ(home->dir_owner(kLine), 1);
  EXPECT_EQ(home->dir_sharers(kLine), 0u) << "the requester is not added";
}

TEST_F(Home, NonAllocatingReadWithoutForwardingUpdatesMemoryAndOwnerKeepsShared) {
  HomeParams p = params();
  p.forward_owned = false;
  build(p);
  const auto dirty = pattern(0x67);
  owner_answers(2, Op::RdNA, Op::FwdDown, &dirty);
  ASSERT_EQ(c[2]->last().op, Op::DataI);
  EXPECT_EQ(std::memcmp(c[2]->last().data.data(), dirty.data(), 128), 0);
  uint8_t mem[128];
  home->read_memory(kLine, mem, 128);
  EXPECT_EQ(std::memcmp(mem, dirty.data(), 128), 0);
  EXPECT_EQ(home->dir_state(kLine), DirState::S);
  EXPECT_EQ(home->dir_sharers(kLine), 1u << 1);
}

TEST_F(Home, NonAllocatingReadOfCleanExclusiveLineDowngradesTheOwnerToShared) {
  const auto d = pattern(0x68);
  home->write_memory(kLine, d.data(), 128);
  owner_answers(2, Op::RdNA, Op::FwdDownO, nullptr);  // it was E
  ASSERT_EQ(c[2]->last().op, Op::DataI);
  EXPECT_EQ(std::memcmp(c[2]->last().data.data(), d.data(), 128), 0);
  EXPECT_EQ(home->dir_state(kLine), DirState::S);
  EXPECT_EQ(home->dir_sharers(kLine), 1u << 1);
}

TEST_F(Home, NonAllocatingReadOfOwnedLineSnoopsOnlyTheOwner) {
  const auto dirty = pattern(0x69);
  owner_answers(2, Op::RdS, Op::FwdDownO, &dirty);  // 1: M -> O, 2: S
  ASSERT_EQ(home->dir_state(kLine), DirState::O);
  const size_t seen2 = c[2]->got.size();
  req(3, Op::RdNA);
  run();
  ASSERT_EQ(c[1]->last().op, Op::FwdDownO);
  c[1]->answer(c[1]->last(), Op::SnpData, &dirty);
  run();
  ASSERT_EQ(c[3]->last().op, Op::DataI);
  EXPECT_EQ(std::memcmp(c[3]->last().data.data(), dirty.data(), 128), 0);
  EXPECT_EQ(c[2]->got.size(), seen2) << "the sharer is not snooped";
  EXPECT_EQ(home->dir_state(kLine), DirState::O);
  EXPECT_EQ(home->dir_owner(kLine), 1);
  EXPECT_EQ(home->dir_sharers(kLine), 1u << 2);
}

TEST_F(Home, NonAllocatingReadOfOwnedLineRacingItsWriteBackAnswersFromMemory) {
  make_owner(1);
  req(2, Op::RdNA);
  run();
  ASSERT_EQ(c[1]->last().op, Op::FwdDownO);
  c[1]->answer(c[1]->last(), Op::SnpAck, nullptr, proto::kFlagWbPending);  // 1 is evicting
  run();
  EXPECT_TRUE(c[2]->got.empty());
  const auto d = pattern(0x6A);
  req(1, Op::WB, kLine, &d);
  run();
  EXPECT_EQ(c[1]->last().op, Op::WbAck);
  ASSERT_EQ(c[2]->last().op, Op::DataI);
  EXPECT_EQ(std::memcmp(c[2]->last().data.data(), d.data(), 128), 0);
  EXPECT_EQ(home->dir_state(kLine), DirState::I);
  EXPECT_EQ(home->stats().errors, 0u);
}

TEST_F(Home, NonAllocatingReadFromTheRecordedHolderDropsItFromTheDirectory) {
  make_owner(1);  // X{1}; agent 1 then drops its clean copy silently
  req(1, Op::RdNA);
  run();
  EXPECT_EQ(c[1]->last().op, Op::DataI);
  EXPECT_EQ(home->stats().snoops, 0u) << "the requester is not snooped";
  EXPECT_EQ(home->dir_state(kLine), DirState::I);
  // Also from a recorded sharer: the other sharer stays.
  share_1_and_2();
  req(1, Op::RdNA);
  run();
  EXPECT_EQ(c[1]->last().op, Op::DataI);
  EXPECT_EQ(home->dir_state(kLine), DirState::S);
  EXPECT_EQ(home->dir_sharers(kLine), 1u << 2);
}

TEST_F(Home, WriteInvalidateInvalidatesEveryCopyDiscardsDirtyDataAndWritesMemory) {
  const auto dirty = pattern(0x70);
  owner_answers(2, Op::RdS, Op::FwdDownO, &dirty);  // O{1; 2}
  const auto d = pattern(0x80);
  req(3, Op::WrInv, kLine, &d);
  run();
  ASSERT_EQ(c[1]->last().op, Op::FwdInv);
  ASSERT_EQ(c[2]->last().op, Op::FwdInv);
  c[1]->answer(c[1]->last(), Op::SnpData, &dirty);
  run();
  EXPECT_TRUE(c[3]->got.empty()) << "WrAck waits for every snoop answer";
  c[2]->answer(c[2]->last(), Op::SnpAck);
  run();
  ASSERT_EQ(c[3]->got.size(), 1u);
  EXPECT_EQ(c[3]->last().op, Op::WrAck);
  EXPECT_EQ(c[3]->last().tag, 0x23);
  EXPECT_EQ(c[3]->last().len, 0);
  uint8_t mem[128];
  home->read_memory(kLine, mem, 128);
  EXPECT_EQ(std::memcmp(mem, d.data(), 128), 0);
  EXPECT_EQ(home->dir_state(kLine), DirState::I);
  EXPECT_EQ(home->stats().errors, 0u);
}

// RdX with FULL (docs/protocol.md rule 3): the requester writes the whole line, so the home
// grants ownership alone -- UpgAck, no memory read -- after invalidating every other copy, and
// discards a dirty owner's data, as for WrInv; the requester is the owner (it owes the
// write-back).
TEST_F(Home, WholeLineWriteRdXGetsOwnershipWithoutDataAndDiscardsDirtyCopies) {
  const auto dirty = pattern(0x70);
  owner_answers(2, Op::RdS, Op::FwdDownO, &dirty);  // O{1; 2}
  const uint64_t reads = home->stats().dram_reads;
  c[3]->send(Op::RdX, 0, kLine, 0x23, nullptr, proto::kFlagFullWrite);
  run();
  ASSERT_EQ(c[1]->last().op, Op::FwdInv);
  ASSERT_EQ(c[2]->last().op, Op::FwdInv);
  c[1]->answer(c[1]->last(), Op::SnpData, &dirty);
  c[2]->answer(c[2]->last(), Op::SnpAck);
  run();
  ASSERT_FALSE(c[3]->got.empty());
  EXPECT_EQ(c[3]->last().op, Op::UpgAck);
  EXPECT_EQ(c[3]->last().tag, 0x23);
  EXPECT_EQ(c[3]->last().len, 0);
  EXPECT_EQ(home->stats().dram_reads, reads) << "no memory read for a whole-line write";
  EXPECT_EQ(home->dir_state(kLine), DirState::X);
  EXPECT_EQ(home->dir_owner(kLine), 3);
  EXPECT_EQ(home->stats().errors, 0u);
  // the new owner's write-back is accepted
  const auto d = pattern(0x90);
  req(3, Op::WB, kLine, &d);
  run();
  EXPECT_EQ(c[3]->last().op, Op::WbAck);
  uint8_t mem[128];
  home->read_memory(kLine, mem, 128);
  EXPECT_EQ(std::memcmp(mem, d.data(), 128), 0);
}

// Without FULL the same RdX is an ordinary one: the line's data, from memory.
TEST_F(Home, WholeLineFlagOnlyChangesTheGrantOfAnRdX) {
  c[1]->send(Op::RdX, 0, kLine, 0x21, nullptr, 0);
  c[2]->send(Op::RdS, 0, kLine + 128, 0x22, nullptr, proto::kFlagFullWrite);
  run();
  EXPECT_EQ(c[1]->last().op, Op::DataE);
  EXPECT_EQ(c[2]->last().op, Op::DataE);   // RdS ignores the flag
}

TEST_F(Home, WriteInvalidateOfUncachedLineIsAnsweredWithoutSnoops) {
  const auto d = pattern(0x81);
  req(2, Op::WrInv, kLine, &d);
  run();
  EXPECT_EQ(c[2]->last().op, Op::WrAck);
  EXPECT_EQ(home->stats().snoops, 0u);
  EXPECT_EQ(home->stats().dram_reads, 0u) << "a full-line write reads nothing";
  uint8_t mem[128];
  home->read_memory(kLine, mem, 128);
  EXPECT_EQ(std::memcmp(mem, d.data(), 128), 0);
}

TEST_F(Home, WriteInvalidateFromTheRecordedHolderSnoopsOnlyTheOthers) {
  make_owner(1);  // X{1}; agent 1 drops its clean copy silently
  const auto d = pattern(0x82);
  req(1, Op::WrInv, kLine, &d);
  run();
  EXPECT_EQ(c[1]->last().op, Op::WrAck);
  EXPECT_EQ(home->stats().snoops, 0u);
  EXPECT_EQ(home->dir_state(kLine), DirState::I);
}

TEST_F(Home, WriteBackRacingAWriteInvalidateIsAbsorbedAndTheWriteInvalidateWins) {
  make_owner(1);
  const auto d = pattern(0x83);
  req(2, Op::WrInv, kLine, &d);
  run();
  ASSERT_EQ(c[1]->last().op, Op::FwdInv);
  c[1]->answer(c[1]->last(), Op::SnpAck, nullptr, proto::kFlagWbPending);  // 1 is evicting
  run();
  EXPECT_TRUE(c[2]->got.empty()) << "WrAck waits for the write-back";
  const auto wb = pattern(0x11);
  req(1, Op::WB, kLine, &wb);
  run();
  EXPECT_EQ(c[1]->last().op, Op::WbAck);
  EXPECT_EQ(c[2]->last().op, Op::WrAck);
  uint8_t mem[128];
  home->read_memory(kLine, mem, 128);
  EXPECT_EQ(std::memcmp(mem, d.data(), 128), 0) << "the WrInv's line is written last";
  EXPECT_EQ(home->dir_state(kLine), DirState::I);
  EXPECT_EQ(home->stats().errors, 0u);
}

TEST_F(Home, WriteBackOvertakingTheSnoopOfAWriteInvalidateIsAbsorbed) {
  make_owner(1);
  const auto d = pattern(0x84);
  req(2, Op::WrInv, kLine, &d);
  run();
  const proto::Msg snoop = c[1]->last();
  ASSERT_EQ(snoop.op, Op::FwdInv);
  const auto wb = pattern(0x12);
  req(1, Op::WB, kLine, &wb);
  run();
  EXPECT_EQ(c[1]->last().op, Op::WbAck);
  EXPECT_TRUE(c[2]->got.empty());
  c[1]->answer(snoop, Op::SnpAck, nullptr, proto::kFlagWbPending);
  run();
  EXPECT_EQ(c[2]->last().op, Op::WrAck);
  uint8_t mem[128];
  home->read_memory(kLine, mem, 128);
  EXPECT_EQ(std::memcmp(mem, d.data(), 128), 0);
  EXPECT_EQ(home->stats().errors, 0u);
}

TEST_F(Home, NewOperationsFromTheDirtyOwnerOfAnOwnedLineAreAnsweredError) {
  const auto dirty = pattern(0x85);
  owner_answers(2, Op::RdS, Op::FwdDownO, &dirty);  // O{1; 2}
  req(1, Op::RdNA);
  run();
  EXPECT_EQ(c[1]->last().op, Op::Error);
  req(1, Op::WrInv, kLine, &dirty);
  run();
  EXPECT_EQ(c[1]->last().op, Op::Error);
  EXPECT_EQ(home->stats().errors, 2u);
  EXPECT_EQ(home->dir_state(kLine), DirState::O);
}

TEST_F(Home, WriteInvalidateWithoutItsLineIsMalformed) {
  c[1]->send(Op::WrInv, 0, kLine, 0x21);  // carries the line...
  proto::Msg bad;
  bad.op = Op::WrInv;
  bad.src = 2;
  bad.dst = 0;
  bad.tag = 0x22;
  bad.addr = kLine;
  bad.len = 0;  // ...this one does not
  f->send(bad);
  proto::Msg rdna;
  rdna.op = Op::RdNA;
  rdna.src = 3;
  rdna.dst = 0;
  rdna.tag = 0x23;
  rdna.addr = kLine;
  rdna.len = 128;  // a read carries no data
  f->send(rdna);
  run();
  EXPECT_EQ(c[1]->last().op, Op::WrAck);
  EXPECT_EQ(c[2]->last().op, Op::Error);
  EXPECT_EQ(c[3]->last().op, Op::Error);
  EXPECT_EQ(home->stats().errors, 2u);
}

TEST_F(Home, NewOperationsWaitForABusyLineInOrder) {
  make_owner(1);
  req(2, Op::RdX);
  run();
  const auto d = pattern(0x86);
  req(3, Op::WrInv, kLine, &d);
  req(1, Op::RdNA);
  run();
  EXPECT_EQ(home->queued(), 2u);
  c[1]->answer(c[1]->last(), Op::SnpAck);  // agent 2's RdX completes
  run();
  ASSERT_EQ(c[2]->got.size(), 2u);
  EXPECT_EQ(c[2]->got[0].op, Op::DataE);
  EXPECT_EQ(c[2]->got[1].op, Op::FwdInv);  // the WrInv snoops the new owner
  const auto dirty = pattern(0x13);
  c[2]->answer(c[2]->got[1], Op::SnpData, &dirty);
  run();
  EXPECT_EQ(c[3]->last().op, Op::WrAck);
  ASSERT_EQ(c[1]->last().op, Op::DataI);
  EXPECT_EQ(std::memcmp(c[1]->last().data.data(), d.data(), 128), 0)
      << "the read after the write-invalidate sees its line";
  EXPECT_EQ(home->dir_state(kLine), DirState::I);
}
