// SPDX-License-Identifier: Apache-2.0
// The CNI engine (CNI16Q in the checking build) between simulated nodes, driven by host cores
// through cni::drv::CniEndpoint (docs/cni.md section 7): active messages of every size, split
// into fragments and reassembled, exactly once and in order per (source, destination), with
// the network model between the devices and the coherence checker on every node; the driver's
// answers to bad input.
#include <cstdint>
#include <cstring>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "cni/drv/cni.hpp"
#include "device/cni_options.hpp"
#include "fixture.hpp"

namespace cni::test {
namespace {


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

TEST(CniSystem, MessagesOfEverySizeCrossBothWaysIntactAndInOrder) {
  tb::System s(profile({"nodes=2", "net.topology=p2p"}), test_devices());
  if (s.device(0, 0).geometry().regions[tb::DeviceGeometry::kCni].lines == 0)
    GTEST_SKIP() << "this build has no CNI engine";
  const std::vector<size_t> sizes = {0, 1, 8, 52, 100, 244, 245, 488, 1000, 4096};
  std::vector<std::vector<uint8_t>> got[2];
  std::vector<uint16_t> from[2];
  Errors err;
  for (unsigned n = 0; n < 2; n++) {
    s.node(n).host().spawn(0, [&, n](drv::MemoryPort& m) {
      err.guard([&] {
        drv::CniEndpoint ep(m, tb::cni_options(s.device(n, 0), 2));
        EXPECT_EQ(ep.config(), drv::CniConfig::Cni16Q);
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
  s.run_programs();
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

TEST(CniSystem, FourNodesAllToAllWithNonBlockingSendsDeliverExactlyOnceInOrder) {
  constexpr unsigned kNodes = 4, kPerPair = 12;
  tb::System s(profile({"nodes=4", "net.topology=switch"}), test_devices());
  if (s.device(0, 0).geometry().regions[tb::DeviceGeometry::kCni].lines == 0)
    GTEST_SKIP() << "this build has no CNI engine";
  // received[dst][src]: the sequence numbers that arrived
  std::vector<std::map<unsigned, std::vector<uint32_t>>> received(kNodes);
  Errors err;
  for (unsigned n = 0; n < kNodes; n++) {
    s.node(n).host().spawn(0, [&, n](drv::MemoryPort& m) {
      err.guard([&] {
        drv::CniEndpoint ep(m, tb::cni_options(s.device(n, 0), kNodes));
        unsigned in = 0;
        ep.set_handler(1, [&](uint16_t src, std::span<const uint8_t> d) {
          uint32_t seq = 0;
          std::memcpy(&seq, d.data(), 4);
          if (d.size() != 4 + (seq * 37) % 600) throw std::runtime_error("bad length");
          received[n][src].push_back(seq);
          in++;
        });
        std::mt19937 rng(n + 1);
        std::vector<unsigned> sent(kNodes, 0);
        unsigned left = (kNodes - 1) * kPerPair;
        while (left > 0 || in < (kNodes - 1) * kPerPair) {
          if (left > 0) {
            unsigned to = (n + 1 + rng() % (kNodes - 1)) % kNodes;
            if (sent[to] == kPerPair) continue;
            uint32_t seq = sent[to];
            std::vector<uint8_t> d(4 + (seq * 37) % 600, uint8_t(n));
            std::memcpy(d.data(), &seq, 4);
            if (ep.try_send(uint16_t(to), 1, d) != drv::SendResult::WouldBlock) {
              sent[to]++;
              left--;
            }
          }
          ep.poll();
          if (rng() % 4 == 0) m.pause_ns(50);
        }
        ep.close();
      });
    });
  }
  s.run_programs();
  err.check();
  for (unsigned d = 0; d < kNodes; d++) {
    for (unsigned src = 0; src < kNodes; src++) {
      if (src == d) continue;
      std::vector<uint32_t> want(kPerPair);
      for (unsigned k = 0; k < kPerPair; k++) want[k] = k;
      EXPECT_EQ(received[d][src], want) << "from " << src << " to " << d;
    }
    EXPECT_FALSE(s.device(d, 0).endpoint().got_error());
  }
}

TEST(CniSystem, BadInputGetsAClearErrorAndTakesNothing) {
  tb::System s(profile({"nodes=2", "net.topology=p2p"}), test_devices());
  if (s.device(0, 0).geometry().regions[tb::DeviceGeometry::kCni].lines == 0)
    GTEST_SKIP() << "this build has no CNI engine";
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
  s.run_programs();
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
    GTEST_SKIP() << "this build has no CNI engine";
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
  s.run_programs();
  EXPECT_NE(what.find("handler 42"), std::string::npos) << what;
  EXPECT_NE(what.find("node 0"), std::string::npos) << what;
}

}  // namespace
}  // namespace cni::test
