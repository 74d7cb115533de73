// SPDX-License-Identifier: Apache-2.0
// Network: latency and bandwidth, order, back-pressure, loss and corruption injection,
// topologies, loopback, counters, parameters and bad input.
#include "cni/sim/network.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "cni/sim/profile.hpp"
#include "error_of.hpp"

using namespace cni::sim;
using cni::sim::test::error_of;

namespace {

// A frame of `size` bytes (header + payload + FCS) from src to dst carrying `seq`.
Frame frame(unsigned src, unsigned dst, uint32_t seq, size_t size = 64) {
  std::vector<uint8_t> payload(size - kMinFrameBytes, static_cast<uint8_t>(seq));
  return make_frame(
      FrameHeader{static_cast<uint16_t>(dst), static_cast<uint16_t>(src), 0, 0, 0, seq}, payload);
}

// Serialization time of a frame of `bytes` with `gap` extra wire bytes at `gbit` Gb/s.
Time ser(size_t bytes, unsigned gap, double gbit) {
  return static_cast<Time>(std::llround((bytes + gap) * 8000.0 / gbit));
}

NetParams params(NetTopology t, unsigned nodes, double latency_ns, double gbit, unsigned gap = 0,
                 unsigned buffer = 64) {
  NetParams p;
  p.topology = t;
  p.nodes = nodes;
  p.latency = ns(latency_ns);
  p.bandwidth_gbit_s = gbit;
  p.gap_bytes = gap;
  p.buffer_frames = buffer;
  return p;
}

// A port's software queue in front of the network: frames wait until try_send takes them.
struct Sender {
  Sender(Network& n, unsigned node) : net(n) {
    net.on_space(node, [this] { pump(); });
  }
  void send(Frame f) {
    backlog.push_back(std::move(f));
    pump();
  }
  void pump() {
    while (!backlog.empty() && net.try_send(backlog.front())) backlog.pop_front();
  }
  Network& net;
  std::deque<Frame> backlog;
};

struct Receiver {
  Receiver(Network& n, Kernel& k, unsigned node) {
    n.on_receive(node, [this, &k](const Frame& f) {
      got.push_back(f);
      when.push_back(k.now());
    });
  }
  uint32_t seq(size_t i) const { return parse_header(got.at(i).bytes).seq; }
  std::vector<Frame> got;
  std::vector<Time> when;
};

void run(Kernel& k) {
  k.run([] { return false; });
}

// kFrames 64-byte frames from node 0 to node 1 over one 100 Gb/s link with loss and
// corruption injected at the given rates, run to the end.
struct InjectedStream {
  static constexpr uint32_t kFrames = 10000;
  InjectedStream(double loss, double corrupt, uint64_t seed = 1)
      : net(k, injecting(loss, corrupt, seed)), rx(net, k, 1), tx(net, 0) {
    for (uint32_t i = 0; i < kFrames; ++i) tx.send(frame(0, 1, i));
    run(k);
  }
  static NetParams injecting(double loss, double corrupt, uint64_t seed) {
    NetParams p = params(NetTopology::PointToPoint, 2, 100, 100.0, 20, 256);
    p.loss_rate = loss;
    p.corrupt_rate = corrupt;
    p.seed = seed;
    return p;
  }
  Kernel k;
  Network net;
  Receiver rx;
  Sender tx;
};

}  // namespace

TEST(Network, PointToPointFrameTakesSerializationPlusLatency) {
  Kernel k;
  Network net(k, params(NetTopology::PointToPoint, 2, 100, 10.0, 20));
  Receiver rx(net, k, 1);
  ASSERT_TRUE(net.try_send(frame(0, 1, 7)));
  run(k);
  ASSERT_EQ(rx.got.size(), 1u);
  EXPECT_EQ(rx.when[0], ns(67.2) + ns(100));  // (64 + 20) B at 10 Gb/s, then the link
  EXPECT_EQ(rx.seq(0), 7u);
  EXPECT_FALSE(rx.got[0].tuser);
  EXPECT_EQ(rx.got[0].bytes, frame(0, 1, 7).bytes);
}

