// SPDX-License-Identifier: Apache-2.0
// Test view of the PIO engine (tests/pio): cni_pio_engine with each field of its engine records
// (cni_engine_types.svh) on a port of its own, so the block tests' harness drives and reads the
// fields by name. Wiring only, synthesizable: the netlist test (tb/rtl_netlist.cmake) synthesizes
// it around the engine, so the same harness runs on the gate netlist.
//
// Parameters: as cni_pio_engine's (NetBytes and CacheIdW, which it does not use, at their
// defaults).
// Ports: clk_i, rst_ni, pa_*, pb_*, cnt_*, idle_o - the engine's; evt_*, cmd_*, mem_*, reg_* -
// the fields of its records: evt_valid_i/evt_ready_o and evt_kind_i, evt_line_i, evt_op_i,
// evt_src_i; cmd_valid_o/cmd_ready_i and cmd_op_o, cmd_arg_o, cmd_line_o; mem_en_o, mem_we_o,
// mem_addr_o, mem_wdata_o, mem_gnt_i, mem_rdata_i; reg_valid_i, reg_we_i, reg_addr_i,
// reg_wdata_i, reg_rdata_o.
`default_nettype none

module cni_tb_pio_engine #(
  parameter int LineBytes = 128,
  parameter int LineIdxW  = 12,
  parameter int CBase     = 1024,
  parameter int CPairs    = 256,
  parameter int ABase     = 1536,
  parameter int NOvfA     = 76,
  parameter int BBase     = 1614,
  parameter int NOvfB     = 76,
  parameter int BloomFoldWords = LineBytes / 4,
  parameter int EvtReg    = 0,
  parameter int RdReg     = 0,
  parameter int ReqReg    = 0
) (
  input  wire logic                            clk_i,
  input  wire logic                            rst_ni,
  input  wire logic                            evt_valid_i,
  output logic                                 evt_ready_o,
  input  wire logic [cni_coh_pkg::EVT_W-1:0]   evt_kind_i,
  input  wire logic [LineIdxW-1:0]             evt_line_i,
  input  wire logic [cni_coh_pkg::OP_W-1:0]    evt_op_i,
  input  wire logic [cni_coh_pkg::AGENT_W-1:0] evt_src_i,
  output logic                                 cmd_valid_o,
  input  wire logic                            cmd_ready_i,
  output logic [cni_coh_pkg::CMD_W-1:0]        cmd_op_o,
  output logic [cni_coh_pkg::ARG_W-1:0]        cmd_arg_o,
  output logic [LineIdxW-1:0]                  cmd_line_o,
  output logic                                 mem_en_o,
  output logic                                 mem_we_o,
  output logic [LineIdxW-1:0]                  mem_addr_o,
  output logic [LineBytes*8-1:0]               mem_wdata_o,
  input  wire logic                            mem_gnt_i,
  input  wire logic [LineBytes*8-1:0]          mem_rdata_i,
  input  wire logic                            reg_valid_i,
  input  wire logic                            reg_we_i,
  input  wire logic [7:0]                      reg_addr_i,
  input  wire logic [31:0]                     reg_wdata_i,
  output logic [31:0]                          reg_rdata_o,
  output logic                                 pa_valid_o,
  input  wire logic                            pa_ready_i,
  output logic [LineBytes*8-1:0]               pa_data_o,
  output logic [15:0]                          pa_len_o,
  output logic                                 pa_last_o,
  input  wire logic                            pb_valid_i,
  output logic                                 pb_ready_o,
  input  wire logic [LineBytes*8-1:0]          pb_data_i,
  input  wire logic [15:0]                     pb_len_i,
  input  wire logic                            pb_last_i,
  output logic                                 cnt_c_invoke_o,
  output logic                                 cnt_a_msg_o,
  output logic                                 cnt_b_msg_o,
  output logic                                 idle_o
);

  localparam int NetBytes = 64;
  localparam int CacheIdW = 4;
`include "cni_engine_types.svh"

  eng_evt_req_t evt;
  eng_evt_rsp_t evt_s;
  eng_cmd_req_t cmd;
  eng_cmd_rsp_t cmd_s;
  eng_mem_req_t mem;
  eng_mem_rsp_t mem_s;
  eng_reg_req_t rq;
  eng_reg_rsp_t reg_s;
  always_comb begin
    evt.valid   = evt_valid_i;
    evt.kind    = evt_kind_i;
    evt.line    = evt_line_i;
    evt.op      = evt_op_i;
    evt.src     = evt_src_i;
    cmd_s.ready = cmd_ready_i;
    mem_s.gnt   = mem_gnt_i;
    mem_s.rdata = mem_rdata_i;
    rq.valid    = reg_valid_i;
    rq.we       = reg_we_i;
    rq.priv     = 1'b1;  // (the harness's accesses are the management path's)
    rq.ctx      = '0;
    rq.addr     = reg_addr_i;
    rq.wdata    = reg_wdata_i;
  end
  assign evt_ready_o = evt_s.ready;
  assign cmd_valid_o = cmd.valid;
  assign cmd_op_o    = cmd.op;
  assign cmd_arg_o   = cmd.arg;
  assign cmd_line_o  = cmd.line;
  assign mem_en_o    = mem.en;
  assign mem_we_o    = mem.we;
  assign mem_addr_o  = mem.addr;
  assign mem_wdata_o = mem.wdata;
  assign reg_rdata_o = reg_s.rdata;

  cni_pio_engine #(
    .LineBytes (LineBytes), .LineIdxW (LineIdxW), .NetBytes (NetBytes), .CacheIdW (CacheIdW),
    .CBase (CBase), .CPairs (CPairs), .ABase (ABase), .NOvfA (NOvfA), .BBase (BBase),
    .NOvfB (NOvfB), .BloomFoldWords (BloomFoldWords), .EvtReg (EvtReg), .RdReg (RdReg),
    .ReqReg (ReqReg)
  ) u_dut (
    .clk_i, .rst_ni,
    .evt_req_i (evt), .evt_rsp_o (evt_s), .cmd_req_o (cmd), .cmd_rsp_i (cmd_s),
    .mem_req_o (mem), .mem_rsp_i (mem_s), .reg_req_i (rq), .reg_rsp_o (reg_s),
    .pa_valid_o, .pa_ready_i, .pa_data_o, .pa_len_o, .pa_last_o,
    .pb_valid_i, .pb_ready_o, .pb_data_i, .pb_len_i, .pb_last_i,
    .cnt_c_invoke_o, .cnt_a_msg_o, .cnt_b_msg_o, .idle_o
  );

endmodule
