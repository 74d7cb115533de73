// SPDX-License-Identifier: Apache-2.0
// The home agent's decision alone (rtl/coh/cni_home_decide.sv, under
// tb/sv/cni_nonsynth_home_decide.sv), row by row of docs/endpoint.md: the request state table
// with the line's policy looked at first ("State table"), then the other inputs, the engine's
// commands and the completions ("State table", second table; "Events and commands"). Each test
// sets the message, the directory word and the table lookup to its row's condition and checks
// the row chosen and every field of the answer the row states: the answer (kind, destination,
// tag, address), the snoop job and its targets, the table entry made, updated, converted or
// freed (the event raised), the directory after and the counters. The second table's FWD and
// DAT rows name no input of the home agent (it takes REQ and RSP; the device's caching agent
// takes the snoops and grants addressed to the device), so no message of theirs reaches this
// decision. The order the state table leaves open (a busy line, or a full table, under a PARK or
// DENY policy) is not taken for a row: the tests of a busy line and a full table use ALLOW.
#include <gtest/gtest.h>

#include <cstdint>
#include <initializer_list>
#include <memory>

#include "Vcni_nonsynth_home_decide.h"
#include "home/home_harness.hpp"
#include "msg_wire.hpp"
#include "verilated.h"

namespace cni::tb::home::test {
namespace {

// The rows (row_e in rtl/common/cni_home_types.svh, in its order).
enum class Row : uint8_t {
  None,
  TmoRetry,
  SnpUpd,
  SnpEvt,
  SnpGrant,
  SetPol,
  RelGrant,
  RelSnoop,
  Nack,
  RecNack,
  RecWait,
  RecDone,
  RecSnoop,
  RcdDone,
  RcdSnoop,
  ReqError,
  WbRace,
  WbRaceEvt,
  WbRaceGnt,
  WbOwner,
  Retry,
  Park,
  Deny,
  GrantE,
  GrantS,
  GrantSAdd,
  SnoopDown,
  SnoopInv,
  UpgAck
};

// Message sources, directory states and entry kinds (cni_home_types.svh).
enum class Src : uint8_t { Timeout = 0, SnoopAnswer = 1, Command = 2, Request = 3 };
enum class St : uint8_t { I = 0, S = 1, X = 2 };
enum class Kind : uint8_t { Snoop = 0, Park = 1, Recall = 2 };

constexpr unsigned kLineBytes = CNI_HOME_LINE_BYTES;
constexpr uint64_t kDevBase = CNI_HOME_DEV_BASE;
constexpr uint8_t kHome = 9;    // this agent's id (beyond the sharer vector)
constexpr uint8_t kR = 2;       // the requester / the writer W
constexpr uint8_t kO = 5;       // another agent (the owner O)
constexpr uint8_t kT = 6;       // a third agent
constexpr unsigned kLine = 3;   // the line every test uses
constexpr uint8_t kTag = 0x2B;  // a request's tag
constexpr unsigned kFree = 7;   // the entry the lookup found free
constexpr unsigned kEnt = 11;   // a table entry on the line (a snoop answer's tag)
constexpr unsigned kPark = 4;   // the PARK entry on the line
constexpr uint8_t kParkTag = 0x35;

constexpr uint8_t bit(uint8_t a) { return static_cast<uint8_t>(1u << a); }
constexpr uint64_t addr_of(unsigned line) { return kDevBase + uint64_t{line} * kLineBytes; }

class HomeDecide : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx_ = std::make_unique<VerilatedContext>();
    ctx_->fatalOnError(false);
    m_ = std::make_unique<Vcni_nonsynth_home_decide>(ctx_.get(), "top");
    m_->agent_id_i = kHome;
    m_->lk_room_i = 1;
    m_->lk_free_any_i = 1;
    m_->lk_free_idx_i = kFree;
    m_->lk_inrange_i = 1;
    m_->line_i = kLine;
  }
  void TearDown() override { EXPECT_FALSE(ctx_->gotError()); }

  void hdr(Op op, uint8_t src, uint8_t tag, uint8_t flags = 0) {
    proto::Msg h;
    h.op = op;
    h.src = src;
    h.dst = kHome;
    h.tag = tag;
    h.addr = addr_of(kLine);
    h.flags = flags;
    h.len = (op == Op::WB || op == Op::SnpData) ? kLineBytes : 0;
    uint32_t w[kHdrWords];
    pack_hdr(h, w);
    for (unsigned i = 0; i < kHdrWords; ++i) m_->hdr_i[i] = w[i];
  }
  // A request from `src`; it may take an entry unless it is a write-back (as the take works out).
  void request(Op op, uint8_t src = kR, uint8_t flags = 0) {
    m_->src_i = static_cast<uint8_t>(Src::Request);
    hdr(op, src, kTag, flags);
    m_->may_alloc_i = op != Op::WB;
  }
  // A snoop answer from `src` naming entry `ent`.
  void answer(Op op, uint8_t src, unsigned ent = kEnt, uint8_t flags = 0) {
    m_->src_i = static_cast<uint8_t>(Src::SnoopAnswer);
    hdr(op, src, static_cast<uint8_t>(ent), flags);
    m_->may_alloc_i = 0;
  }
  // An engine command on the line (a command's header is the response channel's, unused).
  void command(Cmd c, unsigned arg = 0) {
    m_->src_i = static_cast<uint8_t>(Src::Command);
    hdr(Op::SnpAck, kT, 0x3F);
    m_->cmd_i = static_cast<uint8_t>(c);
    m_->arg_i = static_cast<uint8_t>(arg);
    m_->may_alloc_i = c == Cmd::Recall || c == Cmd::RecallDn;
  }
  void dir(Policy p, St st, uint8_t sharers) {
    m_->dir_pol_i = static_cast<uint8_t>(p);
    m_->dir_st_i = static_cast<uint8_t>(st);
    m_->dir_sh_i = sharers;
  }
  // The line's table entry (the lookup's hit), of a transaction requested by O with tag kTag.
  void entry_on_line(Kind k, uint8_t pend, uint8_t wbp = 0, uint8_t wbgot = 0,
                     Op grant = Op::DataE) {
    m_->lk_hit_any_i = 1;
    m_->lk_hit_idx_i = kEnt;
    m_->lk_hit_kind_i = static_cast<uint8_t>(k);
    m_->lk_hit_pend_i = pend;
    m_->lk_hit_wbp_i = wbp;
    m_->lk_hit_wbgot_i = wbgot;
    m_->lk_hit_src_i = kO;
    m_->lk_hit_tag_i = kTag;
    m_->lk_hit_grant_i = static_cast<uint8_t>(grant);
  }
  // The entry a snoop answer names (tag = entry): live, not PARK, on the line.
  void named_entry(Kind k, uint8_t pend, uint8_t wbp = 0, uint8_t wbgot = 0, Op grant = Op::DataE) {
    entry_on_line(k, pend, wbp, wbgot, grant);
    m_->lk_ent_match_i = 1;
    m_->lk_ent_kind_i = static_cast<uint8_t>(k);
    m_->lk_ent_pend_i = pend;
    m_->lk_ent_wbp_i = wbp;
    m_->lk_ent_wbgot_i = wbgot;
    m_->lk_ent_src_i = kO;
    m_->lk_ent_tag_i = kTag;
    m_->lk_ent_grant_i = static_cast<uint8_t>(grant);
  }
  // A request `op` from R parked on the line.
  void parked(Op op) {
    m_->lk_hit_any_i = 1;
    m_->lk_hit_idx_i = kPark;
    m_->lk_hit_kind_i = static_cast<uint8_t>(Kind::Park);
    m_->lk_park_hit_i = 1;
    m_->lk_park_idx_i = kPark;
    m_->lk_park_src_i = kR;
    m_->lk_park_tag_i = kParkTag;
    m_->lk_park_op_i = static_cast<uint8_t>(op);
  }
  void ret_excl(bool on) { m_->cfg_ret_excl_i = on ? 1 : 0; }  // the line is in region 0

