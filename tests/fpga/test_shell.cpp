// SPDX-License-Identifier: Apache-2.0
// The FPGA board shell (fpga/common/cni_fpga_shell.sv) driven the way a person at the board
// drives it: bytes on the serial line. Covers the serial bridge protocol of docs/fpga.md (core
// CSR and board register reads and writes, SLVERR, ignored bytes) and the on-chip exerciser
// keeping the core busy without wedging it.
#include <gtest/gtest.h>

#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <vector>

#include "Vcni_fpga_shell.h"
#include "cni/engines.hpp"
#include "verilated.h"

namespace {

constexpr unsigned kClkDiv = CNI_FPGA_CLKDIV;  // clocks per bit of the shell's UART
constexpr uint16_t kBoard = 0x8000;            // board registers (docs/fpga.md)
constexpr uint16_t kCtrl = kBoard + 0, kSeedLo = kBoard + 4, kSeedHi = kBoard + 8,
                   kStatus = kBoard + 12, kSigLink = kBoard + 16, kNSent = kBoard + 24,
                   kNRecv = kBoard + 28;

class Shell : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx = std::make_unique<VerilatedContext>();
    ctx->fatalOnError(false);
    ctx->randReset(2);
    m = std::make_unique<Vcni_fpga_shell>(ctx.get());
    m->uart_rx_i = 1;
    m->rst_ni = 0;
    m->clk_i = 0;
    m->eval();
    for (int i = 0; i < 4; ++i) tick();
    m->rst_ni = 1;
    m->eval();
  }

  void TearDown() override { EXPECT_FALSE(ctx->gotError()) << "an RTL check fired"; }

  // One clock: the serial line in changes away from the edge; the line out is sampled per cycle.
  void tick() {
    if (!tx_line.empty()) {
      m->uart_rx_i = tx_line.front();
      tx_line.pop_front();
    } else {
      m->uart_rx_i = 1;
    }
    m->clk_i = 0;
    m->eval();
    ctx->timeInc(1);
    m->clk_i = 1;
    m->eval();
    ctx->timeInc(1);
    ++cycle;
    sample_rx();
  }

  void run(unsigned n) {
    for (unsigned i = 0; i < n; ++i) tick();
  }

  // 8N1 frame onto the shell's receive line.
  void send_byte(uint8_t b) {
    auto bit = [&](int v) {
      for (unsigned i = 0; i < kClkDiv; ++i) tx_line.push_back(static_cast<uint8_t>(v));
    };
    bit(0);
    for (int i = 0; i < 8; ++i) bit((b >> i) & 1);
    bit(1);
  }

  // Receiver on the shell's transmit line: start bit, then sample each bit in its middle.
  void sample_rx() {
    int level = m->uart_tx_o;
    if (rx_count < 0) {
      if (prev_tx == 1 && level == 0) {
        rx_count = 0;
        rx_wait = kClkDiv + kClkDiv / 2;
        rx_byte = 0;
      }
    } else if (--rx_wait == 0) {
      if (rx_count < 8) {
        rx_byte |= static_cast<uint8_t>(level << rx_count);
        ++rx_count;
        rx_wait = kClkDiv;
      } else {
        EXPECT_EQ(level, 1) << "missing stop bit";
        received.push_back(rx_byte);
        rx_count = -1;
      }
    }
    prev_tx = level;
  }

  std::vector<uint8_t> recv(size_t n, unsigned max_cycles = 4000) {
    for (unsigned i = 0; i < max_cycles && received.size() < n; ++i) tick();
    std::vector<uint8_t> out;
    while (!received.empty() && out.size() < n) {
      out.push_back(received.front());
      received.pop_front();
    }
    return out;
  }

  struct Read {
    uint32_t data;
    uint8_t resp;
  };

  std::optional<Read> read(uint16_t addr) {
    send_byte('r');
    send_byte(static_cast<uint8_t>(addr >> 8));
    send_byte(static_cast<uint8_t>(addr));
    auto b = recv(5);
    if (b.size() != 5) return std::nullopt;
    return Read{uint32_t{b[0]} << 24 | uint32_t{b[1]} << 16 | uint32_t{b[2]} << 8 | b[3], b[4]};
  }

  uint32_t read_ok(uint16_t addr) {
    auto r = read(addr);
    EXPECT_TRUE(r) << "no answer to a read of 0x" << std::hex << addr;
    if (!r) return 0;
    EXPECT_EQ(r->resp, 0) << "read of 0x" << std::hex << addr;
    return r->data;
  }

  std::optional<uint8_t> write(uint16_t addr, uint32_t v) {
    send_byte('w');
    send_byte(static_cast<uint8_t>(addr >> 8));
    send_byte(static_cast<uint8_t>(addr));
    for (int s = 24; s >= 0; s -= 8) send_byte(static_cast<uint8_t>(v >> s));
    auto b = recv(1);
    if (b.empty()) return std::nullopt;
    return b[0];
  }

  void wait_init() {
    for (int i = 0; i < 20 && read_ok(kStatus) != 1; ++i) run(100);
    ASSERT_EQ(read_ok(kStatus), 1u) << "the core never finished initializing its RAMs";
  }

  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vcni_fpga_shell> m;
  uint64_t cycle = 0;
  std::deque<uint8_t> tx_line;
  std::deque<uint8_t> received;
  int prev_tx = 1, rx_count = -1;
  unsigned rx_wait = 0;
  uint8_t rx_byte = 0;
};

