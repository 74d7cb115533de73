// SPDX-License-Identifier: Apache-2.0
// Optional pipeline register: with Reg = 1 a register loaded when en_i is set, with Reg = 0 a
// wire (q_o = d_i). Lets one piece of logic be built with or without a pipeline stage between
// two of its steps (the home agent's Pipelined configuration) without a second copy of it.
//
// Parameters:
//   Width - bits
//   Reg   - 1: register; 0: wire
// Ports:
//   clk_i - clock (unused with Reg = 0)
//   en_i  - load d_i at the clock edge (unused with Reg = 0)
//   d_i, q_o
// The register has no reset: every user qualifies its contents with a valid bit of its own.
`default_nettype none

module cni_pipe_reg #(
  parameter int Width = 1,
  parameter bit Reg   = 1'b1
) (
  input  wire logic             clk_i,
  input  wire logic             en_i,
  input  wire logic [Width-1:0] d_i,
  output logic [Width-1:0]      q_o
);

  if (Reg) begin : g_reg
    logic [Width-1:0] q;
    always_ff @(posedge clk_i) if (en_i) q <= d_i;
    assign q_o = q;
  end else begin : g_wire
    assign q_o = d_i;
    wire unused = ^{clk_i, en_i};
  end

endmodule
