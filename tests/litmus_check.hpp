// SPDX-License-Identifier: Apache-2.0
// The check of a litmus run (cni::sim::litmus::run) shared by the host-model and the system
// tests: every observed outcome is one the architecture's model allows, the cores' own model
// allows no more than the architecture's, and every outcome the cores' model allows beyond
// sequential consistency is observed at least once (a model too strong to show a relaxation
// it claims fails).
#pragma once

#include <gtest/gtest.h>

#include <iostream>
#include <map>
#include <string>

#include "cni/sim/core.hpp"
#include "cni/sim/litmus.hpp"

namespace cni::test {

// The architecture's model and the one the simulated cores implement.
inline std::pair<sim::litmus::Model, sim::litmus::Model> litmus_models(sim::MemoryModel m) {
  using sim::litmus::Model;
  return m == sim::MemoryModel::ARMv8 ? std::pair{Model::ARMv8, Model::ARMv8Core}
                                      : std::pair{Model::TSO, Model::TSO};
}

// A test name gtest accepts ("MP+dmb.st+po" -> "MP_dmb_st_po").
inline std::string litmus_test_name(const std::string& n) {
  std::string s = n;
  for (char& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

inline void check_litmus(const sim::litmus::Test& t,
                         const std::map<sim::litmus::Outcome, unsigned>& seen,
                         unsigned iterations, sim::MemoryModel cores) {
  using namespace sim::litmus;
  const auto [arch_model, core_model] = litmus_models(cores);
  const auto arch = allowed(t, arch_model);
  const auto core = allowed(t, core_model);
  const auto sc = allowed(t, Model::SC);
  for (const Outcome& o : core) EXPECT_TRUE(arch.count(o)) << t.name << ": " << format(t, o);
  unsigned n = 0;
  for (const auto& [out, count] : seen) {
    std::cout << "  " << t.name << ": " << format(t, out) << "  " << count
              << (sc.count(out) ? "" : "  (relaxed)") << "\n";
    EXPECT_TRUE(arch.count(out)) << t.name << ": " << format(t, out) << " observed " << count
                                 << " times, not allowed by " << name(arch_model);
    n += count;
  }
  EXPECT_EQ(n, iterations);
  for (const Outcome& out : core) {
    if (!sc.count(out)) {
      EXPECT_TRUE(seen.count(out)) << t.name << ": " << format(t, out) << " (allowed by "
                                   << name(core_model) << ", not by SC) never observed";
    }
  }
}

}  // namespace cni::test
