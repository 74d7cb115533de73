// SPDX-License-Identifier: Apache-2.0
// Coherence messages on Verilated ports: the 81-bit cni_coh_pkg::hdr_t as three 32-bit words.
// (A line travels beside it as LineBytes/4 words, byte b at bits [8b+7:8b]: a plain copy.) And
// a line's byte mask (one bit per byte) on a port of LineBytes bits.
#pragma once

#include <bitset>
#include <cstddef>
#include <cstdint>
#include <type_traits>

#include "cni/proto.hpp"

namespace cni::tb {

inline constexpr unsigned kHdrWords = 3;
inline constexpr unsigned kAgentMask = (1u << proto::kAgentBits) - 1;
static_assert(proto::kAgentBits == 4, "hdr_t layout below: src and dst are 4 bits (AGENT_W)");

// Header bit layout of cni_coh_pkg::hdr_t: addr[47:0] len[55:48] flags[59:56] tag[67:60]
// dst[71:68] src[75:72] op[80:76]; tests/wire/test_msg_wire.cpp checks it against the package.
inline void pack_hdr(const proto::Msg& m, uint32_t* w) {
  unsigned __int128 v = 0;
  v |= static_cast<unsigned __int128>(m.addr & ((1ull << 48) - 1));
  v |= static_cast<unsigned __int128>(m.len) << 48;
  v |= static_cast<unsigned __int128>(m.flags & 0xF) << 56;
  v |= static_cast<unsigned __int128>(m.tag) << 60;
  v |= static_cast<unsigned __int128>(m.dst & kAgentMask) << 68;
  v |= static_cast<unsigned __int128>(m.src & kAgentMask) << 72;
  v |= static_cast<unsigned __int128>(static_cast<uint8_t>(m.op) & 0x1F) << 76;
  for (unsigned i = 0; i < kHdrWords; ++i) w[i] = static_cast<uint32_t>(v >> (32 * i));
}

inline proto::Msg unpack_hdr(const uint32_t* w) {
  unsigned __int128 v = 0;
  for (unsigned i = 0; i < kHdrWords; ++i) v |= static_cast<unsigned __int128>(w[i]) << (32 * i);
  proto::Msg m;
  m.addr = static_cast<uint64_t>(v) & ((1ull << 48) - 1);
  m.len = static_cast<uint8_t>(v >> 48);
  m.flags = static_cast<uint8_t>((v >> 56) & 0xF);
  m.tag = static_cast<uint8_t>(v >> 60);
  m.dst = static_cast<uint8_t>((v >> 68) & kAgentMask);
  m.src = static_cast<uint8_t>((v >> 72) & kAgentMask);
  m.op = static_cast<proto::Op>(static_cast<uint8_t>((v >> 76) & 0x1F));
  return m;
}

// Bits [0, n) of `mask` onto `port`: a 64-bit integer (64-byte lines) or Verilator's wide
// array of 32-bit words.
template <class Port, size_t N>
void put_mask(Port& port, const std::bitset<N>& mask, unsigned n) {
  if constexpr (std::is_integral_v<Port>) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i) v |= uint64_t{mask[i]} << i;
    port = v;
  } else {
    for (unsigned w = 0; w < n / 32; ++w) {
      uint32_t v = 0;
      for (unsigned b = 0; b < 32; ++b) v |= uint32_t{mask[32 * w + b]} << b;
      port[w] = v;
    }
  }
}

}  // namespace cni::tb
