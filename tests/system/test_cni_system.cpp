// SPDX-License-Identifier: Apache-2.0
// The CNI engine (CNI16Q in the checking build, CNI16Qm in its pipelined configuration, CNI4 in a
// variant of the checking build at 64-byte lines) between
// simulated nodes, driven by host cores through cni::drv::CniEndpoint (docs/cni.md section 7):
// active messages of every size, split into fragments and reassembled, exactly once and in order
// per (source, destination), with the network model between the devices (and, in the 16-node
// stress, the coherence checker on every node); the driver's answers to bad input; CNI16Qm's
// receive queue overflowing the device cache into host memory; CNI4's virtual polling taking a
// TX CDR back while the CPU is still writing it, and its RX CDRs reused with no false hit.
#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cni/drv/cni.hpp"
#include "coherence_checker.hpp"
#include "device/cni_options.hpp"
#include "fixture.hpp"

namespace cni::test {
namespace {

// The simulated time a run may take: 20 times the longest of these runs (CNI4's four nodes all to
// all at 64-byte lines: 0.25 ms), so a message that never arrives fails its test in seconds
// instead of spinning its receiver until CTest's timeout.
const sim::Time kRunLimit = sim::ns(5e6);

// The configuration of the CNI engine the device carries, and its receive queue's slots.
drv::CniConfig cni_config(tb::SimDevice& d) { return drv::CniConfig(tb::cni_id(d.endpoint()) & 0xf); }
unsigned cni_rq_slots(tb::SimDevice& d) { return unsigned(tb::cni_id(d.endpoint()) >> 48); }

std::vector<uint8_t> payload(size_t n, unsigned seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; i++) v[i] = uint8_t(seed * 131 + i * 7 + (i >> 8));
  return v;
}

// A program's exception, kept to fail the test after the run.
struct Errors {
  std::vector<std::string> what;
  template <class F>
  void guard(F&& f) {
    try {
      f();
    } catch (const std::exception& e) {
      what.push_back(e.what());
    }
  }
  void check() const {
    for (const auto& w : what) ADD_FAILURE() << w;
  }
};

// CNI4 is a variant of the checking build's device model at 64-byte lines (tb/rtl_endpoint.cmake).
bool have_cni4() { return test_line_bytes() == 64 && tb::Endpoint::has_model(64, "c4"); }
// Why a CNI4 test skips: the build and line size it ran on.
std::string no_cni4() {
  return std::string("CNI4 is a variant of the checking build's model at 64-byte lines only (this "
                     "is the ") +
         tb::built_flavor() + " build at " + std::to_string(test_line_bytes()) + "-byte lines)";
}
sim::Profile cni4_profile(std::vector<std::string> sets) {
  sets.push_back("device.cni=CNI4");
  return profile(std::move(sets));
}

// One of a device's CNI engine counters, read through the CSR window.
uint32_t cni_counter(tb::SimDevice& d, drv::CniCounter c) {
  return d.endpoint().csr_read(
      tb::csr::engine_reg(tb::kCniEngine, 0x80 + 4 * static_cast<unsigned>(c)));
}

// Two nodes send each other messages of every size (0 B to 4 KiB, one to 17 fragments), and each
// receives them intact and in order.
void every_size_both_ways(tb::System& s) {
  const std::vector<size_t> sizes = {0, 1, 8, 52, 100, 244, 245, 488, 1000, 4096};
  std::vector<std::vector<uint8_t>> got[2];
  std::vector<uint16_t> from[2];
  const drv::CniConfig cfg = cni_config(s.device(0, 0));
  Errors err;
  for (unsigned n = 0; n < 2; n++) {
    s.node(n).host().spawn(0, [&, n](drv::MemoryPort& m) {
      err.guard([&] {
        drv::CniEndpoint ep(m, tb::cni_options(s.device(n, 0), 2));
        EXPECT_EQ(ep.config(), cfg);
        EXPECT_EQ(ep.node(), n);
        ep.set_handler(7, [&, n](uint16_t src, std::span<const uint8_t> d) {
          got[n].emplace_back(d.begin(), d.end());
          from[n].push_back(src);
        });
        for (unsigned k = 0; k < sizes.size(); k++) ep.send(1 - n, 7, payload(sizes[k], k + 10 * n));
        while (got[n].size() < sizes.size()) ep.recv();
        ep.close();
      });
    });
  }
  s.run_programs(kRunLimit);
  err.check();
  for (unsigned n = 0; n < 2; n++) {
    ASSERT_EQ(got[n].size(), sizes.size()) << "node " << n;
    for (unsigned k = 0; k < sizes.size(); k++) {
      EXPECT_EQ(got[n][k], payload(sizes[k], k + 10 * (1 - n))) << "node " << n << " message " << k;
      EXPECT_EQ(from[n][k], 1 - n);
    }
    EXPECT_FALSE(s.device(n, 0).endpoint().got_error()) << "node " << n;
  }
}

TEST(CniSystem, MessagesOfEverySizeCrossBothWaysIntactAndInOrder) {
  tb::System s(profile({"nodes=2", "net.topology=p2p"}), test_devices());
  if (s.device(0, 0).geometry().regions[tb::DeviceGeometry::kCni].lines == 0)
    GTEST_SKIP() << "the " << tb::built_flavor() << " build's device model has no CNI engine";
  const drv::CniConfig cfg = cni_config(s.device(0, 0));
  EXPECT_TRUE(cfg == drv::CniConfig::Cni16Q || cfg == drv::CniConfig::Cni16Qm);
  every_size_both_ways(s);
}

// CNI4: the payload in the TX CDRs, taken back by virtual polling; the RX CDRs written under their
// locks and given back by the explicit clear.
TEST(CniSystem, Cni4MessagesOfEverySizeCrossBothWaysIntactAndInOrder) {
  if (!have_cni4()) GTEST_SKIP() << no_cni4();
  tb::System s(cni4_profile({"nodes=2", "net.topology=p2p"}), test_devices());
  ASSERT_EQ(cni_config(s.device(0, 0)), drv::CniConfig::Cni4);
  every_size_both_ways(s);
  for (unsigned n = 0; n < 2; n++) {
    // fragments: six sizes of one, 245 and 488 B of two, 1000 B of five, 4096 B of 17
    EXPECT_EQ(cni_counter(s.device(n, 0), drv::CniCounter::TxMessages), 32u) << "node " << n;
    EXPECT_GT(cni_counter(s.device(n, 0), drv::CniCounter::Pulls), 0u) << "node " << n;
    EXPECT_GT(cni_counter(s.device(n, 0), drv::CniCounter::LockedWrites), 0u) << "node " << n;
  }
}

// Traffic among the nodes of `s`: node n sends plan[n] in order (destination, bytes) with
// non-blocking sends, polling between them and pausing at random; each message carries its
// sequence number per (source, destination) and bytes that depend on both ends and on it. Every
// node runs until it has sent its plan and received what the plan sends it; a handler that finds
// a message corrupt fails the test. Returns received[dst][src]: the sequence numbers, in order.
struct Send {
  unsigned to = 0;
  size_t bytes = 0;
};
using Plan = std::vector<std::vector<Send>>;

std::vector<uint8_t> body(unsigned src, unsigned to, uint32_t seq, size_t n) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; i++) v[i] = uint8_t(src * 29 + to * 13 + seq * 7 + i);
  std::memcpy(v.data(), &seq, 4);
  return v;
}

