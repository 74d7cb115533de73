// SPDX-License-Identifier: Apache-2.0
// A simulated core's cache hierarchy as one coherent caching agent (docs/protocol.md, MOESI):
// a private cache with the L2's geometry (LRU) that talks to homes over the fabric, plus an
// inclusive write-through L1 *tag filter* used only to pick the hit latency (l1.hit_ns when a
// loaded line is in the L1 filter, else cache.hit_ns). Loads allocate in the L1 filter,
// stores (write-through, no write-allocate) do not; a line leaving the cache leaves the L1.
//
// Accesses are asynchronous and each stays within one line; `done` runs (from a kernel event)
// once the access is performed. Misses take an MSHR (at most cache.mshrs; further misses wait
// in order) and leave as a request after cache.miss_ns. Clean lines are dropped silently,
// dirty ones written back (state MI until WbAck); snoops are answered in every state after
// cache.snoop_ns, with the state change made on arrival. Retry re-issues after
// cache.retry_backoff_ns; an Error answer, an unexpected message or a request unanswered for
// host.coherence_timeout_ms throws CoherenceError (a machine check) out of Kernel::run.
#pragma once

#include <array>
#include <bitset>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "cni/proto.hpp"
#include "cni/sim/coherence.hpp"
#include "cni/sim/fabric.hpp"
#include "cni/sim/kernel.hpp"

namespace cni::sim {

class Profile;

struct CacheParams {
  unsigned line_bytes = 128;
  unsigned size_kib = 16384;  // cache.size_kib
  unsigned ways = 16;         // cache.ways
  unsigned l1_size_kib = 32;  // l1.size_kib
  unsigned l1_ways = 32;      // l1.ways
  Time l1_hit = 0;            // l1.hit_ns
  Time hit = 0;               // cache.hit_ns
  Time miss = 0;              // cache.miss_ns: miss detection + request formation
  Time snoop = 0;             // cache.snoop_ns: snoop lookup before the answer leaves
  Time retry_backoff = 0;     // cache.retry_backoff_ns
  Time timeout = 0;           // host.coherence_timeout_ms
  Time retry_watchdog = 0;    // host.retry_watchdog_ms: a miss answered Retry this long after
                              // its first request stops the run (0: never)
  unsigned mshrs = 16;        // cache.mshrs

  static CacheParams from_profile(const Profile& p);
  // Throws std::invalid_argument naming the bad parameter.
  void validate() const;
};

struct CacheStats {
  uint64_t loads = 0, stores = 0;      // performed
  uint64_t l1_hits = 0, hits = 0;      // hits by latency class
  uint64_t rds = 0, rdx = 0, upg = 0;  // requests sent (re-issues included)
  uint64_t retries = 0, writebacks = 0, silent_drops = 0, snoops = 0, prefetches = 0;
};

class HostCache : public Agent {
 public:
  using Done = std::function<void()>;
  using LineMask = std::bitset<proto::kMaxLineBytes>;

  HostCache(Kernel& k, Fabric& f, proto::AgentId id, const CacheParams& p, std::string name);

  // Read n bytes at addr (within one line) into dst once performed. `delay`: core-side time
  // before the access reaches the cache.
  void load(proto::Addr addr, void* dst, unsigned n, Done done, Time delay = 0);
  // Write n bytes (within one line); performed once the line is M (E turns M silently).
  void store(proto::Addr addr, const void* src, unsigned n, Done done, Time delay = 0);
  // Write the bytes of `mask` from `data` (a whole line image) into the line at `line`.
  void store_line(proto::Addr line, const uint8_t* data, const LineMask& mask, Done done,
                  Time delay = 0);
  // Non-binding: request the line (for ownership if `exclusive`) unless present or pending.
  void prefetch(proto::Addr addr, bool exclusive, Time delay = 0);

