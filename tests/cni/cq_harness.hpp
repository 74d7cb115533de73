// SPDX-License-Identifier: Apache-2.0
// Unit-test harness for cni_cq_engine: engines on several nodes, each with a model of the home
// agent and device memory around it, joined by a network model, and a CPU model per node that
// uses the engine as the driver does (docs/cni.md section 7).
//
//   Node   - one engine: memory (port B side), RECALL / RECALL_DN completed after a seeded random
//            delay, their RECALL_DONE events presented in random order and held as long as the
//            engine likes; a line with a recall in flight is closed to the CPU (the home agent
//            answers Retry), which is what makes the locked write work; seeded stalls on the
//            command, memory and network handshakes.
//   World  - the nodes in lockstep, frames between them after a fixed latency (with hooks to
//            drop or corrupt one), the CPU operations (uncached register accesses take cycles;
//            cached loads and stores of device lines are immediate), a scoreboard per
//            (source, destination).
// Checked on every cycle: a host-visible line is written through port B only while its
// RECALL_DONE is held, and the event is taken no earlier than the next cycle (the locked write); a send line is read only after a pull that followed
// the CPU's last store to it; an RQ slot is written only after the CPU consumed it; the engine
// never reads or writes outside its region.
#pragma once

#include <gtest/gtest.h>
#include <verilated.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "cni/drv/cni.hpp"
#include "cni/engines.hpp"
#include "vlt_model.hpp"

namespace cni::tb::cq {

inline constexpr unsigned kBase = CNI_CQ_BASE;   // the region's first device line
inline constexpr unsigned kMsgBytes = 256;
inline constexpr unsigned kHdrBytes = 12;
inline constexpr unsigned kMaxLen = kMsgBytes - kHdrBytes;
inline constexpr unsigned kRegBytes = 256;
inline constexpr uint8_t kTypeData = 0x02, kTypeAck = 0x03;

// the configurations the models are built in (the registry's CniConfig values)
enum Cfg : unsigned {
  kNi2w = static_cast<unsigned>(engines::CniConfig::NI2W),
  kCni16Q = static_cast<unsigned>(engines::CniConfig::CNI16Q),
  kCni512Q = static_cast<unsigned>(engines::CniConfig::CNI512Q),
};
inline constexpr uint8_t kPolShared = 1;   // cni_coh_pkg::POL_SHARED

// Register offsets and counters (rtl/cni/cni_cq_pkg.sv).
namespace reg {
inline constexpr uint8_t kId = 0x00, kCtrl = 0x08, kTimers = 0x10, kStatus = 0x18,
                         kTxHdr = 0x20, kTxData = 0x28, kRxHdr = 0x30, kRxData = 0x38,
                         kTxReady = 0x48, kCnt = 0x80;
}
// The engine's counters by name: the driver's enum (sw/include/cni/drv/cni.hpp).
using Cnt = drv::CniCounter;

struct Msg {
  uint16_t src = 0, dst = 0, handler = 0;
  uint8_t flags = 0;
  std::vector<uint8_t> data;
  bool operator==(const Msg&) const = default;
};

struct Knobs {
  double cmd_stall = 0.2;     // cmd_ready low
  double mem_stall = 0.2;     // port B grant withheld
  double ntx_stall = 0.1;     // network output not ready
  unsigned recall_min = 2, recall_max = 30;  // cycles a RECALL takes in the home
  unsigned net_latency = 40;  // cycles a frame takes to cross the network
  // EarlyPull: the chance that the CPU's stores to a send line drain only after it owns the next
  // line (it first stores a draft, then the line's final contents: an early pull in between must
  // be followed by another pull)
  double sq_rewrite = 0;
};

// Little-endian field access in a byte vector.
inline void put16(uint8_t* p, uint32_t v) { p[0] = uint8_t(v); p[1] = uint8_t(v >> 8); }
inline void put32(uint8_t* p, uint32_t v) { put16(p, v); put16(p + 2, v >> 16); }
inline uint32_t get16(const uint8_t* p) { return p[0] | (uint32_t(p[1]) << 8); }
inline uint32_t get32(const uint8_t* p) { return get16(p) | (get16(p + 2) << 16); }

template <class W>
void wide_from(W& w, const uint8_t* p, unsigned bytes) {
  for (unsigned i = 0; i < bytes / 4; i++) w[i] = get32(p + 4 * i);
}
template <class W>
void wide_to(const W& w, uint8_t* p, unsigned bytes) {
  for (unsigned i = 0; i < bytes / 4; i++) put32(p + 4 * i, w[i]);
}

// True with probability p (one draw from rng).
inline bool coin(std::mt19937_64& rng, double p) {
  return std::uniform_real_distribution<double>(0, 1)(rng) < p;
}

class Failure : public std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <class V>
class World;

template <class V>
class Node {
 public:
  Node(World<V>& w, unsigned id, uint64_t seed)
      : world_(w), id_(id), ctx_(make_context(seed, false)), rng_(seed) {
    top_ = std::make_unique<V>(ctx_.get(), "top");
    mem_.assign(size_t(kBase + w.lines() + 8) * w.lb(), 0);
    // idle inputs, then an asynchronous reset (a falling edge) held over two clock edges
    top_->node_id_i = uint16_t(id);
    top_->evt_valid_i = 0;
    top_->reg_valid_i = 0;
    top_->nrx_valid_i = 0;
    top_->cmd_ready_i = 0;
    top_->mem_gnt_i = 0;
    top_->ntx_ready_i = 0;
    top_->clk_i = 0;
    top_->rst_ni = 1;
    top_->eval();
    top_->rst_ni = 0;
    top_->eval();
    for (int i = 0; i < 2; i++) {
      top_->clk_i = 1;
      top_->eval();
      top_->clk_i = 0;
      top_->eval();
    }
    top_->rst_ni = 1;
    top_->eval();
  }
  ~Node() {
    make_current(ctx_.get());
    top_->final();
  }

