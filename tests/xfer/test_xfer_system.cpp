// SPDX-License-Identifier: Apache-2.0
// The block-transfer engine between nodes (docs/xfer.md), on the checking build's `xfer` model
// (enzian-eci at 64-byte lines, a coherence checker per node watching the transfer windows):
// a page dirty in the sender's cache delivered whole and left Owned there, every length from a
// byte to three pages with the padding of the last line zero, a message from pages scattered in
// memory, a receiver with no buffer, every refusal of an initiation (nothing sent), the
// per-process limit, a receive table that fills and waits for its head, messages and
// Fetch-and-Ops to the sender's own node (the local path), random traffic among three nodes with
// every message delivered once, the memory copy at every doubleword offset of source and
// destination, and Fetch-and-Op at the home: each operation's result, the window's protection, and
// concurrent adds from two nodes of which none is lost.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <deque>
#include <functional>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "cni/drv/xfer.hpp"
#include "cni/regs.hpp"
#include "device/system.hpp"

namespace cni::test {
namespace {

using drv::Xfer;
using drv::XferCounter;
using drv::XferFop;
using drv::XferOs;
using drv::XferReason;
using drv::XferSlot;
using drv::XferStatus;
using drv::XferVerdict;
using tb::DeviceGeometry;

static_assert(drv::xfer_reg::kXcmd == regs::eng_xfer::kXcmdLoOffset);
static_assert(drv::xfer_reg::kXgo == regs::eng_xfer::kXgoLoOffset);
static_assert(drv::xfer_reg::kBufPost == regs::eng_xfer::kBufPostLoOffset);
static_assert(drv::xfer_reg::kCntVal == regs::eng_xfer::kCntValLoOffset);
static_assert(drv::xfer_reg::kVptEntry == regs::eng_xfer::kVptLoOffset);
static_assert(drv::xfer_reg::kFopTgt == regs::eng_xfer::kFopTgtLoOffset);
static_assert(drv::xfer_reg::kOccFop == regs::eng_xfer::kOccFopLoOffset);
static_assert(drv::xfer_reg::kXdst == regs::eng_xfer::kXdstLoOffset);

constexpr unsigned kLb = 64;
constexpr uint8_t kType = 7;
// Per node (each has its own host memory): the send window, then the receive window with the
// flag array, the receive table and the buffers.
constexpr drv::Addr kSend = (drv::Addr{1} << 24);
constexpr uint64_t kWin = 1u << 20;
constexpr drv::Addr kRecv = kSend + kWin;
constexpr drv::Addr kBufs = kRecv + 0x2000;
// slot 1 (a second process): its send window, then its receive window laid out as slot 0's
constexpr drv::Addr kSend1 = kSend + 2 * kWin;
constexpr drv::Addr kRecv1 = kSend1 + kWin;
constexpr drv::Addr kBufs1 = kRecv1 + 0x2000;

struct Nodes {
  // loss > 0: the network drops that fraction of frames on each link crossing, and the engines
  // retransmit (probes after kRetxTimeout cycles without a reply). net_channels: the MAC's
  // queues (tb::SimDevice::Config); buffer_frames > 0: every network buffer's frames per channel.
  explicit Nodes(unsigned n = 2, unsigned entries = 8, bool watch_send = true, double loss = 0,
                 unsigned net_channels = 2, unsigned buffer_frames = 0)
      : sys(profile(n, loss, buffer_frames),
            [net_channels](unsigned, unsigned, tb::SimDevice::Config& c) {
              c.variant = "xfer";
              c.net_channels = net_channels;
            }),
        nodes(n),
        lossy(loss > 0),
        retransmit(loss > 0) {
    slot.send_base = kSend;
    slot.send_size = kWin;
    slot.recv_base = kRecv;
    slot.recv_size = kWin;
    slot.flags = kRecv;
    slot.n_flags = 16;
    slot.table = kRecv + 0x1000;
    slot.entries = entries;
    slot.vpt_first = 0;
    slot.vpt_n = 2 * n;  // vpid i: node i's slot 0; vpid n + i: node i's slot 1
    slot.fop_first = 0;  // slot 0: the node's Fetch-and-Op words [0, 8); slot 1: [8, 16)
    slot.fop_words = 8;
    for (unsigned i = 0; i < n; ++i) {
      if (watch_send) sys.checker(i).watch(kSend, kWin);
      sys.checker(i).watch(kRecv, kWin);
      sys.checker(i).watch(kSend1, 2 * kWin);
    }
  }
  static sim::Profile profile(unsigned n, double loss, unsigned buffer_frames) {
    auto p = sim::Profile::load("enzian-eci");
    p.set("line_bytes", std::to_string(kLb));
    p.set("nodes", std::to_string(n));
    p.set("net.loss_rate", std::to_string(loss));
    if (buffer_frames > 0) p.set("net.buffer_frames", std::to_string(buffer_frames));
    return p;
  }
  static constexpr unsigned kRetxTimeout = 3000;  // device cycles: 10 us at 300 MHz
  // The test geometry: kCtxs host contexts, their windows 256 bytes apart (XferCtxBytes).
  static constexpr unsigned kCtxs = 2, kCtxBytes = 256;
  // Node n's window of host context ctx, and its privileged page (the OS's).
  drv::Addr window(unsigned n, unsigned ctx = 0) {
    return sys.device(n, 0).region_addr(DeviceGeometry::kXfer) + drv::Addr{ctx} * kCtxBytes;
  }
  drv::Addr os_window(unsigned n) { return sys.device(n, 0).region_addr(DeviceGeometry::kXferOs); }
  // The host address of Fetch-and-Op word i of node n (after the context windows).
  drv::Addr fop_word(unsigned n, unsigned i) { return window(n, kCtxs) + 8 * drv::Addr{i}; }
  // The operating system's set-up at node n: slot 0 is the node's process, on host context 0;
  // vpid i is node i's.
  void setup(drv::MemoryPort& m, unsigned n) {
    XferOs os(m, os_window(n));
    const XferOs::Id id = os.id();
    EXPECT_EQ(id.node, n);
    EXPECT_EQ(id.procs, 4u);
    const XferOs::Geom g = os.geom();
    EXPECT_EQ(g.ctxs, kCtxs);
    EXPECT_EQ(g.ctx_bytes, kCtxBytes);
    EXPECT_EQ(drv::Addr{g.fop_line} * kLb, kCtxs * kCtxBytes);
    XferSlot s = slot;
    s.own_vpid = uint16_t(n);
    os.clear(s);
    os.set_slot(0, s);
    for (unsigned i = 0; i < nodes; ++i) {
      os.set_vpid(i, i, 0);
      os.set_vpid(nodes + i, i, 1);
    }
    os.set_current(0, 0);
    if (retransmit) os.set_retransmit(kRetxTimeout, 32);
    os.enable(true);
  }
  // Slot 1 at node n (the second process), set up beside slot 0.
  XferSlot slot1(unsigned n) const {
    XferSlot s = slot;
    s.send_base = kSend1;
    s.recv_base = kRecv1;
    s.flags = kRecv1;
    s.table = kRecv1 + 0x1000;
    s.own_vpid = uint16_t(nodes + n);
    s.fop_first = 8;
    return s;
  }
  // ... on host context 1 (its window: window(n, 1)).
  void setup1(drv::MemoryPort& m, unsigned n, const XferSlot& s) {
    XferOs os(m, os_window(n));
    os.clear(s);
    os.set_slot(1, s);
    os.set_current(1, 1);
  }
  uint32_t counter(unsigned n, XferCounter c) {
    tb::Endpoint& e = sys.device(n, 0).endpoint();
    e.csr_write(tb::csr::engine_reg(engines::kEngineXfer, drv::xfer_reg::kCntSel), unsigned(c));
    e.csr_write(tb::csr::engine_reg(engines::kEngineXfer, drv::xfer_reg::kCntSel + 4), 0);
    return e.csr_read(tb::csr::engine_reg(engines::kEngineXfer, drv::xfer_reg::kCntVal));
  }
  // A drop rule losing the first frame `pick` chooses (lost_one: it has).
  void lose_first(std::function<bool(const sim::FrameHeader&)> pick) {
    sys.network().set_drop_rule([this, pick = std::move(pick)](const sim::Frame& f) {
      if (lost_one || !pick(sim::parse_header(f.bytes))) return false;
      lost_one = true;
      return true;
    });
  }
  bool lost_one = false;
  // Node n's process (slot 0): sets it up, posts `bufs` buffers of 256 bytes, says `ready`, then
  // takes `n_msgs` entries, calling `each` with every one.
  void receiver(drv::MemoryPort& m, unsigned n, unsigned bufs, unsigned n_msgs, bool& ready,
                const std::function<void(const Xfer::Received&)>& each) {
    setup(m, n);
    Xfer x(m, window(n), slot);
    for (unsigned i = 0; i < bufs; ++i)
      EXPECT_EQ(x.bufalloc(kBufs + i * 256, 256, kType), XferVerdict::Success);
    ready = true;
    for (unsigned i = 0; i < n_msgs; ++i) {
      const auto r = x.receive();
      ASSERT_TRUE(r.has_value());
      each(*r);
    }
  }
  void expect_clean() {
    for (unsigned n = 0; n < nodes; ++n) {
      EXPECT_TRUE(sys.checker(n).errors().empty()) << "node " << n << ": "
                                                   << sys.checker(n).errors().front();
      EXPECT_EQ(counter(n, XferCounter::BadFrame), 0u) << "node " << n;
      // (under loss an ACK sent again for a probe can meet a record its first ACK closed)
      if (!lossy) {
        EXPECT_EQ(counter(n, XferCounter::Stale), 0u) << "node " << n;
      }
    }
  }
  tb::System sys;
  unsigned nodes;
  bool lossy;
  bool retransmit;  // (set before setup: retransmission on without random loss)
  XferSlot slot;
};

uint8_t pat(unsigned seed, size_t i) { return uint8_t(seed * 131 + i * 7 + (i >> 8) + 1); }
std::vector<uint8_t> pattern(unsigned seed, size_t n) {
  std::vector<uint8_t> d(n);
  for (size_t i = 0; i < n; ++i) d[i] = pat(seed, i);
  return d;
}

// A 4 KiB page the sending core has just written (every line Modified in its cache) is read by
// the engine line by line (the dirty data pulled from the cache, which keeps the line Owned),
// sent as 64 components and written into the buffer the receiving process posted; the entry
// names it and the flag says DONE.
TEST(XferSystem, APageDirtyInTheSendersCacheIsDeliveredWholeAndStaysOwned) {
  Nodes t;
  bool posted = false;
  const auto page = pattern(1, 4096);
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    Xfer x(m, t.window(1), t.slot);
    EXPECT_EQ(x.bufalloc(kBufs, 4096, kType), XferVerdict::Success);
    EXPECT_EQ(x.posted(), 1u);
    posted = true;
    const auto r = x.receive();
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->type, kType);
    EXPECT_EQ(r->length, 4096u);
    EXPECT_EQ(r->buffer, kBufs);
    EXPECT_EQ(r->src_node, 0u);
    EXPECT_EQ(r->sender_vpid, 0u);
    EXPECT_EQ(r->count, 0u);
    std::vector<uint8_t> got(4096);
    m.load(r->buffer, got.data(), got.size());
    EXPECT_EQ(got, page);
    EXPECT_EQ(x.posted(), 0u) << "the buffer was taken";
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 0);
    Xfer x(m, t.window(0), t.slot);
    m.store(kSend, page.data(), page.size());
    while (!posted) m.pause_ns(100);
    const Xfer::Send s = x.send(1, kType, kSend, 4096);
    ASSERT_EQ(s.verdict, XferVerdict::Success) << drv::to_string(s.reason);
    EXPECT_EQ(s.count, 0u);
    EXPECT_EQ(x.senddone(s), XferStatus::Done);
    EXPECT_EQ(x.outstanding(), 0u);
  });
  t.sys.run_programs(sim::ns(500'000));
  for (unsigned l = 0; l < 4096 / kLb; ++l) {
    EXPECT_EQ(t.sys.node(0).host().state_of(0, kSend + l * kLb), sim::CacheState::O) << l;
  }
  EXPECT_EQ(t.counter(0, XferCounter::CompSent), 64u);
  EXPECT_EQ(t.counter(0, XferCounter::Delivered), 1u);
  EXPECT_EQ(t.counter(1, XferCounter::CompWritten), 64u);
  EXPECT_EQ(t.counter(1, XferCounter::Received), 1u);
  t.expect_clean();
}

// Every length from one byte to three pages and a doubleword, from a line-aligned source in
// memory (no cache holds it): the message's bytes arrive and the rest of its last line is zero.
TEST(XferSystem, EveryLengthArrivesAndTheLastLinesPaddingIsZero) {
  Nodes t(2, 8, false);  // the source is written into memory behind the checker's back
  const std::vector<uint32_t> lens = {1, 7, 8, 63, 64, 65, 200, 4095, 4096, 4097, 3 * 4096 + 8};
  const auto src = pattern(2, 3 * 4096 + 64);
  bool ready = false;
  unsigned got_n = 0;
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    Xfer x(m, t.window(1), t.slot);
    ready = true;
    for (uint32_t len : lens) {
      const uint32_t bytes = (len + kLb - 1) / kLb * kLb;
      // the buffer holds old bytes: the padding must be written too
      const std::vector<uint8_t> old(bytes, 0xEE);
      m.store(kBufs, old.data(), bytes);
      EXPECT_EQ(x.bufalloc(kBufs, bytes, kType), XferVerdict::Success);
      const auto r = x.receive();
      ASSERT_TRUE(r.has_value());
      EXPECT_EQ(r->length, len);
      std::vector<uint8_t> got(bytes);
      m.load(kBufs, got.data(), bytes);
      for (uint32_t i = 0; i < bytes; ++i) {
        ASSERT_EQ(got[i], i < len ? src[i] : 0) << "length " << len << " byte " << i;
      }
      ++got_n;
    }
  });
  t.sys.node(0).host().home(0).write_memory(kSend, src.data(), src.size());
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 0);
    Xfer x(m, t.window(0), t.slot);
    while (!ready) m.pause_ns(100);
    for (uint32_t len : lens) {
      for (;;) {
        const Xfer::Send s = x.send(1, kType, kSend, len);
        ASSERT_EQ(s.verdict, XferVerdict::Success) << drv::to_string(s.reason);
        const XferStatus st = x.senddone(s);
        if (st == XferStatus::Done) break;
        EXPECT_EQ(st, XferStatus::FailNobuf) << "length " << len;  // the buffer not yet posted
        m.pause_ns(500);
      }
    }
  });
  t.sys.run_programs(sim::ns(2'000'000));
  EXPECT_EQ(got_n, lens.size());
  t.expect_clean();
}

