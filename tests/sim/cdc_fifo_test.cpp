// SPDX-License-Identifier: Apache-2.0
// CdcFifo (tb/nic/cdc_fifo.hpp), the clock crossing of the coherent NIC's streams: an entry is
// seen by the reader two of its cycles after the write, a freed place by the writer two of its
// cycles after the read (not at once), order is kept, and a write with no place in sight or a
// read with no entry in sight is refused.
#include "nic/cdc_fifo.hpp"

#include <gtest/gtest.h>

#include <stdexcept>

namespace cni::tb {
namespace {

constexpr sim::Time kW = 3333, kR = 4000;  // 300 MHz writer, 250 MHz reader

TEST(CdcFifo, EntriesReachTheReaderAndFreedPlacesTheWriterAfterTheirSynchronizers) {
  CdcFifo<int> f(2, 2, kW, kR);
  EXPECT_TRUE(f.empty());
  EXPECT_EQ(f.write(0, 1), 2 * kR);
  EXPECT_EQ(f.write(kW, 2), kW + 2 * kR);
  EXPECT_FALSE(f.can_write(kW)) << "two of two places taken";
  EXPECT_FALSE(f.can_read(2 * kR - 1)) << "the write pointer is not through its synchronizer";
  ASSERT_TRUE(f.can_read(2 * kR));
  EXPECT_EQ(f.front(), 1);
  const sim::Time t = 2 * kR;
  EXPECT_EQ(f.read(t), t + 2 * kW);
  EXPECT_FALSE(f.can_write(t)) << "the place read is not free to the writer at once";
  EXPECT_FALSE(f.can_write(t + 2 * kW - 1));
  EXPECT_TRUE(f.can_write(t + 2 * kW));
  EXPECT_THROW(f.read(t), std::logic_error) << "entry 2 is not in sight yet";
  ASSERT_TRUE(f.can_read(kW + 2 * kR));
  EXPECT_EQ(f.front(), 2);
  f.read(kW + 2 * kR);
  EXPECT_TRUE(f.empty());
}

TEST(CdcFifo, AWriteWithNoPlaceInSightIsRefused) {
  CdcFifo<int> f(1, 2, kW, kR);
  f.write(0, 7);
  EXPECT_THROW(f.write(0, 8), std::logic_error);
  f.read(2 * kR);
  EXPECT_THROW(f.write(2 * kR, 8), std::logic_error);
  EXPECT_EQ(f.write(2 * kR + 2 * kW, 8), 2 * kR + 2 * kW + 2 * kR);
}

}  // namespace
}  // namespace cni::tb
