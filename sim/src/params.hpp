// SPDX-License-Identifier: Apache-2.0
// Reading model parameters from a Profile with range checks (internal to cni_sim).
#pragma once

#include <string>

#include "cni/sim/kernel.hpp"
#include "cni/sim/profile.hpp"

namespace cni::sim::detail {

inline unsigned uint_param(const Profile& p, const std::string& key, unsigned lo, unsigned hi) {
  const int64_t v = p.get_int(key);
  if (v < lo || v > hi) {
    throw ProfileError("profile " + p.name() + ": key '" + key + "' = " + std::to_string(v) +
                       " is outside [" + std::to_string(lo) + ", " + std::to_string(hi) + "]");
  }
  return static_cast<unsigned>(v);
}

inline double positive_param(const Profile& p, const std::string& key) {
  const double v = p.get_double(key);
  if (!(v > 0.0)) {
    throw ProfileError("profile " + p.name() + ": key '" + key + "' = " + std::to_string(v) +
                       " must be > 0");
  }
  return v;
}

// A duration in nanoseconds (>= 0).
inline Time ns_param(const Profile& p, const std::string& key) {
  const double v = p.get_double(key);
  if (!(v >= 0.0)) {
    throw ProfileError("profile " + p.name() + ": key '" + key + "' = " + std::to_string(v) +
                       " must be >= 0 ns");
  }
  return ns(v);
}

}  // namespace cni::sim::detail
