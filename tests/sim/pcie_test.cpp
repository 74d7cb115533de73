// SPDX-License-Identifier: Apache-2.0
// PCIe at the transaction layer (docs/pcie.md): a host's cores reach an endpoint's BARs and
// configuration space through the root complex, the endpoint reads and writes host memory by
// DMA under the coherence checker, credits, splits, MSI, malformed requests and the TLP trace.
#include "cni/sim/pcie.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "cni/drv/pcie.hpp"
#include "cni/sim/host.hpp"
#include "coherence_checker.hpp"

using namespace cni;
using namespace cni::sim;
using namespace cni::sim::pcie;

namespace {

constexpr uint64_t kCfgBase = 0x3F'0000'0000;  // the configuration window (8 KiB)
constexpr uint64_t kBarWin = 0x40'0000'0000;   // the window BARs are assigned in
constexpr uint64_t kBar0Size = 64 * 1024;

// The device behind the BARs: a RAM per BAR, answered at once.
struct Sram : BarTarget {
  Sram() : mem(2, std::vector<uint8_t>(kBar0Size, 0)) {}
  void bar_write(unsigned bar, uint64_t off, const uint8_t* data, unsigned n) override {
    std::memcpy(mem.at(bar).data() + off, data, n);
    writes.push_back(n);
    if (k) write_times.push_back(k->now());
  }
  void bar_read(unsigned bar, uint64_t off, unsigned /*n*/,
                std::function<void(const uint8_t*)> done) override {
    ++reads;
    done(mem.at(bar).data() + off);
  }
  std::vector<std::vector<uint8_t>> mem;
  std::vector<unsigned> writes;  // sizes of the writes, in order
  std::vector<Time> write_times;
  const Kernel* k = nullptr;
  unsigned reads = 0;
};

class Pcie : public testing::Test {
 protected:
  void build(std::initializer_list<const char*> overrides = {}) {
    profile = Profile::load("enzian-pcie");
    profile.set("link.jitter_ns", "0");
    for (const char* o : overrides) profile.set(o);
    p = PcieParams::from_profile(profile);
    k = std::make_unique<Kernel>();
    f = std::make_unique<Fabric>(*k, 128);
    sys = std::make_unique<HostSystem>(*k, *f, profile);
    checker = std::make_unique<tb::CoherenceChecker>(128);
    checker->watch(HostSystem::dram_base(0), 1 << 20);
    sys->set_observer(checker.get());
    link = std::make_unique<Link>(*k, p, "pcie");
    ConfigParams cfg;
    cfg.bars[0] = BarSpec{kBar0Size, true, false};
    cfg.bars[2] = BarSpec{kBar0Size, true, true};
    cfg.msi_vectors = 4;
    // The agent id after the sockets', the cores' and the device slots'.
    const auto id =
        static_cast<proto::AgentId>(sys->num_sockets() + sys->num_cores() + sys->num_devices());
    rc = std::make_unique<RootComplex>(*k, *f, id, link->rc(), p, "rc");
    f->attach(*rc, sys->socket_node(0));
    rc->set_observer(checker.get());
    ep = std::make_unique<Endpoint>(*k, link->ep(), p, cfg, sram, "ep");
    sram.k = k.get();
    sys->map_uncached(kCfgBase, 8192, rc->config_window());
    sys->map_uncached(kBarWin, 1ull << 30, rc->bar_window());
  }
  void TearDown() override {
    if (checker) {
      EXPECT_TRUE(checker->errors().empty()) << checker->errors()[0];
    }
  }
  // The host's enumeration (drv::pcie_enumerate) by core 0 through the configuration window.
  void enumerate() {
    sys->spawn(0, [&](drv::MemoryPort& m) {
      const drv::PcieSetup s{p.mps, p.mrrs, p.msi_base, 0x40};
      for (const drv::PcieBar& b : drv::pcie_enumerate(m, kCfgBase, kBarWin, 1ull << 30, s)) {
        sizes.push_back(b.size);
        bases.push_back(b.base);
      }
    });
    sys->run_programs();
  }
  // Run the kernel until `done`; fails the test if events run out first.
  void run_until(const std::function<bool()>& done) {
    k->run(done);
    ASSERT_TRUE(done()) << "the simulation stalled at " << to_ns(k->now()) << " ns";
  }
  uint64_t bar0() const { return bases.at(0); }
  // Core 0 (on socket 0) holds a stale copy of the data and polls the flag; the device writes
  // the data, then the flag. Whether the core, once it sees the flag, reads the data written.
  bool data_then_flag(uint64_t data, uint64_t flag, const std::vector<uint8_t>& v) {
    bool ok = false;
    sys->spawn(0, [&](drv::MemoryPort& m) {
      (void)m.load64(data + 64);
      while (m.load64(flag) != 1) m.pause_ns(10);
      std::vector<uint8_t> seen(v.size());
      m.load(data, seen.data(), seen.size());
      ok = seen == v;
    });
    k->run_until(k->now() + ns(2000));
    ep->dma_write(data, v);
    std::vector<uint8_t> one(8, 0);
    one[0] = 1;
    ep->dma_write(flag, one);
    sys->run_programs();
    return ok;
  }

