// SPDX-License-Identifier: Apache-2.0
// MemoryPort over mapped memory (see mapped_mem.hpp). Word-sized volatile accesses so the
// compiler neither elides nor merges them; a full fence for barrier().
#include "cni/drv/mapped_mem.hpp"

#include <atomic>
#include <cstring>
#include <ctime>

namespace cni::drv {

namespace {
// Copies through volatile 8-byte words where both sides allow it, bytes otherwise.
void vcopy(volatile uint8_t* dst, const volatile uint8_t* src, size_t n) {
  size_t i = 0;
  if ((reinterpret_cast<uintptr_t>(dst) | reinterpret_cast<uintptr_t>(src)) % 8 == 0) {
    for (; i + 8 <= n; i += 8) {
      *reinterpret_cast<volatile uint64_t*>(dst + i) =
          *reinterpret_cast<const volatile uint64_t*>(src + i);
    }
  }
  for (; i < n; ++i) dst[i] = src[i];
}
}  // namespace

void MappedMemory::load(Addr addr, void* dst, size_t n) {
  vcopy(static_cast<volatile uint8_t*>(dst), reinterpret_cast<const volatile uint8_t*>(addr), n);
}

void MappedMemory::store(Addr addr, const void* src, size_t n) {
  vcopy(reinterpret_cast<volatile uint8_t*>(addr), static_cast<const volatile uint8_t*>(src), n);
}

void MappedMemory::barrier() { std::atomic_thread_fence(std::memory_order_seq_cst); }

// An acquire fence is DMB ISHLD on AArch64 and no instruction on x86 (TSO orders loads).
void MappedMemory::barrier_load() { std::atomic_thread_fence(std::memory_order_acquire); }

void MappedMemory::barrier_store() {
#if defined(__aarch64__)
  asm volatile("dmb ishst" ::: "memory");
#else
  std::atomic_signal_fence(std::memory_order_seq_cst);  // TSO keeps stores in order
#endif
}

uint64_t MappedMemory::load_acquire64(Addr addr) {
  return __atomic_load_n(reinterpret_cast<const uint64_t*>(addr), __ATOMIC_ACQUIRE);  // LDAR
}

void MappedMemory::store_release64(Addr addr, uint64_t value) {
  __atomic_store_n(reinterpret_cast<uint64_t*>(addr), value, __ATOMIC_RELEASE);  // STLR
}

// The caller computed `addr` from its previous load's value, so the hardware orders the two
// (an address dependency); a plain load keeps it.
void MappedMemory::load_dep(Addr addr, void* dst, size_t n) { load(addr, dst, n); }

void MappedMemory::prefetch(Addr addr, bool exclusive) {
  if (exclusive) {
    __builtin_prefetch(reinterpret_cast<const void*>(addr), 1);
  } else {
    __builtin_prefetch(reinterpret_cast<const void*>(addr), 0);
  }
}

uint64_t MappedMemory::uncached_load64(Addr addr) {
  return *reinterpret_cast<const volatile uint64_t*>(addr);
}

// Two 8-byte loads: portable C++ has no 16-byte volatile load (a platform with one, such as
// AArch64's LDP, may put it here).
void MappedMemory::uncached_load128(Addr addr, void* dst) {
  const auto* p = reinterpret_cast<const volatile uint64_t*>(addr);
  const uint64_t w[2] = {p[0], p[1]};
  std::memcpy(dst, w, 16);
}

void MappedMemory::uncached_store64(Addr addr, uint64_t value) {
  *reinterpret_cast<volatile uint64_t*>(addr) = value;
}

uint64_t MappedMemory::now_ns() {
  timespec ts{};
  clock_gettime(CLOCK_MONOTONIC, &ts);
  return uint64_t(ts.tv_sec) * 1'000'000'000ull + uint64_t(ts.tv_nsec);
}

void MappedMemory::pause_ns(uint64_t ns) {
  uint64_t end = now_ns() + ns;
  while (now_ns() < end) {
  }
}

}  // namespace cni::drv
