// SPDX-License-Identifier: Apache-2.0
#include "cni/drv/nic_pio.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

namespace cni::drv {

namespace {
// Register words at the register beat (docs/nic.md).
constexpr unsigned kRxTail = 1, kTxPost = 2, kTxTail = 3, kGeometry = 4;
constexpr uint64_t kRxSlot = 64;
}  // namespace

NicPio::NicPio(MemoryPort& m, Addr bar, uint64_t bar_bytes) : m_(m), bar_(bar) {
  regs_ = bar_bytes / 2;
  const uint64_t g = m_.uncached_load64(bar_ + regs_ + 8 * kGeometry);
  slots_ = g & 0xFFFF;
  const uint64_t beats = (g >> 16) & 0xFFFF, bytes = (g >> 32) & 0xFFFF;
  slot_bytes_ = beats * bytes;
  ring_bytes_ = slots_ * slot_bytes_;
  if (slots_ == 0 || bytes != 64 || 4 * ring_bytes_ != bar_bytes) {
    throw std::runtime_error("NicPio: GEOMETRY " + std::to_string(g) +
                             " does not describe a BAR of " + std::to_string(bar_bytes) + " bytes");
  }
}

void NicPio::send(const uint8_t* frame, size_t n) {
  if (n == 0 || n > slot_bytes_) {
    throw std::invalid_argument("NicPio::send: a frame of " + std::to_string(n) +
                                " bytes (slots hold " + std::to_string(slot_bytes_) + ")");
  }
  // The device's counts are 32 bits and wrap: compare modulo 2^32.
  while (static_cast<uint32_t>(tx_n_ - tx_tail_) >= slots_) {
    tx_tail_ = static_cast<uint32_t>(m_.uncached_load64(bar_ + regs_ + 8 * kTxTail));
    ++st_.tail_reads;
  }
  const Addr slot = bar_ + ring_bytes_ + (tx_n_ % slots_) * slot_bytes_;
  for (size_t at = 0; at < n; at += 8) {
    uint64_t w = 0;
    std::memcpy(&w, frame + at, std::min<size_t>(8, n - at));
    m_.uncached_store64(slot + at, w);
  }
  m_.uncached_store64(bar_ + regs_ + 8 * kTxPost, n);
  ++tx_n_;
  ++st_.sent;
}

bool NicPio::try_receive(std::vector<uint8_t>& out) {
  const unsigned s = static_cast<unsigned>(rx_n_ % slots_);
  const Addr word = bar_ + regs_ + kRxSlot + 8 * s;
  uint8_t b[16];
  m_.uncached_load128(word & ~Addr{15}, b);
  ++st_.polls;
  uint64_t w = 0;
  std::memcpy(&w, b + (word & 15), 8);
  if ((w & 0xFFFFFFFF) != ((rx_n_ + 1) & 0xFFFFFFFF)) return false;
  const size_t len = (w >> 32) & 0xFFFF;
  out.resize((len + 15) & ~size_t{15});
  const Addr slot = bar_ + s * slot_bytes_;
  for (size_t at = 0; at < len; at += 16) m_.uncached_load128(slot + at, out.data() + at);
  out.resize(len);
  ++rx_n_;
  m_.uncached_store64(bar_ + regs_ + 8 * kRxTail, rx_n_);
  ++st_.received;
  return true;
}

std::vector<uint8_t> NicPio::receive(uint64_t pause_ns) {
  std::vector<uint8_t> f;
  while (!try_receive(f)) {
    if (pause_ns) m_.pause_ns(pause_ns);
  }
  return f;
}

}  // namespace cni::drv
