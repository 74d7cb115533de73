// SPDX-License-Identifier: Apache-2.0
// rtl/pio/cni_bloom.sv on its own, folded in groups of words (FoldWords below LineBytes/4): the
// result equals tb/bloom_ref.hpp, out_valid_o comes groups + 3 cycles after in_valid_i, and the
// result is held until the next element. The engine's tests cover the default (one group).
#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <memory>
#include <random>

#include "Vcni_bloom_128x1.h"
#include "Vcni_bloom_64x4.h"
#include "bloom_ref.hpp"
#include "pio_harness.hpp"

namespace cni::tb {
namespace {

template <class Model, unsigned LineBytes, unsigned FoldWords>
struct Config {
  using M = Model;
  static constexpr unsigned kLineBytes = LineBytes;
  static constexpr unsigned kGroups = LineBytes / 4 / FoldWords;
};
using Ulx3s = Config<Vcni_bloom_64x4, 64, 4>;
using OneWord = Config<Vcni_bloom_128x1, 128, 1>;

template <class C>
class BloomRtl : public ::testing::Test {
 protected:
  using Line = std::array<uint8_t, C::kLineBytes>;
  static constexpr unsigned kWords = C::kLineBytes / 4;

  void SetUp() override {
    m_ = std::make_unique<typename C::M>();
    m_->clk_i = 0;
    m_->rst_ni = 0;
    m_->in_valid_i = 0;
    m_->eval();
    m_->rst_ni = 1;
    m_->eval();
  }
  void step() {
    m_->clk_i = 1;
    m_->eval();
    m_->clk_i = 0;
    m_->eval();
  }
  Line output() const { return pio::line_from_wide<C::kLineBytes>(m_->out_data_o); }
  // Presents `l` for one cycle and returns the cycles until out_valid_o (checking the result).
  unsigned hash(const Line& l) {
    for (unsigned w = 0; w < kWords; ++w) m_->in_data_i[w] = pio::line_word(l, w);
    m_->in_valid_i = 1;
    step();
    m_->in_valid_i = 0;
    unsigned cycles = 1;
    while (!m_->out_valid_o) {
      EXPECT_LT(cycles, 100u) << "no result";
      if (cycles >= 100) return cycles;
      step();
      ++cycles;
    }
    EXPECT_EQ(output(), bloom_line<C::kLineBytes>(l.data(), C::kLineBytes));
    return cycles;
  }
  Line random_line() {
    Line l{};
    for (auto& b : l) b = static_cast<uint8_t>(rng_());
    return l;
  }

  std::unique_ptr<typename C::M> m_;
  std::mt19937_64 rng_{11};
};

using Configs = ::testing::Types<Ulx3s, OneWord>;
TYPED_TEST_SUITE(BloomRtl, Configs);

TYPED_TEST(BloomRtl, FoldedResultMatchesReferenceAfterGroupsPlusThreeCycles) {
  typename TestFixture::Line zero{}, ramp{};
  for (unsigned b = 0; b < TypeParam::kLineBytes; ++b) ramp[b] = static_cast<uint8_t>(b);
  EXPECT_EQ(this->hash(zero), TypeParam::kGroups + 3);
  EXPECT_EQ(this->hash(ramp), TypeParam::kGroups + 3);
  for (int t = 0; t < 50; ++t) {
    // Back to back (the next element in the cycle of out_valid_o) and with gaps.
    EXPECT_EQ(this->hash(this->random_line()), TypeParam::kGroups + 3) << "element " << t;
    for (int g = 0; g < t % 3; ++g) this->step();
  }
}

TYPED_TEST(BloomRtl, ResultIsHeldUntilTheNextElement) {
  const auto l = this->random_line();
  this->hash(l);
  const auto expect = bloom_line<TypeParam::kLineBytes>(l.data(), TypeParam::kLineBytes);
  for (int c = 0; c < 20; ++c) {
    this->step();
    EXPECT_FALSE(this->m_->out_valid_o);
    EXPECT_EQ(this->output(), expect) << "cycle " << c;
  }
}

}  // namespace
}  // namespace cni::tb
