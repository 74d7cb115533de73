// SPDX-License-Identifier: Apache-2.0
// Event queue: a binary heap of (time, class, sequence, slot); callbacks live in a slot table so
// that cancelling is O(1) and stale heap entries are skipped (and compacted away when they pile
// up).
#include "cni/sim/kernel.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace cni::sim {

Time ns(double nanoseconds) {
  if (!(nanoseconds >= 0.0)) {
    throw std::invalid_argument(
        "ns(): duration must be a non-negative number of nanoseconds, got " +
        std::to_string(nanoseconds));
  }
  return static_cast<Time>(std::llround(nanoseconds * 1000.0));
}

EventId Kernel::at_class(Time t, uint32_t cls, std::function<void()> fn) {
  if (t < now_) {
    throw std::invalid_argument("Kernel::at: time " + std::to_string(t) + " ps is before now (" +
                                std::to_string(now_) + " ps)");
  }
  uint32_t slot;
  if (!free_slots_.empty()) {
    slot = free_slots_.back();
    free_slots_.pop_back();
  } else {
    slot = static_cast<uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  const uint64_t seq = next_seq_++;
  slots_[slot].seq = seq;
  slots_[slot].fn = std::move(fn);
  heap_.push_back(Entry{t, seq, slot, cls});
  std::push_heap(heap_.begin(), heap_.end(), later);
  ++live_;
  return EventId{slot, seq};
}

void Kernel::cancel(EventId id) {
  if (!id || id.slot >= slots_.size() || slots_[id.slot].seq != id.seq) return;
  slots_[id.slot].seq = 0;
  slots_[id.slot].fn = nullptr;
  free_slots_.push_back(id.slot);
  --live_;
  if (heap_.size() > 4096 && heap_.size() > 4 * live_) compact();
}

void Kernel::compact() {
  std::erase_if(heap_, [this](const Entry& e) { return slots_[e.slot].seq != e.seq; });
  std::make_heap(heap_.begin(), heap_.end(), later);
}

void Kernel::fail(std::exception_ptr e) {
  if (!failure_) failure_ = std::move(e);
}

void Kernel::rethrow_failure() {
  if (failure_) {
    auto e = std::move(failure_);
    failure_ = nullptr;
    std::rethrow_exception(e);
  }
}

bool Kernel::step() {
  while (!heap_.empty()) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    const Entry e = heap_.back();
    heap_.pop_back();
    Slot& s = slots_[e.slot];
    if (s.seq != e.seq) continue;  // cancelled
    auto fn = std::move(s.fn);
    s.seq = 0;
    s.fn = nullptr;
    free_slots_.push_back(e.slot);
    --live_;
    now_ = e.t;
    ++processed_;
    current_class_ = e.cls;
    fn();
    current_class_ = 0;
    rethrow_failure();
    return true;
  }
  return false;
}

namespace {
// Marks the kernel as running for the scope; a nested run is a usage error.
struct RunGuard {
  explicit RunGuard(bool& flag) : flag_(flag) {
    if (flag_) throw std::logic_error("Kernel::run called from inside an event or fiber");
    flag_ = true;
  }
  ~RunGuard() { flag_ = false; }
  bool& flag_;
};
}  // namespace

void Kernel::run_until(Time t) {
  RunGuard guard(running_);
  for (;;) {
    // Skip cancelled entries at the top so the time test sees a live event.
    while (!heap_.empty() && slots_[heap_.front().slot].seq != heap_.front().seq) {
      std::pop_heap(heap_.begin(), heap_.end(), later);
      heap_.pop_back();
    }
    if (heap_.empty() || heap_.front().t > t) break;
    step();
  }
  if (t > now_) now_ = t;
}

void Kernel::run(const std::function<bool()>& done) {
  RunGuard guard(running_);
  while (!done()) {
    if (!step()) break;
  }
}

Time clock_period(const std::string& what, double freq_mhz) {
  if (!(freq_mhz > 0.0)) {
    throw std::invalid_argument(what + ": frequency must be > 0 MHz, got " +
                                std::to_string(freq_mhz));
  }
  const auto period = static_cast<Time>(std::llround(1e6 / freq_mhz));
  if (period == 0) {
    throw std::invalid_argument(what + ": frequency " + std::to_string(freq_mhz) +
                                " MHz is above 1 THz");
  }
  return period;
}

ClockDomain::ClockDomain(Kernel& k, std::string name, double freq_mhz)
    : k_(k),
      name_(std::move(name)),
      period_(clock_period("ClockDomain '" + name_ + "'", freq_mhz)),
      cls_(k.new_edge_class()) {}

ClockDomain::~ClockDomain() { k_.cancel(next_); }

void ClockDomain::on_rising(std::function<void(uint64_t)> fn) {
  callbacks_.push_back(std::move(fn));
}

void ClockDomain::start() {
  if (running_) return;
  running_ = true;
  sleeping_ = false;
  // Cycle numbers go on from where a stop() left them: the next edge is one period from now.
  origin_ = k_.now() - after_ * period_;
  schedule(after_);
}

void ClockDomain::stop() {
  running_ = false;
  sleeping_ = false;
  k_.cancel(next_);
  next_ = EventId{};
}

void ClockDomain::schedule(uint64_t cycle) {
  k_.cancel(next_);
  next_cycle_ = cycle;
  next_ = k_.at_class(edge_time(cycle), cls_, [this] { tick(); });
}

void ClockDomain::sleep() {
  if (!running_) return;
  k_.cancel(next_);
  next_ = EventId{};
  sleeping_ = true;
}

void ClockDomain::sleep_until(uint64_t cycle) {
  if (!running_ || cycle <= next_cycle_) return;
  schedule(cycle);
  sleeping_ = true;
}

void ClockDomain::wake() {
  if (!running_ || !sleeping_) return;
  sleeping_ = false;
  // The first edge at or after now; one at this instant whose turn has passed waits a period.
  const Time now = k_.now();
  uint64_t c = now <= origin_ + period_ ? 0 : (now - origin_ - 1) / period_;
  while (edge_time(c) < now || (edge_time(c) == now && k_.current_class() >= cls_)) ++c;
  schedule(std::max(c, after_));
}

uint64_t ClockDomain::elapsed() const {
  if (!running_) return after_;
  return std::max(after_, (k_.now() - origin_) / period_);
}

void ClockDomain::tick() {
  next_ = EventId{};
  sleeping_ = false;
  const uint64_t cycle = next_cycle_;
  ++ran_;
  after_ = cycle + 1;
  schedule(cycle + 1);
  for (auto& cb : callbacks_) cb(cycle);
}

}  // namespace cni::sim
