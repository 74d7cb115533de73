// SPDX-License-Identifier: Apache-2.0
// The NIC's PCIe PIO driver (docs/nic.md, "PCIe PIO interface"; seed 002 Fig. 9b): frames
// through the receive and transmit rings behind BAR 0 with uncached loads and stores. Receive
// polls the next slot's RX_SLOT word (a 16-byte load: one PCIe round trip), reads the frame in
// 16-byte loads (a round trip each: 002's non-posted read problem) and frees the slot; transmit
// stores the frame into the next slot (the root complex combines the stores into 64-byte
// posted writes) and posts its length, reading TX_TAIL only when every slot is posted.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cni/drv/mem.hpp"
#include "cni/drv/packet.hpp"

namespace cni::drv {

struct NicPioStats {
  uint64_t sent = 0, received = 0;
  uint64_t polls = 0;       // RX_SLOT loads
  uint64_t tail_reads = 0;  // TX_TAIL loads (every slot was posted)
};

class NicPio : public PacketPort {
 public:
  // `bar`, `bar_bytes`: BAR 0's address (mapped for uncached accesses) and size, which is four
  // rings, the registers at its middle. Reads GEOMETRY; throws std::runtime_error when it does
  // not describe the BAR (no slots, beats that are not 64 bytes, rings of another size).
  NicPio(MemoryPort& m, Addr bar, uint64_t bar_bytes);

  // Sends `n` bytes (the frame on the MAC's stream: header and payload, no FCS); waits for a
  // free slot. Throws std::invalid_argument when n is 0 or over the slot.
  void send(const uint8_t* frame, size_t n) override;
  // One poll: true, with the frame in `out`, when the next frame has arrived.
  bool try_receive(std::vector<uint8_t>& out);
  // Polls until the next frame arrives, pausing `pause_ns` between polls (PacketPort's receive:
  // none).
  std::vector<uint8_t> receive(uint64_t pause_ns);
  std::vector<uint8_t> receive() override { return receive(0); }

  unsigned slots() const { return slots_; }
  uint64_t slot_bytes() const { return slot_bytes_; }
  const NicPioStats& stats() const { return st_; }

 private:
  MemoryPort& m_;
  Addr bar_;
  unsigned slots_ = 0;
  uint64_t slot_bytes_ = 0, ring_bytes_ = 0, regs_ = 0;
  uint64_t tx_n_ = 0, rx_n_ = 0;  // frames sent and received
  uint32_t tx_tail_ = 0;          // TX_TAIL as last read (the device counts modulo 2^32)
  NicPioStats st_;
};

}  // namespace cni::drv
