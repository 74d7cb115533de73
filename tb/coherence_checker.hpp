// SPDX-License-Identifier: Apache-2.0
// Coherence checker. Observes every caching agent that reports to it (host caches through
// HostSystem::set_observer, the device's caching agent through SimDevice::set_observer, or any
// other agent that reports through CoherenceObserver) and checks, whatever agent is home:
//  - single writer / multiple readers, on every state change: if any agent holds a line in M
//    or E no other agent holds it readable (M, O, E, S, SM), and at most one agent holds O;
//  - performed accesses happen in a permitted state: a caching agent loads only in a readable
//    state and stores only in M;
//  - the data-value invariant on watched ranges: a shadow memory follows every performed
//    store, and every performed load must return the shadow's bytes.
// A store reported by an agent that never reported a cache state is a home-side write (e.g.
// device logic writing its memory): it updates the shadow and requires that no cache holds
// the line readable at that moment; so is a store reported through on_home_store (by an agent
// that is also a caching agent: the device).
// Every tb::System has one per node (its host caches and devices report to it), so every system
// test and benchmark run checks single writer and permitted states; data values are checked on
// the ranges a test watches. The host-model tests (tests/sim) and the caching agent's bench
// (tests/cache) attach their own (docs/host-sim.md).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <unordered_map>
#include <vector>

#include "cni/sim/coherence.hpp"

namespace cni::tb {

class CoherenceChecker : public sim::CoherenceObserver {
 public:
  explicit CoherenceChecker(unsigned line_bytes = 128);

  // Check data values in [base, base + size). With `zero_init` the shadow starts as zeros
  // (host DRAM); otherwise a byte is unknown until the first store to it or load of it.
  void watch(proto::Addr base, proto::Addr size, bool zero_init = true);
  // Set shadow bytes directly (memory preloaded behind the caches' back).
  void set_shadow(proto::Addr addr, const void* data, size_t n);
  // Throw CoherenceError at the first violation instead of only recording it.
  void set_throw_on_error(bool on) { throw_ = on; }

  const std::vector<std::string>& errors() const { return errors_; }
  uint64_t state_changes() const { return state_changes_; }
  uint64_t loads_checked() const { return loads_checked_; }
  uint64_t stores_seen() const { return stores_seen_; }
  sim::CacheState state(proto::AgentId agent, proto::Addr line) const;

  void on_state(proto::AgentId agent, proto::Addr line, sim::CacheState from, sim::CacheState to,
                sim::Time t) override;
  void on_load(proto::AgentId agent, proto::Addr addr, const void* data, size_t n,
               sim::Time t) override;
  void on_store(proto::AgentId agent, proto::Addr addr, const void* data, size_t n,
                sim::Time t) override;
  void on_home_store(proto::AgentId home, proto::Addr addr, const void* data, size_t n,
                     sim::Time t) override;

 private:
  struct Shadow {
    uint8_t value = 0;
    bool known = false;
  };
  void error(const std::string& msg);
  // A home-side write: no cache may hold the line readable now.
  void check_home_store(proto::AgentId home, proto::Addr addr, sim::Time t);
  void update_shadow(proto::Addr addr, const void* data, size_t n);
  std::string holders(proto::Addr line) const;
  Shadow* shadow(proto::Addr addr);
  proto::Addr line_of(proto::Addr a) const { return a - a % line_bytes_; }

  unsigned line_bytes_;
  bool throw_ = false;
  // line -> (agent -> state), only agents not in I.
  std::unordered_map<proto::Addr, std::map<proto::AgentId, sim::CacheState>> lines_;
  uint32_t caching_agents_ = 0;  // bit per agent that ever reported a state
  struct Range {
    proto::Addr base, size;
    bool zero_init;
  };
  std::vector<Range> ranges_;
  std::unordered_map<proto::Addr, Shadow> shadow_;
  std::vector<std::string> errors_;
  uint64_t state_changes_ = 0, loads_checked_ = 0, stores_seen_ = 0;
};

}  // namespace cni::tb