  void eval() { m_->eval(); }
  Row row() const { return static_cast<Row>(m_->row_o); }
  proto::Msg rsp() const { return unpack_hdr(m_->d_rsp_hdr_o.data()); }
  proto::Msg dat() const { return unpack_hdr(m_->d_dat_hdr_o.data()); }

  // Exactly the counters named.
  void expect_counts(std::initializer_list<Counter> cs) {
    uint32_t want = 0;
    for (Counter c : cs) want |= 1u << static_cast<unsigned>(c);
    EXPECT_EQ(m_->cnt_o, want);
  }
  void expect_answer(const proto::Msg& h, Op op, uint8_t to, uint8_t tag, unsigned len) {
    EXPECT_EQ(h.op, op);
    EXPECT_EQ(h.src, kHome);
    EXPECT_EQ(h.dst, to);
    EXPECT_EQ(h.tag, tag);
    EXPECT_EQ(h.addr, addr_of(kLine));
    EXPECT_EQ(h.len, len);
  }
  // One answer on RSP (and nothing on DAT).
  void expect_rsp(Op op, uint8_t to, uint8_t tag) {
    EXPECT_TRUE(m_->d_out_rsp_o);
    EXPECT_FALSE(m_->d_out_dat_o);
    expect_answer(rsp(), op, to, tag, 0);
  }
  // A grant on DAT (and nothing on RSP), its data the message's or the memory's.
  void expect_dat(Op op, uint8_t to, uint8_t tag, bool data_msg) {
    EXPECT_FALSE(m_->d_out_rsp_o);
    EXPECT_TRUE(m_->d_out_dat_o);
    expect_answer(dat(), op, to, tag, kLineBytes);
    EXPECT_EQ(m_->d_data_msg_o, data_msg);
  }
  void expect_no_answer() {
    EXPECT_FALSE(m_->d_out_rsp_o);
    EXPECT_FALSE(m_->d_out_dat_o);
  }
  void expect_dir(Policy p, St st, uint8_t sharers) {
    EXPECT_TRUE(m_->d_dir_we_o);
    EXPECT_EQ(m_->d_dir_pol_o, static_cast<uint8_t>(p));
    EXPECT_EQ(m_->d_dir_st_o, static_cast<uint8_t>(st));
    EXPECT_EQ(m_->d_dir_sh_o, sharers);
  }
  void expect_dir_kept() { EXPECT_FALSE(m_->d_dir_we_o); }
  void expect_snoop(Op op, uint8_t agents, unsigned ent) {
    EXPECT_TRUE(m_->d_snp_o);
    EXPECT_EQ(m_->d_snp_op_o, static_cast<uint8_t>(op));
    EXPECT_EQ(m_->d_snp_vec_o, agents);
    EXPECT_EQ(m_->d_snp_rest_o, agents & (agents - 1));  // the agents after the first
    EXPECT_EQ(m_->d_snp_last_o, (agents & (agents - 1)) == 0);
    EXPECT_EQ(m_->d_snp_ent_o, ent);
  }
  void expect_no_snoop() { EXPECT_FALSE(m_->d_snp_o); }
  // A new entry at the free one: its kind, the agents it waits for, its grant, its event.
  void expect_alloc(Kind k, uint8_t pend, Op grant, bool evt) {
    EXPECT_TRUE(m_->d_alloc_o);
    EXPECT_EQ(m_->d_alloc_idx_o, kFree);
    EXPECT_EQ(m_->d_alloc_kind_o, static_cast<uint8_t>(k));
    EXPECT_EQ(m_->d_alloc_pend_o, pend);
    if (k == Kind::Snoop) {
      EXPECT_EQ(m_->d_alloc_grant_o, static_cast<uint8_t>(grant));
    }
    EXPECT_EQ(m_->d_alloc_evt_o, evt);
  }
  void expect_upd(unsigned ent, uint8_t pend, uint8_t wbp, uint8_t wbgot, bool evt) {
    EXPECT_TRUE(m_->d_upd_o);
    EXPECT_EQ(m_->d_upd_idx_o, ent);
    EXPECT_EQ(m_->d_upd_pend_o, pend);
    EXPECT_EQ(m_->d_upd_wbp_o, wbp);
    EXPECT_EQ(m_->d_upd_wbgot_o, wbgot);
    EXPECT_EQ(m_->d_upd_evt_o, evt);
  }
  void expect_free(unsigned ent) {
    EXPECT_TRUE(m_->d_free_o);
    EXPECT_EQ(m_->d_free_idx_o, ent);
  }
  // The table: nothing made, updated, converted or freed.
  void expect_table_kept() {
    EXPECT_FALSE(m_->d_alloc_o);
    EXPECT_FALSE(m_->d_upd_o);
    EXPECT_FALSE(m_->d_conv_o);
    EXPECT_FALSE(m_->d_free_o);
  }
  // A message consumed (a command: taken off the engine's port) and no memory write.
  void expect_consumed_no_write() {
    EXPECT_TRUE(m_->d_pop_o);
    EXPECT_FALSE(m_->d_stall_cmd_o);
    EXPECT_FALSE(m_->d_mem_we_o);
  }
  // A request answered from memory or with a plain response (row r): the directory's new word,
  // the table kept, no snoop.
  void expect_plain(Row r, Op op, Counter c, Policy p, St st, uint8_t sharers) {
    EXPECT_EQ(row(), r);
    if (op == Op::UpgAck) {
      expect_rsp(op, kR, kTag);
    } else {
      expect_dat(op, kR, kTag, false);
    }
    expect_dir(p, st, sharers);
    expect_no_snoop();
    expect_table_kept();
    expect_consumed_no_write();
    expect_counts({c});
  }

  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vcni_nonsynth_home_decide> m_;
};

