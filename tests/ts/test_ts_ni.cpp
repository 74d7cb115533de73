// SPDX-License-Identifier: Apache-2.0
// The tag store's own network interface (docs/tagstore.md, "The integrated network interface"),
// between two nodes of the checking build's `ts` model (enzian-eci at 64-byte lines, the
// coherence checker on in both): messages with and without data dispatched in order with their
// fields, a block filled straight from a received message while a core waits on it, a block sent
// by the engine as it is in memory, the receive queue full (the sender held, nothing lost), bad
// frames counted, and every refused use of the interface's commands.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>
#include <vector>

#include "cni/drv/tagstore.hpp"
#include "device/system.hpp"

namespace cni::test {
namespace {

using drv::Tag;
using drv::TagStore;
using tb::DeviceGeometry;

struct TwoNodes {
  explicit TwoNodes(double corrupt = 0)
      : sys(profile(corrupt),
            [](unsigned, unsigned, tb::SimDevice::Config& c) { c.variant = "ts"; }) {}
  static sim::Profile profile(double corrupt) {
    auto p = sim::Profile::load("enzian-eci");
    p.set("line_bytes", "64");
    p.set("nodes", "2");
    if (corrupt > 0) {
      // one link, so one flipped bit per frame (over the switch's two links a frame whose two
      // flips hit the same bit arrives whole)
      p.set("net.topology", "p2p");
      p.set("net.corrupt_rate", std::to_string(corrupt));
    }
    return p;
  }
  drv::Addr region(unsigned n) { return sys.device(n, 0).region_addr(DeviceGeometry::kTs); }
  uint32_t ni_bad(unsigned n) {
    return sys.device(n, 0).endpoint().csr_read(tb::csr::engine_reg(engines::kEngineTs, 0x68));
  }
  tb::System sys;
};

std::vector<uint8_t> pattern(unsigned seed, unsigned lb = 64) {
  std::vector<uint8_t> d(lb);
  for (unsigned i = 0; i < lb; ++i) d[i] = uint8_t(seed * 29 + i * 7 + 3);
  return d;
}

// Node 0 sends messages of each kind; node 1's handler takes them from its dispatch line in
// order: the handler byte, block, source and data flag as sent, and a block filled from a
// message's data resumes the access parked on it with exactly that data.
TEST(TagStoreNi, MessagesArriveInOrderAndAFillTakesTheDataFromTheQueue) {
  TwoNodes t;
  const unsigned n_msgs = 6;
  bool ready = false, faulted = false, loaded = false;
  std::vector<uint8_t> got(64);
  t.sys.node(1).host().spawn(1, [&](drv::MemoryPort& m) {
    TagStore ts(m, t.region(1));
    ts.set_tag(3, Tag::Invalid);
    ts.sync();
    ready = true;
    // the application core's load of block 3 faults first
    drv::Fault f = ts.wait(100);
    EXPECT_FALSE(f.message);
    EXPECT_EQ(f.block, 3u);
    ts.ack(f);
    faulted = true;
    for (unsigned i = 0; i < n_msgs; ++i) {
      drv::Fault e = ts.wait(100);
      ASSERT_TRUE(e.message && e.ni) << "message " << i;
      EXPECT_EQ(e.src_node, 0u);
      EXPECT_EQ(e.msg_handler, uint8_t(0x80 + i));
      EXPECT_EQ(e.block, 8u + i);
      EXPECT_EQ(e.write, i % 2 == 1) << "odd messages carry data";
      EXPECT_EQ(e.handler, e.write ? 12u : 8u);
      if (i == 3) {
        ts.fill_rx(3, Tag::ReadOnly);  // the data of message 3 into block 3, the load resumed
      } else {
        ts.ack(e);
      }
    }
    ts.sync();
    EXPECT_EQ(ts.refused(), 0u);
    const TagStore::NiCounters c = ts.ni_counters();
    EXPECT_EQ(c.received, n_msgs);
    EXPECT_EQ(c.sent, 0u);
  });
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    while (!ready) m.pause_ns(50);
    TagStore ts(m, t.region(1));
    m.load(ts.block_addr(3), got.data(), got.size());
    loaded = true;
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    while (!faulted) m.pause_ns(50);  // the fault is dispatched first
    TagStore ts(m, t.region(0));
    for (unsigned i = 0; i < n_msgs; ++i) {
      if (i % 2) {
        ts.send(1, uint8_t(0x80 + i), 8 + i, pattern(i));
      } else {
        ts.send(1, uint8_t(0x80 + i), 8 + i);
      }
    }
    ts.sync();
    EXPECT_EQ(ts.refused(), 0u);
    EXPECT_EQ(ts.ni_counters().sent, n_msgs);
  });
  t.sys.run_programs();
  EXPECT_TRUE(loaded);
  EXPECT_EQ(got, pattern(3));
  for (unsigned n = 0; n < 2; ++n) {
    EXPECT_TRUE(t.sys.checker(n).errors().empty()) << "node " << n;
    EXPECT_EQ(t.ni_bad(n), 0u);
  }
}

