// SPDX-License-Identifier: Apache-2.0
#include "cni/drv/xfer.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace cni::drv {
namespace {

using namespace xfer_reg;
constexpr uint64_t kVersion = 2;
constexpr uint32_t kPage = 4096;
// XCMD's low word: [2:0] op, [3] ORDERED, [4] NOTE
constexpr uint64_t kOpSend = 1, kOpMemcpy = 2, kOrdered = 1u << 3, kNote = 1u << 4;
// XGO answers NO_CMD when a context switch discarded the description between its writes and its
// XGO, and RETRY INIT_BUSY when another context held the node's initiation record as it was
// written: the description is written again, at most this many times.
constexpr unsigned kInterrupted = 1000;

uint64_t lo48(Addr a) { return a & ((uint64_t{1} << 48) - 1); }

}  // namespace

XferOs::Id XferOs::id() {
  const uint64_t v = get(kId);
  if ((v & 0xFF) != kVersion || ((v >> 8) & 0xFF) == 0) {
    throw std::runtime_error("XferOs: no block-transfer engine at this window (ID " +
                             std::to_string(v) + ")");
  }
  Id r;
  r.procs = (v >> 8) & 0xFF;
  r.node = (v >> 16) & 0xFFFF;
  r.send_recs = (v >> 32) & 0xFF;
  r.recv_recs = (v >> 40) & 0xFF;
  r.lines = (v >> 48) & 0xFF;
  r.bufs = (v >> 56) & 0xFF;
  return r;
}

void XferOs::enable(bool on) { put(kCtl, on ? 1 : 0); }

void XferOs::set_occupancy(unsigned send, unsigned recv, unsigned init) {
  if (send > 0xFFFF || recv > 0xFFFF || init > 0xFFFF) {
    throw std::invalid_argument("XferOs::set_occupancy: at most 65535 cycles");
  }
  put(kOcc, uint64_t(send) | uint64_t(recv) << 16 | uint64_t(init) << 32);
}

void XferOs::set_slot(unsigned s, const XferSlot& c) {
  if (s >= id().procs) throw std::out_of_range("XferOs::set_slot: no slot " + std::to_string(s));
  if (c.entries == 0 || (c.entries & (c.entries - 1)) != 0 || c.entries > 0xFFFF) {
    throw std::invalid_argument("XferOs::set_slot: receive-table entries must be a power of two");
  }
  if (c.n_flags == 0 || c.n_flags > 128 || c.vpt_n > 255 || c.vpt_first > 255) {
    throw std::invalid_argument("XferOs::set_slot: 1..128 flags, vpid range within 256");
  }
  if (c.fop_words > 0 && c.fop_first + c.fop_words > fop_words()) {
    throw std::invalid_argument("XferOs::set_slot: the Fetch-and-Op window passes the node's " +
                                std::to_string(fop_words()) + " words");
  }
  put(kPsel, s);
  put(kSendBase, lo48(c.send_base));
  put(kSendSize, lo48(c.send_size));
  put(kRecvBase, lo48(c.recv_base));
  put(kRecvSize, lo48(c.recv_size));
  put(kStat, lo48(c.flags) | uint64_t(c.n_flags) << 56);
  put(kRt, lo48(c.table) | uint64_t(c.entries) << 48);
  put(kVpt, uint64_t(c.vpt_first) | uint64_t(c.vpt_n) << 8 | uint64_t(c.own_vpid) << 16 |
                uint64_t(c.fop_first & 0xFFFF) << 32 | uint64_t(c.fop_words & 0xFFFF) << 48);
  put(kPsel, s | 0x100);
}

void XferOs::disable_slot(unsigned s) { put(kPsel, s | 0x200); }

void XferOs::clear(const XferSlot& c) {
  const unsigned lb = mem_.line_bytes();
  const std::vector<uint8_t> zero(lb, 0);
  for (unsigned i = 0; i <= c.entries; ++i) mem_.store(c.table + Addr{i} * lb, zero.data(), lb);
  for (unsigned i = 0; i < c.n_flags; ++i) mem_.store(c.flags + Addr{i} * lb, zero.data(), lb);
  mem_.barrier();
}

