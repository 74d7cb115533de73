// SPDX-License-Identifier: Apache-2.0
// CNI messaging over the CNI cache/queue engine (docs/cni.md section 7).
#include "cni/drv/cni.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace cni::drv {

namespace {
// Register window offsets (rtl/cni/cni_cq_pkg.sv).
constexpr unsigned kId = 0x00, kCtrl = 0x08, kTimers = 0x10, kStatus = 0x18, kTxHdr = 0x20,
                   kTxData = 0x28, kRxHdr = 0x30, kRxData = 0x38, kRxClear = 0x40,
                   kTxReady = 0x48, kRqBase = 0x50, kTxSeq = 0x58, kCnt = 0x80;
constexpr uint64_t kStatusErr = uint64_t(1) << 49;      // STATUS high word bit 17
constexpr uint64_t kStatusRxReady = uint64_t(1) << 51;  // STATUS high word bit 19 (CNI4)
constexpr uint64_t kTxSeqOpen = uint64_t(1) << 32;      // TX_SEQ high word bit 0 (CNI4)
constexpr unsigned kHdrBytes = 12, kMsgBytes = 256;

uint32_t get16(const uint8_t* p) { return p[0] | (uint32_t(p[1]) << 8); }
void put16(uint8_t* p, uint32_t v) {
  p[0] = uint8_t(v);
  p[1] = uint8_t(v >> 8);
}
// A pointer word: [30:0] slot index, [31] pass parity; kept here as a count modulo 2 * slots.
uint32_t ptr_word(uint32_t p, unsigned slots) { return (p % slots) | ((p / slots) & 1u) << 31; }
uint32_t ptr_of(uint64_t w, unsigned slots) {
  return uint32_t(w & 0x7fffffffu) % slots + ((w >> 31) & 1u ? slots : 0);
}
bool sense_of(uint32_t p, unsigned slots) { return ((p / slots) & 1u) == 0; }
}  // namespace

const char* cni_config_name(CniConfig c) {
  switch (c) {
    case CniConfig::Ni2w: return "NI2w";
    case CniConfig::Cni4: return "CNI4";
    case CniConfig::Cni16Q: return "CNI16Q";
    case CniConfig::Cni512Q: return "CNI512Q";
    case CniConfig::Cni16Qm: return "CNI16Qm";
  }
  return "?";
}

CniEndpoint::CniEndpoint(MemoryPort& mem, const CniOptions& opt) : mem_(mem), opt_(opt) {
  lb_ = mem.line_bytes();
  b_ = kMsgBytes / lb_;
  r_ = 256 / lb_;
  const uint64_t id = mem_.uncached_load64(reg(kId));
  cfg_ = CniConfig(id & 0xf);
  if (cfg_ > CniConfig::Cni16Qm)
    throw std::runtime_error("CniEndpoint: the device reports configuration " +
                             std::to_string(unsigned(cfg_)) + ", not one of the five");
  node_ = uint16_t(id >> 16);
  ns_ = unsigned((id >> 32) & 0xffff);
  nr_ = unsigned(id >> 48);
  nodes_ = opt.nodes ? uint16_t(opt.nodes) : uint16_t((mem_.uncached_load64(reg(kCtrl)) >> 8) & 0xff);
  if (cfg_ == CniConfig::Cni16Qm) {
    if (opt.rq_host_base == 0 || opt.rq_host_base % lb_ != 0)
      throw std::invalid_argument("CniEndpoint: a CNI16Qm device needs CniOptions::rq_host_base, "
                                  "a line-aligned host address of " +
                                  std::to_string((1 + Addr(nr_) * b_) * lb_) + " bytes");
    // a fresh host queue: zeroed (first pass, no slot valid), then handed over while closed
    mem_.uncached_store64(reg(kCtrl), uint64_t(nodes_) << 8);
    const std::vector<uint8_t> zero(lb_, 0);
    for (unsigned l = 0; l < 1 + nr_ * b_; l++) mem_.store(opt.rq_host_base + Addr(l) * lb_, zero.data(), lb_);
    mem_.barrier();
    mem_.uncached_store64(reg(kRqBase), opt.rq_host_base);
  }
  if (cfg_ == CniConfig::Cni4) {
    if (opt.vp_backoff) {
      const uint64_t t = mem_.uncached_load64(reg(kTimers));
      mem_.uncached_store64(reg(kTimers), (t & ~uint64_t(0xffff)) | *opt.vp_backoff);
    }
    tx_seq_ = uint32_t(mem_.uncached_load64(reg(kTxSeq)));   // the valid word the engine expects
  } else if (cfg_ != CniConfig::Ni2w) {
    // take up where the device is: SQ_HEAD is where the engine will look next
    sq_tail_ = sq_shadow_ = ptr_of(mem_.load64(line(r_ + 1)), ns_);
    rq_head_ = ptr_of(mem_.load64(rq_head_line()), nr_);
    mem_.barrier();
  }
  if (opt.retx_timeout) {
    const uint64_t t = mem_.uncached_load64(reg(kTimers));
    mem_.uncached_store64(reg(kTimers), uint32_t(t) | uint64_t(*opt.retx_timeout) << 32);
  }
  mem_.uncached_store64(reg(kCtrl), 1u | (opt.retransmit ? 2u : 0u) | uint64_t(nodes_) << 8);
  if (opt.retransmit && !(mem_.uncached_load64(reg(kCtrl)) & 2)) {
    mem_.uncached_store64(reg(kCtrl), uint64_t(nodes_) << 8);
    throw std::runtime_error("CniEndpoint: retransmission asked for, but the device's CNI engine "
                             "is built without it (Retransmit = 0)");
  }
  if (cfg_ == CniConfig::Ni2w || cfg_ == CniConfig::Cni4)
    tx_words_ = unsigned(mem_.uncached_load64(reg(kStatus)) & 0xffff);
  open_ = true;
}

