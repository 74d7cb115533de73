// SPDX-License-Identifier: Apache-2.0
// Network frames: what a node's MAC port sends and receives (docs/network.md). A frame is a
// byte string -- a 12-byte header, the payload, a 4-byte FCS -- with a destination node (the
// stream's tdest) and an error flag (tuser). Helpers build and parse the header, compute and
// check the FCS (CRC-32, IEEE 802.3) and cut a frame into AXI4-Stream beats and back.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

namespace cni::sim {

// Header layout, little-endian fields:
//   bytes 0-1  dst    destination node
//   bytes 2-3  src    source node
//   bytes 4-5  len    payload bytes (the frame is kFrameHeaderBytes + len + kFcsBytes long)
//   byte  6    type   channel / message type, defined by the engine that sends the frame
//   byte  7    flags  defined by the engine, carried unchanged
//   bytes 8-11 seq    sequence number, defined by the engine
// then `len` payload bytes, then the FCS: CRC-32 of every byte before it, little-endian.
struct FrameHeader {
  uint16_t dst = 0;
  uint16_t src = 0;
  uint16_t len = 0;
  uint8_t type = 0;
  uint8_t flags = 0;
  uint32_t seq = 0;
  bool operator==(const FrameHeader&) const = default;
};

inline constexpr unsigned kFrameHeaderBytes = 12;
inline constexpr unsigned kFcsBytes = 4;
// The shortest frame: a header, no payload, the FCS.
inline constexpr unsigned kMinFrameBytes = kFrameHeaderBytes + kFcsBytes;

struct Frame {
  unsigned dst = 0;            // destination node (tdest); routes the frame
  unsigned src = 0;            // source node: the port that sends it
  std::vector<uint8_t> bytes;  // header + payload + FCS
  bool tuser = false;          // error: set by a sender to poison the frame, by the network
                               // when the receiver's FCS check fails
};

// CRC-32 of IEEE 802.3 (reflected polynomial 0xEDB88320, initial and final value 0xFFFFFFFF):
// crc32("123456789") = 0xCBF43926.
uint32_t crc32(std::span<const uint8_t> bytes);

std::array<uint8_t, kFrameHeaderBytes> pack_header(const FrameHeader& h);
// The header of `bytes`; throws std::invalid_argument naming the size if shorter than a header.
FrameHeader parse_header(std::span<const uint8_t> bytes);
// A frame from `h` (its len is set to the payload size) and the payload, with its FCS.
// Throws std::invalid_argument naming the size if the payload exceeds the 16-bit len field.
Frame make_frame(FrameHeader h, std::span<const uint8_t> payload);
// True when the last kFcsBytes of `bytes` are the CRC-32 of the bytes before them.
bool fcs_ok(std::span<const uint8_t> bytes);
// The payload of `f`; throws std::invalid_argument naming both sizes if the header's len does
// not match the frame's size.
std::span<const uint8_t> frame_payload(const Frame& f);

// One beat of an AXI4-Stream of `tdata.size()` bytes. Byte i of a frame travels in beat
// i / W, lane i % W (lane 0 = tdata[7:0]); tkeep bit j marks lane j valid.
struct AxisBeat {
  std::vector<uint8_t> tdata;
  uint64_t tkeep = 0;
  bool tlast = false;
  bool tuser = false;  // meaningful on the last beat
  unsigned tdest = 0;  // the same on every beat of a frame
};

// Cut `f` into beats of `width_bytes` (1..64): every tkeep bit set except in the last beat,
// which keeps the low (size % width_bytes) lanes (all when 0) and carries tlast and tuser.
// Throws std::invalid_argument naming a bad width or an empty frame.
std::vector<AxisBeat> to_beats(const Frame& f, unsigned width_bytes);
// The frame carried by `beats` (one frame, tlast on the last beat only), sent by node `src`.
// Throws std::invalid_argument naming the beat index on a protocol violation (tlast missing
// or early, tdest changing, tkeep not contiguous from lane 0 or not full before the last beat).
Frame from_beats(const std::vector<AxisBeat>& beats, unsigned src);

}  // namespace cni::sim
