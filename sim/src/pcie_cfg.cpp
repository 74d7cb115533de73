// SPDX-License-Identifier: Apache-2.0
#include "cni/sim/pcie_cfg.hpp"

#include <algorithm>
#include <bit>
#include <cstdio>
#include <string>

namespace cni::sim::pcie {

namespace {

constexpr unsigned kBars = 6;
constexpr uint16_t kCfgId = 0x00;
constexpr uint16_t kCfgClass = 0x08;
constexpr uint16_t kCfgBarEnd = kCfgBar0 + 4 * kBars;
constexpr unsigned kCfgBytes = 4096;

constexpr uint16_t kStatusCapList = 1u << 4;
constexpr uint8_t kCapIdPcie = 0x10;
constexpr uint8_t kCapIdMsi = 0x05;
// PCI Express Capabilities register: Capability Version 2 in [3:0], Device/Port Type 0 (PCI
// Express Endpoint) in [7:4].
constexpr uint16_t kPcieCaps = 0x0002;
// Device Capabilities' Role-Based Error Reporting: functions conforming to revision 1.1 or later
// must set it.
constexpr uint32_t kDevCapRber = 1u << 15;
constexpr unsigned kMpsShift = 5;
constexpr unsigned kMrrsShift = 12;
constexpr uint32_t kDevCtlWritable = 7u << kMpsShift | 7u << kMrrsShift;
constexpr uint16_t kDevCtlReset = 2u << kMrrsShift;  // Max_Payload_Size 128, Max_Read_Request 512
constexpr uint16_t kDevStaUr = 1u << 3;
constexpr uint16_t kMsiEnable = 1u << 0;
constexpr unsigned kMmcShift = 1;
constexpr unsigned kMmeShift = 4;
constexpr uint16_t kMsi64 = 1u << 7;
constexpr uint32_t kMsiCtlWritable = kMsiEnable | 7u << kMmeShift;
// Message Address must be double-word aligned, so its two low bits are hardwired to 0.
constexpr uint32_t kMsiAddrLoWritable = ~3u;
constexpr uint32_t kBarType64 = 1u << 2;
constexpr uint32_t kBarPrefetch = 1u << 3;
constexpr uint64_t kMax32BitBar = uint64_t{1} << 31;

std::string hex(uint64_t v) {
  char b[24];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

void check_reg(const char* fn, uint16_t reg) {
  if (reg % 4 != 0 || reg >= kCfgBytes) {
    throw std::out_of_range(std::string(fn) + ": register offset " + hex(reg) +
                            " is not a multiple of 4 below " + hex(kCfgBytes));
  }
}

// The bits of a double word that byte enables select.
uint32_t byte_mask(uint8_t be) {
  uint32_t m = 0;
  for (unsigned i = 0; i < 4; ++i) {
    if (be & (1u << i)) m |= 0xFFu << (8 * i);
  }
  return m;
}

// `old` with the bits that are both written (`sel`) and writable taken from `value`.
uint32_t merge(uint32_t old, uint32_t value, uint32_t sel, uint32_t writable) {
  const uint32_t m = sel & writable;
  return (old & ~m) | (value & m);
}

// The address bits software can set in BAR slot `i`: those of the slot's half of the BAR at
// and above log2(size), so that a write of all ones reads back the size. A slot no BAR uses
// has none.
uint32_t bar_writable(const ConfigParams& p, unsigned i) {
  const BarSpec& b = p.bars[i];
  if (b.size != 0) return static_cast<uint32_t>(~(b.size - 1)) & ~0xFu;
  if (i > 0 && p.bars[i - 1].is64) return static_cast<uint32_t>(~(p.bars[i - 1].size - 1) >> 32);
  return 0;
}

uint32_t bar_type(const BarSpec& b) {
  return (b.is64 ? kBarType64 : 0) | (b.prefetchable ? kBarPrefetch : 0);
}

// The size in bytes a Max_Payload_Size or Max_Read_Request_Size field encodes. 110b and 111b
// are reserved; they count as the largest defined size, 4096 bytes.
unsigned field_bytes(uint16_t field) { return 128u << std::min(field & 7u, 5u); }

}  // namespace

ConfigSpace::ConfigSpace(const ConfigParams& p) : p_(p), dev_ctl_(kDevCtlReset) {
  auto fail = [](const std::string& what) {
    throw std::invalid_argument("pcie::ConfigSpace: " + what);
  };
  if (p.class_code > 0xFFFFFF) fail("class_code " + hex(p.class_code) + " exceeds 24 bits");
  for (unsigned i = 0; i < kBars; ++i) {
    const BarSpec& b = p.bars[i];
    const std::string name = "bars[" + std::to_string(i) + "]";
    if (b.size == 0) {
      if (b.is64 || b.prefetchable) fail(name + ".size 0 (no BAR) with is64 or prefetchable set");
      continue;
    }
    if (!std::has_single_bit(b.size) || b.size < 128) {
      fail(name + ".size " + std::to_string(b.size) + " is not a power of two >= 128");
    }
    if (!b.is64) {
      if (b.size > kMax32BitBar) {
        fail(name + ".size " + std::to_string(b.size) + " exceeds a 32-bit BAR's 2 GiB");
      }
      // Only Legacy Endpoints may mark a 32-bit BAR prefetchable; this function reports itself
      // a PCI Express Endpoint.
      if (b.prefetchable) fail(name + ".prefetchable 1 on a 32-bit BAR");
      continue;
    }
    if (i + 1 == kBars) fail(name + ".is64 1 in the last slot: no slot for the upper half");
    if (p.bars[i + 1].size != 0) {
      fail("bars[" + std::to_string(i + 1) + "].size " + std::to_string(p.bars[i + 1].size) +
           " is not 0: the slot holds the upper half of 64-bit " + name);
    }
  }
  if (!std::has_single_bit(p.mps_supported) || p.mps_supported < 128 || p.mps_supported > 4096) {
    fail("mps_supported " + std::to_string(p.mps_supported) +
         " is not a power of two in 128 .. 4096");
  }
  if (!std::has_single_bit(p.msi_vectors) || p.msi_vectors > 32) {
    fail("msi_vectors " + std::to_string(p.msi_vectors) + " is not 1, 2, 4, 8, 16 or 32");
  }
}

uint32_t ConfigSpace::read(uint16_t reg) const {
  check_reg("pcie::ConfigSpace::read", reg);
  if (reg >= kCfgBar0 && reg < kCfgBarEnd) {
    const unsigned i = (reg - kCfgBar0) / 4u;
    return bar_[i] | bar_type(p_.bars[i]);
  }
  switch (reg) {
    case kCfgId:
      return uint32_t{p_.device_id} << 16 | p_.vendor_id;
    case kCfgCommand:
      // The Status register's one implemented bit, Capabilities List, is constant; status_
      // holds Device Status, the status that changes.
      return uint32_t{kStatusCapList} << 16 | command_;
    case kCfgClass:
      return p_.class_code << 8;  // Revision ID 0
    case kCfgCapPtr:
      return kCfgPcieCap;
    case kCfgPcieCap:
      return uint32_t{kPcieCaps} << 16 | uint32_t{kCfgMsiCap} << 8 | kCapIdPcie;
    case kCfgDevCap:
      return kDevCapRber | static_cast<uint32_t>(std::countr_zero(p_.mps_supported / 128));
    case kCfgDevCtl:
      return uint32_t{status_} << 16 | dev_ctl_;
    case kCfgMsiCap: {
      const uint32_t mmc = static_cast<uint32_t>(std::countr_zero(p_.msi_vectors));
      const uint32_t ctl = msi_ctl_ | kMsi64 | mmc << kMmcShift;
      return ctl << 16 | kCapIdMsi;  // next capability pointer 0: the list ends here
    }
    case kCfgMsiAddrLo:
      return msi_addr_lo_;
    case kCfgMsiAddrHi:
      return msi_addr_hi_;
    case kCfgMsiData:
      return msi_data_;
    default:
      // Header Type 0 and the other registers of the header this function leaves at 0, the
      // capabilities' registers it does not implement, and extended configuration space (an
      // empty extended capability list).
      return 0;
  }
}

void ConfigSpace::write(uint16_t reg, uint32_t value, uint8_t be) {
  check_reg("pcie::ConfigSpace::write", reg);
  if (be > 0xF) {
    throw std::invalid_argument("pcie::ConfigSpace::write: byte enables " + hex(be) +
                                " select bytes outside the double word");
  }
  const uint32_t sel = byte_mask(be);
  if (reg >= kCfgBar0 && reg < kCfgBarEnd) {
    const unsigned i = (reg - kCfgBar0) / 4u;
    bar_[i] = merge(bar_[i], value, sel, bar_writable(p_, i));
    return;
  }
  switch (reg) {
    case kCfgCommand:
      command_ = static_cast<uint16_t>(merge(command_, value, sel, kCmdMemory | kCmdBusMaster));
      break;
    case kCfgDevCtl:
      dev_ctl_ = static_cast<uint16_t>(merge(dev_ctl_, value, sel, kDevCtlWritable));
      status_ = static_cast<uint16_t>(status_ & ~((value & sel) >> 16 & kDevStaUr));
      break;
    case kCfgMsiCap: {
      const uint32_t ctl = merge(msi_ctl_, value >> 16, sel >> 16, kMsiCtlWritable);
      // Software must not enable more vectors than Multiple Message Capable requests; one that
      // does is granted the requested count, the most the function ever sends.
      const uint32_t mmc = static_cast<uint32_t>(std::countr_zero(p_.msi_vectors));
      const uint32_t mme = std::min(ctl >> kMmeShift & 7u, mmc);
      msi_ctl_ = static_cast<uint16_t>((ctl & ~(7u << kMmeShift)) | mme << kMmeShift);
      break;
    }
    case kCfgMsiAddrLo:
      msi_addr_lo_ = merge(msi_addr_lo_, value, sel, kMsiAddrLoWritable);
      break;
    case kCfgMsiAddrHi:
      msi_addr_hi_ = merge(msi_addr_hi_, value, sel, ~0u);
      break;
    case kCfgMsiData:
      msi_data_ = static_cast<uint16_t>(merge(msi_data_, value, sel, 0xFFFFu));
      break;
    default:
      break;  // read-only or not implemented
  }
}

bool ConfigSpace::memory_enabled() const { return command_ & kCmdMemory; }

bool ConfigSpace::bus_master() const { return command_ & kCmdBusMaster; }

uint64_t ConfigSpace::bar_base(unsigned i) const {
  if (i >= kBars) {
    throw std::out_of_range("pcie::ConfigSpace::bar_base: BAR " + std::to_string(i) +
                            " (a function has BARs 0 .. 5)");
  }
  const BarSpec& b = p_.bars[i];
  if (b.size == 0) return 0;
  // The stored low half holds no type bits: they are not writable.
  return b.is64 ? uint64_t{bar_[i + 1]} << 32 | bar_[i] : bar_[i];
}

std::optional<ConfigSpace::Hit> ConfigSpace::decode(uint64_t addr) const {
  if (!memory_enabled()) return std::nullopt;
  for (unsigned i = 0; i < kBars; ++i) {
    const uint64_t base = bar_base(i);
    // Written as a difference so that a BAR ending at 2^64 does not overflow.
    if (base != 0 && addr >= base && addr - base < p_.bars[i].size) return Hit{i, addr - base};
  }
  return std::nullopt;
}

unsigned ConfigSpace::max_payload() const { return field_bytes(dev_ctl_ >> kMpsShift); }

unsigned ConfigSpace::max_read_request() const { return field_bytes(dev_ctl_ >> kMrrsShift); }

void ConfigSpace::set_unsupported_request() { status_ |= kDevStaUr; }

bool ConfigSpace::msi_enabled() const { return msi_ctl_ & kMsiEnable; }

uint64_t ConfigSpace::msi_address() const { return uint64_t{msi_addr_hi_} << 32 | msi_addr_lo_; }

uint16_t ConfigSpace::msi_data() const { return msi_data_; }

unsigned ConfigSpace::msi_vectors_enabled() const { return 1u << (msi_ctl_ >> kMmeShift & 7u); }

}  // namespace cni::sim::pcie
