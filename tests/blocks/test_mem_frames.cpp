// SPDX-License-Identifier: Apache-2.0
// rtl/mem/cni_mem_frames.sv (docs/dram.md, design (F)): the frames of DRAM-backed device lines
// and their fill unit, against the AXI4 slave of the DRAM model, at 128-byte and 64-byte lines,
// driven the way the home agent drives them (a line is used only while present: a miss until
// then; the take reads the line and its directory word, the apply writes the word a cycle
// later). Every access sees the last write of its line through evictions and refetches; a line
// never written is filled with zeros and the initial directory word without a DRAM read (the
// DRAM holds garbage); a clean victim is not written back, a dirty one is (whole, or its
// directory beat alone when only the word changed and its line is in the DRAM); a fetch reads the
// line and its directory beat only; a write that lands while the frame waits to be quiet is not
// lost; a filled frame is kept for the message it was filled for; a failed DRAM read or write-back
// fails its line (answered as failed until reset), and more failures than the list holds fail every
// line. An engine's accesses (port B through the engine bus) see and leave the last write of
// their lines too, fetching absent ones, taking turns with the home's misses, and keep the frame
// filled for them across a cycle without their request.
#include <map>
#include <vector>

#include "Vcni_mem_frames_l128.h"
#include "Vcni_mem_frames_l64.h"
#include "block_bench.hpp"
#include "mem/axi_dram.hpp"

namespace cni::tb::blocks {

#define CNI_MEM_FRAMES_SET(set)                                                     \
  struct MemFrames_##set {                                                          \
    using M = Vcni_mem_frames_##set;                                                \
    static constexpr const char* kName = #set;                                      \
    static constexpr unsigned kLine = CNI_BLK_mem_frames_##set##_LineBytes;         \
    static constexpr unsigned kData = CNI_BLK_mem_frames_##set##_DataBytes;         \
    static constexpr unsigned kIdxW = CNI_BLK_mem_frames_##set##_DramIdxW;          \
    static constexpr unsigned kFrameW = CNI_BLK_mem_frames_##set##_FrameW;          \
    static constexpr unsigned kPoison = CNI_BLK_mem_frames_##set##_PoisonN;         \
    static constexpr uint64_t kBase = 0x10000000;  /* Base (tb/rtl_blocks.cmake) */ \
    static constexpr uint32_t kDirInit = 0x5a0003; /* DirInit (the same) */         \
  };
CNI_MEM_FRAMES_SET(l128)
CNI_MEM_FRAMES_SET(l64)
#undef CNI_MEM_FRAMES_SET

namespace {

using Bytes = std::vector<uint8_t>;
constexpr sim::Time kPeriod = 3333;  // 300 MHz
constexpr unsigned kDirW = 24;

template <class S>
class MemFramesBench : public BlockBench<S> {
 protected:
  using B = BlockBench<S>;
  using M = typename S::M;
  static constexpr unsigned kLine = S::kLine;
  static constexpr unsigned kLines = 1u << S::kIdxW;
  static constexpr unsigned kFrames = 1u << S::kFrameW;
  // a line's slot: its beats and the directory beat, to a power of two of beats
  static constexpr unsigned kBeats = kLine / S::kData;
  static constexpr unsigned kSlot = std::bit_ceil(kBeats + 1) * S::kData;

  void SetUp() override {
    B::SetUp();
    make_slave(0.0);
    auto& m = *B::m_;
    m.miss_valid_i = 0;
    m.take_i = 0;
    m.hd_en_i = 0;
    m.hdir_re_i = 0;
    m.hdir_we_i = 0;
    m.eb_en_i = 0;
    m.quiet_i = 1;
    B::reset();
    for (unsigned i = 0; i < 1000 && !m.init_done_o; ++i) cycle({});
    ASSERT_TRUE(m.init_done_o);
  }

  // The DRAM model, its every slot holding garbage (as at power-up), behind the AXI slave.
  void make_slave(double stall) {
    sim::DramParams p;
    p.bytes = S::kBase + uint64_t{kLines} * kSlot;
    dram_ = std::make_unique<sim::Dram>(p);
    Bytes junk(kSlot);
    for (unsigned l = 0; l < kLines; ++l) {
      for (auto& x : junk) x = static_cast<uint8_t>(B::rng_() | 1);
      dram_->write(slot(l), junk);
    }
    AxiDramConfig c;
    c.data_bytes = S::kData;
    c.period = kPeriod;
    c.stall = stall;
    c.seed = B::seed_;
    slave_ = std::make_unique<AxiDramSlave<M>>(*dram_, c);
  }
  static uint64_t slot(unsigned line) { return S::kBase + uint64_t{line} * kSlot; }