void CniEndpoint::check(uint16_t dst, size_t n) const {
  if (!open_) throw std::logic_error("CniEndpoint: send after close");
  if (n > opt_.max_message_bytes)
    throw std::invalid_argument("CniEndpoint: a message of " + std::to_string(n) +
                                " bytes is over the limit of " +
                                std::to_string(opt_.max_message_bytes));
  if (dst >= nodes_)
    throw std::invalid_argument("CniEndpoint: destination node " + std::to_string(dst) +
                                " is not one of the " + std::to_string(nodes_) + " nodes");
}

std::vector<CniEndpoint::Fragment> CniEndpoint::split(uint16_t dst, uint16_t handler,
                                                      std::span<const uint8_t> d) const {
  std::vector<Fragment> out;
  size_t off = 0;
  do {
    Fragment f;
    f.peer = dst;
    f.handler = handler;
    const size_t n = std::min(kFragmentBytes, d.size() - off);
    f.data.assign(d.begin() + off, d.begin() + off + n);
    f.flags = (off == 0 ? kFirst : 0) | (off + n == d.size() ? kLast : 0);
    off += n;
    out.push_back(std::move(f));
  } while (off < d.size());
  return out;
}

// ---- one fragment in and out, per configuration -------------------------------------------------

bool CniEndpoint::push(const Fragment& f) {
  const bool ok = cfg_ == CniConfig::Ni2w   ? push_ni2w(f)
                  : cfg_ == CniConfig::Cni4 ? push_cdr(f)
                                            : push_cq(f);
  if (ok) stats_.fragments_sent++;
  else stats_.no_room++;
  return ok;
}

// A fragment as its lines sit in a slot or a CDR set (docs/cni.md section 3, "Message layout"):
// ctl 0 and the valid word 0, the header fields, the payload; the lines it uses, whole.
std::vector<uint8_t> CniEndpoint::image(const Fragment& f) const {
  const unsigned n = unsigned((kHdrBytes + f.data.size() + lb_ - 1) / lb_);
  std::vector<uint8_t> img(size_t(n) * lb_, 0);
  img[1] = f.flags;
  put16(&img[2], uint32_t(f.data.size()));
  put16(&img[4], f.peer);
  put16(&img[6], f.handler);
  if (!f.data.empty()) std::memcpy(&img[kHdrBytes], f.data.data(), f.data.size());
  return img;
}

