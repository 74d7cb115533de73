// SPDX-License-Identifier: Apache-2.0
#include "cni/sim/cluster.hpp"

#include <stdexcept>
#include <string>

#include "params.hpp"

namespace cni::sim {

namespace {

unsigned node_count(const Profile& p) {
  return p.has("nodes") ? detail::uint_param(p, "nodes", 1, 256) : 1;
}

// The network of the profile's net.* keys with a port per node.
NetParams cluster_net(const Profile& p) {
  NetParams n = NetParams::from_profile(p);
  const unsigned nodes = node_count(p);
  if (p.has("net.nodes") && n.nodes != nodes) {
    throw ProfileError("profile " + p.name() + ": net.nodes = " + std::to_string(n.nodes) +
                       " but nodes = " + std::to_string(nodes) +
                       ": a system's network has a port per node (leave net.nodes out)");
  }
  n.nodes = nodes;
  return n;
}

}  // namespace

Node::Node(Kernel& k, Network& net, unsigned index, const Profile& profile)
    : index_(index),
      fabric_(k, detail::uint_param(profile, "line_bytes", 64, 128)),
      host_(k, fabric_, profile),
      port_(net, index) {}

Cluster::Cluster(const Profile& profile) : profile_(profile), net_(k_, cluster_net(profile_)) {
  const unsigned n = net_.num_nodes();
  for (unsigned i = 0; i < n; ++i) {
    nodes_.push_back(std::make_unique<Node>(k_, net_, i, profile_.node_profile(i, n)));
  }
}

Cluster::~Cluster() = default;

Node& Cluster::node(unsigned i) {
  if (i >= nodes_.size()) {
    throw std::out_of_range("Cluster::node: no node " + std::to_string(i) + " (" +
                            std::to_string(nodes_.size()) + " nodes)");
  }
  return *nodes_[i];
}

bool Cluster::all_done() const {
  for (const auto& n : nodes_) {
    if (!n->host().all_done()) return false;
  }
  return true;
}

void Cluster::run_programs(Time limit) {
  run_until_done(
      k_, [this] { return all_done(); }, limit,
      [this] {
        std::string blocked;
        for (const auto& n : nodes_) {
          if (n->host().all_done()) continue;
          blocked += (blocked.empty() ? "node " : "; node ") + std::to_string(n->index()) + " " +
                     n->host().busy_cores();
        }
        return blocked;
      });
}

}  // namespace cni::sim
