// SPDX-License-Identifier: Apache-2.0
// Dram (docs/dram.md, "The DRAM model"): a row hit, an empty bank and a row conflict each take
// their delays; the data bus serializes transfers at its bandwidth; banks overlap their
// activates; the bytes read back as written (masks honoured, unwritten memory zero); bad
// parameters and accesses outside the memory are refused with the reason.
#include "cni/sim/dram.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "error_of.hpp"

using namespace cni::sim;
using cni::sim::test::error_of;

namespace {

DramParams params() {
  DramParams p;
  p.bytes = 1 << 24;
  p.banks = 4;
  p.row_bytes = 1024;
  p.t_rcd = 10'000;
  p.t_cl = 12'000;
  p.t_rp = 8'000;
  p.bandwidth_gib_s = 64.0 / 1.073741824;  // 64 B a nanosecond
  return p;
}

TEST(Dram, RowHitsEmptyBanksAndConflictsTakeTheirDelays) {
  Dram d(params());
  const Time t0 = 1'000'000;
  // bank 0 closed: activate + column + 64 B on the bus (1 ns)
  EXPECT_EQ(d.access(t0, 0, 64, false), t0 + 10'000 + 12'000 + 1'000);
  // the same row, later: column + transfer
  EXPECT_EQ(d.access(2 * t0, 64, 64, false), 2 * t0 + 12'000 + 1'000);
  // another row of bank 0 (rows interleave over 4 banks: row 4 is bank 0's next)
  EXPECT_EQ(d.access(3 * t0, 4 * 1024, 64, true), 3 * t0 + 8'000 + 10'000 + 12'000 + 1'000);
  EXPECT_EQ(d.stats().row_empty, 1u);
  EXPECT_EQ(d.stats().row_hits, 1u);
  EXPECT_EQ(d.stats().row_conflicts, 1u);
  EXPECT_EQ(d.stats().reads, 2u);
  EXPECT_EQ(d.stats().writes, 1u);
  EXPECT_EQ(d.stats().bytes, 192u);
}

TEST(Dram, TheDataBusSerializesTransfersAndBanksOverlapTheirActivates) {
  Dram d(params());
  // four banks activated at once: the transfers follow one another on the bus
  const Time first = d.access(0, 0, 512, false);
  EXPECT_EQ(first, 10'000 + 12'000 + 8'000);
  for (unsigned b = 1; b < 4; ++b) EXPECT_EQ(d.access(0, b * 1024, 512, false), first + b * 8'000);
  EXPECT_EQ(d.stats().bus_busy, 4 * 8'000u);
  // back-to-back row hits stream at the bus's rate
  Time end = 0;
  for (unsigned i = 0; i < 8; ++i) end = d.access(0, 512 + (i % 2) * 256, 256, false);
  EXPECT_EQ(end, first + 3 * 8'000 + 8 * 4'000);
}

TEST(Dram, BytesReadBackAsWrittenWithMasksAndUnwrittenMemoryIsZero) {
  Dram d(params());
  std::vector<uint8_t> in(64), out(64);
  for (unsigned i = 0; i < 64; ++i) in[i] = static_cast<uint8_t>(i + 1);
  d.write(4090, in);  // across a 4 KiB page of the store
  d.read(4090, out);
  EXPECT_EQ(out, in);
  std::vector<bool> mask(64, false);
  mask[3] = mask[60] = true;
  std::vector<uint8_t> ff(64, 0xff);
  d.write(4090, ff, mask);
  d.read(4090, out);
  for (unsigned i = 0; i < 64; ++i) EXPECT_EQ(out[i], (i == 3 || i == 60) ? 0xff : i + 1) << i;
  d.read(1 << 20, out);
  EXPECT_EQ(out, std::vector<uint8_t>(64, 0));
}

TEST(Dram, BadParametersAndAccessesAreRefusedWithTheReason) {
  DramParams p = params();
  p.banks = 3;
  EXPECT_NE(
      error_of<std::invalid_argument>([&] { Dram d(p); }).find("banks = 3 is not a power of two"),
      std::string::npos);
  p = params();
  p.row_bytes = 32;
  EXPECT_NE(error_of<std::invalid_argument>([&] { Dram d(p); }).find("row_bytes = 32"),
            std::string::npos);
  p = params();
  p.bandwidth_gib_s = 0;
  EXPECT_NE(error_of<std::invalid_argument>([&] { Dram d(p); }).find("bandwidth_gib_s"),
            std::string::npos);
  Dram d(params());
  std::vector<uint8_t> b(64);
  EXPECT_THROW(d.read((1 << 24) - 32, b), std::out_of_range);
  EXPECT_THROW(d.write(1 << 24, b), std::out_of_range);
  EXPECT_NE(
      error_of<std::out_of_range>([&] { d.access(0, 1000, 64, false); }).find("crosses a row"),
      std::string::npos);
  EXPECT_NE(error_of<std::invalid_argument>([&] {
              d.write(0, b, std::vector<bool>(3));
            }).find("mask has 3 bits"),
            std::string::npos);
  EXPECT_FALSE(d.in_range((1 << 24) - 32, 64));
  EXPECT_TRUE(d.in_range((1 << 24) - 64, 64));
}

}  // namespace
