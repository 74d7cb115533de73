// SPDX-License-Identifier: Apache-2.0
// cni_pio_engine: reset state and protocol (c) (combined invocation, per-pair role swap).
#include <numeric>
#include <set>

#include "pio_cpu.hpp"

namespace cni::tb::pio {
namespace {

using PioC = PioTest;

TEST_F(PioC, ResetArmsEveryGroup0LineAndBothControlLines) {
  wait_reset_arms();
  run(300);
  std::set<unsigned> want;
  for (unsigned j = 0; j < kCPairs; ++j) want.insert(c_line(0, j));
  want.insert(kABase);
  want.insert(kBBase);
  ASSERT_EQ(home_.cmds.size(), want.size()) << "only the reset ARMs, nothing else";
  std::set<unsigned> got;
  for (const auto& c : home_.cmds) {
    EXPECT_EQ(c.op, Cmd::Arm) << cmd_name(c.op) << " " << c.line;
    got.insert(c.line);
  }
  EXPECT_EQ(got, want);
  for (unsigned l = 0; l < kNumLines; ++l) EXPECT_EQ(home_.armed[l], want.count(l) == 1) << l;
  EXPECT_EQ(cnt_c_ + cnt_a_ + cnt_b_, 0u);
}

TEST_F(PioC, SinglePairManyInvocationsSwapRoles) {
  wait_reset_arms();
  const unsigned j = 5;
  const unsigned n = 64;
  for (unsigned i = 0; i < n; ++i) {
    c_invoke(j, random_line());
    ASSERT_TRUE(run_until([&] { return !cpu_c_[j].busy; })) << "invocation " << i;
    EXPECT_EQ(cpu_c_[j].par, (i + 1) % 2) << "roles swap every invocation";
  }
  run(20);
  EXPECT_EQ(cpu_c_[j].done, n);
  EXPECT_EQ(cnt_c_, n);
  // Each invocation recalls the payload line once: group 1 on even invocations, group 0 on odd.
  EXPECT_EQ(home_.count_cmds(Cmd::Recall, c_line(1, j)), n / 2);
  EXPECT_EQ(home_.count_cmds(Cmd::Recall, c_line(0, j)), n / 2);
  EXPECT_EQ(home_.count_cmds(Cmd::Release, c_line(0, j)), n / 2);
  EXPECT_EQ(home_.count_cmds(Cmd::Release, c_line(1, j)), n / 2);
  EXPECT_EQ(home_.count_cmds(Cmd::Arm, c_line(0, j)), n / 2 + 1);  // + the reset ARM
  EXPECT_EQ(home_.count_cmds(Cmd::Arm, c_line(1, j)), n / 2);
}

// The multi-line invocation: the CPU writes all arguments, then prefetches every trigger line;
// prefetches arrive in any order and RECALL_DONEs come back in any order.
TEST_F(PioC, AllPairsPermutedTriggersAndOutOfOrderRecallsComplete) {
  home_.knobs.recall_min = 1;
  home_.knobs.recall_max = 300;
  wait_reset_arms();
  std::vector<unsigned> order(kCPairs);
  std::iota(order.begin(), order.end(), 0u);
  unsigned rounds_out_of_order = 0;
  const unsigned rounds = 8;
  for (unsigned r = 0; r < rounds; ++r) {
    for (unsigned j = 0; j < kCPairs; ++j) c_prepare(j, random_line());
    std::shuffle(order.begin(), order.end(), rng_);
    c_release_order_.clear();
    for (unsigned j : order) {
      c_trigger(j);
      run(std::uniform_int_distribution<unsigned>(0, 3)(rng_));
    }
    ASSERT_TRUE(run_until([&] { return c_all_idle(); })) << "round " << r;
    ASSERT_EQ(c_release_order_.size(), kCPairs);
    if (c_release_order_ != order) ++rounds_out_of_order;
  }
  run(20);
  EXPECT_EQ(cnt_c_, rounds * kCPairs);
  for (unsigned j = 0; j < kCPairs; ++j) EXPECT_EQ(cpu_c_[j].done, rounds) << "pair " << j;
  EXPECT_GT(rounds_out_of_order, 0u) << "the test never completed pairs out of trigger order";
}

// After a timeout Retry the host re-issues its read: the home raises TRIGGER again for a line
// the engine is already serving. The engine must not recall or release twice.
TEST_F(PioC, DuplicateTriggerWhileBusyIsIgnored) {
  home_.knobs.recall_min = 80;
  home_.knobs.recall_max = 120;
  wait_reset_arms();
  const unsigned j = 2;
  for (unsigned inv = 0; inv < 4; ++inv) {
    const unsigned t = c_trigger_line(j), p = c_payload_line(j);
    const size_t recalls = home_.count_cmds(Cmd::Recall, p);
    c_invoke(j, random_line());
    // Duplicates while the RECALL is outstanding...
    ASSERT_TRUE(run_until([&] { return home_.recalling[p]; }));
    for (int k = 0; k < 3; ++k) {
      home_.retry(t);
      run(10);
    }
    // ...and right when it completes (the engine is computing).
    ASSERT_TRUE(run_until([&] { return !home_.recalling[p]; }));
    home_.retry(t);
    ASSERT_TRUE(run_until([&] { return !cpu_c_[j].busy; }));
    run(30);
    EXPECT_EQ(home_.count_cmds(Cmd::Recall, p), recalls + 1) << "invocation " << inv;
    EXPECT_EQ(home_.count_cmds(Cmd::Release, t), (inv / 2) + 1) << "invocation " << inv;
  }
  EXPECT_EQ(cnt_c_, 4u);
}

// TRIGGERs on lines that are not the current trigger line of their pair/channel, and stray
// RECALL_DONEs, change nothing.
TEST_F(PioC, TriggerOnPayloadLineOrOutsideChannelsIsIgnored) {
  wait_reset_arms();
  const size_t base = home_.cmds.size();
  for (unsigned j = 0; j < kCPairs; ++j) home_.events.emplace_back(Evt::Trigger, c_line(1, j));
  const unsigned stray[] = {0, kCBase - 1, kABase + 1, kABase + 2, kABase + 1 + kNOvfA,
                            kBBase + 1, kBBase + 2, kBBase + 1 + kNOvfB, kNumLines - 1};
  for (unsigned l : stray) home_.events.emplace_back(Evt::Trigger, l);
  for (unsigned j = 0; j < kCPairs; j += 3) {
    home_.events.emplace_back(Evt::RecallDone, c_line(1, j));
    home_.events.emplace_back(Evt::RecallDone, c_line(0, j));
  }
  home_.events.emplace_back(Evt::RecallDone, kABase + 1);
  home_.events.emplace_back(Evt::RecallDone, kBBase + 3);
  ASSERT_TRUE(run_until([&] { return home_.events.empty(); }));
  run(500);
  EXPECT_EQ(home_.cmds.size(), base) << "a stray event caused a command";
  // The engine still works normally afterwards.
  for (unsigned j = 0; j < kCPairs; ++j) c_invoke(j, random_line());
  a_send(random_bytes(300));
  b_receive(random_bytes(300));
  ASSERT_TRUE(run_until([&] { return c_all_idle() && !a_busy_ && !b_busy_; }));
  run(50);
  EXPECT_EQ(cnt_c_, kCPairs);
  EXPECT_EQ(cnt_a_, 1u);
  EXPECT_EQ(cnt_b_, 1u);
}

// The accelerator's result equals tb/bloom_ref.hpp on edge-case and random elements.
TEST_F(PioC, BloomResultMatchesReferenceModel) {
  wait_reset_arms();
  std::vector<Line> elems;
  elems.push_back(Line{});
  Line ones;
  ones.fill(0xFF);
  elems.push_back(ones);
  for (unsigned bit : {0u, 1u, 31u, 32u, 255u, 256u, 8 * kLineBytes - 1}) {
    Line l{};
    l[bit / 8] = static_cast<uint8_t>(1u << (bit % 8));
    elems.push_back(l);
  }
  Line ramp;
  for (unsigned b = 0; b < kLineBytes; ++b) ramp[b] = static_cast<uint8_t>(b);
  elems.push_back(ramp);
  while (elems.size() < 200) elems.push_back(random_line());
  size_t next = 0;
  for (uint64_t i = 0; next < elems.size(); ++i) {
    ASSERT_LT(i, 100000u) << "pairs stopped completing";
    for (unsigned j = 0; j < kCPairs && next < elems.size(); ++j) {
      if (!cpu_c_[j].busy) c_invoke(j, elems[next++]);
    }
    step();
  }
  ASSERT_TRUE(run_until([&] { return c_all_idle(); }));
  EXPECT_EQ(c_done_, elems.size());
}

}  // namespace
}  // namespace cni::tb::pio
