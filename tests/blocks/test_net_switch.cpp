// SPDX-License-Identifier: Apache-2.0
// rtl/net/cni_net_switch.sv over its parameter sets (tb/rtl_blocks.cmake), at the registry's
// engine count, against a reference of the switch every cycle. Out: one engine's frame at a time,
// whole, the engines taking turns (round robin from the one after the last frame's sender); a
// frame's first beat, once offered, keeps its engine until its last beat is taken. In: a frame
// goes beat by beat to the engine that owns its type (header byte 6 of the first beat,
// cni_amap_pkg::net_owner) under that engine's ready, or, with no owner or an absent one
// (Present), is taken, dropped and counted (a pulse of cnt_drop_o after its last beat).
// Channels (type bit 7): an engine's frame starts only when the MAC has room for its channel
// (tx_room_i); a received frame goes under its owner's ready for its channel, and rx_room_o is
// set for a channel when every present owner of a type of it has that ready.
#include <deque>
#include <vector>

#include "Vcni_net_switch_nb64_no1.h"
#include "Vcni_net_switch_nb8_all.h"
#include "block_bench.hpp"
#include "cni/engines.hpp"

namespace cni::tb::blocks {

#define CNI_NET_SWITCH_SET(s)                                                \
  struct NetSwitch_##s {                                                     \
    using M = Vcni_net_switch_##s;                                           \
    static constexpr const char* kName = #s;                                 \
    static constexpr unsigned kNetBytes = CNI_BLK_net_switch_##s##_NetBytes; \
    static constexpr unsigned kPresent = CNI_BLK_net_switch_##s##_Present;   \
  };
CNI_NET_SWITCH_SET(nb8_all)
CNI_NET_SWITCH_SET(nb64_no1)
#undef CNI_NET_SWITCH_SET

namespace {

inline constexpr unsigned NE = engines::kNumEngines;

// The engine that owns frames of type t, NE for none (the registry's, as cni_amap_pkg's).
using engines::net_owner;

struct Beat {
  Bits data, keep;
  bool last = false, user = false;
  uint64_t dest = 0;
};
struct Frame {
  unsigned to = NE;  // received frames: the engine it is for (NE: dropped)
  std::vector<Beat> beats;
};

template <class S>
class NetSwitch : public BlockBench<S> {
 protected:
  static constexpr unsigned NB = S::kNetBytes;
  static constexpr unsigned NW = NB * 8;

  void SetUp() override {
    BlockBench<S>::SetUp();
    auto& m = *this->m_;
    m.m_axis_net_tready_i = 0;
    m.s_axis_net_tvalid_i = 0;
    m.eb_ntx_valid_i = 0;
    m.eb_nrx_ready_i = 0;
    m.tx_room_i = 0;
    noise();
    this->reset();
  }

  Frame random_frame(uint8_t type) {
    Frame f;
    const unsigned beats = 1 + this->pick(3);
    const uint64_t dest = this->pick(1u << 16);
    for (unsigned b = 0; b < beats; ++b) {
      Beat x;
      x.data = random_bits(this->rng_, NW);
      x.keep = random_bits(this->rng_, NB);
      x.last = b + 1 == beats;
      x.user = x.last && this->chance(0.2);
      x.dest = dest;
      f.beats.push_back(x);
    }
    put64(f.beats[0].data, 6 * 8, 8, type);
    const unsigned owner = net_owner(type);
    f.to = owner < NE && ((S::kPresent >> owner) & 1) ? owner : NE;
    return f;
  }
  void present_tx(unsigned k, const Beat& b) {
    auto& m = *this->m_;
    put(m.eb_ntx_data_i, k * NW, NW, b.data);
    put(m.eb_ntx_keep_i, k * NB, NB, b.keep);
    put64(m.eb_ntx_dest_i, k * 16, 16, b.dest);
    set_bit(m.eb_ntx_last_i, k, b.last);
  }
  void present_rx(const Beat& b) {
    auto& m = *this->m_;
    put(m.s_axis_net_tdata_i, 0, NW, b.data);
    put(m.s_axis_net_tkeep_i, 0, NB, b.keep);
    m.s_axis_net_tlast_i = b.last;
    m.s_axis_net_tuser_i = b.user;
  }
  // Sides not offering a beat drive noise on its fields.
  void noise() {
    const auto& m = *this->m_;
    for (unsigned k = 0; k < NE; ++k) {
      if (!((m.eb_ntx_valid_i >> k) & 1)) present_tx(k, random_frame(this->pick(256)).beats[0]);
    }
    if (!m.s_axis_net_tvalid_i) present_rx(random_frame(this->pick(256)).beats[0]);
  }