// A source at every doubleword offset of its first line (004 section 3.3.3): the engine realigns
// the message into whole components, so the buffer (line aligned) holds the message from its
// first byte, for lengths around a line and a page, the source written by the core (dirty) or in
// memory (clean).
TEST(XferSystem, ASourceAtEveryDoublewordOffsetIsRealigned) {
  Nodes t;
  const std::vector<uint32_t> lens = {1, 8, kLb - 8, kLb, kLb + 8, 200, 4096 + 8};
  const auto src = pattern(4, 8192 + 2 * kLb);
  bool ready = false;
  unsigned got_n = 0, bad = 0;
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    Xfer x(m, t.window(1), t.slot);
    ready = true;
    for (unsigned off = 0; off < kLb; off += 8) {
      for (uint32_t len : lens) {
        const uint32_t bytes = (len + kLb - 1) / kLb * kLb;
        EXPECT_EQ(x.bufalloc(kBufs, bytes, kType), XferVerdict::Success);
        const auto r = x.receive();
        ASSERT_TRUE(r.has_value());
        EXPECT_EQ(r->length, len);
        std::vector<uint8_t> got(bytes);
        m.load(kBufs, got.data(), bytes);
        for (uint32_t i = 0; i < bytes; ++i) {
          if (got[i] != (i < len ? src[off + i] : 0)) {
            ADD_FAILURE() << "offset " << off << " length " << len << " byte " << i;
            ++bad;
            break;
          }
        }
        ++got_n;
      }
    }
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 0);
    Xfer x(m, t.window(0), t.slot);
    m.store(kSend, src.data(), src.size());  // dirty in this core's cache
    while (!ready) m.pause_ns(100);
    for (unsigned off = 0; off < kLb; off += 8) {
      for (uint32_t len : lens) {
        for (;;) {
          const Xfer::Send s = x.send(1, kType, kSend + off, len);
          ASSERT_EQ(s.verdict, XferVerdict::Success) << drv::to_string(s.reason);
          const XferStatus st = x.senddone(s);
          if (st == XferStatus::Done) break;
          ASSERT_EQ(st, XferStatus::FailNobuf);
          m.pause_ns(300);
        }
      }
    }
    EXPECT_EQ(x.send(1, kType, kSend + 4, 64).reason, XferReason::BadPiece) << "not 8-byte aligned";
  });
  t.sys.run_programs(sim::ns(5'000'000));
  EXPECT_EQ(got_n, lens.size() * kLb / 8);
  EXPECT_EQ(bad, 0u);
  t.expect_clean();
}

// A message whose pages are scattered in memory (004 section 3.2, Figure 7: the initiation gives
// each page's translation): the process's buffer starts 0xF28 bytes into its first page (not line
// aligned) and spans four pages, which lie out of order and apart among other pages of the node.
// The receiver gets the buffer's bytes in order; the same pages moved by a memory copy to a
// destination at another doubleword offset of its line arrive the same. The pages between them
// hold other bytes, so a line read from a wrong page shows.
TEST(XferSystem, AMessageFromScatteredPagesArrivesInOrder) {
  Nodes t;
  constexpr drv::Addr kVirt = drv::Addr{0x5000'0000};  // the process's address of its first page
  constexpr unsigned kOff = 0xF28, kLen = 3 * 4096 + 200;  // 216 B, 2 pages, 4,080 B
  const std::vector<unsigned> frame = {7, 2, 11, 4};       // page i at kSend + frame[i] pages
  const auto data = pattern(5, kLen);
  auto translate = [&](drv::Addr a) {
    const drv::Addr page = (a - kVirt) / 4096;
    EXPECT_LT(page, frame.size());
    return kSend + drv::Addr{frame.at(page)} * 4096 + a % 4096;
  };
  constexpr drv::Addr kDst = kBufs + 0x8000 + 16;
  bool posted = false, copied = false;
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    Xfer x(m, t.window(1), t.slot);
    EXPECT_EQ(x.bufalloc(kBufs, 4 * 4096, kType), XferVerdict::Success);
    posted = true;
    const auto r = x.receive();
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->length, kLen);
    std::vector<uint8_t> got(kLen);
    m.load(r->buffer, got.data(), got.size());
    EXPECT_EQ(got, data) << "the message";
    while (!copied) m.pause_ns(500);
    m.load(kDst, got.data(), got.size());
    EXPECT_EQ(got, data) << "the memory copy";
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 0);
    const auto other = pattern(9, 12 * 4096);
    m.store(kSend, other.data(), other.size());
    for (drv::Addr a = kVirt + kOff, end = a + kLen; a < end;) {  // the buffer, page by page
      const drv::Addr next = std::min<drv::Addr>(end, (a / 4096 + 1) * 4096);
      m.store(translate(a), data.data() + (a - kVirt - kOff), next - a);
      a = next;
    }
    Xfer x(m, t.window(0), t.slot, translate);
    while (!posted) m.pause_ns(100);
    Xfer::Send s = x.send(1, kType, kVirt + kOff, kLen);
    ASSERT_EQ(s.verdict, XferVerdict::Success) << drv::to_string(s.reason);
    EXPECT_EQ(x.senddone(s), XferStatus::Done);
    s = x.fastmemcpy(1, kDst, kVirt + kOff, kLen);
    ASSERT_EQ(s.verdict, XferVerdict::Success) << drv::to_string(s.reason);
    EXPECT_EQ(x.senddone(s), XferStatus::Done);
    copied = true;
  });
  t.sys.run_programs(sim::ns(2'000'000));
  EXPECT_TRUE(copied);
  EXPECT_EQ(t.counter(0, XferCounter::Delivered), 2u);
  EXPECT_EQ(t.counter(0, XferCounter::CompSent),  // components by destination line
            (kLen + kLb - 1) / kLb + (kDst % kLb + kLen + kLb - 1) / kLb);
  t.expect_clean();
}

// A context switch inside an initiation (004 section 3.2): process A's description is staged
// through host context 0 when the OS gives that context to process B (CUR_PID), which discards
// it; B's XGO is answered NO_CMD (A's description is not committed for B), B sends its own, and
// when A runs again on the context its XGO is answered NO_CMD too, so A's driver describes the
// message again. Every message is delivered under its own process's vpid.
TEST(XferSystem, AnInitiationInterruptedByAnotherProcessIsNeverCommittedForIt) {
  Nodes t;
  std::vector<uint16_t> senders;
  bool ready = false;
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.receiver(m, 1, 2, 2, ready,
               [&](const Xfer::Received& r) { senders.push_back(r.sender_vpid); });
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    using namespace drv::xfer_reg;
    t.setup(m, 0);
    const XferSlot s1 = t.slot1(0);
    t.setup1(m, 0, s1);
    XferOs os(m, t.os_window(0));
    const drv::Addr w = t.window(0);
    while (!ready) m.pause_ns(100);
    // A (slot 0) stages a send and is switched out before its XGO
    m.uncached_store64(w + kXcmd,
                       1 | uint64_t(kType) << 8 | uint64_t(1) << 16 | uint64_t(64) << 32);
    m.uncached_store64(w + kXpage, kSend | uint64_t(64) << 48);
    os.set_current(0, 1);
    EXPECT_EQ(m.uncached_load64(w + kXgo) & 0xF3, 0x22u) << "B's XGO: NO_CMD, A's not committed";
    m.uncached_store64(w + kXpage, kSend1 | uint64_t(64) << 48);  // B's stray piece: ignored
    Xfer b(m, w, s1);
    const Xfer::Send sb = b.send(1, kType, kSend1, 64);
    ASSERT_EQ(sb.verdict, XferVerdict::Success);
    EXPECT_EQ(b.senddone(sb), XferStatus::Done);
    os.set_current(0, 0);
    EXPECT_EQ(m.uncached_load64(w + kXgo) & 0xF3, 0x22u) << "A's XGO: its description was dropped";
    Xfer a(m, w, t.slot);
    const Xfer::Send sa = a.send(1, kType, kSend, 64);
    ASSERT_EQ(sa.verdict, XferVerdict::Success);
    EXPECT_EQ(a.senddone(sa), XferStatus::Done);
  });
  t.sys.run_programs(sim::ns(1'000'000));
  EXPECT_EQ(senders, (std::vector<uint16_t>{2, 0})) << "B's vpid (nodes + 0), then A's";
  EXPECT_EQ(t.counter(0, XferCounter::Stray), 1u);
  t.expect_clean();
}

