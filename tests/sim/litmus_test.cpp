// SPDX-License-Identifier: Apache-2.0
// Litmus tests of the host cores (docs/host-sim.md, "Memory model and litmus tests"): the
// allowed sets computed by cni::sim::litmus::allowed against what the textbooks give, and every
// standard shape run on the simulated host (enzian-eci, lines homed on both sockets) with
// randomized timing: each observed outcome is one the cores' model allows, and each outcome that
// model allows beyond sequential consistency is observed.
#include "cni/sim/litmus.hpp"

#include <gtest/gtest.h>

#include <iostream>
#include <memory>
#include <stdexcept>
#include <string>

#include "cni/sim/fabric.hpp"
#include "cni/sim/kernel.hpp"
#include "cni/sim/profile.hpp"
#include "coherence_checker.hpp"

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

TEST(LitmusModel, MalformedTestsAreRefusedNamingTheProblem) {
  EXPECT_THROW((void)allowed(LTest{"zero", 1, {{st(0, 0)}}}, Model::SC), std::invalid_argument);
  EXPECT_THROW((void)allowed(LTest{"far", 1, {{ld(1, 0)}}}, Model::SC), std::invalid_argument);
  EXPECT_THROW((void)allowed(LTest{"none", 1, {}}, Model::SC), std::invalid_argument);
  EXPECT_EQ(format(by_name("SB"), {0, 1, 1, 1}), "r0=0 r1=1 x=1 y=1");
}

class LitmusHost : public testing::TestWithParam<LTest> {
 protected:
  void SetUp() override {
    profile = Profile::load("enzian-eci");
    k = std::make_unique<Kernel>();
    f = std::make_unique<Fabric>(*k, 128);
    sys = std::make_unique<HostSystem>(*k, *f, profile);
    checker.watch(HostSystem::dram_base(0), 1 << 24);
    checker.watch(HostSystem::dram_base(1), 1 << 24);
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
  const LTest& t = GetParam();
  // threads on cores of both sockets: 0, then the first core of socket 1, ...
  const unsigned per_socket = sys->num_cores() / sys->num_sockets();
  std::vector<unsigned> cores;
  for (unsigned i = 0; i < t.threads.size(); ++i) {
    cores.push_back((i % sys->num_sockets()) * per_socket + i / sys->num_sockets());
  }
  RunOptions o;
  o.iterations = 1000;
  const auto seen = run(*sys, t, cores, o);
  const auto tso = allowed(t, Model::TSO);
  const auto sc = allowed(t, Model::SC);
  unsigned n = 0;
  for (const auto& [out, count] : seen) {
    std::cout << "  " << t.name << ": " << format(t, out) << "  " << count
              << (has(sc, out) ? "" : "  (TSO, not SC)") << "\n";
    EXPECT_TRUE(has(tso, out)) << t.name << ": " << format(t, out) << " observed " << count
                               << " times, not allowed by TSO";
    n += count;
  }
  EXPECT_EQ(n, o.iterations);
  for (const Outcome& out : tso) {
    if (!has(sc, out)) {
      EXPECT_TRUE(seen.count(out)) << t.name << ": " << format(t, out)
                                   << " (allowed by TSO, not by SC) never observed";
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Standard, LitmusHost, testing::ValuesIn(standard_tests()),
                         [](const testing::TestParamInfo<LTest>& i) {
                           std::string n = i.param.name;
                           for (char& c : n)
                             if (c == '+') c = '_';
                           return n;
                         });

}  // namespace
