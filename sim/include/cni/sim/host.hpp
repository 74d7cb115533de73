// SPDX-License-Identifier: Apache-2.0
// The simulated host, built from a Profile into a Fabric:
//  - host.sockets sockets = fabric nodes 0..S-1, every pair joined by a coherent link with the
//    link.* parameters; socket s is home (agent s) of its DRAM at [s << 32, +4 GiB);
//  - host.cores cores, each a Core (MemoryPort) over its own HostCache (agent S + i), placed
//    round-robin over the sockets or as host.core_sockets lists;
//  - node.devices device slots (default 1): slot d is node S + d, linked to socket 0; a device
//    attaches its Agent there with the id device_agent(d) = S + C + d and maps its own home
//    range in the fabric;
//  - with bus.model = mbus or iobus (one socket), seed 000's buses carry the socket's on-chip
//    path and its paths to the devices instead (BusCarrier; link.* and onchip.* are not read).
// Agent ids are 4 bits: sockets + cores + devices <= 16.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cni/drv/mem.hpp"
#include "cni/sim/bus_carrier.hpp"
#include "cni/sim/cache.hpp"
#include "cni/sim/coherence.hpp"
#include "cni/sim/core.hpp"
#include "cni/sim/fabric.hpp"
#include "cni/sim/home.hpp"
#include "cni/sim/kernel.hpp"
#include "cni/sim/profile.hpp"
#include "cni/sim/uncached.hpp"

namespace cni::sim {

class HostSystem {
 public:
  static constexpr proto::Addr kDramBytes = proto::Addr{1} << 32;

  // `fabric` must have no nodes yet and the profile's line size.
  HostSystem(Kernel& k, Fabric& fabric, const Profile& profile);
  ~HostSystem();
  HostSystem(const HostSystem&) = delete;
  HostSystem& operator=(const HostSystem&) = delete;

  unsigned num_sockets() const { return static_cast<unsigned>(homes_.size()); }
  unsigned num_cores() const { return static_cast<unsigned>(cores_.size()); }
  unsigned core_socket(unsigned core) const;
  proto::AgentId home_agent(unsigned socket) const;
  proto::AgentId cache_agent(unsigned core) const;
  NodeId socket_node(unsigned socket) const;
  unsigned num_devices() const { return static_cast<unsigned>(device_nodes_.size()); }
  // Device slot d's fabric node and agent id; std::out_of_range naming d when there is none.
  NodeId device_node(unsigned d) const;
  proto::AgentId device_agent(unsigned d) const;
  static proto::Addr dram_base(unsigned socket) { return proto::Addr{socket} << 32; }

  drv::MemoryPort& port(unsigned core);
  // Run `program` on `core` from now on (a fiber); exceptions surface from Kernel::run.
  void spawn(unsigned core, std::function<void(drv::MemoryPort&)> program);
  // Every spawned program has finished and its store buffer has drained.
  bool all_done() const;
  // The names of the cores whose program has not finished, comma-separated.
  std::string busy_cores() const;
  // Run the kernel until all_done(); throws naming the blocked cores if events run out first,
  // or if `limit` of simulated time passes first (a program waiting for what never comes: a
  // test's failure, not a hang until the test harness's timeout).
  void run_programs(Time limit = kNoTimeLimit);

  void map_uncached(proto::Addr base, proto::Addr size, UncachedTarget& target);
  // Map a device's window for its cores' uncached loads and stores: they travel over the
  // coherent link as Nc requests (UncachedLink, an agent on socket 0 with the first agent id
  // after the devices', made at the first call).
  void map_device_registers(proto::Addr base, proto::Addr size);
  UncachedLink* uncached_link() { return io_link_.get(); }
  // Receives every cache state change and performed load/store of every core.
  void set_observer(CoherenceObserver* obs);

  CacheState state_of(unsigned core, proto::Addr addr) const;
  Core& core(unsigned i);
  HostCache& cache(unsigned core);
  HomeAgent& home(unsigned socket);
  const Profile& profile() const { return profile_; }
  // The node's buses (bus.model = mbus or iobus); nullptr on links.
  BusCarrier* bus() { return bus_.get(); }
  Kernel& kernel() { return k_; }
  Fabric& fabric() { return fabric_; }

 private:
  void check_core(unsigned core, const char* what) const;
  void check_device(unsigned d, const char* what) const;

  Kernel& k_;
  Fabric& fabric_;
  Profile profile_;
  std::unique_ptr<BusCarrier> bus_;  // declared before the agents it carries for
  std::vector<NodeId> socket_nodes_;
  std::vector<NodeId> device_nodes_;
  std::vector<unsigned> core_socket_;
  std::vector<std::unique_ptr<HomeAgent>> homes_;
  std::vector<std::unique_ptr<HostCache>> caches_;
  std::vector<std::unique_ptr<Core>> cores_;
  UncachedMap uncached_;
  std::unique_ptr<UncachedLink> io_link_;
};

// Throws std::runtime_error saying the simulation stalled at k.now(), no events left, with
// the cores named by `blocked` still blocked.
[[noreturn]] void throw_stalled(const Kernel& k, const std::string& blocked);
// Runs `k` until done(). Throws std::runtime_error naming blocked() when the events run out
// first (throw_stalled), or when `limit` of simulated time passes first (the programs still
// running). HostSystem::run_programs and Cluster::run_programs.
void run_until_done(Kernel& k, const std::function<bool()>& done, Time limit,
                    const std::function<std::string()>& blocked);

}  // namespace cni::sim
