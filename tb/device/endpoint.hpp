// SPDX-License-Identifier: Apache-2.0
// Cycle-level driver for the Verilated device core (cni_endpoint): link channels with the
// credit protocol, the AXI4-Lite CSR port, the PIO (a)/(b) streams and FST tracing. Tests use it
// directly to play host agents; SimDevice (sim_device.hpp) plugs it into the host simulation.
#pragma once

#include <array>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "cache_port.hpp"
#include "cni/engines.hpp"
#include "cni/proto.hpp"
#include "cni/regs.hpp"
#include "cni/sim/dram.hpp"
#include "mem/axi_dram.hpp"

namespace cni::tb {

// Geometry of the device core, read from its CSRs after reset (docs/endpoint.md, "CSR map"):
// the address map's regions (cni_amap_pkg), the line size, the table and link sizes.
struct DeviceGeometry {
  // Regions, in the order of the engine registry (cni::engines::RegionId: kMem, kPioC, ...;
  // cni_amap_pkg::REG_*); Endpoint::reset() checks the count.
  using RegionId = engines::RegionId;
  using enum engines::RegionId;
  struct Region {
    unsigned base = 0;   // first line
    unsigned lines = 0;
    int owner = -1;      // engine index on the engine bus, -1: plain memory
  };
  unsigned line_bytes = 128;
  uint64_t dev_base = 0;
  std::array<Region, kNumRegions> regions{};
  unsigned tt_entries = 0;
  unsigned tt_reserve = 0;  // entries only engine RECALLs may take
  unsigned rx_depth = 0;    // receive buffer per channel = credits the device advertises
  unsigned tx_credits = 0;  // credits the device holds per transmit channel
  bool pipelined = false;    // Pipelined (docs/endpoint.md, "Pipelined configuration")
  // The PIO engine's layout of its regions (docs/pio.md): pairs of (c) lines in two groups,
  // two control lines then overflow lines for (a) and (b).
  unsigned mem_lines = 0;
  unsigned cpairs = 0;
  unsigned novfa = 0;
  unsigned novfb = 0;
  // The caching agent (cni_endpoint's Cache* parameters, from the CACHE CSR).
  unsigned ca_sets = 0;
  unsigned ca_ways = 0;
  unsigned ca_mshrs = 0;
  unsigned ca_id_bits = 0;  // engine request id width
  // Quiescence window (TIMEBASE CSR): quiet_o promises this many cycles without a change.
  unsigned quiet_log2 = 0;
  unsigned net_bytes = 0;  // the network port's beat (NET CSR)
  // Device lines backed by DRAM (DRAM CSR; docs/dram.md): 2^dram_idx_w of them from line
  // 2^dram_idx_w on, after the on-chip lines (0: none), held in 2^frame_w frames.
  unsigned dram_idx_w = 0;
  unsigned frame_w = 0;
  unsigned dram_lines() const { return dram_idx_w ? 1u << dram_idx_w : 0; }
  unsigned dram_first() const { return dram_lines(); }
  bool is_dram(unsigned line) const {
    return dram_idx_w && line >= dram_first() && line < dram_first() + dram_lines();
  }
  uint64_t quiet_cycles() const { return uint64_t{1} << quiet_log2; }
  // The tag store's blocks (its GEOMETRY and BLOCK_LINE registers; docs/tagstore.md): how many,
  // and block 0's line (after its buffer line, or the first DRAM-backed line). 0: no tag store.
  unsigned ts_blocks = 0;
  unsigned ts_block0 = 0;

  // Cycles the pipelined configuration adds to each message the home agent handles, to each
  // event on its way to the PIO engine, and to each entry into the engine's (c) FIFOs.
  unsigned home_extra_cycles() const { return pipelined ? 5 : 0; }
  unsigned event_extra_cycles() const { return pipelined ? 2 : 0; }
  unsigned cfifo_extra_cycles() const { return pipelined ? 1 : 0; }

