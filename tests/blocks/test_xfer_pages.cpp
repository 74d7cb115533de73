// SPDX-License-Identifier: Apache-2.0
// rtl/xfer/cni_xfer_pages.sv over its parameter sets (tb/rtl_blocks.cmake) against a reference of
// each record's pages: descriptions of 1 to 513 pages (2 MiB from any offset) written while the
// records committed before them are read, then committed in turn, many more times than there are
// rows. Every page of every live record reads back its frame and offset, after a staged
// description of 513 pages and after pieces past a row's end (written by a refused description),
// so a row never reaches into another; a read hits only when the frame read in the previous cycle
// is its own and no write came in that cycle.
#include <deque>
#include <vector>

#include "Vcni_xfer_pages_r2.h"
#include "Vcni_xfer_pages_r4.h"
#include "block_bench.hpp"

namespace cni::tb::blocks {

#define CNI_XFER_PAGES_SET(s)                                   \
  struct XferPages_##s {                                        \
    using M = Vcni_xfer_pages_##s;                              \
    static constexpr const char* kName = #s;                    \
    static constexpr unsigned kRecs = CNI_BLK_xfer_pages_##s##_Recs; \
  };
CNI_XFER_PAGES_SET(r2)
CNI_XFER_PAGES_SET(r4)
#undef CNI_XFER_PAGES_SET

namespace {

constexpr unsigned kPages = 513;

template <class S>
class XferPages : public BlockBench<S> {
 protected:
  void SetUp() override {
    BlockBench<S>::SetUp();
    auto& m = *this->m_;
    m.pw_valid_i = 0;
    m.cm_valid_i = 0;
    m.v_rec_i = 0;
    m.v_off_i = 0;
    this->reset();
  }
  uint64_t frame() { return this->rng_() & ((uint64_t{1} << 36) - 1); }
  // One cycle writing page `page` of the staged description.
  void write(unsigned page, uint64_t pfn) {
    auto& m = *this->m_;
    m.pw_valid_i = 1;
    m.pw_page_i = page;
    m.pw_pfn_i = pfn;
    this->settle();
    this->tick();
    m.pw_valid_i = 0;
  }
  // Presents page `page` of record `rec` (a random offset in it) for two cycles: the first reads
  // the RAM (a hit only if the same word was presented before), the second must hit with the
  // page's frame.
  void check(unsigned rec, unsigned page, uint64_t pfn) {
    auto& m = *this->m_;
    const uint32_t off = uint32_t(this->rng_() % 4096) & ~7u;
    m.v_rec_i = rec;
    m.v_off_i = page * 4096 + off;
    this->settle();
    const bool same = rec == last_rec_ && page == last_page_ && !wrote_;
    if (!same && !committed_) {
      ASSERT_FALSE(m.hit_o) << "record " << rec << " page " << page << ": a stale hit";
    }
    this->tick();
    this->settle();
    ASSERT_TRUE(m.hit_o) << "record " << rec << " page " << page;
    ASSERT_EQ(m.addr_o, pfn << 12 | off) << "record " << rec << " page " << page;
    last_rec_ = rec;
    last_page_ = page;
    wrote_ = false;
    committed_ = false;
    ++reads_;
  }
  void check_live() {
    for (const auto& [rec, pages] : live_) {
      for (unsigned p = 0; p < pages.size(); ++p) {
        check(rec, p, pages[p]);
        if (::testing::Test::HasFatalFailure()) return;
      }
    }
  }
  std::deque<std::pair<unsigned, std::vector<uint64_t>>> live_;  // oldest first
  unsigned last_rec_ = ~0u, last_page_ = ~0u;
  bool wrote_ = true;      // a write in the cycle before the next check's
  bool committed_ = false;
  unsigned reads_ = 0;  // a commit since the last check (the presented record's row may move)
};

using XferPagesSets = ::testing::Types<XferPages_r2, XferPages_r4>;
TYPED_TEST_SUITE(XferPages, XferPagesSets);

TYPED_TEST(XferPages, EveryLiveRecordReadsItsOwnPagesWhileTheNextDescriptionIsWritten) {
  constexpr unsigned R = TypeParam::kRecs;
  auto& m = *this->m_;
  unsigned full = 0;
  for (unsigned c = 0; c < 4 * (R + 1) + 3; ++c) {
    // the next description: 513 pages every other time, else 1 to 40
    const unsigned n = c % 2 == 0 ? kPages : 1 + this->pick(40);
    full += n == kPages;
    std::vector<uint64_t> pages(n);
    for (unsigned p = 0; p < n; ++p) {
      pages[p] = this->frame();
      this->write(p, pages[p]);
      this->wrote_ = true;
    }
    // a refused description's pieces past the row's end: never written (so the word read in those
    // cycles is defined)
    for (unsigned p = kPages; p < kPages + 3; ++p) this->write(p + this->pick(1024 - p - 2), 0);
    this->wrote_ = false;
    this->check_live();
    if (::testing::Test::HasFatalFailure()) return;
    // the commit: record c mod R takes the staged row
    m.cm_valid_i = 1;
    m.cm_rec_i = c % R;
    this->settle();
    this->tick();
    m.cm_valid_i = 0;
    this->committed_ = true;
    if (this->live_.size() == R) this->live_.pop_front();
    this->live_.emplace_back(c % R, pages);
    this->check_live();
    if (::testing::Test::HasFatalFailure()) return;
  }
  std::printf("[ pages    ] %u records: %u descriptions (%u of 513 pages), %u reads checked\n", R,
              4 * (R + 1) + 3, full, this->reads_);
  EXPECT_GT(full, 2 * (R + 1) - 1) << "full descriptions in every row";
}

}  // namespace
}  // namespace cni::tb::blocks
