// SPDX-License-Identifier: Apache-2.0
// The configuration space of a PCIe endpoint function (pcie::ConfigSpace): the BAR sizing probe
// and type bits, assignment and address decode, read-only registers, byte enables, Device
// Control's payload and read-request sizes, the capability list, MSI, Device Status's
// Unsupported Request Detected, and the checks on parameters and register offsets.
#include "cni/sim/pcie_cfg.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "error_of.hpp"

using namespace cni::sim::pcie;
using cni::sim::test::error_of;

namespace {

constexpr uint64_t kGiB = uint64_t{1} << 30;
constexpr uint16_t kDevStaUrBit = 1u << 3;  // in Device Status, DW kCfgDevCtl [31:16]

uint16_t bar_reg(unsigned i) { return static_cast<uint16_t>(kCfgBar0 + 4 * i); }

// BAR 0: 32-bit, 64 KiB; BAR 2/3: 64-bit prefetchable, 1 MiB; BAR 4/5: 64-bit prefetchable,
// 16 GiB; BAR 1 not implemented.
ConfigParams params() {
  ConfigParams p;
  p.bars[0] = {64 * 1024, false, false};
  p.bars[2] = {1 << 20, true, true};
  p.bars[4] = {16 * kGiB, true, true};
  p.mps_supported = 512;
  p.msi_vectors = 8;
  return p;
}

// The size the sizing probe finds: write all ones to the BAR's registers, read back, clear the
// type bits, invert, add one.
uint64_t probe_size(ConfigSpace& c, unsigned i) {
  c.write(bar_reg(i), 0xFFFFFFFF);
  const uint32_t lo = c.read(bar_reg(i));
  uint64_t mask = lo & ~0xFu;
  if ((lo & 0x6) == 0x4) {
    c.write(bar_reg(i + 1), 0xFFFFFFFF);
    mask |= uint64_t{c.read(bar_reg(i + 1))} << 32;
  } else {
    mask |= ~uint64_t{0xFFFFFFFF};
  }
  return ~mask + 1;
}

uint16_t msi_control(const ConfigSpace& c) {
  return static_cast<uint16_t>(c.read(kCfgMsiCap) >> 16);
}

TEST(PcieConfig, Bar32SizingProbe) {
  ConfigSpace c(params());
  EXPECT_EQ(c.read(bar_reg(0)), 0u);
  c.write(bar_reg(0), 0xFFFFFFFF);
  EXPECT_EQ(c.read(bar_reg(0)), 0xFFFF0000u);
  EXPECT_EQ(probe_size(c, 0), 64u * 1024);
  // The unimplemented slot reads 0 and ignores the probe.
  c.write(bar_reg(1), 0xFFFFFFFF);
  EXPECT_EQ(c.read(bar_reg(1)), 0u);
}

TEST(PcieConfig, Bar64SizingProbe) {
  ConfigSpace c(params());
  c.write(bar_reg(2), 0xFFFFFFFF);
  c.write(bar_reg(3), 0xFFFFFFFF);
  EXPECT_EQ(c.read(bar_reg(2)), 0xFFF0000Cu);
  EXPECT_EQ(c.read(bar_reg(3)), 0xFFFFFFFFu);  // below 4 GiB the upper half is all address
  EXPECT_EQ(probe_size(c, 2), uint64_t{1} << 20);
}

TEST(PcieConfig, Bar64Over4GiBSizingProbe) {
  ConfigSpace c(params());
  c.write(bar_reg(4), 0xFFFFFFFF);
  c.write(bar_reg(5), 0xFFFFFFFF);
  EXPECT_EQ(c.read(bar_reg(4)), 0x0000000Cu);
  EXPECT_EQ(c.read(bar_reg(5)), 0xFFFFFFFCu);
  EXPECT_EQ(probe_size(c, 4), 16 * kGiB);

  ConfigParams p;
  p.bars[0] = {4 * kGiB, true, true};  // exactly 4 GiB: no low address bits, a full upper half
  ConfigSpace d(p);
  d.write(bar_reg(0), 0xFFFFFFFF);
  d.write(bar_reg(1), 0xFFFFFFFF);
  EXPECT_EQ(d.read(bar_reg(0)), 0x0000000Cu);
  EXPECT_EQ(d.read(bar_reg(1)), 0xFFFFFFFFu);
  EXPECT_EQ(probe_size(d, 0), 4 * kGiB);
}

TEST(PcieConfig, BarTypeBitsAreReadOnly) {
  ConfigParams p;
  p.bars[0] = {4096, false, false};
  p.bars[1] = {4096, true, false};
  p.bars[3] = {4096, true, true};
  ConfigSpace c(p);
  EXPECT_EQ(c.read(bar_reg(0)) & 0xF, 0x0u);  // memory, 32-bit, not prefetchable
  EXPECT_EQ(c.read(bar_reg(1)) & 0xF, 0x4u);  // memory, 64-bit
  EXPECT_EQ(c.read(bar_reg(3)) & 0xF, 0xCu);  // memory, 64-bit, prefetchable
  for (unsigned i : {0u, 1u, 3u}) {
    const uint32_t type = c.read(bar_reg(i)) & 0xF;
    c.write(bar_reg(i), type ^ 0xF);
    EXPECT_EQ(c.read(bar_reg(i)), type) << "BAR " << i;
  }
}

TEST(PcieConfig, BarAssignmentSetsBase) {
  ConfigSpace c(params());
  c.write(bar_reg(0), 0xC0012345);  // bits below 64 KiB are not address bits
  EXPECT_EQ(c.read(bar_reg(0)), 0xC0010000u);
  EXPECT_EQ(c.bar_base(0), 0xC0010000u);

  c.write(bar_reg(2), 0x80100000);
  c.write(bar_reg(3), 0x00000020);
  EXPECT_EQ(c.read(bar_reg(2)), 0x8010000Cu);
  EXPECT_EQ(c.bar_base(2), 0x0000002080100000u);

  c.write(bar_reg(4), 0);
  c.write(bar_reg(5), 0x00000007);  // 16 GiB: bits 33:32 are not address bits
  EXPECT_EQ(c.read(bar_reg(5)), 0x00000004u);
  EXPECT_EQ(c.bar_base(4), 0x0000000400000000u);

  // Neither an upper half nor an unimplemented slot has a base of its own.
  EXPECT_EQ(c.bar_base(1), 0u);
  EXPECT_EQ(c.bar_base(3), 0u);
  EXPECT_EQ(c.bar_base(5), 0u);
  EXPECT_THROW(c.bar_base(6), std::out_of_range);
}

constexpr uint64_t kBase0 = 0xC0010000;
constexpr uint64_t kBase2 = 0x0000002080100000;
constexpr uint64_t kBase4 = 0x0000000400000000;

// params() with its BARs assigned kBase0, kBase2 and kBase4 and memory space enabled.
ConfigSpace assigned() {
  ConfigSpace c(params());
  c.write(bar_reg(0), static_cast<uint32_t>(kBase0));
  c.write(bar_reg(2), static_cast<uint32_t>(kBase2));
  c.write(bar_reg(3), static_cast<uint32_t>(kBase2 >> 32));
  c.write(bar_reg(4), static_cast<uint32_t>(kBase4));
  c.write(bar_reg(5), static_cast<uint32_t>(kBase4 >> 32));
  c.write(kCfgCommand, kCmdMemory);
  return c;
}

TEST(PcieConfig, DecodeHitsEachBar) {
  ConfigSpace c = assigned();
  ASSERT_TRUE(c.memory_enabled());
  auto h = c.decode(kBase0 + 0x1234);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->bar, 0u);
  EXPECT_EQ(h->offset, 0x1234u);
  h = c.decode(kBase2 + 0x80);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->bar, 2u);
  EXPECT_EQ(h->offset, 0x80u);
  h = c.decode(kBase4 + 15 * kGiB);
  ASSERT_TRUE(h);
  EXPECT_EQ(h->bar, 4u);
  EXPECT_EQ(h->offset, 15 * kGiB);
}

