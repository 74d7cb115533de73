// SPDX-License-Identifier: Apache-2.0
// The driver classes over the hardware backend (MappedMemory) on ordinary memory: the same
// source that drives the simulated cores. With no device behind the lines, PioChannel's
// exchange is visible directly: arguments land in the payload lines, the response is read
// from the trigger lines, parities flip. FastForward runs between two real threads. The NIC's
// PCIe PIO driver reads its BAR's geometry, writes a frame into the transmit ring and posts it,
// and takes a frame the test leaves in the receive ring, as it would over a mapped BAR. The
// descriptor-ring DMA driver programs the NIC's registers, lays out its rings in host memory,
// fills a transmit buffer and rings the doorbell, waits on a full ring for the NIC's DONE, and
// takes the frames the test writes back as the NIC would (a truncated one refused). The
// coherent-PIO stream driver writes a message's header and payload into the payload control
// line and the overflow lines, returns the status word of the trigger line, alternates the
// parity, and reads a (b) message from its trigger and overflow lines. The CNI engine's
// cachable-queue packet driver opens a CNI16Q register page, writes a packet's fragments into the
// send queue's slots with the pass's sense, wraps, and reassembles the fragments the test leaves
// in the receive queue's slots as the engine would (a fragment without its first dropped and
// counted).
#include <gtest/gtest.h>

#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

#include "cni/drv/cni_packet.hpp"
#include "cni/drv/fastforward.hpp"
#include "cni/drv/mapped_mem.hpp"
#include "cni/drv/nic_dma.hpp"
#include "cni/drv/nic_pio.hpp"
#include "cni/drv/pio.hpp"
#include "cni/drv/pio_stream.hpp"

