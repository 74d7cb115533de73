// SPDX-License-Identifier: Apache-2.0
// TLPs: header layouts worked out by hand from the PCI Express Base Specification, encode/decode
// round trips of random packets, every rule encode enforces, malformed packets decode rejects,
// link bytes and rates, the trace file.
#include "cni/sim/tlp.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "error_of.hpp"

using namespace cni::sim::pcie;
using cni::sim::test::error_of;

namespace {

std::vector<uint8_t> counting(size_t n, uint8_t first) {
  std::vector<uint8_t> v(n);
  for (size_t i = 0; i < n; ++i) v[i] = static_cast<uint8_t>(first + i);
  return v;
}

// The header double words `bytes` starts with, each read most significant byte first.
std::vector<uint32_t> header_dws(const std::vector<uint8_t>& bytes, unsigned n) {
  std::vector<uint32_t> dws;
  for (unsigned d = 0; d < n; ++d) {
    uint32_t v = 0;
    for (unsigned i = 0; i < 4; ++i) v = v << 8 | bytes.at(d * 4 + i);
    dws.push_back(v);
  }
  return dws;
}

// Bytes of the given header double words, most significant byte first, then `payload`.
std::vector<uint8_t> packet(const std::vector<uint32_t>& dws,
                            const std::vector<uint8_t>& payload = {}) {
  std::vector<uint8_t> out;
  for (uint32_t dw : dws) {
    for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(dw >> shift));
  }
  out.insert(out.end(), payload.begin(), payload.end());
  return out;
}

Tlp mrd(uint64_t addr, uint16_t length_dw, uint8_t fbe = 0xF, uint8_t lbe = 0xF) {
  Tlp t;
  t.kind = TlpKind::MRd;
  t.requester = 0x0100;
  t.tag = 5;
  t.addr = addr;
  t.length_dw = length_dw;
  t.first_be = fbe;
  t.last_be = length_dw == 1 ? 0 : lbe;
  return t;
}

Tlp mwr(uint64_t addr, uint16_t length_dw, uint8_t fbe = 0xF, uint8_t lbe = 0xF) {
  Tlp t = mrd(addr, length_dw, fbe, lbe);
  t.kind = TlpKind::MWr;
  t.data = counting(size_t{length_dw} * 4, 0x10);
  return t;
}

Tlp cpld(uint16_t length_dw, uint16_t byte_count, uint8_t lower_addr) {
  Tlp t;
  t.kind = TlpKind::CplD;
  t.completer = 0x0300;
  t.requester = 0x0100;
  t.tag = 5;
  t.length_dw = length_dw;
  t.byte_count = byte_count;
  t.lower_addr = lower_addr;
  t.data = counting(size_t{length_dw} * 4, 0x80);
  return t;
}

Tlp cfg(TlpKind kind, uint8_t fbe) {
  Tlp t;
  t.kind = kind;
  t.requester = 0x0000;
  t.tag = 1;
  t.length_dw = 1;
  t.first_be = fbe;
  t.last_be = 0;
  t.bus = 1;
  t.device = 2;
  t.function = 3;
  t.reg = 0x10C;
  if (kind == TlpKind::CfgWr0) t.data = {0x78, 0x56, 0x34, 0x12};
  return t;
}

void expect_same(const Tlp& a, const Tlp& b) {
  EXPECT_EQ(a.kind, b.kind);
  EXPECT_EQ(a.requester, b.requester);
  EXPECT_EQ(a.tag, b.tag);
  EXPECT_EQ(a.addr, b.addr);
  EXPECT_EQ(a.length_dw, b.length_dw);
  EXPECT_EQ(a.first_be, b.first_be);
  EXPECT_EQ(a.last_be, b.last_be);
  EXPECT_EQ(a.completer, b.completer);
  EXPECT_EQ(a.status, b.status);
  EXPECT_EQ(a.byte_count, b.byte_count);
  EXPECT_EQ(a.lower_addr, b.lower_addr);
  EXPECT_EQ(a.bus, b.bus);
  EXPECT_EQ(a.device, b.device);
  EXPECT_EQ(a.function, b.function);
  EXPECT_EQ(a.reg, b.reg);
  EXPECT_EQ(a.data, b.data);
}

