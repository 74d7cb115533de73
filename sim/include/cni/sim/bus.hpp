// SPDX-License-Identifier: Apache-2.0
// Bus occupancy (docs/network.md): a shared bus or link segment that carries one transaction at
// a time (no split transactions) for a number of cycles, granted to waiting requesters in
// request order; and the I/O bridge of seed 000 between a memory bus and a coherent I/O bus,
// which buffers writes and invalidations, blocks on reads, and NACKs the I/O-bus side when
// transactions from both sides meet.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "cni/sim/kernel.hpp"

namespace cni::sim {

struct BusStats {
  uint64_t transactions = 0;  // tenures granted
  Time busy = 0;              // time the bus was owned (ended tenures)
  Time waited = 0;            // time granted requests waited for the bus
};

class Bus {
 public:
  using Requester = unsigned;
  using Callback = std::function<void()>;

  // Occupancies are counted in cycles of `cycle_mhz`: the bus clock, or the CPU clock when
  // they are given in CPU cycles (seed 000, Table 2). A cycle is rounded to the picosecond, as
  // a ClockDomain's period is. Grants are not aligned to cycle edges.
  Bus(Kernel& k, std::string name, double cycle_mhz);
  Bus(const Bus&) = delete;
  Bus& operator=(const Bus&) = delete;

  Requester add_requester(std::string name);

  // Hold the bus for `cycles` cycles: the transaction starts when the bus is free and every
  // earlier request has been granted, and `done` runs when it ends (the bus is free by then).
  // A requester has at most one request or transaction outstanding; a second one throws
  // std::logic_error naming requester and bus (so does an unknown requester).
  void transact(Requester r, unsigned cycles, Callback done);
  // A tenure of open length: `granted` runs (in an event at the grant time) when `r` owns the
  // bus; `r` ends it with release(r).
  void acquire(Requester r, Callback granted);
  void release(Requester r);
  // Take back r's request while it waits; false if r owns the bus or asked for nothing.
  bool withdraw(Requester r);
  // Arbitration passes over waiting requesters for which `hold(r)` is true; they keep their
  // place. Call rearbitrate() when the answer may have changed.
  void set_hold(std::function<bool(Requester)> hold);
  void rearbitrate();

  Time cycles(unsigned n) const { return period_ * n; }
  bool busy() const { return owner_.has_value(); }
  // True while r waits for the bus or owns it.
  bool outstanding(Requester r) const;
  const BusStats& stats() const { return stats_; }
  const std::string& name() const { return name_; }
  const std::string& requester_name(Requester r) const;

 private:
  struct Request {
    Requester r;
    Time since;
    std::optional<unsigned> cycles;  // set: a transact(); empty: an acquire()
    Callback cb;
  };
  void check(Requester r, const char* what) const;
  void enqueue(Requester r, std::optional<unsigned> cycles, Callback cb, const char* what);
  void arbitrate();
  void end_tenure(Requester r);

  Kernel& k_;
  std::string name_;
  Time period_;
  std::vector<std::string> requesters_;
  std::vector<bool> outstanding_;
  std::deque<Request> waiting_;
  std::optional<Requester> owner_;
  Time granted_at_ = 0;
  std::function<bool(Requester)> hold_;
  BusStats stats_;
};

// Kinds of transaction through the bridge.
enum class BusOp {
  Read,   // the requester waits for the data: it holds its bus until the far side answered
  Write,  // posted: writes, invalidations, write-backs; done once the bridge buffered it
};

struct BridgeStats {
  uint64_t reads = 0;       // reads that crossed
  uint64_t writes = 0;      // posted writes that crossed
  uint64_t nacks = 0;       // I/O-bus transactions NACKed (collision or full write buffer)
  uint64_t full_waits = 0;  // memory-bus writes that held the memory bus for a buffer entry
};

// The I/O bridge of seed 000 (iobus-1996). Rules:
//  * A memory-bus requester's transaction to the I/O bus (mem_to_io) holds the memory bus for
//    its memory part; a write is then buffered and the requester released (if the buffer is
//    full it holds the memory bus until an entry frees); a read keeps the memory bus while the
//    bridge performs its I/O part, and completes after it.
//  * An I/O-bus requester's transaction to the memory bus (io_to_mem) holds the I/O bus for
//    its I/O part; a write is then buffered, or NACKed if the buffer is full; a read keeps the
//    I/O bus while the bridge performs its memory part, or is NACKed if a memory-bus
//    transaction that needs the I/O bus holds the memory bus (or takes it while the read
//    waits): without the NACK each would wait for the other's bus forever.
//  * A NACKed requester releases the I/O bus and asks again after `retry_cycles` I/O-bus
//    cycles (after a collision, also not before the memory-bus transaction it met has ended).
//    After a collision no new memory-to-I/O transaction is granted the memory bus until an
//    I/O-to-memory read has crossed: the next I/O-bus read succeeds.
//  * Each direction drains in order: posted writes and a read leave in the order they reached
//    the bridge, so a read returns after the writes posted before it.
class Bridge {
 public:
  // `mem` and `io` must outlive the bridge; it adds itself as a requester on both and installs
  // the memory bus's hold rule. write_buffer: posted writes held per direction (>= 1).
  Bridge(Kernel& k, Bus& mem, Bus& io, unsigned write_buffer, unsigned retry_cycles = 0);
  ~Bridge();
  Bridge(const Bridge&) = delete;
  Bridge& operator=(const Bridge&) = delete;

