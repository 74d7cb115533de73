// SPDX-License-Identifier: Apache-2.0
// cni-bench dsm: seed 001's remote read miss on Stache (docs/dsm.md), two nodes of the profile
// at 64-byte lines on the benchmark build's tag-store model. Node 1 loads a block homed on node
// 0 that is idle at the home (001 section 4.1: the home downgrades it from ReadWrite to ReadOnly
// and sends a copy); the miss is broken down by the handlers' timestamps into 001 Table 1's
// steps, for each design point built (Typhoon-1, Typhoon-0), beside an idealized all-hardware
// Stache (Simple COMA, a model: the hardware steps only, no handler). Then the same miss with the
// network's one-way latency swept over 001 Fig. 8's points. Every load's line is checked against
// the bytes the home wrote.
#include <cstdio>
#include <functional>
#include <fstream>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "bench.hpp"
#include "cni/sim/bus_carrier.hpp"
#include "cni/sim/profile.hpp"
#include "device/dsm.hpp"
#include "device/em3d.hpp"
#include "msg_trace.hpp"

namespace cni::bench {
namespace {

using drv::StacheStep;
using tb::DsmDesign;

// 001 Table 1's ratios to Simple COMA (301 processor cycles): Typhoon 1.33 (33% longer),
// Typhoon-1 about twice Typhoon, Typhoon-0 about twice Typhoon-1 (derived from 001's text).
constexpr double kPaperSc = 301.0;

// The design points run: 001's two that do not need a custom protocol processor (Typhoon-1: the
// tag store's own network interface, block data from engine to engine), and beyond the paper
// Typhoon-1 with its messages through the CNI engine's cachable queues beside the tag store,
// their arrivals through the dispatch register or the receive queue polled by the protocol core.
struct Point {
  const char* name;
  DsmDesign design;
  bool poll_ni;
  bool ts_ni;
  double paper_ratio;  // 0: not in 001
};
constexpr Point kPoints[] = {
    {"Typhoon-1", DsmDesign::Typhoon1, false, true, 2.66},
    {"Typhoon-0", DsmDesign::Typhoon0, false, false, 5.32},
    {"Typhoon-1, CNI queues", DsmDesign::Typhoon1, false, false, 0},
    {"Typhoon-1, CNI, NI polled", DsmDesign::Typhoon1, true, false, 0},
};
constexpr unsigned kNumPoints = 4;

// The steps of 001 Table 1, as the handlers' timestamps delimit them.
constexpr const char* kSteps[] = {
    "fault detect + dispatch",   // the load issued -> the requester's handler has the fault
    "request handler",           // -> the request sent
    "request: network + dispatch",  // -> the home's handler starts on it
    "home handler",              // -> the reply sent (the block downgraded and read)
    "reply: network + dispatch", // -> the requester's handler starts on it
    "fill",                      // -> the fill and resume issued
    "resume + fetch data",       // -> the load completes
};
constexpr unsigned kNumSteps = 7;

struct Miss {
  std::vector<double> total;
  std::vector<std::vector<double>> step = std::vector<std::vector<double>>(kNumSteps);
  // Transactions on the two nodes' memory buses in each step and in all (none on a profile
  // whose coherence fabric is not a bus).
  std::vector<std::vector<double>> bus = std::vector<std::vector<double>>(kNumSteps + 1);
  bool has_bus = false;  // the nodes' coherence fabric is a bus
  uint64_t mismatches = 0;
};

// Bus tenures granted so far on the memory buses of nodes 0 and 1 (0 without a bus).
uint64_t bus_transactions(tb::DsmSystem& d) {
  uint64_t n = 0;
  for (unsigned i = 0; i < 2; ++i) {
    if (sim::BusCarrier* b = d.system().node(i).host().bus()) {
      n += b->memory_bus().stats().transactions;
    }
  }
  return n;
}

// `samples` remote read misses of node 1 on blocks homed at node 0; with --msg-trace, the
// coherence messages from the last miss's start on go to the trace file.
Miss remote_misses(const sim::Profile& p, const Point& pt, unsigned samples,
                   TraceFile* tf = nullptr) {
  tb::DsmConfig cfg;
  cfg.design = pt.design;
  cfg.poll_ni = pt.poll_ni;
  cfg.ts_ni = pt.ts_ni;
  cfg.ts_variant = "dsm";
  cfg.ni_variant = "ni2w";
  tb::DsmSystem d(p, cfg);
  std::vector<uint32_t> home0;
  for (uint32_t b = 0; b < d.blocks(); ++b) {
    if (d.home_of(b) == 0) home0.push_back(b);
  }
  Miss r;
  r.has_bus = d.system().node(0).host().bus() != nullptr;
  bool measuring = false;
  uint64_t t[kNumSteps + 1] = {};
  uint64_t tx[kNumSteps + 1] = {};  // bus transactions so far at each step's start
  d.on_step = [&](unsigned node, StacheStep s, uint32_t, uint64_t ns) {
    if (!measuring) return;
    const bool requester = node == 1;
    int k = -1;
    switch (s) {
      case StacheStep::FaultTaken: if (requester) k = 1; break;
      case StacheStep::RequestSent: if (requester) k = 2; break;
      case StacheStep::RequestAtHome: if (!requester) k = 3; break;
      case StacheStep::ReplySent: if (!requester) k = 4; break;
      case StacheStep::ReplyAtRequester: if (requester) k = 5; break;
      case StacheStep::Filled: if (requester) k = 6; break;
    }
    if (k < 0) return;
    t[k] = ns;
    tx[k] = bus_transactions(d);
  };
  std::optional<tb::MessageTrace> trace;
  unsigned phase = 0;  // 2i + 1: sample i written by the home; 2i + 2: read by node 1
  const unsigned lb = 64;
  auto pattern = [&](unsigned i) {
    std::vector<uint8_t> v(lb);
    for (unsigned k = 0; k < lb; ++k) v[k] = uint8_t(i * 31 + k * 7 + 3);
    return v;
  };
  d.run([&](unsigned n, unsigned, drv::MemoryPort& m) {
    for (unsigned i = 0; i < samples; ++i) {
      const uint32_t b = home0[i % home0.size()];
      if (n == 0) {  // the home writes the block: idle at the home, node 1's copy invalidated
        while (phase != 2 * i) m.pause_ns(100);
        const auto v = pattern(i);
        m.store(d.block_addr(0, b), v.data(), lb);
        m.barrier();
        phase = 2 * i + 1;
      } else {
        while (phase != 2 * i + 1) m.pause_ns(100);
        m.pause_ns(5000);  // every handler idle again
        if (tf && i + 1 == samples) trace = tf->start(d.system());
        std::vector<uint8_t> got(lb);
        measuring = true;
        t[0] = m.now_ns();
        tx[0] = bus_transactions(d);
        m.load(d.block_addr(1, b), got.data(), lb);
        const uint64_t end = m.now_ns();
        const uint64_t tx_end = bus_transactions(d);
        measuring = false;
        if (got != pattern(i)) r.mismatches++;
        r.total.push_back(double(end - t[0]));
        uint64_t prev = t[0];
        for (unsigned s = 0; s < kNumSteps; ++s) {
          const uint64_t at = s + 1 < kNumSteps ? t[s + 1] : end;
          r.step[s].push_back(double(at - prev));
          prev = at;
          r.bus[s].push_back(double((s + 1 < kNumSteps ? tx[s + 1] : tx_end) - tx[s]));
        }
        r.bus[kNumSteps].push_back(double(tx_end - tx[0]));
        phase = 2 * i + 2;
      }
    }
  });
  if (tf) tf->write(trace, std::string("dsm ") + p.name() + " " + pt.name + " remote read miss");
  return r;
}

// The one-way network latency of a frame of `bytes` (store-and-forward over the topology's
// links, each with its latency and serialization at the line rate, gap included).
double net_one_way_ns(const sim::Profile& p, unsigned bytes) {
  return sim::to_ns(sim::NetParams::from_profile(p).one_way(bytes));
}

// Simple COMA (001 section 3: an idealized hardware Stache, zero handler cost, one cycle per
// message): the requester's miss reaches the device and its answer comes back as a miss to
// device memory does (`local_miss_ns`, measured), plus the request's and the reply's network
// transits (the frames of the tag store's network interface: a 12-byte header carrying the
// block, the data, a 4-byte FCS), the home's fetch of the block (`fetch_ns`, measured: a read of
// device memory by the home agent) and one device cycle per message.
double simple_coma_ns(const sim::Profile& p, double local_miss_ns, double fetch_ns) {
  const double cycle = 1000.0 / p.get_double("device.freq_mhz");
  return local_miss_ns + net_one_way_ns(p, 12 + 4) + net_one_way_ns(p, 12 + 64 + 4) + fetch_ns +
         2 * cycle;
}

// A miss of node 1's core to plain device memory (a cold line each time), and the device's
// cycles from the request's arrival to its answer.
std::pair<double, double> local_device_miss(const sim::Profile& p, unsigned samples) {
  tb::DsmConfig cfg;
  cfg.ts_variant = "dsm";
  tb::DsmSystem d(p, cfg);
  std::vector<double> lat;
  d.run([&](unsigned n, unsigned, drv::MemoryPort& m) {
    if (n != 1) return;
    d.ts_device(1).clear_latency_samples();  // the protocol cores' set-up is done
    for (unsigned i = 0; i < samples; ++i) {
      const uint64_t t0 = m.now_ns();
      (void)m.load64(d.ts_device(1).host_addr(8 + i));
      lat.push_back(double(m.now_ns() - t0));
      m.pause_ns(2000);
    }
  });
  std::vector<double> cyc;
  for (uint32_t c : d.ts_device(1).first_response_cycles()) cyc.push_back(c);
  return {stats_of(lat).median, stats_of(cyc).median * 1000.0 / p.get_double("device.freq_mhz")};
}

// The protocol cores' pause between looks that find nothing in the EM3D runs (up to 32 idle
// pollers would otherwise dominate the simulation's time): a fault or message waits at most this
// much longer for its handler.
constexpr uint64_t kEm3dIdlePauseNs = 100;

using RowFn = std::function<void(const std::string&, const std::string&, unsigned, double,
                                  const std::string&, double, std::optional<double>)>;

// EM3D (001 section 4.2; 000 Table 3's parameters: 1 K graph nodes, degree 5, 10% remote, span
// 6, 10 iterations) on Typhoon-1, with the standard protocol and with the custom deferred update
// protocol: the time per iteration after the first on 1 .. 32 nodes (the `dsm` model's CNI
// engine keeps windows for 32), the speed-up over the standard protocol on one node, then both
// on 4 nodes against the network's latency (001 Fig. 8). Every run's values are checked against the
// sequential computation.
void em3d(const Options& o, const sim::Profile& p, double net_us, const RowFn& row,
          uint64_t& mismatches) {
  tb::Em3dParams ep;
  ep.iterations = o.quick ? 3 : 10;
  std::vector<uint64_t> e, h;
  tb::em3d_reference(ep, e, h);
  tb::DsmConfig cfg;
  cfg.ts_variant = "dsm";
  cfg.idle_pause_ns = kEm3dIdlePauseNs;
  const std::vector<unsigned> counts =
      o.quick ? std::vector<unsigned>{1, 2, 4} : std::vector<unsigned>{1, 2, 4, 8, 16, 32};
  auto run = [&](sim::Profile q, unsigned nodes, bool custom) {
    q.set("nodes", std::to_string(nodes));
    ep.custom = custom;
    tb::DsmSystem d(q, tb::em3d_config(cfg, ep));
    const tb::Em3dResult r = tb::run_em3d(d, ep);
    if (r.e != e || r.h != h) mismatches++;
    return r.iteration_ns;
  };
  const char* names[2] = {"standard", "custom update"};
  std::vector<double> t[2];
  for (unsigned c = 0; c < 2; ++c) {
    std::fprintf(stderr, "[cni-bench] dsm: %s, EM3D %s, nodes", p.name().c_str(), names[c]);
    for (unsigned n : counts) {
      std::fprintf(stderr, " %u", n);
      t[c].push_back(run(p, n, c == 1));
    }
    std::fprintf(stderr, "\n");
  }
  const double seq = t[0][0];  // the standard protocol on one node: every page local
  if (!o.json) {
    std::printf(
        "\nEM3D (001 s4.2; 000 Table 3: %u graph nodes, degree %u, %.0f%% remote, span %u, "
        "%u iterations), Typhoon-1 with the CNI queues: us per iteration after the first, "
        "speed-up over one node; idle protocol cores pause %llu ns between looks\n%8s",
        ep.graph_nodes, ep.degree, ep.remote * 100, ep.span, ep.iterations,
        static_cast<unsigned long long>(kEm3dIdlePauseNs), "nodes");
    for (const char* nm : names) std::printf(" %16s %8s", nm, "speedup");
    std::printf("\n");
  }
  for (unsigned i = 0; i < counts.size(); ++i) {
    if (!o.json) std::printf("%8u", counts[i]);
    for (unsigned c = 0; c < 2; ++c) {
      row("em3d", std::string("Typhoon-1, CNI queues, ") + names[c], counts[i], net_us, "iteration",
          t[c][i], seq / t[c][i]);
      if (!o.json) std::printf(" %16.1f %8.3f", t[c][i] / 1000.0, seq / t[c][i]);
    }
    if (!o.json) std::printf("\n");
  }
  // 001 Fig. 8: the same on 4 nodes as the network slows
  const unsigned nodes = 4;
  const double lat_us[] = {0.5, 2.5, 5, 25, 50};
  if (!o.json) {
    std::printf("\nEM3D on %u nodes vs network one-way latency (001 Fig. 8): us per iteration, "
                "slowdown over 0.5 us\n%12s", nodes, "network us");
    for (const char* nm : names) std::printf(" %16s %8s", nm, "slowdown");
    std::printf("\n");
  }
  double base[2] = {0, 0};
  std::fprintf(stderr, "[cni-bench] dsm: %s, EM3D on %u nodes, network us", p.name().c_str(),
               nodes);
  for (double us : lat_us) {
    std::fprintf(stderr, " %g", us);
    sim::Profile q = p;
    q.set("net.latency_ns", fmt(us * 1000.0 / sim::NetParams::from_profile(q).hops(), 1));
    if (!o.json) std::printf("%12.1f", us);
    for (unsigned c = 0; c < 2; ++c) {
      const double ti = run(q, nodes, c == 1);
      if (base[c] == 0) base[c] = ti;
      row("em3d-latency", std::string("Typhoon-1, CNI queues, ") + names[c], nodes, us, "iteration",
          ti, base[c] / ti);
      if (!o.json) std::printf(" %16.1f %8.2f", ti / 1000.0, ti / base[c]);
    }
    if (!o.json) std::printf("\n");
  }
  std::fprintf(stderr, "\n");
}

}  // namespace

int run_dsm(const Options& o) {
  // 001's machine unless --profile names another
  sim::Profile p = sim::Profile::load(o.profile_given ? o.profile : "typhoon-1998");
  p.set("line_bytes", "64");  // the tag-store model is built at 64-byte lines
  p.set("nodes", "2");
  for (const auto& s : o.sets) p.set(s);
  const unsigned samples = o.quick ? 4 : 24;
  const double cpu_mhz = p.get_double("cpu.freq_mhz");
  auto cycles = [&](double ns) { return ns * cpu_mhz / 1000.0; };

  const auto [local_ns, fetch_ns] = local_device_miss(p, samples);
  const double sc = simple_coma_ns(p, local_ns, fetch_ns);
  std::vector<Miss> miss;
  uint64_t mismatches = 0;
  TraceFile tf(o.msg_trace);
  for (const Point& pt : kPoints) {
    if (!o.miss) break;
    std::fprintf(stderr, "[cni-bench] dsm: %s, remote read misses, %s\n", p.name().c_str(),
                 pt.name);
    miss.push_back(remote_misses(p, pt, samples, &tf));
    mismatches += miss.back().mismatches;
  }

  // the latency sweep: Typhoon-1 and the model, the network's one-way latency at 001 Fig. 8's
  // points (the nodes on one link)
  const double sweep_us[] = {0.5, 2.5, 5, 25, 50};
  std::vector<std::pair<double, double>> sweep;  // (Typhoon-1, Simple COMA) medians, ns
  if (o.sweep) {
    std::fprintf(stderr, "[cni-bench] dsm: %s, remote read misses vs network latency\n",
                 p.name().c_str());
  }
  for (double us : sweep_us) {
    if (!o.sweep) break;
    sim::Profile q = p;
    q.set("net.topology", "p2p");
    q.set("net.latency_ns", fmt(us * 1000.0, 1));
    Miss m = remote_misses(q, kPoints[0], o.quick ? 2 : 8);
    mismatches += m.mismatches;
    sweep.emplace_back(stats_of(m.total).median, simple_coma_ns(q, local_ns, fetch_ns));
  }

  std::ostringstream js;
  js << "{\"suite\":\"dsm\",\"profile\":\"" << p.name() << "\",\"line_bytes\":64,\"nodes\":2,"
     << "\"samples\":" << samples << ",\"rows\":[";
  bool first = true;
  std::ostringstream csv;
  csv << "experiment,design,nodes,network_us,step,ns,cycles,speedup,bus_transactions\n";
  auto row = [&](const std::string& exp, const std::string& design, unsigned nodes, double net_us,
                 const std::string& step, double ns, std::optional<double> speedup = {},
                 std::optional<double> bus = {}) {
    js << (first ? "" : ",") << "{\"experiment\":\"" << exp << "\",\"design\":\"" << design
       << "\",\"nodes\":" << nodes << ",\"network_us\":" << fmt(net_us, 3) << ",\"step\":\""
       << step << "\",\"ns\":" << fmt(ns, 1) << ",\"cycles\":" << fmt(cycles(ns), 1)
       << ",\"speedup\":" << json_num(speedup) << ",\"bus_transactions\":" << json_num(bus)
       << "}";
    csv << exp << ",\"" << design << "\"," << nodes << "," << fmt(net_us, 3) << ",\"" << step
        << "\"," << fmt(ns, 1) << "," << fmt(cycles(ns), 1) << ","
        << (speedup ? fmt(*speedup, 3) : "") << "," << (bus ? fmt(*bus, 0) : "") << "\n";
    first = false;
  };
  const double net_us = net_one_way_ns(p, 12 + 4) / 1000.0;
  if (!o.json) {
    std::printf("OpenCNI cni-bench dsm: profile %s at 64-byte lines (001: 32-byte blocks; compared "
                "by ratios); the remote miss between 2 nodes, %u samples per design; processor "
                "cycles at %.0f MHz\n\n",
                p.name().c_str(), samples, cpu_mhz);
  }
  if (o.miss) {
    const bool has_bus = miss[0].has_bus;
    if (!o.json) {
      std::printf("Remote read miss (001 section 4.1, Table 1): median per step, ns (cycles)\n");
      std::printf("%-28s", "step");
      for (const Point& pt : kPoints) std::printf(" %25s", pt.name);
      std::printf("\n");
      for (unsigned s = 0; s < kNumSteps; ++s) {
        std::printf("%-28s", kSteps[s]);
        for (unsigned i = 0; i < kNumPoints; ++i) {
          const double v = stats_of(miss[i].step[s]).median;
          std::printf(" %16.0f (%6.0f)", v, cycles(v));
        }
        std::printf("\n");
      }
      if (has_bus) {
        std::printf("\nBus transactions per step (median; both nodes' memory buses; 001 section "
                    "4.1: the latency \"correlates with ... the number of bus transactions\")\n");
        std::printf("%-28s", "step");
        for (const Point& pt : kPoints) std::printf(" %25s", pt.name);
        std::printf("\n");
        for (unsigned s = 0; s <= kNumSteps; ++s) {
          std::printf("%-28s", s < kNumSteps ? kSteps[s] : "total");
          for (unsigned i = 0; i < kNumPoints; ++i) {
            std::printf(" %25.0f", stats_of(miss[i].bus[s]).median);
          }
          std::printf("\n");
        }
      }
    }
    for (unsigned i = 0; i < kNumPoints; ++i) {
      auto bus = [&](unsigned s) {
        return has_bus ? std::optional<double>(stats_of(miss[i].bus[s]).median) : std::nullopt;
      };
      for (unsigned s = 0; s < kNumSteps; ++s) {
        row("breakdown", kPoints[i].name, 2, net_us, kSteps[s], stats_of(miss[i].step[s]).median,
            {}, bus(s));
      }
      row("breakdown", kPoints[i].name, 2, net_us, "total", stats_of(miss[i].total).median, {},
          bus(kNumSteps));
    }
    row("breakdown", "Simple COMA (model)", 2, net_us, "total", sc);
    if (!o.json) {
      std::printf("\n%-34s %10s %10s %14s %14s %8s\n", "design", "ns", "cycles", "ratio to SC",
                  "001's ratio", "ours/001");
      std::printf("%-34s %10.0f %10.0f %14s %14s %8s\n", "Simple COMA (model, see docs/dsm.md)",
                  sc, cycles(sc), "1.00", "1.00 (301 cyc)", "");
      for (unsigned i = 0; i < kNumPoints; ++i) {
        const double t = stats_of(miss[i].total).median;
        const double pr = kPoints[i].paper_ratio;
        std::printf("%-34s %10.0f %10.0f %14.2f %14s %8s\n", kPoints[i].name, t, cycles(t), t / sc,
                    pr > 0 ? fmt(pr, 2).c_str() : "-", pr > 0 ? fmt(t / sc / pr, 2).c_str() : "-");
      }
      std::printf("(001's ratios are derived from its text: Typhoon 1.33 x Simple COMA's %.0f "
                  "cycles, Typhoon-1 about 2 x Typhoon, Typhoon-0 about 2 x Typhoon-1)\n",
                  kPaperSc);
      std::printf("Simple COMA model: a measured miss to device memory %.0f ns + request and reply "
                  "network transits + the home's measured fetch %.0f ns + a device cycle per "
                  "message = %.0f processor cycles (001 Table 1: %.0f at 200 MHz; ours / 001 = "
                  "%.2f)\n\n",
                  local_ns, fetch_ns, cycles(sc), kPaperSc, cycles(sc) / kPaperSc);
    }
  }
  if (o.sweep && !o.json) {
    std::printf("Remote read miss vs network one-way latency (001 Fig. 8's points; nodes on one "
                "link), Typhoon-1\n");
    std::printf("%12s %14s %18s %10s\n", "network us", "Typhoon-1 us", "Simple COMA us",
                "ratio");
  }
  for (unsigned i = 0; i < sweep.size(); ++i) {
    row("latency-sweep", "Typhoon-1", 2, sweep_us[i], "total", sweep[i].first);
    row("latency-sweep", "Simple COMA (model)", 2, sweep_us[i], "total", sweep[i].second);
    if (!o.json) {
      std::printf("%12.1f %14.2f %18.2f %10.2f\n", sweep_us[i], sweep[i].first / 1000.0,
                  sweep[i].second / 1000.0, sweep[i].first / sweep[i].second);
    }
  }
  if (o.em3d) em3d(o, p, net_us, row, mismatches);
  js << "],\"result_mismatches\":" << mismatches << "}";
  emit_json(o, js.str());
  emit_csv(o, "dsm", csv.str());
  if (!o.json) std::printf("\nevery loaded line checked: %llu mismatches\n",
                           static_cast<unsigned long long>(mismatches));
  return mismatches == 0 ? 0 : 1;
}

}  // namespace cni::bench