void XferOs::set_vpid(unsigned index, unsigned node, unsigned slot, bool valid) {
  put(kVptEntry, uint64_t(index & 0xFF) | uint64_t(node & 0xFFFF) << 32 |
                     uint64_t(slot & 0xFF) << 48 | uint64_t(valid) << 63);
}

void XferOs::set_current(unsigned ctx, unsigned slot, bool valid) {
  if (ctx >= geom().ctxs) {
    throw std::out_of_range("XferOs::set_current: no host context " + std::to_string(ctx));
  }
  put(kCurPid, uint64_t(ctx) | uint64_t(slot & 0xF) << 8 | uint64_t(valid) << 16);
}

void XferOs::set_fop_occupancy(unsigned req, unsigned home, unsigned done) {
  if (req > 0xFFFF || home > 0xFFFF || done > 0xFFFF) {
    throw std::invalid_argument("XferOs::set_fop_occupancy: at most 65535 cycles");
  }
  put(kOccFop, uint64_t(req) | uint64_t(home) << 16 | uint64_t(done) << 32);
}

void XferOs::set_retransmit(unsigned timeout, unsigned probes) {
  if (timeout > 0xFFFF || probes > 0xFF) {
    throw std::invalid_argument("XferOs::set_retransmit: at most 65535 cycles and 255 probes");
  }
  put(kTimers, uint64_t(timeout) | uint64_t(probes) << 16);
}

XferOs::Geom XferOs::geom() {
  if (geom_) return *geom_;
  const uint64_t v = get(kGeom);
  Geom& g = geom_.emplace();
  g.ctxs = unsigned(v & 0xFF);
  g.ctx_bytes = 1u << ((v >> 8) & 0x1F);
  g.fop_line = unsigned((v >> 16) & 0xFFFF);
  g.fop_words = unsigned(v >> 32);
  return g;
}

unsigned XferOs::fop_words() { return geom().fop_words; }

uint32_t XferOs::counter(XferCounter c) {
  put(kCntSel, unsigned(c));
  return uint32_t(get(kCntVal));
}

const char* to_string(XferReason r) {
  switch (r) {
    case XferReason::None: return "none";
    case XferReason::NoPid: return "NO_PID";
    case XferReason::NoCmd: return "NO_CMD";
    case XferReason::BadVpid: return "BAD_VPID";
    case XferReason::BadLen: return "BAD_LEN";
    case XferReason::BadPiece: return "BAD_PIECE";
    case XferReason::ProtSend: return "PROT_SEND";
    case XferReason::ProtRecv: return "PROT_RECV";
    case XferReason::BadFlag: return "BAD_FLAG";
    case XferReason::BadFop:
      return "BAD_FOP";
    case XferReason::ProcFull: return "PROC_FULL";
    case XferReason::RecsFull: return "RECS_FULL";
    case XferReason::BufsFull: return "BUFS_FULL";
    case XferReason::InitBusy:
      return "INIT_BUSY";
  }
  return "?";
}

const char* to_string(XferStatus s) {
  switch (s) {
    case XferStatus::Pending: return "pending";
    case XferStatus::Done: return "DONE";
    case XferStatus::FailProt: return "FAIL_PROT";
    case XferStatus::FailNobuf: return "FAIL_NOBUF";
    case XferStatus::FailTimeout:
      return "FAIL_TIMEOUT";
    case XferStatus::FopDone:
      return "FOP_DONE";
    case XferStatus::FailBusy: return "FAIL_BUSY";
    case XferStatus::FailErr: return "FAIL_ERR";
  }
  return "?";
}

Xfer::Xfer(MemoryPort& mem, Addr window, const XferSlot& slot, Translate translate)
    : mem_(mem), w_(window), s_(slot), tr_(std::move(translate)), lb_(mem.line_bytes()) {
  if (s_.n_flags == 0 || s_.entries == 0) {
    throw std::invalid_argument("Xfer: the slot needs flags and a receive table");
  }
}

unsigned Xfer::free_flag(const char* who) {
  for (unsigned tried = 0; flag_busy_[next_flag_];) {
    next_flag_ = (next_flag_ + 1) % s_.n_flags;
    if (++tried == s_.n_flags) {
      throw std::runtime_error(std::string(who) + ": every status flag is in use (call senddone)");
    }
  }
  return next_flag_;
}

