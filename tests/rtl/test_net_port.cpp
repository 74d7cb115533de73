// SPDX-License-Identifier: Apache-2.0
// The device's network port (docs/endpoint.md, "Network port"), played from the MAC's side:
// the scratch-pad engine's frames out (header, payload, beats, tkeep, tdest) and in (taken into
// its buffer, counted, the source kept), frames the MAC marks bad and frames of the wrong size
// dropped and counted by the engine, frames of a type no engine owns dropped and counted by
// the port, back-pressure from the MAC, and the engine's sends in order.
#include <algorithm>
#include <cstring>
#include <vector>

#include "cni/sim/frame.hpp"
#include "fixture.hpp"

namespace cni::test {
namespace {

class NetPort : public EndpointTest {
 protected:
  static constexpr unsigned kEngine = engines::kEngineScratch;
  static constexpr uint8_t kTypeScratch = 1;

  uint32_t reg(uint32_t off) { return ep->csr_read(csr::engine_reg(kEngine, off)); }
  void set_reg(uint32_t off, uint32_t v) { ep->csr_write(csr::engine_reg(kEngine, off), v); }
  void send_to(unsigned node) { set_reg(0x00, (uint32_t(node) << 16) | 3); }
  void put_buffer(const std::vector<uint8_t>& d) {
    for (unsigned w = 0; w < geo().line_bytes / 4; ++w) {
      uint32_t v;
      std::memcpy(&v, &d[4 * w], 4);
      set_reg(0x80 + 4 * w, v);
    }
  }
  std::vector<uint8_t> get_buffer() {
    std::vector<uint8_t> d(geo().line_bytes);
    for (unsigned w = 0; w < geo().line_bytes / 4; ++w) {
      uint32_t v = reg(0x80 + 4 * w);
      std::memcpy(&d[4 * w], &v, 4);
    }
    return d;
  }
  std::vector<uint8_t> line_pattern(uint8_t seed) const {
    std::vector<uint8_t> d(geo().line_bytes);
    for (size_t i = 0; i < d.size(); ++i) d[i] = uint8_t(seed + 3 * i);
    return d;
  }
  // A frame as docs/network.md lays it out (no FCS: the MAC adds and checks it).
  static std::vector<uint8_t> frame(uint16_t dst, uint16_t src, uint8_t type, uint32_t seq,
                                    const std::vector<uint8_t>& payload) {
    sim::FrameHeader h;
    h.dst = dst;
    h.src = src;
    h.len = static_cast<uint16_t>(payload.size());
    h.type = type;
    h.seq = seq;
    const auto hdr = sim::pack_header(h);
    std::vector<uint8_t> f(hdr.size() + payload.size());
    std::copy(hdr.begin(), hdr.end(), f.begin());
    std::copy(payload.begin(), payload.end(), f.begin() + long(hdr.size()));
    return f;
  }
  // Clocks until the device has sent `n` frames (or gives up).
  void wait_sent(size_t n) {
    for (unsigned i = 0; i < 500 && ep->net_sent().size() < n; ++i) ep->run(1);
    ASSERT_EQ(ep->net_sent().size(), n);
  }
  void wait_taken() {
    for (unsigned i = 0; i < 500 && ep->net_queued() > 0; ++i) ep->run(1);
    ep->run(5);
    ASSERT_EQ(ep->net_queued(), 0u);
  }
};

TEST_F(NetPort, ReportsItsBeatWidth) { EXPECT_EQ(geo().net_bytes, 64u); }

TEST_F(NetPort, SendCarriesTheBufferInAFrameToTheNodeItNames) {
  const auto d = line_pattern(5);
  put_buffer(d);
  send_to(9);
  wait_sent(1);
  const tb::NetFrame& f = ep->net_sent().front();
  EXPECT_EQ(f.dest, 9u);
  EXPECT_EQ(f.bytes, frame(9, 0, kTypeScratch, 0, d)) << "header and payload, byte for byte";
  EXPECT_EQ(reg(0x08), 1u) << "NET_TX counts it";
  // The next one names the next sequence number.
  send_to(3);
  wait_sent(2);
  EXPECT_EQ(ep->net_sent().back().bytes, frame(3, 0, kTypeScratch, 1, d));
}

TEST_F(NetPort, ASendWaitsForTheLastFrameToLeaveWhileTheMacHoldsTreadyLow) {
  bool ready = false;
  ep->set_net_tx_ready([&] { return ready; });
  put_buffer(line_pattern(1));
  send_to(4);
  ep->run(50);
  EXPECT_TRUE(ep->net_sent().empty()) << "no beat leaves without tready";
  EXPECT_EQ(reg(0x00) & 1, 1u) << "CTRL busy while the frame waits for the network";
  put_buffer(line_pattern(2));  // the first frame is in the engine's sender already
  send_to(6);                   // ignored: busy
  ready = true;
  wait_sent(1);
  ep->run(20);
  EXPECT_EQ(ep->net_sent().size(), 1u) << "the send made while busy was ignored";
  EXPECT_EQ(reg(0x00) & 1, 0u);
  send_to(6);
  wait_sent(2);
  EXPECT_EQ(ep->net_sent()[0].bytes, frame(4, 0, kTypeScratch, 0, line_pattern(1)));
  EXPECT_EQ(ep->net_sent()[1].bytes, frame(6, 0, kTypeScratch, 1, line_pattern(2)));
}

// Two engines streaming frames at each other through a full network: each one's frame waits
// for the network while the other's arrives. The arriving frame must still be taken, or neither
// network buffer ever drains.
TEST_F(NetPort, FramesAreTakenWhileTheEnginesOwnFrameWaitsForTheNetwork) {
  bool ready = false;
  ep->set_net_tx_ready([&] { return ready; });
  put_buffer(line_pattern(1));
  send_to(4);
  ep->run(20);
  ep->net_receive({frame(0, 4, kTypeScratch, 0, line_pattern(7)), 0, false});
  ep->net_receive({frame(0, 4, kTypeScratch, 1, line_pattern(8)), 0, false});
  wait_taken();
  EXPECT_EQ(reg(0x0C), (4u << 16) | 2u) << "both frames in while ours is held back";
  EXPECT_EQ(get_buffer(), line_pattern(8));
  EXPECT_TRUE(ep->net_sent().empty());
  ready = true;
  wait_sent(1);
  EXPECT_EQ(ep->net_sent()[0].bytes, frame(4, 0, kTypeScratch, 0, line_pattern(1)))
      << "the frame left with the buffer it was sent with";
}

TEST_F(NetPort, AFrameReceivedReplacesTheBufferAndIsCounted) {
  const auto d = line_pattern(40);
  ep->net_receive({frame(0, 7, kTypeScratch, 0, d), 0, false});
  wait_taken();
  EXPECT_EQ(get_buffer(), d);
  EXPECT_EQ(reg(0x0C), (7u << 16) | 1u) << "one frame in, from node 7";
  EXPECT_EQ(reg(0x10), 0u);
}

TEST_F(NetPort, BadFramesAreDroppedAndCountedAndTheNextGoodOneGetsIn) {
  const auto keep = line_pattern(1);
  put_buffer(keep);
  // the MAC's FCS check failed
  ep->net_receive({frame(0, 2, kTypeScratch, 0, line_pattern(2)), 0, true});
  // a payload that is not a line
  ep->net_receive({frame(0, 2, kTypeScratch, 1, std::vector<uint8_t>(8, 0xAA)), 0, false});
  // longer than a frame of a line (two lines)
  std::vector<uint8_t> two = line_pattern(3);
  two.insert(two.end(), keep.begin(), keep.end());
  ep->net_receive({frame(0, 2, kTypeScratch, 2, two), 0, false});
  wait_taken();
  EXPECT_EQ(get_buffer(), keep) << "no bad frame touched the buffer";
  EXPECT_EQ(reg(0x10), 3u) << "NET_BAD";
  EXPECT_EQ(reg(0x0C) & 0xFFFF, 0u);
  ep->net_receive({frame(0, 5, kTypeScratch, 3, line_pattern(9)), 0, false});
  wait_taken();
  EXPECT_EQ(get_buffer(), line_pattern(9));
  EXPECT_EQ(reg(0x0C), (5u << 16) | 1u);
}

TEST_F(NetPort, FramesOfATypeNoEngineOwnsAreDroppedAndCountedByThePort) {
  ep->net_receive({frame(0, 1, 0x7E, 0, line_pattern(4)), 0, false});
  ep->net_receive({frame(0, 1, 0x00, 0, std::vector<uint8_t>(200, 1)), 0, false});
  wait_taken();
  EXPECT_EQ(ep->counter(csr::kNetDropped), 2u);
  EXPECT_EQ(reg(0x0C) & 0xFFFF, 0u);
  EXPECT_EQ(reg(0x10), 0u) << "the engine saw none of them";
}

TEST_F(NetPort, AFrameArrivingDuringAnOperationWaitsForItsEnd) {
  // a coherent read of a line a host holds dirty: the engine waits for the snoop answer
  acquire(kHost1, line(geo().base(tb::DeviceGeometry::kScratch) + 1));
  set_reg(0x00, (1u << 16) | 0);  // read line 1
  Msg f = expect(Op::FwdDown, kHost1, line(geo().base(tb::DeviceGeometry::kScratch) + 1));
  ep->net_receive({frame(0, 3, kTypeScratch, 0, line_pattern(50)), 0, false});
  ep->run(40);
  EXPECT_EQ(reg(0x0C) & 0xFFFF, 0u) << "held while the read runs";
  ep->send(snoop_answer(f, true, pattern(9)));
  // (the frame is in the engine's receiver already: it is taken once the read has ended)
  for (unsigned i = 0; i < 200 && (reg(0x0C) & 0xFFFF) == 0; ++i) ep->run(1);
  EXPECT_EQ(reg(0x00) & 1, 0u) << "the read has ended";
  EXPECT_EQ(reg(0x0C), (3u << 16) | 1u);
  EXPECT_EQ(get_buffer(), line_pattern(50)) << "the frame came after the read's data";
}

}  // namespace
}  // namespace cni::test
