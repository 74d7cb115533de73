// SPDX-License-Identifier: Apache-2.0
// An error the RTL reports inside a system (an assertion, an $error) fails the test that ran the
// system, whatever the test checks itself (tb/rtl_errors.hpp, tests/rtl_errors.cpp).
#include <gtest/gtest-spi.h>
#include <gtest/gtest.h>

#include "fixture.hpp"
#include "rtl_errors.hpp"

namespace cni::test {
namespace {

// A core stores to a plain device line and loads it back: a system that runs and passes its
// own checks.
void run_one_load(System& s) {
  uint64_t got = 0;
  const uint64_t line = s.dev.host_addr(3);
  s.host.spawn(0, [&](drv::MemoryPort& m) {
    m.store64(line, 42);
    got = m.load64(line);
  });
  s.host.run_programs();
  EXPECT_EQ(got, 42u);
}

TEST(RtlErrors, AnErrorInADeviceModelFailsTheSystemTest) {
  const unsigned before = tb::rtl_error_count();
  EXPECT_NONFATAL_FAILURE(
      {
        System s(profile());
        run_one_load(s);
        s.dev.endpoint().mark_rtl_error();  // as an $error in the RTL would
      },
      "the RTL reported an error");
  EXPECT_EQ(tb::rtl_error_count(), before + 1);
}

TEST(RtlErrors, ASystemWithoutErrorsReportsNone) {
  const unsigned before = tb::rtl_error_count();
  {
    System s(profile());
    run_one_load(s);
  }
  EXPECT_EQ(tb::rtl_error_count(), before);
}

}  // namespace
}  // namespace cni::test
