// SPDX-License-Identifier: Apache-2.0
// DRAM-backed device lines at the home agent (docs/dram.md; the dram model: 64 DRAM lines in 4
// frames behind the DRAM model, DDR4-2400 at a 300 MHz clock, no AXI stalls here so the cycles
// are the model's own): a request on a DRAM line in its frame is answered as an on-chip line's;
// one absent waits for its fill and holds the other inputs meanwhile (one miss at a time), and
// is taken first once filled, whatever comes meanwhile; a line never written reads as zeros;
// data and an engine's policy survive the line leaving its frame; a line whose DRAM read fails
// is answered Error. The other flavors have no DRAM lines and skip these.
#include <cstdio>

#include "home_fixture.hpp"

namespace cni::tb::home::test {
namespace {

class HomeDram : public HomeTest {
 protected:
  void SetUp() override {
    if (!geo().dram_idx_w) GTEST_SKIP() << "this model has no DRAM-backed lines";
    HomeTest::SetUp();
  }
  void TearDown() override {
    if (h) HomeTest::TearDown();  // (a skipped test made no model)
  }
  static unsigned frames() { return 1u << geo().frame_w; }
  // The k-th DRAM line of frame f.
  static unsigned dram_line(unsigned f, unsigned k) {
    return geo().dram_first() + f + k * frames();
  }

