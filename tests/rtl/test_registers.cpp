// SPDX-License-Identifier: Apache-2.0
// The CSR block against its SystemRDL description (rtl/coh/cni_csr.rdl): every register the
// generated table (cni/regs.hpp, scripts/gen-engines.py) lists is answered at its generated
// address with its generated reset value and access, so the RTL's addresses (cni_csr_regs.svh),
// the C++ names and docs/registers.md, all generated from the one description, agree with the
// hardware.
#include <cstddef>
#include <cstring>
#include <string>

#include "cni/regs.h"
#include "cni/regs.hpp"
#include "fixture.hpp"

namespace cni::test {
namespace {

using Registers = EndpointTest;

// The C header (PeakRDL-cheader) lays the registers out where the C++ table puts them.
static_assert(offsetof(cni_regs_t, csr.PARK_TIMEOUT) == regs::csr::kParkTimeout);
static_assert(offsetof(cni_regs_t, scratch.BUF) == regs::eng_scratch::kBuf);
static_assert(offsetof(cni_regs_t, cni.TIMERS) == regs::eng_cni::kTimers);

bool is_csr(const regs::Reg& r) { return std::strcmp(r.block, "csr") == 0; }

TEST_F(Registers, EveryReadableRegisterAnswersOkayWithItsResetValue) {
  unsigned checked = 0;
  for (const auto& r : regs::kRegs) {
    if (!is_csr(r) || !r.readable) continue;
    unsigned resp = 0xFF;
    const uint32_t v = ep->csr_read(r.addr, &resp);
    EXPECT_EQ(resp, 0u) << r.name << " at 0x" << std::hex << r.addr;
    if (r.reset_mask) {
      EXPECT_EQ(v & r.reset_mask, r.reset) << r.name;
      ++checked;
    }
  }
  EXPECT_GE(checked, 5u);  // ID, RET_EXCL, PARK_TIMEOUT, CA_BACKOFF, CA_CLEAN
}

TEST_F(Registers, ReadWriteRegistersTakeAValueAndReadOnlyOnesKeepTheirs) {
  for (const auto& r : regs::kRegs) {
    if (!is_csr(r) || !r.readable) continue;
    const std::string name = r.name;
    if (name.rfind("CNT[", 0) == 0) continue;  // counters move with traffic
    const uint32_t before = ep->csr_read(r.addr);
    const uint32_t probe = ~before & (r.writable ? uint32_t(r.reset_mask) : 0xFFFFFFFFu);
    ep->csr_write(r.addr, probe);
    const uint32_t after = ep->csr_read(r.addr);
    if (r.writable) {
      EXPECT_EQ(after, probe) << name;
      ep->csr_write(r.addr, before);
      EXPECT_EQ(ep->csr_read(r.addr), before) << name;
    } else {
      EXPECT_EQ(after, before) << name << " is read-only";
    }
  }
}

TEST_F(Registers, AnAddressNoRegisterHasAnswersSlverr) {
  // between DRAM and the REGION words, and past the last counter
  unsigned resp = 0;
  ep->csr_read(regs::csr::kDram + 4, &resp);
  EXPECT_EQ(resp, 2u);
  ep->csr_read(regs::csr::kCnt + 4 * engines::kNumCounters, &resp);
  EXPECT_EQ(resp, 2u);
}

TEST_F(Registers, TheGeneratedNamesAreTheHardwaresAddresses) {
  EXPECT_EQ(ep->csr_read(regs::csr::kId), 0x434E4931u);  // "CNI1"
  ep->csr_write(regs::csr::kParkTimeout, 1234);
  EXPECT_EQ(ep->csr_read(regs::csr::kParkTimeout), 1234u);
  EXPECT_EQ(ep->csr_read(regs::csr::kGeometry) & 0xFF, geo().line_bytes);
  EXPECT_EQ((ep->csr_read(regs::csr::kGeometry) >> 8) & 0xFF, unsigned(engines::kNumRegions));
  // an engine's window: the scratch-pad engine's line buffer by its generated name
  ep->csr_write(regs::eng_scratch::kBuf, 0xA5A5F00Du);
  EXPECT_EQ(ep->csr_read(regs::eng_scratch::kBuf), 0xA5A5F00Du);
  EXPECT_EQ(regs::eng_scratch::kBuf,
            engines::engine_reg(engines::kEngineScratch, regs::eng_scratch::kBufOffset));
}

}  // namespace
}  // namespace cni::test
