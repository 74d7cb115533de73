// SPDX-License-Identifier: Apache-2.0
// cni_cq_engine alone (docs/cni.md section 9, the harness tests): every configuration this
// release builds, at 64- and 128-byte lines, between nodes of tests/cni/cq_harness.hpp.
#include <gtest/gtest.h>

#include <cstdlib>
#include <type_traits>
#include <string>

#include "Vcni_cq_ni2w_l128.h"
#include "Vcni_cq_ni2w_l64.h"
#include "Vcni_cq_q16_l128.h"
#include "Vcni_cq_q16_l64.h"
#include "Vcni_cq_q16ep_l64.h"
#include "Vcni_cq_q16rt_l64.h"
#include "Vcni_cq_q512_l64.h"
#include "cq_harness.hpp"

namespace cni::tb::cq {
namespace {

struct Ni2wL64 {
  using V = Vcni_cq_ni2w_l64;
  static constexpr unsigned kCfg = kNi2w, kLb = 64;
  static constexpr const char* kName = "NI2w_l64";
};
struct Q16L64 {
  using V = Vcni_cq_q16_l64;
  static constexpr unsigned kCfg = kCni16Q, kLb = 64;
  static constexpr const char* kName = "CNI16Q_l64";
};
struct Q16EpL64 {
  using V = Vcni_cq_q16ep_l64;
  static constexpr unsigned kCfg = kCni16Q, kLb = 64;
  static constexpr const char* kName = "CNI16Q_EarlyPull_l64";
};
struct Q512L64 {
  using V = Vcni_cq_q512_l64;
  static constexpr unsigned kCfg = kCni512Q, kLb = 64;
  static constexpr const char* kName = "CNI512Q_l64";
};
struct Ni2wL128 {
  using V = Vcni_cq_ni2w_l128;
  static constexpr unsigned kCfg = kNi2w, kLb = 128;
  static constexpr const char* kName = "NI2w_l128";
};
struct Q16L128 {
  using V = Vcni_cq_q16_l128;
  static constexpr unsigned kCfg = kCni16Q, kLb = 128;
  static constexpr const char* kName = "CNI16Q_l128";
};
struct Q16RtL64 {
  using V = Vcni_cq_q16rt_l64;
  static constexpr unsigned kCfg = kCni16Q, kLb = 64;
  static constexpr const char* kName = "CNI16Q_Retransmit_l64";
};
template <class T>
constexpr bool kEarlyPull = std::is_same_v<typename T::V, Vcni_cq_q16ep_l64>;
struct Names {
  template <class T>
  static std::string GetName(int) { return T::kName; }
};

uint64_t seed_for(const std::string& test) {
  if (const char* e = std::getenv("CNI_SEED")) return std::strtoull(e, nullptr, 0);
  return std::hash<std::string>{}(test) & 0xffffffff;
}

template <class T>
class CniEngine : public ::testing::Test {
 protected:
  using W = World<typename T::V>;
  std::unique_ptr<W> make(unsigned nodes, Knobs k = {}) {
    std::string name = ::testing::UnitTest::GetInstance()->current_test_info()->name();
    uint64_t seed = seed_for(name + T::kName);
    RecordProperty("seed", std::to_string(seed));
    auto w = std::make_unique<W>(T::kCfg, T::kLb, nodes, seed, k);
    EXPECT_TRUE(w->settle(1000)) << "reset";
    return w;
  }
  static Msg msg(unsigned src, unsigned dst, size_t len, uint32_t tag) {
    Msg m;
    m.src = uint16_t(src);
    m.dst = uint16_t(dst);
    m.handler = uint16_t(tag * 7 + 1);
    m.flags = uint8_t(tag & 3);
    for (size_t i = 0; i < len; i++) m.data.push_back(uint8_t(tag * 31 + i * 13 + src));
    return m;
  }
  // Pushes m, draining the receive side of every node while there is no room (docs/cni.md
  // section 6, "Why it cannot deadlock"). Fails after `limit` cycles.
  void push(W& w, const Msg& m, unsigned limit = 200000) {
    uint64_t start = w.cycle();
    while (!w.send(m.src, m)) {
      drain_all(w);
      w.step();
      ASSERT_LT(w.cycle() - start, limit) << "no room for a message from " << m.src;
    }
    w.expect(m);
  }
  static unsigned drain(W& w, unsigned n) {
    unsigned k = 0;
    while (auto r = w.recv(n)) {
      w.arrived(n, *r);
      k++;
    }
    return k;
  }
  static void drain_all(W& w) {
    for (unsigned n = 0; n < w.size(); n++) drain(w, n);
  }
  // Runs until every expected message has arrived.
  static void finish(W& w, unsigned limit = 400000) {
    uint64_t start = w.cycle();
    while (w.outstanding() != 0) {
      drain_all(w);
      w.step();
      ASSERT_LT(w.cycle() - start, limit) << w.outstanding() << " messages never arrived";
    }
    ASSERT_TRUE(w.settle());
  }
  static void no_errors(W& w, unsigned n) {
    for (Cnt c : {Cnt::TxClosed, Cnt::TxBadLen, Cnt::TxBadDst, Cnt::TxBadSense, Cnt::TxOverrun,
                  Cnt::TxStray, Cnt::RxBadFcs, Cnt::RxBad, Cnt::RxDup, Cnt::RxGap, Cnt::RxClosed,
                  Cnt::RxStray, Cnt::AckStale})
      EXPECT_EQ(w.counter(n, c), 0u) << "node " << n << " counter " << unsigned(c);
  }
};
// (CNI16Q built with go-back-N, which is off unless CTRL.retransmit is set, runs every one too)
using AllModels =
    ::testing::Types<Ni2wL64, Q16L64, Q512L64, Ni2wL128, Q16L128, Q16EpL64, Q16RtL64>;
TYPED_TEST_SUITE(CniEngine, AllModels, Names);

TYPED_TEST(CniEngine, ResetDeniesTheRegisterPageAndTheIdRegisterDescribesTheEngine) {
  auto w = this->make(2);
  auto& pol = w->node(1).policies;
  // EarlyPull: every SQ line SHARED as well
  const unsigned sq = kEarlyPull<TypeParam> ? w->slots_sq() * (kMsgBytes / TypeParam::kLb) : 0;
  ASSERT_EQ(pol.size(), kRegBytes / TypeParam::kLb + sq);
  for (unsigned l = 0; l < kRegBytes / TypeParam::kLb; l++) EXPECT_EQ(pol.at(kBase + l), 3);
  for (unsigned l = 0; l < sq; l++) EXPECT_EQ(pol.at(w->l_sq(0, 0) + l), kPolShared);
  uint64_t id = w->rd(1, reg::kId);
  EXPECT_EQ(id & 0xf, TypeParam::kCfg);
  EXPECT_EQ((id >> 8) & 0xff, 4u);          // Window
  EXPECT_EQ((id >> 16) & 0xffff, 1u);       // this node
  EXPECT_EQ((id >> 32) & 0xffff, w->slots_sq());
  EXPECT_EQ(id >> 48, w->slots_rq());
  EXPECT_EQ(w->rd(1, reg::kCtrl), 16u << 8);  // closed, NODES = MaxNodes
  EXPECT_TRUE(w->node(1).top().idle_o);
}

TYPED_TEST(CniEngine, MessagesOfEverySizeArriveIntactAndInOrder) {
  auto w = this->make(2);
  w->open(0);
  w->open(1);
  const size_t sizes[] = {0, 1, 7, 8, 9, 51, 52, 53, 64, 115, 116, 117, 200, 243, 244};
  uint32_t tag = 0;
  for (unsigned dir = 0; dir < 2; dir++) {
    for (size_t len : sizes) this->push(*w, this->msg(dir, 1 - dir, len, tag++));
    this->finish(*w);
  }
  for (unsigned n = 0; n < 2; n++) {
    EXPECT_EQ(w->counter(n, Cnt::TxMessages), std::size(sizes));
    EXPECT_EQ(w->counter(n, Cnt::TxFrames), std::size(sizes));
    EXPECT_EQ(w->counter(n, Cnt::RxFrames), std::size(sizes));
    EXPECT_GT(w->counter(n, Cnt::AcksSent), 0u);
    EXPECT_GT(w->counter(n, Cnt::AcksReceived), 0u);
    this->no_errors(*w, n);
  }
  // frames carry only the bytes used: 12 + len (data) and 12 (acks)
  for (auto& f : w->frames_seen) {
    ASSERT_GE(f.size(), kHdrBytes);
    if (f[6] == kTypeData) EXPECT_EQ(f.size(), kHdrBytes + get16(&f[4]));
    else EXPECT_EQ(f.size(), kHdrBytes);
  }
}

TYPED_TEST(CniEngine, TwoWayRandomStreamUnderStallsIsExactlyOnceInOrder) {
  Knobs k;
  k.cmd_stall = 0.4;
  k.mem_stall = 0.4;
  k.ntx_stall = 0.3;
  auto w = this->make(2, k);
  w->open(0);
  w->open(1);
  std::mt19937 rng(7);
  unsigned left[2] = {300, 300};
  uint32_t tag = 0;
  while (left[0] + left[1] > 0) {
    unsigned n = rng() % 2;
    if (left[n] && rng() % 3) {
      Msg m = this->msg(n, 1 - n, rng() % (kMaxLen + 1), tag++);
      this->push(*w, m);
      left[n]--;
    }
    if (rng() % 4 == 0) this->drain(*w, rng() % 2);
    w->run(rng() % 20);
  }
  this->finish(*w);
  for (unsigned n = 0; n < 2; n++) {
    EXPECT_EQ(w->counter(n, Cnt::RxFrames), 300u);
    this->no_errors(*w, n);
  }
  if (w->cq()) {
    EXPECT_GT(w->counter(0, Cnt::Pulls), 0u);
    EXPECT_GT(w->counter(1, Cnt::LockedWrites), 0u);
  }
}

TYPED_TEST(CniEngine, AllToAllAmongFourNodesWithFullWindowsFinishesWithoutDeadlock) {
  Knobs k;
  k.net_latency = 400;   // longer than four messages take to leave: the windows fill
  auto w = this->make(4, k);
  for (unsigned n = 0; n < 4; n++) w->open(n, 4);
  std::mt19937 rng(11);
  uint32_t tag = 0;
  // every node sends to every other as fast as it can, and drains only when it must
  // (in bursts of 10 to one destination, so that its window fills)
  for (unsigned round = 0; round < 4; round++)
    for (unsigned s = 0; s < 4; s++)
      for (unsigned d = 0; d < 4; d++)
        for (unsigned k = 0; k < 10 && s != d; k++)
          this->push(*w, this->msg(s, d, rng() % (kMaxLen + 1), tag++));
  this->finish(*w);
  unsigned win = 0, room = 0;
  for (unsigned n = 0; n < 4; n++) {
    win += w->counter(n, Cnt::WindowWaits);
    room += w->counter(n, Cnt::RoomWaits);
    EXPECT_EQ(w->counter(n, Cnt::RxFrames), 120u);
    this->no_errors(*w, n);
  }
  EXPECT_GT(win, 0u) << "the windows never filled";
  EXPECT_GT(room, 0u) << "the receive queues never filled";
}

TYPED_TEST(CniEngine, AFullReceiverHoldsTheSenderBackUntilItConsumes) {
  auto w = this->make(2);
  w->open(0);
  w->open(1);
  // node 1 does not read: node 0 fills the window, node 1's queue, then its own queue
  unsigned sent = 0;
  uint32_t tag = 0;
  for (unsigned idle = 0; idle < 3000;) {
    Msg m = this->msg(0, 1, 100, tag);
    if (w->send(0, m)) {
      w->expect(m);
      sent++;
      tag++;
      idle = 0;
    } else {
      w->step();
      idle++;
    }
    ASSERT_LT(sent, 2000u) << "the sender was never held back";
  }
  EXPECT_GE(sent, 4u);
  EXPECT_GT(w->counter(0, Cnt::WindowWaits), 0u);
  EXPECT_GT(w->counter(1, Cnt::RoomWaits), 0u);
  if (w->cq()) {
    EXPECT_GT(w->counter(1, Cnt::ShadowRefreshes), 0u);  // the shadow head said full
  }
  this->finish(*w);
  EXPECT_EQ(w->counter(1, Cnt::RxFrames), sent);
  this->no_errors(*w, 0);
  this->no_errors(*w, 1);
}

// A message to the node itself (docs/cni.md section 6, "Local delivery") goes from the send side
// straight to the receive side: no frame, no window, no ack, in order with the node's other
// messages to itself, while network traffic goes on both ways; and a closed endpoint drops it.
TYPED_TEST(CniEngine, AMessageToThisNodeIsDeliveredLocallyInOrderBesideNetworkTraffic) {
  auto w = this->make(2);
  w->open(0, 2);
  w->open(1, 2);
  unsigned local = 0, remote = 0, back = 0;
  for (uint32_t k = 0; k < 24; k++) {
    const size_t len = (k * 37) % (kMaxLen + 1);
    if (k % 3 == 1) {
      this->push(*w, this->msg(0, 1, len, k));
      remote++;
    } else {
      this->push(*w, this->msg(0, 0, len, k));
      local++;
    }
    if (k % 4 == 0) {
      this->push(*w, this->msg(1, 0, len / 2, 100 + k));
      back++;
    }
  }
  this->finish(*w);
  EXPECT_EQ(w->counter(0, Cnt::LocalDeliveries), local);
  EXPECT_EQ(w->counter(0, Cnt::TxMessages), local + remote);
  EXPECT_EQ(w->counter(0, Cnt::TxFrames), remote);
  EXPECT_EQ(w->counter(0, Cnt::RxFrames), back);
  EXPECT_EQ(w->counter(1, Cnt::LocalDeliveries), 0u);
  for (auto& f : w->frames_seen) {
    ASSERT_GE(f.size(), kHdrBytes);
    EXPECT_NE(get16(&f[0]), get16(&f[2])) << "a frame from a node to itself";
  }
  this->no_errors(*w, 0);
  this->no_errors(*w, 1);
}

// A stream of frames waiting for the receive register does not starve local messages: the two
// take turns (docs/cni.md section 6, "Local delivery"). Node 1's frames are injected as a backlog
// longer than node 0's receive queue; once the queue is full, node 0 sends to itself and then
// consumes: its k-th local message is among the next 2k + 2 messages it receives.
TYPED_TEST(CniEngine, LocalMessagesAndAStreamOfFramesTakeTurnsAtTheReceiveRegister) {
  auto w = this->make(2);
  w->open(0, 2);
  const unsigned frames = w->slots_rq() + 64;   // (NI2w: its hardware queue holds ~40 of these)
  for (unsigned k = 0; k < frames; k++) {
    Msg m = this->msg(1, 0, 20 + k % 40, k);
    std::vector<uint8_t> f(kHdrBytes, 0);
    put16(&f[0], m.dst);
    put16(&f[2], m.src);
    put16(&f[4], uint32_t(m.data.size()));
    f[6] = kTypeData;
    f[7] = m.flags;
    put16(&f[8], k);
    put16(&f[10], m.handler);
    f.insert(f.end(), m.data.begin(), m.data.end());
    w->inject(0, f);
    w->expect(m);
  }
  w->run(3000);
  const uint32_t before = w->counter(0, Cnt::RxFrames);   // in the queue and the register
  ASSERT_LT(before, frames) << "the backlog did not outlast the receive queue";
  std::vector<Msg> locals;
  for (uint32_t k = 0; k < 3; k++) {
    Msg m = this->msg(0, 0, 8 + 50 * k, 500 + k);
    unsigned tries = 0;
    while (!w->send(0, m) && tries++ < 400) w->step();
    if (tries > 400) break;   // no more room on the send side while nothing is consumed
    w->expect(m);
    locals.push_back(m);
  }
  ASSERT_FALSE(locals.empty());
  std::vector<unsigned> at;   // where each local message came in the receive order
  unsigned order = 0;
  uint64_t start = w->cycle();
  while (w->outstanding() != 0) {
    if (auto r = w->recv(0)) {
      if (r->src == 0) at.push_back(order);
      w->arrived(0, *r);
      order++;
    }
    w->step();
    ASSERT_LT(w->cycle() - start, 400000u) << w->outstanding() << " messages never arrived";
  }
  ASSERT_EQ(at.size(), locals.size());
  for (unsigned k = 0; k < at.size(); k++)
    EXPECT_LE(at[k], before + 2 * k + 1) << "local message " << k << " waited for the frames";
  EXPECT_EQ(w->counter(0, Cnt::LocalDeliveries), locals.size());
  EXPECT_EQ(w->counter(0, Cnt::RxFrames), frames);
}

TYPED_TEST(CniEngine, BadHeadersAreCountedNotSentAndTheQueueMovesOn) {
  auto w = this->make(2);
  w->open(0, 2);
  w->open(1, 2);
  ASSERT_TRUE(w->send(0, this->msg(0, 1, kMaxLen + 1, 1)));   // too long
  ASSERT_TRUE(w->send(0, this->msg(0, 2, 10, 2)));            // destination not below NODES
  ASSERT_TRUE(w->settle());
  EXPECT_EQ(w->counter(0, Cnt::TxBadLen), 1u);
  EXPECT_EQ(w->counter(0, Cnt::TxBadDst), 1u);
  EXPECT_EQ(w->counter(0, Cnt::TxFrames), 0u);
  EXPECT_TRUE(w->frames_seen.empty());
  // then a good message still goes
  this->push(*w, this->msg(0, 1, 30, 4));
  this->finish(*w);
  EXPECT_EQ(w->counter(0, Cnt::TxFrames), 1u);
}

TYPED_TEST(CniEngine, ASendWhileClosedIsCountedAndSendsNothing) {
  auto w = this->make(2);
  w->open(1);
  Msg m = this->msg(0, 1, 20, 1);
  ASSERT_TRUE(w->send(0, m));
  ASSERT_TRUE(w->settle());
  EXPECT_EQ(w->counter(0, Cnt::TxClosed), 1u);
  EXPECT_EQ(w->rd(0, reg::kStatus) >> 32 & 0xffff, 0u);  // pend stays 0
  EXPECT_TRUE(w->frames_seen.empty());
}

TYPED_TEST(CniEngine, FramesForAClosedEndpointAreAckedDroppedAndCounted) {
  auto w = this->make(2);
  w->open(0);
  // more than the window: the closed receiver acks, so the sender is never blocked
  uint64_t start = w->cycle();
  for (uint32_t t = 0; t < 12; t++) {
    while (!w->send(0, this->msg(0, 1, 40, t))) {
      w->step();
      ASSERT_LT(w->cycle() - start, 100000u) << "the sender was blocked";
    }
  }
  ASSERT_TRUE(w->settle());
  EXPECT_EQ(w->counter(1, Cnt::RxClosed), 12u);
  EXPECT_EQ(w->counter(1, Cnt::RxFrames), 0u);
  EXPECT_FALSE(w->recv(1).has_value());
}

TYPED_TEST(CniEngine, ACorruptedFrameIsDroppedCountedAndLaterFramesKeepOrder) {
  auto w = this->make(2);
  w->open(0);
  w->open(1);
  unsigned data_frames = 0;
  w->on_frame = [&](unsigned, unsigned, std::vector<uint8_t>& f, bool& bad) {
    if (f[6] == kTypeData && ++data_frames == 3) bad = true;
    return true;
  };
  std::vector<Msg> sent;
  std::vector<Msg> got;
  uint64_t start = w->cycle();
  for (uint32_t t = 0; t < 20; t++) {
    Msg m = this->msg(0, 1, 60 + t, t);
    while (!w->send(0, m)) {
      while (auto r = w->recv(1)) got.push_back(*r);
      w->step();
      ASSERT_LT(w->cycle() - start, 200000u);
    }
    sent.push_back(m);
  }
  while (got.size() < 19) {
    while (auto r = w->recv(1)) got.push_back(*r);
    w->step();
    ASSERT_LT(w->cycle() - start, 200000u);
  }
  ASSERT_TRUE(w->settle());
  sent.erase(sent.begin() + 2);   // the third never arrives
  EXPECT_EQ(got, sent);
  EXPECT_EQ(w->counter(1, Cnt::RxBadFcs), 1u);
  EXPECT_EQ(w->counter(1, Cnt::RxGap), 1u);
  EXPECT_EQ(w->counter(0, Cnt::AckStale), 0u);
}

TYPED_TEST(CniEngine, MalformedFramesAreDroppedAndCounted) {
  auto w = this->make(3);
  w->open(1, 3);
  auto frame = [](unsigned dst, unsigned src, unsigned len, uint8_t type, uint32_t seq,
                  unsigned bytes) {
    std::vector<uint8_t> f(bytes, 0xa5);
    put16(&f[0], dst);
    put16(&f[2], src);
    put16(&f[4], len);
    f[6] = type;
    f[7] = 0;
    put32(&f[8], seq);
    return f;
  };
  w->inject(1, frame(1, 0, 10, kTypeData, 0, kHdrBytes + 9));    // size != 12 + len
  w->inject(1, frame(1, 3, 10, kTypeData, 0, kHdrBytes + 10));   // source not below NODES
  w->inject(1, frame(1, 1, 10, kTypeData, 0, kHdrBytes + 10));   // from itself
  w->inject(1, frame(1, 0, 0, 0x7f, 0, kHdrBytes));               // unknown type
  w->inject(1, frame(1, 0, 0, kTypeAck, 5, kHdrBytes));           // ack of nothing sent
  w->run(200);
  w->inject(1, frame(1, 2, 10, kTypeData, 0, kHdrBytes + 10));   // good
  w->run(200);
  w->inject(1, frame(1, 2, 10, kTypeData, 0, kHdrBytes + 10));   // its duplicate
  ASSERT_TRUE(w->settle());
  EXPECT_EQ(w->counter(1, Cnt::RxBad), 4u);
  EXPECT_EQ(w->counter(1, Cnt::AckStale), 1u);
  EXPECT_EQ(w->counter(1, Cnt::RxDup), 1u);
  EXPECT_EQ(w->counter(1, Cnt::RxFrames), 1u);
  auto r = w->recv(1);
  ASSERT_TRUE(r.has_value());
  EXPECT_EQ(r->src, 2u);
  EXPECT_EQ(r->data, std::vector<uint8_t>(10, 0xa5));
  EXPECT_FALSE(w->recv(1).has_value());
}

// ---- EarlyPull (docs/cni.md section 5, "Send lines") -------------------------------------------

template <class T>
class CniEarlyPull : public CniEngine<T> {};
using EarlyPullModels = ::testing::Types<Q16EpL64>;
TYPED_TEST_SUITE(CniEarlyPull, EarlyPullModels, Names);

// Every ownership request of a send line parks and is resumed; the CPU's request for line k of
// a slot pulls line k - 1 early (never more than the message's lines but its last), and the
// messages arrive exact.
TYPED_TEST(CniEarlyPull, OwningLineKPullsLineKMinusOneEarlyAndMessagesArriveExact) {
  auto w = this->make(2);
  w->open(0, 2);
  w->open(1, 2);
  const unsigned lb = TypeParam::kLb;
  unsigned lines = 0, early_max = 0;
  for (uint32_t k = 0; k < 24; k++) {
    const size_t len = (k * 53) % (kMaxLen + 1);
    const unsigned n = w->lines_of(len);
    lines += n;
    early_max += n - 1;
    this->push(*w, this->msg(0, 1, len, k));
  }
  this->finish(*w);
  auto& nd = w->node(0);
  EXPECT_EQ(nd.triggers, lines);   // one park per line written (no pull met a parked request)
  EXPECT_EQ(nd.resumes, lines);
  EXPECT_EQ(nd.retried, 0u);
  const uint32_t early = w->counter(0, Cnt::EarlyPulls);
  EXPECT_GT(early, 0u);
  EXPECT_LE(early, early_max);
  EXPECT_EQ(w->counter(0, Cnt::Pulls), 24u * (kMsgBytes / lb));   // the send pulls every line
  EXPECT_EQ(w->counter(1, Cnt::EarlyPulls), 0u);
  this->no_errors(*w, 0);
  this->no_errors(*w, 1);
}

// The CPU's stores to line k - 1 drain only after it owns line k (a draft first, the final
// contents after line k): an early pull between the two takes the draft, the CPU asks for the
// line again, and the send's own pull takes the final contents, so every message arrives exact.
TYPED_TEST(CniEarlyPull, LineTakenBackBeforeItsStoresDrainIsPulledAgain) {
  Knobs k;
  k.sq_rewrite = 0.6;
  k.cmd_stall = 0.05;   // early pulls go out quickly, so more land between draft and final
  auto w = this->make(2, k);
  w->open(0, 2);
  w->open(1, 2);
  unsigned lines = 0;
  for (uint32_t t = 0; t < 40; t++) {
    const size_t len = 60 + (t * 71) % (kMaxLen - 59);   // two to four lines
    lines += w->lines_of(len);
    this->push(*w, this->msg(0, 1, len, t));
  }
  this->finish(*w);
  auto& nd = w->node(0);
  EXPECT_GT(nd.triggers, lines) << "no line was asked for again after an early pull";
  EXPECT_GT(w->counter(0, Cnt::EarlyPulls), 0u);
  this->no_errors(*w, 0);
  this->no_errors(*w, 1);
}

// ---- per configuration ------------------------------------------------------------------------

template <class T>
class CniQueue : public CniEngine<T> {};
using QueueModels = ::testing::Types<Q16L64, Q512L64, Q16L128, Q16EpL64>;
TYPED_TEST_SUITE(CniQueue, QueueModels, Names);

TYPED_TEST(CniQueue, ASlotWithTheWrongSenseIsCountedAndSkipped) {
  auto w = this->make(2);
  w->open(0);
  w->open(1);
  // the CPU writes slot 0 with the sense of the next pass, and makes it ready
  Msg m = this->msg(0, 1, 30, 1);
  auto img = w->slot_image(m, false);
  w->node(0).cpu_store(w->l_sq(0, 0), img.data());
  w->cpu(0).sq_tail = 1;
  w->wr(0, reg::kTxReady, 1);
  ASSERT_TRUE(w->settle());
  EXPECT_EQ(w->counter(0, Cnt::TxBadSense), 1u);
  EXPECT_TRUE(w->frames_seen.empty());
  // SQ_HEAD moved past it: the next slot is sent
  EXPECT_EQ(get32(w->node(0).line(w->l_sq_head())), 1u);
  this->push(*w, this->msg(0, 1, 30, 2));
  this->finish(*w);
}

// Messages to the node itself made ready and then the endpoint closed: the send side still takes
// them (they were ready while open), and the receive side, closed, drops each one and counts it
// as it counts a frame for a closed endpoint. Those delivered before the close are a prefix, in
// order.
TYPED_TEST(CniQueue, LocalMessagesThatReachAClosedEndpointAreDroppedAndCounted) {
  auto w = this->make(2);
  w->open(0, 2);
  w->open(1, 2);
  std::vector<Msg> sent;
  for (uint32_t k = 0; k < 4; k++) {
    sent.push_back(this->msg(0, 0, 20 + 50 * k, k));
    ASSERT_TRUE(w->send(0, sent.back()));
  }
  w->close(0);
  ASSERT_TRUE(w->settle());
  std::vector<Msg> got;
  while (auto r = w->recv(0)) got.push_back(*r);
  EXPECT_EQ(w->counter(0, Cnt::TxMessages), 4u);
  EXPECT_EQ(w->counter(0, Cnt::LocalDeliveries), got.size());
  EXPECT_EQ(w->counter(0, Cnt::RxClosed), 4u - got.size());
  EXPECT_GT(w->counter(0, Cnt::RxClosed), 0u);
  for (size_t i = 0; i < got.size(); i++) EXPECT_TRUE(got[i] == sent[i]) << "message " << i;
  EXPECT_TRUE(w->frames_seen.empty());
}

TYPED_TEST(CniQueue, PassesWrapWithTheSenseFlippedAndOldSlotsReadEmpty) {
  auto w = this->make(2);
  w->open(0);
  w->open(1);
  const unsigned n = 3 * w->slots_rq() + 1;
  for (uint32_t t = 0; t < n; t++) {
    this->push(*w, this->msg(0, 1, t % 3 == 0 ? 200 : 20, t));
    this->finish(*w);
    EXPECT_FALSE(w->recv(1).has_value()) << "a slot of an old pass read valid";
  }
  EXPECT_EQ(w->cpu(1).rq_head, n % (2 * w->slots_rq()));
  EXPECT_EQ(get32(w->node(0).line(w->l_sq_head())),
            World<typename TypeParam::V>::ptr_word(n % (2 * w->slots_sq()), w->slots_sq()));
}

TYPED_TEST(CniQueue, MoreMessagesMadeReadyThanTheQueueHoldsIsAnOverrun) {
  auto w = this->make(2);
  w->open(0);
  w->wr(0, reg::kTxReady, w->slots_sq() + 1);
  EXPECT_EQ(w->counter(0, Cnt::TxOverrun), 1u);
}

template <class T>
class CniNi2w : public CniEngine<T> {};
using Ni2wModels = ::testing::Types<Ni2wL64, Ni2wL128>;
TYPED_TEST_SUITE(CniNi2w, Ni2wModels, Names);

TYPED_TEST(CniNi2w, DataWithNoMessageStartedIsStray) {
  auto w = this->make(2);
  w->open(0);
  w->wr(0, reg::kTxData, 1);
  w->rd(0, reg::kRxData);
  EXPECT_EQ(w->counter(0, Cnt::TxStray), 1u);
  EXPECT_EQ(w->counter(0, Cnt::RxStray), 1u);
  EXPECT_EQ(w->rd(0, reg::kRxHdr), 0u);   // not valid
}

TYPED_TEST(CniNi2w, AHeaderBeforeTheLastDataWordDropsTheMessageInProgress) {
  auto w = this->make(2);
  w->open(0);
  w->open(1);
  w->wr(0, reg::kTxHdr, 16 | 1u << 16);  // 16 bytes to node 1
  w->wr(0, reg::kTxData, 0x1111);        // one word of two
  Msg m = this->msg(0, 1, 8, 5);
  ASSERT_TRUE(w->send(0, m));
  w->expect(m);
  this->finish(*w);
  EXPECT_EQ(w->counter(0, Cnt::TxBadLen), 1u);
  EXPECT_EQ(w->counter(0, Cnt::TxFrames), 1u);
}

}  // namespace
}  // namespace cni::tb::cq

