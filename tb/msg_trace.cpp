// SPDX-License-Identifier: Apache-2.0
// The full message trace of a run (see msg_trace.hpp).
#include "msg_trace.hpp"

#include <algorithm>
#include <cstdio>

namespace cni::tb {

namespace {
// FNV-1a over bytes.
uint64_t digest(const uint8_t* p, size_t n) {
  uint64_t h = 1469598103934665603ull;
  for (size_t i = 0; i < n; ++i) h = (h ^ p[i]) * 1099511628211ull;
  return h;
}
}  // namespace

MessageTrace::MessageTrace(sim::Cluster& c)
    : lines_(std::make_shared<std::vector<std::string>>()) {
  for (unsigned n = 0; n < c.num_nodes(); ++n) {
    c.node(n).fabric().on_deliver([lines = lines_, n](const proto::Msg& m, sim::Time t) {
      char buf[64];
      std::snprintf(buf, sizeof buf, "%llu n%u ", static_cast<unsigned long long>(t), n);
      std::string line = buf + m.str();
      if (m.len) {
        const size_t n = std::min<size_t>(m.len, m.data.size());
        std::snprintf(buf, sizeof buf, " data=%016llx",
                      static_cast<unsigned long long>(digest(m.data.data(), n)));
        line += buf;
      }
      lines->push_back(std::move(line));
    });
  }
  c.network().on_deliver([lines = lines_](unsigned node, const sim::Frame& f, sim::Time t) {
    char buf[160];
    std::snprintf(buf, sizeof buf, "%llu n%u frame %u->%u %zu bytes%s data=%016llx",
                  static_cast<unsigned long long>(t), node, f.src, f.dst, f.bytes.size(),
                  f.tuser ? " bad" : "",
                  static_cast<unsigned long long>(digest(f.bytes.data(), f.bytes.size())));
    lines->push_back(buf);
  });
}

void MessageTrace::write(std::ostream& out) const {
  for (const auto& l : *lines_) out << l << '\n';
}

std::string MessageTrace::first_difference(const MessageTrace& a, const MessageTrace& b) {
  const auto& x = *a.lines_;
  const auto& y = *b.lines_;
  const size_t n = std::min(x.size(), y.size());
  for (size_t i = 0; i < n; ++i) {
    if (x[i] != y[i]) {
      return "line " + std::to_string(i + 1) + ":\n  " + x[i] + "\n  " + y[i];
    }
  }
  if (x.size() != y.size()) {
    return "lengths " + std::to_string(x.size()) + " and " + std::to_string(y.size()) +
           "; the longer goes on with: " + (x.size() > n ? x[n] : y[n]);
  }
  return "";
}

}  // namespace cni::tb
