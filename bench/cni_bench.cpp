// SPDX-License-Identifier: Apache-2.0
// cni-bench: OpenCNI benchmark programs. `cni-bench pio` reproduces seed 002's coherent-PIO
// figures (Fig. 6 single-line RPC, Fig. 7 latency vs payload, Fig. 8 throughput) on the
// Verilated device core driven by the host simulation, and prints the paper's figure beside
// ours with the ratio. Every latency comes from simulated RTL cycles plus the profile's
// documented model parameters.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <random>
#include <sstream>
#include <stdexcept>
#include <string>
#include <unistd.h>
#include <vector>

#include "pio_ref.hpp"
#include "cni/drv/fastforward.hpp"
#include "cni/drv/pio.hpp"
#include "cni/sim/host.hpp"
#include "cni/sim/profile.hpp"
#include "bench.hpp"
#include "device/system.hpp"
#include "rtl_errors.hpp"

namespace {

using namespace cni;
using namespace cni::bench;
using Clock = std::chrono::steady_clock;

constexpr const char* kUsage = R"(usage: cni-bench <suite> [options]

suites:
  pio            coherent-PIO RPC channel (seed 002 Fig. 6, 7, 8)
  device         the device home agent at its link ports: messages per cycle per message
                 type, read latency under load
  nodes          16 nodes, two of which exchange frames over the network while the others
                 idle: the same run with every device clocked and with idle devices asleep
  bus            seed 000's bus operations (Table 2) on its two machines, mbus-1996 and
                 iobus-1996 (or --profile): latency through the host model and the device
  cni            seed 000's microbenchmarks on mbus-1996 and iobus-1996 (or --profile):
                 process-to-process round-trip latency and bandwidth through the CNI engine
                 (NI2w, CNI4, CNI16Q, CNI512Q, and CNI16Qm on the memory bus) between two
                 nodes, 000's 64-byte figures beside ours; CNI4's back-off swept at 64 bytes;
                 CNI512Q with its send lines pulled early (EarlyPull) at 64 and 256 bytes
  dsm            seed 001's remote read miss on Stache, the DSM on the tag store, between two
                 nodes at 64-byte lines on typhoon-1998 (or --profile): its steps on Typhoon-1
                 and Typhoon-0 beside a Simple COMA model and 001's ratios (miss), swept over
                 the network's latency (sweep); EM3D with the standard and a custom update
                 protocol on 1 to 8 nodes and against the network's latency (em3d)
  nic            seed 002's NIC latencies (Table 1, Fig. 10) and throughput through the
                 Verilated NIC on its four host interfaces (PCIe PIO, PCIe DMA, coherent PIO,
                 CNI queues), receive and transmit, beside 002's figures, on enzian-pcie (or
                 --profile)
  xfer           seed 004's page transfer through the block-transfer engine between two nodes
                 of flash-1994 (or --profile): 4 KB clean, dirty and network-limited, the engine
                 with MAGIC's occupancy emulated (004's rows) and at its own speed, beside 004's
                 figures; bandwidth vs message size 128 B to 1 MiB

options:
  --profile NAME|PATH   simulation profile (default enzian-eci; embedded: %s)
  --set KEY=VALUE       override one profile parameter (repeatable), e.g. --set link.one_way_ns=500
  --seed N              seed of payloads and of the model's random parts (default 1)
  --iterations N        invocations per single-line variant (default 1000)
  --experiments LIST    the suite's experiments to run, a comma list (default all): pio:
                        single-line,latency,throughput; dsm: miss,sweep,em3d
  --quick               few iterations and payloads (a smoke run)
  --json                print one JSON object on stdout instead of tables
  --json-out FILE       also write that JSON object to FILE
  --csv DIR             also write CSV tables into DIR
  --trace               write an FST waveform of the device (device.fst)
  --msg-trace FILE      write every coherence message of the runs to FILE (time, node, header,
                        data digest): two runs that must agree compare line by line, e.g. with
                        --set device.skip_idle=false
  --interface LIST      pio: also run the invocations over these PCIe host interfaces, a comma
                        list of pcie-pio and pcie-dma (002 Fig. 1, 2, 7, 8), beside the coherent
                        channel's (eci, always run); on enzian-pcie unless --profile
  --tlp-trace FILE      nic: write every TLP on the PCIe link of the PCIe PIO and DMA runs to FILE
                        in the PCI Express Base Specification's wire layout, with its time
                        (scripts/tlp-decode.py reads it)
  -h, --help            this text
)";

[[noreturn]] void usage_error(const std::string& why) {
  std::string profiles;
  for (const auto& n : sim::Profile::available()) profiles += (profiles.empty() ? "" : ", ") + n;
  std::fprintf(stderr, "cni-bench: %s\n\n", why.c_str());
  std::fprintf(stderr, kUsage, profiles.c_str());
  std::exit(2);
}

uint64_t parse_uint(const std::string& flag, const std::string& v) {
  try {
    size_t pos = 0;
    uint64_t x = std::stoull(v, &pos, 0);
    if (pos != v.size()) throw std::invalid_argument(v);
    return x;
  } catch (const std::exception&) {
    usage_error(flag + " needs a non-negative integer, got '" + v + "'");
  }
}

