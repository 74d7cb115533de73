// SPDX-License-Identifier: Apache-2.0
#include "cni/drv/tagstore.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

namespace cni::drv {
namespace {

// The engine's window (rtl/ts/cni_ts.rdl); 8-byte accesses.
constexpr unsigned kStatus = 0x00;   // STATUS | RESULT << 32
constexpr unsigned kCmd = 0x08;      // op word | block << 32
constexpr unsigned kAck = 0x10;      // seq (the high word's write acknowledges)
constexpr unsigned kMode = 0x18;
constexpr unsigned kEvt0 = 0x20, kEvt1 = 0x28;
constexpr unsigned kRefused = 0x40;  // REFUSED | DONE << 32
constexpr unsigned kGeometry = 0x50;
constexpr unsigned kCmdDepth = 0x58;  // CMD_DEPTH | BLOCK_LINE << 32
constexpr unsigned kNiTx = 0x60;      // NI_TX | NI_RX << 32
constexpr unsigned kNiBad = 0x68;
constexpr unsigned kBuf = 0x80;
enum : unsigned {
  kRead = 1,
  kWrite = 2,
  kSetTag = 3,
  kResume = 4,
  kNack = 5,
  kGetTag = 6,
  kFill = 7,
  kSend = 8
};
constexpr uint32_t kRx = 1u << 9;  // the command's data: the dispatched message's

}  // namespace

TagStore::TagStore(MemoryPort& mem, Addr region) : mem_(mem), region_(region), lb_(mem.line_bytes()) {
  const uint64_t g = reg(kGeometry);
  blocks_ = uint32_t(g & 0xFFFFFF);
  first_ = uint32_t(g >> 24) & 0xFF;
  if (blocks_ == 0 || first_ != 256 / lb_ + 2) {
    throw std::runtime_error("TagStore: no tag store engine at the region (GEOMETRY reads " +
                             std::to_string(g) + ")");
  }
  mode_ = DispatchMode(reg(kMode) & 3);
  const uint64_t d = reg(kCmdDepth);
  depth_ = unsigned(d & 0xFFFFFFFF);
  block0_ = uint32_t(d >> 32);
  if (block0_ < first_) {
    throw std::runtime_error("TagStore: BLOCK_LINE reads " + std::to_string(block0_) +
                             ", inside the register page");
  }
  if (depth_ == 0) throw std::runtime_error("TagStore: the engine's command queue has no room");
}

Addr TagStore::block_addr(uint32_t b) const {
  check_block(b);
  return region_ + uint64_t(block0_ + b) * lb_;
}

void TagStore::check_block(uint32_t b) const {
  if (b >= blocks_) {
    throw std::out_of_range("TagStore: block " + std::to_string(b) + " of " +
                            std::to_string(blocks_));
  }
}

uint64_t TagStore::reg(unsigned off) { return mem_.uncached_load64(region_ + off); }
void TagStore::set_reg(unsigned off, uint64_t v) { mem_.uncached_store64(region_ + off, v); }

void TagStore::set_mode(DispatchMode m) {
  set_reg(kMode, uint64_t(m));
  mode_ = m;
}

Fault TagStore::decode(uint64_t w0, uint64_t w1) {
  Fault f;
  f.seq = uint32_t(w0);
  f.message = (w0 >> 32) & 1;
  f.write = (w0 >> 33) & 1;
  f.tag = Tag((w0 >> 34) & 3);
  f.handler = unsigned(w0 >> 36) & 15;
  f.requester = unsigned(w0 >> 40) & 0xFF;
  f.opcode = unsigned(w0 >> 48) & 0x1F;
  f.block = uint32_t(w1);
  f.offset = uint32_t(w1 >> 32);
  f.ni = (w0 >> 53) & 1;
  if (f.ni) {
    f.src_node = unsigned(w1 >> 32) & 0xFFFF;
    f.msg_handler = uint8_t(w0 >> 56);
    f.offset = 0;
  }
  return f;
}

std::optional<Fault> TagStore::poll() {
  uint64_t w0 = 0, w1 = 0;
  if (mode_ == DispatchMode::StatusBit) {
    if (!(reg(kStatus) & 2)) return std::nullopt;
    w0 = reg(kEvt0);
    w1 = reg(kEvt1);
  } else {
    // The line's first word with a load-acquire: the second word (same line) is read after it,
    // so it is the same event's.
    const Addr d = dispatch_line();
    w0 = mem_.load_acquire64(d);
    if (uint32_t(w0) == last_seq_) return std::nullopt;
    w1 = mem_.load64(d + 8);
  }
  Fault f = decode(w0, w1);
  if (f.seq == last_seq_) return std::nullopt;
  last_seq_ = f.seq;
  return f;
}

Fault TagStore::wait(uint64_t pause_ns) {
  for (;;) {
    if (auto f = poll()) return *f;
    if (pause_ns) mem_.pause_ns(pause_ns);
  }
}

void TagStore::ack(const Fault& f) { set_reg(kAck, f.seq); }

void TagStore::command(unsigned op, uint32_t b, unsigned tag, bool flag, bool ack, bool from_line,
                       uint32_t extra) {
  check_block(b);
  const uint64_t w = op | (tag << 4) | (unsigned(flag) << 6) | (unsigned(ack) << 7) |
                     (unsigned(from_line) << 8) | extra;
  // a full queue refuses a command (FULL): with depth_ issued since the queue was last seen
  // empty, wait for it first
  if (queued_ >= depth_) sync();
  set_reg(kCmd, w | uint64_t(b) << 32);
  queued_++;
}

// The engine has one line buffer and one buffer line: a command still queued that reads them must
// have run before they are written again. (The caller marks its command as such a user once it
// is queued: command() may sync first, which clears the mark.)
bool TagStore::put_buffer(std::span<const uint8_t> line) {
  if (line.size() != lb_) throw std::invalid_argument("TagStore: a block is one line");
  if (buf_queued_) sync();
  if (path_ == DataPath::BufferLine) {
    mem_.store(buffer_line(), line.data(), lb_);
    mem_.barrier();  // the stores performed before the command that recalls the line
    return true;
  }
  for (unsigned i = 0; i < lb_; i += 8) {
    uint64_t v;
    std::memcpy(&v, line.data() + i, 8);
    set_reg(kBuf + i, v);
  }
  return false;
}

void TagStore::fill(uint32_t b, std::span<const uint8_t> line, Tag t, bool ack) {
  const bool from_line = put_buffer(line);
  command(kFill, b, unsigned(t), false, ack, from_line);
  buf_queued_ = true;
}

void TagStore::set_tag(uint32_t b, Tag t, bool resume, bool ack) {
  command(kSetTag, b, unsigned(t), resume, ack);
}

void TagStore::resume(uint32_t b, bool ack) { command(kResume, b, 0, false, ack); }

void TagStore::nack(uint32_t b, bool error, bool ack) { command(kNack, b, 0, error, ack); }

void TagStore::write(uint32_t b, std::span<const uint8_t> line) {
  const bool from_line = put_buffer(line);
  command(kWrite, b, 0, false, false, from_line);
  buf_queued_ = true;
}

void TagStore::read(uint32_t b, std::span<uint8_t> line, bool invalidate) {
  if (line.size() != lb_) throw std::invalid_argument("TagStore: a block is one line");
  if (read_path_ == DataPath::BufferLine) {
    // the engine writes the block into the buffer line (taken back from this core first): one
    // cached load fetches it
    if (buf_queued_) sync();
    command(kRead, b, 0, invalidate, false, true);
    sync();
    mem_.barrier_load();  // the line's load after STATUS said the READ is done (ARMv8 would
                          // otherwise let it be satisfied first, from the old copy)
    mem_.load(buffer_line(), line.data(), lb_);
    return;
  }
  command(kRead, b, 0, invalidate, false);
  sync();
  for (unsigned i = 0; i < lb_; i += 8) {
    const uint64_t v = reg(kBuf + i);
    std::memcpy(line.data() + i, &v, 8);
  }
}

Tag TagStore::get_tag(uint32_t b, bool* pending) {
  command(kGetTag, b, 0, false, false);
  sync();
  const uint64_t r = reg(kStatus) >> 32;
  if (pending) *pending = r & 4;
  return Tag(r & 3);
}

void TagStore::sync() {
  while (reg(kStatus) & 1) {
  }
  buf_queued_ = false;
  queued_ = 0;
}

void TagStore::send(unsigned dst, uint8_t handler, uint32_t b, Payload p, bool ack) {
  if (dst > 0xFF) throw std::out_of_range("TagStore: node " + std::to_string(dst) + " (0 to 255)");
  uint32_t extra = dst << 16 | uint32_t(handler) << 24;
  if (p == Payload::Rx) extra |= kRx;
  command(kSend, b, 0, p == Payload::Buffer, ack, false, extra);
  if (p != Payload::None) buf_queued_ = true;  // it uses the line buffer
}

void TagStore::send(unsigned dst, uint8_t handler, uint32_t b, std::span<const uint8_t> line) {
  if (dst > 0xFF) throw std::out_of_range("TagStore: node " + std::to_string(dst) + " (0 to 255)");
  const bool from_line = put_buffer(line);
  command(kSend, b, 0, true, false, from_line, dst << 16 | uint32_t(handler) << 24);
  buf_queued_ = true;
}

// The engine's own uses of the line buffer (READ, the rx flag, SEND) run in the order issued;
// only the core's writes of it (put_buffer) wait for the queued commands that use it.
void TagStore::send_block(unsigned dst, uint8_t handler, uint32_t b, bool invalidate) {
  command(kRead, b, 0, invalidate, false);
  send(dst, handler, b, Payload::Buffer);
}

void TagStore::fill_rx(uint32_t b, Tag t, bool ack) {
  command(kFill, b, unsigned(t), false, ack, false, kRx);
  buf_queued_ = true;
}

void TagStore::write_rx(uint32_t b, bool ack) {
  command(kWrite, b, 0, false, ack, false, kRx);
  buf_queued_ = true;
}

TagStore::NiCounters TagStore::ni_counters() {
  const uint64_t a = reg(kNiTx);
  return {uint32_t(a), uint32_t(a >> 32), uint32_t(reg(kNiBad))};
}

uint32_t TagStore::refused() { return uint32_t(reg(kRefused)); }

unsigned TagStore::last_cause() { return unsigned(reg(kStatus) >> 4) & 15; }

}  // namespace cni::drv