// The privileged registers (0x80-0xFF) answer only through the OS's page: through a context
// window a read returns 0 and a write is ignored and counted (PROT), whether it would disable the
// engine, widen the slot's send window or bind another context to the slot. A context the OS
// bound to no process, and the OS's page itself, have no process: their XGO is FAIL NO_PID. The
// slot's window still holds, and its process still sends.
TEST(XferSystem, PrivilegedRegistersAnswerOnlyThroughTheOsPage) {
  Nodes t;
  bool ready = false;
  const auto data = pattern(21, 256);
  std::vector<uint8_t> got;
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.receiver(m, 1, 1, 1, ready, [&](const Xfer::Received& r) {
      got.resize(r.length);
      m.load(r.buffer, got.data(), got.size());
    });
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    using namespace drv::xfer_reg;
    t.setup(m, 0);
    const drv::Addr w = t.window(0), w1 = t.window(0, 1), os = t.os_window(0);
    EXPECT_EQ(m.uncached_load64(os + kSendBase), kSend) << "slot 0's, through the OS's page";
    EXPECT_EQ(m.uncached_load64(os + kCtl) & 1, 1u);
    EXPECT_EQ(m.uncached_load64(w + kSendBase), 0u) << "through a context window: 0";
    EXPECT_EQ(m.uncached_load64(w + kCtl), 0u);
    m.uncached_store64(w + kCtl, 0);       // disable the engine
    m.uncached_store64(w + kSendBase, 0);  // widen slot 0's send window
    m.uncached_store64(w + kSendSize, uint64_t{1} << 40);
    m.uncached_store64(w1 + kCurPid, 1 | 0u << 8 | 1u << 16);  // bind context 1 to slot 0
    EXPECT_EQ(m.uncached_load64(os + kSendBase), kSend) << "unchanged";
    EXPECT_EQ(m.uncached_load64(os + kSendSize), kWin) << "unchanged";
    EXPECT_EQ(m.uncached_load64(os + kCtl) & 1, 1u) << "still enabled";
    Xfer unbound(m, w1, t.slot);
    EXPECT_EQ(unbound.send(1, kType, kSend, 64).reason, XferReason::NoPid) << "context 1";
    EXPECT_EQ(m.uncached_load64(os + kXgo) & 0xF3, 0x12u) << "the OS's page: NO_PID";
    Xfer x(m, w, t.slot);
    EXPECT_EQ(x.send(1, kType, kSend + kWin, 64).reason, XferReason::ProtSend) << "window kept";
    m.store(kSend, data.data(), data.size());
    while (!ready) m.pause_ns(100);
    const Xfer::Send s = x.send(1, kType, kSend, 256);
    ASSERT_EQ(s.verdict, XferVerdict::Success) << drv::to_string(s.reason);
    EXPECT_EQ(x.senddone(s), XferStatus::Done);
  });
  t.sys.run_programs(sim::ns(500'000));
  EXPECT_EQ(got, data);
  EXPECT_EQ(t.counter(0, XferCounter::Prot), 4u + 1u) << "the four writes, and PROT_SEND";
  EXPECT_EQ(t.counter(0, XferCounter::Fail), 3u) << "NO_PID twice, PROT_SEND";
  t.expect_clean();
}

// The node's one initiation record is held by one host context from its first command to its
// XGO (docs/xfer.md, "Host contexts and privilege"): every row of the table. Process A (slot 0)
// on context 0, B (slot 1) on context 1, both on one core so the interleaving is exact.
TEST(XferSystem, TheInitiationRecordIsHeldByOneContextFromItsFirstCommandToItsXgo) {
  Nodes t;
  bool ready = false;
  std::vector<std::pair<uint16_t, uint64_t>> got;  // (sender vpid, first word)
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.receiver(m, 1, 4, 4, ready, [&](const Xfer::Received& r) {
      got.emplace_back(r.sender_vpid, m.load64(r.buffer));
    });
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    using namespace drv::xfer_reg;
    t.setup(m, 0);
    t.setup1(m, 0, t.slot1(0));
    XferOs os(m, t.os_window(0));
    const drv::Addr a = t.window(0, 0), b = t.window(0, 1);
    for (unsigned i = 0; i < 4; ++i) {
      m.store64(kSend + i * 64, 0xA0 + i);
      m.store64(kSend1 + i * 64, 0xB0 + i);
    }
    m.barrier();
    auto describe = [&](drv::Addr w, drv::Addr src) {
      m.uncached_store64(w + kXcmd,
                         1 | uint64_t(kType) << 8 | uint64_t(1) << 16 | uint64_t(64) << 32);
      m.uncached_store64(w + kXpage, src | uint64_t(64) << 48);
    };
    auto go = [&](drv::Addr w) { return m.uncached_load64(w + kXgo) & 0xF3; };
    while (!ready) m.pause_ns(100);
    m.uncached_store64(b + kXpage, kSend1 | uint64_t(64) << 48);  // idle: a piece is STRAY (1)
    describe(a, kSend);                                           // A holds the record
    describe(b, kSend1);  // B's first command and its piece: STRAY (3)
    m.uncached_store64(b + kFopTgt, 1u << 16 | uint64_t(1) << 32);  // other first commands:
    m.uncached_store64(b + kBufAddr, kBufs1);                       // STRAY (5)
    EXPECT_EQ(go(b), 0xF1u) << "B: RETRY INIT_BUSY while A holds the record";
    describe(a, kSend + 64);  // A's first command again: its description restarts
    EXPECT_EQ(go(a), 0x00u) << "A: SUCCESS, the second description (0xA1)";
    EXPECT_EQ(go(b), 0x22u) << "B: NO_CMD, the record is idle";
    describe(b, kSend1);   // B holds it
    os.set_current(0, 0);  // rebinding another context leaves it
    EXPECT_EQ(go(a), 0xF1u) << "A: RETRY INIT_BUSY";
    os.set_current(1, 1);  // rebinding B's context drops B's description
    EXPECT_EQ(go(b), 0x22u) << "B: NO_CMD after its context was rebound";
    describe(b, kSend1);
    os.disable_slot(1);  // killing B's slot drops it too
    os.set_slot(1, t.slot1(0));
    EXPECT_EQ(go(b), 0x22u) << "B: NO_CMD after its slot was disabled";
    describe(b, kSend1);
    EXPECT_EQ(go(b), 0x00u) << "B: SUCCESS (0xB0)";
    describe(b, kSend1 + 64);  // B holds it, then gives no command for 2^11 device cycles:
    m.pause_ns(10'000);        // A may take it, and B's XGO finds it held
    describe(a, kSend + 128);
    EXPECT_EQ(go(b), 0xF1u) << "B: RETRY INIT_BUSY, A took the record B left idle";
    EXPECT_EQ(go(a), 0x00u) << "A: SUCCESS (0xA2)";
    describe(b, kSend1 + 128);
    EXPECT_EQ(go(b), 0x00u) << "B: SUCCESS (0xB2)";
  });
  t.sys.run_programs(sim::ns(1'000'000));
  std::sort(got.begin(), got.end());
  EXPECT_EQ(got, (std::vector<std::pair<uint16_t, uint64_t>>{
                     {0, 0xA1}, {0, 0xA2}, {2, 0xB0}, {2, 0xB2}}));
  EXPECT_EQ(t.counter(0, XferCounter::Stray), 5u);
  EXPECT_EQ(t.counter(0, XferCounter::Retry), 3u);
  t.expect_clean();
}

// The CSR block writes a register as two 32-bit words, and a host's uncached access may come
// between them: its low word must not become the privileged write's. The OS binds context 1 to
// slot 1 over the CSR block while a process on context 0 stores its own binding (context 1 to
// its slot 0) between the two words: context 1 acts for slot 1 (its messages carry slot 1's
// vpid), and the process's store is ignored and counted.
TEST(XferSystem, APrivilegedWriteOverTheCsrBlockTakesNoWordFromAHostAccess) {
  Nodes t;
  bool ready = false;
  uint16_t sender = 0xFFFF;
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.receiver(m, 1, 1, 1, ready, [&](const Xfer::Received& r) { sender = r.sender_vpid; });
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    using namespace drv::xfer_reg;
    t.setup(m, 0);
    const XferSlot s1 = t.slot1(0);
    t.setup1(m, 0, s1);
    XferOs(m, t.os_window(0)).set_current(1, 0, false);
    auto csr_write = [&](unsigned a, uint32_t v) { t.sys.device(0, 0).endpoint().csr_write(a, v); };
    const unsigned reg = tb::csr::engine_reg(engines::kEngineXfer, kCurPid);
    csr_write(reg, 1 | 1u << 8 | 1u << 16);                             // low: context 1, slot 1
    m.uncached_store64(t.window(0) + kCurPid, 1 | 0u << 8 | 1u << 16);  // context 1, slot 0
    csr_write(reg + 4, 0);                                              // high: the write
    while (!ready) m.pause_ns(100);
    Xfer x(m, t.window(0, 1), s1);
    const Xfer::Send st = x.send(1, kType, kSend1, 64);
    ASSERT_EQ(st.verdict, XferVerdict::Success) << drv::to_string(st.reason);
    EXPECT_EQ(x.senddone(st), XferStatus::Done);
  });
  t.sys.run_programs(sim::ns(500'000));
  EXPECT_EQ(sender, 2u) << "slot 1's vpid (nodes + 0): the OS's binding";
  EXPECT_EQ(t.counter(0, XferCounter::Prot), 1u);
  t.expect_clean();
}

// Two processes on two cores of one node, each on its own host context, send at once: their
// initiations take turns at the node's record (a refused one is described again by the driver),
// no description is committed for the other process, and every message arrives whole, once,
// under its own sender's vpid.
TEST(XferSystem, TwoProcessesInitiatingAtOnceOnTwoCoresTakeTurns) {
  Nodes t(2, 8);
  constexpr unsigned kMsgs = 12, kLen = 192;
  bool ready = false, set = false;
  std::set<std::pair<uint16_t, unsigned>> seen;
  unsigned bad = 0;
  auto body = [](unsigned who, unsigned i) {
    auto d = pattern(40 + who * kMsgs + i, kLen);
    const uint64_t tag = uint64_t(who) << 16 | i;
    std::memcpy(d.data(), &tag, 8);
    return d;
  };
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    Xfer x(m, t.window(1), t.slot);
    for (unsigned i = 0; i < 4; ++i)
      EXPECT_EQ(x.bufalloc(kBufs + i * 256, 256, kType), XferVerdict::Success);
    ready = true;
    for (unsigned n = 0; n < 2 * kMsgs; ++n) {
      const auto r = x.receive();
      ASSERT_TRUE(r.has_value());
      std::vector<uint8_t> d(r->length);
      m.load(r->buffer, d.data(), d.size());
      uint64_t tag = 0;
      std::memcpy(&tag, d.data(), 8);
      const unsigned who = unsigned(tag >> 16), i = unsigned(tag & 0xFFFF);
      if (r->length != kLen || who > 1 || i >= kMsgs || r->sender_vpid != who * 2 ||
          d != body(who, i) || !seen.emplace(who, i).second) {
        ++bad;
      }
      EXPECT_EQ(x.bufalloc(r->buffer, 256, kType), XferVerdict::Success);
    }
  });
  auto sender = [&](unsigned who) {
    return [&, who](drv::MemoryPort& m) {
      if (who == 0) {
        t.setup(m, 0);
        t.setup1(m, 0, t.slot1(0));
        set = true;
      }
      while (!set || !ready) m.pause_ns(100);
      const XferSlot s = who == 0 ? t.slot : t.slot1(0);
      Xfer x(m, t.window(0, who), s);
      const drv::Addr src = who == 0 ? kSend : kSend1;
      for (unsigned i = 0; i < kMsgs; ++i) {
        const auto d = body(who, i);
        m.store(src + i * 256, d.data(), d.size());
        for (;;) {
          const Xfer::Send st = x.send(1, kType, src + i * 256, kLen);
          if (st.verdict == XferVerdict::Retry) {
            m.pause_ns(200);
            continue;
          }
          ASSERT_EQ(st.verdict, XferVerdict::Success) << drv::to_string(st.reason);
          const XferStatus done = x.senddone(st);
          if (done == XferStatus::Done) break;
          ASSERT_EQ(done, XferStatus::FailNobuf);
          m.pause_ns(500);
        }
      }
    };
  };
  t.sys.node(0).host().spawn(0, sender(0));
  t.sys.node(0).host().spawn(1, sender(1));
  t.sys.run_programs(sim::ns(5'000'000));
  EXPECT_EQ(seen.size(), 2 * kMsgs);
  EXPECT_EQ(bad, 0u);
  const uint32_t stray = t.counter(0, XferCounter::Stray);
  EXPECT_GT(stray, 0u) << "the two initiations met at the record";
  std::printf("two contexts: %u commands refused while the other context held the record\n", stray);
  t.expect_clean();
}

