// SPDX-License-Identifier: Apache-2.0
#include "cni/sim/bus.hpp"

#include <algorithm>
#include <stdexcept>

namespace cni::sim {

namespace {
bool erase_one(std::vector<Bus::Requester>& v, Bus::Requester r) {
  auto it = std::find(v.begin(), v.end(), r);
  if (it == v.end()) return false;
  v.erase(it);
  return true;
}
}  // namespace

// --- Bus ---------------------------------------------------------------------------------

Bus::Bus(Kernel& k, std::string name, double cycle_mhz)
    : k_(k), name_(std::move(name)), period_(clock_period("Bus '" + name_ + "'", cycle_mhz)) {}

Bus::Requester Bus::add_requester(std::string name) {
  requesters_.push_back(std::move(name));
  outstanding_.push_back(false);
  return static_cast<Requester>(requesters_.size() - 1);
}

void Bus::check(Requester r, const char* what) const {
  if (r >= requesters_.size()) {
    throw std::logic_error("Bus '" + name_ + "': " + what + " by unknown requester " +
                           std::to_string(r) + " (" + std::to_string(requesters_.size()) +
                           " requesters)");
  }
}

const std::string& Bus::requester_name(Requester r) const {
  check(r, "requester_name");
  return requesters_[r];
}

bool Bus::outstanding(Requester r) const {
  check(r, "outstanding");
  return outstanding_[r];
}

void Bus::enqueue(Requester r, std::optional<unsigned> cycles, Callback cb, const char* what) {
  check(r, what);
  if (outstanding_[r]) {
    throw std::logic_error("Bus '" + name_ + "': requester '" + requesters_[r] +
                           "' asked again with a transaction outstanding");
  }
  outstanding_[r] = true;
  waiting_.push_back(Request{r, k_.now(), cycles, std::move(cb)});
  arbitrate();
}

void Bus::transact(Requester r, unsigned cycles, Callback done) {
  enqueue(r, cycles, std::move(done), "transact");
}

void Bus::acquire(Requester r, Callback granted) {
  enqueue(r, std::nullopt, std::move(granted), "acquire");
}

void Bus::release(Requester r) {
  check(r, "release");
  if (owner_ != r) {
    throw std::logic_error("Bus '" + name_ + "': requester '" + requesters_[r] +
                           "' released a bus it does not own");
  }
  end_tenure(r);
}

void Bus::end_tenure(Requester r) {
  stats_.busy += k_.now() - granted_at_;
  owner_.reset();
  outstanding_[r] = false;
  arbitrate();
}

bool Bus::withdraw(Requester r) {
  check(r, "withdraw");
  auto it =
      std::find_if(waiting_.begin(), waiting_.end(), [r](const Request& q) { return q.r == r; });
  if (it == waiting_.end()) return false;
  waiting_.erase(it);
  outstanding_[r] = false;
  return true;
}

void Bus::set_hold(std::function<bool(Requester)> hold) { hold_ = std::move(hold); }

void Bus::rearbitrate() { arbitrate(); }

void Bus::arbitrate() {
  if (owner_) return;
  auto it = std::find_if(waiting_.begin(), waiting_.end(),
                         [this](const Request& q) { return !hold_ || !hold_(q.r); });
  if (it == waiting_.end()) return;
  Request q = std::move(*it);
  waiting_.erase(it);
  owner_ = q.r;
  granted_at_ = k_.now();
  stats_.transactions++;
  stats_.waited += k_.now() - q.since;
  if (q.cycles) {
    k_.after(cycles(*q.cycles), [this, r = q.r, done = std::move(q.cb)] {
      end_tenure(r);
      if (done) done();
    });
  } else if (q.cb) {
    k_.after(0, std::move(q.cb));
  }
}

// --- Bridge ------------------------------------------------------------------------------

Bridge::Bridge(Kernel& k, Bus& mem, Bus& io, unsigned write_buffer, unsigned retry_cycles)
    : k_(k),
      mem_(mem),
      io_(io),
      write_buffer_(write_buffer),
      retry_cycles_(retry_cycles),
      down_{io, io.add_requester("bridge"), {}, 0, false},
      up_{mem, mem.add_requester("bridge"), {}, 0, false} {
  if (write_buffer == 0) {
    throw std::invalid_argument("Bridge between '" + mem.name() + "' and '" + io.name() +
                                "': a write buffer of 0 entries");
  }
  mem_.set_hold([this](Bus::Requester r) {
    return favor_io_ &&
           std::find(down_waiting_.begin(), down_waiting_.end(), r) != down_waiting_.end();
  });
}

Bridge::~Bridge() { mem_.set_hold(nullptr); }

void Bridge::check_cycles(unsigned near_cycles, const char* what) const {
  if (near_cycles == 0) {
    throw std::invalid_argument(std::string("Bridge::") + what +
                                ": 0 cycles on the requester's bus (a transaction through the "
                                "bridge occupies it for at least a cycle)");
  }
}

void Bridge::mem_to_io(Bus::Requester r, BusOp op, unsigned mem_cycles, unsigned io_cycles,
                       Bus::Callback done, Bus::Callback arrived) {
  check_cycles(mem_cycles, "mem_to_io");
  const Job j{r, op, mem_cycles, io_cycles, std::move(done), std::move(arrived)};
  down_waiting_.push_back(r);  // before asking: the hold rule may apply at once
  try {
    mem_.acquire(r, [this, j] { down_granted(j); });
  } catch (...) {
    down_waiting_.pop_back();
    throw;
  }
}

void Bridge::down_granted(const Job& j) {
  erase_one(down_waiting_, j.r);
  if (j.op == BusOp::Read) {
    down_reader_ = true;
    check_collision();
  }
  k_.after(mem_.cycles(j.near_cycles), [this, j] {
    if (j.op == BusOp::Read) {
      down_.q.push_back(j);  // the requester keeps the memory bus until its I/O part is done
      pump(down_);
    } else if (down_.posted < write_buffer_) {
      down_posted(j);
    } else {
      stats_.full_waits++;
      stalled_ = j;
      check_collision();
    }
  });
}

void Bridge::down_posted(const Job& j) {
  down_.q.push_back(j);
  down_.posted++;
  mem_.release(j.r);
  if (j.done) j.done();
  pump(down_);
}

void Bridge::io_to_mem(Bus::Requester r, BusOp op, unsigned io_cycles, unsigned mem_cycles,
                       Bus::Callback done, Bus::Callback arrived) {
  check_cycles(io_cycles, "io_to_mem");
  if (std::find(io_pending_.begin(), io_pending_.end(), r) != io_pending_.end()) {
    throw std::logic_error("Bridge: requester '" + io_.requester_name(r) + "' of '" + io_.name() +
                           "' asked again with a transaction outstanding (being retried)");
  }
  up_attempt(Job{r, op, io_cycles, mem_cycles, std::move(done), std::move(arrived)});
  io_pending_.push_back(r);
}

void Bridge::up_attempt(const Job& j) {
  io_.acquire(j.r,
              [this, j] { k_.after(io_.cycles(j.near_cycles), [this, j] { up_arrived(j); }); });
}

void Bridge::up_arrived(const Job& j) {
  if (j.op == BusOp::Write) {
    if (up_.posted == write_buffer_) {
      nack(j, false);
      return;
    }
    up_.q.push_back(j);
    up_.posted++;
    io_.release(j.r);
    erase_one(io_pending_, j.r);
    if (j.done) j.done();
  } else {
    if (down_needs_io()) {
      nack(j, true);
      return;
    }
    up_reader_ = true;
    up_.q.push_back(j);  // the requester keeps the I/O bus until its memory part is done
  }
  pump(up_);
}

void Bridge::nack(const Job& j, bool collision) {
  stats_.nacks++;
  io_.release(j.r);
  if (collision) {
    favor_io_ = true;
    after_down_.push_back(j);
    return;
  }
  k_.after(io_.cycles(retry_cycles_), [this, j] { up_attempt(j); });
}

// A memory-bus transaction that needs the I/O bus holds the memory bus: an I/O-bus read
// waiting for the memory bus can never get it, so it is NACKed.
void Bridge::check_collision() {
  if (!up_reader_ || !down_needs_io()) return;
  const Job j = up_.q.back();  // the read holds the I/O bus, so nothing reached the lane after it
  up_.q.pop_back();
  up_reader_ = false;
  if (up_.q.empty() && up_.active) {
    mem_.withdraw(up_.bridge_id);  // it was waiting for the read's memory part
    up_.active = false;
  }
  nack(j, true);
}

// The memory-bus transaction that met NACKed reads has ended: they may ask again.
void Bridge::down_over() {
  if (down_needs_io()) return;
  for (const Job& j : after_down_) {
    k_.after(io_.cycles(retry_cycles_), [this, j] { up_attempt(j); });
  }
  after_down_.clear();
}

void Bridge::pump(Lane& lane) {
  if (lane.active || lane.q.empty()) return;
  lane.active = true;
  lane.far.acquire(lane.bridge_id, [this, &lane] {
    k_.after(lane.far.cycles(lane.q.front().far_cycles), [this, &lane] { finish(lane); });
  });
}

void Bridge::finish(Lane& lane) {
  const Job j = std::move(lane.q.front());
  lane.q.pop_front();
  lane.far.release(lane.bridge_id);
  lane.active = false;
  const bool down = &lane == &down_;
  if (j.op == BusOp::Write) {
    stats_.writes++;
    lane.posted--;
    if (down && stalled_) {
      const Job s = std::move(*stalled_);
      stalled_.reset();
      down_posted(s);
      down_over();
    }
  } else {
    stats_.reads++;
    if (down) {
      down_reader_ = false;
      mem_.release(j.r);
      down_over();
    } else {
      up_reader_ = false;
      io_.release(j.r);
      erase_one(io_pending_, j.r);
      if (favor_io_) {
        favor_io_ = false;
        mem_.rearbitrate();
      }
    }
    if (j.done) j.done();
  }
  if (j.arrived) j.arrived();  // after the bookkeeping: it may start the requester's next one
  pump(lane);
}

}  // namespace cni::sim
