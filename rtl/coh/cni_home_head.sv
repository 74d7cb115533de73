// SPDX-License-Identifier: Apache-2.0
// One input of the pipelined home agent (Pipelined = 1) with its line interlock precomputed:
// the message at the head, and a flip-flop per pipeline stage saying whether the stage's line is
// the head's line, so the take reads "is my line in flight" from flip-flops instead of comparing
// lines in the cycle it takes (docs/endpoint.md, "Pipeline"). The bits are the compares against
// the stages as they stand after each clock edge: the stages move on at every edge (the
// pipelined home agent never stalls), so the first stage gets the message taken now (from the
// source whose take_i bit is set, on that source's take_line_i) and every other stage its
// predecessor's line.
// The line is compared with every source's line in parallel and the one-hot take picks the
// result, so the compare is not behind the home agent's selection multiplexer.
//
//   Buffer = 1: the head is a register loaded from the producer as the message before it is
//               taken (pop_i) or while it is empty, so a new message is taken the cycle after
//               it arrives, and one every cycle.
//   Buffer = 0: the producer holds its message until it is consumed (pop_i: its handshake,
//               which may come long after the take; the home agent's commands); the bits are
//               compared every cycle, and a message counts as at the head from the cycle after
//               it appears.
//
// Parameters:
//   Width  - message bits (unused with Buffer = 0)
//   LineW  - line index bits
//   Stages - pipeline stages behind the take (R, D, X, B, C: 5)
//   Buffer - see above
//   Srcs   - sources the home agent takes messages from
// Ports:
//   in_valid_i/in_ready_o/in_data_i/in_line_i - the producer (in_ready_o: Buffer = 1 only)
//   out_valid_o, out_data_o, out_line_o      - the head (out_data_o: Buffer = 1 only)
//   busy_o     - a stage holding a message on the head's line
//   pop_i      - the head leaves (see Buffer)
//   take_i      - one-hot (or zero): a message from source j enters the first stage at this edge
//   take_line_i - each source's line (source j's at [j * LineW +: LineW])
//   st_valid_i, st_line_i - each stage's valid bit and line (stage k's at [k * LineW +: LineW])
`default_nettype none

module cni_home_head #(
  parameter int Width  = 8,
  parameter int LineW  = 8,
  parameter int Stages = 5,
  parameter bit Buffer = 1'b1,
  parameter int Srcs   = 4
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
  input  wire logic [Srcs-1:0]              take_i,
  input  wire logic [Srcs*LineW-1:0]        take_line_i,
  input  wire logic [Stages-1:0]            st_valid_i,
  input  wire logic [Stages*LineW-1:0]      st_line_i
);

  logic [Stages-1:0] mv_q, mv_new;
  logic              valid_q;

  // the message entering the first stage now is on line `l`
  function automatic logic taken_on(input logic [LineW-1:0] l, input logic [Srcs-1:0] take,
                                     input logic [Srcs*LineW-1:0] lines);
    taken_on = 1'b0;
    for (int j = 0; j < Srcs; j++) taken_on |= take[j] && l == lines[j * LineW +: LineW];
  endfunction

  // The compare bits of a line arriving now (or, Buffer = 0, held now) against the stages after
  // this edge.
  always_comb begin
    for (int k = 0; k < Stages; k++) begin
      mv_new[k] = (k == 0) ? taken_on(in_line_i, take_i, take_line_i)
                           : in_line_i == st_line_i[(k > 0 ? k - 1 : 0) * LineW +: LineW];
    end
  end
  assign busy_o = |(mv_q & st_valid_i);

  if (Buffer) begin : g_buf
    logic [Width-1:0] data_q;
    logic [LineW-1:0] line_q;
    logic [Stages-1:0] mv_keep;
    wire load = in_valid_i && in_ready_o;
    // a head that stays: its bits move with the stages
    always_comb begin
      for (int k = 0; k < Stages; k++) begin
        mv_keep[k] = (k == 0) ? taken_on(line_q, take_i, take_line_i) : mv_q[k > 0 ? k - 1 : 0];
      end
    end
    assign in_ready_o  = !valid_q || pop_i;
    assign out_valid_o = valid_q;
    assign out_data_o  = data_q;
    assign out_line_o  = line_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q <= 1'b0;
        mv_q    <= '0;
      end else begin
        if (load) valid_q <= 1'b1;
        else if (pop_i) valid_q <= 1'b0;
        mv_q <= load ? mv_new : mv_keep;
      end
    end
    always_ff @(posedge clk_i) begin
      if (load) begin
        data_q <= in_data_i;
        line_q <= in_line_i;
      end
    end
  end else begin : g_hold
    assign in_ready_o  = 1'b0;
    assign out_valid_o = in_valid_i && valid_q;
    assign out_data_o  = '0;
    assign out_line_o  = in_line_i;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q <= 1'b0;
        mv_q    <= '0;
      end else begin
        valid_q <= in_valid_i && !pop_i;
        mv_q    <= mv_new;
      end
    end
    // in_data_i is not kept: the producer holds its message
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused = ^in_data_i;
    /* verilator lint_on UNUSEDSIGNAL */
`ifdef SYNTHESIS
`elsif FORMAL
`else
    // the producer holds its message: the line compared last cycle is the one at the port now
    logic [LineW-1:0] line_chk_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        line_chk_q <= '0;
      end else begin
        line_chk_q <= in_line_i;
        if (valid_q && in_valid_i) begin
          assert (in_line_i == line_chk_q)
            else $error("cni_home_head: a held message changed before it was consumed");
        end
      end
    end
`endif
  end

endmodule
