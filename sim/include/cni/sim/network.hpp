// SPDX-License-Identifier: Apache-2.0
// The network model (docs/network.md): carries frames between the MAC ports of N nodes over
// point-to-point links, a store-and-forward switch, or a per-node loopback. Every link
// direction has a latency, a serializing bandwidth and FIFO order; every buffer is finite and
// a frame moves on only when the next buffer has room (credits), so back-pressure reaches the
// sending port and nothing is dropped for lack of space. Two channels share every link and
// have their own buffers and credits: requests, and replies (a frame whose type has bit 7 set),
// so replies move while requests are held back. Seeded loss and bit corruption can be
// injected per link crossing; a receiver sees a corrupted frame fail its FCS check.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cni/sim/frame.hpp"
#include "cni/sim/kernel.hpp"

namespace cni::sim {

class Profile;

enum class NetTopology {
  Switch,        // every node has a link to and from one switch (star)
  PointToPoint,  // a link per ordered pair of nodes (full mesh)
  Loopback,      // every node's frames come back to it (a MAC in near-end loopback)
};
const char* topology_name(NetTopology t);

struct NetParams {
  NetTopology topology = NetTopology::Switch;  // net.topology = switch | p2p | loopback
  unsigned nodes = 2;                          // net.nodes
  Time latency = 0;                 // net.latency_ns: per link, end of serialization to arrival
  double bandwidth_gbit_s = 0.0;    // net.bandwidth_gbit_s: per link direction; 0 = unlimited
  unsigned gap_bytes = 0;           // net.gap_bytes: wire bytes per frame besides the frame itself
                                    // (Ethernet preamble + inter-frame gap: 20)
  unsigned buffer_frames = 64;      // net.buffer_frames: capacity of every buffer, per channel
  unsigned max_frame_bytes = 9600;  // net.max_frame_bytes: header + payload + FCS
  double loss_rate = 0.0;           // net.loss_rate: probability a link crossing loses a frame
  double corrupt_rate = 0.0;        // net.corrupt_rate: probability it flips one bit of it
  double reorder_rate = 0.0;        // net.reorder_rate: probability it holds a frame back, so
                                    // that the frames sent after it on the link overtake it
  Time reorder_delay = 1'000'000;   // net.reorder_ns: how long a held frame is held (1 us)
  uint64_t seed = 1;                // sim.seed: seeds every link's loss/corruption/reorder stream

  // Reads the net.* keys and sim.seed; a key the profile lacks keeps the default above.
  static NetParams from_profile(const Profile& p);
  // Throws std::invalid_argument naming the bad parameter and its value.
  void validate() const;
  // A frame of `bytes` on one link: its serialization (gap included; 0 at unlimited bandwidth).
  Time serialization(size_t bytes) const;
  // Links a frame crosses from one node to another (the switch's two, otherwise one), and its
  // one-way transit on an idle network (store-and-forward: each link's serialization and latency).
  unsigned hops() const { return topology == NetTopology::Switch ? 2 : 1; }
  Time one_way(size_t bytes) const { return hops() * (serialization(bytes) + latency); }
};

// Counters of one link direction.
struct NetLinkStats {
  uint64_t frames = 0;     // transmitted onto the link
  uint64_t bytes = 0;      // frame bytes transmitted (gap bytes excluded)
  uint64_t delivered = 0;  // arrived at the far end (corrupted ones included)
  uint64_t dropped = 0;    // lost on the link (loss injection)
  uint64_t corrupted = 0;  // arrived with a bit flipped on this link
  uint64_t held = 0;       // held back on this link (reordering injection)
  Time busy = 0;           // serialization time
  Time blocked = 0;        // time no frame could go, each channel's head (if any) finding its
                           // next buffer full on its channel
};

// Counters of one node's port.
struct NetPortStats {
  uint64_t tx_frames = 0, tx_bytes = 0;  // accepted by try_send
  uint64_t rx_frames = 0, rx_bytes = 0;  // handed to the receive handler, bad ones included
  uint64_t rx_bad_fcs = 0;               // received with a failing FCS (delivered with tuser)
  uint64_t lost = 0;                     // frames this port sent that a link dropped
  Time blocked = 0;                      // from a refused try_send to the on_space call
};

class Network {
 public:
  // The switch, as a link end in link_stats().
  static constexpr unsigned kSwitch = ~0u;
  // The channels (docs/network.md, "Channels"): 0 requests, 1 replies (the type's bit 7).
  static constexpr unsigned kChannels = 2;
  static unsigned channel_of(const Frame& f);
  using RxHandler = std::function<void(const Frame&)>;

