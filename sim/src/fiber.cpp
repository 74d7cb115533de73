// SPDX-License-Identifier: Apache-2.0
#include "cni/sim/fiber.hpp"

#include <stdexcept>

namespace cni::sim {

namespace {
thread_local Fiber* g_current = nullptr;
thread_local Fiber* g_starting = nullptr;

// Thrown by suspend() in a fiber being destroyed, to unwind its stack.
struct FiberCancelled {};
}  // namespace

Fiber::Fiber(Kernel& k, std::string name, std::function<void()> body, size_t stack_bytes)
    : k_(k), name_(std::move(name)), body_(std::move(body)), stack_bytes_(stack_bytes) {
  if (!body_) throw std::invalid_argument("Fiber '" + name_ + "': empty body");
  if (stack_bytes_ < 16 * 1024) {
    throw std::invalid_argument("Fiber '" + name_ + "': stack of " + std::to_string(stack_bytes_) +
                                " bytes is too small (minimum 16 KiB)");
  }
}

Fiber::~Fiber() {
  k_.cancel(scheduled_);
  if (entered_ && !done_ && g_current == nullptr) {
    cancelling_ = true;
    resume();
  }
}

Fiber* Fiber::current() { return g_current; }

void Fiber::start(Time delay) {
  if (started_) throw std::logic_error("Fiber '" + name_ + "' started twice");
  started_ = true;
  stack_.reset(new char[stack_bytes_]);
  if (getcontext(&ctx_) != 0) throw std::runtime_error("Fiber '" + name_ + "': getcontext failed");
  ctx_.uc_stack.ss_sp = stack_.get();
  ctx_.uc_stack.ss_size = stack_bytes_;
  ctx_.uc_link = nullptr;
  makecontext(&ctx_, &Fiber::entry, 0);
  suspended_ = true;
  scheduled_ = k_.after(delay, [this] {
    scheduled_ = EventId{};
    resume();
  });
}

void Fiber::entry() {
  Fiber* self = g_starting;
  g_starting = nullptr;
  try {
    self->body_();
  } catch (const FiberCancelled&) {
    // Destroyed while suspended: the stack is unwound, nothing to report.
  } catch (...) {
    self->k_.fail(std::current_exception());
  }
  self->done_ = true;
  self->switch_out();
  // A finished fiber is never resumed.
}

void Fiber::resume() {
  if (g_current != nullptr) {
    throw std::logic_error("Fiber '" + name_ + "' resumed from inside fiber '" + g_current->name_ +
                           "'");
  }
  if (done_ || !suspended_) return;
  suspended_ = false;
  if (!entered_) {
    entered_ = true;
    g_starting = this;
  }
  g_current = this;
  swapcontext(&caller_, &ctx_);
  g_current = nullptr;
}

void Fiber::switch_out() { swapcontext(&ctx_, &caller_); }

void Fiber::suspend() {
  if (g_current != this) {
    throw std::logic_error("Fiber '" + name_ + "': suspend() called from outside the fiber");
  }
  if (cancelling_) throw FiberCancelled{};
  if (wake_pending_) {
    wake_pending_ = false;
    return;
  }
  suspended_ = true;
  switch_out();
  if (cancelling_) throw FiberCancelled{};
}

void Fiber::sleep(Time dt) {
  if (g_current != this) {
    throw std::logic_error("Fiber '" + name_ + "': sleep() called from outside the fiber");
  }
  if (cancelling_) throw FiberCancelled{};
  if (dt == 0) return;
  scheduled_ = k_.after(dt, [this] {
    scheduled_ = EventId{};
    resume();
  });
  suspended_ = true;
  sleeping_ = true;
  switch_out();
  sleeping_ = false;
  if (cancelling_) throw FiberCancelled{};
}

void Fiber::wake() {
  if (done_) throw std::logic_error("Fiber '" + name_ + "' woken after it finished");
  if (wake_pending_ || (suspended_ && !sleeping_ && scheduled_)) {
    throw std::logic_error("Fiber '" + name_ + "' woken twice without suspending in between");
  }
  if (!entered_ || !suspended_ || sleeping_) {
    wake_pending_ = true;  // running or sleeping: its next suspend() returns at once
    return;
  }
  scheduled_ = k_.after(0, [this] {
    scheduled_ = EventId{};
    resume();
  });
}

}  // namespace cni::sim
