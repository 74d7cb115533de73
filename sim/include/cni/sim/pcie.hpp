// SPDX-License-Identifier: Apache-2.0
// PCI Express at the transaction layer (docs/pcie.md): a link between the host's root complex
// and a device's endpoint, the root complex, and the endpoint as a device's PCIe hard IP
// presents it.
//
//  - Link: one serializer per direction at the generation's and width's rate; every TLP pays
//    its header and 8 bytes of framing, sequence number and LCRC, every DLLP 8 bytes (tlp.hpp);
//    the receiver's posted, non-posted and completion header and data credits hold a TLP back
//    until the receiver has consumed enough earlier ones (each release returns its credits by an
//    UpdateFC DLLP, which takes the reverse direction's bandwidth and latency), and the receiver
//    acknowledges every pcie.ack_every TLPs with an Ack DLLP. Ordering: nothing passes a posted
//    request (PCIe's producer-consumer rule with relaxed ordering off); non-posted requests and
//    completions may pass each other, never one of the same request. The link does not lose
//    packets (the data-link layer's replay is not modeled).
//  - RootComplex: a fabric agent on a host socket. CPU side: an UncachedTarget for the BARs'
//    window (stores combined per pcie.wc_bytes chunk into posted writes; loads become
//    non-posted reads of pcie.load_bytes) and one for a configuration window (one configuration
//    double word per 8-byte slot). Device side: the endpoint's memory reads of host memory
//    become non-allocating coherent reads (RdNA: dirty lines are pulled from the CPU caches)
//    answered by completions split at pcie.rc_completion_bytes, its writes become
//    write-invalidates (WrInv) of whole lines and ownership read, merge and write-back (RdX,
//    WB) of partial ones, and its writes to the MSI window interrupts. Requests go out in order
//    with up to pcie.rc_lines_in_flight line operations open; an operation to another home than
//    the open ones waits for them (so a device's writes become visible in the order it made
//    them). An address no host home owns is answered Unsupported Request (reads) or dropped
//    (writes), and counted.
//  - Endpoint: the configuration space (pcie_cfg.hpp); requests to its BARs go to a BarTarget
//    (the device behind the hard IP), anything else is answered Unsupported Request and counted;
//    the device's DMA reads are split at the programmed Max_Read_Request_Size and at 4 KiB
//    boundaries, take a tag each (pcie.tags in flight), and are reassembled from their
//    completions; its writes are split at Max_Payload_Size and 4 KiB boundaries; an MSI is a
//    memory write of the programmed message data to the programmed address.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "cni/sim/coherence.hpp"
#include "cni/sim/core.hpp"
#include "cni/sim/fabric.hpp"
#include "cni/sim/kernel.hpp"
#include "cni/sim/pcie_cfg.hpp"
#include "cni/sim/tlp.hpp"

namespace cni::sim {
class Profile;
}

namespace cni::sim::pcie {

// Flow-control credits a receiver advertises (header credits: TLPs; data credits: 16-byte
// units; 0: infinite, as the specification allows).
struct Credits {
  unsigned ph = 32, pd = 256, nph = 32, npd = 0, cplh = 0, cpld = 0;
};

struct PcieParams {
  unsigned gen = 3;            // pcie.gen
  unsigned lanes = 8;          // pcie.lanes
  Time latency = 0;            // pcie.latency_ns: one way, end of serialization to arrival
  unsigned mps = 256;          // pcie.max_payload_bytes (Device Control, programmed)
  unsigned mrrs = 512;         // pcie.max_read_request_bytes (Device Control, programmed)
  unsigned rcb = 64;           // pcie.rcb_bytes: read completion boundary, 64 or 128
  unsigned rc_cpl_bytes = 64;  // pcie.rc_completion_bytes: a multiple of rcb, <= mps
  unsigned tags = 32;          // pcie.tags: a requester's non-posted requests in flight
  Credits credits;             // pcie.credits_{ph,pd,nph,npd,cplh,cpld}, both receivers
  unsigned ack_every = 4;      // pcie.ack_every: TLPs received per Ack DLLP
  Time rc_time = 0;            // pcie.rc_ns: root complex, TLP <-> host request, each way
  Time ep_time = 0;            // pcie.ep_ns: endpoint hard IP, TLP <-> device, each way
  unsigned wc_bytes = 64;      // pcie.wc_bytes: CPU stores combined up to this chunk
  Time wc_timeout = 0;         // pcie.wc_timeout_ns: a partial chunk leaves after this
  unsigned load_bytes = 16;    // pcie.load_bytes: a CPU load's read request size
  unsigned rc_lines = 32;      // pcie.rc_lines_in_flight
  Time cpl_timeout = 0;        // pcie.completion_timeout_us: a requester's wait for a
                               // completion (then: error, all ones to a CPU load)
  uint64_t msi_base = uint64_t{1} << 39;  // pcie.msi_base: the MSI window (4 KiB)
  // Throws ProfileError naming the key on a value out of range.
  static PcieParams from_profile(const Profile& p);
  // Throws std::invalid_argument naming the field that is out of range.
  void validate() const;
};

struct DirStats {
  uint64_t tlps[3] = {0, 0, 0};  // by FcClass
  uint64_t payload_bytes = 0;
  uint64_t wire_bytes = 0;  // TLPs and DLLPs
  uint64_t dllps = 0;
  uint64_t credit_waits = 0;  // times a TLP at the head of its class waited for credits
  Time busy = 0;              // serializer time
};

class Link {
 public:
  // What a receiver does with a TLP; it calls `release` once it has taken the TLP out of its
  // receive buffer, which returns the TLP's credits to the sender.
  using Receiver = std::function<void(const Tlp&, std::function<void()> release)>;

