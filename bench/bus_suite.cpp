// SPDX-License-Identifier: Apache-2.0
// cni-bench bus: seed 000's bus transactions on its two machines (profiles mbus-1996 and
// iobus-1996; docs/network.md, "The coherence fabric on a bus"), measured through the host
// model and the Verilated device core of one node: the latency of each Table 2 operation beside
// Table 2's occupancy for it. A transaction takes its row's cycles, the answering agent's
// turnaround included (the RTL's cycles from a request at its port to its answer, at
// device.freq_mhz, run inside the row's slack); what the latency adds is the core's own time
// (core.access_ns, cache.miss_ns) and whatever turnaround exceeds the slack.
//
// Operations (node 0, core 0; each `iterations` times, the median):
//   nc_load     uncached 8-byte load of a device register (the scratch-pad engine's NET_TX)
//   nc_store    uncached 8-byte store to a device register, until acknowledged (a line-buffer
//               word)
//   from_device a load missing on a device line no one holds: RdS, the device's line (DataE)
//   to_device   the device pulling a line a core holds dirty: the scratch-pad engine's coherent
//               read (RECALL_DN: FwdDown to the core, its SnpData), from the FwdDown leaving the
//               device to the SnpData reaching it (the core started the read and waits 2 us
//               before it polls for the end, so that its uncached loads do not meet the pull on
//               the bus)
//   memory      a load missing on host memory: RdS, memory's line
#include <cstdio>
#include <functional>
#include <fstream>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench.hpp"
#include "cni/sim/bus_carrier.hpp"
#include "cni/sim/profile.hpp"
#include "device/scratch_regs.hpp"
#include "device/system.hpp"

