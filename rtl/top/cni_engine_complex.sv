// SPDX-License-Identifier: Apache-2.0
// The engine complex: the engines of the engine registry (rtl/engines.toml), the engine bus that
// joins them to the home agent, line memory port B and the register windows, and the network
// switch that shares the network port among them; their requests to the caching agent go out as
// the caching agent's arbiter takes them (sources 1 + k of cni_ca_arb in cni_endpoint).
// docs/architecture.md ("The engine contract"), docs/endpoint.md ("Engine bus").
//
// Parameters: the endpoint's (docs/endpoint.md, "Parameters") that engines use, and the engines'
// own (cni_engine_params.svh, from the registry; RegionLines, the address map they make).
// Ports:
//   evt_*        - events from the home agent (valid/ready; the owning engine may stall them)
//   cmd_*        - the engines' commands to the home agent, one at a time (valid/ready)
//   mem_*        - port B of the line memory, or of a DRAM-backed line's frame (synchronous
//                  read: data the cycle after a cycle with mem_ready_i)
//   reg_*        - an engine register access (the CSR block's or the NC unit's): one cycle, the
//                  engine's read data the cycle after (reg_rdata_o)
//   ca_req_*, ca_rsp_*
//                - the engines' caching-agent requests and responses, engine k at [k] /
//                  [k*W +: W] (valid/ready each way; the response's id, data and error shared)
//   m_axis_net_*, s_axis_net_*, net_tx_room_i, net_rx_room_o
//                - the network port (cni_net_switch) and its room per channel; node_id_i, this
//                  device's node
//   engine ports - the engines' own (cni_engine_ports.svh)
//   cnt_o        - the engines' counters, in the registry's order (CSR counters
//                  NUM_PLATFORM_CNT and up); cnt_drop_o: a network frame no engine takes
//   idle_o       - the bus, the switch and every engine idle (docs/endpoint.md, "Quiescence")
`default_nettype none

module cni_engine_complex #(
  parameter int          LineBytes = 128,
  parameter int          MemLines  = 1024,
  parameter int          CacheIdW  = 4,
  parameter int          TtEntries = 32,
  parameter int          TtReserve = 8,
  parameter int          Pipelined = 0,
  parameter int          NetBytes  = 64,
  parameter int          DramIdxW  = 0,
`include "cni_engine_params.svh"
  localparam int LineBits = LineBytes * 8,
  localparam int NumLines = cni_amap_pkg::total(RegionLines),
  // a line index: the home agent's (on-chip and DRAM-backed lines)
  localparam int LineIdxW = cni_coh_pkg::line_idx_w(NumLines, DramIdxW),
  localparam int NE       = cni_amap_pkg::NUM_ENGINES,
  localparam int NetW     = NetBytes * 8,
  localparam int CntW     = (cni_amap_pkg::NUM_CNT > cni_amap_pkg::NUM_PLATFORM_CNT)
                            ? cni_amap_pkg::NUM_CNT - cni_amap_pkg::NUM_PLATFORM_CNT : 1
) (
  input  wire logic                                clk_i,
  input  wire logic                                rst_ni,
  // home agent
  input  wire logic                                evt_valid_i,
  output logic                                     evt_ready_o,
  input  wire logic [cni_coh_pkg::EVT_W-1:0]       evt_kind_i,
  input  wire logic [LineIdxW-1:0]                 evt_line_i,
  input  wire logic [cni_amap_pkg::REGION_W-1:0]   evt_region_i,
  input  wire logic [cni_coh_pkg::OP_W-1:0]        evt_op_i,
  input  wire logic [cni_coh_pkg::AGENT_W-1:0]     evt_src_i,
  output logic                                     cmd_valid_o,
  input  wire logic                                cmd_ready_i,
  output logic [cni_coh_pkg::CMD_W-1:0]            cmd_op_o,
  output logic [cni_coh_pkg::ARG_W-1:0]            cmd_arg_o,
  output logic [LineIdxW-1:0]                      cmd_line_o,
  // line memory, port B
  output logic                                     mem_en_o,
  output logic                                     mem_we_o,
  output logic [LineIdxW-1:0]                      mem_addr_o,
  output logic [LineBits-1:0]                      mem_wdata_o,
  input  wire logic                                mem_ready_i,
  input  wire logic [LineBits-1:0]                 mem_rdata_i,
  // register windows
  input  wire logic                                reg_valid_i,
  input  wire logic                                reg_we_i,
  input  wire logic                                reg_priv_i,
  input  wire logic [3:0]                          reg_ctx_i,
  input  wire logic [$clog2(NE + 1)-1:0]           reg_eng_i,
  input  wire logic [7:0]                          reg_addr_i,
  input  wire logic [31:0]                         reg_wdata_i,
  output logic [31:0]                              reg_rdata_o,
  // caching agent (its arbiter's sources 1 + k)
  output logic [NE-1:0]                            ca_req_valid_o,
  /* verilator lint_off UNUSEDSIGNAL */  // (read only by engines that use the agent)
  input  wire logic [NE-1:0]                       ca_req_ready_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [NE*cni_coh_pkg::CA_OP_W-1:0]       ca_req_op_o,
  output logic [NE*cni_coh_pkg::ADDR_W-1:0]        ca_req_addr_o,
  output logic [NE*LineBits-1:0]                   ca_req_data_o,
  output logic [NE*LineBytes-1:0]                  ca_req_be_o,
  output logic [NE*CacheIdW-1:0]                   ca_req_id_o,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [NE-1:0]                       ca_rsp_valid_i,
  input  wire logic [CacheIdW-1:0]                 ca_rsp_id_i,
  input  wire logic [LineBits-1:0]                 ca_rsp_data_i,
  input  wire logic                                ca_rsp_err_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [NE-1:0]                            ca_rsp_ready_o,
  // network port
  output logic                                     m_axis_net_tvalid_o,
  input  wire logic                                m_axis_net_tready_i,
  output logic [NetW-1:0]                          m_axis_net_tdata_o,
  output logic [NetBytes-1:0]                      m_axis_net_tkeep_o,
  output logic                                     m_axis_net_tlast_o,
  output logic [15:0]                              m_axis_net_tdest_o,
  input  wire logic [1:0]                          net_tx_room_i,
  input  wire logic                                s_axis_net_tvalid_i,
  output logic                                     s_axis_net_tready_o,
  input  wire logic [NetW-1:0]                     s_axis_net_tdata_i,
  input  wire logic [NetBytes-1:0]                 s_axis_net_tkeep_i,
  input  wire logic                                s_axis_net_tlast_i,
  input  wire logic                                s_axis_net_tuser_i,
  output logic [1:0]                               net_rx_room_o,
  /* verilator lint_off UNUSEDSIGNAL */  // (read by the engines with a network port)
  input  wire logic [15:0]                         node_id_i,
  /* verilator lint_on UNUSEDSIGNAL */
`include "cni_engine_ports.svh"
  output logic [CntW-1:0]                          cnt_o,
  output logic                                     cnt_drop_o,
  output logic                                     idle_o
);

`include "cni_engine_types.svh"

  // The engine bus: events to the owner of their line, one command at a time to the home agent,
  // memory port B shared by priority, the engines' register windows. Engine k's signals are the
  // k-th slices of the eb_* vectors.
  logic [NE-1:0]                       eb_evt_valid, eb_evt_ready, eb_cmd_valid, eb_cmd_ready;
  logic [NE*cni_coh_pkg::CMD_W-1:0]    eb_cmd_op;
  logic [NE*cni_coh_pkg::ARG_W-1:0]    eb_cmd_arg;
  logic [NE*LineIdxW-1:0]              eb_cmd_line, eb_mem_addr;
  logic [NE-1:0]                       eb_mem_en, eb_mem_we, eb_mem_gnt, eb_reg_valid;
  logic [NE*LineBits-1:0]              eb_mem_wdata;
  logic [NE*32-1:0]                    eb_reg_rdata;
  logic [NE-1:0]                       eb_idle;
  logic                                bus_idle, net_idle;
  // the engines' network ports: frames out per engine, frames in shared.
  // Only engines with a port read the readies and the frames in: a configuration without one
  // (no scratch-pad engine) leaves them unread.
  logic [NE-1:0]                       eb_ntx_valid, eb_ntx_last;
  logic [2*NE-1:0]                     eb_nrx_ready;   // engine k's channels at [2k +: 2]
  logic [NE*NetW-1:0]                  eb_ntx_data;
  logic [NE*NetBytes-1:0]              eb_ntx_keep;
  logic [NE*16-1:0]                    eb_ntx_dest;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NE-1:0]                       eb_ntx_ready, eb_nrx_valid;
  logic [NetW-1:0]                     nrx_data;
  logic [NetBytes-1:0]                 nrx_keep;
  logic                                nrx_last, nrx_user, nrx_chan;
  /* verilator lint_on UNUSEDSIGNAL */

  cni_engine_bus #(
    .RegionLines (RegionLines), .LineBytes (LineBytes), .LineIdxW (LineIdxW), .DramIdxW (DramIdxW)
  ) u_bus (
    .clk_i, .rst_ni,
    .evt_valid_i, .evt_ready_o, .evt_line_i, .evt_region_i,
    .cmd_valid_o, .cmd_ready_i, .cmd_op_o, .cmd_arg_o, .cmd_line_o,
    .mem_en_o, .mem_we_o, .mem_addr_o, .mem_wdata_o, .mem_ready_i,
    .reg_valid_i, .reg_eng_i, .reg_rdata_o,
    .eb_evt_valid_o (eb_evt_valid), .eb_evt_ready_i (eb_evt_ready),
    .eb_cmd_valid_i (eb_cmd_valid), .eb_cmd_ready_o (eb_cmd_ready), .eb_cmd_op_i (eb_cmd_op),
    .eb_cmd_arg_i (eb_cmd_arg), .eb_cmd_line_i (eb_cmd_line),
    .eb_mem_en_i (eb_mem_en), .eb_mem_we_i (eb_mem_we), .eb_mem_addr_i (eb_mem_addr),
    .eb_mem_wdata_i (eb_mem_wdata), .eb_mem_gnt_o (eb_mem_gnt),
    .eb_reg_valid_o (eb_reg_valid), .eb_reg_rdata_i (eb_reg_rdata), .idle_o (bus_idle)
  );

  // ---- engines (the engine registry, rtl/engines.toml; docs/architecture.md) -----------------
  // EngPresent (the engines this configuration has), the engines' counters cnt_eng (NumEngCnt of
  // them), an absent engine's own outputs tied off; the instances are in the loop below.
