// SPDX-License-Identifier: Apache-2.0
// The scratch-pad engine (rtl/scratch/cni_scratch_engine.sv), the worked example of an engine on the
// engine bus (docs/endpoint.md, "Adding an engine"): its register window, its coherent line
// reads and writes (RECALL_DN, RECALL), and the home agent's policies it sets (SHARED, DENY,
// PARK answered by NACK), seen from the hosts' side of the link.
#include <algorithm>
#include <cstring>

#include "fixture.hpp"

namespace cni::test {
namespace {

using Geo = tb::DeviceGeometry;

class Scratch : public EndpointTest {
 protected:
  static constexpr unsigned kEngine = engines::kEngineScratch;
  enum SpOp : uint32_t { kRead = 0, kWrite = 1, kPolicy = 2 };
  enum Policy : uint32_t { kAllow = 0, kShared = 1, kPark = 2, kDeny = 3 };

  Addr sline(unsigned l) const { return line(geo().base(Geo::kScratch) + l); }
  uint32_t reg(uint32_t off) { return ep->csr_read(csr::engine_reg(kEngine, off)); }
  void set_reg(uint32_t off, uint32_t v) { ep->csr_write(csr::engine_reg(kEngine, off), v); }
  void start(SpOp op, unsigned l, Policy p = kAllow) {
    set_reg(0x00, (uint32_t(l) << 16) | (uint32_t(p) << 8) | op);
  }
  bool busy() { return reg(0x00) & 1; }
  unsigned ops_done() { return reg(0x00) >> 16; }
  void put_buffer(const std::array<uint8_t, proto::kMaxLineBytes>& d) {
    for (unsigned w = 0; w < geo().line_bytes / 4; ++w) {
      uint32_t v;
      std::memcpy(&v, &d[4 * w], 4);
      set_reg(0x80 + 4 * w, v);
    }
  }
  std::array<uint8_t, proto::kMaxLineBytes> get_buffer() {
    std::array<uint8_t, proto::kMaxLineBytes> d{};
    for (unsigned w = 0; w < geo().line_bytes / 4; ++w) {
      uint32_t v = reg(0x80 + 4 * w);
      std::memcpy(&d[4 * w], &v, 4);
    }
    return d;
  }
  void wait_idle() {
    for (unsigned i = 0; i < 200 && busy(); ++i) ep->run(5);
    ASSERT_FALSE(busy());
  }
  static std::array<uint8_t, proto::kMaxLineBytes> first(const std::array<uint8_t, proto::kMaxLineBytes>& d,
                                                         unsigned n) {
    std::array<uint8_t, proto::kMaxLineBytes> r{};
    std::copy(d.begin(), d.begin() + n, r.begin());
    return r;
  }
};

TEST_F(Scratch, MapNamesEveryRegionWithItsOwner) {
  const auto& g = geo();
  unsigned next = 0;
  for (unsigned r = 0; r < Geo::kNumRegions; ++r) {
    EXPECT_EQ(g.regions[r].base, next) << "regions follow one another, region " << r;
    next += g.regions[r].lines;
  }
  EXPECT_EQ(next, g.num_lines());
  EXPECT_EQ(g.regions[Geo::kMem].owner, -1);
  EXPECT_EQ(g.regions[Geo::kPioC].owner, 0);
  EXPECT_EQ(g.regions[Geo::kPioA].owner, 0);
  EXPECT_EQ(g.regions[Geo::kPioB].owner, 0);
  EXPECT_EQ(g.regions[Geo::kScratch].owner, int(kEngine));
  EXPECT_GT(g.regions[Geo::kScratch].lines, 0u);
}

TEST_F(Scratch, DeviceReadPullsAHostsDirtyCopyAndLeavesItShared) {
  acquire(kHost1, sline(3));
  start(kRead, 3);
  Msg f = expect(Op::FwdDown, kHost1, sline(3));
  ep->send(snoop_answer(f, true, pattern(9)));
  wait_idle();
  EXPECT_EQ(first(get_buffer(), geo().line_bytes), first(pattern(9), geo().line_bytes));
  EXPECT_EQ(ops_done(), 1u);
  // host 1 kept a Shared copy: another reader joins it without a snoop
  ep->send(req(Op::RdS, kHost2, sline(3)));
  EXPECT_EQ(first(expect(Op::DataS, kHost2, sline(3)).data, geo().line_bytes),
            first(pattern(9), geo().line_bytes));
}

TEST_F(Scratch, DeviceWriteInvalidatesHostCopiesFirst) {
  acquire(kHost1, sline(5));
  put_buffer(pattern(4));
  start(kWrite, 5);
  Msg f = expect(Op::FwdInv, kHost1, sline(5));
  ep->send(snoop_answer(f, false, pattern(0)));
  wait_idle();
  ep->send(req(Op::RdS, kHost2, sline(5)));
  EXPECT_EQ(first(expect(Op::DataE, kHost2, sline(5)).data, geo().line_bytes),
            first(pattern(4), geo().line_bytes));
}

TEST_F(Scratch, DeviceReadOfALineNoHostHoldsNeedsNoSnoop) {
  put_buffer(pattern(7));
  start(kWrite, 2);
  wait_idle();
  put_buffer(pattern(0));
  start(kRead, 2);
  wait_idle();
  EXPECT_EQ(first(get_buffer(), geo().line_bytes), first(pattern(7), geo().line_bytes));
  EXPECT_TRUE(ep->emitted().empty());
}

TEST_F(Scratch, SharedPolicyGrantsOnlySharedAndParksWritesWhichTheEngineRefuses) {
  start(kPolicy, 7, kShared);
  wait_idle();
  ep->send(req(Op::RdS, kHost1, sline(7)));
  expect(Op::DataS, kHost1, sline(7));  // not DataE, though the region returns in Exclusive
  ep->send(req(Op::RdX, kHost2, sline(7), 21));
  EXPECT_EQ(expect(Op::Error, kHost2, sline(7)).tag, 21);
  EXPECT_EQ(reg(0x04), 1u) << "one NACK";
  EXPECT_EQ(ep->counter(csr::kParked), 1u);
  // back to ALLOW: the same request is granted (after host 1's copy is invalidated)
  start(kPolicy, 7, kAllow);
  wait_idle();
  ep->send(req(Op::RdX, kHost2, sline(7), 22));
  Msg f = expect(Op::FwdInv, kHost1, sline(7));
  ep->send(snoop_answer(f, false, pattern(0)));
  EXPECT_EQ(expect(Op::DataE, kHost2, sline(7)).tag, 22);
}

TEST_F(Scratch, DenyPolicyAnswersErrorAndCountsIt) {
  start(kPolicy, 9, kDeny);
  wait_idle();
  ep->send(req(Op::RdS, kHost1, sline(9), 5));
  EXPECT_EQ(expect(Op::Error, kHost1, sline(9)).tag, 5);
  ep->send(req(Op::RdX, kHost2, sline(9), 6));
  EXPECT_EQ(expect(Op::Error, kHost2, sline(9)).tag, 6);
  EXPECT_EQ(ep->counter(csr::kDenied), 2u);
  EXPECT_EQ(ep->counter(csr::kErrProto), 0u);
  // other lines are untouched
  ep->send(req(Op::RdS, kHost1, sline(10)));
  expect(Op::DataE, kHost1, sline(10));
}

TEST_F(Scratch, ParkPolicyParksEveryRequestUntilTheEngineAnswers) {
  start(kPolicy, 11, kPark);
  wait_idle();
  ep->send(req(Op::RdS, kHost1, sline(11), 3));
  EXPECT_EQ(expect(Op::Error, kHost1, sline(11)).tag, 3);
  EXPECT_EQ(ep->counter(csr::kParked), 1u);
  EXPECT_EQ(reg(0x04), 1u);
}

TEST_F(Scratch, OperationOnALineOutsideTheRegionIsRefused) {
  start(kRead, geo().regions[Geo::kScratch].lines);
  EXPECT_EQ(reg(0x00) & 3, 2u) << "not busy, bad line";
  EXPECT_EQ(ops_done(), 0u);
  expect_silence(20);
}

// ---- uncached register accesses over the link (Nc) reach the owning engine's window ----------

class ScratchNc : public Scratch {
 protected:
  // The device address of byte `off` of region `r`'s register window (its first 256 bytes).
  Addr window(Geo::RegionId r, unsigned off) const { return line(geo().base(r)) + off; }
  Msg nc_write(Addr a, uint64_t v, uint8_t tag) const {
    Msg m = ep->make(Op::Nc, kHost1, a, tag);
    m.flags = proto::kFlagNcWrite;
    m.len = 8;
    std::memcpy(m.data.data(), &v, 8);
    return m;
  }
  Msg nc_read(Addr a, uint8_t tag) const { return ep->make(Op::Nc, kHost1, a, tag); }
  static uint64_t value(const Msg& m) {
    uint64_t v;
    std::memcpy(&v, m.data.data(), 8);
    return v;
  }
};

TEST_F(ScratchNc, UncachedStoreAndLoadReachTheEnginesRegisters) {
  const Addr a = window(Geo::kScratch, 0x88);  // line-buffer words 2 and 3
  ep->send(nc_write(a, 0x1122334455667788ull, 4));
  EXPECT_EQ(expect(Op::NcAck, kHost1, a).tag, 4);
  EXPECT_EQ(reg(0x88), 0x55667788u);
  EXPECT_EQ(reg(0x8C), 0x11223344u);
  ep->send(nc_read(a, 5));
  Msg d = expect(Op::NcData, kHost1, a);
  EXPECT_EQ(d.tag, 5);
  EXPECT_EQ(d.len, 8);
  EXPECT_EQ(value(d), 0x1122334455667788ull);
}

TEST_F(ScratchNc, UncachedStoreStartsAnOperationLikeTheCsrDoes) {
  acquire(kHost2, sline(6));
  ep->send(nc_write(window(Geo::kScratch, 0x00), (6ull << 16) | kRead, 1));
  Msg f = expect(Op::FwdDown, kHost2, sline(6));  // the engine's RECALL_DN
  ep->send(snoop_answer(f, true, pattern(3)));
  expect(Op::NcAck, kHost1, window(Geo::kScratch, 0x00));
  wait_idle();
  ep->send(nc_read(window(Geo::kScratch, 0x80), 2));
  uint64_t want;
  std::memcpy(&want, pattern(3).data(), 8);
  EXPECT_EQ(value(expect(Op::NcData, kHost1, window(Geo::kScratch, 0x80))), want);
}

TEST_F(ScratchNc, EngineWithoutRegistersReadsZero) {
  ep->send(nc_read(window(Geo::kPioC, 0x10), 3));
  EXPECT_EQ(value(expect(Op::NcData, kHost1, window(Geo::kPioC, 0x10))), 0u);
}

TEST_F(ScratchNc, AddressOutsideEveryEnginesWindowIsRefusedAndCounted) {
  ep->send(nc_read(line(3), 7));                            // plain memory
  EXPECT_EQ(expect(Op::Error, kHost1, line(3)).tag, 7);
  ep->send(nc_write(window(Geo::kScratch, 0x100), 1, 8));  // past the window
  expect(Op::Error, kHost1, window(Geo::kScratch, 0x100));
  ep->send(nc_read(window(Geo::kScratch, 0x84), 9));       // misaligned
  expect(Op::Error, kHost1, window(Geo::kScratch, 0x84));
  EXPECT_EQ(ep->counter(csr::kNcErrors), 3u);
  EXPECT_EQ(ep->counter(csr::kErrOpcode), 0u) << "no Nc reached the home agent";
}

}  // namespace
}  // namespace cni::test
