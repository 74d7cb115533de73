// SPDX-License-Identifier: Apache-2.0
// rtl/common/cni_assert_hold.sv over its parameter sets (tb/rtl_blocks.cmake): an offer held
// until it is taken passes, whatever the stalls; an offer changed or withdrawn before it is taken
// is flagged; a taken offer may change at once.
#include "Vcni_assert_hold_w1.h"
#include "Vcni_assert_hold_w70.h"
#include "block_bench.hpp"

namespace cni::tb::blocks {

#define CNI_ASSERT_HOLD_SET(s)                                          \
  struct AssertHold_##s {                                               \
    using M = Vcni_assert_hold_##s;                                     \
    static constexpr const char* kName = #s;                            \
    static constexpr unsigned kWidth = CNI_BLK_assert_hold_##s##_Width; \
  };
CNI_ASSERT_HOLD_SET(w1)
CNI_ASSERT_HOLD_SET(w70)
#undef CNI_ASSERT_HOLD_SET

namespace {

template <class S>
class AssertHold : public BlockBench<S> {
 protected:
  static constexpr unsigned W = S::kWidth;

  void SetUp() override {
    BlockBench<S>::SetUp();
    drive(false, false, Bits((W + 63) / 64, 0));
    this->reset();
  }
  void drive(bool valid, bool ready, const Bits& data) {
    this->m_->valid_i = valid;
    this->m_->ready_i = ready;
    put(this->m_->data_i, 0, W, data);
  }
  // One cycle of the handshake as given.
  void cycle(bool valid, bool ready, const Bits& data) {
    drive(valid, ready, data);
    this->settle();
    this->tick();
  }
  // A value other than `v` (the lowest bit flipped).
  static Bits other(Bits v) {
    v[0] ^= 1;
    return v;
  }
};

using AssertHoldSets = ::testing::Types<AssertHold_w1, AssertHold_w70>;
TYPED_TEST_SUITE(AssertHold, AssertHoldSets);

// A source that keeps its offer until the sink takes it, the sink stalling at random: no error
// (TearDown checks that nothing fired).
TYPED_TEST(AssertHold, AnOfferHeldUntilTakenPasses) {
  constexpr unsigned W = TestFixture::W;
  bool valid = false;
  Bits data = random_bits(this->rng_, W);
  for (int i = 0; i < 2000; ++i) {
    if (!valid && this->chance(0.6)) {
      valid = true;
      data = random_bits(this->rng_, W);
    }
    const bool ready = this->chance(0.5);
    this->cycle(valid, ready, data);
    if (valid && ready) valid = false;
  }
}

TYPED_TEST(AssertHold, AnOfferChangedBeforeItIsTakenIsFlagged) {
  this->expect_rtl_error_ = true;
  const Bits d = random_bits(this->rng_, TestFixture::W);
  this->cycle(true, false, d);
  this->cycle(true, false, TestFixture::other(d));
}

TYPED_TEST(AssertHold, AnOfferWithdrawnBeforeItIsTakenIsFlagged) {
  this->expect_rtl_error_ = true;
  const Bits d = random_bits(this->rng_, TestFixture::W);
  this->cycle(true, false, d);
  this->cycle(false, false, d);
}

TYPED_TEST(AssertHold, ATakenOfferMayChangeAtOnceAndNoOfferMayChangeFreely) {
  const Bits d = random_bits(this->rng_, TestFixture::W);
  this->cycle(true, true, d);
  this->cycle(true, true, TestFixture::other(d));
  this->cycle(false, false, d);
  this->cycle(false, false, TestFixture::other(d));
  this->cycle(true, true, d);
}

}  // namespace
}  // namespace cni::tb::blocks
