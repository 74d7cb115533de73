// SPDX-License-Identifier: Apache-2.0
// The tag store's handler-command intake (docs/tagstore.md, "Handler operations"): the 8-byte
// register CMD (the low word held, the command queued as the high word is written), the checks
// made as it is queued (an unknown op, a block outside the region, tag 3, the line flag on an
// op other than WRITE, FILL, SEND, READ, the rx flag on another than WRITE, FILL, SEND or with
// the line flag, a full queue: refused, not queued), and the queue the engine takes commands
// from, in order. The low word's other fields: [9] rx (the data of the dispatched message of the
// network interface), [23:16] a SEND's destination node, [31:24] its handler byte.
//
// Parameters: Lines - blocks of the region; Depth - commands queued.
// Ports: wr_lo_i, wr_hi_i, wdata_i - a write of CMD's low or high word; refuse_o, cause_o - the
// high word's write refused, and why (cni_ts_pkg::CA_*); pop_i - the engine takes the head;
// valid_o and the head's op_o, tag_o, flag_o, ack_o, line_o, rx_o, dst_o, hdl_o, blk_o.
`default_nettype none

module cni_ts_cmdq #(
  parameter int Lines = 16,
  parameter int Depth = 4,
  localparam int BlkW = Lines > 1 ? $clog2(Lines) : 1
) (
  input  wire logic        clk_i,
  input  wire logic        rst_ni,
  input  wire logic        wr_lo_i,
  input  wire logic        wr_hi_i,
  input  wire logic [31:0] wdata_i,
  output logic             refuse_o,
  output logic [3:0]       cause_o,
  input  wire logic        pop_i,
  output logic             valid_o,
  output logic [3:0]       op_o,
  output logic [1:0]       tag_o,
  output logic             flag_o,
  output logic             ack_o,
  output logic             line_o,
  output logic             rx_o,
  output logic [7:0]       dst_o,
  output logic [7:0]       hdl_o,
  output logic [BlkW-1:0]  blk_o
);

  // the low word's op, tag, flag, ack, line, rx, destination and handler; the block
  localparam int CmdW = 26 + BlkW;

  logic [25:0] cmd_lo_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cmd_lo_q <= '0;
    else if (wr_lo_i) cmd_lo_q <= {wdata_i[31:16], wdata_i[9:0]};
  end
  wire [3:0] nc_op   = cmd_lo_q[3:0];
  wire [1:0] nc_tag  = cmd_lo_q[5:4];
  wire       nc_ack  = cmd_lo_q[7];
  wire       nc_line = cmd_lo_q[8];
  wire       nc_rx   = cmd_lo_q[9];
  wire       nc_data = nc_op == cni_ts_pkg::OP_WRITE || nc_op == cni_ts_pkg::OP_FILL ||
                       nc_op == cni_ts_pkg::OP_SEND;

  logic in_ready;
  always_comb begin
    cause_o = '0;
    if (nc_op < cni_ts_pkg::OP_READ || nc_op > cni_ts_pkg::OP_SEND)
      cause_o = cni_ts_pkg::CA_BAD_OP;
    else if (wdata_i >= 32'(Lines)) cause_o = cni_ts_pkg::CA_BAD_BLOCK;
    else if ((nc_op == cni_ts_pkg::OP_SET_TAG || nc_op == cni_ts_pkg::OP_FILL) && nc_tag == 2'd3)
      cause_o = cni_ts_pkg::CA_BAD_TAG;
    else if (nc_line && !nc_data && nc_op != cni_ts_pkg::OP_READ) cause_o = cni_ts_pkg::CA_BAD_OP;
    else if (nc_rx && (!nc_data || nc_line)) cause_o = cni_ts_pkg::CA_BAD_OP;
    else if (!in_ready) cause_o = cni_ts_pkg::CA_FULL;
  end
  assign refuse_o = wr_hi_i && cause_o != '0;

  logic [CmdW-1:0] head;
  cni_fifo #(.Width(CmdW), .Depth(Depth)) u_cq (
    .clk_i, .rst_ni,
    .in_valid_i (wr_hi_i && cause_o == '0), .in_ready_o (in_ready),
    .in_data_i ({cmd_lo_q[25:10], nc_rx, nc_line, nc_ack, cmd_lo_q[6:0], BlkW'(wdata_i)}),
    .out_valid_o (valid_o), .out_ready_i (pop_i), .out_data_o (head),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o ()
    /* verilator lint_on PINCONNECTEMPTY */
  );
  assign {hdl_o, dst_o, rx_o, line_o, ack_o, flag_o, tag_o, op_o, blk_o} = head;

endmodule
