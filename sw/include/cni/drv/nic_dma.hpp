// SPDX-License-Identifier: Apache-2.0
// The NIC's descriptor-ring DMA driver (docs/nic.md, "Descriptor-ring DMA interface"; seed 003
// §2.1.1, seed 002 Fig. 9a): transmit and receive rings of 16-byte descriptors and their
// buffers in host memory, doorbells by uncached stores to BAR 0. Transmit copies the frame into
// the entry's buffer, writes the descriptor and rings the doorbell; receive polls the next
// receive descriptor's DONE flag with cached loads (the line stays in the core's cache until the
// NIC's write of the descriptor takes it away, so polling costs no traffic), copies the frame
// out and posts the buffer again. Written only against cni::drv::MemoryPort.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include "cni/drv/mem.hpp"
#include "cni/drv/packet.hpp"

namespace cni::drv {

struct NicDmaLayout {
  Addr bar = 0;  // BAR 0 (mapped for uncached accesses)
  Addr mem = 0;  // host memory for the rings and buffers (cached; 4 KiB aligned)
  unsigned tx_log2 = 6, rx_log2 = 6;  // entries per ring: 2^log2
  // Per buffer: a multiple of 64 below 64 KiB, at least the longest frame.
  unsigned buf_bytes = 9664;
  Addr tx_ring() const { return mem; }
  Addr rx_ring() const { return mem + (Addr{16} << tx_log2); }
  Addr tx_buf(unsigned i) const;
  Addr rx_buf(unsigned i) const;
  uint64_t bytes() const;  // the host memory the layout takes
};

// The host software's time per frame beyond the driver's own accesses (a kernel driver's system
// call, descriptor handling, interrupt or wake-up path), spent on the core: before the doorbell
// on transmit, after the frame is copied out on receive. The simulation takes them from the
// profile (nic.dma_tx_sw_ns, nic.dma_rx_sw_ns); 0 on hardware, where the time is real.
struct NicDmaCosts {
  uint64_t tx_sw_ns = 0, rx_sw_ns = 0;
};

struct NicDmaStats {
  uint64_t sent = 0, received = 0;
  uint64_t tx_polls = 0;  // loads of a transmit descriptor (the ring was full)
  uint64_t rx_polls = 0;  // loads of the next receive descriptor
  uint64_t errors = 0;    // descriptors written back with ERR
  uint64_t truncated = 0;
};

class NicDma : public PacketPort {
 public:
  // Programs the NIC (once, before any driver uses it): both rings' bases and sizes, every
  // receive descriptor with its buffer, every receive buffer posted. Throws std::runtime_error
  // when GEOMETRY does not match (beats, ring sizes, the longest frame over a buffer) and
  // std::invalid_argument for a layout that is not aligned.
  static void configure(MemoryPort& m, const NicDmaLayout& l);

  // A driver of both directions on a configured NIC, its counts from 0.
  NicDma(MemoryPort& m, const NicDmaLayout& l, const NicDmaCosts& c = {});

  // Waits for a free transmit entry (polling the oldest descriptor's DONE), copies the frame
  // into its buffer, writes the descriptor, then the doorbell. Throws std::invalid_argument when
  // n is 0 or over the buffer.
  void send(const uint8_t* frame, size_t n) override;
  // One poll of the next receive descriptor: true, with the frame in `out` and its buffer
  // posted again, when it is DONE.
  bool try_receive(std::vector<uint8_t>& out);
  // Polls until a frame arrives; throws std::runtime_error when it was truncated or the NIC
  // flagged it ERR (its buffer refused, a write failed: the frame is lost).
  std::vector<uint8_t> receive() override;

  const NicDmaStats& stats() const { return st_; }

 private:
  MemoryPort& m_;
  NicDmaLayout l_;
  NicDmaCosts c_;
  uint64_t tx_n_ = 0, tx_done_ = 0, rx_n_ = 0;
  bool last_truncated_ = false, last_failed_ = false;
  NicDmaStats st_;
};

}  // namespace cni::drv
