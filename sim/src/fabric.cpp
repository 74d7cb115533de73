// SPDX-License-Identifier: Apache-2.0
#include "cni/sim/fabric.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <queue>
#include <random>
#include <stdexcept>

namespace cni::sim {

using proto::AgentId;
using proto::Chan;
using proto::Msg;

namespace {
std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}
}  // namespace

// One direction of a link, or a node's on-chip path (from == to).
struct Fabric::Pipe {
  NodeId from = 0, to = 0;
  Time latency = 0;
  double bytes_per_ps = 0.0;  // 0: unlimited
  unsigned link_credits = 0;  // 0: unlimited
  std::array<unsigned, proto::kNumChannels> link_avail{};
  std::deque<Msg> q;
  Time busy_until = 0;
  Time jitter = 0;
  Time last_arrival = 0;  // arrivals stay in order even with jitter
  std::mt19937_64 rng;
  bool wake_scheduled = false;
  Carrier* carrier = nullptr;  // set: carries the messages; latency, bandwidth, credits unused
  LinkStats stats;
};

Agent::Agent(AgentId id) : id_(id) {
  if (id >= proto::kMaxAgents) {
    throw std::invalid_argument("agent id " + std::to_string(id) + " exceeds the fabric's " +
                                std::to_string(proto::kMaxAgents) + " agents");
  }
}

uint64_t LinkStats::total_msgs() const {
  uint64_t n = 0;
  for (const auto& c : chan) n += c.msgs;
  return n;
}

uint64_t LinkStats::total_bytes() const {
  uint64_t n = 0;
  for (const auto& c : chan) n += c.bytes;
  return n;
}

Fabric::Fabric(Kernel& k, unsigned line_bytes) : k_(k), line_bytes_(line_bytes) {
  if (line_bytes != 64 && line_bytes != 128) {
    throw std::invalid_argument("Fabric: line size must be 64 or 128 bytes, got " +
                                std::to_string(line_bytes));
  }
}

Fabric::~Fabric() = default;

void Fabric::check_node(NodeId n, const char* what) const {
  if (n >= nodes_.size()) {
    throw std::out_of_range(std::string("Fabric::") + what + ": no node " + std::to_string(n) +
                            " (" + std::to_string(nodes_.size()) + " nodes)");
  }
}

NodeId Fabric::add_node(std::string name, Time onchip, Time link_port) {
  const NodeId id = static_cast<NodeId>(nodes_.size());
  nodes_.push_back(Node{std::move(name), onchip, link_port});
  auto p = std::make_unique<Pipe>();
  p->from = p->to = id;
  p->latency = onchip;
  pipes_[{id, id}] = std::move(p);
  next_hop_.clear();
  return id;
}

const std::string& Fabric::node_name(NodeId n) const {
  check_node(n, "node_name");
  return nodes_[n].name;
}

void Fabric::connect(NodeId a, NodeId b, const LinkParams& lp) {
  check_node(a, "connect");
  check_node(b, "connect");
  if (a == b)
    throw std::invalid_argument("Fabric::connect: node " + std::to_string(a) + " to itself");
  if (pipes_.count({a, b})) {
    throw std::invalid_argument("Fabric::connect: nodes " + nodes_[a].name + " and " +
                                nodes_[b].name + " are already joined");
  }
  if (lp.bandwidth_gib_s < 0.0) {
    throw std::invalid_argument("Fabric::connect: negative bandwidth " +
                                std::to_string(lp.bandwidth_gib_s) + " GiB/s");
  }
  for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
    auto p = std::make_unique<Pipe>();
    p->from = x;
    p->to = y;
    p->latency = lp.one_way;
    p->bytes_per_ps = lp.bandwidth_gib_s * 1073741824.0 / 1e12;
    p->link_credits = lp.credits;
    p->link_avail.fill(lp.credits);
    p->jitter = lp.jitter;
    p->rng.seed(seed_ * 1000003u + x * 131u + y);
    pipes_[{x, y}] = std::move(p);
  }
  next_hop_.clear();
}

void Fabric::attach(Agent& agent, NodeId node) {
  check_node(node, "attach");
  const AgentId id = agent.id();
  if (agents_[id] != nullptr) {
    throw std::invalid_argument("Fabric::attach: agent id " + std::to_string(id) +
                                " is already attached");
  }
  agents_[id] = &agent;
  agent_node_[id] = node;
}

bool Fabric::attached(AgentId a) const { return a < proto::kMaxAgents && agents_[a] != nullptr; }

NodeId Fabric::node_of(AgentId a) const {
  if (!attached(a))
    throw std::out_of_range("Fabric: agent " + std::to_string(a) + " is not attached");
  return agent_node_[a];
}

Fabric::Pipe& Fabric::pipe(NodeId from, NodeId to) { return *pipes_.at({from, to}); }

