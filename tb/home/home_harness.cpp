// SPDX-License-Identifier: Apache-2.0
// The Verilated home agent and everything around it (see home_harness.hpp).
#include "home/home_harness.hpp"

#include <bit>
#include <cstdlib>
#include <stdexcept>

#include "Vcni_home_agent.h"
#include "mem/axi_dram.hpp"
#include "msg_wire.hpp"
#include "verilated.h"
#include "verilated_fst_c.h"
#include "vlt_model.hpp"

namespace cni::tb::home {

namespace {

constexpr unsigned ch_index(Chan ch) { return static_cast<unsigned>(ch); }
constexpr unsigned kHdrTopBits = proto::kHeaderBits - 32 * (kHdrWords - 1);
constexpr uint32_t kHdrTopMask = (1u << kHdrTopBits) - 1;

template <class W>
void put_hdr(W& port, const Msg& m) {
  uint32_t w[kHdrWords];
  pack_hdr(m, w);
  for (unsigned i = 0; i < kHdrWords; ++i) port[i] = w[i];
}
template <class W>
Msg get_hdr(const W& port) {
  uint32_t w[kHdrWords];
  for (unsigned i = 0; i < kHdrWords; ++i) w[i] = port[i];
  return unpack_hdr(w);
}
// Random bits on an idle channel's header: the home must not look at it.
template <class W>
void put_junk_hdr(W& port, std::mt19937_64& rng) {
  for (unsigned i = 0; i < kHdrWords; ++i) port[i] = static_cast<uint32_t>(rng());
  port[kHdrWords - 1] &= kHdrTopMask;
}
// A line on a wide port: byte b at bits [8b+7:8b].
template <class W>
void put_line(W& port, const Line& l, unsigned bytes) {
  for (unsigned w = 0; w < bytes / 4; ++w) {
    port[w] = uint32_t{l[4 * w]} | uint32_t{l[4 * w + 1]} << 8 | uint32_t{l[4 * w + 2]} << 16 |
              uint32_t{l[4 * w + 3]} << 24;
  }
}
template <class W>
Line get_line(const W& port, unsigned bytes) {
  Line l{};
  for (unsigned w = 0; w < bytes / 4; ++w) {
    for (unsigned b = 0; b < 4; ++b) l[4 * w + b] = static_cast<uint8_t>(port[w] >> (8 * b));
  }
  return l;
}

}  // namespace

unsigned HomeGeometry::region_base(unsigned r) const {
  unsigned b = 0;
  for (unsigned i = 0; i < r; ++i) b += region_lines[i];
  return b;
}

unsigned HomeGeometry::region_of(unsigned line) const {
  unsigned r = 0;
  for (unsigned i = 1; i < kNumRegions; ++i) {
    if (line >= region_base(i)) r = i;
  }
  return r;
}

const HomeGeometry& home_geometry() {
  static const HomeGeometry g{CNI_HOME_LINE_BYTES,     CNI_HOME_NUM_AGENTS,     CNI_HOME_TT_ENTRIES,
                              CNI_HOME_TT_RESERVE,     CNI_HOME_PIPELINED != 0, CNI_HOME_DEV_BASE,
                              {CNI_HOME_REGION_LINES}, CNI_HOME_DRAM_IDX_W,     CNI_HOME_FRAME_W};
  return g;
}

const char* cmd_name(Cmd c) {
  static const char* names[] = {"ARM",    "RECALL", "RELEASE",   "DISARM",
                                "POLICY", "RESUME", "RECALL_DN", "NACK"};
  return names[static_cast<unsigned>(c) & 7];
}

struct HomeHarness::Model {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vcni_home_agent> top;
  std::unique_ptr<VerilatedFstC> fst;
  // the DRAM behind the AXI4 master (DRAM-backed lines only): a slot of a power of two of beats
  // per line (docs/dram.md), from AXI address 0 (DramBase)
  std::unique_ptr<sim::Dram> dram;
  std::unique_ptr<AxiDramSlave<Vcni_home_agent>> axi;
  size_t axi_reported = 0;  // the slave's rule violations already reported

