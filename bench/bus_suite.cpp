// SPDX-License-Identifier: Apache-2.0
// cni-bench bus: what the RTL device needs inside seed 000's bus transactions, on its two
// machines (profiles mbus-1996 and iobus-1996; docs/network.md, "The coherence fabric on a
// bus"). Table 2's occupancies are an input of 000's simulator and of ours: the profile sets
// them (bus.mem.*, bus.io.*) and the bus charges them, with the answerer's turnaround inside the
// row. What the model can measure is that turnaround: for each operation the Verilated device
// core answers, the time from the request reaching the device to its answer leaving it, in
// device cycles (at device.freq_mhz) and in processor cycles, beside the row's slack (the cycles
// the row leaves the answerer after the request's address part and the answer's own floor).
// A turnaround over the slack is where the RTL would not fit inside the 1996 budget: the
// transaction then takes its row plus the excess.
//
// Operations (node 0, core 0; each `iterations` times, the median):
//   nc_load     uncached 8-byte load of a device register (the scratch-pad engine's NET_TX):
//               Nc -> NcData, the device answers
//   nc_store    uncached 8-byte store to a device register, until acknowledged (a line-buffer
//               word): Nc -> NcAck, the device answers
//   from_device a load missing on a device line no one holds: RdS -> DataE, the device's home
//               agent answers
//   to_device   the device pulling a line a core holds dirty (the scratch-pad engine's
//               RECALL_DN: FwdDown -> SnpData): the core's cache answers
//   memory      a load missing on host memory: RdS -> DataE, the host's memory answers
// The last two involve no device turnaround: the suite lists their rows as configured.
#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

#include "bench.hpp"
#include "cni/sim/bus_carrier.hpp"
#include "cni/sim/profile.hpp"
#include "device/scratch_regs.hpp"
#include "device/system.hpp"