// A random TLP that keeps every rule: fields a kind does not carry keep their defaults, so a
// decoded copy compares equal field by field.
Tlp random_tlp(std::mt19937_64& rng) {
  auto below = [&](uint64_t n) { return std::uniform_int_distribution<uint64_t>(0, n - 1)(rng); };
  Tlp t;
  t.kind = static_cast<TlpKind>(below(6));
  t.tag = static_cast<uint8_t>(below(256));
  t.requester = static_cast<uint16_t>(below(65536));
  switch (t.kind) {
    case TlpKind::MRd:
    case TlpKind::MWr: {
      // Half below 4 GiB (3-DW headers), half anywhere (mostly 4-DW).
      t.addr = (below(2) == 0 ? below(1ull << 32) : rng()) & ~uint64_t{3};
      const unsigned room = static_cast<unsigned>(4096 - (t.addr & 0xFFF)) / 4;
      t.length_dw = static_cast<uint16_t>(1 + below(below(4) == 0 ? room : std::min(room, 4u)));
      if (t.length_dw == 1) {
        t.first_be = static_cast<uint8_t>(below(16));
        t.last_be = 0;
      } else if (t.length_dw == 2 && (t.addr & 7) == 0) {
        t.first_be = static_cast<uint8_t>(1 + below(15));
        t.last_be = static_cast<uint8_t>(1 + below(15));
      } else {
        static constexpr uint8_t kFirst[] = {0x8, 0xC, 0xE, 0xF};
        static constexpr uint8_t kLast[] = {0x1, 0x3, 0x7, 0xF};
        t.first_be = kFirst[below(4)];
        t.last_be = kLast[below(4)];
      }
      break;
    }
    case TlpKind::Cpl:
    case TlpKind::CplD: {
      static constexpr CplStatus kStatus[] = {CplStatus::SC, CplStatus::UR, CplStatus::CRS,
                                              CplStatus::CA};
      t.completer = static_cast<uint16_t>(below(65536));
      t.status = kStatus[below(4)];
      t.byte_count = static_cast<uint16_t>(1 + below(4096));
      t.lower_addr = static_cast<uint8_t>(below(128));
      t.length_dw = t.kind == TlpKind::Cpl ? 0 : static_cast<uint16_t>(1 + below(1024));
      break;
    }
    case TlpKind::CfgRd0:
    case TlpKind::CfgWr0:
      t.length_dw = 1;
      t.first_be = static_cast<uint8_t>(below(16));
      t.last_be = 0;
      t.bus = static_cast<uint8_t>(below(256));
      t.device = static_cast<uint8_t>(below(32));
      t.function = static_cast<uint8_t>(below(8));
      t.reg = static_cast<uint16_t>(below(1024) * 4);
      break;
  }
  if (t.has_data()) {
    t.data.resize(size_t{t.length_dw} * 4);
    for (auto& b : t.data) b = static_cast<uint8_t>(below(256));
  }
  return t;
}

std::string hex_line(const std::vector<uint8_t>& bytes) {
  std::string s;
  char buf[3];
  for (uint8_t b : bytes) {
    std::snprintf(buf, sizeof buf, "%02x", b);
    s += buf;
  }
  return s;
}

}  // namespace

TEST(Tlp, MemoryRead3DwLayout) {
  const Tlp t = mrd(0x10000040, 4);
  const auto b = encode(t);
  ASSERT_EQ(b.size(), 12u);
  EXPECT_EQ(header_dws(b, 3), (std::vector<uint32_t>{0x00000004, 0x010005FF, 0x10000040}));
  EXPECT_EQ(b[0], 0x00);  // most significant byte of DW0 first
  EXPECT_EQ(b[3], 0x04);
  EXPECT_EQ(t.header_dw(), 3u);
  EXPECT_EQ(t.enabled_bytes(), 16u);
  EXPECT_EQ(t.str(), "MRd req=0100 tag=5 addr=0x10000040 len=4 fbe=f lbe=f");
  // The highest 3-DW address.
  EXPECT_EQ(header_dws(encode(mrd(0xFFFFFFFC, 1)), 3),
            (std::vector<uint32_t>{0x00000001, 0x0100050F, 0xFFFFFFFC}));
}

