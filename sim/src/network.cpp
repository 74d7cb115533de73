// SPDX-License-Identifier: Apache-2.0
// Frames move buffer to buffer: a port's transmit buffer is the queue of its first link; a
// link transmits its head frame when it is idle and the frame's next buffer (the switch's
// output queue, or the receiving port's buffer) has a credit; the credit comes back one link
// latency after the frame leaves that buffer. A frame that arrives is in the next buffer.
#include "cni/sim/network.hpp"

#include <cmath>
#include <map>
#include <stdexcept>

#include "cni/sim/profile.hpp"
#include "params.hpp"

namespace cni::sim {

namespace {

// splitmix64: a small, fully specified generator, one per link.
struct Rng {
  uint64_t s;
  uint64_t next() {
    uint64_t z = (s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  // True with probability p.
  bool chance(double p) { return p > 0.0 && static_cast<double>(next() >> 11) * 0x1.0p-53 < p; }
};

std::string end_name(unsigned e) {
  return e == Network::kSwitch ? "the switch" : "node " + std::to_string(e);
}

}  // namespace

const char* topology_name(NetTopology t) {
  switch (t) {
    case NetTopology::Switch:
      return "switch";
    case NetTopology::PointToPoint:
      return "p2p";
    case NetTopology::Loopback:
      return "loopback";
  }
  return "?";
}

NetParams NetParams::from_profile(const Profile& p) {
  using namespace detail;
  NetParams n;
  if (p.has("net.topology")) {
    const std::string t = p.get_string("net.topology");
    bool found = false;
    for (NetTopology c : {NetTopology::Switch, NetTopology::PointToPoint, NetTopology::Loopback}) {
      if (t == topology_name(c)) {
        n.topology = c;
        found = true;
      }
    }
    if (!found) {
      throw ProfileError("profile " + p.name() + ": net.topology = '" + t +
                         "' is not switch, p2p or loopback");
    }
  }
  if (p.has("net.nodes")) n.nodes = uint_param(p, "net.nodes", 1, 256);
  if (p.has("net.latency_ns")) n.latency = ns_param(p, "net.latency_ns");
  if (p.has("net.bandwidth_gbit_s")) n.bandwidth_gbit_s = p.get_double("net.bandwidth_gbit_s");
  if (p.has("net.gap_bytes")) n.gap_bytes = uint_param(p, "net.gap_bytes", 0, 1u << 16);
  if (p.has("net.buffer_frames")) n.buffer_frames = uint_param(p, "net.buffer_frames", 1, 1u << 20);
  if (p.has("net.max_frame_bytes")) {
    n.max_frame_bytes =
        uint_param(p, "net.max_frame_bytes", kMinFrameBytes, kMinFrameBytes + 0xFFFF);
  }
  if (p.has("net.loss_rate")) n.loss_rate = p.get_double("net.loss_rate");
  if (p.has("net.corrupt_rate")) n.corrupt_rate = p.get_double("net.corrupt_rate");
  if (p.has("net.reorder_rate")) n.reorder_rate = p.get_double("net.reorder_rate");
  if (p.has("net.reorder_ns")) n.reorder_delay = ns_param(p, "net.reorder_ns");
  if (p.has("sim.seed")) n.seed = static_cast<uint64_t>(p.get_int("sim.seed"));
  n.validate();
  return n;
}

Time NetParams::serialization(size_t bytes) const {
  if (bandwidth_gbit_s <= 0.0) return 0;
  return static_cast<Time>(
      std::llround(static_cast<double>(bytes + gap_bytes) * 8000.0 / bandwidth_gbit_s));
}

void NetParams::validate() const {
  auto bad = [](const std::string& what) {
    throw std::invalid_argument("network parameters: " + what);
  };
  if (nodes == 0 || nodes > 256)
    bad("net.nodes = " + std::to_string(nodes) + " is outside [1, 256]");
  if (!(bandwidth_gbit_s >= 0.0) || !std::isfinite(bandwidth_gbit_s)) {
    bad("net.bandwidth_gbit_s = " + std::to_string(bandwidth_gbit_s) +
        " must be >= 0 (0: unlimited)");
  }
  if (buffer_frames == 0) bad("net.buffer_frames = 0: every buffer needs room for a frame");
  if (max_frame_bytes < kMinFrameBytes || max_frame_bytes > kMinFrameBytes + 0xFFFF) {
    bad("net.max_frame_bytes = " + std::to_string(max_frame_bytes) + " is outside [" +
        std::to_string(kMinFrameBytes) + ", " + std::to_string(kMinFrameBytes + 0xFFFF) + "]");
  }
  for (auto [key, v] : {std::pair{"net.loss_rate", loss_rate},
                        {"net.corrupt_rate", corrupt_rate},
                        {"net.reorder_rate", reorder_rate}}) {
    if (!(v >= 0.0 && v <= 1.0))
      bad(std::string(key) + " = " + std::to_string(v) + " is outside [0, 1]");
  }
}

// One direction of a link. Its queue is the buffer it transmits from; `wire` holds the frames
// on the link, each under the number its arrival event names.
struct Network::Link {
  struct Flight {
    Frame f;
    Buffer* target;
    unsigned ch;  // its channel, whose credit it holds (a flipped type bit does not move it)
    bool lost;
    bool corrupted;
  };
  unsigned from = 0, to = 0;
  Buffer queue;
  std::map<uint64_t, Flight> wire;
  uint64_t flights = 0;  // frames put on the link so far (the next one's number)
  Time busy_until = 0;
  bool wake_scheduled = false;
  bool blocked = false;                      // no head frame can go (for the stats)
  bool waiting[kChannels] = {false, false};  // among the waiters of its head's next buffer
  Time blocked_since = 0;
  Rng rng{0};
  NetLinkStats stats;
};

Network::Network(Kernel& k, const NetParams& p) : k_(k), params_(p) {
  params_.validate();
  const unsigned n = params_.nodes;
  ports_.resize(n);
  for (unsigned i = 0; i < n; ++i) {
    for (unsigned& c : ports_[i].rx.credits) c = params_.buffer_frames;
    ports_[i].rx.port = i;
  }
  for (unsigned a = 0; a < n; ++a) {
    switch (params_.topology) {
      case NetTopology::Switch:
        add_link(a, kSwitch);
        add_link(kSwitch, a);
        break;
      case NetTopology::PointToPoint:
        for (unsigned b = 0; b < n; ++b) {
          if (b != a) add_link(a, b);
        }
        break;
      case NetTopology::Loopback:
        add_link(a, a);
        break;
    }
  }
}

Network::~Network() = default;

void Network::add_link(unsigned from, unsigned to) {
  auto l = std::make_unique<Link>();
  l->from = from;
  l->to = to;
  for (unsigned& c : l->queue.credits) c = params_.buffer_frames;
  l->queue.owner = l.get();
  l->rng.s = params_.seed * 0x9E3779B97F4A7C15ull + links_.size() + 1;
  by_ends_[{from, to}] = l.get();
  links_.push_back(std::move(l));
}

void Network::check_node(unsigned n, const char* what, const char* role) const {
  if (n >= params_.nodes) {
    throw std::invalid_argument(std::string("Network::") + what + ": " + role + " node " +
                                std::to_string(n) + " does not exist (" +
                                std::to_string(params_.nodes) + " nodes, " +
                                topology_name(params_.topology) + ")");
  }
}

void Network::check_channel(unsigned ch, const char* what) const {
  if (ch >= kChannels) {
    throw std::invalid_argument(std::string("Network::") + what + ": no channel " +
                                std::to_string(ch) + " (" + std::to_string(kChannels) +
                                " channels)");
  }
}

Network::Link& Network::link_between(unsigned from, unsigned to) const {
  auto it = by_ends_.find({from, to});
  if (it == by_ends_.end()) {
    throw std::out_of_range("Network: no link from " + end_name(from) + " to " + end_name(to) +
                            " (" + topology_name(params_.topology) + ")");
  }
  return *it->second;
}

Network::Link& Network::first_hop(unsigned src, unsigned dst) const {
  switch (params_.topology) {
    case NetTopology::Switch:
      return link_between(src, kSwitch);
    case NetTopology::PointToPoint:
      return link_between(src, dst);
    case NetTopology::Loopback:
      break;
  }
  return link_between(src, src);
}

Network::Buffer& Network::next_buffer(const Link& l, const Frame& f) {
  if (l.to == kSwitch) return link_between(kSwitch, f.dst).queue;
  return ports_[l.to].rx;
}

bool Network::routable(unsigned src, unsigned dst) const {
  if (src >= params_.nodes) return false;
  if (params_.topology == NetTopology::Loopback) return true;
  return dst < params_.nodes && dst != src;
}

unsigned Network::channel_of(const Frame& f) {
  return f.bytes.size() > 6 && (f.bytes[6] & 0x80) ? 1 : 0;
}

template <class Ok>
unsigned Network::Buffer::oldest(Ok ok) const {
  unsigned pick = kChannels;
  for (unsigned ch = 0; ch < kChannels; ++ch) {
    if (!q[ch].empty() && ok(ch) && (pick == kChannels || q[ch].front().seq < q[pick].front().seq))
      pick = ch;
  }
  return pick;
}

bool Network::can_send(unsigned src, unsigned dst, unsigned channel) const {
  check_node(src, "can_send", "source");
  if (params_.topology != NetTopology::Loopback) check_node(dst, "can_send", "destination");
  check_channel(channel, "can_send");
  return first_hop(src, dst).queue.credits[channel] > 0;
}

bool Network::try_send(const Frame& f) {
  check_node(f.src, "try_send", "source");
  if (params_.topology != NetTopology::Loopback) {
    check_node(f.dst, "try_send", "destination");
    if (f.dst == f.src) {
      throw std::invalid_argument("Network::try_send: node " + std::to_string(f.src) +
                                  " sends a frame to itself (only the loopback topology "
                                  "returns frames to their sender)");
    }
  }
  const size_t size = f.bytes.size();
  if (size == 0) throw std::invalid_argument("Network::try_send: an empty frame (0 bytes)");
  if (size < kMinFrameBytes || size > params_.max_frame_bytes) {
    throw std::invalid_argument("Network::try_send: a frame of " + std::to_string(size) +
                                " bytes is outside [" + std::to_string(kMinFrameBytes) + ", " +
                                std::to_string(params_.max_frame_bytes) +
                                "] (header + FCS, net.max_frame_bytes)");
  }
  Link& l = first_hop(f.src, f.dst);
  Port& p = ports_[f.src];
  const unsigned ch = channel_of(f);
  if (l.queue.credits[ch] == 0) {
    if (!p.want_space) {
      p.want_space = true;
      p.blocked_since = k_.now();
    }
    return false;
  }
  --l.queue.credits[ch];
  l.queue.q[ch].push_back(Item{f, nullptr, next_seq_++});
  p.stats.tx_frames++;
  p.stats.tx_bytes += size;
  ++in_flight_;
  for (const auto& o : tx_observers_) o(f.src, f, k_.now());
  pump(l);
  return true;
}

void Network::on_space(unsigned node, std::function<void()> fn) {
  check_node(node, "on_space", "port");
  ports_[node].on_space = std::move(fn);
}

void Network::on_receive(unsigned node, RxHandler fn) {
  check_node(node, "on_receive", "port");
  ports_[node].on_rx = std::move(fn);
}

void Network::set_rx_ready(unsigned node, bool ready) {
  check_node(node, "set_rx_ready", "port");
  for (bool& r : ports_[node].ready) r = ready;
  if (ready) drain_rx(node);
}

void Network::set_rx_ready(unsigned node, unsigned channel, bool ready) {
  check_node(node, "set_rx_ready", "port");
  check_channel(channel, "set_rx_ready");
  ports_[node].ready[channel] = ready;
  if (ready) drain_rx(node);
}

const NetLinkStats& Network::link_stats(unsigned from, unsigned to) const {
  return link_between(from, to).stats;
}

const NetPortStats& Network::port_stats(unsigned node) const {
  if (node >= params_.nodes) {
    throw std::out_of_range("Network::port_stats: no node " + std::to_string(node) + " (" +
                            std::to_string(params_.nodes) + " nodes)");
  }
  return ports_[node].stats;
}

void Network::pump(Link& l) {
  while (!l.wake_scheduled && !l.queue.empty()) {
    if (k_.now() < l.busy_until) {
      l.wake_scheduled = true;
      k_.at(l.busy_until, [this, &l] {
        l.wake_scheduled = false;
        pump(l);
      });
      return;
    }
    // the oldest head whose next buffer has a credit on its channel; a head without one waits
    // among that buffer's waiters of its channel
    const unsigned ch = l.queue.oldest([&](unsigned c) {
      Buffer& t = next_buffer(l, l.queue.q[c].front().f);
      if (t.credits[c] > 0) return true;
      if (!l.waiting[c]) {
        l.waiting[c] = true;
        t.waiters[c].push_back(&l);
      }
      return false;
    });
    if (ch == kChannels) {
      if (!l.blocked) {
        l.blocked = true;
        l.blocked_since = k_.now();
      }
      return;
    }
    Buffer& target = next_buffer(l, l.queue.q[ch].front().f);
    if (l.blocked) {
      l.blocked = false;
      l.stats.blocked += k_.now() - l.blocked_since;
    }
    --target.credits[ch];
    Item it = std::move(l.queue.q[ch].front());
    l.queue.q[ch].pop_front();
    credit_back(l.queue, it.via, ch);
    if (it.via == nullptr) port_space(it.f.src);

    const size_t size = it.f.bytes.size();
    const Time ser = params_.serialization(size);
    l.busy_until = k_.now() + ser;
    l.stats.frames++;
    l.stats.bytes += size;
    l.stats.busy += ser;
    const bool lost = l.rng.chance(params_.loss_rate) || (drop_rule_ && drop_rule_(it.f));
    const bool corrupted = !lost && l.rng.chance(params_.corrupt_rate);
    if (corrupted) {
      const uint64_t bit = l.rng.next() % (size * 8);
      it.f.bytes[bit / 8] ^= static_cast<uint8_t>(1u << (bit % 8));
    }
    // (no draw when reordering is off: the loss and corruption streams stay as they were)
    const bool held = params_.reorder_rate > 0.0 && l.rng.chance(params_.reorder_rate);
    if (held) l.stats.held++;
    const uint64_t id = l.flights++;
    l.wire.emplace(id, Link::Flight{std::move(it.f), &target, ch, lost, corrupted});
    k_.at(l.busy_until + params_.latency + (held ? params_.reorder_delay : 0),
          [this, &l, id] { arrive(l, id); });
  }
}

void Network::arrive(Link& l, uint64_t id) {
  auto at = l.wire.find(id);
  Link::Flight fl = std::move(at->second);
  l.wire.erase(at);
  if (fl.lost) {
    l.stats.dropped++;
    ports_[fl.f.src].stats.lost++;
    --in_flight_;
    credit_back(*fl.target, &l, fl.ch);
    return;
  }
  l.stats.delivered++;
  if (fl.corrupted) l.stats.corrupted++;
  Buffer& b = *fl.target;
  b.q[fl.ch].push_back(Item{std::move(fl.f), &l, next_seq_++});
  if (b.owner != nullptr) {
    pump(*b.owner);
  } else {
    drain_rx(b.port);
  }
}

// A slot of `b` on channel `ch` freed: the credit is back with the sender after `via`'s
// latency (at once for a port's own transmit buffer); then the links waiting for it try again,
// oldest first.
void Network::credit_back(Buffer& b, Link* via, unsigned ch) {
  auto give = [this, &b, ch] {
    ++b.credits[ch];
    while (b.credits[ch] > 0 && !b.waiters[ch].empty()) {
      Link* w = b.waiters[ch].front();
      b.waiters[ch].pop_front();
      w->waiting[ch] = false;
      pump(*w);
    }
  };
  if (via == nullptr) {
    give();
  } else {
    k_.after(params_.latency, give);
  }
}

// A slot of `node`'s transmit buffer freed: a port refused earlier hears of it (in an event of
// its own, so its handler may send at once).
void Network::port_space(unsigned node) {
  Port& p = ports_[node];
  if (!p.want_space) return;
  p.want_space = false;
  p.stats.blocked += k_.now() - p.blocked_since;
  if (p.on_space)
    k_.after(0, [&p] {
      if (p.on_space) p.on_space();
    });
}

void Network::drain_rx(unsigned node) {
  Port& p = ports_[node];
  if (p.draining) return;
  p.draining = true;
  for (;;) {
    const unsigned ch = p.rx.oldest([&p](unsigned c) { return p.ready[c]; });
    if (ch == kChannels) break;
    Item it = std::move(p.rx.q[ch].front());
    p.rx.q[ch].pop_front();
    credit_back(p.rx, it.via, ch);
    --in_flight_;
    const bool bad = !fcs_ok(it.f.bytes);
    it.f.tuser = it.f.tuser || bad;
    p.stats.rx_frames++;
    p.stats.rx_bytes += it.f.bytes.size();
    if (bad) p.stats.rx_bad_fcs++;
    for (const auto& o : observers_) o(node, it.f, k_.now());
    if (p.on_rx) p.on_rx(it.f);
  }
  p.draining = false;
}

NetPort::NetPort(Network& net, unsigned node) : net_(net), node_(node) {
  if (node >= net.num_nodes()) {
    throw std::out_of_range("NetPort: no node " + std::to_string(node) + " (" +
                            std::to_string(net.num_nodes()) + " nodes)");
  }
}

bool NetPort::try_send(const Frame& f) {
  if (f.src != node_) {
    throw std::invalid_argument("NetPort::try_send: the port of node " + std::to_string(node_) +
                                " sends a frame from node " + std::to_string(f.src));
  }
  return net_.try_send(f);
}

}  // namespace cni::sim
