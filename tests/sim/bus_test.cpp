// SPDX-License-Identifier: Apache-2.0
// Bus occupancy: serialization by occupancy, FIFO grants, one outstanding transaction per
// requester, tenures, the hold rule; the I/O bridge: blocking reads, posted writes, write
// buffer, NACK on collision and the retry, fairness after a NACK.
#include "cni/sim/bus.hpp"

#include <gtest/gtest.h>

#include <map>
#include <memory>
#include <stdexcept>
#include <string>

#include "error_of.hpp"

using namespace cni::sim;
using cni::sim::test::error_of;

namespace {

void run(Kernel& k) {
  k.run([] { return false; });
}

// Occupancies in cycles of a 200 MHz clock (5 ns), the CPU cycles of seed 000's Table 2.
struct OneBus : testing::Test {
  Kernel k;
  Bus bus{k, "mbus", 200};
  Bus::Requester r0 = bus.add_requester("cpu"), r1 = bus.add_requester("cni");
  Bus::Requester r2 = bus.add_requester("dma"), r3 = bus.add_requester("bridge");
  std::map<std::string, Time> done;
  std::vector<std::string> order;
  Bus::Callback mark(const std::string& name) {
    return [this, name] {
      done[name] = k.now();
      order.push_back(name);
    };
  }
  Time c(unsigned n) const { return bus.cycles(n); }
};

// A memory bus and an I/O bus joined by a bridge (iobus-1996), occupancies in CPU cycles.
struct IoBus : testing::Test {
  Kernel k;
  Bus mem{k, "mbus", 200}, io{k, "iobus", 200};
  Bus::Requester cpu = mem.add_requester("cpu"), cpu2 = mem.add_requester("cpu2");
  Bus::Requester cni = io.add_requester("cni"), cni2 = io.add_requester("cni2");
  std::unique_ptr<Bridge> bridge;
  std::map<std::string, Time> done;
  void make_bridge(unsigned write_buffer = 2, unsigned retry_cycles = 0) {
    bridge = std::make_unique<Bridge>(k, mem, io, write_buffer, retry_cycles);
  }
  Bus::Callback mark(const std::string& name) {
    return [this, name] { done[name] = k.now(); };
  }
  Time c(unsigned n) const { return mem.cycles(n); }
};

}  // namespace

TEST_F(OneBus, TwoRequestersSerialiseByTheirOccupancy) {
  bus.transact(r0, 28, mark("load"));   // uncached 8-byte load from the NI, memory bus
  bus.transact(r1, 12, mark("store"));  // uncached 8-byte store
  run(k);
  EXPECT_EQ(c(1), ns(5));
  EXPECT_EQ(done["load"], c(28));
  EXPECT_EQ(done["store"], c(40));
  EXPECT_EQ(bus.stats().transactions, 2u);
  EXPECT_EQ(bus.stats().busy, c(40));
  EXPECT_EQ(bus.stats().waited, c(28));
}

TEST_F(OneBus, GrantsWaitingRequestersInRequestOrder) {
  bus.transact(r0, 10, [this] {
    mark("cpu")();
    bus.transact(r0, 10, mark("cpu again"));  // asks again at once: behind everyone waiting
  });
  k.at(c(1), [this] { bus.transact(r3, 10, mark("bridge")); });
  k.at(c(2), [this] { bus.transact(r1, 10, mark("cni")); });
  k.at(c(3), [this] { bus.transact(r2, 10, mark("dma")); });
  run(k);
  EXPECT_EQ(order, (std::vector<std::string>{"cpu", "bridge", "cni", "dma", "cpu again"}));
  EXPECT_EQ(done["bridge"], c(20));
  EXPECT_EQ(done["dma"], c(40));
  EXPECT_EQ(done["cpu again"], c(50));
}

TEST_F(OneBus, ARequesterHasOneTransactionOutstanding) {
  bus.transact(r0, 10, nullptr);
  EXPECT_TRUE(bus.outstanding(r0));
  const std::string m = error_of<std::logic_error>([&] { bus.transact(r0, 5, nullptr); });
  EXPECT_NE(m.find("'cpu'"), std::string::npos) << m;
  EXPECT_NE(m.find("'mbus'"), std::string::npos) << m;
  EXPECT_NE(
      error_of<std::logic_error>([&] { bus.acquire(9, nullptr); }).find("unknown requester 9"),
      std::string::npos);
  run(k);
  EXPECT_FALSE(bus.outstanding(r0));
}