struct Traffic {
  std::vector<std::map<unsigned, std::vector<uint32_t>>> received;  // [dst][src]: sequence numbers
  uint64_t window_waits = 0, room_waits = 0;  // the engines' counters, summed over the nodes
  uint64_t local = 0;                         // ... and the messages they delivered locally
};

Traffic run_traffic(tb::System& s, const Plan& plan, uint64_t seed) {
  const unsigned nodes = unsigned(plan.size());
  std::vector<unsigned> expect(nodes, 0);
  for (const auto& sends : plan)
    for (const Send& x : sends) expect[x.to]++;
  Traffic t;
  auto& received = t.received;
  received.resize(nodes);
  Errors err;
  for (unsigned n = 0; n < nodes; n++) {
    s.node(n).host().spawn(0, [&, n](drv::MemoryPort& m) {
      err.guard([&] {
        drv::CniEndpoint ep(m, tb::cni_options(s.device(n, 0), nodes));
        unsigned in = 0;
        ep.set_handler(1, [&](uint16_t src, std::span<const uint8_t> d) {
          uint32_t seq = 0;
          std::memcpy(&seq, d.data(), 4);
          if (std::vector<uint8_t>(d.begin(), d.end()) != body(src, n, seq, d.size()))
            throw std::runtime_error("message " + std::to_string(seq) + " from node " +
                                     std::to_string(src) + " to node " + std::to_string(n) +
                                     " is corrupt");
          received[n][src].push_back(seq);
          in++;
        });
        std::mt19937 rng(unsigned(seed * 100 + n));
        std::vector<uint32_t> seq(nodes, 0);
        size_t next = 0;
        while (next < plan[n].size() || in < expect[n]) {
          if (next < plan[n].size()) {
            const Send& x = plan[n][next];
            if (ep.try_send(uint16_t(x.to), 1, body(n, x.to, seq[x.to], x.bytes)) !=
                drv::SendResult::WouldBlock) {
              seq[x.to]++;
              next++;
            }
          }
          ep.poll();
          if (rng() % 3 == 0) m.pause_ns(20 + rng() % 200);
        }
        ep.close();
        t.window_waits += ep.counter(drv::CniCounter::WindowWaits);
        t.room_waits += ep.counter(drv::CniCounter::RoomWaits);
        t.local += ep.counter(drv::CniCounter::LocalDeliveries);
      });
    });
  }
  s.run_programs(kRunLimit);
  err.check();
  return t;
}

