// SPDX-License-Identifier: Apache-2.0
// The C++ packing of the coherence header (tb/msg_wire.hpp, used by every Verilated adapter)
// against cni_coh_pkg::hdr_t itself: random messages packed in C++ come apart into the right
// fields in SystemVerilog, fields packed in SystemVerilog unpack into the same message in C++,
// and the widths agree with the C++ mirror (sim/include/cni/proto.hpp).
#include <gtest/gtest.h>

#include <random>

#include "Vcni_nonsynth_hdr_probe.h"
#include "cni/proto.hpp"
#include "msg_wire.hpp"
#include "verilated.h"

namespace cni::test {
namespace {

using proto::Msg;
using proto::Op;

class MsgWire : public ::testing::Test {
 protected:
  void SetUp() override {
    ctx.fatalOnError(false);
    top = std::make_unique<Vcni_nonsynth_hdr_probe>(&ctx, "top");
  }
  void TearDown() override {
    top->final();
    EXPECT_FALSE(ctx.gotError());
  }
  static Msg random_msg(std::mt19937_64& rng) {
    static const Op ops[] = {Op::RdS,     Op::RdX,    Op::Upg,      Op::WB,     Op::RdNA,
                             Op::WrInv,   Op::FwdInv, Op::FwdDown,  Op::FwdDownO, Op::SnpAck,
                             Op::SnpData, Op::UpgAck, Op::WbAck,    Op::WrAck,  Op::Retry,
                             Op::Error,   Op::DataS,  Op::DataE,    Op::DataM,  Op::DataI};
    Msg m;
    m.op = ops[rng() % std::size(ops)];
    m.src = static_cast<uint8_t>(rng() % proto::kMaxAgents);
    m.dst = static_cast<uint8_t>(rng() % proto::kMaxAgents);
    m.tag = static_cast<uint8_t>(rng());
    m.flags = static_cast<uint8_t>(rng() & 0xF);
    m.len = static_cast<uint8_t>(rng());
    m.addr = rng() & ((1ull << 48) - 1);
    return m;
  }
  VerilatedContext ctx;
  std::unique_ptr<Vcni_nonsynth_hdr_probe> top;
};

TEST_F(MsgWire, HeaderWidthIsTheMirrorsWidth) {
  top->eval();
  EXPECT_EQ(top->hdr_bits_o, proto::kHeaderBits);
  EXPECT_EQ(tb::kHdrWords, (proto::kHeaderBits + 31) / 32);
}

TEST_F(MsgWire, CppPackedHeaderComesApartIntoThePackagesFields) {
  std::mt19937_64 rng(1);
  for (int i = 0; i < 2000; ++i) {
    Msg m = random_msg(rng);
    tb::pack_hdr(m, top->hdr_i.data());
    top->eval();
    ASSERT_EQ(top->f_op_o, static_cast<uint8_t>(m.op)) << m.str();
    ASSERT_EQ(top->f_src_o, m.src) << m.str();
    ASSERT_EQ(top->f_dst_o, m.dst) << m.str();
    ASSERT_EQ(top->f_tag_o, m.tag) << m.str();
    ASSERT_EQ(top->f_flags_o, m.flags) << m.str();
    ASSERT_EQ(top->f_len_o, m.len) << m.str();
    ASSERT_EQ(top->f_addr_o, m.addr) << m.str();
  }
}

TEST_F(MsgWire, PackagePackedHeaderUnpacksIntoTheSameMessage) {
  std::mt19937_64 rng(2);
  for (int i = 0; i < 2000; ++i) {
    Msg m = random_msg(rng);
    top->f_op_i = static_cast<uint8_t>(m.op);
    top->f_src_i = m.src;
    top->f_dst_i = m.dst;
    top->f_tag_i = m.tag;
    top->f_flags_i = m.flags;
    top->f_len_i = m.len;
    top->f_addr_i = m.addr;
    top->eval();
    Msg u = tb::unpack_hdr(top->hdr_o.data());
    ASSERT_EQ(u.op, m.op);
    ASSERT_EQ(u.src, m.src);
    ASSERT_EQ(u.dst, m.dst);
    ASSERT_EQ(u.tag, m.tag);
    ASSERT_EQ(u.flags, m.flags);
    ASSERT_EQ(u.len, m.len);
    ASSERT_EQ(u.addr, m.addr);
  }
}

}  // namespace
}  // namespace cni::test
