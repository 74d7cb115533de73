// SPDX-License-Identifier: Apache-2.0
// PCI Express transaction-layer packets (docs/pcie.md, "TLPs"): the packets the PCIe link model
// carries, their layout on the wire as the PCI Express Base Specification gives it (header
// double words sent most significant byte first, the payload in address order), the bytes a TLP
// and a DLLP occupy on a link of each generation, and a trace of every TLP in that layout.
//
// Kinds modeled: memory read and write (3-DW headers below 4 GiB, 4-DW above, as the
// specification requires), completions with and without data, type-0 configuration reads and
// writes. MSI/MSI-X are memory writes. No prefixes, no ECRC (TD = 0), traffic class 0, 8-bit
// tags.
#pragma once

#include <cstdint>
#include <cstdio>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

#include "cni/sim/kernel.hpp"

namespace cni::sim::pcie {

enum class TlpKind : uint8_t { MRd, MWr, Cpl, CplD, CfgRd0, CfgWr0 };
const char* kind_name(TlpKind k);

// Completion status (the Cpl header's Status field).
enum class CplStatus : uint8_t { SC = 0, UR = 1, CRS = 2, CA = 4 };
const char* status_name(CplStatus s);

// Flow-control class of a TLP: posted (memory writes), non-posted (reads, configuration
// requests), completions.
enum class FcClass : uint8_t { P = 0, NP = 1, Cpl = 2 };
FcClass fc_class(TlpKind k);

struct Tlp {
  TlpKind kind = TlpKind::MRd;
  uint16_t requester = 0;   // Requester ID (bus/device/function)
  uint8_t tag = 0;
  uint64_t addr = 0;        // memory requests: the double-word-aligned address (addr[1:0] = 0;
                            // the header carries [63:2], first_be places the first byte)
  uint16_t length_dw = 0;   // Length in double words, 1..1024 (requests with data, reads,
                            // completions with data); 0 for Cpl
  uint8_t first_be = 0xF;   // byte enables of the first and the last double word; last_be is
  uint8_t last_be = 0;      // 0 when length_dw == 1
  // Completions:
  uint16_t completer = 0;   // Completer ID
  CplStatus status = CplStatus::SC;
  uint16_t byte_count = 0;  // bytes left to complete the request, this completion's included;
                            // the field's 12 bits, so 4096 is held as 0 (decode gives 4096)
  uint8_t lower_addr = 0;   // address [6:0] of the completion's first byte
  // Configuration requests: the target and the register (byte offset of a double word,
  // 0..4095).
  uint8_t bus = 0, device = 0, function = 0;
  uint16_t reg = 0;
  // Payload, length_dw * 4 bytes (MWr, CplD, CfgWr0), in address order from the double word
  // holding the first byte (bytes the byte enables leave out are carried but meaningless).
  std::vector<uint8_t> data;

  bool has_data() const {
    return kind == TlpKind::MWr || kind == TlpKind::CplD || kind == TlpKind::CfgWr0;
  }
  // Header double words: 3 or 4 (4 for memory requests at or above 4 GiB).
  unsigned header_dw() const;
  // Requests: bytes the byte enables select, from the first enabled byte to the last (a
  // zero-length read -- length 1, first_be 0 -- is 0). CplD: the payload's valid bytes,
  // min(byte_count, length * 4 - lower_addr[1:0]); Cpl: 0.
  unsigned enabled_bytes() const;
  std::string str() const;
};

class TlpError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// The TLP's wire bytes: the header (Fmt, Type, TC 0, Length, ...) as the specification lays it
// out, then the payload. Throws TlpError when the TLP breaks a rule of the specification that
// the encoding cannot express (length 0 or > 1024 DW, data size not length * 4, a byte enable
// rule, an address not 4-byte aligned in its low bits -- addr[1:0] must be 0 once the first
// byte enable places the first byte --, a 4 KiB crossing of a memory request).
std::vector<uint8_t> encode(const Tlp& t);
// The inverse of encode; throws TlpError on a malformed packet (reserved Fmt/Type, length
// mismatch, a 4-DW header below 4 GiB).
Tlp decode(std::span<const uint8_t> bytes);

// Link overhead per packet: framing (Gen1/2: STP and END symbols; Gen3 and later: the 4-byte
// STP token), the data-link layer's sequence number and LCRC -- 8 bytes per TLP for every
// generation -- and 8 bytes per DLLP (SDP/END or the SDP token, the 6-byte DLLP).
inline constexpr unsigned kTlpFramingBytes = 8;
inline constexpr unsigned kDllpBytes = 8;
// Bytes a TLP occupies on the link: framing + header + payload.
unsigned wire_bytes(const Tlp& t);
// Payload bytes per nanosecond of a link: generation 1..5, lanes 1, 2, 4, 8, 16; 8b/10b line
// coding for generations 1 and 2, 128b/130b for 3 and later (SKP ordered sets not counted).
// Throws std::invalid_argument on another generation or width.
double link_bytes_per_ns(unsigned gen, unsigned lanes);

// A trace of TLPs (--tlp-trace FILE): one line per TLP,
//   <time in ps> <direction: "down" (root complex -> endpoint) or "up"> <bytes as hex pairs>
// where the bytes are encode()'s, so any decoder of the specification's layout reads them
// (scripts/tlp-decode.py decodes the file). A header comment names the format.
class TlpTrace {
 public:
  // Opens `path` for writing; throws std::runtime_error naming the path on failure.
  explicit TlpTrace(const std::string& path);
  ~TlpTrace();
  TlpTrace(const TlpTrace&) = delete;
  TlpTrace& operator=(const TlpTrace&) = delete;
  void record(Time t, bool down, const Tlp& tlp);
  // A comment line ("# " and `text`): e.g. where one simulation's records end and another's,
  // with its own time from 0, begin.
  void comment(const std::string& text);
  uint64_t records() const { return records_; }

 private:
  std::FILE* f_ = nullptr;
  uint64_t records_ = 0;
};

}  // namespace cni::sim::pcie
