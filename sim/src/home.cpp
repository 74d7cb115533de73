// SPDX-License-Identifier: Apache-2.0
#include "cni/sim/home.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>

#include "cni/sim/coherence.hpp"
#include "cni/sim/profile.hpp"
#include "params.hpp"

namespace cni::sim {

using proto::Addr;
using proto::AgentId;
using proto::Msg;
using proto::Op;

namespace {
std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
constexpr uint16_t bit(AgentId a) { return static_cast<uint16_t>(1u << a); }
}  // namespace

const char* dir_state_name(DirState s) {
  switch (s) {
    case DirState::I:
      return "I";
    case DirState::S:
      return "S";
    case DirState::X:
      return "X";
    case DirState::O:
      return "O";
  }
  return "?";
}

HomeParams HomeParams::from_profile(const Profile& p) {
  using namespace detail;
  HomeParams h;
  h.line_bytes = uint_param(p, "line_bytes", 64, 128);
  h.dir = ns_param(p, "home.dir_ns");
  h.dram_latency = ns_param(p, "dram.latency_ns");
  h.dram_bw_gib_s = p.get_double("dram.bandwidth_gib_s");
  if (h.dram_bw_gib_s < 0) {
    throw ProfileError("profile " + p.name() + ": key 'dram.bandwidth_gib_s' must be >= 0");
  }
  h.max_transactions = uint_param(p, "home.max_transactions", 1, 256);
  h.grant_exclusive = p.get_bool("home.grant_exclusive");
  h.forward_owned = p.get_bool("home.forward_owned");
  return h;
}

HomeAgent::HomeAgent(Kernel& k, Fabric& f, AgentId id, Addr base, Addr size, const HomeParams& p,
                     std::string name)
    : Agent(id), k_(k), fabric_(f), p_(p), name_(std::move(name)), base_(base), size_(size) {
  if (p_.line_bytes != fabric_.line_bytes()) {
    throw std::invalid_argument(name_ + ": line size " + std::to_string(p_.line_bytes) +
                                " differs from the fabric's " +
                                std::to_string(fabric_.line_bytes()));
  }
  if (base % p_.line_bytes != 0 || size % p_.line_bytes != 0 || size == 0) {
    throw std::invalid_argument(name_ + ": range [" + hex(base) + ", +" + hex(size) +
                                ") is not a non-empty whole number of lines");
  }
  if (p_.max_transactions == 0 || p_.max_transactions > 256) {
    throw std::invalid_argument(name_ + ": home.max_transactions must be in [1, 256]");
  }
  tt_.resize(p_.max_transactions);
}

// ---- memory and directory backdoor ----------------------------------------------------------

HomeAgent::Line& HomeAgent::mem_line(Addr line) {
  auto [it, fresh] = mem_.try_emplace(line);
  if (fresh) it->second.fill(0);
  return it->second;
}

void HomeAgent::write_line(Addr line, const uint8_t* data) {
  std::memcpy(mem_line(line).data(), data, p_.line_bytes);
}

void HomeAgent::read_memory(Addr addr, void* dst, size_t n) const {
  if (addr < base_ || addr - base_ + n > size_) {
    throw std::out_of_range(name_ + ": read_memory [" + hex(addr) + ", +" + std::to_string(n) +
                            ") is outside the home's range");
  }
  auto* out = static_cast<uint8_t*>(dst);
  for (size_t i = 0; i < n; ++i) {
    const Addr a = addr + i;
    auto it = mem_.find(line_of(a));
    out[i] = it == mem_.end() ? 0 : it->second[a % p_.line_bytes];
  }
}

void HomeAgent::write_memory(Addr addr, const void* src, size_t n) {
  if (addr < base_ || addr - base_ + n > size_) {
    throw std::out_of_range(name_ + ": write_memory [" + hex(addr) + ", +" + std::to_string(n) +
                            ") is outside the home's range");
  }
  const auto* in = static_cast<const uint8_t*>(src);
  for (size_t i = 0; i < n; ++i) {
    const Addr a = addr + i;
    mem_line(line_of(a))[a % p_.line_bytes] = in[i];
  }
}

DirState HomeAgent::dir_state(Addr addr) const {
  auto it = dir_.find(line_of(addr));
  return it == dir_.end() ? DirState::I : it->second.st;
}

uint16_t HomeAgent::dir_sharers(Addr addr) const {
  auto it = dir_.find(line_of(addr));
  return it == dir_.end() ? 0 : it->second.sharers;
}

AgentId HomeAgent::dir_owner(Addr addr) const {
  auto it = dir_.find(line_of(addr));
  return it == dir_.end() ? 0 : it->second.owner;
}

size_t HomeAgent::queued() const {
  size_t n = full_q_.size();
  for (const auto& [line, q] : line_q_) n += q.size();
  return n;
}

Time HomeAgent::dram_access() {
  const Time occupancy = p_.dram_bw_gib_s > 0
                             ? static_cast<Time>(std::llround(
                                   p_.line_bytes / (p_.dram_bw_gib_s * 1073741824.0 / 1e12)))
                             : 0;
  const Time begin = std::max(k_.now(), dram_free_);
  dram_free_ = begin + occupancy;
  return begin + occupancy + p_.dram_latency;
}

// ---- messages -------------------------------------------------------------------------------

void HomeAgent::reply(const Msg& req, Op op, Time delay, const uint8_t* data) {
  Msg r;
  r.op = op;
  r.src = id();
  r.dst = req.src;
  r.tag = req.tag;
  r.addr = req.addr;
  if (data != nullptr) {
    r.len = static_cast<uint8_t>(p_.line_bytes);
    std::memcpy(r.data.data(), data, p_.line_bytes);
  }
  k_.after(delay, [this, r] { fabric_.send(r); });
}

void HomeAgent::reject(const Msg& m, const std::string& why) {
  ++stats_.errors;
  if (error_log_.size() < kErrorLogMax) {
    error_log_.push_back(std::to_string(to_ns(k_.now())) + " ns: " + m.str() + ": " + why);
  }
  if (m.chan() == proto::Chan::Req) reply(m, Op::Error, p_.dir);
}

bool HomeAgent::valid_request(const Msg& m) {
  if (m.addr < base_ || m.addr - base_ >= size_) {
    reject(m, "address outside the home range");
    return false;
  }
  if (m.addr % p_.line_bytes != 0) {
    reject(m, "unaligned address");
    return false;
  }
  const unsigned want = proto::carries_data(m.op) ? p_.line_bytes : 0;
  if (m.len != want) {
    reject(m, "wrong length");
    return false;
  }
  return true;
}

void HomeAgent::deliver(const Msg& m) {
  if (m.dst != id()) {
    reject(m, "not addressed to this agent");
    return;
  }
  switch (m.op) {
    case Op::RdS:
    case Op::RdX:
    case Op::Upg:
    case Op::WB:
    case Op::RdNA:
    case Op::WrInv:
      if (valid_request(m)) on_request(m);
      break;
    case Op::SnpAck:
    case Op::SnpData:
      on_snoop_answer(m);
      break;
    default:
      // A host home caches nothing and requests nothing: any other opcode is malformed here.
      reject(m, "opcode a home does not accept");
  }
}

void HomeAgent::on_request(const Msg& m) {
  if (m.op == Op::WB) {
    on_writeback(m);
    return;
  }
  ++stats_.requests;
  if (busy_.count(m.addr)) {
    ++stats_.waited_busy;
    line_q_[m.addr].push_back(m);
    return;
  }
  if (used_ == tt_.size()) {
    ++stats_.waited_full;
    full_q_.push_back(m);
    return;
  }
  start(m);
}

void HomeAgent::on_writeback(const Msg& m) {
  const AgentId w = m.src;
  // Write-backs always sink (rule 4): absorbed into the line's transaction, or applied to the
  // directory at once -- never queued, since a transaction may be waiting for this very WB.
  if (auto b = busy_.find(m.addr); b != busy_.end()) {
    Txn& t = tt_[b->second];
    const bool owner =
        (t.start.st == DirState::X || t.start.st == DirState::O) && t.start.owner == w;
    if (owner && !t.granting) {
      // Rule 6: the write-back raced this transaction's snoop; it carries the data.
      ++stats_.writebacks;
      ++stats_.dram_writes;
      dram_access();
      write_line(m.addr, m.data.data());
      reply(m, Op::WbAck, p_.dir);
      t.wbp &= static_cast<uint16_t>(~bit(w));
      t.wbgot |= bit(w);
      maybe_complete(b->second);
      return;
    }
    // Otherwise the transaction is complete (its final directory state is written) or does
    // not involve the writer: judge the WB against the directory as it stands.
  }
  DirEntry& d = dir_[m.addr];
  const bool owner = (d.st == DirState::X || d.st == DirState::O) && d.owner == w;
  if (!owner) {
    reject(m, "write-back from an agent that does not own the line");
    return;
  }
  ++stats_.writebacks;
  ++stats_.dram_writes;
  dram_access();
  write_line(m.addr, m.data.data());
  if (d.st == DirState::O && d.sharers != 0) {
    d.st = DirState::S;
  } else {
    d = DirEntry{};
  }
  reply(m, Op::WbAck, p_.dir);
}

void HomeAgent::start(const Msg& m) {
  {
    const DirEntry& d = dir_[m.addr];
    if (d.st == DirState::O && d.owner == m.src && m.op != Op::Upg) {
      // A dirty owner never misses on its own line (it writes back first).
      reject(m, std::string(proto::op_name(m.op)) + " from the dirty owner of the line");
      return;
    }
  }
  unsigned slot = 0;
  while (tt_[slot].used) ++slot;
  Txn& t = tt_[slot];
  t = Txn{};
  t.used = true;
  t.req = m;
  t.start = dir_[m.addr];
  ++used_;
  busy_[m.addr] = slot;

  const AgentId r = m.src;
  const DirEntry& d = t.start;
  uint16_t targets = 0;
  if (m.op == Op::RdS || m.op == Op::RdNA) {
    // Reads: downgrade another agent's exclusive or owned copy (the owner is never the
    // requester here: an O owner's own read was rejected above, an X owner's is a re-grant).
    t.own = false;
    t.grant = m.op == Op::RdNA ? Op::DataI : Op::DataS;
    if (d.st == DirState::I || (d.st == DirState::X && d.owner == r)) {
      if (m.op == Op::RdS && p_.grant_exclusive) t.grant = Op::DataE;
    } else if (d.st == DirState::X || d.st == DirState::O) {
      targets = bit(d.owner);
      t.snoop = p_.forward_owned ? Op::FwdDownO : Op::FwdDown;
    }
  } else {
    // RdX, Upg, WrInv: invalidate every other holder. An RdX that writes the whole line (FULL)
    // needs no data: ownership alone (UpgAck), any dirty copy's data discarded.
    t.own = true;
    const bool holder = (d.st == DirState::S && (d.sharers & bit(r))) ||
                        (d.st == DirState::O && (d.owner == r || (d.sharers & bit(r))));
    const bool full = m.op == Op::RdX && (m.flags & proto::kFlagFullWrite);
    t.grant = m.op == Op::WrInv                       ? Op::WrAck
              : ((m.op == Op::Upg && holder) || full) ? Op::UpgAck
                                                      : Op::DataE;
    t.snoop = Op::FwdInv;
    uint16_t holders = d.sharers;
    if (d.st == DirState::X || d.st == DirState::O) holders |= bit(d.owner);
    targets = holders & static_cast<uint16_t>(~bit(r));
  }
  if (t.grant != Op::UpgAck && t.grant != Op::WrAck) {
    ++stats_.dram_reads;
    t.mem_ready = dram_access() + p_.dir;
  }
  t.pending = targets;
  for (AgentId a = 0; a < proto::kMaxAgents; ++a) {
    if (!(targets & bit(a))) continue;
    Msg s;
    s.op = t.snoop;
    s.src = id();
    s.dst = a;
    s.tag = static_cast<uint8_t>(slot);
    s.addr = m.addr;
    ++stats_.snoops;
    k_.after(p_.dir, [this, s] { fabric_.send(s); });
  }
  maybe_complete(slot);
}

void HomeAgent::on_snoop_answer(const Msg& m) {
  const unsigned slot = m.tag;
  if (slot >= tt_.size() || !tt_[slot].used || tt_[slot].granting || tt_[slot].req.addr != m.addr ||
      !(tt_[slot].pending & bit(m.src))) {
    reject(m, "snoop answer matches no waiting transaction");
    return;
  }
  Txn& t = tt_[slot];
  if (m.op == Op::SnpData) {
    if (m.len != p_.line_bytes) {
      reject(m, "SnpData without a whole line");
      return;
    }
    t.have_data = true;
    std::memcpy(t.data.data(), m.data.data(), p_.line_bytes);
  }
  t.pending &= static_cast<uint16_t>(~bit(m.src));
  if (m.op == Op::SnpAck && (m.flags & proto::kFlagWbPending) && !(t.wbgot & bit(m.src))) {
    t.wbp |= bit(m.src);
  }
  maybe_complete(slot);
}

void HomeAgent::maybe_complete(unsigned slot) {
  Txn& t = tt_[slot];
  if (t.granting || t.pending != 0 || t.wbp != 0) return;
  t.granting = true;
  const Msg req = t.req;
  const Addr line = req.addr;
  const AgentId r = req.src;
  const DirEntry& d = t.start;
  DirEntry fin;
  Op grant = t.grant;
  bool from_snoop = false;  // grant data comes from the owner's SnpData, not memory
  // S with these sharers, or I when there are none.
  const auto shared = [](uint16_t sharers) {
    return sharers != 0 ? DirEntry{DirState::S, sharers, 0} : DirEntry{};
  };
  if (req.op == Op::WrInv) {
    // Every other copy is gone (dirty data they sent is discarded, a racing WB was absorbed
    // first): the request's line is the line.
    write_line(line, req.data.data());
    ++stats_.dram_writes;
    dram_access();
    fin = DirEntry{};
  } else if (!t.own) {
    // RdS adds the requester to the directory. RdNA never does, and drops it if the directory
    // still names it (its clean copy was dropped silently: it would not ask otherwise).
    const bool na = req.op == Op::RdNA;
    const auto with_r = [&](uint16_t v) {
      return static_cast<uint16_t>(na ? v & ~bit(r) : v | bit(r));
    };
    if (d.st == DirState::I || (d.st == DirState::X && d.owner == r)) {
      fin = na                   ? DirEntry{}
            : grant == Op::DataE ? DirEntry{DirState::X, 0, r}
                                 : DirEntry{DirState::S, bit(r), 0};
    } else if (d.st == DirState::S) {
      fin = shared(with_r(d.sharers));
    } else {
      const AgentId w = d.owner;
      const uint16_t others = with_r(d.st == DirState::O ? d.sharers : 0);
      if (t.wbgot & bit(w)) {
        // The owner wrote back (its WB may even overtake its SnpData): memory is current and
        // the owner holds nothing.
        fin = shared(static_cast<uint16_t>(others & ~bit(w)));
      } else if (t.have_data) {
        from_snoop = true;
        if (t.snoop == Op::FwdDownO) {
          fin = DirEntry{DirState::O, static_cast<uint16_t>(others & ~bit(w)), w};
        } else {
          write_line(line, t.data.data());
          ++stats_.dram_writes;
          dram_access();
          fin = DirEntry{DirState::S, static_cast<uint16_t>(others | bit(w)), 0};
        }
      } else if (d.st == DirState::O) {
        throw CoherenceError(name_ + ": dirty owner agent " + std::to_string(w) + " of line " +
                             hex(line) + " answered a snoop without data or write-back");
      } else {
        fin = DirEntry{DirState::S, static_cast<uint16_t>(others | bit(w)), 0};  // owner was E
      }
    }
  } else {
    fin = DirEntry{DirState::X, 0, r};
    if (t.have_data && !t.wbgot && grant != Op::UpgAck) {
      from_snoop = true;
      if (p_.forward_owned) {
        grant = Op::DataM;  // the requester now owes the write-back
      } else {
        write_line(line, t.data.data());
        ++stats_.dram_writes;
        dram_access();
      }
    }
  }
  dir_[line] = fin;
  const Time now = k_.now();
  Time when = now + p_.dir;
  const bool no_data = grant == Op::UpgAck || grant == Op::WrAck;
  if (!no_data && !from_snoop) when = std::max(when, t.mem_ready);
  const auto data = t.data;
  k_.at(when, [this, slot, req, grant, no_data, from_snoop, data] {
    if (no_data) {
      reply(req, grant, 0);
    } else {
      reply(req, grant, 0, from_snoop ? data.data() : mem_line(req.addr).data());
    }
    release(slot);
  });
}

void HomeAgent::release(unsigned slot) {
  Txn& t = tt_[slot];
  const Addr line = t.req.addr;
  t.used = false;
  --used_;
  busy_.erase(line);
  // The next request on this line goes first (it reuses the freed slot), then the table queue.
  if (auto q = line_q_.find(line); q != line_q_.end()) {
    while (!q->second.empty() && !busy_.count(line)) {
      const Msg next = q->second.front();
      q->second.pop_front();
      if (used_ < tt_.size()) {
        start(next);
      } else {
        full_q_.push_front(next);
        break;
      }
    }
    if (q->second.empty()) line_q_.erase(q);
  }
  while (used_ < tt_.size() && !full_q_.empty()) {
    const Msg next = full_q_.front();
    full_q_.pop_front();
    if (busy_.count(next.addr)) {
      line_q_[next.addr].push_back(next);
    } else {
      start(next);
    }
  }
}

}  // namespace cni::sim