  unsigned base(RegionId r) const { return regions[r].base; }
  unsigned c0() const { return base(kPioC); }
  unsigned a0() const { return base(kPioA); }
  unsigned b0() const { return base(kPioB); }
  unsigned num_lines() const { return regions[kNumRegions - 1].base + regions[kNumRegions - 1].lines; }
  uint64_t addr_of(unsigned line) const { return dev_base + uint64_t(line) * line_bytes; }
  // The device's window: its on-chip lines, and its DRAM-backed lines where it has them.
  unsigned window_lines() const { return dram_idx_w ? 2 * dram_lines() : num_lines(); }
  uint64_t size_bytes() const { return uint64_t(window_lines()) * line_bytes; }
};
// Which Verilator build this library holds ("chk", "pipe" or "fast").
const char* built_flavor();

namespace csr {
// The CSR block's register addresses (kId, kGeometry, ... kRegion, kOwner, kCnt: arrays' first
// elements, 4 bytes apart), from its SystemRDL description (rtl/coh/cni_csr.rdl; cni/regs.hpp).
using namespace regs::csr;
inline constexpr uint32_t kEngine = engines::kEngineWindowBase;
// An engine's register window (docs/endpoint.md, "Engine bus").
using engines::engine_reg;
// The counters (0x100 + 4i), in the engine registry's order: the platform's, then the engines'.
using Counter = engines::Counter;
using enum engines::Counter;
const char* counter_name(Counter c);
}  // namespace csr

// A response of the device caching agent's engine port (docs/cache-agent.md).
struct CacheRsp {
  unsigned id = 0;
  bool err = false;  // the home answered Error, or the request was malformed
  CaLine data{};     // reads: the line
  uint64_t cycle = 0;
};

// A frame at the device's network port (docs/endpoint.md, "Network port"): its bytes (header and
// payload; the MAC adds and checks the FCS), its destination node (tdest) and, coming in, whether
// the MAC found it bad (tuser).
struct NetFrame {
  std::vector<uint8_t> bytes;
  unsigned dest = 0;
  bool bad = false;
  uint64_t cycle = 0;  // sent: the cycle its last beat left
};

// One message the device emitted, with the cycle it left the device.
struct TxMsg {
  proto::Msg msg;
  uint64_t cycle = 0;
};

class Endpoint {
 public:
  struct Options {
    std::string name = "endpoint";  // trace file name stem
    uint8_t agent_id = 8;
    uint64_t clock_period_ps = 3333;  // 300 MHz
    uint64_t seed = 1;                // Verilator randReset seed
    bool trace = false;               // or env CNI_TRACE=1
    std::string trace_dir = ".";
    bool auto_tx_credits = true;      // return a tx credit as soon as a message is taken
    double ca_rsp_stall = 0.0;        // probability that ca_rsp_ready_i is low in a cycle
    // The device model: a build holds one per line size (tb/rtl_endpoint.cmake); the
    // constructor throws std::invalid_argument for a size it has no model of.
    unsigned line_bytes = 128;
    // A variant of the model at that size (the fast build's "ni2w", "c4", "q512", "qm",
    // "q512ep" at 64-byte lines and "pipe" at 128, the checking build's "c4": the CNI engine in
    // another configuration, "q512ep" CNI512Q with EarlyPull = 1, "pipe" the build's own with
    // Pipelined = 1); empty: the build's own.
    std::string variant;
    unsigned node_id = 0;  // node_id_i: the device's node on the network
    // The DRAM behind the device-memory port (models with DRAM-backed lines, docs/dram.md):
    // sim::Dram at its defaults (DDR4-2400), AXI handshakes withheld with this chance.
    double dram_stall = 0.0;
    // The MAC side of the network port (docs/endpoint.md, "Network port"): 2 keeps a queue per
    // channel and offers a frame only on a channel the device has room for (net_rx_room_o), so
    // a reply never waits behind a request; 1 keeps one queue and offers its oldest frame, room
    // or not (a port without a ready per channel, for the tests that show the difference).
    unsigned net_channels = 2;
  };
  Endpoint();
  explicit Endpoint(const Options& opt);
  // Whether this build has a device model with `line_bytes`-byte lines and that variant ("": its
  // own).
  static bool has_model(unsigned line_bytes, const std::string& variant);
  // The device models of this build: line size, variant, and the parameters it was built with
  // (those tb/rtl_endpoint.cmake sets; a parameter it does not set has the endpoint's default).
  struct ModelInfo {
    unsigned line_bytes = 0;
    std::string variant;
    std::map<std::string, long> params;
    // `name`'s value in this model, or `dflt` where the build leaves it at its default.
    long param(const std::string& name, long dflt) const {
      auto it = params.find(name);
      return it == params.end() ? dflt : it->second;
    }
  };
  static std::vector<ModelInfo> models();
  ~Endpoint();
  Endpoint(const Endpoint&) = delete;
  Endpoint& operator=(const Endpoint&) = delete;

