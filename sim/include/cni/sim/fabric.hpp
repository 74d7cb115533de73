// SPDX-License-Identifier: Apache-2.0
// The coherence fabric: routes proto::Msg from msg.src to msg.dst between agents attached to
// nodes (host sockets, the device). Agents on one node talk over an on-chip path (fixed
// latency); nodes are joined by coherent links with, per direction, a one-way latency, a
// serializing bandwidth and per-channel link credits. A receiver may declare a finite buffer
// per channel (set_rx_credits): messages to it then wait at the sender side for a credit,
// which the receiver gives back with credit_return() when it dequeues. Nothing is dropped.
//
// Ordering: messages between one (src, dst) pair arrive in the order sent, except that a
// message waiting for a receiver credit may be overtaken by messages on other channels -- but
// never an answer or a grant (RSP, DAT) by a snoop (FWD): caching agents rely on a home's grant
// arriving before a later snoop to the same agent (protocol rule 8; the protocol has no
// completion acknowledgement).
#pragma once

#include <array>
#include <cstdint>
#include <cstdio>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cni/proto.hpp"
#include "cni/sim/kernel.hpp"

namespace cni::sim {

using NodeId = unsigned;

// Anything that sends and receives coherence messages: a cache, a home, the device.
class Agent {
 public:
  explicit Agent(proto::AgentId id);
  virtual ~Agent() = default;
  Agent(const Agent&) = delete;
  Agent& operator=(const Agent&) = delete;

  // Called by the fabric when a message addressed to this agent arrives.
  virtual void deliver(const proto::Msg& m) = 0;
  proto::AgentId id() const { return id_; }

 private:
  proto::AgentId id_;
};

// One direction of a link between two nodes.
struct LinkParams {
  Time one_way = 0;              // latency from the end of serialization to arrival
  double bandwidth_gib_s = 0.0;  // serialization rate; 0 = unlimited
  unsigned credits = 0;          // link-layer messages in flight per channel; 0 = unlimited
  Time jitter = 0;               // extra latency drawn uniformly from [0, jitter] per message;
                                 // a link still delivers in order
};

struct ChannelCounters {
  uint64_t msgs = 0;
  uint64_t bytes = 0;
};

// Traffic counters of one link direction (or of a node's on-chip path).
struct LinkStats {
  std::array<ChannelCounters, proto::kNumChannels> chan{};
  Time busy = 0;  // total serialization time
  uint64_t total_msgs() const;
  uint64_t total_bytes() const;
};

// What carries a path's messages in place of its latency and bandwidth: a shared bus
// (sim::BusCarrier, docs/network.md "The coherence fabric on a bus"). carry() takes a message
// the fabric transmits on the path and calls `arrived` when it reaches the far end; a carrier
// keeps the messages of each source agent in order (so pairs stay in order and a grant is seen
// before a later snoop, protocol rule 8).
class Carrier {
 public:
  virtual ~Carrier() = default;
  virtual void carry(const proto::Msg& m, std::function<void()> arrived) = 0;
};

class Fabric {
 public:
  using Observer = std::function<void(const proto::Msg&, Time)>;

  explicit Fabric(Kernel& k, unsigned line_bytes = 128);
  ~Fabric();
  Fabric(const Fabric&) = delete;
  Fabric& operator=(const Fabric&) = delete;

  // A node: agents on it reach each other after `onchip`; a message leaving or entering the
  // node over a link also spends `link_port` between the agent and the link controller.
  NodeId add_node(std::string name, Time onchip, Time link_port = 0);
  // Join two nodes with a link (the same parameters in both directions).
  void connect(NodeId a, NodeId b, const LinkParams& p);
  void attach(Agent& agent, NodeId node);
  // The path from `a` to `b` and back (a == b: node a's on-chip path) is carried by `c`, which
  // must outlive the fabric; the path's latency, bandwidth, link credits and jitter no longer
  // apply (receiver credits still do). Several paths may share one carrier.
  void set_carrier(NodeId a, NodeId b, Carrier& c);

  // Send a message from m.src to m.dst (both attached). Never drops; may queue.
  void send(const proto::Msg& m);

  // Declare that `receiver` buffers at most `n` messages of channel `c`; it must call
  // credit_return(receiver, c) each time it dequeues one.
  void set_rx_credits(proto::AgentId receiver, proto::Chan c, unsigned n);
  void credit_return(proto::AgentId receiver, proto::Chan c);

  // Address map: which agent is home of an address.
  void map_home(proto::Addr base, proto::Addr size, proto::AgentId home);
  // Seed of the links' random jitter (each link direction draws from its own stream).
  void set_seed(uint64_t seed) { seed_ = seed; }
  // Throws std::out_of_range naming the address when no home covers it.
  proto::AgentId home_of(proto::Addr addr) const;

  void on_send(Observer fn) { send_obs_.push_back(std::move(fn)); }
  void on_deliver(Observer fn) { deliver_obs_.push_back(std::move(fn)); }

  // Counters of the path from node `from` to node `to` (from == to: on-chip traffic).
  // Throws std::out_of_range if the nodes are not directly joined.
  const LinkStats& stats(NodeId from, NodeId to) const;
  NodeId node_of(proto::AgentId a) const;
  bool attached(proto::AgentId a) const;
  unsigned num_nodes() const { return static_cast<unsigned>(nodes_.size()); }
  const std::string& node_name(NodeId n) const;
  unsigned line_bytes() const { return line_bytes_; }
  Kernel& kernel() { return k_; }

 private:
  struct Pipe;
  struct Node {
    std::string name;
    Time onchip = 0;
    Time link_port = 0;
  };
  struct RxCredits {
    bool limited = false;
    unsigned avail = 0;
    std::deque<Pipe*> consumed_via;  // the pipe each outstanding credit was taken on
  };

  Pipe& pipe(NodeId from, NodeId to);
  NodeId next_hop(NodeId from, NodeId to);
  void enqueue(Pipe& p, const proto::Msg& m);
  void try_send(Pipe& p);
  void arrive(Pipe& p, const proto::Msg& m);
  void deliver_now(const proto::Msg& m);
  void check_node(NodeId n, const char* what) const;

  Kernel& k_;
  unsigned line_bytes_;
  uint64_t seed_ = 1;
  std::vector<Node> nodes_;
  std::map<std::pair<NodeId, NodeId>, std::unique_ptr<Pipe>> pipes_;
  std::vector<std::vector<int>> next_hop_;  // -1: unreachable; rebuilt after connect()
  std::array<Agent*, proto::kMaxAgents> agents_{};
  std::array<NodeId, proto::kMaxAgents> agent_node_{};
  std::array<std::array<RxCredits, proto::kNumChannels>, proto::kMaxAgents> rx_{};
  struct HomeRange {
    proto::Addr base, size;
    proto::AgentId home;
  };
  std::vector<HomeRange> homes_;
  std::vector<Observer> send_obs_, deliver_obs_;
};

// Print every message the fabric delivers to `out`, one line each ("<time ns> <msg>"); if
// `line` is given, only messages for that line address.
void trace_messages(Fabric& f, std::FILE* out, const proto::Addr* line = nullptr);

}  // namespace cni::sim
