// SPDX-License-Identifier: Apache-2.0
// A simulated core: implements cni::drv::MemoryPort for driver code running on a fiber. Each
// blocking call suspends the fiber until the modeled hardware answers.
//
// Costs: every load/store is charged core.access_ns per aligned 8-byte word it touches before
// it reaches the cache (so a 128 B copy costs 16 words); loads then take the cache's hit or
// miss time, split per line (pieces of one access proceed in parallel). Stores retire into a
// store buffer (core.store_buffer entries, one per line piece; a store to the same line as
// the youngest entry merges into it); with core.store_prefetch a store entering the buffer
// also starts an ownership prefetch of its line. Loads forward from the buffer when it covers
// all their bytes and wait for the overlapping entries to drain when it covers only some.
// Uncached accesses go to the UncachedTarget mapped at their address and are not ordered with
// the store buffer (use barrier(), as with Device memory on ARM).
//
// Memory model (host.memory_model, docs/host-sim.md "Memory model and litmus tests"):
//  - tso: the buffer drains in order, one entry at a time, loads in order; barrier() waits
//    until the buffer is empty; barrier_load/barrier_store cost nothing.
//  - armv8: every entry drains as soon as no older entry of its line, of an earlier DMB ST
//    epoch or (for a store-release) at all is still buffered, so stores become visible out of
//    program order; and a load may be satisfied as early as it could have issued --
//    core.stale_ns before now (an invalidation queue), or with the core.load_window-th load
//    (cached or uncached) before it (loads in flight together, hit under miss) -- so it may
//    return the old data of a line another agent invalidated since then, word by word until
//    this core reads or writes the word itself. barrier(), barrier_load() and
//    load_acquire64() end that window, as do a pause and a program's start; load_dep() reads
//    nothing older than its previous load's value. A load still has its value before any
//    later store enters the buffer (no load buffering).
// Every barrier kind costs core.barrier_ns once its conditions hold. With set_access_jitter(j)
// a load, a store buffer entry's ownership request and its drain each reach the cache a random
// 0..j later than they would (as a page walk or a queue in the core would delay them; not
// otherwise modeled, none by default; the litmus runs use it).
#pragma once

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <unordered_map>
#include <vector>

#include "cni/drv/mem.hpp"
#include "cni/sim/cache.hpp"
#include "cni/sim/fiber.hpp"
#include "cni/sim/kernel.hpp"

namespace cni::sim {

class Profile;

enum class MemoryModel { TSO, ARMv8 };

struct CoreParams {
  unsigned line_bytes = 128;
  MemoryModel model = MemoryModel::TSO;  // host.memory_model
  Time access = 0;             // core.access_ns per 8-byte word
  unsigned store_buffer = 16;  // core.store_buffer entries
  bool store_prefetch = true;  // core.store_prefetch
  Time barrier = 0;            // core.barrier_ns
  Time stale = 0;              // core.stale_ns (armv8)
  unsigned load_window = 8;    // core.load_window (armv8)
  Time access_jitter = 0;      // set_access_jitter (tests)
  uint64_t seed = 1;           // sim.seed
  static CoreParams from_profile(const Profile& p);
};

// A device-register (uncached) window, e.g. a PCIe BAR model. Each call starts one 8-byte
// access; `done` is called (at once or from a later kernel event) when it completes.
class UncachedTarget {
 public:
  virtual ~UncachedTarget() = default;
  virtual void read64(proto::Addr addr, std::function<void(uint64_t)> done) = 0;
  virtual void write64(proto::Addr addr, uint64_t value, std::function<void()> done) = 0;
  // A 16-byte read (addr 16-byte aligned); by default two 8-byte reads, one after the other.
  virtual void read128(proto::Addr addr, std::function<void(const uint8_t* bytes)> done);
};

// Address ranges of uncached targets.
class UncachedMap {
 public:
  // Throws std::invalid_argument if the range is empty or overlaps a mapped one.
  void map(proto::Addr base, proto::Addr size, UncachedTarget& target);
  // Throws std::out_of_range naming the address when nothing is mapped there.
  UncachedTarget& target(proto::Addr addr) const;

