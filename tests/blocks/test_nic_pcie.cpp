// SPDX-License-Identifier: Apache-2.0
// rtl/nic/cni_nic_pcie.sv (docs/nic.md, "PCIe PIO interface"): the NIC datapath with its PCIe
// PIO host interface, four 16 KiB slots each way (tb/rtl_blocks.cmake), driven through its AXI4
// slave as a PCIe hard IP would after the host's loads and stores: frames received from the MAC
// read out of the receive ring, frames written into the transmit ring and posted, loopback
// traffic, and every access the interface refuses.
#include <algorithm>
#include <deque>
#include <vector>

#include "Vcni_nic_pcie_s4.h"
#include "block_bench.hpp"
#include "nic_mac_bench.hpp"

namespace cni::tb::blocks {

struct NicPcie_s4 {
  using M = Vcni_nic_pcie_s4;
  static constexpr const char* kName = "s4";
  static constexpr unsigned kBytes = CNI_BLK_nic_pcie_s4_Bytes;
  static constexpr unsigned kSlots = CNI_BLK_nic_pcie_s4_Slots;
  static constexpr unsigned kSlotBeats = CNI_BLK_nic_pcie_s4_SlotBeats;
  static constexpr unsigned kMax = CNI_BLK_nic_pcie_s4_MaxBytes;
};

namespace {

constexpr unsigned kB = NicPcie_s4::kBytes;
constexpr uint64_t kRing = uint64_t{NicPcie_s4::kSlots} * NicPcie_s4::kSlotBeats * kB;
constexpr uint64_t kSlot = uint64_t{NicPcie_s4::kSlotBeats} * kB;
constexpr uint64_t kRegs = 2 * kRing;
enum Reg : unsigned { RxHead = 0, RxTail = 1, TxPost = 2, TxTail = 3, Geometry = 4, Errors = 5 };
constexpr unsigned kOkay = 0, kSlvErr = 2;

using Bytes = std::vector<uint8_t>;

struct WBeat {
  Bits data = Bits(kB / 8, 0);
  uint64_t strb = 0;
};

class NicPcieBench : public BlockBench<NicPcie_s4> {
 protected:
  Bytes frame(unsigned n) {
    Bytes f(n);
    for (auto& b : f) b = static_cast<uint8_t>(rng_());
    return f;
  }
  // A MAC receive frame: its beats queue on mac_rx, one a cycle.
  // One cycle: the AXI channels of the transaction under way, the MAC's streams.
  void cycle() {
    M& m = *m_;
    mac.drive(m, mac_tx_stall == 0.0 || !chance(mac_tx_stall));
    m.s_axi_awvalid_i = aw_pending;
    m.s_axi_awaddr_i = static_cast<uint32_t>(w_addr);
    m.s_axi_awlen_i = static_cast<uint8_t>(w_len);
    m.s_axi_awsize_i = w_size;
    m.s_axi_awburst_i = w_burst;
    m.s_axi_wvalid_i = !aw_pending && !w_beats.empty();
    if (!w_beats.empty()) {
      put(m.s_axi_wdata_i, 0, kB * 8, w_beats.front().data);
      m.s_axi_wstrb_i = w_beats.front().strb;
      m.s_axi_wlast_i = w_beats.size() == 1 ? !w_bad_last : w_bad_last && w_beats.size() == 2;
    }
    m.s_axi_bready_i = 1;
    m.s_axi_arvalid_i = ar_pending;
    m.s_axi_araddr_i = static_cast<uint32_t>(r_addr);
    m.s_axi_arlen_i = static_cast<uint8_t>(r_len);
    m.s_axi_arsize_i = 6;
    m.s_axi_arburst_i = 1;
    m.s_axi_rready_i = rready_stall == 0.0 || !chance(rready_stall);
    settle();
    mac.sample(m);
    if (m.s_axi_awvalid_i && m.s_axi_awready_o) aw_pending = false;
    if (m.s_axi_wvalid_i && m.s_axi_wready_o) w_beats.pop_front();
    if (m.s_axi_bvalid_o && m.s_axi_bready_i) b_resp = m.s_axi_bresp_o;
    if (m.s_axi_arvalid_i && m.s_axi_arready_o) ar_pending = false;
    if (m.s_axi_rvalid_o && m.s_axi_rready_i) {
      r_data.push_back(get(m.s_axi_rdata_o, 0, kB * 8));
      r_resp = std::max(r_resp, static_cast<int>(m.s_axi_rresp_o));
      if (m.s_axi_rlast_o) r_done = true;
    }
    tick();
  }
  void run(const std::function<bool()>& done, uint64_t limit = 200000) {
    for (uint64_t c = 0; c < limit && !done(); ++c) cycle();
    ASSERT_TRUE(done()) << "no progress in " << limit << " cycles";
  }
  // A write burst of `bytes` at `addr` (strobes for those bytes only); returns BRESP.
  unsigned write(uint64_t addr, const Bytes& bytes, uint8_t size = 6, uint8_t burst = 1,
                 bool bad_last = false) {
    const uint64_t base = addr - addr % kB;
    const uint64_t end = addr + bytes.size();
    w_beats.clear();
    for (uint64_t a = base; a < end; a += kB) {
      WBeat b;
      for (unsigned i = 0; i < kB; ++i) {
        if (a + i >= addr && a + i < end) {
          b.data[i / 8] |= uint64_t{bytes[a + i - addr]} << (8 * (i % 8));
          b.strb |= uint64_t{1} << i;
        }
      }
      w_beats.push_back(b);
    }
    w_addr = base;
    w_len = static_cast<unsigned>(w_beats.size() - 1);
    w_size = size;
    w_burst = burst;
    w_bad_last = bad_last && w_beats.size() >= 2;
    aw_pending = true;
    b_resp = -1;
    run([&] { return b_resp >= 0; });
    return static_cast<unsigned>(b_resp);
  }
  unsigned write64(uint64_t addr, uint64_t v) {
    Bytes b(8);
    for (unsigned i = 0; i < 8; ++i) b[i] = static_cast<uint8_t>(v >> (8 * i));
    return write(addr, b);
  }
  // A read burst of `beats` beats from `addr`; the data, and the worst RRESP in last_rresp.
  std::vector<Bits> read(uint64_t addr, unsigned beats) {
    r_addr = addr - addr % kB;
    r_len = beats - 1;
    r_data.clear();
    r_resp = 0;
    r_done = false;
    ar_pending = true;
    run([&] { return r_done; });
    last_rresp = static_cast<unsigned>(r_resp);
    return r_data;
  }
  uint64_t reg(unsigned i) { return read(kRegs, 1)[0][i]; }
  uint64_t rx_slot(unsigned i) { return read(kRegs + kB, 1)[0][i]; }
  // The host's receive of frame n: poll its slot, read it, free it.
  Bytes receive(uint64_t n) {
    const unsigned s = static_cast<unsigned>(n % NicPcie_s4::kSlots);
    uint64_t w = 0;
    for (unsigned polls = 0; polls < 10000; ++polls) {
      w = rx_slot(s);
      if ((w & 0xFFFFFFFF) == n + 1) break;
    }
    EXPECT_EQ(w & 0xFFFFFFFF, n + 1) << "frame " << n << " never arrived";
    const unsigned len = static_cast<unsigned>(w >> 32);
    const auto beats = read(s * kSlot, (len + kB - 1) / kB);
    Bytes f(len);
    for (unsigned i = 0; i < len; ++i)
      f[i] = static_cast<uint8_t>(beats[i / kB][(i % kB) / 8] >> (8 * (i % 8)));
    EXPECT_EQ(write64(kRegs + 8 * RxTail, n + 1), kOkay);
    return f;
  }
  // The host's transmit of frame n: into its slot, then the post.
  void send(uint64_t n, const Bytes& f) {
    const uint64_t slot = kRing + (n % NicPcie_s4::kSlots) * kSlot;
    // Combined 64-byte writes as the root complex makes them, the first at an odd offset.
    size_t at = 0;
    const size_t first = std::min<size_t>(f.size(), 40);
    EXPECT_EQ(write(slot, Bytes(f.begin(), f.begin() + first)), kOkay);
    at = first;
    while (at < f.size()) {
      const size_t n2 = std::min<size_t>(f.size() - at, 4 * kB);
      EXPECT_EQ(write(slot + at, Bytes(f.begin() + at, f.begin() + at + n2)), kOkay);
      at += n2;
    }
    EXPECT_EQ(write64(kRegs + 8 * TxPost, f.size()), kOkay);
  }

