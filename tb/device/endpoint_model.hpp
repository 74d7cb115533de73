// SPDX-License-Identifier: Apache-2.0
// The implementation of tb::Endpoint (endpoint.hpp): the driver's state (Endpoint::Impl) and the
// class template that drives one Verilated model's ports (Endpoint::Model<Top>). Included by
// endpoint.cpp and by each device library's generated model table (tb/rtl_endpoint.cmake), which
// instantiates Model<Top> for the models that library holds. Not for tests.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "device/endpoint.hpp"
#include "mem/axi_dram.hpp"
#include "msg_wire.hpp"
#include "stall.hpp"
#include "verilated.h"
#include "verilated_fst_c.h"
#include "vlt_model.hpp"

namespace cni::tb {

using proto::Chan;
using proto::Msg;

// The driver's state; Model<Top> adds the Verilated model (one line size) and drives its ports.
struct Endpoint::Impl {
  virtual ~Impl() = default;
  virtual void drive_inputs() = 0;  // this cycle's inputs
  virtual void edge() = 0;          // one clock cycle; outputs sampled before the rising edge
  virtual void set_reset(bool asserted) = 0;
  virtual bool init_done() const = 0;
  virtual void finish() = 0;        // the model's final()
  // The DRAM behind the device-memory port, started by reset() on a model with DRAM-backed lines
  // (its slots from AXI address `base`, the model's DramBase) and stopped at the next reset.
  virtual void start_dram(const DeviceGeometry& g, uint64_t base) = 0;
  virtual void stop_dram() = 0;
  virtual bool dram_idle() const = 0;
  virtual const AxiDramStats* axi_stats() const = 0;
  virtual void axi_fail_next(bool write) = 0;
  std::unique_ptr<sim::Dram> dram;

  Options opt;
  std::unique_ptr<VerilatedContext> ctx;
  std::unique_ptr<VerilatedFstC> fst;
  uint64_t cycle = 0;
  uint64_t clocked = 0;
  bool presented = false;  // an input entered the core in the last cycle clocked
  bool quiet = false;      // quiet_o and idle_o in the last cycle clocked
  bool idle = false;
  // Cycles were skipped since the last edge clocked: quiet_o, whose park-deadline part the core
  // computed at that edge from the time base of then, speaks of a window that may have passed
  // (idle_o does not depend on the time). Cleared by the next edge clocked.
  bool skipped = false;
  unsigned line_bytes = 128;
  DeviceGeometry geo;
  bool geo_known = false;

  // Messages sent to the device, per channel, numbered in the order they reached it.
  struct Queued {
    Msg msg;
    uint64_t seq = 0;
  };
  std::deque<Queued> rxq[proto::kNumChannels];
  uint64_t rx_seq = 0;
  unsigned rx_credits[proto::kNumChannels] = {};
  bool credit_check = true;
  unsigned tx_credit_pending[proto::kNumChannels] = {};
  std::deque<TxMsg> emitted;
  std::function<void(const TxMsg&)> emit_cb;
  std::function<void(Chan)> rx_credit_cb;
  std::function<void(const Msg&, uint64_t)> rx_cb;

  std::deque<CaRequest> ca_queue;
  std::deque<CacheRsp> ca_done;
  std::function<void(uint64_t, LineState, LineState)> ca_state_cb;
  std::function<void(unsigned, const uint8_t*)> ca_access_cb;
  std::function<void(uint64_t, bool, const uint8_t*)> ca_engine_access_cb;
  std::function<void(unsigned, const uint8_t*)> port_b_write_cb;
  Stall ca_stall{1};  // ca_rsp_ready_i

  // network port: frames to enter (beat by beat), a queue per channel with each frame's arrival
  // number; the channel of the frame under way (-1: none); the frame the device is sending
  unsigned net_bytes = 64;
  std::deque<NetFrame> net_in[2];
  std::deque<uint64_t> net_in_seq[2];
  uint64_t net_seq = 0;
  int net_ch = -1;
  size_t net_beat = 0;
  std::deque<NetFrame> net_out;
  std::vector<uint8_t> net_cur;
  std::function<void(const NetFrame&)> net_cb;
  std::function<bool()> net_tx_ready = [] { return true; };
  std::function<bool(unsigned)> net_tx_room = [](unsigned) { return true; };

