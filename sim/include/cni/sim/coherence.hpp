// SPDX-License-Identifier: Apache-2.0
// Caching-agent states (docs/protocol.md, "Cache states") and the observer interface through
// which caching agents report every state change and every performed load and store, for
// coherence checkers and tracing. A load or store is *performed* at the instant its bytes are
// read from or written into the cached line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stdexcept>

#include "cni/proto.hpp"
#include "cni/sim/kernel.hpp"

namespace cni::sim {

// Stable MOESI states plus the transients of docs/protocol.md: IS/IM (RdS/RdX sent, waiting
// for data), SM (Upg sent; the S data stays readable), MI (WB sent, waiting for WbAck; the
// line is no longer readable).
enum class CacheState : uint8_t { I, S, E, O, M, IS, IM, SM, MI };

const char* state_name(CacheState s);
// May a load read the line in this state?
constexpr bool readable(CacheState s) {
  return s == CacheState::M || s == CacheState::O || s == CacheState::E || s == CacheState::S ||
         s == CacheState::SM;
}
// May a store write it (E becomes M silently)?
constexpr bool writable(CacheState s) { return s == CacheState::M || s == CacheState::E; }

class CoherenceObserver {
 public:
  virtual ~CoherenceObserver() = default;
  virtual void on_state(proto::AgentId agent, proto::Addr line, CacheState from, CacheState to,
                        Time t) = 0;
  virtual void on_load(proto::AgentId agent, proto::Addr addr, const void* data, size_t n,
                       Time t) = 0;
  virtual void on_store(proto::AgentId agent, proto::Addr addr, const void* data, size_t n,
                        Time t) = 0;
  // A home writing its own memory (device logic storing to a device line). Observers that
  // tell homes from caches by whether an agent ever reported a state use on_store for that;
  // an agent that is both (a device: home of its lines, caching agent of host lines) reports
  // its home-side stores here. The default ignores them.
  virtual void on_home_store(proto::AgentId home, proto::Addr addr, const void* data, size_t n,
                             Time t) {
    (void)home, (void)addr, (void)data, (void)n, (void)t;
  }
};

// A protocol violation, an Error answer or a coherence timeout: fatal for the simulated
// machine, like a machine check.
class CoherenceError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

}  // namespace cni::sim
