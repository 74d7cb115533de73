// SPDX-License-Identifier: Apache-2.0
// The coherence fabric on seed 000's buses (BusCarrier, profiles mbus-1996 and iobus-1996):
// which Table 2 row each message belongs to, the latency of each kind of transaction through
// the host model, serialisation of transactions on one bus, the bridge's NACK, per-source
// order, and the profile checks.
#include "cni/sim/bus_carrier.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <memory>
#include <string>

#include "cni/sim/host.hpp"
#include "error_of.hpp"
#include "script_agent.hpp"

using namespace cni;
using namespace cni::sim;
using cni::sim::test::error_of;
using proto::Msg;
using proto::Op;

namespace {

constexpr proto::Addr kDevBase = proto::Addr{1} << 40;
constexpr double kCycleNs = 5.0;  // 200 MHz: Table 2 counts processor cycles

// A device stand-in that answers at once, or `delay` after a request: uncached reads with
// addr ^ 0xff, uncached writes with NcAck, reads of its lines with a line (DataE / DataM),
// write-backs with WbAck.
class InstantDevice : public Agent {
 public:
  InstantDevice(proto::AgentId id, Kernel& k, Fabric& f) : Agent(id), k_(k), f_(f) {}
  Time delay = 0;
  void deliver(const Msg& m) override {
    Msg a;
    a.src = id();
    a.dst = m.src;
    a.tag = m.tag;
    a.addr = m.addr;
    switch (m.op) {
      case Op::Nc:
        if (m.flags & proto::kFlagNcWrite) {
          a.op = Op::NcAck;
        } else {
          a.op = Op::NcData;
          a.len = 8;
          const uint64_t v = m.addr ^ 0xff;
          std::memcpy(a.data.data(), &v, 8);
        }
        break;
      case Op::RdS:
      case Op::RdX:
        a.op = m.op == Op::RdS ? Op::DataE : Op::DataM;
        a.len = static_cast<uint8_t>(f_.line_bytes());
        break;
      case Op::WB:
        a.op = Op::WbAck;
        break;
      default:
        return;  // answers to the device's own requests
    }
    if (delay == 0) f_.send(a);
    else k_.after(delay, [this, a] { f_.send(a); });
  }

 private:
  Kernel& k_;
  Fabric& f_;
};

class OnBus : public testing::Test {
 protected:
  void build(const char* profile_name, std::initializer_list<const char*> overrides = {}) {
    profile = Profile::load(profile_name);
    for (const char* o : overrides) profile.set(o);
    k = std::make_unique<Kernel>();
    f = std::make_unique<Fabric>(*k, 64);
    sys = std::make_unique<HostSystem>(*k, *f, profile);
    dev = std::make_unique<InstantDevice>(sys->device_agent(0), *k, *f);
    f->attach(*dev, sys->device_node(0));
    f->map_home(kDevBase, 2 << 20, dev->id());  // its lines, then its registers
    sys->map_device_registers(kDevBase + (1 << 20), 0x1000);
  }
  // The time one program step takes on core 0, in processor cycles.
  double cycles_of(const std::function<void(drv::MemoryPort&)>& step) {
    Time took = 0;
    sys->spawn(0, [&](drv::MemoryPort& port) {
      const Time t0 = k->now();
      step(port);
      took = k->now() - t0;
    });
    sys->run_programs();
    return to_ns(took) / kCycleNs;
  }
  double p(const char* key) const { return profile.get_double(key); }

  Profile profile;
  std::unique_ptr<Kernel> k;
  std::unique_ptr<Fabric> f;
  std::unique_ptr<HostSystem> sys;
  std::unique_ptr<InstantDevice> dev;
};

Msg msg(Op op, proto::AgentId src, proto::AgentId dst, uint8_t flags = 0) {
  Msg m;
  m.op = op;
  m.src = src;
  m.dst = dst;
  m.flags = flags;
  m.len = proto::carries_data(op) ? 64 : 0;
  return m;
}

}  // namespace