// What each destination must have received from each source: 0 … count-1.
void expect_exactly_once_in_order(tb::System& s, const Plan& plan, const Traffic& t) {
  const auto& got = t.received;
  for (unsigned d = 0; d < plan.size(); d++) {
    std::map<unsigned, uint32_t> sent;
    for (unsigned n = 0; n < plan.size(); n++)
      for (const Send& x : plan[n])
        if (x.to == d) sent[n]++;
    for (const auto& [src, count] : sent) {
      std::vector<uint32_t> want(count);
      for (uint32_t k = 0; k < count; k++) want[k] = k;
      const auto it = got[d].find(src);
      EXPECT_EQ(it == got[d].end() ? std::vector<uint32_t>{} : it->second, want)
          << "from " << src << " to " << d;
    }
    EXPECT_EQ(got[d].size(), sent.size()) << "node " << d << " heard from a node that sent it nothing";
    EXPECT_FALSE(s.device(d, 0).endpoint().got_error()) << "node " << d;
  }
}

// Four nodes, every node sending bursts of 12 messages to every node, itself included, all at
// once: windows and receive queues fill (the engines count messages that waited for the window
// and frames that waited for receive room), a node's messages to itself are delivered without
// the network (docs/cni.md section 6, "Local delivery"), and nothing deadlocks.
void all_to_all(tb::System& s) {
  constexpr unsigned kNodes = 4, kPerPair = 12;
  Plan plan(kNodes);
  std::mt19937 rng(1);
  for (unsigned n = 0; n < kNodes; n++) {   // to each node in turn, in bursts of 12
    std::vector<unsigned> order;
    for (unsigned to = 0; to < kNodes; to++) order.push_back(to);
    std::shuffle(order.begin(), order.end(), rng);
    for (unsigned to : order)
      for (unsigned k = 0; k < kPerPair; k++) plan[n].push_back({to, 4 + (k * 37) % 600});
  }
  const Traffic t = run_traffic(s, plan, 1);
  expect_exactly_once_in_order(s, plan, t);
  EXPECT_GT(t.window_waits, 0u);
  EXPECT_GT(t.room_waits, 0u);
  EXPECT_GE(t.local, kNodes * kPerPair);   // one fragment or more per message to itself
}

TEST(CniSystem, FourNodesAllToAllWithNonBlockingSendsDeliverExactlyOnceInOrder) {
  tb::System s(profile({"nodes=4", "net.topology=switch"}), test_devices());
  if (s.device(0, 0).geometry().regions[tb::DeviceGeometry::kCni].lines == 0)
    GTEST_SKIP() << "the " << tb::built_flavor() << " build's device model has no CNI engine";
  all_to_all(s);
}

