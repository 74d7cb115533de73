// SPDX-License-Identifier: Apache-2.0
// GoogleTest fixture for directed tests of the device core: a fresh Verilated cni_endpoint per
// test (checking build, the line size of tests/line_bytes.hpp), the test playing the host
// caching agents message by message.
#pragma once

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <string>

#include "device/endpoint.hpp"
#include "line_bytes.hpp"

namespace cni::test {

using proto::Addr;
using proto::Chan;
using proto::Msg;
using proto::Op;
using tb::Endpoint;
using tb::TxMsg;
namespace csr = tb::csr;

inline constexpr uint8_t kHost1 = 1, kHost2 = 2, kHost3 = 3;

class EndpointTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* info = ::testing::UnitTest::GetInstance()->current_test_info();
    Endpoint::Options o;
    o.name = std::string(info->test_suite_name()) + "." + info->name();
    o.seed = seed();
    o.line_bytes = test_line_bytes();
    configure(o);
    RecordProperty("verilator_seed", std::to_string(o.seed));
    ep = std::make_unique<Endpoint>(o);
    ep->reset();
  }
  // A suite's own choice of model (a line size, a variant) before the endpoint is built.
  virtual void configure(Endpoint::Options&) {}

  void TearDown() override {
    EXPECT_FALSE(ep->got_error()) << "Verilator reported an error (assertion)";
    ep->run(20);
    for (const auto& m : ep->emitted()) ADD_FAILURE() << "unexpected message left: " << m.msg.str();
  }

  static uint64_t seed() {
    const char* s = std::getenv("CNI_SEED");
    return s ? std::strtoull(s, nullptr, 0) : 1;
  }

  const tb::DeviceGeometry& geo() const { return ep->geometry(); }
  Addr line(unsigned l) const { return geo().addr_of(l); }

  Msg req(Op op, uint8_t src, Addr addr, uint8_t tag = 7) const { return ep->make(op, src, addr, tag); }

  // A line of the device's size; the bytes beyond it are zero, as in the lines the device sends.
  std::array<uint8_t, proto::kMaxLineBytes> pattern(uint8_t seed) const {
    std::array<uint8_t, proto::kMaxLineBytes> d{};
    for (unsigned i = 0; i < geo().line_bytes; ++i) d[i] = static_cast<uint8_t>(seed * 31 + i * 7 + 1);
    return d;
  }

  Msg with_data(Msg m, const std::array<uint8_t, proto::kMaxLineBytes>& d) const {
    m.data = d;
    m.len = static_cast<uint8_t>(geo().line_bytes);
    return m;
  }

  // Snoop answer to a FWD the device sent.
  Msg snoop_answer(const Msg& fwd, bool dirty, const std::array<uint8_t, proto::kMaxLineBytes>& d,
                   uint8_t flags = 0) const {
    Msg m = ep->make(dirty ? Op::SnpData : Op::SnpAck, fwd.dst, fwd.addr, fwd.tag);
    m.flags = flags;
    if (dirty) m.data = d;
    return m;
  }

  // Waits for `op` to `dst` at `addr`; fails the test if it does not come.
  Msg expect(Op op, uint8_t dst, Addr addr, unsigned cycles = 2000) {
    auto m = ep->wait_for(op, addr, cycles);
    if (!m) {
      std::string left;
      for (const auto& e : ep->emitted()) left += " [" + e.msg.str() + "]";
      ADD_FAILURE() << "expected " << proto::op_name(op) << " to " << unsigned(dst) << " at 0x"
                    << std::hex << addr << "; device emitted instead:" << left;
      return Msg{};
    }
    EXPECT_EQ(m->msg.dst, dst) << m->msg.str();
    EXPECT_EQ(m->msg.src, ep->agent_id()) << m->msg.str();
    return m->msg;
  }

  // Nothing at all may come out for `cycles`.
  void expect_silence(unsigned cycles) {
    ep->run(cycles);
    for (const auto& m : ep->emitted()) ADD_FAILURE() << "unexpected: " << m.msg.str();
    ep->emitted().clear();
  }

  // Acquire a line exclusively for `host` from an idle device line (RdX -> DataE).
  Msg acquire(uint8_t host, Addr addr) {
    ep->send(req(Op::RdX, host, addr));
    return expect(Op::DataE, host, addr);
  }

  std::unique_ptr<Endpoint> ep;
};

}  // namespace cni::test
