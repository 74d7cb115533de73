// SPDX-License-Identifier: Apache-2.0
// The memory-access interface every OpenCNI driver is written against. The simulation
// implements it on a simulated core (each call blocks that core until the coherent link
// answers); hardware implements it over mapped memory (sw/include/cni/drv/mapped_mem.hpp).
// Driver logic never asks which one it has.
#pragma once

#include <cstddef>
#include <cstdint>

namespace cni::drv {

using Addr = uint64_t;

class MemoryPort {
 public:
  virtual ~MemoryPort() = default;

  // Cached accesses. `n` may span lines; an access never tears within an aligned 8 B word.
  virtual void load(Addr addr, void* dst, size_t n) = 0;
  virtual void store(Addr addr, const void* src, size_t n) = 0;
  // Full barrier (ARM DMB SY): every earlier store is performed (globally visible) and every
  // earlier load has its value before any later access starts.
  virtual void barrier() = 0;
  // Weaker ordering points (ARMv8; a TSO machine needs no instruction for them, as it keeps
  // these orders anyway). Load barrier (DMB LD): every earlier load has its value before any
  // later load or store is performed.
  virtual void barrier_load() = 0;
  // Store barrier (DMB ST): every earlier store is performed before any later store.
  virtual void barrier_store() = 0;
  // Load-acquire of an aligned 8-byte word (LDAR): no later access is performed before it, and
  // it is not performed before an earlier store_release64 (RCsc, as ARMv8's).
  virtual uint64_t load_acquire64(Addr addr) = 0;
  // Store-release of an aligned 8-byte word (STLR): performed after every earlier load and
  // store.
  virtual void store_release64(Addr addr, uint64_t value) = 0;
  // A load whose address the caller computed from the value of its previous load (an address
  // dependency): it is satisfied after that load. A load-to-store dependency needs no call:
  // cores never perform a store before an earlier load has its value (docs/driver.md).
  virtual void load_dep(Addr addr, void* dst, size_t n) = 0;
  // Non-binding prefetch of the line holding `addr`, shared or for ownership.
  virtual void prefetch(Addr addr, bool exclusive) = 0;
  // Uncached (device-register) accesses, 8 B each.
  virtual uint64_t uncached_load64(Addr addr) = 0;
  // An uncached load of the 16 bytes at `addr` (16-byte aligned) into `dst`: one access where
  // the core's device bus is that wide (ThunderX-1's peripheral bus is 128 bits, seed 002 §3).
  virtual void uncached_load128(Addr addr, void* dst) = 0;
  virtual void uncached_store64(Addr addr, uint64_t value) = 0;
  // A timestamp in nanoseconds (simulated time in simulation, a monotonic clock on hardware).
  virtual uint64_t now_ns() = 0;
  // Idle this core for `ns` (back-off in polling loops).
  virtual void pause_ns(uint64_t ns) = 0;
  // Cache-line size of the coherence fabric this port reaches.
  virtual unsigned line_bytes() const = 0;

  uint64_t load64(Addr addr) {
    uint64_t v = 0;
    load(addr, &v, sizeof v);
    return v;
  }
  void store64(Addr addr, uint64_t v) { store(addr, &v, sizeof v); }
};

}  // namespace cni::drv