  class Port {
   public:
    // Queue a TLP for the other end; `sent` runs when its last byte has left. Throws TlpError on
    // one encode() rejects or one whose data the receiver's credit limit can never take.
    void send(Tlp t, std::function<void()> sent = {});
    void set_receiver(Receiver r) { rx_ = std::move(r); }
    const DirStats& stats() const { return st_; }
    size_t queued() const { return q_.size(); }

   private:
    friend class Link;
    struct Dllp {
      bool update_fc = false;
      FcClass cls = FcClass::P;
      unsigned hdr = 0, data = 0;
    };
    void kick();
    void transmit();
    bool fits(const Tlp& t) const;
    void receive(const Tlp& t);
    void credits_back(const Dllp& d);

    Link* link_ = nullptr;
    Port* peer_ = nullptr;
    bool down_ = false;  // root complex -> endpoint
    Receiver rx_;
    struct Queued {
      Tlp t;
      std::function<void()> sent;
    };
    std::deque<Queued> q_;
    std::deque<Dllp> dllp_q_;
    Credits limit_;  // what the peer's receiver advertised
    unsigned used_hdr_[3] = {0, 0, 0}, used_data_[3] = {0, 0, 0};
    unsigned unacked_ = 0;  // TLPs received since the last Ack sent
    Time free_at_ = 0;
    bool scheduled_ = false;
    DirStats st_;
  };

  Link(Kernel& k, const PcieParams& p, std::string name);
  Link(const Link&) = delete;
  Link& operator=(const Link&) = delete;

  Port& rc() { return rc_; }
  Port& ep() { return ep_; }
  // Record every TLP as it starts on the wire (nullptr: none).
  void set_trace(TlpTrace* t) { trace_ = t; }
  const PcieParams& params() const { return p_; }
  double bytes_per_ns() const { return bpns_; }
  const std::string& name() const { return name_; }

 private:
  Kernel& k_;
  PcieParams p_;
  std::string name_;
  double bpns_;
  TlpTrace* trace_ = nullptr;
  Port rc_, ep_;
};

inline constexpr uint16_t kRootId = 0x0000;      // the root complex's requester ID
inline constexpr uint16_t kEndpointId = 0x0100;  // bus 1, device 0, function 0

struct RcStats {
  uint64_t cpu_reads = 0, cpu_writes = 0;    // CPU loads and stores of the BAR window
  uint64_t wc_flushes = 0, wc_timeouts = 0;  // posted writes made, of them by timeout
  uint64_t cfg_reads = 0, cfg_writes = 0;
  uint64_t dma_reads = 0, dma_writes = 0;  // the endpoint's memory requests
  uint64_t dma_read_bytes = 0, dma_write_bytes = 0;
  uint64_t line_reads = 0, line_writes = 0, line_merges = 0;  // RdNA, WrInv, RdX + WB
  uint64_t msis = 0;
  uint64_t unsupported = 0;  // requests to no host memory (answered UR or dropped)
  uint64_t bad_completions = 0, cpl_timeouts = 0, cpu_errors = 0;  // CPU loads answered ~0
};

class RootComplex : public Agent {
 public:
  RootComplex(Kernel& k, Fabric& f, proto::AgentId id, Link::Port& port, const PcieParams& p,
              std::string name);
  ~RootComplex() override;