TEST(CniSystem, Cni4FourNodesAllToAllWithNonBlockingSendsDeliverExactlyOnceInOrder) {
  if (!have_cni4()) GTEST_SKIP() << no_cni4();
  tb::System s(cni4_profile({"nodes=4", "net.topology=switch"}), test_devices());
  all_to_all(s);
}

// Seeded random traffic among 16 nodes (CNI_SEED picks the seed, CNI_CNI_MESSAGES the messages
// per node): every node sends to random destinations (itself included: local delivery) messages
// of random sizes (one to three fragments), so windows fill and queues wrap; every message arrives exactly once, intact and in
// order per (source, destination). A coherence checker on every node watches the CNI region
// (and CNI16Qm's receive queue in host memory): single writer on every state change of the host's
// caches and the device cache, every core load against a shadow that follows the cores' stores,
// the engine's port-B writes (a locked write while a cache still holds the line readable is an
// error) and its writes in the device cache.
void sixteen_nodes_under_the_checker(tb::System& s) {
  constexpr unsigned kNodes = 16;
  const char* seed_env = std::getenv("CNI_SEED");
  const char* n_env = std::getenv("CNI_CNI_MESSAGES");
  const uint64_t seed = seed_env ? std::strtoull(seed_env, nullptr, 0) : 1;
  const unsigned per_node = n_env ? unsigned(std::strtoul(n_env, nullptr, 0)) : 24;
  std::mt19937_64 rng(seed);
  Plan plan(kNodes);
  for (unsigned n = 0; n < kNodes; n++)
    for (unsigned i = 0; i < per_node; i++)
      plan[n].push_back({unsigned(rng() % kNodes), 8 + rng() % 700});   // itself included
  const unsigned lb = s.device(0, 0).geometry().line_bytes;
  std::vector<std::unique_ptr<tb::CoherenceChecker>> chk;
  for (unsigned n = 0; n < kNodes; n++) {
    chk.push_back(std::make_unique<tb::CoherenceChecker>(lb));
    tb::SimDevice& d = s.device(n, 0);
    chk[n]->watch(tb::cni_options(d, kNodes).region_base,
                  proto::Addr(d.geometry().regions[tb::DeviceGeometry::kCni].lines) * lb,
                  /*zero_init=*/true);
    if (cni_config(d) == drv::CniConfig::Cni16Qm)
      chk[n]->watch(tb::cni_options(d, kNodes).rq_host_base,
                    proto::Addr(1 + cni_rq_slots(d) * (256 / lb)) * lb, /*zero_init=*/true);
    s.node(n).host().set_observer(chk[n].get());
    d.set_observer(chk[n].get());
  }
  const Traffic t = run_traffic(s, plan, seed);
  expect_exactly_once_in_order(s, plan, t);
  unsigned to_self = 0;
  for (unsigned n = 0; n < kNodes; n++)
    for (const Send& x : plan[n]) to_self += x.to == n;
  EXPECT_GE(t.local, to_self);
  for (unsigned n = 0; n < kNodes; n++) {
    EXPECT_TRUE(chk[n]->errors().empty()) << "node " << n << ": " << chk[n]->errors().front();
    EXPECT_GT(chk[n]->loads_checked(), 0u) << "node " << n;
    EXPECT_GT(chk[n]->stores_seen(), 0u) << "node " << n;
  }
}

TEST(CniSystem, SixteenNodesRandomTrafficUnderTheCoherenceCheckerDeliversExactlyOnceInOrder) {
  tb::System s(profile({"nodes=16", "net.topology=switch"}), test_devices());
  if (s.device(0, 0).geometry().regions[tb::DeviceGeometry::kCni].lines == 0)
    GTEST_SKIP() << "the " << tb::built_flavor() << " build's device model has no CNI engine";
  sixteen_nodes_under_the_checker(s);
}

