// SPDX-License-Identifier: Apache-2.0
// The NIC with its descriptor-ring DMA interface as a PCIe device in the host simulation
// (docs/nic.md, "Descriptor-ring DMA interface"; seed 002 Fig. 9a): the Verilated
// cni_nic_pcie_dma (the block model nic_pcie_dma_r12) behind a PCIe endpoint
// (sim::pcie::Endpoint), its MAC on a port of the network model, as a PCIe hard IP joins them:
//   - BAR 0 accesses become AXI4-Lite register accesses, a 64-bit word each, in the order they
//     came (a store of part of a word is passed on with its strobes, and refused);
//   - the AXI4 master's read bursts become the endpoint's DMA reads (split at the maximum read
//     request size, completions reassembled), their beats returned a cycle each in order per ID;
//     its write bursts become DMA writes of the strobed bytes (posted: the response once the
//     TLPs have left), in order;
//   - an MSI request becomes the endpoint's MSI on its vector.
// The model's clock sleeps while it is idle and nothing waits for it.
#pragma once

#include <cstdint>
#include <memory>

#include "cni/sim/kernel.hpp"
#include "cni/sim/network.hpp"
#include "cni/sim/pcie.hpp"
#include "nic/nic_mac.hpp"

namespace cni::tb {

struct NicDmaStats : NicMacStats {
  uint64_t dma_reads = 0, dma_writes = 0, msis = 0;
  uint64_t reg_errors = 0;  // register accesses answered SLVERR
};

class NicDmaDevice : public sim::pcie::BarTarget {
 public:
  static constexpr uint64_t kBarBytes = 4096;  // BAR 0: the registers (docs/nic.md)

  NicDmaDevice(sim::Kernel& k, sim::pcie::Link::Port& port, const sim::pcie::PcieParams& p,
               sim::NetPort& mac, double freq_mhz, uint64_t seed);
  ~NicDmaDevice() override;
  NicDmaDevice(const NicDmaDevice&) = delete;
  NicDmaDevice& operator=(const NicDmaDevice&) = delete;

  sim::pcie::Endpoint& endpoint();
  const NicDmaStats& stats() const;
  unsigned max_bytes() const;
  void on_mac_rx(NicFrameObserver fn);
  void on_mac_tx(NicFrameObserver fn);

  void bar_write(unsigned bar, uint64_t offset, const uint8_t* data, unsigned n) override;
  void bar_read(unsigned bar, uint64_t offset, unsigned n,
                std::function<void(const uint8_t* data)> done) override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace cni::tb
