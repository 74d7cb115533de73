// SPDX-License-Identifier: Apache-2.0
// Test helper: the message of the exception a call throws, for checks that an error names
// the bad input.
#pragma once

#include <gtest/gtest.h>

#include <string>

namespace cni::sim::test {

// The what() of the exception of type E that `fn` throws; fails the test if none is thrown.
template <class E, class Fn>
std::string error_of(Fn fn) {
  try {
    fn();
  } catch (const E& e) {
    return e.what();
  }
  ADD_FAILURE() << "no exception thrown";
  return {};
}

}  // namespace cni::sim::test