  // Cycles from a request's send to its answer, which must be `want` with `data` if it has
  // data.
  unsigned latency(const Msg& m, Op want, const Line& data) {
    const uint64_t t0 = h->cycle();
    h->send(m);
    const auto o = next_out(2000);
    if (!o) {
      ADD_FAILURE() << "no answer to " << m.str();
      return 0;
    }
    EXPECT_EQ(o->msg.op, want) << o->msg.str();
    if (proto::carries_data(want)) {
      EXPECT_EQ(o->msg.data, data) << o->msg.str();
    }
    return static_cast<unsigned>(o->cycle - t0);
  }
};

// The latency of a request: on an on-chip line; on a DRAM line never written (zeros); on one in
// its frame; on one in the DRAM whose frame holds another, written line (every grant changes
// the directory word, so a victim is dirty: written back, then the line read).
TEST_F(HomeDram, AMissCostsItsFillAndAHitNothing) {
  h->set_ret_excl(0);  // RdS answered DataS: the sharers stay, no snoops
  const unsigned a = dram_line(1, 0), b = dram_line(1, 1);
  const unsigned on_chip = latency(req(Op::RdX, kA1, 2, 1), Op::DataE, h->mem(2));
  const unsigned never = latency(req(Op::RdX, kA1, a, 2), Op::DataE, Line{});
  h->send(wb(kA1, a, pattern(5), 3));
  expect(Op::WbAck, kA1, a);
  const unsigned hit = latency(req(Op::RdS, kA2, a, 4), Op::DataS, pattern(5));
  (void)latency(req(Op::RdX, kA1, b, 5), Op::DataE, Line{});  // a leaves its frame
  h->send(wb(kA1, b, pattern(6), 6));
  expect(Op::WbAck, kA1, b);
  const unsigned fetched = latency(req(Op::RdS, kA3, a, 7), Op::DataS, pattern(5));
  EXPECT_EQ(h->dram_count(0), 1u);  // one fill read the DRAM (a's)
  EXPECT_EQ(h->dram_count(1), 2u);  // two were never written (a, b)
  EXPECT_EQ(h->dram_count(2), 2u);  // a's and b's frames written back
  std::printf(
      "[ dram     ] request latency at 300 MHz: on chip %u cycles, DRAM line in its "
      "frame %u, never written %u, fetched behind a write-back %u (%.1f ns)\n",
      on_chip, hit, never, fetched, fetched * 3.333);
  EXPECT_EQ(hit, on_chip);
  EXPECT_EQ(never, on_chip + 4);  // IDLE, QUIET, LOOK, FETCH (cni_mem_frames)
  EXPECT_GT(fetched, never + 10);
  EXPECT_EQ(probe(a), (Dir{'S', {kA2, kA3}})) << "a's directory word did not survive the DRAM";
}

// While a miss is filled, the take holds every input: a request on an on-chip line sent right
// behind it is answered after it (one miss at a time, docs/dram.md).
TEST_F(HomeDram, AMissHoldsTheOtherInputsUntilItsFill) {
  const unsigned a = dram_line(2, 0), b = dram_line(2, 1);
  acquire(kA1, a);
  h->send(wb(kA1, a, pattern(1), 1));
  expect(Op::WbAck, kA1, a);
  acquire(kA1, b);  // a in the DRAM
  h->send(req(Op::RdS, kA2, a, 2));
  h->run(1);
  h->send(req(Op::RdS, kA3, 3, 3));
  expect(Op::DataE, kA2, a);
  expect(Op::DataE, kA3, 3);
}

// A request whose line was just filled is taken before a command that became available in the
// meantime, even though commands go ahead of requests: else an engine commanding other lines of
// the same frame would take the frame back, fill after fill, for as long as it kept on.
TEST_F(HomeDram, ARequestIsNotStarvedByCommandsOnItsFrame) {
  const unsigned a = dram_line(1, 0);
  constexpr unsigned kCmds = 30;
  h->send(req(Op::RdS, kA1, a, 1));
  for (unsigned i = 0; i < kCmds; ++i) {
    h->command(Cmd::Policy, dram_line(1, 1 + i % 2), static_cast<unsigned>(Policy::Allow));
  }
  const auto o = next_out(5000);
  ASSERT_TRUE(o) << "the request was never answered";
  EXPECT_EQ(o->msg.op, Op::DataE) << o->msg.str();
  ASSERT_TRUE(h->run_until([&] { return h->commands().size() == kCmds; }, 5000));
  unsigned before = 0;  // the commands taken before the request's answer
  for (const auto& c : h->commands()) before += c.taken < o->cycle;
  std::printf("[ dram     ] a request behind %u commands on its frame: answered after %u of them\n",
              kCmds, before);
  EXPECT_LE(before, 3u) << "the commands starved the request";
}

// An engine's policy is part of the directory word: it goes to the DRAM with the line and
// comes back with it. A parked request's TRIGGER names the DRAM line, and RESUME answers it.
TEST_F(HomeDram, APolicySurvivesTheLineLeavingItsFrame) {
  const unsigned a = dram_line(3, 0), b = dram_line(3, 1);
  set_policy(a, Policy::Park);
  acquire(kA1, b);  // a leaves its frame
  h->send(req(Op::RdX, kA2, a, 4));
  expect_trigger(a, Op::RdX, kA2);
  command(Cmd::Resume, a, static_cast<unsigned>(Grant::E));
  expect(Op::DataE, kA2, a);
  EXPECT_GE(h->dram_count(2), 1u) << "a was not written back with its policy";
}

// A DRAM line whose fill's read answers an error reads as a DENY line: its requests are
// answered Error and counted; the other lines are not affected.
TEST_F(HomeDram, ALineWhoseReadFailsIsAnsweredError) {
  const unsigned a = dram_line(0, 0), b = dram_line(0, 1);
  acquire(kA1, a);
  h->send(wb(kA1, a, pattern(2), 1));
  expect(Op::WbAck, kA1, a);
  acquire(kA1, b);  // a in the DRAM
  h->dram_fail_next_read();
  h->send(req(Op::RdS, kA2, a, 2));
  expect(Op::Error, kA2, a);
  EXPECT_EQ(h->count(Counter::Denied), 1u);
  EXPECT_EQ(h->dram_count(3), 1u);
  EXPECT_EQ(h->dram_count(4), 1u);
  h->send(req(Op::RdS, kA2, dram_line(1, 0), 3));
  expect(Op::DataE, kA2, dram_line(1, 0));
  EXPECT_FALSE(h->dram_error());  // (a failed read; only a failed write-back is sticky)
}

}  // namespace
}  // namespace cni::tb::home::test