// Every opcode's row and its parts on each bus: a transaction's parts add up to Table 2's row.
TEST_F(OnBus, EveryMessageBelongsToATable2RowAndTransactionsAddUpToIt) {
  build("iobus-1996");
  BusCarrier& bus = *sys->bus();
  const proto::AgentId home = sys->home_agent(0), core = sys->cache_agent(0),
                       d = sys->device_agent(0);
  auto total = [&](const Msg& a, const Msg& b) {
    const BusCrossing x = bus.crossing(a), y = bus.crossing(b);
    return x.mem_cycles + x.io_cycles + y.mem_cycles + y.io_cycles;
  };
  // uncached load: Nc read + NcData = 48 (28 on the memory bus)
  const BusCrossing nc = bus.crossing(msg(Op::Nc, core, d));
  EXPECT_EQ(nc.row, BusRow::Address);
  EXPECT_EQ(nc.op, BusOp::Read);
  EXPECT_EQ(bus.crossing(msg(Op::NcData, d, core)).row, BusRow::NcLoad);
  EXPECT_EQ(total(msg(Op::Nc, core, d), msg(Op::NcData, d, core)), 48u);
  EXPECT_EQ(bus.crossing(msg(Op::Nc, core, d)).mem_cycles +
                bus.crossing(msg(Op::NcData, d, core)).mem_cycles,
            28u);
  // uncached store: Nc write (its address part, posted) + NcAck (the rest) = 32 (12 + 20)
  const BusCrossing st = bus.crossing(msg(Op::Nc, core, d, proto::kFlagNcWrite));
  EXPECT_EQ(st.row, BusRow::Address);
  EXPECT_EQ(st.mem_cycles, 4u);
  EXPECT_EQ(st.io_cycles, 8u);
  EXPECT_EQ(st.op, BusOp::Write);
  EXPECT_EQ(bus.crossing(msg(Op::NcAck, d, core)).row, BusRow::NcStore);
  EXPECT_EQ(total(msg(Op::Nc, core, d, proto::kFlagNcWrite), msg(Op::NcAck, d, core)), 32u);
  // a device line to the processor: 76; from the processor to the device: 62
  EXPECT_EQ(total(msg(Op::RdX, core, d), msg(Op::DataM, d, core)), 76u);
  EXPECT_EQ(bus.crossing(msg(Op::DataM, d, core)).row, BusRow::FromDevice);
  EXPECT_EQ(total(msg(Op::FwdDown, d, core), msg(Op::SnpData, core, d)), 62u);
  EXPECT_EQ(bus.crossing(msg(Op::SnpData, core, d)).row, BusRow::ToDevice);
  // memory to cache: 42, on the memory bus only
  const BusCrossing mem = bus.crossing(msg(Op::DataS, home, core));
  EXPECT_EQ(mem.row, BusRow::Memory);
  EXPECT_EQ(mem.io_cycles, 0u);
  EXPECT_EQ(total(msg(Op::RdS, core, home), msg(Op::DataS, home, core)), 42u);
  // write-backs are whole transactions; invalidations are posted, line requests are reads
  EXPECT_EQ(bus.crossing(msg(Op::WB, core, home)).mem_cycles, 42u);
  EXPECT_EQ(bus.crossing(msg(Op::WB, core, d)).mem_cycles + bus.crossing(msg(Op::WB, core, d)).io_cycles,
            62u);
  EXPECT_EQ(bus.crossing(msg(Op::FwdInv, d, core)).op, BusOp::Write);
  EXPECT_EQ(bus.crossing(msg(Op::Upg, core, d)).op, BusOp::Write);
  EXPECT_EQ(bus.crossing(msg(Op::RdNA, d, home)).op, BusOp::Read);
  // an RdX that writes the whole line asks for ownership alone: an invalidation, posted
  const BusCrossing full = bus.crossing(msg(Op::RdX, d, home, proto::kFlagFullWrite));
  EXPECT_EQ(full.row, BusRow::Address);
  EXPECT_EQ(full.op, BusOp::Write);
  EXPECT_EQ(bus.crossing(msg(Op::RdX, d, home)).op, BusOp::Read);
  for (Op a : {Op::SnpAck, Op::UpgAck, Op::WbAck, Op::Retry, Op::Error, Op::WrAck}) {
    EXPECT_EQ(bus.crossing(msg(a, d, core)).row, BusRow::Ack) << proto::op_name(a);
  }
}

