// SPDX-License-Identifier: Apache-2.0
// CNI messaging (docs/cni.md section 7): Tempest-style active messages -- a handler id and a
// payload -- over the CNI cache/queue engine in any configuration it is built in, with blocking
// and non-blocking send and receive. Messages longer than one network message (244 payload
// bytes) are split into fragments and reassembled per source. A sender that finds no room drains
// the device's receive side into user memory before it tries again (000 section 4.1), so two
// nodes sending to each other cannot deadlock. Written only against cni::drv::MemoryPort.
#pragma once

#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <optional>
#include <span>
#include <vector>

#include "cni/drv/mem.hpp"

namespace cni::drv {

enum class CniConfig : uint8_t { Ni2w = 0, Cni4 = 1, Cni16Q = 2, Cni512Q = 3, Cni16Qm = 4 };
const char* cni_config_name(CniConfig c);

struct CniOptions {
  Addr region_base = 0;              // the CNI region's first byte (its register page)
  unsigned nodes = 0;                // nodes in the system (CTRL.NODES); 0: the device's setting
  size_t max_message_bytes = 65536;  // larger messages are refused
  size_t backlog_bytes = 65536;      // what try_send may queue in user memory
  // CNI16Qm: the receive queue in host memory -- RQ_HEAD's line, then the slots (1 +
  // recv_slots() * 256 / line bytes lines), contiguous, line aligned and pinned; the driver
  // zeroes it and hands it to the engine (RQ_BASE). Other configurations ignore it.
  Addr rq_host_base = 0;
  // CNI4: the virtual-polling back-off (TIMERS.VP_BACKOFF, device cycles from a TX CDR's grant to
  // its pull; 000's "system programmable back-off interval"); unset: the device's setting.
  std::optional<uint16_t> vp_backoff;
  // Go-back-N retransmission (CTRL.retransmit; docs/cni.md section 6): exactly once, in order,
  // under network loss. std::runtime_error at open when the engine is built without it.
  bool retransmit = false;
  // Its timeout (TIMERS.RETX_TIMEOUT, device cycles from the oldest unacknowledged frame's send,
  // or the last ack, to a resend); unset: the device's setting.
  std::optional<uint32_t> retx_timeout;
};

// Run by poll()/recv()/try_recv() once per complete message, in the order messages completed.
using CniHandler = std::function<void(uint16_t src, std::span<const uint8_t> data)>;

enum class SendResult { Sent, Queued, WouldBlock };

// The engine's counters (docs/cni.md section 4), 32-bit and wrapping; CniEndpoint::counter reads
// one. Retransmissions and RX_SEQ count only with go-back-N on (Retransmit, CTRL.retransmit),
// early pulls only with EarlyPull; PULL_STALL reads 0 (not built).
enum class CniCounter : unsigned {
  TxMessages = 0, TxFrames = 1, RxFrames = 2, AcksSent = 3, AcksReceived = 4, Retransmits = 5,
  TxClosed = 6, TxBadLen = 7, TxBadDst = 8, TxBadSense = 9, TxOverrun = 10, TxStray = 11,
  TxEarlyWrite = 12, RxBadFcs = 13, RxBad = 14, RxDup = 15, RxSeq = 16, RxGap = 17,
  RxClosed = 18, RxStray = 19, AckStale = 20, Pulls = 21, EarlyPulls = 22, PullStalls = 23,
  ShadowRefreshes = 24, LocalDeliveries = 25, WindowWaits = 26, RoomWaits = 27, RqErrors = 28,
  LockedWrites = 29, VirtualPollOld = 30,
};

struct CniStats {
  uint64_t messages_sent = 0, messages_received = 0;
  uint64_t fragments_sent = 0, fragments_received = 0;
  uint64_t drained = 0;            // fragments taken while a send waited for room
  uint64_t no_room = 0;            // pushes that found no room
  uint64_t shadow_refreshes = 0;   // CQ: reads of SQ_HEAD because the shadow said full
  uint64_t reassembly_errors = 0;  // fragments dropped: a FIRST over a message in progress, or
                                   // a fragment with no message in progress
};

class CniEndpoint {
 public:
  static constexpr size_t kFragmentBytes = 244;  // payload of one network message
  // A fragment's flags, in its slot and its data frame's `flags` (docs/cni.md sections 6, 7).
  static constexpr uint8_t kFirst = 1, kLast = 2;

