// SPDX-License-Identifier: Apache-2.0
// rtl/common/cni_fifo.sv over its parameter sets (tb/rtl_blocks.cmake): against a reference
// queue, every cycle. in_ready_o = not full and out_valid_o = not empty, both registered (so
// a pop at full does not let a push in during the same cycle, and a push into an empty FIFO
// shows the next cycle); entries leave in order and intact; count_o is the occupancy.
#include <deque>

#include "Vcni_fifo_d16_w8.h"
#include "Vcni_fifo_d1_w70_or.h"
#include "Vcni_fifo_d1_w8.h"
#include "Vcni_fifo_d2_w70.h"
#include "Vcni_fifo_d3_w8.h"
#include "Vcni_fifo_d3_w8_or.h"
#include "Vcni_fifo_d5_w70.h"
#include "Vcni_fifo_d5_w70_or8x16.h"
#include "block_bench.hpp"

namespace cni::tb::blocks {

// A parameter set: its model and the parameters it was built with (CNI_BLK_fifo_<set>_*).
#define CNI_FIFO_SET(s)                                          \
  struct Fifo_##s {                                              \
    using M = Vcni_fifo_##s;                                     \
    static constexpr const char* kName = #s;                     \
    static constexpr unsigned kWidth = CNI_BLK_fifo_##s##_Width; \
    static constexpr unsigned kDepth = CNI_BLK_fifo_##s##_Depth; \
  };
CNI_FIFO_SET(d1_w8)
CNI_FIFO_SET(d2_w70)
CNI_FIFO_SET(d3_w8)
CNI_FIFO_SET(d5_w70)
CNI_FIFO_SET(d16_w8)
CNI_FIFO_SET(d1_w70_or)
CNI_FIFO_SET(d3_w8_or)
CNI_FIFO_SET(d5_w70_or8x16)
#undef CNI_FIFO_SET

namespace {

template <class S>
class Fifo : public BlockBench<S> {
 protected:
  static constexpr unsigned W = S::kWidth;
  static constexpr unsigned D = S::kDepth;

  void SetUp() override {
    BlockBench<S>::SetUp();
    drive(false, random_bits(this->rng_, W), false);
    this->reset();
  }

  void drive(bool in_valid, const Bits& data, bool out_ready) {
    this->m_->in_valid_i = in_valid;
    put(this->m_->in_data_i, 0, W, data);
    this->m_->out_ready_i = out_ready;
  }
  Bits out_data() const { return get(this->m_->out_data_o, 0, W); }

  // After settle(): the outputs agree with the reference queue.
  void check(const char* where) {
    const auto& m = *this->m_;
    ASSERT_EQ(bool(m.out_valid_o), !ref_.empty()) << where << ", cycle " << this->cycle_;
    ASSERT_EQ(bool(m.in_ready_o), ref_.size() < D) << where << ", cycle " << this->cycle_;
    ASSERT_EQ(unsigned(m.count_o), ref_.size()) << where << ", cycle " << this->cycle_;
    if (!ref_.empty()) {
      ASSERT_EQ(out_data(), ref_.front()) << where << ", cycle " << this->cycle_ << ": head "
                                          << hex(out_data()) << " expected " << hex(ref_.front());
    }
  }
  // The edge, with the reference queue updated by what the settled handshakes transfer.
  void step() {
    const auto& m = *this->m_;
    const bool push = m.in_valid_i && m.in_ready_o;
    const bool pop = m.out_valid_o && m.out_ready_i;
    const Bits in = get(m.in_data_i, 0, W);
    this->tick();
    if (pop) ref_.pop_front();
    if (push) ref_.push_back(in);
  }
  // One cycle with these inputs, checked.
  void cycle(bool in_valid, const Bits& data, bool out_ready, const char* where) {
    drive(in_valid, data, out_ready);
    this->settle();
    check(where);
    step();
  }

