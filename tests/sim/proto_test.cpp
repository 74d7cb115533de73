// SPDX-License-Identifier: Apache-2.0
// Opcodes (docs/protocol.md, "Channels"): the channel, the data flag and the name of each, and
// the encoding rule that an opcode's high bits name its channel.
#include "cni/proto.hpp"

#include <gtest/gtest.h>

#include <string>

using namespace cni;
using proto::Chan;
using proto::Op;

namespace {

struct OpRow {
  Op op;
  uint8_t code;
  Chan chan;
  bool data;
  const char* name;
};

constexpr OpRow kOps[] = {
    {Op::RdS, 0x01, Chan::Req, false, "RdS"},
    {Op::RdX, 0x02, Chan::Req, false, "RdX"},
    {Op::Upg, 0x03, Chan::Req, false, "Upg"},
    {Op::WB, 0x04, Chan::Req, true, "WB"},
    {Op::RdNA, 0x05, Chan::Req, false, "RdNA"},
    {Op::WrInv, 0x06, Chan::Req, true, "WrInv"},
    {Op::Nc, 0x07, Chan::Req, false, "Nc"},
    {Op::FwdInv, 0x08, Chan::Fwd, false, "FwdInv"},
    {Op::FwdDown, 0x09, Chan::Fwd, false, "FwdDown"},
    {Op::FwdDownO, 0x0A, Chan::Fwd, false, "FwdDownO"},
    {Op::SnpAck, 0x10, Chan::Rsp, false, "SnpAck"},
    {Op::SnpData, 0x11, Chan::Rsp, true, "SnpData"},
    {Op::UpgAck, 0x12, Chan::Rsp, false, "UpgAck"},
    {Op::WbAck, 0x13, Chan::Rsp, false, "WbAck"},
    {Op::Retry, 0x14, Chan::Rsp, false, "Retry"},
    {Op::Error, 0x15, Chan::Rsp, false, "Error"},
    {Op::WrAck, 0x16, Chan::Rsp, false, "WrAck"},
    {Op::NcAck, 0x17, Chan::Rsp, false, "NcAck"},
    {Op::DataS, 0x18, Chan::Dat, true, "DataS"},
    {Op::DataE, 0x19, Chan::Dat, true, "DataE"},
    {Op::DataM, 0x1A, Chan::Dat, true, "DataM"},
    {Op::DataI, 0x1B, Chan::Dat, true, "DataI"},
    {Op::NcData, 0x1C, Chan::Dat, false, "NcData"},
};

}  // namespace

TEST(Proto, EveryOpcodeHasItsEncodingChannelDataFlagAndName) {
  for (const OpRow& r : kOps) {
    SCOPED_TRACE(r.name);
    EXPECT_EQ(static_cast<uint8_t>(r.op), r.code);
    EXPECT_EQ(proto::channel_of(r.op), r.chan);
    EXPECT_EQ(static_cast<unsigned>(r.chan), r.code >> 3u) << "the high bits name the channel";
    EXPECT_EQ(proto::carries_data(r.op), r.data);
    EXPECT_EQ(std::string(proto::op_name(r.op)), r.name);
  }
}
