// SPDX-License-Identifier: Apache-2.0
// Coherent-PIO RPC channel (Enzian protocol (c), docs/pio.md): `invoke(request) -> response`
// over two groups of device-homed lines, for any payload size. Written only against
// cni::drv::MemoryPort, so the same source drives the simulation and the hardware.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include "cni/drv/mem.hpp"

namespace cni::drv {

// Where a channel's lines are: line j of group g is at group_base[g] + j * line_bytes.
struct PioChannelLayout {
  Addr group_base[2] = {0, 0};
  unsigned pairs = 1;        // lines per group (n)
  unsigned line_bytes = 128;
};

class PioChannel {
 public:
  // `transaction_bytes`: the largest transfer issued as one exchange (0: the platform's
  // optimum = min(pairs * line_bytes, 32 KiB), the L1 size the paper found best).
  PioChannel(MemoryPort& mem, const PioChannelLayout& layout, size_t transaction_bytes = 0);

  // Sends `request` and returns the device's response: one response line per request line
  // (a partial last request line is zero-padded), truncated to request.size() bytes. Payloads
  // larger than a transaction are split into transactions.
  std::vector<uint8_t> invoke(std::span<const uint8_t> request);
  // Same, into a caller buffer of at least request.size() bytes.
  void invoke(std::span<const uint8_t> request, std::span<uint8_t> response);

  // Brings the payload lines of every pair into this core's cache for writing (the protocol's
  // quiescent state), so the first invocation pays no write misses.
  void warm_up();

  size_t transaction_bytes() const { return txn_lines_ * layout_.line_bytes; }
  const PioChannelLayout& layout() const { return layout_; }
  uint64_t invocations() const { return invocations_; }

 private:
  Addr line_addr(unsigned group, unsigned pair) const;
  void exchange(const uint8_t* req, size_t n, uint8_t* resp);

  MemoryPort& mem_;
  PioChannelLayout layout_;
  unsigned txn_lines_;
  std::vector<uint8_t> parity_;  // per pair: the group whose line is the trigger
  uint64_t invocations_ = 0;
};

}  // namespace cni::drv
