// SPDX-License-Identifier: Apache-2.0
#include "cni/sim/pcie.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <set>
#include <stdexcept>

#include "cni/sim/profile.hpp"

namespace cni::sim::pcie {

using proto::Msg;
using proto::Op;

namespace {

constexpr uint64_t k4K = 4096;

bool pow2(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

std::string hex(uint64_t v) {
  char b[32];
  std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
  return b;
}

unsigned data_credits(const Tlp& t) { return static_cast<unsigned>((t.data.size() + 15) / 16); }

// The header fields of a memory request for the bytes [addr, addr + n) (n >= 1, inside one
// 4 KiB page): the double-word address, the length and the byte enables.
void place(Tlp& t, uint64_t addr, unsigned n) {
  const uint64_t first = addr & ~uint64_t{3};
  const uint64_t last = (addr + n - 1) & ~uint64_t{3};
  t.addr = first;
  t.length_dw = static_cast<uint16_t>((last - first) / 4 + 1);
  const unsigned lo = static_cast<unsigned>(addr & 3);
  const unsigned hi = static_cast<unsigned>((addr + n - 1) & 3);
  if (t.length_dw == 1) {
    t.first_be = static_cast<uint8_t>(((0xF << lo) & (0xF >> (3 - hi))) & 0xF);
    t.last_be = 0;
  } else {
    t.first_be = static_cast<uint8_t>((0xF << lo) & 0xF);
    t.last_be = static_cast<uint8_t>(0xF >> (3 - hi));
  }
}

// The first enabled byte's address and the enabled span of a memory request.
uint64_t first_byte(const Tlp& t) {
  unsigned lo = 0;
  while (lo < 4 && !(t.first_be & (1u << lo))) ++lo;
  return t.addr + (lo == 4 ? 0 : lo);
}

// Pieces of [addr, addr + len): none longer than `max`, none crossing a 4 KiB boundary.
std::vector<std::pair<uint64_t, unsigned>> split(uint64_t addr, uint64_t len, unsigned max) {
  std::vector<std::pair<uint64_t, unsigned>> out;
  while (len > 0) {
    const uint64_t to_page = k4K - (addr % k4K);
    const auto n = static_cast<unsigned>(std::min<uint64_t>({len, max, to_page}));
    out.emplace_back(addr, n);
    addr += n;
    len -= n;
  }
  return out;
}

// The completions of a read of `n` bytes at `addr` whose data is `bytes`: every one but the
// last ends at a multiple of `chunk` (a multiple of the read completion boundary).
std::vector<Tlp> completions(const Tlp& req, uint16_t completer, uint64_t addr, unsigned n,
                             const uint8_t* bytes, unsigned chunk) {
  std::vector<Tlp> out;
  unsigned done = 0;
  while (done < n) {
    const uint64_t a = addr + done;
    const uint64_t end = std::min<uint64_t>(addr + n, (a / chunk + 1) * chunk);
    const auto len = static_cast<unsigned>(end - a);
    Tlp c;
    c.kind = TlpKind::CplD;
    c.requester = req.requester;
    c.tag = req.tag;
    c.completer = completer;
    c.byte_count = static_cast<uint16_t>((n - done) & 0xFFF);
    c.lower_addr = static_cast<uint8_t>(a & 0x7F);
    const uint64_t dw0 = a & ~uint64_t{3};
    const uint64_t dw1 = (end + 3) & ~uint64_t{3};
    c.length_dw = static_cast<uint16_t>((dw1 - dw0) / 4);
    c.data.assign(c.length_dw * 4u, 0);
    std::memcpy(c.data.data() + (a - dw0), bytes + done, len);
    out.push_back(std::move(c));
    done += len;
  }
  return out;
}

Tlp completion_error(const Tlp& req, uint16_t completer, CplStatus s) {
  Tlp c;
  c.kind = TlpKind::Cpl;
  c.requester = req.requester;
  c.tag = req.tag;
  c.completer = completer;
  c.status = s;
  c.length_dw = 0;
  // A configuration request's completion counts 4 bytes, a zero-length read's 1.
  const bool cfg = req.kind == TlpKind::CfgRd0 || req.kind == TlpKind::CfgWr0;
  c.byte_count = static_cast<uint16_t>((cfg ? 4 : std::max(req.enabled_bytes(), 1u)) & 0xFFF);
  if (!cfg) c.lower_addr = static_cast<uint8_t>(first_byte(req) & 0x7F);
  return c;
}

// Non-posted requests of one requester waiting for their completions: tags, reassembly in
// address order, the completion timeout.
class Reads {
 public:
  using Done = std::function<void(CplStatus, std::vector<uint8_t>)>;
  Reads(Kernel& k, unsigned tags, Time timeout) : k_(k), tags_(tags), timeout_(timeout) {}
  ~Reads() {
    for (auto& [tag, r] : open_) k_.cancel(r.timer);
  }
  bool tag_free() const { return open_.size() < tags_; }
  size_t open() const { return open_.size(); }
  // Open a request of `n` bytes from `addr`; returns its tag.
  uint8_t open(uint64_t addr, unsigned n, Done done) {
    while (open_.count(next_)) next_ = static_cast<uint8_t>((next_ + 1) % tags_);
    const uint8_t tag = next_;
    next_ = static_cast<uint8_t>((next_ + 1) % tags_);
    Open& r = open_[tag];
    r.addr = addr;
    r.total = n;
    r.buf.assign(n, 0);
    r.done = std::move(done);
    if (timeout_ != 0) r.timer = k_.after(timeout_, [this, tag] { finish(tag, CplStatus::CA); });
    return tag;
  }
  // A completion arrived; returns why it is malformed, or "" (also for one that completes a
  // request).
  std::string complete(const Tlp& c) {
    auto it = open_.find(c.tag);
    if (it == open_.end()) return "completion for tag " + std::to_string(c.tag) + ", not open";
    Open& r = it->second;
    if (c.status != CplStatus::SC) {
      finish(c.tag, c.status);
      return "";
    }
    if (r.total == 0) {  // a configuration write: a completion without data ends it
      finish(c.tag, c.kind == TlpKind::Cpl ? CplStatus::SC : CplStatus::CA);
      return c.kind == TlpKind::Cpl ? "" : "completion with data for a write";
    }
    const unsigned left = r.total - r.got;
    const uint64_t at = r.addr + r.got;
    const unsigned bc = c.byte_count == 0 ? 4096u : c.byte_count;
    if (c.kind != TlpKind::CplD || bc != left || c.lower_addr != (at & 0x7F)) {
      finish(c.tag, CplStatus::CA);
      return "completion " + c.str() + " does not continue the request (" + std::to_string(left) +
             " bytes left at " + hex(at) + ")";
    }
    const unsigned skip = static_cast<unsigned>(at & 3);
    const unsigned n = std::min<unsigned>(left, static_cast<unsigned>(c.data.size()) - skip);
    std::memcpy(r.buf.data() + r.got, c.data.data() + skip, n);
    r.got += n;
    if (r.got == r.total) finish(c.tag, CplStatus::SC);
    return "";
  }

 private:
  struct Open {
    uint64_t addr = 0;
    unsigned total = 0, got = 0;
    std::vector<uint8_t> buf;
    Done done;
    EventId timer;
  };
  void finish(uint8_t tag, CplStatus s) {
    auto it = open_.find(tag);
    Open r = std::move(it->second);
    open_.erase(it);
    k_.cancel(r.timer);
    r.done(s, std::move(r.buf));
  }

  Kernel& k_;
  unsigned tags_;
  Time timeout_;
  uint8_t next_ = 0;
  std::map<uint8_t, Open> open_;
};

}  // namespace

// ---- parameters --------------------------------------------------------------------------------

void PcieParams::validate() const {
  auto bad = [](const std::string& what, uint64_t v) {
    throw std::invalid_argument("pcie: " + what + " " + std::to_string(v) + " is out of range");
  };
  (void)link_bytes_per_ns(gen, lanes);
  if (!pow2(mps) || mps < 128 || mps > 4096) bad("max payload bytes", mps);
  if (!pow2(mrrs) || mrrs < 128 || mrrs > 4096) bad("max read request bytes", mrrs);
  if (rcb != 64 && rcb != 128) bad("read completion boundary", rcb);
  if (rc_cpl_bytes < rcb || rc_cpl_bytes % rcb != 0 || rc_cpl_bytes > mps) {
    bad("root complex completion bytes", rc_cpl_bytes);
  }
  if (tags == 0 || tags > 256) bad("tags", tags);
  if (ack_every == 0) bad("ack_every", ack_every);
  if (wc_bytes < 8 || wc_bytes > mps || !pow2(wc_bytes)) bad("write-combining bytes", wc_bytes);
  if (load_bytes < 8 || load_bytes > 4096 || !pow2(load_bytes)) bad("load bytes", load_bytes);
  if (rc_lines == 0 || rc_lines > 255) bad("root complex lines in flight", rc_lines);
  if (msi_base % k4K != 0) bad("MSI window base", msi_base);
  // A data credit limit must take the largest TLP of its class (0: infinite).
  if (credits.pd != 0 && credits.pd < mps / 16) bad("posted data credits", credits.pd);
  if (credits.cpld != 0 && credits.cpld < mps / 16) bad("completion data credits", credits.cpld);
}

PcieParams PcieParams::from_profile(const Profile& p) {
  auto u = [&](const char* key) {
    const int64_t v = p.get_int(key);
    if (v < 0 || v > 1'000'000'000)
      throw ProfileError("profile " + p.name() + ": " + key + " = " + std::to_string(v) +
                         " is out of range");
    return static_cast<unsigned>(v);
  };
  PcieParams r;
  r.gen = u("pcie.gen");
  r.lanes = u("pcie.lanes");
  r.latency = ns(p.get_double("pcie.latency_ns"));
  r.mps = u("pcie.max_payload_bytes");
  r.mrrs = u("pcie.max_read_request_bytes");
  r.rcb = u("pcie.rcb_bytes");
  r.rc_cpl_bytes = u("pcie.rc_completion_bytes");
  r.tags = u("pcie.tags");
  r.credits.ph = u("pcie.credits_ph");
  r.credits.pd = u("pcie.credits_pd");
  r.credits.nph = u("pcie.credits_nph");
  r.credits.npd = u("pcie.credits_npd");
  r.credits.cplh = u("pcie.credits_cplh");
  r.credits.cpld = u("pcie.credits_cpld");
  r.ack_every = u("pcie.ack_every");
  r.rc_time = ns(p.get_double("pcie.rc_ns"));
  r.ep_time = ns(p.get_double("pcie.ep_ns"));
  r.wc_bytes = u("pcie.wc_bytes");
  r.wc_timeout = ns(p.get_double("pcie.wc_timeout_ns"));
  r.load_bytes = u("pcie.load_bytes");
  r.rc_lines = u("pcie.rc_lines_in_flight");
  r.cpl_timeout = ns(p.get_double("pcie.completion_timeout_us") * 1000.0);
  r.msi_base = static_cast<uint64_t>(p.get_int("pcie.msi_base"));
  try {
    r.validate();
  } catch (const std::invalid_argument& e) {
    throw ProfileError("profile " + p.name() + ": " + e.what());
  }
  return r;
}

// ---- link --------------------------------------------------------------------------------------

Link::Link(Kernel& k, const PcieParams& p, std::string name)
    : k_(k), p_(p), name_(std::move(name)), bpns_(link_bytes_per_ns(p.gen, p.lanes)) {
  p_.validate();
  for (Port* port : {&rc_, &ep_}) {
    port->link_ = this;
    port->limit_ = p_.credits;
  }
  rc_.peer_ = &ep_;
  ep_.peer_ = &rc_;
  rc_.down_ = true;
}

void Link::Port::send(Tlp t, std::function<void()> sent) {
  (void)encode(t);  // the specification's rules, checked where the packet is made
  const auto c = static_cast<unsigned>(fc_class(t.kind));
  const unsigned lim_d[3] = {limit_.pd, limit_.npd, limit_.cpld};
  if (lim_d[c] != 0 && data_credits(t) > lim_d[c]) {
    throw TlpError(link_->name_ + ": " + t.str() + " needs " + std::to_string(data_credits(t)) +
                   " data credits, the receiver advertises " + std::to_string(lim_d[c]));
  }
  q_.push_back({std::move(t), std::move(sent)});
  kick();
}

bool Link::Port::fits(const Tlp& t) const {
  const auto c = static_cast<unsigned>(fc_class(t.kind));
  const unsigned lim_h[3] = {limit_.ph, limit_.nph, limit_.cplh};
  const unsigned lim_d[3] = {limit_.pd, limit_.npd, limit_.cpld};
  if (lim_h[c] != 0 && used_hdr_[c] + 1 > lim_h[c]) return false;
  if (lim_d[c] != 0 && used_data_[c] + data_credits(t) > lim_d[c]) return false;
  return true;
}

void Link::Port::kick() {
  if (scheduled_) return;
  scheduled_ = true;
  Kernel& k = link_->k_;
  k.at(std::max(k.now(), free_at_), [this] {
    scheduled_ = false;
    transmit();
  });
}

void Link::Port::transmit() {
  Kernel& k = link_->k_;
  const PcieParams& p = link_->p_;
  unsigned wire = 0;
  std::function<void()> arrive, sent;
  if (!dllp_q_.empty()) {
    const Dllp d = dllp_q_.front();
    dllp_q_.pop_front();
    wire = kDllpBytes;
    ++st_.dllps;
    if (d.update_fc) {
      Port* peer = peer_;
      arrive = [peer, d] { peer->credits_back(d); };
    }
  } else {
    // The oldest TLP the receiver has credits for, that passes nothing it may not pass.
    auto pick = q_.end();
    std::set<std::pair<uint16_t, uint8_t>> held;  // requests with a completion held back
    for (auto it = q_.begin(); it != q_.end(); ++it) {
      const FcClass c = fc_class(it->t.kind);
      const bool same_request_held =
          c == FcClass::Cpl && held.count({it->t.requester, it->t.tag}) != 0;
      if (!same_request_held && fits(it->t)) {
        pick = it;
        break;
      }
      if (it == q_.begin()) ++st_.credit_waits;
      if (c == FcClass::P) break;
      if (c == FcClass::Cpl) held.insert({it->t.requester, it->t.tag});
    }
    if (pick == q_.end()) return;  // credits_back() kicks again
    Tlp t = std::move(pick->t);
    sent = std::move(pick->sent);
    q_.erase(pick);
    const auto c = static_cast<unsigned>(fc_class(t.kind));
    ++used_hdr_[c];
    used_data_[c] += data_credits(t);
    ++st_.tlps[c];
    st_.payload_bytes += t.data.size();
    wire = wire_bytes(t);
    if (link_->trace_) link_->trace_->record(k.now(), down_, t);
    Port* peer = peer_;
    arrive = [peer, t = std::move(t)] { peer->receive(t); };
  }
  const auto dur = static_cast<Time>(std::ceil(wire * 1000.0 / link_->bpns_));
  st_.wire_bytes += wire;
  st_.busy += dur;
  free_at_ = k.now() + dur;
  if (arrive) k.at(free_at_ + p.latency, std::move(arrive));
  if (sent) k.at(free_at_, std::move(sent));
  if (!dllp_q_.empty() || !q_.empty()) kick();
}

void Link::Port::receive(const Tlp& t) {
  if (!rx_) throw std::logic_error(link_->name_ + ": a TLP arrived at a port with no receiver");
  if (++unacked_ >= link_->p_.ack_every) {
    unacked_ = 0;
    dllp_q_.push_back(Dllp{});
    kick();
  }
  Dllp fc;
  fc.update_fc = true;
  fc.cls = fc_class(t.kind);
  fc.hdr = 1;
  fc.data = data_credits(t);
  rx_(t, [this, fc] {
    dllp_q_.push_back(fc);
    kick();
  });
}

void Link::Port::credits_back(const Dllp& d) {
  const auto c = static_cast<unsigned>(d.cls);
  used_hdr_[c] -= d.hdr;
  used_data_[c] -= d.data;
  if (!q_.empty()) kick();
}

// ---- root complex ------------------------------------------------------------------------------

struct RootComplex::Impl {
  // Barrier: not a line operation but a request that must not pass the writes before it (an
  // MSI, a zero-length read); it runs when it reaches the front with nothing open.
  enum class LineOp : uint8_t { Read, Write, Merge, Barrier };
  // A read of host memory by the endpoint, completed in address order as its lines arrive.
  struct DmaRead {
    Tlp req;
    uint64_t addr = 0;
    unsigned n = 0, ready = 0, sent = 0;  // bytes: asked, arrived in order, completed
    std::vector<uint8_t> buf;
    std::vector<bool> have;  // per line
    uint64_t line0 = 0;
  };
  struct Op1 {
    LineOp op = LineOp::Read;
    uint64_t line = 0;
    std::shared_ptr<DmaRead> rd;
    std::array<uint8_t, proto::kMaxLineBytes> data{};
    std::array<bool, proto::kMaxLineBytes> mask{};
    bool wb_sent = false;       // Merge: in MI, the WB on its way
    std::function<void()> run;  // Barrier
  };

  Impl(RootComplex& o, Kernel& k, Fabric& f, Link::Port& port, const PcieParams& p,
       std::string name)
      : o(o),
        k(k),
        f(f),
        port(port),
        p(p),
        name(std::move(name)),
        lb(f.line_bytes()),
        cpu_reads(k, 256, p.cpl_timeout) {
    p.validate();
    port.set_receiver([this](const Tlp& t, std::function<void()> release) {
      this->k.after(this->p.rc_time,
                    [this, t, release = std::move(release)] { from_device(t, release); });
    });
    // The fabric keeps its observers: this one checks that the root complex still exists.
    f.on_send([this, alive = std::weak_ptr<bool>(alive)](const Msg& m, Time) {
      if (!alive.expired()) observe(m);
    });
  }
  ~Impl() { k.cancel(wc_timer); }

  void error(const std::string& why) {
    if (o.errors_.size() < 16) o.errors_.push_back(std::to_string(to_ns(k.now())) + " ns: " + why);
  }
  void out(Tlp t) {
    k.after(p.rc_time, [this, t = std::move(t)]() mutable { port.send(std::move(t)); });
  }
  bool host_memory(uint64_t addr, uint64_t n) {
    try {
      const proto::AgentId h = f.home_of(addr);
      return n == 0 || f.home_of(addr + n - 1) == h;
    } catch (const std::out_of_range&) {
      return false;
    }
  }

  // -- CPU side --
  void wc_flush(bool timeout) {
    if (!wc_open) return;
    wc_open = false;
    k.cancel(wc_timer);
    ++o.st_.wc_flushes;
    if (timeout) ++o.st_.wc_timeouts;
    unsigned i = 0;
    while (i < p.wc_bytes) {
      if (!wc_mask[i]) {
        ++i;
        continue;
      }
      unsigned j = i;
      while (j < p.wc_bytes && wc_mask[j]) ++j;
      Tlp t;
      t.kind = TlpKind::MWr;
      t.requester = kRootId;
      place(t, wc_chunk + i, j - i);
      t.data.assign(t.length_dw * 4u, 0);
      std::memcpy(t.data.data() + ((wc_chunk + i) & 3), wc_data.data() + i, j - i);
      out(std::move(t));
      i = j;
    }
  }
  void cpu_write(uint64_t addr, uint64_t value) {
    const uint64_t chunk = addr - addr % p.wc_bytes;
    if (wc_open && chunk != wc_chunk) wc_flush(false);
    if (!wc_open) {
      wc_open = true;
      wc_chunk = chunk;
      wc_mask.assign(p.wc_bytes, false);
      wc_data.assign(p.wc_bytes, 0);
      if (p.wc_timeout != 0) wc_timer = k.after(p.wc_timeout, [this] { wc_flush(true); });
    }
    const auto off = static_cast<unsigned>(addr - chunk);
    std::memcpy(wc_data.data() + off, &value, 8);
    std::fill(wc_mask.begin() + off, wc_mask.begin() + off + 8, true);
    if (std::all_of(wc_mask.begin(), wc_mask.end(), [](bool b) { return b; })) wc_flush(false);
  }
  // A CPU load at `addr` (8 or 16 bytes, inside one pcie.load_bytes block): one read request of
  // the block; `done` gets the bytes from `addr` on.
  void cpu_read(uint64_t addr, std::function<void(const uint8_t*)> done) {
    wc_flush(false);  // a read does not pass the writes before it
    const uint64_t base = addr - addr % p.load_bytes;
    if (!cpu_reads.tag_free()) throw std::logic_error(name + ": 256 CPU reads in flight");
    const uint8_t tag = cpu_reads.open(
        base, p.load_bytes,
        [this, addr, base, done = std::move(done)](CplStatus s, std::vector<uint8_t> bytes) {
          if (s != CplStatus::SC) {
            ++o.st_.cpu_errors;
            error("CPU load at " + hex(addr) + " answered " + status_name(s) + ": all ones");
            bytes.assign(p.load_bytes, 0xFF);
          }
          done(bytes.data() + (addr - base));  // the completion paid the root complex's time
        });
    Tlp t;
    t.kind = TlpKind::MRd;
    t.requester = kRootId;
    t.tag = tag;
    place(t, base, p.load_bytes);
    out(std::move(t));
  }
  void cfg(uint64_t addr, bool write, uint32_t value, std::function<void(uint32_t)> done) {
    wc_flush(false);
    const auto reg = static_cast<uint16_t>(((addr >> 3) & 0x3FF) * 4);
    if (!cpu_reads.tag_free()) throw std::logic_error(name + ": 256 CPU reads in flight");
    const uint8_t tag = cpu_reads.open(
        0, write ? 0 : 4, [this, write, reg, done = std::move(done)](CplStatus s, auto bytes) {
          uint32_t v = ~uint32_t{0};
          if (s == CplStatus::SC && !write) std::memcpy(&v, bytes.data(), 4);
          if (s != CplStatus::SC) {
            ++o.st_.cpu_errors;
            error(std::string("configuration ") + (write ? "write" : "read") + " of " + hex(reg) +
                  " answered " + status_name(s));
          }
          done(v);
        });
    Tlp t;
    t.kind = write ? TlpKind::CfgWr0 : TlpKind::CfgRd0;
    t.requester = kRootId;
    t.tag = tag;
    t.bus = 1;
    t.reg = reg;
    t.length_dw = 1;
    t.first_be = 0xF;
    t.last_be = 0;
    if (write) {
      t.data.resize(4);
      std::memcpy(t.data.data(), &value, 4);
    }
    out(std::move(t));
  }

  // -- device side --
  void from_device(const Tlp& t, const std::function<void()>& release) {
    switch (t.kind) {
      case TlpKind::Cpl:
      case TlpKind::CplD: {
        release();
        const std::string why = cpu_reads.complete(t);
        if (!why.empty()) {
          ++o.st_.bad_completions;
          error(why);
        }
        return;
      }
      case TlpKind::MWr:
        dma_write(t, release);
        return;
      case TlpKind::MRd:
        dma_read(t, release);
        return;
      default:
        release();
        ++o.st_.unsupported;
        error(std::string(kind_name(t.kind)) +
              " from the endpoint: not a request a root "
              "complex takes");
        return;
    }
  }
  void dma_write(const Tlp& t, const std::function<void()>& release) {
    const uint64_t a = first_byte(t);
    const unsigned n = t.enabled_bytes();
    if (a >= p.msi_base && a < p.msi_base + k4K) {
      // An interrupt: after the writes before it are visible (a handler reads what they wrote).
      uint32_t data = 0;
      std::memcpy(&data, t.data.data(), std::min<size_t>(4, t.data.size()));
      barrier(
          [this, data] {
            ++o.st_.msis;
            if (o.msi_) o.msi_(data);
          },
          release);
      return;
    }
    if (!host_memory(a, n)) {
      release();
      ++o.st_.unsupported;
      error("memory write of " + std::to_string(n) + " bytes at " + hex(a) +
            ": no host memory there (dropped)");
      return;
    }
    ++o.st_.dma_writes;
    o.st_.dma_write_bytes += n;
    const uint8_t* src = t.data.data() + (a - t.addr);
    for (uint64_t line = a - a % lb; line < a + n; line += lb) {
      Op1 op;
      op.line = line;
      const uint64_t lo = std::max(line, a), hi = std::min(line + lb, a + n);
      std::memcpy(op.data.data() + (lo - line), src + (lo - a), hi - lo);
      for (uint64_t i = lo; i < hi; ++i) op.mask[i - line] = true;
      op.op = (lo == line && hi == line + lb) ? LineOp::Write : LineOp::Merge;
      ops.push_back(std::move(op));
      ++pushed;
    }
    waiting_release.push_back({pushed, release});
    issue();
  }
  // Queue `fn` behind every line operation queued or open.
  void barrier(std::function<void()> fn, const std::function<void()>& release) {
    Op1 op;
    op.op = LineOp::Barrier;
    op.run = std::move(fn);
    ops.push_back(std::move(op));
    ++pushed;
    waiting_release.push_back({pushed, release});
    issue();
  }
  void dma_read(const Tlp& t, const std::function<void()>& release) {
    const uint64_t a = first_byte(t);
    const unsigned n = t.enabled_bytes();
    if (!host_memory(a, std::max(n, 1u))) {
      release();
      ++o.st_.unsupported;
      error("memory read of " + std::to_string(n) + " bytes at " + hex(a) +
            ": no host memory there (Unsupported Request)");
      out(completion_error(t, kRootId, CplStatus::UR));
      return;
    }
    ++o.st_.dma_reads;
    o.st_.dma_read_bytes += n;
    auto rd = std::make_shared<DmaRead>();
    rd->req = t;
    rd->addr = a;
    rd->n = n;
    rd->buf.assign(n, 0);
    rd->line0 = a - a % lb;
    if (n == 0) {  // a zero-length read, a flush: answered once the writes before it are done
      Tlp c;
      c.kind = TlpKind::CplD;
      c.requester = t.requester;
      c.tag = t.tag;
      c.completer = kRootId;
      c.byte_count = 1;
      c.lower_addr = static_cast<uint8_t>(t.addr & 0x7F);
      c.length_dw = 1;
      c.data.assign(4, 0);
      barrier([this, c = std::move(c)]() mutable { out(std::move(c)); }, release);
      return;
    }
    const uint64_t last = a + n - 1;
    rd->have.assign((last - rd->line0) / lb + 1, false);
    for (uint64_t line = rd->line0; line <= last; line += lb) {
      Op1 op;
      op.op = LineOp::Read;
      op.line = line;
      op.rd = rd;
      ops.push_back(std::move(op));
      ++pushed;
    }
    waiting_release.push_back({pushed, release});
    issue();
  }
  // Start the queued line operations in order, while there is room, the home is the same and no
  // operation on the line is open (the home would take a second request of ours for the line as
  // coming from its owner).
  void issue() {
    while (!ops.empty() && open.size() < p.rc_lines) {
      Op1& op = ops.front();
      if (op.op == LineOp::Barrier) {
        if (!open.empty()) break;
        auto run = std::move(op.run);
        ops.pop_front();
        ++issued;
        run();
        continue;
      }
      const proto::AgentId home = f.home_of(op.line);
      if (!open.empty() && home != open_home) break;
      if (open_lines.count(op.line)) break;
      open_home = home;
      while (open.count(next_tag)) ++next_tag;
      const uint8_t tag = next_tag++;
      Msg m;
      m.src = o.id();
      m.dst = home;
      m.tag = tag;
      m.addr = op.line;
      switch (op.op) {
        case LineOp::Read:
          m.op = Op::RdNA;
          ++o.st_.line_reads;
          break;
        case LineOp::Write:
          m.op = Op::WrInv;
          m.len = static_cast<uint8_t>(lb);
          std::memcpy(m.data.data(), op.data.data(), lb);
          ++o.st_.line_writes;
          break;
        case LineOp::Merge:
          m.op = Op::RdX;
          ++o.st_.line_merges;
          break;
        case LineOp::Barrier:
          throw std::logic_error(name + ": a barrier reached the line requests");
      }
      ++open_lines[op.line];
      open.emplace(tag, std::move(op));
      ops.pop_front();
      ++issued;
      f.send(m);
    }
    while (!waiting_release.empty() && waiting_release.front().first <= issued) {
      auto r = std::move(waiting_release.front().second);
      waiting_release.pop_front();
      r();
    }
  }
  void deliver(const Msg& m) {
    if (m.op == Op::FwdInv || m.op == Op::FwdDown || m.op == Op::FwdDownO) {
      Msg r;
      r.op = Op::SnpAck;
      r.src = o.id();
      r.dst = m.src;
      r.tag = m.tag;
      r.addr = m.addr;
      for (auto& [tag, op] : open) {
        if (op.op == LineOp::Merge && op.wb_sent && op.line == m.addr) {
          r.flags = proto::kFlagWbPending;  // our WB carries the data (protocol rule 6)
        }
      }
      f.send(r);
      return;
    }
    // Answers to our line operations, by tag.
    auto it = open.find(m.tag);  // a write-back carries its operation's tag too
    if (it == open.end() || it->second.line != m.addr) {
      throw CoherenceError(name + ": unexpected " + m.str());
    }
    Op1& op = it->second;
    const bool expected =
        (op.op == LineOp::Read && m.op == Op::DataI) ||
        (op.op == LineOp::Write && m.op == Op::WrAck) ||
        (op.op == LineOp::Merge && !op.wb_sent && (m.op == Op::DataE || m.op == Op::DataM)) ||
        (op.op == LineOp::Merge && op.wb_sent && m.op == Op::WbAck);
    if (!expected) throw CoherenceError(name + ": " + m.str() + " answers no request of ours");
    if (op.op == LineOp::Read) {
      DmaRead& rd = *op.rd;
      const uint64_t lo = std::max(op.line, rd.addr), hi = std::min(op.line + lb, rd.addr + rd.n);
      std::memcpy(rd.buf.data() + (lo - rd.addr), m.data.data() + (lo - op.line), hi - lo);
      rd.have[(op.line - rd.line0) / lb] = true;
      send_ready(rd);
    } else if (op.op == LineOp::Merge && !op.wb_sent) {
      // Owner of the line from here to the write-back, which leaves in this same event, so no
      // snoop finds us holding it (a snoop after this sees the WB pending: rule 6).
      std::array<uint8_t, proto::kMaxLineBytes> line{};
      std::memcpy(line.data(), m.data.data(), lb);
      unsigned i = 0;
      while (i < lb) {
        if (!op.mask[i]) {
          ++i;
          continue;
        }
        unsigned j = i;
        while (j < lb && op.mask[j]) ++j;
        std::memcpy(line.data() + i, op.data.data() + i, j - i);
        if (o.obs_) o.obs_->on_store(o.id(), op.line + i, op.data.data() + i, j - i, k.now());
        i = j;
      }
      op.wb_sent = true;
      Msg wb;
      wb.op = Op::WB;
      wb.src = o.id();
      wb.dst = m.src;
      wb.tag = it->first;
      wb.addr = op.line;
      wb.len = static_cast<uint8_t>(lb);
      std::memcpy(wb.data.data(), line.data(), lb);
      f.send(wb);
      return;
    }
    if (--open_lines[op.line] == 0) open_lines.erase(op.line);
    open.erase(it);
    issue();
  }
  // Send the completions whose bytes have all arrived (in address order).
  void send_ready(DmaRead& rd) {
    while (rd.ready < rd.n) {
      const uint64_t at = rd.addr + rd.ready;
      if (!rd.have[(at - rd.line0) / lb]) break;
      const uint64_t line_end = at - at % lb + lb;
      rd.ready = static_cast<unsigned>(std::min<uint64_t>(rd.addr + rd.n, line_end) - rd.addr);
    }
    // Whole completions only: up to a chunk boundary, or the end.
    const unsigned chunk = p.rc_cpl_bytes;
    uint64_t upto = rd.addr + rd.ready;
    if (rd.ready < rd.n) upto -= upto % chunk;
    if (upto <= rd.addr + rd.sent) return;
    const auto n = static_cast<unsigned>(upto - (rd.addr + rd.sent));
    // Byte counts continue the request's: the helper counts from this piece, so add the rest.
    auto cpls = completions(rd.req, kRootId, rd.addr + rd.sent, n, rd.buf.data() + rd.sent, chunk);
    const unsigned after = rd.n - rd.sent - n;
    for (Tlp& c : cpls) {
      c.byte_count = static_cast<uint16_t>((c.byte_count + after) & 0xFFF);
      out(std::move(c));
    }
    rd.sent += n;
  }
  // What host homes perform for us, reported at the instant they send its answer.
  void observe(const Msg& m) {
    if (o.obs_ == nullptr || m.dst != o.id()) return;
    if (m.op == Op::DataI) o.obs_->on_load(o.id(), m.addr, m.data.data(), lb, k.now());
    if (m.op == Op::WrAck) {
      auto it = open.find(m.tag);
      if (it != open.end() && it->second.op == LineOp::Write) {
        o.obs_->on_store(o.id(), m.addr, it->second.data.data(), lb, k.now());
      }
    }
  }

  std::shared_ptr<bool> alive = std::make_shared<bool>(true);
  RootComplex& o;
  Kernel& k;
  Fabric& f;
  Link::Port& port;
  PcieParams p;
  std::string name;
  unsigned lb;
  Reads cpu_reads;
  // The write-combining buffer: one chunk.
  bool wc_open = false;
  uint64_t wc_chunk = 0;
  std::vector<bool> wc_mask;
  std::vector<uint8_t> wc_data;
  EventId wc_timer;
  // Line operations: queued in order, then open (by tag) until answered.
  std::deque<Op1> ops;
  std::map<uint8_t, Op1> open;
  proto::AgentId open_home = 0;
  uint8_t next_tag = 0;
  std::map<uint64_t, unsigned> open_lines;
  uint64_t pushed = 0;  // operations queued since the start
  uint64_t issued = 0;  // operations started
  // A TLP's credits return once its last operation has started (the count `pushed` reached).
  std::deque<std::pair<uint64_t, std::function<void()>>> waiting_release;
};

RootComplex::RootComplex(Kernel& k, Fabric& f, proto::AgentId id, Link::Port& port,
                         const PcieParams& p, std::string name)
    : Agent(id), impl_(std::make_unique<Impl>(*this, k, f, port, p, std::move(name))) {}

RootComplex::~RootComplex() = default;

void RootComplex::deliver(const Msg& m) { impl_->deliver(m); }

size_t RootComplex::lines_open() const { return impl_->ops.size() + impl_->open.size(); }

void RootComplex::BarWindow::read64(proto::Addr addr, std::function<void(uint64_t)> done) {
  ++rc_.st_.cpu_reads;
  rc_.impl_->cpu_read(addr, [done = std::move(done)](const uint8_t* b) {
    uint64_t v = 0;
    std::memcpy(&v, b, 8);
    done(v);
  });
}

void RootComplex::BarWindow::read128(proto::Addr addr, std::function<void(const uint8_t*)> done) {
  if (rc_.impl_->p.load_bytes < 16) {
    UncachedTarget::read128(addr, std::move(done));
    return;
  }
  ++rc_.st_.cpu_reads;
  rc_.impl_->cpu_read(addr, std::move(done));
}

void RootComplex::BarWindow::write64(proto::Addr addr, uint64_t value, std::function<void()> done) {
  ++rc_.st_.cpu_writes;
  rc_.impl_->cpu_write(addr, value);
  done();  // posted
}

void RootComplex::CfgWindow::read64(proto::Addr addr, std::function<void(uint64_t)> done) {
  ++rc_.st_.cfg_reads;
  rc_.impl_->cfg(addr, false, 0, [done = std::move(done)](uint32_t v) { done(v); });
}

void RootComplex::CfgWindow::write64(proto::Addr addr, uint64_t value, std::function<void()> done) {
  ++rc_.st_.cfg_writes;
  rc_.impl_->cfg(addr, true, static_cast<uint32_t>(value),
                 [done = std::move(done)](uint32_t) { done(); });
}

// ---- endpoint ----------------------------------------------------------------------------------

struct Endpoint::Impl {
  Impl(Endpoint& o, Kernel& k, Link::Port& port, const PcieParams& p, BarTarget& bars,
       std::string name)
      : o(o),
        k(k),
        port(port),
        p(p),
        bars(bars),
        name(std::move(name)),
        reads(k, p.tags, p.cpl_timeout) {
    p.validate();
    port.set_receiver([this](const Tlp& t, std::function<void()> release) {
      this->k.after(this->p.ep_time,
                    [this, t, release = std::move(release)] { from_link(t, release); });
    });
  }
  void out(Tlp t, std::function<void()> sent = {}) {
    k.after(p.ep_time, [this, t = std::move(t), sent = std::move(sent)]() mutable {
      port.send(std::move(t), std::move(sent));
    });
  }
  void from_link(const Tlp& t, const std::function<void()>& release) {
    release();
    switch (t.kind) {
      case TlpKind::CfgRd0:
      case TlpKind::CfgWr0: {
        ++o.st_.cfg_accesses;
        if (t.bus != 1 || t.device != 0 || t.function != 0) {
          ++o.st_.unsupported;
          out(completion_error(t, kEndpointId, CplStatus::UR));
          return;
        }
        Tlp c;
        c.requester = t.requester;
        c.tag = t.tag;
        c.completer = kEndpointId;
        if (t.kind == TlpKind::CfgWr0) {
          uint32_t v = 0;
          std::memcpy(&v, t.data.data(), 4);
          o.cfg_.write(t.reg, v, t.first_be);
          c.kind = TlpKind::Cpl;
          c.byte_count = 4;
        } else {
          const uint32_t v = o.cfg_.read(t.reg);
          c.kind = TlpKind::CplD;
          c.length_dw = 1;
          c.byte_count = 4;
          c.data.resize(4);
          std::memcpy(c.data.data(), &v, 4);
        }
        out(std::move(c));
        return;
      }
      case TlpKind::MWr:
      case TlpKind::MRd: {
        const uint64_t a = first_byte(t);
        const unsigned n = t.enabled_bytes();
        const auto hit = o.cfg_.decode(a);
        const bool inside =
            hit &&
            (n == 0 || (o.cfg_.decode(a + n - 1) && o.cfg_.decode(a + n - 1)->bar == hit->bar));
        if (!inside) {
          ++o.st_.unsupported;
          o.cfg_.set_unsupported_request();
          if (t.kind == TlpKind::MRd) out(completion_error(t, kEndpointId, CplStatus::UR));
          return;
        }
        if (t.kind == TlpKind::MWr) {
          ++o.st_.bar_writes;
          if (n > 0) bars.bar_write(hit->bar, hit->offset, t.data.data() + (a - t.addr), n);
          return;
        }
        ++o.st_.bar_reads;
        const Tlp req = t;
        bars.bar_read(hit->bar, hit->offset, std::max(n, 1u),
                      [this, req, a, n](const uint8_t* data) {
                        if (data == nullptr) {
                          ++o.st_.aborted;
                          out(completion_error(req, kEndpointId, CplStatus::CA));
                          return;
                        }
                        for (Tlp& c : completions(req, kEndpointId, a, std::max(n, 1u), data,
                                                  std::min(o.cfg_.max_payload(), 4096u))) {
                          out(std::move(c));
                        }
                      });
        return;
      }
      case TlpKind::Cpl:
      case TlpKind::CplD: {
        ++o.st_.completions;
        const std::string why = reads.complete(t);
        if (!why.empty()) {
          ++o.st_.dma_errors;
          if (log.size() < 16) log.push_back(why);
        }
        pump();
        return;
      }
    }
  }
  // Start the DMA read pieces that wait for a tag.
  void pump() {
    while (!pieces.empty() && reads.tag_free()) {
      Piece pc = std::move(pieces.front());
      pieces.pop_front();
      auto job = pc.job;
      const uint8_t tag =
          reads.open(pc.addr, pc.n, [this, job, off = pc.off](CplStatus s, auto bytes) {
            if (job->failed) return;
            if (s != CplStatus::SC) {
              job->failed = true;
              ++o.st_.dma_errors;
              job->done(s, {});
              return;
            }
            std::memcpy(job->buf.data() + off, bytes.data(), bytes.size());
            if (--job->left == 0) job->done(CplStatus::SC, std::move(job->buf));
          });
      Tlp t;
      t.kind = TlpKind::MRd;
      t.requester = kEndpointId;
      t.tag = tag;
      place(t, pc.addr, pc.n);
      ++o.st_.read_requests;
      out(std::move(t));
    }
  }

  struct Job {
    std::vector<uint8_t> buf;
    unsigned left = 0;
    bool failed = false;
    std::function<void(CplStatus, std::vector<uint8_t>)> done;
  };
  struct Piece {
    std::shared_ptr<Job> job;
    uint64_t addr = 0;
    unsigned n = 0, off = 0;
  };

  Endpoint& o;
  Kernel& k;
  Link::Port& port;
  PcieParams p;
  BarTarget& bars;
  std::string name;
  Reads reads;
  std::deque<Piece> pieces;
  std::vector<std::string> log;
};

Endpoint::Endpoint(Kernel& k, Link::Port& port, const PcieParams& p, const ConfigParams& cfg,
                   BarTarget& bars, std::string name)
    : impl_(std::make_unique<Impl>(*this, k, port, p, bars, std::move(name))), cfg_(cfg) {}

Endpoint::~Endpoint() = default;

size_t Endpoint::reads_open() const { return impl_->reads.open() + impl_->pieces.size(); }

void Endpoint::dma_read(uint64_t addr, unsigned len,
                        std::function<void(CplStatus, std::vector<uint8_t>)> done) {
  if (!cfg_.bus_master() || len == 0) {
    ++st_.refused;
    impl_->k.after(0, [done = std::move(done)] { done(CplStatus::UR, {}); });
    return;
  }
  ++st_.dma_reads;
  auto job = std::make_shared<Impl::Job>();
  job->buf.assign(len, 0);
  job->done = std::move(done);
  const auto parts = split(addr, len, cfg_.max_read_request());
  job->left = static_cast<unsigned>(parts.size());
  for (const auto& [a, n] : parts) {
    impl_->pieces.push_back({job, a, n, static_cast<unsigned>(a - addr)});
  }
  impl_->pump();
}

void Endpoint::dma_write(uint64_t addr, std::vector<uint8_t> data, std::function<void()> done) {
  if (!cfg_.bus_master() || data.empty()) {
    ++st_.refused;
    if (done) impl_->k.after(0, std::move(done));
    return;
  }
  ++st_.dma_writes;
  const auto parts = split(addr, data.size(), cfg_.max_payload());
  for (size_t i = 0; i < parts.size(); ++i) {
    const auto [a, n] = parts[i];
    Tlp t;
    t.kind = TlpKind::MWr;
    t.requester = kEndpointId;
    place(t, a, n);
    t.data.assign(t.length_dw * 4u, 0);
    std::memcpy(t.data.data() + (a & 3), data.data() + (a - addr), n);
    ++st_.write_requests;
    impl_->out(std::move(t), i + 1 == parts.size() ? std::move(done) : std::function<void()>{});
  }
}

void Endpoint::msi(unsigned vector) {
  if (!cfg_.bus_master()) {
    ++st_.refused;
    return;
  }
  if (!cfg_.msi_enabled() || vector >= cfg_.msi_vectors_enabled()) {
    ++st_.msis_masked;
    return;
  }
  ++st_.msis;
  Tlp t;
  t.kind = TlpKind::MWr;
  t.requester = kEndpointId;
  place(t, cfg_.msi_address(), 4);
  const uint32_t data = cfg_.msi_data() | vector;
  t.data.resize(4);
  std::memcpy(t.data.data(), &data, 4);
  impl_->out(std::move(t));
}

}  // namespace cni::sim::pcie