// The same with the caching agents' idle clean at 4 cycles (docs/cache-agent.md): CNI16Qm's
// device caches write back every line the CPU has read as soon as they are quiet, racing the
// CPUs' reads of the next lines and the engine's next writes. CNI16Qm only (the other
// configurations do not use the caching agent).
TEST(CniSystem, Cni16QmWithTheIdleCleanSixteenNodesUnderTheCoherenceCheckerDeliversExactlyOnce) {
  tb::System s(profile({"nodes=16", "net.topology=switch", "device.ca_clean_cycles=4"}),
               test_devices());
  if (s.device(0, 0).geometry().regions[tb::DeviceGeometry::kCni].lines == 0 ||
      cni_config(s.device(0, 0)) != drv::CniConfig::Cni16Qm)
    GTEST_SKIP() << "the caching agent's lines are CNI16Qm's";
  sixteen_nodes_under_the_checker(s);
  uint64_t wbs = 0;
  for (unsigned n = 0; n < 16; n++) wbs += s.device(n, 0).endpoint().counter(tb::csr::kCaWritebacks);
  EXPECT_GT(wbs, 0u) << "no line was written back";
}

TEST(CniSystem, Cni4SixteenNodesRandomTrafficUnderTheCoherenceCheckerDeliversExactlyOnceInOrder) {
  if (!have_cni4()) GTEST_SKIP() << no_cni4();
  tb::System s(cni4_profile({"nodes=16", "net.topology=switch"}), test_devices());
  sixteen_nodes_under_the_checker(s);
}

// 000 section 2.1, virtual polling: the device reads a TX CDR back after the CPU's ownership
// request, after a programmable back-off, even while the CPU is still writing it. Node 0's CPU
// writes messages of two to four lines straight into the CDRs, eight bytes at a time with random
// pauses (up to 1.5 us) between the stores, the valid word last after a barrier, under back-offs
// of 0, 3, 16 and 64 device cycles: the engine pulls lines mid-write, finds T0's valid word old
// (the race row, counted), and still sends every message exactly as written, once, in order.
TEST(CniSystem, Cni4VirtualPollingPullsMidWriteNeverSendATornMessage) {
  if (!have_cni4()) GTEST_SKIP() << no_cni4();
  tb::System s(cni4_profile({"nodes=2", "net.topology=p2p"}), test_devices());
  constexpr unsigned kLb = 64, kPer = 6;
  const std::vector<uint16_t> backoffs = {0, 3, 16, 64};
  const unsigned total = unsigned(backoffs.size()) * kPer;
  auto bytes = [](uint32_t k) { return size_t(60 + (k * 41) % 180); };   // two to four lines
  std::vector<uint32_t> order;
  Errors err;
  s.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    err.guard([&] {
      const drv::CniOptions o = tb::cni_options(s.device(0, 0), 2);
      drv::CniEndpoint ep(m, o);   // opens the endpoint; the CDRs are written by hand below
      const drv::Addr t0 = o.region_base + 4 * kLb;
      std::mt19937 rng(7);
      uint32_t seq = uint32_t(m.uncached_load64(o.region_base + 0x58));
      uint32_t k = 0;
      for (uint16_t bo : backoffs) {
        m.uncached_store64(o.region_base + 0x10, bo | uint64_t(64) << 16 | uint64_t(0x4000) << 32);
        for (unsigned i = 0; i < kPer; i++, k++) {
          // the CDRs are free when the engine expects our valid word and its queue has room
          for (;;) {
            const uint64_t v = m.uncached_load64(o.region_base + 0x58);
            if (uint32_t(v) == seq && (v >> 32 & 1)) break;
            m.pause_ns(100);
          }
          const std::vector<uint8_t> d = body(0, 1, k, bytes(k));
          const unsigned n = unsigned((12 + d.size() + kLb - 1) / kLb);
          std::vector<uint8_t> img(size_t(n) * kLb, 0);
          img[1] = 3;   // FIRST | LAST
          img[2] = uint8_t(d.size());
          img[3] = uint8_t(d.size() >> 8);
          img[4] = 1;   // to node 1
          img[6] = 1;   // handler 1
          std::memcpy(&img[12], d.data(), d.size());
          // the payload lines first, then T0 but its valid word (bytes 8-11)
          for (unsigned l = 1; l <= n; l++) {
            const unsigned line = l % n;
            for (unsigned w = 0; w < kLb / 8; w++) {
              const unsigned off = line * kLb + 8 * w;
              if (line == 0 && w == 1) m.store(t0 + 12, &img[12], 4);
              else m.store(t0 + off, &img[off], 8);
              if (rng() % 4 == 0) m.pause_ns(rng() % 1500);
            }
          }
          m.barrier();
          m.store(t0 + 8, reinterpret_cast<const uint8_t*>(&seq), 4);
          seq = seq + 1 == 0 ? 1 : seq + 1;
        }
      }
      EXPECT_GT(ep.counter(drv::CniCounter::VirtualPollOld), 0u)
          << "no pull found T0's valid word old: the race was not exercised";
      EXPECT_GT(ep.counter(drv::CniCounter::Pulls), uint32_t(total) * 2);
      EXPECT_EQ(ep.counter(drv::CniCounter::TxMessages), total);
    });
  });
  s.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    err.guard([&] {
      drv::CniEndpoint ep(m, tb::cni_options(s.device(1, 0), 2));
      ep.set_handler(1, [&](uint16_t src, std::span<const uint8_t> d) {
        uint32_t k = 0;
        std::memcpy(&k, d.data(), 4);
        if (src != 0 || std::vector<uint8_t>(d.begin(), d.end()) != body(0, 1, k, bytes(k)))
          throw std::runtime_error("message " + std::to_string(k) + " arrived torn");
        order.push_back(k);
      });
      while (order.size() < total) ep.recv();
    });
  });
  s.run_programs(kRunLimit);
  err.check();
  std::vector<uint32_t> want(total);
  for (uint32_t k = 0; k < total; k++) want[k] = k;
  EXPECT_EQ(order, want);
  for (unsigned n = 0; n < 2; n++) EXPECT_FALSE(s.device(n, 0).endpoint().got_error()) << n;
}