  NicMacStreams<kB> mac;
  double mac_tx_stall = 0.0, rready_stall = 0.0;
  bool aw_pending = false, w_bad_last = false, ar_pending = false, r_done = false;
  uint64_t w_addr = 0, r_addr = 0;
  unsigned w_len = 0, r_len = 0;
  uint8_t w_size = 6, w_burst = 1;
  std::deque<WBeat> w_beats;
  int b_resp = -1, r_resp = 0;
  unsigned last_rresp = 0;
  std::vector<Bits> r_data;
};

}  // namespace

TEST_F(NicPcieBench, TheGeometryRegisterDescribesTheRings) {
  reset();
  const uint64_t g = reg(Geometry);
  EXPECT_EQ(g & 0xFFFF, NicPcie_s4::kSlots);
  EXPECT_EQ((g >> 16) & 0xFFFF, NicPcie_s4::kSlotBeats);
  EXPECT_EQ((g >> 32) & 0xFFFF, kB);
  EXPECT_EQ(reg(RxHead), 0u);
  EXPECT_EQ(last_rresp, kOkay);
}

// Frames from the MAC are read out of the receive ring in order; the ring holds Slots of them,
// the datapath's buffer the next ones until the host frees slots.
TEST_F(NicPcieBench, ReceivedFramesAreReadOutOfTheRingInOrder) {
  reset();
  std::vector<Bytes> sent;
  for (unsigned i = 0; i < 12; ++i) {
    sent.push_back(frame(i == 0 ? 60 : i == 1 ? NicPcie_s4::kMax : 60 + pick(3000)));
    mac.receive(sent.back());
  }
  run([&] { return mac.rx_empty(); });
  for (unsigned c = 0; c < 500; ++c) cycle();
  EXPECT_EQ(reg(RxHead), NicPcie_s4::kSlots) << "the ring holds Slots frames until freed";
  rready_stall = 0.3;
  for (unsigned n = 0; n < sent.size(); ++n) EXPECT_EQ(receive(n), sent[n]) << "frame " << n;
  EXPECT_EQ(reg(RxHead), sent.size());
  EXPECT_EQ(reg(Errors), 0u);
}

// Frames written into the transmit ring (in bursts at odd offsets) and posted leave on the MAC
// in order; posting more than Slots before the MAC takes them is refused.
TEST_F(NicPcieBench, PostedFramesLeaveOnTheMacInOrder) {
  reset();
  std::vector<Bytes> sent;
  mac_tx_stall = 0.2;
  for (unsigned n = 0; n < 10; ++n) {
    sent.push_back(frame(n == 0 ? 60 : n == 1 ? NicPcie_s4::kMax : 60 + pick(2000)));
    while (n - reg(TxTail) >= NicPcie_s4::kSlots) cycle();  // a free slot
    send(n, sent.back());
  }
  run([&] { return mac.tx.size() == sent.size(); });
  EXPECT_TRUE(mac.tx == sent);
  EXPECT_EQ(reg(TxTail), sent.size());
  EXPECT_EQ(reg(Errors), 0u);
}

TEST_F(NicPcieBench, LoopbackTrafficBothWaysArrivesIntact) {
  reset();
  std::vector<Bytes> sent;
  uint64_t got = 0;
  for (unsigned n = 0; n < 40; ++n) {
    sent.push_back(frame(60 + pick(1500)));
    while (n - reg(TxTail) >= NicPcie_s4::kSlots) cycle();
    send(n, sent.back());
    // What left on the MAC comes back in (a loopback cable), and the host takes it.
    while (!mac.tx.empty()) {
      mac.receive(mac.tx.front());
      mac.tx.erase(mac.tx.begin());
    }
    while (got < n && reg(RxHead) > got) {
      EXPECT_EQ(receive(got), sent[got]);
      ++got;
    }
  }
  for (unsigned c = 0; c < 2000; ++c) {
    cycle();
    while (!mac.tx.empty()) {
      mac.receive(mac.tx.front());
      mac.tx.erase(mac.tx.begin());
    }
  }
  while (got < sent.size()) {
    EXPECT_EQ(receive(got), sent[got]);
    ++got;
  }
  EXPECT_EQ(reg(Errors), 0u);
}

// Everything the interface refuses: answered SLVERR, counted, and nothing changes.
TEST_F(NicPcieBench, RefusedAccessesAreAnsweredSlvErrCountedAndChangeNothing) {
  reset();
  unsigned want = 0;
  EXPECT_EQ(write(0, frame(64)), kSlvErr);  // the receive ring is read-only
  ++want;
  (void)read(kRing, 1);  // the transmit ring is write-only
  EXPECT_EQ(last_rresp, kSlvErr);
  ++want;
  Bytes half(4, 0xFF);
  EXPECT_EQ(write(kRegs + 8 * RxTail, half), kSlvErr);  // a register written in part
  ++want;
  EXPECT_EQ(write64(kRegs + 8 * RxHead, 5), kSlvErr);  // a read-only register
  ++want;
  EXPECT_EQ(write64(kRegs + 8 * RxTail, 1), kSlvErr);  // freeing a frame not received
  ++want;
  EXPECT_EQ(write64(kRegs + 8 * TxPost, 0), kSlvErr);  // an empty frame
  ++want;
  EXPECT_EQ(write64(kRegs + 8 * TxPost, NicPcie_s4::kMax + 1), kSlvErr);  // over the slot
  ++want;
  EXPECT_EQ(write(kRing, frame(128), 5), kSlvErr);  // a narrow burst
  ++want;
  EXPECT_EQ(write(kRing, frame(128), 6, 0), kSlvErr);  // a FIXED burst
  ++want;
  EXPECT_EQ(write(kRing, frame(192), 6, 1, true), kSlvErr);  // WLAST before AWLEN's last beat
  ++want;
  (void)read(3 * kRing, 1);  // beyond the registers
  EXPECT_EQ(last_rresp, kSlvErr);
  ++want;
  // Posting every slot, then one more, with the MAC holding everything back.
  mac_tx_stall = 1.0;
  for (unsigned n = 0; n < NicPcie_s4::kSlots; ++n)
    EXPECT_EQ(write64(kRegs + 8 * TxPost, 100), kOkay);
  for (unsigned c = 0; c < 2000; ++c) cycle();
  // The datapath's transmit buffer took some frames: post until every slot is held.
  while (reg(TxPost) - reg(TxTail) < NicPcie_s4::kSlots)
    EXPECT_EQ(write64(kRegs + 8 * TxPost, 100), kOkay);
  const uint64_t posted = reg(TxPost);
  EXPECT_EQ(write64(kRegs + 8 * TxPost, 100), kSlvErr);
  ++want;
  EXPECT_EQ(reg(TxPost), posted);
  EXPECT_EQ(reg(Errors), want);
  EXPECT_EQ(reg(RxHead), 0u);
  EXPECT_EQ(reg(RxTail), 0u);
}

// A store to RX_TAIL that frees a slot waits while a read of the receive ring is under way: the
// read of frame 0 returns frame 0, although frame 4 waits for its slot and the store came first.
TEST_F(NicPcieBench, FreeingASlotWaitsForAReadOfTheRingUnderWay) {
  reset();
  std::vector<Bytes> sent;
  for (unsigned i = 0; i < NicPcie_s4::kSlots + 1; ++i) {
    sent.push_back(frame(256));
    mac.receive(sent.back());
  }
  run([&] { return mac.rx_empty(); });
  for (unsigned c = 0; c < 200; ++c) cycle();
  ASSERT_EQ(reg(RxHead), NicPcie_s4::kSlots);
  // A read of slot 0's four beats, held after its first beat.
  rready_stall = 1.0;
  r_addr = 0;
  r_len = 3;
  r_data.clear();
  r_resp = 0;
  r_done = false;
  ar_pending = true;
  for (unsigned c = 0; c < 20; ++c) cycle();
  // RX_TAIL = 1 (frees slot 0) while the read is held: the write waits.
  Bytes tail(8, 0);
  tail[0] = 1;
  const uint64_t at = kRegs + 8 * RxTail;
  w_beats.clear();
  WBeat b;
  b.data[1] = 1;
  b.strb = uint64_t{0xFF} << 8;
  w_beats.push_back(b);
  w_addr = at - at % kB;
  w_len = 0;
  w_size = 6;
  w_burst = 1;
  w_bad_last = false;
  aw_pending = true;
  b_resp = -1;
  for (unsigned c = 0; c < 50; ++c) cycle();
  EXPECT_EQ(b_resp, -1) << "the store did not wait for the read";
  rready_stall = 0.0;
  run([&] { return r_done && b_resp >= 0; });
  EXPECT_EQ(static_cast<unsigned>(b_resp), kOkay);
  Bytes got;
  for (const Bits& beat : r_data) {
    for (unsigned i = 0; i < kB; ++i)
      got.push_back(static_cast<uint8_t>(beat[i / 8] >> (8 * (i % 8))));
  }
  EXPECT_TRUE(std::equal(sent[0].begin(), sent[0].end(), got.begin())) << "frame 0 overwritten";
  run([&] { return reg(RxHead) == NicPcie_s4::kSlots + 1; });
  EXPECT_EQ(receive(1), sent[1]);
}

// A refused beat changes nothing: a beat writing a read-only register and a good RX_TAIL value
// leaves RX_TAIL alone; in a transmit-ring burst whose WLAST comes early, the beat with it and
// any after it are not written (the beat before it is).
TEST_F(NicPcieBench, ARefusedBeatChangesNothing) {
  reset();
  mac.receive(frame(100));
  run([&] { return mac.rx_empty(); });
  for (unsigned c = 0; c < 100; ++c) cycle();
  ASSERT_EQ(reg(RxHead), 1u);
  Bytes two(16, 0);
  two[0] = 7;  // RX_HEAD (read-only)
  two[8] = 1;  // RX_TAIL = 1, a value it would take
  EXPECT_EQ(write(kRegs, two), kSlvErr);
  EXPECT_EQ(reg(RxTail), 0u);
  const Bytes f = frame(3 * kB);
  EXPECT_EQ(write(kRing, f, 6, 1, true), kSlvErr);  // WLAST on the second of three beats
  EXPECT_EQ(write64(kRegs + 8 * TxPost, 2 * kB), kOkay);
  run([&] { return mac.tx.size() == 1; });
  ASSERT_EQ(mac.tx[0].size(), 2 * kB);
  EXPECT_TRUE(std::equal(f.begin(), f.begin() + kB, mac.tx[0].begin()));
  EXPECT_FALSE(std::equal(f.begin() + kB, f.begin() + 2 * kB, mac.tx[0].begin() + kB))
      << "the beat with the early WLAST was written";
}

}  // namespace cni::tb::blocks
