// SPDX-License-Identifier: Apache-2.0
// Unit-test harness for cni_pio_engine: the test plays the home agent and the host CPU.
//
//   HomeModel  - device memory (port A side), armed/parked bits, host-held lines, command
//                checks (never RECALL an armed line, never ARM twice, RELEASE only armed lines),
//                RECALLs completed after a seeded random delay (so RECALL_DONEs come back in any
//                order) by writing the CPU's dirty data into memory, events to the engine.
//   PioBench   - GoogleTest fixture: a fresh VerilatedContext + model per test, the memory port
//                B model, seeded stall generators on every handshake, (a) sink, (b) source,
//                optional FST trace (env CNI_TRACE=1, file <suite>.<test>.fst), seed from env
//                CNI_SEED or the test name (logged).
// Every engine memory access is checked against coherence: the engine may only read or write a
// line no host cache holds (it must have recalled it first).
#pragma once

#include <gtest/gtest.h>
#include <verilated.h>
#include <verilated_fst_c.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "Vcni_pio_engine.h"

namespace cni::tb::pio {

// Parameters of the Verilated model (tb/rtl_pio.cmake).
inline constexpr unsigned kLineBytes = CNI_PIO_LINE_BYTES;
inline constexpr unsigned kNumLines = 1u << CNI_PIO_LINE_IDX_W;
inline constexpr unsigned kCBase = CNI_PIO_CBASE;
inline constexpr unsigned kCPairs = CNI_PIO_CPAIRS;
inline constexpr unsigned kABase = CNI_PIO_ABASE;
inline constexpr unsigned kNOvfA = CNI_PIO_NOVFA;
inline constexpr unsigned kBBase = CNI_PIO_BBASE;
inline constexpr unsigned kNOvfB = CNI_PIO_NOVFB;
inline constexpr unsigned kCapA = (kLineBytes - 8) + kNOvfA * kLineBytes;
inline constexpr unsigned kCapB = (kLineBytes - 8) + kNOvfB * kLineBytes;
inline constexpr unsigned kWords = kLineBytes / 4;
// The engine's pipeline registers (docs/pio.md, "Parameters"): 1 in the pipelined flavor.
inline constexpr unsigned kEvtReg = CNI_PIO_EVT_REG;
inline constexpr unsigned kRdReg = CNI_PIO_RD_REG;
inline constexpr unsigned kReqReg = CNI_PIO_REQ_REG;

using Line = std::array<uint8_t, kLineBytes>;
using Bytes = std::vector<uint8_t>;

// cni_coh_pkg CMD_* (the engine issues only these four)
enum class Cmd : uint8_t { Arm = 0, Recall = 1, Release = 2, Disarm = 3 };
enum class Evt : uint8_t { Trigger = 0, RecallDone = 1 };                  // cni_coh_pkg EVT_*

inline const char* cmd_name(Cmd c) {
  switch (c) {
    case Cmd::Arm: return "ARM";
    case Cmd::Recall: return "RECALL";
    case Cmd::Release: return "RELEASE";
    case Cmd::Disarm: return "DISARM";
  }
  return "?";
}

// Line of protocol (c) pair j in group g.
constexpr unsigned c_line(unsigned g, unsigned j) { return kCBase + g * kCPairs + j; }

inline uint64_t get_u64(const Line& l, unsigned off = 0) {
  uint64_t v = 0;
  for (unsigned b = 0; b < 8; ++b) v |= uint64_t{l[off + b]} << (8 * b);
  return v;
}
inline void put_u64(Line& l, uint64_t v, unsigned off = 0) {
  for (unsigned b = 0; b < 8; ++b) l[off + b] = static_cast<uint8_t>(v >> (8 * b));
}

// Lines <-> Verilated wide ports (32-bit words; byte b of the line at bits [8b+7:8b]), for any
// line size.
template <std::size_t N>
uint32_t line_word(const std::array<uint8_t, N>& l, unsigned w) {
  return uint32_t{l[4 * w]} | uint32_t{l[4 * w + 1]} << 8 | uint32_t{l[4 * w + 2]} << 16 |
         uint32_t{l[4 * w + 3]} << 24;
}
template <std::size_t N, class W>
std::array<uint8_t, N> line_from_wide(const W& wide) {
  std::array<uint8_t, N> l{};
  for (unsigned w = 0; w < N / 4; ++w) {
    for (unsigned b = 0; b < 4; ++b) l[4 * w + b] = static_cast<uint8_t>(wide[w] >> (8 * b));
  }
  return l;
}

// Handshake stall knobs: probabilities of holding a ready/valid low in a cycle.
struct Knobs {
  double cmd_stall = 0.25;     // cmd_ready_i low
  double evt_gap = 0.25;       // no event offered although one is queued
  unsigned recall_min = 1;     // RECALL latency, cycles
  unsigned recall_max = 40;
  double pa_stall = 0.3;       // pa_ready_i low
  double pb_gap = 0.3;         // pb_valid_i low between beats
};

// Home agent + host caches, as the engine sees them.
class HomeModel {
 public:
  struct Release {
    uint64_t cycle;
    unsigned line;
    Line data;  // memory[line] when the RELEASE was taken
  };
  struct CmdRec {
    uint64_t cycle;
    Cmd op;
    unsigned line;
  };

