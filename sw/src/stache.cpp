// SPDX-License-Identifier: Apache-2.0
#include "cni/drv/stache.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

namespace cni::drv {
namespace {

uint32_t bit(unsigned node) { return uint32_t{1} << node; }

bool permits(Tag t, bool write) {
  return t == Tag::ReadWrite || (t == Tag::ReadOnly && !write);
}

std::logic_error protocol_error(const std::string& what, uint32_t b, unsigned node) {
  return std::logic_error("Stache: node " + std::to_string(node) + ", block " +
                          std::to_string(b) + ": " + what);
}

}  // namespace

Stache::Stache(MemoryPort& mem, TagStore& ts, CniEndpoint& ni, const StacheOptions& opt)
    : mem_(mem), ts_(ts), ni_(ni), opt_(opt), node_(ni.node()), nodes_(ni.nodes()),
      lb_(mem.line_bytes()) {
  if (nodes_ == 0 || nodes_ > kMaxNodes) {
    throw std::invalid_argument("Stache: " + std::to_string(nodes_) + " nodes (1 to " +
                                std::to_string(kMaxNodes) + ")");
  }
  if (opt_.page_blocks == 0) throw std::invalid_argument("Stache: page_blocks is 0");
  if (opt_.ts_ni && opt_.homes == HomePolicy::FirstTouch) {
    throw std::invalid_argument(
        "Stache: first-touch homes over the tag store's network interface (its messages carry "
        "one block)");
  }
  if (opt_.dir_base % lb_ != 0 || opt_.mailbox % lb_ != 0) {
    throw std::invalid_argument("Stache: the directory's base or the mailbox is not line aligned");
  }
  ts_.set_data_path(opt_.data_path);
  ts_.set_read_path(opt_.read_path);
  tag_.assign(ts_.blocks(), Tag::ReadWrite);  // the engine's tags after reset
  waiting_.resize(ts_.blocks());
  saved_.resize(ts_.blocks());
  const uint32_t pages = (ts_.blocks() + opt_.page_blocks - 1) / opt_.page_blocks;
  protocol_.assign(pages, PageProtocol::Standard);
  for (uint32_t pg = 0; pg < pages; ++pg) home_.push_back(uint8_t(pg % nodes_));
  placed_.assign(pages, opt_.homes == HomePolicy::RoundRobin);
  for (uint16_t m = 0; m < kNum; ++m) {
    ni_.set_handler(uint16_t(opt_.handler_base + m),
                    [this, m](uint16_t src, std::span<const uint8_t> d) {
                      message(Msg(m), src, d);
                    });
  }
}

void Stache::init() {
  const bool first_touch = opt_.homes == HomePolicy::FirstTouch;
  for (uint32_t b = 0; b < blocks(); ++b) {
    if (home_of(b) == node_) store_dir(b, Dir{});
    if (first_touch || home_of(b) != node_) set_tag(b, Tag::Invalid);
  }
  if (opt_.mailbox) {
    mem_.store64(opt_.mailbox, 0);
    mem_.store64(opt_.mailbox + lb_, 0);
  }
  ts_.sync();
  mem_.barrier();
}

void Stache::set_protocol(uint32_t page, PageProtocol p) {
  if (page >= protocol_.size()) {
    throw std::out_of_range("Stache: page " + std::to_string(page) + " of " +
                            std::to_string(protocol_.size()));
  }
  if (opt_.homes == HomePolicy::FirstTouch && p != PageProtocol::Standard) {
    throw std::logic_error("Stache: a custom protocol on a page homed by first touch");
  }
  if (opt_.ts_ni && p != PageProtocol::Standard) {
    throw std::logic_error(
        "Stache: a custom protocol over the tag store's network interface (its messages carry "
        "one block)");
  }
  protocol_[page] = p;
}

void Stache::request_push(MemoryPort& mem, Addr mailbox, uint32_t first, uint32_t count) {
  const uint64_t seq = mem.load64(mailbox) + 1;
  mem.store64(mailbox + 8, first);
  mem.store64(mailbox + 16, count);
  mem.store_release64(mailbox, seq);  // after the application's stores of the pages' data
  while (mem.load_acquire64(mailbox + mem.line_bytes()) != seq) mem.pause_ns(50);
}

bool Stache::step() {
  bool found = false;
  if (auto e = ts_.poll()) {
    found = true;
    stats_.events++;
    if (e->ni) {
      stats_.message_events++;
      ni_message(*e);
      return true;
    }
    ts_.ack(*e);  // the dispatch register takes the next event while this one is handled
    if (e->message) {
      stats_.message_events++;
      ni_.poll();
    } else {
      fault(*e);
    }
  }
  if (!opt_.messages_in_dispatch && ni_.poll() > 0) found = true;
  if (opt_.mailbox && push_acks_ == 0) {
    const uint64_t req = mem_.load_acquire64(opt_.mailbox);
    if (req != push_seq_) {
      push_seq_ = req;
      push(uint32_t(mem_.load64(opt_.mailbox + 8)), uint32_t(mem_.load64(opt_.mailbox + 16)));
      found = true;
    }
  }
  return found;
}

void Stache::serve(const std::function<bool()>& stop) {
  while (!stop()) {
    if (!step() && opt_.idle_pause_ns) mem_.pause_ns(opt_.idle_pause_ns);
  }
}

void Stache::fault(const Fault& f) {
  const uint32_t b = f.block;
  stats_.faults++;
  mark(StacheStep::FaultTaken, b);
  ask(b, f.write);
  mark(StacheStep::RequestSent, b);
}

void Stache::ask(uint32_t b, bool excl) {
  const unsigned home = home_of(b);
  if (home == node_) {
    request(b, node_, excl);
  } else {
    send(home, excl ? kGetX : kGetS, b);
    stats_.requests_sent++;
  }
}

void Stache::message(Msg type, unsigned src, std::span<const uint8_t> d) {
  if (type == kUpd) {
    take_updates(src, d);
    return;
  }
  if (type == kUpdAck) {
    if (push_acks_ == 0) {
      throw protocol_error("an update acknowledgement nobody waits for", 0, node_);
    }
    if (--push_acks_ == 0) mem_.store_release64(opt_.mailbox + lb_, push_seq_);
    return;
  }
  if (type == kPage) {
    take_page(d);
    return;
  }
  if (d.size() < 4) throw protocol_error("a message without a block", 0, node_);
  uint32_t b;
  std::memcpy(&b, d.data(), 4);
  if (b >= blocks()) throw protocol_error("a message for a block outside the region", b, node_);
  if (type == kMoved) {  // first touch: the page has a new home; ask it
    if (d.size() != 6 || d[4] >= nodes_) throw protocol_error("a torn redirection", b, node_);
    home_[b / opt_.page_blocks] = d[4];
    ask(b, d[5] != 0);
    return;
  }
  const std::span<const uint8_t> line = d.subspan(4);
  if (!line.empty() && line.size() != lb_) throw protocol_error("a partial block", b, node_);
  handle(type, src, b, Data{line});
}

// A message of the tag store's network interface: its data, if it has any, stays in the
// engine's receive queue until the command that takes it (and acknowledges the event); one
// without data is acknowledged at once.
void Stache::ni_message(const Fault& e) {
  const unsigned t = uint8_t(e.msg_handler - uint8_t(opt_.handler_base));
  rx_unused_ = e.write;
  if (!e.write) ts_.ack(e);
  if (t > kDataX || e.block >= blocks() || e.src_node >= nodes_) {
    throw protocol_error("a message of the network interface of type " + std::to_string(t) +
                             " from node " + std::to_string(e.src_node),
                         e.block, node_);
  }
  handle(Msg(t), e.src_node, e.block, Data{{}, e.write});
  if (rx_unused_) ts_.ack(e);
  rx_unused_ = false;
}

void Stache::handle(Msg type, unsigned src, uint32_t b, const Data& data) {
  switch (type) {
    case kGetS:
    case kGetX:
      mark(StacheStep::RequestAtHome, b);
      request(b, src, type == kGetX);
      break;
    case kInv:  // a sharer or the owner: give the block up (the owner with its data)
      if (tag_[b] == Tag::ReadWrite) {
        send_take(src, kInvAck, b, Tag::Invalid);
      } else {
        set_tag(b, Tag::Invalid);
        send(src, kInvAck, b);
      }
      break;
    case kDown:  // the owner: keep a read-only copy, send the data
      send_take(src, kDownAck, b, Tag::ReadOnly);
      break;
    case kInvAck:
    case kDownAck:
      ack(b, src, data);
      break;
    case kDataS:
    case kDataX: {
      mark(StacheStep::ReplyAtRequester, b);
      const Tag t = type == kDataS ? Tag::ReadOnly : Tag::ReadWrite;
      if (!data.present()) {  // an upgrade of the read-only copy this node holds
        set_tag(b, t, true);
      } else {
        fill_from(b, data, t);
      }
      mark(StacheStep::Filled, b);
      break;
    }
    default:
      throw protocol_error("an unknown message", b, node_);
  }
}

void Stache::request(uint32_t b, unsigned from, bool excl) {
  const uint32_t pg = b / opt_.page_blocks;
  if (home_[pg] != node_) {
    // first touch: the page moved away (or is on its way here); the requester asks the home
    // this node knows of
    if (opt_.homes != HomePolicy::FirstTouch || from == node_) {
      throw protocol_error("a request for a block homed elsewhere", b, node_);
    }
    const uint8_t where[2] = {home_[pg], uint8_t(excl)};
    send(from, kMoved, b, where);
    stats_.redirects++;
    return;
  }
  if (!placed_[pg]) {
    place(b, from);  // either access: the new home holds every block ReadWrite
    return;
  }
  Dir d = load_dir(b);
  if (d.busy) {
    waiting_[b].push_back({from, excl});
    stats_.requests_deferred++;
    return;
  }
  stats_.requests_served++;
  if (from == node_ && permits(tag_[b], excl)) {
    return;  // a fault of this node the tag's raise already answered (the engine resumes it)
  }
  if (protocol_[b / opt_.page_blocks] == PageProtocol::Update) {
    // the home keeps writing its copy; a reader becomes a consumer of the pushes
    if (excl || from == node_) {
      throw protocol_error("a write to an update page away from its home", b, node_);
    }
    share(b, d, from);
    return;
  }
  switch (d.state) {
    case kHome:  // only the home holds the block, ReadWrite
      if (excl) {
        send_take(from, kDataX, b, Tag::Invalid);
        d.state = kExcl;
        d.owner = from;
      } else {
        send_take(from, kDataS, b, Tag::ReadOnly);
        d.state = kShared;
        d.sharers = bit(from);
      }
      stats_.replies_with_data++;
      store_dir(b, d);
      mark(StacheStep::ReplySent, b);
      return;
    case kShared:
      if (!excl) {
        share(b, d, from);
        return;
      }
      d.busy = true;
      d.excl = true;
      d.requester = from;
      d.acks = 0;
      for (unsigned n = 0; n < nodes_; ++n) {
        if (n != from && (d.sharers & bit(n))) {
          send(n, kInv, b);
          stats_.invalidations++;
          d.acks++;
        }
      }
      break;
    case kExcl:
      if (d.owner == from) throw protocol_error("a request from the block's owner", b, node_);
      d.busy = true;
      d.excl = excl;
      d.requester = from;
      d.acks = 1;
      send(d.owner, excl ? kInv : kDown, b);
      (excl ? stats_.invalidations : stats_.downgrades)++;
      break;
    default:
      throw protocol_error("a directory word in no state", b, node_);
  }
  if (d.acks == 0) {
    finish(b, d, {});
  } else {
    store_dir(b, d);
  }
}

// First touch: no node holds a copy of an unplaced page (every tag Invalid, this node's too),
// so it moves whole: here, by raising this node's tags (the raise answers the pending access),
// or to the requester with its data. Requests that reach this node later are redirected.
void Stache::place(uint32_t b, unsigned from) {
  const uint32_t pg = b / opt_.page_blocks, first = pg * opt_.page_blocks;
  const uint32_t last = std::min<uint32_t>(first + opt_.page_blocks, blocks());
  placed_[pg] = true;
  stats_.pages_placed++;
  if (from == node_) {
    for (uint32_t k = first; k < last; ++k) set_tag(k, Tag::ReadWrite);
    mark(StacheStep::ReplySent, b);
    return;
  }
  std::vector<uint8_t> m(4 + size_t(last - first) * lb_);
  std::memcpy(m.data(), &first, 4);
  for (uint32_t k = first; k < last; ++k) {
    const std::vector<uint8_t> line = read_block(k);
    std::memcpy(m.data() + 4 + size_t(k - first) * lb_, line.data(), lb_);
  }
  home_[pg] = uint8_t(from);
  ni_.send(uint16_t(from), uint16_t(opt_.handler_base + kPage), m);
  mark(StacheStep::ReplySent, b);
}

void Stache::take_page(std::span<const uint8_t> d) {
  uint32_t first = 0;
  if (d.size() >= 4) std::memcpy(&first, d.data(), 4);
  const uint32_t pg = first / opt_.page_blocks;
  const uint32_t last = std::min<uint32_t>(first + opt_.page_blocks, blocks());
  if (d.size() < 4 || first >= blocks() || first % opt_.page_blocks != 0 ||
      d.size() != 4 + size_t(last - first) * lb_ || placed_[pg]) {
    throw protocol_error("a torn or unexpected page", first, node_);
  }
  mark(StacheStep::ReplyAtRequester, first);
  for (uint32_t k = first; k < last; ++k) {
    ts_.write(k, d.subspan(4 + size_t(k - first) * lb_, lb_));
    store_dir(k, Dir{});
  }
  // then the tags (the engine runs its commands in order): the raises answer this node's
  // pending accesses of the page
  for (uint32_t k = first; k < last; ++k) set_tag(k, Tag::ReadWrite);
  home_[pg] = uint8_t(node_);
  placed_[pg] = true;
  stats_.pages_moved_in++;
  mark(StacheStep::Filled, first);
}

void Stache::share(uint32_t b, Dir& d, unsigned to) {
  send_block(to, kDataS, b);
  stats_.replies_with_data++;
  d.sharers |= bit(to);
  store_dir(b, d);
  mark(StacheStep::ReplySent, b);
}

void Stache::ack(uint32_t b, unsigned from, const Data& data) {
  Dir d = load_dir(b);
  if (!d.busy || d.acks == 0) throw protocol_error("an acknowledgement nobody waits for", b, node_);
  if (d.state == kExcl && from != d.owner) {
    throw protocol_error("an acknowledgement from a node that is not the owner", b, node_);
  }
  // (only an owner answers with data, and it is the one acknowledgement awaited: the data in
  // the network interface's queue is taken by the grant that follows at once)
  if (data.rx && d.acks != 1)
    throw protocol_error("data before the last acknowledgement", b, node_);
  if (!data.bytes.empty()) saved_[b].assign(data.bytes.begin(), data.bytes.end());
  if (--d.acks == 0) {
    finish(b, d, data.rx ? data : Data{saved_[b]});
  } else {
    store_dir(b, d);
  }
}

// Every copy the request conflicts with is gone (and the owner's data is in `data`): the home
// grants the request.
void Stache::finish(uint32_t b, Dir& d, const Data& data) {
  const unsigned r = d.requester;
  if (d.state == kShared) {  // an exclusive request; the other sharers are invalidated
    if (r == node_) {
      set_tag(b, Tag::ReadWrite, true);
      d.state = kHome;
    } else {
      if (d.sharers & bit(r)) {  // its read-only copy is current: the grant needs no data
        set_tag(b, Tag::Invalid);
        send(r, kDataX, b);
        stats_.upgrades++;
      } else {
        send_take(r, kDataX, b, Tag::Invalid);
        stats_.replies_with_data++;
      }
      d.state = kExcl;
      d.owner = r;
    }
    d.sharers = 0;
  } else {  // the owner's data
    if (!data.present()) throw protocol_error("the owner's answer carries no data", b, node_);
    const unsigned old = d.owner;
    if (!d.excl) {  // downgraded: the old owner keeps a read-only copy
      if (r == node_) {
        fill_from(b, data, Tag::ReadOnly);
        d.sharers = bit(old);
      } else {
        write_from(b, data);
        set_tag(b, Tag::ReadOnly);
        if (data.rx) {
          ts_.send(r, handler_byte(kDataS), b, TagStore::Payload::Buffer);  // what was written
        } else {
          send(r, kDataS, b, data.bytes);
        }
        d.sharers = bit(old) | bit(r);
      }
      d.state = kShared;
    } else if (r == node_) {
      fill_from(b, data, Tag::ReadWrite);
      d.state = kHome;
    } else {  // ownership passes on; the home's copy stays Invalid
      forward(r, kDataX, b, data);
      d.owner = r;
    }
    if (r != node_) stats_.replies_with_data++;
  }
  d.busy = false;
  d.acks = 0;
  store_dir(b, d);
  saved_[b].clear();
  mark(StacheStep::ReplySent, b);
  while (!waiting_[b].empty() && !load_dir(b).busy) {
    const Req q = waiting_[b].front();
    waiting_[b].pop_front();
    request(b, q.from, q.excl);
  }
}

void Stache::push(uint32_t first, uint32_t count) {
  stats_.pushes++;
  std::vector<std::vector<uint8_t>> out(nodes_);  // per consumer: (block, data) entries
  for (uint32_t b = first; b < blocks() && b - first < count; ++b) {
    if (home_of(b) != node_ || protocol_[b / opt_.page_blocks] != PageProtocol::Update) continue;
    const Dir d = load_dir(b);
    if (d.sharers == 0) continue;
    const std::vector<uint8_t> line = read_block(b);
    for (unsigned n = 0; n < nodes_; ++n) {
      if (!(d.sharers & bit(n))) continue;
      const size_t at = out[n].size();
      out[n].resize(at + 4 + lb_);
      std::memcpy(out[n].data() + at, &b, 4);
      std::memcpy(out[n].data() + at + 4, line.data(), lb_);
    }
  }
  for (unsigned n = 0; n < nodes_; ++n) {
    if (out[n].empty()) continue;
    push_acks_++;
    stats_.update_messages++;
    ni_.send(uint16_t(n), uint16_t(opt_.handler_base + kUpd), out[n]);
  }
  if (push_acks_ == 0) mem_.store_release64(opt_.mailbox + lb_, push_seq_);
}

void Stache::take_updates(unsigned src, std::span<const uint8_t> d) {
  if (d.empty() || d.size() % (4 + lb_) != 0) throw protocol_error("a torn update", 0, node_);
  for (size_t at = 0; at < d.size(); at += 4 + lb_) {
    uint32_t b;
    std::memcpy(&b, d.data() + at, 4);
    if (b >= blocks() || home_of(b) != src || tag_[b] != Tag::ReadOnly) {
      throw protocol_error("an update of a block this node does not consume from its sender", b,
                           node_);
    }
    ts_.write(b, d.subspan(at + 4, lb_));
    stats_.blocks_updated++;
  }
  ts_.sync();  // written (the host copies taken back first) before the home hears of it
  const uint32_t none = 0;
  ni_.send(uint16_t(src), uint16_t(opt_.handler_base + kUpdAck),
           std::span<const uint8_t>(reinterpret_cast<const uint8_t*>(&none), 4));
}

// Through the engine (READ), never with a load of the block itself: a host access of this node
// parked on the block holds the line, and the handler's own load would be answered Retry until
// the park timer ran out.
std::vector<uint8_t> Stache::read_block(uint32_t b) {
  std::vector<uint8_t> line(lb_);
  ts_.read(b, line);
  return line;
}

void Stache::send(unsigned dst, Msg type, uint32_t b, std::span<const uint8_t> data) {
  if (opt_.ts_ni) {
    if (data.empty()) {
      ts_.send(dst, handler_byte(type), b);
    } else {
      ts_.send(dst, handler_byte(type), b, data);
    }
    return;
  }
  std::vector<uint8_t> m(4 + data.size());
  std::memcpy(m.data(), &b, 4);
  if (!data.empty()) std::memcpy(m.data() + 4, data.data(), data.size());
  ni_.send(uint16_t(dst), uint16_t(opt_.handler_base + type), m);
}

void Stache::send_block(unsigned dst, Msg type, uint32_t b) {
  if (opt_.ts_ni) {
    ts_.send_block(dst, handler_byte(type), b);
  } else {
    send(dst, type, b, read_block(b));
  }
}

void Stache::send_take(unsigned dst, Msg type, uint32_t b, Tag to) {
  set_tag(b, to);
  send_block(dst, type, b);
}

void Stache::forward(unsigned dst, Msg type, uint32_t b, const Data& d) {
  if (d.rx) {
    ts_.send(dst, handler_byte(type), b, TagStore::Payload::Rx, true);
    rx_unused_ = false;
  } else {
    send(dst, type, b, d.bytes);
  }
}

void Stache::write_from(uint32_t b, const Data& d) {
  if (d.rx) {
    ts_.write_rx(b);
    rx_unused_ = false;
  } else {
    ts_.write(b, d.bytes);
  }
}

void Stache::fill_from(uint32_t b, const Data& d, Tag t) {
  if (d.rx) {
    ts_.fill_rx(b, t);
    rx_unused_ = false;
  } else {
    ts_.fill(b, d.bytes, t);
  }
  tag_[b] = t;
}

void Stache::set_tag(uint32_t b, Tag t, bool resume) {
  ts_.set_tag(b, t, resume);
  tag_[b] = t;
}

// The directory word: [1:0] state, [2] busy, [3] the waiting request is exclusive, [15:8] the
// owner, [23:16] the waiting request's node, [31:24] acknowledgements to come, [63:32] sharers.
Stache::Dir Stache::load_dir(uint32_t b) {
  const uint64_t w = mem_.load64(opt_.dir_base + 8 * uint64_t(b));
  Dir d;
  d.state = unsigned(w & 3);
  d.busy = (w >> 2) & 1;
  d.excl = (w >> 3) & 1;
  d.owner = unsigned(w >> 8) & 0xFF;
  d.requester = unsigned(w >> 16) & 0xFF;
  d.acks = unsigned(w >> 24) & 0xFF;
  d.sharers = uint32_t(w >> 32);
  return d;
}

void Stache::store_dir(uint32_t b, const Dir& d) {
  const uint64_t w = uint64_t(d.state) | uint64_t(d.busy) << 2 | uint64_t(d.excl) << 3 |
                     uint64_t(d.owner) << 8 | uint64_t(d.requester) << 16 |
                     uint64_t(d.acks) << 24 | uint64_t(d.sharers) << 32;
  mem_.store64(opt_.dir_base + 8 * uint64_t(b), w);
}

}  // namespace cni::drv