  // After settle(): both directions agree with the reference. Returns the transmit choice.
  unsigned check(const char* where) {
    const auto& m = *this->m_;
    const auto at = [&] { return std::string(where) + ", cycle " + std::to_string(this->cycle_); };
    unsigned sel = tx_own_;
    bool any = false;
    if (!tx_busy_) {
      for (unsigned i = NE; i-- > 0;) {
        const unsigned k = (tx_rr_ + i) % NE;
        const unsigned ch = get64(m.eb_ntx_data_i, k * NW + 6 * 8 + 7, 1);
        if (((m.eb_ntx_valid_i >> k) & 1) && ((m.tx_room_i >> ch) & 1)) sel = k, any = true;
      }
      if (!any) sel = 0;
    }
    const bool go = tx_busy_ || any;
    const bool tvalid = go && ((m.eb_ntx_valid_i >> sel) & 1);
    EXPECT_EQ(bool(m.m_axis_net_tvalid_o), tvalid) << at();
    EXPECT_EQ(unsigned(m.eb_ntx_ready_o), go && m.m_axis_net_tready_i ? 1u << sel : 0u) << at();
    if (tvalid) {
      const Beat& b = tx_[sel].front().beats[tx_beat_[sel]];
      EXPECT_EQ(get(m.m_axis_net_tdata_o, 0, NW), b.data) << at() << ", engine " << sel;
      EXPECT_EQ(get(m.m_axis_net_tkeep_o, 0, NB), b.keep) << at();
      EXPECT_EQ(bool(m.m_axis_net_tlast_o), b.last) << at();
      EXPECT_EQ(unsigned(m.m_axis_net_tdest_o), b.dest) << at();
    }
    const unsigned type = get64(m.s_axis_net_tdata_i, 6 * 8, 8);
    const unsigned owner = net_owner(static_cast<uint8_t>(type));
    const unsigned head = owner < NE && ((S::kPresent >> owner) & 1) ? owner : NE;
    rx_to_ = rx_busy_ ? rx_own_ : head;
    rx_ch_ = rx_busy_ ? rx_ch_ : (type >> 7);
    const bool drop = rx_to_ >= NE;
    EXPECT_EQ(unsigned(m.eb_nrx_valid_o), !drop && m.s_axis_net_tvalid_i ? 1u << rx_to_ : 0u)
        << at();
    EXPECT_EQ(bool(m.s_axis_net_tready_o),
              drop || ((m.eb_nrx_ready_i >> (2 * rx_to_ + rx_ch_)) & 1))
        << at();
    EXPECT_EQ(unsigned(m.nrx_chan_o), rx_ch_) << at();
    EXPECT_EQ(unsigned(m.rx_room_o), room()) << at();
    EXPECT_EQ(get(m.nrx_data_o, 0, NW), get(m.s_axis_net_tdata_i, 0, NW)) << at();
    EXPECT_EQ(get(m.nrx_keep_o, 0, NB), get(m.s_axis_net_tkeep_i, 0, NB)) << at();
    EXPECT_EQ(m.nrx_last_o, m.s_axis_net_tlast_i) << at();
    EXPECT_EQ(m.nrx_user_o, m.s_axis_net_tuser_i) << at();
    EXPECT_EQ(bool(m.cnt_drop_o), drop_pulse_) << at();
    EXPECT_EQ(bool(m.idle_o), !tx_busy_ && !rx_busy_ && !drop_pulse_) << at();
    return sel;
  }

