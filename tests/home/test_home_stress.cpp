// SPDX-License-Identifier: Apache-2.0
// Seeded random stress of the home agent alone: three caching agents issue a random mix of
// requests, write-backs, stores and silent drops on a few lines, the engine recalls lines now and
// then (and, in the policy variant, changes the lines' policies and answers the requests they park
// with RELEASE, RESUME or NACK, or lets them time out), and every output of the home (FWD, RSP,
// DAT, events) stalls at random. Answers travel to
// the agents over an in-order link with random delays, and the FWD hold is set while answers are
// still on it (as the endpoint's transmit buffers set it). A small reference checks:
//   - single writer, many readers: after every delivery, a line with a holder in E or M has no
//     other holder;
//   - data: every copy an agent holds, every grant's data and memory at RECALL_DONE equal the last
//     value written;
//   - every request is answered exactly once, no answer comes without a request, no Error (but
//     from a DENY policy or a NACK), a TRIGGER names a request in flight.
// With DRAM-backed lines (the dram model), some of the lines are DRAM lines, two to a frame or
// (wide) all of them, so they leave their frames and come back all the time while the DRAM's
// AXI handshakes stall at random; each is first brought to its value through the protocol (a
// line never written reads as zeros), and at the end read back, since the harness sees no
// memory of theirs at RECALL_DONE.
#include <algorithm>
#include <array>
#include <cstdio>
#include <deque>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "home_fixture.hpp"

namespace cni::tb::home::test {
namespace {

enum class St { I, S, E, M, IS, IM, SM, MI };
const char* st_name(St s) {
  static const char* n[] = {"I", "S", "E", "M", "IS", "IM", "SM", "MI"};
  return n[static_cast<unsigned>(s)];
}
bool readable(St s) { return s == St::S || s == St::SM || s == St::E || s == St::M; }
bool exclusive(St s) { return s == St::E || s == St::M; }

// A line image made from a 32-bit value (what the stress writes and checks).
Line value_line(uint32_t v) {
  Line d{};
  for (unsigned i = 0; i < geo().line_bytes; ++i)
    d[i] = static_cast<uint8_t>(v >> (8 * (i % 4)) ^ i);
  return d;
}

struct StressCase {
  double stall;   // probability that an output's ready (or evt_ready) is low in a cycle
  bool policies;  // the engine sets policies and answers parked requests
  bool wide;      // every line, busier agents, slow snoop answers: the table fills up
};
void PrintTo(const StressCase& c, std::ostream* os) {
  *os << "stall " << c.stall << (c.policies ? ", policies" : "") << (c.wide ? ", wide" : "");
}

class HomeStress : public HomeTest, public testing::WithParamInterface<StressCase> {
 protected:
  struct Copy {
    St st = St::I;
    uint32_t value = 0;
    std::optional<uint8_t> tag;  // the request in flight
    Op op = Op::RdS;
  };
  struct Delivery {
    uint64_t at;
    OutMsg m;
  };
  static constexpr std::array<uint8_t, 3> kAgents = {kA1, kA2, kA3};
  std::vector<unsigned> lines_;  // the lines the stress uses, one per region or two
  std::map<unsigned, uint32_t> truth_;
  std::map<std::pair<uint8_t, unsigned>, Copy> copy_;
  std::array<uint8_t, 16> next_tag_{};
  std::deque<Delivery> link_;
  std::optional<std::pair<Cmd, unsigned>> recall_;      // the engine's RECALL in flight
  std::deque<std::pair<uint64_t, unsigned>> triggers_;  // when to answer a TRIGGER, its line
  std::array<std::deque<std::pair<uint64_t, Msg>>, 16> answers_;  // snoop answers on their way
  uint32_t next_value_ = 1;
  std::map<std::string, uint64_t> stats_;

  Copy& at(uint8_t a, unsigned l) { return copy_[{a, l}]; }
  unsigned line_of(Addr a) const { return unsigned((a - geo().dev_base) / geo().line_bytes); }
  bool chance(double p) { return std::uniform_real_distribution<double>(0, 1)(h->rng()) < p; }
  unsigned pick(unsigned n) { return unsigned(h->rng()() % n); }