  V& top() { return *top_; }
  VerilatedContext* ctx() { return ctx_.get(); }
  unsigned id() const { return id_; }

  // ---- the home side ------------------------------------------------------------------------
  uint8_t* line(unsigned l) { return &mem_[size_t(l) * world_.lb()]; }
  // A recall in flight (the home's table entry): the CPU is answered Retry.
  bool closed(unsigned l) const { return recall_.count(l) != 0; }
  std::map<unsigned, uint8_t> policies;   // POLICY commands seen
  unsigned locked_writes = 0;

  // The CPU's ownership of lines the engine made SHARED (CQ send lines with EarlyPull): a store
  // needs it; asking parks the request (TRIGGER) until the engine's RESUME; a pull (RECALL_DN)
  // takes it back (the CPU keeps S), and a pull that meets a parked request answers it Retry
  // (docs/endpoint.md, gap G1): the CPU asks again once the pull is done.
  bool shared(unsigned l) const {
    auto it = policies.find(l);
    return it != policies.end() && it->second == kPolShared;
  }
  bool owns(unsigned l) const { return own_.count(l) != 0; }
  bool parked(unsigned l) const { return parked_.count(l) != 0; }
  void ask_ownership(unsigned l) {
    parked_.insert(l);
    trg_.push_back(l);
  }
  unsigned triggers = 0, resumes = 0, retried = 0;

  // CPU stores and loads of device lines (immediate; the caller checks closed()).
  void cpu_store(unsigned l, const uint8_t* p) {
    std::memcpy(line(l), p, world_.lb());
    dirty_.insert(l);
  }
  // A slot the CPU consumed: the engine may overwrite it.
  void consumed(unsigned slot) { unconsumed_.erase(slot); }

  // ---- network ----------------------------------------------------------------------------
  std::deque<std::pair<std::vector<uint8_t>, bool>> in;  // frames to this node (bytes, FCS bad)

