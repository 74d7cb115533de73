// SPDX-License-Identifier: Apache-2.0
// Coherent-PIO message streams (Enzian protocols (a) and (b), docs/pio.md; seed 002 Fig. 9c):
// messages to the device by (a) and from it by (b), each over a pair of control lines and
// overflow lines homed on the device. Written only against cni::drv::MemoryPort, so the same
// source drives the simulation and the hardware.
//
// send() stores the header and the payload into the payload control line and the overflow lines
// the message needs (their ownership asked for in parallel first), then reads the trigger line:
// the read is answered once the device has taken the message, with its status word. receive()
// reads the trigger line of (b): the read waits at the device until a message is there (a
// blocking receive that costs no traffic while it waits), then reads the overflow lines the
// length needs, asked for in parallel.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cni/drv/mem.hpp"
#include "cni/drv/packet.hpp"

namespace cni::drv {

// Where the two channels' lines are (host addresses): control lines at base and
// base + line_bytes, overflow line k at base + (2 + k) * line_bytes.
struct PioStreamLayout {
  Addr a_base = 0, b_base = 0;
  unsigned novf_a = 0, novf_b = 0;
  unsigned line_bytes = 128;
  // The longest message a channel carries: the control line less its header, and its overflow
  // lines.
  size_t capacity_a() const { return line_bytes - 8 + size_t{novf_a} * line_bytes; }
  size_t capacity_b() const { return line_bytes - 8 + size_t{novf_b} * line_bytes; }
};

struct PioStreamStats {
  uint64_t sent = 0, received = 0;
  uint64_t truncated = 0;  // (b) messages the device cut to the capacity
};

class PioStream : public PacketPort {
 public:
  // Throws std::invalid_argument for a layout without lines or with a line size that is not
  // the port's.
  PioStream(MemoryPort& m, const PioStreamLayout& layout);

  // Sends `n` bytes (0 … capacity_a()) by (a); returns the device's status word (docs/pio.md:
  // bits [47:0] messages taken so far). Throws std::invalid_argument over the capacity.
  uint64_t send_message(const uint8_t* data, size_t n);
  // Receives the next message by (b) into `out`; false when the device truncated it to the
  // capacity (out then holds the bytes that fit).
  bool receive_message(std::vector<uint8_t>& out);

  // PacketPort: a frame is one message each way.
  void send(const uint8_t* frame, size_t n) override { (void)send_message(frame, n); }
  std::vector<uint8_t> receive() override;

  const PioStreamLayout& layout() const { return l_; }
  const PioStreamStats& stats() const { return st_; }

 private:
  // Line `i` (0: the payload control line) of a message on the channel at `base`, parity `par`.
  Addr msg_line(Addr base, unsigned par, size_t i) const;

  MemoryPort& m_;
  PioStreamLayout l_;
  unsigned par_a_ = 0, par_b_ = 0;  // the channel's trigger line is base + par * line_bytes
  std::vector<uint8_t> buf_;
  PioStreamStats st_;
};

}  // namespace cni::drv
