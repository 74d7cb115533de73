// SPDX-License-Identifier: Apache-2.0
// Devices talking over the network model: the scratch-pad engine's frames (docs/endpoint.md,
// "Network port"), driven by cores with uncached loads and stores of its registers, cross the
// MAC adapter (FCS added and checked) and the network (docs/network.md): a single node in MAC
// loopback, every device of a 16-node system reaching every other, corruption injected and
// seen by the receiver, and a 16-node run in which one pair exchanges frames while the rest
// idle (their clocks asleep) giving the same messages with and without sleeping.
#include <cstdint>
#include <string>
#include <vector>

#include "msg_trace.hpp"
#include "device/scratch_regs.hpp"
#include "fixture.hpp"

namespace cni::test {
namespace {


using tb::ScratchRegs;

// Polls until `n` frames are in; the source of the last one.
unsigned wait_received(const ScratchRegs& r, drv::MemoryPort& m, unsigned n) {
  const uint32_t v = r.wait_received(m, n);
  EXPECT_EQ(v & 0xFFFF, n) << "frames received";
  return v >> 16;
}

TEST(NetSystem, ASingleNodeInMacLoopbackReceivesItsOwnFrame) {
  tb::System s(profile({"net.topology=loopback"}), test_devices());
  tb::SimDevice& d = s.device(0, 0);
  const ScratchRegs r(d);
  unsigned src = 99;
  uint64_t w0 = 0, w1 = 0;
  s.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    r.put_word(m, 0, 0x1122334455667788ull);
    r.put_word(m, 1, 0x99AABBCCDDEEFF00ull);
    r.send(m, 5);  // loopback: the destination is carried, not used
    src = wait_received(r, m, 1);
    w0 = r.word(m, 0);
    w1 = r.word(m, 1);
  });
  s.run_programs();
  EXPECT_EQ(src, 0u);
  EXPECT_EQ(w0, 0x1122334455667788ull);
  EXPECT_EQ(w1, 0x99AABBCCDDEEFF00ull);
  EXPECT_EQ(s.network().port_stats(0).tx_frames, 1u);
  EXPECT_EQ(s.network().port_stats(0).rx_bad_fcs, 0u);
  EXPECT_FALSE(d.endpoint().got_error());
}

// Node i sends to every other node in turn (its word 0 = i * 1000 + destination); each node
// checks it received 15 frames, the last one's source, and the words of the frames it saw.
TEST(NetSystem, EveryDeviceOf16NodesReachesEveryOther) {
  constexpr unsigned kNodes = 16;
  tb::System s(profile({"nodes=16", "net.topology=switch"}), test_devices());
  std::vector<unsigned> got(kNodes, 0), bad(kNodes, 1);
  for (unsigned i = 0; i < kNodes; ++i) {
    const ScratchRegs r(s.device(i, 0));
    s.node(i).host().spawn(0, [&, r, i](drv::MemoryPort& m) {
      m.pause_ns(37.0 * i);
      for (unsigned k = 1; k < kNodes; ++k) {
        const unsigned to = (i + k) % kNodes;
        r.put_word(m, 0, i * 1000 + to);
        r.send(m, to);
        r.wait_sent(m, k);  // the send takes the buffer into its frame
      }
      wait_received(r, m, kNodes - 1);
      got[i] = r.received(m) & 0xFFFF;
      bad[i] = r.bad(m);
    });
  }
  s.run_programs();
  for (unsigned i = 0; i < kNodes; ++i) {
    EXPECT_EQ(got[i], kNodes - 1) << "node " << i;
    EXPECT_EQ(bad[i], 0u) << "node " << i;
    EXPECT_EQ(s.network().port_stats(i).tx_frames, kNodes - 1) << "node " << i;
    EXPECT_EQ(s.network().port_stats(i).rx_frames, kNodes - 1) << "node " << i;
    EXPECT_FALSE(s.device(i, 0).endpoint().got_error()) << "node " << i;
  }
}

