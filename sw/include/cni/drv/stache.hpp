// SPDX-License-Identifier: Apache-2.0
// Stache (seed 001 section 2.1, docs/dsm.md): a distributed shared memory built in software on
// the tag store and the CNI engine's messages. Every node's tag-protected region holds the whole
// shared space; each page of `page_blocks` blocks has a home node (round-robin by page) that keeps
// a full-map directory of its blocks in its own host memory. Home-based, invalidation, single
// writer, sequentially consistent: an access the block's tag does not allow faults, the node's
// protocol core sends a request to the home, the home's handler invalidates or downgrades the
// other copies and replies with the data, and the requester fills the block, sets its tag and
// resumes the access. One Stache object per node runs on that node's protocol core; it is the
// only writer of the node's tags. Written against MemoryPort, TagStore and CniEndpoint.
#pragma once

#include <cstdint>
#include <deque>
#include <functional>
#include <span>
#include <vector>

#include "cni/drv/cni.hpp"
#include "cni/drv/mem.hpp"
#include "cni/drv/tagstore.hpp"

namespace cni::drv {

// Where a page's home is (001 section 2.1: "round-robin or first-touch").
enum class HomePolicy : uint8_t {
  RoundRobin,  // page p's home is node p % nodes, for good
  // Migrate once: page p starts at node p % nodes with every block Invalid there too, and the
  // first node whose access faults on it (its first reference after init(), the initial home's
  // included) becomes its home for good; the data moves with it.
  FirstTouch,
};

struct StacheOptions {
  unsigned page_blocks = 4;  // blocks of a page; page p's first home is node p % nodes
  HomePolicy homes = HomePolicy::RoundRobin;
  // This node's directory: one 8-byte word per block of the region (the words of the blocks it
  // homes are used), in host memory, line aligned; init() clears it.
  Addr dir_base = 0;
  uint16_t handler_base = 0x40;  // the CNI handler ids Stache takes: handler_base .. + 11
  // Where message arrivals are seen: true, through the tag store's dispatch register (the CNI
  // engine beside the tag store signals them: Typhoon-1); false, by polling the NI beside the
  // dispatch register (a separate NI: Typhoon-0).
  bool messages_in_dispatch = true;
  // How the handlers hand a block's data to the engine (fills and writes): BufferLine, the
  // cachable buffer line (Typhoon-1); Registers, the engine's line-buffer registers (uncached
  // stores: Typhoon-0's "uncached alias which bypasses the tag check", 001 section 3.4).
  TagStore::DataPath data_path = TagStore::DataPath::BufferLine;
  // ... and take it from the engine (reads): BufferLine, one cached load of the buffer line (both
  // of 001's designs: Typhoon-0's block buffer "is implemented as a cacheable register, so the
  // processor can read the entire contents in a single bus transaction", its footnote 5);
  // Registers, the line-buffer registers (uncached loads).
  TagStore::DataPath read_path = TagStore::DataPath::BufferLine;
  // The messages through the tag store's own network interface (001's Typhoon-1: the NI on the
  // access-control device, docs/tagstore.md "The integrated network interface"): a block's data
  // goes from one node's engine to the other's without reaching either protocol core; else
  // through the CNI engine's active messages. The standard protocol with round-robin homes only
  // (std::invalid_argument with first touch; set_protocol refuses the update protocol).
  bool ts_ni = false;
  uint64_t idle_pause_ns = 0;  // between looks that find nothing
  // A line of this node's host memory through which its application cores ask the protocol core
  // to push updates (request_push); 0: none. Its words are the request's number, first block and
  // block count; the next line's first word is the answer (the number served); init() clears
  // both.
  Addr mailbox = 0;
};

// A page's protocol (001 section 2.2's custom protocols on the same mechanism).
enum class PageProtocol : uint8_t {
  Standard,  // the invalidation protocol above
  // A deferred update protocol for a producer-consumer page (001's EM3D): only its home writes
  // it; a consumer's read fault fetches a read-only copy and makes it a consumer, and the home's
  // writes do not invalidate the copies: when the home's application asks (request_push), the
  // protocol core sends each consumer every block of its update pages that it holds, in one
  // message, and answers when every consumer has written them.
  Update,
};

// The steps of a miss as the handlers see them (hooks for a latency breakdown).
enum class StacheStep : uint8_t {
  FaultTaken,       // the requester's protocol core has the fault from the dispatch register
  RequestSent,      // ... and has sent the request to the home (or served it itself)
  RequestAtHome,    // the home's handler starts on the request
  ReplySent,        // the home's handler has sent the reply (or filled the block itself)
  ReplyAtRequester, // the requester's handler starts on the reply
  Filled,           // ... and has issued the fill and the resume
};

struct StacheStats {
  uint64_t faults = 0, requests_sent = 0, requests_served = 0, requests_deferred = 0;
  uint64_t invalidations = 0, downgrades = 0, replies_with_data = 0, upgrades = 0;
  uint64_t events = 0, message_events = 0;
  uint64_t pushes = 0, update_messages = 0, blocks_updated = 0;
  uint64_t pages_placed = 0;    // first touch: pages this node placed (here or sent away)
  uint64_t pages_moved_in = 0;  // first touch: pages that moved to this node
  uint64_t redirects = 0;       // first touch: requests answered with the page's new home
};

class Stache {
 public:
  static constexpr unsigned kMaxNodes = 32;  // the directory's sharer mask

  // std::invalid_argument for more than kMaxNodes nodes, page_blocks 0, a dir_base not line
  // aligned.
  Stache(MemoryPort& mem, TagStore& ts, CniEndpoint& ni, const StacheOptions& opt);

