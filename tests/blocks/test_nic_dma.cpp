// SPDX-License-Identifier: Apache-2.0
// rtl/nic/cni_nic_pcie_dma.sv (docs/nic.md, "Descriptor-ring DMA interface"): the NIC datapath
// with its descriptor-ring DMA host interface (tb/rtl_blocks.cmake), its AXI4 master answered by
// a host memory model (reads and write responses in order per ID after random delays, bursts of
// the two IDs interleaved, unmapped addresses answered SLVERR, every burst checked against the
// 4 KiB rule) and its registers driven through the AXI4-Lite slave as a PCIe hard IP would
// after the host's stores: frames sent from descriptor rings in host memory, frames received
// into posted buffers, ring wrap-around, short buffers, refused descriptors and registers, read
// errors, and MSI coalescing.
#include <algorithm>
#include <array>
#include <deque>
#include <map>
#include <vector>

#include "Vcni_nic_pcie_dma_r12.h"
#include "block_bench.hpp"
#include "nic_mac_bench.hpp"

namespace cni::tb::blocks {

struct NicPcieDma_r12 {
  using M = Vcni_nic_pcie_dma_r12;
  static constexpr const char* kName = "r12";
  static constexpr unsigned kBytes = CNI_BLK_nic_pcie_dma_r12_Bytes;
  static constexpr unsigned kRingW = CNI_BLK_nic_pcie_dma_r12_RingW;
  static constexpr unsigned kMax = CNI_BLK_nic_pcie_dma_r12_MaxBytes;
};

namespace {

constexpr unsigned kB = NicPcieDma_r12::kBytes;
constexpr unsigned kOkay = 0, kSlvErr = 2;
enum Reg : unsigned {
  TxBase = 0,
  TxLog2,
  TxTail,
  TxHead,
  RxBase,
  RxLog2,
  RxTail,
  RxHead,
  Irq,
  Errors,
  Geometry
};
// Host memory the model answers for; beyond it, SLVERR.
constexpr uint64_t kMemBase = 0x1'0000'0000, kMemEnd = kMemBase + (16u << 20);
constexpr uint64_t kTxRing = kMemBase, kRxRing = kMemBase + 0x1000;
constexpr uint64_t kBufs = kMemBase + 0x10'0000;  // buffers: 16 KiB apart, from here

using Bytes = std::vector<uint8_t>;

class NicDmaBench : public BlockBench<NicPcieDma_r12> {
 protected:
  struct Burst {
    bool id = false;
    uint64_t addr = 0;
    unsigned beats = 0, done = 0;
    uint64_t due = 0;
  };
  struct Write {
    bool id = false;
    uint64_t addr = 0;
    unsigned beats = 0, got = 0;
    bool err = false;
    std::vector<std::pair<uint64_t, uint8_t>> bytes;  // written when the response is sent
  };
  struct WBeat {
    Bits data;
    uint64_t strb = 0;
    bool last = false;
  };
  // What a channel offered and the slave did not take, to be offered unchanged.
  struct Offer {
    bool on = false;
    uint64_t a = 0, b = 0, c = 0;
  };
  void hold(Offer& o, bool valid, bool ready, uint64_t a, uint64_t b, uint64_t c,
            const char* what) {
    if (o.on) {
      EXPECT_TRUE(valid) << what << " withdrawn before it was taken";
      EXPECT_TRUE(o.a == a && o.b == b && o.c == c) << what << " changed before it was taken";
    }
    o = Offer{valid && !ready, a, b, c};
  }

