// SPDX-License-Identifier: Apache-2.0
#include "cni/drv/cni_packet.hpp"

#include <span>

namespace cni::drv {

CniPacketPort::CniPacketPort(MemoryPort& mem, const CniOptions& opt, uint16_t peer,
                             uint16_t handler)
    : ep_(mem, opt), peer_(peer), handler_(handler) {
  ep_.set_handler(handler_, [this](uint16_t, std::span<const uint8_t> d) {
    in_.emplace_back(d.begin(), d.end());  // out of the queue slots into user memory
  });
}

void CniPacketPort::send(const uint8_t* frame, size_t n) {
  ep_.send(peer_, handler_, std::span<const uint8_t>(frame, n));
}

std::vector<uint8_t> CniPacketPort::receive() {
  while (in_.empty()) ep_.recv();
  std::vector<uint8_t> p = std::move(in_.front());
  in_.pop_front();
  return p;
}

std::optional<std::vector<uint8_t>> CniPacketPort::try_receive() {
  if (in_.empty() && !ep_.try_recv()) return std::nullopt;
  if (in_.empty()) return std::nullopt;  // a message for another handler ran
  std::vector<uint8_t> p = std::move(in_.front());
  in_.pop_front();
  return p;
}

}  // namespace cni::drv
