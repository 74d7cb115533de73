// SPDX-License-Identifier: Apache-2.0
// What the cni-bench suites share: the command line's options and the statistics and number
// formatting of their tables.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "cni/sim/profile.hpp"
#include "msg_trace.hpp"

namespace cni::bench {

// The command line (cni_bench.cpp parses it).
struct Options {
  std::string suite;
  std::string profile = "enzian-eci";
  bool profile_given = false;  // --profile was on the command line
  std::vector<std::string> sets;
  uint64_t seed = 1;
  unsigned iterations = 1000;
  bool single = true, latency = true, throughput = true;  // pio's experiments
  bool miss = true, sweep = true, em3d = true;               // dsm's experiments
  bool quick = false, json = false, trace = false;
  std::string csv_dir;
  std::string json_out;
  std::string msg_trace;  // every coherence message of every run, appended to this file
  std::string tlp_trace;  // nic: every TLP on the PCIe link, in the wire layout
  // pio: the host interfaces the invocations run over (--interface): "eci" (the coherent PIO
  // channel, every experiment), or PCIe ones, "pcie-pio" and "pcie-dma", beside eci's curve
  std::vector<std::string> interfaces = {"eci"};
};

// --msg-trace FILE: every run's coherence messages and frames, appended under a line naming the
// run ("# run 3", "# cni mbus-1996 CNI16Qm roundtrip 64"); the first run truncates the file.
// Without a file it records nothing.
class TraceFile {
 public:
  explicit TraceFile(std::string path) : path_(std::move(path)) {}
  // Records `c` from now until the returned trace is passed to write().
  std::optional<tb::MessageTrace> start(sim::Cluster& c) const {
    if (path_.empty()) return std::nullopt;
    return std::optional<tb::MessageTrace>(std::in_place, c);
  }
  void write(const std::optional<tb::MessageTrace>& t, const std::string& run) {
    if (!t) return;
    std::ofstream f(path_, runs_++ ? std::ios::app : std::ios::trunc);
    if (!f) throw std::runtime_error("cannot write " + path_);
    f << "# " << run << '\n';
    t->write(f);
  }
  unsigned runs() const { return runs_; }

 private:
  std::string path_;
  unsigned runs_ = 0;
};

// ---- statistics and output --------------------------------------------------------------------

struct Stats {
  double median = 0, p99 = 0, min = 0, max = 0;
};

inline Stats stats_of(std::vector<double> v) {
  Stats s;
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  auto pct = [&](double p) {
    size_t idx = static_cast<size_t>(std::ceil(p * double(v.size()))) - 1;
    return v[std::min(idx, v.size() - 1)];
  };
  s.median = v.size() % 2 ? v[v.size() / 2] : 0.5 * (v[v.size() / 2 - 1] + v[v.size() / 2]);
  s.p99 = pct(0.99);
  s.min = v.front();
  s.max = v.back();
  return s;
}

inline std::string fmt(double v, int prec = 0) {
  char b[64];
  std::snprintf(b, sizeof b, "%.*f", prec, v);
  return b;
}

inline std::string json_num(std::optional<double> v, int prec = 3) {
  return v ? fmt(*v, prec) : "null";
}

// A suite's JSON object: on stdout with --json, into the --json-out file if one is given.
inline void emit_json(const Options& o, const std::string& json) {
  if (o.json) std::cout << json << std::endl;
  if (!o.json_out.empty()) {
    std::ofstream f(o.json_out);
    if (!f) throw std::runtime_error("cannot write " + o.json_out);
    f << json << '\n';
  }
}

// A suite's CSV table: into <--csv DIR>/<name>.csv if --csv was given.
inline void emit_csv(const Options& o, const std::string& name, const std::string& csv) {
  if (o.csv_dir.empty()) return;
  const std::string path = o.csv_dir + "/" + name + ".csv";
  std::ofstream f(path);
  if (!f) throw std::runtime_error("cannot write " + path);
  f << csv;
}

// The invocations over PCIe: one frame through the NIC, from its shortest (the datapath's
// MinBytes) to its longest (9,600 bytes with the FCS).
inline constexpr size_t kPcieMinPayload = 60;
inline constexpr size_t kPcieMaxPayload = 9596;

// 002 s5.1's invocations over a PCIe host interface (nic_suite.cpp): a request of `payload`
// bytes through the NIC ("pcie-pio" or "pcie-dma") in near-end loopback and back, per payload
// the latencies (ns) of `iters` invocations and the back-to-back invocations in `window_ns`.
struct PcieInvocation {
  size_t payload = 0;
  std::vector<double> lat_ns;         // one at a time
  std::vector<double> stream_lat_ns;  // back to back, each invocation's
  double stream_ns = 0;               // the back-to-back invocations' time
};
struct PcieInvocations {
  std::vector<PcieInvocation> points;
  uint64_t mismatches = 0, coherence_errors = 0;
};
PcieInvocations pcie_invocations(const sim::Profile& prof, const std::string& iface, uint64_t seed,
                                 const std::vector<size_t>& payloads, unsigned iters,
                                 double window_ns);

// Each suite: runs with the options, prints its tables, returns the exit status.
int run_device(const Options& o);
int run_nodes(const Options& o);
int run_bus(const Options& o);
int run_cni(const Options& o);
int run_dsm(const Options& o);
int run_nic(const Options& o);
int run_xfer(const Options& o);

}  // namespace cni::bench
