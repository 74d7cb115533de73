// SPDX-License-Identifier: Apache-2.0
// Directed tests of the PIO channels through the whole device core (home agent + engine): the
// Enzian protocols (a), (b), (c), multi-line (c) with permuted prefetches, and the races the
// paper names (invalidation crossing a request on the other line, timeout -> Retry -> re-issue,
// write-back racing the recall).
#include <algorithm>
#include <cstring>
#include <map>
#include <random>
#include <set>

#include "bloom_ref.hpp"
#include "fixture.hpp"

namespace cni::test {
namespace {

using Line = std::array<uint8_t, proto::kMaxLineBytes>;

class PioChannel : public EndpointTest {
 protected:
  // Pair j of the (c) channel: group-0 and group-1 lines.
  Addr g0(unsigned j) const { return line(geo().c0() + j); }
  Addr g1(unsigned j) const { return line(geo().c0() + geo().cpairs + j); }

  Line bloom(const Line& in) const {
    Line out{};
    auto r = tb::bloom_line(in.data(), geo().line_bytes);
    std::copy(r.begin(), r.begin() + geo().line_bytes, out.begin());
    return out;
  }

  Line random_line(std::mt19937_64& rng) const {
    Line l{};
    for (unsigned i = 0; i < geo().line_bytes; ++i) l[i] = static_cast<uint8_t>(rng());
    return l;
  }

  // One protocol-(c) invocation on pair j: the host holds `payload_line` (written with `args`)
  // and reads `trigger`; returns the data granted for the trigger line.
  Msg invoke(unsigned /*j*/, Addr trigger, Addr payload_line, const Line& args,
             Op grant = Op::DataE) {
    ep->send(req(Op::RdS, kHost1, trigger, 0x40));
    Msg f = expect(Op::FwdInv, kHost1, payload_line);
    ep->send(snoop_answer(f, true, args));
    return expect(grant, kHost1, trigger);
  }

  // PIO (a)/(b) line images of a message: header word + payload, 8-byte shifted.
  std::vector<Line> to_lines(const std::vector<uint8_t>& msg) const {
    unsigned lb = geo().line_bytes;
    std::vector<uint8_t> flat(8 + msg.size());
    uint64_t hdr = msg.size();
    std::memcpy(flat.data(), &hdr, 8);
    std::copy(msg.begin(), msg.end(), flat.begin() + 8);
    std::vector<Line> lines((flat.size() + lb - 1) / lb);
    for (size_t i = 0; i < flat.size(); ++i) lines[i / lb][i % lb] = flat[i];
    return lines;
  }

  // Answers the device's recalls, in whatever order they come: dirty lines with their data,
  // clean ones with a plain ack. Fails on any other message before all are answered.
  void answer_recalls(std::map<Addr, Line> dirty, std::set<Addr> clean) {
    while (!dirty.empty() || !clean.empty()) {
      auto f = ep->wait_msg(2000);
      ASSERT_TRUE(f) << dirty.size() + clean.size() << " recalls never came";
      ASSERT_EQ(f->msg.op, Op::FwdInv) << f->msg.str();
      if (auto it = dirty.find(f->msg.addr); it != dirty.end()) {
        ep->send(snoop_answer(f->msg, true, it->second));
        dirty.erase(it);
      } else {
        ASSERT_EQ(clean.erase(f->msg.addr), 1u) << "unexpected recall " << f->msg.str();
        ep->send(snoop_answer(f->msg, false, {}));
      }
    }
  }

