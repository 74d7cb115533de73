// SPDX-License-Identifier: Apache-2.0
// Reference model of a whole PIO (c) invocation: what the driver must get back for a request
// (each request line, zero-padded, through the Bloom accelerator; truncated to the request).
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "bloom_ref.hpp"

namespace cni::tb {

inline std::vector<uint8_t> pio_expected_response(const std::vector<uint8_t>& req,
                                                  unsigned line_bytes) {
  std::vector<uint8_t> out(req.size()), line(line_bytes);
  for (size_t off = 0; off < req.size(); off += line_bytes) {
    size_t n = std::min<size_t>(line_bytes, req.size() - off);
    std::fill(line.begin(), line.end(), 0);
    std::copy(req.begin() + off, req.begin() + off + n, line.begin());
    auto r = bloom_line(line.data(), line_bytes);
    std::copy(r.begin(), r.begin() + n, out.begin() + off);
  }
  return out;
}

}  // namespace cni::tb
