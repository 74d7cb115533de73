// SPDX-License-Identifier: Apache-2.0
// GoogleTest fixture for the standalone home agent (tb/home/home_harness.hpp): a fresh model per
// test, the seed from env CNI_SEED or the test's name (logged), an FST per test with CNI_TRACE=1
// (<suite>.<test>[.pipe].fst). The test plays caching agents 1..3 message by message and the
// device engine command by command; helpers bring a line into a directory state and read the
// directory back through the engine port (probe()).
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <memory>
#include <optional>
#include <ostream>
#include <set>
#include <string>

#include "home/home_harness.hpp"

namespace cni::tb::home::test {

inline constexpr uint8_t kA1 = 1, kA2 = 2, kA3 = 3;  // caching agents
inline const HomeGeometry& geo() { return home_geometry(); }
// Cycles between taking a message and applying its decision (the pipeline's depth less one).
inline unsigned apply_delay() { return geo().pipelined ? 6 : 1; }

// A line image: bytes seed * 31 + 7i + 1.
inline Line pattern(unsigned seed) {
  Line d{};
  for (unsigned i = 0; i < geo().line_bytes; ++i)
    d[i] = static_cast<uint8_t>(seed * 31 + i * 7 + 1);
  return d;
}

// The directory of a line as probe() reads it back: 'I', 'S' or 'X', and the agents it names.
struct Dir {
  char state = 'I';
  std::set<uint8_t> holders;
  bool operator==(const Dir&) const = default;
};
inline std::ostream& operator<<(std::ostream& os, const Dir& d) {
  os << d.state << '{';
  const char* sep = "";
  for (uint8_t h : d.holders) os << sep << unsigned(h), sep = ",";
  return os << '}';
}

class HomeTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    std::string name = std::string(info->test_suite_name()) + "." + info->name();
    for (char& c : name) {
      if (c == '/') c = '_';
    }
    if (geo().pipelined) name += ".pipe";
    uint64_t seed = 1469598103934665603ull;
    for (char c : name) seed = (seed ^ static_cast<uint8_t>(c)) * 1099511628211ull;
    if (const char* s = std::getenv("CNI_SEED")) seed = std::strtoull(s, nullptr, 0);
    std::printf("[ seed     ] %s CNI_SEED=%llu\n", name.c_str(),
                static_cast<unsigned long long>(seed));
    RecordProperty("seed", std::to_string(seed));
    HomeHarness::Options o;
    o.name = name;
    o.seed = seed;
    h = std::make_unique<HomeHarness>(o);
    h->reset();
  }

  void TearDown() override {
    EXPECT_FALSE(h->got_error()) << "an RTL assertion failed";
    for (const auto& e : h->errors()) ADD_FAILURE() << e;
    if (HasFailure()) return;
    h->run(20);
    for (const auto& o : h->out()) ADD_FAILURE() << "unexpected message left: " << o.msg.str();
    for (const auto& e : h->events()) {
      ADD_FAILURE() << "unexpected event left on line " << e.line;
    }
    EXPECT_TRUE(h->inputs_idle()) << "the home left inputs untaken";
  }

  Addr line(unsigned l) const { return geo().addr_of(l); }
  Msg req(Op op, uint8_t src, unsigned l, uint8_t tag = 7) const {
    return h->make(op, src, line(l), tag);
  }
  Msg wb(uint8_t src, unsigned l, const Line& d, uint8_t tag = 7) const {
    return h->make(Op::WB, src, line(l), tag, &d);
  }

  // The next message out of the home (waits up to `max` cycles).
  std::optional<OutMsg> next_out(unsigned max = 200) {
    if (!h->run_until([&] { return !h->out().empty(); }, max)) return std::nullopt;
    OutMsg o = h->out().front();
    h->out().pop_front();
    return o;
  }
  // The next message out must be `op` to `dst` about `addr` (from this home, on op's channel).
  Msg expect_at(Op op, uint8_t dst, Addr addr, unsigned max = 200) {
    auto o = next_out(max);
    if (!o) {
      ADD_FAILURE() << "expected " << proto::op_name(op) << " to " << unsigned(dst)
                    << ", nothing came";
      return Msg{};
    }
    EXPECT_EQ(o->msg.op, op) << o->msg.str();
    EXPECT_EQ(o->msg.dst, dst) << o->msg.str();
    EXPECT_EQ(o->msg.addr, addr) << o->msg.str();
    EXPECT_EQ(o->msg.src, h->agent_id()) << o->msg.str();
    EXPECT_EQ(o->ch, o->msg.chan()) << o->msg.str() << " on the wrong channel";
    EXPECT_EQ(o->msg.len, proto::carries_data(op) ? geo().line_bytes : 0u) << o->msg.str();
    return o->msg;
  }
  Msg expect(Op op, uint8_t dst, unsigned l) { return expect_at(op, dst, line(l)); }
  // Nothing comes out, and no event, for `cycles`.
  void expect_quiet(unsigned cycles = 40) {
    h->run(cycles);
    for (const auto& o : h->out()) ADD_FAILURE() << "unexpected: " << o.msg.str();
    for (const auto& e : h->events()) ADD_FAILURE() << "unexpected event on line " << e.line;
    h->out().clear();
    h->events().clear();
  }
  // The next event the home raises (waits up to `max` cycles).
  std::optional<EvtRec> next_event(unsigned max = 200) {
    if (!h->run_until([&] { return !h->events().empty(); }, max)) return std::nullopt;
    EvtRec e = h->events().front();
    h->events().pop_front();
    return e;
  }
  // The next event must be `kind` on line `l` (TRIGGER: of request `op` from `src`).
  EvtRec expect_event(Evt kind, unsigned l, Op op = Op::RdS, uint8_t src = 0) {
    auto e = next_event();
    if (!e) {
      ADD_FAILURE() << "no event on line " << l;
      return EvtRec{};
    }
    EXPECT_EQ(e->kind, kind) << "line " << e->line;
    EXPECT_EQ(e->line, l);
    if (kind == Evt::Trigger) {
      EXPECT_EQ(e->op, op) << proto::op_name(e->op);
      EXPECT_EQ(e->src, src);
    }
    return *e;
  }
  EvtRec expect_trigger(unsigned l, Op op, uint8_t src) {
    return expect_event(Evt::Trigger, l, op, src);
  }

  // A command, and wait until the home takes it.
  void command(Cmd op, unsigned l, unsigned arg = 0) {
    const size_t n = h->commands().size();
    h->command(op, l, arg);
    EXPECT_TRUE(h->run_until([&] { return h->commands().size() > n; }, 500))
        << cmd_name(op) << " of line " << l << " was not taken";
  }
  void set_policy(unsigned l, Policy p) { command(Cmd::Policy, l, static_cast<unsigned>(p)); }

  // The snoop answer of the agent a FWD went to (SnpData with `d` when dirty).
  void answer(const Msg& fwd, bool dirty, const Line& d = {}, uint8_t flags = 0) {
    Msg m = h->make(dirty ? Op::SnpData : Op::SnpAck, fwd.dst, fwd.addr, fwd.tag, &d);
    m.flags = flags;
    h->send(m);
  }

  // Directory states reached through the protocol: X{a} by RdX, S{as} by RdS with
  // return-in-Exclusive off (restored to every region afterwards).
  void acquire(uint8_t a, unsigned l) {
    h->send(req(Op::RdX, a, l));
    expect(Op::DataE, a, l);
  }
  void share(std::initializer_list<uint8_t> as, unsigned l) {
    h->set_ret_excl(0);
    for (uint8_t a : as) {
      h->send(req(Op::RdS, a, l));
      expect(Op::DataS, a, l);
    }
    h->set_ret_excl(all_regions());
  }
  static unsigned all_regions() { return (1u << HomeGeometry::kNumRegions) - 1; }

  // Reads the directory back (and leaves the line in I): RECALL_DN snoops an exclusive holder
  // (FwdDown), then RECALL invalidates every holder; the snoops are answered SnpAck.
  Dir probe(unsigned l) {
    Dir d;
    command(Cmd::RecallDn, l);
    if (auto f = wait_fwd_or_event(l, Op::FwdDown)) {
      d.state = 'X';
      answer(*f, false);
      expect_event(Evt::RecallDone, l);
    }
    command(Cmd::Recall, l);
    while (auto f = wait_fwd_or_event(l, Op::FwdInv)) {
      d.holders.insert(f->dst);
      answer(*f, false);
    }
    if (d.state != 'X') d.state = d.holders.empty() ? 'I' : 'S';
    return d;
  }

  std::unique_ptr<HomeHarness> h;

 private:
  // A snoop `op` of line `l` (returned), or its RECALL_DONE (taken; nullopt).
  std::optional<Msg> wait_fwd_or_event(unsigned l, Op op) {
    EXPECT_TRUE(h->run_until([&] { return !h->out().empty() || !h->events().empty(); }, 200))
        << "probe of line " << l << ": neither a snoop nor RECALL_DONE";
    if (!h->out().empty()) return expect(op, h->out().front().msg.dst, l);
    if (!h->events().empty()) expect_event(Evt::RecallDone, l);
    return std::nullopt;
  }
};

}  // namespace cni::tb::home::test
