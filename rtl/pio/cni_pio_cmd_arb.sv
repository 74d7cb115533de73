// SPDX-License-Identifier: Apache-2.0
// The PIO engine's one command arbiter: N requesters in fixed priority (requester 0 first), one
// registered command slot toward the home agent and a skid register behind it. A command is
// granted whenever the skid register is empty (a registered condition), so no grant waits on
// the home agent's cmd_ready_i; commands leave in grant order, and a presented command is held
// until taken. With a home that takes every command at once the skid register stays empty and
// the timing is that of a single slot (docs/pio.md, "Interface rules").
//
// Parameters:
//   N        - requesters
//   LineIdxW - width of a device line index
// Ports:
//   req_i, op_i, line_i - requester k at [k], [k*CMD_W +: CMD_W], [k*LineIdxW +: LineIdxW]
//                         (requests come from registered state)
//   gnt_o               - requester k's command is taken into the slot (or the skid register)
//   cmd_*               - to the home agent (valid/ready)
//   idle_o              - the slot and the skid register are empty
`default_nettype none

module cni_pio_cmd_arb #(
  parameter int N        = 2,
  parameter int LineIdxW = 12,
  localparam int CmdW    = cni_coh_pkg::CMD_W
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_ni,
  input  wire logic [N-1:0]          req_i,
  input  wire logic [N*CmdW-1:0]     op_i,
  input  wire logic [N*LineIdxW-1:0] line_i,
  output logic [N-1:0]               gnt_o,
  output logic                       cmd_valid_o,
  input  wire logic                  cmd_ready_i,
  output logic [CmdW-1:0]            cmd_op_o,
  output logic [LineIdxW-1:0]        cmd_line_o,
  output logic                       idle_o
);

  logic                cmd_valid_q, skid_valid_q, any;
  logic [CmdW-1:0]     cmd_op_q, skid_op_q, op_sel;
  logic [LineIdxW-1:0] cmd_line_q, skid_line_q, line_sel;
  logic [N-1:0]        first;  // the highest-priority request (one-hot)

  always_comb begin
    first = '0;
    for (int k = N - 1; k >= 0; k--) if (req_i[k]) first = N'(1) << k;
    any      = req_i != '0;
    op_sel   = '0;
    line_sel = '0;
    for (int k = 0; k < N; k++) begin
      if (first[k]) begin
        op_sel   = op_sel | op_i[k * CmdW +: CmdW];
        line_sel = line_sel | line_i[k * LineIdxW +: LineIdxW];
      end
    end
  end
  assign gnt_o = {N{!skid_valid_q}} & first;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cmd_valid_q  <= 1'b0;
      cmd_op_q     <= cni_coh_pkg::CMD_ARM;
      cmd_line_q   <= '0;
      skid_valid_q <= 1'b0;
      skid_op_q    <= cni_coh_pkg::CMD_ARM;
      skid_line_q  <= '0;
    end else if (!cmd_valid_q || cmd_ready_i) begin
      // the slot is free after this cycle: the skid register drains first (no grant while it
      // is full), else this cycle's grant enters the slot
      if (skid_valid_q) begin
        cmd_valid_q  <= 1'b1;
        cmd_op_q     <= skid_op_q;
        cmd_line_q   <= skid_line_q;
        skid_valid_q <= 1'b0;
      end else begin
        cmd_valid_q <= any;
        cmd_op_q    <= op_sel;
        cmd_line_q  <= line_sel;
      end
    end else if (!skid_valid_q && any) begin
      skid_valid_q <= 1'b1;
      skid_op_q    <= op_sel;
      skid_line_q  <= line_sel;
    end
  end

  assign cmd_valid_o = cmd_valid_q;
  assign idle_o      = !cmd_valid_q && !skid_valid_q;
  assign cmd_op_o    = cmd_op_q;
  assign cmd_line_o  = cmd_line_q;

endmodule