  Profile profile;
  PcieParams p;
  std::unique_ptr<Kernel> k;
  std::unique_ptr<Fabric> f;
  std::unique_ptr<HostSystem> sys;
  std::unique_ptr<tb::CoherenceChecker> checker;
  std::unique_ptr<Link> link;
  std::unique_ptr<RootComplex> rc;
  std::unique_ptr<Endpoint> ep;
  Sram sram;
  std::vector<uint64_t> sizes, bases;
};

std::vector<uint8_t> pattern(size_t n, uint8_t seed) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(seed + i * 7 + (i >> 8));
  return v;
}

}  // namespace

TEST_F(Pcie, EnumerationSizesAssignsAndProgramsTheEndpoint) {
  build();
  enumerate();
  ASSERT_EQ(sizes.size(), 2u);
  EXPECT_EQ(sizes[0], kBar0Size);
  EXPECT_EQ(sizes[1], kBar0Size);
  EXPECT_EQ(ep->config().bar_base(0), kBarWin);
  EXPECT_EQ(ep->config().bar_base(2), kBarWin + kBar0Size);
  EXPECT_TRUE(ep->config().memory_enabled());
  EXPECT_TRUE(ep->config().bus_master());
  EXPECT_EQ(ep->config().max_payload(), p.mps);
  EXPECT_EQ(ep->config().max_read_request(), p.mrrs);
  EXPECT_TRUE(ep->config().msi_enabled());
  EXPECT_EQ(ep->config().msi_vectors_enabled(), 4u);
  // Configuration requests are non-posted: every one has its completion.
  EXPECT_EQ(link->rc().stats().tlps[static_cast<int>(FcClass::NP)],
            link->ep().stats().tlps[static_cast<int>(FcClass::Cpl)]);
  EXPECT_EQ(rc->stats().cpu_errors, 0u);
}

TEST_F(Pcie, ACpuLoadIsASixteenByteReadWhoseRoundTripIsTheSumOfItsParts) {
  build();
  enumerate();
  const auto v = pattern(64, 3);
  std::memcpy(sram.mem[0].data() + 0x100, v.data(), 64);
  uint64_t got = 0;
  Time took = 0;
  sys->spawn(1, [&](drv::MemoryPort& m) {
    const Time t0 = k->now();
    got = m.uncached_load64(bar0() + 0x108);
    took = k->now() - t0;
  });
  const uint64_t reads0 = link->rc().stats().tlps[static_cast<int>(FcClass::NP)];
  sys->run_programs();
  uint64_t want = 0;
  std::memcpy(&want, v.data() + 8, 8);
  EXPECT_EQ(got, want);
  EXPECT_EQ(link->rc().stats().tlps[static_cast<int>(FcClass::NP)], reads0 + 1);
  // MRd: 8 + 16 bytes (a 4-DW header above 4 GiB); CplD: 8 + 12 + 16.
  const double ser = (24 + 36) / link->bytes_per_ns();
  const double want_ns = 2 * (to_ns(p.rc_time) + to_ns(p.latency) + to_ns(p.ep_time)) + ser;
  EXPECT_NEAR(to_ns(took), want_ns, 2.0) << "round trip " << to_ns(took) << " ns";
  EXPECT_GT(to_ns(took), 900.0);
}