Options parse_args(int argc, char** argv) {
  Options o;
  std::string experiments;
  std::vector<std::string> args(argv + 1, argv + argc);
  for (size_t i = 0; i < args.size(); ++i) {
    const std::string& a = args[i];
    auto value = [&]() -> std::string {
      if (i + 1 >= args.size()) usage_error(a + " needs a value");
      return args[++i];
    };
    if (a == "-h" || a == "--help") {
      std::string profiles;
      for (const auto& n : sim::Profile::available()) profiles += (profiles.empty() ? "" : ", ") + n;
      std::printf(kUsage, profiles.c_str());
      std::exit(0);
    } else if (a == "--profile") {
      o.profile = value();
      o.profile_given = true;
    } else if (a == "--set") {
      o.sets.push_back(value());
    } else if (a == "--seed") {
      o.seed = parse_uint(a, value());
    } else if (a == "--iterations") {
      o.iterations = static_cast<unsigned>(parse_uint(a, value()));
      if (o.iterations == 0) usage_error("--iterations must be at least 1");
    } else if (a == "--experiments") {
      experiments = value();
    } else if (a == "--quick") {
      o.quick = true;
    } else if (a == "--json") {
      o.json = true;
    } else if (a == "--json-out") {
      o.json_out = value();
    } else if (a == "--csv") {
      o.csv_dir = value();
    } else if (a == "--trace") {
      o.trace = true;
    } else if (a == "--msg-trace") {
      o.msg_trace = value();
    } else if (a == "--tlp-trace") {
      o.tlp_trace = value();
    } else if (a == "--interface") {
      o.interfaces = {"eci"};
      std::stringstream ss(value());
      for (std::string i; std::getline(ss, i, ',');) {
        if (i != "eci" && i != "pcie-pio" && i != "pcie-dma") {
          usage_error("--interface: unknown interface '" + i + "' (eci, pcie-pio, pcie-dma)");
        }
        if (std::find(o.interfaces.begin(), o.interfaces.end(), i) == o.interfaces.end()) {
          o.interfaces.push_back(i);
        }
      }
    } else if (!a.empty() && a[0] == '-') {
      usage_error("unknown option '" + a + "'");
    } else if (o.suite.empty()) {
      o.suite = a;
    } else {
      usage_error("unexpected argument '" + a + "'");
    }
  }
  if (o.suite.empty()) usage_error("no suite given");
  if (o.suite != "pio" && o.suite != "device" && o.suite != "nodes" && o.suite != "bus" &&
      o.suite != "cni" && o.suite != "dsm" && o.suite != "nic" && o.suite != "xfer") {
    usage_error("unknown suite '" + o.suite + "'");
  }
  if (!experiments.empty()) {
    if (o.suite != "pio" && o.suite != "dsm") usage_error("--experiments: the pio and dsm suites");
    o.single = o.latency = o.throughput = o.miss = o.sweep = o.em3d = false;
    std::stringstream ss(experiments);
    for (std::string e; std::getline(ss, e, ',');) {
      bool* on = nullptr;
      if (o.suite == "pio") {
        on = e == "single-line" ? &o.single : e == "latency" ? &o.latency
           : e == "throughput" ? &o.throughput : nullptr;
      } else {
        on = e == "miss" ? &o.miss : e == "sweep" ? &o.sweep : e == "em3d" ? &o.em3d : nullptr;
      }
      if (!on) usage_error("unknown " + o.suite + " experiment '" + e + "'");
      *on = true;
    }
  }
  if (o.interfaces.size() > 1 && o.suite != "pio") usage_error("--interface: the pio suite");
  if (o.quick) o.iterations = std::min(o.iterations, 40u);
  return o;
}

struct Row {
  std::string experiment, variant;
  size_t payload = 0;
  Stats lat;
  std::optional<double> gib_s;
  uint64_t invocations = 0;
};

// Progress on stderr: redrawn in place on a terminal, every ~10% otherwise.
class Progress {
 public:
  Progress(bool quiet, std::string what, uint64_t total)
      : quiet_(quiet), what_(std::move(what)), total_(total), tty_(isatty(2)) {}
  void update(uint64_t done) {
    if (quiet_ || total_ == 0) return;
    auto now = Clock::now();
    unsigned tenth = static_cast<unsigned>(10 * done / total_);
    bool show = tty_ ? now - last_ > std::chrono::milliseconds(200) || done == total_
                     : tenth != last_tenth_;
    if (!show) return;
    last_ = now;
    last_tenth_ = tenth;
    std::fprintf(stderr, "%s[cni-bench] %s %llu/%llu%s", tty_ ? "\r" : "", what_.c_str(),
                 static_cast<unsigned long long>(done), static_cast<unsigned long long>(total_),
                 tty_ ? "   " : "\n");
    if (tty_ && done == total_) std::fprintf(stderr, "\n");
  }

 private:
  bool quiet_;
  std::string what_;
  uint64_t total_;
  bool tty_;
  Clock::time_point last_{};
  unsigned last_tenth_ = ~0u;
};

// A text histogram of latency samples: `bins` equal bins between the extremes.
void print_histogram(const std::string& name, const std::vector<double>& v, unsigned bins = 8) {
  if (v.empty()) return;
  auto [lo_it, hi_it] = std::minmax_element(v.begin(), v.end());
  double lo = std::floor(*lo_it), hi = std::ceil(*hi_it) + 1;
  double w = (hi - lo) / bins;
  std::vector<size_t> n(bins, 0);
  for (double x : v) n[std::min<size_t>(bins - 1, static_cast<size_t>((x - lo) / w))]++;
  size_t peak = *std::max_element(n.begin(), n.end());
  std::printf("  %s:\n", name.c_str());
  for (unsigned b = 0; b < bins; ++b) {
    int bar = peak ? static_cast<int>(40.0 * double(n[b]) / double(peak) + 0.5) : 0;
    std::printf("    %6.0f - %-6.0f ns %6zu %s\n", lo + b * w, lo + (b + 1) * w, n[b],
                std::string(bar, '#').c_str());
  }
}

// ---- the simulated systems -------------------------------------------------------------------

struct SimTotals {
  uint64_t device_cycles = 0;  // simulated
  uint64_t clocked = 0;        // of which the model evaluated (the rest slept through)
  double wall_s = 0;
};

