// SPDX-License-Identifier: Apache-2.0
// Simulation kernel: event order, time, cancellation, errors, clock domains.
#include "cni/sim/kernel.hpp"

#include <gtest/gtest.h>

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