// The fragment whose first line, read from l0, is img: its other lines are read from behind l0.
void CniEndpoint::read_image(Addr l0, std::vector<uint8_t>& img, Fragment& f) {
  const size_t len = std::min<size_t>(get16(&img[2]), kFragmentBytes);
  const unsigned n = unsigned((kHdrBytes + len + lb_ - 1) / lb_);
  img.resize(size_t(n) * lb_);
  if (n > 1) mem_.load(l0 + lb_, img.data() + lb_, size_t(n - 1) * lb_);
  f.flags = img[1];
  f.peer = uint16_t(get16(&img[4]));
  f.handler = uint16_t(get16(&img[6]));
  f.data.assign(img.begin() + kHdrBytes, img.begin() + kHdrBytes + len);
}

bool CniEndpoint::push_cq(const Fragment& f) {
  const uint32_t mod = 2 * ns_;
  if ((sq_tail_ + mod - sq_shadow_) % mod >= ns_) {
    // the shadow says full: read the engine's SQ_HEAD (000's lazy pointer)
    stats_.shadow_refreshes++;
    sq_shadow_ = ptr_of(mem_.load64(line(r_ + 1)), ns_);
    if ((sq_tail_ + mod - sq_shadow_) % mod >= ns_) return false;
  }
  const unsigned slot = sq_tail_ % ns_;
  std::vector<uint8_t> img = image(f);
  img[0] = sense_of(sq_tail_, ns_) ? 1 : 0;
  mem_.store(line(r_ + 3 + slot * b_), img.data(), img.size());
  sq_tail_ = (sq_tail_ + 1) % mod;
  mem_.store64(line(r_), ptr_word(sq_tail_, ns_));   // SQ_TAIL (private to this CPU)
  mem_.barrier();                                    // the slot before the message-ready store
  mem_.uncached_store64(reg(kTxReady), 1);
  return true;
}

bool CniEndpoint::push_ni2w(const Fragment& f) {
  const size_t words = (f.data.size() + 7) / 8;
  if ((mem_.uncached_load64(reg(kStatus)) & 0xffff) < 1 + words) return false;
  mem_.uncached_store64(reg(kTxHdr), uint64_t(f.data.size()) | uint64_t(f.peer) << 16 |
                                         uint64_t(f.handler) << 32 |
                                         uint64_t(f.flags & 3) << 48);
  for (size_t w = 0; w < words; w++) {
    uint64_t v = 0;
    std::memcpy(&v, f.data.data() + 8 * w, std::min<size_t>(8, f.data.size() - 8 * w));
    mem_.uncached_store64(reg(kTxData), v);
  }
  return true;
}

// The TX CDRs take a message when the engine has taken the last one written (its expected valid
// word is ours) and its TX queue has room (TX_SEQ's high word). The payload lines first, then T0
// with its valid word 0; after a barrier the valid word, which the engine's virtual polling finds.
bool CniEndpoint::push_cdr(const Fragment& f) {
  const uint64_t s = mem_.uncached_load64(reg(kTxSeq));
  if (uint32_t(s) != tx_seq_ || !(s & kTxSeqOpen)) return false;
  const std::vector<uint8_t> img = image(f);
  const size_t n = img.size() / lb_;
  if (n > 1) mem_.store(line(r_ + 1), img.data() + lb_, size_t(n - 1) * lb_);
  mem_.store(line(r_), img.data(), lb_);
  mem_.barrier();   // every store of the message before its valid word
  const uint32_t seq = tx_seq_;
  mem_.store(line(r_) + 8, reinterpret_cast<const uint8_t*>(&seq), 4);
  tx_seq_ = tx_seq_ + 1 == 0 ? 1 : tx_seq_ + 1;   // 0 is never valid
  return true;
}

// STATUS.rx_ready: the RX CDRs hold a message. Copied out, then the explicit clear (an uncached
// store, performed when it returns: the engine has seen it) gives them back.
bool CniEndpoint::pull_cdr(Fragment& f) {
  if (!(mem_.uncached_load64(reg(kStatus)) & kStatusRxReady)) return false;
  mem_.barrier_load();   // the status before the CDRs' lines (ARMv8 would read them early)
  const Addr r0 = line(r_ + b_);
  std::vector<uint8_t> img(lb_);
  mem_.load(r0, img.data(), lb_);
  read_image(r0, img, f);
  mem_.barrier();   // the copy before the CDRs are given back
  mem_.uncached_store64(reg(kRxClear), 0);
  return true;
}

