// SPDX-License-Identifier: Apache-2.0
// The coherence checker flags what it must and accepts legal histories.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "coherence_checker.hpp"

using namespace cni;
using cni::sim::CacheState;
using CS = CacheState;

namespace {
bool mentions(const std::vector<std::string>& errs, const std::string& what) {
  for (const auto& e : errs) {
    if (e.find(what) != std::string::npos) return true;
  }
  return false;
}
}  // namespace

TEST(CoherenceChecker, AcceptsALegalHistory) {
  tb::CoherenceChecker c;
  c.watch(0x1000, 0x1000);
  const uint64_t v = 5;
  c.on_state(1, 0x1000, CS::I, CS::IM, 10);
  c.on_state(1, 0x1000, CS::IM, CS::M, 20);
  c.on_store(1, 0x1000, &v, 8, 21);
  c.on_load(1, 0x1000, &v, 8, 22);
  c.on_state(2, 0x1000, CS::I, CS::IS, 30);
  c.on_state(1, 0x1000, CS::M, CS::O, 40);
  c.on_state(2, 0x1000, CS::IS, CS::S, 50);
  c.on_load(2, 0x1000, &v, 8, 51);
  c.on_state(1, 0x1000, CS::O, CS::MI, 60);
  c.on_state(1, 0x1000, CS::MI, CS::I, 70);
  EXPECT_TRUE(c.errors().empty()) << c.errors()[0];
  EXPECT_EQ(c.loads_checked(), 2u);
  EXPECT_EQ(c.state(2, 0x1000), CS::S);
}

TEST(CoherenceChecker, FlagsAWriterBesideAReader) {
  tb::CoherenceChecker c;
  c.on_state(1, 0x80, CS::I, CS::S, 10);
  c.on_state(2, 0x80, CS::I, CS::E, 20);
  ASSERT_EQ(c.errors().size(), 1u);
  EXPECT_TRUE(mentions(c.errors(), "single-writer")) << c.errors()[0];
  EXPECT_TRUE(mentions(c.errors(), "agent 1 in S")) << c.errors()[0];
  EXPECT_TRUE(mentions(c.errors(), "agent 2 in E")) << c.errors()[0];
}

TEST(CoherenceChecker, FlagsTwoOwners) {
  tb::CoherenceChecker c;
  c.on_state(1, 0x80, CS::I, CS::O, 10);
  c.on_state(2, 0x80, CS::I, CS::O, 20);
  EXPECT_TRUE(mentions(c.errors(), "single-writer"));
}

TEST(CoherenceChecker, TransientStatesWithoutDataDoNotCount) {
  tb::CoherenceChecker c;
  c.on_state(1, 0x80, CS::I, CS::M, 10);
  c.on_state(2, 0x80, CS::I, CS::IM, 11);
  c.on_state(1, 0x80, CS::M, CS::MI, 12);
  c.on_state(2, 0x80, CS::IM, CS::E, 13);
  EXPECT_TRUE(c.errors().empty());
}

TEST(CoherenceChecker, FlagsAStaleLoad) {
  tb::CoherenceChecker c;
  c.watch(0, 0x1000);
  const uint64_t v1 = 1, v0 = 0;
  c.on_state(1, 0, CS::I, CS::M, 10);
  c.on_store(1, 0, &v1, 8, 11);
  c.on_state(1, 0, CS::M, CS::I, 12);
  c.on_state(2, 0, CS::I, CS::S, 13);
  c.on_load(2, 0, &v0, 8, 14);
  EXPECT_TRUE(mentions(c.errors(), "stale load")) << (c.errors().empty() ? "" : c.errors()[0]);
}

TEST(CoherenceChecker, FlagsAccessesInTheWrongState) {
  tb::CoherenceChecker c;
  const uint64_t v = 1;
  c.on_state(1, 0, CS::I, CS::S, 10);
  c.on_store(1, 0, &v, 8, 11);
  EXPECT_TRUE(mentions(c.errors(), "needs M"));
  c.on_state(1, 0, CS::S, CS::I, 12);
  c.on_load(1, 0, &v, 8, 13);
  EXPECT_TRUE(mentions(c.errors(), "in state I"));
}

TEST(CoherenceChecker, HomeSideWriteMustNotHitACachedLine) {
  tb::CoherenceChecker c;
  c.watch(0, 0x1000, false);
  const uint64_t v = 9;
  c.on_state(1, 0x100, CS::I, CS::S, 10);
  c.on_store(7, 0x100, &v, 8, 11);  // agent 7 never reported a state: home-side
  EXPECT_TRUE(mentions(c.errors(), "home-side store"));
  tb::CoherenceChecker ok;
  ok.watch(0, 0x1000, false);
  ok.on_store(7, 0x100, &v, 8, 11);
  ok.on_state(1, 0x100, CS::I, CS::E, 20);
  ok.on_load(1, 0x100, &v, 8, 21);
  EXPECT_TRUE(ok.errors().empty());
}

TEST(CoherenceChecker, UnknownBytesAreLearnedOnFirstLoad) {
  tb::CoherenceChecker c;
  c.watch(0, 0x1000, false);
  const uint64_t a = 0x1111, b = 0x2222;
  c.on_state(1, 0, CS::I, CS::S, 1);
  c.on_load(1, 0, &a, 8, 2);
  c.on_load(1, 0, &a, 8, 3);
  EXPECT_TRUE(c.errors().empty());
  c.on_load(1, 0, &b, 8, 4);
  EXPECT_FALSE(c.errors().empty());
}

TEST(CoherenceChecker, ThrowsOnErrorWhenAsked) {
  tb::CoherenceChecker c;
  c.set_throw_on_error(true);
  c.on_state(1, 0, CS::I, CS::M, 1);
  EXPECT_THROW(c.on_state(2, 0, CS::I, CS::M, 2), sim::CoherenceError);
}

TEST(CoherenceChecker, FlagsAStateReportThatDoesNotMatchTheRecord) {
  tb::CoherenceChecker c;
  c.on_state(1, 0, CS::S, CS::I, 1);
  EXPECT_TRUE(mentions(c.errors(), "recorded in I"));
}