TEST_F(Pcie, StoresAreCombinedIntoSixtyFourBytePostedWritesAndPartialChunksLeaveOnTimeout) {
  build();
  enumerate();
  const uint64_t posted0 = link->rc().stats().tlps[static_cast<int>(FcClass::P)];
  sys->spawn(1, [&](drv::MemoryPort& m) {
    for (unsigned i = 0; i < 16; ++i) m.uncached_store64(bar0() + 0x200 + 8 * i, 0x1000 + i);
    for (unsigned i = 0; i < 3; ++i) m.uncached_store64(bar0() + 0x400 + 8 * i, 0x2000 + i);
    m.pause_ns(1000);
  });
  sys->run_programs();
  EXPECT_EQ(link->rc().stats().tlps[static_cast<int>(FcClass::P)], posted0 + 3);
  ASSERT_EQ(sram.writes.size(), 3u);
  EXPECT_EQ(sram.writes[0], 64u);
  EXPECT_EQ(sram.writes[1], 64u);
  EXPECT_EQ(sram.writes[2], 24u);
  EXPECT_EQ(rc->stats().wc_timeouts, 1u);
  for (unsigned i = 0; i < 16; ++i) {
    uint64_t w = 0;
    std::memcpy(&w, sram.mem[0].data() + 0x200 + 8 * i, 8);
    EXPECT_EQ(w, 0x1000u + i);
  }
}

TEST_F(Pcie, DmaReadsAreSplitAtMaxReadRequestAnd4KiBAndReassembledFromCompletions) {
  build();
  enumerate();
  const uint64_t addr = HostSystem::dram_base(0) + 0x10000 + 0xF00 + 4 + 1;  // odd, near 4 KiB
  const auto v = pattern(5000, 9);
  sys->home(0).write_memory(addr, v.data(), v.size());
  checker->set_shadow(addr, v.data(), v.size());
  std::vector<uint8_t> got;
  bool done = false;
  CplStatus st = CplStatus::CA;
  const uint64_t cpl0 = link->rc().stats().tlps[static_cast<int>(FcClass::Cpl)];
  ep->dma_read(addr, 5000, [&](CplStatus s, std::vector<uint8_t> b) {
    st = s;
    got = std::move(b);
    done = true;
  });
  run_until([&] { return done; });
  EXPECT_EQ(st, CplStatus::SC);
  EXPECT_EQ(got, v);
  // [addr, addr + 5000): 251 bytes to the 4 KiB boundary, then 512-byte requests (MRRS), the
  // last one short: 1 + ceil(4749 / 512) = 11 requests.
  EXPECT_EQ(ep->stats().read_requests, 11u);
  // Completions at 64-byte boundaries: one per 64-byte block the bytes touch, counted per request.
  uint64_t want_cpls = 0;
  uint64_t a = addr, left = 5000;
  while (left > 0) {
    const uint64_t n = std::min<uint64_t>({left, 512, 4096 - a % 4096});
    want_cpls += (a + n - 1) / 64 - a / 64 + 1;
    a += n;
    left -= n;
  }
  EXPECT_EQ(link->rc().stats().tlps[static_cast<int>(FcClass::Cpl)] - cpl0, want_cpls);
  EXPECT_EQ(ep->stats().dma_errors, 0u);
}