  void issue(uint8_t a, unsigned l, Op op, St next) {
    Copy& c = at(a, l);
    const uint8_t tag = next_tag_[a]++;
    c.tag = tag;
    c.op = op;
    c.st = next;
    if (op == Op::WB) {
      const Line d = value_line(c.value);
      h->send(h->make(Op::WB, a, line(l), tag, &d));
    } else {
      h->send(h->make(op, a, line(l), tag));
    }
    ++stats_[proto::op_name(op)];
  }

  // One agent's random action on one line.
  void act(uint8_t a, unsigned l) {
    Copy& c = at(a, l);
    if (c.tag) return;
    const unsigned r = pick(10);
    switch (c.st) {
      case St::I:
        issue(a, l, r < 5 ? Op::RdS : Op::RdX, r < 5 ? St::IS : St::IM);
        break;
      case St::S:
        if (r < 4)
          issue(a, l, Op::Upg, St::SM);
        else if (r < 6)
          c.st = St::I;  // silent drop
        break;
      case St::E:
      case St::M:
        if (r < 5) {
          c.st = St::M;
          c.value = truth_[l] = next_value_++;
          ++stats_["store"];
        } else if (c.st == St::M && r < 8) {
          issue(a, l, Op::WB, St::MI);
        } else if (c.st == St::E && r < 7) {
          c.st = St::I;  // silent drop
        }
        break;
      default:
        break;
    }
  }

  // The engine: now and then a RECALL or RECALL_DN of a random line; with policies, a policy
  // change, and an answer to each TRIGGER after a random delay (or none: the timer answers).
  void engine(bool active) {
    const bool policies = GetParam().policies;
    while (!triggers_.empty() && triggers_.front().first <= h->cycle()) {
      const unsigned l = triggers_.front().second;
      triggers_.pop_front();
      static constexpr Cmd kAnswers[] = {Cmd::Release, Cmd::Resume, Cmd::Resume, Cmd::Nack};
      if (chance(0.75)) {  // else the timer answers
        const Cmd c = kAnswers[pick(std::size(kAnswers))];
        h->command(c, l, c == Cmd::Resume ? pick(4) : c == Cmd::Nack ? pick(2) : 0);  // (4 grants: SO too)
        ++stats_[cmd_name(c)];
      }
    }
    if (!active) return;
    if (policies && chance(0.01)) {
      static constexpr Policy kPolicies[] = {Policy::Allow,  Policy::Allow,  Policy::Allow,
                                             Policy::Shared, Policy::Shared, Policy::Park,
                                             Policy::Park,   Policy::Deny};
      const unsigned l = lines_[pick(lines_.size())];
      const Policy p = kPolicies[pick(std::size(kPolicies))];
      if (p == Policy::Park && chance(0.5)) {
        h->command(Cmd::Arm, l);
      } else if (p == Policy::Allow && chance(0.5)) {
        h->command(Cmd::Disarm, l);
      } else {
        h->command(Cmd::Policy, l, static_cast<unsigned>(p));
      }
    }
    if (recall_ || !chance(0.004)) return;
    recall_ = {chance(0.5) ? Cmd::Recall : Cmd::RecallDn, lines_[pick(lines_.size())]};
    h->command(recall_->first, recall_->second);
    ++stats_[cmd_name(recall_->first)];
  }
  void on_event(const EvtRec& e) {
    if (e.kind == Evt::Trigger) {
      ASSERT_TRUE(GetParam().policies) << "TRIGGER of line " << e.line << " with no policy set";
      ASSERT_LT(e.src, 16u);
      const Copy& c = at(e.src, e.line);
      EXPECT_TRUE(c.tag && c.op == e.op)
          << "TRIGGER of line " << e.line << " names " << proto::op_name(e.op) << " from "
          << unsigned(e.src) << ", which has no such request in flight";
      triggers_.emplace_back(h->cycle() + pick(100), e.line);
      ++stats_["TRIGGER"];
      return;
    }
    ASSERT_TRUE(recall_ && recall_->second == e.line) << "RECALL_DONE of line " << e.line;
    if (!geo().is_dram(e.line)) {
      EXPECT_EQ(h->mem(e.line), value_line(truth_[e.line]))
          << "memory is stale at RECALL_DONE of " << e.line;
    }
    for (uint8_t a : kAgents) {
      const St s = at(a, e.line).st;
      if (recall_->first == Cmd::Recall) {
        EXPECT_FALSE(readable(s)) << "agent " << unsigned(a) << " in " << st_name(s)
                                  << " after RECALL of " << e.line;
      } else {
        EXPECT_FALSE(exclusive(s))
            << "agent " << unsigned(a) << " in " << st_name(s) << " after RECALL_DN of " << e.line;
      }
    }
    recall_.reset();
  }

