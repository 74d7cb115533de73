// SPDX-License-Identifier: Apache-2.0
// Cooperative fibers (ucontext) on the simulation kernel, so that plain blocking code -- a
// driver written against cni::drv::MemoryPort -- runs on a simulated core: a blocking call
// suspends the fiber back into the kernel, and whatever completes the operation calls wake().
//
// Rules: resume happens only from kernel context (through a kernel event); suspend()/sleep()
// only from inside the fiber. An exception escaping the fiber body is handed to
// Kernel::fail() and rethrown from Kernel::run(). Destroying a suspended fiber unwinds its
// stack (suspend() throws an internal cancellation exception that the fiber entry absorbs).
#pragma once

#include <ucontext.h>

#include <cstddef>
#include <functional>
#include <memory>
#include <string>

#include "cni/sim/kernel.hpp"

namespace cni::sim {

class Fiber {
 public:
  static constexpr size_t kDefaultStackBytes = 256 * 1024;

  Fiber(Kernel& k, std::string name, std::function<void()> body,
        size_t stack_bytes = kDefaultStackBytes);
  ~Fiber();
  Fiber(const Fiber&) = delete;
  Fiber& operator=(const Fiber&) = delete;

  // Schedule the first run of the body `delay` from now. Once only.
  void start(Time delay = 0);
  bool started() const { return started_; }
  bool done() const { return done_; }
  const std::string& name() const { return name_; }

  // Inside the fiber: give control back to the kernel until wake() is called.
  void suspend();
  // Inside the fiber: suspend for `dt` of simulated time.
  void sleep(Time dt);
  // From anywhere: resume the suspended fiber at the current time (through a kernel event).
  // If the fiber is running (or in sleep()) rather than suspended, its next suspend()
  // returns at once.
  // Waking twice without a suspend in between is a logic error (it would lose a wake-up).
  void wake();

  // The fiber whose code is executing, or nullptr in kernel context.
  static Fiber* current();

 private:
  static void entry();
  void resume();
  void switch_out();

  Kernel& k_;
  std::string name_;
  std::function<void()> body_;
  std::unique_ptr<char[]> stack_;
  size_t stack_bytes_;
  ucontext_t ctx_{};
  ucontext_t caller_{};
  bool started_ = false;
  bool entered_ = false;
  bool done_ = false;
  bool suspended_ = false;
  bool sleeping_ = false;
  bool wake_pending_ = false;
  bool cancelling_ = false;
  EventId scheduled_;
};

}  // namespace cni::sim
