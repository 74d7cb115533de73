// SPDX-License-Identifier: Apache-2.0
// CPU side of the three PIO protocols for the cni_pio_engine unit tests, with scoreboards:
//   (c) per pair: write arguments into the payload line, read the trigger line, expect the
//       accelerator's result (tb/bloom_ref.hpp) in it at RELEASE, roles swap;
//   (a) write header + payload into the control line and overflow lines, read the trigger line,
//       expect the status word at RELEASE and the payload on pa_*;
//   (b) read the trigger line, expect header + payload in it and the overflow lines.
// Every RELEASE must find the other line of its pair/channel ARMed already.
#pragma once

#include <deque>

#include "bloom_ref.hpp"
#include "pio_harness.hpp"

namespace cni::tb::pio {

class PioTest : public PioBench {
 protected:
  void SetUp() override {
    PioBench::SetUp();
    home_.on_release = [this](unsigned line, const Line& data) { on_release(line, data); };
  }

  void TearDown() override {
    check_a_stream();
    PioBench::TearDown();
  }

  // ---- (c) -----------------------------------------------------------------------------------
  struct CPairCpu {
    unsigned par = 0;  // trigger line = group par, payload line = group 1 - par
    bool busy = false;
    Line expect{};
    uint64_t done = 0;
  };
  unsigned c_trigger_line(unsigned j) const { return c_line(cpu_c_[j].par, j); }
  unsigned c_payload_line(unsigned j) const { return c_line(1 - cpu_c_[j].par, j); }

  // Stores the arguments (the CPU holds the payload line Modified).
  void c_prepare(unsigned j, const Line& args) {
    ASSERT_FALSE(cpu_c_[j].busy);
    home_.cpu_write(c_payload_line(j), args);
    cpu_c_[j].expect = bloom_line<kLineBytes>(args.data(), kLineBytes);
  }
  // Reads the trigger line: parks and raises TRIGGER.
  void c_trigger(unsigned j) {
    cpu_c_[j].busy = true;
    EXPECT_FALSE(home_.request(c_trigger_line(j))) << "trigger line not armed, pair " << j;
  }
  void c_invoke(unsigned j, const Line& args) {
    c_prepare(j, args);
    c_trigger(j);
  }
  bool c_all_idle() const {
    return std::none_of(cpu_c_.begin(), cpu_c_.end(), [](const CPairCpu& p) { return p.busy; });
  }

  // ---- (a) -----------------------------------------------------------------------------------
  struct AExpect {
    Bytes payload;  // what pa_* must carry (clamped)
  };
  // Sends one message whose header says `len_field` bytes; `payload` is what the CPU stores
  // (at most the channel capacity).
  void a_send(const Bytes& payload, unsigned len_field) {
    ASSERT_LE(payload.size(), kCapA);
    const unsigned p = kABase + 1 - a_par_;
    const unsigned t = kABase + a_par_;
    Line l0{};
    put_u64(l0, len_field);
    for (unsigned b = 8; b < kLineBytes && b - 8 < payload.size(); ++b) l0[b] = payload[b - 8];
    home_.cpu_write(p, l0);
    for (unsigned k = 0; k < kNOvfA; ++k) {
      const size_t off = (kLineBytes - 8) + size_t{k} * kLineBytes;
      if (off >= payload.size()) break;
      Line lk{};
      for (unsigned b = 0; b < kLineBytes && off + b < payload.size(); ++b) lk[b] = payload[off + b];
      home_.cpu_write(kABase + 2 + k, lk);
    }
    const unsigned n = std::min(len_field, kCapA);
    Bytes want(payload.begin(), payload.begin() + std::min<size_t>(n, payload.size()));
    want.resize(n, 0);
    if (n > 0) a_expect_.push_back({want});  // an empty message streams nothing
    a_status_expect_ = (a_count_ + 1) | (uint64_t{len_field > kCapA} << 63) |
                       (uint64_t{n == 0} << 62);
    a_busy_ = true;
    EXPECT_FALSE(home_.request(t)) << "(a) trigger line not armed";
  }
  void a_send(const Bytes& payload) { a_send(payload, static_cast<unsigned>(payload.size())); }

  // Compares every finished pa_* message with the scoreboard.
  void check_a_stream() {
    while (!a_msgs_.empty() && !a_expect_.empty()) {
      const AMsg& got = a_msgs_.front();
      const Bytes& want = a_expect_.front().payload;
      EXPECT_EQ(got.len, want.size()) << "(a) message " << a_checked_;
      EXPECT_EQ(got.beats, (want.size() + kLineBytes - 1) / kLineBytes) << "(a) beats";
      ASSERT_GE(got.data.size(), want.size());
      EXPECT_TRUE(std::equal(want.begin(), want.end(), got.data.begin()))
          << "(a) payload differs, message " << a_checked_ << " len " << want.size();
      EXPECT_TRUE(std::all_of(got.data.begin() + static_cast<long>(want.size()), got.data.end(),
                              [](uint8_t b) { return b == 0; }))
          << "(a) bytes past the length are not zero";
      a_msgs_.erase(a_msgs_.begin());
      a_expect_.pop_front();
      ++a_checked_;
    }
  }

