// SPDX-License-Identifier: Apache-2.0
// cni_pio_engine: protocol (a), CPU -> device messages with overflow lines, streamed on pa_*.
#include "pio_cpu.hpp"

namespace cni::tb::pio {
namespace {

using PioA = PioTest;

constexpr unsigned kEdgeLengths[] = {1,   7,   8,    119,  120,  121,  127, 128,
                                     129, 248, 249,  256,  1000, 1500, 9600, kCapA};

TEST_F(PioA, MessagesOfEdgeLengthsStreamOutWithStalls) {
  home_.knobs.pa_stall = 0.5;
  wait_reset_arms();
  for (unsigned len : kEdgeLengths) {
    a_send(random_bytes(len));
    ASSERT_TRUE(run_until([&] { return !a_busy_ && a_msgs_.size() == a_expect_.size(); }))
        << "len " << len;
    check_a_stream();
  }
  run(20);
  EXPECT_EQ(cnt_a_, std::size(kEdgeLengths));
  EXPECT_EQ(a_checked_, std::size(kEdgeLengths));
}

// A round recalls the payload control line and the overflow lines the last message used at
// once, then, the header read, those of its own message not asked for yet: a one-line message
// after a one-line message recalls its control line alone (docs/pio.md, "Recalling only the
// lines a message uses").
TEST_F(PioA, RecallsOnlyTheLinesAMessageUses) {
  wait_reset_arms();
  auto ovf_recalls = [&](unsigned k) { return home_.count_cmds(Cmd::Recall, kABase + 2 + k); };
  auto send = [&](unsigned len) {
    a_send(random_bytes(len));
    ASSERT_TRUE(run_until([&] { return !a_busy_ && a_msgs_.size() == a_expect_.size(); }));
  };
  send(1);
  for (unsigned k = 0; k < kNOvfA; ++k) EXPECT_EQ(ovf_recalls(k), 0u) << "line " << k;
  const unsigned used = (9600 + 8 + kLineBytes - 1) / kLineBytes - 1;
  send(9600);  // its own lines, asked for once the header is read
  for (unsigned k = 0; k < kNOvfA; ++k) EXPECT_EQ(ovf_recalls(k), k < used ? 1u : 0u) << k;
  send(1);  // the last message's lines, asked for at once
  for (unsigned k = 0; k < kNOvfA; ++k) EXPECT_EQ(ovf_recalls(k), k < used ? 2u : 0u) << k;
  send(100);  // no overflow line, none used last time
  for (unsigned k = 0; k < kNOvfA; ++k) EXPECT_EQ(ovf_recalls(k), k < used ? 2u : 0u) << k;
  EXPECT_EQ(home_.count_cmds(Cmd::Recall, kABase) + home_.count_cmds(Cmd::Recall, kABase + 1),
            4u) << "the payload control line, once per message";
  check_a_stream();
  EXPECT_EQ(a_checked_, 4u);
}

// Lines the CPU wrote for an older, longer message and again for this one are recalled before
// they are read, though the message just before used none (the harness checks every read
// against the lines the CPU holds).
TEST_F(PioA, LinesOfAnOlderLongerMessageAreRecalledBeforeTheyAreRead) {
  home_.knobs.pa_stall = 0.3;
  wait_reset_arms();
  for (unsigned len : {2000u, 1u, 1u, 2000u, 500u, 9600u, 3u, 9600u}) {
    a_send(random_bytes(len));
    ASSERT_TRUE(run_until([&] { return !a_busy_ && a_msgs_.size() == a_expect_.size(); }))
        << "len " << len;
  }
  check_a_stream();
  EXPECT_EQ(a_checked_, 8u);
}

// The engine counts RECALL_DONEs: one slow line (the control line with the header, or an
// overflow line the message uses) holds the whole message back, whatever order the others
// finish in.
TEST_F(PioA, StreamWaitsForEveryRecallDone) {
  wait_reset_arms();
  for (unsigned slow : {kABase + 1, kABase + 1 + kNOvfA, kABase + 2}) {
    home_.slow_recall.clear();
    home_.slow_recall[slow] = 600;
    const Bytes msg = random_bytes(kCapA);  // every overflow line
    const size_t beats = pa_beat_cycles_.size();
    a_send(msg);
    ASSERT_TRUE(run_until([&] { return home_.recalling[slow]; }));
    ASSERT_TRUE(run_until([&] { return !home_.recalling[slow]; }));
    EXPECT_EQ(pa_beat_cycles_.size(), beats) << "streamed before line " << slow << " was recalled";
    ASSERT_TRUE(run_until([&] { return !a_busy_ && a_msgs_.size() == a_expect_.size(); }));
  }
  check_a_stream();
  EXPECT_EQ(a_checked_, 3u);
}

TEST_F(PioA, StreamWaitsForConsumerUnderHeavyStalls) {
  home_.knobs.pa_stall = 0.9;
  home_.knobs.cmd_stall = 0.6;
  wait_reset_arms();
  for (unsigned len : {9600u, 121u, 9600u}) {
    a_send(random_bytes(len));
    ASSERT_TRUE(run_until([&] { return !a_busy_ && a_msgs_.size() == a_expect_.size(); }));
  }
  check_a_stream();
  EXPECT_EQ(a_checked_, 3u);
}

TEST_F(PioA, OverlongLengthIsClampedAndFlaggedInStatus) {
  wait_reset_arms();
  a_send(random_bytes(kCapA), 0xFFFF);  // header claims more than the lines hold
  ASSERT_TRUE(run_until([&] { return !a_busy_ && a_msgs_.size() == a_expect_.size(); }));
  a_send(random_bytes(200));  // the flag applies to one message only
  ASSERT_TRUE(run_until([&] { return !a_busy_ && a_msgs_.size() == a_expect_.size(); }));
  check_a_stream();
  EXPECT_EQ(a_checked_, 2u);
}

TEST_F(PioA, EmptyMessageIsCountedWithoutBeats) {
  wait_reset_arms();
  a_send(Bytes{});
  ASSERT_TRUE(run_until([&] { return !a_busy_; }));
  run(50);
  EXPECT_TRUE(a_msgs_.empty()) << "a zero-length message produced beats";
  EXPECT_EQ(cnt_a_, 1u);
  a_send(random_bytes(5));
  ASSERT_TRUE(run_until([&] { return !a_busy_ && a_msgs_.size() == 1; }));
  check_a_stream();
}

}  // namespace
}  // namespace cni::tb::pio