// Two channels at the device (docs/xfer.md section 10). Two nodes stream 1 KiB messages to each
// other (every network buffer one frame per channel, each device's port holding back the network
// at two frames waiting), and a second process at each node keeps two Fetch-and-Adds open on a
// word of the other node, whose home takes 6,000 cycles per operation (OCC_FOP home): the second
// request waits at the head of the home's request input while the first is performed, and the
// reply must leave before the unit takes the next. With one queue each way at the MAC and one
// hold for both channels (a port without a ready per channel), each home's reply waits behind its
// node's data request, which the other node takes only once its own reply has left: both stop,
// and no frame moves in a further 200 us. With a queue and a hold per channel, and the device
// starting a frame only on a channel with room, the replies pass the requests: every message
// arrives once with every byte checked, and each node's adds return the old values 0 .. 5.
struct CrossStreams {
  unsigned received = 0, bad = 0;
  bool finished = false;
  std::vector<uint64_t> olds[2];   // the Fetch-and-Adds' old values, per requesting node
  uint64_t frames_after_stop = 0;  // not finished: frames sent in a further 200 us
};
CrossStreams cross_streams(unsigned net_channels) {
  constexpr unsigned kMsgs = 16, kLen = 1024, kOutstanding = 8, kBufsPosted = 4, kFops = 6,
                     kFopHome = 6000;
  CrossStreams r;
  bool ready[2] = {false, false};
  std::set<unsigned> seen[2];
  Nodes t(2, 8, true, 0, net_channels, 1);  // (after what its programs use: they end first)
  auto body = [](unsigned from, unsigned i) {
    auto d = pattern(60 + from * kMsgs + i, kLen);
    d[0] = uint8_t(i);
    return d;
  };
  for (unsigned n = 0; n < 2; ++n) {
    // One process per node, on one core: it keeps kOutstanding sends open, and between sends takes
    // the entries that arrived and posts their buffers again.
    t.sys.node(n).host().spawn(0, [&, n](drv::MemoryPort& m) {
      t.setup(m, n);
      Xfer x(m, t.window(n), t.slot);
      for (unsigned i = 0; i < kBufsPosted; ++i)
        EXPECT_EQ(x.bufalloc(kBufs + i * kLen, kLen, kType), XferVerdict::Success);
      XferOs(m, t.os_window(n)).set_fop_occupancy(0, kFopHome, 0);
      m.store64(t.fop_word(n, 1 - n), 0);  // the word the other node adds to
      m.barrier();
      ready[n] = true;
      while (!ready[1 - n]) m.pause_ns(100);
      std::deque<Xfer::Send> open;
      unsigned sent = 0, got = 0;
      while (sent < kMsgs || !open.empty() || got < kMsgs) {
        bool moved = false;
        if (sent < kMsgs && open.size() < kOutstanding) {
          const auto d = body(n, sent);
          m.store(kSend + sent * kLen, d.data(), d.size());
          const Xfer::Send st = x.send(1 - n, kType, kSend + sent * kLen, kLen);
          if (st.verdict == XferVerdict::Success) {
            open.push_back(st);
            ++sent;
            moved = true;
          } else {
            ASSERT_EQ(st.verdict, XferVerdict::Retry) << drv::to_string(st.reason);
          }
        }
        if (!open.empty()) {
          const XferStatus st = x.senddone(open.front(), false);
          if (st != XferStatus::Pending) {
            EXPECT_EQ(st, XferStatus::Done);
            open.pop_front();
            moved = true;
          }
        }
        if (const auto e = x.receive(false)) {
          std::vector<uint8_t> d(e->length);
          m.load(e->buffer, d.data(), d.size());
          const unsigned k = d.empty() ? kMsgs : d[0];
          if (e->length != kLen || e->sender_vpid != 1 - n || k >= kMsgs || d != body(1 - n, k) ||
              !seen[n].insert(k).second) {
            ++r.bad;
          }
          ++r.received;
          ++got;
          EXPECT_EQ(x.bufalloc(e->buffer, kLen, kType), XferVerdict::Success);
          moved = true;
        }
        if (!moved) m.pause_ns(100);
      }
    });
    // core 1: a second process (slot 1, host context 1) keeps two Fetch-and-Adds of 1 open on
    // word n of the other node's slot 0; their replies share the way back with the ACKs
    t.sys.node(n).host().spawn(1, [&, n](drv::MemoryPort& m) {
      while (!ready[n] || !ready[1 - n]) m.pause_ns(100);
      t.setup1(m, n, t.slot1(n));
      Xfer x(m, t.window(n, 1), t.slot1(n));
      std::deque<Xfer::Send> live;
      for (unsigned i = 0; i < kFops || !live.empty();) {
        if (i < kFops && live.size() < 2) {
          const Xfer::Send st = x.fop_start(1 - n, n, XferFop::Add, 1);
          ASSERT_NE(st.verdict, XferVerdict::Fail) << drv::to_string(st.reason);
          if (st.verdict == XferVerdict::Success) {
            live.push_back(st);
            ++i;
            continue;
          }
        }
        uint64_t old = 0;
        ASSERT_EQ(x.fop_done(live.front(), &old), XferStatus::FopDone);
        r.olds[n].push_back(old);
        live.pop_front();
      }
    });
  }
  auto frames = [&] {
    return t.sys.network().port_stats(0).tx_frames + t.sys.network().port_stats(1).tx_frames;
  };
  try {
    t.sys.run_programs(sim::ns(500'000));
    r.finished = true;
    t.expect_clean();
  } catch (const std::runtime_error& e) {
    // Stopped, or only slow? A further 200 us in which no frame enters the network: stopped.
    const uint64_t before = frames();
    EXPECT_THROW(t.sys.run_programs(sim::ns(200'000)), std::runtime_error);
    r.frames_after_stop = frames() - before;
    std::printf("%u channel(s): %s; then %lu frames in 200 us\n", net_channels, e.what(),
                static_cast<unsigned long>(r.frames_after_stop));
  }
  return r;
}

TEST(XferSystem, WithOneQueueAtTheMacAReplyBehindARequestStopsBothNodes) {
  const CrossStreams one = cross_streams(1);
  EXPECT_FALSE(one.finished);
  EXPECT_EQ(one.frames_after_stop, 0u) << "slow, not stopped";
  EXPECT_LT(one.received, 32u);
  EXPECT_EQ(one.bad, 0u);
  std::printf("one queue: %u of 32 messages arrived before the nodes stopped\n", one.received);
}

TEST(XferSystem, WithAQueuePerChannelRepliesPassRequestsAndEveryMessageArrives) {
  const CrossStreams two = cross_streams(2);
  EXPECT_TRUE(two.finished);
  EXPECT_EQ(two.received, 32u);
  EXPECT_EQ(two.bad, 0u);
  for (auto olds : two.olds) {
    std::sort(olds.begin(), olds.end());
    std::vector<uint64_t> want(6);
    for (unsigned i = 0; i < 6; ++i) want[i] = i;
    EXPECT_EQ(olds, want) << "each old value once";
  }
}

// A process that does not take its entries fills its receive table; the entries of another
// process at the same node are written meanwhile (the full table's slot waits aside), and the
// first process's held message completes once it takes an entry.
TEST(XferSystem, AFullTableOfOneProcessDoesNotHoldAnotherProcesssEntries) {
  Nodes t(2, 2);
  bool ready = false, slot1_done = false;
  unsigned got0 = 0;
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    const XferSlot s1 = t.slot1(1);
    t.setup1(m, 1, s1);
    Xfer p0(m, t.window(1), t.slot);
    for (unsigned i = 0; i < 3; ++i)
      EXPECT_EQ(p0.bufalloc(kBufs + i * 256, 256, kType), XferVerdict::Success);
    Xfer p1(m, t.window(1, 1), s1);
    EXPECT_EQ(p1.bufalloc(kBufs1, 256, kType), XferVerdict::Success);
    ready = true;
    EXPECT_TRUE(p1.receive().has_value());
    slot1_done = true;
    for (unsigned i = 0; i < 3; ++i) {
      EXPECT_TRUE(p0.receive().has_value());
      ++got0;
    }
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 0);
    Xfer x(m, t.window(0), t.slot);
    while (!ready) m.pause_ns(100);
    std::vector<Xfer::Send> to0;
    for (unsigned i = 0; i < 2; ++i) {  // slot 0's table: 2 entries, then a third message
      to0.push_back(x.send(1, kType, kSend, 256));
      ASSERT_EQ(to0.back().verdict, XferVerdict::Success);
      EXPECT_EQ(x.senddone(to0.back()), XferStatus::Done);
    }
    to0.push_back(x.send(1, kType, kSend, 256));
    ASSERT_EQ(to0.back().verdict, XferVerdict::Success);
    m.pause_ns(5000);
    EXPECT_EQ(x.senddone(to0.back(), false), XferStatus::Pending) << "its entry waits";
    const Xfer::Send s = x.send(3, kType, kSend, 256);  // to node 1's slot 1 (vpid 3)
    ASSERT_EQ(s.verdict, XferVerdict::Success);
    EXPECT_EQ(x.senddone(s), XferStatus::Done);
    EXPECT_EQ(x.senddone(to0.back()), XferStatus::Done);
  });
  t.sys.run_programs(sim::ns(2'000'000));
  EXPECT_TRUE(slot1_done);
  EXPECT_EQ(got0, 3u);
  t.expect_clean();
}

// A source line the home refuses (an address its memory does not hold: the device's own window,
// which the caching agent sends to the host's home): the sender stops reading and sends an
// ABORT, so the receiver's record is freed and its buffer returned in an entry marked failed;
// the flag says FAIL_ERR, nothing else is acknowledged, and the next message goes through.
TEST(XferSystem, ASourceLineTheHomeRefusesAbortsTheMessageAndFreesTheReceiver) {
  Nodes t;
  const drv::Addr dev = t.window(0) + 4096;  // no host memory there
  bool ready = false;
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    Xfer x(m, t.window(1), t.slot);
    EXPECT_EQ(x.bufalloc(kBufs, 512, kType), XferVerdict::Success);
    ready = true;
    const auto r = x.receive();
    ASSERT_TRUE(r.has_value());
    EXPECT_TRUE(r->failed);
    EXPECT_EQ(r->buffer, kBufs) << "the buffer comes back";
    EXPECT_EQ(x.bufalloc(kBufs, 512, kType), XferVerdict::Success);
    const auto r2 = x.receive();
    ASSERT_TRUE(r2.has_value());
    EXPECT_FALSE(r2->failed);
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    XferSlot s = t.slot;
    s.send_base = dev;
    s.send_size = 8192;
    XferOs os(m, t.os_window(0));
    t.setup(m, 0);
    s.own_vpid = 0;
    os.set_slot(0, s);
    Xfer x(m, t.window(0), s);
    while (!ready) m.pause_ns(100);
    const Xfer::Send bad = x.send(1, kType, dev, 512);
    ASSERT_EQ(bad.verdict, XferVerdict::Success);
    EXPECT_EQ(x.senddone(bad), XferStatus::FailErr);
    os.set_slot(0, [&] {
      XferSlot g = t.slot;
      g.own_vpid = 0;
      return g;
    }());
    Xfer y(m, t.window(0), t.slot);
    const Xfer::Send good = y.send(1, kType, kSend, 512);
    ASSERT_EQ(good.verdict, XferVerdict::Success);
    EXPECT_EQ(y.senddone(good), XferStatus::Done);
  });
  t.sys.run_programs(sim::ns(1'000'000));
  EXPECT_GE(t.counter(0, XferCounter::CaErr), 1u);
  EXPECT_EQ(t.counter(0, XferCounter::Failed), 1u);
  EXPECT_EQ(t.counter(1, XferCounter::Received), 1u) << "only the good one is acknowledged";
  EXPECT_EQ(t.counter(1, XferCounter::CompWritten), 512u / kLb) << "the good message's only";
}

