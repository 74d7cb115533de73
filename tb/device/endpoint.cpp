// SPDX-License-Identifier: Apache-2.0
// Cycle-level driver for the Verilated cni_endpoint (see endpoint.hpp).
#include "device/endpoint.hpp"

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <map>
#include <sstream>
#include <stdexcept>

#include "device/endpoint_model.hpp"
#include "rtl_errors.hpp"
#include "msg_wire.hpp"

namespace cni::tb {

using proto::Chan;
using proto::Msg;
using proto::Op;

const char* built_flavor() { return CNI_DEV_BUILD; }

namespace csr {
const char* counter_name(Counter c) { return c < kNumCounters ? engines::kCounterNames[c] : "?"; }
}  // namespace csr

bool Endpoint::has_model(unsigned line_bytes, const std::string& variant) {
  return model_table().count({line_bytes, variant}) != 0;
}

std::vector<Endpoint::ModelInfo> Endpoint::models() {
  std::vector<ModelInfo> out;
  for (const auto& [key, entry] : model_table()) {
    ModelInfo m;
    m.line_bytes = key.first;
    m.variant = key.second;
    std::istringstream in(entry.params);
    std::string kv;
    while (in >> kv) {
      const auto eq = kv.find('=');
      if (eq != std::string::npos) m.params[kv.substr(0, eq)] = std::stol(kv.substr(eq + 1));
    }
    out.push_back(std::move(m));
  }
  return out;
}

Endpoint::Endpoint() : Endpoint(Options{}) {}

Endpoint::Endpoint(const Options& opt) {
  if (opt.net_channels != 1 && opt.net_channels != 2) {
    throw std::invalid_argument("cni_endpoint: net_channels is " +
                                std::to_string(opt.net_channels) + " (1 or 2)");
  }
  const auto& models = model_table();
  auto it = models.find({opt.line_bytes, opt.variant});
  if (it == models.end()) {
    std::string have;
    for (const auto& m : models)
      have += (have.empty() ? "" : ", ") + std::to_string(m.first.first) + "-byte lines" +
              (m.first.second.empty() ? "" : " " + m.first.second);
    throw std::invalid_argument("cni_endpoint: no device model with " +
                                std::to_string(opt.line_bytes) + "-byte lines" +
                                (opt.variant.empty() ? "" : " and variant " + opt.variant) +
                                " in the " + built_flavor() + " build (it has " + have + ")");
  }
  d_ = it->second.open(opt);
}

Endpoint::~Endpoint() {
  make_current(d_->ctx.get());
  if (d_->ctx->gotError()) {
    rtl_error("device model " + std::to_string(d_->opt.agent_id) + " (" +
              std::to_string(d_->opt.line_bytes) + "-byte lines" +
              (d_->opt.variant.empty() ? "" : ", variant " + d_->opt.variant) +
              "): the RTL reported an error (its message is above), cycle " +
              std::to_string(d_->cycle));
  }
  if (d_->fst) d_->fst->close();
  d_->finish();
}

uint8_t Endpoint::agent_id() const { return d_->opt.agent_id; }
uint64_t Endpoint::cycle() const { return d_->cycle; }

void Endpoint::reset() {
  d_->stop_dram();  // (a reset clears the frames' written bits: the DRAM's bytes are garbage)
  d_->set_reset(true);
  d_->drive_inputs();
  for (int i = 0; i < 4; ++i) d_->edge();
  d_->set_reset(false);
  for (unsigned c = 0; c < proto::kNumChannels; ++c) {
    d_->rx_credits[c] = 0;  // known once the geometry is read
    d_->tx_credit_pending[c] = 0;
  }
  unsigned guard = 1u << 20;
  while (!d_->init_done()) {
    if (guard-- == 0) throw std::runtime_error("cni_endpoint: init_done never rose");
    tick();
  }
  read_geometry();
  for (unsigned c = 0; c < proto::kNumChannels; ++c) d_->rx_credits[c] = d_->geo.rx_depth;
  // The PIO engine arms its trigger lines after reset, one command per line (the home agent
  // takes 2 + home_extra_cycles() cycles per command; twice that leaves the engine room); let
  // it finish so the device starts quiescent.
  const auto& g = d_->geo;
  run(2 * (2 + g.home_extra_cycles()) * (g.cpairs + 4));
}

const DeviceGeometry& Endpoint::geometry() const {
  if (!d_->geo_known) throw std::logic_error("cni_endpoint: geometry() before reset()");
  return d_->geo;
}

void Endpoint::read_geometry() {
  DeviceGeometry g;
  uint32_t geom = csr_read(csr::kGeometry);
  g.line_bytes = geom & 0xFF;
  unsigned regions = (geom >> 8) & 0xFF;
  if (g.line_bytes != d_->line_bytes || regions != DeviceGeometry::kNumRegions) {
    throw std::runtime_error("cni_endpoint: GEOMETRY says " + std::to_string(g.line_bytes) +
                             "-byte lines and " + std::to_string(regions) +
                             " regions; this driver knows " + std::to_string(d_->line_bytes) +
                             " and " + std::to_string(DeviceGeometry::kNumRegions));
  }
  uint32_t cfg = csr_read(csr::kConfig);
  g.tt_entries = cfg & 0xFF;
  g.tt_reserve = (cfg >> 8) & 0xFF;
  g.rx_depth = (cfg >> 16) & 0xFF;
  g.tx_credits = (cfg >> 24) & 0x7F;
  g.pipelined = (cfg >> 31) != 0;
  g.dev_base = csr_read(csr::kDevbaseLo) | (uint64_t(csr_read(csr::kDevbaseHi)) << 32);
  for (unsigned r = 0; r < DeviceGeometry::kNumRegions; ++r) {
    uint32_t w = csr_read(csr::kRegion + 4 * r);
    g.regions[r].base = w & 0xFFFF;
    g.regions[r].lines = w >> 16;
    uint32_t o = csr_read(csr::kOwner + 4 * r);
    g.regions[r].owner = o == 0xFFFFFFFFu ? -1 : static_cast<int>(o);
  }
  if (g.num_lines() != geom >> 16) {
    throw std::runtime_error("cni_endpoint: the regions end at line " +
                             std::to_string(g.num_lines()) + ", GEOMETRY says " +
                             std::to_string(geom >> 16));
  }
  g.mem_lines = g.regions[DeviceGeometry::kMem].lines;
  g.cpairs = g.regions[DeviceGeometry::kPioC].lines / 2;
  g.novfa = g.regions[DeviceGeometry::kPioA].lines - 2;
  g.novfb = g.regions[DeviceGeometry::kPioB].lines - 2;
  uint32_t cache = csr_read(csr::kCache);
  g.ca_sets = cache & 0xFF;
  g.ca_ways = (cache >> 8) & 0xFF;
  g.ca_mshrs = (cache >> 16) & 0xFF;
  g.ca_id_bits = cache >> 24;
  g.quiet_log2 = csr_read(csr::kTimebase) & 0xFF;
  g.net_bytes = csr_read(csr::kNet) & 0xFF;
  if (g.net_bytes != d_->net_bytes) {
    throw std::runtime_error("cni_endpoint: NET says " + std::to_string(g.net_bytes) +
                             "-byte beats; the model's port has " +
                             std::to_string(d_->net_bytes));
  }
  const uint32_t dram = csr_read(csr::kDram);
  g.dram_idx_w = dram & 0xFF;
  g.frame_w = (dram >> 8) & 0xFF;
  if (g.dram_idx_w && g.num_lines() > g.dram_first()) {
    throw std::runtime_error("cni_endpoint: DRAM says the DRAM-backed lines start at line " +
                             std::to_string(g.dram_first()) + ", below the on-chip lines' end " +
                             std::to_string(g.num_lines()));
  }
  if (g.regions[DeviceGeometry::kTs].lines > 0) {
    g.ts_blocks = csr_read(regs::eng_ts::kGeometry) & 0xFFFFFF;
    g.ts_block0 = g.base(DeviceGeometry::kTs) + csr_read(regs::eng_ts::kBlockLine);
  }
  d_->geo = g;
  d_->geo_known = true;
  if (g.dram_idx_w) {
    // the AXI address of the first slot: the model's DramBase, as tb/rtl_endpoint.cmake built it
    long base = 0;
    for (const auto& m : models()) {
      if (m.line_bytes == d_->line_bytes && m.variant == d_->opt.variant) {
        base = m.param("DramBase", 0);
      }
    }
    d_->start_dram(g, static_cast<uint64_t>(base));
  }
}

void Endpoint::tick() {
  d_->drive_inputs();
  d_->edge();
}

void Endpoint::run(unsigned n) {
  for (unsigned i = 0; i < n; ++i) tick();
}

void Endpoint::send(const Msg& m) { send_on(m.chan(), m); }
void Endpoint::send_on(Chan ch, const Msg& m) {
  d_->rxq[static_cast<unsigned>(ch)].push_back(Impl::Queued{m, d_->rx_seq++});
}
void Endpoint::set_rx_credit_check(bool on) { d_->credit_check = on; }

size_t Endpoint::rx_queued() const {
  size_t n = 0;
  for (const auto& q : d_->rxq) n += q.size();
  return n;
}

std::deque<TxMsg>& Endpoint::emitted() { return d_->emitted; }

std::optional<TxMsg> Endpoint::wait_msg(unsigned max_cycles) {
  for (unsigned i = 0; d_->emitted.empty() && i < max_cycles; ++i) tick();
  if (d_->emitted.empty()) return std::nullopt;
  TxMsg m = d_->emitted.front();
  d_->emitted.pop_front();
  return m;
}

std::optional<TxMsg> Endpoint::wait_for(Op op, proto::Addr addr, unsigned max_cycles) {
  for (unsigned i = 0; i <= max_cycles; ++i) {
    for (auto it = d_->emitted.begin(); it != d_->emitted.end(); ++it) {
      if (it->msg.op == op && it->msg.addr == addr) {
        TxMsg m = *it;
        d_->emitted.erase(it);
        return m;
      }
    }
    if (i < max_cycles) tick();
  }
  return std::nullopt;
}

void Endpoint::return_tx_credit(Chan ch) { ++d_->tx_credit_pending[static_cast<unsigned>(ch)]; }
void Endpoint::set_auto_tx_credits(bool on) { d_->opt.auto_tx_credits = on; }

void Endpoint::ca_request(const CaRequest& r) { d_->ca_queue.push_back(r); }
std::deque<CacheRsp>& Endpoint::ca_responses() { return d_->ca_done; }
size_t Endpoint::ca_queued() const { return d_->ca_queue.size(); }
void Endpoint::set_ca_rsp_stall(double p) { d_->opt.ca_rsp_stall = p; }
void Endpoint::on_ca_state(std::function<void(uint64_t, LineState, LineState)> fn) {
  d_->ca_state_cb = std::move(fn);
}
void Endpoint::on_ca_access(std::function<void(unsigned, const uint8_t*)> fn) {
  d_->ca_access_cb = std::move(fn);
}
void Endpoint::on_ca_engine_access(std::function<void(uint64_t, bool, const uint8_t*)> fn) {
  d_->ca_engine_access_cb = std::move(fn);
}
void Endpoint::on_port_b_write(std::function<void(unsigned, const uint8_t*)> fn) {
  d_->port_b_write_cb = std::move(fn);
}
void Endpoint::on_emit(std::function<void(const TxMsg&)> fn) { d_->emit_cb = std::move(fn); }
void Endpoint::on_rx_credit(std::function<void(Chan)> fn) { d_->rx_credit_cb = std::move(fn); }
void Endpoint::on_rx(std::function<void(const Msg&, uint64_t)> fn) { d_->rx_cb = std::move(fn); }

uint32_t Endpoint::csr_read(uint32_t addr, unsigned* resp) {
  d_->ar_pending = true;
  d_->ar_addr = addr;
  d_->r_done = false;
  for (unsigned i = 0; !d_->r_done; ++i) {
    if (i > 1000) throw std::runtime_error("cni_endpoint: CSR read timed out");
    tick();
  }
  if (resp) *resp = d_->r_resp;
  return d_->r_data;
}

void Endpoint::csr_write(uint32_t addr, uint32_t value) {
  d_->aw_pending = true;
  d_->aw_addr = addr;
  d_->w_data = value;
  d_->b_done = false;
  for (unsigned i = 0; !d_->b_done; ++i) {
    if (i > 1000) throw std::runtime_error("cni_endpoint: CSR write timed out");
    tick();
  }
}

uint32_t Endpoint::counter(csr::Counter c) { return csr_read(csr::kCnt + 4 * c); }

void Endpoint::pb_push(const std::vector<uint8_t>& payload) { d_->pb_queue.push_back(payload); }

void Endpoint::net_receive(const NetFrame& f) {
  if (f.bytes.empty()) throw std::invalid_argument("cni_endpoint: net_receive of an empty frame");
  const unsigned c = net_channel(f.bytes);
  d_->net_in[c].push_back(f);
  d_->net_in_seq[c].push_back(d_->net_seq++);
}
size_t Endpoint::net_queued() const { return d_->net_in[0].size() + d_->net_in[1].size(); }
size_t Endpoint::net_queued(unsigned channel) const {
  if (channel > 1) throw std::invalid_argument("cni_endpoint: net_queued of channel > 1");
  return d_->net_in[channel].size();
}
std::deque<NetFrame>& Endpoint::net_sent() { return d_->net_out; }
void Endpoint::on_net_frame(std::function<void(const NetFrame&)> fn) { d_->net_cb = std::move(fn); }
void Endpoint::set_net_tx_ready(std::function<bool()> ready) {
  d_->net_tx_ready = std::move(ready);
}
void Endpoint::set_net_tx_room(std::function<bool(unsigned)> room) {
  d_->net_tx_room = std::move(room);
}
std::deque<std::vector<uint8_t>>& Endpoint::pa_messages() { return d_->pa_done; }
void Endpoint::set_pa_ready(std::function<bool()> ready) { d_->pa_ready = std::move(ready); }
void Endpoint::set_pb_source(std::function<bool(PioBeat&)> source, std::function<void()> taken) {
  d_->pb_source = std::move(source);
  d_->pb_taken = std::move(taken);
}
void Endpoint::set_pa_sink(std::function<void(const PioBeat&)> sink) {
  d_->pa_sink = std::move(sink);
}

bool Endpoint::quiescent() const {
  const Impl& d = *d_;
  if (!d.quiet || d.presented || !d.pb_queue.empty() || !d.ca_queue.empty() || d.ar_pending ||
      d.aw_pending || d.r_wait || d.b_wait || !d.net_in[0].empty() || !d.net_in[1].empty()) {
    return false;
  }
  for (unsigned c = 0; c < proto::kNumChannels; ++c) {
    if (!d.rxq[c].empty() || d.tx_credit_pending[c] != 0) return false;
  }
  return d.dram_idle();
}

bool Endpoint::idle() const { return d_->idle && quiescent(); }

uint64_t Endpoint::clocked() const { return d_->clocked; }

void Endpoint::skip_to(uint64_t cycle) {
  Impl& d = *d_;
  if (cycle == d.cycle) return;
  if (cycle < d.cycle) {
    throw std::logic_error("cni_endpoint: skip_to(" + std::to_string(cycle) + ") is before cycle " +
                           std::to_string(d.cycle));
  }
  // The last cycle clocked is d.cycle - 1; quiet_o promised the ones up to it + quiet_cycles() - 1
  // (idle_o: all of them) without an input. Inputs queued since wait for the cycle skipped to.
  const bool quiet = d.quiet && !d.presented;
  const bool far = d.geo_known && cycle > d.cycle - 1 + d.geo.quiet_cycles();
  if (!quiet || (far && !d.idle)) {
    throw std::logic_error(
        "cni_endpoint: skip_to(" + std::to_string(cycle) + ") from cycle " +
        std::to_string(d.cycle) + " while the core is not " + (quiet ? "idle" : "quiescent") +
        " (quiet_o " + std::to_string(d.quiet) + ", idle_o " + std::to_string(d.idle) +
        ", an input entered " + std::to_string(d.presented) + ")");
  }
  const uint64_t n = cycle - d.cycle;
  d.ctx->timeInc(n * d.opt.clock_period_ps);
  d.cycle = cycle;
  d.skipped = true;
}

namespace {
void need_dram(bool has) {
  if (!has) throw std::logic_error("cni_endpoint: this model has no DRAM-backed lines");
}
}  // namespace

const sim::DramStats& Endpoint::dram_stats() const {
  need_dram(d_->dram != nullptr);
  return d_->dram->stats();
}
const AxiDramStats& Endpoint::dram_axi_stats() const {
  need_dram(d_->dram != nullptr);
  return *d_->axi_stats();
}
void Endpoint::dram_fail_next(bool write) {
  need_dram(d_->dram != nullptr);
  d_->axi_fail_next(write);
}

bool Endpoint::got_error() const { return d_->ctx->gotError(); }
void Endpoint::mark_rtl_error() { d_->ctx->gotError(true); }

Msg Endpoint::make(Op op, uint8_t src, proto::Addr addr, uint8_t tag) const {
  Msg m;
  m.op = op;
  m.src = src;
  m.dst = d_->opt.agent_id;
  m.tag = tag;
  m.addr = addr;
  m.len = proto::carries_data(op) ? static_cast<uint8_t>(d_->line_bytes) : 0;
  return m;
}

}  // namespace cni::tb
