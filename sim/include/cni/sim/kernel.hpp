// SPDX-License-Identifier: Apache-2.0
// Discrete-event simulation kernel: picosecond time, an event queue with deterministic
// tie-breaking (equal times run in scheduling order), cancellable events, and free-running
// clock domains for cycle-driven models (the Verilated device registers its eval on one).
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace cni::sim {

// Simulated time in picoseconds.
using Time = uint64_t;

// Nanoseconds to Time, rounded to the nearest picosecond. Throws on negative or NaN input.
Time ns(double nanoseconds);
inline double to_ns(Time t) { return static_cast<double>(t) / 1000.0; }
// Period of a `freq_mhz` clock, rounded to the picosecond. Throws std::invalid_argument
// starting with `what` unless the frequency is in (0, 1 THz].
Time clock_period(const std::string& what, double freq_mhz);

// Handle of a scheduled event, for Kernel::cancel.
struct EventId {
  uint32_t slot = 0;
  uint64_t seq = 0;  // 0: no event
  explicit operator bool() const { return seq != 0; }
};

class Kernel {
 public:
  Kernel() = default;
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  Time now() const { return now_; }
  // Schedule `fn` at absolute time `t` (>= now()). Events at equal times run in the order
  // they were scheduled.
  EventId at(Time t, std::function<void()> fn);
  EventId after(Time dt, std::function<void()> fn) { return at(now_ + dt, std::move(fn)); }
  // Remove a scheduled event. Cancelling an event that already ran or was cancelled is a
  // no-op, so owners may cancel unconditionally.
  void cancel(EventId id);

  // Run every event with time <= t, then advance now() to t.
  void run_until(Time t);
  // Run events until done() is true (checked before every event) or no events remain.
  void run(const std::function<bool()>& done);
  // Run the next event; false when none remains.
  bool step();
  // Events still scheduled (cancelled ones excluded).
  size_t pending() const { return live_; }
  uint64_t events_processed() const { return processed_; }

  // Record an error raised where it cannot propagate (inside a fiber). The kernel rethrows
  // it from run()/run_until()/step() right after the event that raised it.
  void fail(std::exception_ptr e);

 private:
  struct Entry {
    Time t;
    uint64_t seq;
    uint32_t slot;
  };
  struct Slot {
    uint64_t seq = 0;  // 0: free
    std::function<void()> fn;
  };
  static bool later(const Entry& a, const Entry& b) {
    return a.t != b.t ? a.t > b.t : a.seq > b.seq;
  }
  void compact();
  void rethrow_failure();

  Time now_ = 0;
  uint64_t next_seq_ = 1;
  uint64_t processed_ = 0;
  size_t live_ = 0;
  bool running_ = false;
  std::vector<Entry> heap_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_slots_;
  std::exception_ptr failure_;
};

// A free-running clock: while started, it calls every on_rising() callback once per period
// (first edge one period after start()), passing the edge's index (0, 1, ...).
class ClockDomain {
 public:
  ClockDomain(Kernel& k, std::string name, double freq_mhz);
  ~ClockDomain();
  ClockDomain(const ClockDomain&) = delete;
  ClockDomain& operator=(const ClockDomain&) = delete;

  void on_rising(std::function<void(uint64_t cycle)> fn);
  void start();
  void stop();
  bool running() const { return running_; }
  uint64_t cycles() const { return cycles_; }
  Time period() const { return period_; }
  const std::string& name() const { return name_; }

 private:
  void tick();

  Kernel& k_;
  std::string name_;
  Time period_;
  uint64_t cycles_ = 0;
  bool running_ = false;
  EventId next_;
  std::vector<std::function<void(uint64_t)>> callbacks_;
};

}  // namespace cni::sim
