// SPDX-License-Identifier: Apache-2.0
#include "cni/drv/pcie.hpp"

#include <stdexcept>
#include <string>

namespace cni::drv {

namespace {

Addr slot(Addr window, unsigned reg) { return window + reg / 4 * 8; }

unsigned code_of(const char* what, unsigned bytes) {
  for (unsigned c = 0; c <= 5; ++c) {
    if (bytes == 128u << c) return c;
  }
  throw std::invalid_argument(std::string("pcie_enumerate: ") + what + " " + std::to_string(bytes) +
                              " is not a power of two in 128..4096");
}

}  // namespace

std::vector<PcieBar> pcie_enumerate(MemoryPort& m, Addr cfg, Addr bar_window, uint64_t window_bytes,
                                    const PcieSetup& s) {
  constexpr unsigned kBar0 = 0x10, kCommand = 0x04, kDevCtl = 0x48, kMsiCap = 0x80;
  const unsigned mps = code_of("max payload", s.max_payload);
  const unsigned mrrs = code_of("max read request", s.max_read_request);
  std::vector<PcieBar> bars;
  Addr next = bar_window;
  for (unsigned b = 0; b < 6; ++b) {
    const unsigned reg = kBar0 + 4 * b;
    m.uncached_store64(slot(cfg, reg), 0xFFFFFFFF);
    const auto lo = static_cast<uint32_t>(m.uncached_load64(slot(cfg, reg)));
    if (lo == 0) continue;
    PcieBar bar;
    bar.index = b;
    bar.is64 = ((lo >> 1) & 3) == 2;
    uint64_t mask = lo & ~uint64_t{0xF};
    if (bar.is64) {
      m.uncached_store64(slot(cfg, reg + 4), 0xFFFFFFFF);
      mask |= uint64_t{static_cast<uint32_t>(m.uncached_load64(slot(cfg, reg + 4)))} << 32;
    } else {
      mask |= 0xFFFFFFFF00000000ull;
    }
    bar.size = ~mask + 1;
    next = (next + bar.size - 1) / bar.size * bar.size;
    if (next + bar.size > bar_window + window_bytes ||
        (!bar.is64 && next + bar.size > (1ull << 32))) {
      throw std::runtime_error("pcie_enumerate: BAR " + std::to_string(b) + " of " +
                               std::to_string(bar.size) + " bytes does not fit the window");
    }
    bar.base = next;
    m.uncached_store64(slot(cfg, reg), static_cast<uint32_t>(next));
    if (bar.is64) m.uncached_store64(slot(cfg, reg + 4), next >> 32);
    next += bar.size;
    bars.push_back(bar);
    if (bar.is64) ++b;
  }
  m.uncached_store64(slot(cfg, kCommand), (1u << 1) | (1u << 2));  // memory space, bus master
  m.uncached_store64(slot(cfg, kDevCtl), (mps << 5) | (mrrs << 12));
  if (s.msi_address != 0) {
    m.uncached_store64(slot(cfg, kMsiCap + 4), static_cast<uint32_t>(s.msi_address));
    m.uncached_store64(slot(cfg, kMsiCap + 8), s.msi_address >> 32);
    m.uncached_store64(slot(cfg, kMsiCap + 12), s.msi_data);
    const uint32_t ctl = static_cast<uint32_t>(m.uncached_load64(slot(cfg, kMsiCap))) >> 16;
    const unsigned capable = (ctl >> 1) & 7;
    m.uncached_store64(slot(cfg, kMsiCap), (1u | (capable << 4)) << 16);  // enable, all vectors
  }
  return bars;
}

}  // namespace cni::drv