  void drive(const Knobs& k) {
    V& t = *top_;
    // events: one presented at a time, held until taken; which of the due ones, and whether a
    // parked request's TRIGGER goes first, is random
    if (!evt_) {
      std::vector<unsigned> ready;
      for (auto& [l, when] : due_) if (when <= world_.cycle()) ready.push_back(l);
      if (!trg_.empty() && (ready.empty() || coin(0.5))) {
        evt_ = trg_.front();
        trg_.pop_front();
        evt_trg_ = true;
      } else if (!ready.empty()) {
        unsigned l = ready[rng_() % ready.size()];
        due_.erase(l);
        evt_ = l;
        evt_trg_ = false;
      }
    }
    t.evt_valid_i = evt_.has_value();
    t.evt_kind_i = evt_trg_ ? 0 : 1;  // TRIGGER, RECALL_DONE
    t.evt_line_i = evt_ ? uint16_t(*evt_) : 0;
    t.evt_op_i = 0;
    t.evt_src_i = 0;
    t.cmd_ready_i = !coin(k.cmd_stall);
    t.mem_gnt_i = !coin(k.mem_stall);
    if (rd_line_) wide_from(t.mem_rdata_i, line(*rd_line_), world_.lb());
    rd_line_.reset();
    t.reg_valid_i = reg_.has_value();
    t.reg_we_i = reg_ && reg_->we;
    t.reg_addr_i = reg_ ? reg_->addr : 0;
    t.reg_wdata_i = reg_ ? reg_->wdata : 0;
    t.ntx_ready_i = !coin(k.ntx_stall);
    // a frame in, beat by beat
    t.nrx_valid_i = !in.empty();
    if (!in.empty()) {
      auto& [bytes, bad] = in.front();
      unsigned off = beat_ * 64, n = std::min<unsigned>(64, unsigned(bytes.size()) - off);
      uint8_t b[64] = {};
      std::memcpy(b, bytes.data() + off, n);
      wide_from(t.nrx_data_i, b, 64);
      t.nrx_keep_i = n == 64 ? ~uint64_t(0) : ((uint64_t(1) << n) - 1);
      t.nrx_last_i = off + n == bytes.size();
      t.nrx_user_i = bad && t.nrx_last_i;
    }
  }

  // After the combinational settle: the handshakes of this cycle.
  void sample(const Knobs& k) {
    V& t = *top_;
    const unsigned lines = world_.lines();
    if (t.cmd_valid_o && t.cmd_ready_i) {
      unsigned l = t.cmd_line_o, op = t.cmd_op_o;
      if (l < kBase || l >= kBase + lines) fail("command outside the region: line " + num(l));
      if (op == 4) {
        policies[l] = uint8_t(t.cmd_arg_o);
      } else if (op == 5) {
        // RESUME: grants the parked request (E); one that finds nothing parked answers nothing
        if (!world_.is_sq_line(l)) fail("RESUME of line " + num(l) + ", not a send line");
        if (parked_.erase(l)) {
          own_.insert(l);
          resumes++;
        }
      } else if (op == 1 || op == 6) {
        if (recall_.count(l)) fail("a second recall of line " + num(l) + " in flight");
        recall_[l] = op == 1 ? Op::kRecall : Op::kRecallDn;
        own_.erase(l);
        if (parked_.erase(l)) {   // G1: the parked request is answered Retry
          retried++;
          std::erase(trg_, l);
        }
        due_[l] = world_.cycle() + k.recall_min + rng_() % (k.recall_max - k.recall_min + 1);
      } else {
        fail("unexpected command " + num(op));
      }
    }
    if (t.mem_en_o && t.mem_gnt_i) {
      unsigned l = t.mem_addr_o;
      if (l < kBase || l >= kBase + lines) fail("port B outside the region: line " + num(l));
      if (t.mem_we_o) {
        // the locked write: its RECALL_DONE is presented, and taken no earlier than the next
        // cycle (docs/protocol.md, "The locked write")
        bool locked = t.evt_valid_i && !evt_trg_ && t.evt_line_i == l && recall_.count(l) &&
                      recall_[l] == Op::kRecall;
        if (!locked) fail("port-B write of line " + num(l) + " without its RECALL_DONE held");
        if (t.evt_ready_o) fail("RECALL_DONE of line " + num(l) + " taken in its write's cycle");
        // (a slot's lines are written in any order: the CPU is retried on each until then)
        if (auto s = world_.rq_slot_of(l)) {
          if (!unconsumed_[*s].insert(world_.rq_line_in_slot(l)).second)
            fail("RQ slot " + num(*s) + " overwritten before the CPU consumed it");
        }
        wide_to(t.mem_wdata_o, line(l), world_.lb());
        locked_writes++;
      } else {
        if (world_.is_sq_line(l) && dirty_.count(l))
          fail("SQ line " + num(l) + " read with CPU stores not pulled");
        rd_line_ = l;
      }
    }
    // (after port B: a locked write's event is taken in the cycle of the write)
    if (t.evt_valid_i && t.evt_ready_o) {
      unsigned l = *evt_;
      evt_.reset();
      if (evt_trg_) {
        triggers++;
      } else {
        // a pull done: memory is current, the CPU's stores so far are in it
        if (recall_[l] == Op::kRecallDn) dirty_.erase(l);
        recall_.erase(l);
      }
    }
    if (t.ntx_valid_o && t.ntx_ready_i) {
      uint8_t b[64];
      wide_to(t.ntx_data_o, b, 64);
      for (unsigned i = 0; i < 64; i++) if ((t.ntx_keep_o >> i) & 1) out_.push_back(b[i]);
      if (t.ntx_last_o) {
        world_.send_frame(id_, t.ntx_dest_o, std::move(out_));
        out_.clear();
      }
    }
    if (t.nrx_valid_i && t.nrx_ready_o) {
      if (t.nrx_last_i) {
        in.pop_front();
        beat_ = 0;
      } else {
        beat_++;
      }
    }
  }

