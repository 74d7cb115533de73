// SPDX-License-Identifier: Apache-2.0
// A clock-domain crossing as the host simulation models it (the AXI4-Stream clock converter an
// FPGA design puts between two clocks; docs/nic.md, "Coherent PIO interface"): `depth` entries;
// an entry written at t is visible to the reader from t + sync of the reader's cycles (the write
// pointer's synchronizer), and a place the reader frees at t is free to the writer from t + sync
// of the writer's cycles (the read pointer's). The caller wakes each side's clock at the times
// write() and read() return.
#pragma once

#include <deque>
#include <stdexcept>
#include <utility>

#include "cni/sim/kernel.hpp"

namespace cni::tb {

template <class T>
class CdcFifo {
 public:
  CdcFifo(unsigned depth, unsigned sync, sim::Time writer_period, sim::Time reader_period)
      : depth_(depth), to_reader_(sync * reader_period), to_writer_(sync * writer_period) {}

  // The writer sees a free place at `now`.
  bool can_write(sim::Time now) {
    while (!frees_.empty() && frees_.front() <= now) frees_.pop_front();
    return q_.size() + frees_.size() < depth_;
  }
  // Writes `v` (the writer saw a free place); returns when the reader sees it.
  sim::Time write(sim::Time now, T v) {
    if (!can_write(now)) throw std::logic_error("CdcFifo: a write with no free place in sight");
    q_.push_back(Entry{std::move(v), now + to_reader_});
    return q_.back().at;
  }
  // The reader sees an entry at `now`.
  bool can_read(sim::Time now) const { return !q_.empty() && q_.front().at <= now; }
  const T& front() const { return q_.front().v; }
  // Takes the entry the reader sees; returns when the writer sees its place free.
  sim::Time read(sim::Time now) {
    if (!can_read(now)) throw std::logic_error("CdcFifo: a read with no entry in sight");
    q_.pop_front();
    frees_.push_back(now + to_writer_);
    return frees_.back();
  }
  // Entries written and not yet read (visible to the reader or not).
  bool empty() const { return q_.empty(); }

 private:
  struct Entry {
    T v;
    sim::Time at;
  };
  unsigned depth_;
  sim::Time to_reader_, to_writer_;
  std::deque<Entry> q_;
  std::deque<sim::Time> frees_;  // places read, as the writer will see them free
};

}  // namespace cni::tb
