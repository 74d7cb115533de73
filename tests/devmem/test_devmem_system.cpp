// SPDX-License-Identifier: Apache-2.0
// DRAM-backed device lines under the host's cores (docs/dram.md): the checking build's `dram`
// model in the host simulation (enzian-eci at 64-byte lines), every access checked by the
// coherence checker. A random stress over on-chip and DRAM-backed lines with tiny host caches
// (lines constantly written back to the device, the device's 8 frames constantly refilled from
// the DRAM), and a core's load latency of each kind of line.
#include <cstdio>
#include <random>
#include <vector>

#include "coherence_checker.hpp"
#include "system/fixture.hpp"

namespace cni::test {
namespace {

sim::Profile dram_profile(std::vector<std::string> sets = {}) {
  auto p = sim::Profile::load("enzian-eci");
  p.set("line_bytes", "64");
  for (const auto& s : sets) p.set(s);
  return p;
}

// The `dram` model, its DRAM's AXI handshakes withheld with chance `stall`.
DeviceConfig dram_device(double stall) {
  return [stall](tb::SimDevice::Config& c) {
    c.variant = "dram";
    c.dram_stall = stall;
  };
}

class DevMemSystem : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!tb::Endpoint::has_model(64, "dram")) GTEST_SKIP() << "no `dram` device model";
  }
};

TEST_F(DevMemSystem, RandomAccessesOverOnChipAndDramLinesKeepSingleWriterAndValues) {
  auto p = dram_profile({"host.sockets=2", "host.cores=4", "cache.size_kib=1", "cache.ways=2",
                         "l1.size_kib=1", "l1.ways=2", "cache.mshrs=4", "link.one_way_ns=40",
                         "core.store_buffer=4"});
  System s(p, ~0u, dram_device(0.1));
  const auto& g = s.dev.geometry();
  const unsigned lb = g.line_bytes;
  tb::CoherenceChecker chk(lb);
  chk.watch(s.dev.host_base(), uint64_t(g.mem_lines) * lb, /*zero_init=*/true);
  chk.watch(s.dev.host_addr(g.dram_first()), uint64_t(g.dram_lines()) * lb, /*zero_init=*/true);
  s.host.set_observer(&chk);
  // 16 on-chip lines and 64 DRAM-backed ones (8 per frame)
  std::vector<unsigned> lines;
  for (unsigned i = 0; i < 16; ++i) lines.push_back(i);
  for (unsigned i = 0; i < 64; ++i) lines.push_back(g.dram_first() + i * 3);  // 3: every frame
  uint64_t requests = 0, ops = 0;
  const uint64_t target = 20000;
  s.f.on_send([&](const proto::Msg& m, sim::Time) {
    if (m.dst == s.dev.id() && m.chan() == proto::Chan::Req) ++requests;
  });
  for (unsigned c = 0; c < 4; ++c) {
    s.host.spawn(c, [&, c](drv::MemoryPort& m) {
      std::mt19937_64 rng(1000 + c);
      uint64_t stamp = uint64_t(c + 1) << 48;
      while (requests < target) {
        const unsigned l = lines[rng() % lines.size()];
        random_access(m, rng, s.dev.host_addr(l) + 8 * (rng() % (lb / 8)), stamp, {45, 80, 88, 93});
        ++ops;
      }
      m.barrier();
    });
  }
  s.host.run_programs();
  auto& ep = s.dev.endpoint();
  const uint32_t fills = ep.counter(tb::csr::kDramFills);
  const uint32_t fresh = ep.counter(tb::csr::kDramFillsNew);
  const uint32_t wbs = ep.counter(tb::csr::kDramWritebacks);
  std::printf(
      "%llu device requests, %llu accesses, %llu loads checked: %u fills read from the DRAM, "
      "%u more of lines never written (no read), %u write-backs\n",
      static_cast<unsigned long long>(requests), static_cast<unsigned long long>(ops),
      static_cast<unsigned long long>(chk.loads_checked()), fills, fresh, wbs);
  EXPECT_GE(requests, target);
  EXPECT_GT(fills, 1000u) << "the frames must be refilled from the DRAM";
  EXPECT_GT(wbs, 1000u);
  EXPECT_LE(fresh, 64u);
  EXPECT_EQ(ep.counter(tb::csr::kErrAddr), 0u);
  EXPECT_EQ(ep.counter(tb::csr::kErrProto), 0u);
  EXPECT_EQ(ep.counter(tb::csr::kDramAxiErrors), 0u);
  EXPECT_FALSE(ep.got_error());
  EXPECT_GT(chk.loads_checked(), ops / 4);
  const auto& errs = chk.errors();
  for (size_t i = 0; i < std::min<size_t>(errs.size(), 10); ++i) ADD_FAILURE() << errs[i];
  EXPECT_TRUE(errs.empty()) << errs.size() << " coherence violations";
}