Counter count_of(Op op) {
  return op == Op::RdS ? Counter::RdS : op == Op::RdX ? Counter::RdX : Counter::Upg;
}

// ---- State table: the line's policy first -------------------------------------------------

// "any, policy parks it": PARK parks every request (a PARK entry, TRIGGER), whatever the state.
TEST_F(HomeDecide, AnyStatePolicyParksItParkEntryAndTrigger) {
  for (St st : {St::I, St::S, St::X}) {
    for (Op op : {Op::RdS, Op::RdX, Op::Upg}) {
      SCOPED_TRACE(::testing::Message() << "state " << int(st) << " op " << int(op));
      request(op);
      dir(Policy::Park, st, st == St::I ? 0 : bit(kO));
      eval();
      EXPECT_EQ(row(), Row::Park);
      expect_no_answer();
      expect_alloc(Kind::Park, 0, Op::DataE, true);  // the event of a PARK entry: TRIGGER
      EXPECT_FALSE(m_->d_upd_o || m_->d_free_o || m_->d_conv_o);
      expect_dir_kept();
      expect_no_snoop();
      expect_consumed_no_write();
      expect_counts({count_of(op), Counter::Parked});
    }
  }
}

// SHARED parks RdX and Upg.
TEST_F(HomeDecide, SharedPolicyParksRdXAndUpg) {
  for (Op op : {Op::RdX, Op::Upg}) {
    request(op);
    dir(Policy::Shared, St::S, bit(kR));
    eval();
    EXPECT_EQ(row(), Row::Park);
    expect_no_answer();
    expect_alloc(Kind::Park, 0, Op::DataE, true);
    expect_dir_kept();
    expect_counts({count_of(op), Counter::Parked});
  }
}

// SHARED makes RdS behave as in a region without return-in-Exclusive: DataS on an unshared line.
TEST_F(HomeDecide, SharedPolicyRdSAsWithoutReturnInExclusive) {
  ret_excl(true);
  request(Op::RdS);
  dir(Policy::Shared, St::I, 0);
  eval();
  expect_plain(Row::GrantS, Op::DataS, Counter::RdS, Policy::Shared, St::S,
               bit(kR));  // the policy stays
}

// DENY answers Error (counted), and nothing changes.
TEST_F(HomeDecide, DenyPolicyAnswersErrorCounted) {
  for (Op op : {Op::RdS, Op::RdX, Op::Upg}) {
    request(op);
    dir(Policy::Deny, St::X, bit(kO));
    eval();
    EXPECT_EQ(row(), Row::Deny);
    expect_rsp(Op::Error, kR, kTag);
    expect_dir_kept();
    expect_table_kept();
    expect_no_snoop();
    expect_consumed_no_write();
    expect_counts({count_of(op), Counter::Denied});
  }
}

// Grants and snoops leave the policy as it is (a SHARED line's RdS: a grant, and a snoop).
TEST_F(HomeDecide, GrantsAndSnoopsLeaveThePolicy) {
  request(Op::RdS);
  dir(Policy::Shared, St::S, bit(kO));
  eval();
  EXPECT_EQ(row(), Row::GrantSAdd);
  expect_dir(Policy::Shared, St::S, bit(kO) | bit(kR));
  dir(Policy::Shared, St::X, bit(kO));
  eval();
  EXPECT_EQ(row(), Row::SnoopDown);
  expect_dir(Policy::Shared, St::S, bit(kO) | bit(kR));
}

// ---- State table: requests under ALLOW, the line with no TT entry ------------------------

// "I": RdS gets DataE → X{R} in a return-in-Exclusive region, else DataS → S{R}.
TEST_F(HomeDecide, IRdSDataEInRetExclRegionElseDataS) {
  request(Op::RdS);
  dir(Policy::Allow, St::I, 0);
  ret_excl(true);
  eval();
  expect_plain(Row::GrantE, Op::DataE, Counter::RdS, Policy::Allow, St::X, bit(kR));
  ret_excl(false);
  eval();
  expect_plain(Row::GrantS, Op::DataS, Counter::RdS, Policy::Allow, St::S, bit(kR));
}

// "I": RdX gets DataE → X{R}; Upg as RdX.
TEST_F(HomeDecide, IRdXAndUpgDataEToXR) {
  for (Op op : {Op::RdX, Op::Upg}) {
    request(op);
    dir(Policy::Allow, St::I, 0);
    eval();
    expect_plain(Row::GrantE, Op::DataE, count_of(op), Policy::Allow, St::X, bit(kR));
  }
}

