// SPDX-License-Identifier: Apache-2.0
#include "cni/sim/dram.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <stdexcept>

namespace cni::sim {

namespace {

Time transfer(const DramParams& p, unsigned bytes) {
  return static_cast<Time>(std::llround(bytes / (p.bandwidth_gib_s * 1073741824.0 / 1e12)));
}

}  // namespace

void DramParams::validate() const {
  const auto bad = [](const std::string& what) { throw std::invalid_argument("dram: " + what); };
  if (bytes == 0) bad("bytes = 0: the memory must hold something");
  if (banks == 0 || !std::has_single_bit(banks)) {
    bad("banks = " + std::to_string(banks) + " is not a power of two");
  }
  if (row_bytes < 64 || !std::has_single_bit(row_bytes)) {
    bad("row_bytes = " + std::to_string(row_bytes) + " is not a power of two >= 64");
  }
  if (!(bandwidth_gib_s > 0.0)) {
    bad("bandwidth_gib_s = " + std::to_string(bandwidth_gib_s) + " must be > 0");
  }
}

Time DramParams::idle_access(unsigned n) const { return t_rcd + t_cl + transfer(*this, n); }

Dram::Dram(const DramParams& p) : p_(p), banks_(p.banks) { p_.validate(); }

Time Dram::access(Time t, uint64_t addr, unsigned bytes, bool write) {
  check(addr, bytes);
  const uint64_t row_all = addr / p_.row_bytes;
  if ((addr + bytes - 1) / p_.row_bytes != row_all) {
    throw std::out_of_range("dram: an access of " + std::to_string(bytes) + " bytes at " +
                            std::to_string(addr) + " crosses a row");
  }
  Bank& b = banks_[row_all % p_.banks];
  const uint64_t row = row_all / p_.banks;
  // the bank opens the row once it is free; the column commands go out in order
  Time col = std::max(t, b.ready);
  if (b.open && b.row == row) {
    ++stats_.row_hits;
  } else if (!b.open) {
    ++stats_.row_empty;
    col += p_.t_rcd;
  } else {
    ++stats_.row_conflicts;
    col += p_.t_rp + p_.t_rcd;
  }
  col = std::max(col, last_col_);
  b.open = true;
  b.row = row;
  b.ready = col;
  last_col_ = col;
  const Time xfer = transfer(p_, bytes);
  const Time start = std::max(col + p_.t_cl, bus_free_);
  bus_free_ = start + xfer;
  ++(write ? stats_.writes : stats_.reads);
  stats_.bytes += bytes;
  stats_.bus_busy += xfer;
  return bus_free_;
}

void Dram::check(uint64_t addr, size_t bytes) const {
  if (!in_range(addr, bytes)) {
    throw std::out_of_range("dram: " + std::to_string(bytes) + " bytes at " + std::to_string(addr) +
                            " lie outside the memory of " + std::to_string(p_.bytes) + " bytes");
  }
}

void Dram::read(uint64_t addr, std::span<uint8_t> out) const {
  check(addr, out.size());
  for (size_t i = 0; i < out.size(); ++i) {
    const uint64_t a = addr + i;
    const auto it = pages_.find(a / kPage);
    out[i] = it == pages_.end() ? 0 : (*it->second)[a % kPage];
  }
}

void Dram::write(uint64_t addr, std::span<const uint8_t> in, const std::vector<bool>& mask) {
  check(addr, in.size());
  if (!mask.empty() && mask.size() != in.size()) {
    throw std::invalid_argument("dram: a write's mask has " + std::to_string(mask.size()) +
                                " bits for " + std::to_string(in.size()) + " bytes");
  }
  for (size_t i = 0; i < in.size(); ++i) {
    if (!mask.empty() && !mask[i]) continue;
    const uint64_t a = addr + i;
    auto& page = pages_[a / kPage];
    if (!page) page = std::make_unique<std::array<uint8_t, kPage>>();  // zeroed
    (*page)[a % kPage] = in[i];
  }
}

}  // namespace cni::sim