  // ---- the register port (one access per cycle, the read data after the edge) -------------
  struct Access {
    bool we;
    uint8_t addr;
    uint32_t wdata;
  };
  void set_access(std::optional<Access> a) { reg_ = a; }

  bool idle() const {
    return top_->idle_o && due_.empty() && !evt_ && in.empty() && trg_.empty() && parked_.empty();
  }

 private:
  enum class Op { kRecall, kRecallDn };
  bool coin(double p) { return cq::coin(rng_, p); }
  static std::string num(unsigned v) { return std::to_string(v); }
  [[noreturn]] void fail(const std::string& what) {
    throw Failure("node " + num(id_) + ", cycle " + std::to_string(world_.cycle()) + ": " + what);
  }

  World<V>& world_;
  unsigned id_;
  std::unique_ptr<VerilatedContext> ctx_;
  std::unique_ptr<V> top_;
  std::mt19937_64 rng_;
  std::vector<uint8_t> mem_;
  std::map<unsigned, Op> recall_;          // recalls taken, RECALL_DONE not yet taken
  std::map<unsigned, uint64_t> due_;       // when each one's RECALL_DONE may be presented
  std::optional<unsigned> evt_;            // the event presented
  bool evt_trg_ = false;                   // ... a TRIGGER (else a RECALL_DONE)
  std::deque<unsigned> trg_;               // TRIGGERs of parked requests, not yet presented
  std::set<unsigned> parked_;              // send lines with the CPU's request parked
  std::set<unsigned> own_;                 // SHARED send lines the CPU holds writable
  std::optional<unsigned> rd_line_;        // port-B read data for the next cycle
  std::set<unsigned> dirty_;               // SQ lines with CPU stores not yet pulled
  std::map<unsigned, std::set<unsigned>> unconsumed_;  // RQ slot: lines written, not consumed
  std::optional<Access> reg_;
  std::vector<uint8_t> out_;
  unsigned beat_ = 0;
};

// The nodes, the network between them and the CPUs' side of the engine.
template <class V>
class World {
 public:
  World(unsigned cfg, unsigned lb, unsigned nodes, uint64_t seed, Knobs k = {})
      : cfg_(cfg), lb_(lb), k_(k), rng_(seed) {
    b_ = kMsgBytes / lb;
    r_ = kRegBytes / lb;
    if (cq()) {
      unsigned sq_bytes = cfg == kCni512Q ? 512 * 64 : 16 * 64;
      unsigned rq_bytes = cfg == kCni16Q ? 16 * 64 : 512 * 64;
      ns_ = sq_bytes / kMsgBytes;
      nr_ = rq_bytes / kMsgBytes;
      lines_ = r_ + 3 + (ns_ + nr_) * b_;
    } else {
      lines_ = r_;
    }
    for (unsigned i = 0; i < nodes; i++) nodes_.push_back(std::make_unique<Node<V>>(*this, i, seed * 131 + i));
    cpu_.resize(nodes);
    sb_.resize(nodes);
  }

  bool cq() const { return cfg_ != kNi2w; }
  unsigned lb() const { return lb_; }
  unsigned lines() const { return lines_; }
  unsigned slots_sq() const { return ns_; }
  unsigned slots_rq() const { return nr_; }
  uint64_t cycle() const { return cycle_; }
  Node<V>& node(unsigned i) { return *nodes_[i]; }
  unsigned size() const { return unsigned(nodes_.size()); }
  Knobs& knobs() { return k_; }

