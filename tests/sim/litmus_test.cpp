// SPDX-License-Identifier: Apache-2.0
// Litmus tests of the host cores (docs/host-sim.md, "Memory model and litmus tests"): the
// allowed sets computed by cni::sim::litmus::allowed against the published results, and every
// standard shape run on the simulated host (enzian-eci on its ARMv8 cores, and on TSO cores)
// with randomized timing: each observed outcome is one the
// architecture allows, and each outcome the cores' model allows beyond sequential consistency
// is observed (tests/litmus_check.hpp). tests/system/test_litmus.cpp runs them on device lines.
#include "cni/sim/litmus.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <numeric>
#include <stdexcept>
#include <string>

#include "cni/sim/fabric.hpp"
#include "cni/sim/kernel.hpp"
#include "cni/sim/profile.hpp"
#include "coherence_checker.hpp"
#include "litmus_check.hpp"

using namespace cni;
using namespace cni::sim;
using namespace cni::sim::litmus;
using LTest = cni::sim::litmus::Test;  // (testing::Test is the fixtures' base)

namespace {

LTest by_name(const std::string& n) {
  for (const LTest& t : standard_tests())
    if (t.name == n) return t;
  throw std::out_of_range(n);
}

bool has(const std::set<Outcome>& s, const Outcome& o) { return s.count(o) != 0; }

// The enumeration against the published results (x86-TSO: Sewell et al., CACM 2010).
TEST(LitmusModel, StoreBufferingIsTheRelaxationTsoAllowsAndAFenceForbids) {
  const Outcome relaxed = {0, 0, 1, 1};  // r0 = r1 = 0, x = y = 1
  EXPECT_FALSE(has(allowed(by_name("SB"), Model::SC), relaxed));
  EXPECT_TRUE(has(allowed(by_name("SB"), Model::TSO), relaxed));
  EXPECT_FALSE(has(allowed(by_name("SB+fences"), Model::TSO), relaxed));
  EXPECT_EQ(allowed(by_name("SB"), Model::SC).size(), 3u);
  EXPECT_EQ(allowed(by_name("SB"), Model::TSO).size(), 4u);
}

TEST(LitmusModel, TsoKeepsTheOtherShapesSequentiallyConsistent) {
  // Message passing, load buffering, 2+2W, WRC, IRIW and ISA2 have the same outcomes under
  // TSO as under SC; R (a store, then a load of another location) does not.
  for (const char* n : {"MP", "LB", "S", "2+2W", "WRC", "IRIW", "ISA2", "CoRR", "CoWW", "CoRW",
                        "CoWR"}) {
    EXPECT_EQ(allowed(by_name(n), Model::TSO), allowed(by_name(n), Model::SC)) << n;
  }
  const Outcome r_relaxed = {0, 1, 2};  // r0 = 0, x = 1, y = 2
  EXPECT_FALSE(has(allowed(by_name("R"), Model::SC), r_relaxed));
  EXPECT_TRUE(has(allowed(by_name("R"), Model::TSO), r_relaxed));
  EXPECT_FALSE(has(allowed(by_name("MP"), Model::TSO), Outcome({1, 0, 1, 1})));
  EXPECT_FALSE(has(allowed(by_name("IRIW"), Model::TSO), Outcome({1, 0, 1, 0, 1, 1})));
}

// ARMv8 without dependencies (the published AArch64 results, e.g. herd7's aarch64.cat): every
// shape has an outcome beyond SC, and a DMB SY between each thread's accesses takes them all
// away (other-multi-copy atomicity: IRIW and WRC too); the coherence tests stay SC.
TEST(LitmusModel, Armv8RelaxesEveryShapeAndDmbsRestoreSc) {
  for (const char* n : {"SB", "MP", "LB", "S", "R", "2+2W", "WRC", "IRIW", "ISA2"}) {
    const auto sc = allowed(by_name(n), Model::SC);
    const auto arm = allowed(by_name(n), Model::ARMv8);
    EXPECT_GT(arm.size(), sc.size()) << n;
    for (const Outcome& o : sc) EXPECT_TRUE(has(arm, o)) << n;
    for (const Outcome& o : allowed(by_name(n), Model::TSO)) EXPECT_TRUE(has(arm, o)) << n;
    EXPECT_EQ(allowed(by_name(std::string(n) + "+fences"), Model::ARMv8), sc) << n;
  }
  for (const char* n : {"CoRR", "CoWW", "CoRW", "CoWR"}) {
    EXPECT_EQ(allowed(by_name(n), Model::ARMv8), allowed(by_name(n), Model::SC)) << n;
  }
  EXPECT_TRUE(has(allowed(by_name("MP"), Model::ARMv8), Outcome({1, 0, 1, 1})));
  EXPECT_TRUE(has(allowed(by_name("LB"), Model::ARMv8), Outcome({1, 1, 1, 1})));
  EXPECT_TRUE(has(allowed(by_name("IRIW"), Model::ARMv8), Outcome({1, 0, 1, 0, 1, 1})));
  EXPECT_TRUE(has(allowed(by_name("WRC"), Model::ARMv8), Outcome({1, 1, 0, 1, 1})));
  EXPECT_TRUE(has(allowed(by_name("2+2W"), Model::ARMv8), Outcome({1, 1})));
}

// The weaker ordering points against the published AArch64 results (the ARM litmus
// catalogues, herd7's aarch64.cat): which of them forbid the shape's relaxed outcome.
TEST(LitmusModel, Armv8WeakerOrderingPointsForbidExactlyWhatThePublishedResultsSay) {
  const Outcome mp = {1, 0, 1, 1};  // MP: r0 = 1 (flag seen), r1 = 0 (stale data)
  for (const char* n : {"MP+dmb.st+dmb.ld", "MP+dmb.st+addr", "MP+rel+acq"}) {
    EXPECT_FALSE(has(allowed(by_name(n), Model::ARMv8), mp)) << n;
  }
  for (const char* n : {"MP+dmb.st+po", "MP+po+dmb.ld", "MP+rel+po"}) {
    EXPECT_TRUE(has(allowed(by_name(n), Model::ARMv8), mp)) << n;
    EXPECT_TRUE(has(allowed(by_name(n), Model::ARMv8Core), mp)) << n;
  }
  const Outcome sb = {0, 0, 1, 1};
  EXPECT_TRUE(has(allowed(by_name("SB+dmb.sts"), Model::ARMv8), sb));
  EXPECT_TRUE(has(allowed(by_name("SB+dmb.lds"), Model::ARMv8), sb));
  EXPECT_FALSE(has(allowed(by_name("SB+rel+acqs"), Model::ARMv8), sb));  // RCsc
  EXPECT_FALSE(has(allowed(by_name("SB+rel+acqs"), Model::TSO), sb));
  EXPECT_FALSE(has(allowed(by_name("2+2W+dmb.sts"), Model::ARMv8), Outcome({1, 1})));
  EXPECT_FALSE(has(allowed(by_name("IRIW+dmb.lds"), Model::ARMv8), Outcome({1, 0, 1, 0, 1, 1})));
  EXPECT_FALSE(has(allowed(by_name("IRIW+addrs"), Model::ARMv8), Outcome({1, 0, 1, 0, 1, 1})));
  EXPECT_TRUE(has(allowed(by_name("WRC+dmb.sy+po"), Model::ARMv8), Outcome({1, 1, 0, 1, 1})));
  // A load, then a store without a dependency: ARMv8 may reorder them, the simulated cores do
  // not (ARMv8Core): S, WRC and ISA2 with that pair left bare differ, and LB.
  EXPECT_TRUE(has(allowed(by_name("S+dmb.st+po"), Model::ARMv8), Outcome({1, 2, 1})));
  EXPECT_FALSE(has(allowed(by_name("S+dmb.st+po"), Model::ARMv8Core), Outcome({1, 2, 1})));
  EXPECT_TRUE(has(allowed(by_name("WRC+po+addr"), Model::ARMv8), Outcome({1, 1, 0, 1, 1})));
  EXPECT_FALSE(has(allowed(by_name("WRC+po+addr"), Model::ARMv8Core), Outcome({1, 1, 0, 1, 1})));
  EXPECT_TRUE(has(allowed(by_name("ISA2+dmb.st+po+addr"), Model::ARMv8), Outcome({1, 1, 0, 1, 1, 1})));
  EXPECT_FALSE(
      has(allowed(by_name("ISA2+dmb.st+po+addr"), Model::ARMv8Core), Outcome({1, 1, 0, 1, 1, 1})));
  EXPECT_FALSE(has(allowed(by_name("LB"), Model::ARMv8Core), Outcome({1, 1, 1, 1})));
  // Under TSO the weaker points change nothing TSO does not already order.
  EXPECT_EQ(allowed(by_name("MP+dmb.st+po"), Model::TSO), allowed(by_name("MP"), Model::SC));
  EXPECT_EQ(allowed(by_name("SB+dmb.sts"), Model::TSO), allowed(by_name("SB"), Model::TSO));
  // Every shape: ARMv8Core between SC and ARMv8.
  for (const LTest& t : standard_tests()) {
    const auto core = allowed(t, Model::ARMv8Core);
    for (const Outcome& o : allowed(t, Model::SC)) EXPECT_TRUE(has(core, o)) << t.name;
    for (const Outcome& o : core) EXPECT_TRUE(has(allowed(t, Model::ARMv8), o)) << t.name;
  }
}

TEST(LitmusModel, MalformedTestsAreRefusedNamingTheProblem) {
  EXPECT_THROW((void)allowed(LTest{"zero", 1, {{st(0, 0)}}}, Model::SC), std::invalid_argument);
  EXPECT_THROW((void)allowed(LTest{"far", 1, {{ld(1, 0)}}}, Model::SC), std::invalid_argument);
  EXPECT_THROW((void)allowed(LTest{"none", 1, {}}, Model::SC), std::invalid_argument);
  EXPECT_EQ(format(by_name("SB"), {0, 1, 1, 1}), "r0=0 r1=1 x=1 y=1");
}

// Host lines of the enzian-eci profile (its one socket, six cores: the test's threads on a
// random choice of them, the others loading the test's lines meanwhile), on its ARMv8 cores or
// on TSO cores.
class LitmusHost : public testing::TestWithParam<std::tuple<LTest, std::string>> {
 protected:
  void SetUp() override {
    profile = Profile::load("enzian-eci");
    profile.set("host.cores", "6");
    profile.set("host.memory_model", std::get<1>(GetParam()));
    k = std::make_unique<Kernel>();
    f = std::make_unique<Fabric>(*k, 128);
    sys = std::make_unique<HostSystem>(*k, *f, profile);
    checker.watch(HostSystem::dram_base(0), 1 << 24);
    sys->set_observer(&checker);
  }
  void TearDown() override { EXPECT_TRUE(checker.errors().empty()) << checker.errors()[0]; }

  Profile profile;
  std::unique_ptr<Kernel> k;
  std::unique_ptr<Fabric> f;
  std::unique_ptr<HostSystem> sys;
  tb::CoherenceChecker checker;
};

TEST_P(LitmusHost, ObservesOnlyAllowedOutcomesAndEveryRelaxedOne) {
  const LTest& t = std::get<0>(GetParam());
  std::vector<unsigned> cores(sys->num_cores());
  std::iota(cores.begin(), cores.end(), 0u);
  RunOptions o;
  o.iterations = 2000;
  test::check_litmus(t, run(*sys, t, cores, o), o.iterations, sys->core(0).params().model);
}

INSTANTIATE_TEST_SUITE_P(Standard, LitmusHost,
                         testing::Combine(testing::ValuesIn(standard_tests()),
                                          testing::Values("armv8", "tso")),
                         [](const auto& i) {
                           return test::litmus_test_name(std::get<0>(i.param).name + "_" +
                                                         std::get<1>(i.param));
                         });

}  // namespace