  // The channels a frame may start on: every present owner of a type of the channel has its
  // ready for it.
  unsigned room() const {
    unsigned r = 3;
    for (unsigned t = 0; t < 256; ++t) {
      const unsigned k = net_owner(uint8_t(t));
      if (k < NE && ((S::kPresent >> k) & 1) &&
          !((this->m_->eb_nrx_ready_i >> (2 * k + t / 128)) & 1))
        r &= ~(1u << (t / 128));
    }
    return r;
  }

  // The edge: beats transferred, the reference and the scoreboards updated.
  void step(unsigned sel) {
    auto& m = *this->m_;
    const bool tvalid = m.m_axis_net_tvalid_o;
    const bool tx_fire = tvalid && m.m_axis_net_tready_i;
    const bool tlast = m.m_axis_net_tlast_o;
    const bool rx_fire = m.s_axis_net_tvalid_i && m.s_axis_net_tready_o;
    const bool rlast = m.s_axis_net_tlast_i;
    const bool drop = rx_to_ >= NE;
    if (tx_fire) {
      // The MAC sees whole frames: no beat of another engine inside one.
      if (mac_from_ >= 0) {
        EXPECT_EQ(int(sel), mac_from_) << "frames interleaved";
      }
      mac_from_ = tlast ? -1 : int(sel);
      if (tlast) sent_order_.push_back(sel), ++sent_;
    }
    if (rx_fire) {
      const Frame& f = rx_.front();
      EXPECT_EQ(rx_to_, f.to) << "a beat of a frame for " << f.to << " went to " << rx_to_;
    }
    // A MAC that offers a frame only on a channel with room never sees a beat of it stalled.
    if (mac_room_ && m.s_axis_net_tvalid_i) {
      EXPECT_TRUE(rx_fire) << "a beat stalled";
    }
    if (tvalid) {
      tx_busy_ = !(m.m_axis_net_tready_i && tlast);
      tx_own_ = sel;
      if (tx_fire && tlast) tx_rr_ = (sel + 1) % NE;
    }
    drop_pulse_ = rx_fire && rlast && drop;
    if (rx_fire) rx_busy_ = !rlast, rx_own_ = rx_to_;
    this->tick();
    if (tx_fire) {
      m.eb_ntx_valid_i &= ~(1u << sel);
      if (++tx_beat_[sel] == tx_[sel].front().beats.size()) tx_[sel].pop_front(), tx_beat_[sel] = 0;
    }
    if (rx_fire) {
      m.s_axis_net_tvalid_i = 0;
      if (++rx_beat_ == rx_.front().beats.size()) {
        (rx_.front().to < NE ? delivered_[rx_.front().to] : dropped_) += 1;
        rx_.pop_front();
        rx_beat_ = 0;
      }
    }
  }

  // One cycle of traffic: engines and the MAC offer beats at rate p_offer (gaps inside frames
  // too; an offer is held until taken and never looks at ready), new frames at rate p_frame;
  // the MAC takes at p_mac and has room on a channel at p_mac, the engines are ready on a channel
  // at p_eng. With mac_room_, the MAC offers a frame's first beat only on a channel with room
  // and an engine keeps its ready for a channel high while a frame of it comes in (as cni_net_rx
  // does).
  unsigned random_cycle(double p_frame, double p_offer, double p_mac, double p_eng) {
    auto& m = *this->m_;
    for (unsigned k = 0; k < NE; ++k) {
      if (tx_[k].empty() && this->chance(p_frame)) tx_[k].push_back(random_frame(this->pick(256)));
      if (!tx_[k].empty() && !((m.eb_ntx_valid_i >> k) & 1) && this->chance(p_offer)) {
        present_tx(k, tx_[k].front().beats[tx_beat_[k]]);
        m.eb_ntx_valid_i |= 1u << k;
      }
    }
    if (rx_.empty() && this->chance(p_frame)) {
      // Every type an engine owns, and types no engine owns.
      std::vector<uint8_t> types = {0x00, 0x7f, 0xff};
      for (unsigned t = 0; t < 256; ++t) {
        if (net_owner(uint8_t(t)) < NE) types.push_back(uint8_t(t));
      }
      rx_.push_back(random_frame(types[this->pick(unsigned(types.size()))]));
      ++offered_;
    }
    noise();
    m.m_axis_net_tready_i = this->chance(p_mac);
    m.tx_room_i = this->chance(p_mac) | (this->chance(p_mac) << 1);
    m.eb_nrx_ready_i = 0;
    for (unsigned j = 0; j < 2 * NE; ++j) m.eb_nrx_ready_i |= uint32_t(this->chance(p_eng)) << j;
    if (mac_room_ && rx_busy_ && rx_own_ < NE) m.eb_nrx_ready_i |= 1u << (2 * rx_own_ + rx_ch_);
    this->settle();
    if (!rx_.empty() && !m.s_axis_net_tvalid_i && this->chance(p_offer)) {
      const Beat& b = rx_.front().beats[rx_beat_];
      const unsigned ch = get64(b.data, 6 * 8 + 7, 1);
      if (!mac_room_ || rx_beat_ > 0 || ((m.rx_room_o >> ch) & 1)) {
        present_rx(b);
        m.s_axis_net_tvalid_i = 1;
      }
    }
    if (!m.s_axis_net_tvalid_i) noise();
    this->settle();
    return check("traffic");
  }

