// SPDX-License-Identifier: Apache-2.0
// The recall-and-count block the PIO (a) and (b) channels share: from a start, ask for a RECALL
// of the channel's payload control line and then of each of its overflow lines, one command at
// a time, and count the RECALL_DONEs on those lines in whatever order they come, until all
// 1 + NOvf are in (docs/pio.md, "Counting, not ordering"). The next line, the first-line and
// all-asked flags and the all-done flag are flip-flops, so the command choice and the channel's
// state start from registers.
//
// Parameters:
//   LineIdxW - width of a device line index
//   Base     - the channel's first line: control lines Base, Base+1; overflow Base+2 ..
//   NOvf     - overflow lines
// Ports:
//   start_i, p_line_i - begin a round: its payload control line
//   active_i          - the channel waits for its recalls (requests are made only then)
//   req_o, line_o     - a RECALL of line_o wanted (registered state); gnt_i: it was granted
//   done_i, done_line_i, done_ovf_i
//                     - a RECALL_DONE event, its line, whether that line is an overflow line
//   cur_p_line_i      - the payload control line of the round (the channel's, as it is now)
//   all_done_o        - every RECALL_DONE of the round is in (a flip-flop)
`default_nettype none
`include "cni_assert.svh"

module cni_pio_recall #(
  parameter int LineIdxW = 12,
  parameter int Base     = 0,
  parameter int NOvf     = 1,
  localparam int RcW     = $clog2(NOvf + 2)  // counts 0 .. NOvf + 1
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  input  wire logic                start_i,
  input  wire logic [LineIdxW-1:0] p_line_i,
  input  wire logic                active_i,
  output logic                     req_o,
  output logic [LineIdxW-1:0]      line_o,
  input  wire logic                gnt_i,
  input  wire logic                done_i,
  input  wire logic [LineIdxW-1:0] done_line_i,
  input  wire logic                done_ovf_i,
  input  wire logic [LineIdxW-1:0] cur_p_line_i,
  output logic                     all_done_o
);

  localparam logic [31:0] OV = 32'(Base + 2);
  localparam logic [31:0] HI = 32'(Base + 2 + NOvf);

  logic [LineIdxW-1:0] rl_q, rl_d;     // the next line to RECALL
  logic                rfirst_q, rfirst_d, rall_q, rall_d;
  logic [RcW-1:0]      dc_q, dc_d;     // RECALL_DONEs in
  logic                dall_q, dall_d; // dc_q == 1 + NOvf

  always_comb begin
    rl_d     = rl_q;
    rfirst_d = rfirst_q;
    rall_d   = rall_q;
    dc_d     = dc_q;
    if (active_i) begin
      if (gnt_i) begin
        rfirst_d = 1'b0;
        rl_d     = rfirst_q ? LineIdxW'(OV) : rl_q + 1'b1;
        rall_d   = !rfirst_q && 32'(rl_q) == HI - 32'd1;
      end
      if (done_i && (done_line_i == cur_p_line_i || done_ovf_i)) dc_d = dc_q + 1'b1;
    end
    if (start_i) begin
      rl_d     = p_line_i;
      rfirst_d = 1'b1;
      rall_d   = 1'b0;
      dc_d     = '0;
    end
    dall_d = 32'(dc_d) == 32'(NOvf + 1);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rl_q     <= LineIdxW'(Base + 1);
      rfirst_q <= 1'b1;
      rall_q   <= 1'b0;
      dc_q     <= '0;
      dall_q   <= 1'b0;
    end else begin
      rl_q     <= rl_d;
      rfirst_q <= rfirst_d;
      rall_q   <= rall_d;
      dc_q     <= dc_d;
      dall_q   <= dall_d;
    end
  end

  assign req_o      = active_i && !rall_q;
  assign line_o     = rl_q;
  assign all_done_o = dall_q;

  `CNI_ASSERT(AllDone_A, dall_q == (32'(dc_q) == 32'(NOvf + 1)),
              "the all-done flag disagrees with its count")

endmodule