  std::deque<std::vector<uint8_t>> pb_queue;
  size_t pb_beat = 0;
  std::deque<std::vector<uint8_t>> pa_done;
  std::vector<uint8_t> pa_cur;
  std::function<bool()> pa_ready = [] { return true; };
  std::function<bool(Endpoint::PioBeat&)> pb_source;
  std::function<void()> pb_taken;
  std::function<void(const Endpoint::PioBeat&)> pa_sink;

  // CSR transaction in progress.
  bool ar_pending = false, r_wait = false, aw_pending = false, b_wait = false;
  uint32_t ar_addr = 0, aw_addr = 0, w_data = 0, r_data = 0;
  unsigned r_resp = 0;
  bool r_done = false, b_done = false;

  void set_line(uint32_t* w, const uint8_t* bytes) { std::memcpy(w, bytes, line_bytes); }
};

template <class Top>
struct Endpoint::Model final : Endpoint::Impl {
  std::unique_ptr<Top> top;
  std::unique_ptr<AxiDramSlave<Top>> axi;
  size_t axi_reported = 0;  // the slave's rule violations already reported

  explicit Model(const Options& o);
  static std::unique_ptr<Impl> open(const Options& o) { return std::make_unique<Model>(o); }

  void set_reset(bool asserted) override { top->rst_ni = !asserted; }
  bool init_done() const override { return top->init_done_o; }
  void finish() override { top->final(); }

  void start_dram(const DeviceGeometry& g, uint64_t base) override {
    dram = std::make_unique<sim::Dram>(line_dram_params(g.dram_lines(), g.line_bytes, base));
    AxiDramConfig c;
    c.data_bytes = kDramBeatBytes;
    c.period = opt.clock_period_ps;
    c.stall = opt.dram_stall;
    c.seed = opt.seed;
    axi = std::make_unique<AxiDramSlave<Top>>(*dram, c);
  }
  void stop_dram() override {
    axi.reset();
    dram.reset();
    axi_reported = 0;
    zero_axi_inputs();
  }
  // the device-memory port's inputs stay low while no DRAM is started (the slave drives them)
  void zero_axi_inputs() {
    top->m_axi_arready_i = 0;
    top->m_axi_rvalid_i = 0;
    top->m_axi_rlast_i = 0;
    top->m_axi_awready_i = 0;
    top->m_axi_wready_i = 0;
    top->m_axi_bvalid_i = 0;
  }
  bool dram_idle() const override { return !axi || axi->idle(); }
  const AxiDramStats* axi_stats() const override { return axi ? &axi->stats() : nullptr; }
  void axi_fail_next(bool write) override {
    if (write) {
      axi->fail_next_write();
    } else {
      axi->fail_next_read();
    }
  }

