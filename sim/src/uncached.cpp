// SPDX-License-Identifier: Apache-2.0
#include "cni/sim/uncached.hpp"

#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "cni/sim/coherence.hpp"

namespace cni::sim {

using proto::Msg;
using proto::Op;

UncachedLink::UncachedLink(Kernel& k, Fabric& f, proto::AgentId id, std::string name)
    : Agent(id), k_(k), f_(f), name_(std::move(name)) {}

uint8_t UncachedLink::send(proto::Addr addr, bool write, uint64_t value) {
  if (addr % 8 != 0) {
    char b[32];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(addr));
    throw std::invalid_argument(name_ + ": uncached access at unaligned address " + b);
  }
  if (open_.size() >= 256) throw std::logic_error(name_ + ": 256 uncached accesses in flight");
  while (open_.count(next_tag_)) ++next_tag_;
  Msg m;
  m.op = Op::Nc;
  m.src = id();
  m.dst = f_.home_of(addr);
  m.tag = next_tag_++;
  m.addr = addr;
  if (write) {
    m.flags = proto::kFlagNcWrite;
    m.len = 8;
    std::memcpy(m.data.data(), &value, 8);
  }
  f_.send(m);
  return m.tag;
}

void UncachedLink::read64(proto::Addr addr, std::function<void(uint64_t)> done) {
  uint8_t tag = send(addr, false, 0);
  Open o;
  o.addr = addr;
  o.read_done = std::move(done);
  open_[tag] = std::move(o);
  ++reads_;
}

void UncachedLink::write64(proto::Addr addr, uint64_t value, std::function<void()> done) {
  uint8_t tag = send(addr, true, value);
  Open o;
  o.addr = addr;
  o.write = true;
  o.write_done = std::move(done);
  open_[tag] = std::move(o);
  ++writes_;
}

void UncachedLink::fail(const Msg& m, const std::string& why) const {
  throw CoherenceError(name_ + ": " + why + ": " + m.str());
}

void UncachedLink::deliver(const Msg& m) {
  auto it = open_.find(m.tag);
  if (it == open_.end() || it->second.addr != m.addr) fail(m, "an answer to no uncached access");
  Open o = std::move(it->second);
  open_.erase(it);
  if (m.op == Op::Error) fail(m, "the device refused the uncached access (no register there)");
  if (o.write) {
    if (m.op != Op::NcAck) fail(m, "an uncached store answered with something else than NcAck");
    k_.after(0, [done = std::move(o.write_done)] { done(); });
  } else {
    if (m.op != Op::NcData || m.len != 8) fail(m, "an uncached load answered without its value");
    uint64_t v = 0;
    std::memcpy(&v, m.data.data(), 8);
    k_.after(0, [done = std::move(o.read_done), v] { done(v); });
  }
}

}  // namespace cni::sim
