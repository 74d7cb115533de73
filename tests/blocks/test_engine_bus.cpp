// SPDX-License-Identifier: Apache-2.0
// rtl/top/cni_engine_bus.sv over its parameter sets (tb/rtl_blocks.cmake), at the registry's
// engines and regions, against a reference of the bus every cycle: an event goes to the engine
// that owns its region, under that engine's ready; commands are chosen by fixed priority
// (engine 0 first) and a presented command stays chosen until the home agent takes it; port B
// is granted by fixed priority; a register access reaches the engine it names, its read data
// returning the cycle after. Every event and command arrives once, in order and intact. The
// bus's own checks reject an event no engine owns and an engine's access to another's line.
#include <array>
#include <deque>
#include <vector>

#include "Vcni_engine_bus_full.h"
#include "Vcni_engine_bus_small.h"
#include "block_bench.hpp"
#include "cni/engines.hpp"

namespace cni::tb::blocks {

inline constexpr unsigned NE = engines::kNumEngines;
inline constexpr unsigned NR = engines::kNumRegions;

#define CNI_ENGINE_BUS_SET(s)                                                            \
  struct EngineBus_##s {                                                                 \
    using M = Vcni_engine_bus_##s;                                                       \
    static constexpr const char* kName = #s;                                             \
    static constexpr unsigned kLineBytes = CNI_BLK_engine_bus_##s##_LineBytes;           \
    static constexpr unsigned kLineIdxW = CNI_BLK_engine_bus_##s##_LineIdxW;             \
    static constexpr std::array<unsigned, NR> kLines = {CNI_BLK_engine_bus_##s##_Lines}; \
  };
CNI_ENGINE_BUS_SET(full)
CNI_ENGINE_BUS_SET(small)
#undef CNI_ENGINE_BUS_SET

namespace {

inline constexpr unsigned kCmdW = 3;  // cni_coh_pkg::CMD_W
inline constexpr unsigned kArgW = 2;  // cni_coh_pkg::ARG_W

struct Cmd {
  uint64_t op = 0, arg = 0, line = 0;
  bool operator==(const Cmd&) const = default;
};
struct Evt {
  unsigned line = 0, region = 0;
};

template <class S>
class EngineBus : public BlockBench<S> {
 protected:
  static constexpr unsigned LB = S::kLineBytes;
  static constexpr unsigned IW = S::kLineIdxW;
  static constexpr unsigned RegEngW = std::bit_width(NE);  // $clog2(NE + 1)

  void SetUp() override {
    BlockBench<S>::SetUp();
    unsigned b = 0;
    for (unsigned r = 0; r < NR; ++r) base_[r] = b, b += S::kLines[r];
    for (unsigned r = 0; r < NR; ++r) {
      const int k = engines::kRegionOwner[r];
      if (k >= 0 && S::kLines[r] > 0) owned_[k].push_back(r);
    }
    auto& m = *this->m_;
    m.evt_valid_i = 0;
    m.cmd_ready_i = 0;
    m.reg_valid_i = 0;
    m.eb_evt_ready_i = 0;
    m.eb_cmd_valid_i = 0;
    m.eb_mem_en_i = 0;
    m.mem_ready_i = 1;
    noise();
    this->reset();
  }

  unsigned line_in(unsigned r) { return base_[r] + this->pick(S::kLines[r]); }
  // A line of one of engine k's regions, and that region.
  Evt random_evt_of(unsigned k) {
    const unsigned r = owned_[k][this->pick(static_cast<unsigned>(owned_[k].size()))];
    return {line_in(r), r};
  }
  void present_cmd(unsigned k, const Cmd& c) {
    auto& m = *this->m_;
    put64(m.eb_cmd_op_i, k * kCmdW, kCmdW, c.op);
    put64(m.eb_cmd_arg_i, k * kArgW, kArgW, c.arg);
    put64(m.eb_cmd_line_i, k * IW, IW, c.line);
  }
  Cmd random_cmd() {
    return {this->pick(1u << kCmdW), this->pick(1u << kArgW), this->pick(1u << IW)};
  }
  // Inputs nobody offers carry noise (the memory requests too: an engine not asking names a
  // line it need not own).
  void noise() {
    auto& m = *this->m_;
    for (unsigned k = 0; k < NE; ++k) {
      if (!((m.eb_cmd_valid_i >> k) & 1)) present_cmd(k, random_cmd());
      if (!((m.eb_mem_en_i >> k) & 1)) {
        put64(m.eb_mem_addr_i, k * IW, IW, this->pick(1u << IW));
        set_bit(m.eb_mem_we_i, k, this->chance(0.5));
        put(m.eb_mem_wdata_i, k * LB * 8, LB * 8, random_bits(this->rng_, LB * 8));
      }
    }
    if (!m.evt_valid_i) {
      m.evt_line_i = this->pick(1u << IW);
      m.evt_region_i = this->pick(1u << std::bit_width(NR - 1));
    }
    m.reg_eng_i = this->pick(1u << RegEngW);
    put(m.eb_reg_rdata_i, 0, NE * 32, random_bits(this->rng_, NE * 32));
  }