  explicit HomeModel(std::mt19937_64& rng) : rng_(rng) {}

  Knobs knobs;
  std::vector<Line> mem = std::vector<Line>(kNumLines, Line{});
  std::vector<bool> armed = std::vector<bool>(kNumLines, false);
  std::vector<bool> parked = std::vector<bool>(kNumLines, false);
  std::vector<bool> recalling = std::vector<bool>(kNumLines, false);
  std::vector<bool> host_holds = std::vector<bool>(kNumLines, false);
  std::map<unsigned, Line> host_dirty;  // lines a host cache holds Modified
  std::map<unsigned, unsigned> slow_recall;  // line -> fixed RECALL latency (cycles)
  std::deque<std::pair<Evt, unsigned>> events;
  std::vector<CmdRec> cmds;
  std::vector<Release> releases;
  // Called when a RELEASE answers a parked request: (line, memory[line]).
  std::function<void(unsigned, const Line&)> on_release;

  // The CPU stores into a line it holds (or takes it Exclusive first: not armed).
  void cpu_write(unsigned line, const Line& data) {
    EXPECT_FALSE(armed[line]) << "test bug: CPU writes armed line " << line;
    host_dirty[line] = data;
    host_holds[line] = true;
  }

  // A host read/ownership request reaches the home. Armed lines park and raise TRIGGER; others
  // are answered from memory at once (returns true and the host then holds the line).
  bool request(unsigned line, Line* data = nullptr) {
    if (armed[line]) {
      EXPECT_FALSE(parked[line]) << "test bug: second request parked on line " << line;
      parked[line] = true;
      events.emplace_back(Evt::Trigger, line);
      return false;
    }
    if (data) *data = current(line);
    host_holds[line] = true;
    return true;
  }

  // The parked request on `line` timed out (Retry) and the host re-issued it.
  void retry(unsigned line) {
    ASSERT_TRUE(parked[line]);
    events.emplace_back(Evt::Trigger, line);
  }

  // Value the host would read: its own dirty copy, else memory.
  Line current(unsigned line) const {
    auto it = host_dirty.find(line);
    return it != host_dirty.end() ? it->second : mem[line];
  }

  void command(uint64_t cycle, Cmd op, unsigned line) {
    cmds.push_back({cycle, op, line});
    ASSERT_LT(line, kNumLines);
    switch (op) {
      case Cmd::Arm:
        EXPECT_FALSE(armed[line]) << "ARM of an armed line " << line;
        EXPECT_FALSE(recalling[line]) << "ARM while RECALL in flight, line " << line;
        EXPECT_FALSE(host_holds[line]) << "ARM of a line a host holds, line " << line;
        armed[line] = true;
        break;
      case Cmd::Recall: {
        EXPECT_FALSE(armed[line]) << "RECALL of an armed line " << line;
        EXPECT_FALSE(recalling[line]) << "second RECALL in flight, line " << line;
        recalling[line] = true;
        std::uniform_int_distribution<unsigned> d(knobs.recall_min, knobs.recall_max);
        auto slow = slow_recall.find(line);
        pending_.push_back({cycle + (slow != slow_recall.end() ? slow->second : d(rng_)), line});
        break;
      }
      case Cmd::Release:
        EXPECT_TRUE(armed[line]) << "RELEASE of a line that is not armed, line " << line;
        armed[line] = false;
        if (parked[line]) {
          parked[line] = false;
          host_holds[line] = true;
          releases.push_back({cycle, line, mem[line]});
          if (on_release) on_release(line, mem[line]);
        }
        break;
      case Cmd::Disarm:
        ADD_FAILURE() << "unexpected DISARM of line " << line;
        armed[line] = false;
        break;
    }
  }