  void drive_inputs() override {
    auto& t = *top;
    // link receive: one message per channel per cycle while credits last
    bool enter[proto::kNumChannels];
    for (unsigned c = 0; c < proto::kNumChannels; ++c) {
      enter[c] = !rxq[c].empty() && (!credit_check || rx_credits[c] > 0);
    }
    // Rule 8 (docs/protocol.md) on the way in: a snoop enters no earlier than every answer and
    // grant that reached the device before it (the device numbers a grant before a snoop that
    // enters in the same cycle). One message per channel enters a cycle, so without this a
    // grant queued behind another grant could fall behind a later snoop.
    // The number of a channel's oldest message still queued after this cycle.
    auto first_left = [&](Chan ch) {
      const auto c = static_cast<unsigned>(ch);
      const size_t i = enter[c] ? 1 : 0;
      return i < rxq[c].size() ? rxq[c][i].seq : UINT64_MAX;
    };
    const auto fwd = static_cast<unsigned>(Chan::Fwd);
    if (enter[fwd] &&
        rxq[fwd].front().seq > std::min(first_left(Chan::Rsp), first_left(Chan::Dat))) {
      enter[fwd] = false;
    }
    // every channel carries a header and a line
    auto present = [&](Chan ch, auto& valid, auto& hdr, auto& data) {
      const auto c = static_cast<unsigned>(ch);
      valid = enter[c];
      if (enter[c]) {
        const Msg& m = rxq[c].front().msg;
        pack_hdr(m, hdr.data());
        set_line(data.data(), m.data.data());
      }
    };
    present(Chan::Req, t.rx_req_valid_i, t.rx_req_hdr_i, t.rx_req_data_i);
    present(Chan::Fwd, t.rx_fwd_valid_i, t.rx_fwd_hdr_i, t.rx_fwd_data_i);
    present(Chan::Rsp, t.rx_rsp_valid_i, t.rx_rsp_hdr_i, t.rx_rsp_data_i);
    present(Chan::Dat, t.rx_dat_valid_i, t.rx_dat_hdr_i, t.rx_dat_data_i);
    presented = false;
    for (unsigned c = 0; c < proto::kNumChannels; ++c) {
      if (!enter[c]) continue;
      presented = true;
      if (rx_cb) rx_cb(rxq[c].front().msg, cycle);
      rxq[c].pop_front();
      if (rx_credits[c]) --rx_credits[c];
    }
    // link transmit credits returned by the peer
    auto credit = [&](Chan ch) {
      auto c = static_cast<unsigned>(ch);
      if (tx_credit_pending[c] == 0) return uint8_t{0};
      --tx_credit_pending[c];
      presented = true;
      return uint8_t{1};
    };
    t.tx_req_credit_i = credit(Chan::Req);
    t.tx_fwd_credit_i = credit(Chan::Fwd);
    t.tx_rsp_credit_i = credit(Chan::Rsp);
    t.tx_dat_credit_i = credit(Chan::Dat);
    // PIO (b) stream
    Endpoint::PioBeat pbb;
    if (pb_source) {
      t.pb_valid_i = pb_source(pbb);
      if (t.pb_valid_i) {
        set_line(t.pb_data_i.data(), pbb.data);
        t.pb_len_i = pbb.len;
        t.pb_last_i = pbb.last;
      }
    } else {
      t.pb_valid_i = !pb_queue.empty();
    }
    if (!pb_source && !pb_queue.empty()) {
      const auto& msg = pb_queue.front();
      std::vector<uint8_t> beat(line_bytes, 0);
      size_t off = pb_beat * line_bytes;
      size_t n = std::min<size_t>(line_bytes, msg.size() - std::min(msg.size(), off));
      if (n) std::memcpy(beat.data(), msg.data() + off, n);
      set_line(t.pb_data_i.data(), beat.data());
      t.pb_len_i = static_cast<uint16_t>(msg.size());
      size_t beats = msg.empty() ? 1 : (msg.size() + line_bytes - 1) / line_bytes;
      t.pb_last_i = (pb_beat + 1 == beats);
    }
    t.pa_ready_i = pa_ready();
    // network port: the frame under way, else the oldest frame of a channel the device has room
    // for (net_rx_room_o; with one queue, the oldest frame, room or not); the MAC's tready and
    // its room per channel
    if (net_ch < 0) {
      for (int c = 0; c < 2; ++c) {
        if (net_in[c].empty()) continue;
        if (opt.net_channels == 2 && !((t.net_rx_room_o >> c) & 1)) continue;
        if (net_ch < 0 || net_in_seq[c].front() < net_in_seq[net_ch].front()) net_ch = c;
      }
    }
    t.s_axis_net_tvalid_i = net_ch >= 0;
    if (net_ch >= 0) {
      const NetFrame& f = net_in[net_ch].front();
      const size_t off = net_beat * net_bytes;
      const size_t n = std::min<size_t>(net_bytes, f.bytes.size() - off);
      std::vector<uint8_t> beat(net_bytes, 0);
      std::memcpy(beat.data(), f.bytes.data() + off, n);
      std::memcpy(t.s_axis_net_tdata_i.data(), beat.data(), net_bytes);
      t.s_axis_net_tkeep_i = n >= 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
      t.s_axis_net_tlast_i = off + n == f.bytes.size();
      t.s_axis_net_tuser_i = t.s_axis_net_tlast_i && f.bad;
    }
    t.m_axis_net_tready_i = net_tx_ready();
    t.net_tx_room_i = (net_tx_room(0) ? 1 : 0) | (net_tx_room(1) ? 2 : 0);
    // caching agent: the oldest engine request, held until taken
    t.ca_req_valid_i = !ca_queue.empty();
    if (!ca_queue.empty()) {
      const CaRequest& r = ca_queue.front();
      t.ca_req_op_i = static_cast<uint8_t>(r.op);
      t.ca_req_addr_i = r.addr;
      set_line(t.ca_req_data_i.data(), r.data.data());
      put_mask(t.ca_req_be_i, r.be, line_bytes);
      t.ca_req_id_i = r.id;
    }
    // The stall is drawn only while a response waits, so cycles a simulator skips (no response
    // can wait then) draw nothing.
    t.ca_rsp_ready_i = t.ca_rsp_valid_o ? !ca_stall(opt.ca_rsp_stall) : 1;
    // CSR
    t.s_axil_arvalid_i = ar_pending;
    t.s_axil_araddr_i = ar_addr;
    t.s_axil_rready_i = r_wait;
    t.s_axil_awvalid_i = aw_pending;
    t.s_axil_awaddr_i = aw_addr;
    t.s_axil_wvalid_i = aw_pending;
    t.s_axil_wdata_i = w_data;
    t.s_axil_wstrb_i = 0xF;
    t.s_axil_bready_i = b_wait;
    t.time_i = static_cast<uint32_t>(cycle);  // the time base: the cycle count
    // the DRAM's AXI slave (its outputs depend on its own state only)
    if (axi) axi->drive(t, cycle);
    presented = presented || t.pb_valid_i || t.ca_req_valid_i || ar_pending || aw_pending ||
                r_wait || b_wait || t.s_axis_net_tvalid_i;
  }

