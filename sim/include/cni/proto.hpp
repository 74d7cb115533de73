// SPDX-License-Identifier: Apache-2.0
// Coherent link protocol, C++ side: the message every agent (host cache, host home, the
// Verilated device) exchanges. Mirrors rtl/coh/cni_coh_pkg.sv; see docs/protocol.md.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <string>

namespace cni::proto {

inline constexpr unsigned kMaxLineBytes = 128;
inline constexpr unsigned kAgentBits = 4;
inline constexpr unsigned kMaxAgents = 1u << kAgentBits;
inline constexpr unsigned kNumChannels = 4;
inline constexpr unsigned kHeaderBits = 81;  // cni_coh_pkg::HDR_W

using AgentId = uint8_t;
using Addr = uint64_t;

enum class Chan : uint8_t { Req = 0, Fwd = 1, Rsp = 2, Dat = 3 };

enum class Op : uint8_t {
  RdS = 0x01,
  RdX = 0x02,
  Upg = 0x03,
  WB = 0x04,
  RdNA = 0x05,   // non-allocating read: the requester gets a copy (DataI) and no state
  WrInv = 0x06,  // full-line write-invalidate (carries the line); answered WrAck
  Nc = 0x07,     // uncached 8-byte register access; kFlagNcWrite: a write (len 8, the value
                 // in data[0..8)); answered NcAck (write) or NcData (read)
  FwdInv = 0x08,
  FwdDown = 0x09,
  FwdDownO = 0x0A,
  SnpAck = 0x10,
  SnpData = 0x11,
  UpgAck = 0x12,
  WbAck = 0x13,
  Retry = 0x14,
  Error = 0x15,
  WrAck = 0x16,
  NcAck = 0x17,
  DataS = 0x18,
  DataE = 0x19,
  DataM = 0x1A,
  DataI = 0x1B,  // the line's data for RdNA; the requester stays Invalid
  NcData = 0x1C, // an uncached read's value: len 8, data[0..8)
};

inline constexpr uint8_t kFlagWbPending = 1u << 0;
inline constexpr uint8_t kFlagNcWrite = 1u << 1;
// On RdX: the requester writes every byte of the line before anyone reads it, so the home may
// grant ownership without the data (UpgAck; docs/protocol.md rule 3).
inline constexpr uint8_t kFlagFullWrite = 1u << 2;

// The channel an opcode travels on (docs/protocol.md, "Channels").
constexpr Chan channel_of(Op op) {
  switch (op) {
    case Op::RdS:
    case Op::RdX:
    case Op::Upg:
    case Op::WB:
    case Op::RdNA:
    case Op::WrInv:
    case Op::Nc:
      return Chan::Req;
    case Op::FwdInv:
    case Op::FwdDown:
    case Op::FwdDownO:
      return Chan::Fwd;
    case Op::DataS:
    case Op::DataE:
    case Op::DataM:
    case Op::DataI:
    case Op::NcData:
      return Chan::Dat;
    default:
      return Chan::Rsp;
  }
}

// Whether an opcode carries a line (len = the line size). (Nc writes and NcData carry 8 bytes.)
constexpr bool carries_data(Op op) {
  return op == Op::WB || op == Op::WrInv || op == Op::SnpData || op == Op::DataS ||
         op == Op::DataE || op == Op::DataM || op == Op::DataI;
}

const char* op_name(Op op);
const char* chan_name(Chan ch);

struct Msg {
  Op op = Op::RdS;
  AgentId src = 0;
  AgentId dst = 0;
  uint8_t tag = 0;
  uint8_t flags = 0;
  uint8_t len = 0;  // data bytes carried: 0, or the line size for data-carrying opcodes
  Addr addr = 0;
  std::array<uint8_t, kMaxLineBytes> data{};

  Chan chan() const { return channel_of(op); }
  // Bytes this message occupies on a link (header rounded to 16 B, plus data).
  unsigned wire_bytes() const { return 16u + len; }
  std::string str() const;
};

}  // namespace cni::proto