  // CPU side: the windows a HostSystem maps (HostSystem::map_uncached).
  UncachedTarget& bar_window() { return bar_win_; }
  UncachedTarget& config_window() { return cfg_win_; }
  // Called with the message data of every MSI (a write to the MSI window).
  void on_msi(std::function<void(uint32_t data)> fn) { msi_ = std::move(fn); }
  // Reports the host memory the device reads and writes, at the instant a host home performs
  // it (a home-side access of this agent: it never holds a line in a reported cache state).
  void set_observer(CoherenceObserver* obs) { obs_ = obs; }
  void deliver(const proto::Msg& m) override;
  const RcStats& stats() const { return st_; }
  // Host line operations queued or waiting for their answer.
  size_t lines_open() const;
  // The first malformed or unsupported requests seen (at most 16), with the reason.
  const std::vector<std::string>& error_log() const { return errors_; }

 private:
  struct Impl;
  class BarWindow : public UncachedTarget {
   public:
    explicit BarWindow(RootComplex& rc) : rc_(rc) {}
    void read64(proto::Addr addr, std::function<void(uint64_t)> done) override;
    void write64(proto::Addr addr, uint64_t value, std::function<void()> done) override;
    // One read request when pcie.load_bytes is at least 16.
    void read128(proto::Addr addr, std::function<void(const uint8_t*)> done) override;

   private:
    RootComplex& rc_;
  };
  class CfgWindow : public UncachedTarget {
   public:
    explicit CfgWindow(RootComplex& rc) : rc_(rc) {}
    void read64(proto::Addr addr, std::function<void(uint64_t)> done) override;
    void write64(proto::Addr addr, uint64_t value, std::function<void()> done) override;

   private:
    RootComplex& rc_;
  };

  std::unique_ptr<Impl> impl_;
  BarWindow bar_win_{*this};
  CfgWindow cfg_win_{*this};
  std::function<void(uint32_t)> msi_;
  CoherenceObserver* obs_ = nullptr;
  RcStats st_;
  std::vector<std::string> errors_;
};

// The device behind the endpoint's BARs (the AXI4 slave of a hard IP's BAR interface). Every
// access is a contiguous run of bytes inside one BAR.
class BarTarget {
 public:
  virtual ~BarTarget() = default;
  virtual void bar_write(unsigned bar, uint64_t offset, const uint8_t* data, unsigned n) = 0;
  // Calls done with n bytes, at once or later; with nullptr when the device refuses the read
  // (an AXI SLVERR), which the endpoint answers Completer Abort.
  virtual void bar_read(unsigned bar, uint64_t offset, unsigned n,
                        std::function<void(const uint8_t* data)> done) = 0;
};

struct EpStats {
  uint64_t bar_reads = 0, bar_writes = 0, cfg_accesses = 0;
  uint64_t dma_reads = 0, dma_writes = 0, read_requests = 0, write_requests = 0;
  uint64_t completions = 0, msis = 0, msis_masked = 0;
  uint64_t unsupported = 0;  // requests to no BAR, or with memory space off: UR / dropped
  uint64_t aborted = 0;      // BAR reads the device refused: answered Completer Abort
  uint64_t dma_errors = 0;   // DMA reads answered other than successful, or timed out
  uint64_t refused = 0;      // DMA or MSI asked with Bus Master Enable off
};

class Endpoint {
 public:
  Endpoint(Kernel& k, Link::Port& port, const PcieParams& p, const ConfigParams& cfg,
           BarTarget& bars, std::string name);
  ~Endpoint();

  // DMA read of host memory: done(status, bytes) once every completion arrived (status SC),
  // or at the first failed or missing one (the bytes then are not meaningful).
  void dma_read(uint64_t addr, unsigned len,
                std::function<void(CplStatus, std::vector<uint8_t>)> done);
  // DMA write (posted): done once the last TLP of it has left for the link.
  void dma_write(uint64_t addr, std::vector<uint8_t> data, std::function<void()> done = {});
  // Message-signalled interrupt `vector` (< the vectors enabled): a memory write of the
  // programmed data | vector to the programmed address; masked (counted) while MSI is off.
  void msi(unsigned vector);
  ConfigSpace& config() { return cfg_; }
  const EpStats& stats() const { return st_; }
  // Non-posted requests waiting for completions or for a tag.
  size_t reads_open() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  ConfigSpace cfg_;
  EpStats st_;
};

}  // namespace cni::sim::pcie
