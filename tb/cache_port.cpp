// SPDX-License-Identifier: Apache-2.0
// The engine side of a device caching agent (see cache_port.hpp).
#include "cache_port.hpp"

#include <cstdio>
#include <cstring>
#include <iterator>

namespace cni::tb {

using proto::Msg;
using proto::Op;

const char* ca_op_name(CaOp op) {
  switch (op) {
    case CaOp::RdS:
      return "RD_S";
    case CaOp::RdX:
      return "RD_X";
    case CaOp::Wr:
      return "WR";
    case CaOp::RdNA:
      return "RD_NA";
    case CaOp::WrInv:
      return "WR_INV";
    case CaOp::Flush:
      return "FLUSH";
  }
  return "CA?";
}

bool ca_is_read(CaOp op) { return op == CaOp::RdS || op == CaOp::RdX || op == CaOp::RdNA; }

const char* line_state_name(LineState s) {
  static const char* names[] = {"I", "S", "E", "O", "M", "IS", "IM", "SM", "MI", "OM"};
  const auto i = static_cast<unsigned>(s);
  return i < std::size(names) ? names[i] : "?";
}

sim::CacheState to_cache_state(LineState s) {
  return s == LineState::OM ? sim::CacheState::SM : static_cast<sim::CacheState>(s);
}

CaRequest random_ca_request(std::mt19937_64& rng, unsigned line_bytes) {
  auto pick = [&](unsigned m) { return static_cast<unsigned>(rng() % m); };
  CaRequest r;
  const unsigned kind = pick(100);
  r.op = kind < 20   ? CaOp::RdS
         : kind < 30 ? CaOp::RdX
         : kind < 55 ? CaOp::Wr
         : kind < 70 ? CaOp::RdNA
         : kind < 85 ? CaOp::WrInv
                     : CaOp::Flush;
  for (unsigned b = 0; b < line_bytes; ++b) r.data[b] = static_cast<uint8_t>(rng());
  const unsigned off = pick(line_bytes), len = 1 + pick(line_bytes - off);
  for (unsigned b = off; b < off + len; ++b) r.be.set(b);
  return r;
}

namespace {
std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
}  // namespace

CachePort::CachePort(proto::AgentId agent, unsigned line_bytes, unsigned id_bits)
    : agent_(agent), line_bytes_(line_bytes) {
  for (unsigned i = 1u << id_bits; i-- > 0;) free_ids_.push_back(i);
}

void CachePort::submit(CaOp op, proto::Addr addr, Done done, const uint8_t* data,
                       const CaByteMask* be) {
  auto r = std::make_shared<Request>();
  r->req.op = op;
  r->req.addr = addr;
  if (data != nullptr) std::memcpy(r->req.data.data(), data, line_bytes_);
  if (be != nullptr) {
    r->req.be = *be;
  } else {
    for (unsigned i = 0; i < line_bytes_; ++i) r->req.be.set(i);
  }
  r->done = std::move(done);
  queue_.push_back(std::move(r));
  ++open_;
}

std::optional<CaRequest> CachePort::issue() {
  if (queue_.empty() || free_ids_.empty()) return std::nullopt;
  auto r = queue_.front();
  queue_.pop_front();
  r->req.id = free_ids_.back();
  free_ids_.pop_back();
  r->seq = next_seq_++;
  by_id_[r->req.id] = r;
  return r->req;
}

LineState CachePort::state(proto::Addr line) const {
  auto it = states_.find(line);
  return it == states_.end() ? LineState::I : it->second;
}

void CachePort::state_changed(proto::Addr line, LineState from, LineState to, sim::Time now) {
  if (state(line) != from) {
    errors_.push_back("monitor: line " + hex(line) + " reported " + line_state_name(from) + " -> " +
                      line_state_name(to) + " but was " + line_state_name(state(line)));
  }
  if (to == LineState::I) {
    states_.erase(line);
  } else {
    states_[line] = to;
  }
  const sim::CacheState cf = to_cache_state(from), ct = to_cache_state(to);
  if (obs_ && cf != ct) obs_->on_state(agent_, line, cf, ct, now);
}

void CachePort::performed(unsigned id, const uint8_t* line, sim::Time now) {
  auto it = by_id_.find(id);
  if (it == by_id_.end()) {
    errors_.push_back("monitor: access performed for id " + std::to_string(id) +
                      ", not outstanding");
    return;
  }
  Request& r = *it->second;
  r.performed = true;
  std::memcpy(r.expect.data(), line, line_bytes_);
  if (obs_ == nullptr) return;
  if (ca_is_read(r.req.op)) {
    obs_->on_load(agent_, r.req.addr, line, line_bytes_, now);
    return;
  }
  // A write: each contiguous run of its bytes (all of them for WrInv).
  const bool masked = r.req.op == CaOp::Wr;
  unsigned i = 0;
  while (i < line_bytes_) {
    if (masked && !r.req.be.test(i)) {
      ++i;
      continue;
    }
    unsigned j = i;
    while (j < line_bytes_ && (!masked || r.req.be.test(j))) ++j;
    obs_->on_store(agent_, r.req.addr + i, line + i, j - i, now);
    i = j;
  }
}

void CachePort::responded(unsigned id, bool err, const uint8_t* data, sim::Time now) {
  auto it = by_id_.find(id);
  if (it == by_id_.end()) {
    errors_.push_back("response for id " + std::to_string(id) + ", not outstanding");
    return;
  }
  auto r = it->second;
  by_id_.erase(it);
  free_ids_.push_back(id);
  --open_;
  CaResult res;
  res.op = r->req.op;
  res.addr = r->req.addr;
  res.err = err;
  res.at = now;
  std::memcpy(res.data.data(), data, line_bytes_);
  if (!err && ca_is_read(r->req.op)) {
    const std::string what = std::string(ca_op_name(r->req.op)) + " " + hex(r->req.addr);
    if (!r->performed) {
      errors_.push_back(what + " answered with data no access or DataI fixed");
    } else if (std::memcmp(res.data.data(), r->expect.data(), line_bytes_) != 0) {
      errors_.push_back(what + " answered with other data than it was performed with");
    }
  }
  if (r->done) r->done(res);
}

void CachePort::sent(const Msg& m) {
  if (m.op == Op::WrInv) std::memcpy(wrinv_data_[m.tag].data(), m.data.data(), line_bytes_);
}

void CachePort::home_sent(const Msg& m, sim::Time now) {
  if (m.dst != agent_) return;
  if (m.op == Op::DataI) {
    // The oldest issued RdNA of the line not yet performed: requests are taken in order and a
    // request to a line waits at the port while an earlier one's miss is outstanding, so that
    // is the one with the miss (an earlier one that hit may still wait for the engine to take
    // its response, a later one for the port).
    Request* oldest = nullptr;
    for (auto& [rid, r] : by_id_) {
      if (r->req.op == CaOp::RdNA && r->req.addr == m.addr && !r->performed &&
          (oldest == nullptr || r->seq < oldest->seq)) {
        oldest = r.get();
      }
    }
    if (oldest != nullptr) {
      oldest->performed = true;
      std::memcpy(oldest->expect.data(), m.data.data(), line_bytes_);
    }
    if (obs_) obs_->on_load(m.src, m.addr, m.data.data(), line_bytes_, now);
  } else if (m.op == Op::WrAck) {
    auto it = wrinv_data_.find(m.tag);
    if (it == wrinv_data_.end()) return;  // answers no WrInv: the block drops it
    if (obs_) obs_->on_store(m.src, m.addr, it->second.data(), line_bytes_, now);
    wrinv_data_.erase(it);
  }
}

}  // namespace cni::tb