  // Completes the RECALLs that are due; the host's dirty data lands in memory first.
  void tick(uint64_t cycle) {
    std::shuffle(pending_.begin(), pending_.end(), rng_);
    for (auto it = pending_.begin(); it != pending_.end();) {
      if (it->due > cycle) {
        ++it;
        continue;
      }
      const unsigned l = it->line;
      auto d = host_dirty.find(l);
      if (d != host_dirty.end()) {
        mem[l] = d->second;
        host_dirty.erase(d);
      }
      host_holds[l] = false;
      recalling[l] = false;
      events.emplace_back(Evt::RecallDone, l);
      it = pending_.erase(it);
    }
  }

  // Engine access on port B: the line must be coherent at the device (no host copy).
  void check_engine_access(unsigned line, bool write) const {
    EXPECT_FALSE(host_holds[line]) << "engine " << (write ? "writes" : "reads")
                                   << " line " << line << " while a host cache holds it";
    EXPECT_FALSE(recalling[line]) << "engine " << (write ? "writes" : "reads") << " line "
                                  << line << " before its RECALL finished";
  }

  size_t count_cmds(Cmd op, unsigned line) const {
    return static_cast<size_t>(std::count_if(cmds.begin(), cmds.end(), [&](const CmdRec& c) {
      return c.op == op && c.line == line;
    }));
  }
  bool idle() const { return pending_.empty() && events.empty(); }

 private:
  struct Pending {
    uint64_t due;
    unsigned line;
  };
  std::mt19937_64& rng_;
  std::vector<Pending> pending_;
};

// One (a) message as it left the engine on pa_*.
struct AMsg {
  unsigned len = 0;  // pa_len_o
  Bytes data;        // all beats, concatenated
  unsigned beats = 0;
};

class PioBench : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    test_name_ = std::string(info->test_suite_name()) + "." + info->name();
    for (char& ch : test_name_) {
      if (ch == '/') ch = '_';
    }
    seed_ = std::hash<std::string>{}(test_name_) & 0x7fffffffu;
    if (const char* s = std::getenv("CNI_SEED")) seed_ = std::strtoull(s, nullptr, 0) & 0x7fffffffu;
    if (seed_ == 0) seed_ = 1;
    std::printf("[ seed     ] %s CNI_SEED=%llu\n", test_name_.c_str(),
                static_cast<unsigned long long>(seed_));
    RecordProperty("seed", std::to_string(seed_));
    rng_.seed(seed_);