  // What the home drives in a cycle.
  struct Home {
    unsigned look = 0;
    bool miss = false;
    unsigned miss_line = 0;
    bool take = false;
    unsigned take_line = 0;
    bool hd_en = false, hd_we = false;
    unsigned hd_line = 0;
    Bytes wdata;
    bool dir_re = false, dir_we = false;
    unsigned dir_rline = 0, dir_wline = 0;
    uint32_t dir_wd = 0;
    bool quiet = true;
    bool eb_en = false, eb_we = false;  // an engine's access
    unsigned eb_line = 0;
    Bytes eb_wdata;
  };

  // One cycle: the home's inputs, the slave's, the edge. Returns whether a miss was taken.
  bool cycle(const Home& h) {
    auto& m = *B::m_;
    m.look_line_i = h.look;
    m.miss_valid_i = h.miss;
    m.miss_line_i = h.miss_line;
    m.take_i = h.take;
    m.take_line_i = h.take_line;
    m.hd_en_i = h.hd_en;
    m.hd_we_i = h.hd_we;
    m.hd_line_i = h.hd_line;
    if (h.hd_we) port_bytes_in(m.hd_wdata_i, h.wdata.data(), kLine);
    m.hdir_re_i = h.dir_re;
    m.hdir_rline_i = h.dir_rline;
    m.hdir_we_i = h.dir_we;
    m.hdir_wline_i = h.dir_wline;
    m.hdir_wd_i = h.dir_wd;
    m.quiet_i = h.quiet;
    m.eb_en_i = h.eb_en;
    m.eb_we_i = h.eb_we;
    m.eb_line_i = h.eb_line;
    if (h.eb_we) port_bytes_in(m.eb_wdata_i, h.eb_wdata.data(), kLine);
    B::settle();
    slave_->drive(m, B::cycle_);
    B::settle();
    const bool taken = h.miss && m.miss_ready_o;
    eb_gnt_ = h.eb_en && m.eb_gnt_o;
    quiet_wait_ += m.quiet_req_o && !h.quiet;
    for (unsigned i = 0; i < 5; ++i) cnt_[i] += (m.cnt_o >> i) & 1;
    slave_->edge(m, B::cycle_);
    B::tick();
    return taken;
  }

  bool present(unsigned line) {
    B::m_->look_line_i = line;
    B::settle();
    return B::m_->look_present_o;
  }

  // Misses of `line` until it is present (the home's quiet answer stalled at `qstall`); the
  // cycles that took.
  unsigned fetch(unsigned line, double qstall = 0.0) {
    unsigned n = 0;
    for (; n < 5000 && !present(line); ++n) {
      Home h;
      h.look = line;
      h.miss = true;
      h.miss_line = line;
      h.quiet = !B::chance(qstall);
      cycle(h);
    }
    EXPECT_TRUE(present(line)) << "line " << line << " never became present";
    return n;
  }

  struct Line {
    Bytes data;
    uint32_t dir;
  };
  Line initial() const { return {Bytes(kLine, 0), S::kDirInit}; }
  Line ref(unsigned line) const {
    const auto it = ref_.find(line);
    return it == ref_.end() ? initial() : it->second;
  }