// With no buffer posted the receiver refuses the header (REJECT NOBUF): nothing is written, the
// flag says FAIL_NOBUF; once a buffer is posted the same send is delivered.
TEST(XferSystem, AReceiverWithNoFreeBufferRefusesTheMessageAndNothingIsWritten) {
  Nodes t;
  bool sent = false, posted = false;
  const auto data = pattern(3, 512);
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    Xfer x(m, t.window(1), t.slot);
    while (!sent) m.pause_ns(100);
    EXPECT_FALSE(x.receive(false).has_value());
    EXPECT_EQ(x.bufalloc(kBufs, 512, kType), XferVerdict::Success);
    posted = true;
    const auto r = x.receive();
    ASSERT_TRUE(r.has_value());
    std::vector<uint8_t> got(512);
    m.load(kBufs, got.data(), got.size());
    EXPECT_EQ(got, data);
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 0);
    Xfer x(m, t.window(0), t.slot);
    m.store(kSend, data.data(), data.size());
    m.pause_ns(2000);  // the receiver is set up
    Xfer::Send s = x.send(1, kType, kSend, 512);
    ASSERT_EQ(s.verdict, XferVerdict::Success);
    EXPECT_EQ(x.senddone(s), XferStatus::FailNobuf);
    sent = true;
    while (!posted) m.pause_ns(100);
    s = x.send(1, kType, kSend, 512);
    ASSERT_EQ(s.verdict, XferVerdict::Success);
    EXPECT_EQ(x.senddone(s), XferStatus::Done);
  });
  t.sys.run_programs(sim::ns(500'000));
  EXPECT_EQ(t.counter(1, XferCounter::Nobuf), 1u);
  EXPECT_EQ(t.counter(1, XferCounter::CompWritten), 512u / kLb) << "only the second's";
  EXPECT_EQ(t.counter(1, XferCounter::NoRec), 512u / kLb) << "the first's were dropped";
  EXPECT_EQ(t.counter(0, XferCounter::Failed), 1u);
  EXPECT_EQ(t.counter(0, XferCounter::Delivered), 1u);
  t.expect_clean();
}

// The driver's delivering send: a receiver that posts its buffer only 30 us after the message
// first arrives refuses it (FAIL_NOBUF) until then, and send_delivered sends it again after
// growing pauses until it is delivered, once; for a type no buffer is ever posted for, it gives
// up after its tries and reports the refusal.
TEST(XferSystem, ADeliveringSendBacksOffWhileTheReceiverHasNoBufferThenDelivers) {
  Nodes t;
  const auto data = pattern(31, 1000);
  bool set = false, done = false;
  unsigned sends = 0, sends2 = 0;
  XferStatus st = XferStatus::Pending, st2 = XferStatus::Pending;
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    Xfer x(m, t.window(1), t.slot);
    set = true;
    m.pause_ns(30'000);
    EXPECT_EQ(x.bufalloc(kBufs, 1024, kType), XferVerdict::Success);
    const auto r = x.receive();
    ASSERT_TRUE(r.has_value());
    std::vector<uint8_t> got(r->length);
    m.load(r->buffer, got.data(), got.size());
    EXPECT_EQ(got, data);
    while (!done) m.pause_ns(1000);
    EXPECT_FALSE(x.receive(false).has_value()) << "delivered once";
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 0);
    Xfer x(m, t.window(0), t.slot);
    m.store(kSend, data.data(), data.size());
    while (!set) m.pause_ns(100);
    st = x.send_delivered(1, kType, kSend, 1000, false, 16, 2000, &sends);
    st2 = x.send_delivered(1, kType + 1, kSend, 64, false, 3, 500, &sends2);
    EXPECT_THROW(x.send_delivered(5, kType, kSend, 64), std::invalid_argument) << "BAD_VPID";
    done = true;
  });
  t.sys.run_programs(sim::ns(2'000'000));
  std::printf("[ delivering send ] delivered after %u sends; %u sends for a type with no buffer\n",
              sends, sends2);
  EXPECT_EQ(st, XferStatus::Done);
  EXPECT_GT(sends, 2u) << "refused while the receiver had no buffer";
  EXPECT_LT(sends, 16u);
  EXPECT_EQ(st2, XferStatus::FailNobuf);
  EXPECT_EQ(sends2, 3u);
  EXPECT_EQ(t.counter(1, XferCounter::Nobuf), sends - 1 + sends2);
  EXPECT_EQ(t.counter(1, XferCounter::Received), 1u);
  t.expect_clean();
}

// Every description XGO refuses as FAIL is refused whole: the reason names the check, nothing
// is sent and nothing is posted.
TEST(XferSystem, EveryBadDescriptionFailsWithItsReasonAndSendsNothing) {
  Nodes t;
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    using namespace drv::xfer_reg;
    const drv::Addr w = t.window(0);
    XferOs os(m, t.os_window(0));
    {
      // no current process yet
      t.setup(m, 0);
      os.disable_slot(0);
      Xfer x(m, w, t.slot);
      EXPECT_EQ(x.send(1, kType, kSend, 64).reason, XferReason::NoPid);
      os.set_slot(0, [&] { XferSlot s = t.slot; return s; }());
    }
    Xfer x(m, w, t.slot);
    auto go = [&] { return m.uncached_load64(w + kXgo); };
    EXPECT_EQ(go() & 0xF3, 0x22u) << "NO_CMD: nothing described";
    EXPECT_EQ(x.send(5, kType, kSend, 64).reason, XferReason::BadVpid) << "beyond the slot's range";
    m.uncached_store64(w + kXcmd, 1 | uint64_t(1) << 16 | uint64_t(0) << 32);
    EXPECT_EQ(go() & 0xF3, 0x42u) << "BAD_LEN: length 0";
    m.uncached_store64(w + kXcmd, 1 | uint64_t(1) << 16 | uint64_t(64) << 32 | uint64_t(40) << 56);
    m.uncached_store64(w + kXpage, kSend | uint64_t(64) << 48);
    EXPECT_EQ(go() & 0xF3, 0x82u) << "BAD_FLAG: beyond the slot's 16";
    EXPECT_EQ(x.send(1, kType, kSend + 4, 64).reason, XferReason::BadPiece) << "not 8-byte aligned";
    EXPECT_EQ(x.send(1, kType, kSend + kWin - 64, 128).reason, XferReason::ProtSend);
    EXPECT_EQ(x.send(1, kType, kRecv, 64).reason, XferReason::ProtSend);
    m.uncached_store64(w + kXcmd, 1 | uint64_t(1) << 16 | uint64_t(128) << 32);
    m.uncached_store64(w + kXpage, kSend | uint64_t(64) << 48);
    EXPECT_EQ(go() & 0xF3, 0x52u) << "BAD_PIECE: the pieces' sum is not the length";
    // the pieces are the message's pages: the first to its page's end at most, then page starts
    m.uncached_store64(w + kXcmd, 1 | uint64_t(1) << 16 | uint64_t(3 * 4096) << 32);
    m.uncached_store64(w + kXpage, kSend | uint64_t(4096) << 48);
    m.uncached_store64(w + kXpage, (kSend + 4096) | uint64_t(8192) << 48);
    EXPECT_EQ(go() & 0xF3, 0x52u) << "BAD_PIECE: a later piece of two pages";
    m.uncached_store64(w + kXcmd, 1 | uint64_t(1) << 16 | uint64_t(128) << 32);
    m.uncached_store64(w + kXpage, (kSend + 4096 - 64) | uint64_t(128) << 48);
    EXPECT_EQ(go() & 0xF3, 0x52u) << "BAD_PIECE: the first piece crosses its page's end";
    m.uncached_store64(w + kXcmd, 1 | uint64_t(1) << 16 | uint64_t(128) << 32);
    m.uncached_store64(w + kXpage, kSend | uint64_t(64) << 48);
    m.uncached_store64(w + kXpage, (kSend + 8192) | uint64_t(64) << 48);
    EXPECT_EQ(go() & 0xF3, 0x52u) << "BAD_PIECE: a page after a piece that ended inside its page";
    m.uncached_store64(w + kXcmd, 1 | uint64_t(1) << 16 | uint64_t(4096 + 64) << 32);
    m.uncached_store64(w + kXpage, kSend | uint64_t(4096) << 48);
    m.uncached_store64(w + kXpage, (kSend + 8192 + 64) | uint64_t(64) << 48);
    EXPECT_EQ(go() & 0xF3, 0x52u) << "BAD_PIECE: a later piece not at its page's start";
    m.uncached_store64(w + kXcmd, 1 | uint64_t(1) << 16 | uint64_t(4096 + 64) << 32);
    m.uncached_store64(w + kXpage, kSend | uint64_t(4096) << 48);
    m.uncached_store64(w + kXpage, (kRecv + 4096) | uint64_t(64) << 48);
    EXPECT_EQ(go() & 0xF3, 0x62u) << "PROT_SEND: a later page outside the send window";
    {
      Xfer moved(m, w, t.slot, [](drv::Addr a) { return a + 8; });
      EXPECT_THROW(moved.send(1, kType, kSend, 64), std::invalid_argument)
          << "a translation that moves an offset in its page";
    }
    XferReason why{};
    EXPECT_EQ(x.bufalloc(kSend, 4096, kType, &why), XferVerdict::Fail);
    EXPECT_EQ(why, XferReason::ProtRecv) << "a buffer outside the receive window";
    EXPECT_EQ(x.bufalloc(kBufs, 100, kType, &why), XferVerdict::Fail);
    EXPECT_EQ(why, XferReason::BadLen) << "not a whole number of lines";
    EXPECT_EQ(x.bufalloc(kBufs + 8, 64, kType, &why), XferVerdict::Fail);
    EXPECT_EQ(why, XferReason::BadLen) << "not line aligned";
    m.uncached_store64(w + kBufPost, 64);
    EXPECT_EQ(x.posted(), 0u);
    EXPECT_EQ(x.outstanding(), 0u);
  });
  t.sys.run_programs(sim::ns(500'000));
  EXPECT_EQ(t.counter(0, XferCounter::CompSent), 0u);
  EXPECT_EQ(t.counter(0, XferCounter::Fail), 17u);
  EXPECT_EQ(t.counter(0, XferCounter::Prot), 4u);
  EXPECT_EQ(t.counter(0, XferCounter::Stray), 3u)
      << "the disabled slot's XCMD and piece (no process: no record), BUF_POST after XGO";
  EXPECT_EQ(t.sys.network().port_stats(0).tx_frames, 0u);
}

// Node 1's process as a slow receiver (OCC_RECV cycles a component): three buffers posted
// (`posted` then set), three messages taken.
void slow_receiver(Nodes& t, unsigned occ, bool& posted) {
  t.sys.node(1).host().spawn(0, [&t, occ, &posted](drv::MemoryPort& m) {
    t.setup(m, 1);
    XferOs(m, t.os_window(1)).set_occupancy(0, occ, 0);
    Xfer x(m, t.window(1), t.slot);
    for (unsigned i = 0; i < 3; ++i) {
      EXPECT_EQ(x.bufalloc(kBufs + i * 4096, 4096, kType), XferVerdict::Success);
    }
    posted = true;
    for (unsigned i = 0; i < 3; ++i) EXPECT_TRUE(x.receive().has_value());
  });
}

// A process has at most XferPerProc (2 in the test geometry) messages outstanding: the next XGO
// answers RETRY PROC_FULL and sends nothing; once one completes it succeeds.
TEST(XferSystem, TooManyOutstandingIsRetriedAndNothingIsSent) {
  Nodes t;
  bool posted = false;
  slow_receiver(t, 2000, posted);
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 0);
    Xfer x(m, t.window(0), t.slot);
    while (!posted) m.pause_ns(100);
    const Xfer::Send a = x.send(1, kType, kSend, 1024);
    const Xfer::Send b = x.send(1, kType, kSend, 1024);
    ASSERT_EQ(a.verdict, XferVerdict::Success);
    ASSERT_EQ(b.verdict, XferVerdict::Success);
    EXPECT_EQ(x.outstanding(), 2u);
    const uint32_t sent = t.counter(0, XferCounter::CompSent);
    Xfer::Send c = x.send(1, kType, kSend, 1024);
    EXPECT_EQ(c.verdict, XferVerdict::Retry);
    EXPECT_EQ(c.reason, XferReason::ProcFull);
    EXPECT_EQ(x.senddone(a), XferStatus::Done);
    c = x.send(1, kType, kSend, 1024);
    EXPECT_EQ(c.verdict, XferVerdict::Success);
    EXPECT_EQ(c.count, 2u) << "the refused one took no count";
    EXPECT_EQ(x.senddone(b), XferStatus::Done);
    EXPECT_EQ(x.senddone(c), XferStatus::Done);
    EXPECT_LE(sent, 32u);
  });
  t.sys.run_programs(sim::ns(2'000'000));
  EXPECT_EQ(t.counter(0, XferCounter::Retry), 1u);
  EXPECT_EQ(t.counter(0, XferCounter::CompSent), 48u);
  t.expect_clean();
}

// The driver gives a status flag to one send at a time, from its commit until senddone returns
// its report: with three flags, two messages outstanding and five refused attempts in between
// (which take no flag), the third send gets the flag no report is owed on, not the second's;
// with every flag owed a report the driver refuses a send before it touches the engine.
TEST(XferSystem, AStatusFlagIsGivenToOneSendAtATime) {
  Nodes t;
  t.slot.n_flags = 3;
  bool posted = false;
  slow_receiver(t, 500, posted);
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 0);
    Xfer x(m, t.window(0), t.slot);
    while (!posted) m.pause_ns(100);
    const Xfer::Send a = x.send(1, kType, kSend, 512);
    const Xfer::Send b = x.send(1, kType, kSend, 512);
    ASSERT_EQ(a.verdict, XferVerdict::Success);
    ASSERT_EQ(b.verdict, XferVerdict::Success);
    for (unsigned i = 0; i < 5; ++i) {
      EXPECT_EQ(x.send(1, kType, kSend, 512).reason, XferReason::ProcFull);
    }
    while (x.outstanding() > 1) m.pause_ns(200);  // a is done; its report not yet taken
    const Xfer::Send c = x.send(1, kType, kSend, 512);
    ASSERT_EQ(c.verdict, XferVerdict::Success);
    EXPECT_NE(c.flag, a.flag);
    EXPECT_NE(c.flag, b.flag);
    while (x.outstanding() > 1) m.pause_ns(200);  // b is done too
    EXPECT_THROW(x.send(1, kType, kSend, 512), std::runtime_error) << "every flag owed a report";
    EXPECT_EQ(x.senddone(a), XferStatus::Done);
    EXPECT_EQ(x.senddone(b), XferStatus::Done);
    EXPECT_EQ(x.senddone(c), XferStatus::Done);
  });
  t.sys.run_programs(sim::ns(2'000'000));
  t.expect_clean();
}

