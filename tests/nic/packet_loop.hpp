// SPDX-License-Identifier: Apache-2.0
// A frame stream through a NIC host interface's driver and back, over any interface
// (cni::drv::PacketPort): core 1 sends the frames, at most `ahead` before core 2 has received
// them (so an interface that drops on overflow drops none); core 2 receives them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <vector>

#include "cni/drv/packet.hpp"
#include "cni/sim/host.hpp"

namespace cni::test {

using MakePacketPort = std::function<std::unique_ptr<drv::PacketPort>(drv::MemoryPort&)>;

inline std::vector<std::vector<uint8_t>> packet_loop(
    sim::HostSystem& host, const MakePacketPort& make,
    const std::vector<std::vector<uint8_t>>& frames, size_t ahead) {
  std::vector<std::vector<uint8_t>> got;
  host.spawn(1, [&](drv::MemoryPort& m) {
    const auto tx = make(m);
    for (size_t i = 0; i < frames.size(); ++i) {
      while (i >= got.size() + ahead) m.pause_ns(500);
      tx->send(frames[i].data(), frames[i].size());
    }
  });
  host.spawn(2, [&](drv::MemoryPort& m) {
    const auto rx = make(m);
    for (size_t i = 0; i < frames.size(); ++i) got.push_back(rx->receive());
  });
  host.run_programs();
  return got;
}

}  // namespace cni::test