// "S, R only sharer": RdS gets DataS (S{R}), RdX DataE → X{R}, Upg UpgAck → X{R}.
TEST_F(HomeDecide, SROnlySharerRdSDataSRdXDataEUpgUpgAck) {
  dir(Policy::Allow, St::S, bit(kR));
  request(Op::RdS);
  eval();
  expect_plain(Row::GrantSAdd, Op::DataS, Counter::RdS, Policy::Allow, St::S, bit(kR));
  request(Op::RdX);
  eval();
  expect_plain(Row::GrantE, Op::DataE, Counter::RdX, Policy::Allow, St::X, bit(kR));
  request(Op::Upg);
  eval();
  expect_plain(Row::UpgAck, Op::UpgAck, Counter::Upg, Policy::Allow, St::X, bit(kR));
}

// "S, others": RdS gets DataS → S∪{R}.
TEST_F(HomeDecide, SOthersRdSDataSToSPlusR) {
  dir(Policy::Allow, St::S, bit(kO) | bit(kT));
  request(Op::RdS);
  eval();
  expect_plain(Row::GrantSAdd, Op::DataS, Counter::RdS, Policy::Allow, St::S,
               bit(kO) | bit(kT) | bit(kR));
}

// "S, others": RdX FwdInv the others; a SNOOP entry; at its end DataE; dir → X{R}.
TEST_F(HomeDecide, SOthersRdXFwdInvOthersSnoopThenDataE) {
  for (uint8_t sharers : {uint8_t(bit(kO) | bit(kT)), uint8_t(bit(kO) | bit(kT) | bit(kR))}) {
    dir(Policy::Allow, St::S, sharers);
    request(Op::RdX);
    eval();
    EXPECT_EQ(row(), Row::SnoopInv);
    expect_no_answer();
    expect_snoop(Op::FwdInv, bit(kO) | bit(kT), kFree);
    expect_alloc(Kind::Snoop, bit(kO) | bit(kT), Op::DataE, false);
    expect_dir(Policy::Allow, St::X, bit(kR));
    expect_consumed_no_write();
    expect_counts({Counter::RdX});
  }
}

// "S, others": Upg FwdInv the others; at the end UpgAck, DataE if R is not a sharer.
TEST_F(HomeDecide, SOthersUpgFwdInvOthersThenUpgAckOrDataE) {
  dir(Policy::Allow, St::S, bit(kO) | bit(kR));
  request(Op::Upg);
  eval();
  EXPECT_EQ(row(), Row::SnoopInv);
  expect_no_answer();
  expect_snoop(Op::FwdInv, bit(kO), kFree);
  expect_alloc(Kind::Snoop, bit(kO), Op::UpgAck, false);
  expect_dir(Policy::Allow, St::X, bit(kR));
  dir(Policy::Allow, St::S, bit(kO) | bit(kT));
  eval();
  EXPECT_EQ(row(), Row::SnoopInv);
  expect_snoop(Op::FwdInv, bit(kO) | bit(kT), kFree);
  expect_alloc(Kind::Snoop, bit(kO) | bit(kT), Op::DataE, false);
  expect_dir(Policy::Allow, St::X, bit(kR));
  expect_counts({Counter::Upg});
}

// "X{R}": RdS is granted again as from I; RdX and Upg get DataE.
TEST_F(HomeDecide, XRRdSAsFromIRdXAndUpgDataE) {
  dir(Policy::Allow, St::X, bit(kR));
  request(Op::RdS);
  ret_excl(true);
  eval();
  expect_plain(Row::GrantE, Op::DataE, Counter::RdS, Policy::Allow, St::X, bit(kR));
  ret_excl(false);
  eval();
  expect_plain(Row::GrantS, Op::DataS, Counter::RdS, Policy::Allow, St::S, bit(kR));
  for (Op op : {Op::RdX, Op::Upg}) {
    request(op);
    eval();
    expect_plain(Row::GrantE, Op::DataE, count_of(op), Policy::Allow, St::X, bit(kR));
  }
}

// "X{O}, O≠R": RdS FwdDown O; a SNOOP entry; at its end DataS; dir → S{O,R}.
TEST_F(HomeDecide, XORdSFwdDownOSnoopThenDataS) {
  for (bool re : {false, true}) {
    ret_excl(re);
    dir(Policy::Allow, St::X, bit(kO));
    request(Op::RdS);
    eval();
    EXPECT_EQ(row(), Row::SnoopDown);
    expect_no_answer();
    expect_snoop(Op::FwdDown, bit(kO), kFree);
    expect_alloc(Kind::Snoop, bit(kO), Op::DataS, false);
    expect_dir(Policy::Allow, St::S, bit(kO) | bit(kR));
    expect_consumed_no_write();
    expect_counts({Counter::RdS});
  }
}

// "X{O}, O≠R": RdX FwdInv O; at its end DataE; dir → X{R}. Upg as RdX.
TEST_F(HomeDecide, XORdXAndUpgFwdInvOSnoopThenDataE) {
  for (Op op : {Op::RdX, Op::Upg}) {
    dir(Policy::Allow, St::X, bit(kO));
    request(op);
    eval();
    EXPECT_EQ(row(), Row::SnoopInv);
    expect_no_answer();
    expect_snoop(Op::FwdInv, bit(kO), kFree);
    expect_alloc(Kind::Snoop, bit(kO), Op::DataE, false);
    expect_dir(Policy::Allow, St::X, bit(kR));
    expect_counts({count_of(op)});
  }
}

// "A request to a line with a TT entry ... is answered Retry".
TEST_F(HomeDecide, RequestToALineWithATtEntryRetry) {
  for (St st : {St::I, St::S, St::X}) {
    dir(Policy::Allow, st, st == St::I ? 0 : bit(kO));
    entry_on_line(Kind::Snoop, bit(kO));
    request(Op::RdS);
    eval();
    EXPECT_EQ(row(), Row::Retry);
    expect_rsp(Op::Retry, kR, kTag);
    expect_dir_kept();
    expect_table_kept();
    expect_no_snoop();
    expect_counts({Counter::RdS, Counter::RetryBusy});
  }
}