namespace cni::bench {
namespace {

enum class BusOpKind { NcLoad, NcStore, FromDevice, ToDevice, Memory };

struct BusRowResult {
  const char* op = "";
  const char* what = "";
  const char* answerer = "";
  unsigned table2 = 0;           // 000 Table 2, processor cycles (the I/O-bus row on iobus)
  bool device_answers = false;   // the device core's turnaround is inside the row
  unsigned slack = 0;            // processor cycles the row leaves the answerer (device rows)
  Stats turnaround_dev;          // the device's turnaround, device cycles
  Stats turnaround_pc;           // the same, processor cycles
  Stats latency;                 // the operation's latency through the model, processor cycles
  // Processor cycles of the median turnaround beyond the slack (0: it fits).
  double over() const {
    return device_answers ? std::max(0.0, turnaround_pc.median - double(slack)) : 0.0;
  }
};

// Whether `m` is a device's answer that closes the transaction of a request it was sent:
// the answers of the operations measured here.
bool device_answer(proto::Op op) {
  return op == proto::Op::NcData || op == proto::Op::NcAck || op == proto::Op::DataE ||
         op == proto::Op::DataS;
}

std::vector<BusRowResult> measure(const sim::Profile& p, unsigned n) {
  tb::System s(p);
  sim::HostSystem& host = s.node(0).host();
  tb::SimDevice& dev = s.device(0, 0);
  sim::Kernel& k = s.kernel();
  const sim::BusParams bp = sim::BusParams::from_profile(p);
  const sim::BusCarrier& carrier = *host.bus();
  const bool io = bp.model == sim::BusModel::Io;
  auto row = [&](sim::BusRow r) {
    const unsigned i = static_cast<unsigned>(r);
    return io ? bp.io[i] : bp.mem[i];
  };
  const double cycle_ps = 1e6 / bp.cycle_mhz;
  const double dev_cycle_ps = 1e6 / p.get_double("device.freq_mhz");
  const unsigned lb = dev.geometry().line_bytes;
  const tb::ScratchRegs regs(dev);
  const unsigned mem0 = dev.geometry().base(tb::DeviceGeometry::kMem);
  const unsigned scr0 = dev.geometry().base(tb::DeviceGeometry::kScratch);
  if (n > dev.geometry().mem_lines || n > dev.geometry().regions[tb::DeviceGeometry::kScratch].lines) {
    throw std::invalid_argument("cni-bench bus: more iterations than device lines");
  }
  constexpr unsigned kOps = 5;
  std::vector<double> latency[kOps], turn_ps[kOps];
  unsigned slack[kOps] = {};
  std::optional<BusOpKind> timing;  // the operation being timed: its device answer counts
  // the device's turnaround: a request reaching it -> its answer leaving it (matched by the
  // requester and the tag, as the bus matches them)
  std::map<std::tuple<proto::AgentId, uint8_t>, sim::Time> arrived;
  s.node(0).fabric().on_deliver([&](const proto::Msg& m, sim::Time t) {
    if (timing && m.dst == dev.id()) arrived[{m.src, m.tag}] = t;
  });
  // to_device: the FwdDown the device sends and the SnpData it gets back, per line
  sim::Time fwd_at = 0;
  s.node(0).fabric().on_send([&](const proto::Msg& m, sim::Time t) {
    if (m.op == proto::Op::FwdDown && m.src == dev.id()) fwd_at = t;
    if (!timing || m.src != dev.id() || !device_answer(m.op)) return;
    const auto it = arrived.find({m.dst, m.tag});
    if (it == arrived.end()) return;
    const unsigned i = static_cast<unsigned>(*timing);
    turn_ps[i].push_back(double(t - it->second));
    // the row's slack for this answer: its bus cycles without a turnaround less its cycles
    // with one longer than any row (each part down to its floor)
    const sim::BusCrossing full = carrier.crossing(m, 0), least = carrier.crossing(m, 1u << 20);
    slack[i] = full.mem_cycles + full.io_cycles - least.mem_cycles - least.io_cycles;
    arrived.erase(it);
  });
  s.node(0).fabric().on_deliver([&](const proto::Msg& m, sim::Time t) {
    if (m.op == proto::Op::SnpData && m.dst == dev.id()) {
      latency[static_cast<unsigned>(BusOpKind::ToDevice)].push_back(double(t - fwd_at) / cycle_ps);
    }
  });
  host.spawn(0, [&](drv::MemoryPort& m) {
    uint64_t v = 0;
    auto timed = [&](BusOpKind op, const std::function<void()>& fn) {
      timing = op;
      const sim::Time t0 = k.now();
      fn();
      latency[static_cast<unsigned>(op)].push_back(double(k.now() - t0) / cycle_ps);
      timing.reset();
    };
    for (unsigned i = 0; i < n; ++i) {
      timed(BusOpKind::NcLoad, [&] { (void)regs.sent(m); });
      timed(BusOpKind::NcStore, [&] { regs.put_word(m, 0, i); });
      timed(BusOpKind::FromDevice, [&] { m.load(dev.host_addr(mem0 + i), &v, 8); });
      timed(BusOpKind::Memory,
            [&] { m.load(sim::HostSystem::dram_base(0) + 0x100000 + uint64_t(i) * lb, &v, 8); });
      // a dirty line for the engine to pull (the core started the pull and waits 2 us before
      // it polls for the end, so that its uncached loads do not meet the pull on the bus)
      m.store(dev.host_addr(scr0 + i), &i, sizeof i);
      m.barrier();
      regs.start_line_op(m, 0, i);
      m.pause_ns(2000);
      if (regs.wait_idle(m) & 2u) throw std::runtime_error("cni-bench bus: scratch line refused");
    }
  });
  host.run_programs();
  for (BusOpKind op : {BusOpKind::NcLoad, BusOpKind::NcStore, BusOpKind::FromDevice,
                       BusOpKind::ToDevice, BusOpKind::Memory}) {
    const unsigned i = static_cast<unsigned>(op);
    const bool device_op = op != BusOpKind::ToDevice && op != BusOpKind::Memory;
    if (latency[i].size() != n || (device_op && turn_ps[i].size() != n)) {
      throw std::runtime_error("cni-bench bus: operation " + std::to_string(i) + ": " +
                               std::to_string(latency[i].size()) + " timed and " +
                               std::to_string(turn_ps[i].size()) + " device answers seen of " +
                               std::to_string(n));
    }
  }
  auto result = [&](BusOpKind op, const char* name, const char* what, const char* answerer,
                    unsigned table2) {
    const unsigned i = static_cast<unsigned>(op);
    BusRowResult r;
    r.op = name;
    r.what = what;
    r.answerer = answerer;
    r.table2 = table2;
    r.device_answers = !turn_ps[i].empty();
    r.slack = slack[i];
    std::vector<double> dev_cy, pc;
    for (double ps : turn_ps[i]) {
      dev_cy.push_back(ps / dev_cycle_ps);
      pc.push_back(ps / cycle_ps);
    }
    r.turnaround_dev = stats_of(dev_cy);
    r.turnaround_pc = stats_of(pc);
    r.latency = stats_of(latency[i]);
    return r;
  };
  using R = sim::BusRow;
  return {
      result(BusOpKind::NcLoad, "nc_load", "uncached 8-byte load from NI", "device",
             row(R::NcLoad)),
      result(BusOpKind::NcStore, "nc_store", "uncached 8-byte store to NI (until acked)",
             "device", row(R::NcStore)),
      result(BusOpKind::FromDevice, "from_device", "cache-to-cache CNI -> processor (64 B)",
             "device", row(R::FromDevice)),
      result(BusOpKind::ToDevice, "to_device", "cache-to-cache processor -> CNI (64 B)",
             "processor", row(R::ToDevice)),
      result(BusOpKind::Memory, "memory", "memory-to-cache (64 B)", "memory",
             bp.mem[static_cast<unsigned>(R::Memory)]),
  };
}

}  // namespace

int run_bus(const Options& o) {
  std::vector<std::string> names;
  if (o.profile_given) {
    names.push_back(o.profile);
  } else {
    names = {"mbus-1996", "iobus-1996"};
  }
  const unsigned n = o.quick ? 20 : 60;  // one scratch-pad line each (64 in the model)
  std::ostringstream js;
  js << "{\"suite\":\"bus\",\"iterations\":" << n << ",\"profiles\":[";
  std::ostringstream csv;
  csv << "profile,op,answerer,table2_cycles,slack_cycles,turnaround_device_cycles,"
         "turnaround_cycles,over_cycles,latency_cycles\n";
  bool first_profile = true;
  for (const std::string& name : names) {
    sim::Profile p = sim::Profile::load(name);
    if (p.has("sim.seed")) p.set("sim.seed", std::to_string(o.seed));
    for (const auto& s : o.sets) p.set(s);
    p.set("nodes=1");  // the bus is a node's: one node says it all
    const sim::BusParams bp = sim::BusParams::from_profile(p);
    if (bp.model == sim::BusModel::None) {
      throw std::invalid_argument("cni-bench bus: profile " + p.name() +
                                  " has no bus (bus.model); use mbus-1996 or iobus-1996");
    }
    std::fprintf(stderr, "[cni-bench] bus: %s, %u of each operation\n", p.name().c_str(), n);
    const std::vector<BusRowResult> rows = measure(p, n);
    const double dev_mhz = p.get_double("device.freq_mhz");
    js << (first_profile ? "" : ",") << "{\"profile\":\"" << p.name() << "\",\"bus\":\""
       << (bp.model == sim::BusModel::Io ? "iobus" : "mbus")
       << "\",\"device_mhz\":" << fmt(dev_mhz, 1) << ",\"rows\":[";
    first_profile = false;
    for (size_t i = 0; i < rows.size(); ++i) {
      const BusRowResult& r = rows[i];
      const auto dev_num = [&](double v, int prec) {
        return r.device_answers ? fmt(v, prec) : std::string("null");
      };
      js << (i ? "," : "") << "{\"op\":\"" << r.op << "\",\"answerer\":\"" << r.answerer
         << "\",\"table2_cycles\":" << r.table2
         << ",\"slack_cycles\":" << dev_num(r.slack, 0)
         << ",\"turnaround_device_cycles\":" << dev_num(r.turnaround_dev.median, 2)
         << ",\"turnaround_cycles\":" << dev_num(r.turnaround_pc.median, 2)
         << ",\"over_cycles\":" << dev_num(r.over(), 2)
         << ",\"latency_cycles\":" << fmt(r.latency.median, 1) << "}";
      csv << p.name() << ',' << r.op << ',' << r.answerer << ',' << r.table2 << ','
          << (r.device_answers ? fmt(r.slack) : "") << ','
          << (r.device_answers ? fmt(r.turnaround_dev.median, 2) : "") << ','
          << (r.device_answers ? fmt(r.turnaround_pc.median, 2) : "") << ','
          << (r.device_answers ? fmt(r.over(), 2) : "") << ',' << fmt(r.latency.median, 1)
          << '\n';
    }
    js << "]}";
    if (!o.json) {
      std::printf("OpenCNI cni-bench bus: profile %s (%s bus), device core at %.0f MHz (%.0f "
                  "processor cycles per device cycle), %u of each, processor cycles (%.0f MHz)\n",
                  p.name().c_str(), bp.model == sim::BusModel::Io ? "I/O" : "memory", dev_mhz,
                  bp.cycle_mhz / dev_mhz, n, bp.cycle_mhz);
      std::printf("%-42s %7s %-9s %5s %11s %11s %5s\n", "operation", "table2", "answerer", "slack",
                  "turnaround", "turnaround", "over");
      std::printf("%-42s %7s %-9s %5s %11s %11s %5s\n", "", "(input)", "", "", "(device cy)",
                  "(proc cy)", "");
      std::string late;
      for (const BusRowResult& r : rows) {
        if (!r.device_answers) {
          std::printf("%-42s %7u %-9s %5s %11s %11s %5s\n", r.what, r.table2, r.answerer, "-",
                      "-", "-", "-");
          continue;
        }
        std::printf("%-42s %7u %-9s %5u %11.1f %11.1f %5.1f\n", r.what, r.table2, r.answerer,
                    r.slack, r.turnaround_dev.median, r.turnaround_pc.median, r.over());
        if (r.over() > 0) {
          char b[160];
          std::snprintf(b, sizeof b, "  %s: the device needs %.1f processor cycles, the row "
                        "leaves it %u: the transaction takes %.1f, not %u\n", r.what,
                        r.turnaround_pc.median, r.slack, r.table2 + r.over(), r.table2);
          late += b;
        }
      }
      std::printf("table2: 000 Table 2's occupancy of the whole transaction, processor cycles, set "
                  "by the profile (bus.%s.*) and charged by the bus: an input, not a result\n",
                  bp.model == sim::BusModel::Io ? "io" : "mem");
      std::printf("slack: the cycles the row leaves its answerer after the request's address "
                  "part and the answer's floor (docs/network.md)\n");
      std::printf("turnaround: measured, the request reaching the device -> its answer leaving "
                  "it (median), the wait for the device's clock edge included\n");
      std::printf("over: the turnaround beyond the slack, which the transaction adds to its row\n");
      if (late.empty()) {
        std::printf("the RTL's turnaround fits inside every row's slack\n\n");
      } else {
        std::printf("where the RTL does not fit inside the 1996 budget:\n%s\n", late.c_str());
      }
    }
  }
  js << "]}";
  emit_json(o, js.str());
  emit_csv(o, "bus", csv.str());
  return 0;
}

}  // namespace cni::bench