TEST_F(Pcie, DmaIsCoherentWithTheCpuCachesReadsPullDirtyLinesWritesInvalidate) {
  build();
  enumerate();
  const uint64_t line = HostSystem::dram_base(0) + 0x20000;
  // A core leaves the line dirty in its cache; the device reads it.
  sys->spawn(1, [&](drv::MemoryPort& m) { m.store64(line + 8, 0xABCDEF); });
  sys->run_programs();
  ASSERT_EQ(sys->state_of(1, line), CacheState::M);
  std::vector<uint8_t> got;
  bool done = false;
  CplStatus st = CplStatus::CA;
  ep->dma_read(line, 16, [&](CplStatus s, std::vector<uint8_t> b) {
    st = s;
    got = std::move(b);
    done = true;
  });
  run_until([&] { return done; });
  EXPECT_EQ(st, CplStatus::SC);
  uint64_t w = 0;
  std::memcpy(&w, got.data() + 8, 8);
  EXPECT_EQ(w, 0xABCDEFu);
  // The device writes a whole line and part of the next while cores hold them: their copies go.
  sys->spawn(2, [&](drv::MemoryPort& m) {
    (void)m.load64(line);
    (void)m.load64(line + 128);
  });
  sys->run_programs();
  const auto v = pattern(128 + 40, 5);
  ep->dma_write(line, v);
  run_until([&] { return rc->stats().line_merges == 1 && rc->lines_open() == 0; });
  EXPECT_EQ(sys->state_of(2, line), CacheState::I);
  EXPECT_EQ(sys->state_of(2, line + 128), CacheState::I);
  EXPECT_EQ(rc->stats().line_writes, 1u);
  EXPECT_EQ(rc->stats().line_merges, 1u);
  std::vector<uint8_t> after(128 + 128);
  sys->spawn(1, [&](drv::MemoryPort& m) { m.load(line, after.data(), after.size()); });
  sys->run_programs();
  EXPECT_TRUE(std::equal(v.begin(), v.end(), after.begin()));
  EXPECT_GT(checker->loads_checked(), 0u);
}

TEST_F(Pcie, TheDevicesWritesBecomeVisibleInOrderDataBeforeItsFlag) {
  build();
  enumerate();
  EXPECT_TRUE(data_then_flag(HostSystem::dram_base(0) + 0x30000,
                             HostSystem::dram_base(0) + 0x38000, pattern(4096, 1)));
}

// With two sockets the data goes to one home and the flag to the other: the flag's write waits
// until the data's lines are answered.
TEST_F(Pcie, WritesToTwoHomesBecomeVisibleInOrder) {
  build({"host.sockets=2"});
  checker->watch(HostSystem::dram_base(1), 1 << 20);
  enumerate();
  EXPECT_TRUE(data_then_flag(HostSystem::dram_base(1) + 0x30000,
                             HostSystem::dram_base(0) + 0x38000, pattern(2048, 4)));
}

// Writes of one line one after the other (an unaligned write over MPS merges its shared line
// twice), then a read of it: the root complex waits for each before the next, so the home
// never sees a second request of ours for a line we still own.
TEST_F(Pcie, OperationsOnOneLineWaitForEachOther) {
  build();
  enumerate();
  const uint64_t a = HostSystem::dram_base(0) + 0x50000;
  const auto v = pattern(300, 8);
  ep->dma_write(a + 8, v);  // TLPs of 248 and 52 bytes
  ep->dma_write(a + 400, std::vector<uint8_t>(8, 0x5A));
  std::vector<uint8_t> got;
  bool done = false;
  ep->dma_read(a, 512, [&](CplStatus s, std::vector<uint8_t> b) {
    EXPECT_EQ(s, CplStatus::SC);
    got = std::move(b);
    done = true;
  });
  run_until([&] { return done && rc->lines_open() == 0; });
  ASSERT_EQ(got.size(), 512u);
  EXPECT_TRUE(std::equal(v.begin(), v.end(), got.begin() + 8));
  EXPECT_EQ(got[400], 0x5A);
  EXPECT_EQ(got[407], 0x5A);
  EXPECT_GE(rc->stats().line_merges, 4u);
  EXPECT_EQ(sys->home(0).stats().errors, 0u);
}

// An MSI after a DMA write is delivered once the write is visible: its handler reads the data.
TEST_F(Pcie, AnInterruptFollowsTheWritesBeforeIt) {
  build({"pcie.rc_lines_in_flight=4"});
  enumerate();
  const uint64_t a = HostSystem::dram_base(0) + 0x60000;
  sys->spawn(1, [&](drv::MemoryPort& m) {  // the lines dirty in a core's cache
    for (unsigned i = 0; i < 8192; i += 128) m.store64(a + i, 0xDEAD);
  });
  sys->run_programs();
  const auto v = pattern(8192, 6);
  bool seen = false;
  rc->on_msi([&](uint32_t) {
    std::vector<uint8_t> mem(v.size());
    sys->home(0).read_memory(a, mem.data(), mem.size());
    EXPECT_EQ(mem, v);
    EXPECT_EQ(rc->lines_open(), 0u);
    seen = true;
  });
  ep->dma_write(a, v);
  ep->msi(0);
  run_until([&] { return seen; });
}

