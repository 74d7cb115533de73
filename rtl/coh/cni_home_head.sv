// SPDX-License-Identifier: Apache-2.0
// One input of the pipelined home agent (Pipelined = 1) with its line interlock precomputed:
// the message at the head, and a flip-flop per pipeline stage saying whether the stage's line is
// the head's line, so the take reads "is my line in flight" from flip-flops instead of comparing
// lines in the cycle it takes (docs/endpoint.md, "Pipeline"). The bits are the compares against
// the stages as they stand after each clock edge: the stages move on at every edge (the
// pipelined home agent never stalls), so the first stage gets the message taken now (from the
// source whose sel_i bit is set, on that source's take_line_i) and every other stage its
// predecessor's line.
// The line is compared with every source's line in parallel and the one-hot selection picks
// the result, so the compare is not behind the home agent's selection multiplexer. The take
// itself comes last: each next state is computed with and without it, and take_i picks one.
// busy_o ("a stage holds the head's line") is a flip-flop as well, worked out the same way for
// the stages after the edge: every stage moves on at every edge and the first gets the message
// taken now, so their valid bits then are st_valid_i shifted by one, with take_i first.
//
//   Buffer = 1: the messages wait in a two-entry FIFO (`cni_fifo`): the head and a spare
//               behind it, so in_ready_o is a flip-flop ("the spare is empty") and the take
//               does not reach back into the producer's pops. A new message is taken the cycle
//               after it arrives, and one every cycle. The head's header comes from a register
//               (the FIFO's OutReg), its low DataW bits (a line of data) from the FIFO's storage,
//               so the take enables none of those bits. The head leaves on pop_i, the take of
//               this input (take_i with sel_i[Src], which the home agent works out per input
//               from flip-flops, so the FIFO's pop is not behind the whole take). The line and
//               the compare bits are kept for the head and the spare, the spare's moving with
//               the stages like the head's.
//   Buffer = 0: the producer holds its message until it is consumed (pop_i: its handshake,
//               which may come long after the take; the home agent's commands); the bits are
//               compared every cycle, and a message counts as at the head from the cycle after
//               it appears: out_valid_o is a flip-flop (the producer keeps its valid up until
//               the handshake, which simulation checks).
//
// Parameters:
//   Width  - message bits (unused with Buffer = 0)
//   LineW  - line index bits
//   Stages - pipeline stages behind the take (R, D, X, B, C: 5)
//   Buffer - see above
//   Srcs   - sources the home agent takes messages from
//   Src    - this input's source (Buffer = 1)
//   DataW  - the message's low bits read from the FIFO's storage (Buffer = 1; 0: none)
//   Every  - the sources whose message counts as on every line (bit j: source j): its line is
//            not compared (the home agent's timeout, whose line is read out of the transaction
//            table: the compare would sit behind that read)
// Ports:
//   in_valid_i/in_ready_o/in_data_i/in_line_i - the producer (in_ready_o: Buffer = 1 only)
//   out_valid_o, out_data_o, out_line_o      - the head (out_data_o: Buffer = 1 only; out_line_o
//                                              a flip-flop with either)
//   busy_o      - a stage holding a message on the head's line (a flip-flop)
//   pop_i       - the head leaves at this edge: Buffer = 0, the producer's handshake; Buffer = 1,
//                 this input's take (take_i && sel_i[Src])
//   take_i      - a message enters the first stage at this edge
//   sel_i       - one-hot (or zero): the source it comes from (the selection)
//   take_line_i - each source's line (source j's at [j * LineW +: LineW])
//   st_valid_i, st_line_i - each stage's valid bit and line (stage k's at [k * LineW +: LineW])
`default_nettype none
`include "cni_assert.svh"

