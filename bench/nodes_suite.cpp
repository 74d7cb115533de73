// SPDX-License-Identifier: Apache-2.0
// cni-bench nodes: a multi-node system (16 nodes of the profile unless --set nodes=N) in which
// one pair of nodes talks -- node 0 and node 1 ping-pong frames between their devices' scratch-pad
// engines over the network, driven by a core on each with uncached register accesses -- while
// the other nodes idle. Run twice, with every device clocked in every cycle and with idle
// devices' clocks asleep (docs/endpoint.md, "Quiescence"): the wall-clock time of each run (the
// systems' construction and reset aside), the
// device cycles simulated and clocked, the speed-up, and whether the two runs gave the same
// messages at the same times (they must).
#include <chrono>
#include <cstdio>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench.hpp"
#include "cni/sim/profile.hpp"
#include "device/scratch_regs.hpp"
#include "device/system.hpp"
#include "msg_trace.hpp"

namespace cni::bench {
namespace {

using Clock = std::chrono::steady_clock;

struct NodesRun {
  bool skip = false;
  double wall_s = 0, sim_us = 0;
  uint64_t cycles = 0, clocked = 0;
  std::vector<std::string> trace;
  double round_trip_us = 0;  // median ping-pong round trip, simulated
};

NodesRun run_once(const sim::Profile& base, bool skip, unsigned rounds) {
  sim::Profile p = base;
  p.set(std::string("device.skip_idle=") + (skip ? "true" : "false"));
  NodesRun r;
  r.skip = skip;
  tb::System s(p);
  if (s.num_nodes() < 2) throw std::invalid_argument("cni-bench nodes: needs nodes >= 2");
  tb::MessageTrace trace(s);
  const tb::ScratchRegs a(s.device(0, 0)), b(s.device(1, 0));
  std::vector<double> rt;
  s.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    for (unsigned k = 1; k <= rounds; ++k) {
      const uint64_t t0 = m.now_ns();
      a.put_word(m, 0, k);
      a.send(m, 1);
      if ((a.wait_received(m, k, 20, 1u << 30) & 0xFFFF) < k) {
        throw std::runtime_error("cni-bench nodes: node 0 got no answer");
      }
      rt.push_back(double(m.now_ns() - t0) / 1000.0);
    }
  });
  s.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    for (unsigned k = 1; k <= rounds; ++k) {
      b.wait_received(m, k, 20, 1u << 30);
      b.send(m, 0);
    }
  });
  // The run, not the systems' construction and the devices' reset (the same both ways): the
  // wall-clock time, and the device cycles simulated and clocked in it.
  struct Cycles {
    uint64_t simulated = 0, clocked = 0;
  };
  auto totals = [&s] {
    Cycles c;
    for (unsigned n = 0; n < s.num_nodes(); ++n) {
      for (unsigned d = 0; d < s.num_devices(n); ++d) {
        c.simulated += s.device(n, d).cycles();
        c.clocked += s.device(n, d).clocked_cycles();
      }
    }
    return c;
  };
  const Cycles before = totals();
  const auto w0 = Clock::now();
  s.run_programs();
  r.wall_s = std::chrono::duration<double>(Clock::now() - w0).count();
  const Cycles after = totals();
  r.cycles = after.simulated - before.simulated;
  r.clocked = after.clocked - before.clocked;
  r.sim_us = sim::to_ns(s.kernel().now()) / 1000.0;
  r.trace = trace.lines();
  r.round_trip_us = stats_of(rt).median;
  return r;
}

}  // namespace

int run_nodes(const Options& o) {
  sim::Profile p = sim::Profile::load(o.profile);
  if (p.has("sim.seed")) p.set("sim.seed", std::to_string(o.seed));
  p.set("nodes=16");
  for (const auto& s : o.sets) p.set(s);
  const unsigned rounds = o.quick ? 20 : 200;
  std::fprintf(stderr, "[cni-bench] %lld nodes, %u round trips: every device clocked\n",
               static_cast<long long>(p.get_int("nodes")), rounds);
  const NodesRun awake = run_once(p, false, rounds);
  std::fprintf(stderr, "[cni-bench] idle devices asleep\n");
  const NodesRun asleep = run_once(p, true, rounds);
  const bool same = awake.trace == asleep.trace && awake.cycles == asleep.cycles;
  const double speedup = asleep.wall_s > 0 ? awake.wall_s / asleep.wall_s : 0;

  std::ostringstream js;
  js << "{\"suite\":\"nodes\",\"profile\":\"" << p.name() << "\",\"nodes\":" << p.get_int("nodes")
     << ",\"round_trips\":" << rounds << ",\"round_trip_us\":" << fmt(asleep.round_trip_us, 3)
     << ",\"runs\":[";
  for (const NodesRun* r : {&awake, &asleep}) {
    js << (r == &awake ? "" : ",") << "{\"idle_devices_sleep\":" << (r->skip ? "true" : "false")
       << ",\"wall_s\":" << fmt(r->wall_s, 3) << ",\"device_cycles\":" << r->cycles
       << ",\"clocked_cycles\":" << r->clocked << ",\"messages\":" << r->trace.size() << "}";
  }
  js << "],\"speedup\":" << fmt(speedup, 2) << ",\"same_messages\":" << (same ? "true" : "false")
     << "}";
  emit_json(o, js.str());
  if (!o.json) {
    std::printf("OpenCNI cni-bench nodes: profile %s, %lld nodes, nodes 0 and 1 ping-pong %u frames "
                "between their scratch-pad engines, the others idle\n",
                p.name().c_str(), static_cast<long long>(p.get_int("nodes")), rounds);
    std::printf("round trip (core to core, simulated): median %.3f us, %.1f us simulated\n\n",
                asleep.round_trip_us, asleep.sim_us);
    std::printf(" idle devices      wall_s   device_cycles   clocked_cycles   messages\n");
    for (const NodesRun* r : {&awake, &asleep}) {
      std::printf(" %-14s %9.3f %15llu %16llu %10zu\n", r->skip ? "asleep" : "clocked",
                  r->wall_s, static_cast<unsigned long long>(r->cycles),
                  static_cast<unsigned long long>(r->clocked), r->trace.size());
    }
    std::printf("\nspeed-up with idle devices asleep: %.2fx (whole runs, wall clock)\n", speedup);
    std::printf("the two runs gave %s\n",
                same ? "the same messages at the same times" : "DIFFERENT messages");
  }
  return same ? 0 : 1;
}

}  // namespace cni::bench