// The device of the PIO systems (the profile's: one CPU socket + the Verilated device over
// the coherent link): RET_EXCL, tracing and the model's variant ("": the build's own).
tb::System::Configure eci_device(uint32_t ret_excl, bool trace, const std::string& variant) {
  return [ret_excl, trace, variant](unsigned, unsigned, tb::SimDevice::Config& cfg) {
    cfg.ret_excl_regions = ret_excl;
    cfg.trace = trace;
    if (!variant.empty()) cfg.variant = variant;
  };
}

std::vector<uint8_t> random_payload(std::mt19937_64& rng, size_t n) {
  std::vector<uint8_t> v(n);
  for (auto& b : v) b = static_cast<uint8_t>(rng());
  return v;
}

class Bench {
 public:
  // `variant`: the device model (tb::SimDevice::Config::variant; "": the build's own).
  Bench(const Options& o, sim::Profile p, std::string variant = "")
      : o_(o), p_(std::move(p)), variant_(std::move(variant)), rng_(o.seed) {}

  // Invocation latencies of `payload` bytes on the PIO (c) channel.
  std::vector<double> pio_latencies(uint32_t ret_excl, size_t payload, unsigned iters,
                                    const std::string& what, std::vector<uint32_t>* dev_cycles) {
    tb::System sys(p_, eci_device(ret_excl, o_.trace, variant_));
    tb::SimDevice& dev = sys.device(0, 0);
    pipelined_ = dev.geometry().pipelined;
    std::vector<double> lat;
    const unsigned warm = 4;
    Progress prog(o_.quick, what, iters);
    auto reqs = make_requests(payload, 8);
    unsigned lb = dev.geometry().line_bytes;
    sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
      drv::PioChannel ch(m, dev.pio_layout());
      ch.warm_up();
      timed_calls(m, reqs, warm, iters, lb, prog, lat,
                  [&](const std::vector<uint8_t>& req) { return ch.invoke(req); },
                  [&] { dev.clear_latency_samples(); });
    });
    run(sys);
    if (dev_cycles) *dev_cycles = dev.first_response_cycles();
    return lat;
  }

  // Back-to-back invocations for `window_ns` of simulated time.
  Row pio_throughput(size_t payload, double window_ns) {
    tb::System sys(p_, eci_device(~0u, false, variant_));
    tb::SimDevice& dev = sys.device(0, 0);
    auto reqs = make_requests(payload, 4);
    unsigned lb = dev.geometry().line_bytes;
    std::vector<double> lat;
    uint64_t bytes = 0, elapsed = 0;
    sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
      drv::PioChannel ch(m, dev.pio_layout());
      ch.warm_up();
      ch.invoke(reqs[0]);  // one warm-up invocation
      uint64_t start = m.now_ns();
      for (unsigned i = 0; m.now_ns() - start < window_ns; ++i) {
        const auto& req = reqs[i % reqs.size()];
        uint64_t t0 = m.now_ns();
        auto resp = ch.invoke(req);
        lat.push_back(double(m.now_ns() - t0));
        check(resp, req, lb);
        bytes += payload;
      }
      elapsed = m.now_ns() - start;
    });
    run(sys);
    Row r;
    r.experiment = "throughput";
    r.variant = "eci-exclusive";
    r.payload = payload;
    r.lat = stats_of(lat);
    r.invocations = lat.size();
    r.gib_s = double(bytes) / double(elapsed) * 1e9 / double(1ull << 30);
    return r;
  }

  // FastForward CPU<->CPU RPC between two sockets joined by the same link (002 Fig. 6); a
  // host-only system.
  std::vector<double> fastforward(unsigned iters) {
    sim::Profile p = p_;
    p.set("host.sockets", "2");
    p.set("host.cores", "2");
    p.set("host.core_sockets", "0,1");
    p.set("node.devices", "0");
    tb::System sys(p);
    sim::HostSystem& host = sys.node(0).host();
    unsigned lb = static_cast<unsigned>(p.get_int("line_bytes"));
    // each receiver polls a line homed on its own socket
    drv::FastForwardLayout layout;
    layout.request_line = sim::HostSystem::dram_base(1) + 0x10000;
    layout.response_line = sim::HostSystem::dram_base(0) + 0x10000;
    layout.line_bytes = lb;
    const unsigned warm = 4;
    size_t payload = lb - 8;
    auto reqs = make_requests(payload, 8);
    std::vector<double> lat;
    Progress prog(o_.quick, "single-line fastforward", iters);
    host.spawn(1, [&](drv::MemoryPort& m) {
      drv::FastForwardChannel server(m, layout);
      for (unsigned i = 0; i < warm + iters; ++i) {
        server.serve_one(
            [&](std::span<const uint8_t> in, std::span<uint8_t> out) {
              auto r = tb::pio_expected_response(std::vector<uint8_t>(in.begin(), in.end()), lb);
              std::copy(r.begin(), r.end(), out.begin());
            },
            payload);
      }
    });
    host.spawn(0, [&](drv::MemoryPort& m) {
      drv::FastForwardChannel client(m, layout);
      timed_calls(m, reqs, warm, iters, lb, prog, lat,
                  [&](const std::vector<uint8_t>& req) { return client.call(req); }, {});
    });
    run(sys);
    return lat;
  }

  // Plain device-memory reads at an idle device: request at the port -> answer leaving.
  std::vector<uint32_t> plain_read_cycles(unsigned n) {
    tb::System sys(p_, eci_device(~0u, false, variant_));
    tb::SimDevice& dev = sys.device(0, 0);
    pipelined_ = dev.geometry().pipelined;
    sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
      for (unsigned i = 0; i < n; ++i) (void)m.load64(dev.host_addr(i));
    });
    run(sys);
    return dev.first_response_cycles();
  }

  const SimTotals& totals() const { return totals_; }
  uint64_t mismatches() const { return mismatches_; }
  // The configuration of the device the last run used, from its CONFIG register.
  bool pipelined() const { return pipelined_; }

 private:
  std::vector<std::vector<uint8_t>> make_requests(size_t payload, unsigned count) {
    std::vector<std::vector<uint8_t>> v;
    for (unsigned i = 0; i < count; ++i) v.push_back(random_payload(rng_, payload));
    return v;
  }

  // `warm` untimed then `iters` timed calls of `call(request) -> response` on core port `m`;
  // every response is checked; `at_warm_end` runs before the first timed call.
  template <class Call>
  void timed_calls(drv::MemoryPort& m, const std::vector<std::vector<uint8_t>>& reqs,
                   unsigned warm, unsigned iters, unsigned lb, Progress& prog,
                   std::vector<double>& lat, Call&& call, const std::function<void()>& at_warm_end) {
    for (unsigned i = 0; i < warm + iters; ++i) {
      if (i == warm && at_warm_end) at_warm_end();
      const auto& req = reqs[i % reqs.size()];
      uint64_t t0 = m.now_ns();
      auto resp = call(req);
      uint64_t t1 = m.now_ns();
      check(resp, req, lb);
      if (i >= warm) {
        lat.push_back(double(t1 - t0));
        prog.update(i - warm + 1);
      }
    }
  }

  void check(const std::vector<uint8_t>& resp, const std::vector<uint8_t>& req, unsigned lb) {
    if (resp != tb::pio_expected_response(req, lb)) ++mismatches_;
  }

  // Run the programs spawned on `sys`, adding the wall time and its devices' cycles (simulated
  // and clocked); with --msg-trace, append the run's messages to the trace file.
  void run(tb::System& sys) {
    auto device_cycles = [&sys](bool clocked) {
      uint64_t c = 0;
      for (unsigned n = 0; n < sys.num_nodes(); ++n) {
        for (unsigned d = 0; d < sys.num_devices(n); ++d) {
          const tb::SimDevice& dev = sys.device(n, d);
          c += clocked ? dev.clocked_cycles() : dev.cycles();
        }
      }
      return c;
    };
    const auto trace = traces_.start(sys);
    auto w0 = Clock::now();
    const uint64_t c0 = device_cycles(false), k0 = device_cycles(true);
    sys.run_programs();
    totals_.wall_s += std::chrono::duration<double>(Clock::now() - w0).count();
    totals_.device_cycles += device_cycles(false) - c0;
    totals_.clocked += device_cycles(true) - k0;
    traces_.write(trace, "run " + std::to_string(traces_.runs() + 1));
  }

  const Options& o_;
  sim::Profile p_;
  std::string variant_;
  bool pipelined_ = false;
  std::mt19937_64 rng_;
  SimTotals totals_;
  uint64_t mismatches_ = 0;
  TraceFile traces_{o_.msg_trace};
};