namespace cni::tb::cq {
namespace {

// Go-back-N (Retransmit = 1, CTRL.retransmit on; docs/cni.md section 6): frames the network
// loses or corrupts are sent again from the oldest unacknowledged one, the receiver drops frames
// ahead of the one it expects, and every message arrives exactly once, in order.
template <class T>
class CniRetransmit : public CniEngine<T> {
 protected:
  static constexpr uint8_t kTypeData = 0x02, kTypeAck = 0x03;
  static constexpr uint32_t kTimeout = 400;  // cycles (the harness's frames take 40 one way)
  void open_gbn(typename CniEngine<T>::W& w, unsigned n) {
    w.wr(n, reg::kTimers, (w.rd(n, reg::kTimers) & 0xffffffffu) | uint64_t(kTimeout) << 32);
    w.wr(n, reg::kCtrl, 1 | 2);
    ASSERT_EQ(w.rd(n, reg::kCtrl) & 3, 3u) << "node " << n << ": open, retransmitting";
  }
};
using RetransmitModels = ::testing::Types<Q16RtL64>;
TYPED_TEST_SUITE(CniRetransmit, RetransmitModels, Names);

// The third and fourth data frames and the second ack are lost, the sixth data frame's FCS fails:
// all 20 messages arrive once, in order; frames were sent again and frames ahead were dropped.
TYPED_TEST(CniRetransmit, LostAndCorruptedFramesAreSentAgainAndArriveOnceInOrder) {
  auto w = this->make(2);
  this->open_gbn(*w, 0);
  this->open_gbn(*w, 1);
  unsigned data = 0, acks = 0;
  w->on_frame = [&](unsigned, unsigned, std::vector<uint8_t>& f, bool& bad) {
    if (f[6] == this->kTypeData) {
      ++data;
      if (data == 6) bad = true;
      return data != 3 && data != 4;
    }
    return !(f[6] == this->kTypeAck && ++acks == 2);
  };
  for (uint32_t t = 0; t < 20; t++) this->push(*w, this->msg(0, 1, 30 + 7 * t, t));
  this->finish(*w);
  EXPECT_GT(w->counter(0, Cnt::Retransmits), 0u);
  EXPECT_EQ(w->counter(0, Cnt::TxFrames), 20u + w->counter(0, Cnt::Retransmits));
  EXPECT_EQ(w->counter(1, Cnt::RxFrames), 20u);
  EXPECT_GT(w->counter(1, Cnt::RxSeq), 0u);
  EXPECT_EQ(w->counter(1, Cnt::RxBadFcs), 1u);
  EXPECT_EQ(w->counter(1, Cnt::RxGap), 0u);
}

// Three nodes sending to each other at random while the network loses 10% of all frames (data
// and acks) and corrupts 3%: every message arrives exactly once, in order per pair, and the
// engines go idle when the last one is acknowledged.
TYPED_TEST(CniRetransmit, RandomLossAmongThreeNodesIsExactlyOnceInOrder) {
  auto w = this->make(3);
  for (unsigned n = 0; n < 3; n++) this->open_gbn(*w, n);
  std::mt19937 rng(11);
  unsigned lost = 0;
  w->on_frame = [&](unsigned, unsigned, std::vector<uint8_t>&, bool& bad) {
    const unsigned r = rng() % 100;
    if (r < 3) bad = true;
    if (r >= 3 && r < 13) {
      lost++;
      return false;
    }
    return true;
  };
  uint32_t tag = 0;
  for (unsigned i = 0; i < 150; i++) {
    const unsigned src = rng() % 3, dst = (src + 1 + rng() % 2) % 3;
    this->push(*w, this->msg(src, dst, rng() % (kMaxLen + 1), tag++));
    if (rng() % 3 == 0) this->drain_all(*w);
    w->run(rng() % 30);
  }
  this->finish(*w, 2000000);
  unsigned retx = 0, rx = 0;
  for (unsigned n = 0; n < 3; n++) {
    retx += w->counter(n, Cnt::Retransmits);
    rx += w->counter(n, Cnt::RxFrames);
    EXPECT_EQ(w->counter(n, Cnt::RxGap), 0u) << "node " << n;
  }
  EXPECT_EQ(rx, 150u);
  EXPECT_GT(lost, 0u);
  EXPECT_GT(retx, 0u);
}

// Built with Retransmit but CTRL.retransmit clear: the engine behaves as without it (a lost
// frame is a gap, later frames keep order), and CTRL reads the bit back clear.
TYPED_TEST(CniRetransmit, OffByDefaultALostFrameIsAGap) {
  auto w = this->make(2);
  w->open(0);
  w->open(1);
  EXPECT_EQ(w->rd(0, reg::kCtrl) & 2, 0u);
  unsigned data = 0;
  w->on_frame = [&](unsigned, unsigned, std::vector<uint8_t>& f, bool&) {
    return !(f[6] == this->kTypeData && ++data == 2);
  };
  std::vector<Msg> sent, got;
  for (uint32_t t = 0; t < 5; t++) {
    Msg m = this->msg(0, 1, 20, t);
    while (!w->send(0, m)) {
      while (auto r = w->recv(1)) got.push_back(*r);
      w->step();
    }
    sent.push_back(m);
  }
  while (got.size() < 4) {
    while (auto r = w->recv(1)) got.push_back(*r);
    w->step();
  }
  ASSERT_TRUE(w->settle());
  sent.erase(sent.begin() + 1);
  EXPECT_EQ(got, sent);
  EXPECT_EQ(w->counter(1, Cnt::RxGap), 1u);
  EXPECT_EQ(w->counter(0, Cnt::Retransmits), 0u);
}

}  // namespace
}  // namespace cni::tb::cq