 private:
  struct Range {
    proto::Addr base, size;
    UncachedTarget* target;
  };
  std::vector<Range> ranges_;
};

struct CoreStats {
  uint64_t loads = 0, stores = 0, forwarded = 0, barriers = 0, prefetches = 0, uncached = 0;
  uint64_t stale_loads = 0;  // load pieces served from an invalidated line's old data (armv8)
  uint64_t early_stores = 0; // buffer entries performed before an older entry (armv8)
};

class Core : public drv::MemoryPort {
 public:
  Core(Kernel& k, HostCache& cache, const CoreParams& p, const UncachedMap& uncached,
       std::string name);

  // Run `program` on this core (a new fiber starting now). One program at a time.
  void spawn(std::function<void(drv::MemoryPort&)> program);
  // A spawned program is still running, or its stores are still draining.
  bool busy() const { return (fiber_ && !fiber_->done()) || !sb_.empty(); }
  size_t store_buffer_used() const { return sb_.size(); }
  HostCache& cache() { return cache_; }
  const CoreParams& params() const { return p_; }
  void set_access_jitter(Time j) { p_.access_jitter = j; }
  const CoreStats& stats() const { return stats_; }
  const std::string& name() const { return name_; }

  void load(drv::Addr addr, void* dst, size_t n) override;
  void store(drv::Addr addr, const void* src, size_t n) override;
  void barrier() override;
  void barrier_load() override;
  void barrier_store() override;
  uint64_t load_acquire64(drv::Addr addr) override;
  void store_release64(drv::Addr addr, uint64_t value) override;
  void load_dep(drv::Addr addr, void* dst, size_t n) override;
  void prefetch(drv::Addr addr, bool exclusive) override;
  uint64_t uncached_load64(drv::Addr addr) override;
  void uncached_load128(drv::Addr addr, void* dst) override;
  void uncached_store64(drv::Addr addr, uint64_t value) override;
  uint64_t now_ns() override;
  void pause_ns(uint64_t ns) override;
  unsigned line_bytes() const override { return p_.line_bytes; }

 private:
  struct SbEntry {
    proto::Addr line = 0;
    std::array<uint8_t, proto::kMaxLineBytes> data{};
    HostCache::LineMask mask;
    uint64_t id = 0;
    uint64_t epoch = 0;    // DMB STs before it (armv8)
    bool release = false;  // a store-release: waits for every older entry
    bool draining = false;
  };
  // The old data of a line another agent invalidated (armv8): readable, word by word, by a
  // load that could have been issued before `since`, when it stopped being the line's value.
  struct Stale {
    std::array<uint8_t, proto::kMaxLineBytes> data{};
    uint32_t words = 0;  // 8-byte words still readable, a bit each
    Time since = 0;
  };
  enum class Cover { None, Partial, Full };

  Fiber& self(const char* op);
  // Throws std::invalid_argument naming `op` unless addr is 8-byte aligned.
  void check_word(proto::Addr addr, const char* op) const;
  void wait_until(const std::function<bool()>& ready);
  void poke();
  void do_load(drv::Addr addr, void* dst, size_t n, bool dep);
  void do_store(drv::Addr addr, const void* src, size_t n, bool release);
  void drain();
  bool may_drain(size_t i) const;
  void start_drain(SbEntry& e);
  void on_invalidated(proto::Addr line, const uint8_t* data);
  bool read_stale(proto::Addr addr, unsigned n, bool dep, uint8_t* dst);
  void forget_stale(proto::Addr line, uint32_t words);
  Time window_start() const;
  void note_issue(Time t);
  void order_point();
  Cover forward(proto::Addr addr, unsigned n, uint8_t* dst) const;
  Time word_cost(proto::Addr addr, size_t n) const;
  Time jitter() { return p_.access_jitter ? rng_() % (p_.access_jitter + 1) : 0; }
  bool weak() const { return p_.model == MemoryModel::ARMv8; }

  Kernel& k_;
  HostCache& cache_;
  CoreParams p_;
  const UncachedMap& uncached_;
  std::string name_;
  std::unique_ptr<Fiber> fiber_;
  bool waiting_ = false;
  std::deque<SbEntry> sb_;
  bool draining_ = false;  // tso: the oldest entry is draining
  uint64_t next_id_ = 0, epoch_ = 0;
  std::unordered_map<proto::Addr, Stale> stale_;
  Time last_load_ = 0;     // when the previous load's value was the memory's (load_dep)
  std::deque<Time> issued_;  // issue times of the last core.load_window loads
  std::mt19937_64 rng_;
  CoreStats stats_;
};

}  // namespace cni::sim
