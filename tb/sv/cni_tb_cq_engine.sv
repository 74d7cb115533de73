// SPDX-License-Identifier: Apache-2.0
// Test view of the CNI cache/queue engine (tests/cni): cni_cq_engine with each field of its
// engine records (cni_engine_types.svh) on a port of its own, so the block tests' harness drives
// and reads the fields by name. Wiring only.
//
// Parameters: Config, LineBytes, LineIdxW, Base, EarlyPull, Retransmit - as cni_cq_engine's (the
// rest at its defaults: NetBytes 64, CacheIdW 4).
// Ports: clk_i, rst_ni, idle_o - the engine's; the fields of its records: evt_valid_i/
// evt_ready_o and evt_kind_i, evt_line_i, evt_op_i, evt_src_i; cmd_valid_o/cmd_ready_i and
// cmd_op_o, cmd_arg_o, cmd_line_o; mem_en_o, mem_we_o, mem_addr_o, mem_wdata_o, mem_gnt_i,
// mem_rdata_i; reg_valid_i, reg_we_i, reg_addr_i, reg_wdata_i, reg_rdata_o; node_id_i; ntx_*
// (frames out) and nrx_* (frames in); ca_req_* and ca_rsp_* (the caching agent).
`default_nettype none

module cni_tb_cq_engine #(
  parameter int Config    = cni_cq_pkg::CFG_CNI16Q,
  parameter int LineBytes = 128,
  parameter int LineIdxW  = 12,
  parameter int Base      = 0,
  parameter int EarlyPull = 0,
  parameter int Retransmit = 0,
  localparam int NetBytes = 64,
  localparam int CacheIdW = 4,
  localparam int LineBits = LineBytes * 8,
  localparam int NetW     = NetBytes * 8
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
  output logic [LineBits-1:0]                  mem_wdata_o,
  input  wire logic                            mem_gnt_i,
  input  wire logic [LineBits-1:0]             mem_rdata_i,
  input  wire logic                            reg_valid_i,
  input  wire logic                            reg_we_i,
  input  wire logic [7:0]                      reg_addr_i,
  input  wire logic [31:0]                     reg_wdata_i,
  output logic [31:0]                          reg_rdata_o,
  output logic                                 idle_o,
  input  wire logic [15:0]                     node_id_i,
  output logic                                 ntx_valid_o,
  input  wire logic                            ntx_ready_i,
  output logic [NetW-1:0]                      ntx_data_o,
  output logic [NetBytes-1:0]                  ntx_keep_o,
  output logic                                 ntx_last_o,
  output logic [15:0]                          ntx_dest_o,
  input  wire logic                            nrx_valid_i,
  output logic                                 nrx_ready_o,
  input  wire logic [NetW-1:0]                 nrx_data_i,
  input  wire logic [NetBytes-1:0]             nrx_keep_i,
  input  wire logic                            nrx_last_i,
  input  wire logic                            nrx_user_i,
  output logic                                 ca_req_valid_o,
  input  wire logic                            ca_req_ready_i,
  output logic [cni_coh_pkg::CA_OP_W-1:0]      ca_req_op_o,
  output logic [cni_coh_pkg::ADDR_W-1:0]       ca_req_addr_o,
  output logic [LineBits-1:0]                  ca_req_data_o,
  output logic [LineBytes-1:0]                 ca_req_be_o,
  output logic [CacheIdW-1:0]                  ca_req_id_o,
  input  wire logic                            ca_rsp_valid_i,
  output logic                                 ca_rsp_ready_o,
  input  wire logic [CacheIdW-1:0]             ca_rsp_id_i,
  input  wire logic [LineBits-1:0]             ca_rsp_data_i,
  input  wire logic                            ca_rsp_err_i
);

`include "cni_engine_types.svh"

  eng_evt_req_t evt;
  eng_evt_rsp_t evt_s;
  eng_cmd_req_t cmd;
  eng_cmd_rsp_t cmd_s;
  eng_mem_req_t mem;
  eng_mem_rsp_t mem_s;
  eng_reg_req_t rq;
  eng_reg_rsp_t reg_s;
  eng_net_req_t net;
  eng_net_rsp_t net_s;
  eng_ca_req_t  ca;
  eng_ca_rsp_t  ca_s;
  always_comb begin
    evt.valid      = evt_valid_i;
    evt.kind       = evt_kind_i;
    evt.line       = evt_line_i;
    evt.op         = evt_op_i;
    evt.src        = evt_src_i;
    cmd_s.ready    = cmd_ready_i;
    mem_s.gnt      = mem_gnt_i;
    mem_s.rdata    = mem_rdata_i;
    rq.valid       = reg_valid_i;
    rq.we          = reg_we_i;
    rq.priv        = 1'b1;  // (the harness's accesses are the management path's)
    rq.ctx         = '0;
    rq.addr        = reg_addr_i;
    rq.wdata       = reg_wdata_i;
    net_s.node_id  = node_id_i;
    net_s.tx_ready = ntx_ready_i;
    net_s.rx_valid = nrx_valid_i;
    net_s.rx_data  = nrx_data_i;
    net_s.rx_keep  = nrx_keep_i;
    net_s.rx_last  = nrx_last_i;
    net_s.rx_user  = nrx_user_i;
    net_s.rx_chan  = 1'b0;
    net_s.tx_room  = 2'b11;
    ca_s.ready     = ca_req_ready_i;
    ca_s.rsp_valid = ca_rsp_valid_i;
    ca_s.rsp_id    = ca_rsp_id_i;
    ca_s.rsp_data  = ca_rsp_data_i;
    ca_s.rsp_err   = ca_rsp_err_i;
  end
  assign evt_ready_o    = evt_s.ready;
  assign cmd_valid_o    = cmd.valid;
  assign cmd_op_o       = cmd.op;
  assign cmd_arg_o      = cmd.arg;
  assign cmd_line_o     = cmd.line;
  assign mem_en_o       = mem.en;
  assign mem_we_o       = mem.we;
  assign mem_addr_o     = mem.addr;
  assign mem_wdata_o    = mem.wdata;
  assign reg_rdata_o    = reg_s.rdata;
  assign ntx_valid_o    = net.tx_valid;
  assign ntx_data_o     = net.tx_data;
  assign ntx_keep_o     = net.tx_keep;
  assign ntx_last_o     = net.tx_last;
  assign ntx_dest_o     = net.tx_dest;
  assign nrx_ready_o    = net.rx_ready[0];  // (the engine ties both channels together)
  assign ca_req_valid_o = ca.valid;
  assign ca_req_op_o    = ca.op;
  assign ca_req_addr_o  = ca.addr;
  assign ca_req_data_o  = ca.data;
  assign ca_req_be_o    = ca.be;
  assign ca_req_id_o    = ca.id;
  assign ca_rsp_ready_o = ca.rsp_ready;

  cni_cq_engine #(
    .Config (Config), .LineBytes (LineBytes), .LineIdxW (LineIdxW), .NetBytes (NetBytes),
    .CacheIdW (CacheIdW), .Base (Base), .EarlyPull (EarlyPull),
    .Retransmit (Retransmit)
  ) u_dut (
    .clk_i, .rst_ni,
    .evt_req_i (evt), .evt_rsp_o (evt_s), .cmd_req_o (cmd), .cmd_rsp_i (cmd_s),
    .mem_req_o (mem), .mem_rsp_i (mem_s), .reg_req_i (rq), .reg_rsp_o (reg_s),
    .net_req_o (net), .net_rsp_i (net_s), .ca_req_o (ca), .ca_rsp_i (ca_s), .idle_o,
    /* verilator lint_off PINCONNECTEMPTY */
    .rx_msg_o ()  // (the tag store's signal: not in the engine's unit tests)
    /* verilator lint_on PINCONNECTEMPTY */
  );

endmodule