// A receive table of two entries: the third message's entry waits until the process takes an
// entry (the engine reads the table's head line again and again), and its ACK with it; the
// entries' valid bits follow the passes.
TEST(XferSystem, AFullReceiveTableHoldsTheEntryUntilTheProcessTakesOne) {
  Nodes t(2, 2);
  const unsigned n_msgs = 9;
  bool ready = false;
  unsigned delivered = 0;
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    Xfer x(m, t.window(1), t.slot);
    for (unsigned i = 0; i < 4; ++i) {
      EXPECT_EQ(x.bufalloc(kBufs + i * 256, 256, kType), XferVerdict::Success);
    }
    ready = true;
    m.pause_ns(30'000);  // the table fills meanwhile
    for (unsigned i = 0; i < n_msgs; ++i) {
      const auto r = x.receive();
      ASSERT_TRUE(r.has_value());
      std::vector<uint8_t> got(r->length);
      m.load(r->buffer, got.data(), got.size());
      EXPECT_EQ(got, pattern(10 + i, 256)) << "message " << i;
      EXPECT_EQ(x.bufalloc(r->buffer, 256, kType), XferVerdict::Success);
    }
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 0);
    Xfer x(m, t.window(0), t.slot);
    while (!ready) m.pause_ns(100);
    for (unsigned i = 0; i < n_msgs; ++i) {
      const auto d = pattern(10 + i, 256);
      m.store(kSend, d.data(), d.size());
      const Xfer::Send s = x.send(1, kType, kSend, 256);
      ASSERT_EQ(s.verdict, XferVerdict::Success);
      const uint64_t t0 = m.now_ns();
      EXPECT_EQ(x.senddone(s), XferStatus::Done) << "message " << i;
      if (i == 2) {
        EXPECT_GT(m.now_ns() - t0, 10'000u) << "the third waited for the table";
      }
      ++delivered;
    }
  });
  t.sys.run_programs(sim::ns(2'000'000));
  EXPECT_EQ(delivered, n_msgs);
  t.expect_clean();
}

// Out-of-order completion, hidden when ordering is requested (004 section 3.4.2): a 16 KiB
// message then a 128-byte one to the same process, the long one's last component lost once in
// the network. The short one completes while the long one waits for its probe (a timeout, then
// NACK_GAP and the resend of its last component): sent unordered, the short one's entry comes
// first; sent ORDERED, the receiver holds it until the long one's entry is written.
std::vector<uint32_t> entry_order(bool ordered) {
  constexpr uint32_t kLong = 16384, kShort = 128;
  Nodes t;
  t.retransmit = true;
  // the first message's (count 0) last component: kind DATA (2), LAST (flags bit 4)
  t.lose_first([](const sim::FrameHeader& h) {
    return h.src == 0 && h.type == 0x05 && (h.flags & 7) == 2 && (h.flags & 0x10) &&
           (h.seq >> 16) == 0;
  });
  std::vector<uint32_t> order;
  bool ready = false;
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    Xfer x(m, t.window(1), t.slot);
    EXPECT_EQ(x.bufalloc(kBufs, kLong, kType), XferVerdict::Success);
    EXPECT_EQ(x.bufalloc(kBufs + kLong, kShort, kType), XferVerdict::Success);
    ready = true;
    for (unsigned i = 0; i < 2; ++i) {
      const auto r = x.receive();
      ASSERT_TRUE(r.has_value());
      std::vector<uint8_t> got(r->length);
      m.load(r->buffer, got.data(), got.size());
      EXPECT_EQ(got, pattern(r->length == kLong ? 1 : 2, r->length));
      order.push_back(r->length);
    }
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 0);
    Xfer x(m, t.window(0), t.slot);
    const auto a = pattern(1, kLong), b = pattern(2, kShort);
    m.store(kSend, a.data(), a.size());
    m.store(kSend + kLong, b.data(), b.size());
    while (!ready) m.pause_ns(100);
    const Xfer::Send sa = x.send(1, kType, kSend, kLong, ordered);
    const Xfer::Send sb = x.send(1, kType, kSend + kLong, kShort, ordered);
    ASSERT_EQ(sa.verdict, XferVerdict::Success);
    ASSERT_EQ(sb.verdict, XferVerdict::Success);
    EXPECT_EQ(sa.count, 0u);
    EXPECT_EQ(x.senddone(sa), XferStatus::Done);
    EXPECT_EQ(x.senddone(sb), XferStatus::Done);
  });
  t.sys.run_programs(sim::ns(2'000'000));
  EXPECT_TRUE(t.lost_one);
  EXPECT_GE(t.counter(0, XferCounter::Resent), 1u) << "the long message's probe and resend";
  EXPECT_EQ(t.counter(1, XferCounter::Received), 2u);
  t.expect_clean();
  return order;
}

TEST(XferSystem, OutOfOrderCompletionIsHiddenWhenOrderingIsRequested) {
  EXPECT_EQ(entry_order(false), (std::vector<uint32_t>{128, 16384})) << "unordered: short first";
  EXPECT_EQ(entry_order(true), (std::vector<uint32_t>{16384, 128})) << "ORDERED: in send order";
}

// An ORDERED message whose predecessor the receiver refused (no buffer of its type) while the
// sender still waited for that answer (the REJECT lost once: the predecessor is probed, sent
// again and refused again): the receiver cannot hold it behind a message it will not see, so it
// refuses it BUSY and writes nothing; sent again (its predecessor closed), it is delivered.
TEST(XferSystem, AnOrderedMessageWhosePredecessorWasRefusedIsRefusedBusy) {
  Nodes t;
  t.retransmit = true;
  t.lose_first([](const sim::FrameHeader& h) {  // the first REJECT
    return h.src == 1 && h.type == 0x85 && (h.flags & 7) == 3;
  });
  constexpr uint8_t kOther = 9;  // no buffer of this type is ever posted
  bool ready = false;
  unsigned got = 0;
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    Xfer x(m, t.window(1), t.slot);
    EXPECT_EQ(x.bufalloc(kBufs, kLb, kType), XferVerdict::Success);
    ready = true;
    const auto r = x.receive();
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->count, 2u) << "the third send";
    std::vector<uint8_t> d(kLb);
    m.load(kBufs, d.data(), d.size());
    EXPECT_EQ(d, pattern(3, kLb));
    ++got;
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 0);
    Xfer x(m, t.window(0), t.slot);
    const auto d = pattern(3, kLb);
    m.store(kSend, d.data(), d.size());
    while (!ready) m.pause_ns(100);
    const Xfer::Send p = x.send(1, kOther, kSend, kLb, true);
    const Xfer::Send q = x.send(1, kType, kSend, kLb, true);
    ASSERT_EQ(p.verdict, XferVerdict::Success);
    ASSERT_EQ(q.verdict, XferVerdict::Success);
    EXPECT_EQ(x.senddone(p), XferStatus::FailNobuf);
    EXPECT_EQ(x.senddone(q), XferStatus::FailBusy);
    const Xfer::Send again = x.send(1, kType, kSend, kLb, true);
    ASSERT_EQ(again.verdict, XferVerdict::Success);
    EXPECT_EQ(x.senddone(again), XferStatus::Done);
  });
  t.sys.run_programs(sim::ns(500'000));
  EXPECT_TRUE(t.lost_one);
  EXPECT_EQ(got, 1u);
  EXPECT_EQ(t.counter(1, XferCounter::Nobuf), 2u) << "the predecessor, and its resend";
  EXPECT_EQ(t.counter(1, XferCounter::Busy), 1u);
  EXPECT_EQ(t.counter(1, XferCounter::CompWritten), 1u) << "only the third send's";
  t.expect_clean();
}

// Orphaned receiver records (review finding 3): every frame of a message after its header is
// lost, so its sender gives up (FAIL_TIMEOUT after two probes) while the receiver holds a
// record and a buffer for it. The sender's next header carries una past it: the receiver gives
// it up, its entry marked failed with the buffer returned, and delivers the next message.
TEST(XferSystem, AReceiverGivesUpAMessageItsSenderClosed) {
  Nodes t;
  t.retransmit = true;
  t.sys.network().set_drop_rule([](const sim::Frame& f) {
    const sim::FrameHeader h = sim::parse_header(f.bytes);
    // count 0: everything after its first header (components, probes)
    return h.src == 0 && h.type == 0x05 && (h.seq >> 16) == 0 &&
           !((h.flags & 7) == 1 && !(h.flags & 8));
  });
  constexpr uint32_t kLen = 1024;
  const auto body = pattern(5, kLen);
  bool ready = false;
  std::vector<Xfer::Received> got;
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    Xfer x(m, t.window(1), t.slot);
    for (unsigned b = 0; b < 2; ++b) {
      ASSERT_EQ(x.bufalloc(kBufs + b * kLen, kLen, kType), XferVerdict::Success);
    }
    ready = true;
    for (unsigned i = 0; i < 2; ++i) {
      const auto r = x.receive();
      ASSERT_TRUE(r.has_value());
      got.push_back(*r);
      if (!r->failed) {
        std::vector<uint8_t> d(r->length);
        m.load(r->buffer, d.data(), d.size());
        EXPECT_EQ(d, body);
      }
    }
    EXPECT_EQ(x.posted(), 0u) << "the failed entry returned its buffer to the process";
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 0);
    XferOs(m, t.os_window(0)).set_retransmit(Nodes::kRetxTimeout, 2);
    Xfer x(m, t.window(0), t.slot);
    m.store(kSend, body.data(), body.size());
    while (!ready) m.pause_ns(100);
    for (unsigned i = 0; i < 2; ++i) {
      const Xfer::Send s = x.send(1, kType, kSend, kLen);
      ASSERT_EQ(s.verdict, XferVerdict::Success);
      EXPECT_EQ(s.count, i);
      EXPECT_EQ(x.senddone(s), i == 1 ? XferStatus::Done : XferStatus::FailTimeout) << i;
    }
  });
  t.sys.run_programs(sim::ns(2'000'000));
  ASSERT_EQ(got.size(), 2u);
  EXPECT_TRUE(got[0].failed);
  EXPECT_EQ(got[0].count, 0u);
  EXPECT_FALSE(got[1].failed);
  EXPECT_EQ(got[1].count, 1u);
  EXPECT_EQ(t.counter(1, XferCounter::Orphaned), 1u);
  EXPECT_EQ(t.counter(0, XferCounter::Failed), 1u);
  t.expect_clean();
}