TEST(PcieConfig, DecodeBoundaries) {
  ConfigSpace c = assigned();
  auto first = c.decode(kBase0);
  ASSERT_TRUE(first);
  EXPECT_EQ(first->offset, 0u);
  auto last = c.decode(kBase0 + 0xFFFF);
  ASSERT_TRUE(last);
  EXPECT_EQ(last->bar, 0u);
  EXPECT_EQ(last->offset, 0xFFFFu);
  EXPECT_FALSE(c.decode(kBase0 + 0x10000));
  EXPECT_FALSE(c.decode(kBase0 - 1));
  EXPECT_FALSE(c.decode(kBase2 + (1 << 20)));
  EXPECT_FALSE(c.decode(kBase4 + 16 * kGiB));
  ASSERT_TRUE(c.decode(kBase4 + 16 * kGiB - 1));
}

TEST(PcieConfig, DisabledMemorySpaceDecodesNothing) {
  ConfigSpace c = assigned();
  c.write(kCfgCommand, 0);
  EXPECT_FALSE(c.memory_enabled());
  EXPECT_FALSE(c.decode(kBase0));
  EXPECT_FALSE(c.decode(kBase2));
  EXPECT_FALSE(c.decode(kBase4));
  c.write(kCfgCommand, kCmdMemory);
  EXPECT_TRUE(c.decode(kBase0));
}

