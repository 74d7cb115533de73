// SPDX-License-Identifier: Apache-2.0
#include "device/em3d.hpp"

#include <random>
#include <stdexcept>
#include <string>

namespace cni::tb {
namespace {

constexpr unsigned kPerBlock = 8;  // 8-byte values in a 64-byte block

struct Edge {
  uint32_t nbr;  // the neighbour's index among the nodes of the other kind
  uint32_t w;    // its weight
};

// graph[kind][i]: node i's edges (kind 0: E nodes into H, 1: H nodes into E).
using Graph = std::vector<std::vector<std::vector<Edge>>>;

Graph make_graph(const Em3dParams& p) {
  const unsigned half = p.graph_nodes / 2, groups = half / kPerBlock;
  if (p.graph_nodes % (2 * kPerBlock) != 0 || groups == 0) {
    throw std::invalid_argument("EM3D: graph_nodes must be a multiple of " +
                                std::to_string(2 * kPerBlock));
  }
  std::mt19937_64 rng(p.seed);
  Graph g(2, std::vector<std::vector<Edge>>(half));
  for (unsigned kind = 0; kind < 2; ++kind) {
    for (unsigned i = 0; i < half; ++i) {
      const unsigned grp = i / kPerBlock;
      for (unsigned k = 0; k < p.degree; ++k) {
        unsigned to = grp;
        if (groups > 1 && p.span >= 2 && double(rng() % 1'000'000) < p.remote * 1e6) {
          const unsigned off = 1 + unsigned(rng() % (p.span / 2));
          to = rng() % 2 ? (grp + off) % groups : (grp + groups - off % groups) % groups;
        }
        g[kind][i].push_back({to * kPerBlock + unsigned(rng() % kPerBlock),
                              1 + unsigned(rng() % 15)});
      }
    }
  }
  return g;
}

uint64_t initial(unsigned kind, unsigned i) { return kind == 0 ? i * 7ull + 1 : i * 13ull + 5; }

}  // namespace

uint32_t em3d_blocks(const Em3dParams& p) { return p.graph_nodes / kPerBlock; }

void em3d_reference(const Em3dParams& p, std::vector<uint64_t>& e, std::vector<uint64_t>& h) {
  const Graph g = make_graph(p);
  const unsigned half = p.graph_nodes / 2;
  e.resize(half);
  h.resize(half);
  for (unsigned i = 0; i < half; ++i) {
    e[i] = initial(0, i);
    h[i] = initial(1, i);
  }
  for (unsigned it = 0; it < p.iterations; ++it) {
    for (unsigned i = 0; i < half; ++i) {
      for (const Edge& x : g[0][i]) e[i] -= x.w * h[x.nbr];
    }
    for (unsigned i = 0; i < half; ++i) {
      for (const Edge& x : g[1][i]) h[i] -= x.w * e[x.nbr];
    }
  }
}

DsmConfig em3d_config(DsmConfig base, const Em3dParams& p) {
  base.page_blocks = 1;
  base.app_cores = 1;
  if (p.custom) {
    base.protocol = [](uint32_t) { return drv::PageProtocol::Update; };
  } else {
    base.protocol = nullptr;
  }
  return base;
}

Em3dResult run_em3d(DsmSystem& d, const Em3dParams& p) {
  const Graph g = make_graph(p);
  const unsigned half = p.graph_nodes / 2, groups = half / kPerBlock;
  if (2 * groups > d.blocks()) {
    throw std::invalid_argument("EM3D: " + std::to_string(p.graph_nodes) + " nodes take " +
                                std::to_string(2 * groups) + " blocks; the space has " +
                                std::to_string(d.blocks()));
  }
  Em3dResult r;
  r.e.resize(half);
  r.h.resize(half);
  uint64_t t_first = 0, t_last = 0;
  d.run([&](unsigned n, unsigned, drv::MemoryPort& m) {
    auto value = [&](unsigned kind, unsigned i) {
      return d.block_addr(n, kind * groups + i / kPerBlock) + (i % kPerBlock) * 8;
    };
    // the node's own groups, and its edges in private memory: one word per edge,
    // neighbour << 32 | weight
    std::vector<unsigned> mine;
    for (unsigned grp = 0; grp < groups; ++grp) {
      if (d.home_of(grp) == n && d.home_of(groups + grp) == n) mine.push_back(grp);
      if (d.home_of(grp) != d.home_of(groups + grp)) {
        throw std::invalid_argument("EM3D: group " + std::to_string(grp) +
                                    "'s E and H blocks have different homes");
      }
    }
    auto edge_addr = [&](unsigned kind, unsigned i, unsigned k) {
      return DsmSystem::private_base() + 8 * ((uint64_t(kind) * half + i) * p.degree + k);
    };
    for (unsigned grp : mine) {
      for (unsigned kind = 0; kind < 2; ++kind) {
        for (unsigned i = grp * kPerBlock; i < (grp + 1) * kPerBlock; ++i) {
          m.store64(value(kind, i), initial(kind, i));
          for (unsigned k = 0; k < p.degree; ++k) {
            m.store64(edge_addr(kind, i, k), uint64_t(g[kind][i][k].nbr) << 32 | g[kind][i][k].w);
          }
        }
      }
    }
    d.barrier(m);
    for (unsigned it = 0; it < p.iterations; ++it) {
      for (unsigned kind = 0; kind < 2; ++kind) {
        for (unsigned grp : mine) {
          for (unsigned i = grp * kPerBlock; i < (grp + 1) * kPerBlock; ++i) {
            uint64_t v = m.load64(value(kind, i));
            for (unsigned k = 0; k < p.degree; ++k) {
              const uint64_t w = m.load64(edge_addr(kind, i, k));
              v -= (w & 0xFFFFFFFF) * m.load64(value(1 - kind, unsigned(w >> 32)));
            }
            m.store64(value(kind, i), v);
          }
        }
        if (p.custom) d.push(m, kind * groups, groups);
        d.barrier(m);
      }
      if (n == 0 && it == 0) t_first = m.now_ns();
      if (n == 0 && it + 1 == p.iterations) t_last = m.now_ns();
    }
    for (unsigned grp : mine) {
      for (unsigned i = grp * kPerBlock; i < (grp + 1) * kPerBlock; ++i) {
        r.e[i] = m.load64(value(0, i));
        r.h[i] = m.load64(value(1, i));
      }
    }
  });
  if (p.iterations > 1) r.iteration_ns = double(t_last - t_first) / (p.iterations - 1);
  for (unsigned n = 0; n < d.nodes(); ++n) {
    r.faults += d.stats(n).faults;
    r.update_messages += d.stats(n).update_messages;
  }
  return r;
}

}  // namespace cni::tb
