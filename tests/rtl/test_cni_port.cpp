// SPDX-License-Identifier: Apache-2.0
// The CNI cache/queue engine in the device core (docs/cni.md; the checking build carries it as
// CNI16Q): its region and register page in the address map, its registers over uncached
// accesses, a send that pulls the slot from a host's cache and leaves as a frame, and a receive
// that writes the slot under its lock and acknowledges the frame -- against the real home agent,
// seen from the host side of the link and the network port. The engine's behaviour in depth is
// tests/cni (the engine alone).
#include <cstring>

#include "fixture.hpp"

namespace cni::test {
namespace {

using Geo = tb::DeviceGeometry;

class CniPort : public EndpointTest {
 protected:
  static constexpr unsigned kEngine = 2;   // cni_amap_pkg::ENG_CNI
  static constexpr unsigned kMsgBytes = 256, kHdr = 12;

  void SetUp() override {
    EndpointTest::SetUp();
    if (geo().regions[Geo::kCni].lines == 0) GTEST_SKIP() << "this build has no CNI engine";
  }
  unsigned r() const { return 256 / geo().line_bytes; }         // register-page lines
  unsigned b() const { return kMsgBytes / geo().line_bytes; }   // lines per slot
  unsigned sq_lines() const { return 1024 / geo().line_bytes; } // CNI16Q: 4 slots
  Addr cline(unsigned l) const { return line(geo().base(Geo::kCni) + l); }
  Addr sq_head() const { return cline(r() + 1); }
  Addr sq(unsigned slot, unsigned j) const { return cline(r() + 3 + slot * b() + j); }
  Addr rq(unsigned slot, unsigned j) const { return cline(r() + 3 + sq_lines() + slot * b() + j); }

