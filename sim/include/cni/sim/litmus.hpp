// SPDX-License-Identifier: Apache-2.0
// Litmus tests of the host cores' memory model (docs/host-sim.md, "Memory model and litmus
// tests"): a test is a few threads of 8-byte loads, stores and fences on a few locations (all
// 0 at the start); an outcome is every register a load wrote and every location's final value.
// allowed() computes the outcomes a memory model permits by running the test on that model's
// abstract machine in every possible order; run() runs the test many times on a HostSystem's
// cores with randomized timing and counts the outcomes it observes.
#pragma once

#include <cstdint>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "cni/sim/host.hpp"

namespace cni::sim::litmus {

enum class OpKind { Load, Store, Fence };

struct Op {
  OpKind kind = OpKind::Fence;
  unsigned loc = 0;      // Load, Store: the location (0 = x, 1 = y, ...)
  uint64_t value = 0;    // Store: the value written (non-zero)
  unsigned reg = 0;      // Load: the register it writes (numbered across all threads)
};

Op ld(unsigned loc, unsigned reg);
Op st(unsigned loc, uint64_t value);
Op fence();

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
// buffered store to the location, else memory; a fence waits until its thread's buffer is empty.
// ARMv8 (other-multi-copy-atomic, for these tests: plain loads and stores without
// dependencies, and DMB SY as the fence): one memory that a store reaches at once for every
// other thread; a thread's operations perform in any order except that two on one location keep
// program order (a load may read an earlier store of its own thread to its location before that
// store performs) and a fence orders everything before it with everything after it.
enum class Model { SC, TSO, ARMv8 };
const char* name(Model m);

// Every outcome `m` allows for `t`. Throws std::invalid_argument for a malformed test (a
// location or register out of range, a store of 0, no threads).
std::set<Outcome> allowed(const Test& t, Model m);

// "r0=1 r1=0 x=1 y=1".
std::string format(const Test& t, const Outcome& o);

// The standard shapes (SB, MP, LB, S, R, 2+2W, WRC, IRIW, ISA2, the coherence tests), without
// and with fences between each thread's accesses.
std::vector<Test> standard_tests();

struct RunOptions {
  unsigned iterations = 200;
  uint64_t seed = 1;
  // A thread starts after a random pause of up to the iteration's spread (none in half the
  // iterations, so that the threads meet within a miss's latency, else up to max_start_ns),
  // and pauses before each operation (none half the time, else up to max_gap_ns).
  unsigned max_start_ns = 400;
  unsigned max_gap_ns = 60;
  // Iteration n uses lines first_line + n * locations + j (location j): runs on one system
  // must use lines no run used before (every location starts at 0).
  uint64_t first_line = 0;
};

// Runs `t` `o.iterations` times on `sys`: thread i on core cores[i], each iteration on fresh
// lines (location j of iteration n at a line of its own, on socket j % num_sockets), with
// random start times, random gaps and random copies of the lines warmed in caches first (the
// test's cores' or any), all drawn from `o.seed`. Returns how often each outcome was observed.
std::map<Outcome, unsigned> run(HostSystem& sys, const Test& t, const std::vector<unsigned>& cores,
                                const RunOptions& o);

}  // namespace cni::sim::litmus
