// SPDX-License-Identifier: Apache-2.0
// The portable OpenCNI device core: a symmetric coherent link with per-channel credits and a
// router, the home agent (directory with per-line policies, transaction table, delayed
// responses) for device lines, the caching agent for host lines, device line memory, the engine
// bus with the engines of the engine registry (rtl/engines.toml: the PIO engine, the scratch-pad
// engine, the CNI cache/queue engine) and the AXI4-Lite CSR block. Block diagram and maps:
// docs/architecture.md, docs/endpoint.md.
//
// Parameters: docs/endpoint.md ("Parameters"); the engines' own parameters, ports and instances
// come from the registry (cni_engine_params.svh, cni_engine_ports.svh, cni_engines.svh, generated
// by scripts/gen-engines.py); the region sizes make the address map (cni_amap_pkg, generated).
// Ports:
//   agent_id_i           - this device's agent id on the coherence fabric (static: registered
//                          once here, so no block's logic starts from the port)
//   rx_<ch>_*            - link receive side per channel (req, fwd, rsp, dat): valid, header and
//                          data, no ready (credits); rx_<ch>_credit_o pulses once per message
//                          taken from its buffer
//   tx_<ch>_*            - link transmit side per channel: valid, header and data, the link takes
//                          every message offered; tx_<ch>_credit_i pulses return peer buffer
//                          slots
//   ca_req_*, ca_rsp_*   - the caching agent's engine request port (cni_cache_agent: reads,
//                          writes, non-allocating reads, write-invalidates, flushes of host
//                          lines), for device logic outside the core; shared with the engines
//                          that use it (cni_ca_arb: this port first)
//   ca_mon_*             - the caching agent's monitor: line state changes, and the accesses
//                          performed for this port's requests (ca_mon_acc_*, by id) and for the
//                          engines' (ca_mon_eng_*: the line, whether it wrote; the data on
//                          ca_mon_acc_data_o) (observability; the coherence checker of the tests)
//   pb_mon_*             - every write of a device line through port B of the line memory (an
//                          engine's): the line index and the data (observability, as ca_mon_*)
//   s_axil_*             - CSR slave
//   m_axis_net_*, s_axis_net_*
//                        - the network port (AXI4-Stream, NetBytes-byte beats): frames of
//                          docs/network.md without the FCS, which the MAC adds and checks (tuser
//                          in: the FCS check failed); the engines share it (cni_net_switch)
//   node_id_i            - this device's node on the network (the src of its frames; static)
//   engine ports         - the engines' own (cni_engine_ports.svh; the PIO engine's pa_* / pb_*:
//                          (a) messages out to device logic, (b) messages in from it)
//   init_done_o          - directory and memory cleared; the link may be used
//   time_i               - the time base: a cycle count rising by one each cycle (park timers are
//                          deadlines on it; a board drives a free-running counter)
//   quiet_o, idle_o      - quiescence (docs/endpoint.md, "Quiescence"): with no input, the state
//                          does not change in this cycle nor in the next 2**QuietLog2 - 1
//                          (quiet_o), or ever (idle_o); a simulator may stop clocking the core
//                          meanwhile and resume with time_i where it would have been
`default_nettype none

module cni_endpoint #(
  parameter int          LineBytes = 128,
  parameter int          NumAgents = 16,
  parameter logic [47:0] DevBase   = 48'h10_0000_0000,
  parameter int          MemLines  = 1024,
  parameter int          CacheSets    = 4,
  parameter int          CacheWays    = 4,
  parameter int          CacheMshrs   = 4,
  parameter int          CacheWbs     = 4,
  parameter int          CacheIdW     = 4,
  parameter int          TtEntries = 32,
  parameter int          TtReserve = 8,
  parameter int          RxDepth   = 8,
  parameter int          TxCredits = 8,
  parameter int          Pipelined      = 0,
  parameter int          QuietLog2      = 10,
  parameter int          NetBytes       = 64,
`include "cni_engine_params.svh"
  localparam int LineBits = LineBytes * 8,
  localparam int NumLines = cni_amap_pkg::total(RegionLines),
  localparam int LineIdxW = $clog2(NumLines)
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  input  wire logic [cni_coh_pkg::AGENT_W-1:0] agent_id_i,
  // link receive
  input  wire logic                rx_req_valid_i,
  input  wire cni_coh_pkg::hdr_t   rx_req_hdr_i,
  input  wire logic [LineBits-1:0] rx_req_data_i,
  output logic                     rx_req_credit_o,
  input  wire logic                rx_fwd_valid_i,
  input  wire cni_coh_pkg::hdr_t   rx_fwd_hdr_i,
  input  wire logic [LineBits-1:0] rx_fwd_data_i,
  output logic                     rx_fwd_credit_o,
  input  wire logic                rx_rsp_valid_i,
  input  wire cni_coh_pkg::hdr_t   rx_rsp_hdr_i,
  input  wire logic [LineBits-1:0] rx_rsp_data_i,
  output logic                     rx_rsp_credit_o,
  input  wire logic                rx_dat_valid_i,
  input  wire cni_coh_pkg::hdr_t   rx_dat_hdr_i,
  input  wire logic [LineBits-1:0] rx_dat_data_i,
  output logic                     rx_dat_credit_o,
  // link transmit
  output logic                     tx_req_valid_o,
  output cni_coh_pkg::hdr_t        tx_req_hdr_o,
  output logic [LineBits-1:0]      tx_req_data_o,
  input  wire logic                tx_req_credit_i,
  output logic                     tx_fwd_valid_o,
  output cni_coh_pkg::hdr_t        tx_fwd_hdr_o,
  output logic [LineBits-1:0]      tx_fwd_data_o,
  input  wire logic                tx_fwd_credit_i,
  output logic                     tx_rsp_valid_o,
  output cni_coh_pkg::hdr_t        tx_rsp_hdr_o,
  output logic [LineBits-1:0]      tx_rsp_data_o,
  input  wire logic                tx_rsp_credit_i,
  output logic                     tx_dat_valid_o,
  output cni_coh_pkg::hdr_t        tx_dat_hdr_o,
  output logic [LineBits-1:0]      tx_dat_data_o,
  input  wire logic                tx_dat_credit_i,
  // CSR
  input  wire logic                s_axil_awvalid_i,
  output logic                     s_axil_awready_o,
  input  wire logic [cni_amap_pkg::CSR_AW-1:0] s_axil_awaddr_i,
  input  wire logic                s_axil_wvalid_i,
  output logic                     s_axil_wready_o,
  input  wire logic [31:0]         s_axil_wdata_i,
  input  wire logic [3:0]          s_axil_wstrb_i,
  output logic                     s_axil_bvalid_o,
  input  wire logic                s_axil_bready_i,
  output logic [1:0]               s_axil_bresp_o,
  input  wire logic                s_axil_arvalid_i,
  output logic                     s_axil_arready_o,
  input  wire logic [cni_amap_pkg::CSR_AW-1:0] s_axil_araddr_i,
  output logic                     s_axil_rvalid_o,
  input  wire logic                s_axil_rready_i,
  output logic [31:0]              s_axil_rdata_o,
  output logic [1:0]               s_axil_rresp_o,