  // layout (docs/cni.md section 3), device lines
  unsigned l_sq_head() const { return kBase + r_ + 1; }
  unsigned l_rq_head() const { return kBase + r_ + 2; }
  unsigned l_sq(unsigned slot, unsigned j) const { return kBase + r_ + 3 + slot * b_ + j; }
  unsigned l_rq(unsigned slot, unsigned j) const {
    return kBase + r_ + 3 + ns_ * b_ + slot * b_ + j;
  }
  bool is_sq_line(unsigned l) const { return cq() && l >= l_sq(0, 0) && l < l_sq(ns_, 0); }
  std::optional<unsigned> rq_slot_of(unsigned l) const {
    if (!cq() || l < l_rq(0, 0) || l >= l_rq(nr_, 0)) return std::nullopt;
    return (l - l_rq(0, 0)) / b_;
  }
  unsigned rq_line_in_slot(unsigned l) const { return (l - l_rq(0, 0)) % b_; }

  // ---- time -------------------------------------------------------------------------------
  void step() {
    for (auto& n : nodes_) {
      make_current(n->ctx());
      n->drive(k_);
      n->top().clk_i = 0;
      n->top().eval();
      n->sample(k_);
    }
    for (auto& n : nodes_) {
      make_current(n->ctx());
      n->top().clk_i = 1;
      n->top().eval();
      n->ctx()->timeInc(1);
      if (n->ctx()->gotError()) throw Failure("node " + std::to_string(n->id()) + ": assertion");
    }
    cycle_++;
    // frames whose latency is over reach their destination's input
    for (auto it = wire_.begin(); it != wire_.end();) {
      if (it->due > cycle_) {
        ++it;
        continue;
      }
      if (it->dst < nodes_.size()) nodes_[it->dst]->in.emplace_back(std::move(it->bytes), it->bad);
      it = wire_.erase(it);
    }
  }
  void run(unsigned cycles) { for (unsigned i = 0; i < cycles; i++) step(); }
  // Runs until every node is idle and nothing is on the wire (or the limit: false).
  bool settle(unsigned limit = 200000) {
    for (unsigned i = 0; i < limit; i++) {
      bool quiet = wire_.empty();
      for (auto& n : nodes_) quiet = quiet && n->idle();
      if (quiet) return true;
      step();
    }
    return false;
  }

  // ---- network ----------------------------------------------------------------------------
  // Returns false to drop a frame, or sets its FCS bad (src, dst, bytes, bad).
  std::function<bool(unsigned, unsigned, std::vector<uint8_t>&, bool&)> on_frame;
  std::vector<std::vector<uint8_t>> frames_seen;   // every frame sent, in order
  void send_frame(unsigned src, unsigned dst, std::vector<uint8_t> bytes) {
    frames_seen.push_back(bytes);
    bool bad = false;
    if (on_frame && !on_frame(src, dst, bytes, bad)) return;
    wire_.push_back({cycle_ + k_.net_latency, dst, std::move(bytes), bad});
  }
  void inject(unsigned dst, std::vector<uint8_t> bytes, bool bad = false) {
    wire_.push_back({cycle_ + 1, dst, std::move(bytes), bad});
  }

  // ---- the register window ----------------------------------------------------------------
  uint32_t reg32(unsigned n, uint8_t addr, bool we, uint32_t wdata = 0) {
    nodes_[n]->set_access(typename Node<V>::Access{we, addr, wdata});
    step();
    nodes_[n]->set_access(std::nullopt);
    return nodes_[n]->top().reg_rdata_o;
  }
  uint64_t rd(unsigned n, uint8_t addr) {
    uint64_t lo = reg32(n, addr, false);
    return lo | (uint64_t(reg32(n, addr + 4, false)) << 32);
  }
  void wr(unsigned n, uint8_t addr, uint64_t v) {
    reg32(n, addr, true, uint32_t(v));
    reg32(n, addr + 4, true, uint32_t(v >> 32));
  }
  uint32_t counter(unsigned n, Cnt c) {
    return reg32(n, uint8_t(reg::kCnt + 4 * static_cast<unsigned>(c)), false);
  }
  void open(unsigned n, unsigned nodes = 0) { wr(n, reg::kCtrl, 1 | (nodes << 8)); }
  void close(unsigned n) { wr(n, reg::kCtrl, 0); }

  // ---- the CPU (docs/cni.md section 7, "Per configuration") --------------------------------
  // One fragment of at most kMaxLen bytes (longer ones are the tests' own bad input). False:
  // no room now.
  bool send(unsigned n, const Msg& m) {
    return cq() ? send_cq(n, m) : send_ni2w(n, m);
  }
  std::optional<Msg> recv(unsigned n) { return cq() ? recv_cq(n) : recv_ni2w(n); }

