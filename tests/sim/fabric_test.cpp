// SPDX-License-Identifier: Apache-2.0
// Fabric: on-chip and link latency, bandwidth serialization, credits, ordering, address map.
#include "cni/sim/fabric.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

using namespace cni;
using namespace cni::sim;
using proto::Chan;
using proto::Msg;
using proto::Op;

namespace {

struct Recorder : Agent {
  Recorder(proto::AgentId id, Kernel& k) : Agent(id), k(k) {}
  void deliver(const Msg& m) override {
    got.push_back(m);
    when.push_back(k.now());
    if (on_msg) on_msg(m);
  }
  Kernel& k;
  std::vector<Msg> got;
  std::vector<Time> when;
  std::function<void(const Msg&)> on_msg;
};

Msg msg(Op op, proto::AgentId src, proto::AgentId dst, uint8_t tag = 0) {
  Msg m;
  m.op = op;
  m.src = src;
  m.dst = dst;
  m.tag = tag;
  m.addr = 0x1000;
  if (proto::carries_data(op)) m.len = 128;
  return m;
}

Time ser_time(unsigned bytes, double gib_s) {
  return static_cast<Time>(std::llround(bytes / (gib_s * 1073741824.0 / 1e12)));
}

// Two nodes: n0 (on-chip 20 ns, link port 10 ns) with agents 0 and 1; n1 (no extra latency)
// with agent 2; a 150 ns, 30 GiB/s link between them.
struct TwoNodes : testing::Test {
  Kernel k;
  Fabric f{k};
  NodeId n0 = f.add_node("socket0", ns(20), ns(10));
  NodeId n1 = f.add_node("device", 0, 0);
  Recorder a{0, k}, b{1, k}, c{2, k};
  LinkParams lp{ns(150), 30.0, 0};
  void SetUp() override {
    f.connect(n0, n1, lp);
    f.attach(a, n0);
    f.attach(b, n0);
    f.attach(c, n1);
  }
};

}  // namespace

TEST_F(TwoNodes, SameNodeMessageTakesOnChipLatency) {
  f.send(msg(Op::RdS, 0, 1));
  k.run([] { return false; });
  ASSERT_EQ(b.when.size(), 1u);
  EXPECT_EQ(b.when[0], ns(20));
}

TEST_F(TwoNodes, CrossNodeMessageTakesPortSerializationAndOneWayLatency) {
  f.send(msg(Op::DataE, 0, 2));   // 16 + 128 = 144 wire bytes
  f.send(msg(Op::SnpAck, 2, 0));  // 16 wire bytes, other direction
  k.run([] { return false; });
  ASSERT_EQ(c.when.size(), 1u);
  EXPECT_EQ(c.when[0], ns(10) + ser_time(144, 30.0) + ns(150));
  ASSERT_EQ(a.when.size(), 1u);
  EXPECT_EQ(a.when[0], ser_time(16, 30.0) + ns(150) + ns(10));
}

TEST_F(TwoNodes, BandwidthSerializesBackToBackMessages) {
  for (uint8_t i = 0; i < 5; ++i) f.send(msg(Op::DataS, 0, 2, i));
  k.run([] { return false; });
  ASSERT_EQ(c.when.size(), 5u);
  const Time s = ser_time(144, 30.0);
  for (size_t i = 0; i < 5; ++i) {
    EXPECT_EQ(c.when[i], ns(10) + (i + 1) * s + ns(150)) << i;
    EXPECT_EQ(c.got[i].tag, i);
  }
  EXPECT_EQ(f.stats(n0, n1).busy, 5 * s);
}

TEST_F(TwoNodes, ReceiverWithOneCreditGetsMessagesOneAtATime) {
  f.set_rx_credits(2, Chan::Req, 1);
  unsigned held = 0, max_held = 0;
  std::vector<Time> dequeued;
  c.on_msg = [&](const Msg&) {
    max_held = std::max(max_held, ++held);
    // The receiver works on each message for 100 ns, then dequeues it.
    k.after(ns(100), [&] {
      --held;
      dequeued.push_back(k.now());
      f.credit_return(2, Chan::Req);
    });
  };
  for (uint8_t i = 0; i < 3; ++i) f.send(msg(Op::RdS, 0, 2, i));
  k.run([] { return false; });
  ASSERT_EQ(c.when.size(), 3u);
  EXPECT_EQ(max_held, 1u);
  const Time s = ser_time(16, 30.0);
  EXPECT_EQ(c.when[0], ns(10) + s + ns(150));
  // The next message leaves when the credit is back at the sender (one link latency after the
  // dequeue), then crosses the link.
  EXPECT_EQ(c.when[1], dequeued[0] + ns(150) + s + ns(150));
  EXPECT_EQ(c.when[2], dequeued[1] + ns(150) + s + ns(150));
  for (uint8_t i = 0; i < 3; ++i) EXPECT_EQ(c.got[i].tag, i);
}

