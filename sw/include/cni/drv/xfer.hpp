// SPDX-License-Identifier: Apache-2.0
// Driver of the block-transfer engine (docs/xfer.md): seed 004's message passing, Figure 4's
// calls. `XferOs` is the operating system's side (the privileged registers, through the page
// only the OS maps: a process slot's windows, its status flags and receive table, the vpid table,
// each host context's process); `Xfer` is a process's side, through the context window the OS
// gave it: `send` (an initiation: uncached writes closed by one uncached read that
// commits or refuses the whole description), `senddone` (the status flag, polled with cached
// loads), `bufalloc` (a receive buffer posted), `receive` (the receive table's next entry,
// polled with cached loads), `fastmemcpy` (a memory copy: the sender names the destination),
// `fetch_op` (an add, swap or compare-and-swap on a word at another
// node's engine, its old value reported in a status flag). Written against MemoryPort, so the same
// code runs on a simulated core and over a real mapping. The register offsets are the window's
// (rtl/xfer/cni_xfer.rdl).
#pragma once

#include <bitset>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "cni/drv/mem.hpp"

namespace cni::drv {

namespace xfer_reg {
inline constexpr unsigned kId = 0x00, kXcmd = 0x08, kXdst = 0x10, kXpage = 0x18, kXgo = 0x20,
                          kBufAddr = 0x28, kBufPost = 0x30, kFopTgt = 0x38, kFopArg = 0x40,
                          kFopCmp = 0x48, kStatus = 0x50, kGeom = 0x58, kCntSel = 0x60,
                          kCntVal = 0x68, kCtl = 0x80, kOcc = 0x88, kOccFop = 0x90, kTimers = 0x98,
                          kCurPid = 0xA0, kPsel = 0xA8, kSendBase = 0xB0, kSendSize = 0xB8,
                          kRecvBase = 0xC0, kRecvSize = 0xC8, kStat = 0xD0, kRt = 0xD8, kVpt = 0xE0,
                          kVptEntry = 0xE8;
}  // namespace xfer_reg

// The engine's counters (CNT_SEL), docs/xfer.md "Counters".
enum class XferCounter : unsigned {
  Delivered = 0,  // messages whose DONE flag was written (sender)
  Received = 1,   // messages received: entry written, ACK sent
  CompSent = 2,
  CompWritten = 3,
  Fail = 4,           // XGO answered FAIL
  Retry = 5,          // XGO answered RETRY
  Prot = 6,           // protection: XGO PROT_SEND / PROT_RECV, REJECT or FOP_RSP PROT sent, a
                      // privileged register written through a context window (ignored)
  Nobuf = 7,          // REJECT NOBUF sent
  Busy = 8,           // REJECT BUSY sent
  NoRec = 9,          // components with no record (dropped)
  Gap = 10,           // components out of order (dropped)
  Dup = 11,           // duplicate headers or components (dropped)
  Stale = 12,         // replies naming no live record (dropped)
  Stray = 13,         // XPAGE / BUF_POST outside their description, or a first command while
                      // another context holds the initiation record (ignored)
  BadFrame = 14,      // frames dropped: FCS, length or kind
  Failed = 15,        // messages whose failure flag was written (sender)
  CaErr = 16,         // caching-agent answers with an error (a source read, a component, entry or
                      // flag write, a head read refused by the home)
  FopPerformed = 17,  // Fetch-and-Ops performed at this node's words (home)
  FopReported = 18,   // Fetch-and-Op results reported in a FOP_DONE flag (requester)
  Resent = 19,        // resends: a message streamed again from a NACK_GAP's gap, or probed
  Orphaned = 20,      // headers that gave up a message being received (its sender had closed
                      // it): failed entries, buffers returned
};

// A process slot's layout in host memory, as the operating system sets it.
struct XferSlot {
  Addr send_base = 0;   // the send window: every source piece must lie inside
  uint64_t send_size = 0;
  Addr recv_base = 0;   // the receive window: buffers, the flag array and the table
  uint64_t recv_size = 0;
  Addr flags = 0;       // status-flag array: `n_flags` lines (line aligned)
  unsigned n_flags = 0;
  Addr table = 0;       // receive table: the head line, then `entries` lines (line aligned)
  unsigned entries = 0; // a power of two
  unsigned vpt_first = 0;  // the slot's vpid-table entries [first, first + n)
  unsigned vpt_n = 0;
  uint16_t own_vpid = 0;   // the sender vpid of its messages
  unsigned fop_first = 0;  // the slot's Fetch-and-Op words [first, first + n) of the node's
  unsigned fop_words = 0;  // (others' Fetch-and-Ops name a word by its index in this window)
};

class XferOs {
 public:
  // `window` is the host address of the engine's privileged page (the region xfer_os).
  XferOs(MemoryPort& mem, Addr window) : mem_(mem), w_(window) {}
  // The engine's geometry (ID): its slots, records and this node; std::runtime_error when the
  // window holds no block-transfer engine.
  struct Id {
    unsigned procs = 0, node = 0, send_recs = 0, recv_recs = 0, lines = 0, bufs = 0;
  };
  Id id();
  // Where the context windows are (GEOM, read once): `ctxs` windows `ctx_bytes` apart from the
  // region xfer's first byte; the Fetch-and-Op words from its line `fop_line` on, `fop_words`.
  struct Geom {
    unsigned ctxs = 0, ctx_bytes = 0, fop_line = 0, fop_words = 0;
  };
  Geom geom();
  void enable(bool on);
  // Emulated occupancy in device cycles (0: the engine's own speed): between components sent,
  // between components written, before a message's header.
  void set_occupancy(unsigned send, unsigned recv, unsigned init);
  // The same for Fetch-and-Op: before its request leaves; at the home, from taking the request to
  // its reply (at least); from the reply to the flag's write.
  void set_fop_occupancy(unsigned req, unsigned home, unsigned done);
  // Retransmission (go-back-N): a message waiting `timeout` device cycles (1 .. 65535) for its
  // reply is probed, at most `probes` times, then fails FAIL_TIMEOUT (a Fetch-and-Op is probed
  // by its request again, which the home's reply cache answers as before); a receiver's NACK_GAP
  // makes the sender resend from the gap. timeout 0: off (a lost frame leaves its message
  // outstanding).
  void set_retransmit(unsigned timeout, unsigned probes);
  // The node's Fetch-and-Op words (geom().fop_words).
  unsigned fop_words();
  // Sets slot `s` up and enables it; its receive table's counts restart (the table's lines must
  // be zero: `clear_table`).
  void set_slot(unsigned s, const XferSlot& c);
  void disable_slot(unsigned s);
  // Zeroes the table's head line and entries and the flag lines with cached stores.
  void clear(const XferSlot& c);
  void set_vpid(unsigned index, unsigned node, unsigned slot, bool valid = true);
  // Host context `ctx`'s process: the process slot its window acts for, or none (valid false).
  // Written when the OS gives the context to another process (a context switch, 004 §4.4); an
  // initiation the context had under way is discarded (its XGO answers NO_CMD).
  void set_current(unsigned ctx, unsigned slot, bool valid = true);
  uint32_t counter(XferCounter c);