TEST_F(OneBus, AnAcquiredTenureLastsUntilRelease) {
  bus.acquire(r0, [this] {
    mark("granted")();
    k.after(c(7), [this] { bus.release(r0); });
  });
  bus.transact(r1, 3, mark("cni"));
  bus.acquire(r2, mark("dma"));
  EXPECT_TRUE(bus.withdraw(r2));
  EXPECT_FALSE(bus.withdraw(r2));
  EXPECT_FALSE(bus.outstanding(r2));
  run(k);
  EXPECT_EQ(done["granted"], 0u);
  EXPECT_EQ(done["cni"], c(10));
  EXPECT_EQ(done.count("dma"), 0u);
  EXPECT_NE(error_of<std::logic_error>([&] { bus.release(r1); }).find("does not own"),
            std::string::npos);
}

TEST_F(OneBus, HeldRequestersArePassedOverAndKeepTheirPlace) {
  bool hold_cni = true;
  bus.set_hold([&](Bus::Requester r) { return hold_cni && r == r1; });
  bus.transact(r0, 10, mark("cpu"));
  bus.transact(r1, 10, mark("cni"));
  bus.transact(r2, 10, mark("dma"));
  bus.transact(r3, 10, mark("bridge"));
  k.at(c(12), [&] {
    hold_cni = false;
    bus.rearbitrate();
  });
  run(k);
  // dma passes the held cni at 10; at 20 cni, released meanwhile, is first again.
  EXPECT_EQ(order, (std::vector<std::string>{"cpu", "dma", "cni", "bridge"}));
  EXPECT_EQ(done["cni"], c(30));
}

TEST_F(IoBus, MemoryBusReadBlocksUntilItsIoPartIsDone) {
  make_bridge();
  bridge->mem_to_io(cpu, BusOp::Read, 20, 28, mark("load"));  // 48 cycles, 000 Table 2
  mem.transact(cpu2, 5, mark("cpu2"));
  run(k);
  EXPECT_EQ(done["load"], c(48));
  EXPECT_EQ(done["cpu2"], c(53));  // the memory bus was held for the whole read
  EXPECT_EQ(io.stats().busy, c(28));
  EXPECT_EQ(bridge->stats().reads, 1u);
}

TEST_F(IoBus, MemoryBusWriteIsPostedAndDrainsLater) {
  make_bridge();
  bridge->mem_to_io(cpu, BusOp::Write, 12, 20, mark("store"));
  mem.transact(cpu2, 5, mark("cpu2"));
  k.at(c(13), [this] { io.transact(cni, 1, mark("cni")); });
  run(k);
  EXPECT_EQ(done["store"], c(12));  // posted: the requester is free after its memory part
  EXPECT_EQ(done["cpu2"], c(17));
  EXPECT_EQ(done["cni"], c(33));  // the I/O bus carried the write from 12 to 32
  EXPECT_EQ(bridge->stats().writes, 1u);
}

TEST_F(IoBus, ReadReturnsAfterTheWritesPostedBeforeIt) {
  make_bridge(2);
  bridge->mem_to_io(cpu, BusOp::Write, 12, 40, [this] {
    bridge->mem_to_io(cpu, BusOp::Write, 12, 40,
                      [this] { bridge->mem_to_io(cpu, BusOp::Read, 20, 28, mark("load")); });
  });
  run(k);
  // I/O bus: first write 12..52, second 52..92, then the read 92..120.
  EXPECT_EQ(done["load"], c(120));
  EXPECT_EQ(bridge->stats().writes, 2u);
}

TEST_F(IoBus, FullWriteBufferHoldsTheMemoryBus) {
  make_bridge(1);
  bridge->mem_to_io(cpu, BusOp::Write, 12, 40,
                    [this] { bridge->mem_to_io(cpu, BusOp::Write, 12, 40, mark("second store")); });
  k.at(c(13), [this] { mem.transact(cpu2, 5, mark("cpu2")); });
  run(k);
  // The second write's memory part ends at 24 with the buffer full until the first write
  // has crossed (12..52): it is posted at 52, and cpu2 gets the memory bus only then.
  EXPECT_EQ(done["second store"], c(52));
  EXPECT_EQ(done["cpu2"], c(57));
  EXPECT_EQ(bridge->stats().full_waits, 1u);
}

TEST_F(IoBus, CollisionNacksTheIoSideWhichRetriesAfterTheMemorySideEnds) {
  make_bridge();
  bridge->mem_to_io(cpu, BusOp::Read, 20, 28, mark("cpu load"));
  bridge->io_to_mem(cni, BusOp::Read, 10, 20, mark("cni read"));
  run(k);
  // cni reaches the bridge at 10 while the CPU's read holds the memory bus: NACK. The CPU
  // read crosses (I/O bus 20..48); cni asks again at 48: 10 + 20 cycles.
  EXPECT_EQ(done["cpu load"], c(48));
  EXPECT_EQ(done["cni read"], c(48 + 30));
  EXPECT_EQ(bridge->stats().nacks, 1u);
  EXPECT_EQ(bridge->stats().reads, 2u);
  EXPECT_EQ(io.stats().busy, c(10 + 28 + 30));  // the NACKed attempt occupied it too
}