TEST_F(TwoNodes, CreditWaitDoesNotBlockOtherChannels) {
  f.set_rx_credits(2, Chan::Req, 1);  // never returned in this test
  f.send(msg(Op::RdS, 0, 2, 1));
  f.send(msg(Op::RdX, 0, 2, 2));
  f.send(msg(Op::SnpAck, 0, 2, 3));
  k.run([] { return false; });
  ASSERT_EQ(c.got.size(), 2u);
  EXPECT_EQ(c.got[0].tag, 1);
  EXPECT_EQ(c.got[1].op, Op::SnpAck);
}

// Protocol rule 8: a snoop may not overtake a grant or an answer of its pair that waits for a
// receiver credit (other channels still may).
TEST_F(TwoNodes, SnoopWaitsBehindAGrantHeldByACredit) {
  f.set_rx_credits(2, Chan::Dat, 1);
  c.on_msg = [&](const Msg& m) {
    if (m.chan() == Chan::Dat) k.after(ns(500), [&] { f.credit_return(2, Chan::Dat); });
  };
  f.send(msg(Op::DataE, 0, 2, 1));
  f.send(msg(Op::DataS, 0, 2, 2));   // waits for the first grant's credit
  f.send(msg(Op::FwdInv, 0, 2, 3));  // must not overtake it
  f.send(msg(Op::RdS, 0, 2, 4));     // a request may
  k.run([] { return false; });
  ASSERT_EQ(c.got.size(), 4u);
  EXPECT_EQ(c.got[0].tag, 1);
  EXPECT_EQ(c.got[1].tag, 4);
  EXPECT_EQ(c.got[2].tag, 2);
  EXPECT_EQ(c.got[3].tag, 3);
}

TEST_F(TwoNodes, CreditReturnWithoutDeclaredBufferIsAnError) {
  EXPECT_THROW(f.credit_return(2, Chan::Dat), std::logic_error);
  f.set_rx_credits(2, Chan::Dat, 2);
  EXPECT_THROW(f.credit_return(2, Chan::Dat), std::logic_error);  // nothing received yet
  EXPECT_THROW(f.set_rx_credits(2, Chan::Dat, 0), std::invalid_argument);
}

TEST_F(TwoNodes, MessagesBetweenAPairArriveInSendOrder) {
  const Op ops[] = {Op::DataE, Op::FwdInv, Op::DataS, Op::Retry, Op::FwdDown, Op::WbAck};
  for (uint8_t i = 0; i < 60; ++i) f.send(msg(ops[i % 6], 2, 0, i));
  k.run([] { return false; });
  ASSERT_EQ(a.got.size(), 60u);
  for (uint8_t i = 0; i < 60; ++i) EXPECT_EQ(a.got[i].tag, i);
}

TEST_F(TwoNodes, CountsMessagesAndBytesPerDirectionAndChannel) {
  f.send(msg(Op::RdS, 0, 2));
  f.send(msg(Op::WB, 1, 2));
  f.send(msg(Op::DataE, 2, 0));
  f.send(msg(Op::RdS, 0, 1));
  k.run([] { return false; });
  const LinkStats& up = f.stats(n0, n1);
  EXPECT_EQ(up.chan[unsigned(Chan::Req)].msgs, 2u);
  EXPECT_EQ(up.chan[unsigned(Chan::Req)].bytes, 16u + 144u);
  EXPECT_EQ(up.total_msgs(), 2u);
  const LinkStats& down = f.stats(n1, n0);
  EXPECT_EQ(down.chan[unsigned(Chan::Dat)].msgs, 1u);
  EXPECT_EQ(down.total_bytes(), 144u);
  EXPECT_EQ(f.stats(n0, n0).total_msgs(), 1u);
  EXPECT_THROW(f.stats(n1, 7), std::out_of_range);
}

