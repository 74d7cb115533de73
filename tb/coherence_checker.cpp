// SPDX-License-Identifier: Apache-2.0
#include "coherence_checker.hpp"

#include <cstdio>

namespace cni::tb {

using proto::Addr;
using proto::AgentId;
using sim::CacheState;

namespace {
std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
std::string at(sim::Time t) {
  char buf[40];
  std::snprintf(buf, sizeof buf, " at %.3f ns", sim::to_ns(t));
  return buf;
}
}  // namespace

CoherenceChecker::CoherenceChecker(unsigned line_bytes) : line_bytes_(line_bytes) {}

void CoherenceChecker::watch(Addr base, Addr size, bool zero_init) {
  ranges_.push_back(Range{base, size, zero_init});
}

CoherenceChecker::Shadow* CoherenceChecker::shadow(Addr addr) {
  for (const auto& r : ranges_) {
    if (addr >= r.base && addr - r.base < r.size) {
      auto [it, fresh] = shadow_.try_emplace(addr);
      if (fresh) it->second.known = r.zero_init;
      return &it->second;
    }
  }
  return nullptr;
}

void CoherenceChecker::set_shadow(Addr addr, const void* data, size_t n) {
  const auto* b = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < n; ++i) {
    Shadow& s = shadow_[addr + i];
    s.value = b[i];
    s.known = true;
  }
}

void CoherenceChecker::error(const std::string& msg) {
  errors_.push_back(msg);
  if (throw_) throw sim::CoherenceError("coherence checker: " + msg);
}

CacheState CoherenceChecker::state(AgentId agent, Addr line) const {
  auto it = lines_.find(line_of(line));
  if (it == lines_.end()) return CacheState::I;
  auto a = it->second.find(agent);
  return a == it->second.end() ? CacheState::I : a->second;
}

std::string CoherenceChecker::holders(Addr line) const {
  std::string out;
  auto it = lines_.find(line);
  if (it == lines_.end()) return "none";
  for (const auto& [agent, st] : it->second) {
    out += (out.empty() ? "" : ", ") + std::string("agent ") + std::to_string(agent) + " in " +
           sim::state_name(st);
  }
  return out.empty() ? "none" : out;
}

void CoherenceChecker::on_state(AgentId agent, Addr line, CacheState from, CacheState to,
                                sim::Time t) {
  ++state_changes_;
  caching_agents_ |= 1u << agent;
  auto& per = lines_[line];
  const CacheState recorded = per.count(agent) ? per[agent] : CacheState::I;
  if (recorded != from) {
    error("line " + hex(line) + ": agent " + std::to_string(agent) + " reports " +
          sim::state_name(from) + " -> " + sim::state_name(to) + " but was recorded in " +
          sim::state_name(recorded) + at(t));
  }
  if (to == CacheState::I) {
    per.erase(agent);
  } else {
    per[agent] = to;
  }
  // Single writer / multiple readers.
  unsigned exclusive = 0, owned = 0, readers = 0;
  for (const auto& [a, st] : per) {
    if (!sim::readable(st)) continue;
    ++readers;
    if (st == CacheState::M || st == CacheState::E) ++exclusive;
    if (st == CacheState::O) ++owned;
  }
  if ((exclusive > 0 && readers > 1) || owned > 1) {
    error("line " + hex(line) + ": single-writer/multiple-reader violated after agent " +
          std::to_string(agent) + " went " + sim::state_name(from) + " -> " + sim::state_name(to) +
          at(t) + "; holders: " + holders(line));
  }
  if (per.empty()) lines_.erase(line);
}

void CoherenceChecker::on_load(AgentId agent, Addr addr, const void* data, size_t n, sim::Time t) {
  const Addr line = line_of(addr);
  if (caching_agents_ & (1u << agent)) {
    const CacheState st = state(agent, line);
    if (!sim::readable(st)) {
      error("load of " + std::to_string(n) + " B at " + hex(addr) + " by agent " +
            std::to_string(agent) + " in state " + sim::state_name(st) + at(t));
    }
  }
  const auto* b = static_cast<const uint8_t*>(data);
  bool checked = false;
  for (size_t i = 0; i < n; ++i) {
    Shadow* s = shadow(addr + i);
    if (s == nullptr) continue;
    checked = true;
    if (!s->known) {
      s->value = b[i];
      s->known = true;
    } else if (s->value != b[i]) {
      char vals[64];
      std::snprintf(vals, sizeof vals, "0x%02x, expected 0x%02x", b[i], s->value);
      error("stale load: agent " + std::to_string(agent) + " read byte " + hex(addr + i) +
            " (line " + hex(line) + ") = " + vals + at(t) + "; holders: " + holders(line));
      break;
    }
  }
  if (checked) ++loads_checked_;
}

void CoherenceChecker::on_store(AgentId agent, Addr addr, const void* data, size_t n, sim::Time t) {
  ++stores_seen_;
  const Addr line = line_of(addr);
  if (caching_agents_ & (1u << agent)) {
    const CacheState st = state(agent, line);
    if (st != CacheState::M) {
      error("store of " + std::to_string(n) + " B at " + hex(addr) + " by agent " +
            std::to_string(agent) + " in state " + sim::state_name(st) + " (needs M)" + at(t));
    }
  } else {
    check_home_store(agent, addr, t);
  }
  update_shadow(addr, data, n);
}

void CoherenceChecker::on_home_store(AgentId home, Addr addr, const void* data, size_t n,
                                     sim::Time t) {
  ++stores_seen_;
  check_home_store(home, addr, t);
  update_shadow(addr, data, n);
}

void CoherenceChecker::check_home_store(AgentId home, Addr addr, sim::Time t) {
  const Addr line = line_of(addr);
  auto it = lines_.find(line);
  if (it == lines_.end()) return;
  for (const auto& [a, st] : it->second) {
    if (sim::readable(st)) {
      error("home-side store by agent " + std::to_string(home) + " to " + hex(addr) +
            " while cached" + at(t) + "; holders: " + holders(line));
      return;
    }
  }
}

void CoherenceChecker::update_shadow(Addr addr, const void* data, size_t n) {
  const auto* b = static_cast<const uint8_t*>(data);
  for (size_t i = 0; i < n; ++i) {
    if (Shadow* s = shadow(addr + i)) {
      s->value = b[i];
      s->known = true;
    }
  }
}

}  // namespace cni::tb