// 000 sections 2.1 and 3, the explicit clear: after the CPU gives the RX CDRs back, a read of R0
// before the next message is ready (a driver bug: it caches the old message) must not make the
// next message look like the old one. The receiver reads R0 straight after every clear; some of
// those reads return the message just taken (a stale copy now in its cache), and yet every
// message is received once and in order: the next message's locked write invalidates the copy.
TEST(CniSystem, Cni4ACdrReadBetweenTheClearAndTheNextMessageIsNoFalseHit) {
  if (!have_cni4()) GTEST_SKIP() << no_cni4();
  tb::System s(cni4_profile({"nodes=2", "net.topology=p2p"}), test_devices());
  constexpr unsigned kMessages = 40, kLb = 64;
  std::vector<uint32_t> order;
  unsigned stale = 0;
  Errors err;
  s.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    err.guard([&] {
      drv::CniEndpoint ep(m, tb::cni_options(s.device(0, 0), 2));
      for (uint32_t k = 0; k < kMessages; k++) ep.send(1, 1, body(0, 1, k, 20));   // one line
      ep.close();
    });
  });
  s.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    err.guard([&] {
      const drv::CniOptions o = tb::cni_options(s.device(1, 0), 2);
      drv::CniEndpoint ep(m, o);
      ep.set_handler(1, [&](uint16_t, std::span<const uint8_t> d) {
        uint32_t k = 0;
        std::memcpy(&k, d.data(), 4);
        if (std::vector<uint8_t>(d.begin(), d.end()) != body(0, 1, k, d.size()))
          throw std::runtime_error("message " + std::to_string(k) + " is corrupt");
        order.push_back(k);
      });
      const drv::Addr r0 = o.region_base + 8 * kLb;
      while (order.size() < kMessages) {
        ep.recv();   // ... ends with the clear
        uint8_t line[kLb];
        m.load(r0, line, kLb);   // the early read: a copy of whatever R0 holds now
        uint32_t k = 0;
        std::memcpy(&k, &line[12], 4);
        if (k == order.back() && line[2] == 20) stale++;
      }
    });
  });
  s.run_programs(kRunLimit);
  err.check();
  std::vector<uint32_t> want(kMessages);
  for (uint32_t k = 0; k < kMessages; k++) want[k] = k;
  EXPECT_EQ(order, want);
  EXPECT_GT(stale, 0u) << "no early read found the old message: the case was not exercised";
  for (unsigned n = 0; n < 2; n++) EXPECT_FALSE(s.device(n, 0).endpoint().got_error()) << n;
}