  // An answer to agent a's request on line l.
  void answered(uint8_t a, unsigned l, const Msg& m) {
    Copy& c = at(a, l);
    ASSERT_TRUE(c.tag && *c.tag == m.tag) << "answer without a request: " << m.str();
    const auto grant = [&](St to) {
      if (proto::carries_data(m.op)) {
        EXPECT_EQ(m.data, value_line(truth_[l])) << "stale grant " << m.str();
        c.value = truth_[l];
      }
      c.st = to;
    };
    const St before = c.st;
    c.tag.reset();
    switch (m.op) {
      case Op::DataS:
        EXPECT_EQ(c.op, Op::RdS) << m.str();
        grant(St::S);
        break;
      case Op::DataE:
        EXPECT_NE(c.op, Op::WB) << m.str();
        grant(St::E);
        break;
      case Op::UpgAck:
        EXPECT_EQ(before, St::SM) << "UpgAck to an agent whose copy was invalidated";
        grant(St::E);
        break;
      case Op::WbAck:
        EXPECT_EQ(c.op, Op::WB) << m.str();
        c.st = St::I;
        break;
      case Op::Error:
        EXPECT_TRUE(GetParam().policies) << m.str();
        [[fallthrough]];
      case Op::Retry:
        EXPECT_NE(c.op, Op::WB) << "a write-back answered " << m.str();
        c.st = before == St::SM ? St::S : St::I;
        ++stats_[proto::op_name(m.op)];
        break;
      default:
        ADD_FAILURE() << "unexpected answer " << m.str();
        break;
    }
  }

  void snooped(uint8_t a, unsigned l, const Msg& f) {
    Copy& c = at(a, l);
    const bool inv = f.op == Op::FwdInv;
    ASSERT_TRUE(inv || f.op == Op::FwdDown) << f.str();
    Msg ans = h->make(Op::SnpAck, a, f.addr, f.tag);
    switch (c.st) {
      case St::M: {
        const Line d = value_line(c.value);
        ans = h->make(Op::SnpData, a, f.addr, f.tag, &d);
        c.st = inv ? St::I : St::S;
        break;
      }
      case St::E:
      case St::S:
        c.st = inv ? St::I : St::S;
        break;
      case St::SM:
        if (inv) c.st = St::IM;
        break;
      case St::MI:
        ans.flags = proto::kFlagWbPending;
        ++stats_["wb_race"];
        break;
      default:
        break;
    }
    // An agent's answers reach the home in order, after a random delay.
    auto& q = answers_[a];
    const uint64_t delay = pick(GetParam().wide ? 30 : 4);
    q.emplace_back(std::max(q.empty() ? 0 : q.back().first, h->cycle() + delay), ans);
    ++stats_[proto::op_name(f.op)];
  }