  unsigned node() const { return node_; }
  unsigned nodes() const { return nodes_; }
  uint32_t blocks() const { return ts_.blocks(); }
  // The block's home as this node knows it (first touch: it learns of a move when it asks).
  unsigned home_of(uint32_t block) const { return home_[block / opt_.page_blocks]; }
  Addr block_addr(uint32_t b) const { return ts_.block_addr(b); }

  // Sets the node's tags (the blocks it homes ReadWrite, the others Invalid; first touch: every
  // block Invalid) and clears its directory. Every node runs init() before any node's
  // application touches the shared space.
  void init();
  // The protocol of page p (every node sets the same, after init() and before the application
  // touches the page; the home acts on it). std::logic_error for a custom protocol under first
  // touch (a custom protocol's home is where the application put its data).
  void set_protocol(uint32_t page, PageProtocol p);
  // An application core's request to the node's protocol core: push the blocks `first` ..
  // first + count - 1 of its update pages to their consumers; returns when they have all been
  // written (`mailbox`: the options'). One application core of a node asks at a time.
  static void request_push(MemoryPort& mem, Addr mailbox, uint32_t first, uint32_t count);

  // Handles what one look at the dispatch register (and, with a separate NI, at the NI, and at
  // the mailbox) finds; whether it found anything.
  bool step();
  // Runs step() until `stop()` holds (checked between looks).
  void serve(const std::function<bool()>& stop);

  const StacheStats& stats() const { return stats_; }
  std::function<void(StacheStep, uint32_t block)> on_step;  // called at each step, if set

 private:
  enum Msg : uint16_t {
    kGetS = 0, kGetX, kInv, kDown, kInvAck, kDownAck, kDataS, kDataX, kUpd, kUpdAck, kMoved,
    kPage, kNum
  };
  enum DirState : unsigned { kHome = 0, kShared = 1, kExcl = 2 };
  struct Dir {  // one directory word (docs/dsm.md, "Directory")
    unsigned state = kHome, owner = 0, requester = 0, acks = 0;
    bool busy = false, excl = false;
    uint32_t sharers = 0;
  };
  struct Req {
    unsigned from;
    bool excl;
  };

  // A block's data as a message brought it: bytes (the CNI engine's), or in the tag store's
  // receive queue (its network interface's: used once, by the command that acknowledges it).
  struct Data {
    std::span<const uint8_t> bytes;
    bool rx = false;
    bool present() const { return rx || !bytes.empty(); }
  };

  void fault(const Fault& f);
  void message(Msg type, unsigned src, std::span<const uint8_t> data);  // the CNI engine's
  void ni_message(const Fault& e);  // the tag store's network interface's
  void handle(Msg type, unsigned src, uint32_t b, const Data& data);
  // The home's side.
  void request(uint32_t b, unsigned from, bool excl);
  void finish(uint32_t b, Dir& d, const Data& data);
  // The home's copy (read-only or read-write here) to `to`, which becomes a sharer.
  void share(uint32_t b, Dir& d, unsigned to);
  void ack(uint32_t b, unsigned from, const Data& data);
  void push(uint32_t first, uint32_t count);     // the home: updates to every consumer
  void take_updates(unsigned src, std::span<const uint8_t> d);  // a consumer
  // First touch: the first request for an unplaced page places it at the requester.
  void place(uint32_t b, unsigned from);
  void take_page(std::span<const uint8_t> d);  // the page's new home: its blocks, ReadWrite
  void ask(uint32_t b, bool excl);             // a request to the block's home (or served here)
  // The block's data at this node, read by the engine (TagStore::read).
  std::vector<uint8_t> read_block(uint32_t b);
  void send(unsigned dst, Msg type, uint32_t b, std::span<const uint8_t> data = {});
  // The block's data at this node sent (send_take: the tag first lowered to `to`, every host copy
  // it does not allow taken back), or a
  // message's data passed on, or written, or filled: through the network interface's commands
  // or the CNI engine's messages.
  void send_block(unsigned dst, Msg type, uint32_t b);
  void send_take(unsigned dst, Msg type, uint32_t b, Tag to);
  void forward(unsigned dst, Msg type, uint32_t b, const Data& d);
  void write_from(uint32_t b, const Data& d);
  void fill_from(uint32_t b, const Data& d, Tag t);
  uint8_t handler_byte(Msg type) const { return uint8_t(opt_.handler_base + type); }
  void set_tag(uint32_t b, Tag t, bool resume = false);
  void mark(StacheStep s, uint32_t b) {
    if (on_step) on_step(s, b);
  }
  Dir load_dir(uint32_t b);
  void store_dir(uint32_t b, const Dir& d);

  MemoryPort& mem_;
  TagStore& ts_;
  CniEndpoint& ni_;
  StacheOptions opt_;
  unsigned node_, nodes_, lb_;
  std::vector<Tag> tag_;                  // this node's tags, as last set
  std::vector<std::deque<Req>> waiting_;  // the home: requests behind a busy block
  std::vector<std::vector<uint8_t>> saved_;  // the home: the owner's data, until the grant
  std::vector<PageProtocol> protocol_;       // per page
  std::vector<uint8_t> home_;                // per page: its home as this node knows it
  std::vector<bool> placed_;                 // per page: no longer waiting for its first touch
  uint64_t push_seq_ = 0;                    // the last push request served
  unsigned push_acks_ = 0;                   // consumers still to answer the push
  bool rx_unused_ = false;  // the dispatched message's data not yet taken by a command
  StacheStats stats_;
};

}  // namespace cni::drv