  // Read from the device's CSRs by reset(); throws std::logic_error before the first reset.
  const DeviceGeometry& geometry() const;
  uint8_t agent_id() const;
  uint64_t cycle() const;

  // Reset, then clock until the home agent has cleared its RAMs; reads the geometry.
  void reset();
  void tick();           // one clock cycle
  void run(unsigned n);  // n clock cycles

  // Host -> device: queued, entered into the device as its receive credits allow.
  void send(const proto::Msg& m);
  // Send on a given channel whatever the opcode says (malformed-message tests).
  void send_on(proto::Chan ch, const proto::Msg& m);
  // Off: messages enter even without a credit (credit-violation tests).
  void set_rx_credit_check(bool on);
  size_t rx_queued() const;

  // Device -> host: every message the device has emitted and nobody has taken yet.
  std::deque<TxMsg>& emitted();
  // Clock until a message appears (or `max_cycles` pass); takes the oldest one.
  std::optional<TxMsg> wait_msg(unsigned max_cycles = 2000);
  // Clock until a message with this opcode and address appears; takes it.
  std::optional<TxMsg> wait_for(proto::Op op, proto::Addr addr, unsigned max_cycles = 2000);
  // Return tx credits by hand (when auto_tx_credits is off).
  void return_tx_credit(proto::Chan ch);
  // Switch Options::auto_tx_credits (tests that let the device's transmit side fill up).
  void set_auto_tx_credits(bool on);
  // Callback on every emitted message (SimDevice forwards them into the fabric).
  void on_emit(std::function<void(const TxMsg&)> fn);
  // Callback on every message entering the device port (the cycle it is presented).
  void on_rx(std::function<void(const proto::Msg&, uint64_t cycle)> fn);
  // Callback on every receive-buffer credit the device returns.
  void on_rx_credit(std::function<void(proto::Chan)> fn);

  // Device caching agent: engine requests (queued, entered in order as the agent takes them;
  // each with an id no other outstanding request has), their responses (taken as the seeded
  // ca_rsp_stall lets ca_rsp_ready_i rise), and its monitor (docs/cache-agent.md: line state
  // changes, and every access the agent performs with the request's id and the line as read
  // or written).
  void ca_request(const CaRequest& r);
  size_t ca_queued() const;
  std::deque<CacheRsp>& ca_responses();
  void set_ca_rsp_stall(double p);
  void on_ca_state(std::function<void(uint64_t addr, LineState from, LineState to)> fn);
  void on_ca_access(std::function<void(unsigned id, const uint8_t* line)> fn);
  // An engine's access through the caching agent (ca_mon_eng_*): its line, whether it wrote,
  // and the line as read or written.
  void on_ca_engine_access(std::function<void(uint64_t addr, bool we, const uint8_t* line)> fn);
  // A write of device line `line` through port B of the line memory (pb_mon_*): an engine's.
  void on_port_b_write(std::function<void(unsigned line, const uint8_t* data)> fn);

  // CSR access (blocking: clocks the device). `resp`, if given, gets the read's AXI response
  // (0 OKAY, 2 SLVERR).
  uint32_t csr_read(uint32_t addr, unsigned* resp = nullptr);
  void csr_write(uint32_t addr, uint32_t value);
  uint32_t counter(csr::Counter c);