  // `r` is a requester of the memory bus: mem_cycles on it, then io_cycles on the I/O bus.
  // The part on the requester's own bus must be at least a cycle (std::invalid_argument).
  // `done` runs when the requester is released (a write: once buffered; a read: after its far
  // part); `arrived`, if given, when the far part has ended (for a read, right after `done`).
  void mem_to_io(Bus::Requester r, BusOp op, unsigned mem_cycles, unsigned io_cycles,
                 Bus::Callback done, Bus::Callback arrived = {});
  // `r` is a requester of the I/O bus: io_cycles on it, then mem_cycles on the memory bus.
  // `done` runs once, when the transaction finally succeeds; `arrived` as for mem_to_io.
  void io_to_mem(Bus::Requester r, BusOp op, unsigned io_cycles, unsigned mem_cycles,
                 Bus::Callback done, Bus::Callback arrived = {});
  const BridgeStats& stats() const { return stats_; }

 private:
  struct Job {
    Bus::Requester r;
    BusOp op;
    unsigned near_cycles;  // on the requester's bus
    unsigned far_cycles;   // on the other bus, performed by the bridge
    Bus::Callback done;
    Bus::Callback arrived;  // the far part has ended
  };
  // One direction's queue of work for the far bus, performed by the bridge in order.
  struct Lane {
    Bus& far;
    Bus::Requester bridge_id;  // the bridge as a requester of `far`
    std::deque<Job> q;
    unsigned posted = 0;  // writes in q
    bool active = false;  // the bridge asked `far` for q's head or holds it
  };
  void check_cycles(unsigned near_cycles, const char* what) const;
  void pump(Lane& lane);
  void finish(Lane& lane);
  void down_granted(const Job& j);
  void down_posted(const Job& j);
  void up_attempt(const Job& j);
  void up_arrived(const Job& j);
  void nack(const Job& j, bool collision);
  bool down_needs_io() const { return down_reader_ || stalled_.has_value(); }
  void check_collision();
  void down_over();

  Kernel& k_;
  Bus& mem_;
  Bus& io_;
  unsigned write_buffer_;
  unsigned retry_cycles_;
  Lane down_;                                 // memory-to-I/O work, for the I/O bus
  Lane up_;                                   // I/O-to-memory work, for the memory bus
  std::vector<Bus::Requester> down_waiting_;  // memory-bus requesters of mem_to_io not granted
  bool down_reader_ = false;                  // a mem_to_io read holds the memory bus
  std::optional<Job> stalled_;   // a mem_to_io write holding the memory bus for a buffer entry
  bool up_reader_ = false;       // an io_to_mem read holds the I/O bus, waiting for the memory bus
  bool favor_io_ = false;        // after a collision, until an io_to_mem read crossed
  std::vector<Job> after_down_;  // NACKed reads waiting for the memory-bus transaction they met
  std::vector<Bus::Requester> io_pending_;  // I/O-bus requesters with an io_to_mem outstanding
  BridgeStats stats_;
};

}  // namespace cni::sim