  // One message on `line`, as the home applies it: fetched if absent, then taken (the line and
  // its directory word read, or the line written), then applied (the word written) a cycle
  // later. Checks what it reads against the reference; returns whether the frame had failed.
  bool access(unsigned line, bool write_data, bool write_dir, double qstall = 0.0) {
    fetch(line, qstall);
    const bool failed = B::m_->look_err_o;
    Line want = ref(line);
    Home t;
    t.look = line;
    t.take = true;
    t.take_line = line;
    t.hd_en = true;
    t.hd_we = write_data;
    t.hd_line = line;
    if (write_data) {
      t.wdata.resize(kLine);
      for (auto& x : t.wdata) x = static_cast<uint8_t>(B::rng_());
    }
    t.dir_re = true;
    t.dir_rline = line;
    cycle(t);
    auto& m = *B::m_;
    if (!failed) {
      if (!write_data) {
        Bytes got(kLine);
        port_bytes_out(m.hd_rdata_o, got.data(), kLine);
        EXPECT_EQ(got, want.data) << "line " << line << " data";
      }
      EXPECT_EQ(static_cast<uint32_t>(m.hdir_rdata_o), want.dir) << "line " << line << " dir";
    }
    Home a;
    a.look = line;
    a.dir_we = write_dir;
    a.dir_wline = line;
    a.dir_wd = static_cast<uint32_t>(B::rng_()) & ((1u << kDirW) - 1);
    cycle(a);
    if (write_data) want.data = t.wdata;
    if (write_dir) want.dir = a.dir_wd;
    if (!failed && (write_data || write_dir)) ref_[line] = want;
    return failed;
  }

  // An engine's access to `line`: held until granted, but withdrawn for a cycle at a chance of
  // `drop` (engine 0 takes the bus), with the home's quiet answer stalled at `qstall`; a read's
  // data checked the cycle after the grant. Returns the cycles to the grant.
  unsigned eaccess(unsigned line, bool write, double drop = 0.0, double qstall = 0.0) {
    Home h;
    h.eb_line = line;
    h.eb_we = write;
    if (write) {
      h.eb_wdata.resize(kLine);
      for (auto& x : h.eb_wdata) x = static_cast<uint8_t>(B::rng_());
    }
    unsigned n = 0;
    for (eb_gnt_ = false; !eb_gnt_ && n < 5000; ++n) {
      h.eb_en = n == 0 || !B::chance(drop);
      h.quiet = !B::chance(qstall);
      cycle(h);
    }
    EXPECT_TRUE(eb_gnt_) << "an engine's access to line " << line << " never granted";
    if (write) {
      Line l = ref(line);
      l.data = h.eb_wdata;
      ref_[line] = l;
    } else {
      Bytes got(kLine);
      port_bytes_out(B::m_->eb_rdata_o, got.data(), kLine);
      EXPECT_EQ(got, ref(line).data) << "line " << line << " read by an engine";
    }
    return n;
  }

  void idle(unsigned n) {
    for (unsigned i = 0; i < n; ++i) cycle({});
  }

  void expect_clean() {
    idle(200);
    for (const auto& v : slave_->violations()) ADD_FAILURE() << "AXI rule broken: " << v;
    EXPECT_TRUE(B::m_->idle_o);
    EXPECT_TRUE(slave_->idle());
  }

  // The DRAM slot of a line: its data and directory word.
  Line in_dram(unsigned line) const {
    Bytes s(kSlot);
    dram_->read(slot(line), s);
    Line l{Bytes(s.begin(), s.begin() + kLine), 0};
    for (unsigned i = 0; i < 3; ++i) l.dir |= uint32_t{s[kLine + i]} << (8 * i);
    return l;
  }

  // Two lines of one frame (another frame's lines never evict them).
  static unsigned of_frame(unsigned frame, unsigned k) { return frame + k * kFrames; }

