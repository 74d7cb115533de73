// SPDX-License-Identifier: Apache-2.0
// The harness every block testbench of tests/blocks shares: a GoogleTest fixture with a fresh
// Verilated model per test (tb/vlt_model.hpp: randReset 2, errors left to the test), the seed
// from env CNI_SEED or the test's name (logged), an FST per test with CNI_TRACE=1
// (<suite>_<set>.<test>.fst), the clocking, and bit access to ports of any width.
//
// A cycle: the test drives the inputs with the clock low and calls settle() (the combinational
// outputs follow the inputs), reads the outputs and decides the handshakes of the coming edge,
// then calls tick() (the rising edge). An asynchronous reset takes effect at settle().
#pragma once

#include <gtest/gtest.h>

#include <bit>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <type_traits>
#include <vector>

#include "stall.hpp"
#include "vlt_model.hpp"

namespace cni::tb::blocks {

// A value of any width, 64 bits a chunk, bit 0 first.
using Bits = std::vector<uint64_t>;

inline std::string hex(const Bits& v) {
  std::ostringstream os;
  os << "0x" << std::hex;
  for (size_t i = v.size(); i-- > 0;) os << v[i] << (i ? "_" : "");
  return os.str();
}

// Bit i of a value or of a Verilated port (CData..QData, or VlWide of 32-bit words).
inline bool bit_of(const Bits& v, unsigned i) { return (v[i / 64] >> (i % 64)) & 1; }
inline void set_bit(Bits& v, unsigned i, bool b) {
  const uint64_t m = uint64_t{1} << (i % 64);
  v[i / 64] = b ? (v[i / 64] | m) : (v[i / 64] & ~m);
}
template <class T>
bool bit_of(const T& sig, unsigned i) {
  if constexpr (std::is_integral_v<T>) {
    return (static_cast<uint64_t>(sig) >> i) & 1;
  } else {
    return (sig[i / 32] >> (i % 32)) & 1;
  }
}
template <class T>
void set_bit(T& sig, unsigned i, bool v) {
  if constexpr (std::is_integral_v<T>) {
    const T m = static_cast<T>(T{1} << i);
    sig = v ? static_cast<T>(sig | m) : static_cast<T>(sig & ~m);
  } else {
    const uint32_t m = 1u << (i % 32);
    sig[i / 32] = v ? (sig[i / 32] | m) : (sig[i / 32] & ~m);
  }
}

// The field [lo +: w] of a port.
template <class T>
Bits get(const T& sig, unsigned lo, unsigned w) {
  Bits v((w + 63) / 64, 0);
  for (unsigned i = 0; i < w; ++i) {
    if (bit_of(sig, lo + i)) v[i / 64] |= uint64_t{1} << (i % 64);
  }
  return v;
}
template <class T>
void put(T& sig, unsigned lo, unsigned w, const Bits& v) {
  for (unsigned i = 0; i < w; ++i) set_bit(sig, lo + i, (v[i / 64] >> (i % 64)) & 1);
}
// The same for fields of at most 64 bits.
template <class T>
uint64_t get64(const T& sig, unsigned lo, unsigned w) {
  return get(sig, lo, w)[0];
}
template <class T>
void put64(T& sig, unsigned lo, unsigned w, uint64_t v) {
  put(sig, lo, w, Bits{v});
}

inline Bits random_bits(std::mt19937_64& rng, unsigned w) {
  Bits v((w + 63) / 64);
  for (auto& c : v) c = rng();
  if (w % 64) v.back() &= (uint64_t{1} << (w % 64)) - 1;
  return v;
}

// The lowest set bit of `mask` (-1: none): a fixed-priority choice, index 0 first.
inline int lowest(unsigned mask) { return mask ? std::countr_zero(mask) : -1; }

// The reference of a fixed-priority choice that holds what it presented (cni_ca_arb's requests,
// cni_engine_bus's commands): the lowest-numbered requester, unless a choice the taker stalled
// is held, which stays chosen until taken whoever asks meanwhile.
struct HeldChoice {
  int held = -1;
  // The choice among the requesters `valid` (-1: none).
  int choose(unsigned valid) const { return held >= 0 ? held : lowest(valid); }
  // At the edge: what was offered and not taken is held.
  void on_edge(int sel, bool offered, bool taken) { held = offered && !taken ? sel : -1; }
  // A requester ahead of the held one waits (the hold at work).
  bool overtaken(unsigned valid) const { return held > 0 && (valid & ((1u << held) - 1)); }
};

// The fixture of parameter set S: S::M its model (a Verilated class with clk_i and rst_ni),
// S::kName its name, which names the test's seed and trace (<suite>_<set>.<test>).
template <class S>
class BlockBench : public ::testing::Test {
 protected:
  using M = typename S::M;

  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    const std::string suite = info->test_suite_name();
    name_ = suite.substr(0, suite.find('/')) + "_" + S::kName + "." + info->name();
    seed_ = 1469598103934665603ull;
    for (char c : name_) seed_ = (seed_ ^ static_cast<uint8_t>(c)) * 1099511628211ull;
    if (const char* s = std::getenv("CNI_SEED")) seed_ = std::strtoull(s, nullptr, 0);
    std::printf("[ seed     ] %s CNI_SEED=%llu\n", name_.c_str(),
                static_cast<unsigned long long>(seed_));
    RecordProperty("seed", std::to_string(seed_));
    rng_.seed(seed_);
    stall_ = std::make_unique<Stall>(seed_);
    const bool trace = trace_wanted(false);
    ctx_ = make_context(seed_, trace);
    m_ = std::make_unique<M>(ctx_.get(), "top");
    if (trace) fst_ = open_trace(*m_, "", name_);
    m_->clk_i = 0;
    m_->rst_ni = 1;
  }

  void TearDown() override {
    m_->final();
    if (fst_) fst_->close();
    if (expect_rtl_error_) {
      EXPECT_TRUE(ctx_->gotError()) << "the RTL did not flag the bad input";
    } else {
      EXPECT_FALSE(ctx_->gotError()) << "an RTL assertion or $error fired";
    }
    make_current(ctx_.get());
    m_.reset();
  }

  // Inputs settle with the clock low (and the reset, if driven low, acts).
  void settle() {
    m_->clk_i = 0;
    m_->eval();
    if (fst_) fst_->dump(ctx_->time());
  }
  // The rising edge, after settle(); the next cycle starts.
  void tick() {
    ctx_->timeInc(5);
    m_->clk_i = 1;
    m_->eval();
    if (fst_) fst_->dump(ctx_->time());
    ctx_->timeInc(5);
    ++cycle_;
  }
  // Reset asserted (asynchronously, with the inputs as the test left them) over two edges, then
  // released with the clock low.
  void reset() {
    m_->rst_ni = 0;
    settle();
    tick();
    settle();
    tick();
    m_->rst_ni = 1;
    settle();
  }

  bool chance(double p) { return (*stall_)(p); }
  unsigned pick(unsigned n) { return std::uniform_int_distribution<unsigned>(0, n - 1)(rng_); }

  std::string name_;
  uint64_t seed_ = 0;
  std::mt19937_64 rng_;
  std::unique_ptr<Stall> stall_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<M> m_;
  std::unique_ptr<VerilatedFstC> fst_;
  uint64_t cycle_ = 0;
  bool expect_rtl_error_ = false;  // a test that feeds the block what its assertions reject
};

}  // namespace cni::tb::blocks
