// SPDX-License-Identifier: Apache-2.0
// One frame stream through every NIC host interface (docs/nic.md): PCIe PIO, descriptor-ring DMA
// and coherent PIO, each a core sending the stream through its driver into the Verilated NIC,
// whose MAC is looped back (near-end loopback, 002 s5.2), and a core receiving it; and the CNI
// engine's cachable queues, node 0's core sending the stream to node 1, whose core sends each
// packet back. The same bytes come back through each, in order, none lost, under the coherence
// checker. Lengths up to the tests' coherent-PIO capacity (the checking build's eight overflow
// lines a channel), at every alignment class the interfaces treat apart (a beat, a 16-byte PCIe
// load, a line, a 244-byte CNI fragment).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <random>
#include <vector>

#include "cni/drv/cni_packet.hpp"
#include "cni/drv/nic_dma.hpp"
#include "cni/drv/nic_pio.hpp"
#include "cni/drv/pio_stream.hpp"
#include "device/cni_options.hpp"
#include "device/system.hpp"
#include "nic_coh_device.hpp"
#include "nic_dma_device.hpp"
#include "nic_frames.hpp"
#include "nic_pcie_device.hpp"
#include "packet_loop.hpp"
#include "pcie_host.hpp"

using namespace cni;
using namespace cni::sim;

namespace {

using Stream = std::vector<std::vector<uint8_t>>;

// Lengths on the MAC's stream (no FCS), 60 (the shortest frame) to 1144 (the tests' coherent-PIO
// capacity), then a random tail.
Stream the_stream() {
  std::vector<size_t> sizes = {60,  61,  63,  64,  65,  127, 128, 129, 240, 243,  244,  245,
                               255, 256, 257, 487, 488, 489, 511, 512, 513, 1023, 1143, 1144};
  std::mt19937 rng(46);
  for (unsigned i = 0; i < 16; ++i) sizes.push_back(60 + rng() % (1144 - 60 + 1));
  Stream s;
  for (size_t i = 0; i < sizes.size(); ++i) {
    s.push_back(test::nic_frame(sizes[i], static_cast<uint32_t>(rng()), 1 + 2 * (i % 7)));
  }
  return s;
}

// A loop that any interface may use: two frames ahead at most.
constexpr size_t kAhead = 2;

Stream through_pcie_pio(const Stream& frames) {
  test::PcieHost h;
  tb::NicPcieDevice nic(*h.k, h.link->ep(), h.p, *h.port, h.nic_mhz(), 1);
  h.enumerate();
  EXPECT_GE(nic.geometry().max_bytes, 1144u);
  auto got = test::packet_loop(
      *h.sys,
      [&](drv::MemoryPort& m) {
        return std::make_unique<drv::NicPio>(m, h.bars[0].base, h.bars[0].size);
      },
      frames, kAhead);
  EXPECT_TRUE(h.checker->errors().empty());
  EXPECT_EQ(nic.stats().rx_overflow + nic.stats().rx_bad_fcs, 0u);
  return got;
}

Stream through_pcie_dma(const Stream& frames) {
  test::PcieHost h;
  tb::NicDmaDevice nic(*h.k, h.link->ep(), h.p, *h.port, h.nic_mhz(), 1);
  h.enumerate();
  drv::NicDmaLayout layout;
  layout.bar = h.bars[0].base;
  layout.mem = HostSystem::dram_base(0) + 0x1000'0000;
  h.sys->spawn(0, [&](drv::MemoryPort& m) { drv::NicDma::configure(m, layout); });
  h.sys->run_programs();
  auto got = test::packet_loop(
      *h.sys, [&](drv::MemoryPort& m) { return std::make_unique<drv::NicDma>(m, layout); }, frames,
      kAhead);
  EXPECT_TRUE(h.checker->errors().empty());
  EXPECT_EQ(nic.stats().rx_overflow + nic.stats().rx_bad_fcs, 0u);
  return got;
}

Stream through_coherent_pio(const Stream& frames) {
  const Profile profile = Profile::load("enzian-eci");
  tb::System sys(profile);
  NetParams np = NetParams::from_profile(profile);
  np.topology = NetTopology::Loopback;
  np.nodes = 1;
  Network net(sys.kernel(), np);
  NetPort port(net, 0);
  tb::NicCohDevice nic(sys.kernel(), sys.device(0, 0), port, profile.get_double("nic.freq_mhz"), 1);
  const drv::PioStreamLayout layout = sys.device(0, 0).pio_stream_layout();
  EXPECT_GE(std::min(layout.capacity_a(), layout.capacity_b()), 1144u);
  auto got = test::packet_loop(
      sys.node(0).host(),
      [&](drv::MemoryPort& m) { return std::make_unique<drv::PioStream>(m, layout); }, frames,
      kAhead);
  EXPECT_TRUE(sys.checker(0).errors().empty());
  EXPECT_EQ(nic.stats().rx_overflow + nic.stats().rx_bad_fcs, 0u);
  return got;
}

Stream through_cni_queues(const Stream& frames) {
  Profile profile = Profile::load("enzian-eci");
  profile.set("nodes", "2");
  profile.set("device.cni", "CNI16Q");
  tb::System sys(profile);
  Stream got;
  bool done = false;
  sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    drv::CniPacketPort echo(m, tb::cni_options(sys.device(1, 0), 2), 0);
    for (size_t i = 0; i < frames.size(); ++i) {
      const std::vector<uint8_t> p = echo.receive();
      echo.send(p.data(), p.size());
    }
  });
  sys.node(0).host().spawn(1, [&](drv::MemoryPort& m) {
    // one endpoint per device: the same core sends and receives (a send that finds no room
    // drains what has come back, so the two nodes cannot deadlock)
    drv::CniPacketPort nic(m, tb::cni_options(sys.device(0, 0), 2), 1);
    for (const auto& f : frames) nic.send(f.data(), f.size());
    for (size_t i = 0; i < frames.size(); ++i) got.push_back(nic.receive());
    done = true;
  });
  sys.run_programs();
  EXPECT_TRUE(done);
  EXPECT_TRUE(sys.checker(0).errors().empty());
  EXPECT_TRUE(sys.checker(1).errors().empty());
  return got;
}

}  // namespace

TEST(NicInterfaces, TheSameStreamComesBackIntactThroughEveryInterface) {
  const Stream sent = the_stream();
  const struct {
    const char* name;
    Stream (*through)(const Stream&);
  } interfaces[] = {{"pcie-pio", through_pcie_pio},
                    {"pcie-dma", through_pcie_dma},
                    {"coherent-pio", through_coherent_pio},
                    {"cni-queues", through_cni_queues}};
  for (const auto& i : interfaces) {
    SCOPED_TRACE(i.name);
    const Stream got = i.through(sent);
    ASSERT_EQ(got.size(), sent.size());
    for (size_t k = 0; k < sent.size(); ++k) {
      EXPECT_EQ(got[k], sent[k]) << "frame " << k << " of " << sent[k].size() << " bytes";
    }
  }
}
