// SPDX-License-Identifier: Apache-2.0
// The CNI cache/queue engine in the device core (docs/cni.md; the checking build carries it as
// CNI16Q, its pipelined configuration as CNI16Qm): its region and register page in the address
// map, its registers over uncached accesses, a send that pulls the slot from a host's cache and
// leaves as a frame, and a receive that writes the slot under its lock (CNI16Q) or into the host
// queue through the caching agent (CNI16Qm) and acknowledges the frame -- against the real home
// agent and caching agent, seen from the host side of the link and the network port. The
// engine's behaviour in depth is tests/cni (the engine alone).
#include <cstring>
#include <vector>

#include "cni/engines.hpp"
#include "device/cni_options.hpp"
#include "fixture.hpp"

namespace cni::test {
namespace {

using Geo = tb::DeviceGeometry;

class CniPort : public EndpointTest {
 protected:
  static constexpr unsigned kEngine = tb::kCniEngine;
  static constexpr unsigned kMsgBytes = 256, kHdr = 12;
  static constexpr unsigned kCni16Q = static_cast<unsigned>(engines::CniConfig::CNI16Q);
  static constexpr unsigned kCni16Qm = static_cast<unsigned>(engines::CniConfig::CNI16QM);
  static constexpr Addr kRqBase = 0x40000;               // CNI16Qm: the host queue (home 0)

