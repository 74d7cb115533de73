// SPDX-License-Identifier: Apache-2.0
// The NIC over coherent PIO in the host simulation (docs/nic.md, "Coherent PIO interface"): host
// cores drive the driver (cni::drv::PioStream) through their caches and the coherent link to the
// Verilated device core, whose PIO engine's (a) and (b) streams are joined to the Verilated NIC
// datapath (cni_nic_datapath), its MAC on the network model in near-end loopback. The device
// model is the tests' checking build, with the test geometry's eight overflow lines a channel.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <stdexcept>
#include <vector>

#include "cni/drv/pio_stream.hpp"
#include "cni/sim/frame.hpp"
#include "device/system.hpp"
#include "nic_coh_device.hpp"
#include "nic_frames.hpp"

using namespace cni;
using namespace cni::sim;

namespace {

class NicCohSystem : public testing::Test {
 protected:
  void SetUp() override {
    profile = Profile::load("enzian-eci");
    sys = std::make_unique<tb::System>(profile);
    NetParams np = NetParams::from_profile(profile);
    np.topology = NetTopology::Loopback;  // 002 s5.2 measures in near-end loopback
    np.nodes = 1;
    net = std::make_unique<Network>(sys->kernel(), np);
    port = std::make_unique<NetPort>(*net, 0);
    nic = std::make_unique<tb::NicCohDevice>(sys->kernel(), sys->device(0, 0), *port,
                                             profile.get_double("nic.freq_mhz"), 1);
    layout = sys->device(0, 0).pio_stream_layout();
  }
  void TearDown() override { nic.reset(); }

  sim::HostSystem& host() { return sys->node(0).host(); }
  // The longest frame both the channels and the datapath carry.
  size_t max_frame() const {
    return std::min<size_t>({layout.capacity_a(), layout.capacity_b(), nic->max_bytes()});
  }
  // A frame of `n` bytes on the MAC's stream (no FCS): the network's header and a payload.
  static std::vector<uint8_t> frame(size_t n, uint32_t seed) {
    return test::nic_frame(n, seed, 29);
  }

  // Core 1 sends `frames` by (a) while core 2 receives them by (b) through the loopback, the
  // sender at most `ahead` frames ahead.
  std::vector<std::vector<uint8_t>> loop(const std::vector<std::vector<uint8_t>>& frames,
                                         size_t ahead) {
    std::vector<std::vector<uint8_t>> got;
    host().spawn(1, [&](drv::MemoryPort& m) {
      drv::PioStream tx(m, layout);
      for (size_t i = 0; i < frames.size(); ++i) {
        while (i >= got.size() + ahead) m.pause_ns(500);
        const uint64_t status = tx.send_message(frames[i].data(), frames[i].size());
        EXPECT_EQ(status & ((uint64_t{1} << 48) - 1), i + 1) << "the device's message count";
      }
    });
    host().spawn(2, [&](drv::MemoryPort& m) {
      drv::PioStream rx(m, layout);
      for (size_t i = 0; i < frames.size(); ++i) got.push_back(rx.receive());
    });
    host().run_programs();
    return got;
  }

  Profile profile;
  std::unique_ptr<tb::System> sys;
  std::unique_ptr<Network> net;
  std::unique_ptr<NetPort> port;
  std::unique_ptr<tb::NicCohDevice> nic;
  drv::PioStreamLayout layout;
};

}  // namespace

// Every length around the line and beat boundaries from the shortest frame the datapath takes to
// the longest the channels hold, one at a time: each comes back intact; the receiving core
// waits in its read of the trigger line before the frame is there.
TEST_F(NicCohSystem, EveryLengthComesBackIntact) {
  const size_t lb = layout.line_bytes, top = max_frame();
  std::vector<size_t> sizes = {60, 61, 63, 64, 65, 127, 128, 129};
  for (size_t k = 1; k * lb + 8 <= top + lb; ++k) {
    for (long d : {-9L, -8L, -7L, -1L, 0L, 1L}) {
      const long n = static_cast<long>(k * lb) + d;
      if (n >= 60 && static_cast<size_t>(n) <= top) sizes.push_back(static_cast<size_t>(n));
    }
  }
  sizes.push_back(top);
  std::vector<std::vector<uint8_t>> frames;
  for (size_t i = 0; i < sizes.size(); ++i) frames.push_back(frame(sizes[i], 7 * i));
  const auto got = loop(frames, 1);
  ASSERT_EQ(got.size(), frames.size());
  for (size_t i = 0; i < frames.size(); ++i) EXPECT_EQ(got[i], frames[i]) << sizes[i] << " B";
  EXPECT_EQ(nic->stats().tx_frames, frames.size());
  EXPECT_EQ(nic->stats().rx_frames, frames.size());
  EXPECT_EQ(sys->checker(0).errors().size(), 0u);
}

