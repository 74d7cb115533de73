// SPDX-License-Identifier: Apache-2.0
// rtl/mem/cni_mem_port.sv (docs/dram.md): the device-memory port, whole lines as AXI4 bursts,
// against the AXI4 slave of the DRAM model (tb/mem/axi_dram.hpp over sim::Dram), at 128-byte
// lines (two beats of the 512-bit bus) and 64-byte lines (one): every read returns the last write
// accepted before it, under stalls on every handshake and reads and writes of one line racing;
// a read behind a write of its line, and a write behind a read, wait for the other's answer; an
// idle read's latency is the DRAM's plus the port's fixed cycles; streamed reads keep the
// bus as busy as the slower of the bus and the DRAM allows; error responses reach the client and
// are counted.
#include <algorithm>
#include <deque>
#include <map>
#include <vector>

#include "Vcni_mem_port_l128.h"
#include "Vcni_mem_port_l64.h"
#include "block_bench.hpp"
#include "mem/axi_dram.hpp"

namespace cni::tb::blocks {

#define CNI_MEM_PORT_SET(set)                                                      \
  struct MemPort_##set {                                                           \
    using M = Vcni_mem_port_##set;                                                 \
    static constexpr const char* kName = #set;                                     \
    static constexpr unsigned kLine = CNI_BLK_mem_port_##set##_LineBytes;          \
    static constexpr unsigned kData = CNI_BLK_mem_port_##set##_DataBytes;          \
    static constexpr uint64_t kBase = 0x10000000; /* Base (tb/rtl_blocks.cmake) */ \
    static constexpr unsigned kLineIdxW = CNI_BLK_mem_port_##set##_LineIdxW;       \
    static constexpr unsigned kTagW = CNI_BLK_mem_port_##set##_TagW;               \
  };
CNI_MEM_PORT_SET(l128)
CNI_MEM_PORT_SET(l64)
#undef CNI_MEM_PORT_SET

namespace {

using Bytes = std::vector<uint8_t>;
constexpr sim::Time kPeriod = 3333;  // 300 MHz, the device's clock on enzian-eci

// DDR4-2400 on one 64-bit channel, the DRAM an FPGA board's controller drives (docs/dram.md).
sim::DramParams ddr4(uint64_t bytes) {
  sim::DramParams p;
  p.bytes = bytes;
  return p;
}

template <class S>
class MemPortBench : public BlockBench<S> {
 protected:
  using B = BlockBench<S>;
  using M = typename S::M;
  static constexpr unsigned kLine = S::kLine;
  static constexpr unsigned kLines = 1u << S::kLineIdxW;

  void SetUp() override {
    B::SetUp();
    make_slave(0.0, S::kBase + uint64_t{kLines} * kLine);
    idle_inputs();
    B::reset();
  }

  void make_slave(double stall, uint64_t dram_bytes) {
    dram_ = std::make_unique<sim::Dram>(ddr4(dram_bytes));
    AxiDramConfig c;
    c.data_bytes = S::kData;
    c.period = kPeriod;
    c.stall = stall;
    c.seed = B::seed_;
    slave_ = std::make_unique<AxiDramSlave<M>>(*dram_, c);
  }

  void idle_inputs() {
    auto& m = *B::m_;
    m.req_valid_i = 0;
    m.rd_ready_i = 1;
    m.wr_ready_i = 1;
  }

  Bytes line_bytes(unsigned tagged) {
    Bytes b(kLine);
    for (auto& x : b) x = static_cast<uint8_t>(B::rng_());
    b[0] = static_cast<uint8_t>(tagged);
    return b;
  }

  struct Answer {
    unsigned tag;
    Bytes data;
    bool err;
  };
  struct Req {
    bool we;
    unsigned line;
    Bytes data;
    unsigned beat = 0;                  // the first beat
    unsigned beats = kLine / S::kData;  // and how many (a whole line)
  };

