// SPDX-License-Identifier: Apache-2.0
// One transmit virtual channel of the coherent link: a small output buffer in front of a credit
// counter; a message leaves only while a credit for the peer's receive buffer is held.
//
// Parameters:
//   Width   - message bits
//   Depth   - output buffer slots
//   Credits - the peer's receive buffer depth (credits held after reset)
// Ports:
//   in_valid_i/in_ready_o/in_data_i - from the producer (may be stalled)
//   link_valid_o/link_data_o        - to the link; the link takes every message it is offered
//   credit_i                        - one-cycle pulse: the peer freed one slot
//   credit_err_o                    - one-cycle pulse: a credit returned beyond Credits (ignored)
//   pending_o                       - a message is buffered here, not yet on the link
`default_nettype none

module cni_link_tx_ch #(
  parameter int Width   = 81,
  parameter int Depth   = 2,
  parameter int Credits = 8,
  localparam int CrW = $clog2(Credits + 1)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             in_valid_i,
  output logic                  in_ready_o,
  input  wire logic [Width-1:0] in_data_i,
  output logic                  link_valid_o,
  output logic [Width-1:0]      link_data_o,
  input  wire logic             credit_i,
  output logic                  credit_err_o,
  output logic                  pending_o
);

  logic          buf_valid;
  logic [CrW-1:0] cr_q, cr_d;

  cni_fifo #(.Width(Width), .Depth(Depth)) u_buf (
    .clk_i, .rst_ni,
    .in_valid_i,
    .in_ready_o,
    .in_data_i,
    .out_valid_o (buf_valid),
    .out_ready_i (link_valid_o),
    .out_data_o  (link_data_o),
    // The fill level is not needed here.
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o     ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  assign link_valid_o = buf_valid && (cr_q != '0);
  assign pending_o    = buf_valid;

  always_comb begin
    cr_d = cr_q;
    credit_err_o = 1'b0;
    if (link_valid_o) cr_d = cr_d - 1'b1;
    if (credit_i) begin
      if (cr_d == CrW'(Credits)) credit_err_o = 1'b1;
      else cr_d = cr_d + 1'b1;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cr_q <= CrW'(Credits);
    else cr_q <= cr_d;
  end

endmodule