// Frames of random lengths with the sender running ahead of the receiver (no more than the
// datapath's receive buffer holds): all delivered, in order, none dropped.
TEST_F(NicCohSystem, FramesStreamInOrder) {
  std::mt19937_64 rng(11);
  std::uniform_int_distribution<size_t> len(60, max_frame());
  std::vector<std::vector<uint8_t>> frames;
  for (unsigned i = 0; i < 40; ++i) frames.push_back(frame(len(rng), i));
  const auto got = loop(frames, 8);
  ASSERT_EQ(got.size(), frames.size());
  for (size_t i = 0; i < frames.size(); ++i) EXPECT_EQ(got[i], frames[i]) << "frame " << i;
  EXPECT_EQ(nic->stats().rx_overflow, 0u);
}

// A frame the datapath drops (a runt from the core) never reaches (b); a frame longer than (b)'s
// channel holds (from the network) reaches the core cut to the capacity and flagged, and the
// channels go on.
TEST_F(NicCohSystem, DroppedAndTruncatedFramesNeverWedgeTheChannels) {
  ASSERT_LT(layout.capacity_b(), nic->max_bytes()) << "the test geometry's channels are short";
  const auto longer = frame(layout.capacity_b() + 100, 3);
  Frame wire;
  wire.bytes = longer;
  const uint32_t fcs = crc32(wire.bytes);
  for (unsigned i = 0; i < kFcsBytes; ++i)
    wire.bytes.push_back(static_cast<uint8_t>(fcs >> (8 * i)));
  ASSERT_TRUE(port->try_send(wire));
  const auto runt = frame(60, 1);
  const std::vector<uint8_t> runt_cut(runt.begin(), runt.begin() + 50);
  const auto good = frame(200, 2);
  std::vector<uint8_t> cut;
  bool whole = true;
  host().spawn(2, [&](drv::MemoryPort& m) {
    drv::PioStream rx(m, layout);
    whole = rx.receive_message(cut);
    EXPECT_EQ(rx.receive(), good);
    EXPECT_EQ(rx.stats().truncated, 1u);
    EXPECT_EQ(rx.stats().received, 2u);
  });
  host().spawn(1, [&](drv::MemoryPort& m) {
    drv::PioStream tx(m, layout);
    m.pause_ns(20'000);  // after the long frame
    tx.send(runt_cut.data(), runt_cut.size());
    tx.send(good.data(), good.size());
  });
  host().run_programs();
  EXPECT_FALSE(whole);
  EXPECT_EQ(cut, std::vector<uint8_t>(longer.begin(), longer.begin() + layout.capacity_b()));
  EXPECT_EQ(nic->stats().tx_runt, 1u);
  EXPECT_EQ(nic->stats().tx_frames, 1u);
  EXPECT_EQ(nic->stats().rx_frames, 2u);
}

// A message over the channel's capacity is refused by the driver before it touches a line.
TEST_F(NicCohSystem, SendOverTheCapacityIsRefused) {
  const std::vector<uint8_t> big(layout.capacity_a() + 1, 0x5A);
  host().spawn(1, [&](drv::MemoryPort& m) {
    drv::PioStream tx(m, layout);
    EXPECT_THROW(tx.send(big.data(), big.size()), std::invalid_argument);
    EXPECT_EQ(tx.stats().sent, 0u);
  });
  host().run_programs();
  EXPECT_EQ(nic->stats().tx_frames, 0u);
}