  Msg nc_write(unsigned off, uint64_t v, uint8_t tag) const {
    Msg m = ep->make(Op::Nc, kHost1, cline(0) + off, tag);
    m.flags = proto::kFlagNcWrite;
    m.len = 8;
    std::memcpy(m.data.data(), &v, 8);
    return m;
  }
  void store(unsigned off, uint64_t v) {
    ep->send(nc_write(off, v, 3));
    expect(Op::NcAck, kHost1, cline(0) + off);
  }
  uint64_t load(unsigned off) {
    ep->send(ep->make(Op::Nc, kHost1, cline(0) + off, 4));
    Msg d = expect(Op::NcData, kHost1, cline(0) + off);
    uint64_t v;
    std::memcpy(&v, d.data.data(), 8);
    return v;
  }
  uint32_t counter(unsigned i) { return ep->csr_read(csr::engine_reg(kEngine, 0x80 + 4 * i)); }
  const tb::NetFrame* wait_frame(size_t n) {
    for (unsigned i = 0; i < 400 && ep->net_sent().size() < n; ++i) ep->run(5);
    return ep->net_sent().size() >= n ? &ep->net_sent()[n - 1] : nullptr;
  }
  static uint32_t get(const uint8_t* p, unsigned bytes) {
    uint32_t v = 0;
    std::memcpy(&v, p, bytes);
    return v;
  }
};

TEST_F(CniPort, RegionRegistersAndTheDeniedRegisterPage) {
  EXPECT_EQ(geo().regions[Geo::kCni].owner, int(kEngine));
  EXPECT_EQ(geo().regions[Geo::kCni].lines, r() + 3 + 2 * sq_lines());
  uint64_t id = load(0x00);
  EXPECT_EQ(id & 0xf, 2u);            // CNI16Q
  EXPECT_EQ((id >> 8) & 0xff, 4u);    // Window
  EXPECT_EQ(id >> 32, (4ull << 16) | 4u);
  // a coherent request to the register page is a driver bug: the reset POLICY denies it
  ep->send(req(Op::RdS, kHost2, cline(1)));
  expect(Op::Error, kHost2, cline(1));
}

TEST_F(CniPort, ASendPullsTheSlotFromTheHostsCacheAndLeavesAsAFrame) {
  store(0x08, 1 | (2 << 8));          // open, two nodes
  acquire(kHost1, sq(0, 0));          // the CPU owns slot 0's first line and writes it
  std::array<uint8_t, proto::kMaxLineBytes> slot{};
  slot[0] = 1;                        // the first pass's sense
  slot[2] = 20;                       // len
  slot[4] = 1;                        // destination node 1
  slot[6] = 9;                        // handler
  for (unsigned i = 0; i < 20; ++i) slot[kHdr + i] = uint8_t(0x40 + i);
  store(0x48, 1);                     // TX_READY
  Msg f = expect(Op::FwdDown, kHost1, sq(0, 0));  // the pull: the CPU keeps a Shared copy
  ep->send(snoop_answer(f, true, slot));
  const tb::NetFrame* fr = wait_frame(1);
  ASSERT_NE(fr, nullptr) << "no frame left the device";
  ASSERT_EQ(fr->bytes.size(), kHdr + 20);
  EXPECT_EQ(fr->dest, 1u);
  EXPECT_EQ(get(&fr->bytes[0], 2), 1u);       // dst
  EXPECT_EQ(get(&fr->bytes[2], 2), 0u);       // src: this node
  EXPECT_EQ(get(&fr->bytes[4], 2), 20u);      // len
  EXPECT_EQ(fr->bytes[6], 0x02);              // DATA
  EXPECT_EQ(get(&fr->bytes[8], 4), 9u << 16); // handler, sequence number 0
  for (unsigned i = 0; i < 20; ++i) EXPECT_EQ(fr->bytes[kHdr + i], 0x40 + i);
  // SQ_HEAD passed the slot (the engine's locked write), and a host reads it
  ep->run(200);
  Msg h = acquire(kHost2, sq_head());
  EXPECT_EQ(get(h.data.data(), 4), 1u);
  EXPECT_EQ(counter(0), 1u);   // messages taken
  EXPECT_EQ(counter(1), 1u);   // data frames
}

TEST_F(CniPort, AReceiveWritesTheSlotUnderItsLockAndAcknowledgesTheFrame) {
  store(0x08, 1 | (2 << 8));
  acquire(kHost1, rq(0, 0));    // the CPU polls the empty slot (here: holds it)
  tb::NetFrame in;
  in.bytes.assign(kHdr + 30, 0);
  in.bytes[0] = 0;              // dst
  in.bytes[2] = 1;              // src: node 1
  in.bytes[4] = 30;             // len
  in.bytes[6] = 0x02;           // DATA
  in.bytes[7] = 1;              // flags
  in.bytes[10] = 5;             // handler 5, sequence number 0
  for (unsigned i = 0; i < 30; ++i) in.bytes[kHdr + i] = uint8_t(0x80 + i);
  ep->net_receive(in);
  Msg f = expect(Op::FwdInv, kHost1, rq(0, 0));   // the lock takes the CPU's copy
  ep->send(snoop_answer(f, false, {}));
  const tb::NetFrame* ack = wait_frame(1);
  ASSERT_NE(ack, nullptr) << "no ack";
  ASSERT_EQ(ack->bytes.size(), kHdr);
  EXPECT_EQ(ack->dest, 1u);
  EXPECT_EQ(ack->bytes[6], 0x03);
  EXPECT_EQ(get(&ack->bytes[8], 4), 0u);      // the last sequence number accepted
  ep->run(200);
  Msg d = acquire(kHost1, rq(0, 0));          // the CPU's next poll misses and finds it
  EXPECT_EQ(d.data[0] & 1, 1);                // valid (the first pass's sense)
  EXPECT_EQ(d.data[1], 1);                    // flags
  EXPECT_EQ(get(&d.data[2], 2), 30u);
  EXPECT_EQ(get(&d.data[4], 2), 1u);          // source
  EXPECT_EQ(get(&d.data[6], 2), 5u);          // handler
  for (unsigned i = 0; i < 30; ++i) EXPECT_EQ(d.data[kHdr + i], 0x80 + i);
  EXPECT_EQ(counter(2), 1u);                  // frames accepted
  EXPECT_EQ(counter(29), 1u);                 // locked writes
}

}  // namespace
}  // namespace cni::test
