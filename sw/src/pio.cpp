// SPDX-License-Identifier: Apache-2.0
// Coherent-PIO RPC channel over MemoryPort (see pio.hpp and docs/pio.md).
#include "cni/drv/pio.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cni::drv {

namespace {
constexpr size_t kOptimalTransactionBytes = 32 * 1024;  // 002 §5.1: the L1 size
}

PioChannel::PioChannel(MemoryPort& mem, const PioChannelLayout& layout, size_t transaction_bytes)
    : mem_(mem), layout_(layout), parity_(layout.pairs, 0) {
  if (layout.pairs == 0) throw std::invalid_argument("PioChannel: a channel needs at least one pair");
  if (layout.line_bytes != mem.line_bytes()) {
    throw std::invalid_argument("PioChannel: layout line size " + std::to_string(layout.line_bytes) +
                                " differs from the memory port's " +
                                std::to_string(mem.line_bytes()));
  }
  size_t max_lines = layout.pairs;
  size_t want = transaction_bytes ? transaction_bytes
                                  : std::min(kOptimalTransactionBytes,
                                             size_t(layout.pairs) * layout.line_bytes);
  txn_lines_ = static_cast<unsigned>(
      std::clamp<size_t>((want + layout.line_bytes - 1) / layout.line_bytes, 1, max_lines));
}

Addr PioChannel::line_addr(unsigned group, unsigned pair) const {
  return layout_.group_base[group] + Addr(pair) * layout_.line_bytes;
}

void PioChannel::warm_up() {
  for (unsigned j = 0; j < layout_.pairs; ++j) mem_.prefetch(line_addr(1 - parity_[j], j), true);
  for (unsigned j = 0; j < layout_.pairs; ++j) (void)mem_.load64(line_addr(1 - parity_[j], j));
  mem_.barrier();
}

// One exchange of k <= txn_lines_ lines (protocol (c), docs/pio.md): write the arguments into
// the payload lines, barrier, then read the trigger lines (prefetched in parallel first when
// there are several); the device answers each read with the result line.
void PioChannel::exchange(const uint8_t* req, size_t n, uint8_t* resp) {
  const unsigned lb = layout_.line_bytes;
  const unsigned k = static_cast<unsigned>((n + lb - 1) / lb);
  for (unsigned i = 0; i < k; ++i) {
    size_t bytes = std::min<size_t>(lb, n - size_t(i) * lb);
    if (bytes == lb) {
      mem_.store(line_addr(1 - parity_[i], i), req + size_t(i) * lb, lb);
    } else {  // a partial last line goes out zero-padded: the device always sees whole lines
      std::vector<uint8_t> padded(lb, 0);
      std::copy(req + size_t(i) * lb, req + size_t(i) * lb + bytes, padded.begin());
      mem_.store(line_addr(1 - parity_[i], i), padded.data(), lb);
    }
  }
  mem_.barrier();
  if (k > 1) {
    for (unsigned i = 0; i < k; ++i) mem_.prefetch(line_addr(parity_[i], i), false);
  }
  for (unsigned i = 0; i < k; ++i) {
    size_t bytes = std::min<size_t>(lb, n - size_t(i) * lb);
    mem_.load(line_addr(parity_[i], i), resp + size_t(i) * lb, bytes);
  }
  for (unsigned i = 0; i < k; ++i) parity_[i] ^= 1;
}

void PioChannel::invoke(std::span<const uint8_t> request, std::span<uint8_t> response) {
  if (response.size() < request.size()) {
    throw std::invalid_argument("PioChannel::invoke: response buffer of " +
                                std::to_string(response.size()) + " bytes for a request of " +
                                std::to_string(request.size()));
  }
  const size_t txn = transaction_bytes();
  for (size_t off = 0; off < request.size(); off += txn) {
    size_t n = std::min(txn, request.size() - off);
    exchange(request.data() + off, n, response.data() + off);
  }
  ++invocations_;
}

std::vector<uint8_t> PioChannel::invoke(std::span<const uint8_t> request) {
  std::vector<uint8_t> response(request.size());
  invoke(request, response);
  return response;
}

}  // namespace cni::drv
