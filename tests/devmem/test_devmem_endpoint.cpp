// SPDX-License-Identifier: Apache-2.0
// The device core with DRAM-backed device lines (docs/dram.md): the checking build's `dram`
// model (64-byte lines; 256 DRAM-backed lines from line 256 on, in 8 frames) behind the DRAM
// model (sim::Dram) on its AXI4 master, the test playing the host caching agents. Reads of lines
// never written, data surviving the frames' evictions through the DRAM, the latencies of an
// on-chip line, a DRAM-backed line in its frame and one fetched from the DRAM, a failing DRAM,
// and the addresses between the two kinds of lines.
#include <cstdio>
#include <vector>

#include "rtl/fixture.hpp"

namespace cni::test {
namespace {

class DevMem : public EndpointTest {
 protected:
  void SetUp() override {
    if (!Endpoint::has_model(64, "dram")) GTEST_SKIP() << "no `dram` device model in this build";
    EndpointTest::SetUp();
  }
  void TearDown() override {
    if (ep) EndpointTest::TearDown();
  }
  void configure(Endpoint::Options& o) override {
    o.line_bytes = 64;
    o.variant = "dram";
    o.dram_stall = 0.1;
  }
  unsigned dline(unsigned i) const { return geo().dram_first() + i; }

  // Host 1 takes line `l` exclusively and writes `data` back.
  void write_line(unsigned l, uint8_t seed) {
    acquire(kHost1, line(l));
    ep->send(with_data(req(Op::WB, kHost1, line(l), 3), pattern(seed)));
    expect(Op::WbAck, kHost1, line(l));
  }
  // Host 2 reads line `l` (it is held by no one): the data of the grant.
  std::array<uint8_t, proto::kMaxLineBytes> read_line(unsigned l) {
    ep->send(req(Op::RdS, kHost2, line(l)));
    const Msg d = expect(Op::DataE, kHost2, line(l));
    // give the copy back (a clean eviction), so the line is idle again
    ep->send(req(Op::WB, kHost2, line(l), 4));
    expect(Op::WbAck, kHost2, line(l));
    return d.data;
  }
  // Cycles from a RdS of idle line `l` at the device port to its grant.
  uint64_t read_cycles(unsigned l) {
    const uint64_t sent = ep->cycle();
    ep->send(req(Op::RdS, kHost2, line(l)));
    auto m = ep->wait_msg(500);
    EXPECT_TRUE(m);
    if (!m) return 0;
    EXPECT_EQ(m->msg.op, Op::DataE) << m->msg.str();
    ep->send(req(Op::WB, kHost2, line(l), 4));
    expect(Op::WbAck, kHost2, line(l));
    return m->cycle - sent;
  }
};

TEST_F(DevMem, TheGeometrySaysWhereTheDramBackedLinesAre) {
  EXPECT_EQ(geo().dram_idx_w, 8u);
  EXPECT_EQ(geo().frame_w, 3u);
  EXPECT_EQ(geo().dram_first(), 256u);
  EXPECT_LE(geo().num_lines(), geo().dram_first());
  EXPECT_EQ(geo().size_bytes(), 512u * 64);
  EXPECT_EQ(ep->csr_read(csr::kDram), 0x0308u);  // FrameW 3, DramIdxW 8, no error
  EXPECT_TRUE(geo().is_dram(dline(0)) && geo().is_dram(dline(255)) && !geo().is_dram(dline(256)));
}

TEST_F(DevMem, ALineNeverWrittenReadsZeroWithoutADramRead) {
  EXPECT_EQ(read_line(dline(17)), (std::array<uint8_t, proto::kMaxLineBytes>{}));
  EXPECT_EQ(ep->counter(csr::kDramFillsNew), 1u);
  EXPECT_EQ(ep->counter(csr::kDramFills), 0u);
  EXPECT_EQ(ep->dram_axi_stats().reads, 0u);
}

// 64 lines over 8 frames (direct-mapped: 8 lines per frame): every line's frame is taken by
// another line before it is read again, so the data comes back from the DRAM. On-chip lines
// written in between keep theirs.
TEST_F(DevMem, WrittenLinesComeBackFromTheDramAfterTheirFramesAreReused) {
  const unsigned n = 64;
  for (unsigned i = 0; i < n; ++i) write_line(dline(i * 3), uint8_t(i));
  for (unsigned i = 0; i < 8; ++i) write_line(i, uint8_t(200 + i));
  for (unsigned i = 0; i < n; ++i) {
    EXPECT_EQ(read_line(dline(i * 3)), pattern(uint8_t(i))) << "DRAM-backed line " << i * 3;
  }
  for (unsigned i = 0; i < 8; ++i) EXPECT_EQ(read_line(i), pattern(uint8_t(200 + i)));
  const uint32_t fills = ep->counter(csr::kDramFills);
  const uint32_t wbs = ep->counter(csr::kDramWritebacks);
  std::printf(
      "64 DRAM-backed lines over 8 frames: %u fills from the DRAM, %u never-written "
      "fills, %u write-backs; AXI %llu reads, %llu writes (%llu beats)\n",
      fills, ep->counter(csr::kDramFillsNew), wbs,
      static_cast<unsigned long long>(ep->dram_axi_stats().reads),
      static_cast<unsigned long long>(ep->dram_axi_stats().writes),
      static_cast<unsigned long long>(ep->dram_axi_stats().beats_w));
  EXPECT_GE(fills, n - 8);  // every line but those still in their frames
  EXPECT_GE(wbs, n - 8);
  EXPECT_EQ(ep->counter(csr::kDramAxiErrors), 0u);
  EXPECT_EQ(ep->counter(csr::kErrAddr), 0u);
}

// At 300 MHz, the DRAM without stalls: an on-chip line, a DRAM-backed line in its frame, one
// never written, and one fetched from the DRAM behind its frame's write-back.
TEST_F(DevMem, ReadLatencyOnChipInFrameAndFetched) {
  // (a DRAM without random stalls, for the figures)
  ep = nullptr;
  Endpoint::Options o;
  o.name = "DevMem.ReadLatency";
  configure(o);
  o.dram_stall = 0.0;
  ep = std::make_unique<Endpoint>(o);
  ep->reset();
  write_line(5, 1);
  const uint64_t onchip = read_cycles(5);
  const uint64_t fresh = read_cycles(dline(1));   // never written: filled with zeros
  const uint64_t hit = read_cycles(dline(1));     // in its frame
  write_line(dline(2), 2);                        // dirty in frame 2
  write_line(dline(10), 3);                       // takes frame 2: line 2 written back
  write_line(dline(18), 4);                       // line 10 written back
  const uint64_t fetch = read_cycles(dline(10));  // fetched behind line 18's write-back
  std::printf(
      "read latency at 300 MHz: on-chip %llu cycles, DRAM-backed in its frame %llu, "
      "never written %llu, fetched behind a write-back %llu (%.1f ns)\n",
      static_cast<unsigned long long>(onchip), static_cast<unsigned long long>(hit),
      static_cast<unsigned long long>(fresh), static_cast<unsigned long long>(fetch),
      fetch * 3.333);
  RecordProperty("dram_fetch_cycles", std::to_string(fetch));
  EXPECT_EQ(hit, onchip);
  EXPECT_GT(fresh, hit);
  EXPECT_GT(fetch, fresh);
  EXPECT_LE(fetch, 40u);
}

TEST_F(DevMem, AFailedDramReadIsAnsweredErrorAndCounted) {
  write_line(dline(4), 9);
  write_line(dline(12), 10);  // frame 4 taken: line 4 written back
  ep->dram_fail_next(false);
  ep->send(req(Op::RdS, kHost2, line(dline(4))));
  expect(Op::Error, kHost2, line(dline(4)));
  EXPECT_EQ(ep->counter(csr::kDramAxiErrors), 1u);
  EXPECT_GE(ep->counter(csr::kDramFailed), 1u);
  EXPECT_EQ(ep->counter(csr::kDenied), 1u);
  // the other lines are served
  EXPECT_EQ(read_line(dline(12)), pattern(10));
}

TEST_F(DevMem, AFailedWriteBackSetsTheStickyErrorBit) {
  write_line(dline(6), 11);
  ep->dram_fail_next(true);
  write_line(dline(14), 12);  // frame 6 taken: line 6 written back, and that write fails
  ep->run(100);
  EXPECT_EQ(ep->csr_read(csr::kDram) >> 16 & 1, 1u);
  EXPECT_EQ(ep->counter(csr::kDramAxiErrors), 1u);
}

// A second reset clears the written bits: a line written before it reads zero after it, served
// without a DRAM read, and the DRAM model starts over with the model (nothing in flight carried
// across the reset).
TEST_F(DevMem, AResetStartsTheDramLinesOver) {
  write_line(dline(3), 21);
  write_line(dline(11), 22);                       // frame 3 taken: line 3 written back
  ep->send(req(Op::RdS, kHost2, line(dline(3))));  // a fetch in flight at the reset
  ep->run(2);
  ep->reset();
  ep->emitted().clear();
  EXPECT_EQ(read_line(dline(3)), (std::array<uint8_t, proto::kMaxLineBytes>{}));
  EXPECT_EQ(ep->counter(csr::kDramFills), 0u);
  EXPECT_EQ(ep->dram_axi_stats().reads, 0u);
  write_line(dline(3), 23);
  write_line(dline(11), 24);
  EXPECT_EQ(read_line(dline(3)), pattern(23));
}

// An address past the on-chip lines and below the DRAM-backed ones, or past the DRAM-backed
// ones, is no device line: malformed.
TEST_F(DevMem, AddressesOutsideBothKindsOfLinesAreMalformed) {
  for (unsigned l :
       {geo().num_lines(), geo().dram_first() - 1, geo().dram_first() + geo().dram_lines()}) {
    ep->send(req(Op::RdS, kHost1, line(l)));
    expect(Op::Error, kHost1, line(l));
  }
  EXPECT_EQ(ep->counter(csr::kErrAddr), 3u);
}

}  // namespace
}  // namespace cni::test