namespace cni::test {
namespace {

struct AlignedBuffer {
  explicit AlignedBuffer(size_t n, size_t align = 128)
      : p(static_cast<uint8_t*>(std::aligned_alloc(align, (n + align - 1) / align * align))),
        size(n) {
    std::memset(p, 0, n);
  }
  ~AlignedBuffer() { std::free(p); }
  drv::Addr addr(size_t off = 0) const { return reinterpret_cast<drv::Addr>(p + off); }
  uint8_t* p;
  size_t size;
};

TEST(MappedMemory, LoadsStoresAndUncachedWordsTouchMemory) {
  AlignedBuffer buf(4096);
  drv::MappedMemory m(128);
  m.store64(buf.addr(8), 0x1122334455667788ull);
  EXPECT_EQ(m.load64(buf.addr(8)), 0x1122334455667788ull);
  uint8_t odd[5] = {1, 2, 3, 4, 5};
  m.store(buf.addr(3), odd, 5);
  EXPECT_EQ(std::memcmp(buf.p + 3, odd, 5), 0);
  m.uncached_store64(buf.addr(64), 42);
  EXPECT_EQ(m.uncached_load64(buf.addr(64)), 42u);
  m.uncached_store64(buf.addr(72), 43);
  uint64_t pair[2] = {};
  m.uncached_load128(buf.addr(64), pair);
  EXPECT_EQ(pair[0], 42u);
  EXPECT_EQ(pair[1], 43u);
  m.prefetch(buf.addr(256), true);
  m.barrier();
  uint64_t t0 = m.now_ns();
  m.pause_ns(1000);
  EXPECT_GE(m.now_ns() - t0, 1000u);
}

TEST(PioChannelOnMappedMemory, ExchangeWritesPayloadLinesAndReadsTriggerLines) {
  const unsigned lb = 128, pairs = 4;
  AlignedBuffer buf(2 * pairs * lb);
  drv::MappedMemory m(lb);
  drv::PioChannelLayout l;
  l.group_base[0] = buf.addr(0);
  l.group_base[1] = buf.addr(pairs * lb);
  l.pairs = pairs;
  l.line_bytes = lb;
  drv::PioChannel ch(m, l);
  // A "device" result already sits in the group-0 (trigger) lines.
  for (unsigned i = 0; i < pairs * lb; ++i) buf.p[i] = static_cast<uint8_t>(0xA0 + i % 7);
  std::vector<uint8_t> req(3 * lb - 10);
  for (size_t i = 0; i < req.size(); ++i) req[i] = static_cast<uint8_t>(i);
  auto resp = ch.invoke(req);
  ASSERT_EQ(resp.size(), req.size());
  EXPECT_EQ(std::memcmp(resp.data(), buf.p, req.size()), 0) << "read from the trigger lines";
  EXPECT_EQ(std::memcmp(buf.p + pairs * lb, req.data(), req.size()), 0)
      << "arguments in the payload lines";
  for (unsigned i = req.size(); i < 3 * lb; ++i) {
    EXPECT_EQ(buf.p[pairs * lb + i], 0) << "partial last line zero-padded at " << i;
  }
  EXPECT_EQ(buf.p[pairs * lb + 3 * lb], 0) << "pair 3 untouched";
  // Parity flipped for the three pairs used: the next arguments go into group 0.
  std::vector<uint8_t> req2(lb, 0x5A);
  ch.invoke(req2);
  EXPECT_EQ(buf.p[0], 0x5A);
}

TEST(PioChannelOnMappedMemory, LargePayloadsSplitIntoTransactions) {
  const unsigned lb = 128, pairs = 2;
  AlignedBuffer buf(2 * pairs * lb);
  drv::MappedMemory m(lb);
  drv::PioChannelLayout l{{buf.addr(0), buf.addr(pairs * lb)}, pairs, lb};
  drv::PioChannel ch(m, l);
  EXPECT_EQ(ch.transaction_bytes(), pairs * lb);
  std::vector<uint8_t> req(5 * lb, 1);
  EXPECT_EQ(ch.invoke(req).size(), req.size());
}

TEST(PioChannelOnMappedMemory, RejectsMismatchedLineSizeAndShortBuffers) {
  drv::MappedMemory m(64);
  drv::PioChannelLayout l;
  EXPECT_THROW(drv::PioChannel(m, l), std::invalid_argument);
  drv::MappedMemory m128(128);
  drv::PioChannel ch(m128, l);
  std::vector<uint8_t> req(10), resp(5);
  EXPECT_THROW(ch.invoke(req, resp), std::invalid_argument);
}

TEST(FastForwardOnMappedMemory, TwoThreadsExchangeRequestsAndResponses) {
  AlignedBuffer buf(4096);
  drv::FastForwardLayout l;
  l.request_line = buf.addr(0);
  l.response_line = buf.addr(1024);
  l.line_bytes = 128;
  const int n = 50;
  std::thread server([&] {
    drv::MappedMemory m(128);
    drv::FastForwardChannel ch(m, l);
    for (int i = 0; i < n; ++i) {
      ch.serve_one(
          [](std::span<const uint8_t> in, std::span<uint8_t> out) {
            for (size_t k = 0; k < in.size(); ++k) out[k] = static_cast<uint8_t>(in[k] + 1);
          },
          16);
    }
  });
  drv::MappedMemory m(128);
  drv::FastForwardChannel client(m, l);
  for (int i = 0; i < n; ++i) {
    std::vector<uint8_t> req(16, static_cast<uint8_t>(i));
    auto resp = client.call(req);
    ASSERT_EQ(resp, std::vector<uint8_t>(16, static_cast<uint8_t>(i + 1))) << "call " << i;
  }
  server.join();
}

TEST(NicPioOnMappedMemory, SendsIntoTheTransmitRingAndTakesFromTheReceiveRing) {
  // BAR 0 as docs/nic.md lays it out: two 256-byte slots a ring (4 beats of 64 bytes), the
  // receive ring, the transmit ring, the registers at the middle (GEOMETRY word 4, RX_SLOT words
  // from byte 64 of the register beat).
  const uint64_t slot = 256, ring = 2 * slot, bar_bytes = 4 * ring, regs = bar_bytes / 2;
  AlignedBuffer bar(bar_bytes);
  const uint64_t geometry = 2 | (uint64_t{4} << 16) | (uint64_t{64} << 32);
  std::memcpy(bar.p + regs + 8 * 4, &geometry, 8);
  drv::MappedMemory m(128);
  drv::NicPio nic(m, bar.addr(), bar_bytes);
  EXPECT_EQ(nic.slots(), 2u);
  EXPECT_EQ(nic.slot_bytes(), slot);
  std::vector<uint8_t> f(100);
  for (size_t i = 0; i < f.size(); ++i) f[i] = static_cast<uint8_t>(3 * i + 1);
  nic.send(f.data(), f.size());
  EXPECT_EQ(std::memcmp(bar.p + ring, f.data(), f.size()), 0) << "the frame in TX slot 0";
  uint64_t post = 0;
  std::memcpy(&post, bar.p + regs + 8 * 2, 8);
  EXPECT_EQ(post, f.size()) << "TX_POST";
  std::vector<uint8_t> got;
  EXPECT_FALSE(nic.try_receive(got)) << "nothing in the receive ring yet";
  // the device's part: a frame in RX slot 0, its RX_SLOT word (sequence 1, length 77)
  for (size_t i = 0; i < 77; ++i) bar.p[i] = static_cast<uint8_t>(i ^ 0x5a);
  const uint64_t word = 1 | (uint64_t{77} << 32);
  std::memcpy(bar.p + regs + 64, &word, 8);
  ASSERT_TRUE(nic.try_receive(got));
  ASSERT_EQ(got.size(), 77u);
  for (size_t i = 0; i < 77; ++i) EXPECT_EQ(got[i], static_cast<uint8_t>(i ^ 0x5a)) << i;
  uint64_t rx_tail = 0;
  std::memcpy(&rx_tail, bar.p + regs + 8 * 1, 8);
  EXPECT_EQ(rx_tail, 1u) << "RX_TAIL: the slot given back";
  EXPECT_FALSE(nic.try_receive(got)) << "slot 1's word still says nothing arrived";
}

TEST(NicDmaOnMappedMemory, ProgramsTheRingsSendsByDoorbellAndTakesWrittenBackFrames) {
  // BAR 0's register words (docs/nic.md): TX_BASE, TX_LOG2, TX_TAIL, TX_HEAD, RX_BASE, RX_LOG2,
  // RX_TAIL, ..., GEOMETRY (word 10: 64-byte beats, rings up to 2^12, frames up to 9,600 B).
  AlignedBuffer bar(128);
  auto word = [&](unsigned i) {
    uint64_t v = 0;
    std::memcpy(&v, bar.p + 8 * i, 8);
    return v;
  };
  const uint64_t geometry = 64 | (uint64_t{12} << 16) | (uint64_t{9600} << 32);
  std::memcpy(bar.p + 8 * 10, &geometry, 8);
  drv::NicDmaLayout l;
  l.bar = bar.addr();
  l.tx_log2 = 2;
  l.rx_log2 = 2;
  drv::NicDmaLayout probe = l;
  AlignedBuffer mem(probe.bytes(), 4096);
  l.mem = mem.addr();
  auto at = [&](drv::Addr a) { return reinterpret_cast<uint8_t*>(a); };
  auto desc = [&](drv::Addr d) {
    uint64_t buf = 0, w = 0;
    std::memcpy(&buf, at(d), 8);
    std::memcpy(&w, at(d + 8), 8);
    return std::pair{buf, w};
  };
  drv::MappedMemory m(128);
  drv::NicDma::configure(m, l);
  EXPECT_EQ(word(0), l.tx_ring());
  EXPECT_EQ(word(1), 2u);
  EXPECT_EQ(word(4), l.rx_ring());
  EXPECT_EQ(word(5), 2u);
  EXPECT_EQ(word(6), 4u) << "RX_TAIL: every receive buffer posted";
  for (unsigned i = 0; i < 4; ++i) {
    EXPECT_EQ(desc(l.rx_ring() + 16 * i), std::pair(uint64_t{l.rx_buf(i)}, uint64_t{l.buf_bytes}));
  }
  drv::NicDma nic(m, l);
  // transmit: the frame in entry 0's buffer, its descriptor, the doorbell
  std::vector<uint8_t> f(300);
  for (size_t i = 0; i < f.size(); ++i) f[i] = static_cast<uint8_t>(7 * i + 3);
  nic.send(f.data(), f.size());
  EXPECT_EQ(std::memcmp(at(l.tx_buf(0)), f.data(), f.size()), 0);
  EXPECT_EQ(desc(l.tx_ring()), std::pair(uint64_t{l.tx_buf(0)}, uint64_t{300}));
  EXPECT_EQ(word(2), 1u) << "TX_TAIL";
  for (unsigned i = 1; i < 4; ++i) nic.send(f.data(), 60 + i);
  EXPECT_EQ(word(2), 4u);
  // a full ring: the fifth frame waits for entry 0's DONE, which the NIC writes back
  const uint64_t done0 = 300 | (uint64_t{1} << 16);
  std::memcpy(at(l.tx_ring() + 8), &done0, 8);
  nic.send(f.data(), 64);
  EXPECT_EQ(nic.stats().tx_polls, 1u);
  EXPECT_EQ(desc(l.tx_ring()), std::pair(uint64_t{l.tx_buf(0)}, uint64_t{64}));
  EXPECT_EQ(word(2), 5u);
  // receive: nothing until the NIC writes entry 0 back DONE with the frame's length
  std::vector<uint8_t> got;
  EXPECT_FALSE(nic.try_receive(got));
  for (size_t i = 0; i < 99; ++i) at(l.rx_buf(0))[i] = static_cast<uint8_t>(i ^ 0xa5);
  const uint64_t rx0 = 99 | (uint64_t{1} << 16);
  std::memcpy(at(l.rx_ring() + 8), &rx0, 8);
  ASSERT_TRUE(nic.try_receive(got));
  ASSERT_EQ(got.size(), 99u);
  for (size_t i = 0; i < 99; ++i) EXPECT_EQ(got[i], static_cast<uint8_t>(i ^ 0xa5)) << i;
  EXPECT_EQ(desc(l.rx_ring()), std::pair(uint64_t{l.rx_buf(0)}, uint64_t{l.buf_bytes}))
      << "entry 0 posted again, its flags clear";
  EXPECT_EQ(word(6), 5u) << "RX_TAIL: one more buffer posted";
  // a frame the NIC truncated (TRUNC with DONE) is refused
  const uint64_t rx1 = l.buf_bytes | (uint64_t{1 | 4} << 16);
  std::memcpy(at(l.rx_ring() + 16 + 8), &rx1, 8);
  EXPECT_THROW(nic.receive(), std::runtime_error);
  EXPECT_EQ(nic.stats().truncated, 1u);
  EXPECT_EQ(nic.stats().received, 2u);
}

TEST(PioStreamOnMappedMemory, WritesMessagesIntoTheControlAndOverflowLinesAndReadsThemBack) {
  constexpr unsigned lb = 128;
  drv::PioStreamLayout l;
  l.line_bytes = lb;
  l.novf_a = 3;
  l.novf_b = 3;
  AlignedBuffer a(5 * lb), b(5 * lb);
  l.a_base = a.addr();
  l.b_base = b.addr();
  drv::MappedMemory m(lb);
  drv::PioStream s(m, l);
  EXPECT_EQ(l.capacity_a(), lb - 8 + 3 * lb);
  // (a): a message of 300 bytes: its header and first 120 bytes in control line 1 (the line
  // that is not the trigger line of parity 0), the rest in overflow lines 0 and 1
  const uint64_t status = 0x1234;
  std::memcpy(a.p, &status, 8);
  std::vector<uint8_t> msg(300);
  for (size_t i = 0; i < msg.size(); ++i) msg[i] = static_cast<uint8_t>(5 * i + 1);
  EXPECT_EQ(s.send_message(msg.data(), msg.size()), status) << "the trigger line's status word";
  uint64_t hdr = 0;
  std::memcpy(&hdr, a.p + lb, 8);
  EXPECT_EQ(hdr, 300u);
  EXPECT_EQ(std::memcmp(a.p + lb + 8, msg.data(), lb - 8), 0);
  EXPECT_EQ(std::memcmp(a.p + 2 * lb, msg.data() + lb - 8, 300 - (lb - 8)), 0);
  // parity 1: the payload control line is line 0, the trigger line 1
  const uint64_t status1 = 0x1235;
  std::memcpy(a.p + lb, &status1, 8);
  EXPECT_EQ(s.send_message(msg.data(), 10), status1);
  std::memcpy(&hdr, a.p, 8);
  EXPECT_EQ(hdr, 10u);
  EXPECT_EQ(std::memcmp(a.p + 8, msg.data(), 10), 0);
  EXPECT_THROW(s.send_message(msg.data(), l.capacity_a() + 1), std::invalid_argument);
  // (b): the device's message of 200 bytes in trigger line 0 and overflow line 0
  std::vector<uint8_t> in(200);
  for (size_t i = 0; i < in.size(); ++i) in[i] = static_cast<uint8_t>(i ^ 0x3c);
  const uint64_t bh = in.size();
  std::memcpy(b.p, &bh, 8);
  std::memcpy(b.p + 8, in.data(), lb - 8);
  std::memcpy(b.p + 2 * lb, in.data() + lb - 8, in.size() - (lb - 8));
  EXPECT_EQ(s.receive(), in);
  // the next is read from trigger line 1; one the device cut to the capacity is refused
  const uint64_t cut = l.capacity_b() | (uint64_t{1} << 16);
  std::memcpy(b.p + lb, &cut, 8);
  EXPECT_THROW(s.receive(), std::runtime_error);
  EXPECT_EQ(s.stats().sent, 2u);
  EXPECT_EQ(s.stats().received, 2u);
  EXPECT_EQ(s.stats().truncated, 1u);
}

// CNI16Q at 64-byte lines (docs/cni.md section 3): lines 0-3 the register page, 4 SQ_TAIL,
// 5 SQ_HEAD, 6 RQ_HEAD, 7-22 send slots 0-3, 23-38 receive slots 0-3 (4 lines each); a slot's
// line 0: ctl (bit 0 the pass's sense), flags, len, node, handler, seq, then the payload.
TEST(CniPacketPortOnMappedMemory, WritesFragmentsIntoTheSendSlotsAndReassemblesReceivedOnes) {
  constexpr unsigned lb = 64, kSq = 7, kRq = 23;
  AlignedBuffer r(39 * lb);
  const auto line = [&](unsigned l) { return r.p + size_t{l} * lb; };
  const uint64_t id = 2 | uint64_t{1} << 16 | uint64_t{4} << 32 | uint64_t{4} << 48;  // node 1
  std::memcpy(r.p, &id, 8);
  const uint64_t ctrl = 2 << 8;  // two nodes
  std::memcpy(r.p + 8, &ctrl, 8);
  drv::MappedMemory m(lb);
  drv::CniOptions o;
  o.region_base = r.addr();
  drv::CniPacketPort port(m, o, /*peer=*/0, /*handler=*/5);
  EXPECT_EQ(port.endpoint().config(), drv::CniConfig::Cni16Q);
  EXPECT_EQ(port.endpoint().node(), 1u);
  uint64_t w = 0;
  std::memcpy(&w, r.p + 8, 8);
  EXPECT_EQ(w, 1u | 2u << 8) << "CTRL: open, two nodes";
  const auto field16 = [](const uint8_t* p) { return unsigned(p[0] | p[1] << 8); };
  const auto ptr = [&](unsigned l) {
    uint32_t v = 0;
    std::memcpy(&v, line(l), 4);
    return v;
  };
  // a 300-byte packet: fragments of 244 and 56 bytes in send slots 0 and 1, sense 1
  std::vector<uint8_t> pkt(300);
  for (size_t i = 0; i < pkt.size(); ++i) pkt[i] = static_cast<uint8_t>(7 * i + 3);
  port.send(pkt.data(), pkt.size());
  for (unsigned s = 0; s < 2; ++s) {
    const uint8_t* l0 = line(kSq + 4 * s);
    EXPECT_EQ(l0[0], 1u) << "slot " << s << ": the first pass's sense";
    EXPECT_EQ(l0[1], s == 0 ? 1u : 2u) << "FIRST, then LAST";
    EXPECT_EQ(field16(l0 + 2), s == 0 ? 244u : 56u);
    EXPECT_EQ(field16(l0 + 4), 0u) << "the destination";
    EXPECT_EQ(field16(l0 + 6), 5u) << "the handler";
    EXPECT_EQ(std::memcmp(l0 + 12, pkt.data() + 244 * s, s == 0 ? 244 : 56), 0);
  }
  EXPECT_EQ(ptr(4), 2u) << "SQ_TAIL";
  // the engine took both (SQ_HEAD 2): a 600-byte packet's three fragments go into slots 2, 3 and,
  // wrapped, 0 with the second pass's sense (0) and SQ_TAIL's parity bit set
  const uint32_t head = 2;
  std::memcpy(line(5), &head, 4);
  std::vector<uint8_t> big(600, 0x5a);
  port.send(big.data(), big.size());
  EXPECT_EQ(line(kSq + 8)[0], 1u);
  EXPECT_EQ(line(kSq + 12)[0], 1u);
  EXPECT_EQ(line(kSq)[0], 0u) << "slot 0 on the second pass";
  EXPECT_EQ(field16(line(kSq) + 2), 600u - 2 * 244);
  EXPECT_EQ(ptr(4), 1u | 1u << 31) << "SQ_TAIL: slot 1, second pass";
  // receive: a 100-byte packet in receive slot 0, then a 300-byte one in slots 1 and 2 from node 0
  const auto put_fragment = [&](unsigned slot, uint8_t flags, const uint8_t* d, unsigned n) {
    uint8_t* l0 = line(kRq + 4 * slot);
    std::memset(l0, 0, 4 * lb);
    l0[1] = flags;
    l0[2] = uint8_t(n);
    l0[3] = uint8_t(n >> 8);
    l0[6] = 5;  // handler
    std::memcpy(l0 + 12, d, n);
    l0[0] = 1;  // the sense last, as the engine's locked write makes it visible
  };
  EXPECT_FALSE(port.try_receive()) << "an empty queue";
  put_fragment(0, 3, pkt.data(), 100);
  EXPECT_EQ(port.receive(), std::vector<uint8_t>(pkt.begin(), pkt.begin() + 100));
  EXPECT_EQ(ptr(6), 1u) << "RQ_HEAD";
  put_fragment(1, 1, pkt.data(), 244);
  put_fragment(2, 2, pkt.data() + 244, 56);
  EXPECT_EQ(port.receive(), pkt);
  EXPECT_EQ(ptr(6), 3u);
  // a fragment that is not the first of a message, with none in progress: dropped and counted
  put_fragment(3, 2, pkt.data(), 10);
  EXPECT_FALSE(port.try_receive());
  EXPECT_EQ(port.endpoint().stats().reassembly_errors, 1u);
  EXPECT_EQ(ptr(6), 0u | 1u << 31) << "RQ_HEAD wrapped";
}

}  // namespace
}  // namespace cni::test