  static std::vector<uint8_t> message(size_t n, uint8_t seed) {
    std::vector<uint8_t> m(n);
    for (size_t i = 0; i < n; ++i) m[i] = static_cast<uint8_t>(seed + i * 13 + (i >> 8));
    return m;
  }
};

TEST_F(PioChannel, ResetArmsGroupZeroSoItsReadsPark) {
  ep->send(req(Op::RdS, kHost1, g0(0)));
  // nothing held by the host on the payload line: the engine's recall finishes at once and the
  // answer is the accelerator's result on the (zeroed) device memory
  Msg d = expect(Op::DataE, kHost1, g0(0));
  EXPECT_EQ(d.data, bloom(Line{}));
  EXPECT_EQ(ep->counter(csr::kParked), 1u);
  EXPECT_EQ(ep->counter(csr::kPioCInvocations), 1u);
}

TEST_F(PioChannel, SingleLineRoundTripsSwapRoles) {
  std::mt19937_64 rng(seed());
  acquire(kHost1, g1(0));  // quiescent: B exclusive at the host, A armed at the device
  Addr a = g0(0), b = g1(0);
  for (int it = 0; it < 6; ++it) {
    Line args = random_line(rng);
    Msg d = invoke(0, a, b, args);
    EXPECT_EQ(d.data, bloom(args)) << "iteration " << it;
    std::swap(a, b);  // the line just granted carries the next request
  }
  EXPECT_EQ(ep->counter(csr::kPioCInvocations), 6u);
  EXPECT_EQ(ep->counter(csr::kRetryBusy), 0u);
}

TEST_F(PioChannel, TriggerToSnoopTakesAtMostEightDeviceCycles) {
  acquire(kHost1, g1(0));
  uint64_t sent = ep->cycle();
  ep->send(req(Op::RdS, kHost1, g0(0)));
  auto f = ep->wait_for(Op::FwdInv, g1(0), 100);
  ASSERT_TRUE(f);
  RecordProperty("pio_trigger_cycles", std::to_string(f->cycle - sent));
  // two home-agent messages on the path (the parked request, the engine's RECALL), an event
  // and an entry into the recall FIFO
  EXPECT_LE(f->cycle - sent, 8u + 2 * geo().home_extra_cycles() + geo().event_extra_cycles() +
                                geo().cfifo_extra_cycles());
  ep->send(snoop_answer(f->msg, true, Line{}));
  expect(Op::DataE, kHost1, g0(0));
}

TEST_F(PioChannel, ReturnSharedCostsAnUpgradeNextIteration) {
  ep->csr_write(csr::kRetExcl, ~0x2u);  // region 1 (PIO c) answers RdS with DataS ("unopt")
  acquire(kHost1, g1(0));
  Line args{};
  args[0] = 42;
  Msg d = invoke(0, g0(0), g1(0), args, Op::DataS);
  EXPECT_EQ(d.data, bloom(args));
  // next iteration the host writes the Shared line: an upgrade round trip first
  ep->send(req(Op::Upg, kHost1, g0(0)));
  expect(Op::UpgAck, kHost1, g0(0));
  args[0] = 43;
  EXPECT_EQ(invoke(0, g1(0), g0(0), args, Op::DataS).data, bloom(args));
}

TEST_F(PioChannel, GroupPrefetchesArrivingPermutedAllComplete) {
  std::mt19937_64 rng(seed() * 7 + 1);
  unsigned n = geo().cpairs;
  std::vector<Line> args(n);
  for (unsigned j = 0; j < n; ++j) {
    acquire(kHost1, g1(j));
    args[j] = random_line(rng);
  }
  for (int round = 0; round < 2; ++round) {
    std::vector<unsigned> order(n);
    for (unsigned j = 0; j < n; ++j) order[j] = j;
    std::shuffle(order.begin(), order.end(), rng);
    auto trig = [&](unsigned j) { return round == 0 ? g0(j) : g1(j); };
    auto pay = [&](unsigned j) { return round == 0 ? g1(j) : g0(j); };
    for (unsigned j : order) ep->send(req(Op::RdS, kHost1, trig(j), uint8_t(j)));
    std::vector<Msg> fwds;
    for (unsigned k = 0; k < n; ++k) {
      auto f = ep->wait_msg(500);
      ASSERT_TRUE(f);
      ASSERT_EQ(f->msg.op, Op::FwdInv) << f->msg.str();
      fwds.push_back(f->msg);
    }
    std::shuffle(fwds.begin(), fwds.end(), rng);  // answers come back in yet another order
    for (const auto& f : fwds) {
      unsigned j = 0;
      while (pay(j) != f.addr) ++j;
      ep->send(snoop_answer(f, true, args[j]));
    }
    for (unsigned k = 0; k < n; ++k) {
      auto d = ep->wait_msg(1000);
      ASSERT_TRUE(d);
      ASSERT_EQ(d->msg.op, Op::DataE);
      unsigned j = 0;
      while (j < n && trig(j) != d->msg.addr) ++j;
      ASSERT_LT(j, n);
      EXPECT_EQ(d->msg.tag, j);
      EXPECT_EQ(d->msg.data, bloom(args[j])) << "pair " << j;
    }
    for (auto& a : args) a = random_line(rng);
  }
  EXPECT_EQ(ep->counter(csr::kPioCInvocations), 2 * n);
}

TEST_F(PioChannel, InvalidationCrossingRequestOnOtherLineOfPair) {
  acquire(kHost1, g1(0));
  // The host reads A (trigger) and, before the device's FwdInv(B) reaches it, requests B for
  // ownership again (its clean copy was dropped).
  ep->send(req(Op::RdS, kHost1, g0(0), 1));
  Msg f = expect(Op::FwdInv, kHost1, g1(0));
  ep->send(req(Op::RdX, kHost1, g1(0), 2));
  expect(Op::Retry, kHost1, g1(0));  // B is being recalled
  ep->send(snoop_answer(f, false, {}));  // host is in IM for B: no data
  Msg d = expect(Op::DataE, kHost1, g0(0));
  EXPECT_EQ(d.data, bloom(Line{}));
  // B is now the armed trigger: the re-issued RdX parks and starts the next exchange, which
  // recalls A from the host.
  ep->send(req(Op::RdX, kHost1, g1(0), 3));
  Msg f2 = expect(Op::FwdInv, kHost1, g0(0));
  Line args{};
  args[5] = 5;
  ep->send(snoop_answer(f2, true, args));
  EXPECT_EQ(expect(Op::DataE, kHost1, g1(0)).data, bloom(args));
}

// Another host (a second core, a prefetch) takes the payload line right behind the recall's
// answer, before the engine has armed it. The line is then armed while that host holds it; the
// RELEASE that answers the next exchange's parked read must invalidate that host first, or two
// hosts would hold the line writable (found by the formal check home_release_holder).
TEST_F(PioChannel, ReleaseSnoopsAHostThatTookThePayloadLineBeforeItWasArmed) {
  acquire(kHost1, g1(0));
  Addr a = g0(0), b = g1(0);
  ep->send(req(Op::RdS, kHost1, a, 1));
  Msg f = expect(Op::FwdInv, kHost1, b);
  ep->send(snoop_answer(f, true, Line{}));
  ep->send(req(Op::RdX, kHost2, b, 2));  // right behind the snoop answer
  Msg d = expect(Op::DataE, kHost1, a);
  EXPECT_EQ(d.data, bloom(Line{}));
  Msg g = expect(Op::DataE, kHost2, b);  // granted from memory before the ARM
  EXPECT_EQ(g.tag, 2);
  // Next exchange: host 1 reads B, which parks; the engine recalls A from host 1 and RELEASEs
  // B: host 2 must be invalidated (with its dirty copy) before host 1 gets B.
  Line args{};
  args[3] = 77;
  ep->send(req(Op::RdS, kHost1, b, 3));
  Msg fa = expect(Op::FwdInv, kHost1, a);
  ep->send(snoop_answer(fa, true, args));
  Msg fb = expect(Op::FwdInv, kHost2, b);
  expect_silence(30);  // no grant while host 2 still holds B
  ep->send(snoop_answer(fb, true, pattern(9)));
  Msg d2 = expect(Op::DataE, kHost1, b);
  EXPECT_EQ(d2.tag, 3);
  EXPECT_EQ(ep->counter(csr::kReleased), 2u);
}

TEST_F(PioChannel, ParkedRequestTimesOutThenReissueSucceeds) {
  ep->csr_write(csr::kParkTimeout, 60);
  acquire(kHost1, g1(0));
  ep->send(req(Op::RdS, kHost1, g0(0), 1));
  Msg f = expect(Op::FwdInv, kHost1, g1(0));
  // the host is slow to answer the recall: the parked read must be answered Retry in time
  uint64_t parked_at = ep->cycle();
  Msg r = expect(Op::Retry, kHost1, g0(0), 500);
  EXPECT_EQ(r.tag, 1);
  EXPECT_LE(ep->cycle() - parked_at, 100u);
  EXPECT_EQ(ep->counter(csr::kRetryTimeout), 1u);
  Line args{};
  args[1] = 9;
  ep->send(snoop_answer(f, true, args));
  ep->run(50);  // the engine finishes and releases A with nothing parked on it
  ep->send(req(Op::RdS, kHost1, g0(0), 2));
  Msg d = expect(Op::DataE, kHost1, g0(0));
  EXPECT_EQ(d.tag, 2);
  EXPECT_EQ(d.data, bloom(args));
  EXPECT_EQ(ep->counter(csr::kPioCInvocations), 1u);
}

TEST_F(PioChannel, ReissuedTriggerWhileStillComputingIsNotCountedTwice) {
  ep->csr_write(csr::kParkTimeout, 30);
  acquire(kHost1, g1(0));
  ep->send(req(Op::RdS, kHost1, g0(0), 1));
  Msg f = expect(Op::FwdInv, kHost1, g1(0));
  expect(Op::Retry, kHost1, g0(0), 500);
  ep->send(req(Op::RdS, kHost1, g0(0), 2));  // parks again: a second TRIGGER for the same pair
  ep->run(10);
  Line args{};
  args[2] = 3;
  ep->send(snoop_answer(f, true, args));
  Msg d = expect(Op::DataE, kHost1, g0(0));
  EXPECT_EQ(d.tag, 2);
  EXPECT_EQ(d.data, bloom(args));
  expect_silence(100);
  EXPECT_EQ(ep->counter(csr::kPioCInvocations), 1u);
}

TEST_F(PioChannel, WritebackRacingTheRecall) {
  acquire(kHost1, g1(0));
  ep->send(req(Op::RdS, kHost1, g0(0)));
  Msg f = expect(Op::FwdInv, kHost1, g1(0));
  Line args{};
  args[3] = 0x77;
  // the host evicted B (dirty) just before the snoop arrived
  ep->send(with_data(req(Op::WB, kHost1, g1(0), 9), args));
  expect(Op::WbAck, kHost1, g1(0));
  ep->send(snoop_answer(f, false, {}, proto::kFlagWbPending));
  EXPECT_EQ(expect(Op::DataE, kHost1, g0(0)).data, bloom(args));
}

TEST_F(PioChannel, ProtocolAMessagesWithOverflowLinesReachTheDevice) {
  unsigned a0 = geo().a0();
  unsigned lb = geo().line_bytes;
  size_t max = (lb - 8) + size_t(geo().novfa) * lb;
  std::vector<size_t> sizes = {1, lb - 8, lb - 7, lb, 2 * lb + 5, max};
  unsigned trigger = a0, ctrl = a0 + 1;
  for (size_t k = 0; k < sizes.size(); ++k) {
    auto msg = message(sizes[k], uint8_t(k));
    auto lines = to_lines(msg);
    // the host owns the control line and the overflow lines it writes
    std::map<Addr, Line> dirty;
    for (size_t i = 0; i < lines.size(); ++i) {
      Addr at = line(i == 0 ? ctrl : a0 + 1 + unsigned(i));
      acquire(kHost1, at);
      dirty[at] = lines[i];
    }
    ep->send(req(Op::RdS, kHost1, line(trigger)));
    answer_recalls(dirty, {});
    Msg st = expect(Op::DataE, kHost1, line(trigger), 5000);
    uint64_t consumed = 0;
    std::memcpy(&consumed, st.data.data(), 8);
    EXPECT_EQ(consumed, k + 1);
    ASSERT_EQ(ep->pa_messages().size(), 1u) << "size " << sizes[k];
    EXPECT_EQ(ep->pa_messages().front(), msg) << "size " << sizes[k];
    ep->pa_messages().clear();
    std::swap(trigger, ctrl);
  }
  EXPECT_EQ(ep->counter(csr::kPioAMessages), sizes.size());
}

TEST_F(PioChannel, ProtocolBMessagesWithOverflowLinesReachTheHost) {
  unsigned b0 = geo().b0();
  unsigned lb = geo().line_bytes;
  size_t max = (lb - 8) + size_t(geo().novfb) * lb;
  std::vector<size_t> sizes = {1, lb - 8, lb - 7, lb, 2 * lb + 5, max, 64};
  unsigned trigger = b0;
  std::set<Addr> held;  // lines the host holds (clean) from earlier messages
  for (size_t k = 0; k < sizes.size(); ++k) {
    auto msg = message(sizes[k], uint8_t(k + 100));
    ep->pb_push(msg);
    ep->send(req(Op::RdS, kHost1, line(trigger)));
    // the device first recalls what the host still holds of the previous message
    answer_recalls({}, held);
    held.clear();
    Msg c = expect(Op::DataE, kHost1, line(trigger), 5000);
    held.insert(line(trigger));
    uint64_t len = 0;
    std::memcpy(&len, c.data.data(), 8);
    ASSERT_EQ(len & 0xFFFF, sizes[k]);
    std::vector<uint8_t> got(c.data.begin() + 8, c.data.begin() + lb);
    for (unsigned o = 0; got.size() < sizes[k]; ++o) {
      ep->send(req(Op::RdS, kHost1, line(b0 + 2 + o)));
      Msg d = expect(Op::DataE, kHost1, line(b0 + 2 + o));
      got.insert(got.end(), d.data.begin(), d.data.begin() + lb);
      held.insert(line(b0 + 2 + o));
    }
    got.resize(sizes[k]);
    EXPECT_EQ(got, msg) << "size " << sizes[k];
    trigger = trigger == b0 ? b0 + 1 : b0;
  }
  EXPECT_EQ(ep->counter(csr::kPioBMessages), sizes.size());
}

}  // namespace
}  // namespace cni::test
