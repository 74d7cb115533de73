// SPDX-License-Identifier: Apache-2.0
// The CNI cache/queue engine's constants (docs/cni.md): configuration codes, the region layout,
// register offsets, counter numbers and the network frame types it owns. The C++ mirrors: the
// counter numbers are the driver's cni::drv::CniCounter (sw/include/cni/drv/cni.hpp), the
// register offsets the engine harness's namespace reg (tests/cni/cq_harness.hpp).
`ifndef CNI_CQ_PKG_SV
`define CNI_CQ_PKG_SV
`default_nettype none

// A package's constants serve many modules; any one module uses only some of them.
/* verilator lint_off UNUSEDPARAM */
package cni_cq_pkg;

  // ---- configurations (docs/cni.md section 1): the engine registry's CniConfig values
  // (rtl/engines.toml), and the engine's frame types, from the generated include --------------
`include "cni_engine_cni_consts.svh"
  localparam int CFG_NI2W    = CNI_CONFIG_NI2W;     // uncached registers over hardware queues
  localparam int CFG_CNI4    = CNI_CONFIG_CNI4;     // cachable device registers (CDRs)
  localparam int CFG_CNI16Q  = CNI_CONFIG_CNI16Q;   // cachable queues homed on the device, 16 lines
  localparam int CFG_CNI512Q = CNI_CONFIG_CNI512Q;  // the same, 512 lines each
  localparam int CFG_CNI16QM = CNI_CONFIG_CNI16QM;  // receive queue in host memory
  localparam int CFG_NONE    = CNI_CONFIG_NONE;     // no engine (a region of 0 lines)

  // Whether configuration c is built by this release of the engine.
  function automatic bit built(input int c);
    built = c == CFG_NI2W || c == CFG_CNI4 || c == CFG_CNI16Q || c == CFG_CNI512Q ||
            c == CFG_CNI16QM;
  endfunction

  function automatic bit is_cq(input int c);
    is_cq = c == CFG_CNI16Q || c == CFG_CNI512Q || c == CFG_CNI16QM;
  endfunction

  // ---- messages -----------------------------------------------------------------------------
  localparam int MSG_BYTES = 256;  // a network message, a queue slot (000 section 4.1)
  localparam int HDR_BYTES = 12;   // its header, in a slot as on the network
  localparam int MAX_LEN   = MSG_BYTES - HDR_BYTES;  // 244 payload bytes
  localparam int REG_PAGE  = 256;  // the register window, bytes

  // Default queue sizes in bytes (000 counts 64-byte blocks; the bytes are kept at 128).
  function automatic int sq_bytes(input int c);
    sq_bytes = (c == CFG_CNI512Q) ? 512 * 64 : 16 * 64;
  endfunction
  function automatic int rq_bytes(input int c);
    rq_bytes = (c == CFG_CNI16Q) ? 16 * 64 : 512 * 64;
  endfunction

  // A message header written by software, checked the same way by every front end: [0] the
  // endpoint is closed, [1] len above MAX_LEN, [2] the destination is not below nodes (the
  // CTRL value) or max_nodes. A destination equal to this node is good: cni_cq_net delivers it
  // locally.
  function automatic logic [2:0] hdr_check(input logic [15:0] len, input logic [15:0] dst,
                                           input logic open, input logic [7:0] nodes,
                                           input int max_nodes);
    hdr_check = {32'(dst) >= 32'(nodes) || 32'(dst) >= 32'(max_nodes),
                 32'(len) > 32'(MAX_LEN), !open};
  endfunction

  // ---- region layout (docs/cni.md section 3) ------------------------------------------------
  // Line offsets within the region: the register page, then (CQ) SQ_TAIL, SQ_HEAD, RQ_HEAD, the
  // SQ slots and the device-homed RQ slots.
  function automatic int reg_lines(input int lb);
    reg_lines = REG_PAGE / lb;
  endfunction
  function automatic int off_sq_tail(input int lb);
    off_sq_tail = reg_lines(lb);
  endfunction
  function automatic int off_sq_head(input int lb);
    off_sq_head = reg_lines(lb) + 1;
  endfunction
  function automatic int off_rq_head(input int lb);
    off_rq_head = reg_lines(lb) + 2;
  endfunction
  function automatic int off_sq(input int lb);
    off_sq = reg_lines(lb) + 3;
  endfunction
  function automatic int off_rq(input int lb, input int sq_lines);
    off_rq = reg_lines(lb) + 3 + sq_lines;
  endfunction

  // CNI4: the TX CDRs T0..T(B-1), then the RX CDRs R0..R(B-1), after the register page.
  function automatic int off_tcdr(input int lb);
    off_tcdr = reg_lines(lb);
  endfunction
  function automatic int off_rcdr(input int lb);
    off_rcdr = reg_lines(lb) + MSG_BYTES / lb;
  endfunction

  // Lines of the engine's region for configuration c at lb-byte lines. CNI16Qm's receive queue
  // (rq_lines) is in host memory at RQ_BASE, its RQ_HEAD too: the device line at off_rq_head
  // stays unused, so one layout serves every queue configuration.
  function automatic int region_lines(input int c, input int lb, input int sq_lines,
                                      input int rq_lines);
    if (c == CFG_NONE) region_lines = 0;
    else if (c == CFG_NI2W) region_lines = reg_lines(lb);
    else if (c == CFG_CNI4) region_lines = reg_lines(lb) + 2 * (MSG_BYTES / lb);
    else if (c == CFG_CNI16QM) region_lines = off_rq(lb, sq_lines);
    else region_lines = off_rq(lb, sq_lines) + rq_lines;
  endfunction
  // ... with the configuration's own queue sizes (the endpoint's CniSqLines/CniRqLines defaults)

  // ---- registers: window byte offsets R_ID, R_CTRL, ... R_CNT (counter i at R_CNT + 4i), from the
  // engine's SystemRDL description (rtl/cni/cni_cq.rdl) in the included cni_engine_cni_consts.svh;
  // 8-byte registers, written low word then high word, the write taking effect with the high word.

  // ---- counters -----------------------------------------------------------------------------
  localparam int C_TX_MSGS    = 0;   // messages taken from the send side
  localparam int C_TX_FRAMES  = 1;   // data frames sent
  localparam int C_RX_FRAMES  = 2;   // data frames accepted
  localparam int C_ACKS_TX    = 3;   // acks sent
  localparam int C_ACKS_RX    = 4;   // acks received (that moved the window)
  localparam int C_RETX       = 5;   // data frames retransmitted (Retransmit)
  localparam int C_TX_CLOSED  = 6;   // a send while closed
  localparam int C_TX_BAD_LEN = 7;   // length above MAX_LEN, or a message cut short (NI2w)
  localparam int C_TX_BAD_DST = 8;   // destination not below NODES
  localparam int C_TX_BAD_SNS = 9;   // CQ slot whose valid bit has the wrong sense
  localparam int C_TX_OVERRUN = 10;  // more messages made ready than the queue holds; NI2w: no room
  localparam int C_TX_STRAY   = 11;  // a write to a register of another configuration, or data
                                     // with no message started
  localparam int C_TX_EARLY   = 12;  // CNI4: a TX CDR ownership request while its message is
                                     // being checked or copied (its RESUME is held)
  localparam int C_RX_BAD_FCS = 13;  // frame whose FCS check failed (or longer than a message)
  localparam int C_RX_BAD     = 14;  // malformed frame, or an RQ_HEAD value past the tail
  localparam int C_RX_DUP     = 15;  // duplicate data frame
  localparam int C_RX_SEQ     = 16;  // data frame ahead of the one expected, dropped (Retransmit)
  localparam int C_RX_GAP     = 17;  // frames skipped by a sequence gap (lost frames)
  localparam int C_RX_CLOSED  = 18;  // data frame dropped while closed
  localparam int C_RX_STRAY   = 19;  // a read of RX_DATA with no message
  localparam int C_ACK_STALE  = 20;  // ack outside the window
  localparam int C_PULLS      = 21;  // pulls of send lines (RECALL_DN)
  localparam int C_EARLY      = 22;  // early pulls (EarlyPull)
  localparam int C_REFRESHES  = 24;  // shadow-head refreshes
  localparam int C_LOCAL      = 25;  // messages to this node, delivered without the network
  localparam int C_WIN_WAITS  = 26;  // messages that waited for the window
  localparam int C_ROOM_WAITS = 27;  // frames that waited for receive room
  localparam int C_RQ_ERR     = 28;  // CNI16Qm: the host home answered a queue access Error
  localparam int C_LOCKED_WR  = 29;  // locked writes
  localparam int C_VP_OLD     = 30;  // CNI4: a pull of T0 found the valid word not yet written
  localparam int NUM_CNT      = 31;

  // ---- network frame types (the registry's; cni_amap_pkg::net_owner routes them here) -------
  localparam logic [7:0] NET_TYPE_DATA = NET_TYPE_CNI_DATA;
  localparam logic [7:0] NET_TYPE_ACK  = NET_TYPE_CNI_ACK;

endpackage
/* verilator lint_on UNUSEDPARAM */

`endif
