// SPDX-License-Identifier: Apache-2.0
// A simulated core: implements cni::drv::MemoryPort for driver code running on a fiber. Each
// blocking call suspends the fiber until the modeled hardware answers.
//
// Costs: every load/store is charged core.access_ns per aligned 8-byte word it touches before
// it reaches the cache (so a 128 B copy costs 16 words); loads then take the cache's hit or
// miss time, split per line (pieces of one access proceed in parallel). Stores retire into a
// store buffer (core.store_buffer entries, one per line piece; a store to the same line as
// the youngest entry merges into it) and drain in order, each performed when its line is
// writable; with core.store_prefetch a store entering the buffer also starts an ownership
// prefetch of its line. Loads forward from the buffer when it covers all their bytes and wait
// for the overlapping entries to drain when it covers only some. barrier() waits until the
// buffer is empty (loads are blocking, so earlier loads are complete) and costs
// core.barrier_ns. Uncached accesses go to the UncachedTarget mapped at their address and are
// not ordered with the store buffer (use barrier(), as with Device memory on ARM).
#pragma once

#include <array>
#include <deque>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cni/drv/mem.hpp"
#include "cni/sim/cache.hpp"
#include "cni/sim/fiber.hpp"
#include "cni/sim/kernel.hpp"

namespace cni::sim {

class Profile;

struct CoreParams {
  unsigned line_bytes = 128;
  Time access = 0;             // core.access_ns per 8-byte word
  unsigned store_buffer = 16;  // core.store_buffer entries
  bool store_prefetch = true;  // core.store_prefetch
  Time barrier = 0;            // core.barrier_ns
  static CoreParams from_profile(const Profile& p);
};

// A device-register (uncached) window, e.g. a PCIe BAR model. Each call starts one 8-byte
// access; `done` is called (at once or from a later kernel event) when it completes.
class UncachedTarget {
 public:
  virtual ~UncachedTarget() = default;
  virtual void read64(proto::Addr addr, std::function<void(uint64_t)> done) = 0;
  virtual void write64(proto::Addr addr, uint64_t value, std::function<void()> done) = 0;
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
  const CoreStats& stats() const { return stats_; }
  const std::string& name() const { return name_; }

  void load(drv::Addr addr, void* dst, size_t n) override;
  void store(drv::Addr addr, const void* src, size_t n) override;
  void barrier() override;
  void prefetch(drv::Addr addr, bool exclusive) override;
  uint64_t uncached_load64(drv::Addr addr) override;
  void uncached_store64(drv::Addr addr, uint64_t value) override;
  uint64_t now_ns() override;
  void pause_ns(uint64_t ns) override;
  unsigned line_bytes() const override { return p_.line_bytes; }

 private:
  struct SbEntry {
    proto::Addr line = 0;
    std::array<uint8_t, proto::kMaxLineBytes> data{};
    HostCache::LineMask mask;
    bool draining = false;
  };
  enum class Cover { None, Partial, Full };

  Fiber& self(const char* op);
  void wait_until(const std::function<bool()>& ready);
  void poke();
  void drain();
  Cover forward(proto::Addr addr, unsigned n, uint8_t* dst) const;
  Time word_cost(proto::Addr addr, size_t n) const;

  Kernel& k_;
  HostCache& cache_;
  CoreParams p_;
  const UncachedMap& uncached_;
  std::string name_;
  std::unique_ptr<Fiber> fiber_;
  bool waiting_ = false;
  std::deque<SbEntry> sb_;
  bool draining_ = false;
  CoreStats stats_;
};

}  // namespace cni::sim