// Through the host model: each kind of transaction costs its Table 2 cycles plus the core's and
// cache's own (core.access_ns, cache.miss_ns), with an instant device and memory.
TEST_F(OnBus, MemoryBusTransactionsTakeTheirTable2Occupancy) {
  build("mbus-1996");
  const double own = (p("core.access_ns") + p("cache.miss_ns")) / kCycleNs;
  const proto::Addr regs = kDevBase + (1 << 20);
  EXPECT_DOUBLE_EQ(cycles_of([&](drv::MemoryPort& port) { (void)port.uncached_load64(regs); }),
                   28.0);
  uint64_t v = 0;
  EXPECT_DOUBLE_EQ(cycles_of([&](drv::MemoryPort& port) { port.load(0x1000, &v, 8); }),
                   own + 42.0);
  EXPECT_DOUBLE_EQ(cycles_of([&](drv::MemoryPort& port) { port.load(kDevBase, &v, 8); }),
                   own + 42.0);
  EXPECT_EQ(sys->bus()->count(BusRow::Memory), 1u);
  EXPECT_EQ(sys->bus()->count(BusRow::FromDevice), 1u);
  EXPECT_EQ(sys->bus()->count(BusRow::NcLoad), 1u);
  EXPECT_EQ(sys->bus()->memory_bus().stats().busy, ns(kCycleNs * (28 + 42 + 42)));
}

TEST_F(OnBus, IoBusTransactionsIncludeTheirMemoryBusPart) {
  build("iobus-1996");
  const double own = (p("core.access_ns") + p("cache.miss_ns")) / kCycleNs;
  const proto::Addr regs = kDevBase + (1 << 20);
  EXPECT_DOUBLE_EQ(cycles_of([&](drv::MemoryPort& port) { (void)port.uncached_load64(regs); }),
                   48.0);
  uint64_t v = 0;
  EXPECT_DOUBLE_EQ(cycles_of([&](drv::MemoryPort& port) { port.load(kDevBase, &v, 8); }),
                   own + 76.0);
  // memory is on the memory bus: no I/O-bus cycles
  EXPECT_DOUBLE_EQ(cycles_of([&](drv::MemoryPort& port) { port.load(0x1000, &v, 8); }),
                   own + 42.0);
  // the posted store holds the core only for its memory-bus part
  EXPECT_LE(cycles_of([&](drv::MemoryPort& port) {
              port.uncached_store64(regs, 1);
              port.barrier();
            }),
            32.0 + p("core.barrier_ns") / kCycleNs);
  const BridgeStats& b = sys->bus()->bridge()->stats();
  EXPECT_EQ(b.reads, 2u);   // the Nc read and the RdS's address part down to the device
  EXPECT_EQ(b.nacks, 0u);
}

