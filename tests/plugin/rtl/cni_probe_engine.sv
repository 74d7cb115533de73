// SPDX-License-Identifier: Apache-2.0
// A minimal engine for the plug-in test (tests/plugin): a register window and a region of lines,
// no commands, no memory accesses. Registers (cni_probe.rdl): ID ("PROB"), SCRATCH (RW), BASE
// (the region's first line), LINES; read data the cycle after the access. A register write pulses cnt_wr_o (an endpoint counter).
//
// Parameters: LineBytes, LineIdxW, NetBytes, CacheIdW - the platform's (every engine's); Base,
// Lines - its region.
// Ports: the engine records (cni_engine_types.svh; docs/architecture.md, "The engine contract"):
// events are taken and ignored (the engine sets no policy, so none comes), no command, no memory
// access, the register window; cnt_wr_o - a register write (registered); idle_o - no counter
// pulse on its way.
`default_nettype none

module cni_probe_engine #(
  parameter int LineBytes = 128,
  parameter int LineIdxW  = 11,
  parameter int NetBytes  = 64,
  parameter int CacheIdW  = 4,
  parameter int Base      = 0,
  parameter int Lines     = 4
) (
  input  wire logic                                                 clk_i,
  input  wire logic                                                 rst_ni,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [cni_coh_pkg::eng_evt_req_w(LineIdxW)-1:0]      evt_req_i,
  input  wire logic [cni_coh_pkg::ENG_CMD_RSP_W-1:0]                cmd_rsp_i,
  input  wire logic [cni_coh_pkg::eng_mem_rsp_w(LineBytes)-1:0]     mem_rsp_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [cni_coh_pkg::ENG_EVT_RSP_W-1:0]                     evt_rsp_o,
  output logic [cni_coh_pkg::eng_cmd_req_w(LineIdxW)-1:0]           cmd_req_o,
  output logic [cni_coh_pkg::eng_mem_req_w(LineIdxW, LineBytes)-1:0] mem_req_o,
  input  wire logic [cni_coh_pkg::ENG_REG_REQ_W-1:0]                reg_req_i,
  output logic [cni_coh_pkg::ENG_REG_RSP_W-1:0]                     reg_rsp_o,
  output logic                                                      idle_o,
  output logic                                                      cnt_wr_o
);

  // The window's offsets (R_ID, R_SCRATCH, R_BASE, R_LINES), from its SystemRDL description
  // (tests/plugin/rtl/cni_probe.rdl) through the generated constants.
`include "cni_engine_probe_consts.svh"
`include "cni_engine_types.svh"
  localparam logic [31:0] ID = 32'h5052_4F42;  // "PROB"

  /* verilator lint_off UNUSEDSIGNAL */
  eng_reg_req_t rq;  // priv, ctx: one window, no privileged register
  /* verilator lint_on UNUSEDSIGNAL */
  assign rq = reg_req_i;

  assign evt_rsp_o = 1'b1;
  assign cmd_req_o = '0;
  assign mem_req_o = '0;
  assign idle_o    = !cnt_wr_o;  // a counter pulse on its way is a change

  logic [31:0] scratch_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      scratch_q <= '0;
      reg_rsp_o <= '0;
      cnt_wr_o  <= 1'b0;
    end else begin
      cnt_wr_o <= rq.valid && rq.we;
      if (rq.valid && rq.we && rq.addr == R_SCRATCH) scratch_q <= rq.wdata;
      if (rq.valid && !rq.we) begin
        unique case (rq.addr)
          R_ID:      reg_rsp_o <= ID;
          R_SCRATCH: reg_rsp_o <= scratch_q;
          R_BASE:    reg_rsp_o <= 32'(Base);
          R_LINES:   reg_rsp_o <= 32'(Lines);
          default:   reg_rsp_o <= '0;
        endcase
      end
    end
  end

endmodule