TEST_F(Shell, BridgeReadsTheCoreIdentityAndGeometry) {
  wait_init();
  EXPECT_EQ(read_ok(0x000), 0x434E4931u);
  // iCE40 configuration: 64-byte lines; 8 + 2*2 + 2 + 2 + 2 + 2 = 20 lines in the registry's
  // regions (those after PIO (b), the scratch-pad's, the CNI engine's and the tag store's, empty)
  EXPECT_EQ(read_ok(0x004), (20u << 16) | (unsigned(cni::engines::kNumRegions) << 8) | 64u);
}

TEST_F(Shell, UnmappedCoreAddressAnswersSlverr) {
  wait_init();
  auto r = read(0x0FC);
  ASSERT_TRUE(r);
  EXPECT_EQ(r->resp, 2);
  auto w = write(0x0F0, 1);
  ASSERT_TRUE(w);
  EXPECT_EQ(*w, 2);
}

TEST_F(Shell, BridgeWritesReachCoreCsrsAndBoardRegisters) {
  wait_init();
  ASSERT_EQ(write(0x014, 0x1234), std::optional<uint8_t>(0));  // PARK_TIMEOUT
  EXPECT_EQ(read_ok(0x014), 0x1234u);
  ASSERT_EQ(write(kCtrl, 2), std::optional<uint8_t>(0));
  EXPECT_EQ(read_ok(kCtrl), 2u);
  EXPECT_EQ(m->status_o & 0x7, 0x5) << "LEDs: init done, PIO traffic on, link traffic off";
  ASSERT_EQ(write(kCtrl, 0), std::optional<uint8_t>(0));
}

TEST_F(Shell, UnknownCommandBytesAreIgnored) {
  wait_init();
  send_byte('x');
  send_byte(0x00);
  run(200);
  EXPECT_TRUE(received.empty());
  EXPECT_EQ(read_ok(0x000), 0x434E4931u);
}

TEST_F(Shell, ExerciserKeepsTheCoreBusyAndItKeepsAnswering) {
  wait_init();
  ASSERT_EQ(write(kSeedLo, 0x1357), std::optional<uint8_t>(0));
  ASSERT_EQ(write(kSeedHi, 0x2468), std::optional<uint8_t>(0));
  ASSERT_EQ(write(kCtrl, 3), std::optional<uint8_t>(0));
  run(20000);
  uint32_t sent1 = read_ok(kNSent), recv1 = read_ok(kNRecv), sig1 = read_ok(kSigLink);
  run(20000);
  uint32_t sent2 = read_ok(kNSent), recv2 = read_ok(kNRecv), sig2 = read_ok(kSigLink);
  EXPECT_GT(sent1, 100u);
  EXPECT_GT(recv1, 100u);
  EXPECT_GT(sent2, sent1) << "the exerciser stopped sending";
  EXPECT_GT(recv2, recv1) << "the core stopped answering: wedged";
  EXPECT_NE(sig1, sig2);
  EXPECT_GT(read_ok(0x100), 0u) << "RdS counter";
  EXPECT_GT(read_ok(0x100 + 4 * 4), 0u) << "snoops sent";
  EXPECT_GT(read_ok(0x100 + 4 * 10) + read_ok(0x100 + 4 * 11) + read_ok(0x100 + 4 * 12), 0u)
      << "the exerciser's malformed messages were counted as errors";
  // traffic off: the exerciser stops, the core drains
  ASSERT_EQ(write(kCtrl, 0), std::optional<uint8_t>(0));
  run(5000);
  uint32_t sent3 = read_ok(kNSent), recv3 = read_ok(kNRecv);
  run(5000);
  EXPECT_EQ(read_ok(kNSent), sent3);
  EXPECT_EQ(read_ok(kNRecv), recv3);
}

}  // namespace