  // One cycle: the client's request (if any) and readiness, the slave's outputs, the edge.
  // Returns whether the request was taken; answers taken at the edge are appended.
  bool cycle(const Req* r, bool rd_ready, bool wr_ready) {
    auto& m = *B::m_;
    m.req_valid_i = r != nullptr;
    if (r) {
      m.req_we_i = r->we;
      m.req_line_i = r->line;
      m.req_beat_i = r->beat;
      m.req_len_i = r->beats - 1;
      m.req_tag_i = next_tag_;
      port_bytes_in(m.req_wdata_i, r->data.data(), kLine);
    }
    m.rd_ready_i = rd_ready;
    m.wr_ready_i = wr_ready;
    B::settle();
    slave_->drive(m, B::cycle_);
    B::settle();
    const bool taken = r && m.req_ready_o;
    if (m.rd_valid_o && m.rd_ready_i) {
      Answer a{static_cast<unsigned>(m.rd_tag_o), Bytes(kLine), static_cast<bool>(m.rd_err_o)};
      port_bytes_out(m.rd_data_o, a.data.data(), kLine);
      reads_.push_back(std::move(a));
    }
    if (m.wr_valid_o && m.wr_ready_i) {
      writes_.push_back(
          Answer{static_cast<unsigned>(m.wr_tag_o), {}, static_cast<bool>(m.wr_err_o)});
    }
    for (unsigned i = 0; i < 4; ++i) cnt_[i] += (m.cnt_o >> i) & 1;
    ar_taken_ = m.m_axi_arvalid_o && m.m_axi_arready_i;
    aw_taken_ = m.m_axi_awvalid_o && m.m_axi_awready_i;
    slave_->edge(m, B::cycle_);
    B::tick();
    if (taken) next_tag_ = (next_tag_ + 1) % (1u << S::kTagW);
    return taken;
  }

  // Cycles until both answer streams hold `reads` and `writes` answers (bounded).
  void drain(size_t reads, size_t writes) {
    for (unsigned i = 0; i < 10000 && (reads_.size() < reads || writes_.size() < writes); ++i) {
      cycle(nullptr, true, true);
    }
    ASSERT_EQ(reads_.size(), reads);
    ASSERT_EQ(writes_.size(), writes);
  }

  void expect_clean() {
    for (const auto& v : slave_->violations()) ADD_FAILURE() << "AXI rule broken: " << v;
    EXPECT_TRUE(B::m_->idle_o);
    EXPECT_TRUE(slave_->idle());
  }