TEST(PcieConfig, UnassignedBarDoesNotDecode) {
  ConfigSpace c(params());
  c.write(kCfgCommand, kCmdMemory);
  EXPECT_FALSE(c.decode(0));
  EXPECT_FALSE(c.decode(0x100));
  c.write(bar_reg(0), 0x10000);
  EXPECT_TRUE(c.decode(0x10000));
  EXPECT_FALSE(c.decode(0x100));  // BAR 2 and BAR 4 are still at 0
}

TEST(PcieConfig, CommandKeepsOnlyMemoryAndBusMaster) {
  ConfigSpace c(params());
  EXPECT_EQ(c.read(kCfgCommand), 0x00100000u);  // Status: Capabilities List
  c.write(kCfgCommand, 0xFFFFFFFF);
  EXPECT_EQ(c.read(kCfgCommand), 0x00100006u);
  EXPECT_TRUE(c.memory_enabled());
  EXPECT_TRUE(c.bus_master());
  c.write(kCfgCommand, kCmdBusMaster);
  EXPECT_FALSE(c.memory_enabled());
  EXPECT_TRUE(c.bus_master());
}

TEST(PcieConfig, ReadOnlyRegistersIgnoreWrites) {
  ConfigParams p = params();
  p.vendor_id = 0x1234;
  p.device_id = 0xABCD;
  p.class_code = 0x028000;
  ConfigSpace c(p);
  EXPECT_EQ(c.read(0x00), 0xABCD1234u);
  EXPECT_EQ(c.read(0x08), 0x02800000u);  // class code, Revision ID 0
  EXPECT_EQ(c.read(0x0C), 0u);           // Header Type 0, single function
  EXPECT_EQ(c.read(kCfgCapPtr), 0x40u);
  for (uint16_t reg : {0x00, 0x08, 0x0C, 0x28, 0x2C, 0x30, 0x34, 0x38, 0x3C, 0x40, 0x44, 0x4C, 0x50,
                       0x70, 0x100, 0xFFC}) {
    const uint32_t before = c.read(reg);
    c.write(reg, 0xFFFFFFFF);
    EXPECT_EQ(c.read(reg), before) << "register " << reg;
    c.write(reg, 0);
    EXPECT_EQ(c.read(reg), before) << "register " << reg;
  }
}

