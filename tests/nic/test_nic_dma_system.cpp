// SPDX-License-Identifier: Apache-2.0
// The NIC over descriptor-ring DMA in the host simulation (docs/nic.md, "Descriptor-ring DMA
// interface"): host cores drive the driver (cni::drv::NicDma: rings and buffers in host memory,
// doorbells through BAR 0) and the Verilated NIC (cni_nic_pcie_dma) reads and writes host memory
// through the PCIe endpoint, the link and the root complex, coherently with the host caches
// under the coherence checker; its MAC is on the network model in near-end loopback.
#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <vector>

#include "cni/drv/nic_dma.hpp"
#include "cni/sim/frame.hpp"
#include "nic_dma_device.hpp"
#include "nic_frames.hpp"
#include "packet_loop.hpp"
#include "pcie_host.hpp"

using namespace cni;
using namespace cni::sim;

namespace {

class NicDmaSystem : public testing::Test, public test::PcieHost {
 protected:
  void SetUp() override {
    nic = std::make_unique<tb::NicDmaDevice>(*k, link->ep(), p, *port, nic_mhz(), 1);
    rc->on_msi([this](uint32_t data) { ++msis[data & 1]; });
    enumerate(p.msi_base);  // the root complex's MSI window
    ASSERT_EQ(bars.size(), 1u);
    ASSERT_EQ(bars[0].size, tb::NicDmaDevice::kBarBytes);
    layout.bar = bars[0].base;
    layout.mem = HostSystem::dram_base(0) + 0x1000'0000;
    layout.tx_log2 = 4;
    layout.rx_log2 = 3;
    sys->spawn(0, [&](drv::MemoryPort& m) { drv::NicDma::configure(m, layout); });
    sys->run_programs();
  }
  void TearDown() override {
    EXPECT_TRUE(checker->errors().empty()) << checker->errors()[0];
    EXPECT_EQ(nic->stats().reg_errors, 0u);
    if (!rc_errors_expected) {
      EXPECT_TRUE(rc->error_log().empty()) << rc->error_log()[0];
    }
  }
  static std::vector<uint8_t> frame(unsigned n, uint8_t seed) {
    return test::nic_frame(n, seed, 17);
  }
  // Core 1 sends `frames`, at most `ahead` before core 2 has received them; core 2 receives.
  std::vector<std::vector<uint8_t>> loop(const std::vector<std::vector<uint8_t>>& frames,
                                         size_t ahead) {
    return test::packet_loop(
        *sys, [&](drv::MemoryPort& m) { return std::make_unique<drv::NicDma>(m, layout); }, frames,
        ahead);
  }

  std::unique_ptr<tb::NicDmaDevice> nic;
  drv::NicDmaLayout layout;
  unsigned msis[2] = {0, 0};
  bool rc_errors_expected = false;
};

}  // namespace

// Frames of 60 to 9,596 bytes sent by one core come back to another through the loopback, in
// order and intact, both rings going around their ends; DMA reads snoop the sender's cache for
// the frames and descriptors it has just written, DMA writes invalidate the receiver's copies of
// the descriptors it polls.
TEST_F(NicDmaSystem, FramesComeBackThroughTheRingsInOrder) {
  std::vector<std::vector<uint8_t>> frames;
  const unsigned sizes[] = {60, 64, 1536, 9596, 61, 4000, 127, 128, 129, 777};
  for (unsigned i = 0; i < 40; ++i) frames.push_back(frame(sizes[i % 10], static_cast<uint8_t>(i)));
  const auto got = loop(frames, 6);
  ASSERT_EQ(got.size(), frames.size());
  for (size_t i = 0; i < frames.size(); ++i) EXPECT_EQ(got[i], frames[i]) << "frame " << i;
  EXPECT_EQ(nic->stats().tx_frames, frames.size());
  EXPECT_EQ(nic->stats().rx_frames, frames.size());
  EXPECT_EQ(nic->stats().rx_overflow, 0u);
  EXPECT_GT(nic->stats().dma_reads, 2 * frames.size()) << "a descriptor and the frame each";
  EXPECT_EQ(msis[0] + msis[1], 0u) << "no MSI while disabled";
}

// With MSI on (one per frame on transmit, one per four on receive), the root complex delivers
// them on their vectors.
TEST_F(NicDmaSystem, InterruptsArriveAsMsi) {
  sys->spawn(0, [&](drv::MemoryPort& m) {
    m.uncached_store64(layout.bar + 8 * 8, 0x3 | (4u << 8));  // IRQ
  });
  sys->run_programs();
  std::vector<std::vector<uint8_t>> frames;
  for (unsigned i = 0; i < 8; ++i) frames.push_back(frame(200, static_cast<uint8_t>(i)));
  const auto got = loop(frames, 4);
  ASSERT_EQ(got, frames);
  EXPECT_EQ(nic->stats().msis, 4u);
  EXPECT_EQ(nic->endpoint().stats().msis_masked, 0u) << "both vectors enabled";
  EXPECT_EQ(msis[0], 2u) << "transmit: one per four frames";
  EXPECT_EQ(msis[1], 2u) << "receive: one per four frames";
}

// A descriptor pointing at no host memory: the root complex answers the NIC's read Unsupported
// Request, the endpoint reports the failed read, the NIC writes the descriptor back with ERR
// and counts it, no frame leaves, and nothing hangs.
TEST_F(NicDmaSystem, ADmaReadOfNoMemoryIsRefusedCountedAndNothingHangs) {
  uint64_t head = 0, errors = 0;
  sys->spawn(1, [&](drv::MemoryPort& m) {
    uint8_t desc[16] = {};
    const uint64_t nowhere = 0x7000'0000'0000;
    const uint16_t len = 300;
    std::memcpy(desc, &nowhere, 8);
    std::memcpy(desc + 8, &len, 2);
    m.store(layout.tx_ring(), desc, 16);
    m.barrier();
    m.uncached_store64(layout.bar + 8 * 2, 1);  // TX_TAIL
    while ((head = m.uncached_load64(layout.bar + 8 * 3)) < 1) m.pause_ns(1000);
    errors = m.uncached_load64(layout.bar + 8 * 9);
  });
  sys->run_programs();
  EXPECT_EQ(head, 1u);
  EXPECT_EQ(errors & 0xFFFF, 1u) << "transmit descriptors failed";
  EXPECT_GE((errors >> 32) & 0xFFFF, 1u) << "AXI error responses";
  EXPECT_GE(nic->endpoint().stats().dma_errors, 1u);
  EXPECT_EQ(nic->stats().tx_frames, 0u);
  EXPECT_FALSE(rc->error_log().empty()) << "the root complex logs the unsupported request";
  rc_errors_expected = true;
}
