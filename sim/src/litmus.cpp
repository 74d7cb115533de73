// SPDX-License-Identifier: Apache-2.0
// Litmus tests: the models' allowed outcomes by exhaustive search of their abstract machines,
// the standard shapes, and runs on the simulated host.
#include "cni/sim/litmus.hpp"

#include <algorithm>
#include <deque>
#include <functional>
#include <random>
#include <stdexcept>

namespace cni::sim::litmus {

Op ld(unsigned loc, unsigned reg) { return Op{OpKind::Load, loc, 0, reg}; }
Op st(unsigned loc, uint64_t value) { return Op{OpKind::Store, loc, value, 0}; }
Op fence() { return Op{}; }

unsigned Test::registers() const {
  unsigned n = 0;
  for (const auto& th : threads)
    for (const auto& op : th)
      if (op.kind == OpKind::Load) n = std::max(n, op.reg + 1);
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
  }
  return "?";
}

namespace {

void check(const Test& t) {
  if (t.threads.empty()) throw std::invalid_argument("litmus " + t.name + ": no threads");
  for (const auto& th : t.threads) {
    for (const auto& op : th) {
      if (op.kind != OpKind::Fence && op.loc >= t.locations) {
        throw std::invalid_argument("litmus " + t.name + ": location " + std::to_string(op.loc) +
                                    " of " + std::to_string(t.locations));
      }
      if (op.kind == OpKind::Store && op.value == 0) {
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

// SC and TSO: each thread's next operation and store buffer (always empty under SC).
struct BufferedState {
  std::vector<unsigned> pc;
  std::vector<std::deque<std::pair<unsigned, uint64_t>>> sb;
  std::vector<uint64_t> regs, mem;
  bool operator<(const BufferedState& o) const {
    return std::tie(pc, sb, regs, mem) < std::tie(o.pc, o.sb, o.regs, o.mem);
  }
};

std::set<Outcome> allowed_buffered(const Test& t, Model m) {
  const size_t n = t.threads.size();
  BufferedState s0{std::vector<unsigned>(n, 0),
                   std::vector<std::deque<std::pair<unsigned, uint64_t>>>(n),
                   std::vector<uint64_t>(t.registers(), 0), std::vector<uint64_t>(t.locations, 0)};
  return explore(std::move(s0), [&](const BufferedState& s, auto next) {
    for (size_t i = 0; i < n; ++i) {
      // the thread's buffered store reaches memory (the oldest first)
      if (!s.sb[i].empty()) {
        BufferedState d = s;
        d.mem[d.sb[i].front().first] = d.sb[i].front().second;
        d.sb[i].pop_front();
        next(std::move(d));
      }
      if (s.pc[i] == t.threads[i].size()) continue;
      const Op& op = t.threads[i][s.pc[i]];
      BufferedState d = s;
      ++d.pc[i];
      switch (op.kind) {
        case OpKind::Load: {
          uint64_t v = s.mem[op.loc];
          for (const auto& e : s.sb[i])
            if (e.first == op.loc) v = e.second;  // the newest buffered store wins
          d.regs[op.reg] = v;
          break;
        }
        case OpKind::Store:
          if (m == Model::SC) {
            d.mem[op.loc] = op.value;
          } else {
            d.sb[i].emplace_back(op.loc, op.value);
          }
          break;
        case OpKind::Fence:
          if (!s.sb[i].empty()) continue;  // waits for the buffer to drain
          break;
      }
      next(std::move(d));
    }
  });
}

// ARMv8's machine (see Model): a thread's operations perform in any order that keeps the
// pairs below; a performed store is in memory, seen by every other thread at once.
//   - two operations on one location keep program order, except that a load may perform
//     before an earlier store to its location by reading it (the newest such store);
//   - a fence orders every operation before it with every operation after it.
struct PerformedState {
  std::vector<uint64_t> done;  // per thread: the performed operations, a bit each
  std::vector<uint64_t> regs, mem;
  bool operator<(const PerformedState& o) const {
    return std::tie(done, regs, mem) < std::tie(o.done, o.regs, o.mem);
  }
};

std::set<Outcome> allowed_armv8(const Test& t) {
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
        if (op.kind == OpKind::Fence || (s.done[i] >> k & 1)) continue;
        // May op k perform now? Not before an earlier unperformed operation it must follow.
        bool ok = true;
        const Op* fwd = nullptr;  // the newest earlier unperformed store to its location
        for (size_t j = 0; j < k && ok; ++j) {
          const Op& e = ops[j];
          if (e.kind == OpKind::Fence || (s.done[i] >> j & 1) || e.loc != op.loc) continue;
          if (e.kind == OpKind::Store && op.kind == OpKind::Load) {
            fwd = &e;
          } else {
            ok = false;
          }
        }
        // a fence between an unperformed operation and op holds op back
        for (size_t j = 0; j < k && ok; ++j) {
          if (ops[j].kind != OpKind::Fence) continue;
          for (size_t e = 0; e < j; ++e) {
            if (ops[e].kind != OpKind::Fence && !(s.done[i] >> e & 1)) ok = false;
          }
        }
        if (!ok) continue;
        PerformedState d = s;
        d.done[i] |= uint64_t{1} << k;
        if (op.kind == OpKind::Load) {
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
  return m == Model::ARMv8 ? allowed_armv8(t) : allowed_buffered(t, m);
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
  return all;
}

std::map<Outcome, unsigned> run(HostSystem& sys, const Test& t, const std::vector<unsigned>& cores,
                                const RunOptions& o) {
  check(t);
  if (cores.size() != t.threads.size()) {
    throw std::invalid_argument("litmus " + t.name + ": " + std::to_string(t.threads.size()) +
                                " threads but " + std::to_string(cores.size()) + " cores");
  }
  const unsigned line = sys.fabric().line_bytes();
  const unsigned sockets = sys.num_sockets();
  std::mt19937_64 rng(o.seed);
  auto pick = [&rng](uint64_t n) { return n == 0 ? 0 : rng() % (n + 1); };
  std::map<Outcome, unsigned> seen;
  for (unsigned it = 0; it < o.iterations; ++it) {
    std::vector<proto::Addr> addr(t.locations);
    for (unsigned j = 0; j < t.locations; ++j) {
      addr[j] = HostSystem::dram_base(j % sockets) + (o.first_line + uint64_t{it} * t.locations + j) * line;
    }
    // Copies of the lines in random caches first (one of the test's cores, or any): a load
    // hits or misses, a store finds the line shared, exclusive elsewhere or absent.
    for (unsigned j = 0; j < t.locations; ++j) {
      if (rng() % 3 == 0) continue;
      const unsigned c = rng() % 2 ? cores[rng() % cores.size()]
                                   : static_cast<unsigned>(rng() % sys.num_cores());
      const proto::Addr a = addr[j];
      sys.spawn(c, [a](drv::MemoryPort& p) {
        uint64_t v;
        p.load(a, &v, sizeof v);
      });
      sys.run_programs();
    }
    std::vector<uint64_t> regs(t.registers(), 0);
    // The spread of this iteration's start times: often none, so that the threads overlap
    // within a miss's latency (where the relaxations live), else up to max_start_ns.
    const uint64_t spread = rng() % 2 ? 0 : pick(o.max_start_ns);
    for (size_t i = 0; i < t.threads.size(); ++i) {
      std::vector<uint64_t> gaps;
      for (size_t k = 0; k <= t.threads[i].size(); ++k) {
        gaps.push_back(k == 0 ? pick(spread) : rng() % 2 ? 0 : pick(o.max_gap_ns));
      }
      sys.spawn(cores[i], [&t, &regs, &addr, i, gaps](drv::MemoryPort& p) {
        const auto& ops = t.threads[i];
        for (size_t k = 0; k < ops.size(); ++k) {
          if (gaps[k]) p.pause_ns(gaps[k]);
          const Op& op = ops[k];
          switch (op.kind) {
            case OpKind::Load:
              p.load(addr[op.loc], &regs[op.reg], sizeof(uint64_t));
              break;
            case OpKind::Store:
              p.store(addr[op.loc], &op.value, sizeof(uint64_t));
              break;
            case OpKind::Fence:
              p.barrier();
              break;
          }
        }
      });
    }
    sys.run_programs();
    Outcome out = regs;
    std::vector<uint64_t> mem(t.locations, 0);
    sys.spawn(cores[0], [&addr, &mem](drv::MemoryPort& p) {
      for (size_t j = 0; j < addr.size(); ++j) p.load(addr[j], &mem[j], sizeof(uint64_t));
    });
    sys.run_programs();
    out.insert(out.end(), mem.begin(), mem.end());
    ++seen[out];
  }
  return seen;
}

}  // namespace cni::sim::litmus
