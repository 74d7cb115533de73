// SPDX-License-Identifier: Apache-2.0
// Cycle-level harness of the Verilated home agent alone (rtl/coh/cni_home_agent.sv, built by
// tb/rtl_home.cmake): it plays everything around the block (docs/endpoint.md, "Standalone
// testbench").
//   inbound   - REQ, RSP, FWD, DAT as queues; the head is presented (valid) and leaves the queue
//               when the home takes it (ready); idle channels carry random header bits
//   outbound  - FWD, RSP, DAT: a message is taken when valid and the channel's ready (always,
//               a constant, a script, or seeded random stalls); ofwd_hold_i from a script
//   engine    - commands presented one at a time and held until cmd_ready_o; events taken while
//               evt_ready_i (a script) and recorded with their kind, line, opcode and requester
//   memory    - port A as a synchronous-read RAM (read data the cycle after an enabled read, held
//               until the next read); the test may preload lines (mem()); with DRAM-backed
//               lines, the DRAM model (sim::Dram, DDR4-2400 at a 300 MHz clock) behind the
//               home's AXI4 master, stalling its handshakes at random (Options::dram_stall)
//   config    - cfg_ret_excl_i, cfg_park_timeout_i, time_i (the cycle count); counters - the
//               cnt_o pulses, counted
// Monitors (errors()): no snoop leaves while ofwd_hold_i is set (rule 8); an output left waiting
// is offered again unchanged (header and data); memory port A and events name lines of the RAMs;
// the home never pulses the credit-error counter (the link layer's).
// Time: cycle() counts rising edges. A message queued when cycle() = t is presented for edge
// t + 1; every record carries the number of the edge its handshake happened at.
// Tracing: Options::trace or env CNI_TRACE=1 writes <name>.fst.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "cni/engines.hpp"
#include "cni/proto.hpp"

namespace cni::tb::home {

using proto::Addr;
using proto::Chan;
using proto::Msg;
using proto::Op;
using Line = std::array<uint8_t, proto::kMaxLineBytes>;

// Parameters of the model (tb/rtl_home.cmake).
struct HomeGeometry {
  static constexpr unsigned kNumRegions = engines::kNumRegions;  // cni_amap_pkg::NUM_REGIONS
  unsigned line_bytes = 0;
  unsigned num_agents = 0;
  unsigned tt_entries = 0;
  unsigned tt_reserve = 0;
  bool pipelined = false;
  uint64_t dev_base = 0;
  std::array<unsigned, kNumRegions> region_lines{};
  unsigned dram_idx_w = 0;  // 0, or 2^dram_idx_w DRAM-backed lines from line 2^dram_idx_w on
  unsigned frame_w = 0;     // ... in 2^frame_w frames

  unsigned region_base(unsigned r) const;
  unsigned num_lines() const { return region_base(kNumRegions); }  // on chip
  unsigned dram_lines() const { return dram_idx_w ? 1u << dram_idx_w : 0; }
  unsigned dram_first() const { return dram_lines(); }
  bool is_dram(unsigned line) const {
    return dram_idx_w && line >= dram_first() && line < dram_first() + dram_lines();
  }
  unsigned region_of(unsigned line) const;
  Addr addr_of(unsigned line) const { return dev_base + Addr{line} * line_bytes; }
};
const HomeGeometry& home_geometry();

// cni_coh_pkg: engine commands, policies, RESUME grants, NACK answers, events.
enum class Cmd : uint8_t {
  Arm = 0,
  Recall = 1,
  Release = 2,
  Disarm = 3,
  Policy = 4,
  Resume = 5,
  RecallDn = 6,
  Nack = 7
};
enum class Policy : uint8_t { Allow = 0, Shared = 1, Park = 2, Deny = 3 };
enum class Grant : uint8_t { Auto = 0, S = 1, E = 2, SharedOnly = 3 };
enum class NackAnswer : uint8_t { Retry = 0, Error = 1 };
enum class Evt : uint8_t { Trigger = 0, RecallDone = 1 };
const char* cmd_name(Cmd c);

// The cnt_o pulses (cni_home_agent CNT_*; the CSR counters 0..15 of docs/endpoint.md).
enum class Counter : unsigned {
  RdS = 0,
  RdX,
  Upg,
  WB,
  Snoop,
  RetryBusy,
  RetryTimeout,
  Parked,
  Released,
  Recall,
  ErrOpcode,
  ErrAddr,
  ErrLen,
  ErrProto,
  ErrCredit,
  Denied,
  Num
};

// A message the harness took from an output, on its channel, at its handshake's edge.
struct OutMsg {
  Chan ch = Chan::Rsp;
  Msg msg;
  uint64_t cycle = 0;
};
// A message the home took from an input: when it was first presented and when taken.
struct InMsg {
  Chan ch = Chan::Req;
  Msg msg;
  uint64_t presented = 0;
  uint64_t taken = 0;
};
struct EvtRec {
  Evt kind = Evt::Trigger;
  unsigned line = 0;
  Op op = Op::RdS;  // the parked request's opcode (TRIGGER)
  uint8_t src = 0;  // ... and its requester
  uint64_t cycle = 0;
};
struct CmdRec {
  Cmd op = Cmd::Arm;
  unsigned arg = 0;
  unsigned line = 0;
  uint64_t presented = 0;
  uint64_t taken = 0;
};
struct MemWrite {
  unsigned line = 0;
  Line data{};
  uint64_t cycle = 0;
};

class HomeHarness {
 public:
  struct Options {
    std::string name = "home";  // trace file stem
    uint64_t seed = 1;          // Verilator randReset seed and the harness's random stream
    bool trace = false;         // or env CNI_TRACE=1
    uint8_t agent_id = 8;       // agent_id_i
    double dram_stall = 0.2;    // chance the DRAM's AXI slave withholds a ready or a valid
  };
  using Script = std::function<bool()>;  // asked once per cycle, before the edge

