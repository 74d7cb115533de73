// SPDX-License-Identifier: Apache-2.0
// rtl/top/cni_ca_arb.sv over its parameter sets (tb/rtl_blocks.cmake), against a reference of
// its choice every cycle: the lowest-numbered source with a request is chosen (source 0 first),
// and a chosen request the agent stalls stays chosen until taken, whoever asks meanwhile; the
// agent sees the chosen source's fields with the source in the id's top bits; a response goes to
// the source its id names and to no other. Every request reaches the agent once, in its source's
// order and intact; every response reaches the source that asked.
#include <deque>
#include <map>
#include <vector>

#include "Vcni_ca_arb_n1.h"
#include "Vcni_ca_arb_n2.h"
#include "Vcni_ca_arb_n3.h"
#include "Vcni_ca_arb_n4.h"
#include "block_bench.hpp"

namespace cni::tb::blocks {

#define CNI_CA_ARB_SET(s)                                                  \
  struct CaArb_##s {                                                       \
    using M = Vcni_ca_arb_##s;                                             \
    static constexpr const char* kName = #s;                               \
    static constexpr unsigned kNumSrc = CNI_BLK_ca_arb_##s##_NumSrc;       \
    static constexpr unsigned kIdW = CNI_BLK_ca_arb_##s##_IdW;             \
    static constexpr unsigned kLineBytes = CNI_BLK_ca_arb_##s##_LineBytes; \
  };
CNI_CA_ARB_SET(n1)
CNI_CA_ARB_SET(n2)
CNI_CA_ARB_SET(n3)
CNI_CA_ARB_SET(n4)
#undef CNI_CA_ARB_SET

namespace {

inline constexpr unsigned kOpW = 3;     // cni_coh_pkg::CA_OP_W
inline constexpr unsigned kAddrW = 48;  // cni_coh_pkg::ADDR_W

struct Req {
  uint64_t op = 0, addr = 0, id = 0;
  Bits data, be;
  bool operator==(const Req&) const = default;
};

template <class S>
class CaArb : public BlockBench<S> {
 protected:
  static constexpr unsigned N = S::kNumSrc;
  static constexpr unsigned IdW = S::kIdW;
  static constexpr unsigned LB = S::kLineBytes;
  static constexpr unsigned SrcW = N > 1 ? std::bit_width(N - 1) : 1;

  void SetUp() override {
    BlockBench<S>::SetUp();
    auto& m = *this->m_;
    m.s_req_valid_i = 0;
    m.s_rsp_ready_i = 0;
    m.req_ready_i = 0;
    m.rsp_valid_i = 0;
    m.rsp_id_i = 0;
    scramble();
    this->reset();
  }

  Req random_req(unsigned s) {
    Req r;
    r.op = this->pick(1u << kOpW);
    r.addr = random_bits(this->rng_, kAddrW)[0];
    r.id = (next_id_[s]++) & ((1u << IdW) - 1);
    r.data = random_bits(this->rng_, LB * 8);
    r.be = random_bits(this->rng_, LB);
    return r;
  }
  void present(unsigned s, const Req& r) {
    auto& m = *this->m_;
    put64(m.s_req_op_i, s * kOpW, kOpW, r.op);
    put64(m.s_req_addr_i, s * kAddrW, kAddrW, r.addr);
    put(m.s_req_data_i, s * LB * 8, LB * 8, r.data);
    put(m.s_req_be_i, s * LB, LB, r.be);
    put64(m.s_req_id_i, s * IdW, IdW, r.id);
  }
  // Sources without a request drive noise on their fields.
  void scramble() {
    for (unsigned s = 0; s < N; ++s) {
      if (!((this->m_->s_req_valid_i >> s) & 1)) present(s, random_req(s));
    }
  }
  Req shown() const {
    const auto& m = *this->m_;
    Req r;
    r.op = m.req_op_o;
    r.addr = get64(m.req_addr_o, 0, kAddrW);
    r.data = get(m.req_data_o, 0, LB * 8);
    r.be = get(m.req_be_o, 0, LB);
    r.id = m.req_id_o & ((1u << IdW) - 1);
    return r;
  }

