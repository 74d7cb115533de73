// SPDX-License-Identifier: Apache-2.0
// The set-up every Verilated-model driver of the testbench shares: a context with seeded random
// initial values that leaves errors to the caller, and an FST trace when asked for.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <filesystem>
#include <memory>
#include <string>

#include "verilated.h"
#include "verilated_fst_c.h"

namespace cni::tb {

// Whether a model traces: asked for by its options, or by the environment (CNI_TRACE=1).
inline bool trace_wanted(bool asked) {
  const char* env = std::getenv("CNI_TRACE");
  return asked || (env && std::string(env) == "1");
}

// A context whose X values are random from `seed` (randReset 2), which does not stop the
// process on an error (gotError() reports it), with tracing enabled when `trace`.
inline std::unique_ptr<VerilatedContext> make_context(uint64_t seed, bool trace) {
  auto ctx = std::make_unique<VerilatedContext>();
  ctx->fatalOnError(false);
  ctx->randReset(2);
  ctx->randSeed(static_cast<int>(seed % 0x7fffffff) + 1);
  if (trace) ctx->traceEverOn(true);
  return ctx;
}

// Makes `ctx` the calling thread's current context. Call it before a model is destroyed: Verilator
// 5.006 erases a model's scopes from the thread's current context rather than the model's own,
// so destroying a model after the context last used on the thread is gone (another model's,
// destroyed first) reads freed memory and hangs on its mutex. Several models live side by side
// in a system (a device per node) and in tests that compare two systems.
inline void make_current(VerilatedContext* ctx) { Verilated::threadContextp(ctx); }

// An FST trace of `top`, written to `dir`/`name`.fst (`dir` is made; empty: the working
// directory).
template <class Top>
std::unique_ptr<VerilatedFstC> open_trace(Top& top, const std::string& dir,
                                          const std::string& name) {
  auto fst = std::make_unique<VerilatedFstC>();
  top.trace(fst.get(), 99);
  if (!dir.empty()) std::filesystem::create_directories(dir);
  fst->open((std::filesystem::path(dir) / (name + ".fst")).c_str());
  return fst;
}

}  // namespace cni::tb
