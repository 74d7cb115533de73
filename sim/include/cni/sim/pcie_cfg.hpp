// SPDX-License-Identifier: Apache-2.0
// The configuration space of a PCIe endpoint function (docs/pcie.md, "Configuration space"),
// as a device's PCIe hard IP keeps it: a type-0 header with up to six memory BARs (32- or 64-bit,
// sized by the standard write-all-ones probe), the PCI Express capability (Device Capabilities'
// Max_Payload_Size Supported; Device Control's Max_Payload_Size and Max_Read_Request_Size) and
// the MSI capability (64-bit address, multiple messages). Registers follow the PCI Express
// Base Specification's read-only, read-write and write-1-to-clear rules; registers it does not
// implement read 0 and ignore writes.
//
// Layout: header 0x00-0x3F (capability pointer 0x34 -> 0x40), PCI Express capability at 0x40
// (version 2: its registers run to 0x7B; next -> 0x80), MSI capability at 0x80 (next: 0).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>

namespace cni::sim::pcie {

struct BarSpec {
  uint64_t size = 0;        // bytes, a power of two >= 128 (0: BAR not implemented)
  bool is64 = false;        // 64-bit BAR: takes this slot and the next (which must be size 0)
  bool prefetchable = false;
};

struct ConfigParams {
  uint16_t vendor_id = 0x10EE;
  uint16_t device_id = 0x0C11;
  uint32_t class_code = 0x020000;   // network controller, Ethernet
  std::array<BarSpec, 6> bars{};
  unsigned mps_supported = 512;     // Device Capabilities: 128 .. 4096 bytes, a power of two
  unsigned msi_vectors = 1;         // Multiple Message Capable: 1, 2, 4, 8, 16 or 32
};

// The offsets of the registers the model and its users name.
inline constexpr uint16_t kCfgCommand = 0x04;       // [15:0] Command, [31:16] Status
inline constexpr uint16_t kCfgBar0 = 0x10;          // BAR i at 0x10 + 4 i
inline constexpr uint16_t kCfgCapPtr = 0x34;
inline constexpr uint16_t kCfgPcieCap = 0x40;       // capability ID 0x10
inline constexpr uint16_t kCfgDevCap = 0x44;        // Device Capabilities
inline constexpr uint16_t kCfgDevCtl = 0x48;        // [15:0] Device Control, [31:16] Status
inline constexpr uint16_t kCfgMsiCap = 0x80;        // capability ID 0x05; [31:16] Message Control
inline constexpr uint16_t kCfgMsiAddrLo = 0x84;
inline constexpr uint16_t kCfgMsiAddrHi = 0x88;
inline constexpr uint16_t kCfgMsiData = 0x8C;
inline constexpr uint16_t kCmdMemory = 1u << 1;     // Command: Memory Space Enable
inline constexpr uint16_t kCmdBusMaster = 1u << 2;  // Command: Bus Master Enable

class ConfigSpace {
 public:
  // Throws std::invalid_argument naming the field on a size that is not a power of two >= 128,
  // a 64-bit BAR in slot 5 or followed by an implemented slot, an unsupported MPS or vector
  // count.
  explicit ConfigSpace(const ConfigParams& p);

  // A double word at byte offset `reg` (a multiple of 4, < 4096; throws std::out_of_range
  // otherwise), as a configuration read returns it.
  uint32_t read(uint16_t reg) const;
  // A configuration write of the bytes `be` (bit i: byte i of the double word) selects.
  void write(uint16_t reg, uint32_t value, uint8_t be = 0xF);

  bool memory_enabled() const;
  bool bus_master() const;
  // BAR i's assigned base (for a 64-bit BAR, both halves; 0 for a slot that is not a BAR's
  // first).
  uint64_t bar_base(unsigned i) const;
  // The BAR and the offset in it an address hits, when memory space is enabled and a BAR
  // covers it.
  struct Hit {
    unsigned bar;
    uint64_t offset;
  };
  std::optional<Hit> decode(uint64_t addr) const;
  // Device Control's fields in bytes (128 .. 4096).
  unsigned max_payload() const;
  unsigned max_read_request() const;
  // Sets Device Status's Unsupported Request Detected (write-1-to-clear), as the function does
  // when it answers a request UR.
  void set_unsupported_request();
  // MSI: Enable, the message address and data, the vectors enabled (Multiple Message Enable).
  bool msi_enabled() const;
  uint64_t msi_address() const;
  uint16_t msi_data() const;
  unsigned msi_vectors_enabled() const;
  const ConfigParams& params() const { return p_; }

 private:
  ConfigParams p_;
  uint16_t command_ = 0;
  uint16_t status_ = 0;
  std::array<uint32_t, 6> bar_{};   // the written address bits of each BAR register
  uint16_t dev_ctl_ = 0;
  uint16_t msi_ctl_ = 0;
  uint32_t msi_addr_lo_ = 0, msi_addr_hi_ = 0;
  uint16_t msi_data_ = 0;
};

}  // namespace cni::sim::pcie
