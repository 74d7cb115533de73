// SPDX-License-Identifier: Apache-2.0
// The Verilated device core as a fabric agent (see sim_device.hpp).
#include "device/sim_device.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <utility>

#include "cni/engines.hpp"
#include "cni/sim/bus_carrier.hpp"

namespace cni::tb {

namespace {
// Frames the device's receive port may hold back before the network's port stops delivering.
constexpr size_t kNetRxHold = 2;
}  // namespace

using proto::Chan;
using proto::Msg;
using proto::Op;

namespace {
// The code of a CNI configuration named as the profiles name them (NI2w, CNI4, CNI16Q, CNI512Q,
// CNI16Qm, none): the engine registry's CniConfig names, matched without regard to case.
unsigned cni_config_code(const std::string& name) {
  const auto same = [](const std::string& a, const char* b) {
    return std::equal(a.begin(), a.end(), b, b + std::strlen(b), [](char x, char y) {
      return std::tolower(static_cast<unsigned char>(x)) ==
             std::tolower(static_cast<unsigned char>(y));
    });
  };
  std::string known;
  for (const auto& [n, code] : engines::kCniConfigNames) {
    if (same(name, n)) return static_cast<unsigned>(code);
    known += (known.empty() ? "" : ", ") + std::string(n);
  }
  throw std::invalid_argument("device.cni = " + name + ": not a CNI configuration (" + known +
                              "; in any case)");
}
}  // namespace

std::string SimDevice::device_variant(unsigned line_bytes, const std::string& cni, bool early) {
  const long code = cni_config_code(cni);
  const long none = static_cast<long>(engines::CniConfig::NONE);
  std::string have, pipelined;
  bool found_pipelined = false;
  for (const auto& m : Endpoint::models()) {
    if (m.line_bytes != line_bytes) continue;
    if (m.param("CniConfig", none) == code && m.param("CniEarlyPull", 0) == (early ? 1 : 0) &&
        m.param("DramIdxW", 0) == 0) {
      if (m.param("Pipelined", 0) == 0) return m.variant;
      if (!found_pipelined) pipelined = m.variant;  // a pipelined build's own models
      found_pipelined = true;
    }
    have += (have.empty() ? "" : ", ") +
            std::string(m.param("CniEarlyPull", 0) ? "EarlyPull " : "") + "CniConfig " +
            std::to_string(m.param("CniConfig", none));
  }
  if (found_pipelined) return pipelined;
  // none: the run uses no CNI engine; a build whose models all carry one (the checking builds)
  // runs it on its own model
  if (code == none && !early && Endpoint::has_model(line_bytes, "")) return "";
  throw std::invalid_argument("device.cni = " + cni + (early ? " with device.cni_early_pull" : "") +
                              ": the " + built_flavor() + " build has no such device model at " +
                              std::to_string(line_bytes) + "-byte lines (it has " +
                              (have.empty() ? "none" : have) + "; CniConfig " +
                              std::to_string(code) + " is " + cni + ")");
}

SimDevice::Config SimDevice::config_from(const sim::Profile& p) {
  Config c;
  c.freq_mhz = p.get_double("device.freq_mhz");
  c.park_timeout_us = p.get_double("device.park_timeout_us");
  if (p.has("device.ca_clean_cycles")) {
    const int64_t n = p.get_int("device.ca_clean_cycles");
    if (n < 0 || n > 0xFFFF)
      throw std::invalid_argument("device.ca_clean_cycles = " + std::to_string(n) +
                                  ": the CA_CLEAN register holds 0..65535 cycles");
    c.ca_clean_cycles = static_cast<uint16_t>(n);
  }
  // On seed 000's buses the device's buffer is on the bus: its credits come back at once.
  const bool on_bus = sim::BusParams::from_profile(p).model != sim::BusModel::None;
  c.credit_return_ns = on_bus ? 0.0 : p.get_double("link.one_way_ns");
  c.line_bytes = static_cast<unsigned>(p.get_int("line_bytes"));
  if (p.has("device.skip_idle")) c.skip_idle = p.get_bool("device.skip_idle");
  // The device model: the build's model at the profile's line size whose CNI engine is the one
  // device.cni names (none: no CNI engine) with device.cni_early_pull's EarlyPull, in the
  // default (not pipelined) configuration (tb/rtl_endpoint.cmake: each model's parameters).
  const std::string cni = p.has("device.cni") ? p.get_string("device.cni") : "none";
  const bool early = p.has("device.cni_early_pull") && p.get_bool("device.cni_early_pull");
  // 000 section 2.3: a coherent I/O bus does not let a device cache processor memory
  if (cni == "CNI16Qm" && sim::BusParams::from_profile(p).model == sim::BusModel::Io)
    throw std::invalid_argument("device.cni = CNI16Qm on profile " + p.name() +
                                ": a device behind the I/O bus cannot cache host memory "
                                "(docs/cni.md, \"Why CNI16Qm does not apply on the I/O bus\")");
  c.variant = device_variant(c.line_bytes, cni, early);
  return c;
}

namespace {
Endpoint::Options endpoint_options(proto::AgentId id, const SimDevice::Config& cfg) {
  Endpoint::Options o;
  o.name = cfg.trace_name;
  o.agent_id = id;
  o.clock_period_ps = static_cast<uint64_t>(std::llround(1e6 / cfg.freq_mhz));
  o.trace = cfg.trace;
  o.auto_tx_credits = false;
  o.seed = cfg.seed;
  o.ca_rsp_stall = cfg.ca_rsp_stall;
  o.line_bytes = cfg.line_bytes;
  o.variant = cfg.variant;
  o.node_id = cfg.node;
  o.dram_stall = cfg.dram_stall;
  o.net_channels = cfg.net_channels;
  return o;
}

// Resets the endpoint, which reads its geometry, and makes the port of its caching agent.
CachePort reset_with_port(Endpoint& ep, proto::AgentId id) {
  ep.reset();
  return CachePort(id, ep.geometry().line_bytes, ep.geometry().ca_id_bits);
}

// `m` with its address moved from the window at `from` to the one at `to` when it is one of
// the `size` bytes of the window at `from`.
Msg moved(const Msg& m, uint64_t from, uint64_t to, uint64_t size) {
  Msg out = m;
  if (m.addr >= from && m.addr - from < size) out.addr = m.addr - from + to;
  return out;
}

// The home agent's answer to a host request.
bool answers_request(Op op) {
  switch (op) {
    case Op::DataS:
    case Op::DataE:
    case Op::DataM:
    case Op::DataI:
    case Op::UpgAck:
    case Op::WbAck:
    case Op::WrAck:
    case Op::Retry:
    case Op::Error:
    case Op::NcAck:
    case Op::NcData:
      return true;
    default:
      return false;
  }
}

// What the caching agent sends: requests to host homes and answers to their snoops. The rest
// is the home agent's.
bool from_cache_agent(const Msg& m) {
  return m.chan() == Chan::Req || m.op == Op::SnpAck || m.op == Op::SnpData;
}
}  // namespace

SimDevice::SimDevice(sim::Kernel& k, sim::Fabric& f, sim::NodeId node, proto::AgentId id,
                     const Config& cfg)
    : sim::Agent(id), k_(k), f_(f), cfg_(cfg), ep_(endpoint_options(id, cfg)),
      port_(reset_with_port(ep_, id)),
      clk_(k, "device", cfg.freq_mhz) {
  host_base_ = ep_.geometry().dev_base + cfg.host_offset;
  const double cycles = cfg.park_timeout_us * cfg.freq_mhz;
  ep_.csr_write(csr::kParkTimeout, cycles >= 4294967295.0 ? 0xFFFFFFFFu : uint32_t(cycles));
  ep_.csr_write(csr::kRetExcl, cfg.ret_excl_regions);
  // (CA_CLEAN resets to 0: written only when set, so that a profile without it runs the same cycles)
  if (cfg.ca_clean_cycles) ep_.csr_write(csr::kCaClean, cfg.ca_clean_cycles);
  f.attach(*this, node);
  f.map_home(host_base_, ep_.geometry().size_bytes(), id);
  for (Chan ch : {Chan::Req, Chan::Fwd, Chan::Rsp, Chan::Dat}) {
    f.set_rx_credits(id, ch, ep_.geometry().rx_depth);
  }
  ep_.on_rx_credit([this](Chan ch) { f_.credit_return(this->id(), ch); });
  ep_.on_rx([this](const Msg& m, uint64_t cycle) {
    if (m.chan() != Chan::Req) return;
    if (open_reqs_ == 0) {
      awaiting_first_ = true;
      first_in_cycle_ = cycle;
    }
    ++open_reqs_;
  });
  ep_.on_emit([this](const TxMsg& t) {
    if (from_cache_agent(t.msg)) {
      port_.sent(t.msg);
    } else {
      if (awaiting_first_) {
        first_resp_.push_back(static_cast<uint32_t>(t.cycle - first_in_cycle_));
        awaiting_first_ = false;
      }
      if (answers_request(t.msg.op) && open_reqs_ > 0) --open_reqs_;
    }
    f_.send(moved(t.msg, ep_.geometry().dev_base, host_base_, ep_.geometry().size_bytes()));
  });
  // The caching agent's monitor, and the answers of host homes that perform its RdNA and WrInv
  // misses.
  ep_.on_ca_state([this](uint64_t line, LineState from, LineState to) {
    port_.state_changed(line, from, to, k_.now());
  });
  ep_.on_ca_access(
      [this](unsigned rid, const uint8_t* line) { port_.performed(rid, line, k_.now()); });
  // The engines' accesses through the agent (whole lines), and their writes of device lines.
  ep_.on_ca_engine_access([this](uint64_t addr, bool we, const uint8_t* line) {
    if (!obs_) return;
    const unsigned lb = ep_.geometry().line_bytes;
    if (we) {
      obs_->on_store(this->id(), addr, line, lb, k_.now());
    } else {
      obs_->on_load(this->id(), addr, line, lb, k_.now());
    }
  });
  ep_.on_port_b_write([this](unsigned line, const uint8_t* data) {
    if (obs_) obs_->on_home_store(this->id(), host_addr(line), data, ep_.geometry().line_bytes,
                                  k_.now());
  });
  f.on_send([this](const Msg& m, sim::Time) { port_.home_sent(m, k_.now()); });
  // A transmit credit comes back one link latency after the message reached its receiver.
  f.on_deliver([this](const Msg& m, sim::Time) {
    if (m.src != this->id()) return;
    Chan ch = m.chan();
    k_.after(sim::ns(cfg_.credit_return_ns), [this, ch] {
      ep_.return_tx_credit(ch);
      clk_.wake();
    });
  });
  clk_.on_rising([this](uint64_t cycle) { on_edge(cycle); });
  // Edge c of the clock is the core's cycle (the reset's cycles before it) + c.
  cycle0_ = ep_.cycle();
  clk_.start();
}

void SimDevice::on_edge(uint64_t cycle) {
  // A test that clocks the core directly (a CSR access) moves it ahead of the clock: the clock's
  // edges then map to later cycles.
  if (cycle0_ + cycle < ep_.cycle()) cycle0_ = ep_.cycle() - cycle;
  ep_.skip_to(cycle0_ + cycle);  // the cycles slept through, if any
  while (auto r = port_.issue()) ep_.ca_request(*r);
  ep_.tick();
  auto& rsp = ep_.ca_responses();
  while (!rsp.empty()) {
    const CacheRsp r = rsp.front();
    rsp.pop_front();
    port_.responded(r.id, r.err, r.data.data(), k_.now());
  }
  if (cfg_.loop_a_to_b) {
    auto& pa = ep_.pa_messages();
    while (!pa.empty()) {
      ep_.pb_push(pa.front());
      pa.pop_front();
    }
  }
  // The device took the frames that waited: the network may deliver again.
  if (cfg_.net_channels == 1) {
    if (net_rx_held_[0] && ep_.net_queued() < kNetRxHold) {
      net_rx_held_[0] = false;
      net_->set_rx_ready(true);
    }
  } else {
    for (unsigned c = 0; c < 2; ++c) {
      if (net_rx_held_[c] && ep_.net_queued(c) < kNetRxHold) {
        net_rx_held_[c] = false;
        net_->set_rx_ready(c, true);
      }
    }
  }
  // Sleep while the core is quiescent and nothing waits to enter it: for good when it is idle,
  // else until the end of the window it promised. Every input wakes the clock.
  if (!cfg_.skip_idle || !ep_.quiescent() || port_.can_issue()) return;
  if (ep_.idle()) {
    clk_.sleep();
  } else {
    clk_.sleep_until(cycle + ep_.geometry().quiet_cycles());
  }
}

SimDevice::~SimDevice() { clk_.stop(); }

void SimDevice::submit(CaOp op, proto::Addr addr, CachePort::Done done, const uint8_t* data,
                       const CaByteMask* be) {
  port_.submit(op, addr, std::move(done), data, be);
  clk_.wake();
}

void SimDevice::deliver(const Msg& m) {
  ep_.send(moved(m, host_base_, ep_.geometry().dev_base, ep_.geometry().size_bytes()));
  clk_.wake();
}

Endpoint& SimDevice::endpoint() {
  // While the clock sleeps the core stays at the last cycle clocked; the cycles since are
  // quiescent ones, skipped. The caller may clock the core and change it (a CSR write): the
  // clock wakes, and sleeps again once the core is quiescent.
  const uint64_t now = cycle0_ + clk_.elapsed();
  if (clk_.sleeping()) {
    if (ep_.cycle() < now) ep_.skip_to(now);
    clk_.wake();
  }
  return ep_;
}

void SimDevice::attach_network(sim::NetPort& port) {
  net_ = &port;
  ep_.on_net_frame([this](const NetFrame& f) {
    // A frame the network cannot route (a node that does not exist, or this one outside the
    // loopback topology) is dropped and counted here, as a switch drops it.
    if (!net_->network().routable(net_->node(), f.dest)) {
      ++net_unroutable_;
      return;
    }
    const unsigned q = cfg_.net_channels == 1 ? 0 : Endpoint::net_channel(f.bytes);
    if (!net_out_[q].empty()) {
      throw std::logic_error("SimDevice: node " + std::to_string(net_->node()) +
                             "'s device sent a frame on channel " + std::to_string(q) +
                             " while an earlier one waited (it had no room)");
    }
    sim::Frame fr;
    fr.dst = f.dest;
    fr.src = net_->node();
    fr.bytes = f.bytes;
    const uint32_t fcs = sim::crc32(fr.bytes);
    for (unsigned i = 0; i < sim::kFcsBytes; ++i) fr.bytes.push_back(uint8_t(fcs >> (8 * i)));
    net_out_[q].push_back(std::move(fr));
    net_retry();
  });
  // The device starts no frame of a channel while one of it waits for the network (with one
  // queue: no frame at all, tready low).
  if (cfg_.net_channels == 1) {
    ep_.set_net_tx_ready([this] { return net_out_[0].empty(); });
    ep_.set_net_tx_room([this](unsigned) { return net_out_[0].empty(); });
  } else {
    ep_.set_net_tx_room([this](unsigned c) { return net_out_[c].empty(); });
  }
  port.on_receive([this](const sim::Frame& f) {
    NetFrame in;
    in.bytes.assign(f.bytes.begin(), f.bytes.end() - sim::kFcsBytes);
    in.bad = f.tuser || !sim::fcs_ok(f.bytes);
    in.dest = f.dst;
    ep_.net_receive(in);
    clk_.wake();
    if (cfg_.net_channels == 1) {
      if (!net_rx_held_[0] && ep_.net_queued() >= kNetRxHold) {
        net_rx_held_[0] = true;
        net_->set_rx_ready(false);
      }
      return;
    }
    const unsigned c = Endpoint::net_channel(in.bytes);
    if (!net_rx_held_[c] && ep_.net_queued(c) >= kNetRxHold) {
      net_rx_held_[c] = true;
      net_->set_rx_ready(c, false);
    }
  });
}

// Offers the frames the device sent to the network, oldest first on each channel; if it refuses
// one, tries again when a slot of the port frees.
void SimDevice::net_retry() {
  bool waiting = false;
  for (auto& q : net_out_) {
    while (!q.empty() && net_->try_send(q.front())) q.pop_front();
    waiting = waiting || !q.empty();
  }
  clk_.wake();  // the device may send again
  if (waiting) net_->on_space([this] { net_retry(); });
}

uint64_t SimDevice::host_addr(unsigned line) const {
  return host_base_ + uint64_t(line) * ep_.geometry().line_bytes;
}

drv::PioChannelLayout SimDevice::pio_layout() const {
  const auto& g = ep_.geometry();
  drv::PioChannelLayout l;
  l.group_base[0] = host_addr(g.c0());
  l.group_base[1] = host_addr(g.c0() + g.cpairs);
  l.pairs = g.cpairs;
  l.line_bytes = g.line_bytes;
  return l;
}

drv::PioStreamLayout SimDevice::pio_stream_layout() const {
  const auto& g = ep_.geometry();
  drv::PioStreamLayout l;
  l.a_base = host_addr(g.a0());
  l.b_base = host_addr(g.b0());
  l.novf_a = g.novfa;
  l.novf_b = g.novfb;
  l.line_bytes = g.line_bytes;
  return l;
}

}  // namespace cni::tb