`include "cni_engines.svh"
  if (NumEngCnt != cni_amap_pkg::NUM_CNT - cni_amap_pkg::NUM_PLATFORM_CNT)
    $error("cni_engine_complex: the engines' counters do not match the registry's counters");
  assign cnt_o = cnt_eng;

  // Each engine: its records, its instance on them (cni_engine_insts.svh, from the registry),
  // and the records joined to the engine bus, the network switch and the caching agent's arbiter.
  // An engine this configuration leaves out presents nothing and takes everything; so do the
  // network and caching-agent ports of an engine without them (cni_amap_pkg::ENG_NET, ENG_CA).
  // (The caching agent answers no source that made no request.) The records are built only where
  // engine k has the channel: a record costs a copy of its wide fields in every evaluation.
  for (genvar k = 0; k < NE; k++) begin : g_eng
    // (each record is declared for every k, and built and read only where engine k has the
    // channel: an absent engine's, and the network and caching-agent records of an engine
    // without those ports, stay unused; split_var: Verilator keeps each field a variable of its
    // own, so a field that is another signal, such as the line memory's read data, is that
    // signal rather than a copy made in every evaluation)
    /* verilator lint_off UNUSEDSIGNAL */
    /* verilator lint_off UNDRIVEN */
    eng_evt_req_t evt_q /* verilator split_var */;
    eng_evt_rsp_t evt_s;
    eng_cmd_req_t cmd_q;
    eng_cmd_rsp_t cmd_s;
    eng_mem_req_t mem_q /* verilator split_var */;
    eng_mem_rsp_t mem_s /* verilator split_var */;
    eng_reg_req_t reg_q /* verilator split_var */;
    eng_reg_rsp_t reg_s;
    eng_net_req_t net_q /* verilator split_var */;
    eng_net_rsp_t net_s /* verilator split_var */;
    eng_ca_req_t  ca_q /* verilator split_var */;
    eng_ca_rsp_t  ca_s /* verilator split_var */;
    /* verilator lint_on UNDRIVEN */
    /* verilator lint_on UNUSEDSIGNAL */
`include "cni_engine_insts.svh"
    if (EngPresent[k]) begin : g_bus
      always_comb begin
        evt_q.valid = eb_evt_valid[k];
        evt_q.kind  = evt_kind_i;
        evt_q.line  = evt_line_i;
        evt_q.op    = evt_op_i;
        evt_q.src   = evt_src_i;
        cmd_s.ready = eb_cmd_ready[k];
        mem_s.gnt   = eb_mem_gnt[k];
        mem_s.rdata = mem_rdata_i;
        reg_q.valid = eb_reg_valid[k];
        reg_q.we    = reg_we_i;
        reg_q.priv  = reg_priv_i;
        reg_q.ctx   = reg_ctx_i;
        reg_q.addr  = reg_addr_i;
        reg_q.wdata = reg_wdata_i;
      end
      assign eb_evt_ready[k] = evt_s.ready;
      assign eb_cmd_valid[k] = cmd_q.valid;
      assign eb_cmd_op[k * cni_coh_pkg::CMD_W +: cni_coh_pkg::CMD_W] = cmd_q.op;
      assign eb_cmd_arg[k * cni_coh_pkg::ARG_W +: cni_coh_pkg::ARG_W] = cmd_q.arg;
      assign eb_cmd_line[k * LineIdxW +: LineIdxW] = cmd_q.line;
      assign eb_mem_en[k] = mem_q.en;
      assign eb_mem_we[k] = mem_q.we;
      assign eb_mem_addr[k * LineIdxW +: LineIdxW] = mem_q.addr;
      assign eb_mem_wdata[k * LineBits +: LineBits] = mem_q.wdata;
      assign eb_reg_rdata[k * 32 +: 32] = reg_s.rdata;
    end else begin : g_no_bus
      assign eb_evt_ready[k] = 1'b1;
      assign eb_cmd_valid[k] = 1'b0;
      assign eb_cmd_op[k * cni_coh_pkg::CMD_W +: cni_coh_pkg::CMD_W] = '0;
      assign eb_cmd_arg[k * cni_coh_pkg::ARG_W +: cni_coh_pkg::ARG_W] = '0;
      assign eb_cmd_line[k * LineIdxW +: LineIdxW] = '0;
      assign eb_mem_en[k] = 1'b0;
      assign eb_mem_we[k] = 1'b0;
      assign eb_mem_addr[k * LineIdxW +: LineIdxW] = '0;
      assign eb_mem_wdata[k * LineBits +: LineBits] = '0;
      assign eb_reg_rdata[k * 32 +: 32] = '0;
      assign eb_idle[k] = 1'b1;
      /* verilator lint_off UNUSEDSIGNAL */
      wire unused_bus = ^{eb_evt_valid[k], eb_cmd_ready[k], eb_mem_gnt[k], eb_reg_valid[k]};
      /* verilator lint_on UNUSEDSIGNAL */
    end
    if (cni_amap_pkg::ENG_NET[k] && EngPresent[k]) begin : g_net
      always_comb begin
        net_s.node_id  = node_id_i;
        net_s.tx_ready = eb_ntx_ready[k];
        net_s.rx_valid = eb_nrx_valid[k];
        net_s.rx_data  = nrx_data;
        net_s.rx_keep  = nrx_keep;
        net_s.rx_last  = nrx_last;
        net_s.rx_user  = nrx_user;
        net_s.rx_chan  = nrx_chan;
        net_s.tx_room  = net_tx_room_i;
      end
      assign eb_ntx_valid[k] = net_q.tx_valid;
      assign eb_ntx_data[k * NetW +: NetW] = net_q.tx_data;
      assign eb_ntx_keep[k * NetBytes +: NetBytes] = net_q.tx_keep;
      assign eb_ntx_last[k] = net_q.tx_last;
      assign eb_ntx_dest[k * 16 +: 16] = net_q.tx_dest;
      assign eb_nrx_ready[2 * k +: 2] = net_q.rx_ready;
    end else begin : g_no_net
      assign eb_ntx_valid[k] = 1'b0;
      assign eb_ntx_data[k * NetW +: NetW] = '0;
      assign eb_ntx_keep[k * NetBytes +: NetBytes] = '0;
      assign eb_ntx_last[k] = 1'b0;
      assign eb_ntx_dest[k * 16 +: 16] = '0;
      assign eb_nrx_ready[2 * k +: 2] = 2'b11;
    end
    if (cni_amap_pkg::ENG_CA[k] && EngPresent[k]) begin : g_ca
      always_comb begin
        ca_s.ready     = ca_req_ready_i[k];
        ca_s.rsp_valid = ca_rsp_valid_i[k];
        ca_s.rsp_id    = ca_rsp_id_i;
        ca_s.rsp_data  = ca_rsp_data_i;
        ca_s.rsp_err   = ca_rsp_err_i;
      end
      assign ca_req_valid_o[k] = ca_q.valid;
      assign ca_req_op_o[k * cni_coh_pkg::CA_OP_W +: cni_coh_pkg::CA_OP_W] = ca_q.op;
      assign ca_req_addr_o[k * cni_coh_pkg::ADDR_W +: cni_coh_pkg::ADDR_W] = ca_q.addr;
      assign ca_req_data_o[k * LineBits +: LineBits] = ca_q.data;
      assign ca_req_be_o[k * LineBytes +: LineBytes] = ca_q.be;
      assign ca_req_id_o[k * CacheIdW +: CacheIdW] = ca_q.id;
      assign ca_rsp_ready_o[k] = ca_q.rsp_ready;
    end else begin : g_no_ca
      assign ca_req_valid_o[k] = 1'b0;
      assign ca_req_op_o[k * cni_coh_pkg::CA_OP_W +: cni_coh_pkg::CA_OP_W] = '0;
      assign ca_req_addr_o[k * cni_coh_pkg::ADDR_W +: cni_coh_pkg::ADDR_W] = '0;
      assign ca_req_data_o[k * LineBits +: LineBits] = '0;
      assign ca_req_be_o[k * LineBytes +: LineBytes] = '0;
      assign ca_req_id_o[k * CacheIdW +: CacheIdW] = '0;
      assign ca_rsp_ready_o[k] = 1'b1;
    end
  end

  // ---- network port --------------------------------------------------------------------------
  cni_net_switch #(
    .NetBytes (NetBytes),
    .Present  (EngPresent)
  ) u_net (
    .clk_i, .rst_ni,
    .m_axis_net_tvalid_o, .m_axis_net_tready_i, .m_axis_net_tdata_o, .m_axis_net_tkeep_o,
    .m_axis_net_tlast_o, .m_axis_net_tdest_o, .tx_room_i (net_tx_room_i),
    .s_axis_net_tvalid_i, .s_axis_net_tready_o, .s_axis_net_tdata_i, .s_axis_net_tkeep_i,
    .s_axis_net_tlast_i, .s_axis_net_tuser_i, .rx_room_o (net_rx_room_o),
    .eb_ntx_valid_i (eb_ntx_valid), .eb_ntx_ready_o (eb_ntx_ready), .eb_ntx_data_i (eb_ntx_data),
    .eb_ntx_keep_i (eb_ntx_keep), .eb_ntx_last_i (eb_ntx_last), .eb_ntx_dest_i (eb_ntx_dest),
    .eb_nrx_valid_o (eb_nrx_valid), .eb_nrx_ready_i (eb_nrx_ready), .nrx_data_o (nrx_data),
    .nrx_keep_o (nrx_keep), .nrx_last_o (nrx_last), .nrx_user_o (nrx_user),
    .nrx_chan_o (nrx_chan),
    .cnt_drop_o, .idle_o (net_idle)
  );

  assign idle_o = bus_idle && (&eb_idle) && net_idle;

endmodule
