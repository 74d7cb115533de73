// SPDX-License-Identifier: Apache-2.0
// The AXI4 slave side of a DRAM controller for a Verilated AXI4 master (docs/dram.md, "The DRAM
// model"): every burst is timed and served by a sim::Dram, the data checked against the
// protocol. One ID (the master's ID signals absent): reads answered in order, write responses in
// order. Each clock cycle, with the master's outputs settled and the clock low, drive() sets the
// slave's outputs, and edge() takes the handshakes the rising edge makes. A burst is timed by the
// DRAM when its AR, or its AW with its last W beat, is taken; a read takes its data from the
// memory when its first beat is shown and a write puts its data there when it is done, so a
// master that lets a read and a write of one address overlap sees the overlap. Ready, and a
// valid not yet shown, may be withheld at random (the seeded `stall` chance); W beats may be
// taken before their AW.
//
// The master's ports, by name: m_axi_{ar,aw}{valid_o,ready_i,addr_o,len_o,size_o,burst_o},
// m_axi_r{valid_i,ready_o,data_i,resp_i,last_i}, m_axi_w{valid_o,ready_i,data_o,strb_o,last_o},
// m_axi_b{valid_i,ready_o,resp_i}.
//
// A burst the slave cannot serve -- outside the memory, crossing a 4 KiB boundary or a DRAM row,
// not INCR, a beat narrower than the bus -- is answered DECERR (reads: zero data) and counted; a
// master that breaks a rule (AR, AW or W changed or withdrawn while it waits, a WLAST out of place)
// is recorded in violations().
#pragma once

#include <bit>
#include <cstdint>
#include <deque>
#include <random>
#include <string>
#include <vector>

#include "cni/sim/dram.hpp"
#include "port_bytes.hpp"

namespace cni::tb {

// The DRAM behind a home agent's DRAM-backed lines (docs/dram.md): a line's slot is its 64-byte
// beats and the directory beat, rounded up to a power of two of beats; `lines` slots from AXI
// address `base` (the RTL's DramBase), DDR4-2400 at sim::DramParams' defaults otherwise.
inline constexpr unsigned kDramBeatBytes = 64;
inline uint64_t dram_slot_bytes(unsigned line_bytes) {
  return std::bit_ceil(line_bytes / kDramBeatBytes + 1) * kDramBeatBytes;
}
inline sim::DramParams line_dram_params(unsigned lines, unsigned line_bytes, uint64_t base = 0) {
  sim::DramParams p;
  p.bytes = base + uint64_t{lines} * dram_slot_bytes(line_bytes);
  return p;
}

struct AxiDramConfig {
  unsigned data_bytes = 64;  // the data bus
  sim::Time period = 3333;   // the clock period (the DRAM's time is cycles * period)
  unsigned queue = 8;        // requests accepted per direction before AxREADY falls
  double stall = 0.0;        // chance that a ready, or a valid not yet shown, is withheld
  uint64_t seed = 1;
};

struct AxiDramStats {
  uint64_t reads = 0, writes = 0, beats_r = 0, beats_w = 0, decerr = 0;
  uint64_t w_before_aw = 0;  // W beats taken before their burst's AW
};

template <class M>
class AxiDramSlave {
 public:
  AxiDramSlave(sim::Dram& dram, const AxiDramConfig& c) : dram_(dram), c_(c), rng_(c.seed) {}

  const AxiDramStats& stats() const { return stats_; }
  const std::vector<std::string>& violations() const { return violations_; }
  bool idle() const { return rq_.empty() && awq_.empty() && wq_.empty() && bq_.empty(); }

  // Make the next read or write answer with an error response (a slave's SLVERR).
  void fail_next_read() { fail_read_ = true; }
  void fail_next_write() { fail_write_ = true; }