  void deliver(const OutMsg& o) {
    const Msg& m = o.msg;
    ASSERT_EQ(m.src, h->agent_id());
    ASSERT_TRUE(m.dst == kA1 || m.dst == kA2 || m.dst == kA3) << m.str();
    const unsigned l = line_of(m.addr);
    if (o.ch == Chan::Fwd) {
      snooped(m.dst, l, m);
    } else {
      answered(m.dst, l, m);
    }
    // single writer, many readers; every copy holds the last value written
    unsigned holders = 0, writers = 0;
    for (uint8_t a : kAgents) {
      const Copy& c = at(a, l);
      holders += readable(c.st);
      writers += exclusive(c.st);
      if (readable(c.st)) {
        EXPECT_EQ(c.value, truth_[l]) << "agent " << unsigned(a) << " holds a stale copy of " << l;
      }
    }
    EXPECT_TRUE(writers == 0 || holders == 1)
        << "line " << l << ": " << writers << " exclusive holders among " << holders << " after "
        << m.str();
  }

  // One cycle: the agents and the engine act, the home steps, the engine takes its events (before
  // the link delivers: a TRIGGER is taken before the answer to its request can arrive), the link
  // moves.
  void cycle(bool active) {
    if (active) {
      for (uint8_t a : kAgents) {
        if (chance(GetParam().wide ? 0.3 : 0.08)) act(a, lines_[pick(lines_.size())]);
      }
    }
    for (auto& q : answers_) {
      for (; !q.empty() && q.front().first <= h->cycle(); q.pop_front()) h->send(q.front().second);
    }
    engine(active);
    h->step();
    while (!h->events().empty()) {
      on_event(h->events().front());
      h->events().pop_front();
    }
    while (!h->out().empty()) {
      const uint64_t at = std::max(link_.empty() ? 0 : link_.back().at, h->cycle() + pick(4));
      link_.push_back({at, h->out().front()});
      h->out().pop_front();
    }
    while (!link_.empty() && link_.front().at <= h->cycle()) {
      const OutMsg o = link_.front().m;
      link_.pop_front();
      deliver(o);
    }
  }

  // A DRAM line taken to its first value: read exclusive (zeros: never written), written back.
  void seed_dram_line(unsigned l) {
    const auto answer = [&](Op want) {
      ASSERT_TRUE(h->run_until([&] { return !h->out().empty(); }, 5000)) << "line " << l;
      const OutMsg o = h->out().front();
      h->out().pop_front();
      ASSERT_EQ(o.msg.op, want) << o.msg.str();
      if (want == Op::DataE) {
        EXPECT_EQ(o.msg.data, Line{}) << "never written, not zeros: " << l;
      }
    };
    h->send(h->make(Op::RdX, kA1, line(l), next_tag_[kA1]++));
    answer(Op::DataE);
    truth_[l] = next_value_++;
    const Line d = value_line(truth_[l]);
    h->send(h->make(Op::WB, kA1, line(l), next_tag_[kA1]++, &d));
    answer(Op::WbAck);
  }

