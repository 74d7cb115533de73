// SPDX-License-Identifier: Apache-2.0
// The host side of a simulated system, built from a Profile (docs/host-sim.md, "Systems and
// nodes"): `nodes` nodes on one Kernel, each its own coherence domain -- its own Fabric and
// agent-id space, holding a HostSystem (sockets, cores, caches, homes, DRAM and the device
// slots of node.devices) -- and a Network (net.* keys) joining one port per node. Node i is
// built from the profile's parameters with its per-node overrides (node<i>.<key>) applied.
// The device models attach to the device slots; tb::System does that for the Verilated core.
#pragma once

#include <memory>
#include <vector>

#include "cni/sim/fabric.hpp"
#include "cni/sim/host.hpp"
#include "cni/sim/kernel.hpp"
#include "cni/sim/network.hpp"
#include "cni/sim/profile.hpp"

namespace cni::sim {

// One node: a host and its device slots in a coherence domain of their own, and its port on
// the network between the nodes.
class Node {
 public:
  // `profile` is the node's own (Profile::node_profile).
  Node(Kernel& k, Network& net, unsigned index, const Profile& profile);
  Node(const Node&) = delete;
  Node& operator=(const Node&) = delete;

  unsigned index() const { return index_; }
  const Profile& profile() const { return host_.profile(); }
  Fabric& fabric() { return fabric_; }
  HostSystem& host() { return host_; }
  NetPort& net_port() { return port_; }

 private:
  unsigned index_;
  Fabric fabric_;
  HostSystem host_;
  NetPort port_;
};

class Cluster {
 public:
  // Reads `nodes` (default 1) and the net.* keys; throws ProfileError naming the bad key (a
  // node count outside [1, 256], an override of a node that does not exist, a net.nodes that
  // differs from nodes) or the node whose parameters are bad.
  explicit Cluster(const Profile& profile);
  ~Cluster();
  Cluster(const Cluster&) = delete;
  Cluster& operator=(const Cluster&) = delete;

  Kernel& kernel() { return k_; }
  const Profile& profile() const { return profile_; }
  unsigned num_nodes() const { return static_cast<unsigned>(nodes_.size()); }
  // Throws std::out_of_range naming `i` and the node count.
  Node& node(unsigned i);
  Network& network() { return net_; }

  // Every program spawned on a core of any node has finished and its store buffer drained.
  bool all_done() const;
  // Run the kernel until all_done(); throws naming the nodes and cores still blocked if
  // events run out first, or if `limit` of simulated time passes first
  // (HostSystem::run_programs).
  void run_programs(Time limit = kNoTimeLimit);

 private:
  Profile profile_;
  Kernel k_;
  Network net_;
  std::vector<std::unique_ptr<Node>> nodes_;
};

}  // namespace cni::sim
