// SPDX-License-Identifier: Apache-2.0
// The tag store's fault queue (docs/tagstore.md, "Faults"): the TRIGGERs of the engine's blocks,
// in order, each decoded for the engine as its block and whether the access is a write.
//
// Parameters: LineIdxW - device line index width; Lines, BlkBase - the blocks and block 0's line;
// Depth - faults queued.
// Ports: push_i, line_i, op_i, src_i - a trigger of a block (taken when ready_o; the engine drops
// and counts it otherwise); pop_i - the engine takes the head; valid_o and the head's line_o,
// op_o, src_o, wr_o (RdX or Upg), blk_o.
`default_nettype none

module cni_ts_faultq #(
  parameter int LineIdxW = 11,
  parameter int Lines    = 16,
  parameter int BlkBase  = 0,
  parameter int Depth    = 4,
  localparam int OpW  = cni_coh_pkg::OP_W,
  localparam int AgW  = cni_coh_pkg::AGENT_W,
  localparam int BlkW = Lines > 1 ? $clog2(Lines) : 1
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  input  wire logic                push_i,
  output logic                     ready_o,
  input  wire logic [LineIdxW-1:0] line_i,
  input  wire logic [OpW-1:0]      op_i,
  input  wire logic [AgW-1:0]      src_i,
  input  wire logic                pop_i,
  output logic                     valid_o,
  output logic [LineIdxW-1:0]      line_o,
  output logic [OpW-1:0]           op_o,
  output logic [AgW-1:0]           src_o,
  output logic                     wr_o,
  output logic [BlkW-1:0]          blk_o
);

  cni_fifo #(.Width(LineIdxW + OpW + AgW), .Depth(Depth)) u_q (
    .clk_i, .rst_ni,
    .in_valid_i (push_i), .in_ready_o (ready_o), .in_data_i ({line_i, op_i, src_i}),
    .out_valid_o (valid_o), .out_ready_i (pop_i), .out_data_o ({line_o, op_o, src_o}),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o ()
    /* verilator lint_on PINCONNECTEMPTY */
  );
  assign wr_o  = !(op_o == cni_coh_pkg::OP_RDS || op_o == cni_coh_pkg::OP_RDNA);
  assign blk_o = BlkW'(32'(line_o) - 32'(BlkBase));

endmodule