// ---- the pio suite ------------------------------------------------------------------------------

struct PaperRef {
  double ns;
  const char* what;
};
const std::map<std::string, PaperRef> kFig6 = {
    {"eci-exclusive", {900, "002 Fig. 6 \"ECI\""}},
    {"eci-shared", {1600, "002 Fig. 6 \"ECI unopt\""}},
    {"fastforward", {1750, "002 Fig. 6 FastForward, dual-socket"}},
};
constexpr double kFig8PeakGiB = 2.19;       // 002 §5.1, at 32 KiB payloads
// Simulation speed of the default `cni-bench pio` run (make bench's, on enzian-eci) on the
// reference machine (2 cores, otherwise idle), device cycles per wall-clock second: printed
// beside each such run so a slower model shows (docs/results.md, "Simulation speed").
constexpr double kReferenceCyclesPerSecond = 729460;
constexpr size_t kFig8PeakPayload = 32768;
// The pipelined configuration (Pipelined = 1, docs/endpoint.md), the one that closes timing on
// the ECP5 (docs/fpga.md: 100.06 MHz routed), for the single-line RPC at that clock beside the
// profile's: its model in the build (tb/rtl_endpoint.cmake, PIPE_LINES) and its routed clock.
constexpr const char* kPipelinedVariant = "pipe";
constexpr double kPipelinedRoutedMhz = 100.0;

// One of 002 s5.1's claims about its invocation curves, on this run's figures.
struct Claim {
  std::string what;
  double ours = 0, bound = 0;
  bool at_most = false;  // ours <= bound (else ours >= bound)
  bool gated = true;     // a claim that does not hold fails the run
  bool holds() const { return at_most ? ours <= bound : ours >= bound; }
};

const Row* find_row(const std::vector<Row>& rows, const std::string& experiment,
                    const std::string& variant, size_t payload) {
  for (const Row& r : rows) {
    if (r.experiment == experiment && r.variant == variant && r.payload == payload) return &r;
  }
  return nullptr;
}