module cni_home_head #(
  parameter int Width  = 8,
  parameter int LineW  = 8,
  parameter int Stages = 5,
  parameter bit Buffer = 1'b1,
  parameter int Srcs   = 4,
  parameter int Src    = 0,
  parameter int DataW  = 0,
  parameter logic [Srcs-1:0] Every = '0
) (
  input  wire logic                         clk_i,
  input  wire logic                         rst_ni,
  input  wire logic                         in_valid_i,
  output logic                              in_ready_o,
  input  wire logic [Width-1:0]             in_data_i,
  input  wire logic [LineW-1:0]             in_line_i,
  output logic                              out_valid_o,
  output logic [Width-1:0]                  out_data_o,
  output logic [LineW-1:0]                  out_line_o,
  output logic                              busy_o,
  input  wire logic                         pop_i,
  input  wire logic                         take_i,
  input  wire logic [Srcs-1:0]              sel_i,
  input  wire logic [Srcs*LineW-1:0]        take_line_i,
  input  wire logic [Stages-1:0]            st_valid_i,
  input  wire logic [Stages*LineW-1:0]      st_line_i
);

  logic [Stages-1:0] mv_q, mv_new;
  logic              busy_q;

  // the selected source's line is `l` (the message entering the first stage, if taken now), or
  // the source is one of `Every`
  function automatic logic sel_on(input logic [LineW-1:0] l, input logic [Srcs-1:0] sel,
                                  input logic [Srcs*LineW-1:0] lines);
    sel_on = 1'b0;
    for (int j = 0; j < Srcs; j++) begin
      sel_on |= sel[j] && (Every[j] || l == lines[j * LineW +: LineW]);
    end
  endfunction

  // The compare bits of a line arriving now (or, Buffer = 0, held now) against the stages after
  // this edge, as if a message is taken (bit 0 counts only with take_i).
  always_comb begin
    for (int k = 0; k < Stages; k++) begin
      mv_new[k] = (k == 0) ? sel_on(in_line_i, sel_i, take_line_i)
                           : in_line_i == st_line_i[(k > 0 ? k - 1 : 0) * LineW +: LineW];
    end
  end
  assign busy_o = busy_q;

  if (Buffer) begin : g_buf
    // The messages: a two-entry FIFO (head and spare), its ready and valid flip-flops, the head's
    // header from a register, the line of data (the low DataW bits) read from the storage, which
    // is written whenever it has room (so the take enables none of the data's bits).
    logic              hd_valid, sp_valid;  // the head, the spare holds a message
    logic [1:0]        count;
    wire               out = sel_i[Src];    // the head leaves if a message is taken now
    cni_fifo #(.Width(Width), .Depth(2), .OutReg(1'b1), .OutRegLo(DataW),
               .OutRegW(Width - DataW)) u_msg (
      .clk_i, .rst_ni,
      .in_valid_i, .in_ready_o, .in_data_i,
      .out_valid_o (hd_valid), .out_ready_i (pop_i), .out_data_o,
      .count_o (count)
    );
    assign sp_valid = count == 2'd2;
    // The lines and the compare bits of head and spare (the spare holds a message only while the
    // head does; the head loads the spare's, else the producer's, as it is taken or empty).
    logic [LineW-1:0]  line_q, sp_line_q;
    logic [Stages-1:0] keep, sp_keep, nx_in, mv_nx1;
    logic [Stages-1:1] mv_nx0;
    // the spare's bits: not for the last stage (the spare reaches the head one edge later at the
    // earliest, and that stage's message has then left)
    logic [Stages-2:0] sp_mv_q;
    wire hd_free = !hd_valid || pop_i;  // the head is empty after this edge
    // a message that stays (the head, the spare): its bits move with the stages (bit 0 as if a
    // message is taken)
    assign keep    = {mv_q[Stages-2:0], sel_on(line_q, sel_i, take_line_i)};
    assign sp_keep = {sp_mv_q[Stages-2:0], sel_on(sp_line_q, sel_i, take_line_i)};
    // the bits of a message moving into the head or staying in the spare: the spare's, else the
    // producer's
    assign nx_in  = sp_valid ? sp_keep : mv_new;
    // the head's bits after this edge with a take (nx1) and without one (nx0)
    assign mv_nx1 = (hd_valid && !out) ? keep : nx_in;
    assign mv_nx0 = hd_valid ? keep[Stages-1:1] : nx_in[Stages-1:1];
    assign out_valid_o = hd_valid;
    assign out_line_o  = line_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        mv_q   <= '0;
        busy_q <= 1'b0;
      end else begin
        mv_q   <= take_i ? mv_nx1 : {mv_nx0, 1'b0};
        busy_q <= take_i ? |(mv_nx1 & {st_valid_i[Stages-2:0], 1'b1})
                         : |(mv_nx0 & st_valid_i[Stages-2:0]);
      end
    end
    always_ff @(posedge clk_i) begin
      if (hd_free) line_q <= sp_valid ? sp_line_q : in_line_i;
      if (!sp_valid) sp_line_q <= in_line_i;
      sp_mv_q <= {nx_in[Stages-2:1], take_i && nx_in[0]};
    end
    `CNI_ASSERT(Pop_A, pop_i == (take_i && out),
                "the input's take disagrees with the take and selection")
  end else begin : g_hold
    // the line is registered as well: the producer holds its message, so while the message is
    // at the head (valid_q) the register holds the line at the port (simulation checks it), and
    // the home agent's compares and line start at a flip-flop, not at the producer's selection
    logic             valid_q;
    logic [LineW-1:0] line_q;
    assign in_ready_o  = 1'b0;
    assign out_valid_o = valid_q;
    assign out_data_o  = '0;
    assign out_line_o  = line_q;
    always_ff @(posedge clk_i) line_q <= in_line_i;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q <= 1'b0;
        mv_q    <= '0;
        busy_q  <= 1'b0;
      end else begin
        valid_q <= in_valid_i && !pop_i;
        mv_q    <= {mv_new[Stages-1:1], take_i && mv_new[0]};
        busy_q  <= |(mv_new[Stages-1:1] & st_valid_i[Stages-2:0]) || (take_i && mv_new[0]);
      end
    end
    // in_data_i is not kept: the producer holds its message
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused = ^in_data_i;
    /* verilator lint_on UNUSEDSIGNAL */
    // the producer holds its message: the line compared last cycle (the register) is the one at
    // the port now
    `CNI_ASSERT_SIM(HeldValid_A, !valid_q || in_valid_i,
                    "a held message was withdrawn before it was consumed")
    `CNI_ASSERT_SIM(HeldLine_A, !valid_q || in_line_i == line_q,
                    "a held message changed before it was consumed")
  end

  // the stages moved on as busy_q assumed: it is the compare bits against the valid stages
  `CNI_ASSERT_SIM(Busy_A, busy_q == |(mv_q & st_valid_i), "the busy flag disagrees with the stages")

endmodule
