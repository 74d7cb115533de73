// SPDX-License-Identifier: Apache-2.0
#include "cni/sim/coherence.hpp"

namespace cni::sim {

const char* state_name(CacheState s) {
  switch (s) {
    case CacheState::I:
      return "I";
    case CacheState::S:
      return "S";
    case CacheState::E:
      return "E";
    case CacheState::O:
      return "O";
    case CacheState::M:
      return "M";
    case CacheState::IS:
      return "IS";
    case CacheState::IM:
      return "IM";
    case CacheState::SM:
      return "SM";
    case CacheState::MI:
      return "MI";
  }
  return "?";
}

}  // namespace cni::sim
