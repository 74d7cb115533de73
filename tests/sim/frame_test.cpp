// SPDX-License-Identifier: Apache-2.0
// Frames: CRC-32 known answer, header layout, FCS, AXI4-Stream beats, bad input.
#include "cni/sim/frame.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "error_of.hpp"

using namespace cni::sim;
using cni::sim::test::error_of;

namespace {

std::vector<uint8_t> bytes_of(const std::string& s) { return {s.begin(), s.end()}; }

std::vector<uint8_t> counting(size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(i * 7 + 1);
  return v;
}

}  // namespace

TEST(Frame, Crc32MatchesTheIeeeKnownAnswer) {
  EXPECT_EQ(crc32(bytes_of("123456789")), 0xCBF43926u);
  EXPECT_EQ(crc32({}), 0u);
  EXPECT_EQ(crc32(bytes_of("The quick brown fox jumps over the lazy dog")), 0x414FA339u);
}

TEST(Frame, HeaderPacksLittleEndianAndParsesBack) {
  const FrameHeader h{0x0201, 0x0403, 0x0605, 0x07, 0x08, 0x0C0B0A09};
  const auto b = pack_header(h);
  const std::vector<uint8_t> want{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12};
  EXPECT_EQ(std::vector<uint8_t>(b.begin(), b.end()), want);
  EXPECT_EQ(parse_header(b), h);
}

TEST(Frame, MakeFrameAppendsAnFcsThatEverySingleBitFlipBreaks) {
  const auto payload = counting(20);
  const Frame f = make_frame(FrameHeader{3, 5, 0, 1, 0, 42}, payload);
  EXPECT_EQ(f.dst, 3u);
  EXPECT_EQ(f.src, 5u);
  ASSERT_EQ(f.bytes.size(), kMinFrameBytes + 20);
  EXPECT_EQ(parse_header(f.bytes).len, 20);
  EXPECT_EQ(parse_header(f.bytes).seq, 42u);
  const auto got = frame_payload(f);
  EXPECT_EQ(std::vector<uint8_t>(got.begin(), got.end()), payload);
  // The FCS is the CRC-32 of the bytes before it, least significant byte first.
  const uint32_t crc = crc32(std::span<const uint8_t>(f.bytes).first(f.bytes.size() - 4));
  for (unsigned i = 0; i < 4; ++i)
    EXPECT_EQ(f.bytes[f.bytes.size() - 4 + i], uint8_t(crc >> 8 * i));
  EXPECT_TRUE(fcs_ok(f.bytes));
  for (size_t bit = 0; bit < f.bytes.size() * 8; ++bit) {
    std::vector<uint8_t> b = f.bytes;
    b[bit / 8] ^= static_cast<uint8_t>(1u << bit % 8);
    EXPECT_FALSE(fcs_ok(b)) << "bit " << bit;
  }
}

TEST(Frame, EmptyPayloadMakesTheShortestFrame) {
  const Frame f = make_frame(FrameHeader{1, 0, 0, 0, 0, 0}, {});
  EXPECT_EQ(f.bytes.size(), kMinFrameBytes);
  EXPECT_TRUE(fcs_ok(f.bytes));
  EXPECT_TRUE(frame_payload(f).empty());
}

TEST(Frame, BadSizesThrowNamingThem) {
  EXPECT_NE(error_of<std::invalid_argument>([] {
              (void)parse_header(std::vector<uint8_t>(11));
            }).find("11 bytes"),
            std::string::npos);
  Frame f = make_frame(FrameHeader{1, 0, 0, 0, 0, 0}, counting(8));
  f.bytes.push_back(0);
  const std::string m = error_of<std::invalid_argument>([&] { (void)frame_payload(f); });
  EXPECT_NE(m.find("len 8"), std::string::npos) << m;
  EXPECT_NE(m.find("25 bytes"), std::string::npos) << m;
  const std::string big = error_of<std::invalid_argument>(
      [] { (void)make_frame(FrameHeader{}, std::vector<uint8_t>(70000)); });
  EXPECT_NE(big.find("70000"), std::string::npos) << big;
}

TEST(Frame, BeatsCarryBytesInLaneOrderWithTkeepTlastTuserTdest) {
  Frame f = make_frame(FrameHeader{9, 2, 0, 0, 0, 0}, counting(84));  // 100 bytes
  f.tuser = true;
  const auto beats = to_beats(f, 64);
  ASSERT_EQ(beats.size(), 2u);
  EXPECT_EQ(beats[0].tkeep, ~0ull);
  EXPECT_FALSE(beats[0].tlast);
  EXPECT_FALSE(beats[0].tuser);
  EXPECT_EQ(beats[1].tkeep, (1ull << 36) - 1);
  EXPECT_TRUE(beats[1].tlast);
  EXPECT_TRUE(beats[1].tuser);
  for (const auto& b : beats) EXPECT_EQ(b.tdest, 9u);
  EXPECT_EQ(beats[0].tdata[0], f.bytes[0]);  // lane 0 = tdata[7:0] = byte 0
  EXPECT_EQ(beats[1].tdata[35], f.bytes[99]);
  const Frame back = from_beats(beats, 2);
  EXPECT_EQ(back.bytes, f.bytes);
  EXPECT_EQ(back.dst, 9u);
  EXPECT_EQ(back.src, 2u);
  EXPECT_TRUE(back.tuser);
  // A frame filling its last beat keeps every lane.
  const Frame even = make_frame(FrameHeader{1, 0, 0, 0, 0, 0}, counting(16));  // 32 bytes
  const auto eb = to_beats(even, 8);
  ASSERT_EQ(eb.size(), 4u);
  EXPECT_EQ(eb[3].tkeep, 0xFFu);
  EXPECT_EQ(from_beats(eb, 0).bytes, even.bytes);
}

TEST(Frame, BeatProtocolViolationsThrowNamingTheBeat) {
  const Frame f = make_frame(FrameHeader{1, 0, 0, 0, 0, 0}, counting(20));  // 36 bytes
  const auto good = to_beats(f, 16);
  ASSERT_EQ(good.size(), 3u);
  auto early = good;
  early[1].tlast = true;
  EXPECT_NE(error_of<std::invalid_argument>([&] { from_beats(early, 0); }).find("beat 1"),
            std::string::npos);
  auto dest = good;
  dest[2].tdest = 4;
  EXPECT_NE(error_of<std::invalid_argument>([&] { from_beats(dest, 0); }).find("tdest 4"),
            std::string::npos);
  auto hole = good;
  hole[2].tkeep = 0b1011;
  EXPECT_NE(error_of<std::invalid_argument>([&] { from_beats(hole, 0); }).find("0xb"),
            std::string::npos);
  auto partial = good;
  partial[0].tkeep = 0xFF;
  EXPECT_NE(error_of<std::invalid_argument>([&] { from_beats(partial, 0); }).find("beat 0"),
            std::string::npos);
  EXPECT_NE(error_of<std::invalid_argument>([&] { to_beats(f, 65); }).find("65"),
            std::string::npos);
  EXPECT_NE(error_of<std::invalid_argument>([] { to_beats(Frame{}, 8); }).find("empty"),
            std::string::npos);
}
