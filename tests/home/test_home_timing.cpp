// SPDX-License-Identifier: Apache-2.0
// The home agent's timing (docs/endpoint.md, "Stages"): the latency of an uncontended request,
// one message per cycle for each message type on distinct lines, commands one at a time, the
// memory port's bubble between a write and a read; rule 8 (a snoop never leaves while earlier
// answers are still buffered) and answers in the order their messages were taken; an engine
// that stalls its events never stalls the home.
#include <algorithm>
#include <string>
#include <vector>

#include "home_fixture.hpp"

namespace cni::tb::home::test {
namespace {

class HomeTiming : public HomeTest {
 protected:
  // Cycles a message spends in the home, counting the cycle it is taken in and the cycle its
  // answer is taken: the stages, 2, or 7 pipelined.
  static unsigned depth() { return apply_delay() + 1; }

  // Queues `msgs` at once: they must be taken one per cycle and answered `op` one per cycle.
  void expect_one_per_cycle(const std::vector<Msg>& msgs, Op op, const char* what) {
    const size_t first = h->taken().size(), n = msgs.size();
    for (const Msg& m : msgs) h->send(m);
    std::vector<uint64_t> at;
    while (at.size() < n) {
      auto o = next_out();
      if (!o) break;
      if (o->msg.op == op) at.push_back(o->cycle);
    }
    ASSERT_EQ(at.size(), n) << what;
    ASSERT_GE(h->taken().size(), first + n) << what;
    EXPECT_EQ(h->taken()[first + n - 1].taken - h->taken()[first].taken, n - 1) << what;
    EXPECT_EQ(at.back() - at.front(), n - 1) << what;
    RecordProperty(std::string(what) + "_cycles", std::to_string(at.back() - at.front() + 1));
  }
  // Requests `op` on lines [0, 32) no one holds, from agents 1..3 in turn: granted DataE.
  void expect_request_stream(Op op, const char* what) {
    std::vector<Msg> msgs;
    for (unsigned l = 0; l < 32; ++l) msgs.push_back(req(op, uint8_t(1 + l % 3), l, uint8_t(l)));
    expect_one_per_cycle(msgs, Op::DataE, what);
  }
  // Agent 1 owns lines [0, n) and agent 2 asks for each: returns the n snoops.
  std::vector<Msg> snoops_waiting(unsigned n) {
    std::vector<Msg> fwds;
    for (unsigned l = 0; l < n; ++l) acquire(kA1, l);
    for (unsigned l = 0; l < n; ++l) h->send(req(Op::RdX, kA2, l, uint8_t(l)));
    for (unsigned l = 0; l < n; ++l) fwds.push_back(expect(Op::FwdInv, kA1, l));
    return fwds;
  }
  static unsigned usable() { return geo().tt_entries - geo().tt_reserve; }
};

// Taken in the cycle it is presented, answered in its second cycle (the take, then decide and
// apply), its seventh pipelined (head, take, read, conditions, row, build, apply).
TEST_F(HomeTiming, UncontendedRequestIsAnsweredInTwoCyclesSevenPipelined) {
  acquire(kA3, 9);
  const std::vector<Msg> msgs = {req(Op::RdS, kA1, 5), req(Op::RdX, kA1, 6), wb(kA3, 9, pattern(9)),
                                 req(Op::RdS, kA1, 63)};
  for (const Msg& m : msgs) {
    const size_t n = h->taken().size();
    h->send(m);
    auto o = next_out();
    ASSERT_TRUE(o);
    ASSERT_EQ(h->taken().size(), n + 1);
    const InMsg& in = h->taken().back();
    EXPECT_EQ(in.taken, in.presented) << in.msg.str();
    const uint64_t cycles = o->cycle - in.presented + 1;
    EXPECT_EQ(cycles, depth()) << in.msg.str() << " answered " << o->msg.str();
    RecordProperty(std::string(proto::op_name(m.op)) + "_latency", std::to_string(cycles));
  }
}

// ---- one message per cycle on distinct lines ---------------------------------------------------

TEST_F(HomeTiming, ReadSharedStreamIsAnsweredOneMessagePerCycle) {
  expect_request_stream(Op::RdS, "rds_stream");
}

TEST_F(HomeTiming, ReadExclusiveStreamIsAnsweredOneMessagePerCycle) {
  expect_request_stream(Op::RdX, "rdx_stream");
}

TEST_F(HomeTiming, WritebackStreamIsAcceptedOneMessagePerCycle) {
  const unsigned n = 32;
  for (unsigned l = 0; l < n; ++l) acquire(kA1, l);
  std::vector<Msg> msgs;
  for (unsigned l = 0; l < n; ++l) msgs.push_back(wb(kA1, l, pattern(l), uint8_t(l)));
  expect_one_per_cycle(msgs, Op::WbAck, "wb_stream");
  h->run(2);
  for (unsigned l = 0; l < n; ++l) EXPECT_EQ(h->mem(l), pattern(l)) << "line " << l;
}

TEST_F(HomeTiming, CompletingSnpAckStreamIsTakenOneMessagePerCycle) {
  const std::vector<Msg> fwds = snoops_waiting(usable());
  std::vector<Msg> acks;
  for (const Msg& f : fwds) acks.push_back(h->make(Op::SnpAck, f.dst, f.addr, f.tag));
  expect_one_per_cycle(acks, Op::DataE, "snpack_stream");
}

TEST_F(HomeTiming, CompletingSnpDataStreamIsTakenOneMessagePerCycle) {
  const std::vector<Msg> fwds = snoops_waiting(usable());
  std::vector<Msg> answers;
  for (const Msg& f : fwds) {
    const Line d = pattern(f.tag);
    answers.push_back(h->make(Op::SnpData, f.dst, f.addr, f.tag, &d));
  }
  expect_one_per_cycle(answers, Op::DataE, "snpdata_stream");
  h->run(2);
  for (unsigned l = 0; l < usable(); ++l) EXPECT_EQ(h->mem(l), pattern(l)) << "line " << l;
}

// The memory port: a read is not taken in the cycle its port meets the write of the message being
// applied (one bubble after a write-back, only before a read): alternating write-backs and reads
// run at two messages in three cycles or better (exactly that without Pipelined, where the
// write is applied in the cycle after its take).
TEST_F(HomeTiming, AlternatingWritebacksAndReadsRunAtTwoMessagesInThreeCyclesOrBetter) {
  const unsigned n = 16;
  for (unsigned l = 0; l < n; ++l) acquire(kA1, l);
  std::vector<Msg> msgs;
  for (unsigned l = 0; l < n; ++l) {
    msgs.push_back(wb(kA1, l, pattern(l), uint8_t(l)));
    msgs.push_back(req(Op::RdS, kA2, n + l, uint8_t(n + l)));
  }
  const size_t first = h->taken().size();
  for (const Msg& m : msgs) h->send(m);
  ASSERT_TRUE(h->run_until([&] { return h->taken().size() == first + msgs.size(); }, 500));
  const uint64_t span = h->taken().back().taken - h->taken()[first].taken + 1;
  RecordProperty("wb_rds_mix_cycles", std::to_string(span));
  EXPECT_LE(span, 3 * n);
  if (!geo().pipelined) {
    EXPECT_EQ(span, 3 * n);
  }
  h->run(2 * depth());
  h->out().clear();
}

// Commands are taken one at a time: the next one is taken after the previous is applied.
TEST_F(HomeTiming, CommandsAreTakenOneAtATime) {
  const unsigned n = 8;
  const size_t first = h->commands().size();
  for (unsigned l = 0; l < n; ++l) h->command(Cmd::Arm, l);
  ASSERT_TRUE(h->run_until([&] { return h->commands().size() == first + n; }, 500));
  for (unsigned i = first + 1; i < first + n; ++i) {
    EXPECT_EQ(h->commands()[i].taken - h->commands()[i - 1].taken, depth()) << "command " << i;
  }
  EXPECT_EQ(h->commands()[first].taken - h->commands()[first].presented, depth() - 1);
  RecordProperty("command_interval_cycles", std::to_string(depth()));
}

// ---- order and rule 8 --------------------------------------------------------------------------

// Answers leave in the order their messages were taken, whatever the channel (RSP or DAT) and
// however the outputs stall.
TEST_F(HomeTiming, AnswersLeaveInTheOrderTheirMessagesWereTaken) {
  const unsigned n = 30, deny_line = n, wb_line = n + 1;
  set_policy(deny_line, Policy::Deny);
  h->stall_randomly(Chan::Rsp, 0.5);
  h->stall_randomly(Chan::Dat, 0.5);
  for (unsigned i = 0; i < n; ++i) {
    switch (h->rng()() % 4) {
      case 0:
        h->send(req(Op::RdS, kA1, i, uint8_t(i)));
        break;
      case 1:
        h->send(req(Op::RdX, kA2, i, uint8_t(i)));
        break;
      case 2:
        h->send(req(Op::RdS, kA3, deny_line, uint8_t(i)));
        break;  // Error (DENY)
      default:
        h->send(wb(kA3, wb_line, pattern(i), uint8_t(i)));
        break;  // Error (no owner)
    }
  }
  ASSERT_TRUE(h->run_until([&] { return h->out().size() == n; }, 40 * n));
  uint64_t last = 0;
  unsigned tag = 0;
  for (const OutMsg& o : h->out()) {
    EXPECT_EQ(o.msg.tag, tag) << o.msg.str();
    EXPECT_GT(o.cycle, last) << "two answers applied in one cycle";
    last = o.cycle;
    ++tag;
  }
  h->out().clear();
}

TEST_F(HomeTiming, SnoopNeverLeavesWhileTheHoldIsSet) {
  acquire(kA1, 5);
  h->set_fwd_hold([] { return true; });
  h->send(req(Op::RdX, kA2, 5));
  expect_quiet(60);
  h->set_fwd_hold([] { return false; });
  answer(expect(Op::FwdInv, kA1, 5), false);
  expect(Op::DataE, kA2, 5);
}

// The hold as the endpoint drives it: answers taken into a transmit buffer that needs 6 cycles
// to drain. A grant and, right behind it, a request that snoops its receiver: the snoop leaves
// only after the grant has drained.
TEST_F(HomeTiming, SnoopWaitsUntilEarlierAnswersHaveDrained) {
  const uint64_t drain = 6;
  h->set_fwd_hold([&] {
    for (auto it = h->out().rbegin(); it != h->out().rend(); ++it) {
      if (it->ch != Chan::Fwd) return h->cycle() < it->cycle + drain;
    }
    return false;
  });
  h->send(req(Op::RdX, kA1, 5));
  h->send(req(Op::RdS, kA2, 5));
  ASSERT_TRUE(h->run_until([&] { return h->out().size() == 2; }, 200));
  const OutMsg grant = h->out()[0];
  const OutMsg snoop = h->out()[1];
  EXPECT_EQ(grant.msg.op, Op::DataE);
  EXPECT_EQ(snoop.msg.op, Op::FwdDown);
  EXPECT_EQ(snoop.msg.dst, kA1);
  EXPECT_GE(snoop.cycle, grant.cycle + drain);
  h->out().clear();
  answer(snoop.msg, false);
  expect(Op::DataS, kA2, 5);
}

// Events come out of the table: an engine that takes none for a long time holds nothing up
// (requests stream at one per cycle, commands are taken, a RELEASE answers a request whose
// TRIGGER was never taken), and every event is still there when it looks again.
TEST_F(HomeTiming, EngineStallingEventsNeverStallsTheHome) {
  h->set_evt_ready(false);
  const unsigned parked = 8;
  for (unsigned l = 0; l < parked; ++l) {
    command(Cmd::Arm, l);
    h->send(req(Op::RdS, kA1, l, uint8_t(l)));
  }
  h->command(Cmd::Recall, parked);
  h->run(20);
  EXPECT_EQ(h->cmds_queued(), 0u);
  std::vector<Msg> msgs;
  for (unsigned l = 10; l < 30; ++l) msgs.push_back(req(Op::RdS, kA2, l, uint8_t(l)));
  expect_one_per_cycle(msgs, Op::DataE, "stream_events_stalled");
  command(Cmd::Release, 0);
  EXPECT_EQ(expect(Op::DataE, kA1, 0).tag, 0);
  EXPECT_TRUE(h->events().empty());
  h->set_evt_ready(true);
  std::vector<unsigned> lines;
  while (auto e = next_event(20)) lines.push_back(e->line);
  std::sort(lines.begin(), lines.end());
  std::vector<unsigned> want;
  for (unsigned l = 1; l <= parked; ++l) want.push_back(l);
  EXPECT_EQ(lines, want) << "the TRIGGERs of lines 1..7 and the RECALL_DONE of line 8";
  for (unsigned l = 1; l < parked; ++l) {
    command(Cmd::Nack, l, static_cast<unsigned>(NackAnswer::Retry));
    expect(Op::Retry, kA1, l);
  }
}

}  // namespace
}  // namespace cni::tb::home::test