  std::deque<Bits> ref_;
};

using FifoSets = ::testing::Types<Fifo_d1_w8, Fifo_d2_w70, Fifo_d3_w8, Fifo_d5_w70, Fifo_d16_w8,
                                  Fifo_d1_w70_or, Fifo_d3_w8_or, Fifo_d5_w70_or8x16>;
TYPED_TEST_SUITE(Fifo, FifoSets);

TYPED_TEST(Fifo, ResetLeavesItEmptyAndReadyAndForgetsWhatItHeld) {
  this->settle();
  this->check("after reset");
  for (unsigned i = 0; i < TypeParam::kDepth; ++i) {
    this->cycle(true, random_bits(this->rng_, TestFixture::W), false, "filling");
  }
  this->settle();
  this->check("full");
  // The reset is asynchronous: the flags and the count clear without a clock edge.
  this->m_->rst_ni = 0;
  this->settle();
  this->ref_.clear();
  this->check("in reset, before an edge");
  this->tick();
  this->m_->rst_ni = 1;
  this->settle();
  this->check("after the second reset");
  const Bits first = random_bits(this->rng_, TestFixture::W);
  this->cycle(true, first, true, "first push after reset");
  this->settle();
  this->check("the entry pushed after reset");
}

TYPED_TEST(Fifo, FillsToItsDepthThenRefusesAndDrainsInOrder) {
  for (unsigned i = 0; i < TypeParam::kDepth; ++i) {
    this->cycle(true, random_bits(this->rng_, TestFixture::W), false, "filling");
  }
  // Full: the writer's offers (new data every cycle) are refused and change nothing.
  for (int i = 0; i < 5; ++i) {
    this->cycle(true, random_bits(this->rng_, TestFixture::W), false, "full, refusing");
  }
  ASSERT_EQ(this->ref_.size(), TypeParam::kDepth);
  // Drained with the writer idle (its data still changing): in order, the count stepping down.
  while (!this->ref_.empty()) {
    this->cycle(false, random_bits(this->rng_, TestFixture::W), true, "draining");
  }
  for (int i = 0; i < 3; ++i) {
    this->cycle(false, random_bits(this->rng_, TestFixture::W), true, "empty, reader ready");
  }
}

TYPED_TEST(Fifo, APopAtFullDoesNotLetAPushInTheSameCycle) {
  for (unsigned i = 0; i < TypeParam::kDepth; ++i) {
    this->cycle(true, random_bits(this->rng_, TestFixture::W), false, "filling");
  }
  // Both sides willing at full: in_ready_o stays low (it is "not full", not "not full or
  // popping"), so only the pop happens.
  this->drive(true, random_bits(this->rng_, TestFixture::W), true);
  this->settle();
  this->check("full, both sides willing");
  EXPECT_FALSE(this->m_->in_ready_o);
  this->step();
  EXPECT_EQ(this->ref_.size(), TypeParam::kDepth - 1);
  // And a push into an empty FIFO is not visible to the reader in the same cycle.
  while (!this->ref_.empty()) this->cycle(false, Bits(1, 0), true, "draining");
  this->drive(true, random_bits(this->rng_, TestFixture::W), true);
  this->settle();
  EXPECT_FALSE(this->m_->out_valid_o) << "a push fell through in its own cycle";
  this->step();
  this->settle();
  this->check("the cycle after the push");
}

TYPED_TEST(Fifo, StreamsAnEntryEveryCycleWhenNeitherSideStalls) {
  // Depth 1 holds one entry and is full while it does: an entry every other cycle.
  constexpr unsigned kCycles = 400;
  unsigned out = 0;
  for (unsigned c = 0; c < kCycles; ++c) {
    this->drive(true, random_bits(this->rng_, TestFixture::W), true);
    this->settle();
    this->check("streaming");
    out += this->m_->out_valid_o && this->m_->out_ready_i;
    this->step();
  }
  EXPECT_EQ(out, TypeParam::kDepth == 1 ? kCycles / 2 : kCycles - 1);
}

TYPED_TEST(Fifo, RandomTrafficMatchesTheReferenceQueue) {
  // Phases of writer and reader rates: filling, draining, balanced, both sides sparse.
  const double rates[][2] = {{0.9, 0.2}, {0.2, 0.9}, {0.7, 0.7}, {0.3, 0.3}, {1.0, 0.5}};
  unsigned full_both = 0, empty_push = 0, push_pop = 0, pushes = 0, pops = 0;
  for (int c = 0; c < 8000; ++c) {
    const auto& r = rates[(c / 250) % 5];
    // The writer's valid never looks at in_ready_o; its data is new every cycle.
    const bool v = this->chance(r[0]);
    const bool rd = this->chance(r[1]);
    this->drive(v, random_bits(this->rng_, TestFixture::W), rd);
    this->settle();
    this->check("random traffic");
    const auto& m = *this->m_;
    full_both += this->ref_.size() == TypeParam::kDepth && v && rd;
    empty_push += this->ref_.empty() && v;
    push_pop += m.in_ready_o && v && m.out_valid_o && rd;
    pushes += m.in_ready_o && v;
    pops += m.out_valid_o && rd;
    this->step();
  }
  const unsigned held = static_cast<unsigned>(this->ref_.size());
  while (!this->ref_.empty()) this->cycle(false, Bits(1, 0), true, "final drain");
  this->settle();
  this->check("drained");
  EXPECT_EQ(pushes, pops + held) << "entries lost or made up";
  EXPECT_GT(full_both, 0u) << "never full with both sides willing";
  EXPECT_GT(empty_push, 0u) << "never pushed into an empty FIFO";
  if (TypeParam::kDepth > 1) {
    EXPECT_GT(push_pop, 0u) << "never pushed and popped together";
  }
}

}  // namespace
}  // namespace cni::tb::blocks