namespace cni::bench {
namespace {

struct BusRowResult {
  const char* op;
  const char* what;
  unsigned table2 = 0;      // 000 Table 2, processor cycles (the I/O-bus row on iobus)
  Stats cycles;             // latency, processor cycles
};

std::vector<BusRowResult> measure(const sim::Profile& p, unsigned n) {
  tb::System s(p);
  sim::HostSystem& host = s.node(0).host();
  tb::SimDevice& dev = s.device(0, 0);
  sim::Kernel& k = s.kernel();
  const sim::BusParams bp = sim::BusParams::from_profile(p);
  const bool io = bp.model == sim::BusModel::Io;
  auto row = [&](sim::BusRow r) {
    const unsigned i = static_cast<unsigned>(r);
    return io ? bp.io[i] : bp.mem[i];
  };
  const double cycle_ps = 1e6 / p.get_double("cpu.freq_mhz");
  const unsigned lb = dev.geometry().line_bytes;
  const tb::ScratchRegs regs(dev);
  const unsigned mem0 = dev.geometry().base(tb::DeviceGeometry::kMem);
  const unsigned scr0 = dev.geometry().base(tb::DeviceGeometry::kScratch);
  if (n > dev.geometry().mem_lines || n > dev.geometry().regions[tb::DeviceGeometry::kScratch].lines) {
    throw std::invalid_argument("cni-bench bus: more iterations than device lines");
  }
  std::vector<double> nc_load, nc_store, from_dev, to_dev, memory;
  // to_device: the FwdDown the device sends and the SnpData it gets back, per line
  sim::Time fwd_at = 0;
  s.node(0).fabric().on_send([&](const proto::Msg& m, sim::Time t) {
    if (m.op == proto::Op::FwdDown && m.src == dev.id()) fwd_at = t;
  });
  s.node(0).fabric().on_deliver([&](const proto::Msg& m, sim::Time t) {
    if (m.op == proto::Op::SnpData && m.dst == dev.id()) to_dev.push_back(double(t - fwd_at) / cycle_ps);
  });
  host.spawn(0, [&](drv::MemoryPort& m) {
    uint64_t v = 0;
    auto timed = [&](std::vector<double>& out, const std::function<void()>& op) {
      const sim::Time t0 = k.now();
      op();
      out.push_back(double(k.now() - t0) / cycle_ps);
    };
    for (unsigned i = 0; i < n; ++i) {
      timed(nc_load, [&] { (void)regs.sent(m); });
      timed(nc_store, [&] { regs.put_word(m, 0, i); });
      timed(from_dev, [&] { m.load(dev.host_addr(mem0 + i), &v, 8); });
      timed(memory, [&] { m.load(sim::HostSystem::dram_base(0) + 0x100000 + uint64_t(i) * lb, &v, 8); });
      // a dirty line for the engine to pull
      m.store(dev.host_addr(scr0 + i), &i, sizeof i);
      m.barrier();
      regs.start_line_op(m, 0, i);
      m.pause_ns(2000);
      if (regs.wait_idle(m) & 2u) throw std::runtime_error("cni-bench bus: scratch line refused");
    }
  });
  host.run_programs();
  if (to_dev.size() != n) {
    throw std::runtime_error("cni-bench bus: " + std::to_string(to_dev.size()) + " pulls seen of " +
                             std::to_string(n));
  }
  using R = sim::BusRow;
  return {
      {"nc_load", "uncached 8-byte load from NI", row(R::NcLoad), stats_of(nc_load)},
      {"nc_store", "uncached 8-byte store to NI (until acked)", row(R::NcStore), stats_of(nc_store)},
      {"from_device", "cache-to-cache CNI -> processor (64 B)", row(R::FromDevice), stats_of(from_dev)},
      {"to_device", "cache-to-cache processor -> CNI (64 B)", row(R::ToDevice), stats_of(to_dev)},
      {"memory", "memory-to-cache (64 B)", bp.mem[static_cast<unsigned>(R::Memory)], stats_of(memory)},
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
  csv << "profile,op,table2_cycles,median_cycles,min_cycles,max_cycles\n";
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
    js << (first_profile ? "" : ",") << "{\"profile\":\"" << p.name() << "\",\"bus\":\""
       << (bp.model == sim::BusModel::Io ? "iobus" : "mbus")
       << "\",\"device_mhz\":" << fmt(p.get_double("device.freq_mhz"), 1) << ",\"rows\":[";
    first_profile = false;
    for (size_t i = 0; i < rows.size(); ++i) {
      const BusRowResult& r = rows[i];
      js << (i ? "," : "") << "{\"op\":\"" << r.op << "\",\"table2_cycles\":" << r.table2
         << ",\"median_cycles\":" << fmt(r.cycles.median, 1) << "}";
      csv << p.name() << ',' << r.op << ',' << r.table2 << ',' << fmt(r.cycles.median, 1) << ','
          << fmt(r.cycles.min, 1) << ',' << fmt(r.cycles.max, 1) << '\n';
    }
    js << "]}";
    if (!o.json) {
      std::printf("OpenCNI cni-bench bus: profile %s (%s bus), device core at %.0f MHz, %u of each, "
                  "processor cycles (%.0f MHz)\n",
                  p.name().c_str(), bp.model == sim::BusModel::Io ? "I/O" : "memory",
                  p.get_double("device.freq_mhz"), n, p.get_double("cpu.freq_mhz"));
      std::printf("%-44s %8s %8s %8s %7s\n", "operation", "table2", "ours", "added", "ratio");
      for (const BusRowResult& r : rows) {
        std::printf("%-44s %8u %8.1f %8.1f %7.2f\n", r.what, r.table2, r.cycles.median,
                    r.cycles.median - r.table2, r.cycles.median / r.table2);
      }
      std::printf("table2: seed 000 Table 2's bus occupancy for the operation (the whole "
                  "transaction, the answerer's turnaround inside it); ours: its latency, median; "
                  "added: the core's own time and the device's beyond the row\n\n");
    }
  }
  js << "]}";
  emit_json(o, js.str());
  if (!o.csv_dir.empty()) {
    const std::string path = o.csv_dir + "/bus.csv";
    std::ofstream f(path);
    if (!f) throw std::runtime_error("cannot write " + path);
    f << csv.str();
  }
  return 0;
}

}  // namespace cni::bench
