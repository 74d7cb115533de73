// SPDX-License-Identifier: Apache-2.0
// The packet API every NIC host interface's driver offers (docs/nic.md, docs/driver.md): send a
// frame (its header and payload as the MAC's stream carries them, no FCS), receive the next
// one. Both return when done: send when the device has the frame (or holds it for the MAC),
// receive when the frame is in the caller's hands, polling or waiting as the interface does.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace cni::drv {

class PacketPort {
 public:
  virtual ~PacketPort() = default;
  virtual void send(const uint8_t* frame, size_t n) = 0;
  virtual std::vector<uint8_t> receive() = 0;
};

}  // namespace cni::drv
