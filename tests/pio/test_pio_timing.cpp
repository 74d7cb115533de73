// SPDX-License-Identifier: Apache-2.0
// cni_pio_engine: cycle timing with no stalls anywhere (the numbers docs/pio.md quotes). The
// pipeline registers add to them as docs/pio.md, "Timing", says: EvtReg two cycles to each path
// that starts at an event and one more to each (c) path (its FIFO inputs are registered), RdReg
// and ReqReg one each per memory read.
#include "pio_cpu.hpp"

namespace cni::tb::pio {
namespace {

constexpr uint64_t kRead = kRdReg + kReqReg;  // cycles each memory read adds
constexpr uint64_t kCEvt = 3 * kEvtReg;       // cycles EvtReg adds to a (c) path from an event

class PioTiming : public PioTest {
 protected:
  void SetUp() override {
    PioTest::SetUp();
    home_.knobs = Knobs{0.0, 0.0, 10, 10, 0.0, 0.0};
    wait_reset_arms();
  }
};

TEST_F(PioTiming, CInvocationAddsTwoCyclesBeforeRecallAndEightAfter) {
  const unsigned t = c_trigger_line(3), p = c_payload_line(3);
  c_invoke(3, random_line());
  ASSERT_TRUE(run_until([&] { return c_all_idle(); }));
  const uint64_t trig = evt_cycle(Evt::Trigger, t), recall = cmd_cycle(Cmd::Recall, p);
  const uint64_t done = evt_cycle(Evt::RecallDone, p), rel = cmd_cycle(Cmd::Release, t);
  const uint64_t arm = cmd_cycle(Cmd::Arm, p);
  std::printf("[ timing   ] (c) TRIGGER->RECALL %llu cycles, RECALL_DONE->ARM %llu, ->RELEASE %llu\n",
              static_cast<unsigned long long>(recall - trig),
              static_cast<unsigned long long>(arm - done),
              static_cast<unsigned long long>(rel - done));
  EXPECT_EQ(recall - trig, 2u + kCEvt);
  EXPECT_EQ(arm - done, 7u + kCEvt + kRead);
  EXPECT_EQ(rel - done, 8u + kCEvt + kRead);
}

// Pairs whose payloads arrive back to back share one compute unit: one invocation every seven
// cycles (and one more per cycle a memory read adds).
TEST_F(PioTiming, CComputeUnitFinishesAnInvocationEverySevenCycles) {
  for (unsigned j = 0; j < kCPairs; ++j) c_invoke(j, random_line());
  ASSERT_TRUE(run_until([&] { return c_all_idle(); }));
  std::vector<uint64_t> rel;
  for (const auto& c : home_.cmds) {
    if (c.op == Cmd::Release) rel.push_back(c.cycle);
  }
  ASSERT_EQ(rel.size(), kCPairs);
  for (size_t i = 2; i < rel.size(); ++i) {
    EXPECT_EQ(rel[i] - rel[i - 1], 7u + kRead) << "release " << i;
  }
  std::printf("[ timing   ] (c) %u back-to-back invocations released over %llu cycles\n", kCPairs,
              static_cast<unsigned long long>(rel.back() - rel.front()));
}

// The command slot has a skid register: while the home agent holds cmd_ready_i low, the
// engine still grants the invocation's second command (RELEASE behind ARM), so the pair
// finishes; the home agent then takes both in grant order.
TEST_F(PioTiming, SecondCommandIsGrantedWhileTheHomeStallsTheFirst) {
  const unsigned t = c_trigger_line(3), p = c_payload_line(3);
  c_invoke(3, random_line());
  ASSERT_TRUE(run_until([&] { return home_.count_cmds(Cmd::Recall, p) == 1; }));
  cmd_hold_ = 60;  // longer than the recall, the hash and both grants
  run(50);
  EXPECT_EQ(home_.count_cmds(Cmd::Arm, p), 0u) << "the home agent took nothing";
  EXPECT_EQ(cnt_c_, 1u) << "RELEASE(T) was granted behind the held ARM(P)";
  ASSERT_TRUE(run_until([&] { return home_.count_cmds(Cmd::Release, t) == 1; }));
  EXPECT_LT(cmd_cycle(Cmd::Arm, p), cmd_cycle(Cmd::Release, t));
  EXPECT_EQ(cmd_cycle(Cmd::Release, t) - cmd_cycle(Cmd::Arm, p), 1u) << "back to back";
}

TEST_F(PioTiming, AStreamsOneBeatEveryTwoCycles) {
  a_send(random_bytes(9600));
  ASSERT_TRUE(run_until([&] { return !a_busy_ && a_msgs_.size() == 1; }));
  ASSERT_EQ(pa_beat_cycles_.size(), 75u);
  const uint64_t last_done = evt_log_.back().cycle;  // the last RECALL_DONE
  std::printf("[ timing   ] (a) last RECALL_DONE->first beat %llu cycles, 75 beats in %llu\n",
              static_cast<unsigned long long>(pa_beat_cycles_.front() - last_done),
              static_cast<unsigned long long>(pa_beat_cycles_.back() - pa_beat_cycles_.front() + 1));
  for (size_t i = 1; i < pa_beat_cycles_.size(); ++i) {
    EXPECT_EQ(pa_beat_cycles_[i] - pa_beat_cycles_[i - 1], 2u + kRead) << "beat " << i;
  }
}

TEST_F(PioTiming, BTakesOneBeatPerCycle) {
  b_receive(random_bytes(9600));
  ASSERT_TRUE(run_until([&] { return !b_busy_; }));
  ASSERT_EQ(pb_beat_cycles_.size(), 75u);
  for (size_t i = 1; i < pb_beat_cycles_.size(); ++i) {
    EXPECT_EQ(pb_beat_cycles_[i] - pb_beat_cycles_[i - 1], 1u) << "beat " << i;
  }
  const uint64_t rel = cmd_cycle(Cmd::Release, kBBase);
  std::printf("[ timing   ] (b) last beat->RELEASE %llu cycles\n",
              static_cast<unsigned long long>(rel - pb_beat_cycles_.back()));
}

// (b) and (c) share memory port B, (c) first. A (b) message streams while every (c) pair
// computes: (b) loses at most one cycle per (c) access (without ReqReg its beat waits in the
// cycle (c) takes the port; with ReqReg its granted write waits in its request register, and
// the next beat a cycle), and no (b) write is lost or misplaced (the RELEASE scoreboard).
TEST_F(PioTiming, BLosesAtMostOneCyclePerCMemoryAccess) {
  b_receive(random_bytes(9600));
  ASSERT_TRUE(run_until([&] { return !pb_beat_cycles_.empty(); }));
  for (unsigned j = 0; j < kCPairs; ++j) c_invoke(j, random_line());
  ASSERT_TRUE(run_until([&] { return !b_busy_ && c_all_idle(); }));
  ASSERT_EQ(pb_beat_cycles_.size(), 75u);
  const uint64_t first = pb_beat_cycles_.front(), last = pb_beat_cycles_.back();
  uint64_t c_accesses = 0;
  for (const auto& [line, cycles] : mem_cycles_) {
    if (line < kCBase || line >= kCBase + 2 * kCPairs) continue;
    c_accesses += static_cast<uint64_t>(std::count_if(
        cycles.begin(), cycles.end(), [&](uint64_t c) { return c >= first && c <= last; }));
  }
  const uint64_t lost = (last - first) - (pb_beat_cycles_.size() - 1);
  std::printf("[ timing   ] (b) 75 beats over %llu cycles beside %llu (c) memory accesses\n",
              static_cast<unsigned long long>(last - first + 1),
              static_cast<unsigned long long>(c_accesses));
  EXPECT_GE(c_accesses, 8u) << "the (c) invocations did not overlap the (b) stream";
  EXPECT_LE(lost, c_accesses);
  EXPECT_GE(lost + 2, c_accesses) << "(b) did not wait for (c): no conflict was exercised";
  EXPECT_EQ(cnt_c_, kCPairs);
}

}  // namespace
}  // namespace cni::tb::pio