// "... or when fewer than TtReserve entries are free": a request that needs an entry (it parks,
// or snoops another holder) and finds none beyond the reserve is answered Retry.
TEST_F(HomeDecide, RequestNeedingAnEntryWithNoneBeyondTheReserveRetry) {
  m_->lk_room_i = 0;
  for (Op op : {Op::RdS, Op::RdX, Op::Upg}) {
    dir(Policy::Allow, St::X, bit(kO));
    request(op);
    eval();
    EXPECT_EQ(row(), Row::Retry);
    expect_rsp(Op::Retry, kR, kTag);
    expect_dir_kept();
    expect_table_kept();
    expect_no_snoop();
    expect_counts({count_of(op), Counter::RetryBusy});
  }
}

// ---- Other inputs -------------------------------------------------------------------------

// "WB from W, TT entry on the line with W in pend/wbp": memory ← data, WbAck; clear wbp[W]
// (W in wbp) or set wbgot[W] (W in pend); the entry is not done while answers remain.
TEST_F(HomeDecide, WbWithEntryWaitingForWAbsorbedWhileAnswersRemain) {
  dir(Policy::Allow, St::I, 0);
  request(Op::WB);
  entry_on_line(Kind::Snoop, bit(kR) | bit(kT));  // W's SnpAck and T's are still awaited
  eval();
  EXPECT_EQ(row(), Row::WbRace);
  expect_rsp(Op::WbAck, kR, kTag);
  EXPECT_TRUE(m_->d_mem_we_o);
  EXPECT_TRUE(m_->d_data_msg_o);
  expect_upd(kEnt, bit(kR) | bit(kT), 0, bit(kR), false);  // wbgot[W] set
  expect_dir_kept();
  expect_no_snoop();
  expect_counts({Counter::WB});
  entry_on_line(Kind::Snoop, bit(kT), bit(kR));  // W's write-back was awaited
  eval();
  EXPECT_EQ(row(), Row::WbRace);
  expect_upd(kEnt, bit(kT), 0, 0, false);  // wbp[W] cleared
}

// ... complete if done: a RECALL raises its event (RECALL_DONE).
TEST_F(HomeDecide, WbCompletingARecallRaisesItsEvent) {
  dir(Policy::Allow, St::I, 0);
  request(Op::WB);
  entry_on_line(Kind::Recall, 0, bit(kR));
  eval();
  EXPECT_EQ(row(), Row::WbRaceEvt);
  expect_rsp(Op::WbAck, kR, kTag);
  EXPECT_TRUE(m_->d_mem_we_o);
  expect_upd(kEnt, 0, 0, 0, true);
  EXPECT_FALSE(m_->d_free_o);
  expect_counts({Counter::WB});
}

// ... complete if done: a SNOOP sends its grant, with the write-back's data, beside the WbAck.
TEST_F(HomeDecide, WbCompletingASnoopGrantWithItsDataAndWbAck) {
  dir(Policy::Allow, St::S, bit(kO) | bit(kR));
  request(Op::WB);
  entry_on_line(Kind::Snoop, 0, bit(kR), 0, Op::DataS);
  eval();
  EXPECT_EQ(row(), Row::WbRaceGnt);
  EXPECT_TRUE(m_->d_out_rsp_o);
  EXPECT_TRUE(m_->d_out_dat_o);
  expect_answer(rsp(), Op::WbAck, kR, kTag, 0);
  expect_answer(dat(), Op::DataS, kO, kTag, kLineBytes);  // the entry's requester
  EXPECT_TRUE(m_->d_data_msg_o);
  EXPECT_TRUE(m_->d_mem_we_o);
  expect_free(kEnt);
  EXPECT_FALSE(m_->d_upd_o);
  expect_dir_kept();
  expect_counts({Counter::WB});
}

// "WB from W, no TT entry, dir X{W}": memory ← data, dir → I, WbAck.
TEST_F(HomeDecide, WbFromTheOwnerNoEntryMemoryDirIWbAck) {
  dir(Policy::Shared, St::X, bit(kR));
  request(Op::WB);
  eval();
  EXPECT_EQ(row(), Row::WbOwner);
  expect_rsp(Op::WbAck, kR, kTag);
  EXPECT_TRUE(m_->d_mem_we_o);
  EXPECT_TRUE(m_->d_data_msg_o);
  expect_dir(Policy::Shared, St::I, 0);
  expect_table_kept();
  expect_counts({Counter::WB});
}

// "WB from W, otherwise": Error, ERR_PROTO.
TEST_F(HomeDecide, WbOtherwiseErrorCountedAsProtocol) {
  for (St st : {St::I, St::S, St::X}) {
    dir(Policy::Allow, st, st == St::I ? 0 : st == St::S ? bit(kR) : bit(kO));
    request(Op::WB);
    eval();
    EXPECT_EQ(row(), Row::ReqError);
    expect_rsp(Op::Error, kR, kTag);
    EXPECT_FALSE(m_->d_mem_we_o);
    expect_dir_kept();
    expect_table_kept();
    expect_counts({Counter::WB, Counter::ErrProto});
  }
}

// "SnpData (tag = entry), W in pend": memory ← data, clear pend[W]; not done while others wait.
TEST_F(HomeDecide, SnpDataMemoryClearsPend) {
  dir(Policy::Allow, St::X, bit(kR));
  named_entry(Kind::Snoop, bit(kR) | bit(kT));
  answer(Op::SnpData, kR);
  eval();
  EXPECT_EQ(row(), Row::SnpUpd);
  expect_no_answer();
  EXPECT_TRUE(m_->d_mem_we_o);
  expect_upd(kEnt, bit(kT), 0, 0, false);
  EXPECT_TRUE(m_->d_pop_o);
  expect_dir_kept();
  expect_counts({});
}

// "SnpAck": clear pend[W]; with WBP and W not in wbgot, set wbp[W] (the entry then waits).
TEST_F(HomeDecide, SnpAckClearsPendSetsWbpUnlessTheWbArrived) {
  dir(Policy::Allow, St::X, bit(kR));
  named_entry(Kind::Snoop, bit(kR));
  answer(Op::SnpAck, kR, kEnt, proto::kFlagWbPending);
  eval();
  EXPECT_EQ(row(), Row::SnpUpd);
  expect_no_answer();
  EXPECT_FALSE(m_->d_mem_we_o);
  expect_upd(kEnt, 0, bit(kR), 0, false);
  named_entry(Kind::Snoop, bit(kR), 0, bit(kR));  // the write-back already arrived: done
  eval();
  EXPECT_EQ(row(), Row::SnpGrant);
}

