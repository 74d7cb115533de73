// SPDX-License-Identifier: Apache-2.0
// The Verilated device caching agent as a fabric agent (see rtl_cache_agent.hpp).
#include "cache/rtl_cache_agent.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <type_traits>

#include "Vcni_cache_agent.h"
#include "msg_wire.hpp"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace cni::tb {

using proto::Msg;
using proto::Op;

const CacheGeometry& cache_geometry() {
  static const CacheGeometry g{CNI_CACHE_LINE_BYTES, CNI_CACHE_SETS,    CNI_CACHE_WAYS,
                               CNI_CACHE_MSHRS,      CNI_CACHE_ID_W,    CNI_CACHE_HOME_SHIFT,
                               CNI_CACHE_BACKOFF_W};
  return g;
}

const char* ca_op_name(CaOp op) {
  switch (op) {
    case CaOp::RdS: return "RD_S";
    case CaOp::RdX: return "RD_X";
    case CaOp::Wr: return "WR";
    case CaOp::RdNA: return "RD_NA";
    case CaOp::WrInv: return "WR_INV";
    case CaOp::Flush: return "FLUSH";
  }
  return "CA?";
}

const char* line_state_name(LineState s) {
  static const char* names[] = {"I", "S", "E", "O", "M", "IS", "IM", "SM", "MI", "OM"};
  const auto i = static_cast<unsigned>(s);
  return i < std::size(names) ? names[i] : "?";
}

sim::CacheState to_cache_state(LineState s) {
  return s == LineState::OM ? sim::CacheState::SM : static_cast<sim::CacheState>(s);
}

namespace {

bool is_read(CaOp op) { return op == CaOp::RdS || op == CaOp::RdX || op == CaOp::RdNA; }

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// req_be_i: 64 bits (a 64-bit port) or 128 bits (a wide port).
template <class P>
void put_mask(P& port, const RtlCacheAgent::ByteMask& be, unsigned n) {
  if constexpr (std::is_integral_v<P>) {
    uint64_t v = 0;
    for (unsigned i = 0; i < n; ++i) v |= uint64_t{be[i]} << i;
    port = v;
  } else {
    for (unsigned w = 0; w < n / 32; ++w) {
      uint32_t v = 0;
      for (unsigned b = 0; b < 32; ++b) v |= uint32_t{be[32 * w + b]} << b;
      port[w] = v;
    }
  }
}

}  // namespace

struct RtlCacheAgent::Model {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vcni_cache_agent> top;
  std::unique_ptr<VerilatedFstC> fst;
};

RtlCacheAgent::RtlCacheAgent(sim::Kernel& k, sim::Fabric& f, sim::NodeId node, proto::AgentId id,
                             const Options& opt)
    : sim::Agent(id), k_(k), f_(f), opt_(opt), m_(std::make_unique<Model>()),
      clk_(k, opt.name, opt.freq_mhz), rng_(opt.seed * 0x9E3779B97F4A7C15ull + 1) {
  const CacheGeometry& g = cache_geometry();
  if (f.line_bytes() != g.line_bytes) {
    throw std::invalid_argument(opt.name + ": the model has " + std::to_string(g.line_bytes) +
                                " B lines, the fabric " + std::to_string(f.line_bytes()));
  }
  if (g.backoff_bits < 32 && opt.backoff_cycles >> g.backoff_bits) {
    throw std::invalid_argument(opt.name + ": backoff_cycles " +
                                std::to_string(opt.backoff_cycles) + " exceeds " +
                                std::to_string(g.backoff_bits) + " bits");
  }
  m_->ctx = std::make_unique<VerilatedContext>();
  m_->ctx->fatalOnError(false);
  m_->ctx->randReset(2);
  m_->ctx->randSeed(static_cast<int>(opt.seed % 0x7fffffff) + 1);
  const char* env = std::getenv("CNI_TRACE");
  const bool trace = opt.trace || (env && std::string(env) == "1");
  if (trace) m_->ctx->traceEverOn(true);
  m_->top = std::make_unique<Vcni_cache_agent>(m_->ctx.get(), "top");
  if (trace) {
    m_->fst = std::make_unique<VerilatedFstC>();
    m_->top->trace(m_->fst.get(), 99);
    std::filesystem::create_directories(opt.trace_dir);
    m_->fst->open((std::filesystem::path(opt.trace_dir) / (opt.name + ".fst")).c_str());
  }
  auto& t = *m_->top;
  t.agent_id_i = id;
  t.cfg_backoff_i = opt.backoff_cycles;
  t.req_valid_i = 0;
  t.in_valid_i = 0;
  t.clk_i = 0;
  t.rst_ni = 0;
  t.eval();
  for (int i = 0; i < 2; ++i) tick();
  t.rst_ni = 1;
  for (unsigned i = 1u << g.id_bits; i-- > 0;) free_ids_.push_back(i);
  f.attach(*this, node);
  f.on_send([this](const Msg& m, sim::Time) { home_performed(m); });
  clk_.on_rising([this](uint64_t) { tick(); });
  clk_.start();
}

