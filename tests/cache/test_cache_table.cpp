// SPDX-License-Identifier: Apache-2.0
// cni_cache_agent against a scripted home: every row of docs/cache-agent.md's state tables
// (engine operations in each stable state, each snoop in each state, each answer in each
// transient state), eviction, Retry back-off, Error, malformed messages and requests.
#include <gtest/gtest.h>

#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "cache_bench.hpp"

namespace cni::tb::cache_test {
namespace {

const Addr kA = line_addr(0);

// States in which the line has a request or write-back in flight.
bool in_flight(LS s) {
  return s == LS::IS || s == LS::IM || s == LS::SM || s == LS::OM || s == LS::MI;
}

// ---- engine operations in each stable state --------------------------------------------------

struct OpRow {
  LS from;
  CaOp op;
  std::optional<Op> sends;  // the request the agent sends, if any
  LS during;                // its state while the request is outstanding (or after the hit)
  Op answer;                // the home's answer to that request
  LS after;
};

const std::vector<OpRow> kOpRows = {
    {LS::I, CaOp::RdS, Op::RdS, LS::IS, Op::DataE, LS::E},
    {LS::I, CaOp::RdX, Op::RdX, LS::IM, Op::DataE, LS::E},
    {LS::I, CaOp::Wr, Op::RdX, LS::IM, Op::DataE, LS::M},
    {LS::I, CaOp::RdNA, Op::RdNA, LS::I, Op::DataI, LS::I},
    {LS::I, CaOp::WrInv, Op::WrInv, LS::I, Op::WrAck, LS::I},
    {LS::I, CaOp::Flush, std::nullopt, LS::I, Op::WbAck, LS::I},
    {LS::S, CaOp::RdS, std::nullopt, LS::S, Op::WbAck, LS::S},
    {LS::S, CaOp::RdX, Op::Upg, LS::SM, Op::UpgAck, LS::M},
    {LS::S, CaOp::Wr, Op::Upg, LS::SM, Op::UpgAck, LS::M},
    {LS::S, CaOp::RdNA, std::nullopt, LS::S, Op::WbAck, LS::S},
    {LS::S, CaOp::WrInv, Op::Upg, LS::SM, Op::UpgAck, LS::M},
    {LS::S, CaOp::Flush, std::nullopt, LS::I, Op::WbAck, LS::I},
    {LS::E, CaOp::RdS, std::nullopt, LS::E, Op::WbAck, LS::E},
    {LS::E, CaOp::RdX, std::nullopt, LS::E, Op::WbAck, LS::E},
    {LS::E, CaOp::Wr, std::nullopt, LS::M, Op::WbAck, LS::M},
    {LS::E, CaOp::RdNA, std::nullopt, LS::E, Op::WbAck, LS::E},
    {LS::E, CaOp::WrInv, std::nullopt, LS::M, Op::WbAck, LS::M},
    {LS::E, CaOp::Flush, std::nullopt, LS::I, Op::WbAck, LS::I},
    {LS::O, CaOp::RdS, std::nullopt, LS::O, Op::WbAck, LS::O},
    {LS::O, CaOp::RdX, Op::Upg, LS::OM, Op::UpgAck, LS::M},
    {LS::O, CaOp::Wr, Op::Upg, LS::OM, Op::UpgAck, LS::M},
    {LS::O, CaOp::RdNA, std::nullopt, LS::O, Op::WbAck, LS::O},
    {LS::O, CaOp::WrInv, Op::Upg, LS::OM, Op::UpgAck, LS::M},
    {LS::O, CaOp::Flush, Op::WB, LS::MI, Op::WbAck, LS::I},
    {LS::M, CaOp::RdS, std::nullopt, LS::M, Op::WbAck, LS::M},
    {LS::M, CaOp::RdX, std::nullopt, LS::M, Op::WbAck, LS::M},
    {LS::M, CaOp::Wr, std::nullopt, LS::M, Op::WbAck, LS::M},
    {LS::M, CaOp::RdNA, std::nullopt, LS::M, Op::WbAck, LS::M},
    {LS::M, CaOp::WrInv, std::nullopt, LS::M, Op::WbAck, LS::M},
    {LS::M, CaOp::Flush, Op::WB, LS::MI, Op::WbAck, LS::I},
};

void PrintTo(const OpRow& r, std::ostream* os) {
  *os << ca_op_name(r.op) << " in " << line_state_name(r.from);
}

std::string op_row_name(const testing::TestParamInfo<OpRow>& i) {
  return std::string(line_state_name(i.param.from)) + "_" + ca_op_name(i.param.op);
}

class EngineOp : public ScriptedBench, public testing::WithParamInterface<OpRow> {};

// A Wr writes bytes [8, 24) of its pattern; a WrInv the whole line.
RtlCacheAgent::ByteMask wr_mask() {
  RtlCacheAgent::ByteMask m;
  for (unsigned i = 8; i < 24; ++i) m.set(i);
  return m;
}

TEST_P(EngineOp, FollowsTheStateTable) {
  const OpRow& row = GetParam();
  const Line p0 = pattern(0x10), wdata = pattern(0x80);
  const auto be = wr_mask();
  reach(row.from, kA, p0, nullptr);
  Line expect = p0;  // the line's content after the operation
  if (row.op == CaOp::Wr) {
    for (unsigned i = 8; i < 24; ++i) expect[i] = wdata[i];
  } else if (row.op == CaOp::WrInv) {
    expect = wdata;
  }
  std::optional<Result> res;
  submit(row.op, kA, &res, &wdata, &be);
  if (row.sends) {
    const proto::Msg req = expect_at_home(*row.sends, kA);
    EXPECT_EQ(dev->state(kA), row.during);
    EXPECT_FALSE(res.has_value()) << "the response waits for the home";
    if (*row.sends == Op::WrInv) {
      EXPECT_EQ(req.len, kLB);
      EXPECT_TRUE(same_line(req.data, wdata)) << "WrInv carries the line";
    }
    if (*row.sends == Op::WB) {
      EXPECT_TRUE(same_line(req.data, p0));
    }
    // From I the home grants the line it has (p0).
    answer(req, row.answer, proto::carries_data(row.answer) ? &p0 : nullptr);
  } else {
    expect_quiet();
  }
  ASSERT_TRUE(run_until([&] { return res.has_value(); })) << "no response";
  EXPECT_FALSE(res->err);
  EXPECT_EQ(dev->state(kA), row.after);
  if (row.op == CaOp::RdS || row.op == CaOp::RdX || row.op == CaOp::RdNA) {
    EXPECT_TRUE(same_line(res->data, p0)) << "the read returns the line";
  }
  if (row.after != LS::I) {
    // The line now holds `expect` (a read hit shows it).
    const Result r = op(CaOp::RdS, kA);
    EXPECT_TRUE(same_line(r.data, expect));
  }
  if (row.after == LS::M) {
    // ... and is dirty: a flush writes it back.
    std::optional<Result> fl;
    submit(CaOp::Flush, kA, &fl);
    const proto::Msg wb = expect_at_home(Op::WB, kA);
    EXPECT_TRUE(same_line(wb.data, expect));
    answer(wb, Op::WbAck);
    EXPECT_TRUE(run_until([&] { return fl.has_value(); }));
  }
  EXPECT_EQ(dev->count(CaCounter::Error), 0u);
}

INSTANTIATE_TEST_SUITE_P(CacheAgent, EngineOp, testing::ValuesIn(kOpRows), op_row_name);

// ---- snoops in every state -----------------------------------------------------------------------

struct SnoopRow {
  LS state;
  Op snoop;
  Op answer;
  bool wbp;
  LS next;
};

const std::vector<SnoopRow> kSnoopRows = {
    {LS::I, Op::FwdInv, Op::SnpAck, false, LS::I},
    {LS::I, Op::FwdDown, Op::SnpAck, false, LS::I},
    {LS::I, Op::FwdDownO, Op::SnpAck, false, LS::I},
    {LS::S, Op::FwdInv, Op::SnpAck, false, LS::I},
    {LS::S, Op::FwdDown, Op::SnpAck, false, LS::S},
    {LS::S, Op::FwdDownO, Op::SnpAck, false, LS::S},
    {LS::E, Op::FwdInv, Op::SnpAck, false, LS::I},
    {LS::E, Op::FwdDown, Op::SnpAck, false, LS::S},
    {LS::E, Op::FwdDownO, Op::SnpAck, false, LS::S},
    {LS::O, Op::FwdInv, Op::SnpData, false, LS::I},
    {LS::O, Op::FwdDown, Op::SnpData, false, LS::S},
    {LS::O, Op::FwdDownO, Op::SnpData, false, LS::O},
    {LS::M, Op::FwdInv, Op::SnpData, false, LS::I},
    {LS::M, Op::FwdDown, Op::SnpData, false, LS::S},
    {LS::M, Op::FwdDownO, Op::SnpData, false, LS::O},
    {LS::IS, Op::FwdInv, Op::SnpAck, false, LS::IS},
    {LS::IS, Op::FwdDown, Op::SnpAck, false, LS::IS},
    {LS::IS, Op::FwdDownO, Op::SnpAck, false, LS::IS},
    {LS::IM, Op::FwdInv, Op::SnpAck, false, LS::IM},
    {LS::IM, Op::FwdDown, Op::SnpAck, false, LS::IM},
    {LS::IM, Op::FwdDownO, Op::SnpAck, false, LS::IM},
    {LS::SM, Op::FwdInv, Op::SnpAck, false, LS::IM},
    {LS::SM, Op::FwdDown, Op::SnpAck, false, LS::SM},
    {LS::SM, Op::FwdDownO, Op::SnpAck, false, LS::SM},
    {LS::OM, Op::FwdInv, Op::SnpData, false, LS::IM},
    {LS::OM, Op::FwdDown, Op::SnpData, false, LS::SM},
    {LS::OM, Op::FwdDownO, Op::SnpData, false, LS::OM},
    {LS::MI, Op::FwdInv, Op::SnpAck, true, LS::MI},
    {LS::MI, Op::FwdDown, Op::SnpAck, true, LS::MI},
    {LS::MI, Op::FwdDownO, Op::SnpAck, true, LS::MI},
};

void PrintTo(const SnoopRow& r, std::ostream* os) {
  *os << proto::op_name(r.snoop) << " in " << line_state_name(r.state);
}

std::string snoop_row_name(const testing::TestParamInfo<SnoopRow>& i) {
  return std::string(line_state_name(i.param.state)) + "_" + proto::op_name(i.param.snoop);
}

class Snoop : public ScriptedBench, public testing::WithParamInterface<SnoopRow> {};

TEST_P(Snoop, IsAnsweredInEveryState) {
  const SnoopRow& row = GetParam();
  const Line p0 = pattern(0x20), grant = pattern(0x60);
  Pending pend;
  reach(row.state, kA, p0, &pend);
  const proto::Msg ans = snoop(row.snoop, kA, 0x5A);
  EXPECT_EQ(ans.op, row.answer) << ans.str();
  EXPECT_EQ(ans.tag, 0x5A) << "the answer echoes the snoop's tag";
  EXPECT_EQ(ans.dst, kHome);
  EXPECT_EQ(ans.flags, row.wbp ? proto::kFlagWbPending : 0);
  if (row.answer == Op::SnpData) {
    EXPECT_EQ(ans.len, kLB);
    EXPECT_TRUE(same_line(ans.data, p0)) << "SnpData carries the dirty line";
  } else {
    EXPECT_EQ(ans.len, 0);
  }
  EXPECT_EQ(dev->state(kA), row.next);
  // A transient's request then completes from where the snoop left it.
  Line expect = p0;
  switch (row.next) {
    case LS::IS:
      answer(pend.req, Op::DataS, &grant);
      expect = grant;
      break;
    case LS::IM:
      answer(pend.req, row.state == LS::OM ? Op::DataM : Op::DataE, &grant);  // Upg as RdX
      expect = grant;
      break;
    case LS::SM:
    case LS::OM:
      answer(pend.req, Op::UpgAck);
      break;
    case LS::MI:
      answer(pend.req, Op::WbAck);
      break;
    default:
      break;
  }
  if (in_flight(row.next)) {
    ASSERT_TRUE(run_until([&] { return pend.res.has_value(); }));
    EXPECT_FALSE(pend.res->err);
    if (pend.res->op != CaOp::Flush) {
      EXPECT_TRUE(same_line(pend.res->data, expect));
    }
  }
  EXPECT_EQ(dev->count(CaCounter::Error), 0u);
  EXPECT_EQ(dev->count(CaCounter::Snoop), row.state == LS::O || row.state == LS::OM ? 2u : 1u);
}

INSTANTIATE_TEST_SUITE_P(CacheAgent, Snoop, testing::ValuesIn(kSnoopRows), snoop_row_name);

// ---- answers in every transient state --------------------------------------------------------------

enum class Mode { IS, IM, SM, OM, RdNA, WrInv };
const char* mode_name(Mode m) {
  static const char* n[] = {"IS", "IM", "SM", "OM", "RdNA", "WrInv"};
  return n[static_cast<unsigned>(m)];
}

struct AnswerRow {
  Mode mode;
  Op answer;
  bool drop;  // dropped and counted as an error; else the MSHR takes it
  LS next;    // (when taken)
};

const std::vector<AnswerRow> kAnswerRows = [] {
  std::vector<AnswerRow> rows;
  const Op answers[] = {Op::DataS, Op::DataE, Op::DataM, Op::UpgAck,
                        Op::DataI, Op::WrAck, Op::Retry, Op::Error};
  for (Mode m : {Mode::IS, Mode::IM, Mode::SM, Mode::OM, Mode::RdNA, Mode::WrInv}) {
    for (Op a : answers) {
      AnswerRow r{m, a, true, LS::I};
      const LS start = m == Mode::IS   ? LS::IS
                       : m == Mode::IM ? LS::IM
                       : m == Mode::SM ? LS::SM
                       : m == Mode::OM ? LS::OM
                                       : LS::I;
      r.next = start;
      if (a == Op::Retry) {
        r.drop = false;
      } else if (a == Op::Error) {
        r.drop = false;
        r.next = start == LS::SM ? LS::S : start == LS::OM ? LS::O : LS::I;
      } else if (m == Mode::IS) {
        r.drop = !(a == Op::DataS || a == Op::DataE || a == Op::DataM);
        r.next = a == Op::DataS ? LS::S : a == Op::DataE ? LS::E : LS::M;
      } else if (m == Mode::IM || m == Mode::SM) {
        r.drop = !(a == Op::DataE || a == Op::DataM || (m == Mode::SM && a == Op::UpgAck));
        r.next = a == Op::DataE ? LS::E : LS::M;
      } else if (m == Mode::OM) {
        r.drop = a != Op::UpgAck;
        r.next = LS::M;
      } else if (m == Mode::RdNA) {
        r.drop = a != Op::DataI;
        r.next = LS::I;
      } else {
        r.drop = a != Op::WrAck;
        r.next = LS::I;
      }
      if (r.drop) r.next = start;
      rows.push_back(r);
    }
  }
  return rows;
}();

void PrintTo(const AnswerRow& r, std::ostream* os) {
  *os << proto::op_name(r.answer) << " to " << mode_name(r.mode);
}

std::string answer_row_name(const testing::TestParamInfo<AnswerRow>& i) {
  return std::string(mode_name(i.param.mode)) + "_" + proto::op_name(i.param.answer);
}

class Answer : public ScriptedBench, public testing::WithParamInterface<AnswerRow> {
 protected:
  // Start the MSHR of `m` on kA; returns the request the home holds.
  Pending start(Mode m, const Line& p0, const Line& wdata) {
    Pending pend;
    switch (m) {
      case Mode::IS: reach(LS::IS, kA, p0, &pend); break;
      case Mode::IM: reach(LS::IM, kA, p0, &pend); break;
      case Mode::SM: reach(LS::SM, kA, p0, &pend); break;
      case Mode::OM: reach(LS::OM, kA, p0, &pend); break;
      case Mode::RdNA:
        submit(CaOp::RdNA, kA, &pend.res);
        pend.req = expect_at_home(Op::RdNA, kA);
        break;
      case Mode::WrInv:
        submit(CaOp::WrInv, kA, &pend.res, &wdata);
        pend.req = expect_at_home(Op::WrInv, kA);
        break;
    }
    return pend;
  }
  // The answer that completes the MSHR of `m` normally.
  static Op normal(Mode m) {
    switch (m) {
      case Mode::IS: return Op::DataS;
      case Mode::IM: return Op::DataE;
      case Mode::SM:
      case Mode::OM: return Op::UpgAck;
      case Mode::RdNA: return Op::DataI;
      case Mode::WrInv: return Op::WrAck;
    }
    return Op::Error;
  }
};

TEST_P(Answer, IsTakenOrDroppedPerTheStateTable) {
  const AnswerRow& row = GetParam();
  const Line p0 = pattern(0x30), grant = pattern(0x70), wdata = pattern(0x90);
  Pending pend = start(row.mode, p0, wdata);
  const LS before = dev->state(kA);
  const uint64_t errors = dev->count(CaCounter::Error);
  answer(pend.req, row.answer, proto::carries_data(row.answer) ? &grant : nullptr);
  if (row.drop) {
    expect_quiet();
    EXPECT_EQ(dev->count(CaCounter::Error), errors + 1) << "dropped and counted";
    EXPECT_EQ(dev->state(kA), before);
    EXPECT_FALSE(pend.res.has_value());
    answer(pend.req, normal(row.mode), proto::carries_data(normal(row.mode)) ? &grant : nullptr);
    ASSERT_TRUE(run_until([&] { return pend.res.has_value(); }));
    EXPECT_FALSE(pend.res->err);
    return;
  }
  if (row.answer == Op::Retry) {
    const proto::Msg again = expect_at_home(pend.req.op, kA);  // re-issued after the back-off
    EXPECT_EQ(dev->count(CaCounter::Retry), 1u);
    EXPECT_EQ(again.tag, pend.req.tag);
    if (again.op == Op::WrInv) {
      EXPECT_TRUE(same_line(again.data, wdata));
    }
    EXPECT_FALSE(pend.res.has_value());
    answer(again, normal(row.mode), proto::carries_data(normal(row.mode)) ? &grant : nullptr);
    ASSERT_TRUE(run_until([&] { return pend.res.has_value(); }));
    EXPECT_FALSE(pend.res->err);
    return;
  }
  ASSERT_TRUE(run_until([&] { return pend.res.has_value(); }));
  EXPECT_EQ(dev->state(kA), row.next);
  if (row.answer == Op::Error) {
    EXPECT_TRUE(pend.res->err) << "the engine sees the home's Error";
    EXPECT_EQ(dev->count(CaCounter::Error), errors + 1);
    return;
  }
  EXPECT_FALSE(pend.res->err);
  if (row.answer == Op::UpgAck) {
    EXPECT_TRUE(same_line(pend.res->data, p0)) << "an upgrade keeps its line";
  } else if (row.mode != Mode::WrInv) {
    EXPECT_TRUE(same_line(pend.res->data, grant));
  }
}

INSTANTIATE_TEST_SUITE_P(CacheAgent, Answer, testing::ValuesIn(kAnswerRows), answer_row_name);

// ---- eviction, back-off, errors, ordering ---------------------------------------------------------

using CacheAgent = ScriptedBench;

// Lines of set 0 (kA is line 0).
Addr set0(unsigned k) { return line_addr(k * cache_geometry().sets); }

TEST_F(CacheAgent, FullSetEvictsACleanVictimSilentlyAndADirtyOneThroughTheWriteBackBuffer) {
  const unsigned ways = cache_geometry().ways;
  const Line dirty = pattern(0x66), fill = pattern(0x55), fill2 = pattern(0x77);
  for (unsigned k = 0; k < ways; ++k) reach(LS::E, set0(k), pattern(uint8_t(k)), nullptr);
  // Set full of clean lines: the next miss drops one silently and takes its way.
  std::optional<Result> r;
  submit(CaOp::RdS, set0(ways), &r);
  const proto::Msg rds = expect_at_home(Op::RdS, set0(ways));
  EXPECT_EQ(dev->state(set0(0)), LS::I) << "round-robin victim: way 0 first";
  answer(rds, Op::DataM, &fill);
  ASSERT_TRUE(run_until([&] { return r.has_value(); }));
  EXPECT_EQ(dev->count(CaCounter::WriteBack), 0u);
  // Now dirty lines everywhere but way 0's replacement: make them all M, then miss again.
  for (unsigned k = 1; k < ways; ++k) op(CaOp::Wr, set0(k), &dirty);
  std::optional<Result> r2;
  submit(CaOp::RdS, set0(ways + 1), &r2);
  const proto::Msg wb = expect_at_home(Op::WB, set0(1));
  EXPECT_EQ(wb.tag & 0x80, 0x80) << "a write-back's tag names its buffer entry";
  EXPECT_TRUE(same_line(wb.data, dirty));
  EXPECT_EQ(dev->state(set0(1)), LS::MI);
  // The victim left its way for the write-back buffer: the miss goes out before the WbAck.
  const proto::Msg rds2 = expect_at_home(Op::RdS, set0(ways + 1));
  answer(rds2, Op::DataS, &fill2);
  ASSERT_TRUE(run_until([&] { return r2.has_value(); }));
  EXPECT_TRUE(same_line(r2->data, fill2));
  EXPECT_EQ(dev->state(set0(1)), LS::MI) << "still written back";
  // A request to the line being written back waits for its WbAck.
  std::optional<Result> r3;
  submit(CaOp::RdNA, set0(1), &r3);
  expect_quiet();
  EXPECT_FALSE(r3.has_value());
  answer(wb, Op::WbAck);
  const proto::Msg na = expect_at_home(Op::RdNA, set0(1));
  EXPECT_EQ(dev->state(set0(1)), LS::I);
  answer(na, Op::DataI, &dirty);
  ASSERT_TRUE(run_until([&] { return r3.has_value(); }));
  EXPECT_TRUE(same_line(r3->data, dirty));
  EXPECT_EQ(dev->count(CaCounter::WriteBack), 1u);
  EXPECT_EQ(dev->count(CaCounter::Error), 0u);
}

// Every entry of the write-back buffer waiting for its WbAck: a dirty victim waits for one (a
// clean one still goes), and the WbAcks may come in any order.
TEST_F(CacheAgent, DirtyEvictionsBeyondTheWriteBackBufferWaitForAWbAck) {
  const unsigned sets = cache_geometry().sets, ways = cache_geometry().ways;
  const unsigned wbs = cache_geometry().wbs;
  ASSERT_LE(wbs + 1, sets * ways) << "the test needs a dirty line beyond the buffer";
  // Every way dirty: line i (set i % sets) for i < sets * ways.
  for (unsigned i = 0; i < sets * ways; ++i) {
    reach(LS::M, line_addr(i), pattern(uint8_t(i)), nullptr);
  }
  std::vector<proto::Msg> wbs_sent;
  unsigned next = sets * ways;  // new lines, each evicting a dirty one
  for (unsigned k = 0; k < wbs; ++k, ++next) {
    std::optional<Result> res;
    submit(CaOp::RdS, line_addr(next), &res);
    wbs_sent.push_back(expect_at_home(Op::WB, line_addr(next - sets * ways)));
    const proto::Msg rd = expect_at_home(Op::RdS, line_addr(next));
    answer(rd, Op::DataE, &wbs_sent.back().data);
    ASSERT_TRUE(run_until([&] { return res.has_value(); }));
  }
  for (unsigned k = 0; k < wbs; ++k) EXPECT_EQ(dev->state(line_addr(k)), LS::MI);
  // The buffer is full: the next dirty victim waits, and so does its miss.
  std::optional<Result> res;
  submit(CaOp::RdS, line_addr(next), &res);
  expect_quiet();
  // A WbAck of the last entry (not the first) frees room.
  answer(wbs_sent.back(), Op::WbAck);
  EXPECT_TRUE(run_until([&] { return dev->state(line_addr(wbs - 1)) == LS::I; }));
  const proto::Msg wb = expect_at_home(Op::WB, line_addr(next - sets * ways));
  EXPECT_TRUE(same_line(wb.data, pattern(uint8_t(next - sets * ways))));
  const proto::Msg rd = expect_at_home(Op::RdS, line_addr(next));
  answer(rd, Op::DataE, &wb.data);
  ASSERT_TRUE(run_until([&] { return res.has_value(); }));
  for (unsigned k = 0; k + 1 < wbs; ++k) answer(wbs_sent[k], Op::WbAck);
  answer(wb, Op::WbAck);
  EXPECT_TRUE(run_until([&] { return dev->state(line_addr(0)) == LS::I; }));
  EXPECT_EQ(dev->count(CaCounter::WriteBack), wbs + 1);
  EXPECT_EQ(dev->count(CaCounter::Error), 0u);
}

// Found by the stress (seed 2, 200 000 requests): a clean eviction used to reload the request
// register's data while a write-back still waited there for the link.
TEST_F(CacheAgent, WriteBackWaitingForTheLinkKeepsItsLineWhileACleanLineIsEvicted) {
  const unsigned sets = cache_geometry().sets, ways = cache_geometry().ways;
  auto set1 = [&](unsigned k) { return line_addr(1 + k * sets); };
  const Line dirty = pattern(0x31), fill = pattern(0x41);
  reach(LS::M, kA, dirty, nullptr);
  for (unsigned k = 0; k < ways; ++k) reach(LS::E, set1(k), pattern(uint8_t(k)), nullptr);
  dev->set_stalls(1.0, 0.0, 0.0);  // the link takes no request
  std::optional<Result> fl, rd;
  submit(CaOp::Flush, kA, &fl);
  run_for(sim::ns(100));
  EXPECT_EQ(dev->state(kA), LS::MI) << "the write-back waits in the request register";
  submit(CaOp::RdS, set1(ways), &rd);  // its set is full of clean lines: one is dropped
  run_for(sim::ns(100));
  EXPECT_EQ(dev->state(set1(0)), LS::I);
  dev->set_stalls(0.0, 0.0, 0.0);
  const proto::Msg wb = expect_at_home(Op::WB, kA);
  EXPECT_TRUE(same_line(wb.data, dirty)) << "the write-back carries its own line";
  answer(wb, Op::WbAck);
  const proto::Msg rds = expect_at_home(Op::RdS, set1(ways));
  answer(rds, Op::DataS, &fill);
  ASSERT_TRUE(run_until([&] { return fl.has_value() && rd.has_value(); }));
  EXPECT_TRUE(same_line(rd->data, fill));
}

TEST_F(CacheAgent, RetryReissuesAfterTheBackOff) {
  Pending pend;
  const Line grant = pattern(2);
  reach(LS::IS, kA, pattern(1), &pend);
  const sim::Time retry_at = k->now();
  answer(pend.req, Op::Retry);
  const proto::Msg again = expect_at_home(Op::RdS, kA);
  const sim::Time gap = home->when.back() - retry_at;
  const sim::Time backoff = sim::Time{RtlCacheAgent::Options{}.backoff_cycles} * dev->period();
  EXPECT_GE(gap, backoff) << "re-issued before the back-off";
  EXPECT_LT(gap, backoff + 20 * dev->period() + sim::ns(40));
  answer(again, Op::DataE, &grant);
  ASSERT_TRUE(run_until([&] { return pend.res.has_value(); }));
  EXPECT_TRUE(same_line(pend.res->data, grant));
  EXPECT_EQ(dev->count(CaCounter::Retry), 1u);
}

TEST_F(CacheAgent, RetriedUpgradeWhoseCopyWasTakenIsReissuedAsReadExclusive) {
  Pending pend;
  reach(LS::SM, kA, pattern(1), &pend);
  EXPECT_EQ(snoop(Op::FwdInv, kA).op, Op::SnpAck);
  EXPECT_EQ(dev->state(kA), LS::IM);
  answer(pend.req, Op::Retry);
  const proto::Msg again = expect_at_home(Op::RdX, kA);
  const Line grant = pattern(3);
  answer(again, Op::DataM, &grant);
  ASSERT_TRUE(run_until([&] { return pend.res.has_value(); }));
  EXPECT_EQ(dev->state(kA), LS::M);
  EXPECT_TRUE(same_line(pend.res->data, grant));
}

TEST_F(CacheAgent, ErrorToAWriteBackEndsItAndFailsTheFlush) {
  Pending pend;
  reach(LS::MI, kA, pattern(1), &pend);
  answer(pend.req, Op::Error);
  ASSERT_TRUE(run_until([&] { return pend.res.has_value(); }));
  EXPECT_TRUE(pend.res->err);
  EXPECT_EQ(dev->state(kA), LS::I);
  EXPECT_EQ(dev->count(CaCounter::Error), 1u);
}

TEST_F(CacheAgent, RequestsToOneLineArePerformedInOrder) {
  std::optional<Result> a, b, c;
  const Line w = pattern(0x44), fill = pattern(0);
  RtlCacheAgent::ByteMask be;
  be.set(0);
  submit(CaOp::RdS, kA, &a);
  submit(CaOp::Wr, kA, &b, &w, &be);
  submit(CaOp::RdS, kA, &c);
  const proto::Msg rds = expect_at_home(Op::RdS, kA);
  expect_quiet();  // the write waits for the read's MSHR
  answer(rds, Op::DataS, &fill);
  const proto::Msg upg = expect_at_home(Op::Upg, kA);
  EXPECT_TRUE(a.has_value());
  answer(upg, Op::UpgAck);
  ASSERT_TRUE(run_until([&] { return c.has_value(); }));
  EXPECT_EQ(a->data[0], 0);
  EXPECT_EQ(c->data[0], 0x44) << "the read after the write sees it";
  EXPECT_EQ(c->data[1], 1);
}

TEST_F(CacheAgent, MissesBeyondTheMshrsWaitAtThePort) {
  const unsigned n = cache_geometry().mshrs;
  std::vector<std::optional<Result>> r(n + 1);
  // RdNA allocates no way, so only the MSHRs limit it.
  for (unsigned i = 0; i <= n; ++i) submit(CaOp::RdNA, line_addr(i), &r[i]);
  std::vector<proto::Msg> reqs;
  for (unsigned i = 0; i < n; ++i) reqs.push_back(expect_at_home(Op::RdNA, line_addr(i)));
  expect_quiet();
  std::vector<Line> data(n + 1);
  for (unsigned i = 0; i <= n; ++i) data[i] = pattern(uint8_t(10 * i + 1));
  answer(reqs[0], Op::DataI, &data[0]);
  const proto::Msg last = expect_at_home(Op::RdNA, line_addr(n));
  for (unsigned i = 1; i < n; ++i) answer(reqs[i], Op::DataI, &data[i]);
  answer(last, Op::DataI, &data[n]);
  ASSERT_TRUE(run_until([&] { return r[n].has_value(); }));
  for (unsigned i = 0; i <= n; ++i) {
    ASSERT_TRUE(r[i].has_value());
    EXPECT_TRUE(same_line(r[i]->data, data[i])) << "request " << i;
  }
}

TEST_F(CacheAgent, MalformedMessagesAreDroppedAndCounted) {
  reach(LS::M, kA, pattern(1), nullptr);
  home->send(Op::FwdInv, kDev, kA + 4, 1);     // misaligned
  home->send(Op::RdS, kDev, kA, 2);            // a request to a caching agent
  home->send(Op::DataS, kDev, kA, 0);          // matches no MSHR
  home->send(Op::WbAck, kDev, kA, 0x81);       // no write-back in flight
  home->send(Op::SnpAck, kDev, kA, 3);         // a home's message
  proto::Msg with_data;
  with_data.op = Op::FwdInv;
  with_data.src = kHome;
  with_data.dst = kDev;
  with_data.addr = kA;
  with_data.len = 8;  // a snoop carries no data
  f->send(with_data);
  expect_quiet();
  EXPECT_EQ(dev->count(CaCounter::Error), 6u);
  EXPECT_EQ(dev->state(kA), LS::M) << "no other line state changes";
}

TEST_F(CacheAgent, BadEngineRequestsAreAnsweredWithError) {
  const Result mis = op(CaOp::RdS, kA + 8);
  EXPECT_TRUE(mis.err);
  const Result bad = op(static_cast<CaOp>(6), kA);
  EXPECT_TRUE(bad.err);
  expect_quiet();
  EXPECT_EQ(dev->count(CaCounter::Error), 2u);
}

TEST_F(CacheAgent, SnoopWaitsForTheResponseChannelAndGrantsQueueBehindIt) {
  reach(LS::M, kA, pattern(1), nullptr);
  Pending pend;
  reach(LS::IS, line_addr(1), pattern(2), &pend);
  dev->set_stalls(0.0, 1.0, 0.0);  // orsp_ready_i low
  const Line grant = pattern(3);
  home->send(Op::FwdInv, kDev, kA, 7);
  answer(pend.req, Op::DataS, &grant);
  run_for(sim::ns(500));
  EXPECT_EQ(home->got.size(), seen_) << "no answer while the channel is stalled";
  EXPECT_FALSE(pend.res.has_value()) << "the grant waits behind the snoop";
  dev->set_stalls(0.0, 0.0, 0.0);
  const proto::Msg ans = expect_at_home_any();
  EXPECT_EQ(ans.op, Op::SnpData);
  ASSERT_TRUE(run_until([&] { return pend.res.has_value(); }));
  EXPECT_EQ(dev->state(kA), LS::I);
  EXPECT_EQ(dev->state(line_addr(1)), LS::S);
}

TEST_F(CacheAgent, GrantsSinkWhileTheEngineStallsResponses) {
  dev->set_stalls(0.0, 0.0, 1.0);  // rsp_ready_i low
  const unsigned n = cache_geometry().mshrs;
  std::vector<std::optional<Result>> r(n);
  for (unsigned i = 0; i < n; ++i) submit(CaOp::RdS, line_addr(i), &r[i]);
  for (unsigned i = 0; i < n; ++i) {
    const proto::Msg req = expect_at_home(Op::RdS, line_addr(i));
    const Line grant = pattern(uint8_t(i));
    answer(req, Op::DataE, &grant);
  }
  run_for(sim::ns(300));
  for (unsigned i = 0; i < n; ++i) EXPECT_EQ(dev->state(line_addr(i)), LS::E);
  // A snoop takes a filled line before its response left: the response keeps the data.
  EXPECT_EQ(snoop(Op::FwdInv, line_addr(0)).op, Op::SnpAck);
  EXPECT_EQ(dev->state(line_addr(0)), LS::I);
  dev->set_stalls(0.0, 0.0, 0.0);
  ASSERT_TRUE(run_until([&] { return r[n - 1].has_value(); }));
  for (unsigned i = 0; i < n; ++i) {
    ASSERT_TRUE(r[i].has_value());
    EXPECT_TRUE(same_line(r[i]->data, pattern(uint8_t(i))));
  }
}

// ---- idle clean (docs/cache-agent.md, "Idle clean") -------------------------------------------

constexpr uint16_t kClean = 8;

class IdleClean : public ScriptedBench {
 protected:
  uint16_t clean_cycles() const override { return kClean; }
};

// A line another agent has read (O) is written back after kClean cycles without a job, and its
// way freed; a line in M (not read since written) and clean lines stay; the WbAck ends it.
TEST_F(IdleClean, WritesBackALineInOAfterTheQuietCyclesAndLeavesTheOthers) {
  const Line po = pattern(0x21), pm = pattern(0x42), ps = pattern(0x63);
  const Addr a_m = line_addr(1), a_s = line_addr(2);
  reach(LS::M, a_m, pm, nullptr);
  reach(LS::S, a_s, ps, nullptr);
  reach(LS::O, kA, po, nullptr);   // the SnpData of FwdDownO is the agent's last job
  const sim::Time last = home->when.back();
  const proto::Msg wb = expect_at_home(Op::WB, kA);
  EXPECT_GE(home->when.back() - last, sim::Time{kClean} * dev->period())
      << "written back before the quiet cycles passed";
  EXPECT_LT(home->when.back() - last, sim::Time{kClean + 12} * dev->period() + sim::ns(40));
  EXPECT_EQ(wb.tag & 0x80, 0x80) << "a write-back's tag names its buffer entry";
  EXPECT_TRUE(same_line(wb.data, po)) << "the write-back carries the line";
  EXPECT_EQ(dev->state(kA), LS::MI);
  // A snoop meanwhile finds the line in the write-back buffer: SnpAck + WBP.
  const proto::Msg ans = snoop(Op::FwdInv, kA);
  EXPECT_EQ(ans.op, Op::SnpAck);
  EXPECT_TRUE(ans.flags & proto::kFlagWbPending) << ans.str();
  answer(wb, Op::WbAck);
  EXPECT_TRUE(run_until([&] { return dev->state(kA) == LS::I; }));
  expect_quiet(sim::Time{40 * kClean} * dev->period());
  EXPECT_EQ(dev->state(a_m), LS::M) << "a line nobody has read is not written back";
  EXPECT_EQ(dev->state(a_s), LS::S);
  EXPECT_EQ(dev->count(CaCounter::WriteBack), 1u);
  // A miss in the cleaned line's set afterwards sends its request and nothing else.
  std::optional<Result> r;
  submit(CaOp::RdS, set0(cache_geometry().ways), &r);
  const proto::Msg rds = expect_at_home(Op::RdS, set0(cache_geometry().ways));
  answer(rds, Op::DataS, &ps);
  ASSERT_TRUE(run_until([&] { return r.has_value(); }));
  EXPECT_EQ(dev->count(CaCounter::WriteBack), 1u);
  EXPECT_EQ(dev->count(CaCounter::Error), 0u);
}

// Jobs keep the clean off: while the engine's requests and their answers keep the controller
// busy, a line in O waits; it goes once they stop.
TEST_F(IdleClean, WaitsWhileTheAgentHasJobs) {
  reach(LS::O, kA, pattern(0x11), nullptr);
  // Read hits on the line, one after another, each answered before the clean's wait is over.
  for (int i = 0; i < 6; ++i) {
    const Result res = op(CaOp::RdS, kA);
    EXPECT_FALSE(res.err);
    EXPECT_EQ(dev->state(kA), LS::O) << "written back while the engine was reading it";
  }
  expect_at_home(Op::WB, kA);
}

// With cfg_clean_i = 0 (the reset value) a line in O stays.
TEST_F(CacheAgent, WithoutTheIdleCleanALineInOStays) {
  reach(LS::O, kA, pattern(0x11), nullptr);
  expect_quiet(sim::ns(2000));
  EXPECT_EQ(dev->state(kA), LS::O);
}

}  // namespace
}  // namespace cni::tb::cache_test