// Completion: a SNOOP sends its grant (data from memory after SnpAck, from the message after
// SnpData; an UpgAck on RSP) and is freed; a RECALL marks its event pending.
TEST_F(HomeDecide, SnoopAnswerCompletingSnoopGrantsRecallRaisesItsEvent) {
  dir(Policy::Allow, St::X, bit(kO));
  named_entry(Kind::Snoop, bit(kR), 0, 0, Op::DataE);
  answer(Op::SnpAck, kR);
  eval();
  EXPECT_EQ(row(), Row::SnpGrant);
  expect_dat(Op::DataE, kO, kTag, false);
  expect_free(kEnt);
  EXPECT_FALSE(m_->d_upd_o);
  answer(Op::SnpData, kR);
  eval();
  EXPECT_EQ(row(), Row::SnpGrant);
  expect_dat(Op::DataE, kO, kTag, true);
  EXPECT_TRUE(m_->d_mem_we_o);
  named_entry(Kind::Snoop, bit(kR), 0, 0, Op::UpgAck);
  answer(Op::SnpAck, kR);
  eval();
  EXPECT_EQ(row(), Row::SnpGrant);
  expect_rsp(Op::UpgAck, kO, kTag);
  named_entry(Kind::Recall, bit(kR));
  answer(Op::SnpAck, kR);
  eval();
  EXPECT_EQ(row(), Row::SnpEvt);
  expect_no_answer();
  expect_upd(kEnt, 0, 0, 0, true);
  EXPECT_FALSE(m_->d_free_o);
  expect_dir_kept();
  expect_counts({});
}

// "SnpAck/SnpData, no such waiting entry": dropped, ERR_PROTO.
TEST_F(HomeDecide, SnoopAnswerWithNoWaitingEntryDroppedCountedAsProtocol) {
  dir(Policy::Allow, St::X, bit(kR));
  for (Op op : {Op::SnpAck, Op::SnpData}) {
    answer(op, kR);
    eval();  // no entry named
    EXPECT_EQ(row(), Row::None);
    expect_counts({Counter::ErrProto});
    named_entry(Kind::Snoop, bit(kT));  // an entry that does not wait for this agent
    eval();
    EXPECT_EQ(row(), Row::None);
    expect_no_answer();
    expect_table_kept();
    expect_dir_kept();
    EXPECT_FALSE(m_->d_mem_we_o);
    expect_counts({Counter::ErrProto});
    m_->lk_ent_match_i = 0;
    m_->lk_hit_any_i = 0;
  }
}

// "timer: PARK entry past its deadline": Retry to the requester, free the entry (the policy
// stays). A timeout whose entry no longer holds does nothing.
TEST_F(HomeDecide, ParkTimerPastItsDeadlineRetryFreesThePolicyStays) {
  m_->src_i = static_cast<uint8_t>(Src::Timeout);
  m_->tmo_ent_i = kPark;
  m_->tmo_src_i = kR;
  m_->tmo_tag_i = kParkTag;
  m_->tmo_line_i = kLine;
  m_->line_i = kLine;
  dir(Policy::Park, St::I, 0);
  m_->tmo_live_i = 1;
  eval();
  EXPECT_EQ(row(), Row::TmoRetry);
  expect_rsp(Op::Retry, kR, kParkTag);
  expect_free(kPark);
  EXPECT_FALSE(m_->d_alloc_o || m_->d_upd_o || m_->d_conv_o);
  expect_dir_kept();
  EXPECT_FALSE(m_->d_pop_o);  // (a timeout is no input's message)
  expect_counts({Counter::RetryTimeout});
  m_->tmo_live_i = 0;
  eval();
  EXPECT_EQ(row(), Row::None);
  expect_no_answer();
  expect_table_kept();
  expect_counts({});
}

// "ARM(l), DISARM(l), POLICY(l, p)": policy[l] ← PARK, ALLOW, p (with or without a parked
// request; the state and sharers stay).
TEST_F(HomeDecide, ArmDisarmPolicySetThePolicy) {
  for (bool park : {false, true}) {
    if (park) parked(Op::RdS);
    dir(Policy::Shared, St::S, bit(kO));
    command(Cmd::Arm);
    eval();
    EXPECT_EQ(row(), Row::SetPol);
    expect_dir(Policy::Park, St::S, bit(kO));
    command(Cmd::Disarm);
    eval();
    EXPECT_EQ(row(), Row::SetPol);
    expect_dir(Policy::Allow, St::S, bit(kO));
    for (Policy p : {Policy::Allow, Policy::Shared, Policy::Park, Policy::Deny}) {
      command(Cmd::Policy, static_cast<unsigned>(p));
      eval();
      EXPECT_EQ(row(), Row::SetPol);
      expect_dir(p, St::S, bit(kO));
      expect_no_answer();
      expect_table_kept();
      expect_no_snoop();
      expect_consumed_no_write();
      expect_counts({});
    }
  }
}