  // After settle(): the choice, the fields, the readies, the response routing and idle_o agree
  // with the reference; returns the source chosen (-1: none).
  int check(const char* where) {
    const auto& m = *this->m_;
    const int sel = choice_.choose(m.s_req_valid_i);
    const bool valid = sel >= 0 && ((m.s_req_valid_i >> sel) & 1);
    EXPECT_EQ(bool(m.req_valid_o), valid) << where << ", cycle " << this->cycle_;
    EXPECT_EQ(unsigned(m.s_req_ready_o), sel >= 0 && m.req_ready_i ? 1u << sel : 0u)
        << where << ", cycle " << this->cycle_;
    EXPECT_EQ(bool(m.idle_o), choice_.held < 0) << where << ", cycle " << this->cycle_;
    if (valid) {
      EXPECT_EQ(shown(), head_[sel]) << where << ", cycle " << this->cycle_ << ": source " << sel;
      EXPECT_EQ(unsigned(m.req_id_o) >> IdW, unsigned(sel)) << where;
    }
    const unsigned src = m.rsp_id_i >> IdW;
    EXPECT_EQ(unsigned(m.s_rsp_valid_o), m.rsp_valid_i ? 1u << src : 0u)
        << where << ", cycle " << this->cycle_;
    if (m.rsp_valid_i) {
      EXPECT_EQ(unsigned(m.s_rsp_id_o), m.rsp_id_i & ((1u << IdW) - 1)) << where;
      EXPECT_EQ(bool(m.rsp_ready_o), bool((m.s_rsp_ready_i >> src) & 1)) << where;
    }
    return sel;
  }

  // The edge: requests and responses transferred, the reference updated.
  void step(int sel) {
    auto& m = *this->m_;
    const bool req_fire = m.req_valid_o && m.req_ready_i;
    const bool rsp_fire = m.rsp_valid_i && m.rsp_ready_o;
    if (req_fire) {
      ++taken_;
      outstanding_.push_back(m.req_id_o);
      asked_[sel].push_back(head_[sel].id);
    }
    if (rsp_fire) {
      const unsigned src = m.rsp_id_i >> IdW, id = m.rsp_id_i & ((1u << IdW) - 1);
      auto& a = asked_[src];
      auto it = std::find(a.begin(), a.end(), id);
      EXPECT_NE(it, a.end()) << "source " << src << " got a response to id " << id
                             << " it has not asked for";
      if (it != a.end()) a.erase(it);
      ++answered_;
    }
    choice_.on_edge(sel, m.req_valid_o, m.req_ready_i);
    this->tick();
    if (req_fire) m.s_req_valid_i &= ~(1u << sel);
    if (rsp_fire) m.rsp_valid_i = 0;
  }

  // One cycle of random traffic: sources raise requests (never looking at their readies), the
  // agent takes them and answers in any order, all with the given rates.
  int random_cycle(double p_req, double p_take, double p_rsp, double p_rsp_take) {
    auto& m = *this->m_;
    for (unsigned s = 0; s < N; ++s) {
      if (!((m.s_req_valid_i >> s) & 1) && this->chance(p_req)) {
        head_[s] = random_req(s);
        present(s, head_[s]);
        m.s_req_valid_i |= 1u << s;
      }
    }
    scramble();
    m.req_ready_i = this->chance(p_take);
    if (!m.rsp_valid_i && !outstanding_.empty() && this->chance(p_rsp)) {
      const unsigned i = this->pick(static_cast<unsigned>(outstanding_.size()));
      m.rsp_id_i = outstanding_[i];
      outstanding_.erase(outstanding_.begin() + i);
      m.rsp_valid_i = 1;
    }
    m.s_rsp_ready_i = 0;
    for (unsigned s = 0; s < N; ++s) m.s_rsp_ready_i |= this->chance(p_rsp_take) << s;
    this->settle();
    return check("random traffic");
  }