TEST(CniSystem, BadInputGetsAClearErrorAndTakesNothing) {
  tb::System s(profile({"nodes=2", "net.topology=p2p"}), test_devices());
  if (s.device(0, 0).geometry().regions[tb::DeviceGeometry::kCni].lines == 0)
    GTEST_SKIP() << "the " << tb::built_flavor() << " build's device model has no CNI engine";
  std::vector<std::string> caught;
  s.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    drv::CniOptions o = tb::cni_options(s.device(0, 0), 2);
    o.max_message_bytes = 1000;
    drv::CniEndpoint ep(m, o);
    try {
      ep.send(1, 1, std::vector<uint8_t>(1001));
    } catch (const std::invalid_argument& e) {
      caught.push_back(e.what());
    }
    try {
      ep.send(2, 1, std::vector<uint8_t>(8));
    } catch (const std::invalid_argument& e) {
      caught.push_back(e.what());
    }
    ep.close();
    try {
      ep.send(1, 1, std::vector<uint8_t>(8));
    } catch (const std::logic_error& e) {
      caught.push_back(e.what());
    }
    EXPECT_EQ(ep.stats().fragments_sent, 0u);
  });
  s.run_programs(kRunLimit);
  ASSERT_EQ(caught.size(), 3u);
  EXPECT_NE(caught[0].find("1001"), std::string::npos) << caught[0];
  EXPECT_NE(caught[0].find("1000"), std::string::npos) << caught[0];
  EXPECT_NE(caught[1].find("node 2"), std::string::npos) << caught[1];
  EXPECT_NE(caught[2].find("after close"), std::string::npos) << caught[2];
  EXPECT_EQ(s.network().port_stats(0).tx_frames, 0u);
}

TEST(CniSystem, AMessageForAHandlerNobodySetIsAnErrorNamingIt) {
  tb::System s(profile({"nodes=2", "net.topology=p2p"}), test_devices());
  if (s.device(0, 0).geometry().regions[tb::DeviceGeometry::kCni].lines == 0)
    GTEST_SKIP() << "the " << tb::built_flavor() << " build's device model has no CNI engine";
  std::string what;
  s.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    drv::CniEndpoint ep(m, tb::cni_options(s.device(0, 0), 2));
    ep.send(1, 42, std::vector<uint8_t>(10));
    ep.close();
  });
  s.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    drv::CniEndpoint ep(m, tb::cni_options(s.device(1, 0), 2));
    try {
      ep.recv();
    } catch (const std::runtime_error& e) {
      what = e.what();
    }
  });
  s.run_programs(kRunLimit);
  EXPECT_NE(what.find("handler 42"), std::string::npos) << what;
  EXPECT_NE(what.find("node 0"), std::string::npos) << what;
}