  Bytes frame(unsigned n) {
    Bytes f(n);
    for (auto& b : f) b = static_cast<uint8_t>(rng_());
    return f;
  }
  static bool mapped(uint64_t a) { return a >= kMemBase && a < kMemEnd; }
  uint8_t& mem(uint64_t a) { return mem_[a]; }
  void mem_write(uint64_t a, const Bytes& b) {
    for (size_t i = 0; i < b.size(); ++i) mem_[a + i] = b[i];
  }
  Bytes mem_read(uint64_t a, size_t n) {
    Bytes b(n);
    for (size_t i = 0; i < n; ++i) b[i] = mem_[a + i];
    return b;
  }
  // A descriptor at `at`: address, length, flags.
  void put_desc(uint64_t at, uint64_t addr, uint16_t len, uint16_t flags = 0) {
    Bytes d(16, 0);
    for (unsigned i = 0; i < 8; ++i) d[i] = static_cast<uint8_t>(addr >> (8 * i));
    d[8] = static_cast<uint8_t>(len);
    d[9] = static_cast<uint8_t>(len >> 8);
    d[10] = static_cast<uint8_t>(flags);
    d[11] = static_cast<uint8_t>(flags >> 8);
    mem_write(at, d);
  }
  struct Desc {
    uint64_t addr;
    unsigned len, flags;
  };
  Desc get_desc(uint64_t at) {
    const Bytes d = mem_read(at, 16);
    Desc r{0, 0, 0};
    for (unsigned i = 0; i < 8; ++i) r.addr |= uint64_t{d[i]} << (8 * i);
    r.len = d[8] | (d[9] << 8);
    r.flags = d[10] | (d[11] << 8);
    return r;
  }

