// SPDX-License-Identifier: Apache-2.0
// TLP headers as the PCI Express Base Specification lays them out. encode() and decode() share
// one rule check, and decode() rejects every header bit encode() never sets (TC, TD, EP, Attr,
// AT, reserved fields), so any packet decode() accepts encodes back to the same bytes.
#include "cni/sim/tlp.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>
#include <string>

namespace cni::sim::pcie {

namespace {

constexpr uint64_t k4GiB = 1ull << 32;
constexpr unsigned kMaxLengthDw = 1024;   // the 10-bit Length field, 0 meaning 1024
constexpr unsigned kMaxByteCount = 4096;  // the 12-bit Byte Count field, 0 meaning 4096

// Fmt: header size and whether data follows.
constexpr unsigned kFmt3Dw = 0b000;
constexpr unsigned kFmt4Dw = 0b001;
constexpr unsigned kFmt3DwData = 0b010;
constexpr unsigned kFmt4DwData = 0b011;
// Type.
constexpr unsigned kTypeMem = 0b00000;
constexpr unsigned kTypeCfg0 = 0b00100;
constexpr unsigned kTypeCpl = 0b01010;

bool is_memory(TlpKind k) { return k == TlpKind::MRd || k == TlpKind::MWr; }
bool is_config(TlpKind k) { return k == TlpKind::CfgRd0 || k == TlpKind::CfgWr0; }
bool is_completion(TlpKind k) { return k == TlpKind::Cpl || k == TlpKind::CplD; }

[[noreturn]] void fail(const Tlp& t, const std::string& what) {
  throw TlpError(std::string("TLP ") + kind_name(t.kind) + ": " + what);
}

[[noreturn]] void fail_decode(const std::string& what) { throw TlpError("TLP decode: " + what); }

std::string hex(uint64_t v) {
  char buf[24];
  std::snprintf(buf, sizeof buf, "0x%llx", static_cast<unsigned long long>(v));
  return buf;
}

// The specification's byte enable rules (2.2.5): a single-DW request has no last DW byte
// enables, a longer one enables at least one byte in each end DW, and a request longer than two
// DWs, or of two DWs not quadword aligned, enables one contiguous run of bytes -- the first DW's
// bytes reach its top byte and the last DW's start at its byte 0.
void check_byte_enables(const Tlp& t) {
  if (t.first_be > 0xF || t.last_be > 0xF) {
    fail(t,
         "byte enables fbe=" + hex(t.first_be) + " lbe=" + hex(t.last_be) + " wider than 4 bits");
  }
  if (t.length_dw == 1) {
    if (t.last_be != 0) fail(t, "length 1 DW with last DW byte enables " + hex(t.last_be));
    return;
  }
  if (t.first_be == 0 || t.last_be == 0) {
    fail(t, "length " + std::to_string(t.length_dw) + " DW with a zero byte enable (fbe=" +
                hex(t.first_be) + " lbe=" + hex(t.last_be) + ")");
  }
  const bool may_gap = t.length_dw == 2 && (t.addr & 0x7) == 0;
  const bool first_ok =
      t.first_be == 0x8 || t.first_be == 0xC || t.first_be == 0xE || t.first_be == 0xF;
  const bool last_ok = t.last_be == 0x1 || t.last_be == 0x3 || t.last_be == 0x7 || t.last_be == 0xF;
  if (!may_gap && !(first_ok && last_ok)) {
    fail(t, "byte enables fbe=" + hex(t.first_be) + " lbe=" + hex(t.last_be) +
                " leave a gap in a request of " + std::to_string(t.length_dw) + " DW at " +
                hex(t.addr));
  }
}

void check_length(const Tlp& t) {
  if (t.kind == TlpKind::Cpl) {
    if (t.length_dw != 0) fail(t, "length " + std::to_string(t.length_dw) + " DW, must be 0");
  } else if (t.length_dw == 0 || t.length_dw > kMaxLengthDw) {
    fail(t, "length " + std::to_string(t.length_dw) + " DW outside 1..1024");
  } else if (is_config(t.kind) && t.length_dw != 1) {
    fail(t, "length " + std::to_string(t.length_dw) + " DW, must be 1");
  }
  const size_t want = t.has_data() ? size_t{t.length_dw} * 4 : 0;
  if (t.data.size() != want) {
    fail(t, "data of " + std::to_string(t.data.size()) + " bytes, length " +
                std::to_string(t.length_dw) + " DW needs " + std::to_string(want));
  }
}

// Every rule encode() enforces and decode() applies to what it read.
void check(const Tlp& t) {
  if (!is_memory(t.kind) && !is_config(t.kind) && !is_completion(t.kind)) {
    throw TlpError("TLP kind " + std::to_string(static_cast<unsigned>(t.kind)) + " unknown");
  }
  check_length(t);
  if (is_memory(t.kind)) {
    if ((t.addr & 0x3) != 0) fail(t, "address " + hex(t.addr) + " not 4-byte aligned");
    if ((t.addr & 0xFFF) + uint64_t{t.length_dw} * 4 > 4096) {
      fail(t, "address " + hex(t.addr) + " + " + std::to_string(t.length_dw) +
                  " DW crosses a 4 KiB boundary");
    }
    check_byte_enables(t);
  } else if (is_config(t.kind)) {
    if (t.device > 31) fail(t, "device " + std::to_string(t.device) + " outside 0..31");
    if (t.function > 7) fail(t, "function " + std::to_string(t.function) + " outside 0..7");
    if (t.reg > 4095 || (t.reg & 0x3) != 0) {
      fail(t, "register " + hex(t.reg) + " not a double word offset below 4096");
    }
    check_byte_enables(t);
  } else {
    switch (t.status) {
      case CplStatus::SC:
      case CplStatus::UR:
      case CplStatus::CRS:
      case CplStatus::CA:
        break;
      default:
        fail(t,
             "completion status " + std::to_string(static_cast<unsigned>(t.status)) + " reserved");
    }
    if (t.byte_count > kMaxByteCount) {
      fail(t, "byte count " + std::to_string(t.byte_count) + " above 4096");
    }
    if (t.lower_addr > 0x7F) fail(t, "lower address " + hex(t.lower_addr) + " wider than 7 bits");
  }
}

void put_dw(std::vector<uint8_t>& out, uint32_t v) {
  for (int shift = 24; shift >= 0; shift -= 8) out.push_back(static_cast<uint8_t>(v >> shift));
}

uint32_t get_dw(std::span<const uint8_t> b, unsigned dw) {
  uint32_t v = 0;
  for (unsigned i = 0; i < 4; ++i) v = v << 8 | b[dw * 4 + i];
  return v;
}

// Requester ID, tag and byte enables: DW1 of memory and configuration requests.
// A completion's byte count: a Byte Count is never 0, so byte_count 0 is taken as the field's
// own encoding of 4096.
unsigned byte_count_of(const Tlp& t) { return t.byte_count == 0 ? kMaxByteCount : t.byte_count; }

uint32_t request_dw1(const Tlp& t) {
  return uint32_t{t.requester} << 16 | uint32_t{t.tag} << 8 | uint32_t{t.last_be} << 4 | t.first_be;
}

}  // namespace

const char* kind_name(TlpKind k) {
  switch (k) {
    case TlpKind::MRd:
      return "MRd";
    case TlpKind::MWr:
      return "MWr";
    case TlpKind::Cpl:
      return "Cpl";
    case TlpKind::CplD:
      return "CplD";
    case TlpKind::CfgRd0:
      return "CfgRd0";
    case TlpKind::CfgWr0:
      return "CfgWr0";
  }
  return "?";
}

const char* status_name(CplStatus s) {
  switch (s) {
    case CplStatus::SC:
      return "SC";
    case CplStatus::UR:
      return "UR";
    case CplStatus::CRS:
      return "CRS";
    case CplStatus::CA:
      return "CA";
  }
  return "?";
}

FcClass fc_class(TlpKind k) {
  switch (k) {
    case TlpKind::MWr:
      return FcClass::P;
    case TlpKind::MRd:
    case TlpKind::CfgRd0:
    case TlpKind::CfgWr0:
      return FcClass::NP;
    case TlpKind::Cpl:
    case TlpKind::CplD:
      return FcClass::Cpl;
  }
  throw TlpError("fc_class: TLP kind " + std::to_string(static_cast<unsigned>(k)) + " unknown");
}

unsigned Tlp::header_dw() const { return is_memory(kind) && addr >= k4GiB ? 4 : 3; }

unsigned Tlp::enabled_bytes() const {
  if (is_completion(kind)) {
    // A completion has no byte enables: its valid payload starts at the lower address's byte
    // within the first DW and ends at the last byte of the DWs or of the request, whichever
    // comes first.
    if (length_dw == 0) return 0;
    return std::min<unsigned>(byte_count_of(*this), length_dw * 4u - (lower_addr & 0x3u));
  }
  if (length_dw == 0) return 0;
  // From the first enabled byte of the first DW to the last enabled byte of the last DW (for a
  // single DW both are first_be), the span the specification's Byte Count counts.
  const unsigned first = first_be & 0xFu;
  const unsigned last = length_dw == 1 ? first : last_be & 0xFu;
  const unsigned start = first == 0 ? 4 : static_cast<unsigned>(std::countr_zero(first));
  const unsigned end = (length_dw - 1u) * 4u + static_cast<unsigned>(std::bit_width(last));
  return end > start ? end - start : 0;
}

std::string Tlp::str() const {
  char buf[160];
  switch (kind) {
    case TlpKind::MRd:
    case TlpKind::MWr:
      std::snprintf(buf, sizeof buf, "%s req=%04x tag=%u addr=0x%llx len=%u fbe=%x lbe=%x",
                    kind_name(kind), requester, tag, static_cast<unsigned long long>(addr),
                    length_dw, first_be, last_be);
      break;
    case TlpKind::Cpl:
    case TlpKind::CplD:
      std::snprintf(buf, sizeof buf, "%s cpl=%04x %s req=%04x tag=%u len=%u bc=%u la=0x%02x",
                    kind_name(kind), completer, status_name(status), requester, tag, length_dw,
                    byte_count_of(*this), lower_addr);
      break;
    case TlpKind::CfgRd0:
    case TlpKind::CfgWr0:
      std::snprintf(buf, sizeof buf, "%s req=%04x tag=%u bdf=%02x:%02x.%x reg=0x%03x fbe=%x",
                    kind_name(kind), requester, tag, bus, device, function, reg, first_be);
      break;
    default:
      std::snprintf(buf, sizeof buf, "TLP kind %u", static_cast<unsigned>(kind));
      break;
  }
  return buf;
}

std::vector<uint8_t> encode(const Tlp& t) {
  check(t);
  unsigned type = kTypeMem;
  if (is_config(t.kind)) type = kTypeCfg0;
  if (is_completion(t.kind)) type = kTypeCpl;
  const unsigned fmt = (t.header_dw() == 4 ? kFmt4Dw : kFmt3Dw) | (t.has_data() ? kFmt3DwData : 0);
  const uint32_t length_field = t.length_dw & 0x3FFu;  // 1024 DW wraps to 0

  std::vector<uint8_t> out;
  out.reserve(size_t{t.header_dw()} * 4 + t.data.size());
  put_dw(out, fmt << 29 | type << 24 | length_field);
  if (is_memory(t.kind)) {
    put_dw(out, request_dw1(t));
    if (t.header_dw() == 4) put_dw(out, static_cast<uint32_t>(t.addr >> 32));
    put_dw(out, static_cast<uint32_t>(t.addr));
  } else if (is_config(t.kind)) {
    put_dw(out, request_dw1(t));
    put_dw(out,
           uint32_t{t.bus} << 24 | uint32_t{t.device} << 19 | uint32_t{t.function} << 16 | t.reg);
  } else {
    const uint32_t bc_field = t.byte_count & 0xFFFu;  // 4096 bytes wraps to 0
    put_dw(out, uint32_t{t.completer} << 16 | static_cast<uint32_t>(t.status) << 13 | bc_field);
    put_dw(out, uint32_t{t.requester} << 16 | uint32_t{t.tag} << 8 | t.lower_addr);
  }
  out.insert(out.end(), t.data.begin(), t.data.end());
  return out;
}

Tlp decode(std::span<const uint8_t> bytes) {
  if (bytes.size() < 12) {
    fail_decode(std::to_string(bytes.size()) + " bytes, shorter than a 3-DW header");
  }
  const uint32_t dw0 = get_dw(bytes, 0);
  const unsigned fmt = dw0 >> 29;
  const unsigned type = dw0 >> 24 & 0x1F;
  Tlp t;
  if (type == kTypeMem && fmt <= kFmt4DwData) {
    t.kind = fmt & kFmt3DwData ? TlpKind::MWr : TlpKind::MRd;
  } else if (type == kTypeCfg0 && (fmt == kFmt3Dw || fmt == kFmt3DwData)) {
    t.kind = fmt == kFmt3DwData ? TlpKind::CfgWr0 : TlpKind::CfgRd0;
  } else if (type == kTypeCpl && (fmt == kFmt3Dw || fmt == kFmt3DwData)) {
    t.kind = fmt == kFmt3DwData ? TlpKind::CplD : TlpKind::Cpl;
  } else {
    fail_decode("Fmt " + std::to_string(fmt) + " Type " + hex(type) + " reserved or not modeled");
  }
  // T9, TC, T8, Attr, LN, TH, TD, EP, AT: the model sends none of them.
  if ((dw0 & 0x00FFFC00u) != 0) {
    fail_decode(std::string(kind_name(t.kind)) + " DW0 " + hex(dw0) +
                " sets TC/TD/EP/Attr/AT or another field the model does not send");
  }
  const bool four_dw = fmt == kFmt4Dw || fmt == kFmt4DwData;
  const size_t header_bytes = four_dw ? 16 : 12;
  if (bytes.size() < header_bytes) {
    fail_decode(std::string(kind_name(t.kind)) + " of " + std::to_string(bytes.size()) +
                " bytes, shorter than its 4-DW header");
  }
  const unsigned length_field = dw0 & 0x3FF;
  if (t.kind == TlpKind::Cpl) {
    if (length_field != 0) fail_decode("Cpl with Length " + std::to_string(length_field));
  } else {
    t.length_dw = static_cast<uint16_t>(length_field == 0 ? kMaxLengthDw : length_field);
  }
  const size_t payload = t.has_data() ? size_t{t.length_dw} * 4 : 0;
  if (bytes.size() != header_bytes + payload) {
    fail_decode(std::string(kind_name(t.kind)) + " of " + std::to_string(bytes.size()) +
                " bytes, its header and Length " + std::to_string(t.length_dw) + " DW need " +
                std::to_string(header_bytes + payload));
  }

  const uint32_t dw1 = get_dw(bytes, 1);
  const uint32_t dw2 = get_dw(bytes, 2);
  if (is_memory(t.kind) || is_config(t.kind)) {
    t.requester = static_cast<uint16_t>(dw1 >> 16);
    t.tag = static_cast<uint8_t>(dw1 >> 8);
    t.last_be = static_cast<uint8_t>(dw1 >> 4 & 0xF);
    t.first_be = static_cast<uint8_t>(dw1 & 0xF);
  }
  if (is_memory(t.kind)) {
    const uint32_t low = four_dw ? get_dw(bytes, 3) : dw2;
    if ((low & 0x3) != 0) fail_decode(std::string(kind_name(t.kind)) + " address bits [1:0] set");
    t.addr = (four_dw ? uint64_t{dw2} << 32 : 0) | low;
    if (four_dw && t.addr < k4GiB) {
      fail_decode(std::string(kind_name(t.kind)) + " 4-DW header with address " + hex(t.addr) +
                  " below 4 GiB");
    }
  } else if (is_config(t.kind)) {
    if ((dw2 & 0x0000F003u) != 0) {
      fail_decode(std::string(kind_name(t.kind)) + " DW2 " + hex(dw2) + " sets reserved bits");
    }
    t.bus = static_cast<uint8_t>(dw2 >> 24);
    t.device = static_cast<uint8_t>(dw2 >> 19 & 0x1F);
    t.function = static_cast<uint8_t>(dw2 >> 16 & 0x7);
    t.reg = static_cast<uint16_t>(dw2 & 0xFFC);
  } else {
    if ((dw1 & 0x1000u) != 0) fail_decode(std::string(kind_name(t.kind)) + " with BCM set");
    if ((dw2 & 0x80u) != 0) {
      fail_decode(std::string(kind_name(t.kind)) + " DW2 " + hex(dw2) + " sets reserved bit 7");
    }
    t.completer = static_cast<uint16_t>(dw1 >> 16);
    t.status = static_cast<CplStatus>(dw1 >> 13 & 0x7);
    const unsigned bc_field = dw1 & 0xFFF;
    t.byte_count = static_cast<uint16_t>(bc_field == 0 ? kMaxByteCount : bc_field);
    t.requester = static_cast<uint16_t>(dw2 >> 16);
    t.tag = static_cast<uint8_t>(dw2 >> 8);
    t.lower_addr = static_cast<uint8_t>(dw2 & 0x7F);
  }
  t.data.assign(bytes.begin() + static_cast<std::ptrdiff_t>(header_bytes), bytes.end());
  check(t);
  return t;
}

unsigned wire_bytes(const Tlp& t) {
  return kTlpFramingBytes + t.header_dw() * 4 + static_cast<unsigned>(t.data.size());
}

double link_bytes_per_ns(unsigned gen, unsigned lanes) {
  // Transfers per nanosecond per lane, one bit each.
  double gt_per_ns = 0;
  switch (gen) {
    case 1:
      gt_per_ns = 2.5;
      break;
    case 2:
      gt_per_ns = 5.0;
      break;
    case 3:
      gt_per_ns = 8.0;
      break;
    case 4:
      gt_per_ns = 16.0;
      break;
    case 5:
      gt_per_ns = 32.0;
      break;
    default:
      throw std::invalid_argument("link_bytes_per_ns: PCIe generation " + std::to_string(gen) +
                                  " not one of 1..5");
  }
  if (lanes != 1 && lanes != 2 && lanes != 4 && lanes != 8 && lanes != 16) {
    throw std::invalid_argument("link_bytes_per_ns: link width x" + std::to_string(lanes) +
                                " not one of x1, x2, x4, x8, x16");
  }
  const double coding = gen <= 2 ? 8.0 / 10.0 : 128.0 / 130.0;
  return gt_per_ns * lanes * coding / 8.0;
}

TlpTrace::TlpTrace(const std::string& path) : f_(std::fopen(path.c_str(), "w")) {
  if (f_ == nullptr) {
    throw std::runtime_error("TLP trace '" + path + "': " + std::strerror(errno));
  }
  std::fputs(
      "# TLP trace: <time ps> <down|up> <TLP as hex bytes: header DWs most significant byte "
      "first, then the payload in address order (PCI Express Base Specification layout; "
      "scripts/tlp-decode.py decodes it)>\n",
      f_);
}

TlpTrace::~TlpTrace() { std::fclose(f_); }

void TlpTrace::comment(const std::string& text) { std::fprintf(f_, "# %s\n", text.c_str()); }

void TlpTrace::record(Time t, bool down, const Tlp& tlp) {
  static constexpr char kHex[] = "0123456789abcdef";
  const std::vector<uint8_t> bytes = encode(tlp);
  std::string line = std::to_string(t) + (down ? " down " : " up ");
  line.reserve(line.size() + bytes.size() * 2 + 1);
  for (uint8_t b : bytes) {
    line.push_back(kHex[b >> 4]);
    line.push_back(kHex[b & 0xF]);
  }
  line.push_back('\n');
  std::fputs(line.c_str(), f_);
  ++records_;
}

}  // namespace cni::sim::pcie