TEST(Tlp, MemoryWrite4DwLayoutAbove4GiB) {
  Tlp t = mwr(0x123456780, 2, 0xC, 0x3);
  t.requester = 0x0208;
  t.tag = 0x11;
  t.data = {0xA0, 0xA1, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7};
  const auto b = encode(t);
  EXPECT_EQ(b, packet({0x60000002, 0x0208113C, 0x00000001, 0x23456780}, t.data));
  EXPECT_EQ(t.header_dw(), 4u);
  EXPECT_EQ(t.enabled_bytes(), 4u);  // bytes 2, 3 of the first DW and 0, 1 of the last
  // 4 GiB is the lowest address that takes a 4-DW header.
  EXPECT_EQ(header_dws(encode(mrd(0x100000000, 1)), 4),
            (std::vector<uint32_t>{0x20000001, 0x0100050F, 0x00000001, 0x00000000}));
}

TEST(Tlp, CompletionWithDataLayout) {
  const Tlp t = cpld(4, 16, 0x40);
  EXPECT_EQ(encode(t), packet({0x4A000004, 0x03000010, 0x01000540}, t.data));
  EXPECT_EQ(t.enabled_bytes(), 16u);
  EXPECT_EQ(t.str(), "CplD cpl=0300 SC req=0100 tag=5 len=4 bc=16 la=0x40");
  // Length 1024 and byte count 4096 both encode as 0.
  const Tlp full = cpld(1024, 4096, 0);
  EXPECT_EQ(header_dws(encode(full), 3),
            (std::vector<uint32_t>{0x4A000000, 0x03000000, 0x01000500}));
  EXPECT_EQ(decode(encode(full)).byte_count, 4096u);
  // A byte count of 0 is the field's own encoding of 4096 (a Byte Count is never 0).
  Tlp zero = cpld(1024, 0, 0);
  EXPECT_EQ(encode(zero), encode(full));
  EXPECT_EQ(zero.enabled_bytes(), 4096u);
  EXPECT_EQ(cpld(1, 0, 0).str(), "CplD cpl=0300 SC req=0100 tag=5 len=1 bc=4096 la=0x00");
  // Completer Abort in Status [15:13].
  Tlp ca = cpld(1, 4, 0x7F);
  ca.status = CplStatus::CA;
  EXPECT_EQ(header_dws(encode(ca), 3), (std::vector<uint32_t>{0x4A000001, 0x03008004, 0x0100057F}));
}

TEST(Tlp, CompletionUnsupportedRequestLayout) {
  Tlp t;
  t.kind = TlpKind::Cpl;
  t.completer = 0x0300;
  t.status = CplStatus::UR;
  t.requester = 0x0100;
  t.tag = 7;
  t.byte_count = 4;
  const auto b = encode(t);
  EXPECT_EQ(b, packet({0x0A000000, 0x03002004, 0x01000700}));
  EXPECT_EQ(decode(b).status, CplStatus::UR);
  EXPECT_EQ(t.enabled_bytes(), 0u);
  EXPECT_EQ(t.str(), "Cpl cpl=0300 UR req=0100 tag=7 len=0 bc=4 la=0x00");
}

TEST(Tlp, ConfigurationRequestLayouts) {
  // Bus 1, device 2, function 3, register 0x10C: Ext Register Number 1, Register Number 3.
  const Tlp rd = cfg(TlpKind::CfgRd0, 0xF);
  EXPECT_EQ(encode(rd), packet({0x04000001, 0x0000010F, 0x0113010C}));
  EXPECT_EQ(rd.enabled_bytes(), 4u);
  EXPECT_EQ(rd.str(), "CfgRd0 req=0000 tag=1 bdf=01:02.3 reg=0x10c fbe=f");
  const Tlp wr = cfg(TlpKind::CfgWr0, 0x3);
  EXPECT_EQ(encode(wr), packet({0x44000001, 0x00000103, 0x0113010C}, {0x78, 0x56, 0x34, 0x12}));
  EXPECT_EQ(wr.enabled_bytes(), 2u);
  EXPECT_EQ(wr.header_dw(), 3u);
}

