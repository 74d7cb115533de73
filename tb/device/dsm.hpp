// SPDX-License-Identifier: Apache-2.0
// A Stache DSM (cni::drv::Stache, docs/dsm.md) on a simulated cluster: every node's device
// carries the tag store, one core per node is its protocol core (it opens the node's NI, sets its
// tags, then serves faults and messages until every application core of the cluster is done),
// and the application runs on the other cores. Two design points of seed 001 section 3:
//   Typhoon-1: one device with the tag store, the cachable dispatch line, and the messages
//              through the tag store's own network interface (ts_ni: a block's data moves from
//              engine to engine, 001's Typhoon-1), or through the CNI engine (CNI16Q) beside it
//              with its arrivals through the dispatch register and block data through the buffer
//              line and cached loads;
//   Typhoon-0: the NI a device of its own (device 0: NI2w in the benchmark build), the tag store
//              on device 1, the status-bit dispatch registers polled beside the NI, block data
//              written through the tag store's registers (uncached stores) and read through its
//              cachable buffer line (001's cacheable block buffer: one bus transaction).
// The tests and cni-bench dsm build their DSMs with it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "cni/drv/stache.hpp"
#include "device/system.hpp"

namespace cni::tb {

enum class DsmDesign : uint8_t { Typhoon1, Typhoon0 };
const char* dsm_design_name(DsmDesign d);

struct DsmConfig {
  DsmDesign design = DsmDesign::Typhoon1;
  unsigned app_cores = 1;     // cores 0 .. app_cores-1 run the application, the next one serves
  unsigned page_blocks = 4;   // blocks per page (first homes round-robin by page)
  drv::HomePolicy homes = drv::HomePolicy::RoundRobin;
  std::string ts_variant;     // the device model carrying the tag store (this build's)
  std::string ni_variant;     // Typhoon-0: the NI's model (device 0)
  uint64_t idle_pause_ns = 0; // the protocol core's pause between looks that find nothing
  // Typhoon-1: the protocol core also polls the NI's receive queue itself (a cached load that
  // hits until a message lands) instead of waiting for the dispatch register's message event.
  bool poll_ni = false;
  // Typhoon-1: the messages through the tag store's network interface (StacheOptions::ts_ni).
  bool ts_ni = false;
  // The CNI engines' go-back-N retransmission on (a model built with it: the checking build's
  // `ts`), for a network that loses frames (net.loss_rate, net.corrupt_rate).
  bool retransmit = false;
  // Each page's protocol (unset: every page Standard).
  std::function<drv::PageProtocol(uint32_t page)> protocol;
};

class DsmSystem {
 public:
  // The profile's nodes and line_bytes are the system's; node.devices is set by the design.
  // std::invalid_argument when a node has too few cores, or the variants are not in the build.
  DsmSystem(const sim::Profile& profile, const DsmConfig& cfg);
  ~DsmSystem();

  System& system() { return *sys_; }
  unsigned nodes() { return sys_->num_nodes(); }
  uint32_t blocks() const { return blocks_; }
  // The block's first home (round-robin by page; under first touch its page moves once).
  unsigned home_of(uint32_t b) const { return (b / cfg_.page_blocks) % nodes_; }
  // The host address of block b at node n (every node maps the whole shared space).
  drv::Addr block_addr(unsigned node, uint32_t b);
  SimDevice& ts_device(unsigned node);

  // Runs `app` on every application core of every node once every node's protocol core has set
  // its tags; returns when every application is done (the protocol cores stop then).
  using App = std::function<void(unsigned node, unsigned core, drv::MemoryPort& m)>;
  void run(const App& app);
  // For an application core during run(): asks its node's protocol core to push the blocks
  // first .. first + count - 1 of its update pages to their consumers and waits until they are
  // written (drv::Stache::request_push).
  void push(drv::MemoryPort& m, uint32_t first, uint32_t count);
  // A barrier of every application core, as 001's simulated machine has in hardware (a CM-5's):
  // released one network latency (the profile's one-way wire latency) after the last arrival;
  // a full memory barrier on each side.
  void barrier(drv::MemoryPort& m);
  // Private host memory of each node's application (beside the directory and the mailbox).
  static drv::Addr private_base() { return sim::HostSystem::dram_base(0) + 0x1080000; }

  const drv::StacheStats& stats(unsigned node) const { return stats_.at(node); }
  // Called at each step of every miss the handlers see, with the simulated time (ns).
  std::function<void(unsigned node, drv::StacheStep step, uint32_t block, uint64_t ns)> on_step;

 private:
  DsmConfig cfg_;
  unsigned nodes_ = 0;
  uint32_t blocks_ = 0;
  std::unique_ptr<System> sys_;
  std::vector<drv::StacheStats> stats_;
  uint64_t barrier_ns_ = 0;
  unsigned bar_count_ = 0, bar_gen_ = 0;
  uint64_t bar_last_ = 0, bar_release_ = 0;
};

}  // namespace cni::tb