  // ---- (b) -----------------------------------------------------------------------------------
  // Reads the trigger line; the message is whatever the device streams in.
  void b_receive(const Bytes& payload, unsigned len_field) {
    queue_pb(payload, len_field);
    b_recv_trigger(payload, len_field);
  }
  void b_receive(const Bytes& payload) { b_receive(payload, static_cast<unsigned>(payload.size())); }
  // Only the CPU side (the message is queued separately).
  void b_recv_trigger(const Bytes& payload, unsigned len_field) {
    b_expect_.push_back({payload, len_field});
    b_busy_ = true;
    b_writes_before_ = mem_writes_;
    EXPECT_FALSE(home_.request(kBBase + b_par_)) << "(b) trigger line not armed";
  }

  // ---- RELEASE scoreboard --------------------------------------------------------------------
  void on_release(unsigned line, const Line& data) {
    if (line >= kCBase && line < kCBase + 2 * kCPairs) {
      const unsigned g = (line - kCBase) / kCPairs, j = (line - kCBase) % kCPairs;
      CPairCpu& c = cpu_c_[j];
      ASSERT_TRUE(c.busy) << "RELEASE of pair " << j << " nobody invoked";
      EXPECT_EQ(g, c.par) << "pair " << j << ": released the payload line";
      EXPECT_EQ(data, c.expect) << "pair " << j << ": wrong result at RELEASE";
      EXPECT_TRUE(home_.armed[c_payload_line(j)]) << "pair " << j << ": RELEASE before ARM(P)";
      c.busy = false;
      c.par ^= 1;
      ++c.done;
      ++c_done_;
      c_release_order_.push_back(j);
    } else if (line == kABase || line == kABase + 1) {
      ASSERT_TRUE(a_busy_);
      EXPECT_EQ(line, kABase + a_par_) << "(a) released the payload line";
      EXPECT_TRUE(home_.armed[kABase + 1 - a_par_]) << "(a) RELEASE before ARM(P)";
      EXPECT_EQ(get_u64(data), a_status_expect_) << "(a) status word";
      EXPECT_TRUE(std::all_of(data.begin() + 8, data.end(), [](uint8_t b) { return b == 0; }))
          << "(a) status line not zero past the status word";
      a_busy_ = false;
      a_par_ ^= 1;
      ++a_count_;
    } else if (line == kBBase || line == kBBase + 1) {
      ASSERT_TRUE(b_busy_);
      ASSERT_FALSE(b_expect_.empty());
      EXPECT_EQ(line, kBBase + b_par_) << "(b) released the payload line";
      EXPECT_TRUE(home_.armed[kBBase + 1 - b_par_]) << "(b) RELEASE before ARM(P)";
      check_b_message(data, b_expect_.front().first, b_expect_.front().second);
      b_expect_.pop_front();
      b_busy_ = false;
      b_par_ ^= 1;
      ++b_count_;
    } else {
      ADD_FAILURE() << "RELEASE answered a request on line " << line;
    }
  }

  // The CPU got the trigger line; it reads the overflow lines the header says it needs.
  void check_b_message(const Line& l0, const Bytes& payload, unsigned len_field) {
    const uint64_t hdr = get_u64(l0);
    const unsigned n = std::min(len_field, kCapB);
    EXPECT_EQ(hdr & 0xffff, n) << "(b) header length";
    EXPECT_EQ((hdr >> 16) & 1, uint64_t{len_field > kCapB}) << "(b) truncated flag";
    EXPECT_EQ((hdr >> 17) & 0x7fff, 0u) << "(b) reserved header bits";
    EXPECT_EQ(hdr >> 32, b_count_ + 1) << "(b) sequence number";
    // Lines the message occupies: payload byte i is at line (i + 8) / LineBytes.
    const unsigned last_line = (n + 8 - 1) / kLineBytes;
    Bytes got(l0.begin() + 8, l0.end());
    for (unsigned k = 1; k <= last_line; ++k) {
      Line lk{};
      EXPECT_TRUE(home_.request(kBBase + 1 + k, &lk));  // not armed: served from memory
      got.insert(got.end(), lk.begin(), lk.end());
    }
    for (unsigned i = 0; i < got.size(); ++i) {
      const uint8_t want = i < n ? (i < payload.size() ? payload[i] : 0xA5) : 0;
      if (got[i] != want) {
        ADD_FAILURE() << "(b) len " << n << ": payload byte " << i << " is " << unsigned{got[i]}
                      << ", want " << unsigned{want};
        break;
      }
    }
    // Lines past the message were not written for it.
    for (unsigned k = last_line + 1; k <= kNOvfB; ++k) {
      EXPECT_EQ(mem_writes_[kBBase + 1 + k], b_writes_before_[kBBase + 1 + k])
          << "(b) len " << n << ": overflow line " << k - 1 << " written past the message";
    }
  }

  std::array<CPairCpu, kCPairs> cpu_c_{};
  uint64_t c_done_ = 0;
  std::vector<unsigned> c_release_order_;
  unsigned a_par_ = 0, b_par_ = 0;
  uint64_t a_count_ = 0, b_count_ = 0, a_checked_ = 0;
  bool a_busy_ = false, b_busy_ = false;
  uint64_t a_status_expect_ = 0;
  std::deque<AExpect> a_expect_;
  std::deque<std::pair<Bytes, unsigned>> b_expect_;
  std::map<unsigned, unsigned> b_writes_before_;
};

}  // namespace cni::tb::pio