  // Builds the topology; throws std::invalid_argument on bad parameters (NetParams::validate).
  Network(Kernel& k, const NetParams& p);
  ~Network();
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  // --- a node's port ---
  // True when try_send of a frame of `channel` from `src` to `dst` would be accepted now.
  bool can_send(unsigned src, unsigned dst, unsigned channel = 0) const;
  // Whether the topology carries a frame from `src` to `dst` at all: both nodes exist and, but
  // for the loopback topology, differ (what try_send otherwise refuses with an exception).
  bool routable(unsigned src, unsigned dst) const;
  // Queue `f` at port f.src, towards f.dst (ignored by the loopback topology). Returns false,
  // taking nothing, when the port's transmit buffer towards f.dst is full for the frame's
  // channel; on_space is then
  // called once when a slot of that port frees. Throws std::invalid_argument naming the bad
  // value for an unknown node, a frame to its own sender (except in loopback), or a frame size
  // outside [kMinFrameBytes, max_frame_bytes].
  bool try_send(const Frame& f);
  void on_space(unsigned node, std::function<void()> fn);
  // Frames for `node` go to `fn` (tuser set when the FCS check failed), in arrival order,
  // while the port is ready; a port with no handler discards what it receives.
  void on_receive(unsigned node, RxHandler fn);
  // The port's tready: while false, arriving frames wait in its receive buffer (which, when
  // full, holds back the link into it). Setting it true delivers what waits, at once. Without a
  // channel: both channels; with one, that channel only (a frame of a channel that is ready is
  // delivered past the frames of one that is not).
  void set_rx_ready(unsigned node, bool ready);
  void set_rx_ready(unsigned node, unsigned channel, bool ready);
  // Observers of every frame handed to a port (tracing, checkers), before its handler.
  using Observer = std::function<void(unsigned node, const Frame&, Time)>;
  void on_deliver(Observer fn) { observers_.push_back(std::move(fn)); }
  // Observers of every frame a port's try_send accepts (its sender's node, the frame, the time):
  // the moment the frame has left its MAC's transmit stream.
  void on_transmit(Observer fn) { tx_observers_.push_back(std::move(fn)); }
  // A rule that loses chosen frames (a test's precise loss): at every link crossing, a frame it
  // returns true for is lost there, counted as loss injection is. The seeded streams are drawn
  // as without it. An empty rule (the default) loses nothing.
  using DropRule = std::function<bool(const Frame&)>;
  void set_drop_rule(DropRule fn) { drop_rule_ = std::move(fn); }

  // --- counters ---
  // The link from `from` to `to` (node ids or kSwitch); throws std::out_of_range naming both.
  const NetLinkStats& link_stats(unsigned from, unsigned to) const;
  const NetPortStats& port_stats(unsigned node) const;
  // Frames accepted and neither delivered nor dropped yet.
  uint64_t in_flight() const { return in_flight_; }
  unsigned num_nodes() const { return params_.nodes; }
  const NetParams& params() const { return params_; }

 private:
  struct Link;
  struct Item {
    Frame f;
    Link* via = nullptr;  // the link whose credit this slot holds; null: the sending port's
    uint64_t seq = 0;     // when it entered the buffer: the oldest head of the channels goes first
  };
  // A finite buffer, one queue per channel; `credits` is the room its senders may still claim.
  struct Buffer {
    std::deque<Item> q[kChannels];
    unsigned credits[kChannels] = {0, 0};
    Link* owner = nullptr;  // the link that transmits from it; null: a port's receive buffer
    unsigned port = 0;      // the port it belongs to when owner is null
    std::deque<Link*> waiters[kChannels];  // links whose head frame of the channel waits here
    bool empty() const { return q[0].empty() && q[1].empty(); }
    // The channel of the oldest head among those `ok` accepts, or kChannels when none.
    template <class Ok>
    unsigned oldest(Ok ok) const;
  };
  struct Port {
    Buffer rx;
    bool ready[kChannels] = {true, true};
    bool draining = false;
    bool want_space = false;
    Time blocked_since = 0;
    RxHandler on_rx;
    std::function<void()> on_space;
    NetPortStats stats;
  };

  void check_node(unsigned n, const char* what, const char* role) const;
  void check_channel(unsigned ch, const char* what) const;
  Link& first_hop(unsigned src, unsigned dst) const;
  Buffer& next_buffer(const Link& l, const Frame& f);
  Link& link_between(unsigned from, unsigned to) const;
  void add_link(unsigned from, unsigned to);
  void pump(Link& l);
  void arrive(Link& l, uint64_t id);
  void credit_back(Buffer& b, Link* via, unsigned ch);
  void port_space(unsigned node);
  void drain_rx(unsigned node);

  Kernel& k_;
  NetParams params_;
  std::vector<Port> ports_;
  std::vector<std::unique_ptr<Link>> links_;
  std::map<std::pair<unsigned, unsigned>, Link*> by_ends_;
  std::vector<Observer> observers_, tx_observers_;
  DropRule drop_rule_;
  uint64_t in_flight_ = 0;
  uint64_t next_seq_ = 0;
};

// One node's port on a Network: the end its MAC drives. A port has one owner at a time -- C++
// code (tests) now, a device's network adapter (its AXI4-Stream MAC port, frames cut into
// beats with to_beats/from_beats) later -- which holds a reference to it and installs the
// handlers; a later on_receive or on_space replaces the earlier handler.
class NetPort {
 public:
  NetPort(Network& net, unsigned node);
  NetPort(const NetPort&) = delete;
  NetPort& operator=(const NetPort&) = delete;

  unsigned node() const { return node_; }
  // Network::can_send and try_send from this port; try_send throws std::invalid_argument
  // naming both nodes when f.src is not this port's node.
  bool can_send(unsigned dst, unsigned channel = 0) const {
    return net_.can_send(node_, dst, channel);
  }
  bool try_send(const Frame& f);
  void on_space(std::function<void()> fn) { net_.on_space(node_, std::move(fn)); }
  void on_receive(Network::RxHandler fn) { net_.on_receive(node_, std::move(fn)); }
  void set_rx_ready(bool ready) { net_.set_rx_ready(node_, ready); }
  void set_rx_ready(unsigned channel, bool ready) { net_.set_rx_ready(node_, channel, ready); }
  const NetPortStats& stats() const { return net_.port_stats(node_); }
  Network& network() { return net_; }

 private:
  Network& net_;
  unsigned node_;
};

}  // namespace cni::sim
