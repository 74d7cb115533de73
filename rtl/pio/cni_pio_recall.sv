// SPDX-License-Identifier: Apache-2.0
// The recall-and-count block the PIO (a) and (b) channels share (docs/pio.md, "Recalling only the
// lines a message uses"): from a start, ask for a RECALL of the channel's payload control line
// and then of its first `pre_i` overflow lines (the lines the channel's last message used, which
// the host may hold), one command at a time; once the channel knows its message's length, it
// extends the round to the overflow lines the message uses (ext_i, upto_i: lines [0, upto_i)),
// asking for those not yet asked. RECALL_DONEs on those lines are counted in whatever order they
// come ("Counting, not ordering"). The next line, the first-line and all-asked flags and the
// done flags are flip-flops, so the command choice and the channel's state start from registers.
//
// Parameters:
//   LineIdxW - width of a device line index
//   Base     - the channel's first line: control lines Base, Base+1; overflow Base+2 ..
//   NOvf     - overflow lines
// Ports:
//   start_i, p_line_i, pre_i - begin a round: its payload control line, the overflow lines to
//                      recall at once (at most NOvf)
//   ext_i, upto_i     - the message uses overflow lines [0, upto_i) (at most NOvf): recall those
//                      not asked yet; once in a round, before all_done_o can rise
//   active_i          - the round is under way (requests are made and RECALL_DONEs counted only
//                      then)
//   req_o, line_o     - a RECALL of line_o wanted (registered state); gnt_i: it was granted
//   done_i, done_line_i, done_ovf_i
//                     - a RECALL_DONE event, its line, whether that line is an overflow line
//   cur_p_line_i      - the payload control line of the round (the channel's, as it is now)
//   p_done_o          - the payload control line's RECALL_DONE is in (a flip-flop)
//   all_done_o        - the round was extended and every RECALL_DONE it asked for is in (a
//                      flip-flop)
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
  input  wire logic [RcW-1:0]      pre_i,
  input  wire logic                ext_i,
  input  wire logic [RcW-1:0]      upto_i,
  input  wire logic                active_i,
  output logic                     req_o,
  output logic [LineIdxW-1:0]      line_o,
  input  wire logic                gnt_i,
  input  wire logic                done_i,
  input  wire logic [LineIdxW-1:0] done_line_i,
  input  wire logic                done_ovf_i,
  input  wire logic [LineIdxW-1:0] cur_p_line_i,
  output logic                     p_done_o,
  output logic                     all_done_o
);

  localparam logic [31:0] OV = 32'(Base + 2);

  logic [LineIdxW-1:0] rl_q, rl_d;     // the next line to RECALL
  logic [RcW-1:0]      lim_q, lim_d;   // overflow lines the round asks for
  logic                rfirst_q, rfirst_d, rall_q, rall_d;
  logic                ext_q, ext_d;   // the round was extended to its message's lines
  logic [RcW-1:0]      dc_q, dc_d;     // RECALL_DONEs in
  logic                pd_q, pd_d;     // the payload control line's is in
  logic                dall_q, dall_d; // ext_q and dc_q == 1 + lim_q

  always_comb begin
    rl_d     = rl_q;
    lim_d    = lim_q;
    rfirst_d = rfirst_q;
    ext_d    = ext_q;
    dc_d     = dc_q;
    pd_d     = pd_q;
    if (active_i) begin
      if (gnt_i) begin
        rfirst_d = 1'b0;
        rl_d     = rfirst_q ? LineIdxW'(OV) : rl_q + 1'b1;
      end
      if (ext_i) begin
        ext_d = 1'b1;
        if (upto_i > lim_q) lim_d = upto_i;
      end
      if (done_i && done_line_i == cur_p_line_i) pd_d = 1'b1;
      if (done_i && (done_line_i == cur_p_line_i || done_ovf_i)) dc_d = dc_q + 1'b1;
    end
    if (start_i) begin
      rl_d     = p_line_i;
      lim_d    = pre_i;
      rfirst_d = 1'b1;
      ext_d    = 1'b0;
      dc_d     = '0;
      pd_d     = 1'b0;
    end
    // every line asked for: the control line, and the overflow lines up to the limit
    rall_d = !rfirst_d && 32'(rl_d) == OV + 32'(lim_d);
    dall_d = ext_d && 32'(dc_d) == 32'(lim_d) + 32'd1;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rl_q     <= LineIdxW'(Base + 1);
      lim_q    <= '0;
      rfirst_q <= 1'b1;
      rall_q   <= 1'b0;
      ext_q    <= 1'b0;
      dc_q     <= '0;
      pd_q     <= 1'b0;
      dall_q   <= 1'b0;
    end else begin
      rl_q     <= rl_d;
      lim_q    <= lim_d;
      rfirst_q <= rfirst_d;
      rall_q   <= rall_d;
      ext_q    <= ext_d;
      dc_q     <= dc_d;
      pd_q     <= pd_d;
      dall_q   <= dall_d;
    end
  end

  assign req_o      = active_i && !rall_q;
  assign line_o     = rl_q;
  assign p_done_o   = pd_q;
  assign all_done_o = dall_q;

  `CNI_ASSERT_INIT(Params_A, NOvf >= 1, "a channel has at least one overflow line")
  `CNI_ASSERT(AllDone_A, dall_q == (ext_q && 32'(dc_q) == 32'(lim_q) + 32'd1),
              "the all-done flag disagrees with its count")
  `CNI_ASSERT(Limit_A, 32'(lim_q) <= 32'(NOvf) && (!ext_i || 32'(upto_i) <= 32'(NOvf)) &&
                       (!start_i || 32'(pre_i) <= 32'(NOvf)),
              "a round asks for more overflow lines than the channel has")
  `CNI_ASSERT(Asked_A, !rall_q || rfirst_q || 32'(rl_q) == OV + 32'(lim_q),
              "the all-asked flag disagrees with the next line")
  `CNI_ASSERT(Count_A, 32'(dc_q) <= 32'(lim_q) + 32'd1 || !active_i,
              "more RECALL_DONEs than the round asked for")

endmodule