// A block sent by the engine (READ, then SEND with the line buffer) is the block as node 0's
// core last wrote it, though the core holds it dirty in its cache; node 1 writes it into its own
// block with the rx flag, and a load there reads it. The receive queue (4 messages) fills while
// node 1's handler waits: the sender's next frames are held in the network, and all 12 arrive,
// in order, none lost.
TEST(TagStoreNi, ABlockSentByTheEngineIsTheCoresLatestAndAFullQueueLosesNothing) {
  TwoNodes t;
  const unsigned n_msgs = 12;
  bool sent = false, written = false;
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    TagStore ts(m, t.region(0));
    const std::vector<uint8_t> v = pattern(40);
    m.store(ts.block_addr(5), v.data(), v.size());  // dirty in this core's cache
    m.barrier();
    for (unsigned i = 0; i < n_msgs; ++i) ts.send_block(1, uint8_t(0x10 + i), 5);
    ts.sync();
    sent = true;
    EXPECT_EQ(ts.refused(), 0u);
  });
  t.sys.node(1).host().spawn(1, [&](drv::MemoryPort& m) {
    TagStore ts(m, t.region(1));
    while (!sent || ts.ni_counters().received < 4) m.pause_ns(200);
    m.pause_ns(5000);
    EXPECT_EQ(ts.ni_counters().received, 4u) << "the queue holds 4; the rest wait";
    for (unsigned i = 0; i < n_msgs; ++i) {
      drv::Fault e = ts.wait(100);
      ASSERT_TRUE(e.ni);
      EXPECT_EQ(e.msg_handler, uint8_t(0x10 + i));
      EXPECT_TRUE(e.write);
      ts.write_rx(i % 2 ? 6 : 7);
    }
    ts.sync();
    EXPECT_EQ(ts.refused(), 0u);
    EXPECT_EQ(ts.ni_counters().received, n_msgs);
    written = true;
  });
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    while (!written) m.pause_ns(200);
    TagStore ts(m, t.region(1));
    std::vector<uint8_t> got(64);
    for (uint32_t b : {6u, 7u}) {
      m.load(ts.block_addr(b), got.data(), got.size());
      EXPECT_EQ(got, pattern(40)) << "block " << b;
    }
  });
  t.sys.run_programs();
  for (unsigned n = 0; n < 2; ++n) EXPECT_TRUE(t.sys.checker(n).errors().empty()) << "node " << n;
}

// Every frame corrupted on the wire: each arrives with its FCS failed and is dropped, by the
// interface (NI_BAD) or, when the flipped bit is in the type byte, by the device's switch (a type
// nobody owns); none is dispatched.
TEST(TagStoreNi, FramesWhoseFcsFailedAreDroppedAndCounted) {
  TwoNodes t(1.0);
  const unsigned n_msgs = 8;
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    TagStore ts(m, t.region(0));
    for (unsigned i = 0; i < n_msgs; ++i) ts.send(1, 0x20, i, pattern(i));
    ts.sync();
    m.pause_ns(20000);
  });
  t.sys.run_programs();
  auto& ep = t.sys.device(1, 0).endpoint();
  const uint32_t dropped = ep.counter(tb::csr::kNetDropped);
  std::printf("8 corrupted frames at node 1: %u dropped by the interface, %u by the switch\n",
              t.ni_bad(1), dropped);
  EXPECT_EQ(t.ni_bad(1) + dropped, n_msgs);
  EXPECT_EQ(ep.csr_read(tb::csr::engine_reg(engines::kEngineTs, 0x64)), 0u) << "none received";
}

// The interface's commands refused, each counted and changing nothing: the rx flag with a
// message without data dispatched, or with none (NO_RX); SEND to this node (BAD_DST); the rx flag
// on a READ, or with the line flag (BAD_OP).
TEST(TagStoreNi, MisusedCommandsAreRefusedAndCounted) {
  TwoNodes t;
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    TagStore ts(m, t.region(1));
    ts.send(0, 0x30, 9);
    ts.sync();
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    TagStore ts(m, t.region(0));
    const std::vector<uint8_t> line = pattern(1);
    ts.write(2, line);
    ts.sync();
    drv::Fault e = ts.wait(100);
    ASSERT_TRUE(e.ni);
    EXPECT_FALSE(e.write) << "no data";
    ts.write_rx(2);  // its ack flag acts only if the command is carried out
    ts.sync();
    EXPECT_EQ(ts.last_cause(), 10u) << "NO_RX: the message has no data";
    ts.ack(e);
    ts.write_rx(2);
    ts.sync();
    EXPECT_EQ(ts.last_cause(), 10u) << "NO_RX: no message dispatched";
    ts.send(0, 0x30, 2);
    ts.sync();
    EXPECT_EQ(ts.last_cause(), 9u) << "BAD_DST";
    EXPECT_EQ(ts.refused(), 3u);
    // the raw command words: rx on READ, rx with the line flag on WRITE
    m.uncached_store64(t.region(0) + 0x08, 1 | 1u << 9 | uint64_t(2) << 32);
    m.uncached_store64(t.region(0) + 0x08, 2 | 1u << 8 | 1u << 9 | uint64_t(2) << 32);
    ts.sync();
    EXPECT_EQ(ts.last_cause(), 2u) << "BAD_OP";
    EXPECT_EQ(ts.refused(), 5u);
    EXPECT_EQ(ts.ni_counters().sent, 0u);
    EXPECT_EQ(ts.ni_counters().received, 1u);
    std::vector<uint8_t> got(64);
    ts.read(2, got);
    EXPECT_EQ(got, line) << "the block unchanged";
  });
  t.sys.run_programs();
}

}  // namespace
}  // namespace cni::test
