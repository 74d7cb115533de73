// SPDX-License-Identifier: Apache-2.0
// Test benches for the device caching agent (tb/cache/rtl_cache_agent.hpp), one fresh Verilated
// model per test, seed from env CNI_SEED or the test's name (logged), FST per test with
// CNI_TRACE=1 (<suite>.<test>.fst):
//   ScriptedBench - the agent (agent 3) and a home the test scripts by hand (agent 0, home of
//                   every address below 4 GiB), on one node: every row of the state tables,
//                   deterministically.
//   SystemBench   - the agent on a device node, joined by a link to a socket node with the C++
//                   host home (agent 0, [0, 1 MiB)) and two host caches (agents 1, 2); the
//                   coherence checker observes every agent.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "../sim/script_agent.hpp"
#include "cache/rtl_cache_agent.hpp"
#include "cni/sim/cache.hpp"
#include "cni/sim/home.hpp"
#include "coherence_checker.hpp"

namespace cni::tb::cache_test {

using proto::Addr;
using proto::Op;
using Line = RtlCacheAgent::Line;
using Result = RtlCacheAgent::Result;
using LS = LineState;

inline constexpr proto::AgentId kHome = 0, kHost1 = 1, kHost2 = 2, kDev = 3;
inline const unsigned kLB = cache_geometry().line_bytes;

// Lines of home 0: line i is in set i % sets.
inline Addr line_addr(unsigned i) { return 0x1000 + Addr{i} * kLB; }

// A line image whose bytes are seed, seed+1, ...
inline Line pattern(uint8_t seed) { return sim::test::pattern(seed); }
inline bool same_line(const Line& a, const Line& b) {
  return std::equal(a.begin(), a.begin() + kLB, b.begin());
}

// Seed: env CNI_SEED, else a hash of the test's name.
inline uint64_t test_seed() {
  if (const char* s = std::getenv("CNI_SEED")) return std::strtoull(s, nullptr, 0);
  const auto* info = testing::UnitTest::GetInstance()->current_test_info();
  uint64_t h = 1469598103934665603ull;
  for (const char* p : {info->test_suite_name(), info->name()}) {
    for (; *p; ++p) h = (h ^ static_cast<uint8_t>(*p)) * 1099511628211ull;
  }
  return h;
}

inline std::string trace_name() {
  const auto* info = testing::UnitTest::GetInstance()->current_test_info();
  std::string n = std::string(info->test_suite_name()) + "." + info->name();
  for (char& c : n) {
    if (c == '/') c = '_';
  }
  return n;
}

// Common part: kernel, fabric, the agent, helpers to run and to issue engine requests.
class BenchBase : public testing::Test {
 protected:
  void TearDown() override {
    if (dev) {
      EXPECT_FALSE(dev->got_error()) << "an RTL assertion failed";
      EXPECT_TRUE(dev->errors().empty()) << dev->errors().front();
    }
  }

  RtlCacheAgent::Options dev_options() {
    seed = test_seed();
    std::printf("[ seed     ] CNI_SEED=%llu\n", static_cast<unsigned long long>(seed));
    RecordProperty("seed", std::to_string(seed));
    RtlCacheAgent::Options o;
    o.name = trace_name();
    o.seed = seed;
    return o;
  }

  // Run until `pred` holds or `max` passes; returns pred().
  bool run_until(const std::function<bool()>& pred, sim::Time max = sim::ns(20'000)) {
    const sim::Time end = k->now() + max;
    k->run([&] { return pred() || k->now() >= end; });
    return pred();
  }
  void run_for(sim::Time t) { k->run_until(k->now() + t); }

  // Submit an engine request; the result lands in *out when the response leaves.
  void submit(CaOp op, Addr a, std::optional<Result>* out, const Line* data = nullptr,
              const RtlCacheAgent::ByteMask* be = nullptr) {
    out->reset();
    dev->submit(
        op, a, [out](const Result& r) { *out = r; }, data ? data->data() : nullptr, be);
  }
  // Submit and wait for the response.
  Result op(CaOp op, Addr a, const Line* data = nullptr,
            const RtlCacheAgent::ByteMask* be = nullptr) {
    std::optional<Result> r;
    submit(op, a, &r, data, be);
    EXPECT_TRUE(run_until([&] { return r.has_value(); }))
        << ca_op_name(op) << " at 0x" << std::hex << a << " got no response";
    return r.value_or(Result{});
  }

  std::unique_ptr<sim::Kernel> k;
  std::unique_ptr<sim::Fabric> f;
  std::unique_ptr<RtlCacheAgent> dev;
  uint64_t seed = 0;
};

class ScriptedBench : public BenchBase {
 protected:
  void SetUp() override {
    k = std::make_unique<sim::Kernel>();
    f = std::make_unique<sim::Fabric>(*k, kLB);
    const sim::NodeId n = f->add_node("node", sim::ns(10), 0);
    home = std::make_unique<sim::test::ScriptAgent>(kHome, *k, *f);
    f->attach(*home, n);
    f->map_home(0, 1ull << 32, kHome);
    RtlCacheAgent::Options o = dev_options();
    o.clean_cycles = clean_cycles();
    dev = std::make_unique<RtlCacheAgent>(*k, *f, n, kDev, o);
  }
  // cfg_clean_i of the agent under test (docs/cache-agent.md, "Idle clean"): off by default.
  virtual uint16_t clean_cycles() const { return 0; }

