// SPDX-License-Identifier: Apache-2.0
// cni_pio_engine: protocol (b), device -> CPU messages from pb_* into the trigger line and the
// overflow lines.
#include "pio_cpu.hpp"

namespace cni::tb::pio {
namespace {

using PioB = PioTest;

constexpr unsigned kEdgeLengths[] = {1,   7,   8,    119,  120,  121,  127, 128,
                                     129, 248, 249,  256,  1000, 1500, 9600, kCapB};

TEST_F(PioB, MessagesOfEdgeLengthsLandInTriggerAndOverflowLines) {
  home_.knobs.pb_gap = 0.5;
  wait_reset_arms();
  for (unsigned len : kEdgeLengths) {
    b_receive(random_bytes(len));
    ASSERT_TRUE(run_until([&] { return !b_busy_; })) << "len " << len;
    EXPECT_TRUE(pb_drained());
  }
  run(20);
  EXPECT_EQ(cnt_b_, std::size(kEdgeLengths));
  EXPECT_EQ(b_count_, std::size(kEdgeLengths));
}

// A round recalls the other control line and the overflow lines the last message used at
// once, then, the first beat's length seen, those of its own message not asked for yet; the
// message is taken only when every one is in (docs/pio.md, "Recalling only the lines a message
// uses").
TEST_F(PioB, RecallsOnlyTheLinesAMessageUsesBeforeTakingIt) {
  home_.knobs.recall_min = 50;
  home_.knobs.recall_max = 200;
  wait_reset_arms();
  auto ovf_recalls = [&](unsigned k) { return home_.count_cmds(Cmd::Recall, kBBase + 2 + k); };
  const unsigned used = (9600 + 8 + kLineBytes - 1) / kLineBytes - 1;
  b_receive(random_bytes(9600));
  // pb_ready_o stays low until every RECALL_DONE is in.
  ASSERT_TRUE(run_until([&] { return top_->pb_ready_o != 0; }));
  EXPECT_EQ(home_.count_cmds(Cmd::Recall, kBBase + 1), 1u) << "the other control line";
  EXPECT_FALSE(home_.recalling[kBBase + 1]);
  for (unsigned k = 0; k < kNOvfB; ++k) {
    EXPECT_EQ(ovf_recalls(k), k < used ? 1u : 0u) << "line " << k;
    EXPECT_FALSE(home_.recalling[kBBase + 2 + k]) << "line " << k;
  }
  ASSERT_TRUE(run_until([&] { return !b_busy_; }));
  b_receive(random_bytes(60));  // the last message's lines, asked for at once
  ASSERT_TRUE(run_until([&] { return !b_busy_; }));
  b_receive(random_bytes(60));  // none
  ASSERT_TRUE(run_until([&] { return !b_busy_; }));
  for (unsigned k = 0; k < kNOvfB; ++k) EXPECT_EQ(ovf_recalls(k), k < used ? 2u : 0u) << k;
  EXPECT_EQ(home_.count_cmds(Cmd::Recall, kBBase), 1u) << "the control lines swap each message";
  EXPECT_EQ(home_.count_cmds(Cmd::Recall, kBBase + 1), 2u);
  EXPECT_EQ(cnt_b_, 3u);
}

// Lines the CPU read for an older, longer message are recalled before a longer message again
// writes them, though the message just before used none (the harness checks every write
// against the lines the CPU holds).
TEST_F(PioB, LinesOfAnOlderLongerMessageAreRecalledBeforeTheyAreWritten) {
  wait_reset_arms();
  for (unsigned len : {2000u, 1u, 1u, 2000u, 500u, 9600u, 3u, 9600u}) {
    b_receive(random_bytes(len));
    ASSERT_TRUE(run_until([&] { return !b_busy_; })) << "len " << len;
  }
  EXPECT_EQ(cnt_b_, 8u);
}

TEST_F(PioB, MessageWaitsForEveryRecallDone) {
  wait_reset_arms();
  // The other control line, the message's first and last overflow lines (300 bytes: two).
  for (unsigned slow : {kBBase + 1, kBBase + 3, kBBase + 2}) {
    home_.slow_recall.clear();
    home_.slow_recall[slow] = 600;
    b_receive(random_bytes(300));
    ASSERT_TRUE(run_until([&] { return home_.recalling[slow]; }));
    ASSERT_TRUE(run_until([&] { return !home_.recalling[slow]; }));
    EXPECT_FALSE(pb_drained()) << "took the message before line " << slow << " was recalled";
    ASSERT_TRUE(run_until([&] { return !b_busy_; }));
  }
  EXPECT_EQ(cnt_b_, 3u);
}

// One message per TRIGGER: the stream source may hold the next message ready right behind the
// last beat; the engine takes it only after the next TRIGGER.
TEST_F(PioB, MessageWaitsForTrigger) {
  home_.knobs.pb_gap = 0.0;
  wait_reset_arms();
  const Bytes msg = random_bytes(700), msg2 = random_bytes(130);
  queue_pb(msg, 700);
  queue_pb(msg2, 130);
  run(400);
  EXPECT_EQ(pb_ready_cycles_, 0u) << "pb_ready_o rose without a TRIGGER";
  EXPECT_EQ(pb_cur_, 0u);
  b_recv_trigger(msg, 700);
  ASSERT_TRUE(run_until([&] { return !b_busy_; }));
  run(400);
  EXPECT_EQ(pb_cur_, 1u) << "the second message was taken without a TRIGGER";
  EXPECT_EQ(pb_beat_, 0u) << "a beat of the second message was taken without a TRIGGER";
  b_recv_trigger(msg2, 130);
  ASSERT_TRUE(run_until([&] { return !b_busy_; }));
  EXPECT_TRUE(pb_drained());
  EXPECT_EQ(cnt_b_, 2u);
}

TEST_F(PioB, OverlongMessageIsTruncatedAndFlagged) {
  wait_reset_arms();
  const unsigned len = kCapB + 300;
  b_receive(random_bytes(len));
  ASSERT_TRUE(run_until([&] { return !b_busy_; }));
  EXPECT_TRUE(pb_drained()) << "every beat is consumed, the excess dropped";
  b_receive(random_bytes(50));  // the flag applies to one message only
  ASSERT_TRUE(run_until([&] { return !b_busy_; }));
  EXPECT_EQ(cnt_b_, 2u);
}

}  // namespace
}  // namespace cni::tb::pio