  // After settle(): the outputs agree with the reference. Returns the command choice (-1: none).
  int check(const char* where) {
    const auto& m = *this->m_;
    const auto at = [&] { return std::string(where) + ", cycle " + std::to_string(this->cycle_); };
    if (m.evt_valid_i) {
      const unsigned k = engines::kRegionOwner[m.evt_region_i];
      EXPECT_EQ(unsigned(m.eb_evt_valid_o), 1u << k) << at();
      EXPECT_EQ(bool(m.evt_ready_o), bool((m.eb_evt_ready_i >> k) & 1)) << at();
    } else {
      EXPECT_EQ(unsigned(m.eb_evt_valid_o), 0u) << at();
    }
    const int sel = choice_.choose(m.eb_cmd_valid_i);
    const bool cv = sel >= 0 && ((m.eb_cmd_valid_i >> sel) & 1);
    EXPECT_EQ(bool(m.cmd_valid_o), cv) << at();
    EXPECT_EQ(unsigned(m.eb_cmd_ready_o), sel >= 0 && m.cmd_ready_i ? 1u << sel : 0u) << at();
    if (cv) {
      EXPECT_EQ((Cmd{m.cmd_op_o, m.cmd_arg_o, m.cmd_line_o}), cmd_[sel].front()) << at();
    }
    // The chosen access is granted when the memory takes it (mem_ready_i).
    const int gnt = lowest(m.eb_mem_en_i);
    EXPECT_EQ(unsigned(m.eb_mem_gnt_o), gnt >= 0 && m.mem_ready_i ? 1u << gnt : 0u) << at();
    EXPECT_EQ(bool(m.mem_en_o), gnt >= 0) << at();
    if (gnt >= 0) {
      EXPECT_EQ(bool(m.mem_we_o), bit_of(m.eb_mem_we_i, gnt)) << at();
      EXPECT_EQ(unsigned(m.mem_addr_o), get64(m.eb_mem_addr_i, gnt * IW, IW)) << at();
      EXPECT_EQ(get(m.mem_wdata_o, 0, LB * 8), get(m.eb_mem_wdata_i, gnt * LB * 8, LB * 8)) << at();
    }
    const bool rv = m.reg_valid_i && m.reg_eng_i < NE;
    EXPECT_EQ(unsigned(m.eb_reg_valid_o), rv ? 1u << m.reg_eng_i : 0u) << at();
    EXPECT_EQ(unsigned(m.reg_rdata_o),
              reg_from_ < 0 ? 0u : get64(m.eb_reg_rdata_i, reg_from_ * 32, 32))
        << at() << ": read data of engine " << reg_from_;
    EXPECT_EQ(bool(m.idle_o), choice_.held < 0 && reg_from_ < 0) << at();
    return sel;
  }

  void step(int sel) {
    auto& m = *this->m_;
    const bool evt_fire = m.evt_valid_i && m.evt_ready_o;
    const bool cmd_fire = m.cmd_valid_o && m.cmd_ready_i;
    const unsigned gnt = m.eb_mem_gnt_o;
    if (evt_fire) {
      const unsigned k = engines::kRegionOwner[m.evt_region_i];
      EXPECT_EQ(unsigned(m.evt_line_i), evt_.front().line);
      evt_.pop_front();
      ++evt_got_[k];
    }
    if (cmd_fire) cmd_[sel].pop_front(), ++cmds_;
    choice_.on_edge(sel, m.cmd_valid_o, m.cmd_ready_i);
    reg_from_ = m.reg_valid_i && m.reg_eng_i < NE ? int(m.reg_eng_i) : -1;
    this->tick();
    if (evt_fire) m.evt_valid_i = 0;
    if (cmd_fire) m.eb_cmd_valid_i &= ~(1u << sel);
    // Engine 0 is always granted; the others hold a request until granted.
    m.eb_mem_en_i &= ~gnt;
    for (unsigned k = 0; k < NE; ++k) grants_[k] += (gnt >> k) & 1;
  }

