// SPDX-License-Identifier: Apache-2.0
// What happens to an error the RTL reports inside a simulation (a failed assertion, an $error).
// The models' contexts do not stop the process on one (tb/vlt_model.hpp: the run goes on so the
// waveform and the state can be read); instead the owner of a model reports it with rtl_error()
// when it is done with the model (tb::Endpoint's destructor does, for every device in a system).
// The default handler prints the report on stderr; cni-bench fails its run when any was counted,
// and the test programs install a handler that fails the running test (tests/rtl_errors.cpp).
#pragma once

#include <atomic>
#include <cstdio>
#include <functional>
#include <string>
#include <utility>

namespace cni::tb {

using RtlErrorHandler = std::function<void(const std::string& what)>;

inline RtlErrorHandler& rtl_error_handler() {
  static RtlErrorHandler handler;
  return handler;
}

// How many RTL errors this process has reported.
inline std::atomic<unsigned>& rtl_error_count() {
  static std::atomic<unsigned> n{0};
  return n;
}

inline void set_rtl_error_handler(RtlErrorHandler h) { rtl_error_handler() = std::move(h); }

inline void rtl_error(const std::string& what) {
  ++rtl_error_count();
  if (rtl_error_handler()) {
    rtl_error_handler()(what);
  } else {
    std::fprintf(stderr, "RTL error: %s\n", what.c_str());
  }
}

}  // namespace cni::tb
