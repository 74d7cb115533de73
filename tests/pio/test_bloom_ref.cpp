// SPDX-License-Identifier: Apache-2.0
// tb/bloom_ref.hpp: the accelerator's definition is pinned by known answers (docs/pio.md), and
// its eight hashes behave like independent hash functions.
#include <gtest/gtest.h>

#include <array>
#include <bit>
#include <cstdint>
#include <random>

#include "bloom_ref.hpp"

namespace cni::tb {
namespace {

constexpr std::array<uint32_t, 8> kZeroHashes = {0xe0e25591, 0xaa0ff718, 0xcdf003d5, 0x0e7be996,
                                                 0x132058c6, 0xa81f3a93, 0x989426c3, 0x618ee884};
constexpr std::array<uint32_t, 8> kRampHashes = {0x1c576b94, 0x3c500f9d, 0x34df3a5e, 0xf269336f,
                                                 0x6b7e069e, 0x2f0f3886, 0xf21b15f8, 0xcfe8f8ae};

TEST(BloomRef, KnownAnswersFor128ByteElements) {
  std::array<uint8_t, 128> zero{}, ramp{};
  for (unsigned b = 0; b < 128; ++b) ramp[b] = static_cast<uint8_t>(b);
  for (unsigned i = 0; i < 8; ++i) {
    EXPECT_EQ(bloom_hash(zero.data(), 128, i), kZeroHashes[i]) << "hash " << i;
    EXPECT_EQ(bloom_hash(ramp.data(), 128, i), kRampHashes[i]) << "hash " << i;
  }
  const auto line = bloom_line(ramp.data(), 128);
  for (unsigned i = 0; i < 8; ++i) {
    const uint32_t h = uint32_t{line[4 * i]} | uint32_t{line[4 * i + 1]} << 8 |
                       uint32_t{line[4 * i + 2]} << 16 | uint32_t{line[4 * i + 3]} << 24;
    EXPECT_EQ(h, kRampHashes[i]) << "little-endian result word " << i;
  }
  for (unsigned b = 32; b < 128; ++b) EXPECT_EQ(line[b], static_cast<uint8_t>(b ^ 0xFF)) << b;
}

TEST(BloomRef, SmallerLineSizeUsesOnlyItsBytes) {
  std::array<uint8_t, 128> e{};
  for (unsigned b = 0; b < 128; ++b) e[b] = static_cast<uint8_t>(3 * b + 1);
  const auto l64 = bloom_line<64>(e.data(), 64);
  e[100] ^= 0xFF;  // outside a 64-byte element
  EXPECT_EQ(bloom_line<64>(e.data(), 64), l64);
  EXPECT_THROW(bloom_line<64>(e.data(), 128), std::invalid_argument);
  EXPECT_THROW(bloom_line<128>(e.data(), 30), std::invalid_argument);
}

// Flipping one element bit flips about half of every hash's bits, and the eight hashes of random
// elements are uncorrelated.
TEST(BloomRef, HashesAvalancheAndAreIndependent) {
  std::mt19937_64 rng(7);
  std::array<uint8_t, 128> e{};
  double flipped = 0, samples = 0;
  for (int t = 0; t < 20; ++t) {
    for (auto& b : e) b = static_cast<uint8_t>(rng());
    std::array<uint32_t, 8> h0{};
    for (unsigned i = 0; i < 8; ++i) h0[i] = bloom_hash(e.data(), 128, i);
    for (unsigned bit = 0; bit < 1024; ++bit) {
      e[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
      for (unsigned i = 0; i < 8; ++i) {
        flipped += std::popcount(h0[i] ^ bloom_hash(e.data(), 128, i));
        samples += 1;
      }
      e[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    }
  }
  EXPECT_NEAR(flipped / samples, 16.0, 0.75);
  std::array<double, 8> agree{};
  const int n = 4000;
  for (int t = 0; t < n; ++t) {
    for (auto& b : e) b = static_cast<uint8_t>(rng());
    const uint32_t a = bloom_hash(e.data(), 128, 0);
    for (unsigned i = 1; i < 8; ++i) agree[i] += 32 - std::popcount(a ^ bloom_hash(e.data(), 128, i));
  }
  for (unsigned i = 1; i < 8; ++i) EXPECT_NEAR(agree[i] / (32.0 * n), 0.5, 0.02) << "hash " << i;
}

}  // namespace
}  // namespace cni::tb