  explicit HomeHarness(const Options& opt);
  ~HomeHarness();
  HomeHarness(const HomeHarness&) = delete;
  HomeHarness& operator=(const HomeHarness&) = delete;

  // Reset, then clock until init_done_o (the home has cleared its RAMs).
  void reset();
  void step();  // one clock cycle
  void run(unsigned n);
  // Steps until `done` holds (checked before each cycle); false if `max_cycles` pass first.
  bool run_until(const std::function<bool()>& done, unsigned max_cycles = 2000);
  uint64_t cycle() const { return cycle_; }
  const HomeGeometry& geometry() const { return home_geometry(); }
  uint8_t agent_id() const { return opt_.agent_id; }
  std::mt19937_64& rng() { return rng_; }

  // ---- inbound ----------------------------------------------------------------------------
  void send(const Msg& m) { send_on(m.chan(), m); }
  void send_on(Chan ch, const Msg& m);
  bool inputs_idle() const;
  const std::vector<InMsg>& taken() const { return taken_; }
  // A message from agent `src` to this home about device line address `addr` (len: the line
  // size for opcodes that carry data, which get `data` if given).
  Msg make(Op op, uint8_t src, Addr addr, uint8_t tag = 0, const Line* data = nullptr) const;

  // ---- outbound ---------------------------------------------------------------------------
  std::deque<OutMsg>& out() { return out_; }
  void set_ready(Chan ch, bool ready);
  void set_ready(Chan ch, Script ready);
  void stall_randomly(Chan ch, double p);  // ready low with probability p, from the seed
  void set_fwd_hold(Script hold);

  // ---- engine -----------------------------------------------------------------------------
  void command(Cmd op, unsigned line, unsigned arg = 0);
  size_t cmds_queued() const { return cmd_q_.size(); }
  const std::vector<CmdRec>& commands() const { return cmds_; }
  std::deque<EvtRec>& events() { return evts_; }
  void set_evt_ready(bool ready);
  void set_evt_ready(Script ready);

  // ---- memory, configuration, counters ------------------------------------------------------
  Line& mem(unsigned line) { return mem_.at(line); }
  const std::vector<MemWrite>& mem_writes() const { return mem_writes_; }
  void set_ret_excl(unsigned region_mask) { ret_excl_ = region_mask; }
  void set_park_timeout(uint32_t cycles) { park_timeout_ = cycles; }
  uint64_t count(Counter c) const { return counts_[static_cast<unsigned>(c)]; }
  // The DRAM-backed lines' pulses (cni_mem_frames cnt_o): fills read, fills of lines never
  // written, write-backs, AXI errors, fills of failed lines; and its sticky error.
  uint64_t dram_count(unsigned i) const { return dram_counts_.at(i); }
  bool dram_error() const;
  // AXI beats the DRAM took (write) or gave (read).
  uint64_t dram_beats(bool write) const;
  // The DRAM's next read or write answers an AXI error (SLVERR).
  void dram_fail_next_read();
  void dram_fail_next_write();

  // Verilator errors (failed assertions) and the harness's monitors.
  bool got_error() const;
  const std::vector<std::string>& errors() const { return errors_; }

 private:
  struct Model;
  static constexpr unsigned kIn = proto::kNumChannels;
  void drive();
  void fail(const std::string& what);

  Options opt_;
  std::unique_ptr<Model> m_;
  std::mt19937_64 rng_;
  uint64_t cycle_ = 0;
  std::array<std::deque<InMsg>, kIn> in_;
  std::vector<InMsg> taken_;
  std::deque<OutMsg> out_;
  std::array<Script, kIn> ready_;  // by Chan (REQ unused)
  std::array<bool, kIn> ready_now_{};
  std::array<bool, kIn> waiting_{};   // an output was offered and not taken ...
  std::array<Msg, kIn> waiting_msg_;  // ... with this header
  Script hold_;
  bool hold_now_ = false;
  std::deque<CmdRec> cmd_q_;
  std::vector<CmdRec> cmds_;
  std::deque<EvtRec> evts_;
  Script evt_ready_;
  std::vector<Line> mem_;
  std::vector<MemWrite> mem_writes_;
  Line rd_data_{};  // port A's read register
  unsigned ret_excl_ = (1u << HomeGeometry::kNumRegions) - 1;
  uint32_t park_timeout_ = 1u << 24;
  std::array<uint64_t, static_cast<unsigned>(Counter::Num)> counts_{};
  std::array<uint64_t, 5> dram_counts_{};
  std::vector<std::string> errors_;
};

}  // namespace cni::tb::home
