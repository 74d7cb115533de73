// SPDX-License-Identifier: Apache-2.0
// Malformed messages (docs/protocol.md, rule 9): each error counter of the home agent, requests
// answered Error and everything else dropped, the first fault found the only one counted, and the
// home unchanged afterwards.
#include <stdexcept>
#include <vector>

#include "home_fixture.hpp"

namespace cni::tb::home::test {
namespace {

class HomeMalformed : public HomeTest {
 protected:
  void SetUp() override {
    HomeTest::SetUp();
    acquire(kA1, 2);
    h->send(wb(kA1, 2, pattern(2)));
    expect(Op::WbAck, kA1, 2);
    share({kA2, kA3}, 3);
  }
  // A request is answered Error (to its sender, tag echoed); nothing else leaves.
  void expect_error(const Msg& m) {
    h->send_on(Chan::Req, m);
    const Msg e = expect_at(Op::Error, m.src, m.addr);
    EXPECT_EQ(e.tag, m.tag);
    expect_quiet(10);
  }
  // After the bad messages: memory and directory as before, and a good request still works.
  void expect_unchanged() {
    h->run(2);
    EXPECT_EQ(h->mem(2), pattern(2));
    EXPECT_EQ(probe(3), (Dir{'S', {kA2, kA3}}));
    h->send(req(Op::RdS, kA2, 2));
    EXPECT_EQ(expect(Op::DataE, kA2, 2).data, pattern(2));
  }
  uint64_t errors() const {
    uint64_t n = 0;
    for (Counter c : {Counter::ErrOpcode, Counter::ErrAddr, Counter::ErrLen, Counter::ErrProto}) {
      n += h->count(c);
    }
    return n;
  }
};

TEST_F(HomeMalformed, UnknownOrUnimplementedRequestOpcodeIsAnErrorCountedAsOpcode) {
  Msg unknown = req(Op::RdS, kA1, 2, 0x21);
  unknown.op = static_cast<Op>(0x07);
  expect_error(unknown);
  expect_error(req(Op::RdNA, kA1, 2, 0x22));  // not implemented by this home
  const Line d = pattern(50);
  expect_error(h->make(Op::WrInv, kA1, line(2), 0x23, &d));
  EXPECT_EQ(h->count(Counter::ErrOpcode), 3u);
  EXPECT_EQ(errors(), 3u);
  expect_unchanged();
}

TEST_F(HomeMalformed, OpcodeOfAnotherChannelOnRequestIsAnErrorCountedAsOpcode) {
  const Line d = pattern(51);
  for (Op op : {Op::FwdInv, Op::SnpAck, Op::SnpData, Op::DataE}) {
    expect_error(h->make(op, kA1, line(2), 0x30, &d));
  }
  EXPECT_EQ(h->count(Counter::ErrOpcode), 4u);
  expect_unchanged();
}

// On the other channels a wrong opcode is dropped, nothing answered.
TEST_F(HomeMalformed, WrongOpcodeOnTheResponseChannelIsDroppedCountedAsOpcode) {
  const Line d = pattern(52);
  h->send_on(Chan::Rsp, h->make(Op::WbAck, kA1, line(2), 0));
  h->send_on(Chan::Rsp, h->make(Op::RdS, kA1, line(2), 0));
  h->send_on(Chan::Rsp, h->make(Op::DataI, kA1, line(2), 0, &d));
  expect_quiet();
  EXPECT_EQ(h->count(Counter::ErrOpcode), 3u);
  EXPECT_EQ(errors(), 3u);
  expect_unchanged();
}

// ERR_ADDR: outside the device, beyond its lines within its window, misaligned, addressed to
// another agent, or from an agent id beyond NumAgents.
TEST_F(HomeMalformed, BadAddressDestinationOrSourceIsAnErrorCountedAsAddress) {
  // the line index's span: 64 lines of 64 B, or with DRAM-backed lines twice their number
  const Addr window = Addr{geo().dram_idx_w ? 2 * geo().dram_lines() : 64} * geo().line_bytes;
  std::vector<Msg> bad = {
      h->make(Op::RdS, kA1, 0x1000, 1),                   // below DevBase
      h->make(Op::RdS, kA1, geo().dev_base + window, 2),  // above the window
      h->make(Op::RdX, kA1, line(geo().num_lines()), 3),  // beyond the lines
      h->make(Op::RdX, kA1, line(63), 4),                 // the last index
      h->make(Op::Upg, kA1, line(2) + 8, 5),              // misaligned
  };
  Msg other_dst = req(Op::RdS, kA1, 2, 6);
  other_dst.dst = 12;
  bad.push_back(other_dst);
  bad.push_back(req(Op::RdS, uint8_t(geo().num_agents), 2, 7));  // no such agent
  bad.push_back(req(Op::RdS, 15, 2, 8));
  for (const Msg& m : bad) expect_error(m);
  EXPECT_EQ(h->count(Counter::ErrAddr), bad.size());
  EXPECT_EQ(errors(), bad.size());
  expect_unchanged();
}

TEST_F(HomeMalformed, SnoopAnswerWithBadAddressIsDroppedCountedAsAddress) {
  acquire(kA1, 4);
  h->send(req(Op::RdX, kA2, 4));
  const Msg f = expect(Op::FwdInv, kA1, 4);
  Msg bad = h->make(Op::SnpAck, kA1, line(4) + 4, f.tag);
  h->send(bad);
  bad.addr = line(4);
  bad.dst = 3;
  h->send(bad);
  bad.dst = h->agent_id();
  bad.src = uint8_t(geo().num_agents);
  h->send(bad);
  expect_quiet();
  EXPECT_EQ(h->count(Counter::ErrAddr), 3u);
  answer(f, false);
  expect(Op::DataE, kA2, 4);
  expect_unchanged();
}

// ERR_LEN: a line only on WB and SnpData, nothing on the rest.
TEST_F(HomeMalformed, WrongLengthIsAnErrorOrDroppedCountedAsLength) {
  Msg rds = req(Op::RdS, kA1, 2, 1);
  rds.len = uint8_t(geo().line_bytes);
  expect_error(rds);
  Msg rdx = req(Op::RdX, kA1, 2, 2);
  rdx.len = 1;
  expect_error(rdx);
  acquire(kA1, 5);
  Msg short_wb = wb(kA1, 5, pattern(60), 3);
  short_wb.len = 8;
  expect_error(short_wb);
  h->send(req(Op::RdX, kA2, 5));
  const Msg f = expect(Op::FwdInv, kA1, 5);
  Msg ack = h->make(Op::SnpAck, kA1, line(5), f.tag);
  ack.len = uint8_t(geo().line_bytes);
  h->send(ack);
  Msg data = h->make(Op::SnpData, kA1, line(5), f.tag);
  data.len = 0;
  h->send(data);
  expect_quiet();
  EXPECT_EQ(h->count(Counter::ErrLen), 5u);
  EXPECT_EQ(errors(), 5u);
  answer(f, false);
  expect(Op::DataE, kA2, 5);
  h->run(2);
  EXPECT_EQ(h->mem(5), Line{}) << "the short write-back wrote memory";
  expect_unchanged();
}

// The checks run in order (opcode, address, length, protocol): one message, one count.
TEST_F(HomeMalformed, OnlyTheFirstFaultOfAMessageIsCounted) {
  const uint64_t rds = h->count(Counter::RdS);
  Msg m = req(Op::RdS, kA1, 2, 1);
  m.op = static_cast<Op>(0x07);
  m.addr = 0x1000;
  m.len = 5;
  expect_error(m);
  m.op = Op::RdS;
  expect_error(m);
  m.addr = line(2);
  expect_error(m);
  EXPECT_EQ(h->count(Counter::ErrOpcode), 1u);
  EXPECT_EQ(h->count(Counter::ErrAddr), 1u);
  EXPECT_EQ(h->count(Counter::ErrLen), 1u);
  EXPECT_EQ(errors(), 3u);
  EXPECT_EQ(h->count(Counter::RdS), rds) << "a malformed request is no RdS";
  expect_unchanged();
}

// ---- snoops and data to the device are not the home's ---------------------------------------

// The home agent has no FWD or DAT input (the router gives them to the device's caching agent):
// the harness refuses to send one.
TEST_F(HomeMalformed, SnoopOrGrantToTheDeviceIsNotTheHomesToTake) {
  EXPECT_THROW(h->send(h->make(Op::FwdInv, 0, 0x2000, 11)), std::invalid_argument);
  const Line d = pattern(66);
  EXPECT_THROW(h->send(h->make(Op::DataE, 0, line(2), 1, &d)), std::invalid_argument);
  expect_quiet();
}

}  // namespace
}  // namespace cni::tb::home::test