  std::unique_ptr<sim::Dram> dram_;
  std::unique_ptr<AxiDramSlave<M>> slave_;
  std::map<unsigned, Line> ref_;
  uint64_t cnt_[5] = {};  // fills read, fills of lines never written, write-backs, AXI errors,
                          // fills of failed lines
  uint64_t quiet_wait_ = 0;
  bool eb_gnt_ = false;  // the last cycle granted an engine's access
};

using Sets = ::testing::Types<MemFrames_l128, MemFrames_l64>;
TYPED_TEST_SUITE(MemFramesBench, Sets);

// Random reads and writes of data and directory words over 24 lines in 8 frames (each frame
// shared by three lines, so lines leave and come back all the time), stalls on every AXI
// handshake and on the home's quiet answer: every read sees the last write of its line; the
// DRAM slot of every absent line that was ever written holds its data and directory word.
TYPED_TEST(MemFramesBench, EveryAccessSeesTheLastWriteOfItsLine) {
  this->make_slave(0.3);
  unsigned misses = 0;
  for (unsigned op = 0; op < 3000; ++op) {
    const unsigned line = this->of_frame(this->pick(8), 1 + this->pick(3) * 37);
    misses += !this->present(line);
    const unsigned k = this->pick(4);
    this->access(line, k == 1 || k == 3, k >= 2, 0.3);
  }
  this->expect_clean();
  for (const auto& [line, want] : this->ref_) {
    if (this->present(line)) continue;
    const auto got = this->in_dram(line);
    EXPECT_EQ(got.data, want.data) << "line " << line << " in the DRAM";
    EXPECT_EQ(got.dir, want.dir) << "line " << line << "'s directory word in the DRAM";
  }
  EXPECT_EQ(this->cnt_[0] + this->cnt_[1], misses);
  EXPECT_GT(this->cnt_[0], 0u);
  EXPECT_GT(this->cnt_[1], 0u);
  EXPECT_GT(this->cnt_[2], 0u);
  EXPECT_EQ(this->slave_->stats().reads, this->cnt_[0]);
  EXPECT_EQ(this->slave_->stats().writes, this->cnt_[2]);
  // a fetch reads the line and the directory beat; a write-back writes both, or the word alone
  EXPECT_EQ(this->slave_->stats().beats_r, this->cnt_[0] * (this->kBeats + 1));
  EXPECT_GE(this->slave_->stats().beats_w, this->cnt_[2]);
  EXPECT_LT(this->slave_->stats().beats_w, this->cnt_[2] * (this->kBeats + 1))
      << "no write-back was of the directory word alone";
  EXPECT_EQ(this->cnt_[3] + this->cnt_[4], 0u);
  EXPECT_GT(this->quiet_wait_, 0u) << "the fill unit never waited for quiet";
  EXPECT_FALSE(this->m_->err_o);
}

// The home's messages and an engine's accesses, at random over 24 lines in 8 frames, with every
// AXI handshake and the home's quiet answer stalled at random and the engine's request withdrawn
// now and then: every read, the home's or the engine's, sees the last write of its line, and
// what an engine wrote reaches the DRAM when its frame is reused.
TYPED_TEST(MemFramesBench, AnEnginesAccessesSeeAndLeaveTheLastWriteOfTheirLines) {
  this->make_slave(0.3);
  unsigned by_engine = 0, engine_misses = 0;
  for (unsigned op = 0; op < 3000; ++op) {
    const unsigned line = this->of_frame(this->pick(8), 1 + this->pick(3) * 37);
    if (this->chance(0.5)) {
      engine_misses += !this->present(line);
      this->eaccess(line, this->chance(0.5), 0.2, 0.3);
      ++by_engine;
    } else {
      const unsigned k = this->pick(4);
      this->access(line, k == 1 || k == 3, k >= 2, 0.3);
    }
  }
  this->expect_clean();
  for (const auto& [line, want] : this->ref_) {
    if (this->present(line)) continue;
    EXPECT_EQ(this->in_dram(line).data, want.data) << "line " << line << " in the DRAM";
  }
  EXPECT_GT(by_engine, 1000u);
  EXPECT_GT(engine_misses, 300u);
  EXPECT_EQ(this->cnt_[3] + this->cnt_[4], 0u);
}

// The home and an engine miss on two lines of one frame at once, and keep asking: the two take
// turns, so both are served, each filled frame kept for the one it was filled for (the engine's
// across a cycle without its request) until it is used.
TYPED_TEST(MemFramesBench, TheHomeAndAnEngineMissingInOneFrameTakeTurns) {
  const unsigned a = this->of_frame(2, 1), b = this->of_frame(2, 2);
  typename TestFixture::Home h;
  h.miss = true;
  h.miss_line = a;
  h.eb_en = true;
  h.eb_line = b;
  bool home_done = false, engine_done = false;
  unsigned n = 0;
  for (; n < 2000 && !(home_done && engine_done); ++n) {
    h.look = a;
    h.miss = !home_done;
    // the home takes its message the cycle its line is present
    h.take = !home_done && this->present(a);
    h.take_line = a;
    h.eb_en = !engine_done && (n % 7 != 3);  // withdrawn now and then
    this->cycle(h);
    home_done = home_done || h.take;
    engine_done = engine_done || this->eb_gnt_;
  }
  EXPECT_TRUE(home_done) << "the home's miss was never served";
  EXPECT_TRUE(engine_done) << "the engine's miss was never served";
  // both fetched once (lines never written: no DRAM read), neither refetched
  EXPECT_EQ(this->cnt_[1], 2u);
  this->expect_clean();
}

// A frame filled for one of the two keeps the other's miss waiting, in any frame, until the
// access it was filled for is served: the engine's request withdrawn for 20 cycles after its
// fill (higher-priority engines on the bus), the home's message not taken for 20 cycles after
// its fill (its outputs stalled). Without this the other's fill replaced the reservation and a
// third miss could take the frame back first (found by review).
TYPED_TEST(MemFramesBench, AReservationHoldsTheOthersMissInAnyFrame) {
  const unsigned l = this->of_frame(1, 1), g = this->of_frame(3, 1);
  typename TestFixture::Home h;
  h.eb_line = l;
  for (unsigned n = 0; n < 200 && !this->present(l); ++n) {
    h.eb_en = true;
    this->cycle(h);
  }
  ASSERT_TRUE(this->present(l));
  ASSERT_FALSE(this->eb_gnt_) << "granted in the fill's cycle";
  typename TestFixture::Home m;  // the home misses g while the engine looks away
  m.look = g;
  m.miss = true;
  m.miss_line = g;
  for (unsigned n = 0; n < 20; ++n) EXPECT_FALSE(this->cycle(m)) << "cycle " << n;
  EXPECT_FALSE(this->present(g));
  h.eb_en = true;
  h.miss = true;  // both ask: the engine's reserved line first
  h.miss_line = g;
  h.look = g;
  EXPECT_FALSE(this->cycle(h));
  EXPECT_TRUE(this->eb_gnt_) << "the engine's access after its fill";
  EXPECT_LE(this->fetch(g), 4u) << "the home's miss once the engine was served";
  // the other way: the home's fill of g kept until its message is taken
  const unsigned e = this->of_frame(5, 1);
  typename TestFixture::Home k;
  k.eb_en = true;
  k.eb_line = e;
  for (unsigned n = 0; n < 20; ++n) {
    this->cycle(k);
    EXPECT_FALSE(this->eb_gnt_) << "cycle " << n;
  }
  EXPECT_FALSE(this->present(e));
  k.take = true;
  k.take_line = g;
  this->cycle(k);
  k.take = false;
  unsigned n = 0;
  for (this->eb_gnt_ = false; !this->eb_gnt_ && n < 200; ++n) this->cycle(k);
  EXPECT_TRUE(this->eb_gnt_) << "the engine's miss once the home took its message";
  EXPECT_EQ(this->cnt_[1], 3u);  // three fills, of lines never written
  this->expect_clean();
}

// Sixteen lines never written, read in 8 frames (each evicted once, clean): zeros and the
// initial directory word, with no DRAM read and no write-back, though every slot holds garbage.
TYPED_TEST(MemFramesBench, ALineNeverWrittenIsFilledWithoutReadingTheDram) {
  for (unsigned k = 0; k < 2; ++k) {
    for (unsigned f = 0; f < 8; ++f) this->access(this->of_frame(f, 5 + k), false, false);
  }
  this->expect_clean();
  EXPECT_EQ(this->cnt_[1], 16u);
  EXPECT_EQ(this->slave_->stats().reads, 0u);
  EXPECT_EQ(this->slave_->stats().writes, 0u) << "a clean victim was written back";
}

// A victim whose line is dirty, or was filled as never written, is written back whole (the line
// and the word: the DRAM holds no line of the latter yet); one whose directory word alone is
// dirty, with its line in the DRAM, is written back as its directory beat alone. Both come back
// as written.
TYPED_TEST(MemFramesBench, AVictimIsWrittenBackWholeOrItsDirectoryBeatAlone) {
  const unsigned a = this->of_frame(3, 1), b = this->of_frame(4, 1);
  const auto& st = this->slave_->stats();
  const uint64_t whole = this->kBeats + 1;
  this->access(a, false, true);                      // never written, the word dirty
  this->access(b, true, false);                      // the line dirty
  this->access(this->of_frame(3, 2), false, false);  // evicts a
  this->access(this->of_frame(4, 2), false, false);  // evicts b
  this->idle(100);
  EXPECT_EQ(st.writes, 2u);
  EXPECT_EQ(st.beats_w, 2 * whole) << "a line never written went to the DRAM without its line";
  EXPECT_EQ(this->in_dram(a).dir, this->ref_[a].dir);
  EXPECT_EQ(this->in_dram(a).data, this->ref_[a].data);
  EXPECT_EQ(this->in_dram(b).data, this->ref_[b].data);
  this->access(a, false, true);                      // fetched; the word changed again
  this->access(this->of_frame(3, 3), false, false);  // evicts a: its directory beat alone
  this->idle(100);
  EXPECT_EQ(st.writes, 3u);
  EXPECT_EQ(st.beats_w, 2 * whole + 1);
  EXPECT_EQ(this->in_dram(a).dir, this->ref_[a].dir);
  this->access(a, false, false);  // read back: the line as written, the word as changed
  this->access(b, false, false);
  EXPECT_EQ(this->cnt_[0], 3u);
  this->expect_clean();
}

// A message taken just before its frame went busy writes the line while the fill unit waits for
// the home to be quiet: the write is not lost (it makes the victim dirty, and it is written
// back), and nothing of the frame moves before the home says quiet.
TYPED_TEST(MemFramesBench, AWriteWhileTheFrameWaitsToBeQuietIsNotLost) {
  const unsigned a = this->of_frame(6, 1), d = this->of_frame(6, 2);
  this->access(a, false, false);
  typename TestFixture::Home h;
  h.look = d;
  h.miss = true;
  h.miss_line = d;
  h.quiet = false;
  ASSERT_TRUE(this->cycle(h));
  EXPECT_FALSE(this->present(a)) << "the frame's line is present while it is busy";
  // the apply of the message on a, in the cycle after the miss was taken
  typename TestFixture::Home w;
  w.look = d;
  w.hd_en = w.hd_we = true;
  w.hd_line = a;
  w.wdata.assign(TypeParam::kLine, 0xa5);
  w.dir_we = true;
  w.dir_wline = a;
  w.dir_wd = 0x123456;
  w.quiet = false;
  this->cycle(w);
  typename TestFixture::Home q;
  q.look = d;
  q.quiet = false;
  for (unsigned i = 0; i < 20; ++i) this->cycle(q);
  EXPECT_EQ(this->slave_->stats().writes + this->slave_->stats().reads, 0u)
      << "the fill unit moved the frame before the home was quiet";
  EXPECT_TRUE(this->m_->quiet_req_o);
  this->ref_[a] = {w.wdata, 0x123456};
  this->access(d, false, false);
  this->access(a, false, false);
  EXPECT_EQ(this->cnt_[2], 1u);
  this->expect_clean();
}

// A frame just filled for a message is kept for it: a miss of another line of that frame is not
// taken until a message on the filled line is; a miss in another frame is.
TYPED_TEST(MemFramesBench, AFilledFrameIsKeptForTheMessageItWasFilledFor) {
  const unsigned d = this->of_frame(2, 1), e = this->of_frame(2, 2), g = this->of_frame(5, 1);
  this->fetch(d);
  ASSERT_TRUE(this->m_->rsv_valid_o);
  EXPECT_EQ(this->m_->rsv_line_o, d);
  typename TestFixture::Home h;
  h.look = e;
  h.miss = true;
  h.miss_line = e;
  for (unsigned i = 0; i < 20; ++i) ASSERT_FALSE(this->cycle(h)) << "the reserved frame was taken";
  EXPECT_TRUE(this->present(d));
  this->fetch(g);  // another frame: served (and reserved in turn)
  EXPECT_TRUE(this->present(d));
  this->access(d, false, false);  // the take of d ends d's reservation (g's is the latest)
  this->fetch(e);
  EXPECT_FALSE(this->present(d));
  this->expect_clean();
}

// A fill whose DRAM read answers an error leaves its line present but failed; the line stays
// failed through an eviction and a refill (no DRAM read then), other lines are not affected.
TYPED_TEST(MemFramesBench, AFailedReadFailsItsLine) {
  const unsigned a = this->of_frame(1, 1), b = this->of_frame(1, 2);
  this->access(a, true, true);
  this->access(b, false, false);  // a written back
  this->slave_->fail_next_read();
  EXPECT_TRUE(this->access(a, false, false)) << "the fill's error did not fail the line";
  EXPECT_EQ(this->cnt_[3], 1u);
  EXPECT_EQ(this->cnt_[4], 1u);
  this->access(b, false, false);  // a leaves its frame (failed: not written back)
  const auto reads = this->slave_->stats().reads;
  const auto fresh = this->cnt_[1];
  EXPECT_TRUE(this->access(a, false, false)) << "the failed line came back as good";
  EXPECT_EQ(this->slave_->stats().reads, reads) << "a failed line was read again";
  EXPECT_EQ(this->cnt_[1], fresh) << "a failed line's refill counted as a line never written";
  EXPECT_EQ(this->cnt_[4], 2u);
  EXPECT_FALSE(this->access(this->of_frame(1, 3), false, false));
  EXPECT_FALSE(this->m_->err_o);
  this->expect_clean();
}

// A write-back answered with an error fails its line and raises the sticky error flag.
TYPED_TEST(MemFramesBench, AFailedWriteBackFailsItsLine) {
  const unsigned a = this->of_frame(7, 1), b = this->of_frame(7, 2);
  this->access(a, true, false);
  this->slave_->fail_next_write();
  this->access(b, false, false);
  this->idle(100);
  EXPECT_TRUE(this->m_->err_o);
  EXPECT_TRUE(this->access(a, false, false)) << "a line whose write-back failed came back good";
  EXPECT_FALSE(this->access(b, false, false));
  this->expect_clean();
}

// More failed lines than the list holds (two): every line counts as failed from then on.
TYPED_TEST(MemFramesBench, MoreFailedLinesThanTheListHoldsFailEveryLine) {
  for (unsigned k = 0; k <= TypeParam::kPoison; ++k) {
    const unsigned l = this->of_frame(k, 1);
    this->access(l, true, false);
    this->access(this->of_frame(k, 2), false, false);
    this->slave_->fail_next_read();
    EXPECT_TRUE(this->access(l, false, false));
  }
  EXPECT_TRUE(this->access(this->of_frame(6, 3), false, false)) << "a line never written failed";
  this->expect_clean();
}

// The cycles from a miss to its line present: never written (no DRAM access), fetched into a
// clean frame, and fetched into a frame whose dirty line is written back first.
TYPED_TEST(MemFramesBench, AMissTakesTheDramsTimeAndAFewCycles) {
  const unsigned a = this->of_frame(0, 1), b = this->of_frame(0, 2);
  const unsigned never = this->fetch(a);
  this->access(a, true, false);
  this->access(b, false, false);
  this->idle(100);
  const unsigned clean = this->fetch(a);  // b clean: no write-back
  this->access(a, true, true);
  this->access(b, false, false);
  this->idle(100);
  this->access(b, true, false);
  this->idle(100);
  const unsigned dirty = this->fetch(a);  // b dirty: written back, then a read
  std::printf(
      "[ miss     ] %s: never written %u cycles, clean victim %u (%.1f ns at 300 MHz), "
      "dirty victim %u (%.1f ns); a fetch is %u beats\n",
      TypeParam::kName, never, clean, clean * kPeriod / 1000.0, dirty, dirty * kPeriod / 1000.0,
      TestFixture::kBeats + 1);
  EXPECT_EQ(never, 4u);  // IDLE, QUIET, LOOK, FETCH (fills)
  // a fetch: those cycles and the port's read of the line and its directory beat (its AR
  // register, the DRAM, a beat a cycle): a row already open at the least, an idle bank's
  // activate at the most
  sim::DramParams p;
  const unsigned beats = TestFixture::kBeats + 1;  // the line's and the directory beat
  const unsigned bytes = beats * TypeParam::kData;
  const auto cycles = [](sim::Time t) {
    return static_cast<unsigned>((t + kPeriod - 1) / kPeriod);
  };
  EXPECT_GE(clean, never + 1 + cycles(p.idle_access(bytes) - p.t_rcd) + beats - 1);
  EXPECT_LE(clean, never + 1 + cycles(p.idle_access(bytes)) + beats);
  EXPECT_LE(dirty, clean + 20) << "the write-back was not overlapped with the fetch";
  this->expect_clean();
}

}  // namespace
}  // namespace cni::tb::blocks
