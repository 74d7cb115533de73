// SPDX-License-Identifier: Apache-2.0
// A seeded stall generator for a driver's ready inputs: each call says whether the input is
// held low in this cycle, with probability `p`.
#pragma once

#include <cstdint>
#include <random>

namespace cni::tb {

class Stall {
 public:
  explicit Stall(uint64_t seed) : rng_(seed * 0x9E3779B97F4A7C15ull + 1) {}
  bool operator()(double p) {
    return p > 0.0 && std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < p;
  }

 private:
  std::mt19937_64 rng_;
};

}  // namespace cni::tb
