// SPDX-License-Identifier: Apache-2.0
// rtl/nic/cni_nic_datapath.sv (docs/nic.md), 512-bit beats, 16 KiB buffers each way, a frame
// table of 16 (tb/rtl_blocks.cmake): every length through both directions at a beat a cycle and
// the line rate it gives at 322 and 250 MHz, receive overflow dropping whole frames, runt,
// oversize, bad-FCS and bad-keep frames dropped and counted, the transmit side holding the host
// back instead of dropping and sending every frame without a gap.
#include <algorithm>
#include <deque>
#include <vector>

#include "Vcni_nic_datapath_b64.h"
#include "block_bench.hpp"

namespace cni::tb::blocks {

struct Nic_b64 {
  using M = Vcni_nic_datapath_b64;
  static constexpr const char* kName = "b64";
  static constexpr unsigned kBytes = CNI_BLK_nic_datapath_b64_Bytes;
  static constexpr unsigned kRxBeats = CNI_BLK_nic_datapath_b64_RxBeats;
  static constexpr unsigned kFrames = CNI_BLK_nic_datapath_b64_Frames;
  static constexpr unsigned kMin = CNI_BLK_nic_datapath_b64_MinBytes;
  static constexpr unsigned kMax = CNI_BLK_nic_datapath_b64_MaxBytes;
};

namespace {

constexpr unsigned kB = Nic_b64::kBytes;

using Bytes = std::vector<uint8_t>;

struct Beat {
  Bits data = Bits(kB / 8, 0);
  uint64_t keep = ~uint64_t{0};
  bool last = false;
  bool user = false;
};

// The beats of a frame; `user` on its last beat; `hole` clears a keep bit of its first beat
// (before the last: a malformed keep).
std::vector<Beat> beats_of(const Bytes& f, bool user = false, bool hole = false) {
  std::vector<Beat> out;
  for (size_t at = 0; at < f.size(); at += kB) {
    Beat b;
    const size_t n = std::min<size_t>(kB, f.size() - at);
    for (size_t i = 0; i < n; ++i) b.data[i / 8] |= uint64_t{f[at + i]} << (8 * (i % 8));
    b.keep = n == kB ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    b.last = at + kB >= f.size();
    b.user = b.last && user;
    out.push_back(b);
  }
  if (hole) out.front().keep &= ~uint64_t{2};
  return out;
}

// Counter pulses summed.
struct Counts {
  uint64_t frames = 0, runt = 0, oversize = 0, bad = 0, overflow = 0, bad_keep = 0;
};

// What a stream's consumer saw: frames, the cycle of each first beat, and any rule broken.
struct Sink {
  std::vector<Bytes> frames;
  std::vector<uint64_t> starts;
  Bytes cur;
  bool in_frame = false;
  unsigned len = 0;
  unsigned gaps = 0;  // cycles inside a frame without a beat while the consumer was ready
  std::vector<std::string> errors;
  void beat(uint64_t cycle, const Bits& data, uint64_t keep, bool last, int flen) {
    if (!in_frame) {
      starts.push_back(cycle);
      in_frame = true;
      len = flen < 0 ? 0 : static_cast<unsigned>(flen);
    }
    if (flen >= 0 && static_cast<unsigned>(flen) != len) errors.push_back("len changed in a frame");
    const bool full = keep == ~uint64_t{0};
    const bool contiguous = keep != 0 && (keep & (keep + 1)) == 0;
    if (!(full || (last && contiguous))) errors.push_back("bad tkeep");
    for (unsigned i = 0; i < kB; ++i) {
      if ((keep >> i) & 1) cur.push_back(static_cast<uint8_t>(data[i / 8] >> (8 * (i % 8))));
    }
    if (last) {
      if (flen >= 0 && cur.size() != len) errors.push_back("len is not the frame's length");
      frames.push_back(std::move(cur));
      cur.clear();
      in_frame = false;
    }
  }
};

class NicBench : public BlockBench<Nic_b64> {
 protected:
  Bytes frame(unsigned n) {
    Bytes f(n);
    for (auto& b : f) b = static_cast<uint8_t>(rng_());
    return f;
  }
  void push_rx(const Bytes& f, bool user = false, bool hole = false) {
    for (const Beat& b : beats_of(f, user, hole)) rx_q.push_back(b);
  }
  void push_tx(const Bytes& f, bool user = false, bool hole = false) {
    for (const Beat& b : beats_of(f, user, hole)) tx_q.push_back(b);
  }
  // One cycle: the MAC's receive beat (if any: it is taken, there is no tready), the host's
  // transmit beat (if tready), the two consumers' ready, the counters.
  void cycle() {
    M& m = *m_;
    m.mac_rx_tvalid_i = !rx_q.empty() && !rx_pause;
    if (!rx_q.empty()) {
      put(m.mac_rx_tdata_i, 0, kB * 8, rx_q.front().data);
      m.mac_rx_tkeep_i = rx_q.front().keep;
      m.mac_rx_tlast_i = rx_q.front().last;
      m.mac_rx_tuser_i = rx_q.front().user;
    }
    m.host_tx_tvalid_i = !tx_q.empty();
    if (!tx_q.empty()) {
      put(m.host_tx_tdata_i, 0, kB * 8, tx_q.front().data);
      m.host_tx_tkeep_i = tx_q.front().keep;
      m.host_tx_tlast_i = tx_q.front().last;
      m.host_tx_tuser_i = tx_q.front().user;
    }
    const bool host_ready = host_rx_stall == 0.0 || !chance(host_rx_stall);
    const bool mac_ready = mac_tx_stall == 0.0 || !chance(mac_tx_stall);
    m.host_rx_tready_i = host_ready && !host_rx_hold;
    m.mac_tx_tready_i = mac_ready;
    settle();
    if (m.mac_rx_tvalid_i) {
      if (rx_q.front().last) rx_in_last.push_back(cycle_);
      rx_q.pop_front();
    }
    if (m.host_tx_tvalid_i && m.host_tx_tready_o) {
      if (tx_q.front().last) tx_in_last.push_back(cycle_);
      tx_q.pop_front();
    }
    if (m.host_tx_tvalid_i && !m.host_tx_tready_o) ++tx_held;
    if (m.host_rx_tvalid_o && m.host_rx_tready_i) {
      host_rx.beat(cycle_, get(m.host_rx_tdata_o, 0, kB * 8), m.host_rx_tkeep_o, m.host_rx_tlast_o,
                   m.host_rx_len_o);
    }
    if (mac_tx.in_frame && !m.mac_tx_tvalid_o && m.mac_tx_tready_i) ++mac_tx.gaps;
    if (m.mac_tx_tvalid_o && m.mac_tx_tready_i) {
      mac_tx.beat(cycle_, get(m.mac_tx_tdata_o, 0, kB * 8), m.mac_tx_tkeep_o, m.mac_tx_tlast_o, -1);
    }
    rx.frames += m.rx_cnt_frames_o;
    rx.runt += m.rx_cnt_runt_o;
    rx.oversize += m.rx_cnt_oversize_o;
    rx.bad += m.rx_cnt_bad_fcs_o;
    rx.overflow += m.rx_cnt_overflow_o;
    rx.bad_keep += m.rx_cnt_bad_keep_o;
    tx.frames += m.tx_cnt_frames_o;
    tx.runt += m.tx_cnt_runt_o;
    tx.oversize += m.tx_cnt_oversize_o;
    tx.bad += m.tx_cnt_aborted_o;
    tx.bad_keep += m.tx_cnt_bad_keep_o;
    tick();
  }
  // Cycles until both inputs are empty and the datapath is idle (at most `limit`).
  void drain(uint64_t limit = 2'000'000) {
    const uint64_t end = cycle_ + limit;
    while (cycle_ < end) {
      cycle();
      if (rx_q.empty() && tx_q.empty() && m_->idle_o) break;
    }
    ASSERT_TRUE(m_->idle_o) << "not idle after " << limit << " cycles";
    EXPECT_TRUE(host_rx.errors.empty()) << host_rx.errors.front();
    EXPECT_TRUE(mac_tx.errors.empty()) << mac_tx.errors.front();
  }