  HeldChoice choice_;
  Req head_[N];
  unsigned next_id_[N] = {};
  std::vector<unsigned> outstanding_;  // {source, id} taken by the agent, not yet answered
  std::deque<uint64_t> asked_[N];      // ids each source awaits an answer to
  unsigned taken_ = 0, answered_ = 0;
};

using CaArbSets = ::testing::Types<CaArb_n1, CaArb_n2, CaArb_n3, CaArb_n4>;
TYPED_TEST_SUITE(CaArb, CaArbSets);

TYPED_TEST(CaArb, ResetLeavesNothingChosen) {
  this->settle();
  this->check("after reset");
  EXPECT_TRUE(this->m_->idle_o);
  EXPECT_FALSE(this->m_->req_valid_o);
  EXPECT_EQ(unsigned(this->m_->s_rsp_valid_o), 0u);
}

TYPED_TEST(CaArb, EveryRequestReachesTheAgentOnceAndEveryResponseItsSource) {
  // Phases: a busy agent (requests pile up behind a stalled one), a quick one, sparse traffic.
  const double rates[][4] = {{0.6, 0.3, 0.4, 0.7}, {0.5, 0.9, 0.8, 0.9}, {0.1, 0.5, 0.5, 0.4}};
  unsigned contested = 0;
  for (int c = 0; c < 6000; ++c) {
    const auto& r = rates[(c / 300) % 3];
    const int sel = this->random_cycle(r[0], r[1], r[2], r[3]);
    // A lower-numbered source waiting behind a chosen one: the lock at work.
    contested += this->choice_.overtaken(this->m_->s_req_valid_i);
    this->step(sel);
    if (this->HasFatalFailure() || this->HasFailure()) return;
  }
  // Drain: no new requests, the agent takes and answers everything.
  for (int c = 0; c < 2000; ++c) this->step(this->random_cycle(0.0, 0.8, 0.8, 0.8));
  EXPECT_EQ(this->m_->s_req_valid_i, 0u) << "requests never taken";
  EXPECT_TRUE(this->outstanding_.empty() && !this->m_->rsp_valid_i) << "responses never taken";
  EXPECT_EQ(this->taken_, this->answered_);
  for (unsigned s = 0; s < TestFixture::N; ++s) {
    EXPECT_TRUE(this->asked_[s].empty()) << "source " << s << " still awaits responses";
  }
  if (TestFixture::N > 1) {
    EXPECT_GT(contested, 0u) << "no request ever waited behind a lock";
  }
}

TYPED_TEST(CaArb, LowerSourcesComeFirstAndAStalledChoiceStaysChosen) {
  constexpr unsigned N = TestFixture::N;
  auto& m = *this->m_;
  // The last source asks alone; the agent stalls it.
  this->head_[N - 1] = this->random_req(N - 1);
  this->present(N - 1, this->head_[N - 1]);
  m.s_req_valid_i = 1u << (N - 1);
  m.req_ready_i = 0;
  this->settle();
  EXPECT_EQ(this->check("alone"), int(N - 1));
  this->step(N - 1);
  // Every other source asks now; the stalled request stays chosen while the agent stalls.
  for (unsigned s = 0; s + 1 < N; ++s) {
    this->head_[s] = this->random_req(s);
    this->present(s, this->head_[s]);
    m.s_req_valid_i |= 1u << s;
  }
  for (int c = 0; c < 3; ++c) {
    this->settle();
    EXPECT_EQ(this->check("stalled"), int(N - 1));
    this->step(N - 1);
  }
  // The agent takes one request a cycle: the stalled one, then the others from source 0 up.
  m.req_ready_i = 1;
  std::vector<int> order;
  for (unsigned c = 0; c < N; ++c) {
    this->settle();
    const int sel = this->check("taking");
    order.push_back(sel);
    this->step(sel);
  }
  std::vector<int> expect{int(N - 1)};
  for (unsigned s = 0; s + 1 < N; ++s) expect.push_back(int(s));
  EXPECT_EQ(order, expect);
  this->settle();
  EXPECT_FALSE(m.req_valid_o);
  EXPECT_TRUE(m.idle_o);
}

// The sets whose ids have room for a source that does not exist (NumSrc not a power of two).
template <class S>
class CaArbIdGap : public CaArb<S> {};
using CaArbIdGapSets = ::testing::Types<CaArb_n1, CaArb_n3>;
TYPED_TEST_SUITE(CaArbIdGap, CaArbIdGapSets);

TYPED_TEST(CaArbIdGap, AResponseForASourceThatDoesNotExistIsFlagged) {
  static_assert((1u << TestFixture::SrcW) > TestFixture::N);
  this->expect_rtl_error_ = true;
  this->m_->rsp_valid_i = 1;
  this->m_->rsp_id_i = TestFixture::N << TestFixture::IdW;
  this->settle();
  EXPECT_EQ(unsigned(this->m_->s_rsp_valid_o), 0u);
  this->tick();
  this->settle();
}

}  // namespace
}  // namespace cni::tb::blocks