  void half() {
    top->eval();
    if (fst) fst->dump(ctx->time());
    ctx->timeInc(1);
  }
};

HomeHarness::HomeHarness(const Options& opt)
    : opt_(opt),
      m_(std::make_unique<Model>()),
      rng_(opt.seed * 0x9E3779B97F4A7C15ull + 1),
      mem_(home_geometry().num_lines()) {
  const bool trace = trace_wanted(opt.trace);
  m_->ctx = make_context(opt.seed, trace);
  m_->top = std::make_unique<Vcni_home_agent>(m_->ctx.get(), "top");
  if (trace) m_->fst = open_trace(*m_->top, "", opt.name);
  const HomeGeometry& g = home_geometry();
  if (g.dram_idx_w) {
    m_->dram = std::make_unique<sim::Dram>(line_dram_params(g.dram_lines(), g.line_bytes));
    AxiDramConfig c;
    c.data_bytes = kDramBeatBytes;
    c.period = 3333;  // 300 MHz
    c.stall = opt.dram_stall;
    c.seed = opt.seed;
    m_->axi = std::make_unique<AxiDramSlave<Vcni_home_agent>>(*m_->dram, c);
  }
  for (Chan ch : {Chan::Fwd, Chan::Rsp, Chan::Dat}) set_ready(ch, true);
  set_fwd_hold([] { return false; });
  set_evt_ready(true);
}

HomeHarness::~HomeHarness() {
  make_current(m_->ctx.get());
  m_->top->final();
  if (m_->fst) m_->fst->close();
}

void HomeHarness::reset() {
  auto& t = *m_->top;
  t.rst_ni = 0;
  t.clk_i = 0;
  drive();
  m_->half();
  for (int i = 0; i < 3; ++i) {
    t.clk_i = 1;
    m_->half();
    t.clk_i = 0;
    m_->half();
  }
  t.rst_ni = 1;
  m_->half();
  if (!run_until([&] { return m_->top->init_done_o != 0; }, 4 * geometry().num_lines() + 16)) {
    fail("init_done_o never rose after reset");
  }
  mem_writes_.clear();  // the init sweep's
}

void HomeHarness::send_on(Chan ch, const Msg& m) {
  if (ch != Chan::Req && ch != Chan::Rsp) {
    throw std::invalid_argument(std::string("HomeHarness: the home agent takes only REQ and RSP; ") +
                                m.str() + " is for the device's caching agent");
  }
  in_[ch_index(ch)].push_back({ch, m, cycle_ + 1, 0});
}

bool HomeHarness::inputs_idle() const {
  for (const auto& q : in_) {
    if (!q.empty()) return false;
  }
  return cmd_q_.empty();
}

Msg HomeHarness::make(Op op, uint8_t src, Addr addr, uint8_t tag, const Line* data) const {
  Msg m;
  m.op = op;
  m.src = src;
  m.dst = opt_.agent_id;
  m.tag = tag;
  m.addr = addr;
  if (proto::carries_data(op)) {
    m.len = static_cast<uint8_t>(geometry().line_bytes);
    if (data) m.data = *data;
  }
  return m;
}

void HomeHarness::set_ready(Chan ch, bool ready) {
  set_ready(ch, [ready] { return ready; });
}
void HomeHarness::set_ready(Chan ch, Script ready) { ready_[ch_index(ch)] = std::move(ready); }
void HomeHarness::stall_randomly(Chan ch, double p) {
  set_ready(ch, [this, p] { return std::uniform_real_distribution<double>(0, 1)(rng_) >= p; });
}
void HomeHarness::set_fwd_hold(Script hold) { hold_ = std::move(hold); }
void HomeHarness::set_evt_ready(bool ready) {
  set_evt_ready([ready] { return ready; });
}
void HomeHarness::set_evt_ready(Script ready) { evt_ready_ = std::move(ready); }

void HomeHarness::command(Cmd op, unsigned line, unsigned arg) {
  cmd_q_.push_back({op, arg, line, cycle_ + 1, 0});
}

bool HomeHarness::got_error() const { return m_->ctx->gotError(); }
bool HomeHarness::dram_error() const { return m_->top->dram_err_o; }
uint64_t HomeHarness::dram_beats(bool write) const {
  if (!m_->axi) return 0;
  return write ? m_->axi->stats().beats_w : m_->axi->stats().beats_r;
}
void HomeHarness::dram_fail_next_read() { m_->axi->fail_next_read(); }
void HomeHarness::dram_fail_next_write() { m_->axi->fail_next_write(); }

void HomeHarness::fail(const std::string& what) {
  errors_.push_back("cycle " + std::to_string(cycle_) + ": " + what);
}

void HomeHarness::run(unsigned n) {
  for (unsigned i = 0; i < n; ++i) step();
}

bool HomeHarness::run_until(const std::function<bool()>& done, unsigned max_cycles) {
  for (unsigned i = 0; i < max_cycles; ++i) {
    if (done()) return true;
    step();
  }
  return done();
}

// Inputs for the coming rising edge.
void HomeHarness::drive() {
  auto& t = *m_->top;
  const HomeGeometry& g = geometry();
  t.agent_id_i = opt_.agent_id;
  t.cfg_ret_excl_i = ret_excl_;
  t.cfg_park_timeout_i = park_timeout_;
  t.time_i = static_cast<uint32_t>(cycle_);  // the time base: a cycle count
  const auto head = [&](Chan ch) -> const Msg* {
    const auto& q = in_[ch_index(ch)];
    return q.empty() ? nullptr : &q.front().msg;
  };
  const Msg* req = head(Chan::Req);
  const Msg* rsp = head(Chan::Rsp);
  t.req_valid_i = req != nullptr;
  t.rsp_valid_i = rsp != nullptr;
  req ? put_hdr(t.req_hdr_i, *req) : put_junk_hdr(t.req_hdr_i, rng_);
  rsp ? put_hdr(t.rsp_hdr_i, *rsp) : put_junk_hdr(t.rsp_hdr_i, rng_);
  Line junk{};
  for (auto& b : junk) b = static_cast<uint8_t>(rng_());
  put_line(t.req_data_i, req ? req->data : junk, g.line_bytes);
  put_line(t.rsp_data_i, rsp ? rsp->data : junk, g.line_bytes);

  t.cmd_valid_i = !cmd_q_.empty();
  if (!cmd_q_.empty()) {
    t.cmd_op_i = static_cast<uint8_t>(cmd_q_.front().op);
    t.cmd_arg_i = cmd_q_.front().arg;
    t.cmd_line_i = cmd_q_.front().line;
  } else {
    t.cmd_op_i = rng_() & 7;
    t.cmd_arg_i = rng_() & 3;
    t.cmd_line_i = rng_() % g.num_lines();
  }
  for (Chan ch : {Chan::Fwd, Chan::Rsp, Chan::Dat})
    ready_now_[ch_index(ch)] = ready_[ch_index(ch)]();
  t.ofwd_ready_i = ready_now_[ch_index(Chan::Fwd)];
  t.orsp_ready_i = ready_now_[ch_index(Chan::Rsp)];
  t.odat_ready_i = ready_now_[ch_index(Chan::Dat)];
  hold_now_ = hold_();
  t.ofwd_hold_i = hold_now_;
  t.evt_ready_i = evt_ready_();
  put_line(t.mem_rdata_i, rd_data_, g.line_bytes);
  // no engine accesses DRAM-backed lines here (the endpoint's tests do: tests/ts)
  t.pb_en_i = 0;
  t.pb_we_i = 0;
}

void HomeHarness::step() {
  auto& t = *m_->top;
  const HomeGeometry& g = geometry();
  drive();
  t.clk_i = 0;
  m_->half();
  if (m_->axi) {
    m_->axi->drive(t, cycle_);
    t.eval();
  }

  // ---- handshakes and monitors on the settled signals ----------------------------------------
  const bool in_fire[kIn] = {t.req_valid_i && t.req_ready_o, false, t.rsp_valid_i && t.rsp_ready_o,
                             false};
  const bool cmd_fire = t.cmd_valid_i && t.cmd_ready_o;
  std::vector<OutMsg> outs;
  const auto output = [&](Chan ch, bool valid, const Msg& m) {
    const unsigned i = ch_index(ch);
    if (!valid) return;
    const Msg& w = waiting_msg_[i];
    if (waiting_[i] &&
        (w.op != m.op || w.src != m.src || w.dst != m.dst || w.tag != m.tag || w.flags != m.flags ||
         w.len != m.len || w.addr != m.addr || w.data != m.data)) {
      fail(std::string(proto::chan_name(ch)) + " output changed while waiting: " + w.str() +
           " became " + m.str() + (w.data != m.data ? " (its data)" : ""));
    }
    waiting_[i] = !ready_now_[i];
    waiting_msg_[i] = m;
    if (ready_now_[i]) outs.push_back({ch, m, cycle_ + 1});
  };
  // RSP and DAT before FWD: answers leave ahead of a snoop in the same cycle (rule 8).
  output(Chan::Rsp, t.orsp_valid_o, get_hdr(t.orsp_hdr_o));
  if (t.odat_valid_o) {
    Msg d = get_hdr(t.odat_hdr_o);
    d.data = get_line(t.odat_data_o, g.line_bytes);
    output(Chan::Dat, true, d);
  }
  if (t.ofwd_valid_o && hold_now_) fail("a snoop is offered while ofwd_hold_i is set");
  output(Chan::Fwd, t.ofwd_valid_o, get_hdr(t.ofwd_hdr_o));

  const bool evt_fire = t.evt_valid_o && t.evt_ready_i;
  EvtRec evt{static_cast<Evt>(t.evt_kind_o), t.evt_line_o, static_cast<Op>(t.evt_op_o),
             static_cast<uint8_t>(t.evt_src_o), cycle_ + 1};
  if (t.evt_valid_o && evt.line >= g.num_lines() && !g.is_dram(evt.line)) {
    fail("event names line " + std::to_string(evt.line) + " beyond the RAMs");
  }
  const bool mem_en = t.mem_en_o;
  const bool mem_we = t.mem_we_o;
  const unsigned mem_addr = t.mem_addr_o;
  const Line wdata = get_line(t.mem_wdata_o, g.line_bytes);
  if (mem_en && mem_addr >= g.num_lines()) {
    fail("memory port A addresses line " + std::to_string(mem_addr) + " beyond the RAM");
  }
  const unsigned cnt = t.cnt_o;
  if (cnt >> static_cast<unsigned>(Counter::ErrCredit) & 1) fail("the home pulsed ERR_CREDIT");
  const unsigned dram_cnt = t.dram_cnt_o;
  if (m_->axi) {
    m_->axi->edge(t, cycle_);
    const auto& v = m_->axi->violations();
    for (; m_->axi_reported < v.size(); ++m_->axi_reported) fail("AXI: " + v[m_->axi_reported]);
  }

  t.clk_i = 1;
  m_->half();
  ++cycle_;

  // ---- the state the handshakes changed ------------------------------------------------------
  for (unsigned c = 0; c < kIn; ++c) {
    if (!in_fire[c]) continue;
    InMsg taken = in_[c].front();
    in_[c].pop_front();
    taken.taken = cycle_;
    taken_.push_back(taken);
  }
  if (cmd_fire) {
    CmdRec c = cmd_q_.front();
    cmd_q_.pop_front();
    c.taken = cycle_;
    cmds_.push_back(c);
  }
  for (auto& o : outs) out_.push_back(std::move(o));
  if (evt_fire) evts_.push_back(evt);
  if (mem_en && mem_addr < g.num_lines()) {
    if (mem_we) {
      mem_[mem_addr] = wdata;
      mem_writes_.push_back({mem_addr, wdata, cycle_});
    } else {
      rd_data_ = mem_[mem_addr];
    }
  }
  for (unsigned c = 0; c < static_cast<unsigned>(Counter::Num); ++c) counts_[c] += cnt >> c & 1;
  for (unsigned c = 0; c < dram_counts_.size(); ++c) dram_counts_[c] += dram_cnt >> c & 1;
}

}  // namespace cni::tb::home