  // Wait for the home to receive its next message; returns it.
  proto::Msg expect_at_home(Op op, Addr a) {
    const size_t n = seen_;
    EXPECT_TRUE(run_until([&] { return home->got.size() > n; }))
        << "no " << proto::op_name(op) << " reached the home";
    if (home->got.size() <= n) return proto::Msg{};
    seen_ = n + 1;
    const proto::Msg m = home->got[n];
    EXPECT_EQ(m.op, op) << m.str();
    EXPECT_EQ(m.addr, a) << m.str();
    EXPECT_EQ(m.src, kDev);
    EXPECT_EQ(m.dst, kHome);
    return m;
  }
  // Nothing more reaches the home within `t`.
  void expect_quiet(sim::Time t = sim::ns(300)) {
    run_for(t);
    EXPECT_EQ(home->got.size(), seen_) << "unexpected " << home->got.back().str();
    seen_ = home->got.size();
  }
  // The home sends a snoop; returns the agent's answer.
  proto::Msg snoop(Op op, Addr a, uint8_t tag = 0x42) {
    home->send(op, kDev, a, tag);
    return expect_at_home_any();
  }
  proto::Msg expect_at_home_any() {
    const size_t n = seen_;
    EXPECT_TRUE(run_until([&] { return home->got.size() > n; })) << "no message reached home";
    if (home->got.size() <= n) return proto::Msg{};
    seen_ = n + 1;
    return home->got[n];
  }
  // Answer a request the home received.
  void answer(const proto::Msg& req, Op op, const Line* data = nullptr, uint8_t flags = 0) {
    home->answer(req, op, data, flags);
  }

  // An engine request left outstanding by reach(): the request the home holds, the result.
  struct Pending {
    proto::Msg req;
    std::optional<Result> res;
  };
  // Bring line `a` into state `s` holding `p`. Stable states are reached by a read miss granted
  // DataS/DataE/DataM (O: then FwdDownO); transient ones leave their request unanswered in
  // *pend: IS (RD_S), IM (RD_X), SM and OM (RD_X from S, O), MI (FLUSH of M).
  void reach(LS s, Addr a, const Line& p, Pending* pend) {
    Pending local;
    Pending* q = pend ? pend : &local;
    switch (s) {
      case LS::I:
        return;
      case LS::S:
      case LS::E:
      case LS::M: {
        submit(CaOp::RdS, a, &q->res);
        const proto::Msg r = expect_at_home(Op::RdS, a);
        answer(r, s == LS::S ? Op::DataS : s == LS::E ? Op::DataE : Op::DataM, &p);
        EXPECT_TRUE(run_until([&] { return q->res.has_value(); }));
        break;
      }
      case LS::O: {
        reach(LS::M, a, p, nullptr);
        const proto::Msg ans = snoop(Op::FwdDownO, a);
        EXPECT_EQ(ans.op, Op::SnpData);
        break;
      }
      case LS::IS:
      case LS::IM:
        submit(s == LS::IS ? CaOp::RdS : CaOp::RdX, a, &q->res);
        q->req = expect_at_home(s == LS::IS ? Op::RdS : Op::RdX, a);
        break;
      case LS::SM:
      case LS::OM:
        reach(s == LS::SM ? LS::S : LS::O, a, p, nullptr);
        submit(CaOp::RdX, a, &q->res);
        q->req = expect_at_home(Op::Upg, a);
        break;
      case LS::MI:
        reach(LS::M, a, p, nullptr);
        submit(CaOp::Flush, a, &q->res);
        q->req = expect_at_home(Op::WB, a);
        EXPECT_TRUE(same_line(q->req.data, p)) << "the write-back carries the line";
        break;
    }
    EXPECT_EQ(dev->state(a), s) << "reaching " << line_state_name(s);
  }

