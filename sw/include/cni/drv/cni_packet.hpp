// SPDX-License-Identifier: Apache-2.0
// The CNI engine's cachable queues as a NIC host interface (docs/nic.md, "Cachable queues"): a
// packet is one CNI message (docs/cni.md section 7) to a fixed peer node under one handler id,
// carried by the engine as ceil(n / 244) network messages of at most 256 bytes, in order, with
// the engine's window flow control (nothing dropped). The same cni::drv::PacketPort as the other
// NIC interfaces' drivers, so one measurement or test runs over any of them.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <vector>

#include "cni/drv/cni.hpp"
#include "cni/drv/packet.hpp"

namespace cni::drv {

class CniPacketPort final : public PacketPort {
 public:
  // Opens the endpoint (CniEndpoint's constructor and its errors); packets go to node `peer`
  // under `handler`, and those that arrive under `handler` from any node are received.
  CniPacketPort(MemoryPort& mem, const CniOptions& opt, uint16_t peer, uint16_t handler = 1);
  // (its handler refers to it: neither copied nor moved)
  CniPacketPort(const CniPacketPort&) = delete;
  CniPacketPort& operator=(const CniPacketPort&) = delete;

  // Blocking: returns when every fragment is in the device (CniEndpoint::send).
  void send(const uint8_t* frame, size_t n) override;
  // Blocking: polls the receive queue until a packet is complete, and returns it.
  std::vector<uint8_t> receive() override;
  // A packet if one is complete (one poll of the queue otherwise), else nothing.
  std::optional<std::vector<uint8_t>> try_receive();

  CniEndpoint& endpoint() { return ep_; }

 private:
  CniEndpoint ep_;
  uint16_t peer_, handler_;
  std::deque<std::vector<uint8_t>> in_;
};

}  // namespace cni::drv
