// SPDX-License-Identifier: Apache-2.0
// Test helpers: an agent whose messages the test scripts by hand (a home, a cache or a
// device stand-in), and an observer that logs cache state changes.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstring>
#include <string>
#include <vector>

#include "cni/sim/coherence.hpp"
#include "cni/sim/fabric.hpp"

namespace cni::sim::test {

// A line image whose bytes are seed, seed+1, ...
inline std::array<uint8_t, proto::kMaxLineBytes> pattern(uint8_t seed) {
  std::array<uint8_t, proto::kMaxLineBytes> d{};
  for (unsigned i = 0; i < d.size(); ++i) d[i] = static_cast<uint8_t>(seed + i);
  return d;
}

class ScriptAgent : public Agent {
 public:
  ScriptAgent(proto::AgentId id, Kernel& k, Fabric& f) : Agent(id), k_(k), f_(f) {}
  void deliver(const proto::Msg& m) override {
    got.push_back(m);
    when.push_back(k_.now());
  }
  // Send `op` for `addr` to `dst`, with a whole line of `data` if the opcode carries data.
  void send(proto::Op op, proto::AgentId dst, proto::Addr addr, uint8_t tag,
            const std::array<uint8_t, proto::kMaxLineBytes>* data = nullptr, uint8_t flags = 0) {
    proto::Msg m;
    m.op = op;
    m.src = id();
    m.dst = dst;
    m.addr = addr;
    m.tag = tag;
    m.flags = flags;
    if (proto::carries_data(op)) {
      m.len = static_cast<uint8_t>(f_.line_bytes());
      if (data != nullptr) std::memcpy(m.data.data(), data->data(), f_.line_bytes());
    }
    f_.send(m);
  }
  // Answer `req` (a message this agent received) with `op`.
  void answer(const proto::Msg& req, proto::Op op,
              const std::array<uint8_t, proto::kMaxLineBytes>* data = nullptr, uint8_t flags = 0) {
    send(op, req.src, req.addr, req.tag, data, flags);
  }
  const proto::Msg& last() const {
    EXPECT_FALSE(got.empty());
    return got.back();
  }
  std::vector<proto::Msg> got;
  std::vector<Time> when;

 private:
  Kernel& k_;
  Fabric& f_;
};

struct StateLog : CoherenceObserver {
  struct Change {
    proto::AgentId agent;
    proto::Addr line;
    CacheState from, to;
  };
  void on_state(proto::AgentId agent, proto::Addr line, CacheState from, CacheState to,
                Time) override {
    changes.push_back({agent, line, from, to});
  }
  void on_load(proto::AgentId, proto::Addr, const void*, size_t, Time) override { ++loads; }
  void on_store(proto::AgentId, proto::Addr, const void*, size_t, Time) override { ++stores; }
  // "I>IS>S" style path of one line's states.
  std::string path(proto::Addr line) const {
    std::string out;
    for (const auto& c : changes) {
      if (c.line != line) continue;
      if (out.empty()) out = state_name(c.from);
      out += std::string(">") + state_name(c.to);
    }
    return out;
  }
  std::vector<Change> changes;
  unsigned loads = 0, stores = 0;
};

}  // namespace cni::sim::test
