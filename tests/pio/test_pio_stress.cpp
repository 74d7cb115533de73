// SPDX-License-Identifier: Apache-2.0
// cni_pio_engine: robustness — events keep flowing while the home stalls commands, and a seeded
// random mix of all three protocols with stalls, retries and reordering.
#include <cstdlib>

#include "pio_cpu.hpp"

namespace cni::tb::pio {
namespace {

using PioStress = PioTest;

TEST_F(PioStress, EventsAreAbsorbedWhileCommandsStall) {
  wait_reset_arms();
  cmd_hold_ = 3000;
  for (unsigned j = 0; j < kCPairs; ++j) c_invoke(j, random_line());
  for (unsigned j = 0; j < kCPairs; ++j) home_.retry(c_trigger_line(j));  // and duplicates
  a_send(random_bytes(2000));
  b_receive(random_bytes(2000));
  const uint64_t start = cycle_;
  ASSERT_TRUE(run_until([&] { return home_.events.empty(); }, 2000))
      << "the engine stopped taking events while commands were stalled";
  EXPECT_LT(cycle_ - start, 2000u);
  ASSERT_TRUE(run_until([&] { return c_all_idle() && !a_busy_ && !b_busy_; }));
  run(50);
  EXPECT_EQ(cnt_c_, kCPairs);
  EXPECT_EQ(cnt_a_, 1u);
  EXPECT_EQ(cnt_b_, 1u);
}

TEST_F(PioStress, RandomMixOfAllProtocolsWithStallsAndRetries) {
  uint64_t cycles = 60000;
  if (const char* s = std::getenv("CNI_PIO_STRESS_CYCLES")) cycles = std::strtoull(s, nullptr, 0);
  home_.knobs.cmd_stall = 0.3;
  home_.knobs.evt_gap = 0.3;
  home_.knobs.recall_max = 120;
  home_.knobs.pa_stall = 0.4;
  home_.knobs.pb_gap = 0.4;
  wait_reset_arms();
  auto len = [&](unsigned cap) {
    // Mostly short messages, some up to the channel capacity.
    return chance(0.7) ? std::uniform_int_distribution<unsigned>(0, 300)(rng_)
                       : std::uniform_int_distribution<unsigned>(0, cap)(rng_);
  };
  for (uint64_t i = 0; i < cycles; ++i) {
    for (unsigned j = 0; j < kCPairs; ++j) {
      if (!cpu_c_[j].busy && chance(0.01)) c_invoke(j, random_line());
      if (cpu_c_[j].busy && home_.parked[c_trigger_line(j)] && chance(0.002)) {
        home_.retry(c_trigger_line(j));
      }
    }
    if (!a_busy_ && chance(0.005)) a_send(random_bytes(len(kCapA)));
    if (!b_busy_ && pb_drained() && chance(0.005)) {
      const unsigned n = std::max(1u, len(kCapB));
      b_receive(random_bytes(n));
    }
    if (a_busy_ && home_.parked[kABase + a_par_] && chance(0.002)) home_.retry(kABase + a_par_);
    if (b_busy_ && home_.parked[kBBase + b_par_] && chance(0.002)) home_.retry(kBBase + b_par_);
    step();
    ASSERT_FALSE(HasFailure()) << "cycle " << cycle_;
    if (i % 1000 == 0) check_a_stream();
  }
  ASSERT_TRUE(run_until([&] {
    return c_all_idle() && !a_busy_ && !b_busy_ && a_msgs_.size() >= a_expect_.size();
  }));
  run(50);
  check_a_stream();
  EXPECT_EQ(cnt_c_, c_done_);
  EXPECT_EQ(cnt_a_, a_count_);
  EXPECT_EQ(cnt_b_, b_count_);
  EXPECT_TRUE(a_expect_.empty());
  EXPECT_GT(c_done_, 100u);
  EXPECT_GT(a_count_, 5u);
  EXPECT_GT(b_count_, 5u);
  std::printf("[ stress   ] %llu cycles: %llu (c) invocations, %llu (a), %llu (b) messages\n",
              static_cast<unsigned long long>(cycle_), static_cast<unsigned long long>(c_done_),
              static_cast<unsigned long long>(a_count_), static_cast<unsigned long long>(b_count_));
}

}  // namespace
}  // namespace cni::tb::pio
