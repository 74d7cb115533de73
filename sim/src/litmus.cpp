// SPDX-License-Identifier: Apache-2.0
// Litmus tests: the models' allowed outcomes by exhaustive search of their abstract machines,
// the standard shapes, and runs on the simulated host.
#include "cni/sim/litmus.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <random>
#include <tuple>
#include <stdexcept>

namespace cni::sim::litmus {

bool is_load(OpKind k) {
  return k == OpKind::Load || k == OpKind::LoadAcquire || k == OpKind::LoadDep;
}
bool is_store(OpKind k) { return k == OpKind::Store || k == OpKind::StoreRelease; }
bool is_fence(OpKind k) { return !is_load(k) && !is_store(k); }

Op ld(unsigned loc, unsigned reg) { return Op{OpKind::Load, loc, 0, reg}; }
Op lda(unsigned loc, unsigned reg) { return Op{OpKind::LoadAcquire, loc, 0, reg}; }
Op ldd(unsigned loc, unsigned reg) { return Op{OpKind::LoadDep, loc, 0, reg}; }
Op st(unsigned loc, uint64_t value) { return Op{OpKind::Store, loc, value, 0}; }
Op stl(unsigned loc, uint64_t value) { return Op{OpKind::StoreRelease, loc, value, 0}; }
Op fence() { return Op{}; }
Op dmb_ld() { return Op{OpKind::DmbLd, 0, 0, 0}; }
Op dmb_st() { return Op{OpKind::DmbSt, 0, 0, 0}; }

unsigned Test::registers() const {
  unsigned n = 0;
  for (const auto& th : threads)
    for (const auto& op : th)
      if (is_load(op.kind)) n = std::max(n, op.reg + 1);
  return n;
}

const char* name(Model m) {
  switch (m) {
    case Model::SC:
      return "SC";
    case Model::TSO:
      return "TSO";
    case Model::ARMv8:
      return "ARMv8";
    case Model::ARMv8Core:
      return "ARMv8Core";
  }
  return "?";
}

namespace {

void check(const Test& t) {
  if (t.threads.empty()) throw std::invalid_argument("litmus " + t.name + ": no threads");
  for (const auto& th : t.threads) {
    for (const auto& op : th) {
      if (!is_fence(op.kind) && op.loc >= t.locations) {
        throw std::invalid_argument("litmus " + t.name + ": location " + std::to_string(op.loc) +
                                    " of " + std::to_string(t.locations));
      }
      if (is_store(op.kind) && op.value == 0) {
        throw std::invalid_argument("litmus " + t.name + ": a store of 0 (the initial value)");
      }
    }
  }
}

// Every state a model's abstract machine reaches from `s0`: `moves(s, next)` calls next(d) for
// each state d one step from s; a state with no move is final, and its registers and memory
// are an outcome. (A state is its registers, its memory and the machine's own fields.)
template <class State, class Moves>
std::set<Outcome> explore(State s0, Moves moves) {
  std::set<State> seen;
  std::set<Outcome> out;
  std::vector<State> todo{std::move(s0)};
  while (!todo.empty()) {
    State s = std::move(todo.back());
    todo.pop_back();
    if (!seen.insert(s).second) continue;
    bool final = true;
    moves(s, [&](State&& d) {
      final = false;
      todo.push_back(std::move(d));
    });
    if (final) {
      Outcome o = s.regs;
      o.insert(o.end(), s.mem.begin(), s.mem.end());
      out.insert(std::move(o));
    }
  }
  return out;
}

// SC and TSO: each thread's next operation and store buffer (always empty under SC) of
// (location, value, store-release).
struct BufferedState {
  std::vector<unsigned> pc;
  std::vector<std::deque<std::tuple<unsigned, uint64_t, bool>>> sb;
  std::vector<uint64_t> regs, mem;
  bool operator<(const BufferedState& o) const {
    return std::tie(pc, sb, regs, mem) < std::tie(o.pc, o.sb, o.regs, o.mem);
  }
};

std::set<Outcome> allowed_buffered(const Test& t, Model m) {
  const size_t n = t.threads.size();
  BufferedState s0{std::vector<unsigned>(n, 0),
                   std::vector<std::deque<std::tuple<unsigned, uint64_t, bool>>>(n),
                   std::vector<uint64_t>(t.registers(), 0), std::vector<uint64_t>(t.locations, 0)};
  return explore(std::move(s0), [&](const BufferedState& s, auto next) {
    for (size_t i = 0; i < n; ++i) {
      // the thread's buffered store reaches memory (the oldest first)
      if (!s.sb[i].empty()) {
        BufferedState d = s;
        d.mem[std::get<0>(d.sb[i].front())] = std::get<1>(d.sb[i].front());
        d.sb[i].pop_front();
        next(std::move(d));
      }
      if (s.pc[i] == t.threads[i].size()) continue;
      const Op& op = t.threads[i][s.pc[i]];
      BufferedState d = s;
      ++d.pc[i];
      if (is_load(op.kind)) {
        if (op.kind == OpKind::LoadAcquire &&
            std::any_of(s.sb[i].begin(), s.sb[i].end(), [](const auto& e) { return std::get<2>(e); })) {
          continue;  // waits for the store-releases to drain
        }
        uint64_t v = s.mem[op.loc];
        for (const auto& e : s.sb[i])
          if (std::get<0>(e) == op.loc) v = std::get<1>(e);  // the newest buffered store wins
        d.regs[op.reg] = v;
      } else if (is_store(op.kind)) {
        if (m == Model::SC) {
          d.mem[op.loc] = op.value;
        } else {
          d.sb[i].emplace_back(op.loc, op.value, op.kind == OpKind::StoreRelease);
        }
      } else if (op.kind == OpKind::DmbSy && !s.sb[i].empty()) {
        continue;  // waits for the buffer to drain
      }
      next(std::move(d));
    }
  });
}

// ARMv8's machine (see Model): a thread's operations perform in any order that keeps the
// pairs `ordered` names; a performed store is in memory, seen by every other thread at once.
struct PerformedState {
  std::vector<uint64_t> done;  // per thread: the performed operations, a bit each
  std::vector<uint64_t> regs, mem;
  bool operator<(const PerformedState& o) const {
    return std::tie(done, regs, mem) < std::tie(o.done, o.regs, o.mem);
  }
};

// Must access j of `ops` perform before access k (j < k)? Fences are not accesses.
bool ordered(const std::vector<Op>& ops, size_t j, size_t k, Model m) {
  const Op& a = ops[j];
  const Op& b = ops[k];
  if (a.loc == b.loc && !(is_store(a.kind) && is_load(b.kind))) return true;
  if (a.kind == OpKind::LoadAcquire || b.kind == OpKind::StoreRelease) return true;
  if (a.kind == OpKind::StoreRelease && b.kind == OpKind::LoadAcquire) return true;
  if (m == Model::ARMv8Core && is_load(a.kind) && is_store(b.kind)) return true;
  if (b.kind == OpKind::LoadDep) {
    size_t p = k;
    while (p > 0 && !is_load(ops[p - 1].kind)) --p;
    if (p > 0 && p - 1 == j) return true;
  }
  for (size_t f = j + 1; f < k; ++f) {
    switch (ops[f].kind) {
      case OpKind::DmbSy:
        return true;
      case OpKind::DmbLd:
        if (is_load(a.kind)) return true;
        break;
      case OpKind::DmbSt:
        if (is_store(a.kind) && is_store(b.kind)) return true;
        break;
      default:
        break;
    }
  }
  return false;
}

std::set<Outcome> allowed_armv8(const Test& t, Model m) {
  const size_t n = t.threads.size();
  for (const auto& th : t.threads) {
    if (th.size() > 63) throw std::invalid_argument("litmus " + t.name + ": over 63 operations");
  }
  PerformedState s0{std::vector<uint64_t>(n, 0), std::vector<uint64_t>(t.registers(), 0),
                    std::vector<uint64_t>(t.locations, 0)};
  return explore(std::move(s0), [&](const PerformedState& s, auto next) {
    for (size_t i = 0; i < n; ++i) {
      const auto& ops = t.threads[i];
      for (size_t k = 0; k < ops.size(); ++k) {
        const Op& op = ops[k];
        if (is_fence(op.kind) || (s.done[i] >> k & 1)) continue;
        // May op k perform now? Not before an earlier unperformed access it must follow; a
        // load may read the newest earlier unperformed store to its location.
        bool ok = true;
        const Op* fwd = nullptr;
        for (size_t j = 0; j < k && ok; ++j) {
          if (is_fence(ops[j].kind) || (s.done[i] >> j & 1)) continue;
          if (ordered(ops, j, k, m)) {
            ok = false;
          } else if (ops[j].loc == op.loc) {
            fwd = &ops[j];  // an earlier store to the location, read by this load
          }
        }
        if (!ok) continue;
        PerformedState d = s;
        d.done[i] |= uint64_t{1} << k;
        if (is_load(op.kind)) {
          d.regs[op.reg] = fwd ? fwd->value : s.mem[op.loc];
        } else {
          d.mem[op.loc] = op.value;
        }
        next(std::move(d));
      }
    }
  });
}

}  // namespace

std::set<Outcome> allowed(const Test& t, Model m) {
  check(t);
  return m == Model::ARMv8 || m == Model::ARMv8Core ? allowed_armv8(t, m) : allowed_buffered(t, m);
}

std::string format(const Test& t, const Outcome& o) {
  std::string s;
  const unsigned r = t.registers();
  for (size_t i = 0; i < o.size(); ++i) {
    if (!s.empty()) s += ' ';
    if (i < r) {
      s += 'r';
      s += std::to_string(i);
    } else if (i - r < 3) {
      s += static_cast<char>('x' + (i - r));
    } else {
      s += 'm';
      s += std::to_string(i - r);
    }
    s += '=';
    s += std::to_string(o[i]);
  }
  return s;
}

std::vector<Test> standard_tests() {
  const unsigned x = 0, y = 1, z = 2;
  std::vector<Test> base = {
      {"SB", 2, {{st(x, 1), ld(y, 0)}, {st(y, 1), ld(x, 1)}}},
      {"MP", 2, {{st(x, 1), st(y, 1)}, {ld(y, 0), ld(x, 1)}}},
      {"LB", 2, {{ld(x, 0), st(y, 1)}, {ld(y, 1), st(x, 1)}}},
      {"S", 2, {{st(x, 2), st(y, 1)}, {ld(y, 0), st(x, 1)}}},
      {"R", 2, {{st(x, 1), st(y, 1)}, {st(y, 2), ld(x, 0)}}},
      {"2+2W", 2, {{st(x, 1), st(y, 2)}, {st(y, 1), st(x, 2)}}},
      {"WRC", 2, {{st(x, 1)}, {ld(x, 0), st(y, 1)}, {ld(y, 1), ld(x, 2)}}},
      {"IRIW", 2, {{st(x, 1)}, {st(y, 1)}, {ld(x, 0), ld(y, 1)}, {ld(y, 2), ld(x, 3)}}},
      {"ISA2", 3, {{st(x, 1), st(y, 1)}, {ld(y, 0), st(z, 1)}, {ld(z, 1), ld(x, 2)}}},
      {"CoRR", 1, {{st(x, 1)}, {ld(x, 0), ld(x, 1)}}},
      {"CoWW", 1, {{st(x, 1), st(x, 2)}}},
      {"CoRW", 1, {{ld(x, 0), st(x, 1)}, {st(x, 2)}}},
      {"CoWR", 1, {{st(x, 1), ld(x, 0)}, {st(x, 2)}}},
  };
  std::vector<Test> all = base;
  for (const Test& t : base) {
    Test f{t.name + "+fences", t.locations, {}};
    bool any = false;
    for (const auto& th : t.threads) {
      std::vector<Op> ops;
      for (size_t i = 0; i < th.size(); ++i) {
        if (i > 0) {
          ops.push_back(fence());
          any = true;
        }
        ops.push_back(th[i]);
      }
      f.threads.push_back(std::move(ops));
    }
    if (any && t.name.rfind("Co", 0) != 0) all.push_back(std::move(f));
  }
  // The weaker ordering points (named as in the ARM litmus catalogues: "po" is none).
  const std::vector<Test> weak = {
      {"MP+dmb.st+dmb.ld", 2, {{st(x, 1), dmb_st(), st(y, 1)}, {ld(y, 0), dmb_ld(), ld(x, 1)}}},
      {"MP+dmb.st+po", 2, {{st(x, 1), dmb_st(), st(y, 1)}, {ld(y, 0), ld(x, 1)}}},
      {"MP+po+dmb.ld", 2, {{st(x, 1), st(y, 1)}, {ld(y, 0), dmb_ld(), ld(x, 1)}}},
      {"MP+dmb.st+addr", 2, {{st(x, 1), dmb_st(), st(y, 1)}, {ld(y, 0), ldd(x, 1)}}},
      {"MP+rel+acq", 2, {{st(x, 1), stl(y, 1)}, {lda(y, 0), ld(x, 1)}}},
      {"MP+rel+po", 2, {{st(x, 1), stl(y, 1)}, {ld(y, 0), ld(x, 1)}}},
      {"SB+dmb.sts", 2, {{st(x, 1), dmb_st(), ld(y, 0)}, {st(y, 1), dmb_st(), ld(x, 1)}}},
      {"SB+dmb.lds", 2, {{st(x, 1), dmb_ld(), ld(y, 0)}, {st(y, 1), dmb_ld(), ld(x, 1)}}},
      {"SB+rel+acqs", 2, {{stl(x, 1), lda(y, 0)}, {stl(y, 1), lda(x, 1)}}},
      {"2+2W+dmb.sts", 2, {{st(x, 1), dmb_st(), st(y, 2)}, {st(y, 1), dmb_st(), st(x, 2)}}},
      {"S+dmb.st+po", 2, {{st(x, 2), dmb_st(), st(y, 1)}, {ld(y, 0), st(x, 1)}}},
      {"WRC+po+addr", 2, {{st(x, 1)}, {ld(x, 0), st(y, 1)}, {ld(y, 1), ldd(x, 2)}}},
      {"WRC+dmb.sy+po", 2, {{st(x, 1)}, {ld(x, 0), fence(), st(y, 1)}, {ld(y, 1), ld(x, 2)}}},
      {"IRIW+dmb.lds", 2, {{st(x, 1)}, {st(y, 1)}, {ld(x, 0), dmb_ld(), ld(y, 1)},
                           {ld(y, 2), dmb_ld(), ld(x, 3)}}},
      {"IRIW+addrs", 2, {{st(x, 1)}, {st(y, 1)}, {ld(x, 0), ldd(y, 1)}, {ld(y, 2), ldd(x, 3)}}},
      {"ISA2+dmb.st+po+addr", 3, {{st(x, 1), dmb_st(), st(y, 1)}, {ld(y, 0), st(z, 1)},
                                  {ld(z, 1), ldd(x, 2)}}},
  };
  all.insert(all.end(), weak.begin(), weak.end());
  return all;
}

std::map<Outcome, unsigned> run(HostSystem& sys, const Test& t, const std::vector<unsigned>& cores,
                                const RunOptions& o) {
  check(t);
  if (cores.size() < t.threads.size()) {
    throw std::invalid_argument("litmus " + t.name + ": " + std::to_string(t.threads.size()) +
                                " threads but " + std::to_string(cores.size()) + " cores");
  }
  const unsigned line = sys.fabric().line_bytes();
  const unsigned sockets = sys.num_sockets();
  std::mt19937_64 rng(o.seed);
  auto pick = [&rng](uint64_t n) { return n == 0 ? 0 : rng() % (n + 1); };
  std::map<Outcome, unsigned> seen;
  std::vector<unsigned> pool = cores;
  for (unsigned it = 0; it < o.iterations; ++it) {
    // This iteration's cores: thread i on on[i], a random choice from `cores`.
    std::shuffle(pool.begin(), pool.end(), rng);
    const std::vector<unsigned> on(pool.begin(), pool.begin() + static_cast<long>(t.threads.size()));
    std::vector<proto::Addr> addr(t.locations);
    for (unsigned j = 0; j < t.locations; ++j) {
      addr[j] = o.address ? o.address(it, j)
                          : HostSystem::dram_base(static_cast<unsigned>(rng() % sockets)) +
                                (o.first_line + uint64_t{it} * t.locations + j) * line;
    }
    // Every location 0, each written by a random core (owned and dirty there); then copies in
    // the caches of any of the iteration's cores (each with probability 1/2) and of one more
    // random core: a load hits or misses, a store finds the line owned elsewhere, shared or
    // absent, and an invalidation finds copies to take away.
    for (unsigned j = 0; j < t.locations; ++j) {
      const proto::Addr a = addr[j];
      std::vector<unsigned> readers;
      for (unsigned c : on)
        if (rng() % 2) readers.push_back(c);
      if (rng() % 2) readers.push_back(static_cast<unsigned>(rng() % sys.num_cores()));
      sys.spawn(static_cast<unsigned>(rng() % sys.num_cores()), [a](drv::MemoryPort& p) {
        p.store64(a, 0);
        p.barrier();
      });
      sys.run_programs();
      for (unsigned c : readers) {
        sys.spawn(c, [a](drv::MemoryPort& p) { (void)p.load64(a); });
        sys.run_programs();
      }
    }
    for (unsigned c : on) sys.core(c).set_access_jitter(rng() % 2 ? ns(o.max_access_jitter_ns) : 0);
    std::vector<uint64_t> regs(t.registers(), 0);
    // The spread of this iteration's start times: often none, so that the threads overlap
    // within a miss's latency (where the relaxations live), else up to max_start_ns.
    const uint64_t spread = rng() % 2 ? 0 : pick(o.max_start_ns);
    for (size_t i = 0; i < t.threads.size(); ++i) {
      std::vector<uint64_t> gaps;
      for (size_t k = 0; k <= t.threads[i].size(); ++k) {
        gaps.push_back(k == 0 ? pick(spread) : rng() % 2 ? 0 : pick(o.max_gap_ns));
      }
      sys.spawn(on[i], [&t, &regs, &addr, i, gaps](drv::MemoryPort& p) {
        const auto& ops = t.threads[i];
        for (size_t k = 0; k < ops.size(); ++k) {
          if (gaps[k]) p.pause_ns(gaps[k]);
          const Op& op = ops[k];
          switch (op.kind) {
            case OpKind::Load:
              p.load(addr[op.loc], &regs[op.reg], sizeof(uint64_t));
              break;
            case OpKind::LoadAcquire:
              regs[op.reg] = p.load_acquire64(addr[op.loc]);
              break;
            case OpKind::LoadDep:
              p.load_dep(addr[op.loc], &regs[op.reg], sizeof(uint64_t));
              break;
            case OpKind::Store:
              p.store(addr[op.loc], &op.value, sizeof(uint64_t));
              break;
            case OpKind::StoreRelease:
              p.store_release64(addr[op.loc], op.value);
              break;
            case OpKind::DmbSy:
              p.barrier();
              break;
            case OpKind::DmbLd:
              p.barrier_load();
              break;
            case OpKind::DmbSt:
              p.barrier_store();
              break;
          }
        }
      });
    }
    // The other cores load the test's lines meanwhile: copies that come and go, and homes
    // busy with them (requests queued or retried), as in a machine that runs more than the test.
    for (unsigned c = 0; c < sys.num_cores() && o.noise; ++c) {
      if (std::find(on.begin(), on.end(), c) != on.end()) continue;
      std::vector<std::pair<uint64_t, unsigned>> loads;  // (gap before, location)
      for (unsigned k = 0; k < 8; ++k) {
        loads.emplace_back(k == 0 ? pick(spread) : pick(o.max_gap_ns),
                           static_cast<unsigned>(rng() % t.locations));
      }
      sys.spawn(c, [&addr, loads](drv::MemoryPort& p) {
        for (const auto& [gap, loc] : loads) {
          if (gap) p.pause_ns(gap);
          (void)p.load64(addr[loc]);
        }
      });
    }
    sys.run_programs();
    for (unsigned c : on) sys.core(c).set_access_jitter(0);
    Outcome out = regs;
    std::vector<uint64_t> mem(t.locations, 0);
    sys.spawn(on[0], [&addr, &mem](drv::MemoryPort& p) {
      p.barrier();  // reads the memory as it is now, after every thread
      for (size_t j = 0; j < addr.size(); ++j) p.load(addr[j], &mem[j], sizeof(uint64_t));
    });
    sys.run_programs();
    out.insert(out.end(), mem.begin(), mem.end());
    ++seen[out];
  }
  return seen;
}

}  // namespace cni::sim::litmus
