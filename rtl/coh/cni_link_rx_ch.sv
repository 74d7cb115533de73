// SPDX-License-Identifier: Apache-2.0
// One receive virtual channel of the coherent link: a buffer of Depth messages whose slots are
// the credits advertised to the peer; a credit is returned each time a message is dequeued.
//
// Parameters:
//   Width - message bits (header plus data where the channel carries data)
//   Depth - buffer slots = credits the peer starts with
//   RegW  - the message's top RegW bits (its header) at the head come from a register, not from
//           a read of the buffer (`cni_fifo` OutReg); 0: none
// Ports:
//   link_valid_i/link_data_i - from the link; no ready: the peer only sends holding a credit
//   credit_o                 - one-cycle pulse per dequeued message (a credit back to the peer)
//   overflow_o               - one-cycle pulse: a message arrived with the buffer full (dropped)
//   out_valid_o/out_ready_i/out_data_o - to the consumer; the consumer may stall
`default_nettype none

module cni_link_rx_ch #(
  parameter int Width = 81,
  parameter int Depth = 8,
  parameter int RegW  = 0
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             link_valid_i,
  input  wire logic [Width-1:0] link_data_i,
  output logic                  credit_o,
  output logic                  overflow_o,
  output logic                  out_valid_o,
  input  wire logic             out_ready_i,
  output logic [Width-1:0]      out_data_o
);

  logic in_ready;

  localparam int RW = (RegW > 0) ? RegW : Width;  // the head's registered bits: the top RW
  cni_fifo #(.Width(Width), .Depth(Depth), .OutReg(RegW > 0), .OutRegLo(Width - RW),
             .OutRegW(RW)) u_buf (
    .clk_i, .rst_ni,
    .in_valid_i (link_valid_i),
    .in_ready_o (in_ready),
    .in_data_i  (link_data_i),
    .out_valid_o,
    .out_ready_i,
    .out_data_o,
    // The fill level is not needed here.
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o    ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  assign credit_o   = out_valid_o && out_ready_i;
  assign overflow_o = link_valid_i && !in_ready;

endmodule
