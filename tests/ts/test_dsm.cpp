// SPDX-License-Identifier: Apache-2.0
// Stache, the DSM on the tag store (docs/dsm.md), across nodes of the checking build's `ts`
// model (enzian-eci at 64-byte lines, 16 blocks in pages of 4, the coherence checker on in every
// node): a remote read miss and a write that invalidates the readers, message passing across
// blocks of different homes, and random loads and stores of every node checked against what a
// sequentially consistent memory allows (no value never written, no value older than one the
// reader saw, none lost at the end). Also on 001's machine, typhoon-1998 (the MBus, 50 MHz
// devices, TSO processors).
#include <gtest/gtest.h>

#include <cstdio>
#include <random>
#include <string>
#include <vector>

#include "device/dsm.hpp"
#include "device/em3d.hpp"

namespace cni::test {
namespace {

using tb::DsmConfig;
using tb::DsmDesign;
using tb::DsmSystem;

// enzian-eci (ECI link, ARMv8 cores) unless `name` says otherwise (typhoon-1998: 001's machine,
// its MBus, TSO processors).
sim::Profile dsm_profile(unsigned nodes, const char* name = "enzian-eci") {
  auto p = sim::Profile::load(name);
  p.set("line_bytes", "64");
  p.set("nodes", std::to_string(nodes));
  return p;
}

// The handler commands node n's tag store refused (its REFUSED register).
uint32_t refused(DsmSystem& d, unsigned n) {
  return d.ts_device(n).endpoint().csr_read(tb::csr::engine_reg(engines::kEngineTs, 0x40));
}

DsmConfig chk_config(unsigned app_cores = 1) {
  DsmConfig c;
  c.ts_variant = "ts";
  c.app_cores = app_cores;
  c.idle_pause_ns = 200;
  return c;
}

// Node 1 reads a block homed on node 0 (a remote read miss: fault, request, the home downgrades
// its copy, reply, fill), node 0 then writes it (the home invalidates node 1's copy), and node 1
// reads the new value (a second miss). Messages through the CNI engine, or through the tag
// store's own network interface (ts_ni).
void read_miss_then_write(bool ts_ni) {
  DsmConfig cfg = chk_config();
  cfg.ts_ni = ts_ni;
  DsmSystem d(dsm_profile(2), cfg);
  ASSERT_EQ(d.home_of(0), 0u);
  uint64_t first = 0, second = 0, miss_ns = 0;
  unsigned phase = 0;
  d.run([&](unsigned n, unsigned, drv::MemoryPort& m) {
    if (n == 0) {
      m.store64(d.block_addr(0, 0) + 8, 0x1111);
      m.barrier();
      phase = 1;
      while (phase != 2) m.pause_ns(50);
      m.store64(d.block_addr(0, 0) + 8, 0x2222);
      m.barrier();
      phase = 3;
    } else {
      while (phase != 1) m.pause_ns(50);
      const uint64_t t0 = m.now_ns();
      first = m.load64(d.block_addr(1, 0) + 8);
      miss_ns = m.now_ns() - t0;
      phase = 2;
      while (phase != 3) m.pause_ns(50);
      second = m.load64(d.block_addr(1, 0) + 8);
    }
  });
  EXPECT_EQ(first, 0x1111u);
  EXPECT_EQ(second, 0x2222u);
  std::printf(
      "Stache, Typhoon-1 (messages through %s), enzian-eci at 64-byte lines: a remote "
      "read miss %llu ns\n",
      ts_ni ? "the tag store's network interface" : "the CNI engine",
      static_cast<unsigned long long>(miss_ns));
  EXPECT_EQ(d.stats(1).requests_sent, 2u);
  EXPECT_EQ(d.stats(0).invalidations, 1u);
  EXPECT_EQ(d.stats(0).requests_served, 3u) << "node 1's two reads and node 0's write";
  for (unsigned n = 0; n < 2; ++n) {
    EXPECT_TRUE(d.system().checker(n).errors().empty()) << "node " << n;
    EXPECT_EQ(refused(d, n), 0u) << "node " << n << ": no command refused";
    const uint32_t ni_rx =
        d.ts_device(n).endpoint().csr_read(tb::csr::engine_reg(engines::kEngineTs, 0x64));
    if (ts_ni) {
      EXPECT_GT(ni_rx, 0u) << "node " << n << ": the messages came through the interface";
    } else {
      EXPECT_EQ(ni_rx, 0u) << "node " << n;
    }
  }
}

TEST(Dsm, ARemoteReadMissThenAWriteAtTheHomeInvalidatesTheReader) { read_miss_then_write(false); }

TEST(Dsm, ThroughTheTagStoresNetworkInterfaceAMissAndAnInvalidationWorkAsThroughTheCniEngine) {
  read_miss_then_write(true);
}

// The tag store's network interface carries one block per message: Stache refuses first-touch
// homes and the update protocol over it, before any message.
TEST(Dsm, OverTheTagStoresNetworkInterfaceFirstTouchAndTheUpdateProtocolAreRefused) {
  DsmConfig cfg = chk_config();
  cfg.ts_ni = true;
  cfg.homes = drv::HomePolicy::FirstTouch;
  {
    DsmSystem d(dsm_profile(2), cfg);
    EXPECT_THROW(d.run([](unsigned, unsigned, drv::MemoryPort&) {}), std::invalid_argument);
  }
  cfg.homes = drv::HomePolicy::RoundRobin;
  cfg.protocol = [](uint32_t) { return drv::PageProtocol::Update; };
  DsmSystem d(dsm_profile(2), cfg);
  EXPECT_THROW(d.run([](unsigned, unsigned, drv::MemoryPort&) {}), std::logic_error);
}

// Random loads and stores of 8-byte words across the shared space. Word w is written only by
// node w % nodes, with the values 1, 2, 3, ... in order; readers check every value they see
// against what a sequentially consistent memory allows. Every node also publishes with message
// passing: its data word, then (store-release) its flag word in a block of another home; a
// reader that sees the flag (load-acquire) must see the data at least as new.
void random_sc(DsmDesign design, unsigned nodes, unsigned app_cores, unsigned ops,
               const char* profile = "enzian-eci",
               drv::HomePolicy homes = drv::HomePolicy::RoundRobin, double loss = 0,
               double reorder = 0, const char* variant = "ts", bool ts_ni = false) {
  DsmConfig cfg = chk_config(app_cores);
  cfg.ts_variant = variant;
  cfg.ts_ni = ts_ni;
  cfg.design = design;
  cfg.homes = homes;
  cfg.retransmit = loss > 0 || reorder > 0;
  sim::Profile p = dsm_profile(nodes, profile);
  if (loss > 0) {
    p.set("net.loss_rate", std::to_string(loss));
    p.set("net.corrupt_rate", std::to_string(loss / 2));
  }
  if (reorder > 0) p.set("net.reorder_rate", std::to_string(reorder));
  DsmSystem d(p, cfg);
  const unsigned lb = 64, words = d.blocks() * lb / 8;
  std::vector<uint64_t> issued(words, 0);  // the last value stored to each word
  std::vector<std::vector<uint64_t>> seen(nodes * app_cores, std::vector<uint64_t>(words, 0));
  unsigned errors = 0;
  auto addr = [&](unsigned n, unsigned w) { return d.block_addr(n, w * 8 / lb) + w * 8 % lb; };
  // node n's message-passing words: data in block 2n, flag in block 2n + 5 (other pages)
  auto mp_data = [&](unsigned n) { return unsigned((2 * n % d.blocks()) * lb / 8 + 7); };
  auto mp_flag = [&](unsigned n) { return unsigned(((2 * n + 5) % d.blocks()) * lb / 8 + 6); };
  auto check = [&](unsigned who, unsigned w, uint64_t v, const char* what) {
    if (v > issued[w] || v < seen[who][w]) {
      if (errors++ < 10) {
        ADD_FAILURE() << what << ": reader " << who << " word " << w << " read " << v
                      << " (issued up to " << issued[w] << ", seen " << seen[who][w] << ")";
      }
    }
    if (v > seen[who][w]) seen[who][w] = v;
  };
  auto is_mp = [&](unsigned w) {
    for (unsigned n = 0; n < nodes; ++n) {
      if (w == mp_data(n) || w == mp_flag(n)) return true;
    }
    return false;
  };
  // then every node reads every word's last value (no write lost)
  std::vector<std::vector<uint64_t>> final_values(nodes);
  unsigned finished = 0;
  d.run([&](unsigned n, unsigned c, drv::MemoryPort& m) {
    const unsigned who = n * app_cores + c;
    std::mt19937_64 rng(1000 + who);
    for (unsigned i = 0; i < ops; ++i) {
      const unsigned op = unsigned(rng() % 100);
      if (op < 10 && c == 0) {  // publish: data, then the flag
        const unsigned dw = mp_data(n), fw = mp_flag(n);
        const uint64_t v = ++issued[fw];
        issued[dw] = v;
        m.store64(addr(n, dw), v);
        m.store_release64(addr(n, fw), v);
      } else if (op < 20) {  // observe a node's publication
        const unsigned src = unsigned(rng() % nodes);
        const uint64_t f = m.load_acquire64(addr(n, mp_flag(src)));
        check(who, mp_flag(src), f, "flag");
        const uint64_t v = m.load64(addr(n, mp_data(src)));
        check(who, mp_data(src), v, "data");
        if (v < f && errors++ < 10) {
          ADD_FAILURE() << "node " << n << " saw node " << src << "'s flag " << f
                        << " but its data " << v;
        }
      } else if (op < 45 && c == 0) {  // a store to one of this node's words
        const unsigned w = unsigned(rng() % (words / nodes)) * nodes + n;
        if (is_mp(w)) continue;
        m.store64(addr(n, w), ++issued[w]);
      } else {  // a load of any word
        const unsigned w = unsigned(rng() % words);
        check(who, w, m.load64(addr(n, w)), "load");
      }
    }
    m.barrier();
    finished++;
    while (finished < nodes * app_cores) m.pause_ns(200);
    if (c != 0) return;
    for (unsigned w = 0; w < words; ++w) final_values[n].push_back(m.load64(addr(n, w)));
  });
  for (unsigned n = 0; n < nodes; ++n) {
    for (unsigned w = 0; w < words; ++w) {
      if (final_values[n][w] != issued[w] && errors++ < 10) {
        ADD_FAILURE() << "node " << n << " word " << w << " ends " << final_values[n][w]
                      << ", its last store " << issued[w];
      }
    }
    EXPECT_TRUE(d.system().checker(n).errors().empty()) << "node " << n;
    EXPECT_EQ(refused(d, n), 0u) << "node " << n << ": no handler command refused";
  }
  uint64_t faults = 0, inv = 0, placed = 0, moved = 0, redirects = 0;
  for (unsigned n = 0; n < nodes; ++n) {
    faults += d.stats(n).faults;
    inv += d.stats(n).invalidations + d.stats(n).downgrades;
    placed += d.stats(n).pages_placed;
    moved += d.stats(n).pages_moved_in;
    redirects += d.stats(n).redirects;
  }
  std::printf(
      "Stache, %s%s, %u nodes x %u cores, %u accesses each: %llu faults, %llu "
      "invalidations and downgrades; first touch: %llu pages placed, %llu moved, %llu "
      "requests redirected\n",
      tb::dsm_design_name(design), ts_ni ? " (the tag store's network interface)" : "", nodes,
      app_cores, ops, static_cast<unsigned long long>(faults), static_cast<unsigned long long>(inv),
      static_cast<unsigned long long>(placed), static_cast<unsigned long long>(moved),
      static_cast<unsigned long long>(redirects));
  EXPECT_GT(inv, 0u);
  if (d.ts_device(0).geometry().is_dram(d.ts_device(0).geometry().ts_block0)) {
    // the shared space in DRAM-backed lines: its frames were filled and written back
    uint64_t fills = 0, wbs = 0;
    for (unsigned n = 0; n < nodes; ++n) {
      auto& ep = d.ts_device(n).endpoint();
      fills += ep.counter(tb::csr::kDramFills) + ep.counter(tb::csr::kDramFillsNew);
      wbs += ep.counter(tb::csr::kDramWritebacks);
    }
    std::printf("the shared space in DRAM-backed lines: %llu fills of frames, %llu write-backs\n",
                static_cast<unsigned long long>(fills), static_cast<unsigned long long>(wbs));
    EXPECT_GT(fills, 2u * 16 * nodes);
    EXPECT_GT(wbs, 0u);
  }
  if (loss > 0 || reorder > 0) {  // frames were lost or overtaken, and sent again
    uint64_t retx = 0, held = 0;
    for (unsigned n = 0; n < nodes; ++n) {
      retx += d.system().device(n, 0).endpoint().csr_read(
          tb::csr::engine_reg(engines::kEngineCni, 0x80 + 4 * 5));
    }
    sim::Network& net = d.system().network();
    const bool sw = net.params().topology == sim::NetTopology::Switch;
    for (unsigned a = 0; a < nodes; ++a) {
      if (sw) {
        held += net.link_stats(a, sim::Network::kSwitch).held +
                net.link_stats(sim::Network::kSwitch, a).held;
        continue;
      }
      for (unsigned b = 0; b < nodes; ++b) held += a == b ? 0 : net.link_stats(a, b).held;
    }
    std::printf("network loss %.0f%%, corruption %.1f%%, reordering %.0f%% (%llu frames held "
                "back): %llu frames sent again\n",
                loss * 100, loss * 50, reorder * 100, static_cast<unsigned long long>(held),
                static_cast<unsigned long long>(retx));
    EXPECT_GT(retx, 0u);
    if (reorder > 0) {
      EXPECT_GT(held, 0u);
    }
  }
  if (homes == drv::HomePolicy::FirstTouch) {  // every page placed once, wherever
    EXPECT_EQ(placed, d.blocks() / 4);
    EXPECT_LE(moved, placed);
  } else {
    EXPECT_EQ(placed + moved + redirects, 0u);
  }
  EXPECT_EQ(errors, 0u);
}

TEST(Dsm, RandomAccessesOfTwoNodesAreSequentiallyConsistent) {
  random_sc(DsmDesign::Typhoon1, 2, 2, 300);
}

TEST(Dsm, RandomAccessesThroughTheTagStoresNetworkInterfaceAreSequentiallyConsistent) {
  random_sc(DsmDesign::Typhoon1, 2, 2, 300, "enzian-eci", drv::HomePolicy::RoundRobin, 0, 0, "ts",
            true);
  random_sc(DsmDesign::Typhoon1, 4, 1, 200, "typhoon-1998", drv::HomePolicy::RoundRobin, 0, 0, "ts",
            true);
}

// on 001's machine (it found the driver overfilling the engine's command queue: a node's tags
// were never set Invalid, and its writes were lost)
TEST(Dsm, RandomAccessesOfFourNodesOnTyphoon1998AreSequentiallyConsistent) {
  random_sc(DsmDesign::Typhoon1, 4, 1, 150, "typhoon-1998");
}

// The shared space in DRAM-backed device lines (the checking build's `dram` model: the 16 blocks
// two to a frame of its eight; docs/dram.md, "Engines on DRAM-backed lines"): every fault, fill,
// read and recall of a block may first fetch its line from the DRAM.
TEST(Dsm, RandomAccessesWithTheSharedSpaceInDramAreSequentiallyConsistent) {
  random_sc(DsmDesign::Typhoon1, 2, 2, 300, "enzian-eci", drv::HomePolicy::RoundRobin, 0, 0,
            "dram");
}

TEST(Dsm, RandomAccessesOnTyphoon0AreSequentiallyConsistent) {
  random_sc(DsmDesign::Typhoon0, 2, 1, 100);
}

// The network loses 5% of its frames and corrupts 2.5%: the CNI engines' go-back-N
// retransmission (the checking model is built with it) delivers every message once, in order,
// so the protocol, which relies on that, stays sequentially consistent (001's network is
// reliable; ours is made so by the NI).
TEST(Dsm, UnderNetworkLossTheEnginesRetransmissionKeepsTheDsmSequentiallyConsistent) {
  random_sc(DsmDesign::Typhoon1, 3, 1, 150, "enzian-eci", drv::HomePolicy::RoundRobin, 0.05);
}

// The network holds 5% of its frames back 1 us, so that later ones overtake them: the engines'
// go-back-N takes an overtaking frame for a gap and has it resent, every message still arrives
// once and in order, and the DSM stays sequentially consistent.
TEST(Dsm, UnderNetworkReorderingTheEnginesRetransmissionKeepsTheDsmSequentiallyConsistent) {
  random_sc(DsmDesign::Typhoon1, 3, 1, 150, "enzian-eci", drv::HomePolicy::RoundRobin, 0, 0.05);
}

// First touch (migrate once): pages race to be placed by whichever node's access faults first
// (the first homes' own accesses fault too), requests reaching an old home are redirected.
TEST(Dsm, RandomAccessesWithFirstTouchHomesAreSequentiallyConsistent) {
  random_sc(DsmDesign::Typhoon1, 3, 2, 200, "enzian-eci", drv::HomePolicy::FirstTouch);
}

// Node n first touches page (n + 1) % 4, every block of it: one fault, the page moves to n whole
// (its first home placed it and sent it), and n's accesses to its other blocks do not fault.
// Then every node reads every value, and node n writes its page again without a fault.
TEST(Dsm, UnderFirstTouchEachPageMovesOnceToTheNodeThatTouchesItFirst) {
  const unsigned nodes = 4;
  DsmConfig cfg = chk_config();
  cfg.homes = drv::HomePolicy::FirstTouch;
  DsmSystem d(dsm_profile(nodes), cfg);
  ASSERT_EQ(d.blocks(), 16u);  // 4 pages of 4 blocks
  const unsigned pb = 4;
  unsigned phase = 0;
  std::vector<unsigned> faults(nodes, 0);
  d.on_step = [&](unsigned n, drv::StacheStep s, uint32_t, uint64_t) {
    if (s == drv::StacheStep::FaultTaken && phase != 1) faults[n]++;
  };
  auto value = [](unsigned n, unsigned k) { return uint64_t(0x100 * (n + 1) + k); };
  std::vector<unsigned> wrong(nodes, 0);
  d.run([&](unsigned n, unsigned, drv::MemoryPort& m) {
    const unsigned page = (n + 1) % nodes;
    for (unsigned k = 0; k < pb; ++k) {
      m.store64(d.block_addr(n, page * pb + k) + 8 * k, value(n, k));
      m.barrier();  // the first store performed (the page here) before the next is issued
    }
    d.barrier(m);
    if (n == 0) phase = 1;  // reads fault as the protocol needs
    d.barrier(m);
    for (unsigned w = 0; w < nodes; ++w) {
      const unsigned pg = (w + 1) % nodes;
      for (unsigned k = 0; k < pb; ++k) {
        if (m.load64(d.block_addr(n, pg * pb + k) + 8 * k) != value(w, k)) wrong[n]++;
      }
    }
    d.barrier(m);
    if (n == 0) phase = 2;
    d.barrier(m);
    // the readers' copies are invalidated again, and the home's write does not ask anyone
    for (unsigned k = 0; k < pb; ++k) m.store64(d.block_addr(n, page * pb + k), value(n, k));
  });
  for (unsigned n = 0; n < nodes; ++n) {
    EXPECT_EQ(wrong[n], 0u) << "node " << n;
    EXPECT_EQ(d.stats(n).pages_placed, 1u) << "node " << n << " placed its first page";
    EXPECT_EQ(d.stats(n).pages_moved_in, 1u) << "node " << n;
    EXPECT_EQ(faults[n], 1u + pb) << "node " << n << ": one fault to place its page, one per "
                                   << "block of it to take back the readers' copies";
    EXPECT_TRUE(d.system().checker(n).errors().empty()) << "node " << n;
    EXPECT_EQ(refused(d, n), 0u) << "node " << n;
  }
}

// EM3D (128 graph nodes, degree 5, 10% remote, span 6, 3 iterations: the 16 blocks of the
// checking model) on 1, 2, 4 and 8 nodes, with the standard protocol and with 001's custom
// deferred update protocol: every node count computes the sequential run's values.
void em3d_matches_the_reference(bool custom) {
  tb::Em3dParams p;
  p.graph_nodes = 128;
  p.iterations = 3;
  p.custom = custom;
  std::vector<uint64_t> e, h;
  tb::em3d_reference(p, e, h);
  for (unsigned nodes : {1u, 2u, 4u, 8u}) {
    SCOPED_TRACE(std::to_string(nodes) + " nodes");
    DsmSystem d(dsm_profile(nodes), tb::em3d_config(chk_config(), p));
    const tb::Em3dResult r = tb::run_em3d(d, p);
    EXPECT_EQ(r.e, e);
    EXPECT_EQ(r.h, h);
    for (unsigned n = 0; n < nodes; ++n) {
      EXPECT_TRUE(d.system().checker(n).errors().empty()) << "node " << n;
      EXPECT_EQ(refused(d, n), 0u) << "node " << n << ": no handler command refused";
    }
    std::printf("EM3D, %s protocol, %u nodes: %.0f ns per iteration, %llu faults, %llu update "
                "messages\n",
                custom ? "custom update" : "standard", nodes, r.iteration_ns,
                static_cast<unsigned long long>(r.faults),
                static_cast<unsigned long long>(r.update_messages));
    if (nodes > 1 && custom) {
      EXPECT_GT(r.update_messages, 0u);
    }
    if (nodes == 1) {
      EXPECT_EQ(r.faults, 0u) << "one node homes every page";
    }
  }
}

TEST(Dsm, Em3dWithTheStandardProtocolMatchesTheSequentialRunOnOneToEightNodes) {
  em3d_matches_the_reference(false);
}

TEST(Dsm, Em3dWithTheCustomUpdateProtocolMatchesTheSequentialRunOnOneToEightNodes) {
  em3d_matches_the_reference(true);
}

}  // namespace
}  // namespace cni::test