// Table 2's row counts a whole transaction, the answerer's wait states included: a device
// that takes time to answer is late only by what its turnaround exceeds the row's slack (an
// answer keeps an address-only transaction's cycles on each bus; a store's acknowledge none).
TEST_F(OnBus, AnAnswerersTurnaroundRunsInsideItsRow) {
  const proto::Addr regs = kDevBase + (1 << 20);
  uint64_t v = 0;
  auto load = [&](unsigned delay) {
    dev->delay = ns(kCycleNs * delay);
    return cycles_of([&](drv::MemoryPort& port) { (void)port.uncached_load64(regs); });
  };
  auto store = [&](unsigned delay) {
    dev->delay = ns(kCycleNs * delay);
    return cycles_of([&](drv::MemoryPort& port) { port.uncached_store64(regs, 1); });
  };
  auto line = [&](unsigned delay, proto::Addr at) {
    dev->delay = ns(kCycleNs * delay);
    return cycles_of([&](drv::MemoryPort& port) { port.load(at, &v, 8); });
  };
  build("mbus-1996");
  const double own = (p("core.access_ns") + p("cache.miss_ns")) / kCycleNs;
  EXPECT_DOUBLE_EQ(load(12), 28.0);      // 4 + 12 + 12
  EXPECT_DOUBLE_EQ(load(20), 28.0);      // 4 + 20 + 4: the whole slack
  EXPECT_DOUBLE_EQ(load(30), 38.0);      // 4 + 30 + 4
  EXPECT_DOUBLE_EQ(store(6), 12.0);      // 4 + 6 + 2
  EXPECT_DOUBLE_EQ(store(10), 14.0);     // 4 + 10: the acknowledge inside the turnaround
  EXPECT_DOUBLE_EQ(line(6, kDevBase), own + 42.0);             // 4 + 6 + 32
  EXPECT_DOUBLE_EQ(line(40, kDevBase + 64), own + 48.0);       // 4 + 40 + 4
  build("iobus-1996");
  EXPECT_DOUBLE_EQ(load(24), 48.0);      // (4 + 8) + 24 + (8 + 4)
  EXPECT_DOUBLE_EQ(load(40), 64.0);      // (4 + 8) + 40 + (8 + 4)
  EXPECT_DOUBLE_EQ(store(20), 32.0);     // (4 + 8) + 20
  EXPECT_DOUBLE_EQ(store(30), 42.0);
  // each transaction counts once in its row, the stores' acknowledges too (covered or not)
  EXPECT_EQ(sys->bus()->count(BusRow::NcLoad), 2u);
  EXPECT_EQ(sys->bus()->count(BusRow::NcStore), 2u);
}

// Only the answer closes a transaction: a snoop the answerer sends the requester meanwhile, with
// the same tag, leaves the request's turnaround credit to its answer.
TEST_F(OnBus, AMessageThatIsNotTheAnswerLeavesTheTurnaroundToTheAnswer) {
  build("mbus-1996");
  test::ScriptAgent cpu(10, *k, *f);
  f->attach(cpu, sys->socket_node(0));
  dev->delay = ns(kCycleNs * 20);
  cpu.send(Op::RdS, dev->id(), kDevBase, 5);        // arrives at 4; DataE sent at 24
  k->after(ns(kCycleNs * 10), [&] {
    Msg inv = msg(Op::FwdInv, dev->id(), cpu.id());
    inv.tag = 5;
    inv.addr = kDevBase + 64;
    f->send(inv);                                    // 10 .. 14
  });
  k->run([] { return false; });
  ASSERT_EQ(cpu.got.size(), 2u);
  EXPECT_EQ(cpu.got[0].op, Op::FwdInv);
  EXPECT_EQ(cpu.got[1].op, Op::DataE);
  EXPECT_EQ(cpu.when[1], ns(kCycleNs * 42));         // 24 + (38 - 20)
}

// One transaction at a time: the core's miss to memory waits while a device line crosses.
TEST_F(OnBus, TransactionsOnOneBusSerialise) {
  build("mbus-1996");
  // The device sends a line to the home (a write-back of 42 cycles) at time 0; the core misses
  // at the same time and its request waits behind it.
  Msg wb = msg(Op::WB, dev->id(), sys->home_agent(0));
  wb.addr = 0x2000;
  f->send(wb);
  uint64_t v = 0;
  const double own = (p("core.access_ns") + p("cache.miss_ns")) / kCycleNs;
  const double took = cycles_of([&](drv::MemoryPort& port) { port.load(0x1000, &v, 8); });
  EXPECT_DOUBLE_EQ(took, 42.0 + 42.0);  // its request went out after the write-back ended
  EXPECT_GT(took, own + 42.0);
  EXPECT_GT(sys->bus()->memory_bus().stats().waited, 0);
}

