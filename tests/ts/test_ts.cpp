// SPDX-License-Identifier: Apache-2.0
// The tag store engine (rtl/ts/cni_ts_engine.sv, docs/tagstore.md) in the device core, seen from
// the hosts' side of the link: every tag transition and what each tag lets a host do, faults
// suspended and dispatched once, the handler commands that end them, the three dispatch modes,
// and the commands the engine refuses. On two models of the checking build (64-byte lines, 16
// blocks): `ts`, the blocks on chip after the buffer line, and `dram`, the blocks the first
// DRAM-backed lines, two to a frame of the eight (docs/dram.md, "Engines on DRAM-backed lines"),
// so every fill, read and recall of a block there may first fetch its line, with the DRAM's AXI
// handshakes withheld at random. The test plays the host caching agents message by message.
#include <cstring>
#include <string>
#include <vector>

#include "rtl/fixture.hpp"

namespace cni::test {
namespace {

using Geo = tb::DeviceGeometry;

enum Tag : uint32_t { kI = 0, kRO = 1, kRW = 2 };
enum TsOp : uint32_t {
  kRead = 1, kWrite = 2, kSetTag = 3, kResume = 4, kNack = 5, kGetTag = 6, kFill = 7
};
enum Cause : uint32_t {
  kFull = 1, kBadOp = 2, kBadBlock = 3, kBadTag = 4, kNothing = 5, kBadResume = 6, kBadFill = 7,
  kBadMode = 8
};
// register offsets (rtl/ts/cni_ts.rdl)
enum Reg : uint32_t {
  kStatus = 0x00, kResult = 0x04, kCmd = 0x08, kAck = 0x10, kMode = 0x18, kEvt0 = 0x20,
  kEvt1 = 0x28, kFaults = 0x30, kDups = 0x34, kAuto = 0x38, kOverflow = 0x3C, kRefused = 0x40,
  kDone = 0x44, kBadAcks = 0x48, kDispErr = 0x4C, kGeometry = 0x50, kMsgs = 0x54,
  kBlockLine = 0x5C, kBuf = 0x80
};

// The event as the dispatch register holds it (docs/tagstore.md, "Dispatch register").
struct Event {
  uint32_t seq = 0;
  bool message = false;  // kind 1: message arrivals (block: how many)
  bool write = false;
  unsigned tag = 0, handler = 0, src = 0, op = 0;
  uint32_t block = 0, offset = 0;
  static Event from(uint64_t w0, uint64_t w1) {
    Event e;
    e.seq = uint32_t(w0);
    e.message = (w0 >> 32) & 1;
    e.write = (w0 >> 33) & 1;
    e.tag = (w0 >> 34) & 3;
    e.handler = (w0 >> 36) & 15;
    e.src = (w0 >> 40) & 0xFF;
    e.op = (w0 >> 48) & 0x1F;
    e.block = uint32_t(w1);
    e.offset = uint32_t(w1 >> 32);
    return e;
  }
};

// The model: its variant name.
class TagStore : public EndpointTest, public ::testing::WithParamInterface<const char*> {
 protected:
  static constexpr unsigned kEngine = engines::kEngineTs;

  void configure(Endpoint::Options& o) override {
    o.line_bytes = 64;
    o.variant = GetParam();
    o.dram_stall = 0.2;  // the DRAM's AXI handshakes withheld at random (the `dram` model)
  }
  void SetUp() override {
    ASSERT_TRUE(Endpoint::has_model(64, GetParam()))
        << "the checking build has no `" << GetParam() << "` model";
    EndpointTest::SetUp();
    for (unsigned i = 0; i < 100 && !(reg(kStatus) & 4); ++i) ep->run(10);
    ASSERT_TRUE(reg(kStatus) & 4) << "the engine's reset sweep did not end";
  }

  unsigned page() const { return 256 / geo().line_bytes; }
  unsigned blocks() const { return geo().ts_blocks; }
  Addr blk(unsigned b) const { return line(geo().ts_block0 + b); }
  Addr bufl() const { return line(geo().base(Geo::kTs) + page() + 1); }
  Addr disp() const { return line(geo().base(Geo::kTs) + page()); }
  Addr window(unsigned off) const { return line(geo().base(Geo::kTs)) + off; }

