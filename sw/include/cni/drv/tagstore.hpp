// SPDX-License-Identifier: Apache-2.0
// Driver of the tag store engine (docs/tagstore.md): the handler side of seed 001's fine-grain
// access control. A protocol core polls the dispatch register for access faults (in any of the
// engine's three dispatch modes) and answers them with the engine's handler commands (fill the
// block, set its tag, resume or refuse the suspended access), all through the engine's region:
// its register page (8-byte uncached accesses) and its dispatch line (cached loads). Written
// against MemoryPort like every driver.
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "cni/drv/mem.hpp"

namespace cni::drv {

enum class Tag : uint8_t { Invalid = 0, ReadOnly = 1, ReadWrite = 2 };
enum class DispatchMode : uint8_t {
  StatusBit = 0,  // the event in uncached registers: every poll is a round trip to the device
  Line = 1,       // the cachable dispatch line (Typhoon-1): polls hit until the line changes
  Blocking = 2,   // the dispatch line's read waits in the device until an event (Typhoon)
};

// An event as the dispatch register holds it: an access fault, or (`message`) message arrivals
// from the CNI engine beside the tag store, or (`ni`) a message of the engine's own network
// interface (docs/tagstore.md, "Dispatch register", "The integrated network interface").
struct Fault {
  uint32_t seq = 0;       // events dispatched since reset, this one included
  bool message = false;   // a message event (kind 1): arrivals (`block` counts them), or `ni`
  bool ni = false;        // a message of the network interface: src_node, msg_handler, block
  unsigned src_node = 0;  // ... its source node
  uint8_t msg_handler = 0;  // ... its handler byte
  bool write = false;       // the access was RdX or Upg (a message of the interface: it has data)
  Tag tag = Tag::Invalid; // the block's tag when it faulted
  unsigned handler = 0;   // {kind, write, tag}: an index into a table of 16 handlers
  unsigned requester = 0; // the requester's agent id
  unsigned opcode = 0;    // the request's opcode
  uint32_t block = 0;     // the block's index in the protected region (a message's block)
  uint32_t offset = 0;    // the block's byte offset from the device's base address
};

class TagStore {
 public:
  // `region` is the host address of the engine's region (its register page). Reads the
  // engine's geometry; std::runtime_error when the region holds no tag store.
  TagStore(MemoryPort& mem, Addr region);

  uint32_t blocks() const { return blocks_; }
  Addr block_addr(uint32_t b) const;
  Addr dispatch_line() const { return region_ + uint64_t(first_ - 2) * lb_; }
  Addr buffer_line() const { return region_ + uint64_t(first_ - 1) * lb_; }

  // How fill() and write() hand the block's data to the engine, and read() takes it: through the
  // engine's buffer line (cached stores, or a cached load, of one line: the engine recalls the
  // line and reads or writes it), or through its line buffer registers (8-byte uncached stores
  // or loads, one round trip each).
  enum class DataPath : uint8_t { BufferLine, Registers };
  // Both ways; set_read_path() then sets read()'s alone.
  void set_data_path(DataPath p) { path_ = read_path_ = p; }
  void set_read_path(DataPath p) { read_path_ = p; }

  // The dispatch mode (the engine's MODE register; taken back from every host on a change).
  void set_mode(DispatchMode m);
  DispatchMode mode() const { return mode_; }
  // One look at the dispatch register: the next fault not yet returned, if there is one. In
  // Blocking mode the look itself may wait in the device for one.
  std::optional<Fault> poll();
  // Polls until a fault comes (`pause_ns` between looks that find none).
  Fault wait(uint64_t pause_ns = 0);
  // Frees the dispatch register for the next fault (the handler commands can do it too: `ack`).
  void ack(const Fault& f);