// "RELEASE(l), RESUME(l, g), PARK entry on l, no other holder in the way": answered from memory
// (RELEASE and RESUME AUTO: by op and region; RESUME S/E: that grant, DataE to RdX/Upg), dir →
// X{R} or S∪{R}, the entry freed; RELEASE sets ALLOW, RESUME leaves the policy.
TEST_F(HomeDecide, ReleaseOrResumeWithNoHolderInTheWayGrantFromMemory) {
  struct Case {
    Cmd cmd;
    Grant g;
    Op op;
    bool re;
    St st;
    uint8_t sh;
    Op grant;
    St st_after;
    uint8_t sh_after;
  };
  const Case cases[] = {
      {Cmd::Release, Grant::Auto, Op::RdS, false, St::I, 0, Op::DataS, St::S, bit(kR)},
      {Cmd::Release, Grant::Auto, Op::RdS, true, St::I, 0, Op::DataE, St::X, bit(kR)},
      {Cmd::Release, Grant::Auto, Op::RdX, false, St::I, 0, Op::DataE, St::X, bit(kR)},
      {Cmd::Release, Grant::Auto, Op::Upg, false, St::X, bit(kR), Op::DataE, St::X, bit(kR)},
      {Cmd::Release, Grant::Auto, Op::RdS, false, St::S, bit(kO), Op::DataS, St::S,
       uint8_t(bit(kO) | bit(kR))},
      {Cmd::Resume, Grant::Auto, Op::RdS, true, St::I, 0, Op::DataE, St::X, bit(kR)},
      {Cmd::Resume, Grant::S, Op::RdS, true, St::S, bit(kO), Op::DataS, St::S,
       uint8_t(bit(kO) | bit(kR))},
      {Cmd::Resume, Grant::S, Op::RdX, false, St::I, 0, Op::DataE, St::X, bit(kR)},
      {Cmd::Resume, Grant::E, Op::RdS, false, St::I, 0, Op::DataE, St::X, bit(kR)},
      {Cmd::Resume, Grant::SharedOnly, Op::RdS, true, St::I, 0, Op::DataS, St::S, bit(kR)},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "command " << int(c.cmd) << " grant " << int(c.g) << " op "
                                      << int(c.op) << " state " << int(c.st));
    parked(c.op);
    ret_excl(c.re);
    dir(Policy::Park, c.st, c.sh);
    command(c.cmd, static_cast<unsigned>(c.g));
    eval();
    EXPECT_EQ(row(), Row::RelGrant);
    expect_dat(c.grant, kR, kParkTag, false);
    expect_dir(c.cmd == Cmd::Release ? Policy::Allow : Policy::Park, c.st_after, c.sh_after);
    expect_free(kPark);
    EXPECT_FALSE(m_->d_alloc_o || m_->d_upd_o || m_->d_conv_o);
    expect_no_snoop();
    expect_consumed_no_write();
    expect_counts({Counter::Released});
  }
}

// "RELEASE(l), RESUME(l, g), PARK entry from R, dir X{O} or S with others and an exclusive
// grant": the PARK entry becomes a SNOOP: FwdDown O (a shared grant) or FwdInv the others; dir →
// S{O,R} or X{R}; at its end the grant.
TEST_F(HomeDecide, ReleaseOrResumeWithHoldersInTheWayTheParkEntryBecomesASnoop) {
  struct Case {
    Cmd cmd;
    Grant g;
    Op op;
    St st;
    uint8_t sh;
    Op snoop;
    uint8_t snooped;
    Op grant;
    St st_after;
    uint8_t sh_after;
  };
  const Case cases[] = {
      {Cmd::Release, Grant::Auto, Op::RdS, St::X, bit(kO), Op::FwdDown, bit(kO), Op::DataS, St::S,
       uint8_t(bit(kO) | bit(kR))},
      {Cmd::Release, Grant::Auto, Op::RdX, St::X, bit(kO), Op::FwdInv, bit(kO), Op::DataE, St::X,
       bit(kR)},
      {Cmd::Release, Grant::Auto, Op::RdX, St::S, uint8_t(bit(kO) | bit(kT) | bit(kR)), Op::FwdInv,
       uint8_t(bit(kO) | bit(kT)), Op::DataE, St::X, bit(kR)},
      {Cmd::Resume, Grant::E, Op::RdS, St::S, bit(kO), Op::FwdInv, bit(kO), Op::DataE, St::X,
       bit(kR)},
      {Cmd::Resume, Grant::S, Op::RdS, St::X, bit(kO), Op::FwdDown, bit(kO), Op::DataS, St::S,
       uint8_t(bit(kO) | bit(kR))},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(::testing::Message() << "command " << int(c.cmd) << " grant " << int(c.g) << " op "
                                      << int(c.op) << " state " << int(c.st));
    parked(c.op);
    ret_excl(false);
    dir(Policy::Park, c.st, c.sh);
    command(c.cmd, static_cast<unsigned>(c.g));
    eval();
    EXPECT_EQ(row(), Row::RelSnoop);
    expect_no_answer();
    EXPECT_TRUE(m_->d_conv_o);
    EXPECT_EQ(m_->d_conv_idx_o, kPark);
    EXPECT_EQ(m_->d_conv_pend_o, c.snooped);
    EXPECT_EQ(m_->d_conv_grant_o, static_cast<uint8_t>(c.grant));
    expect_snoop(c.snoop, c.snooped, kPark);
    expect_dir(c.cmd == Cmd::Release ? Policy::Allow : Policy::Park, c.st_after, c.sh_after);
    EXPECT_FALSE(m_->d_alloc_o || m_->d_upd_o || m_->d_free_o);
    expect_consumed_no_write();
    expect_counts({Counter::Released});
  }
}

// "RELEASE(l), no PARK entry": policy[l] ← ALLOW.
TEST_F(HomeDecide, ReleaseWithNoParkEntryAllows) {
  dir(Policy::Park, St::X, bit(kO));
  command(Cmd::Release);
  eval();
  EXPECT_EQ(row(), Row::SetPol);
  expect_dir(Policy::Allow, St::X, bit(kO));
  expect_no_answer();
  expect_table_kept();
  expect_consumed_no_write();
  expect_counts({});
}

// "RESUME(l, g), NACK(l, a), no PARK entry": nothing (the command is taken).
TEST_F(HomeDecide, ResumeOrNackWithNoParkEntryNothing) {
  dir(Policy::Park, St::X, bit(kO));
  for (Cmd c : {Cmd::Resume, Cmd::Nack}) {
    command(c, 1);
    eval();
    EXPECT_EQ(row(), Row::None);
    expect_no_answer();
    expect_table_kept();
    expect_dir_kept();
    expect_no_snoop();
    expect_consumed_no_write();
    expect_counts({});
  }
}

// "NACK(l, a), PARK entry on l": Retry (a = 0) or Error (a = 1) to its requester, free it.
TEST_F(HomeDecide, NackWithAParkEntryRetryOrErrorAndFreesIt) {
  parked(Op::RdX);
  dir(Policy::Park, St::I, 0);
  for (NackAnswer a : {NackAnswer::Retry, NackAnswer::Error}) {
    command(Cmd::Nack, static_cast<unsigned>(a));
    eval();
    EXPECT_EQ(row(), Row::Nack);
    expect_rsp(a == NackAnswer::Retry ? Op::Retry : Op::Error, kR, kParkTag);
    expect_free(kPark);
    EXPECT_FALSE(m_->d_alloc_o || m_->d_upd_o || m_->d_conv_o);
    expect_dir_kept();
    expect_consumed_no_write();
    expect_counts({});
  }
}