// CNI16Qm (000 section 2.3): the receiver's CPU stops reading while 100 messages of two to
// four lines arrive, far more than the 16-line device cache holds, so the caching agent writes
// the unconsumed lines back to host memory (overflow: at least every line beyond 16 leaves the
// cache dirty); the CPU then reads all 100, exactly once and in order. (The device cache serving
// a CPU's read of a line it still holds is CniPort.Cni16QmWritesTheHostQueue... in tests/rtl.)
TEST(CniSystem, Cni16QmOverflowsToHostMemoryAndEveryMessageIsReadOnceInOrder) {
  tb::System s(profile({"nodes=2", "net.topology=p2p"}), test_devices());
  if (s.device(0, 0).geometry().regions[tb::DeviceGeometry::kCni].lines == 0 ||
      cni_config(s.device(0, 0)) != drv::CniConfig::Cni16Qm)
    GTEST_SKIP() << "the host-homed receive queue is CNI16Qm's";
  constexpr unsigned kMessages = 100;
  ASSERT_LE(kMessages, cni_rq_slots(s.device(1, 0)));
  const unsigned lb = s.device(0, 0).geometry().line_bytes;
  const tb::DeviceGeometry& g = s.device(1, 0).geometry();
  auto bytes = [](uint32_t k) { return size_t(60 + (k * 53) % 180); };
  uint64_t lines = 0;
  for (uint32_t k = 0; k < kMessages; k++) lines += (12 + bytes(k) + lb - 1) / lb;
  ASSERT_GT(lines, uint64_t(g.ca_sets) * g.ca_ways);
  std::vector<uint32_t> order;
  bool read_all = false;
  Errors err;
  s.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    err.guard([&] {
      drv::CniEndpoint ep(m, tb::cni_options(s.device(0, 0), 2));
      for (uint32_t k = 0; k < kMessages; k++) ep.send(1, 1, body(0, 1, k, bytes(k)));
      while (!read_all) m.pause_ns(1000);
      ep.close();
    });
  });
  s.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    err.guard([&] {
      drv::CniEndpoint ep(m, tb::cni_options(s.device(1, 0), 2));
      ep.set_handler(1, [&](uint16_t src, std::span<const uint8_t> d) {
        uint32_t seq = 0;
        std::memcpy(&seq, d.data(), 4);
        if (std::vector<uint8_t>(d.begin(), d.end()) != body(src, 1, seq, d.size()))
          throw std::runtime_error("message " + std::to_string(seq) + " is corrupt");
        order.push_back(seq);
      });
      // wait, reading nothing, until every frame has been taken into the host queue
      while (ep.counter(drv::CniCounter::RxFrames) < kMessages) m.pause_ns(2000);
      m.pause_ns(5000);
      for (unsigned k = 0; k < kMessages; k++) ep.recv();
      EXPECT_FALSE(ep.device_error());
      EXPECT_EQ(ep.counter(drv::CniCounter::RqErrors), 0u);
      read_all = true;
      ep.close();
    });
  });
  s.run_programs(kRunLimit);
  err.check();
  std::vector<uint32_t> want(kMessages);
  for (uint32_t k = 0; k < kMessages; k++) want[k] = k;
  EXPECT_EQ(order, want);
  EXPECT_GE(s.device(1, 0).endpoint().counter(tb::csr::kCaWritebacks),
            lines - uint64_t(g.ca_sets) * g.ca_ways)
      << "the device cache did not overflow into host memory";
  for (unsigned n = 0; n < 2; n++) EXPECT_FALSE(s.device(n, 0).endpoint().got_error()) << n;
}

// Building a system of profile `name` with `sets` throws std::invalid_argument naming every one
// of `names`.
void expect_refused(const std::string& name, const std::vector<std::string>& sets,
                    const std::vector<std::string>& names) {
  sim::Profile p = sim::Profile::load(name);
  for (const auto& kv : sets) p.set(kv);
  try {
    tb::System s(p);
    ADD_FAILURE() << "a system of " << name << " was built";
  } catch (const std::invalid_argument& e) {
    const std::string what = e.what();
    for (const auto& n : names) EXPECT_NE(what.find(n), std::string::npos) << n << ": " << what;
  }
}

// CA_CLEAN holds 16 bits.
TEST(CniSystem, AnIdleCleanBeyondItsRegisterIsRefusedNamingTheKey) {
  expect_refused("mbus-1996", {"device.ca_clean_cycles=70000"},
                 {"device.ca_clean_cycles", "70000"});
}

// The configuration names are the engine registry's (engines::kCniConfigNames), in any case: an
// unknown one is refused naming them; a known one in another case is accepted.
TEST(CniSystem, AnUnknownCniConfigurationIsRefusedNamingTheRegistrysOnes) {
  expect_refused("mbus-1996", {"device.cni=CNI8"},
                 {"device.cni = CNI8", "NI2W", "CNI4", "CNI16Q", "CNI512Q", "CNI16QM", "NONE"});
  EXPECT_EQ(tb::SimDevice::device_variant(128, "nOnE", false),
            tb::SimDevice::device_variant(128, "none", false));
}

// The device models carry EarlyPull = 1 for CNI512Q only (the fast build's q512ep variant).
TEST(CniSystem, EarlyPullWithAnotherConfigurationIsRefusedNamingBoth) {
  expect_refused("mbus-1996", {"device.cni=CNI16Q", "device.cni_early_pull=true"},
                 {"device.cni_early_pull", "CNI16Q"});
}

// 000 section 2.3: a device behind the coherent I/O bus cannot cache host memory, so a system
// asking for CNI16Qm there is refused, naming both.
TEST(CniSystem, Cni16QmOnTheIoBusIsRefusedNamingBoth) {
  expect_refused("iobus-1996", {"device.cni=CNI16Qm"}, {"CNI16Qm", "iobus-1996"});
}

}  // namespace
}  // namespace cni::test
