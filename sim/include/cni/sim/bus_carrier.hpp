// SPDX-License-Identifier: Apache-2.0
// The coherence fabric of a node on seed 000's buses (docs/network.md, "The coherence fabric on
// a bus"): every message between the node's agents occupies the memory bus -- and, between
// the host and a device behind the I/O bridge, the memory bus and the I/O bus -- for the
// cycles of the 000 Table 2 row it belongs to, instead of crossing an on-chip path or a link.
// A transaction's cycles are split over the message that opens it (its address part) and the
// message that answers it (the rest); the answer is credited with the answering agent's
// turnaround, because Table 2's row counts the whole transaction, the answerer's wait states
// included. Answers to other than loads, line reads and uncached stores ride the bus's
// acknowledge lines.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "cni/proto.hpp"
#include "cni/sim/bus.hpp"
#include "cni/sim/fabric.hpp"
#include "cni/sim/kernel.hpp"
#include "cni/sim/profile.hpp"

namespace cni::sim {

// Which bus carries a node's coherence fabric (profile key bus.model).
enum class BusModel {
  None,    // on-chip paths and coherent links (link.*, onchip.*)
  Memory,  // one memory bus: host caches, home and devices on it (mbus-1996)
  Io,      // devices on an I/O bus behind a bridge from the memory bus (iobus-1996)
};

// The rows of 000 Table 2 (bus occupancy of a whole transaction, in bus.cycle_mhz cycles).
enum class BusRow : unsigned {
  NcLoad,      // uncached 8-byte load from the device
  NcStore,     // uncached 8-byte store to the device
  FromDevice,  // a line from the device to a host agent ("cache-to-cache transfer from CNI")
  ToDevice,    // a line from a host agent to the device ("from processor to CNI")
  Memory,      // a line between host agents ("memory-to-cache transfer")
  Address,     // an address-only transaction (a request, a snoop, an invalidation)
  Ack,         // an answer without data (the bus's acknowledge lines: no cycles)
};
inline constexpr unsigned kNumBusRows = 7;
const char* bus_row_name(BusRow r);

struct BusParams {
  BusModel model = BusModel::None;
  double cycle_mhz = 200.0;  // the unit of every occupancy below (000: processor cycles)
  // Memory-bus occupancy of each data row's whole transaction (I/O-bus rows: the total with
  // the memory-bus part, as 000 Table 2 gives them), and of an address-only transaction.
  std::array<unsigned, kNumBusRows> mem{};
  std::array<unsigned, kNumBusRows> io{};
  unsigned bridge_write_buffer = 4;  // posted writes the bridge holds per direction
  unsigned bridge_retry_cycles = 0;  // a NACKed I/O-bus transaction retries after these
  // bus.* keys; model None when bus.model is absent or "none". Throws ProfileError naming the
  // key when a value is missing or a transaction cannot be split into parts of >= 1 cycle.
  static BusParams from_profile(const Profile& p);
};

// How one message crosses: its row, its cycles on each bus, and whether it is a read through
// the bridge (the sender's bus is held until the far part is done) or posted.
struct BusCrossing {
  BusRow row = BusRow::Ack;
  unsigned mem_cycles = 0;
  unsigned io_cycles = 0;  // > 0 only between the host and a device behind the bridge
  bool bridged = false;    // between the host and a device behind the bridge
  BusOp op = BusOp::Write;
};

class BusCarrier : public Carrier {
 public:
  using IsDevice = std::function<bool(proto::AgentId)>;
  // `is_device` tells the device agents (on the I/O bus under BusModel::Io) from the host's.
  BusCarrier(Kernel& k, const BusParams& p, IsDevice is_device, const std::string& name);
  ~BusCarrier() override;

  // Each source agent's messages cross one at a time, in the order given; a message arrives
  // when its last part ends (never from within carry()).
  void carry(const proto::Msg& m, std::function<void()> arrived) override;
  // How `m` crosses. An answer's parts are shortened by `turnaround_cycles` -- the time its
  // answerer took, from the request's arrival to the answer's send -- far bus first, each part
  // down to a floor: an address-only transaction's cycles on that bus for an answer with data,
  // none for an uncached store's acknowledge (docs/network.md, "The coherence fabric on a bus").
  BusCrossing crossing(const proto::Msg& m, unsigned turnaround_cycles = 0) const;

  Bus& memory_bus() { return *mem_; }
  Bus* io_bus() { return io_.get(); }
  Bridge* bridge() { return bridge_.get(); }
  // Messages carried per row: a request's address part counts as Address, so a transaction
  // with an answer counts once in its row (the answer's), even when the answerer's turnaround
  // covered the answer's cycles.
  uint64_t count(BusRow r) const { return counts_[static_cast<unsigned>(r)]; }

 private:
  struct Pending {
    proto::Msg m;
    std::function<void()> arrived;
    unsigned turnaround = 0;  // bus cycles the answerer took (answers only)
  };
  struct Source {
    Bus::Requester req = 0;  // on the bus the agent sits on
    std::deque<Pending> q;
    bool busy = false;  // q's head is crossing
  };
  // (requester, answerer, tag) of a request that has arrived and awaits its answer
  using OpenKey = std::tuple<proto::AgentId, proto::AgentId, uint8_t>;
  Source& source(proto::AgentId a);
  void start(proto::AgentId a);
  void finish(proto::AgentId a);

  Kernel& k_;
  BusParams p_;
  IsDevice is_device_;
  std::unique_ptr<Bus> mem_;
  std::unique_ptr<Bus> io_;
  std::unique_ptr<Bridge> bridge_;
  std::map<proto::AgentId, Source> sources_;
  std::map<OpenKey, Time> open_;  // when each request arrived
  std::array<uint64_t, kNumBusRows> counts_{};
};

}  // namespace cni::sim