  // Outputs that are consumed at the coming rising edge.
  void sample_outputs() {
    auto& t = *top;
    auto emit = [&](Chan ch, const uint32_t* hdr, const uint32_t* data) {
      TxMsg tm;
      tm.msg = unpack_hdr(hdr);
      tm.cycle = cycle;
      if (data) std::memcpy(tm.msg.data.data(), data, line_bytes);
      if (opt.auto_tx_credits) ++tx_credit_pending[static_cast<unsigned>(ch)];
      emitted.push_back(tm);
      if (emit_cb) emit_cb(tm);
    };
    if (t.tx_req_valid_o) emit(Chan::Req, t.tx_req_hdr_o.data(), t.tx_req_data_o.data());
    if (t.tx_fwd_valid_o) emit(Chan::Fwd, t.tx_fwd_hdr_o.data(), t.tx_fwd_data_o.data());
    if (t.tx_rsp_valid_o) emit(Chan::Rsp, t.tx_rsp_hdr_o.data(), t.tx_rsp_data_o.data());
    if (t.tx_dat_valid_o) emit(Chan::Dat, t.tx_dat_hdr_o.data(), t.tx_dat_data_o.data());
    // caching agent
    if (t.ca_req_valid_i && t.ca_req_ready_o) ca_queue.pop_front();
    if (t.ca_rsp_valid_o && t.ca_rsp_ready_i) {
      CacheRsp r;
      r.id = t.ca_rsp_id_o;
      r.err = t.ca_rsp_err_o;
      std::memcpy(r.data.data(), t.ca_rsp_data_o.data(), line_bytes);
      r.cycle = cycle;
      ca_done.push_back(r);
    }
    if (t.ca_mon_valid_o && ca_state_cb) {
      ca_state_cb(t.ca_mon_addr_o, static_cast<LineState>(t.ca_mon_from_o),
                  static_cast<LineState>(t.ca_mon_to_o));
    }
    if (t.ca_mon_acc_valid_o && ca_access_cb) {
      ca_access_cb(t.ca_mon_acc_id_o, reinterpret_cast<const uint8_t*>(t.ca_mon_acc_data_o.data()));
    }
    if (t.ca_mon_eng_valid_o && ca_engine_access_cb) {
      ca_engine_access_cb(t.ca_mon_eng_addr_o, t.ca_mon_eng_we_o,
                          reinterpret_cast<const uint8_t*>(t.ca_mon_acc_data_o.data()));
    }
    if (t.pb_mon_valid_o && port_b_write_cb) {
      port_b_write_cb(t.pb_mon_line_o, reinterpret_cast<const uint8_t*>(t.pb_mon_data_o.data()));
    }
    auto credit = [&](bool pulse, Chan ch) {
      if (!pulse) return;
      ++rx_credits[static_cast<unsigned>(ch)];
      if (rx_credit_cb) rx_credit_cb(ch);
    };
    credit(t.rx_req_credit_o, Chan::Req);
    credit(t.rx_fwd_credit_o, Chan::Fwd);
    credit(t.rx_rsp_credit_o, Chan::Rsp);
    credit(t.rx_dat_credit_o, Chan::Dat);
    if (t.s_axis_net_tvalid_i && t.s_axis_net_tready_o) {
      ++net_beat;
      if (t.s_axis_net_tlast_i) {
        net_in[net_ch].pop_front();
        net_in_seq[net_ch].pop_front();
        net_beat = 0;
        net_ch = -1;
      }
    }
    if (t.m_axis_net_tvalid_o && t.m_axis_net_tready_i) {
      const auto* bytes = reinterpret_cast<const uint8_t*>(t.m_axis_net_tdata_o.data());
      for (unsigned j = 0; j < net_bytes; ++j) {
        if ((t.m_axis_net_tkeep_o >> j) & 1) net_cur.push_back(bytes[j]);
      }
      if (t.m_axis_net_tlast_o) {
        NetFrame f{std::move(net_cur), t.m_axis_net_tdest_o, false, cycle};
        net_cur.clear();
        if (net_cb) {
          net_cb(f);
        } else {
          net_out.push_back(std::move(f));
        }
      }
    }
    if (t.pb_valid_i && t.pb_ready_o && pb_source) {
      pb_taken();
    } else if (t.pb_valid_i && t.pb_ready_o) {
      ++pb_beat;
      if (t.pb_last_i) {
        pb_queue.pop_front();
        pb_beat = 0;
      }
    }
    if (t.pa_valid_o && t.pa_ready_i) {
      size_t len = t.pa_len_o;
      const auto* bytes = reinterpret_cast<const uint8_t*>(t.pa_data_o.data());
      if (pa_sink) {
        pa_sink(Endpoint::PioBeat{bytes, static_cast<uint16_t>(len), t.pa_last_o != 0});
      } else {
        pa_cur.insert(pa_cur.end(), bytes, bytes + line_bytes);
        if (t.pa_last_o) {
          pa_cur.resize(len);
          pa_done.push_back(std::move(pa_cur));
          pa_cur.clear();
        }
      }
    }
    if (ar_pending && t.s_axil_arready_o) {
      ar_pending = false;
      r_wait = true;
    }
    if (r_wait && t.s_axil_rvalid_o) {
      r_data = t.s_axil_rdata_o;
      r_resp = t.s_axil_rresp_o;
      r_wait = false;
      r_done = true;
    }
    if (aw_pending && t.s_axil_awready_o) {
      aw_pending = false;
      b_wait = true;
    }
    if (b_wait && t.s_axil_bvalid_o) {
      b_wait = false;
      b_done = true;
    }
    quiet = t.quiet_o && (!skipped || t.idle_o);
    idle = t.idle_o;
    skipped = false;
  }

