// SPDX-License-Identifier: Apache-2.0
// Cluster: nodes built from a profile, each its own coherence domain on one kernel, their
// network ports joined by the network; per-node overrides and bad input.
#include "cni/sim/cluster.hpp"

#include <gtest/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "error_of.hpp"

using namespace cni;
using namespace cni::sim;
using cni::sim::test::error_of;

namespace {

Profile profile(std::initializer_list<std::string> sets) {
  Profile p = Profile::load("enzian-eci");
  for (const auto& s : sets) p.set(s);
  return p;
}

class ClusterSize : public testing::TestWithParam<unsigned> {};

TEST_P(ClusterSize, NodesComeUpAsSeparateCoherenceDomains) {
  const unsigned n = GetParam();
  Cluster c(profile({"nodes=" + std::to_string(n)}));
  ASSERT_EQ(c.num_nodes(), n);
  EXPECT_EQ(c.network().num_nodes(), n);
  constexpr proto::Addr kWord = 0x1000;
  for (unsigned i = 0; i < n; ++i) {
    Node& node = c.node(i);
    EXPECT_EQ(node.index(), i);
    EXPECT_EQ(node.net_port().node(), i);
    // Agent ids start over in every node: 1 home, 4 caches, the device slot.
    EXPECT_EQ(node.host().device_agent(0), 5);
    EXPECT_EQ(node.fabric().home_of(kWord), 0);
    node.host().spawn(0, [i](drv::MemoryPort& m) { m.store64(kWord, 100 + i); });
  }
  c.run_programs();
  // The same address holds each node's own value: core 1 of every node reads its node's value
  // (through its node's home, from core 0's cache).
  std::vector<uint64_t> seen(n);
  for (unsigned i = 0; i < n; ++i) {
    c.node(i).host().spawn(1, [&seen, i](drv::MemoryPort& m) { seen[i] = m.load64(kWord); });
  }
  c.run_programs();
  for (unsigned i = 0; i < n; ++i) EXPECT_EQ(seen[i], 100 + i) << "node " << i;
}

INSTANTIATE_TEST_SUITE_P(Nodes, ClusterSize, testing::Values(1u, 2u, 4u, 16u),
                         [](const auto& info) { return std::to_string(info.param); });

class ClusterNetwork : public testing::TestWithParam<const char*> {};

TEST_P(ClusterNetwork, EveryPortReachesEveryOtherExactlyOnce) {
  constexpr unsigned n = 16;
  Cluster c(profile({"nodes=16", std::string("net.topology=") + GetParam()}));
  // received[dst][src]: frames from src that arrived at dst, with an intact payload
  std::vector<std::map<unsigned, unsigned>> received(n);
  std::vector<Time> first(n, 0);
  for (unsigned i = 0; i < n; ++i) {
    NetPort& port = c.node(i).net_port();
    port.on_receive([&, i](const Frame& f) {
      EXPECT_FALSE(f.tuser);
      const FrameHeader h = parse_header(f.bytes);
      const auto payload = frame_payload(f);
      EXPECT_EQ(h.dst, i);
      EXPECT_EQ(payload.size(), 2u);
      if (payload.size() == 2 && payload[0] == h.src && payload[1] == i) ++received[i][h.src];
      if (first[i] == 0) first[i] = c.kernel().now();
    });
  }
  for (unsigned s = 0; s < n; ++s) {
    for (unsigned d = 0; d < n; ++d) {
      if (d == s) continue;
      const std::vector<uint8_t> payload{uint8_t(s), uint8_t(d)};
      const Frame f = make_frame({.dst = uint16_t(d), .src = uint16_t(s)}, payload);
      ASSERT_TRUE(c.node(s).net_port().try_send(f));
    }
  }
  c.kernel().run([&] { return c.network().in_flight() == 0; });
  const NetParams& np = c.network().params();
  for (unsigned d = 0; d < n; ++d) {
    EXPECT_EQ(received[d].size(), n - 1) << "node " << d;
    for (const auto& [src, count] : received[d]) EXPECT_EQ(count, 1u) << src << " -> " << d;
    EXPECT_EQ(c.node(d).net_port().stats().tx_frames, n - 1);
    EXPECT_EQ(c.node(d).net_port().stats().rx_frames, n - 1);
    // Nothing arrives before a frame crossed the network's links.
    const unsigned hops = np.topology == NetTopology::Switch ? 2 : 1;
    EXPECT_GE(first[d], hops * np.latency) << "node " << d;
  }
  if (np.topology == NetTopology::Switch) {
    EXPECT_EQ(c.network().link_stats(Network::kSwitch, 3).delivered, n - 1);
  } else {
    EXPECT_EQ(c.network().link_stats(3, 7).delivered, 1u);
  }
}

INSTANTIATE_TEST_SUITE_P(Topologies, ClusterNetwork, testing::Values("switch", "p2p"),
                         [](const auto& info) { return std::string(info.param); });

TEST(Cluster, PortSendsOnlyItsOwnFrames) {
  Cluster c(profile({"nodes=2"}));
  const Frame f = make_frame({.dst = 0, .src = 0}, {});
  const std::string msg =
      error_of<std::invalid_argument>([&] { (void)c.node(1).net_port().try_send(f); });
  EXPECT_NE(msg.find("port of node 1 sends a frame from node 0"), std::string::npos) << msg;
}

TEST(Cluster, PerNodeOverridesApplyToTheNamedNodeOnly) {
  Cluster c(profile({"nodes=4", "node2.host.cores=2", "node3.devices=0",
                     "node1.link.one_way_ns=500", "node1.host.sockets=2"}));
  for (unsigned i = 0; i < 4; ++i) {
    HostSystem& h = c.node(i).host();
    EXPECT_EQ(h.num_cores(), i == 2 ? 2u : 4u) << "node " << i;
    EXPECT_EQ(h.num_devices(), i == 3 ? 0u : 1u) << "node " << i;
    EXPECT_EQ(h.num_sockets(), i == 1 ? 2u : 1u) << "node " << i;
    EXPECT_DOUBLE_EQ(c.node(i).profile().get_double("link.one_way_ns"), i == 1 ? 500.0 : 150.0);
    EXPECT_EQ(c.node(i).profile().name(), "enzian-eci node " + std::to_string(i));
  }
  EXPECT_EQ(c.node(3).fabric().num_nodes(), 1u);  // one socket, no device slot
}

// A program that waits for what never comes ends the run at the limit with an error naming its
// core, not a hang; programs that finish within the limit end it as before.
TEST(Cluster, ARunOverItsTimeLimitIsAnErrorNamingTheCoresStillRunning) {
  Cluster c(profile({"nodes=2", "node.devices=0"}));
  bool flag = false;
  c.node(1).host().spawn(2, [&](drv::MemoryPort& m) {
    while (!flag) m.pause_ns(100);
  });
  const std::string msg = error_of<std::runtime_error>([&] { c.run_programs(ns(50'000)); });
  EXPECT_NE(msg.find("simulation time limit"), std::string::npos) << msg;
  EXPECT_NE(msg.find("50000 ns after the run began"), std::string::npos) << msg;
  EXPECT_NE(msg.find("node 1"), std::string::npos) << msg;
  EXPECT_GE(c.kernel().now(), ns(50'000));
  EXPECT_LT(c.kernel().now(), ns(50'200));
  flag = true;
  c.run_programs(ns(50'000));  // the program ends now
  EXPECT_TRUE(c.all_done());
}

TEST(Cluster, AHostsRunOverItsTimeLimitIsAnErrorToo) {
  Cluster c(profile({"nodes=1", "node.devices=0"}));
  c.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    for (;;) m.pause_ns(100);
  });
  const std::string msg =
      error_of<std::runtime_error>([&] { c.node(0).host().run_programs(ns(1'000)); });
  EXPECT_NE(msg.find("simulation time limit"), std::string::npos) << msg;
}

TEST(Cluster, AgentIdsArePerNodeNotPerSystem) {
  // 16 + 6 agents in the system; each node within its 16 ids.
  Cluster c(profile({"nodes=2", "node1.host.cores=14"}));
  EXPECT_EQ(c.node(1).host().device_agent(0), 15);
  EXPECT_EQ(c.node(0).host().device_agent(0), 5);
  const std::string msg = error_of<ProfileError>([] {
    Cluster bad(profile({"nodes=2", "node1.host.cores=15"}));
  });
  EXPECT_NE(msg.find("enzian-eci node 1"), std::string::npos) << msg;
  EXPECT_NE(msg.find("agent ids"), std::string::npos) << msg;
}

TEST(Cluster, BadNodeCountIsAnErrorNamingIt) {
  for (const char* bad : {"nodes=0", "nodes=257"}) {
    const std::string msg = error_of<ProfileError>([&] { Cluster c(profile({bad})); });
    EXPECT_NE(msg.find("'nodes' = " + std::string(bad).substr(6)), std::string::npos) << msg;
  }
  // net.nodes, if a profile gives it, must agree with nodes.
  Profile p = profile({"nodes=3"});
  const Profile with_net =
      Profile::parse("with-net", p.dump() + "net.nodes = 2\n", "with-net.profile");
  const std::string net = error_of<ProfileError>([&] { Cluster c(with_net); });
  EXPECT_NE(net.find("net.nodes = 2 but nodes = 3"), std::string::npos) << net;
}

TEST(Cluster, OverrideForANodeOutsideTheSystemIsAnErrorNamingIt) {
  const std::string msg = error_of<ProfileError>([] {
    Cluster c(profile({"nodes=4", "node99.host.cores=2"}));
  });
  EXPECT_NE(msg.find("'node99.host.cores'"), std::string::npos) << msg;
  EXPECT_NE(msg.find("4 nodes"), std::string::npos) << msg;
  const std::string node = error_of<std::out_of_range>([] {
    Cluster c(profile({"nodes=2"}));
    (void)c.node(2);
  });
  EXPECT_NE(node.find("no node 2 (2 nodes)"), std::string::npos) << node;
}

}  // namespace
