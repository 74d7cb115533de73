// SPDX-License-Identifier: Apache-2.0
// FastForward-style CPU<->CPU RPC (see fastforward.hpp).
#include "cni/drv/fastforward.hpp"

#include <stdexcept>
#include <string>

namespace cni::drv {

FastForwardChannel::FastForwardChannel(MemoryPort& mem, const FastForwardLayout& layout)
    : mem_(mem), layout_(layout) {
  if (layout.line_bytes < 16 || layout.line_bytes != mem.line_bytes()) {
    throw std::invalid_argument("FastForwardChannel: bad line size " +
                                std::to_string(layout.line_bytes));
  }
}

// The payload first, then the sequence word: a reader that sees the new sequence number (with a
// load-acquire, wait()) sees the whole payload (the barrier orders the two stores).
void FastForwardChannel::send(Addr line, std::span<const uint8_t> payload, uint64_t seq) {
  if (payload.size() > max_payload()) {
    throw std::invalid_argument("FastForwardChannel: payload of " +
                                std::to_string(payload.size()) + " bytes exceeds one line");
  }
  mem_.store(line, payload.data(), payload.size());
  mem_.barrier();
  mem_.store64(line + layout_.line_bytes - 8, seq);
  mem_.barrier();
}

void FastForwardChannel::wait(Addr line, uint64_t seq, std::span<uint8_t> payload) {
  // A load-acquire of the sequence word: on a weakly ordered CPU (ARMv8) the payload's loads,
  // though in the same line, could otherwise return its old bytes.
  while (mem_.load_acquire64(line + layout_.line_bytes - 8) != seq) {
    if (layout_.poll_pause_ns) mem_.pause_ns(layout_.poll_pause_ns);
  }
  mem_.load(line, payload.data(), payload.size());
}

std::vector<uint8_t> FastForwardChannel::call(std::span<const uint8_t> request) {
  ++seq_;
  send(layout_.request_line, request, seq_);
  std::vector<uint8_t> response(request.size());
  wait(layout_.response_line, seq_, response);
  return response;
}

void FastForwardChannel::serve_one(
    const std::function<void(std::span<const uint8_t>, std::span<uint8_t>)>& fn,
    size_t payload_bytes) {
  ++seq_;
  std::vector<uint8_t> request(payload_bytes), response(payload_bytes);
  wait(layout_.request_line, seq_, request);
  fn(request, response);
  send(layout_.response_line, response, seq_);
}

}  // namespace cni::drv