RtlCacheAgent::~RtlCacheAgent() {
  clk_.stop();
  if (m_->fst) m_->fst->close();
  m_->top->final();
}

void RtlCacheAgent::deliver(const Msg& m) { inbox_.push_back(m); }

void RtlCacheAgent::submit(CaOp op, proto::Addr addr, Done done, const uint8_t* data,
                           const ByteMask* be) {
  auto r = std::make_shared<Request>();
  r->op = op;
  r->addr = addr;
  if (data != nullptr) std::memcpy(r->data.data(), data, line_bytes());
  if (be != nullptr) {
    r->be = *be;
  } else {
    for (unsigned i = 0; i < line_bytes(); ++i) r->be.set(i);
  }
  r->done = std::move(done);
  queue_.push_back(std::move(r));
  ++open_;
}

void RtlCacheAgent::set_stalls(double oreq, double orsp, double rsp) {
  opt_.oreq_stall = oreq;
  opt_.orsp_stall = orsp;
  opt_.rsp_stall = rsp;
}

LineState RtlCacheAgent::state(proto::Addr line) const {
  auto it = states_.find(line);
  return it == states_.end() ? LineState::I : it->second;
}

bool RtlCacheAgent::got_error() const { return m_->ctx->gotError(); }

bool RtlCacheAgent::stall(double p) {
  return p > 0.0 && std::uniform_real_distribution<double>(0.0, 1.0)(rng_) < p;
}

void RtlCacheAgent::tick() {
  auto& t = *m_->top;
  auto& ctx = *m_->ctx;
  const uint64_t period = static_cast<uint64_t>(std::llround(1e6 / opt_.freq_mhz));
  drive();
  t.clk_i = 0;
  t.eval();
  if (m_->fst) m_->fst->dump(ctx.time());
  if (t.rst_ni) sample();
  ctx.timeInc(period / 2);
  t.clk_i = 1;
  t.eval();
  if (m_->fst) m_->fst->dump(ctx.time());
  ctx.timeInc(period - period / 2);
  ++cycle_;
}

// Inputs for the coming rising edge.
void RtlCacheAgent::drive() {
  auto& t = *m_->top;
  const unsigned lb = line_bytes();
  t.req_valid_i = 0;
  if (!queue_.empty() && t.rst_ni) {
    Request& r = *queue_.front();
    if (!r.has_id && !free_ids_.empty()) {
      r.id = free_ids_.back();
      free_ids_.pop_back();
      r.has_id = true;
    }
    if (r.has_id) {  // (else every id is outstanding: wait for a response)
      t.req_valid_i = 1;
      t.req_op_i = static_cast<uint8_t>(r.op);
      t.req_addr_i = r.addr;
      std::memcpy(t.req_data_i.data(), r.data.data(), lb);
      put_mask(t.req_be_i, r.be, lb);
      t.req_id_i = r.id;
    }
  }
  t.in_valid_i = !inbox_.empty();
  if (!inbox_.empty()) {
    pack_hdr(inbox_.front(), t.in_hdr_i.data());
    std::memcpy(t.in_data_i.data(), inbox_.front().data.data(), lb);
  }
  ready_oreq_ = !stall(opt_.oreq_stall);
  ready_orsp_ = !stall(opt_.orsp_stall);
  ready_rsp_ = !stall(opt_.rsp_stall);
  t.oreq_ready_i = ready_oreq_;
  t.orsp_ready_i = ready_orsp_;
  t.rsp_ready_i = ready_rsp_;
}

