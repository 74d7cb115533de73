// SPDX-License-Identifier: Apache-2.0
// rtl/common/cni_pipe_reg.sv over its parameter sets (tb/rtl_blocks.cmake): with Reg = 1 q_o is
// the last d_i loaded by en_i at an edge (cleared by the asynchronous reset with Reset = 1, left
// alone by it with Reset = 0); with Reg = 0 q_o is d_i, whatever the clock, en_i and the reset.
#include <optional>

#include "Vcni_pipe_reg_w1_rst.h"
#include "Vcni_pipe_reg_w70_reg.h"
#include "Vcni_pipe_reg_w8_wire.h"
#include "block_bench.hpp"

namespace cni::tb::blocks {

#define CNI_PIPE_REG_SET(s)                                          \
  struct PipeReg_##s {                                               \
    using M = Vcni_pipe_reg_##s;                                     \
    static constexpr const char* kName = #s;                         \
    static constexpr unsigned kWidth = CNI_BLK_pipe_reg_##s##_Width; \
    static constexpr bool kReg = CNI_BLK_pipe_reg_##s##_Reg;         \
    static constexpr bool kReset = CNI_BLK_pipe_reg_##s##_Reset;     \
  };
CNI_PIPE_REG_SET(w1_rst)
CNI_PIPE_REG_SET(w70_reg)
CNI_PIPE_REG_SET(w8_wire)
#undef CNI_PIPE_REG_SET

namespace {

template <class S>
class PipeReg : public BlockBench<S> {
 protected:
  static constexpr unsigned W = S::kWidth;

  void SetUp() override {
    BlockBench<S>::SetUp();
    this->m_->en_i = 0;
    put(this->m_->d_i, 0, W, random_bits(this->rng_, W));
    this->reset();
    if (S::kReg && S::kReset) ref_ = Bits((W + 63) / 64, 0);
  }

  Bits d() const { return get(this->m_->d_i, 0, W); }
  Bits q() const { return get(this->m_->q_o, 0, W); }
  // After settle(): q_o is d_i (a wire) or the reference register, where it is known (a
  // register without reset holds its random power-up value until its first load).
  void check(const char* where) {
    if (!S::kReg) {
      ASSERT_EQ(q(), d()) << where << ", cycle " << this->cycle_;
    } else if (ref_) {
      ASSERT_EQ(q(), *ref_) << where << ", cycle " << this->cycle_ << ": " << hex(q())
                            << " expected " << hex(*ref_);
    }
  }

  std::optional<Bits> ref_;
};

using PipeRegSets = ::testing::Types<PipeReg_w1_rst, PipeReg_w70_reg, PipeReg_w8_wire>;
TYPED_TEST_SUITE(PipeReg, PipeRegSets);

TYPED_TEST(PipeReg, LoadsOnEnableHoldsWithoutAndFollowsTheResetParameter) {
  constexpr unsigned W = TestFixture::W;
  unsigned loads = 0, resets = 0;
  for (int c = 0; c < 5000; ++c) {
    auto& m = *this->m_;
    m.en_i = this->chance(0.4);
    put(m.d_i, 0, W, random_bits(this->rng_, W));
    // Now and then an asynchronous reset pulse, released before the edge.
    if (this->chance(0.03)) {
      m.rst_ni = 0;
      this->settle();
      ++resets;
      if (TypeParam::kReg && TypeParam::kReset) this->ref_ = Bits((W + 63) / 64, 0);
      this->check("in reset");
      m.rst_ni = 1;
    }
    this->settle();
    this->check("settled");
    const bool load = m.en_i;
    const Bits in = this->d();
    this->tick();
    if (load) this->ref_ = in, ++loads;
    this->settle();
    this->check("after the edge");
  }
  EXPECT_GT(loads, 0u);
  EXPECT_GT(resets, 0u);
}

TYPED_TEST(PipeReg, AResetClearsOnlyARegisterWithReset) {
  constexpr unsigned W = TestFixture::W;
  auto& m = *this->m_;
  Bits ones((W + 63) / 64, ~uint64_t{0});
  if (W % 64) ones.back() &= (uint64_t{1} << (W % 64)) - 1;
  m.en_i = 1;
  put(m.d_i, 0, W, ones);
  this->settle();
  this->tick();
  m.en_i = 0;
  this->settle();
  if (TypeParam::kReg) this->ref_ = ones;
  this->check("loaded");
  m.rst_ni = 0;
  this->settle();
  if (TypeParam::kReg && TypeParam::kReset) this->ref_ = Bits((W + 63) / 64, 0);
  this->check("in reset, before an edge");
  this->tick();
  this->settle();
  this->check("in reset, after an edge");
  m.rst_ni = 1;
  this->settle();
  this->check("out of reset");
}

}  // namespace
}  // namespace cni::tb::blocks
