// SPDX-License-Identifier: Apache-2.0
#include "cni/sim/host.hpp"

#include <sstream>
#include <stdexcept>

#include "params.hpp"

namespace cni::sim {

using proto::AgentId;

HostSystem::HostSystem(Kernel& k, Fabric& fabric, const Profile& profile)
    : k_(k), fabric_(fabric), profile_(profile) {
  using namespace detail;
  const unsigned sockets = uint_param(profile_, "host.sockets", 1, 8);
  const unsigned cores = uint_param(profile_, "host.cores", 1, proto::kMaxAgents);
  const unsigned devices =
      profile_.has("node.devices") ? uint_param(profile_, "node.devices", 0, proto::kMaxAgents) : 1;
  if (sockets + cores + devices > proto::kMaxAgents) {
    throw ProfileError("profile " + profile_.name() + ": host.sockets (" + std::to_string(sockets) +
                       ") + host.cores (" + std::to_string(cores) + ") + node.devices (" +
                       std::to_string(devices) + ") exceed the fabric's " +
                       std::to_string(proto::kMaxAgents) + " agent ids");
  }
  if (fabric_.num_nodes() != 0) {
    throw std::invalid_argument("HostSystem: the fabric already has nodes; give it a fresh one");
  }
  const unsigned line = uint_param(profile_, "line_bytes", 64, 128);
  if (line != fabric_.line_bytes()) {
    throw std::invalid_argument("HostSystem: profile line_bytes = " + std::to_string(line) +
                                " but the fabric was built for " +
                                std::to_string(fabric_.line_bytes()));
  }

  // Placement of cores on sockets.
  const std::string placement = profile_.get_string("host.core_sockets");
  if (placement == "auto") {
    for (unsigned i = 0; i < cores; ++i) core_socket_.push_back(i % sockets);
  } else {
    std::stringstream ss(placement);
    std::string item;
    while (std::getline(ss, item, ',')) {
      char* end = nullptr;
      const unsigned long s = std::strtoul(item.c_str(), &end, 10);
      if (item.empty() || *end != '\0' || s >= sockets) {
        throw ProfileError("profile " + profile_.name() + ": host.core_sockets = '" + placement +
                           "': '" + item + "' is not a socket number below " +
                           std::to_string(sockets));
      }
      core_socket_.push_back(static_cast<unsigned>(s));
    }
    if (core_socket_.size() != cores) {
      throw ProfileError("profile " + profile_.name() + ": host.core_sockets lists " +
                         std::to_string(core_socket_.size()) + " sockets for " +
                         std::to_string(cores) + " cores (host.cores)");
    }
  }

  // Nodes and links, or seed 000's buses (bus.model): then every message of the node crosses
  // the memory bus (and the I/O bus, to and from the devices) for its occupancy instead.
  const BusParams bp = BusParams::from_profile(profile_);
  const bool on_bus = bp.model != BusModel::None;
  if (on_bus && sockets != 1) {
    throw ProfileError("profile " + profile_.name() + ": bus.model = " +
                       profile_.get_string("bus.model") + " puts a node on one bus, but host.sockets = " +
                       std::to_string(sockets));
  }
  const Time onchip = on_bus ? 0 : ns_param(profile_, "onchip.latency_ns");
  const Time port = on_bus ? 0 : ns_param(profile_, "onchip.link_port_ns");
  LinkParams lp;
  if (!on_bus) {
    lp.one_way = ns_param(profile_, "link.one_way_ns");
    lp.bandwidth_gib_s = positive_param(profile_, "link.bandwidth_gib_s");
    lp.credits = uint_param(profile_, "link.credits", 1, 1u << 20);
    if (profile_.has("link.jitter_ns")) lp.jitter = ns_param(profile_, "link.jitter_ns");
  }
  if (profile_.has("sim.seed")) fabric_.set_seed(static_cast<uint64_t>(profile_.get_int("sim.seed")));
  for (unsigned s = 0; s < sockets; ++s) {
    socket_nodes_.push_back(fabric_.add_node("socket" + std::to_string(s), onchip, port));
  }
  for (unsigned a = 0; a < sockets; ++a) {
    for (unsigned b = a + 1; b < sockets; ++b)
      fabric_.connect(socket_nodes_[a], socket_nodes_[b], lp);
  }
  // A device's own logic models its internal latency, so its node adds none.
  for (unsigned d = 0; d < devices; ++d) {
    device_nodes_.push_back(fabric_.add_node("device" + std::to_string(d), 0, 0));
    fabric_.connect(socket_nodes_[0], device_nodes_.back(), lp);
  }
  if (on_bus) {
    const AgentId first_dev = static_cast<AgentId>(sockets + cores);
    bus_ = std::make_unique<BusCarrier>(
        k_, bp, [first_dev, devices](AgentId a) { return a >= first_dev && a < first_dev + devices; },
        "socket0");
    fabric_.set_carrier(socket_nodes_[0], socket_nodes_[0], *bus_);
    for (NodeId dn : device_nodes_) fabric_.set_carrier(socket_nodes_[0], dn, *bus_);
  }

  // Homes, caches, cores.
  const HomeParams hp = HomeParams::from_profile(profile_);
  for (unsigned s = 0; s < sockets; ++s) {
    auto h = std::make_unique<HomeAgent>(k_, fabric_, static_cast<AgentId>(s), dram_base(s),
                                         kDramBytes, hp, "home" + std::to_string(s));
    fabric_.attach(*h, socket_nodes_[s]);
    fabric_.map_home(dram_base(s), kDramBytes, h->id());
    homes_.push_back(std::move(h));
  }
  const CacheParams cp = CacheParams::from_profile(profile_);
  const CoreParams corep = CoreParams::from_profile(profile_);
  for (unsigned i = 0; i < cores; ++i) {
    const std::string name = "core" + std::to_string(i);
    auto c = std::make_unique<HostCache>(k_, fabric_, static_cast<AgentId>(sockets + i), cp, name);
    fabric_.attach(*c, socket_nodes_[core_socket_[i]]);
    cores_.push_back(std::make_unique<Core>(k_, *c, corep, uncached_, name));
    caches_.push_back(std::move(c));
  }
}

HostSystem::~HostSystem() = default;

void HostSystem::check_core(unsigned core, const char* what) const {
  if (core >= cores_.size()) {
    throw std::out_of_range(std::string("HostSystem::") + what + ": no core " +
                            std::to_string(core) + " (" + std::to_string(cores_.size()) +
                            " cores)");
  }
}

unsigned HostSystem::core_socket(unsigned core) const {
  check_core(core, "core_socket");
  return core_socket_[core];
}

AgentId HostSystem::home_agent(unsigned socket) const {
  if (socket >= homes_.size()) {
    throw std::out_of_range("HostSystem::home_agent: no socket " + std::to_string(socket));
  }
  return homes_[socket]->id();
}

AgentId HostSystem::cache_agent(unsigned core) const {
  check_core(core, "cache_agent");
  return caches_[core]->id();
}

void HostSystem::check_device(unsigned d, const char* what) const {
  if (d >= device_nodes_.size()) {
    throw std::out_of_range(std::string("HostSystem::") + what + ": no device slot " +
                            std::to_string(d) +
                            " (node.devices = " + std::to_string(device_nodes_.size()) + ")");
  }
}

NodeId HostSystem::device_node(unsigned d) const {
  check_device(d, "device_node");
  return device_nodes_[d];
}

AgentId HostSystem::device_agent(unsigned d) const {
  check_device(d, "device_agent");
  return static_cast<AgentId>(homes_.size() + caches_.size() + d);
}

NodeId HostSystem::socket_node(unsigned socket) const {
  if (socket >= socket_nodes_.size()) {
    throw std::out_of_range("HostSystem::socket_node: no socket " + std::to_string(socket));
  }
  return socket_nodes_[socket];
}

drv::MemoryPort& HostSystem::port(unsigned core) {
  check_core(core, "port");
  return *cores_[core];
}

Core& HostSystem::core(unsigned i) {
  check_core(i, "core");
  return *cores_[i];
}

HostCache& HostSystem::cache(unsigned core) {
  check_core(core, "cache");
  return *caches_[core];
}

HomeAgent& HostSystem::home(unsigned socket) {
  if (socket >= homes_.size()) {
    throw std::out_of_range("HostSystem::home: no socket " + std::to_string(socket));
  }
  return *homes_[socket];
}

void HostSystem::spawn(unsigned core, std::function<void(drv::MemoryPort&)> program) {
  check_core(core, "spawn");
  cores_[core]->spawn(std::move(program));
}

bool HostSystem::all_done() const {
  for (const auto& c : cores_) {
    if (c->busy()) return false;
  }
  return true;
}

void throw_stalled(const Kernel& k, const std::string& blocked) {
  throw std::runtime_error("simulation stalled at " + std::to_string(to_ns(k.now())) +
                           " ns: no events left but " + blocked + " still blocked");
}

std::string HostSystem::busy_cores() const {
  std::string names;
  for (const auto& c : cores_) {
    if (c->busy()) names += (names.empty() ? "" : ", ") + c->name();
  }
  return names;
}

void run_until_done(Kernel& k, const std::function<bool()>& done, Time limit,
                    const std::function<std::string()>& blocked) {
  const Time end = limit > kNoTimeLimit - k.now() ? kNoTimeLimit : k.now() + limit;
  k.run([&] { return done() || k.now() >= end; });
  if (done()) return;
  if (k.now() < end || k.pending() == 0) throw_stalled(k, blocked());
  throw std::runtime_error("simulation time limit: at " + std::to_string(k.now() / 1000) + " ns, " +
                           std::to_string(limit / 1000) + " ns after the run began, " + blocked() +
                           " still running");
}

void HostSystem::run_programs(Time limit) {
  run_until_done(
      k_, [this] { return all_done(); }, limit, [this] { return busy_cores(); });
}

void HostSystem::map_uncached(proto::Addr base, proto::Addr size, UncachedTarget& target) {
  uncached_.map(base, size, target);
}

void HostSystem::map_device_registers(proto::Addr base, proto::Addr size) {
  if (!io_link_) {
    const unsigned id = static_cast<unsigned>(homes_.size() + caches_.size() + device_nodes_.size());
    if (id >= proto::kMaxAgents) {
      throw ProfileError("profile " + profile_.name() + ": no agent id left for the uncached "
                         "link (host.sockets + host.cores + node.devices = " +
                         std::to_string(id) + " of " + std::to_string(proto::kMaxAgents) + ")");
    }
    io_link_ = std::make_unique<UncachedLink>(k_, fabric_, static_cast<AgentId>(id), "io-link");
    fabric_.attach(*io_link_, socket_nodes_[0]);
  }
  uncached_.map(base, size, *io_link_);
}

void HostSystem::set_observer(CoherenceObserver* obs) {
  for (auto& c : caches_) c->set_observer(obs);
}

CacheState HostSystem::state_of(unsigned core, proto::Addr addr) const {
  check_core(core, "state_of");
  return caches_[core]->state_of(addr);
}

}  // namespace cni::sim
