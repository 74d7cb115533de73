// SPDX-License-Identifier: Apache-2.0
// A device whose clock sleeps while its core is quiescent (docs/endpoint.md, "Quiescence") runs
// exactly as one clocked in every cycle: every coherence message of the run at the same time,
// the same answers, the same cycle counts -- on PIO invocations with idle gaps, on several
// nodes, on park timers that run out while the clock sleeps (within and beyond the quiet
// window) -- and it evaluates the model in far fewer cycles.
#include <memory>
#include <string>
#include <vector>

#include "msg_trace.hpp"
#include "pio_ref.hpp"
#include "cni/drv/pio.hpp"
#include "fixture.hpp"

namespace cni::test {
namespace {

// One run of a system: its trace, what its programs saw, and each device's cycles.
struct SysRun {
  std::unique_ptr<tb::System> sys;
  std::unique_ptr<tb::MessageTrace> trace;
  std::vector<std::vector<uint8_t>> results;
  std::vector<uint64_t> cycles, clocked, first_resp;
};

using Body = std::function<void(tb::System&, SysRun&)>;

SysRun run(std::vector<std::string> sets, bool skip, const Body& body) {
  sets.push_back(std::string("device.skip_idle=") + (skip ? "true" : "false"));
  SysRun r;
  r.sys = std::make_unique<tb::System>(profile(sets), test_devices());
  r.trace = std::make_unique<tb::MessageTrace>(*r.sys);
  body(*r.sys, r);
  for (unsigned n = 0; n < r.sys->num_nodes(); ++n) {
    for (unsigned d = 0; d < r.sys->num_devices(n); ++d) {
      tb::SimDevice& dev = r.sys->device(n, d);
      r.cycles.push_back(dev.cycles());
      r.clocked.push_back(dev.clocked_cycles());
      for (uint32_t c : dev.first_response_cycles()) r.first_resp.push_back(c);
      EXPECT_FALSE(dev.endpoint().got_error()) << "node " << n << " device " << d;
    }
  }
  return r;
}

// Runs `body` with the devices' clocks sleeping and without; both runs must agree in full.
void expect_same(const std::vector<std::string>& sets, const Body& body,
                 double max_clocked_share = 0.5) {
  SCOPED_TRACE("max clocked share " + std::to_string(max_clocked_share));
  const SysRun awake = run(sets, false, body);
  const SysRun asleep = run(sets, true, body);
  ASSERT_FALSE(awake.trace->lines().empty());
  EXPECT_EQ(tb::MessageTrace::first_difference(*awake.trace, *asleep.trace), "");
  EXPECT_EQ(awake.results, asleep.results);
  EXPECT_EQ(awake.cycles, asleep.cycles);
  EXPECT_EQ(awake.first_resp, asleep.first_resp);
  EXPECT_EQ(awake.clocked, awake.cycles) << "without sleeping every cycle is clocked";
  uint64_t cycles = 0, clocked = 0;
  for (size_t i = 0; i < asleep.cycles.size(); ++i) {
    cycles += asleep.cycles[i];
    clocked += asleep.clocked[i];
  }
  EXPECT_LE(double(clocked), max_clocked_share * double(cycles))
      << clocked << " of " << cycles << " cycles clocked";
}

// Invocations of PIO protocol (c) with idle gaps between them, on core 0 of node `n`.
void invocations(tb::System& s, SysRun& r, unsigned n, unsigned count, uint64_t gap_ns) {
  tb::SimDevice& dev = s.device(n, 0);
  const unsigned lb = dev.geometry().line_bytes;
  s.node(n).host().spawn(0, [&r, &dev, n, lb, count, gap_ns](drv::MemoryPort& m) {
    drv::PioChannel ch(m, dev.pio_layout());
    m.pause_ns(100.0 * n);
    ch.warm_up();
    for (unsigned i = 0; i < count; ++i) {
      std::vector<uint8_t> req((i % 3 + 1) * lb);
      for (size_t j = 0; j < req.size(); ++j) req[j] = uint8_t(j * 7 + i + n);
      r.results.push_back(ch.invoke(req));
      EXPECT_EQ(r.results.back(), tb::pio_expected_response(req, lb)) << "invocation " << i;
      m.pause_ns(double(gap_ns * (i % 3)));
    }
  });
}

TEST(SkipIdle, PioInvocationsWithIdleGapsAreTheSameWithAndWithoutSleeping) {
  expect_same({}, [](tb::System& s, SysRun& r) {
    invocations(s, r, 0, 12, 3000);
    s.run_programs();
  });
}

TEST(SkipIdle, FourNodesAreTheSameWithAndWithoutSleeping) {
  expect_same({"nodes=4"}, [](tb::System& s, SysRun& r) {
    invocations(s, r, 0, 6, 2000);
    invocations(s, r, 2, 3, 5000);
    s.run_programs();
  });
}

// A read of protocol (b)'s trigger line parks until the device has a message, and there is none:
// the park timer answers Retry, the host re-issues, and so on. The timer runs out while the
// clock sleeps, within the quiet window (300 cycles) and beyond it (6000 cycles).
TEST(SkipIdle, ParkTimersRunOutOnTimeWhileTheClockSleeps) {
  for (const char* timeout_us : {"1", "20"}) {
    SCOPED_TRACE(std::string("device.park_timeout_us=") + timeout_us);
    const std::vector<std::string> sets = {std::string("device.park_timeout_us=") + timeout_us};
    uint32_t retries = 0;
    // A timeout shorter than the quiet window (1024 cycles) keeps the core from sleeping while a
    // request is parked; a longer one lets it sleep most of the time.
    const double clocked_share = std::string(timeout_us) == "1" ? 1.0 : 0.5;
    expect_same(sets, [&retries](tb::System& s, SysRun&) {
      tb::SimDevice& dev = s.device(0, 0);
      const uint64_t trigger = dev.host_addr(dev.geometry().b0());
      s.node(0).host().spawn(0, [trigger](drv::MemoryPort& m) { (void)m.load64(trigger); });
      s.kernel().run_until(sim::ns(100'000));
      retries = dev.endpoint().counter(tb::csr::kRetryTimeout);
    }, clocked_share);
    EXPECT_GE(retries, 4u);
  }
}

}  // namespace
}  // namespace cni::test