  bool busy() const {
    if (!link_.empty() || recall_ || !triggers_.empty() || !h->inputs_idle()) return true;
    for (const auto& q : answers_) {
      if (!q.empty()) return true;
    }
    for (const auto& [k, c] : copy_) {
      if (c.tag) return true;
    }
    return false;
  }
};

// Random traffic under random stalls of every output; then every line is recalled and its
// memory checked.
TEST_P(HomeStress, RandomRequestsUnderOutputStallsKeepSingleWriterAndData) {
  const double stall = GetParam().stall;
  if (GetParam().wide) {
    for (unsigned l = 0; l < geo().num_lines(); ++l) lines_.push_back(l);
  } else {
    for (unsigned r = 0; r < HomeGeometry::kNumRegions; ++r) lines_.push_back(geo().region_base(r));
    lines_.push_back(1);
  }
  for (unsigned l : lines_) {
    truth_[l] = next_value_++;
    h->mem(l) = value_line(truth_[l]);
  }
  std::vector<unsigned> dram;
  if (geo().dram_idx_w) {
    const unsigned n = GetParam().wide ? geo().dram_lines() : 2u << geo().frame_w;
    for (unsigned i = 0; i < n; ++i) dram.push_back(geo().dram_first() + i);
    for (unsigned l : dram) {
      seed_dram_line(l);
      if (HasFatalFailure()) return;
      lines_.push_back(l);
    }
  }
  h->set_ret_excl(unsigned(h->rng()()) & all_regions());
  h->set_park_timeout(300);
  for (Chan ch : {Chan::Fwd, Chan::Rsp, Chan::Dat}) h->stall_randomly(ch, stall);
  h->set_evt_ready([this, stall] { return !chance(stall); });
  h->set_fwd_hold([this] {
    for (const Delivery& d : link_) {
      if (d.m.ch != Chan::Fwd) return true;
    }
    return false;
  });
  const unsigned cycles = 100000;
  for (unsigned i = 0; i < cycles && !HasFatalFailure(); ++i) cycle(true);
  for (unsigned i = 0; i < 5000 && busy() && !HasFatalFailure(); ++i) cycle(false);
  ASSERT_FALSE(busy()) << "requests or recalls left unanswered";
  for (unsigned l : lines_) {
    recall_ = {Cmd::Recall, l};
    h->command(Cmd::Recall, l);
    for (unsigned i = 0; i < 2000 && busy() && !HasFatalFailure(); ++i) cycle(false);
    ASSERT_FALSE(busy()) << "the final RECALL of line " << l << " did not finish";
  }
  // the DRAM lines read back (every agent's copy is gone after the RECALLs: the grant's data
  // is checked against the last value written)
  for (unsigned l : dram) {
    issue(kA1, l, Op::RdS, St::IS);
    for (unsigned i = 0; i < 2000 && busy() && !HasFatalFailure(); ++i) cycle(false);
    ASSERT_FALSE(busy()) << "the read-back of DRAM line " << l << " was not answered";
  }
  if (!dram.empty()) {
    stats_["dram_fill_read"] = h->dram_count(0);
    stats_["dram_fill_new"] = h->dram_count(1);
    stats_["dram_writeback"] = h->dram_count(2);
    stats_["dram_beats_w"] = h->dram_beats(true);
    EXPECT_EQ(h->dram_count(3) + h->dram_count(4), 0u) << "DRAM errors";
    EXPECT_FALSE(h->dram_error());
  }
  std::string summary;
  for (const auto& [k, v] : stats_) summary += k + "=" + std::to_string(v) + " ";
  std::printf("[ stress   ] %s\n", summary.c_str());
  RecordProperty("stats", summary);
  EXPECT_GT(stats_["FwdInv"] + stats_["FwdDown"], 100u) << "too few snoops: " << summary;
  EXPECT_GT(stats_["Retry"], 10u) << summary;
  if (GetParam().policies) {
    EXPECT_GT(stats_["TRIGGER"], 100u) << summary;
  }
  if (!dram.empty()) {
    EXPECT_GT(stats_["dram_fill_read"], 100u) << "DRAM lines rarely left their frames: " << summary;
    EXPECT_GT(stats_["dram_writeback"], 100u) << summary;
    // a write-back is the line and the directory beat, or that beat alone
    const uint64_t whole = geo().line_bytes / 64 + 1;
    EXPECT_GE(stats_["dram_beats_w"], stats_["dram_writeback"]) << summary;
    EXPECT_LE(stats_["dram_beats_w"], whole * stats_["dram_writeback"]) << summary;
  }
}

INSTANTIATE_TEST_SUITE_P(Stalls, HomeStress,
                         testing::Values(StressCase{0.1, false, false},
                                         StressCase{0.5, false, false},
                                         StressCase{0.8, false, false},
                                         StressCase{0.3, true, false}, StressCase{0.7, true, false},
                                         StressCase{0.3, false, true}, StressCase{0.5, true, true}),
                         [](const auto& i) {
                           return "Stall" + std::to_string(int(i.param.stall * 100)) +
                                  (i.param.policies ? "Policies" : "") +
                                  (i.param.wide ? "Wide" : "");
                         });

}  // namespace
}  // namespace cni::tb::home::test
