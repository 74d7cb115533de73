// SPDX-License-Identifier: Apache-2.0
// Frames for the NIC system tests: `n` bytes as the MAC's stream carries them (the network's
// header, then a payload of bytes seed, seed + step, seed + 2 step, ...; no FCS).
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cni/sim/frame.hpp"

namespace cni::test {

inline std::vector<uint8_t> nic_frame(size_t n, uint32_t seed, unsigned step) {
  sim::FrameHeader h;
  std::vector<uint8_t> payload(n - sim::kFrameHeaderBytes);
  for (size_t i = 0; i < payload.size(); ++i) payload[i] = static_cast<uint8_t>(seed + step * i);
  sim::Frame fr = sim::make_frame(h, payload);
  fr.bytes.resize(fr.bytes.size() - sim::kFcsBytes);
  return fr.bytes;
}

}  // namespace cni::test