  void edge() override {
    auto& t = *top;
    uint64_t half = opt.clock_period_ps / 2;
    t.clk_i = 0;
    t.eval();
    if (fst) fst->dump(ctx->time());
    sample_outputs();
    if (axi) {
      axi->edge(t, cycle);
      const auto& v = axi->violations();
      for (; axi_reported < v.size(); ++axi_reported) {
        VL_PRINTF("cni_endpoint: the device-memory port broke an AXI rule: %s\n",
                  v[axi_reported].c_str());
        ctx->gotError(true);
      }
    }
    ctx->timeInc(half);
    t.clk_i = 1;
    t.eval();
    if (fst) fst->dump(ctx->time());
    ctx->timeInc(opt.clock_period_ps - half);
    ++cycle;
    ++clocked;
  }
};

template <class Top>
Endpoint::Model<Top>::Model(const Options& o) {
  opt = o;
  ca_stall = Stall(o.seed);
  // the line size and the network beat are the widths of the model's data ports
  line_bytes = static_cast<unsigned>(sizeof(Top::rx_req_data_i));
  net_bytes = static_cast<unsigned>(sizeof(Top::s_axis_net_tdata_i));
  const bool trace = trace_wanted(o.trace);
  ctx = make_context(o.seed, trace);
  top = std::make_unique<Top>(ctx.get(), "top");
  if (trace) fst = open_trace(*top, o.trace_dir, o.name);
  for (unsigned c = 0; c < proto::kNumChannels; ++c) rx_credits[c] = 0;
  zero_axi_inputs();
  top->agent_id_i = o.agent_id;
  top->node_id_i = static_cast<uint16_t>(o.node_id);
  top->rst_ni = 1;
  top->clk_i = 0;
  top->eval();
}

}  // namespace cni::tb
