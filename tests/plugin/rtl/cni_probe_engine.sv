// SPDX-License-Identifier: Apache-2.0
// A minimal engine for the plug-in test (tests/plugin): a register window and a region of lines,
// no commands, no memory accesses. Registers (cni_probe.rdl): ID ("PROB"), SCRATCH (RW), BASE
// (the region's first line), LINES; read data the cycle after the access. A register write pulses cnt_wr_o (an endpoint counter).
//
// Parameters: LineBytes, LineIdxW - the endpoint's; Base, Lines - its region.
// Ports: the engine bus (docs/endpoint.md, "Engine bus"): events are taken and ignored (the
// engine sets no policy, so none comes), no command, no memory access; cnt_wr_o - a register
// write (registered); idle_o - no counter pulse on its way.
`default_nettype none

module cni_probe_engine #(
  parameter int LineBytes = 128,
  parameter int LineIdxW  = 11,
  parameter int Base      = 0,
  parameter int Lines     = 4,
  localparam int LineBits = LineBytes * 8
) (
  input  wire logic                            clk_i,
  input  wire logic                            rst_ni,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic                            evt_valid_i,
  input  wire logic [cni_coh_pkg::EVT_W-1:0]   evt_kind_i,
  input  wire logic [LineIdxW-1:0]             evt_line_i,
  input  wire logic [cni_coh_pkg::OP_W-1:0]    evt_op_i,
  input  wire logic [cni_coh_pkg::AGENT_W-1:0] evt_src_i,
  input  wire logic                            cmd_ready_i,
  input  wire logic                            mem_gnt_i,
  input  wire logic [LineBits-1:0]             mem_rdata_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic                                 evt_ready_o,
  output logic                                 cmd_valid_o,
  output logic [cni_coh_pkg::CMD_W-1:0]        cmd_op_o,
  output logic [cni_coh_pkg::ARG_W-1:0]        cmd_arg_o,
  output logic [LineIdxW-1:0]                  cmd_line_o,
  output logic                                 mem_en_o,
  output logic                                 mem_we_o,
  output logic [LineIdxW-1:0]                  mem_addr_o,
  output logic [LineBits-1:0]                  mem_wdata_o,
  input  wire logic                            reg_valid_i,
  input  wire logic                            reg_we_i,
  input  wire logic [7:0]                      reg_addr_i,
  input  wire logic [31:0]                     reg_wdata_i,
  output logic [31:0]                          reg_rdata_o,
  output logic                                 idle_o,
  output logic                                 cnt_wr_o
);

  // The window's offsets (R_ID, R_SCRATCH, R_BASE, R_LINES), from its SystemRDL description
  // (tests/plugin/rtl/cni_probe.rdl) through the generated constants.
`include "cni_engine_probe_consts.svh"
  localparam logic [31:0] ID = 32'h5052_4F42;  // "PROB"

  assign evt_ready_o = 1'b1;
  assign cmd_valid_o = 1'b0;
  assign cmd_op_o    = '0;
  assign cmd_arg_o   = '0;
  assign cmd_line_o  = '0;
  assign mem_en_o    = 1'b0;
  assign mem_we_o    = 1'b0;
  assign mem_addr_o  = '0;
  assign mem_wdata_o = '0;
  assign idle_o      = !cnt_wr_o;  // a counter pulse on its way is a change

  logic [31:0] scratch_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      scratch_q   <= '0;
      reg_rdata_o <= '0;
      cnt_wr_o    <= 1'b0;
    end else begin
      cnt_wr_o <= reg_valid_i && reg_we_i;
      if (reg_valid_i && reg_we_i && reg_addr_i == R_SCRATCH) scratch_q <= reg_wdata_i;
      if (reg_valid_i && !reg_we_i) begin
        unique case (reg_addr_i)
          R_ID:      reg_rdata_o <= ID;
          R_SCRATCH: reg_rdata_o <= scratch_q;
          R_BASE:    reg_rdata_o <= 32'(Base);
          R_LINES:   reg_rdata_o <= 32'(Lines);
          default:   reg_rdata_o <= '0;
        endcase
      end
    end
  end

endmodule
