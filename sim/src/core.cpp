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
  const std::string model = p.get_string("host.memory_model");
  if (model == "armv8") {
    c.model = MemoryModel::ARMv8;
  } else if (model != "tso") {
    throw ProfileError("profile " + p.name() + ": host.memory_model = '" + model +
                       "' (armv8 or tso)");
  }
  c.stale = ns_param(p, "core.stale_ns");
  c.load_window = uint_param(p, "core.load_window", 1, 256);
  if (p.has("sim.seed")) c.seed = static_cast<uint64_t>(p.get_int("sim.seed"));
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
    : k_(k),
      cache_(cache),
      p_(p),
      uncached_(uncached),
      name_(std::move(name)),
      rng_(p.seed ^ std::hash<std::string>{}(name_)) {
  if (p_.line_bytes != cache_.params().line_bytes) {
    throw std::invalid_argument(name_ + ": line size differs from its cache's");
  }
  if (p_.store_buffer == 0) throw std::invalid_argument(name_ + ": core.store_buffer must be >= 1");
  if (weak()) {
    cache_.set_invalidate_listener(
        [this](Addr line, const uint8_t* data) { on_invalidated(line, data); });
  }
}

void Core::spawn(std::function<void(drv::MemoryPort&)> program) {
  if (busy()) throw std::logic_error(name_ + ": spawn while a program is still running");
  if (!program) throw std::invalid_argument(name_ + ": spawn of an empty program");
  order_point();  // a new program: no load of it issues before it starts
  fiber_ =
      std::make_unique<Fiber>(k_, name_, [this, program = std::move(program)] { program(*this); });
  fiber_->start();
}

void Core::check_word(Addr addr, const char* op) const {
  if (addr % 8 != 0) {
    throw std::invalid_argument(name_ + ": " + op + " at unaligned address " + hex(addr));
  }
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

// The earliest time a load issued now could have been issued instead: core.stale_ns ago (an
// invalidation waits that long in the queue), or with the core.load_window-th load before it
// (loads in flight together: hit under miss), since the last ordering point, pause or program
// start.
Time Core::window_start() const {
  const Time now = k_.now();
  const Time queue = now > p_.stale ? now - p_.stale : 0;
  return issued_.empty() ? queue : std::min(issued_.front(), queue);
}

void Core::note_issue(Time t) {
  issued_.push_back(t);
  if (issued_.size() > p_.load_window) issued_.pop_front();
}

void Core::order_point() {
  stale_.clear();
  issued_.clear();
}

void Core::on_invalidated(Addr line, const uint8_t* data) {
  if (stale_.size() > 64) {
    std::erase_if(stale_, [t = window_start()](const auto& e) { return e.second.since < t; });
  }
  Stale& s = stale_[line];
  std::memcpy(s.data.data(), data, p_.line_bytes);
  s.words = p_.line_bytes / 8 == 32 ? ~uint32_t{0} : (uint32_t{1} << (p_.line_bytes / 8)) - 1;
  s.since = k_.now();
}

namespace {
// The 8-byte words of a line that bytes [off, off + n) touch, a bit each.
uint32_t words_of(unsigned off, unsigned n) {
  uint32_t w = 0;
  for (unsigned i = off / 8; i <= (off + n - 1) / 8; ++i) w |= uint32_t{1} << i;
  return w;
}
}  // namespace

bool Core::read_stale(Addr addr, unsigned n, bool dep, uint8_t* dst) {
  const Addr line = addr - addr % p_.line_bytes;
  auto it = stale_.find(line);
  if (it == stale_.end()) return false;
  Stale& s = it->second;
  if (s.since < window_start()) {
    stale_.erase(it);
    return false;
  }
  const unsigned off = static_cast<unsigned>(addr - line);
  const uint32_t w = words_of(off, n);
  if ((s.words & w) != w || (dep && s.since < last_load_)) return false;
  std::memcpy(dst, s.data.data() + off, n);
  return true;
}

void Core::forget_stale(Addr line, uint32_t words) {
  auto it = stale_.find(line);
  if (it == stale_.end()) return;
  it->second.words &= ~words;
  if (it->second.words == 0) stale_.erase(it);
}

void Core::load(drv::Addr addr, void* dst, size_t n) {
  self("load");
  do_load(addr, dst, n, false);
}

void Core::load_dep(drv::Addr addr, void* dst, size_t n) {
  self("load_dep");
  do_load(addr, dst, n, true);
}

void Core::do_load(drv::Addr addr, void* dst, size_t n, bool dep) {
  if (n == 0) return;
  ++stats_.loads;
  const Time cost = word_cost(addr, n);
  const Time delay = cost + jitter();
  auto* out = static_cast<uint8_t*>(dst);
  unsigned outstanding = 0;
  Time value_at = 0;  // when the newest piece's value was the memory's
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
      value_at = std::max(value_at, k_.now());
    } else if (weak() && read_stale(a, len, dep, out + done)) {
      ++stats_.stale_loads;
      value_at = std::max(value_at, stale_.at(line).since);
    } else {
      ++outstanding;
      cache_.load(
          a, out + done, len,
          [this, &outstanding, &value_at, a, len] {
            // this core has read the words' current values: no older ones from now on
            if (weak()) forget_stale(a - a % p_.line_bytes, words_of(a % p_.line_bytes, len));
            value_at = std::max(value_at, k_.now());
            --outstanding;
            poke();
          },
          delay);
    }
    done += len;
  }
  note_issue(k_.now());
  if (outstanding == 0) {
    fiber_->sleep(cost + cache_.params().l1_hit);  // from the store buffer or a stale copy
  } else {
    wait_until([&] { return outstanding == 0; });
  }
  last_load_ = value_at;
}

