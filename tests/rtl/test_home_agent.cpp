// SPDX-License-Identifier: Apache-2.0
// Directed tests of the home agent: every row of the state table in docs/endpoint.md, the races
// docs/protocol.md names, and each kind of malformed message.
#include <vector>

#include "fixture.hpp"

namespace cni::test {
namespace {

using HomeAgent = EndpointTest;

TEST_F(HomeAgent, IdentifiesItselfAndReportsGeometry) {
  EXPECT_EQ(ep->csr_read(csr::kId), 0x434E4931u);
  uint32_t g = ep->csr_read(csr::kGeometry);
  EXPECT_EQ(g & 0xFF, geo().line_bytes);
  EXPECT_EQ(g >> 16, geo().num_lines());
  EXPECT_EQ(ep->csr_read(csr::kRetExcl), (1u << tb::DeviceGeometry::kNumRegions) - 1);
}

TEST_F(HomeAgent, ReadSharedOnUnsharedLineReturnsExclusive) {
  ep->send(req(Op::RdS, kHost1, line(3)));
  Msg d = expect(Op::DataE, kHost1, line(3));
  EXPECT_EQ(d.len, geo().line_bytes);
  EXPECT_EQ(d.tag, 7);
  for (unsigned i = 0; i < geo().line_bytes; ++i) ASSERT_EQ(d.data[i], 0) << "memory starts zeroed";
  EXPECT_EQ(ep->counter(csr::kRds), 1u);
}

// CTRL bit 0 clears every counter; the next read after the write's response sees zero, and
// counting goes on from there.
TEST_F(HomeAgent, CtrlWriteClearsEveryCounter) {
  ep->send(req(Op::RdS, kHost1, line(3)));
  expect(Op::DataE, kHost1, line(3));
  ep->send(req(Op::RdX, kHost2, line(4)));
  expect(Op::DataE, kHost2, line(4));
  ASSERT_EQ(ep->counter(csr::kRds), 1u);
  ASSERT_EQ(ep->counter(csr::kRdx), 1u);
  ep->csr_write(csr::kCtrl, 0x0);  // bit 0 clear: nothing happens
  EXPECT_EQ(ep->counter(csr::kRds), 1u);
  ep->csr_write(csr::kCtrl, 0x1);
  for (unsigned c = 0; c < csr::kNumCounters; ++c) {
    EXPECT_EQ(ep->counter(static_cast<csr::Counter>(c)), 0u)
        << csr::counter_name(static_cast<csr::Counter>(c));
  }
  ep->send(req(Op::RdS, kHost1, line(5)));
  expect(Op::DataE, kHost1, line(5));
  EXPECT_EQ(ep->counter(csr::kRds), 1u);
}

// Every CSR read is answered with its own register: a mapped one OKAY, an unmapped address or a
// write-only register SLVERR, reads back to back included (the pipelined CSR registers the read's
// match and answers one cycle later: docs/endpoint.md, "CSR map").
TEST_F(HomeAgent, CsrReadsAnswerTheirOwnRegisterOrSlverr) {
  const uint32_t geom = ep->csr_read(csr::kGeometry);
  const uint32_t net = ep->csr_read(csr::kNet);
  for (int round = 0; round < 3; ++round) {
    unsigned resp = 9;
    EXPECT_EQ(ep->csr_read(csr::kId, &resp), 0x434E4931u);
    EXPECT_EQ(resp, 0u);
    EXPECT_EQ(ep->csr_read(csr::kGeometry, &resp), geom);
    EXPECT_EQ(resp, 0u);
    EXPECT_EQ(ep->csr_read(csr::kNet, &resp), net);
    EXPECT_EQ(resp, 0u);
    ep->csr_read(csr::kDram + 4, &resp);  // between DRAM and the REGION words
    EXPECT_EQ(resp, 2u);
    ep->csr_read(csr::kCtrl, &resp);  // write-only
    EXPECT_EQ(resp, 2u);
    ep->csr_read(csr::kCnt + 4 * csr::kNumCounters, &resp);  // past the last counter
    EXPECT_EQ(resp, 2u);
    ep->csr_read(csr::kCnt + 4 * csr::kRds, &resp);
    EXPECT_EQ(resp, 0u);
  }
  // a write between reads: the read after it sees the value written
  ep->csr_write(csr::kCaBackoff, 0x1234);
  EXPECT_EQ(ep->csr_read(csr::kCaBackoff) & 0xFFFF, 0x1234u);
}

// ---- throughput: one message per cycle on independent lines (docs/endpoint.md, "Pipeline") ----

// Sends `msgs` at once and waits for `n` answers of `op`; returns the cycles from the first
// answer to the last.
uint64_t answer_span(Endpoint& ep, const std::vector<Msg>& msgs, Op op, unsigned n) {
  for (const auto& m : msgs) ep.send(m);
  std::vector<uint64_t> at;
  for (unsigned c = 0; c < 40 * n + 200 && at.size() < n; ++c) {
    ep.tick();
    while (!ep.emitted().empty()) {
      if (ep.emitted().front().msg.op == op) at.push_back(ep.emitted().front().cycle);
      ep.emitted().pop_front();
    }
  }
  EXPECT_EQ(at.size(), n);
  return at.empty() ? 0 : at.back() - at.front();
}

TEST_F(HomeAgent, ReadsOfDistinctLinesAreAnsweredOneMessagePerCycle) {
  const unsigned n = 32;
  std::vector<Msg> msgs;
  for (unsigned i = 0; i < n; ++i) {
    msgs.push_back(req(Op::RdS, i % 2 ? kHost1 : kHost2, line(i), uint8_t(i)));
  }
  EXPECT_EQ(answer_span(*ep, msgs, Op::DataE, n), n - 1);
}

TEST_F(HomeAgent, WritebacksOfDistinctLinesAreAcceptedOneMessagePerCycle) {
  const unsigned n = 32;
  for (unsigned i = 0; i < n; ++i) acquire(kHost1, line(i));
  std::vector<Msg> msgs;
  for (unsigned i = 0; i < n; ++i) {
    msgs.push_back(with_data(req(Op::WB, kHost1, line(i), uint8_t(i)), pattern(uint8_t(i))));
  }
  EXPECT_EQ(answer_span(*ep, msgs, Op::WbAck, n), n - 1);
  // the memory holds what was written back
  for (unsigned i = 0; i < n; i += 7) {
    ep->send(req(Op::RdS, kHost2, line(i)));
    EXPECT_EQ(expect(Op::DataE, kHost2, line(i)).data, pattern(uint8_t(i)));
  }
}

TEST_F(HomeAgent, SnoopAnswersOfDistinctLinesCompleteOneMessagePerCycle) {
  const unsigned n = 24;
  for (unsigned i = 0; i < n; ++i) acquire(kHost1, line(i));
  std::vector<Msg> rdx;
  for (unsigned i = 0; i < n; ++i) rdx.push_back(req(Op::RdX, kHost2, line(i), uint8_t(i)));
  for (const auto& m : rdx) ep->send(m);
  std::vector<Msg> answers;
  for (unsigned i = 0; i < n; ++i) {
    Msg f = expect(Op::FwdInv, kHost1, line(i));
    answers.push_back(snoop_answer(f, true, pattern(uint8_t(i))));
  }
  EXPECT_EQ(answer_span(*ep, answers, Op::DataE, n), n - 1);
}

TEST_F(HomeAgent, ReadSharedGrantsSharedWhenRegionReturnsShared) {
  ep->csr_write(csr::kRetExcl, ~0x1u);  // region 0 (plain memory) answers RdS with DataS
  ep->send(req(Op::RdS, kHost1, line(3)));
  expect(Op::DataS, kHost1, line(3));
  ep->send(req(Op::RdS, kHost2, line(3)));
  expect(Op::DataS, kHost2, line(3));
}

TEST_F(HomeAgent, UncontendedRequestIsAnsweredWithinEightDeviceCycles) {
  uint64_t sent = ep->cycle();
  ep->send(req(Op::RdS, kHost1, line(5)));
  auto m = ep->wait_msg(100);
  ASSERT_TRUE(m);
  EXPECT_EQ(m->msg.op, Op::DataE);
  uint64_t latency = m->cycle - sent;
  RecordProperty("device_hit_cycles", std::to_string(latency));
  EXPECT_LE(latency, 8u);
}

TEST_F(HomeAgent, ReadSharedOfOwnedLineDowngradesOwnerWithDirtyData) {
  acquire(kHost1, line(4));
  ep->send(req(Op::RdS, kHost2, line(4), 9));
  Msg fwd = expect(Op::FwdDown, kHost1, line(4));
  ep->send(snoop_answer(fwd, true, pattern(4)));
  Msg d = expect(Op::DataS, kHost2, line(4));
  EXPECT_EQ(d.tag, 9);
  EXPECT_EQ(d.data, pattern(4));
  // both now share: a third reader is served at once, with the written-back data
  ep->send(req(Op::RdS, kHost3, line(4)));
  EXPECT_EQ(expect(Op::DataS, kHost3, line(4)).data, pattern(4));
}

TEST_F(HomeAgent, ReadExclusiveInvalidatesEverySharer) {
  ep->csr_write(csr::kRetExcl, 0x0);
  ep->send(req(Op::RdS, kHost1, line(6)));
  expect(Op::DataS, kHost1, line(6));
  ep->send(req(Op::RdS, kHost2, line(6)));
  expect(Op::DataS, kHost2, line(6));
  ep->send(req(Op::RdX, kHost3, line(6)));
  Msg f1 = expect(Op::FwdInv, kHost1, line(6));
  Msg f2 = expect(Op::FwdInv, kHost2, line(6));
  EXPECT_EQ(f1.tag, f2.tag) << "both snoops belong to one transaction";
  ep->send(snoop_answer(f2, false, {}));
  expect_silence(30);  // still waiting for host 1
  ep->send(snoop_answer(f1, false, {}));
  expect(Op::DataE, kHost3, line(6));
  EXPECT_EQ(ep->counter(csr::kSnoops), 2u);
}

TEST_F(HomeAgent, TwoSharersThenOneUpgrades) {
  ep->csr_write(csr::kRetExcl, 0x0);
  ep->send(req(Op::RdS, kHost1, line(7)));
  expect(Op::DataS, kHost1, line(7));
  ep->send(req(Op::RdS, kHost2, line(7)));
  expect(Op::DataS, kHost2, line(7));
  ep->send(req(Op::Upg, kHost1, line(7), 3));
  Msg f = expect(Op::FwdInv, kHost2, line(7));
  ep->send(snoop_answer(f, false, {}));
  Msg a = expect(Op::UpgAck, kHost1, line(7));
  EXPECT_EQ(a.tag, 3);
  // host 1 now owns it: host 2's read must downgrade host 1
  ep->send(req(Op::RdS, kHost2, line(7)));
  Msg d = expect(Op::FwdDown, kHost1, line(7));
  ep->send(snoop_answer(d, true, pattern(7)));
  EXPECT_EQ(expect(Op::DataS, kHost2, line(7)).data, pattern(7));
}

TEST_F(HomeAgent, SoleSharerUpgradesWithoutSnoops) {
  ep->csr_write(csr::kRetExcl, 0x0);
  ep->send(req(Op::RdS, kHost1, line(8)));
  expect(Op::DataS, kHost1, line(8));
  ep->send(req(Op::Upg, kHost1, line(8)));
  expect(Op::UpgAck, kHost1, line(8));
}

TEST_F(HomeAgent, UpgradeFromInvalidatedSharerIsGrantedWithData) {
  ep->csr_write(csr::kRetExcl, 0x0);
  ep->send(req(Op::RdS, kHost1, line(9)));
  expect(Op::DataS, kHost1, line(9));
  ep->send(req(Op::RdS, kHost2, line(9)));
  expect(Op::DataS, kHost2, line(9));
  // host 2's RdX wins; host 1's Upg was in flight while host 1 was invalidated
  ep->send(req(Op::RdX, kHost2, line(9)));
  Msg f = expect(Op::FwdInv, kHost1, line(9));
  ep->send(snoop_answer(f, false, {}));
  expect(Op::DataE, kHost2, line(9));
  ep->send(req(Op::Upg, kHost1, line(9)));
  Msg f2 = expect(Op::FwdInv, kHost2, line(9));
  ep->send(snoop_answer(f2, true, pattern(9)));
  Msg d = expect(Op::DataE, kHost1, line(9));
  EXPECT_EQ(d.data, pattern(9)) << "an Upg from a non-sharer is answered like RdX, with data";
}

TEST_F(HomeAgent, OwnerThatDroppedItsCopyIsGrantedAgain) {
  acquire(kHost1, line(10));
  ep->send(req(Op::RdS, kHost1, line(10)));
  expect(Op::DataE, kHost1, line(10));
  ep->send(req(Op::RdX, kHost1, line(10)));
  expect(Op::DataE, kHost1, line(10));
}

TEST_F(HomeAgent, WritebackFromOwnerUpdatesMemory) {
  acquire(kHost1, line(11));
  ep->send(with_data(req(Op::WB, kHost1, line(11), 5), pattern(11)));
  EXPECT_EQ(expect(Op::WbAck, kHost1, line(11)).tag, 5);
  ep->send(req(Op::RdS, kHost2, line(11)));
  EXPECT_EQ(expect(Op::DataE, kHost2, line(11)).data, pattern(11));
  EXPECT_EQ(ep->counter(csr::kWb), 1u);
}

TEST_F(HomeAgent, InvalidateCollectsDirtyDataForTheNextOwner) {
  acquire(kHost1, line(12));
  ep->send(req(Op::RdX, kHost2, line(12)));
  Msg f = expect(Op::FwdInv, kHost1, line(12));
  ep->send(snoop_answer(f, true, pattern(12)));
  EXPECT_EQ(expect(Op::DataE, kHost2, line(12)).data, pattern(12));
}

TEST_F(HomeAgent, WritebackRacingSnoopAnsweredWithPendingFlagFirst) {
  acquire(kHost1, line(13));
  ep->send(req(Op::RdX, kHost2, line(13)));
  Msg f = expect(Op::FwdInv, kHost1, line(13));
  ep->send(snoop_answer(f, false, {}, proto::kFlagWbPending));
  expect_silence(30);  // the transaction waits for host 1's write-back
  ep->send(with_data(req(Op::WB, kHost1, line(13)), pattern(13)));
  expect(Op::WbAck, kHost1, line(13));
  EXPECT_EQ(expect(Op::DataE, kHost2, line(13)).data, pattern(13));
  EXPECT_EQ(ep->counter(csr::kErrProto), 0u);
}

TEST_F(HomeAgent, WritebackRacingSnoopArrivingBeforeTheSnoopAnswer) {
  acquire(kHost1, line(14));
  ep->send(req(Op::RdX, kHost2, line(14)));
  Msg f = expect(Op::FwdInv, kHost1, line(14));
  ep->send(with_data(req(Op::WB, kHost1, line(14)), pattern(14)));
  expect(Op::WbAck, kHost1, line(14));
  expect_silence(20);  // the snoop answer is still owed
  ep->send(snoop_answer(f, false, {}, proto::kFlagWbPending));
  EXPECT_EQ(expect(Op::DataE, kHost2, line(14)).data, pattern(14));
  EXPECT_EQ(ep->counter(csr::kErrProto), 0u);
}

TEST_F(HomeAgent, RequestToBusyLineIsRetried) {
  acquire(kHost1, line(15));
  ep->send(req(Op::RdX, kHost2, line(15)));
  Msg f = expect(Op::FwdInv, kHost1, line(15));
  ep->send(req(Op::RdS, kHost3, line(15), 4));
  EXPECT_EQ(expect(Op::Retry, kHost3, line(15)).tag, 4);
  ep->send(snoop_answer(f, false, {}));
  expect(Op::DataE, kHost2, line(15));
  EXPECT_EQ(ep->counter(csr::kRetryBusy), 1u);
}

TEST_F(HomeAgent, RequestsToDifferentLinesProceedIndependently) {
  acquire(kHost1, line(16));
  ep->send(req(Op::RdX, kHost2, line(16)));
  Msg f = expect(Op::FwdInv, kHost1, line(16));
  // line 16 is waiting on host 1; line 17 must not wait
  ep->send(req(Op::RdS, kHost3, line(17)));
  expect(Op::DataE, kHost3, line(17));
  ep->send(snoop_answer(f, false, {}));
  expect(Op::DataE, kHost2, line(16));
}

TEST_F(HomeAgent, FullTransactionTableAnswersRetry) {
  // Fill every entry hosts may use with snoop transactions, then one more.
  unsigned usable = geo().tt_entries - geo().tt_reserve;
  std::vector<Msg> fwds;
  for (unsigned i = 0; i < usable; ++i) {
    acquire(kHost1, line(2 + i));
    ep->send(req(Op::RdX, kHost2, line(2 + i)));
    fwds.push_back(expect(Op::FwdInv, kHost1, line(2 + i)));
  }
  acquire(kHost1, line(60));
  ep->send(req(Op::RdX, kHost2, line(60)));
  expect(Op::Retry, kHost2, line(60));
  for (const auto& f : fwds) {
    ep->send(snoop_answer(f, false, {}));
    expect(Op::DataE, kHost2, f.addr);
  }
  ep->send(req(Op::RdX, kHost2, line(60)));
  Msg f = expect(Op::FwdInv, kHost1, line(60));
  ep->send(snoop_answer(f, false, {}));
  expect(Op::DataE, kHost2, line(60));
}

// ---- malformed messages: answered Error (requests) or dropped (others), always counted, and
// ---- the device keeps working with memory intact.
class Malformed : public EndpointTest {
 protected:
  void SetUp() override {
    EndpointTest::SetUp();
    acquire(kHost1, line(2));
    ep->send(with_data(req(Op::WB, kHost1, line(2)), pattern(2)));
    expect(Op::WbAck, kHost1, line(2));
  }
  // After the bad message: a good request still works and line 2 still holds its data.
  void expect_still_healthy() {
    ep->send(req(Op::RdS, kHost2, line(2)));
    EXPECT_EQ(expect(Op::DataE, kHost2, line(2)).data, pattern(2));
  }
};

TEST_F(Malformed, UnknownOpcodeOnRequestChannelGetsError) {
  Msg m = req(Op::RdS, kHost1, line(1), 0x21);
  m.op = static_cast<Op>(0x00);  // no opcode
  ep->send_on(Chan::Req, m);
  EXPECT_EQ(expect(Op::Error, kHost1, line(1)).tag, 0x21);
  EXPECT_EQ(ep->counter(csr::kErrOpcode), 1u);
  expect_still_healthy();
}

TEST_F(Malformed, OpcodeOnWrongChannelGetsError) {
  ep->send_on(Chan::Req, with_data(req(Op::DataE, kHost1, line(1)), pattern(1)));
  expect(Op::Error, kHost1, line(1));
  EXPECT_EQ(ep->counter(csr::kErrOpcode), 1u);
  expect_still_healthy();
}

TEST_F(Malformed, AddressOutsideEveryRegionGetsError) {
  ep->send(req(Op::RdS, kHost1, geo().dev_base + geo().size_bytes()));
  expect(Op::Error, kHost1, geo().dev_base + geo().size_bytes());
  ep->send(req(Op::RdS, kHost1, 0x1000));
  expect(Op::Error, kHost1, 0x1000);
  EXPECT_EQ(ep->counter(csr::kErrAddr), 2u);
  expect_still_healthy();
}

TEST_F(Malformed, MisalignedAddressGetsError) {
  ep->send(req(Op::RdX, kHost1, line(2) + 8));
  expect(Op::Error, kHost1, line(2) + 8);
  EXPECT_EQ(ep->counter(csr::kErrAddr), 1u);
  expect_still_healthy();
}

TEST_F(Malformed, MessageForAnotherAgentGetsError) {
  Msg m = req(Op::RdS, kHost1, line(2));
  m.dst = 12;
  ep->send(m);
  expect(Op::Error, kHost1, line(2));
  EXPECT_EQ(ep->counter(csr::kErrAddr), 1u);
  expect_still_healthy();
}

TEST_F(Malformed, WrongLengthGetsError) {
  Msg m = req(Op::RdS, kHost1, line(2));
  m.len = 64;
  ep->send(m);
  expect(Op::Error, kHost1, line(2));
  Msg wb = with_data(req(Op::WB, kHost1, line(2)), pattern(99));
  wb.len = 8;
  ep->send(wb);
  expect(Op::Error, kHost1, line(2));
  EXPECT_EQ(ep->counter(csr::kErrLen), 2u);
  expect_still_healthy();
}

TEST_F(Malformed, WritebackFromNonOwnerGetsErrorAndLeavesMemory) {
  ep->send(with_data(req(Op::WB, kHost3, line(2)), pattern(77)));
  expect(Op::Error, kHost3, line(2));
  EXPECT_EQ(ep->counter(csr::kErrProto), 1u);
  expect_still_healthy();
}

TEST_F(Malformed, StraySnoopAnswerIsDroppedAndCounted) {
  ep->send(with_data(ep->make(Op::SnpData, kHost1, line(2), 3), pattern(55)));
  ep->send(ep->make(Op::SnpAck, kHost1, line(2), 200));
  expect_silence(40);
  EXPECT_EQ(ep->counter(csr::kErrProto), 2u);
  expect_still_healthy();
}

// A grant the device never asked for reaches its caching agent, which drops and counts it.
TEST_F(Malformed, UnexpectedDataGrantIsDroppedAndCounted) {
  ep->send(with_data(ep->make(Op::DataE, kHost1, line(2)), pattern(66)));
  expect_silence(40);
  EXPECT_EQ(ep->counter(csr::kCaErrors), 1u);
  expect_still_healthy();
}

// A snoop of a line the device does not hold is answered by its caching agent (a home's
// directory is conservative) and counted as a snoop.
TEST_F(Malformed, SnoopOfALineTheDeviceDoesNotHoldIsAnswered) {
  ep->send(ep->make(Op::FwdInv, 0, 0x2000, 11));
  EXPECT_EQ(expect(Op::SnpAck, 0, 0x2000).tag, 11);
  EXPECT_EQ(ep->counter(csr::kCaSnoops), 1u);
  EXPECT_EQ(ep->counter(csr::kErrProto), 0u);
  expect_still_healthy();
}

TEST_F(Malformed, MessageWithoutCreditIsDroppedAndCounted) {
  ep->set_rx_credit_check(false);
  // The host holds the device's transmit credits, so its answers back up into its pipeline and
  // its receive buffer; then more requests arrive than that buffer holds.
  ep->set_auto_tx_credits(false);
  unsigned n = 3 * geo().rx_depth + 3 * geo().tx_credits + 8;
  for (unsigned i = 0; i < n; ++i) ep->send(req(Op::RdS, kHost1, line(30 + i), uint8_t(i)));
  ep->run(5 * n + 50);
  uint32_t dropped = ep->counter(csr::kErrCredit);
  EXPECT_GE(dropped, 1u);
  // give the credits back: everything that was not dropped is answered
  ep->set_auto_tx_credits(true);
  for (size_t i = 0; i < ep->emitted().size(); ++i) ep->return_tx_credit(Chan::Dat);
  ep->run(5 * n + 50);
  unsigned answered = 0;
  while (!ep->emitted().empty()) {
    EXPECT_EQ(ep->emitted().front().msg.op, Op::DataE);
    ep->emitted().pop_front();
    ++answered;
  }
  EXPECT_EQ(answered + dropped, n);
  ep->set_rx_credit_check(true);
  expect_still_healthy();
}

}  // namespace
}  // namespace cni::test