// 002 s5.1 on the PCIe interfaces run beside the coherent channel: coherent PIO has the lower
// latency at every payload ("significantly lower latency than both"), DMA's latency is nearly
// flat up to 8 KiB ("dominated by descriptor setup and manipulation"; here: the largest median at
// most 1.5 times the smallest), coherent PIO has the higher throughput than DMA at every payload;
// and, not gated, PCIe PIO "competes well with DMA up to 2KiB".
std::vector<Claim> pcie_claims(const std::vector<Row>& rows, const std::vector<std::string>& ifs,
                               const std::vector<size_t>& payloads) {
  std::vector<Claim> v;
  for (size_t k = 1; k < ifs.size(); ++k) {
    double lo = 0, hi = 0;
    for (size_t s : payloads) {
      const Row* e = find_row(rows, "latency", "eci-exclusive", s);
      const Row* c = find_row(rows, "latency", ifs[k], s);
      if (!c) continue;
      lo = lo == 0 ? c->lat.median : std::min(lo, c->lat.median);
      hi = std::max(hi, c->lat.median);
      if (e) {
        v.push_back({"latency " + std::to_string(s) + " B: " + ifs[k] + " / eci >= 1",
                     c->lat.median / e->lat.median, 1.0});
      }
      const Row* et = find_row(rows, "throughput", "eci-exclusive", s);
      const Row* ct = find_row(rows, "throughput", ifs[k], s);
      if (ifs[k] == "pcie-dma" && et && ct) {
        v.push_back({"throughput " + std::to_string(s) + " B: eci / pcie-dma >= 1",
                     *et->gib_s / *ct->gib_s, 1.0});
      }
    }
    if (ifs[k] == "pcie-dma" && lo > 0) {
      v.push_back({"latency: pcie-dma, largest / smallest median <= 1.5", hi / lo, 1.5, true});
    }
  }
  const Row* pio = find_row(rows, "latency", "pcie-pio", 2048);
  const Row* dma = find_row(rows, "latency", "pcie-dma", 2048);
  if (pio && dma) {
    v.push_back({"latency 2048 B: pcie-pio / pcie-dma <= 1 (002: competes well)",
                 pio->lat.median / dma->lat.median, 1.0, true, false});
  }
  return v;
}

