// SPDX-License-Identifier: Apache-2.0
// The NIC over PCIe PIO in the host simulation (docs/nic.md, "In the host simulation"): host
// cores drive the driver (cni::drv::NicPio) through the root complex, the link and the endpoint
// to the Verilated NIC (cni_nic_pcie), whose MAC is on the network model in near-end loopback;
// every frame comes back intact, and one frame of each of 002 Table 1's sizes gives the receive
// and transmit latencies as 002 defines them, beside its PCIe PIO row.
#include <gtest/gtest.h>

#include <cstdio>
#include <memory>
#include <vector>

#include "cni/drv/nic_pio.hpp"
#include "cni/sim/frame.hpp"
#include "nic_frames.hpp"
#include "nic_pcie_device.hpp"
#include "pcie_host.hpp"

using namespace cni;
using namespace cni::sim;

namespace {

class NicPcieSystem : public testing::Test, public test::PcieHost {
 protected:
  void SetUp() override {
    nic = std::make_unique<tb::NicPcieDevice>(*k, link->ep(), p, *port, nic_mhz(), 1);
    enumerate();
    ASSERT_EQ(bars.size(), 1u);
    ASSERT_EQ(bars[0].size, nic->geometry().bar_bytes);
  }
  void TearDown() override {
    EXPECT_TRUE(checker->errors().empty()) << checker->errors()[0];
    EXPECT_EQ(nic->stats().axi_errors, expected_axi_errors);
  }
  // A frame of `wire` bytes on the line (its FCS included): the network's header, a payload
  // of the rest, as the MAC's stream carries it (without the FCS).
  static std::vector<uint8_t> frame(unsigned wire, uint8_t seed) {
    return test::nic_frame(wire - kFcsBytes, seed, 13);
  }

  std::unique_ptr<tb::NicPcieDevice> nic;
  uint64_t expected_axi_errors = 0;
};

// The driver's receive, given up (the test fails) after `limit_us` of simulated time.
std::vector<uint8_t> receive_within(drv::MemoryPort& m, drv::NicPio& d, uint64_t limit_us) {
  const uint64_t end = m.now_ns() + limit_us * 1000;
  std::vector<uint8_t> f;
  while (!d.try_receive(f)) {
    if (m.now_ns() > end) {
      ADD_FAILURE() << "no frame within " << limit_us << " us";
      return {};
    }
  }
  return f;
}

}  // namespace

// A load of the write-only transmit ring: the NIC's AXI slave answers SLVERR, the endpoint
// Completer Abort, the root complex all ones to the core; nothing hangs, everything is counted.
TEST_F(NicPcieSystem, ARefusedBarReadIsACompleterAbortAndAllOnes) {
  uint64_t v = 0;
  sys->spawn(1, [&](drv::MemoryPort& m) {
    v = m.uncached_load64(bars[0].base + nic->geometry().ring_bytes);
  });
  sys->run_programs();
  EXPECT_EQ(v, ~uint64_t{0});
  EXPECT_EQ(nic->endpoint().stats().aborted, 1u);
  EXPECT_EQ(rc->stats().cpu_errors, 1u);
  expected_axi_errors = 1;
}