  // reference
  bool tx_busy_ = false, rx_busy_ = false, drop_pulse_ = false, mac_room_ = false;
  unsigned tx_own_ = 0, tx_rr_ = 0, rx_own_ = 0, rx_to_ = NE, rx_ch_ = 0;
  // stimulus and scoreboards
  std::deque<Frame> tx_[NE];
  unsigned tx_beat_[NE] = {};
  std::deque<Frame> rx_;
  unsigned rx_beat_ = 0;
  int mac_from_ = -1;
  std::vector<unsigned> sent_order_;
  unsigned sent_ = 0, offered_ = 0, dropped_ = 0, delivered_[NE] = {};
};

using NetSwitchSets = ::testing::Types<NetSwitch_nb8_all, NetSwitch_nb64_no1>;
TYPED_TEST_SUITE(NetSwitch, NetSwitchSets);

TYPED_TEST(NetSwitch, ResetLeavesItIdle) {
  this->settle();
  this->check("after reset");
  EXPECT_TRUE(this->m_->idle_o);
  EXPECT_FALSE(this->m_->m_axis_net_tvalid_o);
  EXPECT_EQ(unsigned(this->m_->eb_nrx_valid_o), 0u);
  EXPECT_FALSE(this->m_->cnt_drop_o);
}

TYPED_TEST(NetSwitch, FramesLeaveWholeAndArriveAtTheirOwnersUnderBackPressure) {
  const double rates[][4] = {{0.3, 0.7, 0.4, 0.5}, {0.8, 0.9, 0.9, 0.9}, {0.5, 0.4, 0.7, 0.2}};
  unsigned drop_pulses = 0;
  for (int c = 0; c < 6000; ++c) {
    const auto& r = rates[(c / 400) % 3];
    this->step(this->random_cycle(r[0], r[1], r[2], r[3]));
    drop_pulses += this->drop_pulse_;
    if (this->HasFailure()) return;
  }
  for (int c = 0; c < 1000; ++c) {
    this->step(this->random_cycle(0.0, 0.9, 0.9, 0.9));
    drop_pulses += this->drop_pulse_;
  }
  this->settle();
  this->check("drained");
  for (unsigned k = 0; k < NE; ++k) EXPECT_TRUE(this->tx_[k].empty()) << "engine " << k;
  EXPECT_TRUE(this->rx_.empty());
  unsigned delivered = 0;
  for (unsigned k = 0; k < NE; ++k) delivered += this->delivered_[k];
  EXPECT_EQ(delivered + this->dropped_, this->offered_);
  EXPECT_EQ(drop_pulses, this->dropped_) << "one cnt_drop_o pulse per dropped frame";
  EXPECT_GT(this->dropped_, 0u);
  for (unsigned k = 0; k < NE; ++k) {
    bool owns = false;
    for (unsigned t = 0; t < 256; ++t) owns = owns || net_owner(uint8_t(t)) == k;
    if (owns && ((TypeParam::kPresent >> k) & 1)) {
      EXPECT_GT(this->delivered_[k], 0u) << k;
    }
    if (!((TypeParam::kPresent >> k) & 1)) {
      EXPECT_EQ(this->delivered_[k], 0u) << k;
    }
  }
  EXPECT_GT(this->sent_, 100u);
}

TYPED_TEST(NetSwitch, AFrameOfferedOnAChannelWithRoomIsTakenWithoutAStall) {
  // The MAC offers a frame only on a channel rx_room_o names: no beat of it waits, whichever
  // engines are ready for which channels.
  this->mac_room_ = true;
  for (int c = 0; c < 4000; ++c) {
    this->step(this->random_cycle(0.6, 0.8, 0.7, 0.5));
    if (this->HasFailure()) return;
  }
  for (int c = 0; c < 1000; ++c) this->step(this->random_cycle(0.0, 0.9, 0.9, 0.9));
  EXPECT_TRUE(this->rx_.empty());
  unsigned delivered = 0;
  for (unsigned k = 0; k < NE; ++k) delivered += this->delivered_[k];
  EXPECT_EQ(delivered + this->dropped_, this->offered_);
  EXPECT_GT(delivered, 100u);
}

TYPED_TEST(NetSwitch, AFrameWaitsForRoomOnItsChannelAndTheOtherChannelPasses) {
  // Engine 0 offers a request frame and the owner of the replies a reply; the MAC has room only
  // for replies: the reply leaves, the request waits, then leaves once its channel has room.
  auto& m = *this->m_;
  unsigned rsp_owner = NE;
  uint8_t rsp_type = 0;
  for (unsigned t = 128; t < 256 && rsp_owner == NE; ++t) {
    if (net_owner(uint8_t(t)) < NE) rsp_owner = net_owner(uint8_t(t)), rsp_type = uint8_t(t);
  }
  ASSERT_LT(rsp_owner, NE) << "no engine owns a reply type";
  const unsigned req_from = rsp_owner == 0 ? 1 : 0;
  this->tx_[req_from].push_back(this->random_frame(0x00));
  this->tx_[rsp_owner].push_back(this->random_frame(rsp_type));
  m.m_axis_net_tready_i = 1;
  m.tx_room_i = 2;
  unsigned cycles = 0;
  while (!this->tx_[rsp_owner].empty() && cycles++ < 20) {
    for (unsigned k : {req_from, rsp_owner}) {
      if (!this->tx_[k].empty()) {
        this->present_tx(k, this->tx_[k].front().beats[this->tx_beat_[k]]);
        m.eb_ntx_valid_i |= 1u << k;
      }
    }
    this->settle();
    this->step(this->check("reply room only"));
  }
  EXPECT_TRUE(this->tx_[rsp_owner].empty()) << "the reply did not leave";
  EXPECT_EQ(this->tx_[req_from].size(), 1u) << "the request left without room";
  m.tx_room_i = 1;
  cycles = 0;
  while (!this->tx_[req_from].empty() && cycles++ < 20) {
    this->present_tx(req_from, this->tx_[req_from].front().beats[this->tx_beat_[req_from]]);
    m.eb_ntx_valid_i |= 1u << req_from;
    this->settle();
    this->step(this->check("request room"));
  }
  EXPECT_TRUE(this->tx_[req_from].empty()) << "the request did not leave";
  EXPECT_EQ(this->sent_order_, (std::vector<unsigned>{rsp_owner, req_from}));
}

TYPED_TEST(NetSwitch, EnginesThatAlwaysHaveAFrameTakeTurns) {
  // Every engine offers a frame in every cycle, the MAC takes every beat: the frames leave
  // engine 0, 1, 2, 0, 1, 2, ...
  for (int c = 0; c < 300; ++c) this->step(this->random_cycle(1.0, 1.0, 1.0, 1.0));
  ASSERT_GT(this->sent_order_.size(), 3u * NE);
  for (size_t i = 0; i < this->sent_order_.size(); ++i) {
    EXPECT_EQ(this->sent_order_[i], i % NE) << "frame " << i;
  }
}

}  // namespace
}  // namespace cni::tb::blocks