TEST_F(IoBus, NackedRequesterWaitsTheRetryDelay) {
  make_bridge(2, 4);
  bridge->mem_to_io(cpu, BusOp::Read, 20, 28, mark("cpu load"));
  bridge->io_to_mem(cni, BusOp::Read, 10, 20, mark("cni read"));
  run(k);
  EXPECT_EQ(done["cni read"], c(48 + 4 + 30));
}

TEST_F(IoBus, IoReadWaitingForTheMemoryBusIsNackedWhenAMemorySideReadTakesIt) {
  make_bridge();
  mem.transact(cpu2, 30, mark("local"));
  bridge->io_to_mem(cni, BusOp::Read, 10, 20, mark("cni read"));
  k.at(c(5), [this] { bridge->mem_to_io(cpu, BusOp::Read, 20, 28, mark("cpu load")); });
  run(k);
  // At 30 the CPU's read (asked at 5) gets the memory bus before the bridge (asked at 10 for
  // cni): each would wait for the other's bus, so cni is NACKed.
  EXPECT_EQ(done["cpu load"], c(30 + 48));
  EXPECT_EQ(done["cni read"], c(78 + 30));
  EXPECT_EQ(bridge->stats().nacks, 1u);
}

TEST_F(IoBus, AfterANackTheNextIoReadSucceeds) {
  make_bridge();
  bridge->mem_to_io(cpu, BusOp::Read, 20, 28, [this] {
    mark("cpu load")();
    bridge->mem_to_io(cpu, BusOp::Read, 20, 28, mark("cpu load 2"));
  });
  bridge->io_to_mem(cni, BusOp::Read, 10, 20, mark("cni read"));
  k.at(c(50), [this] { mem.transact(cpu2, 5, mark("local")); });
  run(k);
  // The second CPU read would take the memory bus at 48 and NACK cni's retry again; it waits
  // until cni's read crossed (48..78). Memory-only traffic is not held.
  EXPECT_EQ(done["cpu load"], c(48));
  EXPECT_EQ(done["local"], c(55));
  EXPECT_EQ(done["cni read"], c(78));
  EXPECT_EQ(done["cpu load 2"], c(78 + 48));
  EXPECT_EQ(bridge->stats().nacks, 1u);
}

TEST_F(IoBus, IoWriteIntoAFullBufferIsNackedAndRetried) {
  make_bridge(1, 10);
  mem.transact(cpu2, 100, mark("local"));
  bridge->io_to_mem(cni, BusOp::Write, 5, 10, mark("cni write"));
  bridge->io_to_mem(cni2, BusOp::Write, 5, 10, mark("cni2 write"));
  run(k);
  // cni's write is buffered at 5 and crosses when the memory bus frees (100..110); cni2 finds
  // the buffer full at 10, 25, 40, 55, 70, 85 and 100, and gets in at 115.
  EXPECT_EQ(done["cni write"], c(5));
  EXPECT_EQ(done["cni2 write"], c(115));
  EXPECT_EQ(bridge->stats().nacks, 7u);
  EXPECT_EQ(bridge->stats().writes, 2u);
  EXPECT_EQ(mem.stats().busy, c(100 + 10 + 10));
}

TEST_F(IoBus, AnIoRequesterBeingRetriedCannotAskAgain) {
  make_bridge();
  bridge->mem_to_io(cpu, BusOp::Read, 20, 28, nullptr);
  bridge->io_to_mem(cni, BusOp::Read, 10, 20, nullptr);
  k.run_until(c(20));  // cni was NACKed at 10 and waits for the CPU's read to end
  EXPECT_EQ(bridge->stats().nacks, 1u);
  const std::string m =
      error_of<std::logic_error>([&] { bridge->io_to_mem(cni, BusOp::Write, 5, 5, nullptr); });
  EXPECT_NE(m.find("'cni'"), std::string::npos) << m;
  EXPECT_NE(error_of<std::logic_error>([&] {
              bridge->mem_to_io(cpu, BusOp::Write, 5, 5, nullptr);
            }).find("'cpu'"),
            std::string::npos);
}

TEST_F(IoBus, ZeroCyclesOnTheRequestersBusIsRejected) {
  make_bridge();
  EXPECT_THROW(bridge->io_to_mem(cni, BusOp::Write, 0, 5, nullptr), std::invalid_argument);
  EXPECT_THROW(bridge->mem_to_io(cpu, BusOp::Read, 0, 5, nullptr), std::invalid_argument);
  EXPECT_FALSE(io.outstanding(cni));
  EXPECT_FALSE(mem.outstanding(cpu));
}
