// SPDX-License-Identifier: Apache-2.0
// The home agent's engine side (docs/protocol.md, "Delayed responses and policies";
// docs/endpoint.md, "Events and commands"): every policy, every command with and without a
// parked request, RECALLs that must wait, the park timer, and the events' fields.
#include <algorithm>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "home_fixture.hpp"

namespace cni::tb::home::test {
namespace {

// ---- policies ----------------------------------------------------------------------------------

using HomePolicy = HomeTest;

TEST_F(HomePolicy, AllowFollowsTheStateTables) {
  set_policy(5, Policy::Park);
  set_policy(5, Policy::Allow);
  h->send(req(Op::RdS, kA1, 5));
  expect(Op::DataE, kA1, 5);
  h->send(req(Op::RdS, kA2, 5));
  const Msg f = expect(Op::FwdDown, kA1, 5);
  answer(f, false);
  expect(Op::DataS, kA2, 5);
  EXPECT_EQ(h->count(Counter::Parked) + h->count(Counter::Denied), 0u);
}

// SHARED: an RdS is granted DataS even in a return-in-Exclusive region (and of an owned line
// after the owner's downgrade); RdX and Upg park with a TRIGGER naming the request.
TEST_F(HomePolicy, SharedGrantsReadsSharedAndParksWrites) {
  set_policy(6, Policy::Shared);
  h->send(req(Op::RdS, kA1, 6));
  expect(Op::DataS, kA1, 6);
  h->send(req(Op::RdS, kA2, 6));
  expect(Op::DataS, kA2, 6);
  h->send(req(Op::Upg, kA1, 6, 0x41));
  expect_trigger(6, Op::Upg, kA1);
  expect_quiet();
  command(Cmd::Nack, 6, static_cast<unsigned>(NackAnswer::Retry));
  EXPECT_EQ(expect(Op::Retry, kA1, 6).tag, 0x41);
  h->send(req(Op::RdX, kA3, 6, 0x42));
  expect_trigger(6, Op::RdX, kA3);
  command(Cmd::Nack, 6, static_cast<unsigned>(NackAnswer::Retry));
  EXPECT_EQ(expect(Op::Retry, kA3, 6).tag, 0x42);
  EXPECT_EQ(h->count(Counter::Parked), 2u);
  EXPECT_EQ(probe(6), (Dir{'S', {kA1, kA2}}));

  acquire(kA1, 7);
  set_policy(7, Policy::Shared);
  h->send(req(Op::RdS, kA2, 7));
  answer(expect(Op::FwdDown, kA1, 7), true, pattern(7));
  EXPECT_EQ(expect(Op::DataS, kA2, 7).data, pattern(7));
}

TEST_F(HomePolicy, ParkParksEveryRequestWithATrigger) {
  share({kA3}, 10);
  const std::vector<std::pair<Op, uint8_t>> reqs = {{Op::RdS, kA1}, {Op::RdX, kA2}, {Op::Upg, kA3}};
  for (unsigned i = 0; i < reqs.size(); ++i) {
    command(Cmd::Arm, 8 + i);
    h->send(req(reqs[i].first, reqs[i].second, 8 + i));
    expect_trigger(8 + i, reqs[i].first, reqs[i].second);
  }
  expect_quiet();
  EXPECT_EQ(h->count(Counter::Parked), 3u);
  for (unsigned i = 0; i < reqs.size(); ++i) {
    command(Cmd::Nack, 8 + i, static_cast<unsigned>(NackAnswer::Retry));
    expect(Op::Retry, reqs[i].second, 8 + i);
  }
}

TEST_F(HomePolicy, DenyAnswersErrorCountsItAndChangesNothing) {
  share({kA3}, 12);
  set_policy(12, Policy::Deny);
  for (Op op : {Op::RdS, Op::RdX, Op::Upg}) {
    h->send(req(op, kA1, 12, 0x50));
    EXPECT_EQ(expect(Op::Error, kA1, 12).tag, 0x50);
  }
  h->send(req(Op::Upg, kA3, 12));
  expect(Op::Error, kA3, 12);
  expect_quiet();
  EXPECT_EQ(h->count(Counter::Denied), 4u);
  EXPECT_EQ(h->count(Counter::ErrProto) + h->count(Counter::ErrOpcode), 0u);
  EXPECT_EQ(probe(12), (Dir{'S', {kA3}}));
}

// ---- commands: ARM, DISARM, POLICY, RELEASE ----------------------------------------------------

using HomeCommand = HomeTest;

TEST_F(HomeCommand, DisarmAllowsButLeavesTheParkedRequestParked) {
  command(Cmd::Arm, 4);
  h->send(req(Op::RdS, kA1, 4));
  expect_trigger(4, Op::RdS, kA1);
  command(Cmd::Disarm, 4);
  expect_quiet();
  h->send(req(Op::RdS, kA2, 4));  // the PARK entry still holds the line
  expect(Op::Retry, kA2, 4);
  command(Cmd::Nack, 4, static_cast<unsigned>(NackAnswer::Retry));
  expect(Op::Retry, kA1, 4);
  h->send(req(Op::RdS, kA1, 4));
  expect(Op::DataE, kA1, 4);
}

// RELEASE answers the parked request from memory (DataE, DataS to an RdS outside a
// return-in-Exclusive region; an Upg gets data too) and leaves the line ALLOW.
TEST_F(HomeCommand, ReleaseAnswersTheParkedRequestFromMemoryAndAllows) {
  struct Case {
    Op op;
    bool ret_excl;
    Op grant;
  };
  const std::vector<Case> cases = {{Op::RdS, true, Op::DataE},
                                   {Op::RdS, false, Op::DataS},
                                   {Op::RdX, false, Op::DataE},
                                   {Op::Upg, false, Op::DataE}};
  for (unsigned i = 0; i < cases.size(); ++i) {
    const unsigned l = 20 + i;
    if (cases[i].op == Op::Upg) share({kA1}, l);
    h->mem(l) = pattern(l);
    h->set_ret_excl(cases[i].ret_excl ? all_regions() : 0);
    command(Cmd::Arm, l);
    h->send(req(cases[i].op, kA1, l, uint8_t(i)));
    expect_trigger(l, cases[i].op, kA1);
    command(Cmd::Release, l);
    const Msg d = expect(cases[i].grant, kA1, l);
    EXPECT_EQ(d.tag, i);
    EXPECT_EQ(d.data, pattern(l));
    h->send(req(Op::RdX, kA1, l));  // ALLOW now: granted again as the holder
    expect(Op::DataE, kA1, l);
  }
  EXPECT_EQ(h->count(Counter::Released), cases.size());
}

TEST_F(HomeCommand, ReleaseWithNothingParkedOnlyAllows) {
  command(Cmd::Arm, 4);
  command(Cmd::Release, 4);
  expect_quiet();
  h->send(req(Op::RdS, kA1, 4));
  expect(Op::DataE, kA1, 4);
  EXPECT_EQ(h->count(Counter::Released), 0u);
}

// A parked request is answered as if it arrived now: holders the directory still names are
// snooped first (FwdDown for a shared grant, FwdInv for an exclusive one).
TEST_F(HomeCommand, ReleaseSnoopsHoldersTheDirectoryStillNames) {
  acquire(kA2, 5);
  command(Cmd::Arm, 5);
  h->set_ret_excl(0);
  h->send(req(Op::RdS, kA1, 5, 0x15));
  expect_trigger(5, Op::RdS, kA1);
  command(Cmd::Release, 5);
  answer(expect(Op::FwdDown, kA2, 5), true, pattern(5));
  const Msg d = expect(Op::DataS, kA1, 5);
  EXPECT_EQ(d.tag, 0x15);
  EXPECT_EQ(d.data, pattern(5));
  h->set_ret_excl(all_regions());
  EXPECT_EQ(probe(5), (Dir{'S', {kA1, kA2}}));

  share({kA2, kA3}, 6);
  command(Cmd::Arm, 6);
  h->send(req(Op::RdX, kA1, 6));
  expect_trigger(6, Op::RdX, kA1);
  command(Cmd::Release, 6);
  const Msg f2 = expect(Op::FwdInv, kA2, 6);
  const Msg f3 = expect(Op::FwdInv, kA3, 6);
  answer(f2, false);
  expect_quiet(10);
  answer(f3, false);
  expect(Op::DataE, kA1, 6);
  EXPECT_EQ(probe(6), (Dir{'X', {kA1}}));
}

// An RdS released into S with other sharers needs no snoop.
TEST_F(HomeCommand, ReleaseOfASharedGrantBesideSharersSnoopsNoOne) {
  share({kA2, kA3}, 7);
  command(Cmd::Arm, 7);
  h->set_ret_excl(0);
  h->send(req(Op::RdS, kA1, 7));
  expect_trigger(7, Op::RdS, kA1);
  command(Cmd::Release, 7);
  expect(Op::DataS, kA1, 7);
  h->set_ret_excl(all_regions());
  EXPECT_EQ(probe(7), (Dir{'S', {kA1, kA2, kA3}}));
}

// ---- RESUME and NACK ---------------------------------------------------------------------------

struct ResumeRow {
  Op op;
  Grant grant;
  bool ret_excl;
  Op answer;
};

std::vector<ResumeRow> resume_rows() {
  std::vector<ResumeRow> rows;
  for (Op op : {Op::RdS, Op::RdX, Op::Upg}) {
    for (Grant g : {Grant::Auto, Grant::S, Grant::E}) {
      for (bool re : {true, false}) {
        const bool shared = op == Op::RdS && (g == Grant::S || (g == Grant::Auto && !re));
        rows.push_back({op, g, re, shared ? Op::DataS : Op::DataE});
      }
    }
  }
  return rows;
}

const char* grant_name(Grant g) { return g == Grant::Auto ? "Auto" : g == Grant::S ? "S" : "E"; }

void PrintTo(const ResumeRow& r, std::ostream* os) {
  *os << "RESUME " << grant_name(r.grant) << " of " << proto::op_name(r.op)
      << (r.ret_excl ? ", return-in-Exclusive" : ", return-Shared");
}

class HomeResume : public HomeTest, public testing::WithParamInterface<ResumeRow> {};

// RESUME answers with its grant (AUTO: as RELEASE; S: DataS to an RdS, DataE otherwise; E:
// DataE) from memory, and the policy stays: the next request parks again.
TEST_P(HomeResume, AnswersWithItsGrantAndKeepsThePolicy) {
  const ResumeRow r = GetParam();
  const unsigned l = 24;
  if (r.op == Op::Upg) share({kA1}, l);
  h->mem(l) = pattern(l);
  h->set_ret_excl(r.ret_excl ? all_regions() : 0);
  command(Cmd::Arm, l);
  h->send(req(r.op, kA1, l, 0x24));
  expect_trigger(l, r.op, kA1);
  command(Cmd::Resume, l, static_cast<unsigned>(r.grant));
  const Msg d = expect(r.answer, kA1, l);
  EXPECT_EQ(d.tag, 0x24);
  EXPECT_EQ(d.data, pattern(l));
  EXPECT_EQ(h->count(Counter::Released), 1u);
  h->send(req(Op::RdS, kA2, l));
  expect_trigger(l, Op::RdS, kA2);
  command(Cmd::Nack, l, static_cast<unsigned>(NackAnswer::Retry));
  expect(Op::Retry, kA2, l);
  h->set_ret_excl(all_regions());
  EXPECT_EQ(probe(l), (Dir{r.answer == Op::DataS ? 'S' : 'X', {kA1}}));
}

INSTANTIATE_TEST_SUITE_P(Grants, HomeResume, testing::ValuesIn(resume_rows()), [](const auto& i) {
  return std::string(proto::op_name(i.param.op)) + "_" + grant_name(i.param.grant) +
         (i.param.ret_excl ? "_RetExcl" : "_RetShared");
});

// NACK answers the parked request Retry or Error and frees its entry (the next request parks
// at once, no Retry for a busy line); the policy stays.
TEST_F(HomeCommand, NackAnswersRetryOrErrorAndFreesTheEntry) {
  command(Cmd::Arm, 9);
  for (NackAnswer a : {NackAnswer::Retry, NackAnswer::Error}) {
    h->send(req(Op::RdX, kA1, 9, 0x60));
    expect_trigger(9, Op::RdX, kA1);
    command(Cmd::Nack, 9, static_cast<unsigned>(a));
    EXPECT_EQ(expect(a == NackAnswer::Retry ? Op::Retry : Op::Error, kA1, 9).tag, 0x60);
  }
  h->send(req(Op::RdS, kA2, 9));
  expect_trigger(9, Op::RdS, kA2);
  command(Cmd::Release, 9);
  expect(Op::DataE, kA2, 9);
  EXPECT_EQ(h->count(Counter::RetryBusy), 0u);
  EXPECT_EQ(h->count(Counter::Released), 1u);
}

// RESUME and NACK with nothing parked answer nothing and change nothing.
TEST_F(HomeCommand, ResumeAndNackWithNothingParkedDoNothing) {
  command(Cmd::Arm, 9);
  command(Cmd::Resume, 9, static_cast<unsigned>(Grant::E));
  command(Cmd::Nack, 9, static_cast<unsigned>(NackAnswer::Error));
  command(Cmd::Resume, 10, static_cast<unsigned>(Grant::Auto));
  expect_quiet();
  h->send(req(Op::RdS, kA1, 9));
  expect_trigger(9, Op::RdS, kA1);  // still PARK
  h->send(req(Op::RdS, kA1, 10));
  expect(Op::DataE, kA1, 10);  // still ALLOW
  command(Cmd::Release, 9);
  expect(Op::DataE, kA1, 9);
  EXPECT_EQ(h->count(Counter::Released), 1u);
}

// ---- RECALL and RECALL_DN ----------------------------------------------------------------------
using HomeRecall = HomeTest;

TEST_F(HomeRecall, OfALineNoOneHoldsIsDoneAtOnce) {
  command(Cmd::Recall, 3);
  expect_event(Evt::RecallDone, 3);
  command(Cmd::RecallDn, 3);
  expect_event(Evt::RecallDone, 3);
  expect_quiet();
  EXPECT_EQ(h->count(Counter::Recall), 2u);
  EXPECT_EQ(h->count(Counter::Snoop), 0u);
}

TEST_F(HomeRecall, InvalidatesEverySharerThenIsDone) {
  share({kA1, kA2, kA3}, 4);
  command(Cmd::Recall, 4);
  std::vector<Msg> fwds;
  for (uint8_t a : {kA1, kA2, kA3}) fwds.push_back(expect(Op::FwdInv, a, 4));
  for (const Msg& f : fwds) {
    expect_quiet(5);  // no RECALL_DONE before the last answer
    answer(f, false);
  }
  expect_event(Evt::RecallDone, 4);
  EXPECT_EQ(probe(4), (Dir{'I', {}}));
}

TEST_F(HomeRecall, CollectsTheOwnersDirtyDataIntoMemory) {
  acquire(kA1, 5);
  command(Cmd::Recall, 5);
  answer(expect(Op::FwdInv, kA1, 5), true, pattern(5));
  expect_event(Evt::RecallDone, 5);
  EXPECT_EQ(h->mem(5), pattern(5)) << "memory is current when RECALL_DONE is taken";
  EXPECT_EQ(probe(5), (Dir{'I', {}}));
}

// The owner's write-back races the RECALL's snoop, in either order: absorbed (WbAck), the data
// lands in memory, RECALL_DONE once both the answer and the write-back are in.
TEST_F(HomeRecall, AbsorbsAWritebackRacingItsSnoop) {
  for (bool wb_first : {false, true}) {
    const unsigned l = 6 + wb_first;
    acquire(kA1, l);
    command(Cmd::Recall, l);
    const Msg f = expect(Op::FwdInv, kA1, l);
    if (!wb_first) {
      answer(f, false, {}, proto::kFlagWbPending);
      expect_quiet();
    }
    h->send(wb(kA1, l, pattern(l), 0x70));
    EXPECT_EQ(expect(Op::WbAck, kA1, l).tag, 0x70);
    if (wb_first) {
      expect_quiet();
      answer(f, false, {}, proto::kFlagWbPending);
    }
    expect_event(Evt::RecallDone, l);
    EXPECT_EQ(h->mem(l), pattern(l));
  }
  EXPECT_EQ(h->count(Counter::ErrProto), 0u);
}

// A RECALL deferred behind its line's open transaction does not get its turn back when the
// snoop answer is taken: the write-back that closes the transaction (the answer said WBP) is
// taken as soon as it is without the RECALL (before, the RECALL was taken and deferred again
// first: the WbAck came 2 cycles later, 8 pipelined).
TEST_F(HomeRecall, ADeferredRecallLetsTheWritebackItWaitsForGoFirst) {
  // cycles from the snoop answer and the write-back being sent to the write-back's WbAck
  auto wb_wait = [&](unsigned l, bool recall) -> uint64_t {
    acquire(kA1, l);
    h->send(req(Op::RdS, kA2, l, 0x30));
    const Msg f = expect(Op::FwdDown, kA1, l);
    if (recall) {
      h->command(Cmd::Recall, l);
      h->run(10);
      EXPECT_EQ(h->cmds_queued(), 1u) << "the RECALL waits for the line's transaction";
    }
    const uint64_t sent = h->cycle();
    answer(f, false, {}, proto::kFlagWbPending);
    h->send(wb(kA1, l, pattern(l), 0x71));
    // the write-back's WbAck and the requester's grant, with the written-back data
    uint64_t acked = 0;
    bool grant = false;
    for (int k = 0; k < 2; ++k) {
      const auto o = next_out();
      if (!o) break;
      if (o->msg.op == Op::WbAck && o->msg.dst == kA1 && o->msg.tag == 0x71) acked = o->cycle;
      grant |= o->msg.dst == kA2 && (o->msg.op == Op::DataS || o->msg.op == Op::DataE) &&
               o->msg.data == pattern(l);
    }
    EXPECT_TRUE(acked != 0 && grant);
    if (recall) {
      // the RECALL goes on: it invalidates every copy the directory names, then is done
      while (h->run_until([&] { return !h->out().empty() || !h->events().empty(); }, 200) &&
             !h->out().empty()) {
        answer(expect(Op::FwdInv, h->out().front().msg.dst, l), false);
      }
      expect_event(Evt::RecallDone, l);
    }
    return acked - sent;
  };
  const uint64_t alone = wb_wait(2, false), behind = wb_wait(3, true);
  // Pipelined, the deferred RECALL is taken again while nothing else waits, and one such pass
  // on the line can be in the pipeline when the answer arrives: at most 2 cycles (it was 8).
  EXPECT_LE(behind, alone + (geo().pipelined ? 2 : 0)) << "cycles to the write-back's WbAck";
  RecordProperty("wback_cycles", std::to_string(behind));
  EXPECT_EQ(h->count(Counter::ErrProto), 0u);
}

TEST_F(HomeRecall, DowngradeOnlyOfASharedLineIsDoneAtOnceAndKeepsTheSharers) {
  share({kA1, kA2}, 8);
  command(Cmd::RecallDn, 8);
  expect_event(Evt::RecallDone, 8);
  expect_quiet();
  EXPECT_EQ(probe(8), (Dir{'S', {kA1, kA2}}));
}

// RECALL_DN of an owned line: FwdDown, the dirty data into memory, the owner keeps S.
TEST_F(HomeRecall, DowngradeOnlyOfAnOwnedLinePullsItsDataAndLeavesTheOwnerShared) {
  acquire(kA1, 9);
  command(Cmd::RecallDn, 9);
  answer(expect(Op::FwdDown, kA1, 9), true, pattern(9));
  expect_event(Evt::RecallDone, 9);
  EXPECT_EQ(h->mem(9), pattern(9));
  h->send(req(Op::RdS, kA2, 9));  // S{1}: a reader joins without a snoop
  EXPECT_EQ(expect(Op::DataS, kA2, 9).data, pattern(9));
  EXPECT_EQ(probe(9), (Dir{'S', {kA1, kA2}}));
}

// A RECALL of a busy line waits at the engine's port (the home serves everything else
// meanwhile) and is taken when the line's transaction is over.
TEST_F(HomeRecall, OfABusyLineWaitsUntilTheLineIsFree) {
  acquire(kA1, 10);
  h->send(req(Op::RdX, kA2, 10));
  const Msg f = expect(Op::FwdInv, kA1, 10);
  h->command(Cmd::Recall, 10);
  h->run(30);
  EXPECT_EQ(h->cmds_queued(), 1u) << "the RECALL was taken while its line was busy";
  h->send(req(Op::RdS, kA3, 11));
  expect(Op::DataE, kA3, 11);
  answer(f, false);
  expect(Op::DataE, kA2, 10);
  answer(expect(Op::FwdInv, kA2, 10), false);
  expect_event(Evt::RecallDone, 10);
  EXPECT_EQ(h->cmds_queued(), 0u);
}

// A RECALL or RECALL_DN of a line with a parked request answers that request Retry, frees its
// entry and then proceeds (docs/endpoint.md; the engine's owed RESUME no longer blocks it): the
// holder is snooped, RECALL_DONE follows, and the re-issued request parks again (the policy
// stays).
TEST_F(HomeRecall, OfALineWithAParkedRequestRetriesItAndProceeds) {
  for (Cmd c : {Cmd::Recall, Cmd::RecallDn}) {
    const unsigned l = c == Cmd::Recall ? 12 : 13;
    acquire(kA2, l);
    set_policy(l, Policy::Shared);
    h->send(req(Op::RdX, kA1, l, 0x41));
    expect_trigger(l, Op::RdX, kA1);
    const uint64_t recalls = h->count(Counter::Recall);
    command(c, l);
    EXPECT_EQ(expect(Op::Retry, kA1, l).tag, 0x41);
    answer(expect(c == Cmd::Recall ? Op::FwdInv : Op::FwdDown, kA2, l), true, pattern(l));
    expect_event(Evt::RecallDone, l);
    EXPECT_EQ(h->count(Counter::Recall), recalls + 1) << "the recall is counted once";
    EXPECT_EQ(h->mem(l), pattern(l));
    EXPECT_EQ(probe(l), c == Cmd::Recall ? (Dir{'I', {}}) : (Dir{'S', {kA2}}));
    h->send(req(Op::RdX, kA1, l, 0x42));
    expect_trigger(l, Op::RdX, kA1);
    command(Cmd::Nack, l, static_cast<unsigned>(NackAnswer::Retry));
    EXPECT_EQ(expect(Op::Retry, kA1, l).tag, 0x42);
  }
  EXPECT_EQ(h->count(Counter::ErrProto), 0u);
}

// The locked write (docs/protocol.md, "Delayed responses and policies"; docs/cni.md, section 2):
// a RECALL's entry lives until the engine takes its RECALL_DONE, and every host request to the
// line meanwhile is answered Retry, so an engine that holds the event writes the line through
// port B with no host holding it or fetching it.
TEST_F(HomeRecall, ALineStaysRetriedUntilTheEngineTakesItsRecallDone) {
  share({kA1}, 14);
  h->set_evt_ready(false);
  command(Cmd::Recall, 14);
  answer(expect(Op::FwdInv, kA1, 14), false);
  h->run(20);
  EXPECT_TRUE(h->events().empty()) << "the engine holds RECALL_DONE";
  for (uint8_t t = 0x50; t < 0x53; ++t) {
    h->send(req(Op::RdS, kA2, 14, t));
    EXPECT_EQ(expect(Op::Retry, kA2, 14).tag, t);
    h->send(req(Op::RdX, kA1, 14, t));
    EXPECT_EQ(expect(Op::Retry, kA1, 14).tag, t);
  }
  h->set_evt_ready(true);
  expect_event(Evt::RecallDone, 14);
  h->send(req(Op::RdS, kA2, 14, 0x60));
  EXPECT_EQ(expect(Op::DataE, kA2, 14).tag, 0x60);
}

// With every entry taken (hosts' transactions, and RECALLs whose RECALL_DONE the engine has not
// taken), a RECALL waits; the entries the engine frees by taking its events let it in.
TEST_F(HomeRecall, WaitsForAFreeEntryWhenTheTableIsFull) {
  const unsigned usable = geo().tt_entries - geo().tt_reserve;
  std::vector<Msg> fwds;
  for (unsigned i = 0; i < usable; ++i) {
    acquire(kA1, i);
    h->send(req(Op::RdX, kA2, i));
    fwds.push_back(expect(Op::FwdInv, kA1, i));
  }
  h->set_evt_ready(false);
  for (unsigned i = 0; i < geo().tt_reserve; ++i) command(Cmd::Recall, usable + i);
  const unsigned last = usable + geo().tt_reserve;
  h->command(Cmd::Recall, last);
  h->run(40);
  EXPECT_EQ(h->cmds_queued(), 1u) << "a RECALL was taken with no entry free";
  h->send(req(Op::RdS, kA3, last + 1));  // needs no entry
  expect(Op::DataE, kA3, last + 1);
  h->set_evt_ready(true);
  std::vector<unsigned> done;
  while (done.size() <= geo().tt_reserve) {
    auto e = next_event();
    ASSERT_TRUE(e && e->kind == Evt::RecallDone);
    done.push_back(e->line);
  }
  std::sort(done.begin(), done.end());
  for (unsigned i = 0; i <= geo().tt_reserve; ++i) EXPECT_EQ(done[i], usable + i);
  for (const Msg& f : fwds) {
    answer(f, false);
    expect_at(Op::DataE, kA2, f.addr);
  }
}

// ---- park timer --------------------------------------------------------------------------------
using HomeParkTimer = HomeTest;

// Rule 7: a parked request is answered Retry when its timer reaches PARK_TIMEOUT and its entry
// is freed; the policy stays, so the re-issued request parks again with a new TRIGGER.
TEST_F(HomeParkTimer, TimeoutAnswersRetryAndTheReissuedRequestParksAgain) {
  const uint32_t timeout = 40;
  h->set_park_timeout(timeout);
  command(Cmd::Arm, 12);
  h->send(req(Op::RdS, kA1, 12, 0x12));
  const EvtRec t = expect_trigger(12, Op::RdS, kA1);
  auto r = next_out(2 * timeout + 50);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->msg.op, Op::Retry);
  EXPECT_EQ(r->msg.dst, kA1);
  EXPECT_EQ(r->msg.tag, 0x12);
  EXPECT_EQ(r->msg.addr, line(12));
  const uint64_t waited = r->cycle - t.cycle;
  RecordProperty("timeout_retry_cycles", std::to_string(waited));
  EXPECT_GE(waited, timeout);
  EXPECT_LE(waited, timeout + 4 + apply_delay());
  EXPECT_EQ(h->count(Counter::RetryTimeout), 1u);
  h->send(req(Op::RdS, kA1, 12, 0x13));
  expect_trigger(12, Op::RdS, kA1);
  command(Cmd::Release, 12);
  EXPECT_EQ(expect(Op::DataE, kA1, 12).tag, 0x13);
  EXPECT_EQ(h->count(Counter::RetryTimeout), 1u);
  EXPECT_EQ(h->count(Counter::Parked), 2u);
}

// A command that answers the parked request, issued in each cycle around the one its timer
// expires in: the request is answered exactly once (the command's answer or Retry), a stale
// timeout does nothing (also when the RELEASE has turned the entry into a snoop of a holder the
// directory names), and the line parks the next request again.
TEST_F(HomeParkTimer, AnswerRacingTheTimeoutAnswersTheRequestOnce) {
  const uint32_t timeout = 12;
  h->set_park_timeout(timeout);
  struct Racer {
    Cmd cmd;
    unsigned arg;
    Op answer;
    bool holder;  // agent 2 owns the line: the answer waits for its invalidation
  };
  const std::vector<Racer> racers = {
      {Cmd::Resume, static_cast<unsigned>(Grant::E), Op::DataE, false},
      {Cmd::Nack, static_cast<unsigned>(NackAnswer::Error), Op::Error, false},
      {Cmd::Release, 0, Op::DataE, false},
      {Cmd::Release, 0, Op::DataE, true}};
  const unsigned l = 12;
  for (const Racer& r : racers) {
    const unsigned sweep = timeout + 2 * apply_delay() + 6;
    unsigned timeouts = 0;
    for (unsigned d = 0; d < sweep; ++d) {
      if (r.holder) {
        probe(l);
        acquire(kA2, l);
      }
      command(Cmd::Arm, l);
      const uint64_t tmo = h->count(Counter::RetryTimeout);
      h->send(req(Op::RdS, kA1, l, uint8_t(d)));
      expect_trigger(l, Op::RdS, kA1);
      h->run(d);
      h->command(r.cmd, l, r.arg);
      auto a = next_out();
      ASSERT_TRUE(a) << cmd_name(r.cmd) << " " << d << " cycles after the TRIGGER";
      if (r.holder && a->msg.op == Op::FwdInv) {  // (an exclusive grant)
        EXPECT_EQ(a->msg.dst, kA2);
        answer(a->msg, false);
        a = next_out();
        ASSERT_TRUE(a);
      }
      EXPECT_EQ(a->msg.tag, d);
      const bool timed_out = h->count(Counter::RetryTimeout) > tmo;
      timeouts += timed_out;
      EXPECT_EQ(a->msg.op, timed_out ? Op::Retry : r.answer)
          << cmd_name(r.cmd) << " " << d << " cycles after the TRIGGER";
      expect_quiet(timeout + 20);
      EXPECT_EQ(h->cmds_queued(), 0u);
    }
    EXPECT_GT(timeouts, 0u) << "the sweep never reached the timeout";
    EXPECT_LT(timeouts, sweep - 3) << "the sweep started too late";
  }
}

// ---- events ------------------------------------------------------------------------------------
using HomeEvents = HomeTest;

TEST_F(HomeEvents, CarryKindLineOpcodeAndRequester) {
  share({kA3}, 13);
  command(Cmd::Arm, 30);
  command(Cmd::Arm, 31);
  command(Cmd::Arm, 13);
  h->set_evt_ready(false);
  h->send(req(Op::RdS, kA1, 30));
  h->send(req(Op::RdX, kA2, 31));
  h->send(req(Op::Upg, kA3, 13));
  h->run(20);
  h->command(Cmd::Recall, 35);
  h->run(20);
  h->set_evt_ready(true);
  h->run(20);
  ASSERT_EQ(h->events().size(), 4u);
  std::vector<EvtRec> got(h->events().begin(), h->events().end());
  h->events().clear();
  std::sort(got.begin(), got.end(),
            [](const EvtRec& a, const EvtRec& b) { return a.line < b.line; });
  const auto check = [](const EvtRec& e, Evt kind, unsigned l, Op op, uint8_t src) {
    EXPECT_EQ(e.kind, kind);
    EXPECT_EQ(e.line, l);
    if (kind == Evt::Trigger) {
      EXPECT_EQ(e.op, op) << proto::op_name(e.op);
      EXPECT_EQ(e.src, src);
    }
  };
  check(got[0], Evt::Trigger, 13, Op::Upg, kA3);
  check(got[1], Evt::Trigger, 30, Op::RdS, kA1);
  check(got[2], Evt::Trigger, 31, Op::RdX, kA2);
  check(got[3], Evt::RecallDone, 35, Op::RdS, 0);
  for (unsigned l : {13u, 30u, 31u})
    command(Cmd::Nack, l, static_cast<unsigned>(NackAnswer::Retry));
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(next_out());
}

}  // namespace
}  // namespace cni::tb::home::test
