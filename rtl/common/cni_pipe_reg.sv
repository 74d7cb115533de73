// SPDX-License-Identifier: Apache-2.0
// Optional pipeline register: with Reg = 1 a register loaded when en_i is set, with Reg = 0 a
// wire (q_o = d_i). Lets one piece of logic be built with or without a pipeline stage between
// two of its steps (the home agent's Pipelined configuration, the PIO engine's EvtReg, RdReg,
// ReqReg) without a second copy of it.
//
// Parameters:
//   Width - bits
//   Reg   - 1: register; 0: wire
//   Reset - 1: the register clears on rst_ni (valid bits); 0: no reset (data, whose users
//           qualify it with a valid bit of their own)
// Ports:
//   clk_i, rst_ni - clock, active-low asynchronous reset (unused with Reg = 0, or Reset = 0)
//   en_i          - load d_i at the clock edge (unused with Reg = 0)
//   d_i, q_o
`default_nettype none

module cni_pipe_reg #(
  parameter int Width = 1,
  parameter bit Reg   = 1'b1,
  parameter bit Reset = 1'b0
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             en_i,
  input  wire logic [Width-1:0] d_i,
  output logic [Width-1:0]      q_o
);

  if (Reg && Reset) begin : g_reg_rst
    logic [Width-1:0] q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) q <= '0;
      else if (en_i) q <= d_i;
    end
    assign q_o = q;
  end else if (Reg) begin : g_reg
    logic [Width-1:0] q;
    always_ff @(posedge clk_i) if (en_i) q <= d_i;
    assign q_o = q;
    wire unused = rst_ni;
  end else begin : g_wire
    assign q_o = d_i;
    wire unused = ^{clk_i, rst_ni, en_i};
  end

endmodule