// A root complex that keeps one line operation open takes TLPs only as it starts their
// operations: the device's writes wait for posted credits, and the root complex queues no more
// than its credits let in.
TEST_F(Pcie, ABusyRootComplexHoldsTheDeviceBackByItsCredits) {
  build({"pcie.rc_lines_in_flight=1"});
  enumerate();
  const uint64_t waits0 = link->ep().stats().credit_waits;
  ep->dma_write(HostSystem::dram_base(0) + 0x80000, pattern(64 * 1024, 3));
  size_t most = 0;
  run_until([&] {
    most = std::max(most, rc->lines_open());
    return rc->stats().line_writes == 512 && rc->lines_open() == 0;
  });
  EXPECT_GT(link->ep().stats().credit_waits, waits0);
  // 32 posted header credits of 2 lines each, and the TLP whose operations are starting.
  EXPECT_LE(most, 32u * 2 + 2);
}

TEST_F(Pcie, ParametersTheLinkCannotCarryAreRefused) {
  Profile pr = Profile::load("enzian-pcie");
  pr.set("pcie.credits_pd=8");  // less than one 256-byte write
  EXPECT_THROW((void)PcieParams::from_profile(pr), ProfileError);
  pr = Profile::load("enzian-pcie");
  pr.set("pcie.rc_completion_bytes=0");
  EXPECT_THROW((void)PcieParams::from_profile(pr), ProfileError);
  pr = Profile::load("enzian-pcie");
  pr.set("pcie.wc_bytes=512");  // above MPS
  EXPECT_THROW((void)PcieParams::from_profile(pr), ProfileError);
}

TEST_F(Pcie, PostedCreditsHoldWritesUntilTheReceiverReturnsThemByUpdateFc) {
  build({"pcie.credits_ph=2"});
  enumerate();
  const uint64_t waits0 = link->rc().stats().credit_waits;
  const uint64_t dllps0 = link->ep().stats().dllps;
  sys->spawn(1, [&](drv::MemoryPort& m) {
    for (unsigned i = 0; i < 64; ++i) m.uncached_store64(bar0() + 8 * i, i);
  });
  sys->run_programs();
  k->run([] { return false; });
  ASSERT_EQ(sram.writes.size(), 8u);
  for (unsigned i = 0; i < 64; ++i) {
    uint64_t w = 0;
    std::memcpy(&w, sram.mem[0].data() + 8 * i, 8);
    EXPECT_EQ(w, i);
  }
  EXPECT_GT(link->rc().stats().credit_waits, waits0);
  EXPECT_GE(link->ep().stats().dllps - dllps0, 8u);  // an UpdateFC per write at least
  // Two writes per credit loop (the write there, the receiver's processing, the UpdateFC
  // back): the eighth arrives at least three loops after the second.
  const auto& t = sram.write_times;
  const Time loop = 2 * p.latency + p.ep_time;
  EXPECT_GE(t[7] - t[1], 3 * loop);
  EXPECT_LT(t[7] - t[1], 3 * loop + ns(100));
}

TEST_F(Pcie, AnMsiIsAMemoryWriteTheRootComplexTurnsIntoAnInterrupt) {
  build();
  std::vector<uint32_t> got;
  rc->on_msi([&](uint32_t d) { got.push_back(d); });
  ep->msi(0);  // before enumeration: bus mastering off
  k->run([] { return false; });
  EXPECT_EQ(ep->stats().refused, 1u);
  enumerate();
  ep->msi(2);
  ep->msi(7);  // beyond the 4 vectors enabled
  k->run([] { return false; });
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0], 0x42u);
  EXPECT_EQ(ep->stats().msis_masked, 1u);
  EXPECT_EQ(rc->stats().msis, 1u);
}