  CacheState state_of(proto::Addr addr) const;
  bool in_l1(proto::Addr addr) const;
  unsigned mshrs_in_use() const { return mshrs_used_; }
  // No outstanding request or write-back and no access waiting for resources.
  bool idle() const { return mshrs_used_ == 0 && wb_.empty() && stalled_.empty(); }
  void set_observer(CoherenceObserver* obs) { obs_ = obs; }
  // Called with a line's data when a snoop takes a readable copy away (FwdInv), before the
  // copy is dropped: the core's invalidation queue (armv8 cores, core.hpp).
  using InvalidateListener = std::function<void(proto::Addr line, const uint8_t* data)>;
  void set_invalidate_listener(InvalidateListener l) { inval_ = std::move(l); }
  const CacheParams& params() const { return p_; }
  const CacheStats& stats() const { return stats_; }
  const std::string& name() const { return name_; }
  proto::Addr line_of(proto::Addr a) const { return a - a % p_.line_bytes; }

  void deliver(const proto::Msg& m) override;

 private:
  enum class Kind : uint8_t { Load, Store, Prefetch, PrefetchX };
  struct Access {
    Kind kind = Kind::Load;
    proto::Addr line = 0;
    unsigned off = 0, n = 0;
    void* dst = nullptr;
    std::array<uint8_t, proto::kMaxLineBytes> data{};
    LineMask mask;
    Done done;
  };
  using AccessPtr = std::shared_ptr<Access>;
  struct Line {
    proto::Addr addr = 0;
    CacheState st = CacheState::I;
    bool dirty_sm = false;  // in SM, entered from O: still owes the dirty data
    uint64_t lru = 0;
    std::array<uint8_t, proto::kMaxLineBytes> data{};
  };
  struct Mshr {
    bool used = false;
    proto::Addr line = 0;
    proto::Op sent = proto::Op::RdS;
    proto::AgentId home = 0;
    Time sent_at = 0;
    Time first_at = 0;  // the miss's first request (Retry re-issues keep it)
    EventId timer, resend;
    std::vector<AccessPtr> waiters;
  };
  struct WriteBack {
    uint8_t tag = 0;
    proto::AgentId home = 0;
    Time sent_at = 0;
    EventId timer;
    std::vector<AccessPtr> waiters;
  };

  void submit(AccessPtr a, Time delay);
  void lookup(const AccessPtr& a, bool perform_now);
  void start_miss(const AccessPtr& a);
  void send_request(unsigned idx);
  void perform(Line& l, Access& a);
  bool make_room(proto::Addr line);
  void evict(Line& l);
  void erase_line(proto::Addr line);
  void finish_mshr(unsigned idx);
  void retry_stalled();
  void set_state(Line& l, CacheState s);
  void notify(proto::Addr line, CacheState from, CacheState to);
  Line* find(proto::Addr line);
  const Line* find(proto::Addr line) const;
  unsigned mshr_for(const proto::Msg& m);
  void on_data(const proto::Msg& m);
  void on_upgack(const proto::Msg& m);
  void on_retry(const proto::Msg& m);
  void on_wback(const proto::Msg& m);
  void on_snoop(const proto::Msg& m);
  [[noreturn]] void protocol_error(const proto::Msg& m, const std::string& why) const;
  std::string describe(const proto::Msg& m) const;
  uint64_t set_of(proto::Addr line) const { return (line / p_.line_bytes) % sets_n_; }
  void l1_touch(proto::Addr line);
  void l1_remove(proto::Addr line);

  Kernel& k_;
  Fabric& fabric_;
  CacheParams p_;
  std::string name_;
  uint64_t sets_n_ = 1;
  uint64_t l1_sets_n_ = 1;
  std::unordered_map<proto::Addr, Line> lines_;
  std::unordered_map<uint64_t, std::vector<proto::Addr>> sets_;
  std::vector<std::vector<std::pair<proto::Addr, uint64_t>>> l1_;  // per set: (line, lru)
  std::vector<Mshr> mshr_;
  std::unordered_map<proto::Addr, unsigned> mshr_of_;
  unsigned mshrs_used_ = 0;
  std::unordered_map<proto::Addr, WriteBack> wb_;
  uint8_t wb_seq_ = 0;
  std::deque<AccessPtr> stalled_;
  bool retrying_ = false;
  uint64_t lru_clock_ = 0;
  CoherenceObserver* obs_ = nullptr;
  InvalidateListener inval_;
  CacheStats stats_;
};

}  // namespace cni::sim
