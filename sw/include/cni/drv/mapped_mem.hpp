// SPDX-License-Identifier: Apache-2.0
// MemoryPort over mapped memory: the hardware backend. Addresses are virtual addresses in this
// process (e.g. an mmap of the device's coherent aperture); every access really touches memory.
#pragma once

#include "cni/drv/mem.hpp"

namespace cni::drv {

class MappedMemory final : public MemoryPort {
 public:
  explicit MappedMemory(unsigned line_bytes) : line_bytes_(line_bytes) {}

  void load(Addr addr, void* dst, size_t n) override;
  void store(Addr addr, const void* src, size_t n) override;
  void barrier() override;
  void barrier_load() override;
  void barrier_store() override;
  uint64_t load_acquire64(Addr addr) override;
  void store_release64(Addr addr, uint64_t value) override;
  void load_dep(Addr addr, void* dst, size_t n) override;
  void prefetch(Addr addr, bool exclusive) override;
  uint64_t uncached_load64(Addr addr) override;
  void uncached_load128(Addr addr, void* dst) override;
  void uncached_store64(Addr addr, uint64_t value) override;
  uint64_t now_ns() override;
  void pause_ns(uint64_t ns) override;
  unsigned line_bytes() const override { return line_bytes_; }

 private:
  unsigned line_bytes_;
};

}  // namespace cni::drv