  std::deque<Beat> rx_q, tx_q;
  bool rx_pause = false, host_rx_hold = false;
  double host_rx_stall = 0.0, mac_tx_stall = 0.0;
  uint64_t tx_held = 0;
  std::vector<uint64_t> rx_in_last, tx_in_last;  // the cycle each frame's last beat went in
  Sink host_rx, mac_tx;
  Counts rx, tx;
};

unsigned beats(size_t n) { return static_cast<unsigned>((n + kB - 1) / kB); }

}  // namespace

// Every length from 60 to 9,596 bytes (64 to 9,600 with the FCS), back to back, both ways at
// once: every frame intact and in order, taken a beat a cycle and none dropped, no gap inside a
// transmitted frame, and the output never idle while a whole frame waits: a frame starts as
// soon as the frame before it has left and its own last beat is in (store and forward: a
// frame one beat longer than the one before it cannot follow it at once). From
// the beats a frame takes, the lengths whose line rate (100 Gb/s, 20 bytes of preamble and gap)
// the datapath does not hold at 322.27 and 250 MHz.
TEST_F(NicBench, EveryLengthPassesBothWaysAtABeatACycleAndTheLineRateItHolds) {
  reset();
  std::vector<Bytes> sent;
  for (unsigned n = Nic_b64::kMin; n <= Nic_b64::kMax; ++n) {
    sent.push_back(frame(n));
    push_rx(sent.back());
    push_tx(sent.back());
  }
  drain();
  ASSERT_EQ(host_rx.frames.size(), sent.size());
  ASSERT_EQ(mac_tx.frames.size(), sent.size());
  EXPECT_TRUE(host_rx.frames == sent);
  EXPECT_TRUE(mac_tx.frames == sent);
  EXPECT_EQ(rx.frames, sent.size());
  EXPECT_EQ(tx.frames, sent.size());
  EXPECT_EQ(mac_tx.gaps, 0u);
  EXPECT_EQ(rx_in_last.back() + 1 - rx_in_last.front(), [&] {
    uint64_t n = 0;
    for (size_t i = 1; i < sent.size(); ++i) n += beats(sent[i].size());
    return n + 1;
  }()) << "the receive side did not take a beat every cycle";
  unsigned late = 0, bubbles = 0;
  for (const auto& [out, in] :
       {std::pair{&host_rx, &rx_in_last}, std::pair{&mac_tx, &tx_in_last}}) {
    const uint64_t lat = out->starts[0] - (*in)[0];  // the first frame: last beat in -> out
    EXPECT_LE(lat, 4u);
    for (size_t i = 1; i < sent.size(); ++i) {
      const uint64_t want =
          std::max(out->starts[i - 1] + beats(sent[i - 1].size()), (*in)[i] + lat);
      late += out->starts[i] != want;
      bubbles += want != out->starts[i - 1] + beats(sent[i - 1].size());
    }
  }
  EXPECT_EQ(late, 0u) << "frames that waited with the output free";
  std::printf("[ spacing  ] %u frame starts waited for their last beat (store and forward)\n",
              bubbles);
  // Line rate: a frame of L bytes with its FCS every (L + 20) * 0.08 ns at 100 Gb/s.
  for (const double mhz : {322.265625, 250.0}) {
    std::vector<unsigned> fail;
    for (unsigned n = Nic_b64::kMin; n <= Nic_b64::kMax; ++n) {
      const double line_ns = (n + 4 + 20) * 8 / 100.0;
      if (beats(n) * 1000.0 / mhz > line_ns) fail.push_back(n + 4);
    }
    std::printf("[ line rate] %.2f MHz: %zu of %u lengths below 100 Gb/s", mhz, fail.size(),
                Nic_b64::kMax - Nic_b64::kMin + 1);
    if (!fail.empty()) std::printf(", %u to %u bytes with the FCS", fail.front(), fail.back());
    std::printf("\n");
    if (mhz > 300) {
      EXPECT_TRUE(fail.empty());
    } else {
      std::vector<unsigned> want;
      for (unsigned l = 69; l <= 79; ++l) want.push_back(l);
      EXPECT_EQ(fail, want);
    }
  }
}

// The host side stalls while frames keep arriving: frames that find the buffer or the frame
// table full are dropped whole and counted; every frame delivered is one that was sent, intact,
// in order, and sent = delivered + dropped.
TEST_F(NicBench, ReceiveOverflowDropsWholeFramesAndNeverCorruptsANeighbour) {
  reset();
  std::vector<Bytes> sent;
  for (unsigned i = 0; i < 400; ++i) {
    sent.push_back(frame(i % 3 == 0 ? 60 + pick(100) : 60 + pick(3000)));
    push_rx(sent.back());
  }
  host_rx_hold = true;
  for (unsigned c = 0; c < 3000; ++c) cycle();
  host_rx_hold = false;
  host_rx_stall = 0.7;  // then a slow host
  drain();
  EXPECT_GT(rx.overflow, 0u);
  EXPECT_EQ(rx.frames + rx.overflow, sent.size());
  EXPECT_EQ(host_rx.frames.size(), rx.frames);
  // The delivered frames are a subsequence of the sent ones.
  size_t j = 0;
  for (const Bytes& f : host_rx.frames) {
    while (j < sent.size() && sent[j] != f) ++j;
    ASSERT_LT(j, sent.size()) << "a delivered frame that was not sent (or out of order)";
    ++j;
  }
  EXPECT_EQ(rx.runt + rx.oversize + rx.bad + rx.bad_keep, 0u);
}

// Bad frames among good ones, both ways: each dropped whole and counted by its cause, the good
// ones delivered intact and in order.
TEST_F(NicBench, RuntOversizeBadFcsAndBadKeepFramesAreDroppedAndCounted) {
  reset();
  std::vector<Bytes> good;
  auto good_one = [&] {
    good.push_back(frame(60 + pick(2000)));
    push_rx(good.back());
    push_tx(good.back());
  };
  auto both = [&](const Bytes& f, bool user, bool hole) {
    push_rx(f, user, hole);
    push_tx(f, user, hole);
  };
  good_one();
  both(frame(59), false, false);  // runt
  good_one();
  both(frame(1), false, false);  // runt
  good_one();
  both(frame(Nic_b64::kMax + 1), false, false);  // oversize
  good_one();
  both(frame(12000), false, false);  // oversize
  good_one();
  both(frame(1500), true, false);  // bad FCS (receive), abort (transmit)
  good_one();
  both(frame(30), true, false);  // bad FCS and runt: counted once, as bad FCS
  good_one();
  both(frame(700), false, true);  // a hole in a beat before the last
  good_one();
  Bytes odd = frame(200);  // a last beat whose keep is not contiguous
  auto bb = beats_of(odd);
  bb.back().keep = 0b1011;
  for (const Beat& b : bb) {
    rx_q.push_back(b);
    tx_q.push_back(b);
  }
  good_one();
  drain();
  EXPECT_TRUE(host_rx.frames == good);
  EXPECT_TRUE(mac_tx.frames == good);
  for (const Counts* c : {&rx, &tx}) {
    EXPECT_EQ(c->frames, good.size());
    EXPECT_EQ(c->runt, 2u);
    EXPECT_EQ(c->oversize, 2u);
    EXPECT_EQ(c->bad, 2u);
    EXPECT_EQ(c->bad_keep, 2u);
    EXPECT_EQ(c->overflow, 0u);
  }
}

// The MAC stalls at random while the host sends more than the buffer holds: the transmit side
// holds the host back (tready low) and drops nothing; every frame leaves intact and in order.
TEST_F(NicBench, TransmitHoldsTheHostBackInsteadOfDropping) {
  reset();
  std::vector<Bytes> sent;
  for (unsigned i = 0; i < 120; ++i) {
    sent.push_back(frame(60 + pick(Nic_b64::kMax - 60)));
    push_tx(sent.back());
  }
  mac_tx_stall = 0.3;
  drain();
  EXPECT_TRUE(mac_tx.frames == sent);
  EXPECT_EQ(tx.frames, sent.size());
  EXPECT_EQ(tx.overflow, 0u);
  EXPECT_GT(tx_held, 0u);
}

// Small frames, more than the frame table holds, with the host stalled: the table fills before
// the buffer, and the receive side drops on it; then everything held comes out.
TEST_F(NicBench, TheFrameTableFullDropsLikeTheBufferFull) {
  reset();
  host_rx_hold = true;
  std::vector<Bytes> sent;
  for (unsigned i = 0; i < 3 * Nic_b64::kFrames; ++i) {
    sent.push_back(frame(60));
    push_rx(sent.back());
  }
  for (unsigned c = 0; c < 200; ++c) cycle();
  // The table's frames and the four one-beat frames already read into the output queue.
  const unsigned held = Nic_b64::kFrames + 4;
  EXPECT_EQ(rx.frames, held);
  EXPECT_EQ(rx.overflow, sent.size() - held);
  host_rx_hold = false;
  drain();
  ASSERT_EQ(host_rx.frames.size(), held);
  for (unsigned i = 0; i < held; ++i) EXPECT_EQ(host_rx.frames[i], sent[i]);
}

}  // namespace cni::tb::blocks