void Fabric::set_carrier(NodeId a, NodeId b, Carrier& c) {
  check_node(a, "set_carrier");
  check_node(b, "set_carrier");
  if (!pipes_.count({a, b})) {
    throw std::invalid_argument("Fabric::set_carrier: nodes " + nodes_[a].name + " and " +
                                nodes_[b].name + " are not joined");
  }
  for (auto [x, y] : {std::pair{a, b}, std::pair{b, a}}) {
    Pipe& p = pipe(x, y);
    if (!p.q.empty() || p.stats.total_msgs() != 0) {
      throw std::logic_error("Fabric::set_carrier: the path from " + nodes_[x].name + " to " +
                             nodes_[y].name + " has carried messages already");
    }
    p.carrier = &c;
    p.latency = 0;
    p.bytes_per_ps = 0.0;
    p.link_credits = 0;
    p.jitter = 0;
  }
}

const LinkStats& Fabric::stats(NodeId from, NodeId to) const {
  auto it = pipes_.find({from, to});
  if (it == pipes_.end()) {
    throw std::out_of_range("Fabric::stats: nodes " + std::to_string(from) + " and " +
                            std::to_string(to) + " are not joined");
  }
  return it->second->stats;
}

NodeId Fabric::next_hop(NodeId from, NodeId to) {
  if (next_hop_.empty()) {
    // Breadth-first search from every node over the links (shortest hop count, ties by node id).
    const size_t n = nodes_.size();
    next_hop_.assign(n, std::vector<int>(n, -1));
    for (NodeId src = 0; src < n; ++src) {
      std::vector<int> first(n, -1);
      std::queue<NodeId> bfs;
      first[src] = static_cast<int>(src);
      bfs.push(src);
      while (!bfs.empty()) {
        const NodeId u = bfs.front();
        bfs.pop();
        for (NodeId v = 0; v < n; ++v) {
          if (v == u || first[v] != -1 || !pipes_.count({u, v})) continue;
          first[v] = u == src ? static_cast<int>(v) : first[u];
          bfs.push(v);
        }
      }
      next_hop_[src] = first;
    }
  }
  const int h = next_hop_[from][to];
  if (h < 0) {
    throw std::runtime_error("Fabric: no route from node " + nodes_[from].name + " to node " +
                             nodes_[to].name);
  }
  return static_cast<NodeId>(h);
}

void Fabric::send(const Msg& m) {
  if (!attached(m.dst)) {
    throw std::invalid_argument("Fabric::send: destination agent " + std::to_string(m.dst) +
                                " is not attached (" + m.str() + ")");
  }
  if (!attached(m.src)) {
    throw std::invalid_argument("Fabric::send: source agent " + std::to_string(m.src) +
                                " is not attached (" + m.str() + ")");
  }
  for (auto& fn : send_obs_) fn(m, k_.now());
  const NodeId a = agent_node_[m.src];
  const NodeId b = agent_node_[m.dst];
  if (a == b) {
    enqueue(pipe(a, a), m);
    return;
  }
  Pipe& first = pipe(a, next_hop(a, b));
  if (nodes_[a].link_port == 0) {
    enqueue(first, m);
  } else {
    k_.after(nodes_[a].link_port, [this, &first, m] { enqueue(first, m); });
  }
}

void Fabric::enqueue(Pipe& p, const Msg& m) {
  p.q.push_back(m);
  try_send(p);
}

void Fabric::try_send(Pipe& p) {
  if (p.wake_scheduled) return;
  if (k_.now() < p.busy_until) {
    p.wake_scheduled = true;
    k_.at(p.busy_until, [this, &p] {
      p.wake_scheduled = false;
      try_send(p);
    });
    return;
  }
  // Oldest eligible message first. A message held by a link credit also holds back younger
  // messages of its (src, dst) pair, so pairs stay in order; one held by a receiver credit
  // holds back its own channel to that receiver and, if it is an answer or a grant (RSP,
  // DAT), the pair's younger snoops (FWD): a snoop never overtakes an earlier grant (protocol
  // rule 8), whatever the receiver's buffers.
  std::vector<std::pair<AgentId, AgentId>> held, held_answer;
  for (auto it = p.q.begin(); it != p.q.end();) {
    const Msg& m = *it;
    const auto c = static_cast<unsigned>(m.chan());
    const std::pair<AgentId, AgentId> pr{m.src, m.dst};
    if (std::find(held.begin(), held.end(), pr) != held.end() ||
        (m.chan() == proto::Chan::Fwd &&
         std::find(held_answer.begin(), held_answer.end(), pr) != held_answer.end())) {
      ++it;
      continue;
    }
    if (p.link_credits != 0 && p.link_avail[c] == 0) {
      held.push_back(pr);
      ++it;
      continue;
    }
    const bool last_hop = agent_node_[m.dst] == p.to;
    RxCredits& rx = rx_[m.dst][c];
    if (last_hop && rx.limited && rx.avail == 0) {
      if (m.chan() == proto::Chan::Rsp || m.chan() == proto::Chan::Dat) held_answer.push_back(pr);
      ++it;
      continue;
    }
    // Transmit.
    if (p.link_credits != 0) --p.link_avail[c];
    if (last_hop && rx.limited) {
      --rx.avail;
      rx.consumed_via.push_back(&p);
    }
    const unsigned bytes = m.wire_bytes();
    p.stats.chan[c].msgs++;
    p.stats.chan[c].bytes += bytes;
    const Msg out = m;
    it = p.q.erase(it);
    if (p.carrier) {
      p.carrier->carry(out, [this, &p, out] { arrive(p, out); });
      continue;
    }
    const Time ser =
        p.bytes_per_ps > 0.0 ? static_cast<Time>(std::llround(bytes / p.bytes_per_ps)) : 0;
    p.stats.busy += ser;
    Time at = k_.now() + ser + p.latency;
    if (p.jitter) at += static_cast<Time>(p.rng() % (p.jitter + 1));
    at = std::max(at, p.last_arrival);
    p.last_arrival = at;
    k_.at(at, [this, &p, out] { arrive(p, out); });
    if (ser > 0) {
      p.busy_until = k_.now() + ser;
      if (!p.q.empty()) try_send(p);  // schedules the next attempt at busy_until
      return;
    }
  }
}