int run_pio(const Options& o) {
  const bool pcie = o.interfaces.size() > 1;
  // the PCIe interfaces need the PCIe link's keys: enzian-pcie, enzian-eci's machine with them
  sim::Profile p = sim::Profile::load(o.profile_given || !pcie ? o.profile : "enzian-pcie");
  if (pcie && !p.has("pcie.gen")) {
    throw sim::ProfileError("--interface " + o.interfaces[1] + ": profile " + p.name() +
                            " has no PCIe link (pcie.* keys; enzian-pcie has them)");
  }
  if (p.has("sim.seed")) p.set("sim.seed", std::to_string(o.seed));
  for (const auto& s : o.sets) p.set(s);
  Bench bench(o, p);
  const unsigned region_c = 1u << 1;  // RET_EXCL bit of the PIO (c) region

  std::vector<Row> rows;
  std::map<std::string, std::vector<double>> single_samples;
  std::vector<uint32_t> trigger_cycles;
  const size_t lb = static_cast<size_t>(p.get_int("line_bytes"));

  if (o.single) {
    single_samples["eci-exclusive"] =
        bench.pio_latencies(~0u, lb, o.iterations, "single-line eci-exclusive", &trigger_cycles);
    single_samples["eci-shared"] = bench.pio_latencies(~0u & ~region_c, lb, o.iterations,
                                                       "single-line eci-shared", nullptr);
    single_samples["fastforward"] = bench.fastforward(o.iterations);
    for (const char* v : {"eci-exclusive", "eci-shared", "fastforward"}) {
      Row r;
      r.experiment = "single-line";
      r.variant = v;
      r.payload = std::string(v) == "fastforward" ? lb - 8 : lb;
      r.lat = stats_of(single_samples[v]);
      r.invocations = single_samples[v].size();
      rows.push_back(r);
    }
  }
  std::vector<size_t> payloads;
  for (size_t s = 64; s <= 65536; s *= 2) payloads.push_back(s);
  if (o.quick) payloads = {64, 256, 1024, 8192};
  if (o.latency) {
    for (size_t s : payloads) {
      unsigned iters = o.quick ? 10 : static_cast<unsigned>(std::clamp<size_t>((4u << 20) / s, 20, 200));
      Row r;
      r.experiment = "latency";
      r.variant = "eci-exclusive";
      r.payload = s;
      auto v = bench.pio_latencies(~0u, s, iters, "latency " + std::to_string(s) + " B", nullptr);
      r.lat = stats_of(v);
      r.invocations = v.size();
      rows.push_back(r);
    }
  }
  if (o.throughput) {
    double window = o.quick ? 100e3 : 1e6;
    Progress prog(o.quick, "throughput payloads", payloads.size());
    for (size_t i = 0; i < payloads.size(); ++i) {
      rows.push_back(bench.pio_throughput(payloads[i], window));
      prog.update(i + 1);
    }
  }
  // (iv) 002 s5.1's invocations over PCIe, beside (ii) and (iii): the request through the NIC in
  // near-end loopback and back (nic_suite.cpp), at the payloads the NIC carries in one frame.
  std::vector<size_t> pcie_payloads;
  for (size_t s : payloads) {
    if (s <= kPcieMaxPayload) pcie_payloads.push_back(s);
  }
  const unsigned pcie_iters = o.quick ? 5 : 50;
  const double pcie_window = o.quick ? 100e3 : 1e6;
  uint64_t pcie_bad = 0;
  for (size_t k = 1; k < o.interfaces.size(); ++k) {
    const std::string& iface = o.interfaces[k];
    std::fprintf(stderr, "[cni-bench] pio: %s invocations, %zu payloads\n", iface.c_str(),
                 pcie_payloads.size());
    const PcieInvocations inv =
        pcie_invocations(p, iface, o.seed, pcie_payloads, pcie_iters, pcie_window);
    for (const PcieInvocation& pt : inv.points) {
      const size_t n = pt.stream_lat_ns.size();
      rows.push_back({"latency", iface, pt.payload, stats_of(pt.lat_ns), {}, pt.lat_ns.size()});
      rows.push_back({"throughput", iface, pt.payload, stats_of(pt.stream_lat_ns),
                      double(n * pt.payload) / pt.stream_ns * 1e9 / double(1ull << 30), n});
    }
    pcie_bad += inv.mismatches + inv.coherence_errors;
  }
  const std::vector<Claim> claims = pcie_claims(rows, o.interfaces, pcie_payloads);
  const auto claims_failed = static_cast<size_t>(std::count_if(
      claims.begin(), claims.end(), [](const Claim& c) { return c.gated && !c.holds(); }));
  // The single-line RPC on the pipelined configuration at its routed ECP5 clock: the same host,
  // link and requests (its own bench, so the profile's runs above are unchanged).
  std::vector<Row> piped_rows;
  std::vector<uint32_t> piped_trigger;
  const bool has_pipe = tb::Endpoint::has_model(static_cast<unsigned>(lb), kPipelinedVariant);
  sim::Profile pp = p;
  pp.set("device.freq_mhz", fmt(kPipelinedRoutedMhz));
  Bench piped(o, pp, kPipelinedVariant);
  if (o.single && has_pipe) {
    for (const char* v : {"eci-exclusive", "eci-shared"}) {
      const bool excl = std::string(v) == "eci-exclusive";
      auto samples = piped.pio_latencies(excl ? ~0u : ~0u & ~region_c, lb, o.iterations,
                                         std::string("single-line ") + v + ", pipelined",
                                         excl ? &piped_trigger : nullptr);
      Row r;
      r.experiment = "single-line-pipelined";
      r.variant = v;
      r.payload = lb;
      r.lat = stats_of(samples);
      r.invocations = samples.size();
      piped_rows.push_back(r);
    }
    if (!piped.pipelined()) {
      throw std::logic_error("cni-bench pio: the pipelined model reports Pipelined = 0");
    }
  }
  auto plain = bench.plain_read_cycles(32);
  if (bench.pipelined()) {
    throw std::logic_error("cni-bench pio: the build's own model reports Pipelined = 1");
  }
  std::vector<double> plain_d(plain.begin(), plain.end());
  std::vector<double> trig_d(trigger_cycles.begin(), trigger_cycles.end());
  double dev_mhz = p.get_double("device.freq_mhz");
  Stats plain_s = stats_of(plain_d), trig_s = stats_of(trig_d);
  double hit_cycles = std::max(plain_s.median, trig_s.median);
  const uint64_t mismatches = bench.mismatches() + piped.mismatches();
  SimTotals totals = bench.totals();
  totals.device_cycles += piped.totals().device_cycles;
  totals.clocked += piped.totals().clocked;
  totals.wall_s += piped.totals().wall_s;
  double speed = totals.wall_s > 0 ? double(totals.device_cycles) / totals.wall_s : 0;
  Stats piped_trig_s;
  {
    std::vector<double> d(piped_trigger.begin(), piped_trigger.end());
    piped_trig_s = stats_of(d);
  }
  rows.insert(rows.end(), piped_rows.begin(), piped_rows.end());

  // CSV
  if (!o.csv_dir.empty()) {
    std::filesystem::create_directories(o.csv_dir);
    // (a run with PCIe interfaces writes its own file: make bench runs both)
    std::ofstream rows_csv(std::filesystem::path(o.csv_dir) / (pcie ? "pio-pcie.csv" : "pio.csv"));
    rows_csv << "experiment,variant,payload_bytes,invocations,median_ns,p99_ns,min_ns,max_ns,"
                "throughput_gib_s,paper\n";
    for (const auto& r : rows) {
      std::string paper;
      if (r.experiment.starts_with("single-line")) paper = fmt(kFig6.at(r.variant).ns);
      if (r.experiment == "throughput" && r.payload == kFig8PeakPayload) paper = fmt(kFig8PeakGiB, 2);
      rows_csv << r.experiment << ',' << r.variant << ',' << r.payload << ',' << r.invocations << ','
               << fmt(r.lat.median, 1) << ',' << fmt(r.lat.p99, 1) << ',' << fmt(r.lat.min, 1)
               << ',' << fmt(r.lat.max, 1) << ',' << (r.gib_s ? fmt(*r.gib_s, 4) : "") << ','
               << paper << '\n';
    }
    std::ofstream hist(std::filesystem::path(o.csv_dir) /
                       (pcie ? "pio-pcie_single_line_samples.csv" : "pio_single_line_samples.csv"));
    hist << "variant,latency_ns\n";
    for (const auto& [v, s] : single_samples) {
      for (double x : s) hist << v << ',' << fmt(x, 1) << '\n';
    }
  }

  {
    std::ostringstream js;
    js << "{\"suite\":\"pio\",\"profile\":\"" << p.name() << "\",\"seed\":" << o.seed
       << ",\"device_build\":\"" << tb::built_flavor() << "\",\"device_pipelined\":"
       << (bench.pipelined() ? "true" : "false") << ",\"device_mhz\":" << fmt(dev_mhz, 1)
       << ",\"pipelined_mhz\":" << fmt(kPipelinedRoutedMhz, 1) << ",\"rows\":[";
    for (size_t i = 0; i < rows.size(); ++i) {
      const auto& r = rows[i];
      js << (i ? "," : "") << "{\"experiment\":\"" << r.experiment << "\",\"variant\":\""
         << r.variant << "\",\"payload_bytes\":" << r.payload << ",\"median_ns\":"
         << fmt(r.lat.median, 1) << ",\"p99_ns\":" << fmt(r.lat.p99, 1)
         << ",\"throughput_gib_s\":" << json_num(r.gib_s, 4) << ",\"invocations\":"
         << r.invocations << "}";
    }
    js << "],\"device_hit_cycles\":" << fmt(hit_cycles, 1)
       << ",\"device_plain_read_cycles\":" << fmt(plain_s.median, 1)
       << ",\"device_pio_trigger_cycles\":" << fmt(trig_s.median, 1)
       << ",\"pipelined_pio_trigger_cycles\":"
       << (piped_trigger.empty() ? "null" : fmt(piped_trig_s.median, 1))
       << ",\"sim_cycles_per_s\":" << fmt(speed, 0)
       << ",\"sim_reference_cycles_per_s\":" << fmt(kReferenceCyclesPerSecond, 0)
       << ",\"sim_cycles\":"
       << totals.device_cycles << ",\"sim_cycles_clocked\":" << totals.clocked
       << ",\"result_mismatches\":" << mismatches << ",\"pcie_errors\":" << pcie_bad
       << ",\"shape\":[";
    for (size_t i = 0; i < claims.size(); ++i) {
      js << (i ? "," : "") << "{\"claim\":\"" << claims[i].what << "\",\"ours\":"
         << fmt(claims[i].ours, 3) << ",\"holds\":" << (claims[i].holds() ? "true" : "false")
         << ",\"gated\":" << (claims[i].gated ? "true" : "false") << "}";
    }
    js << "]}";
    emit_json(o, js.str());
  }
  if (!o.json) {
    std::printf("OpenCNI cni-bench pio: profile %s, seed %llu, device model %s build\n",
                p.name().c_str(), static_cast<unsigned long long>(o.seed), tb::built_flavor());
    std::printf("overrides: %s\n", o.sets.empty() ? "none" : "");
    for (const auto& s : o.sets) std::printf("  %s\n", s.c_str());
    std::printf("device: the endpoint's %s configuration (Pipelined = %d, from its CONFIG "
                "register) at %.0f MHz (device.freq_mhz)\n",
                bench.pipelined() ? "pipelined" : "default", bench.pipelined() ? 1 : 0, dev_mhz);
    if (p.name() == "enzian-eci" || p.base() == "enzian-eci") {
      std::printf("  the clock is 002's for its FPGA (section 4), not a routed figure of this RTL: "
                  "the XCVU9P build has not been timed; on the ECP5 this configuration routed at "
                  "36-37 MHz (an earlier netlist), the pipelined one at %.0f MHz (docs/fpga.md)\n",
                  kPipelinedRoutedMhz);
    }
    if (o.single) {
      std::printf("\n(i) single-line RPC, protocol (c) (002 Fig. 6), %u invocations each\n",
                  o.iterations);
      std::printf("%-15s %8s %10s %10s %10s %10s %7s\n", "variant", "payload", "median_ns",
                  "p99_ns", "min_ns", "paper_ns", "ratio");
      auto print_rows = [&](const std::string& experiment) {
        for (const auto& r : rows) {
          if (r.experiment != experiment) continue;
          double paper = kFig6.at(r.variant).ns;
          std::printf("%-15s %8zu %10.0f %10.0f %10.0f %10.0f %7.2f\n", r.variant.c_str(),
                      r.payload, r.lat.median, r.lat.p99, r.lat.min, paper,
                      r.lat.median / paper);
        }
      };
      print_rows("single-line");
      if (p.has("link.one_way_ns")) {  // a profile on seed 000's buses has no link
        std::printf("floor: 2 link round trips = 4 x link.one_way_ns = %.0f ns\n",
                    4 * p.get_double("link.one_way_ns"));
      }
      if (p.name() == "enzian-eci" || p.base() == "enzian-eci") {
        std::printf("the profile's host parameters marked \"model parameter, not from the "
                    "paper\" were chosen so that eci-exclusive lands near 002's 900 ns "
                    "(sim/profiles/enzian-eci.profile): its ratio is not independent of them\n");
      }
      if (has_pipe) {
        std::printf("the same RPC on the pipelined configuration (Pipelined = 1) at %.0f MHz, the "
                    "clock it routes on the ECP5 (docs/fpga.md), the rest of the profile "
                    "unchanged:\n", kPipelinedRoutedMhz);
        print_rows("single-line-pipelined");
        std::printf("  PIO trigger read -> recall snoop: median %.0f cycles (%.1f ns at %.0f "
                    "MHz)\n", piped_trig_s.median, piped_trig_s.median * 1e3 / kPipelinedRoutedMhz,
                    kPipelinedRoutedMhz);
      } else {
        std::printf("(the %s build has no pipelined model at %zu-byte lines: the RPC on the "
                    "pipelined configuration is not run)\n", tb::built_flavor(), lb);
      }
      std::printf("histograms:\n");
      for (const char* v : {"eci-exclusive", "eci-shared", "fastforward"}) {
        print_histogram(v, single_samples[v]);
      }
    }
    if (o.latency) {
      std::printf("\n(ii) invocation latency vs payload, eci-exclusive (002 Fig. 7: flat to 256 B, "
                  "then linear)\n");
      std::printf("%8s %7s %10s %10s %8s\n", "payload", "n", "median_ns", "p99_ns", "vs_64B");
      double base = 0;
      for (const auto& r : rows) {
        if (r.experiment != "latency" || r.variant != "eci-exclusive") continue;
        if (base == 0) base = r.lat.median;
        std::printf("%8zu %7llu %10.0f %10.0f %8.2f\n", r.payload,
                    static_cast<unsigned long long>(r.invocations), r.lat.median, r.lat.p99,
                    r.lat.median / base);
      }
    }
    if (o.throughput) {
      std::printf("\n(iii) back-to-back invocations, %s simulated per payload (002 Fig. 8: peak "
                  "%.2f GiB/s at 32 KiB)\n", o.quick ? "0.1 ms" : "1 ms", kFig8PeakGiB);
      std::printf("%8s %8s %10s %10s %10s %7s\n", "payload", "n", "GiB/s", "median_ns",
                  "paper", "ratio");
      for (const auto& r : rows) {
        if (r.experiment != "throughput" || r.variant != "eci-exclusive") continue;
        bool peak = r.payload == kFig8PeakPayload;
        std::printf("%8zu %8llu %10.3f %10.0f %10s %7s\n", r.payload,
                    static_cast<unsigned long long>(r.invocations), *r.gib_s, r.lat.median,
                    peak ? fmt(kFig8PeakGiB, 2).c_str() : "-",
                    peak ? fmt(*r.gib_s / kFig8PeakGiB, 2).c_str() : "-");
      }
    }
    if (pcie) {
      std::printf("\n(iv) invocations over PCIe beside the coherent channel (002 Fig. 7, 8; Fig. 1 "
                  "DMA, Fig. 2 PCIe PIO alone): the request sent through the NIC, looped back at "
                  "its MAC and received (the device's packet buffers where 002 has block RAM), %u "
                  "invocations per payload, then back to back for %s; eci: (ii) and (iii)\n",
                  pcie_iters, o.quick ? "0.1 ms" : "1 ms");
      std::printf("%8s %10s", "payload", "eci_ns");
      for (size_t k = 1; k < o.interfaces.size(); ++k) {
        std::printf(" %13s %7s", (o.interfaces[k] + "_ns").c_str(), "x eci");
      }
      std::printf(" %10s", "eci GiB/s");
      for (size_t k = 1; k < o.interfaces.size(); ++k) {
        std::printf(" %15s", (o.interfaces[k] + " GiB/s").c_str());
      }
      std::printf("\n");
      for (size_t s : pcie_payloads) {
        const Row* e = find_row(rows, "latency", "eci-exclusive", s);
        const Row* et = find_row(rows, "throughput", "eci-exclusive", s);
        std::printf("%8zu %10s", s, e ? fmt(e->lat.median).c_str() : "-");
        for (size_t k = 1; k < o.interfaces.size(); ++k) {
          const Row* c = find_row(rows, "latency", o.interfaces[k], s);
          std::printf(" %13.0f %7s", c->lat.median,
                      e ? fmt(c->lat.median / e->lat.median, 2).c_str() : "-");
        }
        std::printf(" %10s", et ? fmt(*et->gib_s, 3).c_str() : "-");
        for (size_t k = 1; k < o.interfaces.size(); ++k) {
          std::printf(" %15.4f", *find_row(rows, "throughput", o.interfaces[k], s)->gib_s);
        }
        std::printf("\n");
      }
      if (p.has("nic.dma_tx_sw_ns")) {
        std::printf("pcie-dma: the host software per frame, nic.dma_tx_sw_ns = %.0f and "
                    "nic.dma_rx_sw_ns = %.0f, calibrated on 002 Table 1's NIC rows (docs/nic.md), "
                    "not on these\n",
                    p.get_double("nic.dma_tx_sw_ns"), p.get_double("nic.dma_rx_sw_ns"));
      }
      std::printf("002 s5.1's claims, on this run's figures:\n");
      for (const Claim& c : claims) {
        std::printf("  %-60s %9.2f  %s%s\n", c.what.c_str(), c.ours,
                    c.holds() ? "holds" : "DOES NOT HOLD", c.gated ? "" : " (not gated)");
      }
    }
    std::printf("\ndevice protocol processing (request at the device port -> first answer or "
                "snoop leaving it), idle device:\n");
    std::printf("  plain line read -> DataE: median %.0f cycles (%.1f ns at %.0f MHz)\n",
                plain_s.median, plain_s.median * 1e3 / dev_mhz, dev_mhz);
    if (o.single) {
      std::printf("  PIO trigger read -> recall snoop: median %.0f cycles (%.1f ns)\n",
                  trig_s.median, trig_s.median * 1e3 / dev_mhz);
    }
    std::printf("  paper: the Enzian directory spends ~300 ns (~90 cycles at 300 MHz)\n");
    std::printf("simulation speed: %.0f device cycles per wall-clock second (%llu cycles in "
                "%.1f s; the model clocked in %llu of them, asleep in the rest while quiescent)\n",
                speed, static_cast<unsigned long long>(totals.device_cycles),
                totals.wall_s, static_cast<unsigned long long>(totals.clocked));
    const bool default_run = o.single && o.latency && o.throughput && !o.quick &&
                             o.iterations == Options{}.iterations && o.sets.empty() &&
                             p.name() == Options{}.profile && o.msg_trace.empty();
    if (default_run) {
      std::printf("  reference: %.0f device cycles per second for this run on the reference "
                  "machine (docs/results.md); this run %.2fx it%s\n",
                  kReferenceCyclesPerSecond, speed / kReferenceCyclesPerSecond,
                  speed < 0.5 * kReferenceCyclesPerSecond
                      ? ": below half, a slower model or a slower or busier machine"
                      : "");
    }
  }
  if (mismatches) {
    std::fprintf(stderr, "cni-bench: %llu responses differ from the reference model\n",
                 static_cast<unsigned long long>(mismatches));
    return 1;
  }
  if (pcie_bad) {
    std::fprintf(stderr, "cni-bench: %llu PCIe invocations came back wrong or broke coherence\n",
                 static_cast<unsigned long long>(pcie_bad));
    return 1;
  }
  if (claims_failed) {
    std::fprintf(stderr, "cni-bench: %zu of 002 s5.1's gated claims do not hold\n",
                 claims_failed);
    return 1;
  }
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  Options o = parse_args(argc, argv);
  int rc = 1;
  try {
    if (o.suite == "device") rc = run_device(o);
    else if (o.suite == "nodes") rc = run_nodes(o);
    else if (o.suite == "bus") rc = run_bus(o);
    else if (o.suite == "cni") rc = run_cni(o);
    else if (o.suite == "dsm") rc = run_dsm(o);
    else if (o.suite == "xfer")
      rc = run_xfer(o);
    else if (o.suite == "nic") rc = run_nic(o);
    else rc = run_pio(o);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cni-bench: %s\n", e.what());
    return 1;
  }
  // an assertion or $error in a device model fails the run (tb/rtl_errors.hpp)
  if (const unsigned n = cni::tb::rtl_error_count(); n > 0) {
    std::fprintf(stderr, "cni-bench: %u device model(s) reported RTL errors\n", n);
    return 1;
  }
  return rc;
}
