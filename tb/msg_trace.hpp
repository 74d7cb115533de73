// SPDX-License-Identifier: Apache-2.0
// The full message trace of a run: every coherence message each node's fabric delivers (the
// time, the node, the header and a digest of the data) and every frame the network hands to a
// node's port (the time, the node, its source and size, a digest). Two runs that must agree --
// the same
// system with its idle devices' clocks sleeping or not (docs/endpoint.md, "Quiescence") --
// compare their traces line by line; `cni-bench --msg-trace FILE` writes one.
#pragma once

#include <cstdint>
#include <memory>
#include <ostream>
#include <string>
#include <vector>

#include "cni/sim/cluster.hpp"

namespace cni::tb {

class MessageTrace {
 public:
  // Records from now on, on every node of `c` (the record is shared with the fabrics' observers,
  // so either may go first).
  explicit MessageTrace(sim::Cluster& c);

  const std::vector<std::string>& lines() const { return *lines_; }
  void write(std::ostream& out) const;
  // "" when `a` and `b` are equal; else the first line where they differ, from both.
  static std::string first_difference(const MessageTrace& a, const MessageTrace& b);

 private:
  std::shared_ptr<std::vector<std::string>> lines_;
};

}  // namespace cni::tb