TEST(NetSystem, CorruptedFramesFailTheirFcsAndTheDeviceDropsAndCountsThem) {
  tb::System s(profile({"nodes=2", "net.topology=p2p", "net.corrupt_rate=1"}), test_devices());
  const ScratchRegs r0(s.device(0, 0)), r1(s.device(1, 0));
  uint32_t bad = 0, in = 0;
  s.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    for (unsigned k = 1; k <= 3; ++k) {
      r0.send(m, 1);
      r0.wait_sent(m, k);
    }
  });
  s.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    for (unsigned i = 0; i < 2000 && bad < 3; ++i) {
      m.pause_ns(100);
      bad = r1.bad(m);
    }
    in = r1.received(m) & 0xFFFF;
  });
  s.run_programs();
  EXPECT_EQ(bad, 3u) << "every frame was corrupted in flight";
  EXPECT_EQ(in, 0u);
  EXPECT_EQ(s.network().port_stats(1).rx_bad_fcs, 3u);
}

// Two devices stream frames at each other through buffers of one frame: each one's frames wait
// for the network while the other's arrive, and every frame gets through.
TEST(NetSystem, TwoNodesStreamingAtEachOtherThroughOneFrameBuffersDoNotDeadlock) {
  constexpr unsigned kFrames = 24;
  tb::System s(profile({"nodes=2", "net.topology=p2p", "net.buffer_frames=1"}), test_devices());
  unsigned got[2] = {0, 0};
  for (unsigned n = 0; n < 2; ++n) {
    const ScratchRegs r(s.device(n, 0));
    s.node(n).host().spawn(0, [&got, r, n](drv::MemoryPort& m) {
      for (unsigned k = 0; k < kFrames; ++k) r.send(m, 1 - n);
      got[n] = r.wait_received(m, kFrames) & 0xFFFF;
    });
  }
  s.run_programs();
  EXPECT_EQ(got[0], kFrames);
  EXPECT_EQ(got[1], kFrames);
  EXPECT_EQ(s.network().port_stats(0).rx_frames, kFrames);
  EXPECT_EQ(s.network().port_stats(1).rx_frames, kFrames);
}

// A frame to a node the network does not have is dropped by the device's MAC and counted.
TEST(NetSystem, AFrameToANodeThatDoesNotExistIsDroppedAndCounted) {
  tb::System s(profile({"nodes=2", "net.topology=p2p"}), test_devices());
  const ScratchRegs r0(s.device(0, 0));
  s.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    r0.send(m, 7);
    r0.wait_sent(m, 1);
    r0.send(m, 1);
    r0.wait_sent(m, 2);
  });
  s.run_programs();
  EXPECT_EQ(s.device(0, 0).net_unroutable(), 1u);
  EXPECT_EQ(s.network().port_stats(0).tx_frames, 1u) << "the frame to node 1 went on";
}

// Nodes 0 and 1 of 16 exchange frames (a ping-pong of `rounds`), the 14 others idle.
void ping_pong(tb::System& s, unsigned rounds) {
  const ScratchRegs a(s.device(0, 0)), b(s.device(1, 0));
  s.node(0).host().spawn(0, [a, rounds](drv::MemoryPort& m) {
    for (unsigned k = 1; k <= rounds; ++k) {
      a.put_word(m, 0, k);
      a.send(m, 1);
      wait_received(a, m, k);
    }
  });
  s.node(1).host().spawn(0, [b, rounds](drv::MemoryPort& m) {
    for (unsigned k = 1; k <= rounds; ++k) {
      wait_received(b, m, k);
      b.send(m, 0);
    }
  });
  s.run_programs();
}

TEST(NetSystem, SixteenNodesWithOnePairTalkingAreTheSameWithAndWithoutSleeping) {
  std::vector<std::string> lines[2];
  uint64_t cycles[2] = {}, clocked[2] = {};
  for (bool skip : {false, true}) {
    tb::System s(profile({"nodes=16", std::string("device.skip_idle=") + (skip ? "true" : "false")}),
                 test_devices());
    tb::MessageTrace trace(s);
    ping_pong(s, 6);
    lines[skip] = trace.lines();
    for (unsigned n = 0; n < 16; ++n) {
      cycles[skip] += s.device(n, 0).cycles();
      clocked[skip] += s.device(n, 0).clocked_cycles();
    }
  }
  ASSERT_FALSE(lines[0].empty());
  EXPECT_TRUE(lines[0] == lines[1]) << "every coherence message at the same time";
  EXPECT_EQ(cycles[0], cycles[1]);
  // 14 of 16 devices idle: sleeping, the system clocks a small part of its device cycles
  EXPECT_GT(double(cycles[1]) / double(clocked[1]), 8.0)
      << clocked[1] << " of " << cycles[1] << " cycles clocked";
}

}  // namespace
}  // namespace cni::test
