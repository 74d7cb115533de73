// SPDX-License-Identifier: Apache-2.0
// FastForward-style CPU<->CPU RPC over ordinary shared memory (002 §4, Fig. 4): the baseline
// coherent PIO is compared with. A request line and a response line; each carries a payload
// and a sequence number in its last 8 bytes ("finished" flag); the receiver polls its line,
// holding it Shared, until the sequence number changes. Written against MemoryPort like every
// driver, so it runs on two simulated sockets or on two real cores.
#pragma once

#include <cstdint>
#include <functional>
#include <span>
#include <vector>

#include "cni/drv/mem.hpp"

namespace cni::drv {

struct FastForwardLayout {
  Addr request_line = 0;
  Addr response_line = 0;
  unsigned line_bytes = 128;
  uint64_t poll_pause_ns = 0;  // pause between polls (0: spin)
};

class FastForwardChannel {
 public:
  FastForwardChannel(MemoryPort& mem, const FastForwardLayout& layout);

  // Largest payload per call: one line less the sequence word.
  size_t max_payload() const { return layout_.line_bytes - 8; }

  // Client side: send `request`, wait for the response (same size).
  std::vector<uint8_t> call(std::span<const uint8_t> request);
  // Server side: wait for one request, answer it with fn(request, response).
  void serve_one(const std::function<void(std::span<const uint8_t>, std::span<uint8_t>)>& fn,
                 size_t payload_bytes);

 private:
  void send(Addr line, std::span<const uint8_t> payload, uint64_t seq);
  void wait(Addr line, uint64_t seq, std::span<uint8_t> payload);

  MemoryPort& mem_;
  FastForwardLayout layout_;
  uint64_t seq_ = 0;
};

}  // namespace cni::drv
