// SPDX-License-Identifier: Apache-2.0
#include "cni/drv/nic_dma.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

namespace cni::drv {

namespace {
// Register words (docs/nic.md).
enum : unsigned { kTxBase = 0, kTxLog2, kTxTail, kTxHead, kRxBase, kRxLog2, kRxTail };
constexpr unsigned kGeometry = 10;
constexpr uint16_t kDone = 1, kErr = 2, kTrunc = 4;

void put_desc(MemoryPort& m, Addr at, Addr buf, uint16_t len) {
  uint8_t d[16] = {};
  std::memcpy(d, &buf, 8);
  std::memcpy(d + 8, &len, 2);
  m.store(at, d, sizeof d);
}
void reg(MemoryPort& m, const NicDmaLayout& l, unsigned i, uint64_t v) {
  m.uncached_store64(l.bar + 8 * i, v);
}
}  // namespace

// The buffers start at the first 4 KiB boundary after both rings.
Addr NicDmaLayout::tx_buf(unsigned i) const {
  const Addr rings = (Addr{16} << tx_log2) + (Addr{16} << rx_log2);
  return mem + (rings + 4095) / 4096 * 4096 + Addr{i} * buf_bytes;
}
Addr NicDmaLayout::rx_buf(unsigned i) const {
  return tx_buf(0) + (Addr{buf_bytes} << tx_log2) + Addr{i} * buf_bytes;
}
uint64_t NicDmaLayout::bytes() const { return rx_buf(1u << rx_log2) - mem; }

void NicDma::configure(MemoryPort& m, const NicDmaLayout& l) {
  if (l.mem % 4096 != 0 || l.buf_bytes % 64 != 0 || l.buf_bytes == 0 || l.buf_bytes > 0xFFC0) {
    throw std::invalid_argument(
        "NicDma: memory not 4 KiB aligned, or buffers not a multiple of 64 bytes below 64 KiB");
  }
  const uint64_t g = m.uncached_load64(l.bar + 8 * kGeometry);
  const unsigned beat = g & 0xFFFF, ring_w = (g >> 16) & 0xFFFF, max = (g >> 32) & 0xFFFF;
  if (beat != 64 || l.tx_log2 > ring_w || l.rx_log2 > ring_w || max > l.buf_bytes) {
    throw std::runtime_error("NicDma: GEOMETRY " + std::to_string(g) + " does not fit the layout");
  }
  for (unsigned i = 0; i < (1u << l.tx_log2); ++i) put_desc(m, l.tx_ring() + 16 * i, 0, 0);
  for (unsigned i = 0; i < (1u << l.rx_log2); ++i) {
    put_desc(m, l.rx_ring() + 16 * i, l.rx_buf(i), static_cast<uint16_t>(l.buf_bytes));
  }
  m.barrier();  // the descriptors are in memory before the NIC may read them
  reg(m, l, kTxBase, l.tx_ring());
  reg(m, l, kTxLog2, l.tx_log2);
  reg(m, l, kRxBase, l.rx_ring());
  reg(m, l, kRxLog2, l.rx_log2);
  reg(m, l, kRxTail, 1u << l.rx_log2);
}

NicDma::NicDma(MemoryPort& m, const NicDmaLayout& l, const NicDmaCosts& c) : m_(m), l_(l), c_(c) {}

void NicDma::send(const uint8_t* frame, size_t n) {
  if (n == 0 || n > l_.buf_bytes) {
    throw std::invalid_argument("NicDma::send: a frame of " + std::to_string(n) +
                                " bytes (buffers hold " + std::to_string(l_.buf_bytes) + ")");
  }
  if (c_.tx_sw_ns) m_.pause_ns(c_.tx_sw_ns);
  const unsigned entries = 1u << l_.tx_log2;
  while (tx_n_ - tx_done_ >= entries) {
    const Addr d = l_.tx_ring() + 16 * (tx_done_ % entries);
    ++st_.tx_polls;
    const uint64_t w = m_.load64(d + 8);
    if ((w >> 16) & kDone) {
      if ((w >> 16) & kErr) ++st_.errors;
      ++tx_done_;
    }
  }
  const unsigned e = static_cast<unsigned>(tx_n_ % entries);
  m_.store(l_.tx_buf(e), frame, n);
  put_desc(m_, l_.tx_ring() + 16 * e, l_.tx_buf(e), static_cast<uint16_t>(n));
  m_.barrier();  // the frame and its descriptor are in memory before the doorbell
  reg(m_, l_, kTxTail, ++tx_n_);
  ++st_.sent;
}

bool NicDma::try_receive(std::vector<uint8_t>& out) {
  const unsigned entries = 1u << l_.rx_log2;
  const unsigned e = static_cast<unsigned>(rx_n_ % entries);
  const Addr d = l_.rx_ring() + 16 * e;
  ++st_.rx_polls;
  const uint64_t w = m_.load64(d + 8);
  const uint16_t flags = static_cast<uint16_t>(w >> 16);
  if (!(flags & kDone)) return false;
  m_.barrier_load();  // the frame's bytes are read after the flag that says they are there
  const size_t len = w & 0xFFFF;
  out.resize(len);
  m_.load(l_.rx_buf(e), out.data(), len);
  last_truncated_ = (flags & kTrunc) != 0;
  if (last_truncated_) ++st_.truncated;
  last_failed_ = (flags & kErr) != 0;
  if (last_failed_) ++st_.errors;
  put_desc(m_, d, l_.rx_buf(e), static_cast<uint16_t>(l_.buf_bytes));
  m_.barrier();  // the descriptor is posted again before the doorbell says so
  ++rx_n_;
  reg(m_, l_, kRxTail, rx_n_ + entries);
  ++st_.received;
  if (c_.rx_sw_ns) m_.pause_ns(c_.rx_sw_ns);
  return true;
}

std::vector<uint8_t> NicDma::receive() {
  std::vector<uint8_t> f;
  while (!try_receive(f)) {
  }
  if (last_truncated_ || last_failed_) {
    throw std::runtime_error(last_failed_
                                 ? "NicDma::receive: the NIC could not deliver a frame (ERR)"
                                 : "NicDma::receive: a frame longer than the buffer was truncated");
  }
  return f;
}

}  // namespace cni::drv
