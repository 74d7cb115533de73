// SPDX-License-Identifier: Apache-2.0
// Fixture of the system tests of the device's caching agent: a system of two sockets with
// small host caches and a short link, built by tb::System with the checking build of the
// device core, whose host caches (HostSystem::set_observer) and device caching agent
// (SimDevice::set_observer) all report to one coherence checker; it watches a window of host
// lines on each socket and the device's memory. Helpers run device engine requests and core
// programs to completion. Seed from env CNI_SEED (default 1), printed by every test; teardown
// checks the checker, the device's response checks, its assertions and its error counters,
// and the host homes' error counts.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "coherence_checker.hpp"
#include "fixture.hpp"

namespace cni::test {

using proto::Addr;
using tb::CaByteMask;
using tb::CaLine;
using tb::CaOp;
using tb::CaResult;
using tb::LineState;

class DeviceCacheTest : public testing::Test {
 protected:
  static constexpr unsigned kSockets = 2;
  static constexpr unsigned kCores = 4;  // core c on socket c % 2
  // The host lines the checker watches: kWindowLines lines from kWindow on each socket.
  static constexpr Addr kWindow = 0x10000;
  static constexpr unsigned kWindowLines = 64;

  // The default system, `sets` applied on top; the device's engine holds off each response
  // with probability `rsp_stall`.
  void build(const std::vector<std::string>& sets = {}, double rsp_stall = 0.0) {
    s.reset();
    chk.reset();
    seed = 1;
    if (const char* e = std::getenv("CNI_SEED")) seed = std::strtoull(e, nullptr, 0);
    std::printf("[ seed     ] CNI_SEED=%llu\n", static_cast<unsigned long long>(seed));
    RecordProperty("seed", std::to_string(seed));
    std::vector<std::string> keys = {"host.sockets=" + std::to_string(kSockets),
                                     "host.cores=" + std::to_string(kCores),
                                     "cache.size_kib=1",
                                     "cache.ways=2",
                                     "l1.size_kib=1",
                                     "l1.ways=2",
                                     "cache.mshrs=4",
                                     "link.one_way_ns=40",
                                     "core.store_buffer=4",
                                     "sim.seed=" + std::to_string(seed)};
    keys.insert(keys.end(), sets.begin(), sets.end());
    const uint64_t dev_seed = seed;
    s = std::make_unique<System>(profile(keys), ~0u,
                                 [dev_seed, rsp_stall](tb::SimDevice::Config& c) {
                                   c.seed = dev_seed;
                                   c.ca_rsp_stall = rsp_stall;
                                 });
    lb = s->dev.geometry().line_bytes;
    chk = std::make_unique<tb::CoherenceChecker>(lb);
    for (unsigned k = 0; k < kSockets; ++k) chk->watch(host_line(k, 0), Addr{kWindowLines} * lb);
    chk->watch(s->dev.host_base(), Addr{s->dev.geometry().mem_lines} * lb);
    s->host.set_observer(chk.get());
    s->dev.set_observer(chk.get());
  }

  void TearDown() override {
    if (!s) return;
    for (size_t i = 0; i < std::min<size_t>(chk->errors().size(), 10); ++i) {
      ADD_FAILURE() << chk->errors()[i];
    }
    EXPECT_TRUE(chk->errors().empty()) << chk->errors().size() << " coherence violations";
    const auto& dev_errors = s->dev.cache().errors();
    EXPECT_TRUE(dev_errors.empty())
        << dev_errors.size()
        << " response/monitor errors, first: " << (dev_errors.empty() ? "" : dev_errors.front());
    EXPECT_FALSE(s->dev.endpoint().got_error()) << "an RTL assertion failed";
    for (tb::csr::Counter c : {tb::csr::kErrOpcode, tb::csr::kErrAddr, tb::csr::kErrLen,
                               tb::csr::kErrProto, tb::csr::kErrCredit, tb::csr::kCaErrors}) {
      EXPECT_EQ(s->counter(c), 0u) << tb::csr::counter_name(c);
    }
    for (unsigned k = 0; k < kSockets; ++k) {
      const sim::HomeAgent& h = s->host.home(k);
      EXPECT_EQ(h.stats().errors, 0u)
          << h.name() << ": " << (h.error_log().empty() ? "" : h.error_log().front());
    }
  }

  // Host line `i` of the window on socket `socket`.
  Addr host_line(unsigned socket, unsigned i) const {
    return sim::HostSystem::dram_base(socket) + kWindow + Addr{i} * lb;
  }
  proto::AgentId dev_id() const { return s->dev.id(); }

  // Run until `pred` holds or `max` simulated time passes; returns pred().
  bool run_until(const std::function<bool()>& pred, sim::Time max = sim::ns(100'000)) {
    sim::Kernel& k = s->kernel();
    const sim::Time end = k.now() + max;
    k.run([&] { return pred() || k.now() >= end; });
    return pred();
  }

  // A device engine request, run until its response leaves the caching agent.
  CaResult dev_op(CaOp op, Addr a, const CaLine* data = nullptr, const CaByteMask* be = nullptr) {
    auto r = std::make_shared<std::optional<CaResult>>();
    s->dev.submit(
        op, a, [r](const CaResult& res) { *r = res; }, data ? data->data() : nullptr, be);
    EXPECT_TRUE(run_until([&] { return r->has_value(); }))
        << tb::ca_op_name(op) << " 0x" << std::hex << a << " got no response";
    return r->value_or(CaResult{});
  }

  // Run `program` on `core` until it finishes (and its store buffer drains).
  void on_core(unsigned core, const std::function<void(drv::MemoryPort&)>& program) {
    s->host.spawn(core, program);
    s->host.run_programs();
  }
  CaLine core_load(unsigned core, Addr a) {
    CaLine l{};
    on_core(core, [&](drv::MemoryPort& m) { m.load(a, l.data(), lb); });
    return l;
  }
  void core_store(unsigned core, Addr a, const void* data, unsigned n) {
    on_core(core, [&](drv::MemoryPort& m) {
      m.store(a, data, n);
      m.barrier();
    });
  }
  bool same_line(const CaLine& a, const CaLine& b) const {
    return std::equal(a.begin(), a.begin() + lb, b.begin());
  }
  // A line whose bytes are seed, seed + 1, ...
  CaLine pattern(uint8_t first) const {
    CaLine l{};
    for (unsigned i = 0; i < lb; ++i) l[i] = static_cast<uint8_t>(first + i);
    return l;
  }

  // Destroyed after the system, which reports to it until then.
  std::unique_ptr<tb::CoherenceChecker> chk;
  std::unique_ptr<System> s;
  unsigned lb = 128;
  uint64_t seed = 1;
};

}  // namespace cni::test