  void SetUp() override {
    EndpointTest::SetUp();
    if (geo().regions[Geo::kCni].lines == 0)
      GTEST_SKIP() << "the " << tb::built_flavor() << " build's device model has no CNI engine";
    config = tb::cni_id(*ep) & 0xf;
  }
  unsigned config = 0;
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
  // CNI16Qm: no device-homed receive queue; its 128 slots are in host memory
  const bool qm = config == kCni16Qm;
  EXPECT_EQ(geo().regions[Geo::kCni].lines, r() + 3 + (qm ? 1 : 2) * sq_lines());
  uint64_t id = load(0x00);
  EXPECT_TRUE(config == kCni16Q || qm) << config;
  EXPECT_EQ((id >> 8) & 0xff, 4u);    // Window
  EXPECT_EQ(id >> 32, ((qm ? 128ull : 4ull) << 16) | 4u);
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
  if (config != kCni16Q) GTEST_SKIP() << "the device-homed receive queue is CNI16Q's";
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

// CNI16Qm: a frame of 200 payload bytes (a header line and payload lines) goes into slot 0 of
// the host queue at RQ_BASE through the caching agent -- the payload lines first, the header
// line once they are all written -- each asked for with RdX FULL (the whole line is written:
// ownership alone will do, protocol rule 3), and the agent takes either answer, the dataless
// UpgAck or a data grant; a CPU that reads the slot then gets the lines from the device cache
// (SnpData) with the message in them.
TEST_F(CniPort, Cni16QmWritesTheHostQueueThroughTheCachingAgentHeaderLast) {
  if (config != kCni16Qm) GTEST_SKIP() << "the host-homed receive queue is CNI16Qm's";
  const unsigned lb = geo().line_bytes;
  store(0x50, kRqBase);               // RQ_BASE (while closed)
  EXPECT_EQ(load(0x50), kRqBase);
  store(0x08, 1 | (2 << 8));          // open, two nodes
  constexpr unsigned kLen = 200;
  tb::NetFrame in;
  in.bytes.assign(kHdr + kLen, 0);
  in.bytes[2] = 1;                    // src: node 1
  in.bytes[4] = kLen;
  in.bytes[6] = 0x02;                 // DATA
  in.bytes[7] = 3;                    // flags
  in.bytes[10] = 5;                   // handler 5, sequence number 0
  for (unsigned i = 0; i < kLen; ++i) in.bytes[kHdr + i] = uint8_t(0x80 + i);
  ep->net_receive(in);
  const unsigned n = (kHdr + kLen + lb - 1) / lb;
  auto host_line = [&](unsigned j) { return kRqBase + Addr(1 + j) * lb; };
  // the payload lines, in order, each for ownership, all in flight at once (n - 1 <= the
  // agent's MSHRs); the header line is not asked for while any of them is unanswered
  std::vector<Msg> pay;
  for (unsigned j = 1; j < n; ++j) {
    pay.push_back(expect(Op::RdX, 0, host_line(j)));
    EXPECT_TRUE(pay.back().flags & proto::kFlagFullWrite) << pay.back().str();
  }
  expect_silence(100);
  bool upg = true;   // answers alternate: UpgAck, a data grant (of junk: the write covers it)
  for (auto it = pay.rbegin(); it != pay.rend(); ++it, upg = !upg) {
    ep->send(upg ? ep->make(Op::UpgAck, 0, it->addr, it->tag)
                 : with_data(ep->make(Op::DataM, 0, it->addr, it->tag), pattern(0x33)));
    if (it + 1 != pay.rend()) expect_silence(20);
  }
  Msg q0 = expect(Op::RdX, 0, host_line(0));
  EXPECT_TRUE(q0.flags & proto::kFlagFullWrite) << q0.str();
  ep->send(ep->make(Op::UpgAck, 0, q0.addr, q0.tag));
  const tb::NetFrame* ack = wait_frame(1);
  ASSERT_NE(ack, nullptr) << "no ack";
  EXPECT_EQ(ack->bytes[6], 0x03);
  // the CPU reads the slot: the home snoops the device, which answers with the message
  ep->send(ep->make(Op::FwdDownO, 0, host_line(0), 21));
  Msg d = expect(Op::SnpData, 0, host_line(0));
  EXPECT_EQ(d.data[0] & 1, 1);        // valid (the first pass's sense)
  EXPECT_EQ(d.data[1], 3);            // flags
  EXPECT_EQ(get(&d.data[2], 2), kLen);
  EXPECT_EQ(get(&d.data[4], 2), 1u);  // source
  EXPECT_EQ(get(&d.data[6], 2), 5u);  // handler
  for (unsigned i = 0; i < lb - kHdr; ++i) EXPECT_EQ(d.data[kHdr + i], uint8_t(0x80 + i));
  if (n > 1) {
    ep->send(ep->make(Op::FwdDownO, 0, host_line(n - 1), 22));
    Msg e = expect(Op::SnpData, 0, host_line(n - 1));
    const unsigned off = (n - 1) * lb - kHdr;   // payload byte at the line's start
    for (unsigned i = 0; off + i < kLen && i < lb; ++i)
      EXPECT_EQ(e.data[i], uint8_t(0x80 + off + i)) << i;
  }
  EXPECT_EQ(counter(2), 1u);          // frames accepted
  EXPECT_EQ(counter(28), 0u);         // RQ_ERR
  EXPECT_EQ(counter(29), 0u);         // no locked writes: nothing device-homed was written
}

// CNI16Qm: the host home answers a payload line's write Error (RQ_BASE names no memory): the
// engine counts RQ_ERR, raises STATUS.err and closes the endpoint, and writes no header over
// the message (a CPU never sees a valid slot whose payload is missing).
TEST_F(CniPort, Cni16QmAnErrorFromTheHostHomeClosesTheEndpointAndWritesNoHeader) {
  if (config != kCni16Qm) GTEST_SKIP() << "the host-homed receive queue is CNI16Qm's";
  const unsigned lb = geo().line_bytes;
  store(0x50, kRqBase);
  store(0x08, 1 | (2 << 8));
  constexpr unsigned kLen = 200;   // a header line and payload lines at either line size
  tb::NetFrame in;
  in.bytes.assign(kHdr + kLen, 0);
  in.bytes[2] = 1;
  in.bytes[4] = kLen;
  in.bytes[6] = 0x02;
  in.bytes[7] = 3;
  ep->net_receive(in);
  const unsigned n = (kHdr + kLen + lb - 1) / lb;
  std::vector<Msg> pay;
  for (unsigned j = 1; j < n; ++j) pay.push_back(expect(Op::RdX, 0, kRqBase + Addr(1 + j) * lb));
  ep->send(ep->make(Op::Error, 0, pay.front().addr, pay.front().tag));
  for (size_t k = 1; k < pay.size(); ++k) ep->send(ep->make(Op::UpgAck, 0, pay[k].addr, pay[k].tag));
  expect_silence(200);                              // no RdX of the header line
  EXPECT_EQ(counter(28), 1u);                       // RQ_ERR
  const uint64_t status = load(0x18);
  EXPECT_EQ((status >> 49) & 1, 1u);                // STATUS.err
  EXPECT_EQ((status >> 48) & 1, 0u);                // closed
  EXPECT_EQ(load(0x08) & 1, 0u);
  store(0x50, kRqBase);                             // a new RQ_BASE clears the error
  EXPECT_EQ((load(0x18) >> 49) & 1, 0u);
}

}  // namespace
}  // namespace cni::test