  void cycle() {
    M& m = *m_;
    ++now_;
    mac.drive(m, !chance(mac_tx_stall));
    // registers
    m.s_axil_awvalid_i = reg_w_pending;
    m.s_axil_wvalid_i = reg_w_pending;
    m.s_axil_awaddr_i = reg_w_addr;
    m.s_axil_wdata_i = reg_w_data;
    m.s_axil_wstrb_i = reg_w_strb;
    m.s_axil_bready_i = 1;
    m.s_axil_arvalid_i = reg_r_pending;
    m.s_axil_araddr_i = reg_r_addr;
    m.s_axil_rready_i = 1;
    // DMA reads: a burst once presented runs to its end (AXI holds a presented beat); a new one
    // is the oldest due burst of a randomly chosen ID.
    m.m_axi_arready_i = !chance(axi_stall);
    Burst* rb = rb_hold_;
    if (!rb) {
      const unsigned first = chance(0.5) ? 1 : 0;
      for (unsigned k = 0; k < 2 && !rb; ++k) {
        auto& q = rd_[(first + k) % 2];
        if (!q.empty() && q.front().due <= now_) rb = &q.front();
      }
    }
    m.m_axi_rvalid_i = rb != nullptr && (r_shown_ || !chance(axi_stall));
    if (rb) {
      const uint64_t a = rb->addr + uint64_t{rb->done} * kB;
      Bits d(kB / 8, 0);
      for (unsigned i = 0; i < kB; ++i) d[i / 8] |= uint64_t{mem(a + i)} << (8 * (i % 8));
      put(m.m_axi_rdata_i, 0, kB * 8, d);
      m.m_axi_rid_i = rb->id;
      m.m_axi_rresp_i = mapped(a) && !(fail_read_at && a == fail_read_at) ? kOkay : kSlvErr;
      m.m_axi_rlast_i = rb->done + 1 == rb->beats;
    }
    m.m_axi_awready_i = !chance(axi_stall);
    m.m_axi_wready_i = !chance(axi_stall);
    m.m_axi_bvalid_i = !bq_.empty() && bq_.front().first <= now_;
    if (!bq_.empty()) {
      m.m_axi_bid_i = bq_.front().second.id;
      m.m_axi_bresp_i = bq_.front().second.err ? kSlvErr : kOkay;
    }
    m.msi_ready_i = !chance(axi_stall);
    settle();
    mac.sample(m);
    if (m.s_axil_awvalid_i && m.s_axil_awready_o) reg_w_pending = false;
    if (m.s_axil_bvalid_o && m.s_axil_bready_i) reg_b = static_cast<int>(m.s_axil_bresp_o);
    if (m.s_axil_arvalid_i && m.s_axil_arready_o) reg_r_pending = false;
    if (m.s_axil_rvalid_o && m.s_axil_rready_i) {
      reg_r = m.s_axil_rdata_o;
      reg_rresp = static_cast<int>(m.s_axil_rresp_o);
    }
    if (m.m_axi_arvalid_o && m.m_axi_arready_i) {
      Burst b{m.m_axi_arid_o != 0, m.m_axi_araddr_o, m.m_axi_arlen_o + 1u, 0, now_ + pick(latency)};
      check_burst(b.addr, b.beats);
      rd_[b.id].push_back(b);
    }
    if (m.m_axi_rvalid_i) rb_hold_ = rb;
    r_shown_ = m.m_axi_rvalid_i && !m.m_axi_rready_o;
    if (m.m_axi_rvalid_i && m.m_axi_rready_o) {
      if (++rb->done == rb->beats) {
        rd_[rb->id].pop_front();
        rb_hold_ = nullptr;
      }
    }
    hold(ar_offer_, m.m_axi_arvalid_o, m.m_axi_arready_i, m.m_axi_araddr_o, m.m_axi_arid_o,
         m.m_axi_arlen_o, "a read address");
    hold(aw_offer_, m.m_axi_awvalid_o, m.m_axi_awready_i, m.m_axi_awaddr_o, m.m_axi_awid_o,
         m.m_axi_awlen_o, "a write address");
    hold(msi_offer_, m.msi_valid_o, m.msi_ready_i, m.msi_vec_o, 0, 0, "an MSI request");
    if (m.m_axi_awvalid_o && m.m_axi_awready_i) {
      wq_.push_back({m.m_axi_awid_o != 0, m.m_axi_awaddr_o, m.m_axi_awlen_o + 1u, 0, false, {}});
      check_burst(wq_.back().addr, wq_.back().beats);
      ++bursts_w;
    }
    // Data may come before its address (AXI): beats wait for the address of their burst.
    if (m.m_axi_wvalid_o && m.m_axi_wready_i) {
      wbeats_.push_back({get(m.m_axi_wdata_o, 0, kB * 8), m.m_axi_wstrb_o, m.m_axi_wlast_o != 0});
    }
    while (!wq_.empty() && !wbeats_.empty()) {
      Write& w = wq_.front();
      const WBeat b = wbeats_.front();
      wbeats_.pop_front();
      const uint64_t a = w.addr + uint64_t{w.got} * kB;
      for (unsigned i = 0; i < kB; ++i) {
        if ((b.strb >> i) & 1) {
          if (mapped(a + i)) {
            w.bytes.push_back({a + i, static_cast<uint8_t>(b.data[i / 8] >> (8 * (i % 8)))});
          } else {
            w.err = true;
          }
        }
      }
      ++w.got;
      EXPECT_EQ(b.last, w.got == w.beats) << "WLAST out of place";
      if (w.got == w.beats) {
        bq_.push_back({now_ + pick(latency), w});
        wq_.pop_front();
      }
    }
    if (m.m_axi_bvalid_i && m.m_axi_bready_o) {
      for (const auto& [a, v] : bq_.front().second.bytes) mem(a) = v;  // performed, then answered
      bq_.pop_front();
    }
    if (m.msi_valid_o && m.msi_ready_i) ++msi[m.msi_vec_o];
    tick();
  }
  // Every burst within one 4 KiB page (AXI's rule, which PCIe's matches).
  void check_burst(uint64_t addr, unsigned beats) {
    EXPECT_EQ(addr % kB, 0u) << "a burst not beat aligned";
    EXPECT_LE(addr % 4096 + uint64_t{beats} * kB, 4096u) << "a burst crosses 4 KiB at " << addr;
  }
  void run(const std::function<bool()>& done, uint64_t limit = 400000) {
    for (uint64_t c = 0; c < limit && !done(); ++c) cycle();
    ASSERT_TRUE(done()) << "no progress in " << limit << " cycles";
  }
  unsigned wreg(unsigned i, uint64_t v, uint8_t strb = 0xFF, unsigned off = 0) {
    reg_w_addr = static_cast<uint8_t>(8 * i + off);
    reg_w_data = v;
    reg_w_strb = strb;
    reg_w_pending = true;
    reg_b = -1;
    run([&] { return reg_b >= 0; });
    return static_cast<unsigned>(reg_b);
  }
  uint64_t rreg(unsigned i) {
    reg_r_addr = static_cast<uint8_t>(8 * i);
    reg_r_pending = true;
    reg_rresp = -1;
    run([&] { return reg_rresp >= 0; });
    EXPECT_EQ(reg_rresp, int(kOkay)) << "register " << i;
    return reg_r;
  }
  void rings(unsigned tx_log2, unsigned rx_log2) {
    EXPECT_EQ(wreg(TxBase, kTxRing), kOkay);
    EXPECT_EQ(wreg(TxLog2, tx_log2), kOkay);
    EXPECT_EQ(wreg(RxBase, kRxRing), kOkay);
    EXPECT_EQ(wreg(RxLog2, rx_log2), kOkay);
  }

