// SPDX-License-Identifier: Apache-2.0
// Discrete-event simulation kernel: picosecond time, an event queue with deterministic
// tie-breaking, cancellable events, and clock domains for cycle-driven models (the Verilated
// device registers its eval on one). Events of one instant run in two classes: the ordinary
// events first, in scheduling order, then the clock edges, in the order the domains were made.
// So a model clocked on an edge sees every input that arrived at that instant, and a domain
// that sleeps through idle cycles and wakes again runs its edges exactly where they would have
// run had it never slept (docs/host-sim.md, "Kernel and fibers").
#pragma once

#include <cstdint>
#include <exception>
#include <functional>
#include <string>
#include <vector>

namespace cni::sim {

// Simulated time in picoseconds.
using Time = uint64_t;
// No limit on a run's simulated time (HostSystem::run_programs, Cluster::run_programs).
inline constexpr Time kNoTimeLimit = ~Time{0};

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
  EventId at(Time t, std::function<void()> fn) { return at_class(t, 0, std::move(fn)); }
  EventId after(Time dt, std::function<void()> fn) { return at(now_ + dt, std::move(fn)); }
  // Schedule `fn` at `t` in class `cls`: the events of one instant run by class (0, the
  // ordinary events, first), then in scheduling order. Clock domains use classes >= 1.
  EventId at_class(Time t, uint32_t cls, std::function<void()> fn);
  // The class of the event running now (0 outside any event).
  uint32_t current_class() const { return current_class_; }
  // A class for a new clock domain's edges: 1, 2, ... in the order domains are made.
  uint32_t new_edge_class() { return ++edge_classes_; }
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
    uint32_t cls;
  };
  struct Slot {
    uint64_t seq = 0;  // 0: free
    std::function<void()> fn;
  };
  static bool later(const Entry& a, const Entry& b) {
    if (a.t != b.t) return a.t > b.t;
    if (a.cls != b.cls) return a.cls > b.cls;
    return a.seq > b.seq;
  }
  void compact();
  void rethrow_failure();

  Time now_ = 0;
  uint64_t next_seq_ = 1;
  uint64_t processed_ = 0;
  size_t live_ = 0;
  uint32_t current_class_ = 0;
  uint32_t edge_classes_ = 0;
  bool running_ = false;
  std::vector<Entry> heap_;
  std::vector<Slot> slots_;
  std::vector<uint32_t> free_slots_;
  std::exception_ptr failure_;
};

// A clock: while started, it calls every on_rising() callback once per period, passing the
// edge's cycle number: edge c is at start time + (c + 1) periods. A domain may sleep through
// cycles in which its model has nothing to do: sleep() stops the edges until wake(),
// sleep_until(c) until edge c at the latest. The skipped edges keep their numbers (the cycle
// after a sleep is the one the grid says), and wake() resumes at the first edge of the grid not
// yet passed: one at this very instant still runs, since edges run after the ordinary events of
// their instant (Kernel). A model that sleeps only while its state cannot change without an
// input, and wakes on every input, so runs exactly as if it had been clocked throughout.
class ClockDomain {
 public:
  ClockDomain(Kernel& k, std::string name, double freq_mhz);
  ~ClockDomain();
  ClockDomain(const ClockDomain&) = delete;
  ClockDomain& operator=(const ClockDomain&) = delete;

  void on_rising(std::function<void(uint64_t cycle)> fn);
  void start();
  void stop();
  // No edges until wake(), or until edge `cycle` (sleep_until): from inside an edge's callback
  // or from any other event. sleep_until(c) with c at or before the next edge changes nothing.
  void sleep();
  void sleep_until(uint64_t cycle);
  void wake();
  bool running() const { return running_; }
  bool sleeping() const { return sleeping_; }
  // Edges whose callbacks ran, and edges skipped while sleeping.
  uint64_t cycles() const { return ran_; }
  uint64_t skipped() const { return after_ - ran_; }
  // The number of the edge after the last one that ran.
  uint64_t next_cycle() const { return after_; }
  // Edges of the grid at or before now, run or slept through (while stopped: those before).
  uint64_t elapsed() const;
  Time period() const { return period_; }
  const std::string& name() const { return name_; }

 private:
  Time edge_time(uint64_t cycle) const { return origin_ + (cycle + 1) * period_; }
  void schedule(uint64_t cycle);
  void tick();

  Kernel& k_;
  std::string name_;
  Time period_;
  uint32_t cls_;
  Time origin_ = 0;
  uint64_t next_cycle_ = 0;  // the edge `next_` is scheduled for
  uint64_t after_ = 0;       // the edge after the last one that ran
  uint64_t ran_ = 0;
  bool running_ = false;
  bool sleeping_ = false;
  EventId next_;
  std::vector<std::function<void(uint64_t)>> callbacks_;
};

}  // namespace cni::sim
