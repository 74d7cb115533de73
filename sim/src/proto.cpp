// SPDX-License-Identifier: Apache-2.0
// Names and printing for coherent-link messages.
#include "cni/proto.hpp"

#include <cstdio>

namespace cni::proto {

const char* op_name(Op op) {
  switch (op) {
    case Op::RdS: return "RdS";
    case Op::RdX: return "RdX";
    case Op::Upg: return "Upg";
    case Op::WB: return "WB";
    case Op::RdNA: return "RdNA";
    case Op::WrInv: return "WrInv";
    case Op::Nc: return "Nc";
    case Op::FwdInv: return "FwdInv";
    case Op::FwdDown: return "FwdDown";
    case Op::FwdDownO: return "FwdDownO";
    case Op::SnpAck: return "SnpAck";
    case Op::SnpData: return "SnpData";
    case Op::UpgAck: return "UpgAck";
    case Op::WbAck: return "WbAck";
    case Op::Retry: return "Retry";
    case Op::Error: return "Error";
    case Op::WrAck: return "WrAck";
    case Op::NcAck: return "NcAck";
    case Op::DataS: return "DataS";
    case Op::DataE: return "DataE";
    case Op::DataM: return "DataM";
    case Op::DataI: return "DataI";
    case Op::NcData: return "NcData";
  }
  return "Op?";
}

const char* chan_name(Chan ch) {
  switch (ch) {
    case Chan::Req: return "REQ";
    case Chan::Fwd: return "FWD";
    case Chan::Rsp: return "RSP";
    case Chan::Dat: return "DAT";
  }
  return "CH?";
}

std::string Msg::str() const {
  char buf[128];
  std::snprintf(buf, sizeof buf, "%s %u->%u tag=%u addr=0x%llx len=%u flags=%x", op_name(op),
                unsigned(src), unsigned(dst), unsigned(tag), static_cast<unsigned long long>(addr),
                unsigned(len), unsigned(flags));
  return buf;
}

}  // namespace cni::proto