template <class Describe>
uint64_t Xfer::close(Describe describe) {
  uint64_t v = 0;
  for (unsigned attempt = 0;; ++attempt) {
    describe();
    v = mem_.uncached_load64(w_ + kXgo);
    const auto why = XferReason((v >> 4) & 0xF);
    if ((why != XferReason::NoCmd && why != XferReason::InitBusy) || attempt == kInterrupted) {
      return v;
    }
    if (why == XferReason::InitBusy) mem_.pause_ns(50);  // the holder's XGO is a few accesses away
  }
}

template <class Describe>
Xfer::Send Xfer::go(unsigned flag, Describe describe) {
  Send r;
  r.flag = flag;
  const uint64_t v = close(describe);
  r.verdict = XferVerdict(v & 3);
  r.reason = XferReason((v >> 4) & 0xF);
  r.count = uint16_t(v >> 32);
  if (r.verdict == XferVerdict::Success) {
    flag_busy_[r.flag] = true;
    next_flag_ = (next_flag_ + 1) % s_.n_flags;
  }
  return r;
}

Xfer::Send Xfer::send(unsigned dst_vpid, uint8_t type, Addr src, uint32_t len, bool ordered) {
  return transfer(kOpSend | (ordered ? kOrdered : 0) | uint64_t(type) << 8, dst_vpid, std::nullopt,
                  src, len, "Xfer::send");
}

Xfer::Send Xfer::fastmemcpy(unsigned dst_vpid, Addr dst, Addr src, uint32_t len, bool note,
                            bool ordered) {
  if (dst % 8 != 0) throw std::invalid_argument("Xfer::fastmemcpy: dst must be 8-byte aligned");
  return transfer(kOpMemcpy | (ordered ? kOrdered : 0) | (note ? kNote : 0), dst_vpid, dst, src,
                  len, "Xfer::fastmemcpy");
}

Xfer::Send Xfer::transfer(uint64_t cmd, unsigned dst_vpid, std::optional<Addr> dst, Addr src,
                          uint32_t len, const char* who) {
  if (len == 0 || len > (1u << 21))
    throw std::invalid_argument(std::string(who) + ": 1 B .. 2 MiB");
  // the source's pages in order: the first to its page's end, then whole pages, translated
  std::vector<uint64_t> pieces;
  for (Addr a = src, end = src + len; a < end;) {
    const Addr next = std::min<Addr>(end, (a / kPage + 1) * kPage);
    const Addr at = tr_ ? tr_(a) : a;
    if (at % kPage != a % kPage) {
      throw std::invalid_argument(std::string(who) + ": the translation moved an offset in a page");
    }
    pieces.push_back(lo48(at) | uint64_t(next - a) << 48);
    a = next;
  }
  const unsigned flag = free_flag(who);
  mem_.barrier();  // the source's stores performed before the engine may read it
  return go(flag, [&] {
    mem_.uncached_store64(w_ + kXcmd, cmd | uint64_t(dst_vpid & 0xFFFF) << 16 |
                                          uint64_t(len) << 32 | uint64_t(flag) << 56);
    if (dst) mem_.uncached_store64(w_ + kXdst, lo48(*dst));
    for (const uint64_t p : pieces) mem_.uncached_store64(w_ + kXpage, p);
  });
}

Xfer::Send Xfer::fop_start(unsigned dst_vpid, unsigned word, XferFop op, uint64_t arg,
                           uint64_t cmp) {
  if (word > 0xFFFF) throw std::invalid_argument("Xfer::fop_start: word index above 65535");
  const unsigned flag = free_flag("Xfer::fop_start");
  return go(flag, [&] {
    mem_.uncached_store64(w_ + kFopTgt, uint64_t(word) | uint64_t(op) << 16 |
                                            uint64_t(dst_vpid & 0xFFFF) << 32 |
                                            uint64_t(flag) << 48);
    mem_.uncached_store64(w_ + kFopArg, arg);
    if (op == XferFop::Cas) mem_.uncached_store64(w_ + kFopCmp, cmp);
  });
}

XferStatus Xfer::fop_done(const Send& s, uint64_t* old, bool block) {
  const XferStatus st = senddone(s, block);
  if (st != XferStatus::Pending && old) {
    *old = mem_.load64(s_.flags + Addr{s.flag} * lb_ + 8);  // the same line as the report
  }
  return st;
}