// One core sends frames of three lengths while another receives them back through the loopback,
// the sender keeping at most four frames ahead of the receiver (the receive ring's slots; PCIe
// PIO receive is far slower than transmit, so an unpaced sender overruns the NIC's buffer, whose
// drops the datapath's tests cover): every frame intact, in order, none dropped.
TEST_F(NicPcieSystem, FramesSentThroughTheRingsComeBackThroughTheLoopback) {
  std::vector<std::vector<uint8_t>> sent;
  for (unsigned i = 0; i < 24; ++i) {
    sent.push_back(frame(i % 3 == 0 ? 64 : i % 3 == 1 ? 1536 : 9600, static_cast<uint8_t>(i)));
  }
  std::vector<std::vector<uint8_t>> got;
  sys->spawn(1, [&](drv::MemoryPort& m) {
    drv::NicPio nic_tx(m, bars[0].base, bars[0].size);
    for (size_t i = 0; i < sent.size(); ++i) {
      while (i >= got.size() + 4) m.pause_ns(1000);
      nic_tx.send(sent[i].data(), sent[i].size());
    }
  });
  sys->spawn(2, [&](drv::MemoryPort& m) {
    drv::NicPio nic_rx(m, bars[0].base, bars[0].size);
    for (size_t i = 0; i < sent.size() && !HasFailure(); ++i) {
      got.push_back(receive_within(m, nic_rx, 5000));
    }
  });
  sys->run_programs();
  ASSERT_EQ(got.size(), sent.size());
  for (size_t i = 0; i < sent.size(); ++i) EXPECT_EQ(got[i], sent[i]) << "frame " << i;
  EXPECT_EQ(nic->stats().rx_frames, sent.size());
  EXPECT_EQ(nic->stats().tx_frames, sent.size());
  EXPECT_EQ(nic->stats().rx_overflow + nic->stats().rx_bad_fcs, 0u);
}

// 002 Table 1's latencies, one frame of each size at a time: transmit from the packet in the
// CPU's registers (the driver's send called) to its last beat on the MAC's transmit stream;
// receive from its last beat on the MAC's receive stream to the packet in the CPU's registers
// (the driver's receive returned), the receiving core polling all along.
TEST_F(NicPcieSystem, OneFrameEachWayAtTable1sSizes) {
  struct Row {
    unsigned wire;
    double paper_rx_us, paper_tx_us;  // 002 Table 1, PCIe PIO, P50
  };
  const Row rows[] = {{64, 3.25, 0.34}, {1536, 72.89, 1.82}, {9600, 450.28, 9.91}};
  Time tx_start = 0, tx_end = 0, rx_start = 0, rx_end = 0;
  nic->on_mac_tx([&](const std::vector<uint8_t>&, Time t) { tx_end = t; });
  nic->on_mac_rx([&](const std::vector<uint8_t>&, Time t) { rx_start = t; });
  std::printf("[ PCIe PIO ] size   RX us (002)   ratio   TX us (002)   ratio\n");
  double rx_us[3] = {}, tx_us[3] = {};
  std::unique_ptr<drv::NicPio> tx_drv, rx_drv;  // one driver per core, across the rows
  for (unsigned r = 0; r < 3; ++r) {
    const auto fr = frame(rows[r].wire, static_cast<uint8_t>(r));
    std::vector<uint8_t> back;
    sys->spawn(2, [&](drv::MemoryPort& m) {
      if (!rx_drv) rx_drv = std::make_unique<drv::NicPio>(m, bars[0].base, bars[0].size);
      back = receive_within(m, *rx_drv, 5000);
      rx_end = k->now();
    });
    sys->spawn(1, [&](drv::MemoryPort& m) {
      if (!tx_drv) tx_drv = std::make_unique<drv::NicPio>(m, bars[0].base, bars[0].size);
      m.pause_ns(2000);  // the receiving core polls by then
      tx_start = k->now();
      tx_drv->send(fr.data(), fr.size());
    });
    sys->run_programs();
    ASSERT_EQ(back, fr);
    tx_us[r] = to_ns(tx_end - tx_start) / 1000;
    rx_us[r] = to_ns(rx_end - rx_start) / 1000;
    std::printf("[ PCIe PIO ] %5u  %7.2f (%6.2f)  %5.2f   %6.2f (%5.2f)  %5.2f\n", rows[r].wire,
                rx_us[r], rows[r].paper_rx_us, rx_us[r] / rows[r].paper_rx_us, tx_us[r],
                rows[r].paper_tx_us, tx_us[r] / rows[r].paper_tx_us);
  }
  // Table 1's shape for PCIe PIO: receive grows with the frame (a round trip per 16 bytes),
  // transmit stays small (posted writes, combined).
  EXPECT_GT(rx_us[2], 50 * rx_us[0]);
  EXPECT_LT(tx_us[0], rx_us[0]);
  EXPECT_LT(tx_us[2], rx_us[2] / 10);
}
