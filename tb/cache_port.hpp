// SPDX-License-Identifier: Apache-2.0
// The engine side of a device caching agent (rtl/coh/cni_cache_agent.sv, docs/cache-agent.md)
// as the host simulation drives it, whatever model holds the block (the block alone,
// tb/cache/rtl_cache_agent.hpp, or inside the device core, tb/device/sim_device.hpp): engine
// requests queued by submit() and issued with a free engine id, the outstanding ones by id,
// and what the block's monitor port and the home's answers tell a CoherenceObserver -- every
// line state change (OM as SM), every access performed in the cache with its data at that
// instant (a read as a load, a write as a store of each contiguous run of its bytes), and RdNA
// and WrInv misses, performed at the home, under the home's agent id when it sends DataI or
// WrAck. Every read's response is checked against the data it was performed with, and every
// monitor report against the state last reported (errors()).
#pragma once

#include <array>
#include <bitset>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <string>
#include <vector>

#include "cni/proto.hpp"
#include "cni/sim/coherence.hpp"
#include "cni/sim/kernel.hpp"

namespace cni::tb {

// Engine operations, cni_coh_pkg::CA_*.
enum class CaOp : uint8_t { RdS = 0, RdX = 1, Wr = 2, RdNA = 3, WrInv = 4, Flush = 5 };
const char* ca_op_name(CaOp op);
bool ca_is_read(CaOp op);

// Line state codes of the monitor port: sim::CacheState's order, then OM.
enum class LineState : uint8_t { I, S, E, O, M, IS, IM, SM, MI, OM };
const char* line_state_name(LineState s);
// As the coherence checker sees it: OM (an upgrade from O, readable) is SM.
sim::CacheState to_cache_state(LineState s);

using CaLine = std::array<uint8_t, proto::kMaxLineBytes>;
using CaByteMask = std::bitset<proto::kMaxLineBytes>;

// An engine request as the block's req_* port takes it.
struct CaRequest {
  CaOp op = CaOp::RdS;
  proto::Addr addr = 0;
  CaLine data{};  // Wr, WrInv: the line
  CaByteMask be;  // Wr: the bytes written
  unsigned id = 0;
};

// A random engine request of the stresses (its address left to the caller): 20 % RdS, 10 % RdX,
// 25 % Wr of a random byte range, 15 % RdNA, 15 % WrInv, 15 % Flush; random line data.
CaRequest random_ca_request(std::mt19937_64& rng, unsigned line_bytes);

// An engine request's answer, as the block's rsp_* port gave it.
struct CaResult {
  CaOp op = CaOp::RdS;
  proto::Addr addr = 0;
  bool err = false;
  CaLine data{};     // the line, for reads
  sim::Time at = 0;  // when the response left the block
};

class CachePort {
 public:
  using Done = std::function<void(const CaResult&)>;

  // `agent`: the block's agent id; `id_bits`: the width of its engine id (IdW).
  CachePort(proto::AgentId agent, unsigned line_bytes, unsigned id_bits);

  // Queue an engine request (line-aligned `addr` unless testing a bad one). `data` is a whole
  // line for Wr/WrInv; `be` selects Wr's bytes (all when null). `done` runs when the response
  // leaves the block.
  void submit(CaOp op, proto::Addr addr, Done done, const uint8_t* data = nullptr,
              const CaByteMask* be = nullptr);
  // The oldest queued request with a free engine id, outstanding from now on; none when the
  // queue is empty or every id is outstanding.
  std::optional<CaRequest> issue();

  // The monitor port: a line's state change, and an engine access performed with its line.
  void state_changed(proto::Addr line, LineState from, LineState to, sim::Time now);
  void performed(unsigned id, const uint8_t* line, sim::Time now);
  // The response for `id` left the block: checked, then its request's `done` runs.
  void responded(unsigned id, bool err, const uint8_t* data, sim::Time now);
  // A message the block sent (a WrInv's line is kept by tag until its WrAck), and one a home
  // sent to it (DataI and WrAck perform RdNA and WrInv misses).
  void sent(const proto::Msg& m);
  void home_sent(const proto::Msg& m, sim::Time now);

  void set_observer(sim::CoherenceObserver* obs) { obs_ = obs; }
  // The line's state as the monitor port last reported it.
  LineState state(proto::Addr line) const;
  // Requests submitted and not yet answered.
  size_t outstanding() const { return open_; }
  // issue() would give a request now.
  bool can_issue() const { return !queue_.empty() && !free_ids_.empty(); }
  const std::vector<std::string>& errors() const { return errors_; }
  unsigned line_bytes() const { return line_bytes_; }

 private:
  struct Request {
    CaRequest req;
    Done done;
    uint64_t seq = 0;        // issue order
    bool performed = false;  // a performed access (or DataI) fixed the expected data
    CaLine expect{};
  };

  proto::AgentId agent_;
  unsigned line_bytes_;
  std::deque<std::shared_ptr<Request>> queue_;          // not yet issued
  std::map<unsigned, std::shared_ptr<Request>> by_id_;  // issued, not yet answered
  std::vector<unsigned> free_ids_;
  uint64_t next_seq_ = 0;
  size_t open_ = 0;
  std::map<uint8_t, CaLine> wrinv_data_;  // WrInv sent, by tag: the line the home will write
  std::map<proto::Addr, LineState> states_;
  sim::CoherenceObserver* obs_ = nullptr;
  std::vector<std::string> errors_;
};

}  // namespace cni::tb