// "RESUME(l, SO), PARK entry on l of an RdX or Upg": Retry to its requester, free it (a shared-only
// grant never answers a write: the tag store's ReadOnly).
TEST_F(HomeDecide, ResumeSharedOnlyOfAParkedWriteRetriesIt) {
  for (Op op : {Op::RdX, Op::Upg}) {
    SCOPED_TRACE(::testing::Message() << "op " << int(op));
    parked(op);
    dir(Policy::Park, op == Op::Upg ? St::S : St::I, op == Op::Upg ? bit(kR) : 0);
    command(Cmd::Resume, static_cast<unsigned>(Grant::SharedOnly));
    eval();
    EXPECT_EQ(row(), Row::Nack);
    expect_rsp(Op::Retry, kR, kParkTag);
    expect_free(kPark);
    EXPECT_FALSE(m_->d_alloc_o || m_->d_upd_o || m_->d_conv_o);
    expect_dir_kept();
    expect_consumed_no_write();
    expect_counts({});
  }
}

// "RECALL(l), RECALL_DN(l), PARK entry on l": Retry to its requester, free it; the command stays
// at the port (not consumed) and is taken again.
TEST_F(HomeDecide, RecallWithAParkEntryRetriesItAndStays) {
  parked(Op::RdS);
  dir(Policy::Park, St::X, bit(kO));
  for (Cmd c : {Cmd::Recall, Cmd::RecallDn}) {
    command(c);
    eval();
    EXPECT_EQ(row(), Row::RecNack);
    expect_rsp(Op::Retry, kR, kParkTag);
    expect_free(kPark);
    EXPECT_FALSE(m_->d_alloc_o || m_->d_upd_o || m_->d_conv_o);
    EXPECT_FALSE(m_->d_pop_o);
    EXPECT_FALSE(m_->d_stall_cmd_o);
    expect_dir_kept();
    expect_no_snoop();
    expect_counts({});
  }
}

// "RECALL(l), RECALL_DN(l), the line has another TT entry, or no free entry": wait (the command
// is not accepted).
TEST_F(HomeDecide, RecallWithAnEntryOnTheLineOrNoFreeEntryWaits) {
  dir(Policy::Allow, St::X, bit(kO));
  for (Cmd c : {Cmd::Recall, Cmd::RecallDn}) {
    for (bool full : {false, true}) {
      m_->lk_hit_any_i = 0;
      m_->lk_free_any_i = 1;
      if (full) {
        m_->lk_free_any_i = 0;
      } else {
        entry_on_line(Kind::Snoop, bit(kO));
      }
      command(c);
      eval();
      EXPECT_EQ(row(), Row::RecWait);
      EXPECT_FALSE(m_->d_pop_o);
      EXPECT_TRUE(m_->d_stall_cmd_o);
      expect_no_answer();
      expect_table_kept();
      expect_dir_kept();
      expect_no_snoop();
      expect_counts({});
    }
  }
}

// "RECALL(l), dir I": RECALL_DONE(l) at once (a RECALL entry with its event).
TEST_F(HomeDecide, RecallOfDirIDoneAtOnce) {
  dir(Policy::Park, St::I, 0);
  command(Cmd::Recall);
  eval();
  EXPECT_EQ(row(), Row::RecDone);
  expect_no_answer();
  expect_alloc(Kind::Recall, 0, Op::DataE, true);
  expect_dir(Policy::Park, St::I, 0);
  expect_no_snoop();
  expect_consumed_no_write();
  expect_counts({Counter::Recall});
}

// "RECALL(l), dir S / X": FwdInv every holder; a RECALL entry; dir → I; RECALL_DONE when done.
TEST_F(HomeDecide, RecallOfDirSOrXFwdInvEveryHolderDirI) {
  for (St st : {St::S, St::X}) {
    const uint8_t sh = st == St::S ? uint8_t(bit(kO) | bit(kT) | bit(kR)) : bit(kO);
    dir(Policy::Shared, st, sh);
    command(Cmd::Recall);
    eval();
    EXPECT_EQ(row(), Row::RecSnoop);
    expect_no_answer();
    expect_snoop(Op::FwdInv, sh, kFree);
    expect_alloc(Kind::Recall, sh, Op::DataE, false);
    expect_dir(Policy::Shared, St::I, 0);
    expect_consumed_no_write();
    expect_counts({Counter::Recall});
  }
}

// "RECALL_DN(l), dir I or S": RECALL_DONE(l) at once (nothing changes).
TEST_F(HomeDecide, RecallDnOfDirIOrSDoneAtOnceNothingChanges) {
  for (St st : {St::I, St::S}) {
    dir(Policy::Allow, st, st == St::I ? 0 : uint8_t(bit(kO) | bit(kT)));
    command(Cmd::RecallDn);
    eval();
    EXPECT_EQ(row(), Row::RcdDone);
    expect_no_answer();
    expect_alloc(Kind::Recall, 0, Op::DataE, true);
    expect_dir_kept();
    expect_no_snoop();
    expect_consumed_no_write();
    expect_counts({Counter::Recall});
  }
}

// "RECALL_DN(l), dir X{O}": FwdDown O; a RECALL entry; dir → S{O}; RECALL_DONE when done.
TEST_F(HomeDecide, RecallDnOfDirXOFwdDownOwnerDirSO) {
  dir(Policy::Allow, St::X, bit(kO));
  command(Cmd::RecallDn);
  eval();
  EXPECT_EQ(row(), Row::RcdSnoop);
  expect_no_answer();
  expect_snoop(Op::FwdDown, bit(kO), kFree);
  expect_alloc(Kind::Recall, bit(kO), Op::DataE, false);
  expect_dir(Policy::Allow, St::S, bit(kO));
  expect_consumed_no_write();
  expect_counts({Counter::Recall});
}

}  // namespace
}  // namespace cni::tb::home::test
