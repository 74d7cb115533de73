// SPDX-License-Identifier: Apache-2.0
// Fibers: blocking code on the kernel, wake-ups, errors, teardown.
#include "cni/sim/fiber.hpp"

#include <gtest/gtest.h>

#include <stdexcept>
#include <string>
#include <vector>

using namespace cni::sim;

TEST(Fiber, BlocksUntilWokenAndResumesAtWakeTime) {
  Kernel k;
  std::vector<Time> resumed;
  Fiber* fp = nullptr;
  Fiber f(k, "waiter", [&] {
    resumed.push_back(k.now());
    fp->suspend();
    resumed.push_back(k.now());
    fp->suspend();
    resumed.push_back(k.now());
  });
  fp = &f;
  f.start();
  k.at(500, [&] { f.wake(); });
  k.at(900, [&] { f.wake(); });
  k.run([] { return false; });
  EXPECT_TRUE(f.done());
  EXPECT_EQ(resumed, (std::vector<Time>{0, 500, 900}));
}

TEST(Fiber, SleepInterleavesFibersDeterministically) {
  Kernel k;
  std::string log;
  Fiber* pa = nullptr;
  Fiber* pb = nullptr;
  Fiber a(k, "a", [&] {
    for (int i = 0; i < 3; ++i) {
      log += 'a';
      pa->sleep(100);
    }
  });
  Fiber b(k, "b", [&] {
    for (int i = 0; i < 3; ++i) {
      log += 'b';
      pb->sleep(150);
    }
  });
  pa = &a;
  pb = &b;
  a.start();
  b.start();
  k.run([&] { return a.done() && b.done(); });
  // a at 0,100,200; b at 0,150,300 (a's 200 before b's 300).
  EXPECT_EQ(log, "ababab");
  EXPECT_EQ(k.now(), 450u);
}

TEST(Fiber, WakeBeforeSuspendIsNotLost) {
  Kernel k;
  Fiber* fp = nullptr;
  bool finished = false;
  Fiber f(k, "early", [&] {
    fp->wake();  // e.g. an operation that completed at once
    fp->suspend();
    finished = true;
  });
  fp = &f;
  f.start();
  k.run([] { return false; });
  EXPECT_TRUE(finished);
}

TEST(Fiber, ExceptionInFiberIsRethrownFromKernelRun) {
  Kernel k;
  Fiber* fp = nullptr;
  Fiber f(k, "thrower", [&] {
    fp->sleep(ns(10));
    throw std::runtime_error("driver failed at 10 ns");
  });
  fp = &f;
  f.start();
  try {
    k.run([] { return false; });
    FAIL() << "the fiber's exception was lost";
  } catch (const std::runtime_error& e) {
    EXPECT_STREQ(e.what(), "driver failed at 10 ns");
  }
  EXPECT_TRUE(f.done());
  EXPECT_EQ(k.now(), ns(10));
}

TEST(Fiber, DestroyingSuspendedFiberUnwindsItsStack) {
  Kernel k;
  bool destructor_ran = false;
  struct Guard {
    bool* flag;
    ~Guard() { *flag = true; }
  };
  {
    Fiber* fp = nullptr;
    Fiber f(k, "abandoned", [&] {
      Guard g{&destructor_ran};
      fp->suspend();  // never woken
    });
    fp = &f;
    f.start();
    k.run([] { return false; });
    EXPECT_FALSE(f.done());
    EXPECT_FALSE(destructor_ran);
  }
  EXPECT_TRUE(destructor_ran);
}

TEST(Fiber, DoubleWakeIsALogicError) {
  Kernel k;
  Fiber* fp = nullptr;
  Fiber f(k, "w", [&] { fp->suspend(); });
  fp = &f;
  f.start();
  k.run_until(1);
  f.wake();
  EXPECT_THROW(f.wake(), std::logic_error);
  k.run([] { return false; });
  EXPECT_TRUE(f.done());
}

TEST(Fiber, SuspendOutsideTheFiberIsALogicError) {
  Kernel k;
  Fiber f(k, "x", [] {});
  EXPECT_THROW(f.suspend(), std::logic_error);
}
