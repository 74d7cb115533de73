// SPDX-License-Identifier: Apache-2.0
// The Verilated device caching agent as a fabric agent (see rtl_cache_agent.hpp).
#include "cache/rtl_cache_agent.hpp"

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>

#include "Vcni_cache_agent.h"
#include "msg_wire.hpp"
#include "verilated.h"
#include "verilated_fst_c.h"
#include "vlt_model.hpp"

namespace cni::tb {

using proto::Msg;

const CacheGeometry& cache_geometry() {
  static const CacheGeometry g{CNI_CACHE_LINE_BYTES, CNI_CACHE_SETS,       CNI_CACHE_WAYS,
                               CNI_CACHE_MSHRS,      CNI_CACHE_WBS,        CNI_CACHE_ID_W,
                               CNI_CACHE_HOME_SHIFT, CNI_CACHE_BACKOFF_W};
  return g;
}

struct RtlCacheAgent::Model {
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<Vcni_cache_agent> top;
  std::unique_ptr<VerilatedFstC> fst;
};

RtlCacheAgent::RtlCacheAgent(sim::Kernel& k, sim::Fabric& f, sim::NodeId node, proto::AgentId id,
                             const Options& opt)
    : sim::Agent(id), k_(k), f_(f), opt_(opt), m_(std::make_unique<Model>()),
      clk_(k, opt.name, opt.freq_mhz), stall_(opt.seed),
      port_(id, cache_geometry().line_bytes, cache_geometry().id_bits) {
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
  const bool trace = trace_wanted(opt.trace);
  m_->ctx = make_context(opt.seed, trace);
  m_->top = std::make_unique<Vcni_cache_agent>(m_->ctx.get(), "top");
  if (trace) {
    m_->fst = open_trace(*m_->top, opt.trace_dir, opt.name);
  }
  auto& t = *m_->top;
  t.agent_id_i = id;
  t.cfg_backoff_i = opt.backoff_cycles;
  t.cfg_clean_i = opt.clean_cycles;
  t.req_valid_i = 0;
  t.in_valid_i = 0;
  t.clk_i = 0;
  t.rst_ni = 0;
  t.eval();
  for (int i = 0; i < 2; ++i) tick();
  t.rst_ni = 1;
  f.attach(*this, node);
  f.on_send([this](const Msg& m, sim::Time) { port_.home_sent(m, k_.now()); });
  clk_.on_rising([this](uint64_t) { tick(); });
  clk_.start();
}

RtlCacheAgent::~RtlCacheAgent() {
  clk_.stop();
  make_current(m_->ctx.get());
  if (m_->fst) m_->fst->close();
  m_->top->final();
}

void RtlCacheAgent::deliver(const Msg& m) { inbox_.push_back(m); }

void RtlCacheAgent::set_stalls(double oreq, double orsp, double rsp) {
  opt_.oreq_stall = oreq;
  opt_.orsp_stall = orsp;
  opt_.rsp_stall = rsp;
}

bool RtlCacheAgent::got_error() const { return m_->ctx->gotError(); }

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
  if (!presented_ && t.rst_ni) presented_ = port_.issue();
  t.req_valid_i = presented_.has_value();
  if (presented_) {
    const CaRequest& r = *presented_;
    t.req_op_i = static_cast<uint8_t>(r.op);
    t.req_addr_i = r.addr;
    std::memcpy(t.req_data_i.data(), r.data.data(), lb);
    put_mask(t.req_be_i, r.be, lb);
    t.req_id_i = r.id;
  }
  t.in_valid_i = !inbox_.empty();
  if (!inbox_.empty()) {
    pack_hdr(inbox_.front(), t.in_hdr_i.data());
    std::memcpy(t.in_data_i.data(), inbox_.front().data.data(), lb);
  }
  t.oreq_ready_i = !stall_(opt_.oreq_stall);
  t.orsp_ready_i = !stall_(opt_.orsp_stall);
  t.rsp_ready_i = !stall_(opt_.rsp_stall);
}

// Outputs as they stand before the rising edge: the handshakes and pulses of this cycle.
void RtlCacheAgent::sample() {
  auto& t = *m_->top;
  const unsigned lb = line_bytes();
  const sim::Time now = k_.now();
  if (t.req_valid_i && t.req_ready_o) presented_.reset();
  if (t.in_valid_i && t.in_ready_o) inbox_.pop_front();
  auto emit = [&](const uint32_t* hdr, const uint32_t* data) {
    Msg m = unpack_hdr(hdr);
    if (proto::carries_data(m.op)) std::memcpy(m.data.data(), data, lb);
    port_.sent(m);
    f_.send(m);
  };
  if (t.oreq_valid_o && t.oreq_ready_i) emit(t.oreq_hdr_o.data(), t.oreq_data_o.data());
  if (t.orsp_valid_o && t.orsp_ready_i) emit(t.orsp_hdr_o.data(), t.orsp_data_o.data());
  // A state change, then the access it enabled (a fill both changes state and performs).
  if (t.mon_valid_o) {
    port_.state_changed(t.mon_addr_o, static_cast<LineState>(t.mon_from_o),
                        static_cast<LineState>(t.mon_to_o), now);
  }
  if (t.mon_acc_valid_o) {
    port_.performed(t.mon_acc_id_o, reinterpret_cast<const uint8_t*>(t.mon_acc_data_o.data()), now);
  }
  if (t.rsp_valid_o && t.rsp_ready_i) {
    port_.responded(t.rsp_id_o, t.rsp_err_o, reinterpret_cast<const uint8_t*>(t.rsp_data_o.data()),
                    now);
  }
  for (unsigned c = 0; c < counts_.size(); ++c) counts_[c] += (t.cnt_o >> c) & 1u;
}

}  // namespace cni::tb