  void drive(M& m, uint64_t cycle) {
    const sim::Time now = cycle * c_.period;
    m.m_axi_arready_i = rq_.size() < c_.queue && !stalled();
    m.m_axi_awready_i = awq_.size() < c_.queue && !stalled();
    // W beats are taken ahead of their AW too (up to a burst's worth of the longest burst)
    m.m_axi_wready_i = wq_.size() < 256 && !stalled();
    // A valid once shown stays until taken (AXI4); only a valid not yet shown may be withheld.
    const bool r = !rq_.empty() && rq_.front().done <= now && (r_shown_ || !stalled());
    m.m_axi_rvalid_i = r;
    if (r) {
      Burst& b = rq_.front();
      if (!b.sampled) sample(b);
      port_bytes_in(m.m_axi_rdata_i, b.data.data() + size_t{b.beat} * c_.data_bytes, c_.data_bytes);
      m.m_axi_rresp_i = b.resp;
      m.m_axi_rlast_i = b.beat == b.beats - 1;
    } else {
      m.m_axi_rlast_i = 0;
    }
    // a write lands in the memory when it is done: at the latest, as its response is shown
    for (Burst& w : bq_) {
      if (w.done <= now && !w.sampled) commit(w);
    }
    const bool bv = !bq_.empty() && bq_.front().done <= now && (b_shown_ || !stalled());
    m.m_axi_bvalid_i = bv;
    m.m_axi_bresp_i = bv ? bq_.front().resp : 0;
  }

  void edge(const M& m, uint64_t cycle) {
    const sim::Time now = cycle * c_.period;
    check_hold(m);
    r_shown_ = m.m_axi_rvalid_i && !m.m_axi_rready_o;
    b_shown_ = m.m_axi_bvalid_i && !m.m_axi_bready_o;
    if (m.m_axi_arvalid_o && m.m_axi_arready_i) accept_read(m, now);
    if (m.m_axi_rvalid_i && m.m_axi_rready_o) {
      ++stats_.beats_r;
      if (++rq_.front().beat == rq_.front().beats) rq_.pop_front();
    }
    if (m.m_axi_awvalid_o && m.m_axi_awready_i) {
      Burst b = request(m.m_axi_awaddr_o, m.m_axi_awlen_o, m.m_axi_awsize_o, m.m_axi_awburst_o);
      b.data.assign(size_t{b.beats} * c_.data_bytes, 0);
      b.mask.assign(b.data.size(), false);
      awq_.push_back(std::move(b));
    }
    if (m.m_axi_wvalid_o && m.m_axi_wready_i) {
      Beat w{std::vector<uint8_t>(c_.data_bytes), std::vector<bool>(c_.data_bytes),
             static_cast<bool>(m.m_axi_wlast_o)};
      port_bytes_out(m.m_axi_wdata_o, w.data.data(), c_.data_bytes);
      for (unsigned i = 0; i < c_.data_bytes; ++i) w.strb[i] = port_bit(m.m_axi_wstrb_o, i);
      if (awq_.empty()) ++stats_.w_before_aw;
      wq_.push_back(std::move(w));
      ++stats_.beats_w;
    }
    assemble(now);
    if (m.m_axi_bvalid_i && m.m_axi_bready_o) bq_.pop_front();
  }

 private:
  struct Burst {
    uint64_t addr = 0;
    unsigned beats = 1, beat = 0;
    uint8_t resp = 0;
    bool sampled = false;  // a read's data taken from the memory; a write's put there
    sim::Time done = 0;
    std::vector<uint8_t> data;
    std::vector<bool> mask;
  };
  struct Beat {
    std::vector<uint8_t> data;
    std::vector<bool> strb;
    bool last;
  };
  struct Held {
    bool valid = false;
    uint64_t addr = 0;
    unsigned len = 0, size = 0, burst = 0;
  };
  static constexpr uint8_t kSlvErr = 2, kDecErr = 3;

  bool stalled() { return c_.stall > 0 && std::bernoulli_distribution(c_.stall)(rng_); }

  Burst request(uint64_t addr, unsigned len, unsigned size, unsigned burst) {
    Burst b;
    b.addr = addr;
    b.beats = len + 1;
    const uint64_t bytes = uint64_t{b.beats} * c_.data_bytes;
    const uint64_t row = dram_.params().row_bytes;
    const bool ok = burst == 1 && (1u << size) == c_.data_bytes && addr % c_.data_bytes == 0 &&
                    addr / 4096 == (addr + bytes - 1) / 4096 && dram_.in_range(addr, bytes) &&
                    addr / row == (addr + bytes - 1) / row;
    if (!ok) {
      b.resp = kDecErr;
      ++stats_.decerr;
    }
    return b;
  }

