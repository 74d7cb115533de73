// SPDX-License-Identifier: Apache-2.0
// The tag store's constants and the rules that map tags onto the home agent's policies and
// grants (docs/tagstore.md): shared by the engine (cni_ts_engine) and its command decision
// (cni_ts_decide).
`ifndef CNI_TS_PKG_SV
`define CNI_TS_PKG_SV
`default_nettype none

// A package's constants serve many modules; any one module uses only some of them.
/* verilator lint_off UNUSEDPARAM */
package cni_ts_pkg;
  // tags
  localparam logic [1:0] TAG_I = 2'd0, TAG_RO = 2'd1, TAG_RW = 2'd2;
  // handler commands (CMD's op)
  localparam logic [3:0] OP_READ = 4'd1, OP_WRITE = 4'd2, OP_SET_TAG = 4'd3, OP_RESUME = 4'd4,
                         OP_NACK = 4'd5, OP_GET_TAG = 4'd6, OP_FILL = 4'd7, OP_SEND = 4'd8;
  // refusal causes (STATUS)
  localparam logic [3:0] CA_FULL = 4'd1, CA_BAD_OP = 4'd2, CA_BAD_BLOCK = 4'd3, CA_BAD_TAG = 4'd4,
                         CA_NOTHING = 4'd5, CA_BAD_RESUME = 4'd6, CA_BAD_FILL = 4'd7,
                         CA_BAD_MODE = 4'd8, CA_BAD_DST = 4'd9, CA_NO_RX = 4'd10;
  // dispatch modes (MODE)
  localparam logic [1:0] MODE_STATUS = 2'd0, MODE_LINE = 2'd1, MODE_BLOCK = 2'd2;

  // The home agent's policy that enforces tag t.
  function automatic logic [cni_coh_pkg::POL_W-1:0] pol_of(input logic [1:0] t);
    pol_of = t == TAG_I ? cni_coh_pkg::POL_PARK : t == TAG_RO ? cni_coh_pkg::POL_SHARED
                                                              : cni_coh_pkg::POL_ALLOW;
  endfunction
  // Whether tag t allows an access (w: a write: RdX or Upg).
  function automatic logic permits(input logic [1:0] t, input logic w);
    permits = t == TAG_RW || (t == TAG_RO && !w);
  endfunction
  // The grant that answers a suspended request under tag t: ReadOnly's is shared only (an RdS
  // gets DataS; a write parked in its place, after the faulting read's park timer ran out, is
  // answered Retry and faults again), ReadWrite's the state tables'.
  function automatic logic [cni_coh_pkg::ARG_W-1:0] gnt_of(input logic [1:0] t);
    gnt_of = t == TAG_RO ? cni_coh_pkg::GNT_SO : cni_coh_pkg::GNT_AUTO;
  endfunction

  // A job's steps, run in this order by the engine's sequencer (docs/tagstore.md, "State
  // table"): the buffer line into the line buffer, a direct memory write, the tag word, POLICY, a
  // recall (RECALL_DN if rec_dn; then a read into the buffer if rd, or a locked write if lockw),
  // the answer (RESUME or NACK), a message sent (SEND).
  typedef struct packed {
    logic ld, wdir, tag, pol, rec, rec_dn, rd, lockw, ans, wbl, snd;
  } steps_t;
endpackage
/* verilator lint_on UNUSEDPARAM */

`endif