void Fabric::arrive(Pipe& p, const Msg& m) {
  if (p.link_credits != 0) {
    // The credit travels back over the link.
    const auto c = static_cast<unsigned>(m.chan());
    k_.after(p.latency, [this, &p, c] {
      ++p.link_avail[c];
      try_send(p);
    });
  }
  const NodeId dst_node = agent_node_[m.dst];
  if (dst_node != p.to) {
    enqueue(pipe(p.to, next_hop(p.to, dst_node)), m);
    return;
  }
  if (p.from == p.to || nodes_[p.to].link_port == 0) {
    deliver_now(m);
  } else {
    k_.after(nodes_[p.to].link_port, [this, m] { deliver_now(m); });
  }
}

void Fabric::deliver_now(const Msg& m) {
  for (auto& fn : deliver_obs_) fn(m, k_.now());
  agents_[m.dst]->deliver(m);
}

void Fabric::set_rx_credits(AgentId receiver, Chan c, unsigned n) {
  if (receiver >= proto::kMaxAgents) {
    throw std::invalid_argument("Fabric::set_rx_credits: bad agent id " + std::to_string(receiver));
  }
  if (n == 0) {
    throw std::invalid_argument("Fabric::set_rx_credits: agent " + std::to_string(receiver) +
                                " channel " + proto::chan_name(c) + ": a buffer of 0 messages");
  }
  RxCredits& rx = rx_[receiver][static_cast<unsigned>(c)];
  const unsigned outstanding = static_cast<unsigned>(rx.consumed_via.size());
  if (n < outstanding) {
    throw std::invalid_argument("Fabric::set_rx_credits: agent " + std::to_string(receiver) +
                                " channel " + proto::chan_name(c) + ": " + std::to_string(n) +
                                " credits but " + std::to_string(outstanding) + " in use");
  }
  rx.limited = true;
  rx.avail = n - outstanding;
}

void Fabric::credit_return(AgentId receiver, Chan c) {
  if (receiver >= proto::kMaxAgents) {
    throw std::invalid_argument("Fabric::credit_return: bad agent id " + std::to_string(receiver));
  }
  RxCredits& rx = rx_[receiver][static_cast<unsigned>(c)];
  if (!rx.limited) {
    throw std::logic_error("Fabric::credit_return: agent " + std::to_string(receiver) +
                           " declared no buffer on channel " + proto::chan_name(c));
  }
  if (rx.consumed_via.empty()) {
    throw std::logic_error("Fabric::credit_return: agent " + std::to_string(receiver) +
                           " returned more " + proto::chan_name(c) + " credits than it received");
  }
  Pipe* via = rx.consumed_via.front();
  rx.consumed_via.pop_front();
  const NodeId node = via->to;
  k_.after(via->latency, [this, &rx, node] {
    ++rx.avail;
    for (auto& [key, p] : pipes_) {
      if (key.second == node && !p->q.empty()) try_send(*p);
    }
  });
}

void Fabric::map_home(proto::Addr base, proto::Addr size, AgentId home) {
  if (size == 0) throw std::invalid_argument("Fabric::map_home: empty range at " + hex(base));
  for (const auto& r : homes_) {
    if (base < r.base + r.size && r.base < base + size) {
      throw std::invalid_argument("Fabric::map_home: range [" + hex(base) + ", " +
                                  hex(base + size) + ") for agent " + std::to_string(home) +
                                  " overlaps [" + hex(r.base) + ", " + hex(r.base + r.size) +
                                  ") of agent " + std::to_string(r.home));
    }
  }
  homes_.push_back(HomeRange{base, size, home});
}

AgentId Fabric::home_of(proto::Addr addr) const {
  for (const auto& r : homes_) {
    if (addr >= r.base && addr - r.base < r.size) return r.home;
  }
  throw std::out_of_range("Fabric::home_of: no home agent is mapped for address " + hex(addr));
}

void trace_messages(Fabric& f, std::FILE* out, const proto::Addr* line) {
  const bool filter = line != nullptr;
  const proto::Addr want = filter ? *line : 0;
  f.on_deliver([out, filter, want](const Msg& m, Time t) {
    if (filter && m.addr != want) return;
    std::fprintf(out, "%12.3f ns  %s\n", to_ns(t), m.str().c_str());
  });
}

}  // namespace cni::sim
