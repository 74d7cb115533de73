// SPDX-License-Identifier: Apache-2.0
// Simulation kernel: event order, time, cancellation, errors, clock domains.
#include "cni/sim/kernel.hpp"

#include <gtest/gtest.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

using namespace cni::sim;

TEST(Kernel, RunsEventsInTimeOrderAndAdvancesNow) {
  Kernel k;
  std::vector<std::pair<int, Time>> seen;
  k.at(300, [&] { seen.emplace_back(3, k.now()); });
  k.at(100, [&] { seen.emplace_back(1, k.now()); });
  k.after(200, [&] { seen.emplace_back(2, k.now()); });
  k.run([] { return false; });
  ASSERT_EQ(seen.size(), 3u);
  EXPECT_EQ(seen[0], std::make_pair(1, Time{100}));
  EXPECT_EQ(seen[1], std::make_pair(2, Time{200}));
  EXPECT_EQ(seen[2], std::make_pair(3, Time{300}));
  EXPECT_EQ(k.now(), 300u);
  EXPECT_EQ(k.events_processed(), 3u);
}

TEST(Kernel, BreaksTiesByInsertionOrder) {
  Kernel k;
  std::string order;
  for (char c : std::string("abcdef")) k.at(50, [&order, c] { order += c; });
  // An event scheduled at the current time from inside an event runs after those already due.
  k.at(10, [&] { k.after(40, [&] { order += 'z'; }); });
  k.run([] { return false; });
  EXPECT_EQ(order, "abcdefz");
}

TEST(Kernel, RunUntilStopsAtTimeAndAdvancesIdleClock) {
  Kernel k;
  int ran = 0;
  k.at(100, [&] { ++ran; });
  k.at(201, [&] { ++ran; });
  k.run_until(200);
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(k.now(), 200u);
  k.run_until(1000);
  EXPECT_EQ(ran, 2);
  EXPECT_EQ(k.now(), 1000u);
}

TEST(Kernel, RunStopsAsSoonAsDoneHolds) {
  Kernel k;
  int count = 0;
  for (int i = 1; i <= 10; ++i) k.at(Time(i) * 10, [&] { ++count; });
  k.run([&] { return count == 4; });
  EXPECT_EQ(count, 4);
  EXPECT_EQ(k.now(), 40u);
  EXPECT_EQ(k.pending(), 6u);
}

TEST(Kernel, CancelledEventNeitherRunsNorKeepsRunAlive) {
  Kernel k;
  bool ran = false;
  EventId id = k.at(1'000'000, [&] { ran = true; });
  k.at(10, [] {});
  k.cancel(id);
  k.cancel(id);  // twice is harmless
  k.run([] { return false; });
  EXPECT_FALSE(ran);
  EXPECT_EQ(k.now(), 10u);
  EXPECT_EQ(k.pending(), 0u);
}

TEST(Kernel, ManyCancelledEventsAreCompactedAway) {
  Kernel k;
  for (int i = 0; i < 100000; ++i) k.cancel(k.at(Time(1) << 40, [] {}));
  int ran = 0;
  k.at(5, [&] { ++ran; });
  k.run([] { return false; });
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(k.now(), 5u);
}

TEST(Kernel, RejectsEventInThePast) {
  Kernel k;
  k.run_until(100);
  EXPECT_THROW(k.at(50, [] {}), std::invalid_argument);
}

TEST(Kernel, ExceptionFromEventReachesRunCallerAndKernelStaysUsable) {
  Kernel k;
  k.at(10, [] { throw std::runtime_error("boom at 10"); });
  bool later = false;
  k.at(20, [&] { later = true; });
  try {
    k.run([] { return false; });
    FAIL() << "expected an exception";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "boom at 10");
  }
  EXPECT_EQ(k.now(), 10u);
  k.run([] { return false; });
  EXPECT_TRUE(later);
}

TEST(Kernel, NsConvertsAndRejectsNegative) {
  EXPECT_EQ(ns(1.5), 1500u);
  EXPECT_EQ(ns(0.0004), 0u);
  EXPECT_DOUBLE_EQ(to_ns(2500), 2.5);
  EXPECT_THROW(ns(-1.0), std::invalid_argument);
}

TEST(ClockDomain, TicksOncePerPeriodWhileStarted) {
  Kernel k;
  ClockDomain clk(k, "dev", 250.0);  // 4 ns
  EXPECT_EQ(clk.period(), 4000u);
  std::vector<std::pair<uint64_t, Time>> edges;
  clk.on_rising([&](uint64_t c) { edges.emplace_back(c, k.now()); });
  clk.start();
  k.run_until(ns(12));
  ASSERT_EQ(edges.size(), 3u);
  EXPECT_EQ(edges[0], std::make_pair(uint64_t{0}, Time{4000}));
  EXPECT_EQ(edges[2], std::make_pair(uint64_t{2}, Time{12000}));
  clk.stop();
  k.run_until(ns(100));
  EXPECT_EQ(clk.cycles(), 3u);
  clk.start();
  k.run_until(ns(104));
  EXPECT_EQ(clk.cycles(), 4u);
  EXPECT_EQ(edges.back().second, ns(104));
}