  int random_cycle(double p_offer, double p_take) {
    auto& m = *this->m_;
    // The home agent offers an event on a line of an engine that has lines, held until taken.
    if (!m.evt_valid_i && this->chance(p_offer)) {
      std::vector<unsigned> with;
      for (unsigned k = 0; k < NE; ++k) {
        if (!owned_[k].empty()) with.push_back(k);
      }
      evt_.push_back(random_evt_of(with[this->pick(static_cast<unsigned>(with.size()))]));
      m.evt_valid_i = 1;
      m.evt_line_i = evt_.back().line;
      m.evt_region_i = evt_.back().region;
    }
    for (unsigned k = 0; k < NE; ++k) {
      if (!((m.eb_cmd_valid_i >> k) & 1) && this->chance(p_offer)) {
        cmd_[k].push_back(random_cmd());
        present_cmd(k, cmd_[k].back());
        m.eb_cmd_valid_i |= 1u << k;
      }
      if (!((m.eb_mem_en_i >> k) & 1) && !owned_[k].empty() && this->chance(p_offer / 2)) {
        put64(m.eb_mem_addr_i, k * IW, IW, random_evt_of(k).line);
        set_bit(m.eb_mem_we_i, k, this->chance(0.5));
        put(m.eb_mem_wdata_i, k * LB * 8, LB * 8, random_bits(this->rng_, LB * 8));
        m.eb_mem_en_i |= 1u << k;
        ++asks_[k];
      }
    }
    noise();
    m.reg_valid_i = this->chance(p_offer);
    m.cmd_ready_i = this->chance(p_take);
    // The memory takes engine 0's accesses at once (on-chip lines); another's may wait (a
    // DRAM-backed line's fetch).
    m.mem_ready_i = lowest(m.eb_mem_en_i) == 0 || this->chance(p_take);
    m.eb_evt_ready_i = 0;
    for (unsigned k = 0; k < NE; ++k) m.eb_evt_ready_i |= this->chance(p_take) << k;
    this->settle();
    return check("traffic");
  }

  std::array<unsigned, NR> base_{};
  std::array<std::vector<unsigned>, NE> owned_;  // each engine's regions with lines
  HeldChoice choice_;
  int reg_from_ = -1;
  std::deque<Evt> evt_;
  std::array<std::deque<Cmd>, NE> cmd_;
  std::array<unsigned, NE> evt_got_{}, grants_{}, asks_{};
  unsigned cmds_ = 0;
};

using EngineBusSets = ::testing::Types<EngineBus_full, EngineBus_small>;
TYPED_TEST_SUITE(EngineBus, EngineBusSets);

TYPED_TEST(EngineBus, ResetLeavesItIdle) {
  this->settle();
  this->check("after reset");
  EXPECT_TRUE(this->m_->idle_o);
  EXPECT_FALSE(this->m_->cmd_valid_o);
  EXPECT_EQ(this->m_->reg_rdata_o, 0u);
}

TYPED_TEST(EngineBus, EventsCommandsMemoryAndRegistersGoWhereTheyBelong) {
  const double rates[][2] = {{0.6, 0.3}, {0.3, 0.9}, {0.9, 0.9}};
  unsigned contested = 0;
  for (int c = 0; c < 6000; ++c) {
    const auto& r = rates[(c / 300) % 3];
    const int sel = this->random_cycle(r[0], r[1]);
    contested += this->choice_.overtaken(this->m_->eb_cmd_valid_i);
    this->step(sel);
    if (this->HasFailure()) return;
  }
  for (int c = 0; c < 500; ++c) this->step(this->random_cycle(0.0, 1.0));
  this->settle();
  this->check("drained");
  EXPECT_TRUE(this->evt_.empty());
  for (unsigned k = 0; k < NE; ++k) {
    EXPECT_TRUE(this->cmd_[k].empty()) << "engine " << k << "'s commands never taken";
    EXPECT_EQ(this->grants_[k], this->asks_[k]) << "engine " << k << "'s memory requests";
    EXPECT_EQ(this->evt_got_[k] > 0, !this->owned_[k].empty()) << "events of engine " << k;
  }
  EXPECT_GT(contested, 0u) << "no command ever waited behind a held one";
  EXPECT_GT(this->cmds_, 1000u);
}

TYPED_TEST(EngineBus, AnEventOnPlainMemoryIsFlagged) {
  this->expect_rtl_error_ = true;
  this->m_->evt_valid_i = 1;
  this->m_->evt_region_i = engines::kMem;
  this->m_->evt_line_i = 0;
  this->settle();
  EXPECT_EQ(unsigned(this->m_->eb_evt_valid_o), 0u);
  this->tick();
  this->settle();
}

TYPED_TEST(EngineBus, AnEngineTouchingAnotherEnginesLineIsFlagged) {
  this->expect_rtl_error_ = true;
  // The last engine with lines reaches for a line of the first one's.
  unsigned k = NE;
  while (k-- > 0 && this->owned_[k].empty()) {
  }
  ASSERT_GT(k, 0u);
  this->m_->eb_mem_en_i = 1u << k;
  put64(this->m_->eb_mem_addr_i, k * TestFixture::IW, TestFixture::IW, this->random_evt_of(0).line);
  this->settle();
  this->tick();
  this->settle();
}

}  // namespace
}  // namespace cni::tb::blocks