TEST_F(Pcie, MalformedRequestsAreAnsweredUnsupportedAndCountedNeverAHang) {
  build();
  enumerate();
  // A load in the window but beyond every BAR: Unsupported Request, all ones to the core.
  uint64_t got = 0;
  sys->spawn(1, [&](drv::MemoryPort& m) { got = m.uncached_load64(kBarWin + (1ull << 29)); });
  sys->run_programs();
  EXPECT_EQ(got, ~uint64_t{0});
  EXPECT_EQ(ep->stats().unsupported, 1u);
  EXPECT_EQ(rc->stats().cpu_errors, 1u);
  EXPECT_NE(ep->config().read(kCfgDevCtl) & (1u << 19), 0u);  // UR Detected
  // DMA to no host memory: the read is answered UR, the write dropped; both counted.
  CplStatus st = CplStatus::SC;
  bool done = false;
  ep->dma_read(0x7000'0000'0000, 64, [&](CplStatus s, std::vector<uint8_t>) {
    st = s;
    done = true;
  });
  ep->dma_write(0x7000'0000'0000, std::vector<uint8_t>(64, 1));
  run_until([&] { return done; });
  k->run([] { return false; });
  EXPECT_EQ(st, CplStatus::UR);
  EXPECT_EQ(rc->stats().unsupported, 2u);
  EXPECT_EQ(ep->stats().dma_errors, 1u);
  EXPECT_EQ(rc->error_log().size(), 3u);
}

TEST_F(Pcie, DmaWriteBandwidthIsBoundedByTheLinkAndItsPacketOverhead) {
  build();
  enumerate();
  const uint64_t addr = HostSystem::dram_base(0) + 0x40000;
  const auto v = pattern(256 * 1024, 2);
  bool done = false;
  const Time t0 = k->now();
  ep->dma_write(addr, v, [&] { done = true; });
  run_until([&] { return rc->stats().line_writes == v.size() / 128 && rc->lines_open() == 0; });
  const double secs_ns = to_ns(k->now() - t0);
  const double gbs = v.size() / secs_ns;  // bytes per ns = GB/s
  // Every TLP carries MPS bytes behind a 3-DW header (the address is below 4 GiB) and framing;
  // the Ack and UpdateFC DLLPs travel the other way.
  const double wire = link->bytes_per_ns() * p.mps / (p.mps + kTlpFramingBytes + 12);
  EXPECT_LT(gbs, wire);
  EXPECT_GT(gbs, 0.75 * wire) << gbs << " GB/s of " << wire;
  std::vector<uint8_t> back(v.size());
  sys->home(0).read_memory(addr, back.data(), back.size());
  EXPECT_EQ(back, v);
  (void)done;
}

TEST_F(Pcie, TheTraceHoldsEveryTlpInTheSpecificationsLayout) {
  build();
  // CNI_TLP_TRACE keeps the trace where CTest's decoder check reads it (tests/CMakeLists.txt).
  const char* keep = std::getenv("CNI_TLP_TRACE");
  const std::string path = keep ? keep : testing::TempDir() + "/pcie_trace.txt";
  {
    TlpTrace trace(path);
    link->set_trace(&trace);
    enumerate();
    bool done = false;
    ep->dma_read(HostSystem::dram_base(0) + 0x100, 200, [&](CplStatus, auto) { done = true; });
    run_until([&] { return done; });
    link->set_trace(nullptr);
    uint64_t tlps = 0;
    for (int c = 0; c < 3; ++c) tlps += link->rc().stats().tlps[c] + link->ep().stats().tlps[c];
    EXPECT_EQ(trace.records(), tlps);
  }
  std::ifstream in(path);
  std::string line;
  unsigned n = 0, mrd = 0, cpld = 0;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream s(line);
    uint64_t t = 0;
    std::string dir, hex;
    s >> t >> dir >> hex;
    ASSERT_TRUE(dir == "up" || dir == "down") << line;
    std::vector<uint8_t> bytes;
    for (size_t i = 0; i + 1 < hex.size(); i += 2) {
      bytes.push_back(static_cast<uint8_t>(std::stoul(hex.substr(i, 2), nullptr, 16)));
    }
    const Tlp tlp = decode(bytes);
    if (tlp.kind == TlpKind::MRd && dir == "up") ++mrd;
    if (tlp.kind == TlpKind::CplD && dir == "down") ++cpld;
    ++n;
  }
  EXPECT_GT(n, 20u);
  EXPECT_EQ(mrd, 1u);
  EXPECT_EQ(cpld, 4u);  // 200 bytes from 0x100: three 64-byte blocks and 8 bytes of a fourth
}