 private:
  void put(unsigned off, uint64_t v) { mem_.uncached_store64(w_ + off, v); }
  uint64_t get(unsigned off) { return mem_.uncached_load64(w_ + off); }
  MemoryPort& mem_;
  Addr w_;
  std::optional<Geom> geom_;  // read once
};

// XGO's answer.
enum class XferVerdict : uint8_t { Success = 0, Retry = 1, Fail = 2 };
enum class XferReason : uint8_t {
  None = 0,
  NoPid = 1,
  NoCmd = 2,
  BadVpid = 3,
  BadLen = 4,
  BadPiece = 5,
  ProtSend = 6,
  ProtRecv = 7,
  BadFlag = 8,
  BadFop = 9,
  ProcFull = 10,
  RecsFull = 11,
  BufsFull = 13,
  InitBusy = 15,  // RETRY: another context holds the node's initiation record
};
// A status flag's report.
enum class XferStatus : uint8_t {
  Pending = 0,
  Done = 1,
  FailProt = 2,
  FailNobuf = 3,
  FailTimeout = 4,
  FopDone = 6,
  FailBusy = 7,
  FailErr = 8,
};
// A Fetch-and-Op's operation (004 section 3.6).
enum class XferFop : uint8_t { Add = 1, Swap = 2, Cas = 3 };
const char* to_string(XferReason r);
const char* to_string(XferStatus s);

class Xfer {
 public:
  // A source page's address as the engine reads it (004 section 4.2: the processor's translation
  // of the process's address; a message's pages need not follow one another in memory). It is
  // called with the start of each piece and must keep the offset in the 4 KiB page.
  using Translate = std::function<Addr(Addr)>;
  // `window`: the context window the OS gave this process (bound to `slot`'s process slot);
  // `translate`: the source's pages (none: the address is the engine's, as in the simulation,
  // whose every buffer is contiguous).
  Xfer(MemoryPort& mem, Addr window, const XferSlot& slot, Translate translate = {});