  uint32_t reg(uint32_t off) { return ep->csr_read(csr::engine_reg(kEngine, off)); }
  void set_reg(uint32_t off, uint32_t v) { ep->csr_write(csr::engine_reg(kEngine, off), v); }
  static uint32_t cmd_word(TsOp op, unsigned tag = 0, bool flag = false, bool ack = false,
                          bool from_line = false) {
    return op | (tag << 4) | (uint32_t(flag) << 6) | (uint32_t(ack) << 7) |
           (uint32_t(from_line) << 8);
  }
  // A handler command through the CSR window (low word, then the high word that queues it).
  void command(TsOp op, uint32_t b, unsigned tag = 0, bool flag = false, bool ack = false) {
    set_reg(kCmd, cmd_word(op, tag, flag, ack));
    set_reg(kCmd + 4, b);
  }
  // The same through the link: an 8-byte uncached store from host `h` (answered NcAck).
  void nc_command(uint8_t h, TsOp op, uint32_t b, unsigned tag = 0, bool flag = false,
                  bool ack = false) {
    nc_store(h, kCmd, uint64_t(b) << 32 | cmd_word(op, tag, flag, ack));
  }
  void nc_store(uint8_t h, unsigned off, uint64_t v) {
    Msg m = ep->make(Op::Nc, h, window(off), 3);
    m.flags = proto::kFlagNcWrite;
    m.len = 8;
    std::memcpy(m.data.data(), &v, 8);
    ep->send(m);
    expect(Op::NcAck, h, window(off));
  }
  uint64_t nc_load(uint8_t h, unsigned off) {
    ep->send(ep->make(Op::Nc, h, window(off), 4));
    Msg d = expect(Op::NcData, h, window(off));
    uint64_t v;
    std::memcpy(&v, d.data.data(), 8);
    return v;
  }
  bool busy() { return reg(kStatus) & 1; }
  void wait_done() {
    for (unsigned i = 0; i < 200 && busy(); ++i) ep->run(5);
    ASSERT_FALSE(busy());
  }
  unsigned tag_of(uint32_t b) {
    command(kGetTag, b);
    wait_done();
    return reg(kResult) & 3;
  }
  bool pending(uint32_t b) {
    command(kGetTag, b);
    wait_done();
    return reg(kResult) & 4;
  }
  // A tag change of a block no host holds (nothing to recall).
  void set_tag(uint32_t b, Tag t) {
    command(kSetTag, b, t);
    wait_done();
  }
  Event event_regs() {
    uint64_t w0 = reg(kEvt0) | uint64_t(reg(kEvt0 + 4)) << 32;
    uint64_t w1 = reg(kEvt1) | uint64_t(reg(kEvt1 + 4)) << 32;
    return Event::from(w0, w1);
  }
  static Event event_of(const Msg& m) {
    uint64_t w0, w1;
    std::memcpy(&w0, m.data.data(), 8);
    std::memcpy(&w1, m.data.data() + 8, 8);
    return Event::from(w0, w1);
  }
  bool has_event() { return reg(kStatus) & 2; }
  void wait_event() {
    for (unsigned i = 0; i < 100 && !has_event(); ++i) ep->run(5);
    ASSERT_TRUE(has_event());
  }
  void ack(uint32_t seq) {
    set_reg(kAck, seq);
    set_reg(kAck + 4, 0);
  }
  void put_buffer(const std::array<uint8_t, proto::kMaxLineBytes>& d) {
    for (unsigned w = 0; w < geo().line_bytes / 4; ++w) {
      uint32_t v;
      std::memcpy(&v, &d[4 * w], 4);
      set_reg(kBuf + 4 * w, v);
    }
  }
  std::vector<uint8_t> get_buffer() {
    std::vector<uint8_t> d(geo().line_bytes);
    for (unsigned w = 0; w < geo().line_bytes / 4; ++w) {
      uint32_t v = reg(kBuf + 4 * w);
      std::memcpy(&d[4 * w], &v, 4);
    }
    return d;
  }
  std::vector<uint8_t> bytes(const std::array<uint8_t, proto::kMaxLineBytes>& d) const {
    return {d.begin(), d.begin() + geo().line_bytes};
  }
  // Nothing comes back to the request for a while: it is suspended.
  void expect_suspended(unsigned cycles = 300) { expect_silence(cycles); }
  // The fault now in the dispatch register names block b and this access; acknowledged.
  Event take_fault(uint32_t b, bool write, unsigned tag, uint8_t src) {
    wait_event();
    Event e = event_regs();
    EXPECT_EQ(e.block, b);
    EXPECT_EQ(e.write, write);
    EXPECT_EQ(e.tag, tag);
    EXPECT_EQ(e.src, src);
    EXPECT_EQ(e.handler, (write ? 4u : 0u) | tag);
    return e;
  }
};

TEST_P(TagStore, ResetLeavesEveryBlockReadWriteAndTheRegionLaidOut) {
  EXPECT_EQ(blocks(), 16u);
  EXPECT_EQ(reg(kGeometry), (page() + 2) << 24 | 16u);
  // the blocks: after the buffer line, or the first DRAM-backed lines
  const unsigned b0 = geo().dram_idx_w ? geo().dram_first() : geo().base(Geo::kTs) + page() + 2;
  EXPECT_EQ(geo().ts_block0, b0);
  EXPECT_EQ(reg(kBlockLine), b0 - geo().base(Geo::kTs));
  EXPECT_EQ(geo().regions[Geo::kTs].lines, page() + 2 + (geo().dram_idx_w ? 0 : 16u));
  EXPECT_EQ(reg(kMode), 1u) << "the cachable dispatch line is the reset mode";
  for (unsigned b = 0; b < blocks(); ++b) EXPECT_EQ(tag_of(b), unsigned(kRW)) << "block " << b;
  ep->send(req(Op::RdX, kHost1, blk(3)));
  expect(Op::DataE, kHost1, blk(3));
  // the register page takes no coherent request (policy DENY)
  ep->send(req(Op::RdS, kHost2, window(0), 9));
  EXPECT_EQ(expect(Op::Error, kHost2, window(0)).tag, 9);
  EXPECT_EQ(ep->counter(csr::kDenied), 1u);
}

// Each of the nine transitions on a block no host holds, then what the new tag lets hosts do:
// a read, then a write (Invalid: both suspended and faulted; ReadOnly: the read Shared, the
// write faulted; ReadWrite: the state tables).
TEST_P(TagStore, EveryTagTransitionThenWhatTheNewTagAllows) {
  unsigned b = 0;
  uint32_t seq = 0;
  for (Tag from : {kI, kRO, kRW}) {
    for (Tag to : {kI, kRO, kRW}) {
      SCOPED_TRACE("block " + std::to_string(b) + ": " + std::to_string(from) + " -> " +
                   std::to_string(to));
      set_tag(b, from);
      set_tag(b, to);
      expect_silence(20);  // no host holds the block: nothing to recall
      EXPECT_EQ(tag_of(b), unsigned(to));
      ep->send(req(Op::RdS, kHost1, blk(b), 1));
      if (to == kI) {
        expect_suspended();
        Event e = take_fault(b, false, kI, kHost1);
        EXPECT_EQ(e.seq, ++seq);
        EXPECT_EQ(e.op, unsigned(Op::RdS));
        EXPECT_EQ(e.offset, (geo().ts_block0 + b) * geo().line_bytes);
        command(kNack, b, 0, true, false);  // refuse it: Error
        ack(e.seq);
        EXPECT_EQ(expect(Op::Error, kHost1, blk(b)).tag, 1);
      } else {
        expect(to == kRO ? Op::DataS : Op::DataE, kHost1, blk(b));
      }
      ep->send(req(Op::RdX, kHost2, blk(b), 2));
      if (to == kRW) {
        Msg f = expect(Op::FwdInv, kHost1, blk(b));
        ep->send(snoop_answer(f, false, pattern(0)));
        expect(Op::DataE, kHost2, blk(b));
      } else {
        expect_suspended();
        Event e = take_fault(b, true, to, kHost2);
        EXPECT_EQ(e.seq, ++seq);
        EXPECT_EQ(e.op, unsigned(Op::RdX));
        command(kNack, b, 0, true, true);  // refuse it, and acknowledge the event
        EXPECT_EQ(expect(Op::Error, kHost2, blk(b)).tag, 2);
        wait_done();
        EXPECT_FALSE(has_event());
      }
      // the dispatch line was written for every event: no host polled it, so no snoop
      ++b;
    }
  }
  EXPECT_EQ(reg(kFaults), seq);
  EXPECT_EQ(reg(kRefused), 0u);
}

TEST_P(TagStore, DowngradeToReadOnlyPullsDirtyDataAndLeavesTheWriterShared) {
  acquire(kHost1, blk(4));
  command(kSetTag, 4, kRO);
  Msg f = expect(Op::FwdDown, kHost1, blk(4));
  ep->send(snoop_answer(f, true, pattern(5)));
  wait_done();
  EXPECT_EQ(tag_of(4), unsigned(kRO));
  ep->send(req(Op::RdS, kHost2, blk(4)));
  EXPECT_EQ(bytes(expect(Op::DataS, kHost2, blk(4)).data), bytes(pattern(5)));
  // host 1 kept a Shared copy; its upgrade is a write on ReadOnly: suspended, faulted
  ep->send(req(Op::Upg, kHost1, blk(4), 6));
  expect_suspended();
  take_fault(4, true, kRO, kHost1);
}

TEST_P(TagStore, InvalidatePullsDirtyDataAndRecallsEverySharer) {
  acquire(kHost1, blk(5));
  command(kSetTag, 5, kI);
  Msg f = expect(Op::FwdInv, kHost1, blk(5));
  ep->send(snoop_answer(f, true, pattern(6)));
  wait_done();
  command(kRead, 5);  // bypassing the tag
  wait_done();
  EXPECT_EQ(get_buffer(), bytes(pattern(6)));
  // ReadOnly with two sharers, then Invalid: both invalidated
  set_tag(5, kRO);
  ep->send(req(Op::RdS, kHost1, blk(5)));
  expect(Op::DataS, kHost1, blk(5));
  ep->send(req(Op::RdS, kHost2, blk(5)));
  expect(Op::DataS, kHost2, blk(5));
  command(kSetTag, 5, kI);
  Msg f1 = expect(Op::FwdInv, kHost1, blk(5));
  Msg f2 = expect(Op::FwdInv, kHost2, blk(5));
  ep->send(snoop_answer(f1, false, pattern(0)));
  ep->send(snoop_answer(f2, false, pattern(0)));
  wait_done();
  EXPECT_EQ(tag_of(5), unsigned(kI));
}

TEST_P(TagStore, ReadOnlyNeverGrantsExclusiveEvenUnsharedOrResumed) {
  set_tag(6, kRO);
  ep->send(req(Op::RdS, kHost1, blk(6)));
  expect(Op::DataS, kHost1, blk(6));  // the region returns in Exclusive; ReadOnly does not
  // a read suspended on Invalid and resumed on ReadOnly is answered Shared too
  set_tag(7, kI);
  ep->send(req(Op::RdS, kHost2, blk(7)));
  expect_suspended();
  Event e = take_fault(7, false, kI, kHost2);
  command(kSetTag, 7, kRO, true, true);
  expect(Op::DataS, kHost2, blk(7));
  wait_done();
  EXPECT_FALSE(pending(7));
  EXPECT_EQ(reg(kFaults), e.seq);
}

// A DSM node invalidated while its own request for the block is out: the decrease keeps the
// fault the new tag does not allow pending (its recall answers the write Retry, the re-issued
// write parks again as a duplicate), and the fill that ends the request resumes it.
TEST_P(TagStore, ADecreaseKeepsAPendingFaultItsNewTagStillRefuses) {
  set_tag(8, kRO);
  ep->send(req(Op::RdX, kHost1, blk(8), 3));
  Event e = take_fault(8, true, kRO, kHost1);
  command(kSetTag, 8, kI);  // the recall answers the parked write Retry; re-issued, it parks
  EXPECT_EQ(expect(Op::Retry, kHost1, blk(8)).tag, 3);
  wait_done();
  EXPECT_TRUE(pending(8));
  ep->send(req(Op::RdX, kHost1, blk(8), 3));
  expect_suspended();
  EXPECT_EQ(reg(kDups), 1u) << "the re-issued write's fault is the pending one";
  command(kFill, 8, kRW, false, true);
  EXPECT_EQ(expect(Op::DataE, kHost1, blk(8)).tag, 3);
  wait_done();
  EXPECT_FALSE(pending(8));
  EXPECT_EQ(reg(kRefused), 0u);
  EXPECT_EQ(reg(kFaults), e.seq);
}

// 001's remote read miss, local half: the handler polls the cachable dispatch line, the fault
// invalidates its copy, the handler fetches the event in one line and answers with FILL.
TEST_P(TagStore, FaultReachesAPollingHandlerThroughTheDispatchLineAndFillResumesIt) {
  ep->send(req(Op::RdS, kHost2, disp()));
  Event idle = event_of(expect(Op::DataS, kHost2, disp()));
  EXPECT_EQ(idle.seq, 0u);
  set_tag(2, kI);
  ep->send(req(Op::RdS, kHost1, blk(2), 11));
  // the event changes the line: the poller's copy is invalidated first
  Msg f = expect(Op::FwdInv, kHost2, disp());
  ep->send(snoop_answer(f, false, pattern(0)));
  ep->run(20);
  ep->send(req(Op::RdS, kHost2, disp()));
  Event e = event_of(expect(Op::DataS, kHost2, disp()));
  EXPECT_EQ(e.seq, 1u);
  EXPECT_EQ(e.block, 2u);
  EXPECT_FALSE(e.write);
  EXPECT_EQ(e.src, kHost1);
  EXPECT_EQ(e.op, unsigned(Op::RdS));
  // the handler: the block's data into the buffer, then FILL ReadOnly (and the ack), uncached
  for (unsigned w = 0; w < geo().line_bytes / 8; ++w) {
    uint64_t v;
    std::memcpy(&v, &pattern(8)[8 * w], 8);
    nc_store(kHost2, kBuf + 8 * w, v);
  }
  nc_command(kHost2, kFill, 2, kRO, false, true);
  Msg d = expect(Op::DataS, kHost1, blk(2));
  EXPECT_EQ(d.tag, 11);
  EXPECT_EQ(bytes(d.data), bytes(pattern(8)));
  wait_done();
  EXPECT_EQ(tag_of(2), unsigned(kRO));
  EXPECT_FALSE(has_event());
  EXPECT_EQ(reg(kDone), 3u) << "SET_TAG, FILL, GET_TAG";
}

// The handler's data through the cachable buffer line: the engine recalls it (the handler's
// dirty copy) and fills the block from it; a command other than WRITE and FILL may not name it.
TEST_P(TagStore, FillFromTheBufferLineTakesTheHandlersDirtyCopy) {
  set_tag(10, kI);
  ep->send(req(Op::RdS, kHost1, blk(10), 12));
  Event e = take_fault(10, false, kI, kHost1);
  acquire(kHost2, bufl());  // the handler's core writes the buffer line (held Modified)
  set_reg(kCmd, cmd_word(kFill, kRW, false, true, true));
  set_reg(kCmd + 4, 10);
  Msg f = expect(Op::FwdInv, kHost2, bufl());
  ep->send(snoop_answer(f, true, pattern(12)));
  Msg d = expect(Op::DataE, kHost1, blk(10));
  EXPECT_EQ(d.tag, 12);
  EXPECT_EQ(bytes(d.data), bytes(pattern(12)));
  wait_done();
  EXPECT_FALSE(has_event()) << "acknowledged with the command (event " << e.seq << ")";
  set_reg(kCmd, cmd_word(kSetTag, kRO, false, false, true));
  set_reg(kCmd + 4, 10);
  EXPECT_EQ((reg(kStatus) >> 4) & 15, unsigned(kBadOp));
  EXPECT_EQ(reg(kRefused), 1u);
}

// A handler reads a block through the buffer line: READ with the line flag pulls the block's
// dirty copy (RECALL_DN), reads it, then takes the buffer line back from the handler's core and
// writes the data into it (the locked write), so the handler fetches it with one load. A write
// parked on the block is answered Retry by the recall, so the block is read with no host
// request of the handler's waiting behind it.
TEST_P(TagStore, ReadThroughTheBufferLinePullsTheDirtyCopyAndHandsItOver) {
  acquire(kHost1, blk(4));
  acquire(kHost2, bufl());
  set_reg(kCmd, cmd_word(kRead, 0, false, false, true));
  set_reg(kCmd + 4, 4);
  Msg f = expect(Op::FwdDown, kHost1, blk(4));
  ep->send(snoop_answer(f, true, pattern(7)));
  Msg g = expect(Op::FwdInv, kHost2, bufl());
  ep->send(snoop_answer(g, false, pattern(0)));
  wait_done();
  EXPECT_EQ(reg(kRefused), 0u);
  ep->send(req(Op::RdS, kHost2, bufl(), 9));
  EXPECT_EQ(bytes(expect(Op::DataE, kHost2, bufl()).data), bytes(pattern(7)));
  EXPECT_EQ(tag_of(4), unsigned(kRW)) << "READ leaves the tag";
}

// A tag raised without the resume flag that allows a pending fault's access answers it: the
// parked read is not left to its park timer.
TEST_P(TagStore, ARaiseThatAllowsThePendingAccessAnswersIt) {
  set_tag(5, kI);
  ep->send(req(Op::RdS, kHost1, blk(5), 8));
  Event e = take_fault(5, false, kI, kHost1);
  command(kSetTag, 5, kRO);
  EXPECT_EQ(expect(Op::DataS, kHost1, blk(5)).tag, 8);
  wait_done();
  EXPECT_FALSE(pending(5));
  ack(e.seq);
  EXPECT_EQ(reg(kRefused), 0u);
}

TEST_P(TagStore, WriteFaultOnReadOnlyIsResumedExclusiveAfterTheTagIsRaised) {
  set_tag(9, kRO);
  ep->send(req(Op::RdX, kHost1, blk(9), 4));
  expect_suspended();
  Event e = take_fault(9, true, kRO, kHost1);
  // RESUME alone is refused: ReadOnly does not allow the write
  command(kResume, 9);
  wait_done();
  EXPECT_EQ(reg(kRefused), 1u);
  EXPECT_EQ((reg(kStatus) >> 4) & 15, unsigned(kBadResume));
  command(kSetTag, 9, kRW, true);
  EXPECT_EQ(expect(Op::DataE, kHost1, blk(9)).tag, 4);
  ack(e.seq);
  EXPECT_FALSE(has_event());
}

TEST_P(TagStore, ConcurrentFaultsOnOneBlockAreDispatchedOnceAndAllAnswered) {
  ep->csr_write(csr::kParkTimeout, 200);
  set_tag(1, kI);
  ep->send(req(Op::RdS, kHost1, blk(1), 1));
  ep->run(10);
  ep->send(req(Op::RdS, kHost2, blk(1), 2));
  EXPECT_EQ(expect(Op::Retry, kHost2, blk(1)).tag, 2);  // the line is busy with host 1's
  Event e = take_fault(1, false, kI, kHost1);
  // host 1's request times out, is re-issued and parks again: not dispatched a second time
  EXPECT_EQ(expect(Op::Retry, kHost1, blk(1), 500).tag, 1);
  ep->send(req(Op::RdS, kHost1, blk(1), 1));
  ep->run(50);
  EXPECT_EQ(reg(kDups), 1u);
  EXPECT_EQ(reg(kFaults), 1u);
  put_buffer(pattern(2));
  command(kFill, 1, kRO, false, true);
  EXPECT_EQ(bytes(expect(Op::DataS, kHost1, blk(1)).data), bytes(pattern(2)));
  ep->send(req(Op::RdS, kHost2, blk(1), 2));
  EXPECT_EQ(bytes(expect(Op::DataS, kHost2, blk(1)).data), bytes(pattern(2)));
  EXPECT_EQ(e.seq, 1u);
  EXPECT_EQ(reg(kFaults), 1u);
}

// The faulting read's park timer runs out and a write parks in its place: the handler's fill
// (ReadOnly) must not grant that write, which would hold the block exclusive under ReadOnly. The
// shared-only grant answers it Retry; re-issued, it parks under ReadOnly and faults as a write.
TEST_P(TagStore, AWriteParkedInPlaceOfTheFaultingReadIsNotGrantedByAReadOnlyFill) {
  ep->csr_write(csr::kParkTimeout, 200);
  set_tag(5, kI);
  ep->send(req(Op::RdS, kHost1, blk(5), 1));
  Event e = take_fault(5, false, kI, kHost1);
  EXPECT_EQ(expect(Op::Retry, kHost1, blk(5), 500).tag, 1);
  ep->send(req(Op::RdX, kHost2, blk(5), 2));  // parks; its trigger finds the fault pending
  ep->run(50);
  EXPECT_EQ(reg(kDups), 1u);
  put_buffer(pattern(3));
  command(kFill, 5, kRO, false, true);
  EXPECT_EQ(expect(Op::Retry, kHost2, blk(5)).tag, 2) << "never DataE under ReadOnly";
  wait_done();
  ep->send(req(Op::RdX, kHost2, blk(5), 2));
  expect_suspended(100);
  Event w = take_fault(5, true, kRO, kHost2);
  EXPECT_EQ(w.seq, e.seq + 1);
  ep->send(req(Op::RdS, kHost3, blk(5), 3));
  EXPECT_EQ(expect(Op::Retry, kHost3, blk(5)).tag, 3);  // (the line is busy with the write)
  command(kNack, 5, 0, true, true);
  expect(Op::Error, kHost2, blk(5));
  ep->send(req(Op::RdS, kHost3, blk(5), 3));
  EXPECT_EQ(bytes(expect(Op::DataS, kHost3, blk(5)).data), bytes(pattern(3)));
}

// A command's ack flag acknowledges the event only when the command is carried out: a refused
// one leaves the event (and the block's fault) with the handler.
TEST_P(TagStore, ARefusedCommandDoesNotAcknowledgeTheEvent) {
  set_tag(6, kRO);
  ep->send(req(Op::RdX, kHost1, blk(6), 1));
  take_fault(6, true, kRO, kHost1);
  command(kFill, 6, kRW, false, true);  // not Invalid: refused
  wait_done();
  EXPECT_EQ((reg(kStatus) >> 4) & 15, unsigned(kBadFill));
  EXPECT_TRUE(has_event());
  EXPECT_TRUE(pending(6));
  command(kSetTag, 6, kRW, true, true);
  EXPECT_EQ(expect(Op::DataE, kHost1, blk(6)).tag, 1);
  wait_done();
  EXPECT_FALSE(has_event());
}

TEST_P(TagStore, ASuspendedAccessNobodyAnswersEndsInRetryAndTheEngineGoesOn) {
  ep->csr_write(csr::kParkTimeout, 300);
  set_tag(3, kI);
  ep->send(req(Op::RdX, kHost1, blk(3), 5));
  take_fault(3, true, kI, kHost1);
  EXPECT_EQ(expect(Op::Retry, kHost1, blk(3), 1000).tag, 5);
  EXPECT_EQ(ep->counter(csr::kRetryTimeout), 1u);
  // the engine still serves commands and other blocks
  set_tag(3, kRW);
  EXPECT_FALSE(pending(3)) << "a tag write ends the block's fault";
  ep->send(req(Op::RdX, kHost1, blk(3), 5));
  expect(Op::DataE, kHost1, blk(3));
  ep->send(req(Op::RdX, kHost2, blk(10), 6));
  expect(Op::DataE, kHost2, blk(10));
}

TEST_P(TagStore, AFaultWhoseTagWasRaisedWhileItWaitedIsResumedByTheEngine) {
  set_tag(11, kI);
  set_tag(12, kI);
  ep->send(req(Op::RdS, kHost1, blk(11), 1));
  Event e = take_fault(11, false, kI, kHost1);
  ep->send(req(Op::RdS, kHost2, blk(12), 2));  // waits for the dispatch register
  expect_suspended(100);
  set_tag(12, kRO);  // the handler raised it meanwhile (the request stays parked)
  expect_silence(50);
  ack(e.seq);
  EXPECT_EQ(expect(Op::DataS, kHost2, blk(12)).tag, 2);
  EXPECT_EQ(reg(kAuto), 1u);
  EXPECT_EQ(reg(kFaults), 1u);
  command(kNack, 11, 0, false);  // Retry host 1: it re-issues
  EXPECT_EQ(expect(Op::Retry, kHost1, blk(11)).tag, 1);
}

TEST_P(TagStore, BlockingDispatchParksTheHandlersReadUntilAnEvent) {
  set_reg(kMode, 2);
  wait_done();
  ep->run(50);
  ep->send(req(Op::RdS, kHost2, disp(), 7));
  expect_suspended();  // no event: the read waits
  set_tag(0, kI);
  ep->send(req(Op::RdX, kHost1, blk(0), 8));
  Event e = event_of(expect(Op::DataS, kHost2, disp()));
  EXPECT_EQ(e.seq, 1u);
  EXPECT_EQ(e.block, 0u);
  EXPECT_TRUE(e.write);
  // acknowledged: the line is taken back, so the next read waits again
  nc_store(kHost2, kAck, e.seq);
  Msg f = expect(Op::FwdInv, kHost2, disp());
  ep->send(snoop_answer(f, false, pattern(0)));
  ep->run(30);
  ep->send(req(Op::RdS, kHost2, disp(), 9));
  expect_suspended();
  nc_command(kHost2, kNack, 0, 0, true);
  expect(Op::Error, kHost1, blk(0));
  // the next fault answers the parked read
  ep->send(req(Op::RdS, kHost1, blk(0), 10));
  Event e2 = event_of(expect(Op::DataS, kHost2, disp()));
  EXPECT_EQ(e2.seq, 2u);
  EXPECT_FALSE(e2.write);
  command(kFill, 0, kRO, false, true);
  expect(Op::DataS, kHost1, blk(0));
  f = expect(Op::FwdInv, kHost2, disp());
  ep->send(snoop_answer(f, false, pattern(0)));
}

TEST_P(TagStore, StatusBitModeKeepsTheEventInRegistersOnly) {
  ep->send(req(Op::RdS, kHost2, disp()));
  expect(Op::DataS, kHost2, disp());
  set_reg(kMode, 0);
  Msg f = expect(Op::FwdInv, kHost2, disp());  // the mode change takes the line back
  ep->send(snoop_answer(f, false, pattern(0)));
  wait_done();
  ep->send(req(Op::RdS, kHost2, disp()));
  expect(Op::DataS, kHost2, disp());
  set_tag(8, kI);
  ep->send(req(Op::RdS, kHost1, blk(8), 3));
  // polled uncached: STATUS bit 1, then the event registers
  for (unsigned i = 0; i < 50 && !(nc_load(kHost2, kStatus) & 2); ++i) ep->run(5);
  uint64_t w0 = nc_load(kHost2, kEvt0), w1 = nc_load(kHost2, kEvt1);
  Event e = Event::from(w0, w1);
  EXPECT_EQ(e.seq, 1u);
  EXPECT_EQ(e.block, 8u);
  expect_silence(50);  // the dispatch line is not touched: host 2's copy stays
  nc_command(kHost2, kNack, 8, 0, false, true);
  expect(Op::Retry, kHost1, blk(8));
}

TEST_P(TagStore, TheDispatchLineTakesNoWriteAndAnAckOfAnotherSeqIsIgnored) {
  ep->send(req(Op::RdX, kHost1, disp(), 4));
  EXPECT_EQ(expect(Op::Error, kHost1, disp()).tag, 4);
  EXPECT_EQ(reg(kDispErr), 1u);
  set_tag(13, kI);
  ep->send(req(Op::RdS, kHost1, blk(13)));
  Event e = take_fault(13, false, kI, kHost1);
  ack(e.seq + 1);
  EXPECT_EQ(reg(kBadAcks), 1u);
  EXPECT_TRUE(has_event());
  command(kResume, 13);  // Invalid does not allow the read
  wait_done();
  EXPECT_EQ((reg(kStatus) >> 4) & 15, unsigned(kBadResume));
  put_buffer(pattern(4));
  command(kFill, 13, kRW, false, true);
  EXPECT_EQ(bytes(expect(Op::DataE, kHost1, blk(13)).data), bytes(pattern(4)));
}

TEST_P(TagStore, ReadAndWriteBypassTheTagsCoherently) {
  // READ with the flag: read-invalidate (a writer's dirty copy pulled, the copy gone)
  acquire(kHost1, blk(14));
  command(kRead, 14, 0, true);
  Msg f = expect(Op::FwdInv, kHost1, blk(14));
  ep->send(snoop_answer(f, true, pattern(9)));
  wait_done();
  EXPECT_EQ(get_buffer(), bytes(pattern(9)));
  // WRITE on ReadOnly invalidates the sharers first; on Invalid it writes at once
  set_tag(14, kRO);
  ep->send(req(Op::RdS, kHost2, blk(14)));
  expect(Op::DataS, kHost2, blk(14));
  put_buffer(pattern(10));
  command(kWrite, 14);
  f = expect(Op::FwdInv, kHost2, blk(14));
  ep->send(snoop_answer(f, false, pattern(0)));
  wait_done();
  set_tag(15, kI);
  put_buffer(pattern(11));
  command(kWrite, 15);
  wait_done();
  expect_silence(20);
  set_tag(15, kRW);
  ep->send(req(Op::RdS, kHost1, blk(15)));
  EXPECT_EQ(bytes(expect(Op::DataE, kHost1, blk(15)).data), bytes(pattern(11)));
  ep->send(req(Op::RdS, kHost1, blk(14)));
  EXPECT_EQ(bytes(expect(Op::DataS, kHost1, blk(14)).data), bytes(pattern(10)));
}

// The CNI engine's receive side signals each message it delivers (the registry's signal
// cni_rx); the tag store dispatches the arrivals as message events, in turn with the faults.
TEST_P(TagStore, MessageArrivalsFromTheCniEngineAreDispatchedInTurnWithFaults) {
  const unsigned cni = engines::kEngineCni;
  ep->csr_write(csr::engine_reg(cni, 0x08), 1 | (2 << 8));  // CNI16Q: open, two nodes
  ep->csr_write(csr::engine_reg(cni, 0x0C), 0);
  auto deliver = [&](uint8_t seq) {
    tb::NetFrame in;
    in.bytes.assign(12 + 16, 0);
    in.bytes[2] = 1;     // src: node 1
    in.bytes[4] = 16;    // len
    in.bytes[6] = 0x02;  // DATA
    in.bytes[8] = seq;   // sequence number
    ep->net_receive(in);
  };
  deliver(0);
  wait_event();
  Event m = event_regs();
  EXPECT_TRUE(m.message);
  EXPECT_EQ(m.handler, 8u);
  EXPECT_EQ(m.block, 1u) << "one arrival";
  // a fault and two more arrivals meanwhile: the fault goes first (turns), then both arrivals
  set_tag(0, kI);
  ep->send(req(Op::RdS, kHost1, blk(0), 1));
  deliver(1);
  deliver(2);
  ep->run(300);
  ack(m.seq);
  wait_event();
  Event f = event_regs();
  EXPECT_FALSE(f.message);
  EXPECT_EQ(f.block, 0u);
  EXPECT_EQ(f.seq, m.seq + 1);
  command(kNack, 0, 0, false, true);
  expect(Op::Retry, kHost1, blk(0));
  wait_event();
  Event m2 = event_regs();
  EXPECT_TRUE(m2.message);
  EXPECT_EQ(m2.block, 2u) << "two arrivals in one event";
  EXPECT_EQ(reg(kMsgs), 2u);
  EXPECT_EQ(reg(kFaults), 1u);
}

TEST_P(TagStore, BadCommandsAreRefusedCountedAndChangeNothing) {
  auto cause = [&] { return (reg(kStatus) >> 4) & 15; };
  unsigned n;
  command(TsOp(0), 1);
  EXPECT_EQ(cause(), unsigned(kBadOp));
  command(TsOp(9), 1);
  EXPECT_EQ(cause(), unsigned(kBadOp));
  command(kSetTag, blocks(), kI);
  EXPECT_EQ(cause(), unsigned(kBadBlock));
  command(kSetTag, 1, 3);
  EXPECT_EQ(cause(), unsigned(kBadTag));
  command(kResume, 1);
  wait_done();
  EXPECT_EQ(cause(), unsigned(kNothing));
  command(kNack, 1, 0, true);
  wait_done();
  EXPECT_EQ(cause(), unsigned(kNothing));
  command(kSetTag, 1, kRW, true);
  wait_done();
  EXPECT_EQ(cause(), unsigned(kNothing));
  set_reg(kMode, 3);
  EXPECT_EQ(cause(), unsigned(kBadMode));
  EXPECT_EQ(reg(kMode), 1u);
  n = 8;
  // FILL of a block that is not Invalid (a write fault on ReadOnly)
  set_tag(2, kRO);
  ep->send(req(Op::RdX, kHost1, blk(2)));
  take_fault(2, true, kRO, kHost1);
  command(kFill, 2, kRW);
  wait_done();
  EXPECT_EQ(cause(), unsigned(kBadFill));
  n = 9;
  command(kNack, 2, 0, false, true);
  expect(Op::Retry, kHost1, blk(2));
  // a full queue: a recall held by a host that does not answer keeps the first command running
  acquire(kHost3, blk(6));
  command(kSetTag, 6, kI);
  Msg f = expect(Op::FwdInv, kHost3, blk(6));
  for (unsigned i = 0; i < 4; ++i) command(kGetTag, 6);
  EXPECT_EQ(reg(kRefused), n);
  command(kGetTag, 6);
  EXPECT_EQ(cause(), unsigned(kFull));
  EXPECT_EQ(reg(kRefused), n + 1);
  ep->send(snoop_answer(f, true, pattern(1)));
  wait_done();
  EXPECT_EQ(reg(kResult) & 3, unsigned(kI));
  // nothing above changed a tag or answered a request
  EXPECT_EQ(tag_of(1), unsigned(kRW));
  EXPECT_EQ(tag_of(2), unsigned(kRO));
  EXPECT_EQ(reg(kFaults), 1u);
}

INSTANTIATE_TEST_SUITE_P(Model, TagStore, ::testing::Values("ts", "dram"),
                         [](const auto& i) { return std::string(i.param); });

}  // namespace
}  // namespace cni::test
