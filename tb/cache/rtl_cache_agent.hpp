// SPDX-License-Identifier: Apache-2.0
// The Verilated device caching agent (rtl/coh/cni_cache_agent.sv, docs/cache-agent.md) as an
// agent of the host simulation: messages from the fabric enter its link-in port in arrival
// order, the messages it emits go back into the fabric, its engine port takes requests queued
// with submit(), and it is clocked by its own clock domain. Its monitor port feeds a
// CoherenceObserver (state changes, and every access it performs, reported with its data at
// the cycle it is performed); a RdNA or WrInv that misses is performed at the home, so it is
// reported under the home's agent id when the home sends DataI or WrAck. Every read's response
// is checked against the data it was performed with (errors()).
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cni/proto.hpp"
#include "cni/sim/coherence.hpp"
#include "cni/sim/fabric.hpp"
#include "cni/sim/kernel.hpp"

namespace cni::tb {

// Parameters of the checking build (tb/rtl_cache.cmake).
struct CacheGeometry {
  unsigned line_bytes, sets, ways, mshrs, id_bits, home_shift, backoff_bits;
  unsigned lines() const { return sets * ways; }
};
const CacheGeometry& cache_geometry();

// Engine operations, cni_coh_pkg::CA_*.
enum class CaOp : uint8_t { RdS = 0, RdX = 1, Wr = 2, RdNA = 3, WrInv = 4, Flush = 5 };
const char* ca_op_name(CaOp op);

// Line state codes of the monitor port: sim::CacheState's order, then OM.
enum class LineState : uint8_t { I, S, E, O, M, IS, IM, SM, MI, OM };
const char* line_state_name(LineState s);
// As the coherence checker sees it: OM (an upgrade from O, readable) is SM.
sim::CacheState to_cache_state(LineState s);

// Event counters of the cnt_o port.
enum class CaCounter : unsigned { Hit, Miss, WriteBack, Retry, Snoop, Error, Num };

class RtlCacheAgent : public sim::Agent {
 public:
  using Line = std::array<uint8_t, proto::kMaxLineBytes>;
  using ByteMask = std::bitset<proto::kMaxLineBytes>;
  struct Options {
    std::string name = "cache_agent";  // trace file stem
    double freq_mhz = 300.0;
    uint64_t seed = 1;                 // Verilator randReset seed and the stall generators'
    bool trace = false;                // or env CNI_TRACE=1
    std::string trace_dir = ".";
    uint32_t backoff_cycles = 16;      // cfg_backoff_i
    double oreq_stall = 0.0;           // probability that oreq_ready_i is low in a cycle
    double orsp_stall = 0.0;           // ... orsp_ready_i
    double rsp_stall = 0.0;            // ... rsp_ready_i
  };
  struct Result {
    CaOp op = CaOp::RdS;
    proto::Addr addr = 0;
    bool err = false;
    Line data{};      // the line, for reads
    sim::Time at = 0; // when the response left the block
  };
  using Done = std::function<void(const Result&)>;

  // Attaches itself to `node` of `f` and starts its clock.
  RtlCacheAgent(sim::Kernel& k, sim::Fabric& f, sim::NodeId node, proto::AgentId id,
                const Options& opt);
  ~RtlCacheAgent() override;
  RtlCacheAgent(const RtlCacheAgent&) = delete;
  RtlCacheAgent& operator=(const RtlCacheAgent&) = delete;

  void deliver(const proto::Msg& m) override;

  // Queue an engine request (line-aligned `addr` unless testing a bad one). `data` is a whole
  // line for Wr/WrInv; `be` selects Wr's bytes (all when null). `done` runs when the response
  // leaves the block.
  void submit(CaOp op, proto::Addr addr, Done done, const uint8_t* data = nullptr,
              const ByteMask* be = nullptr);

  void set_observer(sim::CoherenceObserver* obs) { obs_ = obs; }
  // Change the ready stall probabilities (e.g. hold rsp_ready_i low: 1.0).
  void set_stalls(double oreq, double orsp, double rsp);
  // The line's state as the monitor port last reported it.
  LineState state(proto::Addr line) const;
  uint64_t count(CaCounter c) const { return counts_[static_cast<unsigned>(c)]; }
  // Requests submitted and not yet answered; messages received and not yet taken.
  size_t outstanding() const { return open_; }
  size_t inbox() const { return inbox_.size(); }
  bool idle() const { return open_ == 0 && inbox_.empty(); }
  // Verilator errors (failed assertions) and adapter checks (response data).
  bool got_error() const;
  const std::vector<std::string>& errors() const { return errors_; }
  uint64_t cycles() const { return cycle_; }
  sim::Time period() const { return clk_.period(); }
  unsigned line_bytes() const { return cache_geometry().line_bytes; }

 private:
  struct Request {
    CaOp op = CaOp::RdS;
    proto::Addr addr = 0;
    Line data{};
    ByteMask be;
    Done done;
    unsigned id = 0;
    bool has_id = false;     // an engine id is assigned (at the head of the queue)
    bool performed = false;  // a performed access (or DataI) fixed the expected data
    Line expect{};
  };
  struct Model;

  void tick();
  void drive();
  void sample();
  void performed(unsigned id, const uint8_t* line);
  void home_performed(const proto::Msg& m);
  bool stall(double p);

  sim::Kernel& k_;
  sim::Fabric& f_;
  Options opt_;
  std::unique_ptr<Model> m_;
  sim::ClockDomain clk_;
  std::mt19937_64 rng_;
  uint64_t cycle_ = 0;
  std::deque<proto::Msg> inbox_;
  std::deque<std::shared_ptr<Request>> queue_;                // not yet taken by the block
  std::map<unsigned, std::shared_ptr<Request>> by_id_;        // taken, not yet answered
  std::vector<unsigned> free_ids_;
  size_t open_ = 0;
  std::map<uint8_t, Line> wrinv_data_;  // WrInv sent, by tag: the line the home will write
  std::map<proto::Addr, LineState> states_;
  std::array<uint64_t, static_cast<unsigned>(CaCounter::Num)> counts_{};
  sim::CoherenceObserver* obs_ = nullptr;
  std::vector<std::string> errors_;
  bool ready_oreq_ = true, ready_orsp_ = true, ready_rsp_ = true;
};

}  // namespace cni::tb
