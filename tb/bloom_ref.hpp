// SPDX-License-Identifier: Apache-2.0
// Reference model of the PIO (c) demo accelerator rtl/pio/cni_bloom.sv: eight Bloom-filter
// hashes of one line-sized element, bit for bit. The definition is in docs/pio.md.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>

namespace cni::tb {

inline constexpr unsigned kBloomHashes = 8;

// Seed of hash i (0..7): the golden-ratio constant times (i + 1), modulo 2^32.
constexpr uint32_t bloom_seed(unsigned i) { return 0x9E3779B9u * (i + 1u); }

constexpr uint32_t bloom_rotl(uint32_t x, unsigned r) {
  r %= 32u;
  return r == 0 ? x : (x << r) | (x >> (32u - r));
}

// Hash i of the element: per word, XOR with a word constant, Keccak's chi step (the same for
// every hash) and a rotation that depends on the hash and the word; XOR fold of the words into
// the hash's seed; then xorshift32 and the one-at-a-time final mix.
inline uint32_t bloom_hash(const uint8_t* element, unsigned line_bytes, unsigned i) {
  const uint32_t k = bloom_seed(i);
  uint32_t x = k;
  for (unsigned j = 0; j < line_bytes / 4; ++j) {
    const uint32_t w = uint32_t{element[4 * j]} | uint32_t{element[4 * j + 1]} << 8 |
                       uint32_t{element[4 * j + 2]} << 16 | uint32_t{element[4 * j + 3]} << 24;
    const uint32_t u = w ^ (0x85EBCA6Bu * (j + 1u));
    const uint32_t v = u ^ (~bloom_rotl(u, 1) & bloom_rotl(u, 2));
    x ^= bloom_rotl(v, (2 * i + 5) * j + 7 * i + 1);
  }
  x ^= x << 13;
  x ^= x >> 17;
  x ^= x << 5;
  x += x << 3;
  x ^= x >> 11;
  x += x << 15;
  return x;
}

// The accelerator's result line for `element` (line_bytes long, a multiple of 4, >= 32 and
// <= LineBytes): bytes [4i, 4i+4) hold hash i little endian, bytes [32, line_bytes) are the
// element's bytes XOR 0xFF; bytes from line_bytes on are zero.
template <std::size_t LineBytes = 128>
std::array<uint8_t, LineBytes> bloom_line(const uint8_t* element, unsigned line_bytes = LineBytes) {
  if (line_bytes < 4 * kBloomHashes || line_bytes % 4 != 0 || line_bytes > LineBytes) {
    throw std::invalid_argument("bloom_line: bad line size " + std::to_string(line_bytes));
  }
  std::array<uint8_t, LineBytes> out{};
  for (unsigned i = 0; i < kBloomHashes; ++i) {
    const uint32_t h = bloom_hash(element, line_bytes, i);
    for (unsigned b = 0; b < 4; ++b) out[4 * i + b] = static_cast<uint8_t>(h >> (8 * b));
  }
  for (unsigned b = 4 * kBloomHashes; b < line_bytes; ++b) {
    out[b] = static_cast<uint8_t>(element[b] ^ 0xFFu);
  }
  return out;
}

}  // namespace cni::tb
