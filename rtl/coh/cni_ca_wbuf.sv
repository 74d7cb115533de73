// SPDX-License-Identifier: Apache-2.0
// Device caching agent's write-back buffer (cni_cache_agent, docs/cache-agent.md): the lines in
// MI, each written back (its WB sent or waiting in the request register) and waiting for its
// WbAck; the entry holds the line address only (the data went into the request register). The
// scans for a free entry and for the entry holding the engine request's or the inbound
// message's line, and the entry's fill and release when the controller's job fires.
//
// Parameters:
//   Wbs   - entries (1..64)
//   LineW - line address width (byte address >> offset)
//   TagW  - message tag width (a write-back from entry e carries the tag 0x80 | e)
// Ports:
//   clk_i, rst_ni         - clock, active-low asynchronous reset
//   free_o, free_e_o      - an entry is free, the lowest one
//   req_line_i, req_hit_o - the engine request's line is in the buffer
//   in_line_i, in_hit_o   - the inbound message's line is in the buffer
//   in_tag_i, tag_hit_o   - the message's tag names an entry, and that entry holds its line
//   upd_i                 - the job fires: the updates below apply at this edge to entry e_i
//   put_i, line_i         - the entry takes line_i (its write-back)
//   release_i             - the entry is freed (WbAck or Error)
`default_nettype none

module cni_ca_wbuf #(
  parameter int Wbs   = 4,
  parameter int LineW = 41,
  parameter int TagW  = 8,
  localparam int EW   = (Wbs > 1) ? $clog2(Wbs) : 1
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  output logic                  free_o,
  output logic [EW-1:0]         free_e_o,
  input  wire logic [LineW-1:0] req_line_i,
  output logic                  req_hit_o,
  input  wire logic [LineW-1:0] in_line_i,
  output logic                  in_hit_o,
  input  wire logic [TagW-1:0]  in_tag_i,
  output logic                  tag_hit_o,
  input  wire logic             upd_i,
  input  wire logic [EW-1:0]    e_i,
  input  wire logic             put_i,
  input  wire logic [LineW-1:0] line_i,
  input  wire logic             release_i
);

  logic [Wbs-1:0]   wbv_q;
  logic [LineW-1:0] wbl_q [Wbs];

  // ---- scans: a free entry; the entry holding the request's / message's line ------------------
  always_comb begin
    free_o    = 1'b0;
    free_e_o  = '0;
    req_hit_o = 1'b0;
    in_hit_o  = 1'b0;
    for (int k = Wbs - 1; k >= 0; k--) begin
      if (!wbv_q[k]) begin
        free_o   = 1'b1;
        free_e_o = EW'(k);
      end
      if (wbv_q[k] && wbl_q[k] == req_line_i) req_hit_o = 1'b1;
      if (wbv_q[k] && wbl_q[k] == in_line_i) in_hit_o = 1'b1;
    end
  end

  // the tag names an entry holding the message's line
  wire [EW-1:0] t_e = in_tag_i[EW-1:0];
  assign tag_hit_o = in_tag_i[TagW-1] && {1'b0, in_tag_i[TagW-2:0]} < TagW'(Wbs) &&
                     wbv_q[t_e] && wbl_q[t_e] == in_line_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wbv_q <= '0;
      for (int k = 0; k < Wbs; k++) wbl_q[k] <= '0;
    end else if (upd_i) begin
      if (put_i) begin
        wbv_q[e_i] <= 1'b1;
        wbl_q[e_i] <= line_i;
      end
      if (release_i) wbv_q[e_i] <= 1'b0;
    end
  end

endmodule
