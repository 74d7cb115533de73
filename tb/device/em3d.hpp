// SPDX-License-Identifier: Apache-2.0
// EM3D (seed 001 section 2.2, 000 Table 3's parameters) on a Stache DSM (tb::DsmSystem,
// docs/dsm.md "EM3D"): a bipartite graph of E and H nodes; each iteration every E node's value
// is updated from its H neighbours' values, then every H node's from its E neighbours'. The
// values are packed eight to a block in the shared space: the E values in blocks 0 .. G-1, the H
// values in blocks G .. 2G-1, block g holding group g; a group is owned (computed and written)
// by its block's home, so writes are always to local pages (001: "EM3D explicitly allocates the
// graph so that writes are always to local pages"). Each node has `degree` edges to nodes of the
// other kind, each remote with probability `remote`: then into a group within span / 2 of its
// own, otherwise into its own group. The graph depends on the parameters only, not on the node
// count, and the arithmetic is integer (wrapping), so every node count computes the same values.
#pragma once

#include <cstdint>
#include <vector>

#include "device/dsm.hpp"

namespace cni::tb {

struct Em3dParams {
  unsigned graph_nodes = 1024;  // E and H nodes together (000 Table 3: 1 K nodes)
  unsigned degree = 5;          // edges per node (000 Table 3)
  double remote = 0.1;          // the fraction of edges into another group (000 Table 3: 10%)
  unsigned span = 6;            // remote edges reach groups within span / 2 (000 Table 3: 6)
  unsigned iterations = 10;     // 000 Table 3: 10
  uint64_t seed = 1;
  // 001's custom deferred update protocol on the value pages (the producer pushes every consumer
  // its values after each phase) instead of the standard invalidation protocol.
  bool custom = false;
};

struct Em3dResult {
  std::vector<uint64_t> e, h;  // the values after the last iteration
  double iteration_ns = 0;     // the mean time of the iterations after the first (001 s4.2)
  uint64_t faults = 0, update_messages = 0;
};

// The blocks EM3D's values take (both kinds).
uint32_t em3d_blocks(const Em3dParams& p);
// The values computed sequentially in plain C++ (the reference).
void em3d_reference(const Em3dParams& p, std::vector<uint64_t>& e, std::vector<uint64_t>& h);
// Runs EM3D on `d` (one application core per node; pages of one block, d's config must say so,
// and, for p.custom, every page the update protocol: em3d_config does both).
Em3dResult run_em3d(DsmSystem& d, const Em3dParams& p);
// `base` with the page size and the page protocols EM3D needs.
DsmConfig em3d_config(DsmConfig base, const Em3dParams& p);

}  // namespace cni::tb