TEST(PcieConfig, ByteEnablesWriteOnlyTheirBytes) {
  ConfigParams p;
  p.bars[0] = {128, false, false};
  ConfigSpace c(p);
  c.write(bar_reg(0), 0x11223344);
  EXPECT_EQ(c.read(bar_reg(0)), 0x11223300u);
  c.write(bar_reg(0), 0xAABBCCDD, 0b0101);
  EXPECT_EQ(c.read(bar_reg(0)), 0x11BB3380u);
  c.write(bar_reg(0), 0xFFFFFFFF, 0);
  EXPECT_EQ(c.read(bar_reg(0)), 0x11BB3380u);

  // Byte 0 of Device Control holds Max_Payload_Size, byte 1 Max_Read_Request_Size.
  c.write(kCfgDevCtl, 0x5 << 12 | 0x1 << 5, 0b0001);
  EXPECT_EQ(c.max_payload(), 256u);
  EXPECT_EQ(c.max_read_request(), 512u);
  c.write(kCfgDevCtl, 0x5 << 12 | 0x2 << 5, 0b0010);
  EXPECT_EQ(c.max_payload(), 256u);
  EXPECT_EQ(c.max_read_request(), 4096u);

  c.write(kCfgMsiData, 0xBEEF, 0b0010);
  EXPECT_EQ(c.msi_data(), 0xBE00u);
}

TEST(PcieConfig, DeviceCapabilitiesReportsSupportedPayload) {
  for (unsigned mps = 128, enc = 0; mps <= 4096; mps *= 2, ++enc) {
    ConfigParams p;
    p.mps_supported = mps;
    ConfigSpace c(p);
    EXPECT_EQ(c.read(kCfgDevCap) & 0x7, enc) << mps;
    EXPECT_TRUE(c.read(kCfgDevCap) & (1u << 15)) << "Role-Based Error Reporting";
  }
}

TEST(PcieConfig, MaxPayloadAndReadRequestFields) {
  ConfigSpace c(params());
  EXPECT_EQ(c.read(kCfgDevCtl) & 0xFFFF, 0x2000u);  // reset: MPS 000b, MRRS 010b
  EXPECT_EQ(c.max_payload(), 128u);
  EXPECT_EQ(c.max_read_request(), 512u);
  for (uint32_t enc = 0; enc <= 5; ++enc) {
    c.write(kCfgDevCtl, enc << 5 | (5 - enc) << 12);
    EXPECT_EQ(c.read(kCfgDevCtl) & 0xFFFF, enc << 5 | (5 - enc) << 12);
    EXPECT_EQ(c.max_payload(), 128u << enc);
    EXPECT_EQ(c.max_read_request(), 128u << (5 - enc));
  }
  // The fields read back as written; the reserved encodings count as 4096 bytes.
  c.write(kCfgDevCtl, 7u << 5 | 6u << 12);
  EXPECT_EQ(c.read(kCfgDevCtl) & 0xFFFF, 7u << 5 | 6u << 12);
  EXPECT_EQ(c.max_payload(), 4096u);
  EXPECT_EQ(c.max_read_request(), 4096u);
  // The other Device Control bits read 0.
  c.write(kCfgDevCtl, 0xFFFF);
  EXPECT_EQ(c.read(kCfgDevCtl) & 0xFFFF, 0x70E0u);
}

TEST(PcieConfig, CapabilityListWalk) {
  ConfigSpace c(params());
  ASSERT_TRUE(c.read(kCfgCommand) & (1u << 20)) << "Status: Capabilities List";
  std::vector<uint8_t> ids;
  std::vector<uint8_t> at;
  // 48 capabilities fill the 192 bytes after the header: a longer list has a cycle.
  for (uint8_t ptr = c.read(kCfgCapPtr) & 0xFF; ptr != 0 && ids.size() < 48;
       ptr = (c.read(ptr) >> 8) & 0xFF) {
    at.push_back(ptr);
    ids.push_back(c.read(ptr) & 0xFF);
  }
  EXPECT_EQ(at, (std::vector<uint8_t>{0x40, 0x80}));
  EXPECT_EQ(ids, (std::vector<uint8_t>{0x10, 0x05}));
  // PCI Express Capabilities: version 2, device/port type 0 (PCI Express Endpoint).
  EXPECT_EQ(c.read(kCfgPcieCap) >> 16, 0x0002u);
}

