// SPDX-License-Identifier: Apache-2.0
// rtl/nic/cni_nic_eci.sv (docs/nic.md, "Coherent PIO interface"): the NIC datapath with its
// coherent-PIO interface (cni_nic_coh) at 128-byte lines (tb/rtl_blocks.cmake), driven as the
// PIO engine drives it: messages offered as line-wide (a) beats (the message's length on each)
// come out of the MAC's transmit stream as frames, a beat a cycle; frames from the MAC come out
// of (b)'s stream as lines with the frame's length, the last flagged, the bytes past the frame's
// end zero (whatever the MAC left in the bytes it does not keep); with stalls on every handshake,
// and both ways at once through a loopback.
#include <algorithm>
#include <deque>
#include <vector>

#include "Vcni_nic_eci_l128.h"
#include "block_bench.hpp"
#include "nic_mac_bench.hpp"

namespace cni::tb::blocks {

struct NicEci_l128 {
  using M = Vcni_nic_eci_l128;
  static constexpr const char* kName = "l128";
  static constexpr unsigned kBytes = CNI_BLK_nic_eci_l128_Bytes;
  static constexpr unsigned kLine = CNI_BLK_nic_eci_l128_LineBytes;
  static constexpr unsigned kMin = CNI_BLK_nic_eci_l128_MinBytes;
  static constexpr unsigned kMax = CNI_BLK_nic_eci_l128_MaxBytes;
};

namespace {

constexpr unsigned kB = NicEci_l128::kBytes;
constexpr unsigned kLine = NicEci_l128::kLine;
using Bytes = std::vector<uint8_t>;

// A line-wide beat of (a) or (b).
struct Line {
  Bytes data = Bytes(kLine, 0);
  unsigned len = 0;
  bool last = false;
};

class NicEciBench : public BlockBench<NicEci_l128> {
 protected:
  void SetUp() override {
    BlockBench::SetUp();
    reset();
  }

  Bytes frame(unsigned n) {
    Bytes f(n);
    for (auto& b : f) b = static_cast<uint8_t>(rng_());
    return f;
  }
  // Message `f` as (a) offers it: a line per LineBytes, the length on each, the last flagged.
  void send(const Bytes& f) {
    for (size_t at = 0; at == 0 || at < f.size(); at += kLine) {
      Line l;
      std::copy(f.begin() + static_cast<long>(at),
                f.begin() + static_cast<long>(std::min(f.size(), at + kLine)), l.data.begin());
      l.len = static_cast<unsigned>(f.size());
      l.last = at + kLine >= f.size();
      pa.push_back(l);
    }
  }

  // One cycle: (a)'s next line (unless stalled), (b)'s tready (unless stalled), the MAC's
  // streams; the handshakes of the edge recorded.
  void cycle() {
    M& m = *m_;
    mac.drive(m, mac_tx_stall == 0.0 || !chance(mac_tx_stall));
    const bool offer = !pa.empty() && (pa_stall == 0.0 || !chance(pa_stall));
    m.pa_valid_i = offer;
    if (offer) {
      for (unsigned i = 0; i < kLine; ++i) {
        put64(m.pa_data_i, 8 * i, 8, pa.front().data[i]);
      }
      m.pa_len_i = static_cast<uint16_t>(pa.front().len);
      m.pa_last_i = pa.front().last;
    }
    m.pb_ready_i = pb_stall == 0.0 || !chance(pb_stall);
    settle();
    mac.sample(m);
    if (m.mac_tx_tvalid_o && m.mac_tx_tready_i) ++tx_beats;
    drops += m.tx_cnt_runt_o + m.tx_cnt_oversize_o + m.tx_cnt_bad_keep_o + m.tx_cnt_aborted_o +
             m.rx_cnt_overflow_o + m.rx_cnt_runt_o + m.rx_cnt_bad_keep_o;
    if (offer && m.pa_ready_o) {
      pa.pop_front();
      pa_taken.push_back(cycle_);
    }
    if (m.pb_valid_o && m.pb_ready_i) {
      Line l;
      for (unsigned i = 0; i < kLine; ++i) {
        l.data[i] = static_cast<uint8_t>(get64(m.pb_data_o, 8 * i, 8));
      }
      l.len = m.pb_len_o;
      l.last = m.pb_last_o;
      got_line(l);
    }
    tick();
  }

