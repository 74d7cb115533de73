// SPDX-License-Identifier: Apache-2.0
// The scratch-pad engine's registers (docs/endpoint.md, "Worked example") through a core's
// uncached loads and stores of its window (8 bytes an access: two 32-bit registers): its line
// buffer, its network sends and receives, and its host ops through the device's caching agent.
// The multi-node tests and `cni-bench nodes` drive devices' network ports with it.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>

#include "cache_port.hpp"
#include "cni/drv/mem.hpp"
#include "device/sim_device.hpp"

namespace cni::tb {

class ScratchRegs {
 public:
  explicit ScratchRegs(const SimDevice& d) : win_(d.region_addr(DeviceGeometry::kScratch)) {}

  // Sends the line buffer to node `node` (CTRL op 3), once the engine is not busy (an
  // operation running or the last frame still leaving: CTRL ignores writes then);
  // std::runtime_error after `max_polls` polls.
  void send(drv::MemoryPort& m, unsigned node, double poll_ns = 20,
            unsigned max_polls = 100000) const {
    wait_idle(m, poll_ns, max_polls);
    m.uncached_store64(win_ + 0x00, (uint64_t(node) << 16) | 3);
  }
  // Polls CTRL until the engine is not busy; returns CTRL's low word as last read.
  uint32_t wait_idle(drv::MemoryPort& m, double poll_ns = 20, unsigned max_polls = 100000) const {
    uint32_t ctrl = uint32_t(m.uncached_load64(win_ + 0x00));
    for (unsigned i = 0; ctrl & 1; ++i) {
      if (i == max_polls) {
        throw std::runtime_error("scratch-pad engine: busy after " + std::to_string(max_polls) +
                                 " polls");
      }
      m.pause_ns(poll_ns);
      ctrl = uint32_t(m.uncached_load64(win_ + 0x00));
    }
    return ctrl;
  }
  // A coherent read (op 0) or write (op 1) of line `line` of the region, or a policy change
  // (op 2, `policy` in CTRL[9:8]), waiting until the engine is not busy before and after;
  // returns CTRL's low word at the end ([1]: the line was outside the region).
  uint32_t line_op(drv::MemoryPort& m, unsigned op, unsigned line, unsigned policy = 0,
                   double poll_ns = 20, unsigned max_polls = 100000) const {
    start_line_op(m, op, line, policy, poll_ns, max_polls);
    return wait_idle(m, poll_ns, max_polls);
  }
  // The same, not waiting for the end (wait_idle does).
  void start_line_op(drv::MemoryPort& m, unsigned op, unsigned line, unsigned policy = 0,
                     double poll_ns = 20, unsigned max_polls = 100000) const {
    wait_idle(m, poll_ns, max_polls);
    m.uncached_store64(win_ + 0x00, (uint64_t(line) << 16) | (uint64_t(policy & 3) << 8) | op);
  }
  // A host op (CTRL op 4): caching-agent operation `op` on the host line at `addr`, the line
  // buffer the data of a write and the destination of a read; waits until the engine is not
  // busy before and after (std::runtime_error after `max_polls` polls). Returns whether the
  // agent answered with an error (CTRL bit 2).
  bool host(drv::MemoryPort& m, CaOp op, uint64_t addr, double poll_ns = 20,
            unsigned max_polls = 100000) const {
    wait_idle(m, poll_ns, max_polls);
    m.uncached_store64(win_ + 0x10, (addr & 0xFFFFFFFFu) << 32);  // HADDR_LO (0x14)
    m.uncached_store64(win_ + 0x18, addr >> 32);                  // HADDR_HI
    m.uncached_store64(win_ + 0x00, (uint64_t(static_cast<uint8_t>(op)) << 4) | 4);
    return (wait_idle(m, poll_ns, max_polls) >> 2) & 1;
  }
  uint32_t sent(drv::MemoryPort& m) const { return uint32_t(m.uncached_load64(win_ + 0x08)); }
  // NET_RX: [15:0] frames taken, [31:16] the last one's source node.
  uint32_t received(drv::MemoryPort& m) const {
    return uint32_t(m.uncached_load64(win_ + 0x08) >> 32);
  }
  uint32_t bad(drv::MemoryPort& m) const { return uint32_t(m.uncached_load64(win_ + 0x10)); }
  // 8-byte word i of the line buffer.
  void put_word(drv::MemoryPort& m, unsigned i, uint64_t v) const {
    m.uncached_store64(win_ + 0x80 + 8 * i, v);
  }
  uint64_t word(drv::MemoryPort& m, unsigned i) const {
    return m.uncached_load64(win_ + 0x80 + 8 * i);
  }
  // Polls NET_RX every `poll_ns` until `n` frames are in, at most `max_polls` times; returns
  // NET_RX as last read.
  uint32_t wait_received(drv::MemoryPort& m, unsigned n, double poll_ns = 50,
                         unsigned max_polls = 20000) const {
    uint32_t r = received(m);
    for (unsigned i = 0; i < max_polls && (r & 0xFFFF) < n; ++i) {
      m.pause_ns(poll_ns);
      r = received(m);
    }
    return r;
  }
  // Waits until `n` frames have left (a send copies the buffer into the frame as it starts);
  // std::runtime_error after `max_polls` polls.
  void wait_sent(drv::MemoryPort& m, unsigned n, double poll_ns = 20,
                 unsigned max_polls = 100000) const {
    for (unsigned i = 0; sent(m) < n; ++i) {
      if (i == max_polls) {
        throw std::runtime_error("scratch-pad engine: frame " + std::to_string(n) +
                                 " not sent after " + std::to_string(max_polls) + " polls");
      }
      m.pause_ns(poll_ns);
    }
  }

 private:
  uint64_t win_;
};

}  // namespace cni::tb
