// SPDX-License-Identifier: Apache-2.0
// The home agent's request state table (docs/endpoint.md, "State table"), row by row: RdS, RdX
// and Upg from agent 1 on a line in each directory state, with and without
// return-in-Exclusive; write-backs (from the owner, racing a snoop in either order, from a
// non-owner); snoop answers (the last one completes, WBP, stray ones dropped); requests that
// need a table entry when none is left beyond the reserve.
#include <ostream>
#include <set>
#include <string>
#include <vector>

#include "home_fixture.hpp"

namespace cni::tb::home::test {
namespace {

// Directory states of the line before the request from R = agent 1 (others: agents 2 and 3).
enum class Before { I, SOnlyR, SOthers, SRAndOther, XR, XO };
const char* before_name(Before b) {
  static const char* n[] = {"I", "SOnlyR", "SOthers", "SRAndOther", "XR", "XO"};
  return n[static_cast<unsigned>(b)];
}

struct Row {
  Before before;
  Op op;
  bool ret_excl;
};

// What the table says: the snoop and the agents it goes to, the answer, the directory after.
struct Expected {
  Op snoop = Op::FwdInv;
  std::set<uint8_t> snooped;
  Op answer = Op::DataE;
  Dir after;
};

Expected expected(const Row& r) {
  const Dir xr{'X', {kA1}};
  // RdS of a line no one else holds: DataE in a return-in-Exclusive region, else DataS.
  const Expected unshared_rds = r.ret_excl ? Expected{Op::FwdInv, {}, Op::DataE, xr}
                                           : Expected{Op::FwdInv, {}, Op::DataS, {'S', {kA1}}};
  switch (r.before) {
    case Before::I:
    case Before::XR:
      return r.op == Op::RdS ? unshared_rds : Expected{Op::FwdInv, {}, Op::DataE, xr};
    case Before::SOnlyR:
      if (r.op == Op::RdS) return {Op::FwdInv, {}, Op::DataS, {'S', {kA1}}};
      return {Op::FwdInv, {}, r.op == Op::Upg ? Op::UpgAck : Op::DataE, xr};
    case Before::SOthers:
      if (r.op == Op::RdS) return {Op::FwdInv, {}, Op::DataS, {'S', {kA1, kA2, kA3}}};
      return {Op::FwdInv, {kA2, kA3}, Op::DataE, xr};  // an Upg from a non-sharer: as RdX
    case Before::SRAndOther:
      if (r.op == Op::RdS) return {Op::FwdInv, {}, Op::DataS, {'S', {kA1, kA2}}};
      return {Op::FwdInv, {kA2}, r.op == Op::Upg ? Op::UpgAck : Op::DataE, xr};
    case Before::XO:
      if (r.op == Op::RdS) return {Op::FwdDown, {kA2}, Op::DataS, {'S', {kA1, kA2}}};
      return {Op::FwdInv, {kA2}, Op::DataE, xr};
  }
  return {};
}

std::vector<Row> all_rows() {
  std::vector<Row> rows;
  for (Before b :
       {Before::I, Before::SOnlyR, Before::SOthers, Before::SRAndOther, Before::XR, Before::XO}) {
    for (Op op : {Op::RdS, Op::RdX, Op::Upg}) {
      for (bool re : {true, false}) rows.push_back({b, op, re});
    }
  }
  return rows;
}

void PrintTo(const Row& r, std::ostream* os) {
  *os << proto::op_name(r.op) << " on " << before_name(r.before)
      << (r.ret_excl ? ", return-in-Exclusive" : ", return-Shared");
}

std::string row_name(const testing::TestParamInfo<Row>& i) {
  return std::string(before_name(i.param.before)) + "_" + proto::op_name(i.param.op) +
         (i.param.ret_excl ? "_RetExcl" : "_RetShared");
}

class HomeRequestRow : public HomeTest, public testing::WithParamInterface<Row> {
 protected:
  void reach(Before b, unsigned l) {
    switch (b) {
      case Before::I:
        return;
      case Before::SOnlyR:
        return share({kA1}, l);
      case Before::SOthers:
        return share({kA2, kA3}, l);
      case Before::SRAndOther:
        return share({kA1, kA2}, l);
      case Before::XR:
        return acquire(kA1, l);
      case Before::XO:
        return acquire(kA2, l);
    }
  }
};

// The request is answered as the row says; snooped holders answer in turn (a dirty owner with
// its data, which the grant carries and memory keeps); the directory ends as the row says.
TEST_P(HomeRequestRow, IsAnsweredAsTheStateTableSays) {
  const Row r = GetParam();
  const Expected x = expected(r);
  const unsigned l = 5;
  h->mem(l) = pattern(l);
  reach(r.before, l);
  h->set_ret_excl(r.ret_excl ? all_regions() : 0);
  const uint64_t reqs = h->count(Counter::RdS) + h->count(Counter::RdX) + h->count(Counter::Upg);
  h->send(req(r.op, kA1, l, 0x5A));
  std::vector<Msg> fwds;
  for (uint8_t a : x.snooped) {
    fwds.push_back(expect(x.snoop, a, l));
    EXPECT_LT(fwds.back().tag, geo().tt_entries) << "a snoop's tag is its table entry";
  }
  Line data = pattern(l);
  for (const Msg& f : fwds) {
    if (&f != &fwds.back()) {
      answer(f, false);
      expect_quiet(10);  // still waiting for the last answer
    } else if (r.before == Before::XO) {
      data = pattern(99);  // a dirty owner
      answer(f, true, data);
    } else {
      answer(f, false);
    }
  }
  const Msg a = expect(x.answer, kA1, l);
  EXPECT_EQ(a.tag, 0x5A);
  if (proto::carries_data(x.answer)) {
    EXPECT_EQ(a.data, data);
  }
  h->run(2);
  EXPECT_EQ(h->mem(l), data);
  EXPECT_EQ(h->mem_writes().size(), r.before == Before::XO ? 1u : 0u)
      << "only a snoop answer with data writes memory";
  EXPECT_EQ(h->count(Counter::RdS) + h->count(Counter::RdX) + h->count(Counter::Upg), reqs + 1);
  EXPECT_EQ(h->count(Counter::Snoop), x.snooped.size());
  EXPECT_EQ(h->count(Counter::ErrProto), 0u);
  h->set_ret_excl(all_regions());
  EXPECT_EQ(probe(l), x.after);
}

INSTANTIATE_TEST_SUITE_P(Table, HomeRequestRow, testing::ValuesIn(all_rows()), row_name);

// ---- return-in-Exclusive is per region ---------------------------------------------------------

using HomeRegions = HomeTest;

// Each region's RET_EXCL bit decides for exactly its lines (the RegionLines the model is built
// with lays the regions out as cni_amap_pkg::region_lines does).
TEST_F(HomeRegions, ReturnInExclusiveBitAppliesToExactlyItsRegionsLines) {
  for (unsigned r = 0; r < HomeGeometry::kNumRegions; ++r) {
    h->set_ret_excl(1u << r);
    for (unsigned l = 0; l < geo().num_lines(); ++l) {
      h->send(req(Op::RdS, kA1, l));
      if (geo().region_of(l) == r) {
        expect(Op::DataE, kA1, l);
        h->send(wb(kA1, l, pattern(l)));  // back to I
        expect(Op::WbAck, kA1, l);
      } else {
        expect(Op::DataS, kA1, l);
        probe(l);  // back to I
      }
    }
  }
}

// ---- write-backs -------------------------------------------------------------------------------

using HomeWriteback = HomeTest;

TEST_F(HomeWriteback, FromTheOwnerWritesMemoryEmptiesTheLineAndIsAcked) {
  acquire(kA1, 3);
  h->send(wb(kA1, 3, pattern(3), 0x31));
  EXPECT_EQ(expect(Op::WbAck, kA1, 3).tag, 0x31);
  h->run(2);
  EXPECT_EQ(h->mem(3), pattern(3));
  EXPECT_EQ(h->count(Counter::WB), 1u);
  EXPECT_EQ(probe(3), (Dir{'I', {}}));
}

// Rule 6: the snoop's SnpAck with WBP arrives first; the transaction waits for the write-back,
// then WbAck and the grant (with the write-back's data) leave together.
TEST_F(HomeWriteback, RacingASnoopAfterItsPendingAnswerCompletesTheTransaction) {
  acquire(kA1, 4);
  h->send(req(Op::RdX, kA2, 4, 0x22));
  const Msg f = expect(Op::FwdInv, kA1, 4);
  answer(f, false, {}, proto::kFlagWbPending);
  expect_quiet();
  h->send(wb(kA1, 4, pattern(4), 0x11));
  const Msg ack = expect(Op::WbAck, kA1, 4);
  const Msg d = expect(Op::DataE, kA2, 4);
  EXPECT_EQ(ack.tag, 0x11);
  EXPECT_EQ(d.tag, 0x22);
  EXPECT_EQ(d.data, pattern(4));
  h->run(2);
  EXPECT_EQ(h->mem(4), pattern(4));
  EXPECT_EQ(h->count(Counter::ErrProto), 0u);
  EXPECT_EQ(probe(4), (Dir{'X', {kA2}}));
}

// The write-back overtakes the snoop answer: it is absorbed (WbAck) and the later SnpAck, with
// or without WBP, completes the transaction with the data from memory.
TEST_F(HomeWriteback, RacingASnoopBeforeItsAnswerIsAbsorbed) {
  for (uint8_t flags : {uint8_t{proto::kFlagWbPending}, uint8_t{0}}) {
    const unsigned l = 6 + flags;
    acquire(kA1, l);
    h->send(req(Op::RdX, kA2, l));
    const Msg f = expect(Op::FwdInv, kA1, l);
    h->send(wb(kA1, l, pattern(l)));
    expect(Op::WbAck, kA1, l);
    expect_quiet();  // the snoop answer is still owed
    answer(f, false, {}, flags);
    EXPECT_EQ(expect(Op::DataE, kA2, l).data, pattern(l));
    EXPECT_EQ(h->count(Counter::ErrProto), 0u);
  }
}

// A write-back racing a downgrade: the reader gets DataS with the written-back data.
TEST_F(HomeWriteback, RacingADowngradeGivesTheReaderItsData) {
  acquire(kA1, 8);
  h->send(req(Op::RdS, kA2, 8));
  const Msg f = expect(Op::FwdDown, kA1, 8);
  answer(f, false, {}, proto::kFlagWbPending);
  h->send(wb(kA1, 8, pattern(8)));
  expect(Op::WbAck, kA1, 8);
  EXPECT_EQ(expect(Op::DataS, kA2, 8).data, pattern(8));
}

// Rule 4: a write-back from an agent that does not own the line is an Error, counted, and
// changes neither memory nor the directory.
TEST_F(HomeWriteback, FromANonOwnerIsAnErrorAndChangesNothing) {
  h->mem(9) = pattern(9);
  h->send(wb(kA1, 9, pattern(1)));  // line in I
  expect(Op::Error, kA1, 9);
  share({kA1, kA2}, 9);
  h->send(wb(kA1, 9, pattern(1)));  // a sharer
  expect(Op::Error, kA1, 9);
  h->run(2);
  EXPECT_EQ(h->mem(9), pattern(9));
  EXPECT_EQ(probe(9), (Dir{'S', {kA1, kA2}}));
  acquire(kA2, 9);
  h->send(wb(kA1, 9, pattern(1)));  // another agent owns it
  expect(Op::Error, kA1, 9);
  h->run(2);
  EXPECT_EQ(h->mem(9), pattern(9));
  EXPECT_TRUE(h->mem_writes().empty());
  EXPECT_EQ(h->count(Counter::ErrProto), 3u);
  EXPECT_EQ(h->count(Counter::WB), 3u);
  EXPECT_EQ(probe(9), (Dir{'X', {kA2}}));
}

// A write-back to a busy line from an agent the transaction did not snoop is not a race.
TEST_F(HomeWriteback, FromAnAgentTheBusyLineDidNotSnoopIsAnError) {
  acquire(kA1, 10);
  h->send(req(Op::RdX, kA2, 10));
  const Msg f = expect(Op::FwdInv, kA1, 10);
  h->send(wb(kA3, 10, pattern(3)));
  expect(Op::Error, kA3, 10);
  answer(f, true, pattern(10));
  EXPECT_EQ(expect(Op::DataE, kA2, 10).data, pattern(10));
  EXPECT_EQ(h->count(Counter::ErrProto), 1u);
}

// Write-backs always sink: no policy parks or refuses them.
TEST_F(HomeWriteback, IsAcceptedWhateverTheLinesPolicy) {
  for (Policy p : {Policy::Shared, Policy::Park, Policy::Deny}) {
    const unsigned l = 11 + static_cast<unsigned>(p);
    acquire(kA1, l);
    set_policy(l, p);
    h->send(wb(kA1, l, pattern(l)));
    expect(Op::WbAck, kA1, l);
    h->run(2);
    EXPECT_EQ(h->mem(l), pattern(l));
  }
  EXPECT_EQ(h->count(Counter::Parked) + h->count(Counter::Denied), 0u);
}

// ---- snoop answers -----------------------------------------------------------------------------

using HomeSnoopAnswer = HomeTest;

// A SnpData's line goes into memory and to the requester; the line is left as the row says.
TEST_F(HomeSnoopAnswer, WithDataWritesMemoryAndCompletesTheGrant) {
  acquire(kA1, 12);
  h->send(req(Op::RdX, kA2, 12));
  answer(expect(Op::FwdInv, kA1, 12), true, pattern(12));
  EXPECT_EQ(expect(Op::DataE, kA2, 12).data, pattern(12));
  h->run(2);
  EXPECT_EQ(h->mem(12), pattern(12));
}

// Rule 5: answers that match no waiting transaction are dropped and counted, and the
// transaction they did not match still completes normally.
TEST_F(HomeSnoopAnswer, StrayAnswersAreDroppedCountedAndHarmless) {
  share({kA2, kA3}, 14);
  h->send(req(Op::RdX, kA1, 14));
  const Msg f2 = expect(Op::FwdInv, kA2, 14);
  const Msg f3 = expect(Op::FwdInv, kA3, 14);
  ASSERT_EQ(f2.tag, f3.tag);
  const uint8_t e = f2.tag;
  const uint8_t other = static_cast<uint8_t>((e + 1) % geo().tt_entries);
  h->mem(14) = pattern(14);
  std::vector<Msg> strays = {
      h->make(Op::SnpAck, kA2, line(14), other),                      // a free entry
      h->make(Op::SnpAck, kA2, line(14), uint8_t(geo().tt_entries)),  // no such entry
      h->make(Op::SnpAck, kA1, line(14), e),                          // not snooped
      h->make(Op::SnpAck, kA2, line(15), e),                          // another line
  };
  const Line junk = pattern(77);
  strays.push_back(h->make(Op::SnpData, kA1, line(14), e, &junk));  // not snooped, with data
  for (const Msg& m : strays) h->send(m);
  expect_quiet();
  answer(f2, false);
  h->send(h->make(Op::SnpAck, kA2, line(14), e));  // a second answer from the same agent
  expect_quiet();
  answer(f3, false);
  EXPECT_EQ(expect(Op::DataE, kA1, 14).data, pattern(14));
  h->run(2);
  EXPECT_EQ(h->mem(14), pattern(14));
  EXPECT_EQ(h->count(Counter::ErrProto), strays.size() + 1);
}

// An answer whose tag names a parked request is stray too (a PARK entry waits for no answer).
TEST_F(HomeSnoopAnswer, NamingAParkedRequestIsStray) {
  command(Cmd::Arm, 16);
  h->send(req(Op::RdS, kA1, 16));
  expect_trigger(16, Op::RdS, kA1);
  for (unsigned e = 0; e < geo().tt_entries; ++e) {
    h->send(h->make(Op::SnpAck, kA1, line(16), uint8_t(e)));
  }
  expect_quiet(8 * geo().tt_entries);  // (one line: the interlock takes them one at a time)
  EXPECT_EQ(h->count(Counter::ErrProto), geo().tt_entries);
  command(Cmd::Release, 16);
  expect(Op::DataE, kA1, 16);
}

// ---- the table's reserve -----------------------------------------------------------------------

// Fills every entry hosts may take with SNOOP transactions (agent 2 reads lines agent 1 owns).
class HomeReserve : public HomeTest {
 protected:
  std::vector<Msg> fill(unsigned first) {
    std::vector<Msg> fwds;
    for (unsigned i = 0; i < usable(); ++i) {
      acquire(kA1, first + i);
      h->send(req(Op::RdX, kA2, first + i));
      fwds.push_back(expect(Op::FwdInv, kA1, first + i));
    }
    return fwds;
  }
  static unsigned usable() { return geo().tt_entries - geo().tt_reserve; }
};

// Rule 1: with no entry left beyond the reserve, a request that needs one (it snoops or parks) is
// retried; one that needs none is served; once entries free up the retried one goes through.
TEST_F(HomeReserve, RequestsNeedingAnEntryAreRetriedWhenOnlyTheReserveIsLeft) {
  const std::vector<Msg> fwds = fill(0);
  const unsigned busy = usable();
  acquire(kA1, busy);
  h->send(req(Op::RdS, kA2, busy, 0x44));  // would downgrade agent 1
  EXPECT_EQ(expect(Op::Retry, kA2, busy).tag, 0x44);
  command(Cmd::Arm, busy + 1);
  h->send(req(Op::RdS, kA2, busy + 1));  // would park
  expect(Op::Retry, kA2, busy + 1);
  h->send(req(Op::RdS, kA3, busy + 2));  // needs no entry
  expect(Op::DataE, kA3, busy + 2);
  h->send(wb(kA1, busy, pattern(1)));  // write-backs need none either
  expect(Op::WbAck, kA1, busy);
  EXPECT_EQ(h->count(Counter::RetryBusy), 2u);
  for (const Msg& f : fwds) {
    answer(f, false);
    expect_at(Op::DataE, kA2, f.addr);
  }
  h->send(req(Op::RdS, kA2, busy + 1));
  expect_trigger(busy + 1, Op::RdS, kA2);
  command(Cmd::Release, busy + 1);
  expect(Op::DataE, kA2, busy + 1);
}

// Rule 1: a request to a line with a transaction in flight is retried, whatever its policy says.
TEST_F(HomeReserve, RequestToABusyLineIsRetriedBeforeItsPolicyIsLookedAt) {
  acquire(kA1, 20);
  h->send(req(Op::RdX, kA2, 20));
  const Msg f = expect(Op::FwdInv, kA1, 20);
  set_policy(20, Policy::Deny);
  h->send(req(Op::RdS, kA3, 20, 0x33));
  EXPECT_EQ(expect(Op::Retry, kA3, 20).tag, 0x33);
  answer(f, false);
  expect(Op::DataE, kA2, 20);
  EXPECT_EQ(h->count(Counter::Denied), 0u);
  EXPECT_EQ(h->count(Counter::RetryBusy), 1u);
}

}  // namespace
}  // namespace cni::tb::home::test
