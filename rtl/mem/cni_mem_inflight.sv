// SPDX-License-Identifier: Apache-2.0
// The accesses of one direction of the device-memory port in flight, oldest first: a FIFO of
// (line, client tag) whose every entry is also compared with a line (docs/dram.md, "Ordering").
//
// Parameters:
//   Depth    - entries (>= 1)
//   LineIdxW - line index bits; TagW - client tag bits
// Ports:
//   clk_i, rst_ni        - clock, active-low asynchronous reset
//   push_i, line_i, tag_i - an access enters (the caller checks full_o)
//   pop_i                - the oldest leaves (the caller checks that one is held)
//   full_o, any_o        - every entry held; one is
//   head_tag_o           - the oldest's tag
//   match_line_i, match_o - some held entry is of this line
`default_nettype none

module cni_mem_inflight #(
  parameter int Depth    = 8,
  parameter int LineIdxW = 20,
  parameter int TagW     = 4,
  localparam int PtrW = (Depth > 1) ? $clog2(Depth) : 1
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  input  wire logic                push_i,
  input  wire logic [LineIdxW-1:0] line_i,
  input  wire logic [TagW-1:0]     tag_i,
  input  wire logic                pop_i,
  output logic                     full_o,
  output logic                     any_o,
  output logic [TagW-1:0]          head_tag_o,
  input  wire logic [LineIdxW-1:0] match_line_i,
  output logic                     match_o
);

  if (Depth < 1) $error("Depth must be >= 1");

  logic [LineIdxW-1:0] line_q [Depth];
  logic [TagW-1:0]     tag_q  [Depth];
  logic [Depth-1:0]    held_q;
  logic [PtrW-1:0]     rd_q, wr_q;

  function automatic logic [PtrW-1:0] inc(input logic [PtrW-1:0] p);
    inc = (p == PtrW'(Depth - 1)) ? '0 : p + 1'b1;
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      held_q <= '0;
      rd_q   <= '0;
      wr_q   <= '0;
    end else begin
      if (push_i) wr_q <= inc(wr_q);
      if (pop_i) rd_q <= inc(rd_q);
      for (int i = 0; i < Depth; i++) begin
        if (push_i && wr_q == PtrW'(i)) held_q[i] <= 1'b1;
        else if (pop_i && rd_q == PtrW'(i)) held_q[i] <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (push_i) begin
      line_q[wr_q] <= line_i;
      tag_q[wr_q]  <= tag_i;
    end
  end

  assign full_o     = &held_q;
  assign any_o      = |held_q;
  assign head_tag_o = tag_q[rd_q];
  always_comb begin
    match_o = 1'b0;
    for (int i = 0; i < Depth; i++) match_o |= held_q[i] && line_q[i] == match_line_i;
  end

endmodule

`default_nettype wire