// Random traffic among three nodes: each sends 24 messages of 8 B … 8 KiB to random others while
// it receives, checks and re-posts; a refused message (no buffer, no record) is sent again.
// Every message is delivered exactly once with its bytes.
void random_traffic(unsigned seed, double loss) {
  constexpr unsigned kNodes = 3, kMsgs = 24, kMax = 8192;
  Nodes t(kNodes, 8, true, loss);
  struct Plan {
    unsigned dst;
    uint32_t len;
    bool ordered;
  };
  std::mt19937 rng(seed);
  std::vector<std::vector<Plan>> plan(kNodes);
  std::vector<unsigned> expect(kNodes, 0);
  for (unsigned n = 0; n < kNodes; ++n) {
    for (unsigned i = 0; i < kMsgs; ++i) {
      const unsigned d = rng() % kNodes;  // (its own node: the engine's local path)
      const uint32_t len = 8 + uint32_t(rng() % (kMax - 7));
      plan[n].push_back({d, len, rng() % 2 == 0});
      ++expect[d];
    }
  }
  std::set<std::pair<unsigned, unsigned>> seen;
  // per (source, destination): the count of the last ORDERED message delivered
  std::map<std::pair<unsigned, unsigned>, int> last_ordered;
  unsigned resent = 0, n_ordered = 0;
  auto body = [&](unsigned n, unsigned i, uint32_t len) {
    std::vector<uint8_t> d = pattern(n * 100 + i, len);
    const uint64_t tag = uint64_t(n) << 32 | i;
    std::memcpy(d.data(), &tag, 8);
    return d;
  };
  for (unsigned n = 0; n < kNodes; ++n) {
    t.sys.node(n).host().spawn(0, [&, n](drv::MemoryPort& m) {
      t.setup(m, n);
      Xfer x(m, t.window(n), t.slot);
      for (unsigned b = 0; b < 4; ++b) {
        ASSERT_EQ(x.bufalloc(kBufs + b * kMax, kMax, kType), XferVerdict::Success);
      }
      m.pause_ns(3000);  // every node set up
      // each message gets its own part of the send window, so a message in flight keeps its data
      for (unsigned i = 0; i < kMsgs; ++i) {
        const auto d = body(n, i, plan[n][i].len);
        m.store(kSend + drv::Addr{i} * kMax, d.data(), d.size());
      }
      std::vector<std::pair<unsigned, Xfer::Send>> pending;
      unsigned next = 0, received = 0;
      std::vector<unsigned> retry;
      while (next < kMsgs || !pending.empty() || !retry.empty() || received < expect[n]) {
        // send the next (or a refused one) while the process has room
        if (!retry.empty() || next < kMsgs) {
          const unsigned i = retry.empty() ? next : retry.back();
          const Xfer::Send s = x.send(plan[n][i].dst, kType, kSend + drv::Addr{i} * kMax,
                                      plan[n][i].len, plan[n][i].ordered);
          if (s.verdict == XferVerdict::Success) {
            pending.emplace_back(i, s);
            if (retry.empty()) {
              ++next;
            } else {
              retry.pop_back();
            }
          } else {
            ASSERT_EQ(s.verdict, XferVerdict::Retry) << drv::to_string(s.reason);
          }
        }
        for (size_t k = 0; k < pending.size();) {
          const XferStatus st = x.senddone(pending[k].second, false);
          if (st == XferStatus::Pending) {
            ++k;
            continue;
          }
          if (st != XferStatus::Done) {
            ASSERT_TRUE(st == XferStatus::FailNobuf || st == XferStatus::FailBusy)
                << drv::to_string(st);
            retry.push_back(pending[k].first);
            ++resent;
          }
          pending.erase(pending.begin() + long(k));
        }
        while (const auto r = x.receive(false)) {
          std::vector<uint8_t> got(r->length);
          m.load(r->buffer, got.data(), got.size());
          uint64_t tag = 0;
          std::memcpy(&tag, got.data(), 8);
          const unsigned src = unsigned(tag >> 32), i = unsigned(tag);
          ASSERT_EQ(src, r->src_node);
          ASSERT_LT(i, kMsgs);
          EXPECT_EQ(r->length, plan[src][i].len);
          const auto want = body(src, i, plan[src][i].len);
          size_t bad = 0;
          while (bad < got.size() && bad < want.size() && got[bad] == want[bad]) ++bad;
          EXPECT_EQ(bad, want.size())
              << "message " << src << "/" << i << " of " << want.size()
              << " bytes differs from byte " << bad << " at node " << n << " buffer " << std::hex
              << r->buffer << std::dec << " count " << r->count << " got "
              << (bad < got.size() ? int(got[bad]) : -1) << " want "
              << (bad < want.size() ? int(want[bad]) : -1);
          EXPECT_TRUE(seen.insert({src, i}).second) << "delivered twice: " << src << "/" << i;
          // the pair's ORDERED messages are seen in the order they were committed (counts
          // grow: fewer than 2^16 per node here)
          if (plan[src][i].ordered) {
            auto [at, fresh] = last_ordered.try_emplace({src, n}, int(r->count));
            if (!fresh) {
              EXPECT_GT(int(r->count), at->second) << "ordered " << src << " -> " << n;
              at->second = int(r->count);
            }
            ++n_ordered;
          }
          ++received;
          ASSERT_EQ(x.bufalloc(r->buffer, kMax, kType), XferVerdict::Success);
        }
        m.pause_ns(200);
      }
    });
  }
  t.sys.run_programs(sim::ns(20'000'000));
  EXPECT_EQ(seen.size(), kNodes * kMsgs);
  unsigned retx = 0, own = 0;
  for (unsigned n = 0; n < kNodes; ++n) {
    retx += t.counter(n, XferCounter::Resent);
    for (const Plan& p : plan[n]) own += p.dst == n;
  }
  std::printf(
      "[ random ] %u messages (%u ORDERED, %u to the sender's own node), %u sent again after a "
      "refusal, %u resends by the engines\n",
      kNodes * kMsgs, n_ordered, own, resent, retx);
  EXPECT_GT(own, 0u) << "the local path was used";
  if (loss > 0) {
    EXPECT_GT(retx, 0u) << "frames were lost: the engines resent";
  } else {
    EXPECT_EQ(retx, 0u);
  }
  t.expect_clean();
}

TEST(XferSystem, RandomTrafficAmongThreeNodesDeliversEveryMessageOnce) { random_traffic(47, 0); }

// The same traffic with 2% of the frames lost on every link crossing (headers, components,
// replies) and retransmission on: a gap is answered NACK_GAP and resent from there, a message
// without a reply is probed (a lost last component, header or ACK), an ACK lost after delivery
// is sent again from the receiver's completed counts; every message arrives exactly once.
TEST(XferSystem, UnderNetworkLossRetransmissionDeliversEveryMessageOnce) {
  random_traffic(48, 0.02);
}

// A message from one process to another of the same node, a memory copy into the other's window
// and Fetch-and-Ops on words of the node's own window take the engine's local path (the network
// carries no frame back to its sender): each arrives or is performed once, and no frame leaves
// the node.
TEST(XferSystem, MessagesAndFetchAndOpsToTheOwnNodeTakeTheLocalPath) {
  Nodes t;
  const auto data = pattern(11, 3000);
  constexpr drv::Addr kDst = kRecv1 + 0x8000 + 8;
  const drv::Addr w1 = t.fop_word(0, 1), w13 = t.fop_word(0, 13);  // slot 0's 1, slot 1's 5
  bool set = false, posted = false, copied = false;
  t.sys.node(0).host().spawn(1, [&](drv::MemoryPort& m) {  // process B: slot 1, context 1
    while (!set) m.pause_ns(100);
    Xfer x(m, t.window(0, 1), t.slot1(0));
    EXPECT_EQ(x.bufalloc(kBufs1, 4096, kType), XferVerdict::Success);
    posted = true;
    const auto r = x.receive();
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->src_node, 0u);
    EXPECT_EQ(r->sender_vpid, 0u);
    std::vector<uint8_t> got(r->length);
    m.load(r->buffer, got.data(), got.size());
    EXPECT_EQ(got, data) << "the message";
    while (!copied) m.pause_ns(500);
    m.load(kDst, got.data(), got.size());
    EXPECT_EQ(got, data) << "the memory copy";
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {  // process A: slot 0, context 0
    t.setup(m, 0);
    t.setup1(m, 0, t.slot1(0));
    m.store64(w13, 1000);
    m.barrier();
    set = true;
    Xfer x(m, t.window(0), t.slot);
    m.store(kSend + 40, data.data(), data.size());
    while (!posted) m.pause_ns(100);
    Xfer::Send s = x.send(2, kType, kSend + 40, uint32_t(data.size()));  // vpid 2: node 0, slot 1
    ASSERT_EQ(s.verdict, XferVerdict::Success) << drv::to_string(s.reason);
    EXPECT_EQ(x.senddone(s), XferStatus::Done);
    s = x.fastmemcpy(2, kDst, kSend + 40, uint32_t(data.size()));
    ASSERT_EQ(s.verdict, XferVerdict::Success) << drv::to_string(s.reason);
    EXPECT_EQ(x.senddone(s), XferStatus::Done);
    copied = true;
    for (uint64_t i = 0; i < 3; ++i) EXPECT_EQ(x.fetch_op(2, 5, XferFop::Add, 10), 1000 + 10 * i);
    EXPECT_EQ(x.fetch_op(0, 1, XferFop::Swap, 77), 0u) << "a word of A's own window";
    EXPECT_EQ(x.fetch_op(0, 1, XferFop::Cas, 78, 77), 77u);
    EXPECT_EQ(m.load64(w13), 1030u);
    EXPECT_EQ(m.load64(w1), 78u);
  });
  t.sys.run_programs(sim::ns(2'000'000));
  EXPECT_TRUE(copied);
  EXPECT_EQ(t.sys.network().port_stats(0).tx_frames, 0u) << "no frame left the node";
  EXPECT_EQ(t.counter(0, XferCounter::Received), 2u);
  EXPECT_EQ(t.counter(0, XferCounter::Delivered), 2u);
  EXPECT_EQ(t.counter(0, XferCounter::FopPerformed), 5u);
  EXPECT_EQ(t.counter(0, XferCounter::FopReported), 5u);
  t.expect_clean();
}

