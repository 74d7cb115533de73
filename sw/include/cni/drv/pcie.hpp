// SPDX-License-Identifier: Apache-2.0
// PCIe enumeration of one endpoint, as host firmware does it (docs/pcie.md): through a
// configuration window, size every BAR with the write-all-ones probe, assign it the next aligned
// place in a window, enable memory space and bus mastering, program Max_Payload_Size,
// Max_Read_Request_Size and MSI. The configuration window holds one configuration double word
// per 8-byte slot (the host model's layout: double word at offset 4 i in slot i).
#pragma once

#include <cstdint>
#include <vector>

#include "cni/drv/mem.hpp"

namespace cni::drv {

struct PcieBar {
  unsigned index = 0;  // BAR register (a 64-bit BAR takes index and index + 1)
  Addr base = 0;
  uint64_t size = 0;
  bool is64 = false;
};

struct PcieSetup {
  unsigned max_payload = 256;       // bytes, 128 .. 4096
  unsigned max_read_request = 512;  // bytes, 128 .. 4096
  uint64_t msi_address = 0;         // 0: MSI left off
  uint16_t msi_data = 0;
};

// Throws std::invalid_argument on a size that is not a power of two in 128 .. 4096, and
// std::runtime_error when a BAR does not fit in [bar_window, bar_window + window_bytes).
std::vector<PcieBar> pcie_enumerate(MemoryPort& m, Addr cfg_window, Addr bar_window,
                                    uint64_t window_bytes, const PcieSetup& s);

}  // namespace cni::drv
