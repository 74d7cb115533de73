// SPDX-License-Identifier: Apache-2.0
#include "cni/sim/cache.hpp"

#include <cstdio>
#include <cstring>

#include "cni/sim/profile.hpp"
#include "params.hpp"

namespace cni::sim {

using proto::Addr;
using proto::Msg;
using proto::Op;
using CS = CacheState;

namespace {
std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
constexpr bool stable(CS s) { return s == CS::M || s == CS::O || s == CS::E || s == CS::S; }
constexpr uint8_t kWbTagBase = 0x80;
}  // namespace

CacheParams CacheParams::from_profile(const Profile& p) {
  using namespace detail;
  CacheParams c;
  c.line_bytes = uint_param(p, "line_bytes", 64, 128);
  c.size_kib = uint_param(p, "cache.size_kib", 1, 1u << 20);
  c.ways = uint_param(p, "cache.ways", 1, 1024);
  c.l1_size_kib = uint_param(p, "l1.size_kib", 1, 1u << 20);
  c.l1_ways = uint_param(p, "l1.ways", 1, 1024);
  c.l1_hit = ns_param(p, "l1.hit_ns");
  c.hit = ns_param(p, "cache.hit_ns");
  c.miss = ns_param(p, "cache.miss_ns");
  c.snoop = ns_param(p, "cache.snoop_ns");
  c.retry_backoff = ns_param(p, "cache.retry_backoff_ns");
  c.timeout = ns(positive_param(p, "host.coherence_timeout_ms") * 1e6);
  const double watchdog_ms = p.get_double("host.retry_watchdog_ms");
  if (watchdog_ms < 0) throw std::invalid_argument("host.retry_watchdog_ms must be >= 0");
  c.retry_watchdog = ns(watchdog_ms * 1e6);
  c.mshrs = uint_param(p, "cache.mshrs", 1, kWbTagBase);
  c.validate();
  return c;
}

void CacheParams::validate() const {
  auto bad = [](const std::string& what) {
    throw std::invalid_argument("cache parameters: " + what);
  };
  if (line_bytes != 64 && line_bytes != 128) bad("line_bytes must be 64 or 128");
  if (ways == 0 || size_kib * 1024ull % (uint64_t(line_bytes) * ways) != 0) {
    bad("cache.size_kib = " + std::to_string(size_kib) + " is not a whole number of sets of " +
        std::to_string(ways) + " ways of " + std::to_string(line_bytes) + " B lines");
  }
  if (l1_ways == 0 || l1_size_kib * 1024ull % (uint64_t(line_bytes) * l1_ways) != 0) {
    bad("l1.size_kib = " + std::to_string(l1_size_kib) + " is not a whole number of sets of " +
        std::to_string(l1_ways) + " ways");
  }
  if (l1_size_kib > size_kib) bad("the L1 filter (l1.size_kib) must not exceed cache.size_kib");
  if (mshrs == 0 || mshrs > kWbTagBase) bad("cache.mshrs must be in [1, 128]");
  if (timeout == 0) bad("host.coherence_timeout_ms must be > 0");
  if (retry_watchdog != 0 && retry_watchdog < timeout) {
    bad("host.retry_watchdog_ms must be 0 (none) or at least host.coherence_timeout_ms");
  }
}

HostCache::HostCache(Kernel& k, Fabric& f, proto::AgentId id, const CacheParams& p,
                     std::string name)
    : Agent(id), k_(k), fabric_(f), p_(p), name_(std::move(name)) {
  p_.validate();
  if (p_.line_bytes != fabric_.line_bytes()) {
    throw std::invalid_argument(name_ + ": line size " + std::to_string(p_.line_bytes) +
                                " differs from the fabric's " +
                                std::to_string(fabric_.line_bytes()));
  }
  sets_n_ = p_.size_kib * 1024ull / (uint64_t(p_.line_bytes) * p_.ways);
  l1_sets_n_ = p_.l1_size_kib * 1024ull / (uint64_t(p_.line_bytes) * p_.l1_ways);
  l1_.resize(l1_sets_n_);
  mshr_.resize(p_.mshrs);
}

// ---- core-facing API ----------------------------------------------------------------------

void HostCache::load(Addr addr, void* dst, unsigned n, Done done, Time delay) {
  const Addr line = line_of(addr);
  if (n == 0 || addr - line + n > p_.line_bytes) {
    throw std::invalid_argument(name_ + ": load of " + std::to_string(n) + " B at " + hex(addr) +
                                " is empty or crosses a line");
  }
  auto a = std::make_shared<Access>();
  a->kind = Kind::Load;
  a->line = line;
  a->off = static_cast<unsigned>(addr - line);
  a->n = n;
  a->dst = dst;
  a->done = std::move(done);
  submit(std::move(a), delay);
}

void HostCache::store(Addr addr, const void* src, unsigned n, Done done, Time delay) {
  const Addr line = line_of(addr);
  if (n == 0 || addr - line + n > p_.line_bytes) {
    throw std::invalid_argument(name_ + ": store of " + std::to_string(n) + " B at " + hex(addr) +
                                " is empty or crosses a line");
  }
  std::array<uint8_t, proto::kMaxLineBytes> data{};
  LineMask mask;
  const unsigned off = static_cast<unsigned>(addr - line);
  std::memcpy(data.data() + off, src, n);
  for (unsigned i = 0; i < n; ++i) mask.set(off + i);
  store_line(line, data.data(), mask, std::move(done), delay);
}

void HostCache::store_line(Addr line, const uint8_t* data, const LineMask& mask, Done done,
                           Time delay) {
  if (line % p_.line_bytes != 0) {
    throw std::invalid_argument(name_ + ": store_line at unaligned address " + hex(line));
  }
  if (mask.none()) throw std::invalid_argument(name_ + ": store_line with an empty mask");
  auto a = std::make_shared<Access>();
  a->kind = Kind::Store;
  a->line = line;
  std::memcpy(a->data.data(), data, p_.line_bytes);
  a->mask = mask;
  a->done = std::move(done);
  submit(std::move(a), delay);
}

void HostCache::prefetch(Addr addr, bool exclusive, Time delay) {
  auto a = std::make_shared<Access>();
  a->kind = exclusive ? Kind::PrefetchX : Kind::Prefetch;
  a->line = line_of(addr);
  ++stats_.prefetches;
  submit(std::move(a), delay);
}

CacheState HostCache::state_of(Addr addr) const {
  const Addr line = line_of(addr);
  if (wb_.count(line)) return CS::MI;
  const Line* l = find(line);
  return l ? l->st : CS::I;
}

bool HostCache::in_l1(Addr addr) const {
  const Addr line = line_of(addr);
  for (const auto& [a, lru] : l1_[(line / p_.line_bytes) % l1_sets_n_]) {
    if (a == line) return true;
  }
  return false;
}

// ---- access pipeline ----------------------------------------------------------------------

void HostCache::submit(AccessPtr a, Time delay) {
  k_.after(delay, [this, a = std::move(a)] { lookup(a, false); });
}

HostCache::Line* HostCache::find(Addr line) {
  auto it = lines_.find(line);
  return it == lines_.end() ? nullptr : &it->second;
}

const HostCache::Line* HostCache::find(Addr line) const {
  auto it = lines_.find(line);
  return it == lines_.end() ? nullptr : &it->second;
}

void HostCache::lookup(const AccessPtr& a, bool perform_now) {
  const bool prefetch = a->kind == Kind::Prefetch || a->kind == Kind::PrefetchX;
  const bool want_write = a->kind == Kind::Store || a->kind == Kind::PrefetchX;
  if (auto w = wb_.find(a->line); w != wb_.end()) {
    // Being written back: wait for the WbAck, then miss again. Prefetches are dropped.
    if (!prefetch) w->second.waiters.push_back(a);
    return;
  }
  Line* l = find(a->line);
  if (l && (want_write ? writable(l->st) : readable(l->st))) {
    if (prefetch) return;
    if (perform_now) {
      perform(*l, *a);
      return;
    }
    Time lat = p_.hit;
    if (a->kind == Kind::Load && in_l1(a->line)) {
      lat = p_.l1_hit;
      ++stats_.l1_hits;
    } else {
      ++stats_.hits;
    }
    k_.after(lat, [this, a] { lookup(a, true); });
    return;
  }
  if (auto m = mshr_of_.find(a->line); m != mshr_of_.end()) {
    if (!prefetch) mshr_[m->second].waiters.push_back(a);
    return;
  }
  start_miss(a);
}

void HostCache::start_miss(const AccessPtr& a) {
  const bool prefetch = a->kind == Kind::Prefetch || a->kind == Kind::PrefetchX;
  const bool want_write = a->kind == Kind::Store || a->kind == Kind::PrefetchX;
  if (mshrs_used_ == p_.mshrs) {
    stalled_.push_back(a);
    return;
  }
  Line* l = find(a->line);
  if (l != nullptr) {
    // Present but not writable: S or O, so upgrade.
    if (l->st != CS::S && l->st != CS::O) {
      throw std::logic_error(name_ + ": miss on line " + hex(a->line) + " in state " +
                             state_name(l->st));
    }
    l->dirty_sm = l->st == CS::O;
    set_state(*l, CS::SM);
  } else {
    if (!make_room(a->line)) {
      stalled_.push_back(a);
      return;
    }
    Line& fresh = lines_[a->line];
    fresh.addr = a->line;
    fresh.lru = ++lru_clock_;
    sets_[set_of(a->line)].push_back(a->line);
    set_state(fresh, want_write ? CS::IM : CS::IS);
  }
  unsigned idx = 0;
  while (mshr_[idx].used) ++idx;
  Mshr& m = mshr_[idx];
  m.used = true;
  m.line = a->line;
  m.waiters.clear();
  if (!prefetch) m.waiters.push_back(a);
  mshr_of_[a->line] = idx;
  ++mshrs_used_;
  m.first_at = k_.now();
  m.resend = k_.after(p_.miss, [this, idx] {
    mshr_[idx].resend = EventId{};
    send_request(idx);
  });
}

void HostCache::send_request(unsigned idx) {
  Mshr& m = mshr_[idx];
  const Line& l = *find(m.line);
  Msg r;
  r.op = l.st == CS::IS ? Op::RdS : l.st == CS::IM ? Op::RdX : Op::Upg;
  (r.op == Op::RdS ? stats_.rds : r.op == Op::RdX ? stats_.rdx : stats_.upg)++;
  r.src = id();
  r.dst = fabric_.home_of(m.line);
  r.tag = static_cast<uint8_t>(idx);
  r.addr = m.line;
  m.sent = r.op;
  m.home = r.dst;
  m.sent_at = k_.now();
  m.timer = k_.after(p_.timeout, [this, idx] {
    const Mshr& t = mshr_[idx];
    throw CoherenceError(name_ + " (agent " + std::to_string(id()) +
                         "): coherence timeout: " + proto::op_name(t.sent) + " for line " +
                         hex(t.line) + " sent to agent " + std::to_string(t.home) + " at " +
                         std::to_string(to_ns(t.sent_at)) + " ns is unanswered after " +
                         std::to_string(to_ns(p_.timeout) / 1e6) + " ms (machine check)");
  });
  fabric_.send(r);
}

void HostCache::perform(Line& l, Access& a) {
  l.lru = ++lru_clock_;
  if (a.kind == Kind::Load) {
    std::memcpy(a.dst, l.data.data() + a.off, a.n);
    l1_touch(l.addr);
    ++stats_.loads;
    if (obs_) obs_->on_load(id(), l.addr + a.off, a.dst, a.n, k_.now());
  } else {
    if (l.st == CS::E) set_state(l, CS::M);
    ++stats_.stores;
    // Apply (and report) each contiguous run of the mask.
    unsigned i = 0;
    while (i < p_.line_bytes) {
      if (!a.mask.test(i)) {
        ++i;
        continue;
      }
      unsigned j = i;
      while (j < p_.line_bytes && a.mask.test(j)) ++j;
      std::memcpy(l.data.data() + i, a.data.data() + i, j - i);
      if (obs_) obs_->on_store(id(), l.addr + i, l.data.data() + i, j - i, k_.now());
      i = j;
    }
  }
  if (a.done) a.done();
}

bool HostCache::make_room(Addr line) {
  auto& set = sets_[set_of(line)];
  if (set.size() < p_.ways) return true;
  Line* victim = nullptr;
  for (Addr a : set) {
    Line& x = lines_.at(a);
    if (stable(x.st) && (victim == nullptr || x.lru < victim->lru)) victim = &x;
  }
  if (victim == nullptr) return false;  // every way is waiting for the fabric
  evict(*victim);
  return true;
}

void HostCache::evict(Line& l) {
  const Addr line = l.addr;
  if (l.st == CS::E || l.st == CS::S) {
    ++stats_.silent_drops;
    set_state(l, CS::I);
    erase_line(line);
    return;
  }
  // M or O: write back; the line waits in the write-back buffer (MI) for WbAck.
  Msg wb;
  wb.op = Op::WB;
  wb.src = id();
  wb.dst = fabric_.home_of(line);
  wb.tag = static_cast<uint8_t>(kWbTagBase | (wb_seq_++ & 0x7f));
  wb.addr = line;
  wb.len = static_cast<uint8_t>(p_.line_bytes);
  std::memcpy(wb.data.data(), l.data.data(), p_.line_bytes);
  set_state(l, CS::MI);
  erase_line(line);
  WriteBack& w = wb_[line];
  w.tag = wb.tag;
  w.home = wb.dst;
  w.sent_at = k_.now();
  w.timer = k_.after(p_.timeout, [this, line] {
    const WriteBack& t = wb_.at(line);
    throw CoherenceError(name_ + " (agent " + std::to_string(id()) +
                         "): coherence timeout: WB for line " + hex(line) + " sent to agent " +
                         std::to_string(t.home) + " at " + std::to_string(to_ns(t.sent_at)) +
                         " ns is unanswered after " + std::to_string(to_ns(p_.timeout) / 1e6) +
                         " ms (machine check)");
  });
  ++stats_.writebacks;
  fabric_.send(wb);
}

void HostCache::erase_line(Addr line) {
  l1_remove(line);
  auto& set = sets_[set_of(line)];
  std::erase(set, line);
  lines_.erase(line);
}

void HostCache::finish_mshr(unsigned idx) {
  Mshr& m = mshr_[idx];
  k_.cancel(m.timer);
  k_.cancel(m.resend);
  m.timer = m.resend = EventId{};
  auto waiters = std::move(m.waiters);
  m.waiters.clear();
  mshr_of_.erase(m.line);
  m.used = false;
  --mshrs_used_;
  // Waiting accesses are performed at fill time (critical-word forwarding); a store that
  // still lacks ownership (the fill was DataS) starts an upgrade.
  for (auto& a : waiters) lookup(a, true);
  retry_stalled();
}

void HostCache::retry_stalled() {
  if (retrying_ || stalled_.empty()) return;
  retrying_ = true;
  auto pending = std::move(stalled_);
  stalled_.clear();
  for (auto& a : pending) lookup(a, false);
  retrying_ = false;
}

void HostCache::set_state(Line& l, CacheState s) {
  const CacheState old = l.st;
  l.st = s;
  notify(l.addr, old, s);
}

void HostCache::notify(Addr line, CacheState from, CacheState to) {
  if (obs_ && from != to) obs_->on_state(id(), line, from, to, k_.now());
}

void HostCache::l1_touch(Addr line) {
  auto& set = l1_[(line / p_.line_bytes) % l1_sets_n_];
  for (auto& e : set) {
    if (e.first == line) {
      e.second = lru_clock_;
      return;
    }
  }
  if (set.size() == p_.l1_ways) {
    auto victim = set.begin();
    for (auto it = set.begin(); it != set.end(); ++it) {
      if (it->second < victim->second) victim = it;
    }
    set.erase(victim);
  }
  set.emplace_back(line, lru_clock_);
}

void HostCache::l1_remove(Addr line) {
  auto& set = l1_[(line / p_.line_bytes) % l1_sets_n_];
  std::erase_if(set, [line](const auto& e) { return e.first == line; });
}

// ---- messages from the fabric -------------------------------------------------------------

std::string HostCache::describe(const Msg& m) const {
  return name_ + " (agent " + std::to_string(id()) + ") got " + m.str();
}

void HostCache::protocol_error(const Msg& m, const std::string& why) const {
  throw CoherenceError(describe(m) + ": " + why + " (line state " + state_name(state_of(m.addr)) +
                       ")");
}

unsigned HostCache::mshr_for(const Msg& m) {
  if (m.tag >= p_.mshrs || !mshr_[m.tag].used || mshr_[m.tag].line != m.addr) {
    protocol_error(m, "answer matches no outstanding request");
  }
  return m.tag;
}

void HostCache::deliver(const Msg& m) {
  switch (m.op) {
    case Op::DataS:
    case Op::DataE:
    case Op::DataM:
      on_data(m);
      break;
    case Op::UpgAck:
      on_upgack(m);
      break;
    case Op::Retry:
      on_retry(m);
      break;
    case Op::WbAck:
      on_wback(m);
      break;
    case Op::FwdInv:
    case Op::FwdDown:
    case Op::FwdDownO:
      on_snoop(m);
      break;
    case Op::Error: {
      std::string req = "a request it cannot match";
      if (m.tag < p_.mshrs && mshr_[m.tag].used) {
        req =
            std::string(proto::op_name(mshr_[m.tag].sent)) + " for line " + hex(mshr_[m.tag].line);
      } else if (auto w = wb_.find(m.addr); w != wb_.end() && w->second.tag == m.tag) {
        req = "WB for line " + hex(m.addr);
      }
      throw CoherenceError(describe(m) + ": agent " + std::to_string(m.src) +
                           " answered Error to " + req + " (machine check)");
    }
    default:
      protocol_error(m, "a caching agent never receives this opcode");
  }
}

void HostCache::on_data(const Msg& m) {
  const unsigned idx = mshr_for(m);
  if (m.len != p_.line_bytes) protocol_error(m, "data message without a whole line");
  Line& l = *find(m.addr);
  CacheState next = CS::I;
  switch (l.st) {
    case CS::IS:
      next = m.op == Op::DataS ? CS::S : m.op == Op::DataE ? CS::E : CS::M;
      break;
    case CS::IM:
    case CS::SM:
      if (m.op == Op::DataS) protocol_error(m, "DataS answers a request for ownership");
      if (l.dirty_sm)
        protocol_error(m, "a data grant would overwrite the dirty line of an O upgrade");
      next = m.op == Op::DataE ? CS::E : CS::M;
      break;
    default:
      protocol_error(m, "data for a line that is not waiting for it");
  }
  std::memcpy(l.data.data(), m.data.data(), p_.line_bytes);
  l.dirty_sm = false;
  set_state(l, next);
  finish_mshr(idx);
}

void HostCache::on_upgack(const Msg& m) {
  const unsigned idx = mshr_for(m);
  Line& l = *find(m.addr);
  if (l.st != CS::SM) {
    protocol_error(m, "UpgAck for a line whose copy was invalidated (the home must send data)");
  }
  l.dirty_sm = false;
  set_state(l, CS::M);
  finish_mshr(idx);
}

void HostCache::on_retry(const Msg& m) {
  const unsigned idx = mshr_for(m);
  Mshr& r = mshr_[idx];
  if (r.resend) protocol_error(m, "Retry for a request that is not in flight");
  k_.cancel(r.timer);
  r.timer = EventId{};
  ++stats_.retries;
  if (p_.retry_watchdog != 0 && k_.now() - r.first_at >= p_.retry_watchdog) {
    throw CoherenceError(name_ + " (agent " + std::to_string(id()) + "): retry watchdog: " +
                         proto::op_name(r.sent) + " for line " + hex(r.line) + " at agent " +
                         std::to_string(r.home) + " answered Retry since " +
                         std::to_string(to_ns(r.first_at)) + " ns, over " +
                         std::to_string(to_ns(p_.retry_watchdog) / 1e6) +
                         " ms (machine check)");
  }
  r.resend = k_.after(p_.retry_backoff, [this, idx] {
    mshr_[idx].resend = EventId{};
    send_request(idx);
  });
}

void HostCache::on_wback(const Msg& m) {
  auto it = wb_.find(m.addr);
  if (it == wb_.end() || it->second.tag != m.tag) {
    protocol_error(m, "WbAck matches no write-back in flight");
  }
  k_.cancel(it->second.timer);
  auto waiters = std::move(it->second.waiters);
  wb_.erase(it);
  notify(m.addr, CS::MI, CS::I);
  for (auto& a : waiters) lookup(a, false);
}

void HostCache::on_snoop(const Msg& m) {
  if (m.addr % p_.line_bytes != 0) protocol_error(m, "snoop of an unaligned address");
  ++stats_.snoops;
  Msg r;
  r.op = Op::SnpAck;
  r.src = id();
  r.dst = m.src;
  r.tag = m.tag;
  r.addr = m.addr;
  auto with_data = [&](const Line& l) {
    r.op = Op::SnpData;
    r.len = static_cast<uint8_t>(p_.line_bytes);
    std::memcpy(r.data.data(), l.data.data(), p_.line_bytes);
  };
  bool freed = false;
  Line* l = find(m.addr);
  if (inval_ && m.op == Op::FwdInv && l != nullptr && readable(l->st) && !wb_.count(m.addr)) {
    inval_(m.addr, l->data.data());
  }
  if (wb_.count(m.addr)) {
    r.flags = proto::kFlagWbPending;  // our WB carries the data (rule 6)
  } else if (l != nullptr) {
    switch (l->st) {
      case CS::M:
      case CS::O:
        with_data(*l);
        if (m.op == Op::FwdInv) {
          set_state(*l, CS::I);
          erase_line(m.addr);
          freed = true;
        } else {
          set_state(*l, m.op == Op::FwdDownO ? CS::O : CS::S);
        }
        break;
      case CS::E:
      case CS::S:
        if (m.op == Op::FwdInv) {
          set_state(*l, CS::I);
          erase_line(m.addr);
          freed = true;
        } else {
          set_state(*l, CS::S);
        }
        break;
      case CS::SM:
        if (l->dirty_sm) with_data(*l);
        if (m.op == Op::FwdInv) {
          // Our Upg is still in flight: the home will see it from a non-sharer and send data.
          l->dirty_sm = false;
          l1_remove(m.addr);
          set_state(*l, CS::IM);
        } else if (m.op == Op::FwdDown) {
          l->dirty_sm = false;  // the home now has the dirty data
        }
        break;
      default:  // IS, IM: no data yet; the directory is conservative
        break;
    }
  }
  k_.after(p_.snoop, [this, r] { fabric_.send(r); });
  if (freed) retry_stalled();
}

}  // namespace cni::sim