  // The read's data, taken from the memory when its first beat is shown (a write done before
  // then is seen).
  void sample(Burst& b) {
    b.sampled = true;
    if (b.resp != kDecErr) dram_.read(b.addr, b.data);
  }
  void commit(Burst& w) {
    w.sampled = true;
    if (w.resp != kDecErr) dram_.write(w.addr, w.data, w.mask);
  }

  void accept_read(const M& m, sim::Time now) {
    Burst b = request(m.m_axi_araddr_o, m.m_axi_arlen_o, m.m_axi_arsize_o, m.m_axi_arburst_o);
    b.data.assign(size_t{b.beats} * c_.data_bytes, 0);
    if (b.resp == 0) {
      b.done = dram_.access(now, b.addr, static_cast<unsigned>(b.data.size()), false);
      if (fail_read_) b.resp = kSlvErr;
      fail_read_ = false;
    } else {
      b.done = now;
    }
    ++stats_.reads;
    rq_.push_back(std::move(b));
  }

  // W beats to the oldest AW waiting for its data; a burst whole goes to the DRAM (timed now,
  // in the memory when done) and waits for its response.
  void assemble(sim::Time now) {
    while (!awq_.empty() && !wq_.empty()) {
      Burst& b = awq_.front();
      const Beat& w = wq_.front();
      const size_t at = size_t{b.beat} * c_.data_bytes;
      for (unsigned i = 0; i < c_.data_bytes; ++i) {
        b.data[at + i] = w.data[i];
        b.mask[at + i] = w.strb[i];
      }
      const bool last = ++b.beat == b.beats;
      if (w.last != last) {
        violations_.push_back("WLAST " + std::string(w.last ? "on" : "missing on") + " beat " +
                              std::to_string(b.beat - 1) + " of a burst of " +
                              std::to_string(b.beats));
      }
      wq_.pop_front();
      if (!last) continue;
      Burst done = std::move(awq_.front());
      awq_.pop_front();
      if (done.resp == 0) {
        done.done = dram_.access(now, done.addr, static_cast<unsigned>(done.data.size()), true);
        if (fail_write_) done.resp = kSlvErr;
        fail_write_ = false;
      } else {
        done.done = now;
      }
      ++stats_.writes;
      bq_.push_back(std::move(done));
    }
  }

  // What waits for ready must not change (AXI4: once valid, held until the handshake).
  void check_hold(const M& m) {
    const auto hold = [this](Held& h, bool valid, bool ready, const Held& now, const char* ch) {
      if (h.valid && (!valid || h.addr != now.addr || h.len != now.len || h.size != now.size ||
                      h.burst != now.burst)) {
        violations_.push_back(std::string(ch) + " changed or withdrawn while waiting for ready");
      }
      h = now;
      h.valid = valid && !ready;
    };
    hold(ar_held_, m.m_axi_arvalid_o, m.m_axi_arready_i,
         Held{true, m.m_axi_araddr_o, m.m_axi_arlen_o, m.m_axi_arsize_o, m.m_axi_arburst_o}, "AR");
    hold(aw_held_, m.m_axi_awvalid_o, m.m_axi_awready_i,
         Held{true, m.m_axi_awaddr_o, m.m_axi_awlen_o, m.m_axi_awsize_o, m.m_axi_awburst_o}, "AW");
    std::vector<uint8_t> wd(c_.data_bytes);
    port_bytes_out(m.m_axi_wdata_o, wd.data(), c_.data_bytes);
    const bool wlast = m.m_axi_wlast_o;
    if (w_held_ && (!m.m_axi_wvalid_o || wd != w_data_ || wlast != w_last_)) {
      violations_.push_back("W changed or withdrawn while waiting for ready");
    }
    w_held_ = m.m_axi_wvalid_o && !m.m_axi_wready_i;
    w_data_ = std::move(wd);
    w_last_ = wlast;
  }

  sim::Dram& dram_;
  AxiDramConfig c_;
  std::mt19937_64 rng_;
  AxiDramStats stats_;
  std::vector<std::string> violations_;
  std::deque<Burst> rq_, awq_, bq_;
  std::deque<Beat> wq_;
  Held ar_held_, aw_held_;
  bool w_held_ = false, w_last_ = false;
  std::vector<uint8_t> w_data_;
  bool r_shown_ = false, b_shown_ = false;
  bool fail_read_ = false, fail_write_ = false;
};

}  // namespace cni::tb