// The local path takes turns with the network: while another node's 64 KiB message keeps the
// request buffer full (the receiver slowed to a component every 40 cycles, 136 us for the
// message), a 256-byte message to a process of the node's own is taken between its components,
// not after them.
TEST(XferSystem, ALocalMessageTakesTurnsWithAStreamFromTheNetwork) {
  Nodes t;
  constexpr uint32_t kLong = 64 * 1024, kShort = 256;
  const auto big = pattern(21, kLong), small = pattern(22, kShort);
  bool set = false, started = false;
  uint64_t local_ns = 0, local_end = 0, remote_end = 0;
  t.sys.node(0).host().spawn(1, [&](drv::MemoryPort& m) {  // process B: slot 1, context 1
    while (!set) m.pause_ns(100);
    Xfer x(m, t.window(0, 1), t.slot1(0));
    EXPECT_EQ(x.bufalloc(kBufs1, 4096, kType), XferVerdict::Success);
    const auto r = x.receive();
    ASSERT_TRUE(r.has_value());
    std::vector<uint8_t> got(r->length);
    m.load(r->buffer, got.data(), got.size());
    EXPECT_EQ(got, small);
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {  // process A: slot 0
    t.setup(m, 0);
    t.setup1(m, 0, t.slot1(0));
    XferOs(m, t.os_window(0)).set_occupancy(0, 40, 0);
    Xfer x(m, t.window(0), t.slot);
    EXPECT_EQ(x.bufalloc(kBufs, kLong, kType), XferVerdict::Success);
    m.store(kSend, small.data(), small.size());
    set = true;
    while (!started) m.pause_ns(100);
    m.pause_ns(10'000);  // the stream under way
    const uint64_t t0 = m.now_ns();
    const Xfer::Send s = x.send(2, kType, kSend, kShort);
    ASSERT_EQ(s.verdict, XferVerdict::Success) << drv::to_string(s.reason);
    EXPECT_EQ(x.senddone(s), XferStatus::Done);
    local_end = m.now_ns();
    local_ns = local_end - t0;
    const auto r = x.receive();
    ASSERT_TRUE(r.has_value());
    std::vector<uint8_t> got(r->length);
    m.load(r->buffer, got.data(), got.size());
    EXPECT_EQ(got, big);
  });
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    Xfer x(m, t.window(1), t.slot);
    m.store(kSend, big.data(), big.size());
    while (!set) m.pause_ns(100);
    const Xfer::Send s = x.send(0, kType, kSend, kLong);
    ASSERT_EQ(s.verdict, XferVerdict::Success) << drv::to_string(s.reason);
    started = true;
    EXPECT_EQ(x.senddone(s), XferStatus::Done);
    remote_end = m.now_ns();
  });
  t.sys.run_programs(sim::ns(2'000'000));
  std::printf(
      "[ local path ] 256 B to the own node in %.2f us while a 64 KiB message streamed in "
      "(done %.1f us after it)\n",
      double(local_ns) / 1000, (double(remote_end) - double(local_end)) / 1000);
  EXPECT_GT(local_ns, 0u);
  EXPECT_LT(local_ns, 20'000u) << "taken between the stream's components";
  EXPECT_LT(local_end + 50'000, remote_end) << "long before the stream ended";
  t.expect_clean();
}

// Fetch-and-Op (004 section 3.6) on a word of node 1's engine that node 1's core has just
// written (Modified in its cache): each operation returns the word's old value in the flag and
// leaves its result, the first one recalling the core's copy; the core then reads the last
// result. A word outside the destination slot's window is refused at the home (FAIL_PROT, the
// word untouched), an unknown op or vpid at XGO.
TEST(XferSystem, FetchAndOpReturnsTheOldValueAndLeavesTheResultAtTheHome) {
  Nodes t;
  bool ready = false, done = false;
  const drv::Addr w3 = t.fop_word(1, 3), w4 = t.fop_word(1, 4);
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    EXPECT_EQ(XferOs(m, t.os_window(1)).fop_words(), 16u);
    m.store64(w3, 100);
    m.store64(w4, 0xABCD);
    m.barrier();
    ready = true;
    while (!done) m.pause_ns(200);
    EXPECT_EQ(m.load64(w3), 9u) << "the last CAS failed: the word stays 9";
    EXPECT_EQ(m.load64(w4), 0xABCDu) << "the refused operation wrote nothing";
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 0);
    Xfer x(m, t.window(0), t.slot);
    while (!ready) m.pause_ns(100);
    EXPECT_EQ(x.fetch_op(1, 3, XferFop::Add, 5), 100u);
    EXPECT_EQ(x.fetch_op(1, 3, XferFop::Swap, 7), 105u);
    EXPECT_EQ(x.fetch_op(1, 3, XferFop::Cas, 9, 7), 7u) << "CAS 7 -> 9 succeeds";
    EXPECT_EQ(x.fetch_op(1, 3, XferFop::Cas, 11, 8), 9u) << "CAS 8 -> 11 fails";
    // word 8 of slot 0's window of 8: refused at the home
    const Xfer::Send s = x.fop_start(1, 8, XferFop::Add, 1);
    ASSERT_EQ(s.verdict, XferVerdict::Success);
    uint64_t old = 1;
    EXPECT_EQ(x.fop_done(s, &old), XferStatus::FailProt);
    // node 1's slot 1 (vpid 3) is not enabled there: refused
    const Xfer::Send s1 = x.fop_start(3, 0, XferFop::Add, 1);
    ASSERT_EQ(s1.verdict, XferVerdict::Success);
    EXPECT_EQ(x.fop_done(s1, &old), XferStatus::FailProt);
    const Xfer::Send bad_op = x.fop_start(1, 3, XferFop(0), 1);
    EXPECT_EQ(bad_op.verdict, XferVerdict::Fail);
    EXPECT_EQ(bad_op.reason, XferReason::BadFop);
    const Xfer::Send bad_vpid = x.fop_start(9, 3, XferFop::Add, 1);
    EXPECT_EQ(bad_vpid.verdict, XferVerdict::Fail);
    EXPECT_EQ(bad_vpid.reason, XferReason::BadVpid);
    EXPECT_THROW(x.fetch_op(1, 3, XferFop(5), 1), std::runtime_error);
    EXPECT_EQ(x.outstanding(), 0u);
    done = true;
  });
  t.sys.run_programs(sim::ns(1'000'000));
  EXPECT_TRUE(done);
  EXPECT_EQ(t.counter(1, XferCounter::FopPerformed), 4u);
  EXPECT_EQ(t.counter(1, XferCounter::Prot), 2u);
  EXPECT_EQ(t.counter(0, XferCounter::FopReported), 4u);
  EXPECT_EQ(t.counter(0, XferCounter::Failed), 2u);
  EXPECT_EQ(t.counter(0, XferCounter::Fail), 3u);
  t.expect_clean();
}

// Two nodes add 1 to the same word of a third, each with two operations outstanding, while the
// home's core keeps reading the word (each operation recalls its copy): every old value from 0
// to 2N - 1 is returned exactly once, the word ends at 2N, and the core never sees it go back.
void concurrent_adds(double loss) {
  Nodes t(3, 8, true, loss);
  constexpr unsigned kN = 24;
  bool ready = false;
  unsigned finished = 0;
  std::vector<uint64_t> olds;
  const drv::Addr w = t.fop_word(1, 5);
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    m.store64(w, 0);
    m.barrier();
    ready = true;
    uint64_t last = 0;
    while (finished < 2) {
      const uint64_t v = m.load64(w);
      EXPECT_GE(v, last) << "the word went back";
      last = v;
      m.pause_ns(300);
    }
    EXPECT_EQ(m.load64(w), 2u * kN);
  });
  for (unsigned n : {0u, 2u}) {
    t.sys.node(n).host().spawn(0, [&, n](drv::MemoryPort& m) {
      t.setup(m, n);
      Xfer x(m, t.window(n), t.slot);
      while (!ready) m.pause_ns(100);
      std::vector<Xfer::Send> live;
      for (unsigned i = 0; i < kN || !live.empty();) {
        if (i < kN && live.size() < 2) {
          const Xfer::Send s = x.fop_start(1, 5, XferFop::Add, 1);
          ASSERT_NE(s.verdict, XferVerdict::Fail) << drv::to_string(s.reason);
          if (s.verdict == XferVerdict::Success) {
            live.push_back(s);
            ++i;
            continue;
          }
        }
        uint64_t old = 0;
        ASSERT_EQ(x.fop_done(live.front(), &old), XferStatus::FopDone);
        olds.push_back(old);
        live.erase(live.begin());
      }
      ++finished;
    });
  }
  t.sys.run_programs(sim::ns(4'000'000));
  EXPECT_EQ(finished, 2u);
  std::sort(olds.begin(), olds.end());
  std::vector<uint64_t> want(2 * kN);
  for (unsigned i = 0; i < 2 * kN; ++i) want[i] = i;
  EXPECT_EQ(olds, want) << "each old value once: no update lost or doubled";
  EXPECT_EQ(t.counter(1, XferCounter::FopPerformed), 2 * kN);
  const unsigned again = t.counter(1, XferCounter::Dup);
  const unsigned resent = t.counter(0, XferCounter::Resent) + t.counter(2, XferCounter::Resent);
  std::printf(
      "[ fetch-and-add ] %u requests resent, %u answered again from the reply cache or "
      "dropped as older\n",
      resent, again);
  if (loss > 0) {
    EXPECT_GT(again, 0u) << "a lost reply's request, resent, is answered from the cache";
  } else {
    EXPECT_EQ(resent, 0u);
  }
  t.expect_clean();
}

TEST(XferSystem, ConcurrentFetchAndAddsFromTwoNodesLoseNoUpdate) { concurrent_adds(0); }

// The same with 10% of the frames lost on every link crossing: a Fetch-and-Op without a reply
// is resent (RETX) and the home's reply cache answers a request it has performed with the same
// old value, so each add is performed exactly once.
TEST(XferSystem, UnderNetworkLossEachFetchAndAddIsPerformedOnce) { concurrent_adds(0.1); }

// 004 section 3.5's memory copy, the destination named by the sender: every doubleword offset of
// the source's first line against every doubleword offset of the destination's, three lengths (a
// doubleword, most of two lines, five lines): the destination's bytes are the source's, the bytes
// around them in its first and last lines (the receiving core's, dirty in its cache) are
// untouched, and no receive-table entry is written.
TEST(XferSystem, AMemoryCopyAtEveryDoublewordOffsetWritesExactlyItsBytes) {
  Nodes t;
  constexpr drv::Addr kDst = kRecv + 0x40000;
  constexpr unsigned kStride = 512;
  const std::vector<uint32_t> lens = {8, 120, 300};
  const auto src = pattern(3, 1024);
  const unsigned regions = 8 * 8 * unsigned(lens.size());
  const std::vector<uint8_t> guard(regions * kStride, 0xEE);
  bool ready = false, done = false;
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    m.store(kDst, guard.data(), guard.size());
    m.barrier();
    ready = true;
    while (!done) m.pause_ns(500);
    std::vector<uint8_t> got(guard.size());
    m.load(kDst, got.data(), got.size());
    unsigned r = 0;
    for (unsigned so = 0; so < 8; ++so) {
      for (unsigned d = 0; d < 8; ++d) {
        for (uint32_t len : lens) {
          const uint8_t* g = got.data() + r++ * kStride;
          for (unsigned i = 0; i < kStride; ++i) {
            const bool in = i >= 8 * d && i < 8 * d + len;
            ASSERT_EQ(g[i], in ? src[8 * so + i - 8 * d] : 0xEE)
                << "source offset " << 8 * so << ", destination " << 8 * d << ", " << len
                << " B: byte " << i;
          }
        }
      }
    }
    Xfer x(m, t.window(1), t.slot);
    EXPECT_FALSE(x.receive(false).has_value()) << "no entry without NOTE";
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 0);
    Xfer x(m, t.window(0), t.slot);
    m.store(kSend, src.data(), src.size());
    while (!ready) m.pause_ns(100);
    unsigned r = 0;
    for (unsigned so = 0; so < 8; ++so) {
      for (unsigned d = 0; d < 8; ++d) {
        for (uint32_t len : lens) {
          const Xfer::Send s = x.fastmemcpy(1, kDst + r++ * kStride + 8 * d, kSend + 8 * so, len);
          ASSERT_EQ(s.verdict, XferVerdict::Success) << drv::to_string(s.reason);
          ASSERT_EQ(x.senddone(s), XferStatus::Done);
        }
      }
    }
    done = true;
  });
  t.sys.run_programs(sim::ns(20'000'000));
  EXPECT_TRUE(done);
  EXPECT_EQ(t.counter(1, XferCounter::Received), regions);
  t.expect_clean();
}

// A memory copy whose destination leaves the receiving slot's window is refused there (REJECT
// PROT: FAIL_PROT at the sender) and writes nothing; with NOTE the receiving process gets an
// entry naming the destination; a MEMCPY without its destination (XDST) fails BAD_PIECE at XGO.
TEST(XferSystem, AMemoryCopyOutsideTheWindowMovesNothingAndNoteWritesAnEntry) {
  Nodes t;
  constexpr drv::Addr kEdge = kRecv + kWin - 8;
  constexpr drv::Addr kDst = kRecv + 0x40000 + 24;
  const auto src = pattern(4, 256);
  bool ready = false, done = false;
  t.sys.node(1).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 1);
    m.store64(kEdge, 0x1122334455667788u);
    m.barrier();
    ready = true;
    Xfer x(m, t.window(1), t.slot);
    const auto r = x.receive();
    ASSERT_TRUE(r.has_value());
    EXPECT_EQ(r->buffer, kDst);
    EXPECT_EQ(r->length, 100u);
    EXPECT_FALSE(r->failed);
    std::vector<uint8_t> got(100);
    m.load(kDst, got.data(), got.size());
    EXPECT_EQ(got, std::vector<uint8_t>(src.begin(), src.begin() + 100));
    while (!done) m.pause_ns(200);
    EXPECT_EQ(m.load64(kEdge), 0x1122334455667788u) << "the refused copy wrote nothing";
  });
  t.sys.node(0).host().spawn(0, [&](drv::MemoryPort& m) {
    t.setup(m, 0);
    Xfer x(m, t.window(0), t.slot);
    m.store(kSend, src.data(), src.size());
    while (!ready) m.pause_ns(100);
    const Xfer::Send out = x.fastmemcpy(1, kEdge, kSend, 16);
    ASSERT_EQ(out.verdict, XferVerdict::Success);
    EXPECT_EQ(x.senddone(out), XferStatus::FailProt);
    const Xfer::Send note = x.fastmemcpy(1, kDst, kSend, 100, true);
    ASSERT_EQ(note.verdict, XferVerdict::Success);
    EXPECT_EQ(x.senddone(note), XferStatus::Done);
    const drv::Addr w = t.window(0);
    m.uncached_store64(w + drv::xfer_reg::kXcmd, 2 | uint64_t(1) << 16 | uint64_t(64) << 32);
    m.uncached_store64(w + drv::xfer_reg::kXpage, kSend | uint64_t(64) << 48);
    EXPECT_EQ(m.uncached_load64(w + drv::xfer_reg::kXgo) & 0xF3, 0x52u) << "FAIL BAD_PIECE";
    done = true;
  });
  t.sys.run_programs(sim::ns(1'000'000));
  EXPECT_TRUE(done);
  EXPECT_EQ(t.counter(1, XferCounter::Prot), 1u);
  t.expect_clean();
}

}  // namespace
}  // namespace cni::test