  // Reads ID, takes up the queue pointers where the device has them (CNI16Qm: zeroes the host
  // queue and hands it to the engine), and opens the endpoint. Throws std::runtime_error for a
  // configuration this driver does not drive, std::invalid_argument for a CNI16Qm device without
  // a line-aligned CniOptions::rq_host_base.
  CniEndpoint(MemoryPort& mem, const CniOptions& opt);

  CniConfig config() const { return cfg_; }
  uint16_t node() const { return node_; }
  uint16_t nodes() const { return nodes_; }
  // Slots of the cachable send and receive queues (0 for NI2w's hardware queues).
  unsigned send_slots() const { return ns_; }
  unsigned recv_slots() const { return nr_; }
  void set_handler(uint16_t id, CniHandler h) { handlers_[id] = std::move(h); }

  // Blocking: returns when every fragment is in the device (draining while there is no room).
  void send(uint16_t dst, uint16_t handler, std::span<const uint8_t> data);
  // Non-blocking: Sent (all in the device), Queued (the rest in the backlog, pushed by later
  // calls first), WouldBlock (nothing taken).
  SendResult try_send(uint16_t dst, uint16_t handler, std::span<const uint8_t> data);
  void recv();      // blocking: runs one complete message's handler
  bool try_recv();  // runs one if one is complete
  unsigned poll();  // pushes the backlog, runs every complete message; how many
  // Waits until the device has taken every message sent, then closes the endpoint.
  void close();

  const CniStats& stats() const { return stats_; }
  // One of the engine's counters (an uncached load of the register pair that holds it).
  uint32_t counter(CniCounter c);
  // CNI16Qm: the host home answered one of the engine's queue accesses Error (a wrong
  // rq_host_base), and the engine closed the endpoint (STATUS.err; an uncached load).
  bool device_error();

 private:
  struct Fragment {
    uint16_t peer = 0, handler = 0;
    uint8_t flags = 0;
    std::vector<uint8_t> data;
  };
  struct Message {
    uint16_t src = 0, handler = 0;
    std::vector<uint8_t> data;
  };

  void check(uint16_t dst, size_t n) const;
  std::vector<Fragment> split(uint16_t dst, uint16_t handler, std::span<const uint8_t> d) const;
  std::vector<uint8_t> image(const Fragment& f) const;   // its lines in a slot or CDR set
  void read_image(Addr l0, std::vector<uint8_t>& img, Fragment& f);  // img: line 0, read at l0
  bool push(const Fragment& f);           // false: no room now
  bool push_cq(const Fragment& f);
  bool push_ni2w(const Fragment& f);
  bool push_cdr(const Fragment& f);
  bool pull(Fragment& f);                 // false: nothing there
  bool pull_cq(Fragment& f);
  bool pull_ni2w(Fragment& f);
  bool pull_cdr(Fragment& f);
  void take(Fragment&& f);                // reassembly
  unsigned drain();                       // every fragment there, into user memory
  bool flush_backlog();                   // true: empty
  void run(Message& m);
  Addr reg(unsigned off) const { return opt_.region_base + off; }
  Addr line(unsigned l) const { return opt_.region_base + Addr(l) * lb_; }
  // The receive queue: RQ_HEAD's line, and line j of slot s (device lines, or CNI16Qm's host
  // queue).
  Addr rq_head_line() const;
  Addr rq_slot_line(unsigned s, unsigned j) const;

  MemoryPort& mem_;
  CniOptions opt_;
  CniConfig cfg_ = CniConfig::Ni2w;
  uint16_t node_ = 0, nodes_ = 0;
  unsigned lb_ = 64, b_ = 4, r_ = 4;      // line bytes, lines per slot, register-page lines
  unsigned ns_ = 0, nr_ = 0;              // slots of the send and receive queues (CQ)
  uint32_t sq_tail_ = 0, sq_shadow_ = 0, rq_head_ = 0;  // pointers: pass parity over index
  unsigned tx_words_ = 0;                 // NI2w: the TX queue's words, CNI4: its messages, all
                                          // free at open
  uint32_t tx_seq_ = 1;                   // CNI4: the valid word of the next message
  bool open_ = false;
  std::deque<Fragment> backlog_;
  size_t backlog_used_ = 0;
  std::map<uint16_t, Message> partial_;   // per source
  std::deque<Message> complete_;
  std::map<uint16_t, CniHandler> handlers_;
  CniStats stats_;
};

}  // namespace cni::drv
