// SPDX-License-Identifier: Apache-2.0
// The Verilated device caching agent (rtl/coh/cni_cache_agent.sv, docs/cache-agent.md) as an
// agent of the host simulation: messages from the fabric enter its link-in port in arrival
// order, the messages it emits go back into the fabric, its engine port takes requests queued
// with submit(), and it is clocked by its own clock domain. The engine side's bookkeeping --
// ids, what its monitor port and the home's answers report to a CoherenceObserver, the check
// of every response (errors()) -- is a CachePort (cache_port.hpp).
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cache_port.hpp"
#include "cni/proto.hpp"
#include "cni/sim/coherence.hpp"
#include "cni/sim/fabric.hpp"
#include "cni/sim/kernel.hpp"
#include "stall.hpp"

namespace cni::tb {

// Parameters of the checking build (tb/rtl_cache.cmake).
struct CacheGeometry {
  unsigned line_bytes, sets, ways, mshrs, wbs, id_bits, home_shift, backoff_bits;
  unsigned lines() const { return sets * ways; }
};
const CacheGeometry& cache_geometry();

// Event counters of the cnt_o port.
enum class CaCounter : unsigned { Hit, Miss, WriteBack, Retry, Snoop, Error, Num };

class RtlCacheAgent : public sim::Agent {
 public:
  using Line = CaLine;
  using ByteMask = CaByteMask;
  using Result = CaResult;
  using Done = CachePort::Done;
  struct Options {
    std::string name = "cache_agent";  // trace file stem
    double freq_mhz = 300.0;
    uint64_t seed = 1;                 // Verilator randReset seed and the stall generators'
    bool trace = false;                // or env CNI_TRACE=1
    std::string trace_dir = ".";
    uint32_t backoff_cycles = 16;      // cfg_backoff_i
    uint16_t clean_cycles = 0;         // cfg_clean_i (idle clean; 0: off)
    double oreq_stall = 0.0;           // probability that oreq_ready_i is low in a cycle
    double orsp_stall = 0.0;           // ... orsp_ready_i
    double rsp_stall = 0.0;            // ... rsp_ready_i
  };
  // Attaches itself to `node` of `f` and starts its clock.
  RtlCacheAgent(sim::Kernel& k, sim::Fabric& f, sim::NodeId node, proto::AgentId id,
                const Options& opt);
  ~RtlCacheAgent() override;
  RtlCacheAgent(const RtlCacheAgent&) = delete;
  RtlCacheAgent& operator=(const RtlCacheAgent&) = delete;

  void deliver(const proto::Msg& m) override;

  // Queue an engine request (CachePort::submit).
  void submit(CaOp op, proto::Addr addr, Done done, const uint8_t* data = nullptr,
              const ByteMask* be = nullptr) {
    port_.submit(op, addr, std::move(done), data, be);
  }

  void set_observer(sim::CoherenceObserver* obs) { port_.set_observer(obs); }
  // Change the ready stall probabilities (e.g. hold rsp_ready_i low: 1.0).
  void set_stalls(double oreq, double orsp, double rsp);
  // The line's state as the monitor port last reported it.
  LineState state(proto::Addr line) const { return port_.state(line); }
  uint64_t count(CaCounter c) const { return counts_[static_cast<unsigned>(c)]; }
  // Requests submitted and not yet answered; messages received and not yet taken.
  size_t outstanding() const { return port_.outstanding(); }
  size_t inbox() const { return inbox_.size(); }
  bool idle() const { return outstanding() == 0 && inbox_.empty(); }
  // Verilator errors (failed assertions) and adapter checks (response data, monitor reports).
  bool got_error() const;
  const std::vector<std::string>& errors() const { return port_.errors(); }
  uint64_t cycles() const { return cycle_; }
  sim::Time period() const { return clk_.period(); }
  unsigned line_bytes() const { return cache_geometry().line_bytes; }

 private:
  struct Model;

  void tick();
  void drive();
  void sample();

  sim::Kernel& k_;
  sim::Fabric& f_;
  Options opt_;
  std::unique_ptr<Model> m_;
  sim::ClockDomain clk_;
  Stall stall_;
  uint64_t cycle_ = 0;
  std::deque<proto::Msg> inbox_;
  CachePort port_;
  std::optional<CaRequest> presented_;  // on the engine port until the block takes it
  std::array<uint64_t, static_cast<unsigned>(CaCounter::Num)> counts_{};
};

}  // namespace cni::tb