`include "cni_engine_ports.svh"
  // caching agent: engine port and monitor
  input  wire logic                            ca_req_valid_i,
  output logic                                 ca_req_ready_o,
  input  wire logic [cni_coh_pkg::CA_OP_W-1:0] ca_req_op_i,
  input  wire logic [cni_coh_pkg::ADDR_W-1:0]  ca_req_addr_i,
  input  wire logic [LineBits-1:0]             ca_req_data_i,
  input  wire logic [LineBytes-1:0]            ca_req_be_i,
  input  wire logic [CacheIdW-1:0]             ca_req_id_i,
  output logic                                 ca_rsp_valid_o,
  input  wire logic                            ca_rsp_ready_i,
  output logic [CacheIdW-1:0]                  ca_rsp_id_o,
  output logic [LineBits-1:0]                  ca_rsp_data_o,
  output logic                                 ca_rsp_err_o,
  output logic                                 ca_mon_valid_o,
  output logic [cni_coh_pkg::ADDR_W-1:0]       ca_mon_addr_o,
  output logic [3:0]                           ca_mon_from_o,
  output logic [3:0]                           ca_mon_to_o,
  output logic                                 ca_mon_acc_valid_o,
  output logic [CacheIdW-1:0]                  ca_mon_acc_id_o,
  output logic [LineBits-1:0]                  ca_mon_acc_data_o,
  output logic                                 ca_mon_eng_valid_o,
  output logic [cni_coh_pkg::ADDR_W-1:0]       ca_mon_eng_addr_o,
  output logic                                 ca_mon_eng_we_o,
  output logic                                 pb_mon_valid_o,
  output logic [LineIdxW-1:0]                  pb_mon_line_o,
  output logic [LineBits-1:0]                  pb_mon_data_o,
  output logic                                 init_done_o,
  // network port
  output logic                                 m_axis_net_tvalid_o,
  input  wire logic                            m_axis_net_tready_i,
  output logic [NetBytes*8-1:0]                m_axis_net_tdata_o,
  output logic [NetBytes-1:0]                  m_axis_net_tkeep_o,
  output logic                                 m_axis_net_tlast_o,
  output logic [15:0]                          m_axis_net_tdest_o,
  input  wire logic                            s_axis_net_tvalid_i,
  output logic                                 s_axis_net_tready_o,
  input  wire logic [NetBytes*8-1:0]           s_axis_net_tdata_i,
  input  wire logic [NetBytes-1:0]             s_axis_net_tkeep_i,
  input  wire logic                            s_axis_net_tlast_i,
  input  wire logic                            s_axis_net_tuser_i,
  /* verilator lint_off UNUSEDSIGNAL */  // (read by the engines with a network port)
  input  wire logic [15:0]                     node_id_i,
  /* verilator lint_on UNUSEDSIGNAL */
  // time base and quiescence
  input  wire logic [31:0]                     time_i,
  output logic                                 quiet_o,
  output logic                                 idle_o
);

  localparam int NE     = cni_amap_pkg::NUM_ENGINES;
  localparam int NetW   = NetBytes * 8;

  // The agent id is static (set before reset ends; the reset lasts cycles): a register keeps the
  // port out of every block's logic, so a simulator does not re-evaluate that logic each time it
  // applies the ports.
  logic [cni_coh_pkg::AGENT_W-1:0] agent_id;
  always_ff @(posedge clk_i) agent_id <= agent_id_i;

  // ---- link layer and router ----------------------------------------------------------------
  logic                req_valid, req_ready, rsp_valid, rsp_ready;
  cni_coh_pkg::hdr_t   req_hdr, rsp_hdr;
  logic [LineBits-1:0] req_data, rsp_data;
  logic                ofwd_valid, ofwd_ready, ofwd_hold, orsp_valid, orsp_ready;
  logic                odat_valid, odat_ready;
  cni_coh_pkg::hdr_t   ofwd_hdr, orsp_hdr, odat_hdr;
  logic [LineBits-1:0] odat_data;
  logic                cin_valid, cin_ready, coreq_valid, coreq_ready, corsp_valid, corsp_ready;
  cni_coh_pkg::hdr_t   cin_hdr, coreq_hdr, corsp_hdr;
  logic [LineBits-1:0] cin_data, coreq_data, corsp_data;
  logic [cni_coh_pkg::NUM_CH-1:0] rx_overflow, tx_credit_err;
  logic                nreq_valid, nreq_ready, norsp_valid, norsp_ready, nodat_valid, nodat_ready;
  cni_coh_pkg::hdr_t   nreq_hdr, norsp_hdr, nodat_hdr;
  logic [63:0]         nreq_data;
  logic [LineBits-1:0] nodat_data;
  logic                link_idle, ca_idle, home_idle, home_park, home_park_near, nc_idle, bus_idle;
  logic                csr_idle, net_idle, net_drop;

  cni_link_router #(.LineBytes(LineBytes), .RxDepth(RxDepth), .TxCredits(TxCredits),
                    .HomeHdrReg(Pipelined != 0)) u_link (
    .clk_i, .rst_ni,
    .rx_req_valid_i, .rx_req_hdr_i, .rx_req_data_i, .rx_req_credit_o,
    .rx_fwd_valid_i, .rx_fwd_hdr_i, .rx_fwd_data_i, .rx_fwd_credit_o,
    .rx_rsp_valid_i, .rx_rsp_hdr_i, .rx_rsp_data_i, .rx_rsp_credit_o,
    .rx_dat_valid_i, .rx_dat_hdr_i, .rx_dat_data_i, .rx_dat_credit_o,
    .tx_req_valid_o, .tx_req_hdr_o, .tx_req_data_o, .tx_req_credit_i,
    .tx_fwd_valid_o, .tx_fwd_hdr_o, .tx_fwd_data_o, .tx_fwd_credit_i,
    .tx_rsp_valid_o, .tx_rsp_hdr_o, .tx_rsp_data_o, .tx_rsp_credit_i,
    .tx_dat_valid_o, .tx_dat_hdr_o, .tx_dat_data_o, .tx_dat_credit_i,
    .h_req_valid_o (req_valid), .h_req_ready_i (req_ready), .h_req_hdr_o (req_hdr),
    .h_req_data_o (req_data),
    .n_req_valid_o (nreq_valid), .n_req_ready_i (nreq_ready), .n_req_hdr_o (nreq_hdr),
    .n_req_data_o (nreq_data),
    .h_rsp_valid_o (rsp_valid), .h_rsp_ready_i (rsp_ready), .h_rsp_hdr_o (rsp_hdr),
    .h_rsp_data_o (rsp_data),
    .h_fwd_valid_i (ofwd_valid), .h_fwd_ready_o (ofwd_ready), .h_fwd_hdr_i (ofwd_hdr),
    .h_fwd_hold_o (ofwd_hold),
    .h_orsp_valid_i (orsp_valid), .h_orsp_ready_o (orsp_ready), .h_orsp_hdr_i (orsp_hdr),
    .h_odat_valid_i (odat_valid), .h_odat_ready_o (odat_ready), .h_odat_hdr_i (odat_hdr),
    .h_odat_data_i (odat_data),
    .n_orsp_valid_i (norsp_valid), .n_orsp_ready_o (norsp_ready), .n_orsp_hdr_i (norsp_hdr),
    .n_odat_valid_i (nodat_valid), .n_odat_ready_o (nodat_ready), .n_odat_hdr_i (nodat_hdr),
    .n_odat_data_i (nodat_data),
    .c_in_valid_o (cin_valid), .c_in_ready_i (cin_ready), .c_in_hdr_o (cin_hdr),
    .c_in_data_o (cin_data),
    .c_oreq_valid_i (coreq_valid), .c_oreq_ready_o (coreq_ready), .c_oreq_hdr_i (coreq_hdr),
    .c_oreq_data_i (coreq_data),
    .c_orsp_valid_i (corsp_valid), .c_orsp_ready_o (corsp_ready), .c_orsp_hdr_i (corsp_hdr),
    .c_orsp_data_i (corsp_data),
    .overflow_o (rx_overflow), .credit_err_o (tx_credit_err), .idle_o (link_idle)
  );

  // ---- caching agent (host-homed lines) -------------------------------------------------------
  // Its request port is shared (cni_ca_arb) by the external ca_* port (source 0, first) and the
  // engines that use it (cni_amap_pkg::ENG_CA, `CNI_ENGINE_CA(k)`: source 1 + k); a request's
  // source rides in the top bits of its id and picks who gets the response. The ca_mon_acc_*
  // port reports the external port's accesses, ca_mon_eng_* the engines'; the state changes
  // (ca_mon_valid_o, ...) are every line's.
  localparam int CaSrcW = $clog2(NE + 1);
  localparam int CaIdW  = CacheIdW + CaSrcW;
  logic [NE-1:0]                        eb_ca_req_valid, eb_ca_rsp_ready;
  // (read only by engines that use the agent: a configuration without one leaves them unread)
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NE-1:0]                        eb_ca_req_ready, eb_ca_rsp_valid;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [NE*cni_coh_pkg::CA_OP_W-1:0]   eb_ca_req_op;
  logic [NE*cni_coh_pkg::ADDR_W-1:0]    eb_ca_req_addr;
  logic [NE*LineBits-1:0]               eb_ca_req_data;
  logic [NE*LineBytes-1:0]              eb_ca_req_be;
  logic [NE*CacheIdW-1:0]               eb_ca_req_id;
  logic [CacheIdW-1:0]                  ca_rsp_id;
  logic [LineBits-1:0]                  ca_rsp_data;
  logic                                 ca_rsp_err;
  logic                                 cq_valid, cq_ready, cr_valid, cr_ready, ca_arb_idle;
  logic [cni_coh_pkg::CA_OP_W-1:0]      cq_op;
  logic [cni_coh_pkg::ADDR_W-1:0]       cq_addr;
  logic [LineBits-1:0]                  cq_data;
  logic [LineBytes-1:0]                 cq_be;
  logic [CaIdW-1:0]                     cq_id, cr_id, mon_acc_id;
  logic [NE:0]                          s_rsp_valid;
  logic                                 mon_acc_valid, mon_acc_ext;
  cni_ca_arb #(.NumSrc (NE + 1), .IdW (CacheIdW), .LineBytes (LineBytes)) u_ca_arb (
    .clk_i, .rst_ni,
    .s_req_valid_i ({eb_ca_req_valid, ca_req_valid_i}),
    .s_req_ready_o ({eb_ca_req_ready, ca_req_ready_o}),
    .s_req_op_i ({eb_ca_req_op, ca_req_op_i}), .s_req_addr_i ({eb_ca_req_addr, ca_req_addr_i}),
    .s_req_data_i ({eb_ca_req_data, ca_req_data_i}), .s_req_be_i ({eb_ca_req_be, ca_req_be_i}),
    .s_req_id_i ({eb_ca_req_id, ca_req_id_i}),
    .s_rsp_valid_o (s_rsp_valid), .s_rsp_ready_i ({eb_ca_rsp_ready, ca_rsp_ready_i}),
    .s_rsp_id_o (ca_rsp_id),
    .req_valid_o (cq_valid), .req_ready_i (cq_ready), .req_op_o (cq_op), .req_addr_o (cq_addr),
    .req_data_o (cq_data), .req_be_o (cq_be), .req_id_o (cq_id),
    .rsp_valid_i (cr_valid), .rsp_ready_o (cr_ready), .rsp_id_i (cr_id),
    .idle_o (ca_arb_idle)
  );
  assign ca_rsp_valid_o  = s_rsp_valid[0];
  assign eb_ca_rsp_valid = s_rsp_valid[NE:1];
  assign ca_rsp_id_o     = ca_rsp_id;
  assign ca_rsp_data_o   = ca_rsp_data;
  assign ca_rsp_err_o    = ca_rsp_err;
  assign mon_acc_ext        = mon_acc_id[CacheIdW +: CaSrcW] == '0;
  assign ca_mon_acc_valid_o = mon_acc_valid && mon_acc_ext;
  assign ca_mon_acc_id_o    = mon_acc_id[CacheIdW-1:0];
  assign ca_mon_eng_valid_o = mon_acc_valid && !mon_acc_ext;

  logic [5:0]  ca_cnt;
  logic [15:0] cfg_ca_backoff, cfg_ca_clean;
  cni_cache_agent #(
    .LineBytes (LineBytes), .Sets (CacheSets), .Ways (CacheWays), .Mshrs (CacheMshrs),
    .Wbs (CacheWbs), .IdW (CaIdW), .LookReg (Pipelined)
  ) u_cache (
    .clk_i, .rst_ni, .agent_id_i (agent_id), .cfg_backoff_i (cfg_ca_backoff),
    .cfg_clean_i (cfg_ca_clean),
    .req_valid_i (cq_valid), .req_ready_o (cq_ready), .req_op_i (cq_op),
    .req_addr_i (cq_addr), .req_data_i (cq_data), .req_be_i (cq_be), .req_id_i (cq_id),
    .rsp_valid_o (cr_valid), .rsp_ready_i (cr_ready), .rsp_id_o (cr_id),
    .rsp_data_o (ca_rsp_data), .rsp_err_o (ca_rsp_err),
    .oreq_valid_o (coreq_valid), .oreq_ready_i (coreq_ready), .oreq_hdr_o (coreq_hdr),
    .oreq_data_o (coreq_data),
    .orsp_valid_o (corsp_valid), .orsp_ready_i (corsp_ready), .orsp_hdr_o (corsp_hdr),
    .orsp_data_o (corsp_data),
    .in_valid_i (cin_valid), .in_ready_o (cin_ready), .in_hdr_i (cin_hdr),
    .in_data_i (cin_data),
    .mon_valid_o (ca_mon_valid_o), .mon_addr_o (ca_mon_addr_o), .mon_from_o (ca_mon_from_o),
    .mon_to_o (ca_mon_to_o), .mon_acc_valid_o (mon_acc_valid),
    .mon_acc_id_o (mon_acc_id), .mon_acc_addr_o (ca_mon_eng_addr_o),
    .mon_acc_we_o (ca_mon_eng_we_o), .mon_acc_data_o (ca_mon_acc_data_o),
    .cnt_o (ca_cnt), .idle_o (ca_idle)
  );

  // ---- home agent, memory, engine bus --------------------------------------------------------
  logic                            evt_valid, evt_ready, cmd_valid, cmd_ready;
  logic [cni_coh_pkg::EVT_W-1:0]   evt_kind;
  logic [cni_coh_pkg::CMD_W-1:0]   cmd_op;
  logic [cni_coh_pkg::ARG_W-1:0]   cmd_arg;
  logic [cni_coh_pkg::OP_W-1:0]    evt_op;
  logic [cni_coh_pkg::AGENT_W-1:0] evt_src;
  logic [LineIdxW-1:0]             evt_line, cmd_line;
  logic [cni_amap_pkg::REGION_W-1:0] evt_region;
  logic                            ma_en, ma_we, mb_en, mb_we;
  logic [LineIdxW-1:0]             ma_addr, mb_addr;
  logic [LineBits-1:0]             ma_wd, ma_rd, mb_wd, mb_rd;
  logic [cni_amap_pkg::NUM_REGIONS-1:0] cfg_ret_excl;
  logic [31:0]                     cfg_park_timeout;
  logic [15:0]                     home_cnt;

  cni_home_agent #(
    .LineBytes (LineBytes), .NumAgents (NumAgents), .DevBase (DevBase),
    .RegionLines (RegionLines), .TtEntries (TtEntries), .TtReserve (TtReserve),
    .Pipelined (Pipelined), .QuietLog2 (QuietLog2)
  ) u_home (
    .clk_i, .rst_ni, .agent_id_i (agent_id),
    .req_valid_i (req_valid), .req_ready_o (req_ready), .req_hdr_i (req_hdr),
    .req_data_i (req_data),
    .rsp_valid_i (rsp_valid), .rsp_ready_o (rsp_ready), .rsp_hdr_i (rsp_hdr),
    .rsp_data_i (rsp_data),
    .ofwd_valid_o (ofwd_valid), .ofwd_ready_i (ofwd_ready), .ofwd_hdr_o (ofwd_hdr),
    .ofwd_hold_i (ofwd_hold),
    .orsp_valid_o (orsp_valid), .orsp_ready_i (orsp_ready), .orsp_hdr_o (orsp_hdr),
    .odat_valid_o (odat_valid), .odat_ready_i (odat_ready), .odat_hdr_o (odat_hdr),
    .odat_data_o (odat_data),
    .evt_valid_o (evt_valid), .evt_ready_i (evt_ready), .evt_kind_o (evt_kind),
    .evt_line_o (evt_line), .evt_region_o (evt_region), .evt_op_o (evt_op), .evt_src_o (evt_src),
    .cmd_valid_i (cmd_valid), .cmd_ready_o (cmd_ready), .cmd_op_i (cmd_op),
    .cmd_arg_i (cmd_arg), .cmd_line_i (cmd_line),
    .mem_en_o (ma_en), .mem_we_o (ma_we), .mem_addr_o (ma_addr), .mem_wdata_o (ma_wd),
    .mem_rdata_i (ma_rd),
    .time_i, .cfg_ret_excl_i (cfg_ret_excl), .cfg_park_timeout_i (cfg_park_timeout),
    .cnt_o (home_cnt),
    .init_done_o,
    .idle_o (home_idle), .park_o (home_park), .park_near_o (home_park_near)
  );

  cni_dpram #(.Width(LineBits), .Words(NumLines)) u_mem (
    .clk_i,
    .a_en_i (ma_en), .a_we_i (ma_we), .a_addr_i (ma_addr), .a_wd_i (ma_wd), .a_rd_o (ma_rd),
    .b_en_i (mb_en), .b_we_i (mb_we), .b_addr_i (mb_addr), .b_wd_i (mb_wd), .b_rd_o (mb_rd)
  );

  // Port B's writes, for observers (the engines' stores to device lines).
  assign pb_mon_valid_o = mb_en && mb_we;
  assign pb_mon_line_o  = mb_addr;
  assign pb_mon_data_o  = mb_wd;

  // The engine bus: events to the owner of their line, one command at a time to the home agent,
  // memory port B shared by priority, the engines' CSR windows. Engine k's signals are the k-th
  // slices of the eb_* vectors (`CNI_ENGINE_BUS(k)`).
  logic [NE-1:0]                       eb_evt_valid, eb_evt_ready, eb_cmd_valid, eb_cmd_ready;
  logic [NE*cni_coh_pkg::CMD_W-1:0]    eb_cmd_op;
  logic [NE*cni_coh_pkg::ARG_W-1:0]    eb_cmd_arg;
  logic [NE*LineIdxW-1:0]              eb_cmd_line, eb_mem_addr;
  logic [NE-1:0]                       eb_mem_en, eb_mem_we, eb_mem_gnt, eb_reg_valid;
  logic [NE*LineBits-1:0]              eb_mem_wdata;
  logic [NE*32-1:0]                    eb_reg_rdata;
  logic [NE-1:0]                       eb_idle;
  // the engines' network ports (`CNI_ENGINE_NET`): frames out per engine, frames in shared.
  // Only engines with a port read the readies, the frames in and the node id: a configuration
  // without one (no scratch-pad engine) leaves them unread.
  logic [NE-1:0]                       eb_ntx_valid, eb_ntx_last, eb_nrx_ready;
  logic [NE*NetW-1:0]                  eb_ntx_data;
  logic [NE*NetBytes-1:0]              eb_ntx_keep;
  logic [NE*16-1:0]                    eb_ntx_dest;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [NE-1:0]                       eb_ntx_ready, eb_nrx_valid;
  logic [NetW-1:0]                     nrx_data;
  logic [NetBytes-1:0]                 nrx_keep;
  logic                                nrx_last, nrx_user;
  /* verilator lint_on UNUSEDSIGNAL */
  logic                                reg_valid, reg_we;
  logic [$clog2(NE + 1)-1:0]           reg_eng;
  logic [7:0]                          reg_addr;
  logic [31:0]                         reg_wdata, reg_rdata;

  // Engine register windows: the CSR block's accesses, and the NC unit's (uncached loads and
  // stores over the link) when the CSR block makes none.
  logic                      csr_reg_valid, csr_reg_we, nc_reg_valid, nc_reg_we, nc_err;
  logic [$clog2(NE + 1)-1:0] csr_reg_eng, nc_reg_eng;
  logic [7:0]                csr_reg_addr, nc_reg_addr;
  logic [31:0]               csr_reg_wdata, nc_reg_wdata;
  always_comb begin
    reg_valid = csr_reg_valid || nc_reg_valid;
    reg_we    = csr_reg_valid ? csr_reg_we : nc_reg_we;
    reg_eng   = csr_reg_valid ? csr_reg_eng : nc_reg_eng;
    reg_addr  = csr_reg_valid ? csr_reg_addr : nc_reg_addr;
    reg_wdata = csr_reg_valid ? csr_reg_wdata : nc_reg_wdata;
  end

  cni_nc_unit #(.RegionLines (RegionLines), .LineBytes (LineBytes), .DevBase (DevBase)) u_nc (
    .clk_i, .rst_ni, .agent_id_i (agent_id),
    .in_valid_i (nreq_valid), .in_ready_o (nreq_ready), .in_hdr_i (nreq_hdr),
    .in_data_i (nreq_data),
    .reg_valid_o (nc_reg_valid), .reg_gnt_i (!csr_reg_valid), .reg_eng_o (nc_reg_eng),
    .reg_we_o (nc_reg_we), .reg_addr_o (nc_reg_addr), .reg_wdata_o (nc_reg_wdata),
    .reg_rdata_i (reg_rdata),
    .orsp_valid_o (norsp_valid), .orsp_ready_i (norsp_ready), .orsp_hdr_o (norsp_hdr),
    .odat_valid_o (nodat_valid), .odat_ready_i (nodat_ready), .odat_hdr_o (nodat_hdr),
    .odat_data_o (nodat_data),
    .cnt_err_o (nc_err), .idle_o (nc_idle)
  );

  cni_engine_bus #(.RegionLines (RegionLines), .LineBytes (LineBytes), .LineIdxW (LineIdxW)) u_bus (
    .clk_i, .rst_ni,
    .evt_valid_i (evt_valid), .evt_ready_o (evt_ready), .evt_line_i (evt_line),
    .evt_region_i (evt_region),
    .cmd_valid_o (cmd_valid), .cmd_ready_i (cmd_ready), .cmd_op_o (cmd_op), .cmd_arg_o (cmd_arg),
    .cmd_line_o (cmd_line),
    .mem_en_o (mb_en), .mem_we_o (mb_we), .mem_addr_o (mb_addr), .mem_wdata_o (mb_wd),
    .reg_valid_i (reg_valid), .reg_eng_i (reg_eng), .reg_rdata_o (reg_rdata),
    .eb_evt_valid_o (eb_evt_valid), .eb_evt_ready_i (eb_evt_ready),
    .eb_cmd_valid_i (eb_cmd_valid), .eb_cmd_ready_o (eb_cmd_ready), .eb_cmd_op_i (eb_cmd_op),
    .eb_cmd_arg_i (eb_cmd_arg), .eb_cmd_line_i (eb_cmd_line),
    .eb_mem_en_i (eb_mem_en), .eb_mem_we_i (eb_mem_we), .eb_mem_addr_i (eb_mem_addr),
    .eb_mem_wdata_i (eb_mem_wdata), .eb_mem_gnt_o (eb_mem_gnt),
    .eb_reg_valid_o (eb_reg_valid), .eb_reg_rdata_i (eb_reg_rdata), .idle_o (bus_idle)
  );

  // ---- engines (the engine registry, rtl/engines.toml; docs/architecture.md) -----------------
  // Each engine's instance on the engine bus, EngPresent (the engines this configuration has) and
  // the engines' counters cnt_eng (NumEngCnt of them).
`include "cni_engines.svh"

  // Engines this configuration leaves out: their bus signals tied off (nothing presented,
  // everything taken); their network and caching-agent ports are tied off below.
  for (genvar k = 0; k < NE; k++) begin : g_absent
    if (!EngPresent[k]) begin : g_tie
      assign eb_evt_ready[k] = 1'b1;
      assign eb_cmd_valid[k] = 1'b0;
      assign eb_mem_en[k]    = 1'b0;
      assign eb_mem_we[k]    = 1'b0;
      assign eb_cmd_op[k * cni_coh_pkg::CMD_W +: cni_coh_pkg::CMD_W] = '0;
      assign eb_cmd_arg[k * cni_coh_pkg::ARG_W +: cni_coh_pkg::ARG_W] = '0;
      assign eb_cmd_line[k * LineIdxW +: LineIdxW] = '0;
      assign eb_mem_addr[k * LineIdxW +: LineIdxW] = '0;
      assign eb_mem_wdata[k * LineBits +: LineBits] = '0;
      assign eb_reg_rdata[k * 32 +: 32] = '0;
      assign eb_idle[k] = 1'b1;
    end
  end

  // Engines without a network port (cni_amap_pkg::ENG_NET), or left out: nothing out,
  // everything taken.
  for (genvar k = 0; k < NE; k++) begin : g_no_net
    if (!cni_amap_pkg::ENG_NET[k] || !EngPresent[k]) begin : g_tie
      assign eb_ntx_valid[k] = 1'b0;
      assign eb_ntx_last[k]  = 1'b0;
      assign eb_nrx_ready[k] = 1'b1;
      assign eb_ntx_data[k * NetW +: NetW] = '0;
      assign eb_ntx_keep[k * NetBytes +: NetBytes] = '0;
      assign eb_ntx_dest[k * 16 +: 16] = '0;
    end
  end

  // Engines that do not use the caching agent (cni_amap_pkg::ENG_CA), or left out: no requests,
  // responses taken (none comes: no request carries their source).
  for (genvar k = 0; k < NE; k++) begin : g_no_ca
    if (!cni_amap_pkg::ENG_CA[k] || !EngPresent[k]) begin : g_tie
      assign eb_ca_req_valid[k] = 1'b0;
      assign eb_ca_rsp_ready[k] = 1'b1;
      assign eb_ca_req_op[k * cni_coh_pkg::CA_OP_W +: cni_coh_pkg::CA_OP_W] = '0;
      assign eb_ca_req_addr[k * cni_coh_pkg::ADDR_W +: cni_coh_pkg::ADDR_W] = '0;
      assign eb_ca_req_data[k * LineBits +: LineBits] = '0;
      assign eb_ca_req_be[k * LineBytes +: LineBytes] = '0;
      assign eb_ca_req_id[k * CacheIdW +: CacheIdW] = '0;
    end
  end

  // ---- network port --------------------------------------------------------------------------
  cni_net_switch #(
    .NetBytes (NetBytes),
    .Present  (EngPresent)
  ) u_net (
    .clk_i, .rst_ni,
    .m_axis_net_tvalid_o, .m_axis_net_tready_i, .m_axis_net_tdata_o, .m_axis_net_tkeep_o,
    .m_axis_net_tlast_o, .m_axis_net_tdest_o,
    .s_axis_net_tvalid_i, .s_axis_net_tready_o, .s_axis_net_tdata_i, .s_axis_net_tkeep_i,
    .s_axis_net_tlast_i, .s_axis_net_tuser_i,
    .eb_ntx_valid_i (eb_ntx_valid), .eb_ntx_ready_o (eb_ntx_ready), .eb_ntx_data_i (eb_ntx_data),
    .eb_ntx_keep_i (eb_ntx_keep), .eb_ntx_last_i (eb_ntx_last), .eb_ntx_dest_i (eb_ntx_dest),
    .eb_nrx_valid_o (eb_nrx_valid), .eb_nrx_ready_i (eb_nrx_ready), .nrx_data_o (nrx_data),
    .nrx_keep_o (nrx_keep), .nrx_last_o (nrx_last), .nrx_user_o (nrx_user),
    .cnt_drop_o (net_drop), .idle_o (net_idle)
  );

  // ---- CSR ---------------------------------------------------------------------------------
  // The counters (cni_amap_pkg::CNT_*, the registry's order): the home agent's 16 (requests
  // denied by a policy last), the caching agent's 6, uncached accesses answered Error, network
  // frames no engine takes; then the engines' (cnt_eng).
  localparam int NumPlatCnt = 24;
  localparam int NumCnt     = NumPlatCnt + NumEngCnt;
  if (NumPlatCnt != cni_amap_pkg::NUM_PLATFORM_CNT || NumCnt != cni_amap_pkg::NUM_CNT)
    $error("cni_endpoint: the counter vector does not match the registry's counters");
  logic [NumCnt-1:0] cnt;
  always_comb begin
    cnt = '0;
    cnt[NumPlatCnt-1:0] = {net_drop, nc_err, ca_cnt, home_cnt};
    cnt[cni_amap_pkg::CNT_ERR_CREDIT] = (|rx_overflow) || (|tx_credit_err);
    for (int i = 0; i < NumEngCnt; i++) cnt[NumPlatCnt + i] = cnt_eng[i];
  end

  // CONFIG: [7:0] table entries, [15:8] reserve, [23:16] receive depth, [30:24] transmit
  // credits, [31] Pipelined
  localparam logic [31:0] Config = {Pipelined != 0, 7'(TxCredits), 8'(RxDepth), 8'(TtReserve),
                                    8'(TtEntries)};
  // CACHE: [7:0] sets, [15:8] ways, [23:16] MSHRs, [31:24] engine request id bits
  localparam logic [31:0] CacheConfig = {8'(CacheIdW), 8'(CacheMshrs), 8'(CacheWays),
                                         8'(CacheSets)};
  cni_csr #(.NumCnt(NumCnt), .LineBytes(LineBytes), .RegionLines(RegionLines),
            .Config(Config), .CacheConfig(CacheConfig), .DevBase(DevBase),
            .QuietLog2(QuietLog2), .NetBytes(NetBytes), .AccReg(Pipelined != 0)) u_csr (
    .clk_i, .rst_ni,
    .s_axil_awvalid_i, .s_axil_awready_o, .s_axil_awaddr_i,
    .s_axil_wvalid_i, .s_axil_wready_o, .s_axil_wdata_i, .s_axil_wstrb_i,
    .s_axil_bvalid_o, .s_axil_bready_i, .s_axil_bresp_o,
    .s_axil_arvalid_i, .s_axil_arready_o, .s_axil_araddr_i,
    .s_axil_rvalid_o, .s_axil_rready_i, .s_axil_rdata_o, .s_axil_rresp_o,
    .cnt_i (cnt),
    .cfg_ret_excl_o (cfg_ret_excl), .cfg_park_timeout_o (cfg_park_timeout),
    .cfg_ca_backoff_o (cfg_ca_backoff),
    .cfg_ca_clean_o (cfg_ca_clean),
    .reg_valid_o (csr_reg_valid), .reg_eng_o (csr_reg_eng), .reg_we_o (csr_reg_we),
    .reg_addr_o (csr_reg_addr), .reg_wdata_o (csr_reg_wdata), .reg_rdata_i (reg_rdata),
    .idle_o (csr_idle)
  );

  // ---- quiescence (docs/endpoint.md, "Quiescence") -------------------------------------------
  // Every block idle: then, with no input, nothing changes but the park timers' distance to their
  // deadlines; quiet while none runs out within 2**QuietLog2 cycles, idle while none runs.
  wire all_idle = link_idle && ca_idle && ca_arb_idle && home_idle && nc_idle && bus_idle &&
                  (&eb_idle) && csr_idle && net_idle;
  assign quiet_o = all_idle && !home_park_near;
  assign idle_o  = all_idle && !home_park;

endmodule