TEST(Tlp, NamesAndFlowControlClasses) {
  EXPECT_STREQ(kind_name(TlpKind::MRd), "MRd");
  EXPECT_STREQ(kind_name(TlpKind::MWr), "MWr");
  EXPECT_STREQ(kind_name(TlpKind::Cpl), "Cpl");
  EXPECT_STREQ(kind_name(TlpKind::CplD), "CplD");
  EXPECT_STREQ(kind_name(TlpKind::CfgRd0), "CfgRd0");
  EXPECT_STREQ(kind_name(TlpKind::CfgWr0), "CfgWr0");
  EXPECT_STREQ(status_name(CplStatus::SC), "SC");
  EXPECT_STREQ(status_name(CplStatus::UR), "UR");
  EXPECT_STREQ(status_name(CplStatus::CRS), "CRS");
  EXPECT_STREQ(status_name(CplStatus::CA), "CA");
  EXPECT_EQ(fc_class(TlpKind::MWr), FcClass::P);
  EXPECT_EQ(fc_class(TlpKind::MRd), FcClass::NP);
  EXPECT_EQ(fc_class(TlpKind::CfgRd0), FcClass::NP);
  EXPECT_EQ(fc_class(TlpKind::CfgWr0), FcClass::NP);
  EXPECT_EQ(fc_class(TlpKind::Cpl), FcClass::Cpl);
  EXPECT_EQ(fc_class(TlpKind::CplD), FcClass::Cpl);
}

TEST(Tlp, EnabledBytesSpanTheByteEnables) {
  EXPECT_EQ(mrd(0x1000, 1, 0x0).enabled_bytes(), 0u);  // zero-length read
  EXPECT_EQ(mrd(0x1000, 1, 0x6).enabled_bytes(), 2u);
  EXPECT_EQ(mrd(0x1000, 1, 0x9).enabled_bytes(), 4u);  // bytes 0 to 3, a gap between
  EXPECT_EQ(mrd(0x1000, 1, 0x8).enabled_bytes(), 1u);
  EXPECT_EQ(mrd(0x1000, 2, 0x1, 0x8).enabled_bytes(), 8u);
  EXPECT_EQ(mrd(0x1000, 3, 0xE, 0x1).enabled_bytes(), 8u);
  EXPECT_EQ(mrd(0x1000, 1024).enabled_bytes(), 4096u);
  // A completion's valid bytes: from lower address [1:0] to the end of the request or the data.
  EXPECT_EQ(cpld(4, 100, 0x42).enabled_bytes(), 14u);
  EXPECT_EQ(cpld(4, 3, 0x41).enabled_bytes(), 3u);
}

TEST(Tlp, RandomPacketsRoundTrip) {
  std::mt19937_64 rng(0x7C0FFEE);
  unsigned four_dw = 0;
  for (int i = 0; i < 5000; ++i) {
    const Tlp t = random_tlp(rng);
    SCOPED_TRACE(t.str());
    const auto b = encode(t);
    ASSERT_EQ(b.size(), size_t{t.header_dw()} * 4 + t.data.size());
    ASSERT_EQ(wire_bytes(t), b.size() + kTlpFramingBytes);
    const Tlp back = decode(b);
    expect_same(back, t);
    ASSERT_EQ(encode(back), b);
    four_dw += t.header_dw() == 4;
  }
  EXPECT_GT(four_dw, 500u);  // both header sizes were exercised
}

TEST(Tlp, DecodeAcceptsOnlyWhatEncodeProduces) {
  // Flip bits of valid packets: decode either rejects the result or reads a TLP that encodes
  // back to the same bytes, so no header bit is silently dropped.
  std::mt19937_64 rng(42);
  unsigned rejected = 0, accepted = 0;
  for (int i = 0; i < 20000; ++i) {
    const Tlp valid = random_tlp(rng);
    auto b = encode(valid);
    const unsigned header_bits = valid.header_dw() * 32;
    const int flips = 1 + static_cast<int>(rng() % 3);
    for (int f = 0; f < flips; ++f) {
      const size_t bit = rng() % header_bits;
      b[bit / 8] ^= static_cast<uint8_t>(1u << bit % 8);
    }
    try {
      const Tlp t = decode(b);
      ASSERT_EQ(encode(t), b) << t.str();
      ++accepted;
    } catch (const TlpError&) {
      ++rejected;
    }
  }
  EXPECT_GT(rejected, 1000u);
  EXPECT_GT(accepted, 1000u);
}