  std::unique_ptr<sim::Dram> dram_;
  std::unique_ptr<AxiDramSlave<M>> slave_;
  std::deque<Answer> reads_, writes_;
  unsigned next_tag_ = 0;
  uint64_t cnt_[4] = {};
  bool ar_taken_ = false, aw_taken_ = false;
};

using Sets = ::testing::Types<MemPort_l128, MemPort_l64>;
TYPED_TEST_SUITE(MemPortBench, Sets);

// Random reads and writes over eight lines (so that reads and writes of a line are often in
// flight together), stalls on the slave's every ready and valid and on the client's answers:
// every read answers, in order and with its tag, the last write accepted before it; the DRAM
// ends holding the last write of every line.
TYPED_TEST(MemPortBench, EveryReadReturnsTheLastWriteAcceptedBeforeIt) {
  this->make_slave(0.3, TypeParam::kBase + uint64_t{this->kLines} * TypeParam::kLine);
  std::map<unsigned, Bytes> ref;
  std::deque<std::pair<unsigned, Bytes>> want_r;
  std::deque<unsigned> want_w;
  size_t nr = 0, nw = 0;
  for (unsigned op = 0; op < 3000;) {
    typename TestFixture::Req r{this->chance(0.5), 5 + this->pick(8) * 33, {}};
    r.data = r.we ? this->line_bytes(op) : Bytes(TypeParam::kLine, 0);
    const unsigned tag = this->next_tag_;
    if (!this->cycle(&r, !this->chance(0.3), !this->chance(0.3))) continue;
    ++op;
    if (r.we) {
      ref[r.line] = r.data;
      want_w.push_back(tag);
      ++nw;
    } else {
      const auto it = ref.find(r.line);
      want_r.emplace_back(tag, it == ref.end() ? Bytes(TypeParam::kLine, 0) : it->second);
      ++nr;
    }
  }
  this->drain(nr, nw);
  for (size_t i = 0; i < nr; ++i) {
    ASSERT_EQ(this->reads_[i].tag, want_r[i].first) << "read answer " << i;
    ASSERT_FALSE(this->reads_[i].err);
    ASSERT_EQ(this->reads_[i].data, want_r[i].second) << "read answer " << i;
  }
  for (size_t i = 0; i < nw; ++i) {
    ASSERT_EQ(this->writes_[i].tag, want_w[i]) << "write answer " << i;
    ASSERT_FALSE(this->writes_[i].err);
  }
  for (const auto& [line, data] : ref) {
    Bytes got(TypeParam::kLine);
    this->dram_->read(TypeParam::kBase + uint64_t{line} * TypeParam::kLine, got);
    EXPECT_EQ(got, data) << "line " << line << " in the DRAM";
  }
  EXPECT_EQ(this->cnt_[0], nr);
  EXPECT_EQ(this->cnt_[1], nw);
  EXPECT_GT(this->cnt_[2], 0u) << "no access ever waited on its line: the race was not walked";
  EXPECT_GT(this->slave_->stats().w_before_aw, 0u) << "W never went ahead of its AW";
  EXPECT_EQ(this->cnt_[3], 0u);
  this->expect_clean();
}

// A write, and the read of its line right behind it: the read's AR leaves only after the
// write's answer (the two AXI directions are not ordered) and it returns the written line.
TYPED_TEST(MemPortBench, AReadOfALineWaitsForItsWriteInFlight) {
  typename TestFixture::Req w{true, 77, this->line_bytes(1)};
  typename TestFixture::Req r{false, 77, Bytes(TypeParam::kLine, 0)};
  while (!this->cycle(&w, true, true)) {
  }
  uint64_t ar_cycle = 0, wr_answer = 0;
  bool sent = false;
  for (unsigned i = 0; i < 1000 && this->reads_.empty(); ++i) {
    const uint64_t c = this->cycle_;
    if (!sent) {
      sent = this->cycle(&r, true, true);
    } else {
      this->cycle(nullptr, true, true);
    }
    if (this->ar_taken_) ar_cycle = c;
    if (!this->writes_.empty() && wr_answer == 0) wr_answer = c;
  }
  ASSERT_EQ(this->reads_.size(), 1u);
  ASSERT_NE(wr_answer, 0u) << "the read was answered before the write";
  EXPECT_EQ(this->reads_[0].data, w.data);
  EXPECT_GT(ar_cycle, wr_answer) << "the read went out before the write of its line was answered";
  this->expect_clean();
}

// A read, and a write of its line right behind it: the write's AW leaves only after the read's
// answer, and the read returns the line from before the write.
TYPED_TEST(MemPortBench, AWriteOfALineWaitsForItsReadInFlight) {
  typename TestFixture::Req w0{true, 91, this->line_bytes(1)};
  while (!this->cycle(&w0, true, true)) {
  }
  this->drain(0, 1);
  typename TestFixture::Req r{false, 91, Bytes(TypeParam::kLine, 0)};
  typename TestFixture::Req w1{true, 91, this->line_bytes(2)};
  while (!this->cycle(&r, true, true)) {
  }
  uint64_t aw_cycle = 0, rd_answer = 0;
  bool sent = false;
  for (unsigned i = 0; i < 1000 && this->writes_.size() < 2; ++i) {
    const uint64_t c = this->cycle_;
    if (!sent) {
      sent = this->cycle(&w1, true, true);
    } else {
      this->cycle(nullptr, true, true);
    }
    if (this->aw_taken_ && aw_cycle == 0) aw_cycle = c;
    if (!this->reads_.empty() && rd_answer == 0) rd_answer = c;
  }
  ASSERT_EQ(this->reads_.size(), 1u);
  ASSERT_EQ(this->writes_.size(), 2u);
  ASSERT_NE(rd_answer, 0u);
  EXPECT_EQ(this->reads_[0].data, w0.data) << "the read saw the write behind it";
  EXPECT_GT(aw_cycle, rd_answer) << "the write went out before the read of its line was answered";
  this->expect_clean();
}

// One read on an idle port and DRAM: the DRAM's time for an empty bank (activate, column,
// transfer: sim::DramParams::idle_access) rounded up to cycles, plus the port's cycles -- the
// AR register, then each beat into the answer register.
TYPED_TEST(MemPortBench, AnIdleReadTakesTheDramsTimeAndTheBeats) {
  typename TestFixture::Req r{false, 3, Bytes(TypeParam::kLine, 0)};
  const uint64_t c0 = this->cycle_;
  ASSERT_TRUE(this->cycle(&r, true, true));
  this->drain(1, 0);
  const uint64_t latency = this->cycle_ - c0 - 1;  // edges from the request's to the answer's
  const sim::Time dram = ddr4(1).idle_access(TypeParam::kLine);
  const uint64_t beats = TypeParam::kLine / TypeParam::kData;
  // AR issued at the edge after the request's; R valid from the first edge at or past done
  const uint64_t want = 1 + (dram + kPeriod - 1) / kPeriod + beats;
  std::printf("[ latency  ] %s: %llu cycles (%.1f ns at 300 MHz; DRAM %.1f ns)\n", TypeParam::kName,
              static_cast<unsigned long long>(latency), latency * kPeriod / 1000.0, dram / 1000.0);
  EXPECT_EQ(latency, want);
  this->expect_clean();
}

// 512 reads of consecutive lines as fast as the port takes them: after the first line's
// latency the lines arrive at the slower of the data bus's beat a cycle and the DRAM's
// bandwidth, within 5% (the reads in flight, MaxRd, cover the latency).
TYPED_TEST(MemPortBench, StreamedReadsKeepTheSlowerOfBusAndDramBusy) {
  constexpr unsigned kN = 512;
  unsigned sent = 0;
  const uint64_t c0 = this->cycle_;
  while (this->reads_.size() < kN && this->cycle_ - c0 < 100000) {
    typename TestFixture::Req r{false, sent % this->kLines, Bytes(TypeParam::kLine, 0)};
    if (sent < kN) {
      sent += this->cycle(&r, true, true);
    } else {
      this->cycle(nullptr, true, true);
    }
  }
  ASSERT_EQ(this->reads_.size(), kN);
  const double cycles = static_cast<double>(this->cycle_ - c0);
  const double beats = TypeParam::kLine / TypeParam::kData;
  const double dram_cycles =
      TypeParam::kLine / (ddr4(1).bandwidth_gib_s * 1073741824.0 / 1e12) / kPeriod;
  // the first line's latency, then a line each per the slower of bus and DRAM
  const double bound = static_cast<double>(ddr4(1).idle_access(TypeParam::kLine)) / kPeriod +
                       std::max(beats, dram_cycles) * kN;
  std::printf("[ stream   ] %s: %u lines in %.0f cycles (%.2f GB/s; bound %.0f cycles)\n",
              TypeParam::kName, kN, cycles, kN * TypeParam::kLine / (cycles * kPeriod / 1000.0),
              bound);
  EXPECT_LT(cycles, bound * 1.05);
  EXPECT_GT(this->dram_->stats().row_hits, kN / 2) << "consecutive lines should share rows";
  this->expect_clean();
}

// An access may name some of a line's beats: the burst is that many beats from the first one
// named, the write changes those beats only, and a read answers them from bit 0.
TYPED_TEST(MemPortBench, SomeBeatsOfALineAreOneShorterBurst) {
  constexpr unsigned kBeats = TypeParam::kLine / TypeParam::kData, kB = TypeParam::kData;
  const unsigned last = kBeats - 1;
  typename TestFixture::Req whole{true, 40, this->line_bytes(1)};
  typename TestFixture::Req part{true, 40, this->line_bytes(2), last, 1};
  typename TestFixture::Req rd_part{false, 40, Bytes(TypeParam::kLine, 0), last, 1};
  typename TestFixture::Req rd_whole{false, 40, Bytes(TypeParam::kLine, 0)};
  for (const auto* r : {&whole, &part, &rd_part, &rd_whole}) {
    while (!this->cycle(r, true, true)) {
    }
  }
  this->drain(2, 2);
  Bytes want = whole.data;
  std::copy(part.data.begin(), part.data.begin() + kB, want.begin() + last * kB);
  EXPECT_TRUE(std::equal(part.data.begin(), part.data.begin() + kB, this->reads_[0].data.begin()))
      << "the one beat read is not the one beat written";
  EXPECT_EQ(this->reads_[1].data, want);
  EXPECT_EQ(this->slave_->stats().beats_w, kBeats + 1);
  EXPECT_EQ(this->slave_->stats().beats_r, 1 + kBeats);
  this->expect_clean();
}

// A read beyond the DRAM (DECERR) and a write the slave fails (SLVERR) reach the client as
// errors and are counted; the accesses around them complete normally.
TYPED_TEST(MemPortBench, ErrorResponsesReachTheClientAndAreCounted) {
  const uint64_t half = TypeParam::kBase + uint64_t{this->kLines / 2} * TypeParam::kLine;
  this->make_slave(0.0, half);  // the upper half of the lines lies beyond the DRAM
  typename TestFixture::Req bad{false, this->kLines / 2 + 1, Bytes(TypeParam::kLine, 0)};
  typename TestFixture::Req good{false, 1, Bytes(TypeParam::kLine, 0)};
  typename TestFixture::Req w{true, 2, this->line_bytes(9)};
  while (!this->cycle(&bad, true, true)) {
  }
  while (!this->cycle(&good, true, true)) {
  }
  this->slave_->fail_next_write();
  while (!this->cycle(&w, true, true)) {
  }
  while (!this->cycle(&w, true, true)) {
  }
  this->drain(2, 2);
  EXPECT_TRUE(this->reads_[0].err);
  EXPECT_FALSE(this->reads_[1].err);
  EXPECT_TRUE(this->writes_[0].err);
  EXPECT_FALSE(this->writes_[1].err);
  EXPECT_EQ(this->slave_->stats().decerr, 1u);
  EXPECT_EQ(this->cnt_[3], 2u + (TypeParam::kLine / TypeParam::kData - 1))
      << "every error beat is counted";
  this->expect_clean();
}

}  // namespace
}  // namespace cni::tb::blocks