  struct Send {
    XferVerdict verdict = XferVerdict::Fail;
    XferReason reason = XferReason::None;
    uint16_t count = 0;   // the message's count (SUCCESS)
    unsigned flag = 0;    // the status flag that reports it
  };
  // Describes a message of `len` bytes at `src` (8-byte aligned) to `dst_vpid`, given as its
  // 4 KiB pages (004 Figure 7: the first from `src` to its page's end, then whole pages, each
  // through `translate`; std::invalid_argument if it moves an offset in a page), and closes the
  // description; a description a context switch discarded (XGO answered NO_CMD), or one refused
  // while another context held the initiation record (RETRY INIT_BUSY), is written again. A barrier
  // first: the source's stores are performed before the engine may read it. The flag is the next of
  // the slot's not in use (a flag is in use from a committed send until senddone returns its final
  // report); std::runtime_error when every flag is in use. `ordered` (XCMD ORDERED): the receiving
  // process sees the message's entry only after those of this process's earlier ordered sends to
  // `dst_vpid` (004 section 3.4.2); it may fail FAIL_BUSY when the receiver refused one of them.
  Send send(unsigned dst_vpid, uint8_t type, Addr src, uint32_t len, bool ordered = false);
  // 004 Figure 4's fastmemcpy (section 3.5): `len` bytes at `src` copied to `dst` at the node of
  // `dst_vpid`, inside its slot's receive window (else FAIL_PROT, nothing written); both 8-byte
  // aligned, at any doubleword offset of their lines. With `note` the destination's process also
  // gets a receive-table entry naming `dst`; `ordered` as for send. Reported in a status flag as
  // a send.
  Send fastmemcpy(unsigned dst_vpid, Addr dst, Addr src, uint32_t len, bool note = false,
                  bool ordered = false);
  // The flag's report of `s` (Pending until the engine writes it); with `block` polls until it
  // is written.
  XferStatus senddone(const Send& s, bool block = true);
  // A send that waits for its report, as 004's blocking `send`, and sends again while the
  // receiver refuses it for want of a buffer of the type (FAIL_NOBUF: 004 would keep the message
  // in system space, footnote 3; here the receiving process posts one) or because an earlier
  // ORDERED message was refused (FAIL_BUSY): each time after a pause that starts at `backoff_ns`
  // and doubles up to 64 times it, at most `tries` sends in all. XGO's RETRY is waited out the
  // same way (not counted as a send); a FAIL throws std::invalid_argument with its reason. The
  // last report (Done, or the refusal of the last try); `*sends`: the sends made.
  XferStatus send_delivered(unsigned dst_vpid, uint8_t type, Addr src, uint32_t len,
                            bool ordered = false, unsigned tries = 16, uint64_t backoff_ns = 1000,
                            unsigned* sends = nullptr);
  // Posts a receive buffer for messages of `type`.
  XferVerdict bufalloc(Addr buf, uint32_t bytes, uint8_t type, XferReason* why = nullptr);
  struct Received {
    uint8_t type = 0;
    uint16_t sender_vpid = 0;
    uint32_t length = 0;
    Addr buffer = 0;     // where the message is (the buffer taken)
    uint16_t src_node = 0;
    uint16_t count = 0;
    bool failed = false;  // the message did not arrive whole (a write refused, or the sender
                          // could not read its source): the buffer is returned, its bytes undefined
  };
  // The receive table's next entry (taken: the head count moves on), or nothing; with `block`
  // polls until there is one.
  std::optional<Received> receive(bool block = true);
  // Starts a Fetch-and-Op on word `word` of the Fetch-and-Op window of `dst_vpid`'s slot: `Add`
  // adds `arg`, `Swap` writes it, `Cas` writes it if the word equals `cmp`; the old value is
  // reported in the status flag (fop_done). RETRY when too many are outstanding.
  Send fop_start(unsigned dst_vpid, unsigned word, XferFop op, uint64_t arg, uint64_t cmp = 0);
  // Its report (Pending until written; FopDone with the old value in `*old`, or FailProt when the
  // home refused the word); with `block` polls until it is written.
  XferStatus fop_done(const Send& s, uint64_t* old, bool block = true);
  // 004 Figure 4's fetch_op: started (again while RETRY), then waited for. The old value, or
  // std::runtime_error with the reason when the operation is refused.
  uint64_t fetch_op(unsigned dst_vpid, unsigned word, XferFop op, uint64_t arg, uint64_t cmp = 0);
  // STATUS: the slot's messages outstanding and buffers posted.
  unsigned outstanding();
  unsigned posted();

 private:
  // A send (XCMD op 1) or a memory copy (op 2, its destination in XDST).
  Send transfer(uint64_t cmd, unsigned dst_vpid, std::optional<Addr> dst, Addr src, uint32_t len,
                const char* who);
  // The next status flag not in use; std::runtime_error when every one is.
  unsigned free_flag(const char* who);
  // Writes a description and reads XGO, again while it was discarded (NO_CMD) or refused while
  // another context held the record (RETRY INIT_BUSY, after a pause); XGO's word.
  template <class Describe>
  uint64_t close(Describe describe);
  // A send's or Fetch-and-Op's description closed by XGO; its flag in use if committed.
  template <class Describe>
  Send go(unsigned flag, Describe describe);
  MemoryPort& mem_;
  Addr w_;
  XferSlot s_;
  Translate tr_;
  unsigned lb_;
  unsigned next_flag_ = 0;
  std::bitset<128> flag_busy_;
  uint32_t head_ = 0;
};

}  // namespace cni::drv
