// SPDX-License-Identifier: Apache-2.0
// The line size of the device model the device suites (rtl, system) run on: CNI_LINE_BYTES,
// which CTest sets per run (tests/CMakeLists.txt, cni_test_dir LINES); 128 when unset.
#pragma once

#include <cstdlib>
#include <stdexcept>
#include <string>

namespace cni::test {

inline unsigned test_line_bytes() {
  const char* s = std::getenv("CNI_LINE_BYTES");
  if (!s) return 128;
  char* end = nullptr;
  unsigned long v = std::strtoul(s, &end, 10);
  if (*s == '\0' || *end != '\0') {
    throw std::invalid_argument("CNI_LINE_BYTES: not a line size: '" + std::string(s) + "'");
  }
  return static_cast<unsigned>(v);
}

}  // namespace cni::test
