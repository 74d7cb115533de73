// SPDX-License-Identifier: Apache-2.0
// Uncached device-register accesses over the coherent link: the host socket's I/O port as a
// fabric agent. A core's uncached 8-byte load or store (Core::uncached_load64/_store64) of a
// mapped device window becomes an Nc request to the address's home (the device), answered
// NcData or NcAck (docs/protocol.md, "Uncached accesses"); the core waits for the answer, so an
// uncached store is performed when the call returns and a barrier after it needs nothing more.
// An Error or any unexpected answer is a machine check (CoherenceError out of Kernel::run).
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <string>

#include "cni/sim/core.hpp"
#include "cni/sim/fabric.hpp"

namespace cni::sim {

class UncachedLink : public Agent, public UncachedTarget {
 public:
  UncachedLink(Kernel& k, Fabric& f, proto::AgentId id, std::string name);

  void read64(proto::Addr addr, std::function<void(uint64_t)> done) override;
  void write64(proto::Addr addr, uint64_t value, std::function<void()> done) override;
  void deliver(const proto::Msg& m) override;

  uint64_t reads() const { return reads_; }
  uint64_t writes() const { return writes_; }
  size_t outstanding() const { return open_.size(); }

 private:
  struct Open {
    proto::Addr addr = 0;
    bool write = false;
    std::function<void(uint64_t)> read_done;
    std::function<void()> write_done;
  };
  uint8_t send(proto::Addr addr, bool write, uint64_t value);
  [[noreturn]] void fail(const proto::Msg& m, const std::string& why) const;

  Kernel& k_;
  Fabric& f_;
  std::string name_;
  uint8_t next_tag_ = 0;
  std::map<uint8_t, Open> open_;  // by tag
  uint64_t reads_ = 0, writes_ = 0;
};

}  // namespace cni::sim
