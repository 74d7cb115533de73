// SPDX-License-Identifier: Apache-2.0
// Linked into every test program: an error the RTL reports inside a simulation (tb/rtl_errors.hpp)
// fails the test that ran it, whichever fixture built the model.
#include <gtest/gtest.h>

#include "rtl_errors.hpp"

namespace {
const bool installed = [] {
  cni::tb::set_rtl_error_handler([](const std::string& what) { ADD_FAILURE() << what; });
  return true;
}();
}  // namespace