  // Network port: a frame for the device's receive port (queued on its channel, type bit 7, and
  // entered beat by beat as the device takes them); the frames waiting, of a channel or both;
  // the frames the device sent (kept while no callback is installed), or a callback on each;
  // the MAC's tready, and whether it takes a whole frame of a channel now (net_tx_room_i).
  void net_receive(const NetFrame& f);
  size_t net_queued() const;
  size_t net_queued(unsigned channel) const;
  std::deque<NetFrame>& net_sent();
  void on_net_frame(std::function<void(const NetFrame&)> fn);
  void set_net_tx_ready(std::function<bool()> ready);
  void set_net_tx_room(std::function<bool(unsigned channel)> room);
  // The channel of a frame (docs/network.md, "Channels"): bit 7 of its type (byte 6).
  static unsigned net_channel(const std::vector<uint8_t>& bytes) {
    return bytes.size() > 6 ? bytes[6] >> 7 : 0;
  }

  // PIO (b) stream: a message for the device to deliver to the CPU.
  void pb_push(const std::vector<uint8_t>& payload);
  // PIO (a) stream: messages the device delivered; pa_ready is driven by `ready` each cycle.
  std::deque<std::vector<uint8_t>>& pa_messages();
  void set_pa_ready(std::function<bool()> ready);
  // The PIO streams beat by beat, for device logic outside the core (a NIC datapath): `source`
  // offers the (b) stream's next beat each cycle (false: none; its data stays valid until the
  // cycle's end), `taken` runs when the core took it; `sink` gets every (a) beat the core gives
  // (pa_ready_i as set_pa_ready drives it). With a source, pb_push's queue is not used; with a
  // sink, pa_messages() stays empty.
  struct PioBeat {
    const uint8_t* data = nullptr;  // line_bytes bytes
    uint16_t len = 0;               // the message's length (pb: sampled on the first beat)
    bool last = false;
  };
  void set_pb_source(std::function<bool(PioBeat&)> source, std::function<void()> taken);
  void set_pa_sink(std::function<void(const PioBeat&)> sink);

  // Quiescence (docs/endpoint.md, "Quiescence"), as of the last cycle clocked: the core said
  // quiet_o in it, nothing entered it then, and nothing waits to enter (link messages, credits,
  // caching-agent requests, (b) beats, CSR accesses). Then, until an input arrives, the cycles
  // up to quiet_cycles() later change nothing (quiescent()), or none ever does (idle()), so
  // skip_to() may pass over them. time_i is the cycle count, skipped cycles included.
  bool quiescent() const;
  bool idle() const;
  // Advance to cycle `cycle` without clocking the ones in between: any distance while idle(),
  // up to quiet_cycles() after the last cycle clocked while quiescent(); std::logic_error
  // otherwise (and for a cycle in the past).
  void skip_to(uint64_t cycle);
  // Cycles clocked (cycle() counts skipped ones too).
  uint64_t clocked() const;

  // The DRAM behind the device-memory port (a model with DRAM-backed lines; std::logic_error
  // otherwise): the memory's and the AXI slave's statistics, and an error answer (SLVERR) to the
  // next read or write. A rule the device's AXI master breaks is an RTL error (got_error()).
  const sim::DramStats& dram_stats() const;
  const AxiDramStats& dram_axi_stats() const;
  void dram_fail_next(bool write);

  // Verilator error state (assertion failures and the like). The destructor reports a model
  // with an error through tb::rtl_error() (tb/rtl_errors.hpp).
  bool got_error() const;
  // Sets the error state as an RTL $error does: for tests of the path an RTL error takes.
  void mark_rtl_error();

  // Helpers to build messages from a host agent to this device.
  proto::Msg make(proto::Op op, uint8_t src, proto::Addr addr, uint8_t tag = 0) const;

 private:
  void read_geometry();
  struct Impl;
  template <class Top>
  struct Model;
  using Open = std::unique_ptr<Impl> (*)(const Options&);
  struct ModelEntry {
    Open open;
    const char* params;  // "P=V P=V ...": the -G settings of the model
  };
  static const std::map<std::pair<unsigned, std::string>, ModelEntry>& model_table();
  std::unique_ptr<Impl> d_;
};

}  // namespace cni::tb