// A core's load of a line no cache holds: an on-chip line, a DRAM-backed line in its frame, and
// one whose frame holds another line (fetched from the DRAM). The lines were written by core 0
// (socket 0) and left its caches; core 1 (socket 1, host.core_sockets round-robin) loads them.
TEST_F(DevMemSystem, LoadLatencyOfEachKindOfDeviceLine) {
  auto p = dram_profile({"host.sockets=2", "host.cores=2", "cache.size_kib=1", "cache.ways=2",
                         "l1.size_kib=1", "l1.ways=2"});
  System s(p, ~0u, dram_device(0.0));
  const auto& g = s.dev.geometry();
  tb::CoherenceChecker chk(g.line_bytes);
  chk.watch(s.dev.host_base(), uint64_t(g.mem_lines) * g.line_bytes, true);
  chk.watch(s.dev.host_addr(g.dram_first()), uint64_t(g.dram_lines()) * g.line_bytes, true);
  s.host.set_observer(&chk);
  const unsigned d = g.dram_first();
  // core 0 writes on-chip line 3 and DRAM-backed line d+1 (frame 1), then 48 other on-chip lines
  // to push them out of its 1 KiB caches (written back: frame 1 holds d+1); then d+9 (frame 1
  // too: d+1 goes to the DRAM) and the 48 lines again (frame 1 holds d+9)
  bool written = false;
  uint64_t onchip_ns = 0, inframe_ns = 0, fetched_ns = 0;
  s.host.spawn(0, [&](drv::MemoryPort& m) {
    auto push_out = [&] {
      for (unsigned i = 0; i < 48; ++i) m.store64(s.dev.host_addr(8 + i), i);
      m.barrier();
      m.pause_ns(2000);
    };
    m.store64(s.dev.host_addr(3), 0x33);
    m.store64(s.dev.host_addr(d + 1), 0x11);
    push_out();
    m.store64(s.dev.host_addr(d + 9), 0x99);
    push_out();
    written = true;
  });
  // Each timed load's request and grant in the fabric: the request sent, delivered to the device,
  // the grant sent by the device, delivered back (ps).
  struct Times {
    sim::Time req_sent = 0, req_in = 0, grant_sent = 0, grant_in = 0;
  };
  std::vector<Times> times;
  bool measuring = false;
  const auto is_req = [&](const proto::Msg& m) {
    return measuring && m.dst == s.dev.id() && m.op == proto::Op::RdS;
  };
  const auto is_grant = [&](const proto::Msg& m) {
    return measuring && m.src == s.dev.id() && m.op == proto::Op::DataE;
  };
  s.f.on_send([&](const proto::Msg& m, sim::Time t) {
    if (is_req(m)) times.push_back({t, 0, 0, 0});
    if (is_grant(m) && !times.empty()) times.back().grant_sent = t;
  });
  s.f.on_deliver([&](const proto::Msg& m, sim::Time t) {
    if (is_req(m) && !times.empty()) times.back().req_in = t;
    if (is_grant(m) && !times.empty()) times.back().grant_in = t;
  });
  s.host.spawn(1, [&](drv::MemoryPort& m) {
    while (!written) m.pause_ns(100);
    m.pause_ns(2000);
    s.dev.clear_latency_samples();  // from here on, the device's cycles of each load
    measuring = true;
    auto timed = [&](unsigned line, uint64_t want) {
      const uint64_t t0 = m.now_ns();
      EXPECT_EQ(m.load64(s.dev.host_addr(line)), want) << "line " << line;
      return m.now_ns() - t0;
    };
    onchip_ns = timed(3, 0x33);
    inframe_ns = timed(d + 9, 0x99);
    fetched_ns = timed(d + 1, 0x11);
  });
  s.host.run_programs();
  // each load reached an idle device and no cache held its line (no snoop)
  const auto& dev_cycles = s.dev.first_response_cycles();
  ASSERT_EQ(dev_cycles.size(), 3u);
  EXPECT_EQ(s.counter(tb::csr::kSnoops), 0u);
  ASSERT_EQ(times.size(), 3u);
  const char* kinds[] = {"on-chip line", "DRAM-backed line in its frame", "fetched from the DRAM"};
  const uint64_t load_ns[] = {onchip_ns, inframe_ns, fetched_ns};
  std::printf(
      "a core's load (enzian-eci, 300 MHz device): the load; the request's transit, the "
      "device (its cycles), the grant's transit\n");
  for (unsigned i = 0; i < 3; ++i) {
    const Times& t = times[i];
    std::printf("  %-30s %4llu ns; %6.1f ns, %5.1f ns (%u), %6.1f ns\n", kinds[i],
                static_cast<unsigned long long>(load_ns[i]), (t.req_in - t.req_sent) / 1e3,
                (t.grant_sent - t.req_in) / 1e3, dev_cycles[i], (t.grant_in - t.grant_sent) / 1e3);
  }
  RecordProperty("load_fetched_ns", std::to_string(fetched_ns));
  EXPECT_EQ(dev_cycles[1], dev_cycles[0]);
  EXPECT_GT(dev_cycles[2], dev_cycles[1] + 8);
  EXPECT_GT(fetched_ns, inframe_ns);
  EXPECT_TRUE(chk.errors().empty()) << chk.errors().front();
}

}  // namespace
}  // namespace cni::test