    ctx_ = std::make_unique<VerilatedContext>();
    ctx_->fatalOnError(false);
    ctx_->randReset(2);
    ctx_->randSeed(static_cast<int>(seed_));
    const char* tr = std::getenv("CNI_TRACE");
    const bool trace = tr && std::string(tr) == "1";
    if (trace) ctx_->traceEverOn(true);
    top_ = std::make_unique<Vcni_pio_engine>(ctx_.get(), "top");
    if (trace) {
      fst_ = std::make_unique<VerilatedFstC>();
      top_->trace(fst_.get(), 99);
      fst_->open((test_name_ + ".fst").c_str());
    }
    reset();
  }

  void TearDown() override {
    top_->final();
    if (fst_) fst_->close();
    EXPECT_FALSE(ctx_->gotError()) << "RTL assertion or $error fired";
  }

  // ---- clocking ------------------------------------------------------------------------------
  void reset() {
    top_->clk_i = 0;
    top_->rst_ni = 0;
    drive_idle();
    for (int i = 0; i < 4; ++i) half(), top_->clk_i = !top_->clk_i;
    top_->clk_i = 0;
    half();
    top_->rst_ni = 1;
    half();
  }

  void drive_idle() {
    top_->evt_valid_i = 0;
    top_->evt_kind_i = 0;
    top_->evt_line_i = 0;
    top_->cmd_ready_i = 0;
    top_->pa_ready_i = 0;
    top_->pb_valid_i = 0;
    top_->pb_len_i = 0;
    top_->pb_last_i = 0;
  }

  void half() {
    top_->eval();
    if (fst_) fst_->dump(ctx_->time());
    ctx_->timeInc(1);
  }

  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(rng_) < p; }

  // One clock cycle: drive inputs with the clock low, decide the handshakes on the settled
  // outputs, take the rising edge, then update the models.
  void step() {
    auto& k = home_.knobs;
    // Events (sticky once offered).
    if (!evt_offered_ && !home_.events.empty() && !chance(k.evt_gap)) evt_offered_ = true;
    top_->evt_valid_i = evt_offered_;
    if (evt_offered_) {
      top_->evt_kind_i = static_cast<uint8_t>(home_.events.front().first);
      top_->evt_line_i = home_.events.front().second;
    }
    top_->cmd_ready_i = !(cmd_hold_ > 0 || chance(k.cmd_stall));
    if (cmd_hold_ > 0) --cmd_hold_;
    top_->pa_ready_i = !chance(k.pa_stall);
    // (b) source, sticky valid.
    if (!pb_offered_ && pb_cur_ < pb_queue_.size() && !chance(k.pb_gap)) pb_offered_ = true;
    top_->pb_valid_i = pb_offered_;
    if (pb_offered_) drive_pb_beat();
    // Memory read data: valid only the cycle after a read; garbage otherwise.
    for (unsigned w = 0; w < kWords; ++w) {
      top_->mem_rdata_i[w] = rd_pending_ ? line_word(rd_data_, w) : static_cast<uint32_t>(rng_());
    }
    rd_pending_ = false;

    top_->clk_i = 0;
    half();

    const bool evt_fire = top_->evt_valid_i && top_->evt_ready_o;
    const bool cmd_fire = top_->cmd_valid_o && top_->cmd_ready_i;
    const Cmd cmd_op = static_cast<Cmd>(top_->cmd_op_o);
    const unsigned cmd_line = top_->cmd_line_o;
    const bool mem_en = top_->mem_en_o;
    const bool mem_we = top_->mem_we_o;
    const unsigned mem_addr = top_->mem_addr_o;
    Line wdata{};
    if (mem_en && mem_we) wdata = line_from_wide<kLineBytes>(top_->mem_wdata_o);
    const bool pa_fire = top_->pa_valid_o && top_->pa_ready_i;
    Line pa_data{};
    if (pa_fire) pa_data = line_from_wide<kLineBytes>(top_->pa_data_o);
    const unsigned pa_len = top_->pa_len_o;
    const bool pa_last = top_->pa_last_o;
    const bool pb_fire = top_->pb_valid_i && top_->pb_ready_o;
    if (top_->pb_ready_o) ++pb_ready_cycles_;
    cnt_c_ += top_->cnt_c_invoke_o;
    cnt_a_ += top_->cnt_a_msg_o;
    cnt_b_ += top_->cnt_b_msg_o;

    top_->clk_i = 1;
    half();

    if (evt_fire) {
      evt_log_.push_back({cycle_, home_.events.front().first, home_.events.front().second});
      home_.events.pop_front();
      evt_offered_ = false;
    }
    if (cmd_fire) home_.command(cycle_, cmd_op, cmd_line);
    if (mem_en) {
      ASSERT_LT(mem_addr, kNumLines);
      home_.check_engine_access(mem_addr, mem_we);
      mem_cycles_[mem_addr].push_back(cycle_);
      if (mem_we) {
        home_.mem[mem_addr] = wdata;
        ++mem_writes_[mem_addr];
      } else {
        rd_pending_ = true;
        rd_data_ = home_.mem[mem_addr];
      }
    }
    if (pa_fire) {
      take_pa_beat(pa_data, pa_len, pa_last);
      pa_beat_cycles_.push_back(cycle_);
    }
    if (pb_fire) {
      pb_beat_cycles_.push_back(cycle_);
      pb_offered_ = false;
      if (++pb_beat_ == pb_queue_[pb_cur_].beats) {
        pb_beat_ = 0;
        ++pb_cur_;
      }
    }
    home_.tick(cycle_);
    ++cycle_;
  }

  // Runs until `done` holds (checked before each cycle); false on timeout.
  bool run_until(const std::function<bool()>& done, uint64_t max_cycles = 200000) {
    for (uint64_t i = 0; i < max_cycles; ++i) {
      if (done()) return true;
      step();
      if (::testing::Test::HasFatalFailure()) return false;
    }
    return done();
  }
  void run(uint64_t cycles) {
    for (uint64_t i = 0; i < cycles; ++i) step();
  }

  // Waits for the reset ARMs (every group-0 (c) line and both channels' first control line).
  void wait_reset_arms() {
    ASSERT_TRUE(run_until([&] { return home_.cmds.size() >= kCPairs + 2; }, 10000));
  }

  Line random_line() {
    Line l{};
    for (auto& b : l) b = static_cast<uint8_t>(rng_());
    return l;
  }
  Bytes random_bytes(size_t n) {
    Bytes v(n);
    for (auto& b : v) b = static_cast<uint8_t>(rng_());
    return v;
  }

  // ---- (a) sink ------------------------------------------------------------------------------
  void take_pa_beat(const Line& data, unsigned len, bool last) {
    if (!a_cur_) a_cur_ = std::make_unique<AMsg>(), a_cur_->len = len;
    EXPECT_EQ(a_cur_->len, len) << "pa_len_o changed within a message";
    a_cur_->data.insert(a_cur_->data.end(), data.begin(), data.end());
    ++a_cur_->beats;
    if (last) {
      a_msgs_.push_back(std::move(*a_cur_));
      a_cur_.reset();
    }
  }

  // ---- (b) source ----------------------------------------------------------------------------
  struct PbMsg {
    Bytes payload;     // beats carry these bytes, zero padded
    unsigned len;      // pb_len_i
    unsigned beats;
  };
  void queue_pb(const Bytes& payload, unsigned len) {
    const unsigned beats =
        std::max(1u, static_cast<unsigned>((payload.size() + kLineBytes - 1) / kLineBytes));
    pb_queue_.push_back({payload, len, beats});
  }
  void drive_pb_beat() {
    const PbMsg& m = pb_queue_[pb_cur_];
    Line l{};
    for (unsigned b = 0; b < kLineBytes; ++b) {
      const size_t i = size_t{pb_beat_} * kLineBytes + b;
      l[b] = i < m.payload.size() ? m.payload[i] : static_cast<uint8_t>(0xA5);
    }
    for (unsigned w = 0; w < kWords; ++w) top_->pb_data_i[w] = line_word(l, w);
    top_->pb_len_i = static_cast<uint16_t>(m.len);
    top_->pb_last_i = (pb_beat_ + 1 == m.beats);
  }
  bool pb_drained() const { return pb_cur_ == pb_queue_.size(); }

  // ---- state ---------------------------------------------------------------------------------
  struct EvtRec {
    uint64_t cycle;
    Evt kind;
    unsigned line;
  };
  // Cycle an event of `kind` on `line` was taken (the n-th such event); ~0 if never.
  uint64_t evt_cycle(Evt kind, unsigned line, size_t n = 0) const {
    for (const auto& e : evt_log_) {
      if (e.kind == kind && e.line == line && n-- == 0) return e.cycle;
    }
    return ~uint64_t{0};
  }
  uint64_t cmd_cycle(Cmd op, unsigned line, size_t n = 0) const {
    for (const auto& c : home_.cmds) {
      if (c.op == op && c.line == line && n-- == 0) return c.cycle;
    }
    return ~uint64_t{0};
  }

  std::vector<EvtRec> evt_log_;
  std::vector<uint64_t> pa_beat_cycles_, pb_beat_cycles_;
  uint64_t seed_ = 1;
  std::string test_name_;
  std::mt19937_64 rng_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<Vcni_pio_engine> top_;
  std::unique_ptr<VerilatedFstC> fst_;
  HomeModel home_{rng_};
  uint64_t cycle_ = 0;
  unsigned cmd_hold_ = 0;  // force cmd_ready_i low for this many cycles
  bool evt_offered_ = false;
  bool rd_pending_ = false;
  Line rd_data_{};
  std::map<unsigned, unsigned> mem_writes_;
  std::map<unsigned, std::vector<uint64_t>> mem_cycles_;  // line -> cycles port B accessed it
  uint64_t cnt_c_ = 0, cnt_a_ = 0, cnt_b_ = 0;
  // (a)
  std::unique_ptr<AMsg> a_cur_;
  std::vector<AMsg> a_msgs_;
  // (b)
  std::vector<PbMsg> pb_queue_;
  size_t pb_cur_ = 0;
  unsigned pb_beat_ = 0;
  bool pb_offered_ = false;
  uint64_t pb_ready_cycles_ = 0;
};

}  // namespace cni::tb::pio