// A device read of host memory meeting a CPU read of the device at the bridge is NACKed, and
// retried; both complete.
TEST_F(OnBus, BridgeNacksTheIoSideOnACollisionAndBothFinish) {
  build("iobus-1996");
  // The device asks for a host line (RdS to the home) while the core loads a device register.
  Msg rd = msg(Op::RdS, dev->id(), sys->home_agent(0));
  rd.addr = 0x3000;
  f->send(rd);
  const proto::Addr regs = kDevBase + (1 << 20);
  uint64_t v = 0;
  const double took = cycles_of([&](drv::MemoryPort& port) { v = port.uncached_load64(regs); });
  EXPECT_EQ(v, regs ^ 0xff);
  EXPECT_GE(took, 48.0);
  k->run([] { return false; });
  EXPECT_EQ(sys->bus()->bridge()->stats().nacks, 1u);
  EXPECT_EQ(sys->bus()->count(BusRow::Memory), 0u);  // the device's line is not host-to-host
  EXPECT_EQ(sys->bus()->count(BusRow::ToDevice), 1u);  // the home's DataE to the device
}

// A source's messages cross one at a time in order, an acknowledge too: a grant is delivered
// before a later snoop of the same agent (protocol rule 8), whatever their sizes.
TEST_F(OnBus, ASourcesMessagesArriveInOrder) {
  build("mbus-1996");
  test::ScriptAgent rx(10, *k, *f);
  f->attach(rx, sys->socket_node(0));
  f->send(msg(Op::DataM, dev->id(), rx.id()));
  f->send(msg(Op::Retry, dev->id(), rx.id()));
  f->send(msg(Op::FwdInv, dev->id(), rx.id()));
  k->run([] { return false; });
  ASSERT_EQ(rx.got.size(), 3u);
  EXPECT_EQ(rx.got[0].op, Op::DataM);
  EXPECT_EQ(rx.got[1].op, Op::Retry);
  EXPECT_EQ(rx.got[2].op, Op::FwdInv);
  const double addr = p("bus.mem.address");
  EXPECT_EQ(rx.when[0], ns(kCycleNs * (42 - addr)));  // the answer part of the line's transaction
  EXPECT_EQ(rx.when[1], rx.when[0]);                   // the acknowledge lines: no cycles
  EXPECT_EQ(rx.when[2], ns(kCycleNs * 42));            // then the snoop's address part
}

TEST(BusProfiles, BadValuesAreNamed) {
  Profile p = Profile::load("mbus-1996");
  p.set("bus.model", "ring");
  EXPECT_NE(error_of<ProfileError>([&] { BusParams::from_profile(p); }).find("bus.model = 'ring'"),
            std::string::npos);
  p = Profile::load("mbus-1996");
  p.set("bus.mem.address", "42");
  const std::string e = error_of<ProfileError>([&] { BusParams::from_profile(p); });
  EXPECT_NE(e.find("leaves no cycle for the answer"), std::string::npos) << e;
  p = Profile::load("mbus-1996");
  p.set("bus.mem.nc_store", "3");   // a store is split as a load is: address part, then the rest
  const std::string st = error_of<ProfileError>([&] { BusParams::from_profile(p); });
  EXPECT_NE(st.find("bus.mem.nc_store = 3 leaves no cycle for the answer"), std::string::npos) << st;
  p = Profile::load("iobus-1996");
  p.set("bus.io.nc_store", "20");
  const std::string ist = error_of<ProfileError>([&] { BusParams::from_profile(p); });
  EXPECT_NE(ist.find("bus.io.nc_store = 20 leaves no I/O-bus cycle"), std::string::npos) << ist;
  p = Profile::load("iobus-1996");
  p.set("bus.io.nc_load", "20");
  EXPECT_NE(error_of<ProfileError>([&] { BusParams::from_profile(p); }).find("must exceed bus.mem.nc_load"),
            std::string::npos);
  p = Profile::load("mbus-1996");
  p.set("host.sockets", "2");
  Kernel k;
  Fabric f(k, 64);
  EXPECT_NE(error_of<ProfileError>([&] { HostSystem h(k, f, p); }).find("host.sockets = 2"), std::string::npos);
}

TEST(BusProfiles, LinkProfilesHaveNoBus) {
  EXPECT_EQ(BusParams::from_profile(Profile::load("enzian-eci")).model, BusModel::None);
  EXPECT_EQ(BusParams::from_profile(Profile::load("mbus-1996")).model, BusModel::Memory);
  EXPECT_EQ(BusParams::from_profile(Profile::load("iobus-1996")).model, BusModel::Io);
}