TEST(ClockDomain, RejectsNonPositiveFrequency) {
  Kernel k;
  EXPECT_THROW(ClockDomain(k, "bad", 0.0), std::invalid_argument);
}

TEST(Kernel, EdgeClassesRunAfterTheOrdinaryEventsOfTheirInstantInClassOrder) {
  Kernel k;
  std::string order;
  const uint32_t a = k.new_edge_class(), b = k.new_edge_class();
  k.at_class(50, b, [&] { order += 'B'; });
  k.at_class(50, a, [&] {
    order += 'A';
    // An ordinary event scheduled for this instant from an edge runs before the later classes.
    k.at(50, [&] { order += 'x'; });
    EXPECT_EQ(k.current_class(), a);
  });
  k.at(50, [&] { order += 'o'; });
  k.at(40, [&] { k.at(50, [&] { order += 'p'; }); });
  k.run([] { return false; });
  EXPECT_EQ(order, "opAxB");
  EXPECT_EQ(k.current_class(), 0u);
}

namespace {
// Edges (cycle, time) of a domain at 250 MHz from start at 0 until `until`, with `sleepy`
// deciding after each edge whether to sleep, and wake-ups at the given times (ordinary events).
std::vector<std::pair<uint64_t, Time>> edges_of(const std::function<void(ClockDomain&, uint64_t)>& sleepy,
                                                const std::vector<Time>& wakes, Time until) {
  Kernel k;
  ClockDomain clk(k, "dev", 250.0);
  std::vector<std::pair<uint64_t, Time>> edges;
  clk.on_rising([&](uint64_t c) {
    edges.emplace_back(c, k.now());
    sleepy(clk, c);
  });
  clk.start();
  for (Time t : wakes) k.at(t, [&] { clk.wake(); });
  k.run_until(until);
  return edges;
}
}  // namespace

TEST(ClockDomain, SleepingSkipsEdgesAndWakeResumesOnTheGridAtTheSameInstant) {
  // Sleeps after edge 2 (8 ns); woken at 13 ns (next edge 16 ns = cycle 3) and at 24 ns exactly
  // on the edge of cycle 5, which still runs at that instant.
  auto e = edges_of([](ClockDomain& c, uint64_t cy) { if (cy == 1 || cy == 3) c.sleep(); },
                    {ns(13), ns(24)}, ns(28));
  // Cycle numbers follow the grid: the edge at 16 ns is cycle 3.
  const std::vector<std::pair<uint64_t, Time>> want = {
      {0, 4000}, {1, 8000}, {3, 16000}, {5, 24000}, {6, 28000}};
  EXPECT_EQ(e, want);
}

TEST(ClockDomain, SleepUntilRunsThatEdgeAndAWakeUpBringsItForward) {
  Kernel k;
  ClockDomain clk(k, "dev", 250.0);
  std::vector<uint64_t> cycles;
  clk.on_rising([&](uint64_t c) {
    cycles.push_back(c);
    if (c == 0) clk.sleep_until(10);
    if (c == 10) clk.sleep_until(20);
  });
  clk.start();
  k.at(ns(60), [&] { clk.wake(); });  // edge 14 is at 60 ns: it runs
  k.run_until(ns(68));
  EXPECT_EQ(cycles, (std::vector<uint64_t>{0, 10, 14, 15, 16}));
  EXPECT_EQ(clk.cycles(), 5u);
  EXPECT_EQ(clk.skipped(), 12u);
  EXPECT_EQ(clk.next_cycle(), 17u);
}

TEST(ClockDomain, AWakeUpFromALaterEdgeClassOfTheSameInstantWaitsForTheNextEdge) {
  // Domain a sleeps; domain b (made later, so its edges run after a's) wakes it at b's edge at
  // 8 ns, after a's edge of that instant would have run: a resumes at 12 ns, as it would have
  // seen the wake-up had it not slept. Woken from an ordinary event at 8 ns, it runs at 8 ns.
  for (bool from_edge : {true, false}) {
    Kernel k;
    ClockDomain a(k, "a", 250.0), b(k, "b", 250.0);
    std::vector<Time> a_edges;
    a.on_rising([&](uint64_t) {
      a_edges.push_back(k.now());
      a.sleep();
    });
    b.on_rising([&](uint64_t c) {
      if (from_edge && c == 1) a.wake();
    });
    a.start();
    b.start();
    if (!from_edge) k.at(ns(8), [&] { a.wake(); });
    k.run_until(ns(20));
    EXPECT_EQ(a_edges, (std::vector<Time>{ns(4), from_edge ? ns(12) : ns(8)})) << from_edge;
  }
}
