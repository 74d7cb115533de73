// SPDX-License-Identifier: Apache-2.0
// Host home agent: the home of one socket's DRAM range (docs/protocol.md, home side), with a
// full-map directory (per line I / S{sharers} / X{owner} / O{owner, sharers}) and a DRAM model.
//
// Requests to a line already in a transaction wait in that line's queue, and requests beyond
// home.max_transactions wait in arrival order -- the host home never answers Retry. Snoops
// use FwdInv for ownership requests and, for a read of a line another cache owns, FwdDownO
// when home.forward_owned is set (a dirty owner keeps O and its data is forwarded as DataS;
// an ownership request is granted a dirty line as DataM) or FwdDown otherwise (memory is
// updated). A non-allocating read (RdNA) snoops like RdS and is answered DataI without adding
// the requester to the directory; a write-invalidate (WrInv) snoops like RdX, writes the
// request's line into memory, leaves the directory I and is answered WrAck. Write-backs always
// sink; one racing a snoop is absorbed into the snoop's transaction (rule 6). Every decision takes home.dir_ns; reads from memory also wait for DRAM
// (dram.latency_ns, serialized at dram.bandwidth_gib_s), started in parallel with any snoops.
// Malformed messages are answered Error (requests) or dropped, and counted.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <string>
#include <unordered_map>
#include <vector>

#include "cni/proto.hpp"
#include "cni/sim/fabric.hpp"
#include "cni/sim/kernel.hpp"

namespace cni::sim {

class Profile;

struct HomeParams {
  unsigned line_bytes = 128;
  Time dir = 0;                    // home.dir_ns
  Time dram_latency = 0;           // dram.latency_ns
  double dram_bw_gib_s = 0.0;      // dram.bandwidth_gib_s (0: unlimited)
  unsigned max_transactions = 16;  // home.max_transactions
  bool grant_exclusive = true;     // home.grant_exclusive: RdS to an uncached line gets DataE
  bool forward_owned = true;       // home.forward_owned: FwdDownO / DataM cache-to-cache
  static HomeParams from_profile(const Profile& p);
};

enum class DirState : uint8_t { I, S, X, O };
const char* dir_state_name(DirState s);

struct HomeStats {
  uint64_t requests = 0, writebacks = 0, snoops = 0;
  uint64_t waited_busy = 0, waited_full = 0;  // requests queued behind a line / a full table
  uint64_t dram_reads = 0, dram_writes = 0;
  uint64_t errors = 0;  // malformed or protocol-violating messages (answered Error or dropped)
};

class HomeAgent : public Agent {
 public:
  HomeAgent(Kernel& k, Fabric& f, proto::AgentId id, proto::Addr base, proto::Addr size,
            const HomeParams& p, std::string name);

  void deliver(const proto::Msg& m) override;

  // Backdoor (tests, loaders): memory content, bypassing coherence.
  void read_memory(proto::Addr addr, void* dst, size_t n) const;
  void write_memory(proto::Addr addr, const void* src, size_t n);

  DirState dir_state(proto::Addr addr) const;
  uint16_t dir_sharers(proto::Addr addr) const;  // bit per agent (O: excludes the owner)
  proto::AgentId dir_owner(proto::Addr addr) const;
  unsigned transactions_in_use() const { return used_; }
  size_t queued() const;
  const HomeStats& stats() const { return stats_; }
  // The first malformed or protocol-violating messages seen (at most 16), with the reason.
  const std::vector<std::string>& error_log() const { return error_log_; }
  const std::string& name() const { return name_; }
  proto::Addr base() const { return base_; }
  proto::Addr size() const { return size_; }

 private:
  struct DirEntry {
    DirState st = DirState::I;
    uint16_t sharers = 0;
    proto::AgentId owner = 0;
  };
  struct Txn {
    bool used = false;
    proto::Msg req;
    bool own = false;  // RdX, Upg (possibly treated as RdX) or WrInv: invalidates the others
    proto::Op grant = proto::Op::DataS;
    proto::Op snoop = proto::Op::FwdInv;
    DirEntry start;
    uint16_t pending = 0, wbp = 0, wbgot = 0;
    bool have_data = false;
    std::array<uint8_t, proto::kMaxLineBytes> data{};
    Time mem_ready = 0;
    bool granting = false;  // complete; the grant is scheduled
  };
  using Line = std::array<uint8_t, proto::kMaxLineBytes>;

  bool valid_request(const proto::Msg& m);
  void on_request(const proto::Msg& m);
  void on_writeback(const proto::Msg& m);
  void on_snoop_answer(const proto::Msg& m);
  void start(const proto::Msg& m);
  void maybe_complete(unsigned slot);
  void release(unsigned slot);
  void reply(const proto::Msg& req, proto::Op op, Time delay, const uint8_t* data = nullptr);
  void reject(const proto::Msg& m, const std::string& why);
  Time dram_access();
  Line& mem_line(proto::Addr line);
  void write_line(proto::Addr line, const uint8_t* data);
  proto::Addr line_of(proto::Addr a) const { return a - a % p_.line_bytes; }

  Kernel& k_;
  Fabric& fabric_;
  HomeParams p_;
  std::string name_;
  proto::Addr base_, size_;
  std::unordered_map<proto::Addr, DirEntry> dir_;
  std::unordered_map<proto::Addr, Line> mem_;
  std::unordered_map<proto::Addr, unsigned> busy_;  // line -> transaction slot
  std::unordered_map<proto::Addr, std::deque<proto::Msg>> line_q_;
  std::deque<proto::Msg> full_q_;
  std::vector<Txn> tt_;
  unsigned used_ = 0;
  Time dram_free_ = 0;
  HomeStats stats_;
  static constexpr size_t kErrorLogMax = 16;
  std::vector<std::string> error_log_;
};

}  // namespace cni::sim