uint64_t Xfer::fetch_op(unsigned dst_vpid, unsigned word, XferFop op, uint64_t arg, uint64_t cmp) {
  Send s;
  while ((s = fop_start(dst_vpid, word, op, arg, cmp)).verdict == XferVerdict::Retry) {
    mem_.pause_ns(20);
  }
  if (s.verdict != XferVerdict::Success) {
    throw std::runtime_error(std::string("Xfer::fetch_op: refused ") + to_string(s.reason));
  }
  uint64_t old = 0;
  const XferStatus st = fop_done(s, &old);
  if (st != XferStatus::FopDone) {
    throw std::runtime_error(std::string("Xfer::fetch_op: ") + to_string(st));
  }
  return old;
}

XferStatus Xfer::senddone(const Send& s, bool block) {
  if (s.verdict != XferVerdict::Success) {
    throw std::invalid_argument("Xfer::senddone: the send was not committed");
  }
  const Addr f = s_.flags + Addr{s.flag} * lb_;
  for (;;) {
    const uint64_t w = mem_.load_acquire64(f);
    if (uint16_t(w) == s.count && ((w >> 16) & 0xFF) != 0) {
      flag_busy_[s.flag] = false;
      return XferStatus((w >> 16) & 0xFF);
    }
    if (!block) return XferStatus::Pending;
    mem_.pause_ns(20);
  }
}

XferStatus Xfer::send_delivered(unsigned dst_vpid, uint8_t type, Addr src, uint32_t len,
                                bool ordered, unsigned tries, uint64_t backoff_ns,
                                unsigned* sends) {
  if (tries == 0) throw std::invalid_argument("Xfer::send_delivered: at least one try");
  XferStatus st = XferStatus::Pending;
  uint64_t pause = backoff_ns;
  unsigned made = 0;
  while (made < tries) {
    const Send s = send(dst_vpid, type, src, len, ordered);
    if (s.verdict == XferVerdict::Fail) {
      throw std::invalid_argument(std::string("Xfer::send_delivered: ") + to_string(s.reason));
    }
    if (s.verdict == XferVerdict::Success) {
      ++made;
      st = senddone(s);
      if (st != XferStatus::FailNobuf && st != XferStatus::FailBusy) break;
    }
    if (made < tries) {
      mem_.pause_ns(pause);
      pause = std::min(pause * 2, backoff_ns * 64);
    }
  }
  if (sends) *sends = made;
  return st;
}

XferVerdict Xfer::bufalloc(Addr buf, uint32_t bytes, uint8_t type, XferReason* why) {
  mem_.barrier();
  const uint64_t v = close([&] {
    mem_.uncached_store64(w_ + kBufAddr, lo48(buf));
    mem_.uncached_store64(w_ + kBufPost, uint64_t(bytes & 0xFFFFFF) | uint64_t(type) << 24);
  });
  if (why) *why = XferReason((v >> 4) & 0xF);
  return XferVerdict(v & 3);
}

std::optional<Xfer::Received> Xfer::receive(bool block) {
  const Addr e = s_.table + Addr{1 + (head_ & (s_.entries - 1))} * lb_;
  const uint64_t sense = (head_ & s_.entries) == 0 ? 1 : 0;
  for (;;) {
    const uint64_t w0 = mem_.load_acquire64(e);
    if ((w0 & 1) == sense) {
      uint64_t w[3];
      mem_.load(e, w, sizeof w);
      Received r;
      r.failed = (w[0] & 2) != 0;
      r.type = uint8_t(w[0] >> 8);
      r.sender_vpid = uint16_t(w[0] >> 16);
      r.length = uint32_t(w[0] >> 32);
      r.buffer = w[1];
      r.src_node = uint16_t(w[2]);
      r.count = uint16_t(w[2] >> 16);
      ++head_;
      mem_.store_release64(s_.table, head_);  // the head count: the entry's line is free again
      return r;
    }
    if (!block) return std::nullopt;
    mem_.pause_ns(20);
  }
}

unsigned Xfer::outstanding() { return unsigned(mem_.uncached_load64(w_ + kStatus) & 0xFF); }
unsigned Xfer::posted() { return unsigned((mem_.uncached_load64(w_ + kStatus) >> 8) & 0xFF); }

}  // namespace cni::drv