  // (b)'s lines gathered into frames: each line of a frame carries its length, the last is
  // flagged, and the bytes past the frame's end are zero.
  void got_line(const Line& l) {
    if (cur.empty()) cur_len = l.len;
    EXPECT_EQ(l.len, cur_len) << "a frame's lines disagree on its length";
    const size_t at = cur.size();
    cur.insert(cur.end(), l.data.begin(), l.data.end());
    const bool end = at + kLine >= cur_len;
    EXPECT_EQ(l.last, end) << "line at byte " << at << " of a " << cur_len << "-byte frame";
    if (!l.last) return;
    for (size_t i = cur_len; i < cur.size(); ++i) {
      if (cur[i] != 0) {
        ADD_FAILURE() << "byte " << i << " past the end of a " << cur_len << "-byte frame is "
                      << unsigned(cur[i]);
        break;
      }
    }
    cur.resize(cur_len);
    rx.push_back(std::move(cur));
    cur.clear();
  }

  // Cycles until nothing is offered or held, at most `limit`.
  void run_until_idle(unsigned limit) {
    for (unsigned c = 0; c < limit; ++c) {
      cycle();
      if (pa.empty() && mac.rx_empty() && m_->idle_o) {
        for (unsigned k = 0; k < 4; ++k) cycle();
        return;
      }
    }
    ADD_FAILURE() << "not idle after " << limit << " cycles";
  }

