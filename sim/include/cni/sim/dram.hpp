// SPDX-License-Identifier: Apache-2.0
// A DRAM channel behind a memory controller (docs/dram.md): banks with an open row each, the
// activate, column and precharge delays of a row hit, an empty bank and a row conflict, and a
// data bus of a given bandwidth that every transfer occupies in turn; the bytes themselves, in
// pages allocated on first write (unwritten memory reads as zero). Accesses are timed in the
// order they are given (a first-come first-served controller); refresh, bus turnaround and the
// activate window are not modelled.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "cni/sim/kernel.hpp"

namespace cni::sim {

struct DramParams {
  uint64_t bytes = uint64_t{1} << 30;  // capacity; an access beyond it is refused
  unsigned banks = 16;                 // banks (a power of two); consecutive rows interleave
  unsigned row_bytes = 8192;           // bytes per row (a power of two)
  Time t_rcd = 14'000;                 // activate to column command
  Time t_cl = 14'000;                  // column command to the first data
  Time t_rp = 14'000;                  // precharge (closing the open row)
  double bandwidth_gib_s = 17.9;       // the data bus (DDR4-2400 x64: 19.2 GB/s)

  // Throws std::invalid_argument naming the bad parameter and its value.
  void validate() const;
  // An idle channel's read of `bytes` from a closed bank: activate, column, transfer.
  Time idle_access(unsigned bytes) const;
};

struct DramStats {
  uint64_t reads = 0, writes = 0;
  uint64_t row_hits = 0, row_empty = 0, row_conflicts = 0;
  uint64_t bytes = 0;
  Time bus_busy = 0;  // time the data bus carried data
};

class Dram {
 public:
  explicit Dram(const DramParams& p);

  const DramParams& params() const { return p_; }
  const DramStats& stats() const { return stats_; }
  // Whether [addr, addr + bytes) lies in the memory.
  bool in_range(uint64_t addr, size_t bytes) const {
    return addr < p_.bytes && bytes <= p_.bytes - addr;
  }

  // Times one access of `bytes` (within one row) that reaches the controller at `t`: the time
  // its last byte has crossed the data bus. A bank opens the row once it has finished with the
  // previous access's column command (banks overlap their activates); column commands and
  // transfers follow the call order.
  Time access(Time t, uint64_t addr, unsigned bytes, bool write);

  // The bytes (no timing). Throws std::out_of_range outside the memory.
  void read(uint64_t addr, std::span<uint8_t> out) const;
  // Writes the bytes of `in` whose `mask` bit is set (an empty mask writes every byte).
  void write(uint64_t addr, std::span<const uint8_t> in, const std::vector<bool>& mask = {});

 private:
  static constexpr unsigned kPage = 4096;
  struct Bank {
    bool open = false;
    uint64_t row = 0;
    Time ready = 0;  // the bank takes its next command from here on
  };
  void check(uint64_t addr, size_t bytes) const;

  DramParams p_;
  DramStats stats_;
  std::vector<Bank> banks_;
  Time bus_free_ = 0;
  Time last_col_ = 0;
  std::unordered_map<uint64_t, std::unique_ptr<std::array<uint8_t, kPage>>> pages_;
};

}  // namespace cni::sim