TEST_F(TwoNodes, ObserversSeeSendAndDeliverTimes) {
  std::vector<std::pair<Op, Time>> sent, delivered;
  f.on_send([&](const Msg& m, Time t) { sent.emplace_back(m.op, t); });
  f.on_deliver([&](const Msg& m, Time t) { delivered.emplace_back(m.op, t); });
  k.at(ns(5), [&] { f.send(msg(Op::Upg, 0, 1)); });
  k.run([] { return false; });
  ASSERT_EQ(sent.size(), 1u);
  ASSERT_EQ(delivered.size(), 1u);
  EXPECT_EQ(sent[0], std::make_pair(Op::Upg, ns(5)));
  EXPECT_EQ(delivered[0], std::make_pair(Op::Upg, ns(25)));
}

TEST_F(TwoNodes, SendToUnattachedAgentThrowsNamingIt) {
  try {
    f.send(msg(Op::RdS, 0, 9));
    FAIL();
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find("agent 9"), std::string::npos) << e.what();
  }
}

TEST(Fabric, HomeOfUnmappedAddressThrowsNamingTheAddress) {
  Kernel k;
  Fabric f(k);
  f.map_home(0x1000'0000, 0x1000, 3);
  EXPECT_EQ(f.home_of(0x1000'0fff), 3);
  try {
    (void)f.home_of(0x2000'0000);
    FAIL();
  } catch (const std::out_of_range& e) {
    EXPECT_NE(std::string(e.what()).find("0x20000000"), std::string::npos) << e.what();
  }
  EXPECT_THROW(f.map_home(0x1000'0800, 0x1000, 4), std::invalid_argument);
}

TEST(Fabric, LinkCreditsLimitMessagesInFlightPerChannel) {
  Kernel k;
  Fabric f(k);
  NodeId x = f.add_node("x", 0, 0), y = f.add_node("y", 0, 0);
  f.connect(x, y, LinkParams{ns(100), 0.0, 2});
  Recorder s(0, k), r(1, k);
  f.attach(s, x);
  f.attach(r, y);
  for (uint8_t i = 0; i < 4; ++i) f.send(msg(Op::RdS, 0, 1, i));
  f.send(msg(Op::SnpAck, 0, 1, 9));  // own channel's credits: not held back... except by order
  k.run([] { return false; });
  ASSERT_EQ(r.when.size(), 5u);
  EXPECT_EQ(r.when[0], ns(100));
  EXPECT_EQ(r.when[1], ns(100));
  // Credits return one latency after arrival: the next pair leaves at 200 ns.
  EXPECT_EQ(r.when[2], ns(300));
  EXPECT_EQ(r.when[3], ns(300));
  // The SnpAck stays behind the older messages of its (src, dst) pair.
  EXPECT_EQ(r.got[4].op, Op::SnpAck);
  EXPECT_EQ(r.when[4], ns(300));
}

TEST(Fabric, RoutesThroughAnIntermediateNode) {
  Kernel k;
  Fabric f(k);
  NodeId n0 = f.add_node("s0", ns(20), ns(10));
  NodeId n1 = f.add_node("s1", ns(20), ns(10));
  NodeId n2 = f.add_node("dev", 0, 0);
  f.connect(n0, n1, LinkParams{ns(150), 0.0, 0});
  f.connect(n0, n2, LinkParams{ns(150), 0.0, 0});
  Recorder core(0, k), dev(1, k);
  f.attach(core, n1);
  f.attach(dev, n2);
  f.send(msg(Op::RdS, 0, 1));
  k.run([] { return false; });
  ASSERT_EQ(dev.when.size(), 1u);
  EXPECT_EQ(dev.when[0], ns(10) + ns(150) + ns(150));
  EXPECT_EQ(f.stats(n1, n0).total_msgs(), 1u);
  EXPECT_EQ(f.stats(n0, n2).total_msgs(), 1u);
}

TEST_F(TwoNodes, MessageTraceWritesOneLinePerDeliveredMessage) {
  std::FILE* out = std::tmpfile();
  ASSERT_NE(out, nullptr);
  const proto::Addr line = 0x1000;
  trace_messages(f, out, &line);
  f.send(msg(Op::RdS, 0, 1));
  Msg other = msg(Op::RdS, 0, 1);
  other.addr = 0x2000;
  f.send(other);
  k.run([] { return false; });
  std::rewind(out);
  char buf[256] = {};
  ASSERT_NE(std::fgets(buf, sizeof buf, out), nullptr);
  EXPECT_NE(std::string(buf).find("20.000 ns  RdS 0->1"), std::string::npos) << buf;
  EXPECT_EQ(std::fgets(buf, sizeof buf, out), nullptr) << "only the traced line";
  std::fclose(out);
}
