// SPDX-License-Identifier: Apache-2.0
// Every system checks coherence (tb::System: a checker per node that its host caches and devices
// report to), and a violation fails the test that ran the system.
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "fixture.hpp"
#include "rtl_errors.hpp"

namespace cni::test {
namespace {

// Cores of both sockets write and read one device line in turn: ownership moves between caches.
void share_a_line(System& s) {
  const uint64_t line = s.dev.host_addr(5);
  for (unsigned c = 0; c < 2; ++c) {
    s.host.spawn(c, [&, c](drv::MemoryPort& m) {
      for (unsigned i = 0; i < 4; ++i) {
        m.store64(line + 8 * c, i);
        (void)m.load64(line + 8 * (1 - c));
      }
    });
  }
  s.host.run_programs();
}

TEST(SystemChecker, EverySystemChecksTheCachesOfEveryNode) {
  const unsigned before = tb::rtl_error_count();
  {
    System s(profile({"host.sockets=2"}));
    share_a_line(s);
    EXPECT_GT(s.checker(0).state_changes(), 4u) << "the node's checker saw no state change";
    EXPECT_TRUE(s.checker(0).errors().empty());
  }
  EXPECT_EQ(tb::rtl_error_count(), before);
}

TEST(SystemChecker, AViolationFailsTheSystemTest) {
  const unsigned before = tb::rtl_error_count();
  EXPECT_NONFATAL_FAILURE(
      {
        System s(profile());
        share_a_line(s);
        // two writers of one line, as a broken protocol would leave them
        const proto::Addr line = s.dev.host_addr(9);
        s.checker(0).on_state(0, line, sim::CacheState::I, sim::CacheState::M, 0);
        s.checker(0).on_state(1, line, sim::CacheState::I, sim::CacheState::M, 0);
      },
      "coherence checker, node 0");
  EXPECT_EQ(tb::rtl_error_count(), before + 1);
}

TEST(SystemChecker, NoSuchNodeIsNamed) {
  System s(profile());
  EXPECT_THROW(s.checker(1), std::out_of_range);
}

}  // namespace
}  // namespace cni::test
