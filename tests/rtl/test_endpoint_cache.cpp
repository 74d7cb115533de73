// SPDX-License-Identifier: Apache-2.0
// The device core's caching agent through the Endpoint driver, the test playing the host home
// (agent 0, home of every address below 4 GiB): the engine port, the monitor, the response
// stall, and the driver keeping rule 8 on the way into the device.
#include <optional>
#include <utility>
#include <vector>

#include "fixture.hpp"

namespace cni::test {
namespace {

using tb::CaOp;
using tb::LineState;

constexpr uint8_t kHome = 0;
constexpr Addr kX = 0x2000, kY = 0x2080;  // host lines (of home 0)

class EndpointCache : public EndpointTest {
 protected:
  void SetUp() override {
    EndpointTest::SetUp();
    ep->on_ca_state([this](uint64_t line, LineState from, LineState to) {
      changes.push_back({line, from, to});
    });
    ep->on_ca_access([this](unsigned id, const uint8_t*) { performed.push_back(id); });
  }

  // An engine request; returns the message it sends to the home.
  Msg request(CaOp op, Addr a, unsigned id) {
    tb::CaRequest r;
    r.op = op;
    r.addr = a;
    r.id = id;
    ep->ca_request(r);
    return expect(op == CaOp::RdNA ? Op::RdNA : Op::RdX, kHome, a);
  }
  Msg grant(Op op, const Msg& req, uint8_t seed) const {
    return with_data(ep->make(op, kHome, req.addr, req.tag), pattern(seed));
  }
  // Clock until `n` responses have left the agent.
  bool responses(size_t n) {
    for (unsigned i = 0; i < 200 && ep->ca_responses().size() < n; ++i) ep->tick();
    return ep->ca_responses().size() >= n;
  }
  std::optional<LineState> last_state(Addr line) const {
    std::optional<LineState> s;
    for (const auto& c : changes) {
      if (c.line == line) s = c.to;
    }
    return s;
  }

  struct Change {
    uint64_t line;
    LineState from, to;
  };
  std::vector<Change> changes;
  std::vector<unsigned> performed;
};

TEST_F(EndpointCache, ReadMissIsGrantedAnsweredAndMonitored) {
  const Msg rdx = request(CaOp::RdX, kX, 3);
  ep->send(grant(Op::DataE, rdx, 5));
  ASSERT_TRUE(responses(1));
  const tb::CacheRsp r = ep->ca_responses().front();
  EXPECT_EQ(r.id, 3u);
  EXPECT_FALSE(r.err);
  EXPECT_EQ(r.data, pattern(5));
  EXPECT_EQ(performed, std::vector<unsigned>{3});
  EXPECT_EQ(last_state(kX), LineState::E);
  EXPECT_EQ(ep->counter(csr::kCaMisses), 1u);
}

TEST_F(EndpointCache, ResponseStallHoldsTheResponseUntilReady) {
  ep->set_ca_rsp_stall(1.0);
  const Msg rdx = request(CaOp::RdX, kX, 1);
  ep->send(grant(Op::DataE, rdx, 6));
  EXPECT_FALSE(responses(1)) << "ca_rsp_ready_i is held low";
  ep->set_ca_rsp_stall(0.0);
  EXPECT_TRUE(responses(1));
}

// Three messages reach the device together: a grant of line Y, a grant of line X, a snoop of X.
// One message per channel enters a cycle, so the grant of X waits a cycle behind the grant of
// Y; the snoop must wait with it (protocol rule 8), or the agent would answer it from IM and
// then take the grant, holding X in E after the home gave it away.
TEST_F(EndpointCache, SnoopWaitsForAGrantQueuedBeforeIt) {
  const Msg rdx = request(CaOp::RdX, kX, 1);
  const Msg rdna = request(CaOp::RdNA, kY, 2);
  ep->send(grant(Op::DataI, rdna, 7));
  ep->send(grant(Op::DataE, rdx, 8));
  ep->send(ep->make(Op::FwdInv, kHome, kX, 9));
  EXPECT_EQ(expect(Op::SnpAck, kHome, kX).tag, 9);
  ASSERT_TRUE(responses(2));
  EXPECT_EQ(last_state(kX), LineState::I) << "the snoop took the line after its grant";
  ASSERT_GE(changes.size(), 2u);
  EXPECT_EQ(changes[changes.size() - 2].to, LineState::E);
  EXPECT_EQ(ep->counter(csr::kCaErrors), 0u);
}

}  // namespace
}  // namespace cni::test