  // Handler commands, queued in the engine and run in order (their effects follow one another
  // as issued). A command the engine refuses is counted in refused(). The driver never
  // overfills the queue: with as many commands issued as it holds since it was last seen empty,
  // the next waits for it (sync()).
  // The block's data (a line) written, its tag set, and the suspended access resumed.
  void fill(uint32_t b, std::span<const uint8_t> line, Tag t, bool ack = false);
  // The tag set (a decrease takes back the host copies it no longer allows); resume: then the
  // suspended access is answered as resume() does.
  void set_tag(uint32_t b, Tag t, bool resume = false, bool ack = false);
  // The suspended access answered with the block's data and the grant its tag allows.
  void resume(uint32_t b, bool ack = false);
  // The suspended access answered Error (error) or Retry.
  void nack(uint32_t b, bool error, bool ack = false);
  // The block's data written, or read, bypassing its tag (coherently: host copies are taken
  // back as the access needs; `invalidate`: the read takes every copy, read-invalidate).
  void write(uint32_t b, std::span<const uint8_t> line);
  void read(uint32_t b, std::span<uint8_t> line, bool invalidate = false);
  // The block's tag; whether a fault of it is dispatched and unanswered.
  Tag get_tag(uint32_t b, bool* pending = nullptr);
  // Waits until every queued command has run.
  void sync();

  // Messages of the engine's network interface (docs/tagstore.md, "The integrated network
  // interface"): one frame each, with a handler byte, a block and nothing or one line of data.
  // A message's data: none; the line buffer as the commands before left it (after a read() of
  // the registers data path, a write_rx() or a send with Rx); the dispatched message's (Rx: the
  // command copies it into the line buffer first).
  enum class Payload : uint8_t { None, Buffer, Rx };
  void send(unsigned dst, uint8_t handler, uint32_t b, Payload p = Payload::None, bool ack = false);
  // With `line` (one line) as its data, handed over through the data path.
  void send(unsigned dst, uint8_t handler, uint32_t b, std::span<const uint8_t> line);
  // The block's data as of now (a READ: the exclusive holder's dirty copy written back first;
  // `invalidate`: every copy taken), then sent; its data never reaches this core.
  void send_block(unsigned dst, uint8_t handler, uint32_t b, bool invalidate = false);
  // fill() and write() with the dispatched message's data (the event is acknowledged by them
  // unless `ack` is false: an acknowledgement would drop the message's data from the queue, so
  // a handler that uses it acknowledges with the command that does). A command the engine
  // refuses acknowledges nothing: the message stays dispatched until ack(). And while a message
  // of the interface is dispatched, any command's `ack` flag acknowledges it, whatever its block.
  void fill_rx(uint32_t b, Tag t, bool ack = true);
  void write_rx(uint32_t b, bool ack = true);
  struct NiCounters {
    uint32_t sent = 0, received = 0, bad = 0;
  };
  NiCounters ni_counters();
  // Commands refused so far, and the cause of the last (docs/tagstore.md, "Handler operations").
  uint32_t refused();
  unsigned last_cause();

 private:
  void check_block(uint32_t b) const;  // std::out_of_range past the region
  uint64_t reg(unsigned off);
  void set_reg(unsigned off, uint64_t v);
  void command(unsigned op, uint32_t b, unsigned tag, bool flag, bool ack, bool from_line = false,
               uint32_t extra = 0);
  // Puts the data where the next WRITE or FILL takes it from; returns the command's line flag.
  bool put_buffer(std::span<const uint8_t> line);
  static Fault decode(uint64_t w0, uint64_t w1);

  MemoryPort& mem_;
  Addr region_;
  unsigned lb_;
  uint32_t blocks_ = 0;
  uint32_t first_ = 0;   // the register page's lines + 2: the dispatch line is first_ - 2
  uint32_t block0_ = 0;  // block 0's line from the region's first (BLOCK_LINE)
  DispatchMode mode_ = DispatchMode::Line;
  uint32_t last_seq_ = 0;
  DataPath path_ = DataPath::BufferLine;       // fill() and write()
  DataPath read_path_ = DataPath::BufferLine;  // read()
  bool buf_queued_ = false;  // a queued command reads the line buffer or the buffer line
  unsigned depth_ = 1;       // commands the engine's queue holds (CMD_DEPTH)
  unsigned queued_ = 0;      // commands issued since the queue was last seen empty
};

}  // namespace cni::drv