bool CniEndpoint::pull(Fragment& f) {
  const bool ok = cfg_ == CniConfig::Ni2w   ? pull_ni2w(f)
                  : cfg_ == CniConfig::Cni4 ? pull_cdr(f)
                                            : pull_cq(f);
  if (ok) stats_.fragments_received++;
  return ok;
}

Addr CniEndpoint::rq_head_line() const {
  return cfg_ == CniConfig::Cni16Qm ? opt_.rq_host_base : line(r_ + 2);
}

Addr CniEndpoint::rq_slot_line(unsigned s, unsigned j) const {
  return cfg_ == CniConfig::Cni16Qm ? opt_.rq_host_base + Addr(1 + s * b_ + j) * lb_
                                    : line(r_ + 3 + ns_ * b_ + s * b_ + j);
}

bool CniEndpoint::pull_cq(Fragment& f) {
  const unsigned slot = rq_head_ % nr_;
  const Addr l0 = rq_slot_line(slot, 0);
  // The valid word, hitting in the cache while the slot is empty. A load-acquire: on a weakly
  // ordered CPU (ARMv8) the fragment's loads could otherwise return the slot's old bytes.
  const uint64_t w0 = mem_.load_acquire64(l0);
  if (bool(w0 & 1) != sense_of(rq_head_, nr_)) return false;
  std::vector<uint8_t> img(lb_);
  std::memcpy(img.data(), &w0, sizeof w0);
  mem_.load(l0 + sizeof w0, img.data() + sizeof w0, lb_ - sizeof w0);
  read_image(l0, img, f);
  mem_.barrier();   // the copy before the slot is given back (000 section 2.2, footnote 3)
  rq_head_ = (rq_head_ + 1) % (2 * nr_);
  mem_.store64(rq_head_line(), ptr_word(rq_head_, nr_));
  return true;
}

bool CniEndpoint::pull_ni2w(Fragment& f) {
  if ((mem_.uncached_load64(reg(kStatus)) >> 16 & 0xffff) == 0) return false;
  const uint64_t h = mem_.uncached_load64(reg(kRxHdr));
  if (!(h >> 63)) return false;
  const size_t len = h & 0xffff;
  f.peer = uint16_t(h >> 16);
  f.handler = uint16_t(h >> 32);
  f.flags = uint8_t(h >> 48 & 3);
  f.data.resize(len);
  for (size_t w = 0; w < (len + 7) / 8; w++) {
    const uint64_t v = mem_.uncached_load64(reg(kRxData));
    std::memcpy(f.data.data() + 8 * w, &v, std::min<size_t>(8, len - 8 * w));
  }
  return true;
}

// ---- messages -----------------------------------------------------------------------------------

void CniEndpoint::take(Fragment&& f) {
  auto it = partial_.find(f.peer);
  if (f.flags & kFirst) {
    if (it != partial_.end()) {
      stats_.reassembly_errors++;
      partial_.erase(it);
    }
    it = partial_.emplace(f.peer, Message{f.peer, f.handler, {}}).first;
  } else if (it == partial_.end()) {
    stats_.reassembly_errors++;
    return;
  }
  it->second.data.insert(it->second.data.end(), f.data.begin(), f.data.end());
  if (f.flags & kLast) {
    complete_.push_back(std::move(it->second));
    partial_.erase(it);
  }
}

unsigned CniEndpoint::drain() {
  unsigned k = 0;
  Fragment f;
  while (pull(f)) {
    take(std::move(f));
    k++;
  }
  return k;
}

bool CniEndpoint::flush_backlog() {
  while (!backlog_.empty()) {
    if (!push(backlog_.front())) return false;
    backlog_used_ -= backlog_.front().data.size();
    backlog_.pop_front();
  }
  return true;
}

