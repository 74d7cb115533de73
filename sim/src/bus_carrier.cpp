// SPDX-License-Identifier: Apache-2.0
#include "cni/sim/bus_carrier.hpp"

#include <algorithm>
#include <stdexcept>

#include "params.hpp"

namespace cni::sim {

using proto::Msg;
using proto::Op;

namespace {
constexpr unsigned idx(BusRow r) { return static_cast<unsigned>(r); }

// An RdX that writes the whole line: ownership without data, an invalidation on the bus.
bool full_write(const Msg& m) { return m.op == Op::RdX && (m.flags & proto::kFlagFullWrite); }

// A request whose answer closes its transaction: the answer is credited with the answerer's
// turnaround from the request's arrival.
bool opens_transaction(const Msg& m) {
  if (full_write(m)) return false;
  switch (m.op) {
    case Op::Nc:
    case Op::RdS:
    case Op::RdX:
    case Op::RdNA:
    case Op::FwdDown:
    case Op::FwdDownO:
      return true;
    default:
      return false;
  }
}

// A message that ends the transaction its requester's request opened: an answer, with or
// without data, or the home's Retry or Error.
bool closes_transaction(const Msg& m) {
  switch (m.op) {
    case Op::NcData:
    case Op::NcAck:
    case Op::SnpData:
    case Op::SnpAck:
    case Op::DataS:
    case Op::DataE:
    case Op::DataM:
    case Op::DataI:
    case Op::Retry:
    case Op::Error:
      return true;
    default:
      return false;
  }
}

// Profile key suffix of each row that has one.
const char* row_key(BusRow r) {
  switch (r) {
    case BusRow::NcLoad: return "nc_load";
    case BusRow::NcStore: return "nc_store";
    case BusRow::FromDevice: return "from_device";
    case BusRow::ToDevice: return "to_device";
    case BusRow::Memory: return "memory";
    case BusRow::Address: return "address";
    case BusRow::Ack: break;
  }
  return nullptr;
}
}  // namespace

const char* bus_row_name(BusRow r) {
  switch (r) {
    case BusRow::NcLoad: return "uncached load";
    case BusRow::NcStore: return "uncached store";
    case BusRow::FromDevice: return "line device->host";
    case BusRow::ToDevice: return "line host->device";
    case BusRow::Memory: return "line memory<->cache";
    case BusRow::Address: return "address only";
    case BusRow::Ack: return "acknowledge";
  }
  return "?";
}

BusParams BusParams::from_profile(const Profile& p) {
  using detail::uint_param;
  BusParams b;
  const std::string model = p.has("bus.model") ? p.get_string("bus.model") : "none";
  if (model == "none") return b;
  if (model == "mbus") {
    b.model = BusModel::Memory;
  } else if (model == "iobus") {
    b.model = BusModel::Io;
  } else {
    throw ProfileError("profile " + p.name() + ": bus.model = '" + model +
                       "' is not one of none, mbus, iobus");
  }
  b.cycle_mhz = detail::positive_param(p, "bus.cycle_mhz");
  const auto bad = [&](const std::string& why) {
    throw ProfileError("profile " + p.name() + ": " + why);
  };
  constexpr unsigned kMax = 1u << 16;
  for (unsigned r = 0; r < kNumBusRows; ++r) {
    const char* k = row_key(static_cast<BusRow>(r));
    if (!k) continue;
    b.mem[r] = uint_param(p, std::string("bus.mem.") + k, 1, kMax);
  }
  // An answer carries its transaction's cycles less the address part of the request.
  const unsigned ma = b.mem[idx(BusRow::Address)];
  for (BusRow r : {BusRow::NcLoad, BusRow::NcStore, BusRow::FromDevice, BusRow::ToDevice,
                   BusRow::Memory}) {
    if (b.mem[idx(r)] <= ma) {
      bad(std::string("bus.mem.") + row_key(r) + " = " + std::to_string(b.mem[idx(r)]) +
          " leaves no cycle for the answer after bus.mem.address = " + std::to_string(ma));
    }
  }
  if (b.model != BusModel::Io) return b;
  for (BusRow r : {BusRow::NcLoad, BusRow::NcStore, BusRow::FromDevice, BusRow::ToDevice,
                   BusRow::Address}) {
    const std::string key = std::string("bus.io.") + row_key(r);
    b.io[idx(r)] = uint_param(p, key, 1, kMax);
    if (b.io[idx(r)] <= b.mem[idx(r)]) {
      bad(key + " = " + std::to_string(b.io[idx(r)]) + " must exceed bus.mem." + row_key(r) +
          " = " + std::to_string(b.mem[idx(r)]) + " (it includes the memory-bus part)");
    }
  }
  const unsigned ia = b.io[idx(BusRow::Address)] - ma;
  for (BusRow r : {BusRow::NcLoad, BusRow::NcStore, BusRow::FromDevice, BusRow::ToDevice}) {
    if (b.io[idx(r)] - b.mem[idx(r)] <= ia) {
      bad(std::string("bus.io.") + row_key(r) + " = " + std::to_string(b.io[idx(r)]) +
          " leaves no I/O-bus cycle for the answer after the address part (bus.io.address - "
          "bus.mem.address = " + std::to_string(ia) + ")");
    }
  }
  b.bridge_write_buffer = uint_param(p, "bus.bridge.write_buffer", 1, 4096);
  b.bridge_retry_cycles = uint_param(p, "bus.bridge.retry_cycles", 0, kMax);
  return b;
}

BusCarrier::BusCarrier(Kernel& k, const BusParams& p, IsDevice is_device, const std::string& name)
    : k_(k), p_(p), is_device_(std::move(is_device)) {
  if (p_.model == BusModel::None) {
    throw std::invalid_argument("BusCarrier '" + name + "': bus.model is none");
  }
  mem_ = std::make_unique<Bus>(k_, name + ".mbus", p_.cycle_mhz);
  if (p_.model == BusModel::Io) {
    io_ = std::make_unique<Bus>(k_, name + ".iobus", p_.cycle_mhz);
    bridge_ = std::make_unique<Bridge>(k_, *mem_, *io_, p_.bridge_write_buffer,
                                       p_.bridge_retry_cycles);
  }
}

BusCarrier::~BusCarrier() = default;

BusCrossing BusCarrier::crossing(const Msg& m, unsigned turnaround_cycles) const {
  const bool dev_src = is_device_(m.src);
  const bool dev_dst = is_device_(m.dst);
  const bool bridged = p_.model == BusModel::Io && dev_src != dev_dst;
  BusCrossing c;
  c.bridged = bridged;
  bool answer = false;  // the message closes a transaction a request opened
  bool ack = false;     // ... without data: no floor
  switch (m.op) {
    case Op::Nc:  // the address part of a load or a store (a store's word rides with it)
      c.row = BusRow::Address;
      c.op = (m.flags & proto::kFlagNcWrite) ? BusOp::Write : BusOp::Read;
      break;
    case Op::NcData:
      c.row = BusRow::NcLoad;
      answer = true;
      break;
    case Op::NcAck:
      c.row = BusRow::NcStore;
      answer = ack = true;
      break;
    case Op::RdS:
    case Op::RdX:
    case Op::RdNA:
    case Op::FwdDown:
    case Op::FwdDownO:
      c.row = BusRow::Address;
      // the sender waits for a line (a whole-line write's RdX: an invalidation, buffered)
      c.op = full_write(m) ? BusOp::Write : BusOp::Read;
      break;
    case Op::Upg:
    case Op::FwdInv:
      c.row = BusRow::Address;  // an invalidation: the bridge buffers it
      break;
    case Op::WB:
    case Op::WrInv:
    case Op::SnpData:
    case Op::DataS:
    case Op::DataE:
    case Op::DataM:
    case Op::DataI:
      c.row = dev_src ? BusRow::FromDevice : dev_dst ? BusRow::ToDevice : BusRow::Memory;
      answer = m.op != Op::WB && m.op != Op::WrInv;
      break;
    default:
      c.row = BusRow::Ack;
      return c;
  }
  const unsigned r = idx(c.row);
  const unsigned a = idx(BusRow::Address);
  c.mem_cycles = p_.mem[r] - (answer ? p_.mem[a] : 0);
  if (bridged) c.io_cycles = (p_.io[r] - p_.mem[r]) - (answer ? p_.io[a] - p_.mem[a] : 0);
  if (!answer || turnaround_cycles == 0) return c;
  // the answerer's wait states are inside the row: far bus first, then the answerer's own
  unsigned left = turnaround_cycles;
  auto shorten = [&](unsigned& part, unsigned floor) {
    const unsigned take = part > floor ? std::min(left, part - floor) : 0;
    part -= take;
    left -= take;
  };
  const unsigned mem_floor = ack ? 0 : p_.mem[a];
  const unsigned io_floor = ack ? 0 : p_.io[a] - p_.mem[a];
  if (bridged && dev_src) {
    shorten(c.mem_cycles, mem_floor);
    shorten(c.io_cycles, io_floor);
  } else {
    if (bridged) shorten(c.io_cycles, io_floor);
    shorten(c.mem_cycles, mem_floor);
  }
  return c;
}

BusCarrier::Source& BusCarrier::source(proto::AgentId a) {
  auto it = sources_.find(a);
  if (it != sources_.end()) return it->second;
  Source s;
  const std::string who = "agent" + std::to_string(a);
  s.req = (io_ && is_device_(a)) ? io_->add_requester(who) : mem_->add_requester(who);
  return sources_.emplace(a, std::move(s)).first->second;
}

void BusCarrier::carry(const Msg& m, std::function<void()> arrived) {
  Source& s = source(m.src);
  unsigned turnaround = 0;
  const auto it = closes_transaction(m) ? open_.find(OpenKey{m.dst, m.src, m.tag}) : open_.end();
  if (it != open_.end()) {
    turnaround = unsigned((k_.now() - it->second) / mem_->cycles(1));
    open_.erase(it);
  }
  s.q.push_back(Pending{m, std::move(arrived), turnaround});
  if (!s.busy) start(m.src);
}

void BusCarrier::start(proto::AgentId a) {
  Source& s = sources_.at(a);
  if (s.busy || s.q.empty()) return;
  s.busy = true;
  const BusCrossing c = crossing(s.q.front().m, s.q.front().turnaround);
  counts_[idx(c.row)]++;
  auto done = [this, a] { finish(a); };
  if (c.mem_cycles + c.io_cycles == 0) {  // an acknowledge, or an answer inside the turnaround
    k_.after(0, done);
  } else if (!c.bridged) {
    mem_->transact(s.req, c.mem_cycles, done);
  } else if (is_device_(a)) {
    bridge_->io_to_mem(s.req, c.op, c.io_cycles, c.mem_cycles, {}, done);
  } else {
    bridge_->mem_to_io(s.req, c.op, c.mem_cycles, c.io_cycles, {}, done);
  }
}

// The head message has arrived: deliver it, then let the source's next one cross.
void BusCarrier::finish(proto::AgentId a) {
  Source& s = sources_.at(a);
  auto arrived = std::move(s.q.front().arrived);
  const Msg& m = s.q.front().m;
  if (opens_transaction(m)) open_[OpenKey{m.src, m.dst, m.tag}] = k_.now();
  s.q.pop_front();
  s.busy = false;
  arrived();
  start(a);
}

}  // namespace cni::sim