TEST(PcieConfig, MsiControlFields) {
  ConfigSpace c(params());
  uint16_t ctl = msi_control(c);
  EXPECT_EQ(ctl, 3u << 1 | 1u << 7);  // 8 vectors capable, 64-bit; disabled, 1 enabled
  EXPECT_FALSE(c.msi_enabled());
  EXPECT_EQ(c.msi_vectors_enabled(), 1u);

  c.write(kCfgMsiCap, (1u | 2u << 4) << 16);
  EXPECT_TRUE(c.msi_enabled());
  EXPECT_EQ(c.msi_vectors_enabled(), 4u);
  EXPECT_EQ(msi_control(c), 1u | 3u << 1 | 2u << 4 | 1u << 7);

  // More than capable is granted the capable count; the capable and 64-bit bits are read-only.
  c.write(kCfgMsiCap, (1u | 5u << 4) << 16);
  EXPECT_EQ(c.msi_vectors_enabled(), 8u);
  EXPECT_EQ(msi_control(c), 1u | 3u << 1 | 3u << 4 | 1u << 7);
  c.write(kCfgMsiCap, 0);
  EXPECT_FALSE(c.msi_enabled());
  EXPECT_EQ(c.msi_vectors_enabled(), 1u);
  EXPECT_EQ(msi_control(c), 3u << 1 | 1u << 7);
  EXPECT_EQ(c.read(kCfgMsiCap) & 0xFFFF, 0x0005u);  // ID and next pointer ignore the writes

  ConfigParams one = params();
  one.msi_vectors = 1;
  ConfigSpace d(one);
  d.write(kCfgMsiCap, (1u | 7u << 4) << 16);
  EXPECT_EQ(d.msi_vectors_enabled(), 1u);
  EXPECT_EQ(msi_control(d), 1u | 1u << 7);
}

TEST(PcieConfig, MsiAddressAndData) {
  ConfigSpace c(params());
  c.write(kCfgMsiAddrLo, 0xFEE00003);
  EXPECT_EQ(c.read(kCfgMsiAddrLo), 0xFEE00000u);  // double-word aligned
  c.write(kCfgMsiAddrHi, 0x12345678);
  EXPECT_EQ(c.read(kCfgMsiAddrHi), 0x12345678u);
  EXPECT_EQ(c.msi_address(), 0x12345678FEE00000u);
  c.write(kCfgMsiData, 0xABCD4321);
  EXPECT_EQ(c.read(kCfgMsiData), 0x00004321u);
  EXPECT_EQ(c.msi_data(), 0x4321u);
}

TEST(PcieConfig, UnsupportedRequestDetectedIsWriteOneToClear) {
  ConfigSpace c(params());
  c.write(kCfgDevCtl, 1u << 5);  // MPS 256, to see that clearing the status leaves it
  EXPECT_EQ(c.read(kCfgDevCtl) >> 16, 0u);
  c.set_unsupported_request();
  EXPECT_EQ(c.read(kCfgDevCtl) >> 16, kDevStaUrBit);
  c.write(kCfgDevCtl, 0, 0b1100);  // writing 0 leaves it
  EXPECT_EQ(c.read(kCfgDevCtl) >> 16, kDevStaUrBit);
  // Nor does a 1 in byte 2 when the byte enables leave byte 2 out.
  c.write(kCfgDevCtl, uint32_t{kDevStaUrBit} << 16 | 1u << 5, 0b1011);
  EXPECT_EQ(c.read(kCfgDevCtl) >> 16, kDevStaUrBit);
  c.write(kCfgDevCtl, 0xFFFF0000u, 0b0100);
  EXPECT_EQ(c.read(kCfgDevCtl) >> 16, 0u);
  EXPECT_EQ(c.max_payload(), 256u);
  EXPECT_EQ(c.max_read_request(), 128u);
  c.set_unsupported_request();
  c.write(kCfgDevCtl, 0xFFFF0000u, 0b1000);  // the bit is in byte 2, not byte 3
  EXPECT_EQ(c.read(kCfgDevCtl) >> 16, kDevStaUrBit);
}