TEST(Network, TransmitObserversSeeAcceptedFramesOnlyAtTheirSendTime) {
  Kernel k;
  Network net(k, params(NetTopology::PointToPoint, 2, 100, 10.0, 20, 1));
  std::vector<std::tuple<unsigned, uint32_t, Time>> seen;
  net.on_transmit([&](unsigned node, const Frame& f, Time t) {
    seen.emplace_back(node, parse_header(f.bytes).seq, t);
  });
  Receiver rx(net, k, 1);
  uint32_t accepted = 0;  // until the one-frame buffers are full: the refused one is not seen
  while (accepted < 8 && net.try_send(frame(0, 1, accepted + 1))) ++accepted;
  ASSERT_GE(accepted, 1u);
  ASSERT_LT(accepted, 8u);
  k.after(ns(500), [&] { ASSERT_TRUE(net.try_send(frame(1, 0, 99))); });
  run(k);
  ASSERT_EQ(seen.size(), accepted + 1);
  for (uint32_t i = 0; i < accepted; ++i) {
    EXPECT_EQ(seen[i], std::make_tuple(0u, i + 1, Time{0}));
  }
  EXPECT_EQ(seen[accepted], std::make_tuple(1u, 99u, ns(500)));
}

TEST(Network, BackToBackFramesLeaveAtLineRate) {
  // 003: a 10 Gb/s link carries 812,744 frames/s of 1518 B, 14.88 M frames/s of 64 B.
  for (size_t size : {size_t{1518}, size_t{64}}) {
    Kernel k;
    Network net(k, params(NetTopology::PointToPoint, 2, 100, 10.0, 20, 512));
    Receiver rx(net, k, 1);
    for (uint32_t i = 0; i < 100; ++i) ASSERT_TRUE(net.try_send(frame(0, 1, i, size)));
    run(k);
    ASSERT_EQ(rx.got.size(), 100u);
    const Time s = ser(size, 20, 10.0);
    for (size_t i = 0; i < 100; ++i)
      EXPECT_EQ(rx.when[i], (i + 1) * s + ns(100)) << size << " " << i;
    const double rate = 1e12 / static_cast<double>(s);
    EXPECT_NEAR(rate, size == 64 ? 14'880'952.0 : 812'744.0, 1.0) << size;
    EXPECT_EQ(net.link_stats(0, 1).busy, 100 * s);
    EXPECT_EQ(net.link_stats(0, 1).blocked, 0u);
  }
}

TEST(Network, UnlimitedBandwidthLeavesOnlyTheLatency) {
  Kernel k;
  Network net(k, params(NetTopology::PointToPoint, 2, 500, 0.0));
  Receiver rx(net, k, 1);
  for (uint32_t i = 0; i < 3; ++i) ASSERT_TRUE(net.try_send(frame(0, 1, i, 256)));
  run(k);
  ASSERT_EQ(rx.got.size(), 3u);
  for (size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(rx.when[i], ns(500));
    EXPECT_EQ(rx.seq(i), i);
  }
}

TEST(Network, SwitchStoresAndForwardsOverTwoLinks) {
  Kernel k;
  Network net(k, params(NetTopology::Switch, 3, 100, 10.0, 20));
  Receiver rx(net, k, 2);
  ASSERT_TRUE(net.try_send(frame(0, 2, 1, 128)));
  run(k);
  ASSERT_EQ(rx.got.size(), 1u);
  EXPECT_EQ(rx.when[0], 2 * (ser(128, 20, 10.0) + ns(100)));
  EXPECT_EQ(net.link_stats(0, Network::kSwitch).frames, 1u);
  EXPECT_EQ(net.link_stats(Network::kSwitch, 2).frames, 1u);
  EXPECT_EQ(net.link_stats(Network::kSwitch, 1).frames, 0u);
}

// Reordering injection: a frame held back is overtaken by the ones sent after it on the link;
// every frame still arrives exactly once, the held ones late by net.reorder_ns; the same seed
// holds the same frames; off, a link keeps its order and draws nothing (the loss stream as
// before).
TEST(Network, ReorderingLetsLaterFramesOvertakeAndLosesNothing) {
  auto stream = [](double rate, uint64_t seed) {
    Kernel k;
    NetParams p = params(NetTopology::PointToPoint, 2, 100, 100.0, 20, 256);
    p.reorder_rate = rate;
    p.reorder_delay = ns(2000);
    p.seed = seed;
    Network net(k, p);
    Receiver rx(net, k, 1);
    Sender tx(net, 0);
    for (uint32_t i = 0; i < 2000; ++i) tx.send(frame(0, 1, i));
    run(k);
    std::vector<uint32_t> order;
    for (size_t i = 0; i < rx.got.size(); ++i) order.push_back(rx.seq(i));
    return std::make_pair(order, net.link_stats(0, 1).held);
  };
  const auto [order, held] = stream(0.05, 7);
  ASSERT_EQ(order.size(), 2000u);
  std::set<uint32_t> distinct(order.begin(), order.end());
  EXPECT_EQ(distinct.size(), 2000u) << "a frame lost or repeated";
  unsigned overtaken = 0;  // frames that arrive after a later-sent one
  uint32_t top = 0;
  for (uint32_t s : order) {
    if (s < top) ++overtaken;
    top = std::max(top, s);
  }
  // every held frame is overtaken, but for one held so near the end that nothing follows it
  EXPECT_LE(overtaken, held);
  EXPECT_GE(overtaken + 1, held);
  EXPECT_GT(held, 60u);  // 5% of 2000 is 100; 4 standard deviations is about 39
  EXPECT_LT(held, 140u);
  EXPECT_EQ(stream(0.05, 7).first, order) << "the same seed holds the same frames";
  const auto [in_order, none] = stream(0.0, 7);
  EXPECT_EQ(none, 0u);
  EXPECT_TRUE(std::is_sorted(in_order.begin(), in_order.end()));
}

TEST(Network, SwitchSerializesTwoSendersOnTheSharedOutputButP2pDoesNot) {
  const Time s = ser(64, 0, 10.0);
  const std::map<NetTopology, std::pair<Time, Time>> want{
      {NetTopology::Switch, {2 * (s + ns(100)), 2 * (s + ns(100)) + s}},  // waits for the downlink
      {NetTopology::PointToPoint, {s + ns(100), s + ns(100)}}};           // a link each
  for (const auto& [t, w] : want) {
    Kernel k;
    Network net(k, params(t, 3, 100, 10.0));
    Receiver rx(net, k, 2);
    ASSERT_TRUE(net.try_send(frame(0, 2, 0)));
    ASSERT_TRUE(net.try_send(frame(1, 2, 1)));
    run(k);
    ASSERT_EQ(rx.got.size(), 2u);
    EXPECT_EQ(rx.when[0], w.first) << topology_name(t);
    EXPECT_EQ(rx.when[1], w.second) << topology_name(t);
    EXPECT_EQ(rx.seq(0), 0u);
  }
}

TEST(Network, FramesOfOneLinkArriveInSendOrder) {
  for (NetTopology t : {NetTopology::PointToPoint, NetTopology::Switch}) {
    Kernel k;
    Network net(k, params(t, 3, 50, 25.0, 20, 256));
    Receiver rx(net, k, 2);
    // Sizes vary so short frames would overtake long ones on any non-FIFO path.
    for (uint32_t i = 0; i < 200; ++i) {
      ASSERT_TRUE(net.try_send(frame(i % 2, 2, i, i % 3 == 0 ? 1500 : 64)));
    }
    run(k);
    ASSERT_EQ(rx.got.size(), 200u);
    std::map<unsigned, uint32_t> next{{0, 0}, {1, 1}};
    for (size_t i = 0; i < rx.got.size(); ++i) {
      const unsigned src = rx.got[i].src;
      EXPECT_EQ(rx.seq(i), next[src]) << topology_name(t);
      next[src] += 2;
    }
  }
}

TEST(Network, FullReceiveBufferHoldsBackTheSenderAndLosesNothing) {
  constexpr unsigned kBuf = 4;
  for (NetTopology t : {NetTopology::PointToPoint, NetTopology::Switch}) {
    Kernel k;
    Network net(k, params(t, 2, 100, 10.0, 20, kBuf));
    Receiver rx(net, k, 1);
    net.set_rx_ready(1, false);
    uint32_t accepted = 0;
    while (net.try_send(frame(0, 1, accepted))) ++accepted;
    EXPECT_EQ(accepted, kBuf + 1);  // the first frame went onto the link at once
    // Keep offering frames until the refusal persists: every buffer on the path is full --
    // the port's transmit buffer, the switch's output queue (switch only) and the receiver's.
    unsigned spaces = 0;
    net.on_space(0, [&] { ++spaces; });
    uint32_t more = accepted;
    for (;;) {
      run(k);
      if (!net.can_send(0, 1)) break;
      while (net.try_send(frame(0, 1, more))) ++more;
    }
    const unsigned buffers = t == NetTopology::Switch ? 3 : 2;
    EXPECT_EQ(more, buffers * kBuf) << topology_name(t);
    EXPECT_TRUE(rx.got.empty());
    EXPECT_GE(spaces, 1u);  // told each time a refused port could send again
    const Time refused_at = k.now();

    // The receiver becomes ready 1 us later: everything drains, in order, exactly once.
    Sender tx(net, 0);
    for (uint32_t i = more; i < more + 20; ++i) tx.send(frame(0, 1, i));
    k.at(refused_at + ns(1000), [&] { net.set_rx_ready(1, true); });
    run(k);
    ASSERT_EQ(rx.got.size(), more + 20u) << topology_name(t);
    for (size_t i = 0; i < rx.got.size(); ++i) EXPECT_EQ(rx.seq(i), i);
    EXPECT_TRUE(tx.backlog.empty());
    EXPECT_EQ(net.in_flight(), 0u);
    EXPECT_GE(net.port_stats(0).blocked, ns(1000));
    EXPECT_GE(net.link_stats(t == NetTopology::Switch ? Network::kSwitch : 0, 1).blocked, ns(1000));
    EXPECT_EQ(net.port_stats(0).lost, 0u);
  }
}

TEST(Network, ReceiverMayPauseInsideItsHandler) {
  Kernel k;
  Network net(k, params(NetTopology::PointToPoint, 2, 10, 0.0));
  std::vector<uint32_t> got;
  net.on_receive(1, [&](const Frame& f) {
    got.push_back(parse_header(f.bytes).seq);
    net.set_rx_ready(1, false);  // one frame at a time
  });
  for (uint32_t i = 0; i < 3; ++i) ASSERT_TRUE(net.try_send(frame(0, 1, i)));
  run(k);
  EXPECT_EQ(got, (std::vector<uint32_t>{0}));
  net.set_rx_ready(1, true);
  EXPECT_EQ(got, (std::vector<uint32_t>{0, 1}));
  net.set_rx_ready(1, true);
  EXPECT_EQ(got, (std::vector<uint32_t>{0, 1, 2}));
}

TEST(Network, LossDropsFramesAtTheConfiguredRate) {
  InjectedStream s(0.05, 0.0);
  const NetLinkStats& ls = s.net.link_stats(0, 1);
  EXPECT_EQ(ls.frames, InjectedStream::kFrames);
  EXPECT_NEAR(static_cast<double>(ls.dropped), 500.0, 90.0);  // 4 standard deviations
  EXPECT_EQ(ls.delivered + ls.dropped, InjectedStream::kFrames);
  EXPECT_EQ(s.rx.got.size(), ls.delivered);
  EXPECT_EQ(s.net.port_stats(0).lost, ls.dropped);
  EXPECT_EQ(s.net.port_stats(1).rx_bad_fcs, 0u);
  EXPECT_EQ(s.net.in_flight(), 0u);
  for (size_t i = 1; i < s.rx.got.size(); ++i) ASSERT_LT(s.rx.seq(i - 1), s.rx.seq(i));
}

TEST(Network, CorruptionFailsTheReceiversFcsAtTheConfiguredRate) {
  InjectedStream s(0.0, 0.05);
  const NetLinkStats& ls = s.net.link_stats(0, 1);
  EXPECT_NEAR(static_cast<double>(ls.corrupted), 500.0, 90.0);
  EXPECT_EQ(ls.dropped, 0u);
  ASSERT_EQ(s.rx.got.size(), InjectedStream::kFrames);  // corrupted frames arrive, marked bad
  uint64_t bad = 0;
  for (const Frame& f : s.rx.got) {
    EXPECT_EQ(f.tuser, !fcs_ok(f.bytes));
    bad += f.tuser;
  }
  EXPECT_EQ(bad, ls.corrupted);
  EXPECT_EQ(s.net.port_stats(1).rx_bad_fcs, ls.corrupted);
  EXPECT_EQ(s.net.port_stats(1).rx_frames, InjectedStream::kFrames);
}

TEST(Network, InjectionIsDeterministicPerSeed) {
  auto outcome = [](uint64_t seed) {
    InjectedStream s(0.1, 0.1, seed);
    std::vector<std::pair<uint32_t, bool>> got;
    for (size_t i = 0; i < s.rx.got.size(); ++i) got.emplace_back(s.rx.seq(i), s.rx.got[i].tuser);
    return got;
  };
  EXPECT_EQ(outcome(7), outcome(7));
  EXPECT_NE(outcome(7), outcome(8));
}

// A frame of the reply channel (type bit 7) from `src` to `dst`.
Frame reply(unsigned src, unsigned dst, uint32_t seq) {
  std::vector<uint8_t> payload(64 - kMinFrameBytes, 0);
  return make_frame(
      FrameHeader{static_cast<uint16_t>(dst), static_cast<uint16_t>(src), 0, 0x85, 0, seq},
      payload);
}

// Requests held back at the receiving port fill every buffer on their way, up to the sender's;
// a reply sent after them still goes through, each channel having its own buffers and credits.
TEST(Network, ARequestChannelHeldBackDoesNotHoldTheReplyChannel) {
  for (NetTopology t : {NetTopology::PointToPoint, NetTopology::Switch}) {
    Kernel k;
    Network net(k, params(t, 2, 100, 10.0, 20, 4));
    Receiver rx(net, k, 1);
    net.set_rx_ready(1, 0, false);
    uint32_t sent = 0;
    for (;;) {
      run(k);
      if (!net.try_send(frame(0, 1, sent))) break;
      ++sent;
    }
    EXPECT_EQ(sent, 4u * (t == NetTopology::Switch ? 3 : 2)) << topology_name(t);
    EXPECT_FALSE(net.can_send(0, 1, 0));
    EXPECT_TRUE(net.can_send(0, 1, 1));
    EXPECT_TRUE(rx.got.empty());
    ASSERT_TRUE(net.try_send(reply(0, 1, 1000)));
    run(k);
    ASSERT_EQ(rx.got.size(), 1u) << topology_name(t) << ": the reply went past the requests";
    EXPECT_EQ(Network::channel_of(rx.got[0]), 1u);
    EXPECT_EQ(rx.seq(0), 1000u);
    net.set_rx_ready(1, 0, true);
    run(k);
    ASSERT_EQ(rx.got.size(), sent + 1);
    for (uint32_t i = 0; i < sent; ++i) EXPECT_EQ(rx.seq(i + 1), i) << "requests in order";
    EXPECT_EQ(net.in_flight(), 0u);
  }
}

// Nothing held back: the two channels share each link in the order the frames were sent.
TEST(Network, UnheldChannelsKeepTheOrderFramesWereSentIn) {
  Kernel k;
  Network net(k, params(NetTopology::Switch, 2, 100, 10.0, 20, 4));
  Receiver rx(net, k, 1);
  Sender tx(net, 0);
  for (uint32_t i = 0; i < 12; ++i) tx.send(i % 3 == 1 ? reply(0, 1, i) : frame(0, 1, i));
  run(k);
  ASSERT_EQ(rx.got.size(), 12u);
  for (uint32_t i = 0; i < 12; ++i) {
    EXPECT_EQ(rx.seq(i), i);
    EXPECT_EQ(Network::channel_of(rx.got[i]), i % 3 == 1 ? 1u : 0u);
  }
  EXPECT_THROW(net.can_send(0, 1, 2), std::invalid_argument);
  EXPECT_THROW(net.set_rx_ready(1, 2, true), std::invalid_argument);
}

// Every frame has one bit flipped; some flips hit the type's channel bit. Such a frame stays on
// the channel whose credit it took (it arrives there, marked bad), so afterwards every buffer of
// channel 0 still holds exactly net.buffer_frames.
TEST(Network, ACorruptedChannelBitNeitherMovesAFrameNorLeaksACredit) {
  Kernel k;
  NetParams p = params(NetTopology::PointToPoint, 2, 100, 10.0, 20, 4);
  p.corrupt_rate = 1.0;
  p.seed = 3;
  Network net(k, p);
  Receiver rx(net, k, 1);
  Sender tx(net, 0);
  constexpr uint32_t kN = 4000;
  for (uint32_t i = 0; i < kN; ++i) tx.send(frame(0, 1, i));
  run(k);
  ASSERT_EQ(rx.got.size(), kN);
  unsigned flipped = 0;
  for (const Frame& f : rx.got) {
    EXPECT_TRUE(f.tuser);
    flipped += Network::channel_of(f);
  }
  EXPECT_GT(flipped, 0u) << "the seed flips some channel bits";
  net.set_rx_ready(1, 0, false);
  uint32_t sent = 0;
  for (;;) {
    run(k);
    if (!net.try_send(frame(0, 1, kN + sent))) break;
    ++sent;
  }
  EXPECT_EQ(sent, 8u) << "the port's and the link's 4 credits each";
}

TEST(Network, ADropRuleLosesExactlyTheFramesItChooses) {
  // The frames with seq % 10 == 3 chosen, alone and beside 10% seeded loss: the seeded stream
  // loses the same frames with and without the rule.
  auto got = [](double loss, bool rule) {
    Kernel k;
    Network net(k, InjectedStream::injecting(loss, 0, 7));
    if (rule) {
      net.set_drop_rule([](const Frame& f) { return parse_header(f.bytes).seq % 10 == 3; });
    }
    Receiver rx(net, k, 1);
    Sender tx(net, 0);
    for (uint32_t i = 0; i < InjectedStream::kFrames; ++i) tx.send(frame(0, 1, i));
    run(k);
    std::set<uint32_t> seqs;
    for (size_t i = 0; i < rx.got.size(); ++i) seqs.insert(rx.seq(i));
    EXPECT_EQ(net.link_stats(0, 1).dropped, InjectedStream::kFrames - seqs.size());
    return seqs;
  };
  const std::set<uint32_t> chosen = got(0, true), seeded = got(0.1, false), both = got(0.1, true);
  EXPECT_EQ(chosen.size(), InjectedStream::kFrames - InjectedStream::kFrames / 10);
  for (uint32_t i = 0; i < InjectedStream::kFrames; ++i) {
    EXPECT_EQ(chosen.count(i), i % 10 != 3);
    EXPECT_EQ(both.count(i), seeded.count(i) && i % 10 != 3) << i;
  }
}

TEST(Network, SixteenNodesAllToAllDeliverEveryFrameExactlyOnce) {
  constexpr unsigned kNodes = 16, kPerPair = 20;
  for (NetTopology t : {NetTopology::Switch, NetTopology::PointToPoint}) {
    Kernel k;
    Network net(k, params(t, kNodes, 200, 40.0, 20, 3));  // small buffers: back-pressure
    std::vector<std::unique_ptr<Sender>> tx;
    std::vector<std::unique_ptr<Receiver>> rx;
    for (unsigned n = 0; n < kNodes; ++n) {
      tx.push_back(std::make_unique<Sender>(net, n));
      rx.push_back(std::make_unique<Receiver>(net, k, n));
    }
    for (uint32_t i = 0; i < kPerPair; ++i) {
      for (unsigned s = 0; s < kNodes; ++s) {
        for (unsigned d = 0; d < kNodes; ++d) {
          if (d != s) tx[s]->send(frame(s, d, i, 64 + 32 * ((s + d + i) % 4)));
        }
      }
    }
    run(k);
    for (unsigned d = 0; d < kNodes; ++d) {
      ASSERT_EQ(rx[d]->got.size(), kPerPair * (kNodes - 1)) << topology_name(t) << " node " << d;
      std::map<unsigned, uint32_t> next;  // per source, in order, each once
      for (size_t i = 0; i < rx[d]->got.size(); ++i) {
        const Frame& f = rx[d]->got[i];
        EXPECT_EQ(f.dst, d);
        EXPECT_FALSE(f.tuser);
        EXPECT_EQ(rx[d]->seq(i), next[f.src]++) << topology_name(t);
      }
    }
    for (unsigned n = 0; n < kNodes; ++n) {
      EXPECT_TRUE(tx[n]->backlog.empty());
      EXPECT_EQ(net.port_stats(n).tx_frames, kPerPair * (kNodes - 1));
    }
    EXPECT_EQ(net.in_flight(), 0u);
  }
}

TEST(Network, LossyAllToAllNeverDeliversAFrameTwice) {
  constexpr unsigned kNodes = 8;
  Kernel k;
  NetParams p = params(NetTopology::Switch, kNodes, 100, 40.0, 20, 4);
  p.loss_rate = 0.2;
  Network net(k, p);
  std::set<std::tuple<unsigned, unsigned, uint32_t>> seen;
  uint64_t delivered = 0;
  std::vector<std::unique_ptr<Sender>> tx;
  for (unsigned n = 0; n < kNodes; ++n) {
    tx.push_back(std::make_unique<Sender>(net, n));
    net.on_receive(n, [&, n](const Frame& f) {
      ++delivered;
      EXPECT_TRUE(seen.emplace(f.src, n, parse_header(f.bytes).seq).second);
    });
  }
  for (uint32_t i = 0; i < 50; ++i) {
    for (unsigned s = 0; s < kNodes; ++s)
      tx[s]->send(frame(s, (s + 1 + i % (kNodes - 1)) % kNodes, i));
  }
  run(k);
  uint64_t lost = 0;
  for (unsigned n = 0; n < kNodes; ++n) lost += net.port_stats(n).lost;
  EXPECT_EQ(delivered + lost, 50u * kNodes);
  EXPECT_GT(lost, 0u);
}

TEST(Network, RoutableSaysWhichFramesTheTopologyCarries) {
  Kernel k;
  Network sw(k, params(NetTopology::Switch, 4, 100, 10.0, 20));
  EXPECT_TRUE(sw.routable(0, 3));
  EXPECT_FALSE(sw.routable(2, 2)) << "only the loopback topology returns frames to the sender";
  EXPECT_FALSE(sw.routable(0, 4)) << "no node 4";
  EXPECT_FALSE(sw.routable(4, 0));
  Network lo(k, params(NetTopology::Loopback, 1, 30, 100.0, 20));
  EXPECT_TRUE(lo.routable(0, 0));
  EXPECT_TRUE(lo.routable(0, 9)) << "loopback ignores the destination";
}

TEST(Network, LoopbackReturnsFramesToTheSenderAfterTheLatency) {
  Kernel k;
  Network net(k, params(NetTopology::Loopback, 1, 30, 100.0, 20));
  Receiver rx(net, k, 0);
  Frame f = frame(0, 5, 9);  // the destination is carried, not used
  ASSERT_TRUE(net.try_send(f));
  run(k);
  ASSERT_EQ(rx.got.size(), 1u);
  EXPECT_EQ(rx.when[0], ser(64, 20, 100.0) + ns(30));
  EXPECT_EQ(rx.got[0].bytes, f.bytes);
  EXPECT_EQ(rx.got[0].dst, 5u);
  EXPECT_EQ(net.link_stats(0, 0).delivered, 1u);
}

TEST(Network, CountersAddUpPerLinkAndPort) {
  Kernel k;
  Network net(k, params(NetTopology::Switch, 3, 100, 10.0, 20));
  Receiver r1(net, k, 1), r2(net, k, 2);
  ASSERT_TRUE(net.try_send(frame(0, 1, 0, 100)));
  ASSERT_TRUE(net.try_send(frame(0, 2, 1, 200)));
  ASSERT_TRUE(net.try_send(frame(1, 2, 2, 300)));
  run(k);
  EXPECT_EQ(net.port_stats(0).tx_frames, 2u);
  EXPECT_EQ(net.port_stats(0).tx_bytes, 300u);
  EXPECT_EQ(net.port_stats(2).rx_frames, 2u);
  EXPECT_EQ(net.port_stats(2).rx_bytes, 500u);
  const NetLinkStats& up0 = net.link_stats(0, Network::kSwitch);
  EXPECT_EQ(up0.frames, 2u);
  EXPECT_EQ(up0.bytes, 300u);
  EXPECT_EQ(up0.delivered, 2u);
  EXPECT_EQ(up0.busy, ser(100, 20, 10.0) + ser(200, 20, 10.0));  // gap bytes take wire time
  EXPECT_EQ(net.link_stats(Network::kSwitch, 2).bytes, 500u);
  EXPECT_EQ(net.in_flight(), 0u);
}

TEST(Network, EnzianProfileParametersSustainLineRateWithMinimumFrames) {
  const NetParams p = NetParams::from_profile(Profile::load("enzian-eci"));
  EXPECT_EQ(p.topology, NetTopology::Switch);
  EXPECT_EQ(p.nodes, 2u);
  EXPECT_DOUBLE_EQ(p.bandwidth_gbit_s, 100.0);
  EXPECT_EQ(p.gap_bytes, 20u);
  EXPECT_EQ(p.max_frame_bytes, 9600u);
  EXPECT_EQ(p.loss_rate, 0.0);
  EXPECT_EQ(p.corrupt_rate, 0.0);
  // The buffers cover the credit loop: 64 B frames through the switch never wait for a credit.
  Kernel k;
  Network net(k, p);
  Receiver rx(net, k, 1);
  Sender tx(net, 0);
  for (uint32_t i = 0; i < 2000; ++i) tx.send(frame(0, 1, i));
  run(k);
  ASSERT_EQ(rx.got.size(), 2000u);
  const Time s = ser(64, 20, 100.0);
  EXPECT_EQ(rx.when.back() - rx.when.front(), 1999 * s);
  EXPECT_EQ(net.link_stats(0, Network::kSwitch).blocked, 0u);
  EXPECT_EQ(net.link_stats(Network::kSwitch, 1).blocked, 0u);
}

TEST(Network, ProfileWithoutNetKeysGetsTheDefaults) {
  const Profile prof = Profile::parse("t", "line_bytes = 64\nsim.seed = 9\n", "test");
  const NetParams p = NetParams::from_profile(prof);
  const NetParams d;
  EXPECT_EQ(p.topology, d.topology);
  EXPECT_EQ(p.nodes, d.nodes);
  EXPECT_EQ(p.buffer_frames, d.buffer_frames);
  EXPECT_EQ(p.seed, 9u);
}

TEST(Network, BadParametersThrowNamingKeyAndValue) {
  Profile prof = Profile::load("enzian-eci");
  prof.set("net.topology=ring");
  const std::string t = error_of<ProfileError>([&] { NetParams::from_profile(prof); });
  EXPECT_NE(t.find("'ring'"), std::string::npos) << t;
  Profile rate = Profile::load("enzian-eci");
  rate.set("net.loss_rate=1.5");
  const std::string r = error_of<std::invalid_argument>([&] { NetParams::from_profile(rate); });
  EXPECT_NE(r.find("net.loss_rate"), std::string::npos) << r;
  EXPECT_NE(r.find("1.5"), std::string::npos) << r;
  NetParams zero;
  zero.buffer_frames = 0;
  Kernel k;
  EXPECT_NE(
      error_of<std::invalid_argument>([&] { Network bad(k, zero); }).find("net.buffer_frames"),
      std::string::npos);
}

TEST(Network, BadFramesThrowNamingTheBadValue) {
  Kernel k;
  Network net(k, params(NetTopology::Switch, 32, 100, 10.0));
  auto msg = [&](const Frame& f) {
    return error_of<std::invalid_argument>([&] { net.try_send(f); });
  };
  const std::string dst = msg(frame(0, 40, 0));
  EXPECT_NE(dst.find("destination node 40"), std::string::npos) << dst;
  EXPECT_NE(dst.find("32 nodes"), std::string::npos) << dst;
  EXPECT_NE(msg(frame(33, 1, 0)).find("source node 33"), std::string::npos);
  const std::string big = msg(frame(0, 1, 0, 9601));
  EXPECT_NE(big.find("9601 bytes"), std::string::npos) << big;
  Frame empty;
  empty.dst = 1;
  EXPECT_NE(msg(empty).find("empty frame (0 bytes)"), std::string::npos);
  Frame runt = frame(0, 1, 0);
  runt.bytes.resize(10);
  EXPECT_NE(msg(runt).find("10 bytes"), std::string::npos);
  EXPECT_NE(msg(frame(3, 3, 0)).find("node 3 sends a frame to itself"), std::string::npos);
  EXPECT_EQ(net.port_stats(0).tx_frames, 0u);
  EXPECT_NE(
      error_of<std::out_of_range>([&] { (void)net.link_stats(0, 1); }).find("node 0 to node 1"),
      std::string::npos);
}