  // Scoreboard: what send() pushed, per (source, destination), and what arrived.
  void expect(const Msg& m) { sb_.at(m.dst)[m.src].push_back(m); }
  void arrived(unsigned n, const Msg& m) {
    auto& q = sb_[n][m.src];
    if (q.empty()) throw Failure("node " + std::to_string(n) + ": unexpected message");
    if (!(q.front() == m))
      throw Failure("node " + std::to_string(n) + ": message from " + std::to_string(m.src) +
                    " out of order or corrupted (" + std::to_string(m.data.size()) + " bytes, " +
                    std::to_string(q.front().data.size()) + " expected)");
    q.pop_front();
  }
  size_t outstanding() const {
    size_t k = 0;
    for (auto& d : sb_) for (auto& [s, q] : d) k += q.size();
    return k;
  }

  // the CPU's pointers (pass parity on top of the slot index, as in memory)
  struct Cpu {
    uint32_t sq_tail = 0, sq_shadow = 0, rq_head = 0;
  };
  Cpu& cpu(unsigned n) { return cpu_[n]; }

  static uint32_t ptr_word(uint32_t p, unsigned slots) {
    return (p % slots) | ((p / slots) & 1u) << 31;
  }
  static uint32_t ptr_of(uint32_t w, unsigned slots) {
    return (w & 0x7fffffffu) + ((w >> 31) ? slots : 0);
  }
  static bool sense_of(uint32_t p, unsigned slots) { return ((p / slots) & 1u) == 0; }

  // A slot's line images for message m with the valid bit `sense`.
  std::vector<uint8_t> slot_image(const Msg& m, bool sense) const {
    std::vector<uint8_t> img(kMsgBytes, 0);
    img[0] = sense ? 1 : 0;
    img[1] = m.flags;
    put16(&img[2], uint32_t(m.data.size()));
    put16(&img[4], m.dst);
    put16(&img[6], m.handler);
    std::memcpy(&img[12], m.data.data(), std::min<size_t>(m.data.size(), kMaxLen));
    return img;
  }
  unsigned lines_of(size_t len) const {
    return unsigned((std::min<size_t>(len, kMaxLen) + kHdrBytes + lb_ - 1) / lb_);
  }