TEST(Tlp, EncodeRejectsLengthAndDataRuleViolations) {
  EXPECT_NE(error_of<TlpError>([] { encode(mrd(0x1000, 0)); }).find("length 0"), std::string::npos);
  EXPECT_THROW(encode(mrd(0x0, 1025)), TlpError);
  Tlp two = cfg(TlpKind::CfgRd0, 0xF);
  two.length_dw = 2;
  two.last_be = 0xF;
  EXPECT_THROW(encode(two), TlpError);
  Tlp cpl_len;
  cpl_len.kind = TlpKind::Cpl;
  cpl_len.byte_count = 4;
  cpl_len.length_dw = 1;
  EXPECT_THROW(encode(cpl_len), TlpError);
  EXPECT_THROW(encode(cpld(0, 4, 0)), TlpError);

  Tlp short_data = mwr(0x1000, 4);
  short_data.data.pop_back();
  EXPECT_NE(error_of<TlpError>([&] { encode(short_data); }).find("15 bytes"), std::string::npos);
  Tlp read_data = mrd(0x1000, 1);
  read_data.data = {1, 2, 3, 4};
  EXPECT_THROW(encode(read_data), TlpError);
  Tlp cpl_data = cpl_len;
  cpl_data.length_dw = 0;
  cpl_data.data = {1, 2, 3, 4};
  EXPECT_THROW(encode(cpl_data), TlpError);
  Tlp rd_data = cfg(TlpKind::CfgRd0, 0xF);
  rd_data.data = {1, 2, 3, 4};
  EXPECT_THROW(encode(rd_data), TlpError);
  Tlp wr_short = cfg(TlpKind::CfgWr0, 0xF);
  wr_short.data.pop_back();
  EXPECT_THROW(encode(wr_short), TlpError);
  cpl_data.length_dw = 0;
  cpl_data.data.clear();
  EXPECT_NO_THROW(encode(cpl_data));
}

TEST(Tlp, EncodeRejectsByteEnableAndAddressRuleViolations) {
  Tlp single = mrd(0x1000, 1);
  single.last_be = 0x1;
  EXPECT_NE(error_of<TlpError>([&] { encode(single); }).find("last DW byte enables"),
            std::string::npos);
  EXPECT_THROW(encode(mrd(0x1000, 2, 0x0, 0xF)), TlpError);
  EXPECT_THROW(encode(mrd(0x1000, 3, 0xF, 0x0)), TlpError);
  EXPECT_THROW(encode(mrd(0x1000, 1, 0x1F)), TlpError);
  EXPECT_THROW(encode(mrd(0x1000, 2, 0xF, 0x10)), TlpError);
  // Gaps: only single-DW and quadword-aligned two-DW requests may have them.
  EXPECT_NO_THROW(encode(mrd(0x1000, 1, 0x5)));
  EXPECT_NO_THROW(encode(mrd(0x1000, 2, 0x5, 0xA)));
  EXPECT_THROW(encode(mrd(0x1004, 2, 0x5, 0xA)), TlpError);
  EXPECT_THROW(encode(mrd(0x1000, 3, 0x7, 0xF)), TlpError);  // first DW stops short of byte 3
  EXPECT_THROW(encode(mwr(0x1000, 3, 0xF, 0xE)), TlpError);  // last DW starts after byte 0
  EXPECT_NO_THROW(encode(mwr(0x1000, 3, 0x8, 0x1)));
  // The zero-length read.
  EXPECT_NO_THROW(encode(mrd(0x1000, 1, 0x0)));

  EXPECT_NE(error_of<TlpError>([] { encode(mrd(0x1002, 1)); }).find("0x1002"), std::string::npos);
  EXPECT_THROW(encode(mwr(0x100000001, 1)), TlpError);
  EXPECT_NE(error_of<TlpError>([] { encode(mrd(0x1FFC, 2)); }).find("4 KiB"), std::string::npos);
  EXPECT_THROW(encode(mwr(0x100000800, 513)), TlpError);
  EXPECT_NO_THROW(encode(mrd(0x1FF0, 4)));  // ends exactly at the boundary
  EXPECT_NO_THROW(encode(mwr(0x100000000, 1024)));
}

