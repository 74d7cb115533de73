// SPDX-License-Identifier: Apache-2.0
#include "cni/drv/pio_stream.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace cni::drv {

namespace {
constexpr size_t kHdr = 8;                          // the header word at the start of line 0
constexpr uint64_t kTruncated = uint64_t{1} << 16;  // (b) header: the message was cut
}  // namespace

PioStream::PioStream(MemoryPort& m, const PioStreamLayout& layout) : m_(m), l_(layout) {
  if (l_.line_bytes != m_.line_bytes() || l_.line_bytes <= kHdr || l_.novf_a == 0 ||
      l_.novf_b == 0) {
    throw std::invalid_argument("PioStream: a layout of " + std::to_string(l_.line_bytes) +
                                "-byte lines with " + std::to_string(l_.novf_a) + "/" +
                                std::to_string(l_.novf_b) + " overflow lines on a port of " +
                                std::to_string(m_.line_bytes()) + "-byte lines");
  }
}

// Line 0 is the payload control line (the one that is not the trigger line); line i >= 1 is
// overflow line i - 1, after the two control lines.
Addr PioStream::msg_line(Addr base, unsigned par, size_t i) const {
  const size_t idx = i == 0 ? 1 - par : 1 + i;
  return base + idx * l_.line_bytes;
}

uint64_t PioStream::send_message(const uint8_t* data, size_t n) {
  if (n > l_.capacity_a()) {
    throw std::invalid_argument("PioStream::send_message: " + std::to_string(n) +
                                " bytes over the channel's " + std::to_string(l_.capacity_a()));
  }
  const size_t lb = l_.line_bytes;
  const size_t lines = (kHdr + n + lb - 1) / lb;
  // The device recalled every line of the last message: ask for them all at once.
  for (size_t i = 0; i < lines; ++i) m_.prefetch(msg_line(l_.a_base, par_a_, i), true);
  buf_.assign(lines * lb, 0);
  const uint64_t hdr = n;
  std::memcpy(buf_.data(), &hdr, kHdr);
  if (n) std::memcpy(buf_.data() + kHdr, data, n);
  for (size_t i = 0; i < lines; ++i) {
    const size_t bytes = std::min(lb, kHdr + n - i * lb);
    m_.store(msg_line(l_.a_base, par_a_, i), buf_.data() + i * lb, bytes);
  }
  // Every store is performed before the trigger read reaches the device.
  m_.barrier();
  const uint64_t status = m_.load64(l_.a_base + Addr{par_a_} * lb);
  par_a_ ^= 1;
  ++st_.sent;
  return status;
}

bool PioStream::receive_message(std::vector<uint8_t>& out) {
  const size_t lb = l_.line_bytes;
  buf_.resize(lb);
  // The read of the trigger line parks at the device until a message is there. It is this
  // channel's line of two messages ago, which this core read then: without the load barrier a
  // weakly ordered core may satisfy the read before the earlier ones of the last message, from
  // the copy it held before the device recalled the line, and get the old message again.
  m_.barrier_load();
  m_.load(l_.b_base + Addr{par_b_} * lb, buf_.data(), lb);
  uint64_t hdr = 0;
  std::memcpy(&hdr, buf_.data(), kHdr);
  const size_t n = std::min<size_t>(hdr & 0xFFFF, l_.capacity_b());
  const bool cut = (hdr & kTruncated) != 0;
  out.resize(n);
  std::memcpy(out.data(), buf_.data() + kHdr, std::min(n, lb - kHdr));
  // The rest is in the overflow lines, written before the trigger line was released: the reads
  // depend on the header's length, and are asked for in parallel.
  const size_t lines = (kHdr + n + lb - 1) / lb;
  for (size_t i = 1; i < lines; ++i) m_.prefetch(l_.b_base + (1 + i) * lb, false);
  for (size_t i = 1; i < lines; ++i) {
    const size_t off = i * lb - kHdr;
    m_.load_dep(l_.b_base + (1 + i) * lb, out.data() + off, std::min(lb, n - off));
  }
  par_b_ ^= 1;
  ++st_.received;
  if (cut) ++st_.truncated;
  return !cut;
}

std::vector<uint8_t> PioStream::receive() {
  std::vector<uint8_t> out;
  if (!receive_message(out)) {
    throw std::runtime_error("PioStream::receive: a message of more than " +
                             std::to_string(l_.capacity_b()) + " bytes was truncated");
  }
  return out;
}

}  // namespace cni::drv
