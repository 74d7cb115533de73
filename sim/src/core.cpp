// SPDX-License-Identifier: Apache-2.0
#include "cni/sim/core.hpp"

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "cni/sim/profile.hpp"
#include "params.hpp"

namespace cni::sim {

using proto::Addr;

namespace {
std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
}  // namespace

CoreParams CoreParams::from_profile(const Profile& p) {
  using namespace detail;
  CoreParams c;
  c.line_bytes = uint_param(p, "line_bytes", 64, 128);
  c.access = ns_param(p, "core.access_ns");
  c.store_buffer = uint_param(p, "core.store_buffer", 1, 4096);
  c.store_prefetch = p.get_bool("core.store_prefetch");
  c.barrier = ns_param(p, "core.barrier_ns");
  return c;
}

void UncachedMap::map(Addr base, Addr size, UncachedTarget& target) {
  if (size == 0) throw std::invalid_argument("UncachedMap: empty range at " + hex(base));
  for (const auto& r : ranges_) {
    if (base < r.base + r.size && r.base < base + size) {
      throw std::invalid_argument("UncachedMap: [" + hex(base) + ", " + hex(base + size) +
                                  ") overlaps [" + hex(r.base) + ", " + hex(r.base + r.size) + ")");
    }
  }
  ranges_.push_back(Range{base, size, &target});
}

UncachedTarget& UncachedMap::target(Addr addr) const {
  for (const auto& r : ranges_) {
    if (addr >= r.base && addr - r.base < r.size) return *r.target;
  }
  throw std::out_of_range("uncached access to " + hex(addr) +
                          ": no uncached target (device register window) is mapped there");
}

Core::Core(Kernel& k, HostCache& cache, const CoreParams& p, const UncachedMap& uncached,
           std::string name)
    : k_(k), cache_(cache), p_(p), uncached_(uncached), name_(std::move(name)) {
  if (p_.line_bytes != cache_.params().line_bytes) {
    throw std::invalid_argument(name_ + ": line size differs from its cache's");
  }
  if (p_.store_buffer == 0) throw std::invalid_argument(name_ + ": core.store_buffer must be >= 1");
}

void Core::spawn(std::function<void(drv::MemoryPort&)> program) {
  if (busy()) throw std::logic_error(name_ + ": spawn while a program is still running");
  if (!program) throw std::invalid_argument(name_ + ": spawn of an empty program");
  fiber_ =
      std::make_unique<Fiber>(k_, name_, [this, program = std::move(program)] { program(*this); });
  fiber_->start();
}

Fiber& Core::self(const char* op) {
  if (!fiber_ || Fiber::current() != fiber_.get()) {
    throw std::logic_error(name_ + ": MemoryPort::" + op +
                           " called outside this core's program (run code with spawn())");
  }
  return *fiber_;
}

void Core::wait_until(const std::function<bool()>& ready) {
  while (!ready()) {
    waiting_ = true;
    fiber_->suspend();
    waiting_ = false;
  }
}

void Core::poke() {
  if (waiting_) {
    waiting_ = false;
    fiber_->wake();
  }
}

Time Core::word_cost(Addr addr, size_t n) const {
  const uint64_t words = (addr + n + 7) / 8 - addr / 8;
  return p_.access * words;
}

Core::Cover Core::forward(Addr addr, unsigned n, uint8_t* dst) const {
  const Addr line = addr - addr % p_.line_bytes;
  const unsigned off = static_cast<unsigned>(addr - line);
  unsigned covered = 0;
  uint8_t buf[proto::kMaxLineBytes];
  for (unsigned i = 0; i < n; ++i) {
    for (auto it = sb_.rbegin(); it != sb_.rend(); ++it) {
      if (it->line == line && it->mask.test(off + i)) {
        buf[i] = it->data[off + i];
        ++covered;
        break;
      }
    }
  }
  if (covered == 0) return Cover::None;
  if (covered < n) return Cover::Partial;
  std::memcpy(dst, buf, n);
  return Cover::Full;
}

void Core::load(drv::Addr addr, void* dst, size_t n) {
  Fiber& f = self("load");
  if (n == 0) return;
  ++stats_.loads;
  const Time cost = word_cost(addr, n);
  auto* out = static_cast<uint8_t*>(dst);
  unsigned outstanding = 0;
  size_t done = 0;
  while (done < n) {
    const Addr a = addr + done;
    const Addr line = a - a % p_.line_bytes;
    const unsigned len =
        static_cast<unsigned>(std::min<size_t>(n - done, line + p_.line_bytes - a));
    // A partial overlap with the store buffer cannot forward: wait for those entries to drain.
    wait_until([&] { return forward(a, len, out + done) != Cover::Partial; });
    if (forward(a, len, out + done) == Cover::Full) {
      ++stats_.forwarded;
    } else {
      ++outstanding;
      cache_.load(
          a, out + done, len,
          [this, &outstanding] {
            --outstanding;
            poke();
          },
          cost);
    }
    done += len;
  }
  if (outstanding == 0) {
    f.sleep(cost + cache_.params().l1_hit);  // forwarded from the store buffer
    return;
  }
  wait_until([&] { return outstanding == 0; });
}

void Core::store(drv::Addr addr, const void* src, size_t n) {
  Fiber& f = self("store");
  if (n == 0) return;
  ++stats_.stores;
  f.sleep(word_cost(addr, n));
  const auto* in = static_cast<const uint8_t*>(src);
  size_t done = 0;
  while (done < n) {
    const Addr a = addr + done;
    const Addr line = a - a % p_.line_bytes;
    const unsigned off = static_cast<unsigned>(a - line);
    const unsigned len = static_cast<unsigned>(std::min<size_t>(n - done, p_.line_bytes - off));
    if (sb_.empty() || sb_.back().line != line || sb_.back().draining) {
      wait_until([&] { return sb_.size() < p_.store_buffer; });
      sb_.emplace_back();
      sb_.back().line = line;
      if (p_.store_prefetch) cache_.prefetch(line, true);
    }
    SbEntry& e = sb_.back();
    std::memcpy(e.data.data() + off, in + done, len);
    for (unsigned i = 0; i < len; ++i) e.mask.set(off + i);
    done += len;
    drain();
  }
}

void Core::drain() {
  if (draining_ || sb_.empty()) return;
  SbEntry& e = sb_.front();
  e.draining = true;
  draining_ = true;
  cache_.store_line(e.line, e.data.data(), e.mask, [this] {
    sb_.pop_front();
    draining_ = false;
    poke();
    drain();
  });
}

void Core::barrier() {
  Fiber& f = self("barrier");
  ++stats_.barriers;
  wait_until([&] { return sb_.empty(); });
  f.sleep(p_.barrier);
}

void Core::prefetch(drv::Addr addr, bool exclusive) {
  Fiber& f = self("prefetch");
  ++stats_.prefetches;
  cache_.prefetch(addr, exclusive, p_.access);
  f.sleep(p_.access);
}

uint64_t Core::uncached_load64(drv::Addr addr) {
  self("uncached_load64");
  if (addr % 8 != 0) {
    throw std::invalid_argument(name_ + ": uncached_load64 at unaligned address " + hex(addr));
  }
  ++stats_.uncached;
  UncachedTarget& t = uncached_.target(addr);
  bool got = false;
  uint64_t value = 0;
  t.read64(addr, [this, &got, &value](uint64_t v) {
    value = v;
    got = true;
    poke();
  });
  wait_until([&] { return got; });
  return value;
}

void Core::uncached_store64(drv::Addr addr, uint64_t value) {
  self("uncached_store64");
  if (addr % 8 != 0) {
    throw std::invalid_argument(name_ + ": uncached_store64 at unaligned address " + hex(addr));
  }
  ++stats_.uncached;
  UncachedTarget& t = uncached_.target(addr);
  bool done = false;
  t.write64(addr, value, [this, &done] {
    done = true;
    poke();
  });
  wait_until([&] { return done; });
}

uint64_t Core::now_ns() { return k_.now() / 1000; }

void Core::pause_ns(uint64_t nanoseconds) { self("pause_ns").sleep(nanoseconds * 1000); }

}  // namespace cni::sim