TEST(Tlp, EncodeRejectsConfigurationAndCompletionFieldViolations) {
  Tlp dev = cfg(TlpKind::CfgRd0, 0xF);
  dev.device = 32;
  EXPECT_NE(error_of<TlpError>([&] { encode(dev); }).find("device 32"), std::string::npos);
  Tlp fn = cfg(TlpKind::CfgRd0, 0xF);
  fn.function = 8;
  EXPECT_THROW(encode(fn), TlpError);
  Tlp reg = cfg(TlpKind::CfgWr0, 0xF);
  reg.reg = 0x1000;
  EXPECT_THROW(encode(reg), TlpError);
  reg.reg = 0x102;
  EXPECT_THROW(encode(reg), TlpError);
  Tlp lbe = cfg(TlpKind::CfgRd0, 0xF);
  lbe.last_be = 0xF;
  EXPECT_THROW(encode(lbe), TlpError);

  EXPECT_NE(error_of<TlpError>([] { encode(cpld(1, 4097, 0)); }).find("byte count 4097"),
            std::string::npos);
  EXPECT_THROW(encode(cpld(1, 4, 0x80)), TlpError);
  Tlp status = cpld(1, 4, 0);
  status.status = static_cast<CplStatus>(3);
  EXPECT_NE(error_of<TlpError>([&] { encode(status); }).find("status 3"), std::string::npos);
  Tlp kind = mrd(0x1000, 1);
  kind.kind = static_cast<TlpKind>(9);
  EXPECT_THROW(encode(kind), TlpError);
  EXPECT_THROW(fc_class(kind.kind), TlpError);
}

TEST(Tlp, DecodeRejectsTruncatedAndOverlongPackets) {
  EXPECT_NE(error_of<TlpError>([] { decode({}); }).find("0 bytes"), std::string::npos);
  auto b = encode(mrd(0x1000, 4));
  b.pop_back();
  EXPECT_NE(error_of<TlpError>([&] { decode(b); }).find("11 bytes"), std::string::npos);
  auto four = encode(mrd(0x100000000, 1));
  four.resize(14);
  EXPECT_NE(error_of<TlpError>([&] { decode(four); }).find("4-DW header"), std::string::npos);
  auto w = encode(mwr(0x1000, 4));
  w.pop_back();
  EXPECT_NE(error_of<TlpError>([&] { decode(w); }).find("Length 4"), std::string::npos);
  w.push_back(0);
  w.push_back(0);
  EXPECT_THROW(decode(w), TlpError);
  auto rd = encode(mrd(0x1000, 4));
  rd.push_back(0);  // a read carries no payload
  EXPECT_THROW(decode(rd), TlpError);
}

TEST(Tlp, DecodeRejectsInconsistentHeaders) {
  auto reject = [](const std::vector<uint8_t>& b) {
    return error_of<TlpError>([&] { decode(b); });
  };
  // Fmt 100 (a TLP prefix), MRdLk (Type 00001), 4-DW configuration and completion headers.
  EXPECT_NE(reject(packet({0x80000001, 0x0100050F, 0x00001000})).find("Fmt 4"), std::string::npos);
  EXPECT_NE(reject(packet({0x01000001, 0x0100050F, 0x00001000})).find("Type 0x1"),
            std::string::npos);
  EXPECT_THROW(decode(packet({0x24000001, 0x0000010F, 0x0113010C, 0})), TlpError);
  EXPECT_THROW(decode(packet({0x2A000000, 0x03002004, 0x01000700, 0})), TlpError);
  // A 4-DW header whose address fits in 32 bits.
  EXPECT_NE(reject(packet({0x20000001, 0x0100050F, 0x00000000, 0x00001000})).find("below 4 GiB"),
            std::string::npos);
  // TC 1, TD, EP, Attr (relaxed ordering), AT.
  for (uint32_t bit : {0x00100000u, 0x00008000u, 0x00004000u, 0x00002000u, 0x00000400u}) {
    EXPECT_THROW(decode(packet({0x00000001 | bit, 0x0100050F, 0x00001000})), TlpError) << bit;
  }
  // Address bits [1:0] (processing hints), a Cpl with a Length, BCM, a reserved status, the
  // reserved bit above the lower address.
  EXPECT_THROW(decode(packet({0x00000001, 0x0100050F, 0x00001001})), TlpError);
  EXPECT_NE(reject(packet({0x0A000001, 0x03002004, 0x01000700})).find("Length 1"),
            std::string::npos);
  EXPECT_NE(reject(packet({0x0A000000, 0x03003004, 0x01000700})).find("BCM"), std::string::npos);
  EXPECT_NE(reject(packet({0x0A000000, 0x03006004, 0x01000700})).find("status 3"),
            std::string::npos);
  EXPECT_THROW(decode(packet({0x0A000000, 0x03002004, 0x01000780})), TlpError);  // DW2 bit 7
  // Byte enable rules hold for decoded requests too.
  EXPECT_THROW(decode(packet({0x00000001, 0x010005FF, 0x00001000})), TlpError);
  EXPECT_THROW(decode(packet({0x00000002, 0x010005F0, 0x00001000})), TlpError);
  // A 4 KiB crossing; a configuration request of two DWs; reserved configuration bits.
  EXPECT_THROW(decode(packet({0x00000002, 0x010005FF, 0x00001FFC})), TlpError);
  EXPECT_THROW(decode(packet({0x04000002, 0x000001FF, 0x0113010C})), TlpError);
  EXPECT_THROW(decode(packet({0x04000001, 0x0000010F, 0x0113110C})), TlpError);
}