 private:
  bool send_cq(unsigned n, const Msg& m) {
    Cpu& c = cpu_[n];
    Node<V>& nd = *nodes_[n];
    const unsigned mod = 2 * ns_;
    if ((c.sq_tail - c.sq_shadow + mod) % mod >= ns_) {
      if (nd.closed(l_sq_head())) return false;
      c.sq_shadow = ptr_of(get32(nd.line(l_sq_head())), ns_);
      if ((c.sq_tail - c.sq_shadow + mod) % mod >= ns_) return false;
    }
    unsigned slot = c.sq_tail % ns_;
    auto img = slot_image(m, sense_of(c.sq_tail, ns_));
    const unsigned n_lines = lines_of(m.data.size());
    bool redo = false;   // line j - 1 holds a draft, its final contents are stored after line j
    for (unsigned j = 0; j < n_lines; j++) {
      // (no draw when the knob is off: the other tests' random streams stay as they were)
      const bool draft = j + 1 < n_lines && k_.sq_rewrite > 0 && coin(rng_, k_.sq_rewrite);
      std::vector<uint8_t> line(img.begin() + j * lb_, img.begin() + (j + 1) * lb_);
      if (draft) for (auto& b : line) b = uint8_t(~b);
      store_sq(n, l_sq(slot, j), line.data());
      if (redo) {   // the draft's line drains a while after this one is owned
        run(unsigned(rng_() % 24));
        store_sq(n, l_sq(slot, j - 1), &img[(j - 1) * lb_]);
      }
      redo = draft;
    }
    c.sq_tail = (c.sq_tail + 1) % mod;
    wr(n, reg::kTxReady, 1);
    return true;
  }
  // The CPU's store to send line l. A line the engine made SHARED (EarlyPull) needs ownership:
  // the CPU asks (the request parks) and waits for the RESUME; a line being pulled is retried.
  void store_sq(unsigned n, unsigned l, const uint8_t* p) {
    Node<V>& nd = *nodes_[n];
    if (!nd.shared(l)) {
      if (nd.closed(l)) throw Failure("CPU store to a send line being pulled");
      nd.cpu_store(l, p);
      return;
    }
    const uint64_t start = cycle_;
    while (nd.closed(l) || !nd.owns(l)) {
      if (!nd.closed(l) && !nd.owns(l) && !nd.parked(l)) nd.ask_ownership(l);
      step();
      if (cycle_ - start > 100000) throw Failure("no RESUME for send line " + std::to_string(l));
    }
    nd.cpu_store(l, p);
  }
  std::optional<Msg> recv_cq(unsigned n) {
    Cpu& c = cpu_[n];
    Node<V>& nd = *nodes_[n];
    unsigned slot = c.rq_head % nr_;
    if (nd.closed(l_rq(slot, 0))) return std::nullopt;  // Retry
    const uint8_t* l0 = nd.line(l_rq(slot, 0));
    if (bool(l0[0] & 1) != sense_of(c.rq_head, nr_)) return std::nullopt;
    size_t len = get16(l0 + 2);
    if (len > kMaxLen) throw Failure("RQ slot with length " + std::to_string(len));
    unsigned k = lines_of(len);
    for (unsigned j = 1; j < k; j++) if (nd.closed(l_rq(slot, j))) return std::nullopt;
    if (nd.closed(l_rq_head())) return std::nullopt;   // the store to RQ_HEAD would be retried
    std::vector<uint8_t> img(k * lb_);
    for (unsigned j = 0; j < k; j++) std::memcpy(&img[j * lb_], nd.line(l_rq(slot, j)), lb_);
    Msg m;
    m.flags = img[1];
    m.src = uint16_t(get16(&img[4]));
    m.handler = uint16_t(get16(&img[6]));
    m.dst = uint16_t(n);
    m.data.assign(img.begin() + kHdrBytes, img.begin() + kHdrBytes + len);
    nd.consumed(slot);
    c.rq_head = (c.rq_head + 1) % (2 * nr_);
    uint8_t hl[128] = {};
    put32(hl, ptr_word(c.rq_head, nr_));
    nd.cpu_store(l_rq_head(), hl);
    return m;
  }
  bool send_ni2w(unsigned n, const Msg& m) {
    unsigned words = unsigned((m.data.size() + 7) / 8);
    uint32_t free_words = reg32(n, reg::kStatus, false) & 0xffff;
    if (free_words < 1 + words) return false;
    wr(n, reg::kTxHdr, uint64_t(m.data.size()) | uint64_t(m.dst) << 16 |
                           uint64_t(m.handler) << 32 | uint64_t(m.flags & 3) << 48);
    for (unsigned w = 0; w < words; w++) {
      uint64_t v = 0;
      for (unsigned b = 0; b < 8 && 8 * w + b < m.data.size(); b++)
        v |= uint64_t(m.data[8 * w + b]) << (8 * b);
      wr(n, reg::kTxData, v);
    }
    return true;
  }
  std::optional<Msg> recv_ni2w(unsigned n) {
    if ((reg32(n, reg::kStatus, false) >> 16) == 0) return std::nullopt;
    uint64_t h = rd(n, reg::kRxHdr);
    if (!(h >> 63)) throw Failure("STATUS shows a message, RX_HDR not valid");
    Msg m;
    size_t len = h & 0xffff;
    m.src = uint16_t(h >> 16);
    m.handler = uint16_t(h >> 32);
    m.flags = uint8_t((h >> 48) & 3);
    m.dst = uint16_t(n);
    for (unsigned w = 0; w < (len + 7) / 8; w++) {
      uint64_t v = rd(n, reg::kRxData);
      for (unsigned b = 0; b < 8 && 8 * w + b < len; b++) m.data.push_back(uint8_t(v >> (8 * b)));
    }
    return m;
  }

  struct InFlight {
    uint64_t due;
    unsigned dst;
    std::vector<uint8_t> bytes;
    bool bad;
  };
  unsigned cfg_, lb_;
  Knobs k_;
  std::mt19937_64 rng_;
  unsigned b_ = 0, r_ = 0, ns_ = 0, nr_ = 0, lines_ = 0;
  uint64_t cycle_ = 0;
  std::vector<std::unique_ptr<Node<V>>> nodes_;
  std::deque<InFlight> wire_;
  std::vector<Cpu> cpu_;
  std::vector<std::map<unsigned, std::deque<Msg>>> sb_;   // [dst][src]
};

}  // namespace cni::tb::cq