void CniEndpoint::run(Message& m) {
  auto it = handlers_.find(m.handler);
  stats_.messages_received++;
  if (it == handlers_.end() || !it->second)
    throw std::runtime_error("CniEndpoint: a message from node " + std::to_string(m.src) +
                             " for handler " + std::to_string(m.handler) +
                             ", which has no handler");
  it->second(m.src, m.data);
}

void CniEndpoint::send(uint16_t dst, uint16_t handler, std::span<const uint8_t> data) {
  check(dst, data.size());
  for (const Fragment& f : split(dst, handler, data)) backlog_.push_back(f);
  while (!backlog_.empty()) {
    if (push(backlog_.front())) {
      backlog_.pop_front();
      continue;
    }
    // no room: keep the receive side moving, into user memory (000 section 4.1)
    stats_.drained += drain();
    mem_.pause_ns(20);
  }
  backlog_used_ = 0;
  stats_.messages_sent++;
}

SendResult CniEndpoint::try_send(uint16_t dst, uint16_t handler, std::span<const uint8_t> data) {
  check(dst, data.size());
  auto frags = split(dst, handler, data);
  if (!flush_backlog()) {
    // behind the backlog, whole or not at all
    if (backlog_used_ + data.size() > opt_.backlog_bytes) return SendResult::WouldBlock;
    for (auto& f : frags) backlog_.push_back(std::move(f));
    backlog_used_ += data.size();
    stats_.messages_sent++;
    return SendResult::Queued;
  }
  size_t rest = data.size() - frags.front().data.size();
  if (rest > opt_.backlog_bytes || !push(frags.front())) return SendResult::WouldBlock;
  stats_.messages_sent++;
  size_t i = 1;
  while (i < frags.size() && push(frags[i])) i++;
  if (i == frags.size()) return SendResult::Sent;
  for (; i < frags.size(); i++) {
    backlog_used_ += frags[i].data.size();
    backlog_.push_back(std::move(frags[i]));
  }
  return SendResult::Queued;
}

bool CniEndpoint::try_recv() {
  flush_backlog();
  if (complete_.empty()) {
    Fragment f;
    while (complete_.empty() && pull(f)) take(std::move(f));
  }
  if (complete_.empty()) return false;
  Message m = std::move(complete_.front());
  complete_.pop_front();
  run(m);
  return true;
}

void CniEndpoint::recv() {
  while (!try_recv()) mem_.pause_ns(20);
}

unsigned CniEndpoint::poll() {
  flush_backlog();
  drain();
  unsigned k = 0;
  while (!complete_.empty()) {
    Message m = std::move(complete_.front());
    complete_.pop_front();
    run(m);
    k++;
  }
  return k;
}

uint32_t CniEndpoint::counter(CniCounter c) {
  const unsigned i = static_cast<unsigned>(c);
  const uint64_t pair = mem_.uncached_load64(reg(kCnt + 8 * (i / 2)));   // counters 2k, 2k+1
  return uint32_t(i % 2 ? pair >> 32 : pair);
}

bool CniEndpoint::device_error() {
  return cfg_ == CniConfig::Cni16Qm && (mem_.uncached_load64(reg(kStatus)) & kStatusErr) != 0;
}

void CniEndpoint::close() {
  if (!open_) return;
  while (!flush_backlog()) {
    drain();
    mem_.pause_ns(20);
  }
  // every message handed over: the engine has taken them all (CQ: pend 0; CNI4: the last valid
  // word seen and the TX queue empty)
  if (cfg_ == CniConfig::Cni4) {
    while (uint32_t(mem_.uncached_load64(reg(kTxSeq))) != tx_seq_ ||
           (mem_.uncached_load64(reg(kStatus)) & 0xffff) < tx_words_)
      mem_.pause_ns(20);
  } else if (cfg_ != CniConfig::Ni2w) {
    while (mem_.uncached_load64(reg(kStatus)) >> 32 & 0xffff) mem_.pause_ns(20);
  } else {
    while ((mem_.uncached_load64(reg(kStatus)) & 0xffff) < tx_words_) mem_.pause_ns(20);
  }
  mem_.uncached_store64(reg(kCtrl), uint64_t(nodes_) << 8);
  open_ = false;
}

}  // namespace cni::drv
