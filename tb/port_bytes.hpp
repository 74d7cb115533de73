// SPDX-License-Identifier: Apache-2.0
// Bytes and bits of a Verilated port of any width: CData .. QData, or VlWide, whose 32-bit words
// hold the value least significant first. Shared by the testbench adapters that move data
// through wide ports (the NIC's MAC, PCIe and coherent streams, the DRAM model's AXI slave).
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

namespace cni::tb {

// The bytes [0, n) of the port into `dst`.
template <class T>
void port_bytes_out(const T& sig, uint8_t* dst, unsigned n) {
  if constexpr (std::is_integral_v<T>) {
    for (unsigned i = 0; i < n; ++i) dst[i] = static_cast<uint8_t>(uint64_t{sig} >> (8 * i));
  } else {
    for (unsigned w = 0; 4 * w < n; ++w) {
      const uint32_t v = sig[w];
      std::memcpy(dst + 4 * w, &v, n - 4 * w < 4 ? n - 4 * w : 4);
    }
  }
}
// The port's bytes [0, n) from `src` (a VlWide's bits above them, in the last word, cleared).
template <class T>
void port_bytes_in(T& sig, const uint8_t* src, unsigned n) {
  if constexpr (std::is_integral_v<T>) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i) v |= uint64_t{src[i]} << (8 * i);
    sig = static_cast<T>(v);
  } else {
    for (unsigned w = 0; 4 * w < n; ++w) {
      uint32_t v = 0;
      std::memcpy(&v, src + 4 * w, n - 4 * w < 4 ? n - 4 * w : 4);
      sig[w] = v;
    }
  }
}
// Bit i of the port.
template <class T>
bool port_bit(const T& sig, unsigned i) {
  if constexpr (std::is_integral_v<T>) {
    return (uint64_t{sig} >> i) & 1;
  } else {
    return (sig[i / 32] >> (i % 32)) & 1;
  }
}

}  // namespace cni::tb