uint64_t Core::load_acquire64(drv::Addr addr) {
  self("load_acquire64");
  check_word(addr, "load_acquire64");
  // RCsc: not before an earlier store-release is performed.
  wait_until([&] { return std::none_of(sb_.begin(), sb_.end(), [](const SbEntry& e) { return e.release; }); });
  // Satisfied no earlier than now (after those stores), and every later load after it.
  order_point();
  uint64_t v = 0;
  do_load(addr, &v, sizeof v, false);
  order_point();
  return v;
}

void Core::store(drv::Addr addr, const void* src, size_t n) {
  self("store");
  do_store(addr, src, n, false);
}

void Core::store_release64(drv::Addr addr, uint64_t value) {
  self("store_release64");
  check_word(addr, "store_release64");
  do_store(addr, &value, sizeof value, true);
}

void Core::do_store(drv::Addr addr, const void* src, size_t n, bool release) {
  if (n == 0) return;
  ++stats_.stores;
  fiber_->sleep(word_cost(addr, n));
  const auto* in = static_cast<const uint8_t*>(src);
  size_t done = 0;
  while (done < n) {
    const Addr a = addr + done;
    const Addr line = a - a % p_.line_bytes;
    const unsigned off = static_cast<unsigned>(a - line);
    const unsigned len = static_cast<unsigned>(std::min<size_t>(n - done, p_.line_bytes - off));
    // Merge into the youngest entry only within one DMB ST epoch and never into or as a release.
    if (sb_.empty() || sb_.back().line != line || sb_.back().draining ||
        sb_.back().epoch != epoch_ || sb_.back().release || release) {
      wait_until([&] { return sb_.size() < p_.store_buffer; });
      sb_.emplace_back();
      SbEntry& e = sb_.back();
      e.line = line;
      e.id = next_id_++;
      e.epoch = epoch_;
      e.release = release;
      if (p_.store_prefetch) cache_.prefetch(line, true, jitter());
    }
    SbEntry& e = sb_.back();
    std::memcpy(e.data.data() + off, in + done, len);
    for (unsigned i = 0; i < len; ++i) e.mask.set(off + i);
    done += len;
    drain();
  }
}