TEST(PcieConfig, ConstructorRejectsBadSpecs) {
  auto error = [](auto edit) {
    ConfigParams p;
    edit(p);
    return error_of<std::invalid_argument>([&] { ConfigSpace c(p); });
  };
  auto rejects = [&](auto edit, const std::vector<std::string>& words) {
    const std::string msg = error(edit);
    for (const std::string& w : words) EXPECT_NE(msg.find(w), std::string::npos) << msg;
  };
  rejects([](ConfigParams& p) { p.bars[0].size = 100; }, {"bars[0].size", "100"});
  rejects([](ConfigParams& p) { p.bars[3].size = 64; }, {"bars[3].size", "64"});
  rejects([](ConfigParams& p) { p.bars[5] = {4096, true, true}; }, {"bars[5].is64"});
  rejects(
      [](ConfigParams& p) {
        p.bars[2] = {4096, true, true};
        p.bars[3].size = 4096;
      },
      {"bars[3].size", "4096", "bars[2]"});
  rejects(
      [](ConfigParams& p) {
        p.bars[1] = {4 * kGiB, false, false};
      },
      {"bars[1].size", "4294967296"});
  rejects([](ConfigParams& p) { p.bars[0] = {4096, false, true}; }, {"bars[0].prefetchable"});
  rejects([](ConfigParams& p) { p.bars[4].is64 = true; }, {"bars[4].size 0"});
  rejects([](ConfigParams& p) { p.class_code = 0x1000000; }, {"class_code", "0x1000000"});
  rejects([](ConfigParams& p) { p.mps_supported = 100; }, {"mps_supported", "100"});
  rejects([](ConfigParams& p) { p.mps_supported = 64; }, {"mps_supported", "64"});
  rejects([](ConfigParams& p) { p.mps_supported = 8192; }, {"mps_supported", "8192"});
  rejects([](ConfigParams& p) { p.msi_vectors = 0; }, {"msi_vectors", "0"});
  rejects([](ConfigParams& p) { p.msi_vectors = 3; }, {"msi_vectors", "3"});
  rejects([](ConfigParams& p) { p.msi_vectors = 64; }, {"msi_vectors", "64"});

  ConfigParams ok;
  for (auto& b : ok.bars) b = {2 * kGiB, false, false};
  ok.mps_supported = 4096;
  ok.msi_vectors = 32;
  EXPECT_NO_THROW(ConfigSpace{ok});
}

TEST(PcieConfig, BadRegisterOffsetsThrow) {
  ConfigSpace c(params());
  EXPECT_THROW(c.read(0x1000), std::out_of_range);
  EXPECT_THROW(c.read(0x0002), std::out_of_range);
  EXPECT_THROW(c.write(0x1001, 0), std::out_of_range);
  EXPECT_THROW(c.write(0xFFFF, 0), std::out_of_range);
  EXPECT_THROW(c.write(0x0013, 0), std::out_of_range);
  EXPECT_NE(error_of<std::out_of_range>([&] { c.read(0x0006); }).find("0x6"), std::string::npos);
  EXPECT_NO_THROW(c.read(0xFFC));
  EXPECT_THROW(c.write(kCfgCommand, 0, 0x10), std::invalid_argument);
}

}  // namespace