TEST(Tlp, WireBytesAddFramingHeaderAndPayload) {
  EXPECT_EQ(wire_bytes(mrd(0x1000, 4)), 8u + 12u);
  EXPECT_EQ(wire_bytes(mrd(0x100000000, 4)), 8u + 16u);
  EXPECT_EQ(wire_bytes(mwr(0x100000000, 2, 0xF, 0xF)), 8u + 16u + 8u);
  EXPECT_EQ(wire_bytes(cpld(16, 64, 0)), 8u + 12u + 64u);
  EXPECT_EQ(wire_bytes(cfg(TlpKind::CfgWr0, 0xF)), 8u + 12u + 4u);
}

TEST(Tlp, LinkBytesPerNanosecond) {
  EXPECT_DOUBLE_EQ(link_bytes_per_ns(1, 1), 0.25);
  EXPECT_DOUBLE_EQ(link_bytes_per_ns(2, 4), 2.0);
  EXPECT_NEAR(link_bytes_per_ns(3, 8), 7.8769, 1e-4);
  EXPECT_NEAR(link_bytes_per_ns(4, 16), 31.5077, 1e-4);
  EXPECT_NEAR(link_bytes_per_ns(5, 16), 63.0154, 1e-4);
  EXPECT_DOUBLE_EQ(link_bytes_per_ns(3, 16), 2 * link_bytes_per_ns(3, 8));
  EXPECT_NE(error_of<std::invalid_argument>([] { link_bytes_per_ns(6, 8); }).find("generation 6"),
            std::string::npos);
  EXPECT_THROW(link_bytes_per_ns(0, 8), std::invalid_argument);
  EXPECT_NE(error_of<std::invalid_argument>([] { link_bytes_per_ns(3, 3); }).find("x3"),
            std::string::npos);
  EXPECT_THROW(link_bytes_per_ns(3, 0), std::invalid_argument);
  EXPECT_THROW(link_bytes_per_ns(3, 32), std::invalid_argument);
}

TEST(Tlp, TraceWritesOneHexLinePerPacket) {
  const std::string path = ::testing::TempDir() + "/tlp_trace_test.txt";
  const Tlp cpl = cpld(1, 4, 0x40);
  {
    TlpTrace trace(path);
    trace.record(1000, true, mrd(0x10000040, 4));
    trace.record(2500, false, cpl);
    // A TLP encode rejects is not written.
    EXPECT_THROW(trace.record(3000, true, mrd(0x1002, 1)), TlpError);
    EXPECT_EQ(trace.records(), 2u);
  }
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  std::string first;
  std::istringstream lines(text.str());
  std::getline(lines, first);
  EXPECT_EQ(first.substr(0, 1), "#");
  std::string rest;
  std::getline(lines, rest, '\0');
  EXPECT_EQ(rest, "1000 down 00000004010005ff10000040\n2500 up " + hex_line(encode(cpl)) + "\n");
  EXPECT_EQ(hex_line(encode(cpl)), "4a000001030000040100054080818283");
  std::remove(path.c_str());
}

TEST(Tlp, TraceNamesAPathItCannotOpen) {
  const std::string path = ::testing::TempDir() + "/no-such-dir/trace.txt";
  EXPECT_NE(error_of<std::runtime_error>([&] { TlpTrace t(path); }).find(path), std::string::npos);
}
