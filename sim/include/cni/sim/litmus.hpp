// SPDX-License-Identifier: Apache-2.0
// Litmus tests of the host cores' memory model (docs/host-sim.md, "Memory model and litmus
// tests"): a test is a few threads of 8-byte loads, stores and fences on a few locations (all
// 0 at the start); an outcome is every register a load wrote and every location's final value.
// allowed() computes the outcomes a memory model permits by running the test on that model's
// abstract machine in every possible order; run() runs the test many times on a HostSystem's
// cores with randomized timing and counts the outcomes it observes.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cni/sim/host.hpp"

namespace cni::sim::litmus {

// The operations, as the driver's MemoryPort offers them (ARMv8 names): plain, acquire and
// address-dependent loads (LoadDep: its address depends on the thread's previous load), plain
// and release stores, and DMB SY / DMB LD / DMB ST.
enum class OpKind { Load, LoadAcquire, LoadDep, Store, StoreRelease, DmbSy, DmbLd, DmbSt };
bool is_load(OpKind k);
bool is_store(OpKind k);
bool is_fence(OpKind k);

struct Op {
  OpKind kind = OpKind::DmbSy;
  unsigned loc = 0;      // loads, stores: the location (0 = x, 1 = y, ...)
  uint64_t value = 0;    // stores: the value written (non-zero)
  unsigned reg = 0;      // loads: the register it writes (numbered across all threads)
};

Op ld(unsigned loc, unsigned reg);
Op lda(unsigned loc, unsigned reg);  // load-acquire
Op ldd(unsigned loc, unsigned reg);  // address-dependent on the thread's previous load
Op st(unsigned loc, uint64_t value);
Op stl(unsigned loc, uint64_t value);  // store-release
Op fence();                            // DMB SY
Op dmb_ld();
Op dmb_st();

struct Test {
  std::string name;
  unsigned locations = 0;
  std::vector<std::vector<Op>> threads;
  unsigned registers() const;  // one more than the highest register a load names
};

// Registers r0, r1, ... then the final value of each location.
using Outcome = std::vector<uint64_t>;

// SC: one memory, every operation performed in program order, interleaved. TSO (x86-TSO's
// abstract machine): a FIFO store buffer per thread; a load reads its own thread's newest
// buffered store to the location, else memory; DMB SY waits until its thread's buffer is
// empty, a load-acquire until it holds no store-release; DMB LD and DMB ST order nothing TSO
// does not already order.
// ARMv8 (other-multi-copy-atomic): one memory that a store reaches at once for every other
// thread; a thread's operations perform in any order except these pairs (earlier, later):
//   - two accesses to one location, except that a load may perform before an earlier store to
//     its location by reading it (the newest such store);
//   - anything before a DMB SY and anything after it; a load before a DMB LD and anything
//     after it; a store before a DMB ST and a store after it;
//   - a load-acquire and anything after it; anything and a later store-release; a
//     store-release and a later load-acquire;
//   - a LoadDep's previous load and the LoadDep.
// ARMv8Core: ARMv8 with a load and any later store kept in order too -- what the simulated
// cores implement (no load buffering; docs/host-sim.md says why).
enum class Model { SC, TSO, ARMv8, ARMv8Core };
const char* name(Model m);

// Every outcome `m` allows for `t`. Throws std::invalid_argument for a malformed test (a
// location or register out of range, a store of 0, no threads).
std::set<Outcome> allowed(const Test& t, Model m);

std::string format(const Test& t, const Outcome& o);

// The standard shapes (SB, MP, LB, S, R, 2+2W, WRC, IRIW, ISA2, the coherence tests), without
// and with DMB SY between each thread's accesses, and the weaker ordering points on them
// (DMB LD / DMB ST, acquire / release, address dependencies), forbidding and not.
std::vector<Test> standard_tests();

struct RunOptions {
  unsigned iterations = 200;
  uint64_t seed = 1;
  // A thread starts after a random pause of up to the iteration's spread (none in half the
  // iterations, so that the threads meet within a miss's latency, else up to max_start_ns),
  // and pauses before each operation (none half the time, else up to max_gap_ns).
  unsigned max_start_ns = 1500;
  unsigned max_gap_ns = 60;
  // The address of location `loc` in iteration `it`: one line each. Unset: host memory, a
  // fresh line per location and iteration from first_line on, on a random socket. Every
  // location is written 0 before each iteration.
  std::function<proto::Addr(unsigned it, unsigned loc)> address;
  uint64_t first_line = 0;
  // The cores the iteration does not use load its lines at random meanwhile.
  bool noise = true;
  // On half the iteration's cores (drawn each time) each load and each store's ownership
  // request and drain reach the cache up to this much later (Core::set_access_jitter): a load can span other threads'
  // accesses (WRC needs that) and a store can fall behind a later one (S, MP from the writer).
  unsigned max_access_jitter_ns = 1000;
};

// Runs `t` `o.iterations` times on `sys`, each time with its threads on distinct cores drawn
// at random from `cores` (at least one per thread), with each location zeroed
// by a random core, random copies of the lines in caches (shared, or owned dirty; the test's
// cores' or any), random start times and random gaps, all drawn from `o.seed`. The final
// values are read after a barrier. Returns how often each outcome was observed.
std::map<Outcome, unsigned> run(HostSystem& sys, const Test& t, const std::vector<unsigned>& cores,
                                const RunOptions& o);

}  // namespace cni::sim::litmus