// armv8: entry i may start once no older entry is of its line or of an earlier epoch, and, for
// a store-release, once it is the oldest.
bool Core::may_drain(size_t i) const {
  const SbEntry& e = sb_[i];
  if (e.release && i > 0) return false;
  for (size_t j = 0; j < i; ++j) {
    if (sb_[j].line == e.line || sb_[j].epoch < e.epoch) return false;
  }
  return true;
}

void Core::drain() {
  if (!weak()) {
    if (draining_ || sb_.empty()) return;
    draining_ = true;
    start_drain(sb_.front());
    return;
  }
  for (size_t i = 0; i < sb_.size(); ++i) {
    if (!sb_[i].draining && may_drain(i)) start_drain(sb_[i]);
  }
}

void Core::start_drain(SbEntry& e) {
  e.draining = true;
  cache_.store_line(e.line, e.data.data(), e.mask, [this, id = e.id] {
    auto it = std::find_if(sb_.begin(), sb_.end(), [id](const SbEntry& x) { return x.id == id; });
    if (weak()) {
      if (it != sb_.begin()) ++stats_.early_stores;
      // This core's own store is now the words' value: their old copies are not readable.
      uint32_t words = 0;
      for (unsigned i = 0; i < p_.line_bytes; ++i)
        if (it->mask.test(i)) words |= uint32_t{1} << (i / 8);
      forget_stale(it->line, words);
    }
    sb_.erase(it);
    draining_ = false;
    poke();
    drain();
  }, jitter());
}

void Core::barrier() {
  Fiber& f = self("barrier");
  ++stats_.barriers;
  wait_until([&] { return sb_.empty(); });
  order_point();
  f.sleep(p_.barrier);
}

void Core::barrier_load() {
  Fiber& f = self("barrier_load");
  if (!weak()) return;  // TSO keeps loads in order: no instruction
  ++stats_.barriers;
  order_point();
  f.sleep(p_.barrier);
}

void Core::barrier_store() {
  Fiber& f = self("barrier_store");
  if (!weak()) return;  // TSO keeps stores in order: no instruction
  ++stats_.barriers;
  ++epoch_;
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
  check_word(addr, "uncached_load64");
  ++stats_.uncached;
  UncachedTarget& t = uncached_.target(addr);
  const Time issued = k_.now();
  bool got = false;
  uint64_t value = 0;
  t.read64(addr, [this, &got, &value](uint64_t v) {
    value = v;
    got = true;
    poke();
  });
  wait_until([&] { return got; });
  note_issue(issued);  // later loads may overlap it, as they may a cached load
  return value;
}

void Core::uncached_load128(drv::Addr addr, void* dst) {
  self("uncached_load128");
  if (addr % 16 != 0) {
    throw std::invalid_argument(name_ + ": uncached_load128 of an address not 16-byte aligned");
  }
  ++stats_.uncached;
  UncachedTarget& t = uncached_.target(addr);
  const Time issued = k_.now();
  bool got = false;
  t.read128(addr, [this, &got, dst](const uint8_t* bytes) {
    std::memcpy(dst, bytes, 16);
    got = true;
    poke();
  });
  wait_until([&] { return got; });
  note_issue(issued);
}

void UncachedTarget::read128(proto::Addr addr, std::function<void(const uint8_t*)> done) {
  read64(addr, [this, addr, done = std::move(done)](uint64_t lo) {
    read64(addr + 8, [lo, done](uint64_t hi) {
      uint8_t b[16];
      std::memcpy(b, &lo, 8);
      std::memcpy(b + 8, &hi, 8);
      done(b);
    });
  });
}

void Core::uncached_store64(drv::Addr addr, uint64_t value) {
  self("uncached_store64");
  check_word(addr, "uncached_store64");
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

void Core::pause_ns(uint64_t nanoseconds) {
  self("pause_ns").sleep(nanoseconds * 1000);
  issued_.clear();  // no load after the pause issues before it
}

}  // namespace cni::sim