  std::unique_ptr<sim::test::ScriptAgent> home;
  size_t seen_ = 0;  // home messages already looked at
};

inline sim::CacheParams host_cache_params() {
  sim::CacheParams p;
  p.line_bytes = kLB;
  p.size_kib = 1;  // 16 lines: 8 sets x 2 ways
  p.ways = 2;
  p.l1_size_kib = 1;
  p.l1_ways = 16;
  p.l1_hit = sim::ns(1);
  p.hit = sim::ns(4);
  p.miss = sim::ns(4);
  p.snoop = sim::ns(4);
  p.retry_backoff = sim::ns(50);
  p.timeout = sim::ns(100e6);  // 100 ms
  p.mshrs = 4;
  return p;
}

inline sim::HomeParams host_home_params() {
  sim::HomeParams p;
  p.line_bytes = kLB;
  p.dir = sim::ns(10);
  p.dram_latency = sim::ns(40);
  p.max_transactions = 16;
  p.grant_exclusive = true;
  p.forward_owned = true;
  return p;
}

class SystemBench : public BenchBase {
 protected:
  void SetUp() override { build(host_home_params()); }
  // With `reference`, a sim::HostCache takes the agent's place (same id and node): the
  // reference model an operation stream is compared against.
  void build(const sim::HomeParams& hp, RtlCacheAgent::Options o = {}, bool reference = false) {
    dev.reset();
    ref.reset();
    hosts[0].reset();
    hosts[1].reset();
    home.reset();
    f.reset();
    k = std::make_unique<sim::Kernel>();
    f = std::make_unique<sim::Fabric>(*k, kLB);
    checker = std::make_unique<CoherenceChecker>(kLB);
    checker->watch(0, kHomeSize);
    const sim::NodeId socket = f->add_node("socket0", sim::ns(10), 0);
    const sim::NodeId device = f->add_node("device", 0, 0);
    f->connect(socket, device, sim::LinkParams{sim::ns(30), 0.0, 0, 0});
    home = std::make_unique<sim::HomeAgent>(*k, *f, kHome, 0, kHomeSize, hp, "home0");
    f->attach(*home, socket);
    f->map_home(0, kHomeSize, kHome);
    for (unsigned i = 0; i < 2; ++i) {
      hosts[i] = std::make_unique<sim::HostCache>(*k, *f, static_cast<proto::AgentId>(kHost1 + i),
                                                  host_cache_params(), "host" + std::to_string(i));
      f->attach(*hosts[i], socket);
      hosts[i]->set_observer(checker.get());
    }
    if (reference) {
      ref = std::make_unique<sim::HostCache>(*k, *f, kDev, host_cache_params(), "reference");
      f->attach(*ref, device);
      ref->set_observer(checker.get());
      return;
    }
    RtlCacheAgent::Options d = dev_options();
    d.oreq_stall = o.oreq_stall;
    d.orsp_stall = o.orsp_stall;
    d.rsp_stall = o.rsp_stall;
    d.backoff_cycles = o.backoff_cycles;
    d.clean_cycles = o.clean_cycles;
    dev = std::make_unique<RtlCacheAgent>(*k, *f, device, kDev, d);
    dev->set_observer(checker.get());
  }
  void TearDown() override {
    BenchBase::TearDown();
    if (checker) {
      EXPECT_TRUE(checker->errors().empty()) << checker->errors().front();
    }
    if (home) {
      EXPECT_EQ(home->stats().errors, unexpected_home_errors)
          << (home->error_log().empty() ? "" : home->error_log().front());
    }
  }

  // A host cache's load of a whole line / store of bytes [off, off + n) of `data`; wait.
  Line host_load(unsigned h, Addr a) {
    Line l{};
    bool done = false;
    hosts[h]->load(a, l.data(), kLB, [&] { done = true; });
    EXPECT_TRUE(run_until([&] { return done; })) << "host load of 0x" << std::hex << a;
    return l;
  }
  void host_store(unsigned h, Addr a, const Line& data, unsigned off = 0, unsigned n = 0) {
    bool done = false;
    hosts[h]->store(a + off, data.data() + off, n ? n : kLB - off, [&] { done = true; });
    EXPECT_TRUE(run_until([&] { return done; })) << "host store to 0x" << std::hex << a;
  }
  Line memory(Addr a) const {
    Line l{};
    home->read_memory(a, l.data(), kLB);
    return l;
  }

  static constexpr Addr kHomeSize = 1 << 20;
  std::unique_ptr<CoherenceChecker> checker;
  std::unique_ptr<sim::HomeAgent> home;
  std::unique_ptr<sim::HostCache> hosts[2];
  std::unique_ptr<sim::HostCache> ref;  // the reference model in the agent's place
  uint64_t unexpected_home_errors = 0;  // tests that provoke home errors set this
};

}  // namespace cni::tb::cache_test