  std::map<uint64_t, uint8_t> mem_;
  uint64_t now_ = 0;
  std::deque<Burst> rd_[2];
  Burst* rb_hold_ = nullptr;
  bool r_shown_ = false;  // a read beat presented and not taken: presented again
  std::deque<Write> wq_;
  std::deque<WBeat> wbeats_;
  Offer ar_offer_, aw_offer_, msi_offer_;
  std::deque<std::pair<uint64_t, Write>> bq_;
  unsigned latency = 20;
  double axi_stall = 0.0, mac_tx_stall = 0.0;
  uint64_t fail_read_at = 0;
  NicMacStreams<kB> mac;
  bool reg_w_pending = false, reg_r_pending = false;
  uint8_t reg_w_addr = 0, reg_r_addr = 0, reg_w_strb = 0xFF;
  uint64_t reg_w_data = 0, reg_r = 0;
  int reg_b = -1, reg_rresp = -1;
  unsigned msi[2] = {0, 0};
  uint64_t bursts_w = 0;
};

}  // namespace

TEST_F(NicDmaBench, RefusedRegisterWritesChangeNothingAndAreCounted) {
  reset();
  const uint64_t g = rreg(Geometry);
  EXPECT_EQ(g & 0xFFFF, kB);
  EXPECT_EQ((g >> 16) & 0xFFFF, NicPcieDma_r12::kRingW);
  EXPECT_EQ((g >> 32) & 0xFFFF, NicPcieDma_r12::kMax);
  rings(4, 3);
  EXPECT_EQ(wreg(TxBase, kTxRing + 8), kSlvErr) << "a ring not 16-byte aligned";
  EXPECT_EQ(wreg(TxLog2, NicPcieDma_r12::kRingW + 1), kSlvErr) << "a ring too large";
  EXPECT_EQ(wreg(TxTail, 17), kSlvErr) << "more descriptors than the ring holds";
  EXPECT_EQ(wreg(RxTail, 3, 0x0F), kSlvErr) << "part of a word";
  EXPECT_EQ(wreg(RxTail, 3, 0xFF, 4), kSlvErr) << "an unaligned word";
  EXPECT_EQ(wreg(TxHead, 1), kSlvErr) << "a read-only register";
  EXPECT_EQ(wreg(20, 1), kSlvErr) << "beyond the registers";
  EXPECT_EQ(wreg(RxBase, uint64_t{1} << 60), kSlvErr) << "an address beyond AddrW";
  EXPECT_EQ(rreg(TxBase), kTxRing);
  EXPECT_EQ(rreg(TxLog2), 4u);
  EXPECT_EQ(rreg(TxTail), 0u);
  EXPECT_EQ(rreg(RxTail), 0u);
  EXPECT_EQ(rreg(RxBase), kRxRing);
  EXPECT_EQ(rreg(Errors) >> 48, 8u) << "refused register writes";
}

// Frames of every kind of length, their buffers at offsets that put bursts across 4 KiB pages,
// sent from a 16-entry ring 40 times around its end: they leave on the MAC in order, each
// descriptor written back with DONE and its length, TX_HEAD counting them.
TEST_F(NicDmaBench, FramesLeaveFromTheRingInOrderAndDescriptorsAreWrittenBack) {
  reset();
  rings(4, 3);
  axi_stall = 0.2;
  mac_tx_stall = 0.2;
  std::vector<Bytes> sent;
  for (unsigned n = 0; n < 40; ++n) {
    const unsigned len = n == 0   ? 60
                         : n == 1 ? NicPcieDma_r12::kMax
                         : n == 2 ? 61
                                  : 60 + pick(3000);
    sent.push_back(frame(len));
    const uint64_t buf = kBufs + (n % 16) * 0x4000 + 64 * pick(64);
    while (n - rreg(TxHead) >= 16) cycle();
    mem_write(buf, sent.back());
    put_desc(kTxRing + 16 * (n % 16), buf, static_cast<uint16_t>(len));
    EXPECT_EQ(wreg(TxTail, n + 1), kOkay);
  }
  run([&] { return mac.tx.size() == sent.size() && rreg(TxHead) == sent.size(); });
  EXPECT_TRUE(mac.tx == sent);
  for (unsigned e = 0; e < 16; ++e) {
    const Desc d = get_desc(kTxRing + 16 * e);
    EXPECT_EQ(d.flags, 1u) << "entry " << e << ": DONE, no error";
    EXPECT_EQ(d.len, sent[e + 16 * ((sent.size() - 1 - e) / 16)].size()) << "entry " << e;
  }
  EXPECT_EQ(rreg(Errors), 0u);
}

// Buffers posted ahead (8 in the ring, re-posted as the host takes frames) receive 30 frames in
// order; each descriptor comes back with DONE and the frame's length, the bytes past it in the
// buffer untouched.
TEST_F(NicDmaBench, FramesLandInPostedBuffersInOrder) {
  reset();
  rings(4, 3);
  axi_stall = 0.2;
  constexpr uint64_t kBuf = 0x2800;  // 10 KiB buffers at odd 4 KiB offsets
  auto buf = [&](unsigned n) { return kBufs + (n % 8) * 0x4000 + 0x1C0; };
  for (unsigned n = 0; n < 8; ++n) {
    mem_write(buf(n), Bytes(kBuf, 0xEE));
    put_desc(kRxRing + 16 * n, buf(n), kBuf);
  }
  EXPECT_EQ(wreg(RxTail, 8), kOkay);
  std::vector<Bytes> sent;
  for (unsigned n = 0; n < 30; ++n) {
    sent.push_back(frame(n == 0 ? 60 : n == 1 ? NicPcieDma_r12::kMax : 60 + pick(4000)));
  }
  // The MAC has no flow control: frames come at most three ahead of the host, which the
  // datapath's 16 KiB buffer holds whatever their lengths (its overflow drops are its own tests').
  unsigned in = 0;
  for (unsigned n = 0; n < sent.size(); ++n) {
    while (in < sent.size() && in < n + 3) mac.receive(sent[in++]);
    const uint64_t at = kRxRing + 16 * (n % 8);
    run([&] { return (get_desc(at).flags & 1) != 0; });
    const Desc d = get_desc(at);
    EXPECT_EQ(d.flags, 1u) << "frame " << n;
    ASSERT_EQ(d.len, sent[n].size()) << "frame " << n;
    EXPECT_EQ(mem_read(buf(n), d.len), sent[n]) << "frame " << n;
    EXPECT_EQ(mem_read(buf(n) + d.len, kBuf - d.len), Bytes(kBuf - d.len, 0xEE))
        << "frame " << n << ": written past the frame";
    mem_write(buf(n), Bytes(kBuf, 0xEE));
    put_desc(at, buf(n), kBuf);
    EXPECT_EQ(wreg(RxTail, n + 9), kOkay);
  }
  EXPECT_EQ(rreg(RxHead), sent.size());
  EXPECT_EQ(rreg(Errors), 0u);
  EXPECT_EQ(msi[0] + msi[1], 0u) << "no MSI while disabled";
}

// A frame longer than its buffer fills the buffer, is flagged TRUNC and counted; nothing past
// the buffer is written; the next frame takes the next buffer.
TEST_F(NicDmaBench, AShortBufferTakesWhatFitsAndIsFlagged) {
  reset();
  rings(4, 3);
  mem_write(kBufs, Bytes(512, 0xEE));
  put_desc(kRxRing, kBufs, 100);
  put_desc(kRxRing + 16, kBufs + 0x4000, 2048);
  EXPECT_EQ(wreg(RxTail, 2), kOkay);
  const Bytes a = frame(300), b = frame(200);
  mac.receive(a);
  mac.receive(b);
  run([&] { return rreg(RxHead) == 2; });
  const Desc d = get_desc(kRxRing);
  EXPECT_EQ(d.flags, 1u | 4u) << "DONE and TRUNC";
  EXPECT_EQ(d.len, 100u);
  EXPECT_EQ(mem_read(kBufs, 100), Bytes(a.begin(), a.begin() + 100));
  EXPECT_EQ(mem_read(kBufs + 100, 412), Bytes(412, 0xEE)) << "written past the buffer";
  EXPECT_EQ(get_desc(kRxRing + 16).len, 200u);
  EXPECT_EQ(mem_read(kBufs + 0x4000, 200), b);
  EXPECT_EQ((rreg(Errors) >> 16) & 0xFFFF, 1u) << "receive errors";
}

// Descriptors the engine refuses (length 0, over MaxBytes, a frame not 64-byte aligned) and a
// frame whose read fails (SLVERR on a beat) are written back with ERR and counted; the failed
// frame leaves the datapath as an aborted frame, never on the MAC; the good ones after go out.
TEST_F(NicDmaBench, RefusedDescriptorsAndFailedReadsAreFlaggedAndNothingBadLeaves) {
  reset();
  rings(4, 3);
  const Bytes good = frame(500), bad = frame(700);
  mem_write(kBufs, good);
  mem_write(kBufs + 0x4000, bad);
  put_desc(kTxRing + 0, kBufs, 0);
  put_desc(kTxRing + 16, kBufs, NicPcieDma_r12::kMax + 1);
  put_desc(kTxRing + 32, kBufs + 8, 100);
  put_desc(kTxRing + 48, kBufs + 0x4000, 700);
  put_desc(kTxRing + 64, kBufs, 500);
  fail_read_at = kBufs + 0x4000 + 128;
  EXPECT_EQ(wreg(TxTail, 5), kOkay);
  run([&] { return rreg(TxHead) == 5; });
  for (unsigned e = 0; e < 4; ++e) EXPECT_EQ(get_desc(kTxRing + 16 * e).flags, 3u) << e;
  EXPECT_EQ(get_desc(kTxRing + 64).flags, 1u);
  run([&] { return mac.tx.size() == 1; });
  for (unsigned c = 0; c < 2000; ++c) cycle();
  ASSERT_EQ(mac.tx.size(), 1u);
  EXPECT_EQ(mac.tx[0], good);
  const uint64_t e = rreg(Errors);
  EXPECT_EQ(e & 0xFFFF, 4u) << "transmit errors";
  EXPECT_EQ((e >> 32) & 0xFFFF, 1u) << "AXI error responses";
}

// MSI: one per frame on vector 0 for transmit (coalescing 1), one per four frames on vector 1
// for receive.
TEST_F(NicDmaBench, InterruptsAreCoalescedPerDirection) {
  reset();
  rings(4, 4);
  axi_stall = 0.3;
  EXPECT_EQ(wreg(Irq, 0x3 | (4u << 8)), kOkay);
  EXPECT_EQ(wreg(Irq, 0x3 | (1u << 8)), kOkay);
  EXPECT_EQ(rreg(Irq), 0x3u | (1u << 8));
  for (unsigned n = 0; n < 5; ++n) {
    mem_write(kBufs + n * 0x4000, frame(100));
    put_desc(kTxRing + 16 * n, kBufs + n * 0x4000, 100);
  }
  EXPECT_EQ(wreg(TxTail, 5), kOkay);
  run([&] { return rreg(TxHead) == 5; });
  run([&] { return msi[0] == 5; });
  EXPECT_EQ(wreg(Irq, 0x2 | (4u << 8)), kOkay);
  for (unsigned n = 0; n < 9; ++n) put_desc(kRxRing + 16 * n, kBufs + 0x20'0000 + n * 0x4000, 2048);
  EXPECT_EQ(wreg(RxTail, 9), kOkay);
  for (unsigned n = 0; n < 9; ++n) mac.receive(frame(64));
  run([&] { return rreg(RxHead) == 9; });
  for (unsigned c = 0; c < 200; ++c) cycle();
  EXPECT_EQ(msi[1], 2u) << "nine frames, one MSI per four";
  EXPECT_EQ(msi[0], 5u);
}

// Both engines at once: frames sent from the transmit ring come back through a MAC loopback into
// the posted receive buffers while the next ones are read, every channel stalling at random, an
// MSI per frame each way (the requests stalling too): every frame intact and in order, every
// address and MSI request held unchanged until taken (the memory model checks), an MSI per
// frame on each vector, none lost.
TEST_F(NicDmaBench, BothWaysAtOnceThroughALoopback) {
  reset();
  rings(3, 3);
  axi_stall = 0.4;
  mac.loopback = true;
  EXPECT_EQ(wreg(Irq, 0x3 | (1u << 8)), kOkay);
  auto rx_buf = [&](unsigned n) { return kBufs + 0x40'0000 + (n % 8) * 0x4000; };
  for (unsigned n = 0; n < 8; ++n) put_desc(kRxRing + 16 * n, rx_buf(n), 0x4000);
  EXPECT_EQ(wreg(RxTail, 8), kOkay);
  std::vector<Bytes> sent;
  unsigned got = 0;
  for (unsigned n = 0; n < 24; ++n) {
    sent.push_back(frame(n % 3 == 0 ? 60 : 60 + pick(2500)));
    const uint64_t buf = kBufs + (n % 8) * 0x4000 + 64 * pick(32);
    for (unsigned spin = 0; n - rreg(TxHead) >= 8 || n >= got + 6; ++spin) {
      ASSERT_LT(spin, 200000u) << "no progress at frame " << n;
      // take the received frames meanwhile, re-posting their buffers
      const uint64_t at = kRxRing + 16 * (got % 8);
      if (get_desc(at).flags & 1) {
        EXPECT_EQ(mem_read(rx_buf(got), get_desc(at).len), sent[got]) << "frame " << got;
        put_desc(at, rx_buf(got), 0x4000);
        EXPECT_EQ(wreg(RxTail, got + 9), kOkay);
        ++got;
      } else {
        cycle();
      }
    }
    mem_write(buf, sent.back());
    put_desc(kTxRing + 16 * (n % 8), buf, static_cast<uint16_t>(sent.back().size()));
    EXPECT_EQ(wreg(TxTail, n + 1), kOkay);
  }
  while (got < sent.size()) {
    const uint64_t at = kRxRing + 16 * (got % 8);
    run([&] { return (get_desc(at).flags & 1) != 0; });
    EXPECT_EQ(mem_read(rx_buf(got), get_desc(at).len), sent[got]) << "frame " << got;
    put_desc(at, rx_buf(got), 0x4000);
    EXPECT_EQ(wreg(RxTail, got + 9), kOkay);
    ++got;
  }
  run([&] { return msi[0] == sent.size() && msi[1] == sent.size(); });
  for (unsigned c = 0; c < 500; ++c) cycle();
  EXPECT_EQ(msi[0], sent.size());
  EXPECT_EQ(msi[1], sent.size());
  EXPECT_TRUE(mac.tx == sent);
  EXPECT_EQ(rreg(Errors), 0u);
}

}  // namespace cni::tb::blocks