  NicMacStreams<kB> mac;
  std::deque<Line> pa;
  std::vector<Bytes> rx;  // frames out of (b)
  Bytes cur;
  unsigned cur_len = 0;
  unsigned tx_beats = 0;
  std::vector<uint64_t> pa_taken;  // the cycles (a)'s lines were taken in
  unsigned drops = 0;              // frames the datapath dropped, any cause, either way
  double pa_stall = 0, pb_stall = 0, mac_tx_stall = 0;
};

}  // namespace

// Every length from the shortest frame to a few lines, and around every line and beat edge up to
// the longest, sent by (a) with stalls on both sides: each frame leaves the MAC whole and in
// order, with only its bytes (tkeep), none dropped.
TEST_F(NicEciBench, EveryLengthSentByAComesOutOfTheMacIntact) {
  std::vector<unsigned> lens;
  for (unsigned n = NicEci_l128::kMin; n <= 4 * kLine + 1; ++n) lens.push_back(n);
  for (unsigned k = 5 * kLine; k <= NicEci_l128::kMax; k += 9 * kLine + kB) {
    for (int d : {-65, -64, -63, -1, 0, 1, 63, 64, 65}) {
      if (int(k) + d <= int(NicEci_l128::kMax)) lens.push_back(unsigned(int(k) + d));
    }
  }
  lens.push_back(NicEci_l128::kMax);
  pa_stall = 0.2;
  mac_tx_stall = 0.2;
  std::vector<Bytes> sent;
  for (unsigned n : lens) {
    sent.push_back(frame(n));
    send(sent.back());
    while (pa.size() > 8) cycle();
  }
  run_until_idle(200000);
  ASSERT_EQ(mac.tx.size(), sent.size());
  for (size_t i = 0; i < sent.size(); ++i) {
    ASSERT_EQ(mac.tx[i], sent[i]) << "frame " << i << " of " << sent[i].size() << " bytes";
  }
  EXPECT_EQ(drops, 0u);
}

// Every length from the MAC, (b) stalling: each frame comes out of (b) as its lines, in order,
// the MAC's junk in the bytes its last beat does not keep never reaching (b).
TEST_F(NicEciBench, EveryLengthFromTheMacComesOutOfBAsLines) {
  pb_stall = 0.3;
  std::vector<Bytes> sent;
  for (unsigned n = NicEci_l128::kMin; n <= 3 * kLine + 1; ++n) {
    sent.push_back(frame(n));
    mac.receive(sent.back(), 0xA5);
    run_until_idle(20000);  // (the receive stream has no tready: one frame at a time)
  }
  for (unsigned n : {1023u, 1024u, 1025u, 4096u, NicEci_l128::kMax}) {
    sent.push_back(frame(n));
    mac.receive(sent.back(), 0xA5);
    run_until_idle(20000);
  }
  ASSERT_EQ(rx.size(), sent.size());
  for (size_t i = 0; i < sent.size(); ++i) {
    EXPECT_EQ(rx[i], sent[i]) << "frame " << i << " of " << sent[i].size() << " bytes";
  }
  EXPECT_EQ(drops, 0u);
}

// With nothing stalling, (a)'s lines keep the datapath's transmit side at a beat a cycle: a
// 9,596-byte message's 75 lines are taken a line every two cycles (its two beats), and its 150
// beats leave the MAC in 150 consecutive cycles once the frame is whole in the buffer (store and
// forward); (b) gets a line every two cycles.
TEST_F(NicEciBench, ABeatACycleBothWays) {
  const Bytes f = frame(NicEci_l128::kMax);
  send(f);
  unsigned first = 0, last = 0;
  for (unsigned c = 0; c < 2000 && mac.tx.empty(); ++c) {
    const unsigned before = tx_beats;
    cycle();
    if (tx_beats > before && first == 0) first = c;
    if (tx_beats > before) last = c;
  }
  ASSERT_EQ(mac.tx.size(), 1u);
  EXPECT_EQ(mac.tx[0], f);
  const unsigned beats = (NicEci_l128::kMax + kB - 1) / kB;
  EXPECT_EQ(tx_beats, beats);
  EXPECT_EQ(last - first + 1, beats) << "a gap in the transmitted frame";
  const unsigned lines_in = (NicEci_l128::kMax + kLine - 1) / kLine;
  ASSERT_EQ(pa_taken.size(), lines_in);
  EXPECT_EQ(pa_taken.back() - pa_taken.front(), (lines_in - 1) * (kLine / kB))
      << "(a)'s lines not taken a beat a cycle";
  // receive: the frame's beats into (b), a line every LineBytes / Bytes cycles
  mac.receive(f);
  unsigned lines = 0, c0 = 0, c1 = 0;
  for (unsigned c = 0; c < 2000 && rx.empty(); ++c) {
    const size_t before = cur.size();
    cycle();
    if (cur.size() != before || !rx.empty()) {
      if (lines++ == 0) c0 = c;
      c1 = c;
    }
  }
  ASSERT_EQ(rx.size(), 1u);
  EXPECT_EQ(rx[0], f);
  const unsigned want = (NicEci_l128::kMax + kLine - 1) / kLine;
  EXPECT_EQ(lines, want);
  EXPECT_LE(c1 - c0 + 1, want * (kLine / kB) + 1) << "(b)'s lines not back to back";
}

// Both ways at once through a MAC loopback, every handshake stalling: what (a) sends comes back
// out of (b), in order, intact.
TEST_F(NicEciBench, BothWaysAtOnceThroughALoopback) {
  mac.loopback = true;
  pa_stall = 0.3;
  pb_stall = 0.3;
  mac_tx_stall = 0.2;
  std::vector<Bytes> sent;
  for (unsigned i = 0; i < 60; ++i) {
    sent.push_back(frame(NicEci_l128::kMin + pick(1500)));
    send(sent.back());
    while (pa.size() > 4) cycle();
  }
  run_until_idle(200000);
  ASSERT_EQ(rx.size(), sent.size());
  for (size_t i = 0; i < sent.size(); ++i) EXPECT_EQ(rx[i], sent[i]) << "frame " << i;
  EXPECT_EQ(drops, 0u);
}

// A message of 0 bytes: its line is taken and dropped, nothing reaches the datapath, and the
// next message goes out as usual.
TEST_F(NicEciBench, AnEmptyMessageIsDroppedAndTheNextGoesOut) {
  send(Bytes{});
  const Bytes f = frame(200);
  send(f);
  run_until_idle(5000);
  ASSERT_EQ(mac.tx.size(), 1u);
  EXPECT_EQ(mac.tx[0], f);
  EXPECT_EQ(tx_beats, 4u);
  EXPECT_EQ(drops, 0u) << "the empty message reached the datapath";
}

}  // namespace cni::tb::blocks