// Outputs as they stand before the rising edge: the handshakes and pulses of this cycle.
void RtlCacheAgent::sample() {
  auto& t = *m_->top;
  const unsigned lb = line_bytes();
  const sim::Time now = k_.now();
  if (t.req_valid_i && t.req_ready_o) {
    auto r = queue_.front();
    queue_.pop_front();
    by_id_[r->id] = r;
  }
  if (t.in_valid_i && t.in_ready_o) inbox_.pop_front();
  auto emit = [&](const uint32_t* hdr, const uint32_t* data) {
    Msg m = unpack_hdr(hdr);
    if (proto::carries_data(m.op)) std::memcpy(m.data.data(), data, lb);
    if (m.op == Op::WrInv) std::memcpy(wrinv_data_[m.tag].data(), m.data.data(), lb);
    f_.send(m);
  };
  if (t.oreq_valid_o && t.oreq_ready_i) emit(t.oreq_hdr_o.data(), t.oreq_data_o.data());
  if (t.orsp_valid_o && t.orsp_ready_i) emit(t.orsp_hdr_o.data(), t.orsp_data_o.data());
  // A state change, then the access it enabled (a fill both changes state and performs).
  if (t.mon_valid_o) {
    const proto::Addr line = t.mon_addr_o;
    const auto from = static_cast<LineState>(t.mon_from_o);
    const auto to = static_cast<LineState>(t.mon_to_o);
    if (state(line) != from) {
      errors_.push_back("monitor: line " + hex(line) + " reported " + line_state_name(from) +
                        " -> " + line_state_name(to) + " but was " +
                        line_state_name(state(line)));
    }
    if (to == LineState::I) {
      states_.erase(line);
    } else {
      states_[line] = to;
    }
    const sim::CacheState cf = to_cache_state(from), ct = to_cache_state(to);
    if (obs_ && cf != ct) obs_->on_state(id(), line, cf, ct, now);
  }
  if (t.mon_acc_valid_o) {
    performed(t.mon_acc_id_o, reinterpret_cast<const uint8_t*>(t.mon_acc_data_o.data()));
  }
  if (t.rsp_valid_o && t.rsp_ready_i) {
    auto it = by_id_.find(t.rsp_id_o);
    if (it == by_id_.end()) {
      errors_.push_back("response for id " + std::to_string(t.rsp_id_o) + ", not outstanding");
    } else {
      auto r = it->second;
      by_id_.erase(it);
      free_ids_.push_back(r->id);
      --open_;
      Result res;
      res.op = r->op;
      res.addr = r->addr;
      res.err = t.rsp_err_o;
      res.at = now;
      std::memcpy(res.data.data(), t.rsp_data_o.data(), lb);
      if (!res.err && is_read(r->op)) {
        if (!r->performed) {
          errors_.push_back(std::string(ca_op_name(r->op)) + " " + hex(r->addr) +
                            " answered with data no access or DataI fixed");
        } else if (std::memcmp(res.data.data(), r->expect.data(), lb) != 0) {
          errors_.push_back(std::string(ca_op_name(r->op)) + " " + hex(r->addr) +
                            " answered with other data than it was performed with");
        }
      }
      if (r->done) r->done(res);
    }
  }
  for (unsigned c = 0; c < counts_.size(); ++c) counts_[c] += (t.cnt_o >> c) & 1u;
}

// An engine access performed in the cache (monitor port), with its line.
void RtlCacheAgent::performed(unsigned id, const uint8_t* line) {
  auto it = by_id_.find(id);
  if (it == by_id_.end()) {
    errors_.push_back("monitor: access performed for id " + std::to_string(id) +
                      ", not outstanding");
    return;
  }
  Request& r = *it->second;
  r.performed = true;
  std::memcpy(r.expect.data(), line, line_bytes());
  if (obs_ == nullptr) return;
  const sim::Time now = k_.now();
  if (is_read(r.op)) {
    obs_->on_load(this->id(), r.addr, line, line_bytes(), now);
    return;
  }
  // A write: each contiguous run of its bytes (all of them for WrInv).
  unsigned i = 0;
  while (i < line_bytes()) {
    if (r.op == CaOp::Wr && !r.be.test(i)) {
      ++i;
      continue;
    }
    unsigned j = i;
    while (j < line_bytes() && (r.op != CaOp::Wr || r.be.test(j))) ++j;
    obs_->on_store(this->id(), r.addr + i, line + i, j - i, now);
    i = j;
  }
}

// RdNA and WrInv misses are performed at the home: reported when it answers this agent.
void RtlCacheAgent::home_performed(const Msg& m) {
  if (m.dst != id()) return;
  const sim::Time now = k_.now();
  if (m.op == Op::DataI) {
    // The one RdNA of the line not yet performed (an earlier one that hit may still wait for
    // the engine to take its response).
    for (auto& [rid, r] : by_id_) {
      if (r->op == CaOp::RdNA && r->addr == m.addr && !r->performed) {
        r->performed = true;
        std::memcpy(r->expect.data(), m.data.data(), line_bytes());
      }
    }
    if (obs_) obs_->on_load(m.src, m.addr, m.data.data(), line_bytes(), now);
  } else if (m.op == Op::WrAck) {
    auto it = wrinv_data_.find(m.tag);
    if (it == wrinv_data_.end()) return;  // answers no WrInv: the block drops it
    if (obs_) obs_->on_store(m.src, m.addr, it->second.data(), line_bytes(), now);
    wrinv_data_.erase(it);
  }
}

}  // namespace cni::tb
