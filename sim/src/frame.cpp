// SPDX-License-Identifier: Apache-2.0
#include "cni/sim/frame.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>
#include <string>

namespace cni::sim {

namespace {

constexpr std::array<uint32_t, 256> make_crc_table() {
  std::array<uint32_t, 256> t{};
  for (uint32_t i = 0; i < 256; ++i) {
    uint32_t c = i;
    for (int b = 0; b < 8; ++b) c = (c & 1) ? 0xEDB88320u ^ (c >> 1) : c >> 1;
    t[i] = c;
  }
  return t;
}
constexpr std::array<uint32_t, 256> kCrcTable = make_crc_table();

uint32_t load_le(std::span<const uint8_t> b, size_t at, unsigned n) {
  uint32_t v = 0;
  for (unsigned i = 0; i < n; ++i) v |= static_cast<uint32_t>(b[at + i]) << (8 * i);
  return v;
}

void store_le(uint8_t* out, uint32_t v, unsigned n) {
  for (unsigned i = 0; i < n; ++i) out[i] = static_cast<uint8_t>(v >> (8 * i));
}

// tkeep with the low `lanes` bits set (lanes <= 64).
uint64_t low_lanes(unsigned lanes) { return lanes >= 64 ? ~0ull : (1ull << lanes) - 1; }

}  // namespace

uint32_t crc32(std::span<const uint8_t> bytes) {
  uint32_t c = 0xFFFFFFFFu;
  for (uint8_t b : bytes) c = kCrcTable[(c ^ b) & 0xFF] ^ (c >> 8);
  return c ^ 0xFFFFFFFFu;
}

std::array<uint8_t, kFrameHeaderBytes> pack_header(const FrameHeader& h) {
  std::array<uint8_t, kFrameHeaderBytes> out{};
  store_le(&out[0], h.dst, 2);
  store_le(&out[2], h.src, 2);
  store_le(&out[4], h.len, 2);
  out[6] = h.type;
  out[7] = h.flags;
  store_le(&out[8], h.seq, 4);
  return out;
}

FrameHeader parse_header(std::span<const uint8_t> bytes) {
  if (bytes.size() < kFrameHeaderBytes) {
    throw std::invalid_argument("parse_header: " + std::to_string(bytes.size()) +
                                " bytes, shorter than the " + std::to_string(kFrameHeaderBytes) +
                                "-byte frame header");
  }
  FrameHeader h;
  h.dst = static_cast<uint16_t>(load_le(bytes, 0, 2));
  h.src = static_cast<uint16_t>(load_le(bytes, 2, 2));
  h.len = static_cast<uint16_t>(load_le(bytes, 4, 2));
  h.type = bytes[6];
  h.flags = bytes[7];
  h.seq = load_le(bytes, 8, 4);
  return h;
}

Frame make_frame(FrameHeader h, std::span<const uint8_t> payload) {
  if (payload.size() > 0xFFFF) {
    throw std::invalid_argument("make_frame: payload of " + std::to_string(payload.size()) +
                                " bytes exceeds the header's 16-bit length field");
  }
  h.len = static_cast<uint16_t>(payload.size());
  Frame f;
  f.dst = h.dst;
  f.src = h.src;
  const auto hdr = pack_header(h);
  f.bytes.reserve(kMinFrameBytes + payload.size());
  f.bytes.assign(hdr.begin(), hdr.end());
  f.bytes.insert(f.bytes.end(), payload.begin(), payload.end());
  const uint32_t fcs = crc32(f.bytes);
  f.bytes.resize(f.bytes.size() + kFcsBytes);
  store_le(&f.bytes[f.bytes.size() - kFcsBytes], fcs, kFcsBytes);
  return f;
}

bool fcs_ok(std::span<const uint8_t> bytes) {
  if (bytes.size() < kFcsBytes) return false;
  const size_t body = bytes.size() - kFcsBytes;
  return crc32(bytes.first(body)) == load_le(bytes, body, kFcsBytes);
}

std::span<const uint8_t> frame_payload(const Frame& f) {
  const FrameHeader h = parse_header(f.bytes);
  if (f.bytes.size() != kMinFrameBytes + size_t{h.len}) {
    throw std::invalid_argument("frame_payload: header len " + std::to_string(h.len) +
                                " does not match a frame of " + std::to_string(f.bytes.size()) +
                                " bytes (expected " + std::to_string(kMinFrameBytes + h.len) + ")");
  }
  return std::span<const uint8_t>(f.bytes).subspan(kFrameHeaderBytes, h.len);
}

std::vector<AxisBeat> to_beats(const Frame& f, unsigned width_bytes) {
  if (width_bytes == 0 || width_bytes > 64) {
    throw std::invalid_argument("to_beats: tdata width of " + std::to_string(width_bytes) +
                                " bytes is outside 1..64");
  }
  if (f.bytes.empty()) throw std::invalid_argument("to_beats: an empty frame (0 bytes)");
  std::vector<AxisBeat> beats;
  for (size_t at = 0; at < f.bytes.size(); at += width_bytes) {
    const unsigned lanes =
        static_cast<unsigned>(std::min<size_t>(width_bytes, f.bytes.size() - at));
    AxisBeat b;
    b.tdata.assign(width_bytes, 0);
    std::copy_n(f.bytes.begin() + static_cast<std::ptrdiff_t>(at), lanes, b.tdata.begin());
    b.tkeep = low_lanes(lanes);
    b.tdest = f.dst;
    beats.push_back(std::move(b));
  }
  beats.back().tlast = true;
  beats.back().tuser = f.tuser;
  return beats;
}

Frame from_beats(const std::vector<AxisBeat>& beats, unsigned src) {
  if (beats.empty()) throw std::invalid_argument("from_beats: no beats");
  Frame f;
  f.src = src;
  f.dst = beats.front().tdest;
  for (size_t i = 0; i < beats.size(); ++i) {
    const AxisBeat& b = beats[i];
    const std::string where = "from_beats: beat " + std::to_string(i) + ": ";
    const bool last = i + 1 == beats.size();
    if (b.tlast != last) {
      throw std::invalid_argument(where +
                                  (last ? "the last beat lacks tlast" : "tlast before the end"));
    }
    if (b.tdest != f.dst) {
      throw std::invalid_argument(where + "tdest " + std::to_string(b.tdest) +
                                  " differs from the frame's " + std::to_string(f.dst));
    }
    const auto width = static_cast<unsigned>(b.tdata.size());
    unsigned lanes = 0;
    while (lanes < width && (b.tkeep >> lanes & 1)) ++lanes;
    if (lanes == 0 || b.tkeep != low_lanes(lanes) || (!last && lanes != width)) {
      char mask[24];
      std::snprintf(mask, sizeof mask, "0x%llx", static_cast<unsigned long long>(b.tkeep));
      throw std::invalid_argument(where + "tkeep " + mask + " is not " +
                                  (last ? "contiguous from lane 0" : "full") + " on a " +
                                  std::to_string(width) + "-byte beat");
    }
    f.bytes.insert(f.bytes.end(), b.tdata.begin(), b.tdata.begin() + lanes);
  }
  f.tuser = beats.back().tuser;
  return f;
}

}  // namespace cni::sim
