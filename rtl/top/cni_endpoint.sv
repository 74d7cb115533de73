// SPDX-License-Identifier: Apache-2.0
// The portable OpenCNI device core: coherent-link layer with per-channel credits, home agent
// (directory with per-line policies, transaction table, delayed responses), device line memory,
// the engine bus with its engines (the PIO engine: Enzian protocols a/b/c; the scratch-pad
// engine) and the AXI4-Lite CSR block. Block diagram and maps: docs/endpoint.md.
//
// Parameters: docs/endpoint.md ("Parameters"); the region sizes make the address map
// (cni_amap_pkg).
// Ports:
//   agent_id_i           - this device's agent id on the coherence fabric
//   rx_<ch>_*            - link receive side per channel: valid + message, no ready (credits);
//                          rx_<ch>_credit_o pulses once per message taken from its buffer
//   tx_<ch>_*            - link transmit side per channel: valid + message, the link takes every
//                          message offered; tx_<ch>_credit_i pulses return peer buffer slots
//   s_axil_*             - CSR slave
//   pa_* / pb_*          - PIO (a) messages out to device logic / (b) messages in from it
//   init_done_o          - directory and memory cleared; the link may be used
`default_nettype none

module cni_endpoint #(
  parameter int          LineBytes = 128,
  parameter int          NumAgents = 16,
  parameter logic [47:0] DevBase   = 48'h10_0000_0000,
  parameter int          MemLines  = 1024,
  parameter int          CPairs    = 256,
  parameter int          NOvfA     = 76,
  parameter int          NOvfB     = 76,
  parameter int          ScratchLines = 64,
  parameter int          TtEntries = 32,
  parameter int          TtReserve = 8,
  parameter int          RxDepth   = 8,
  parameter int          TxCredits = 8,
  parameter int          BloomFoldWords = LineBytes / 4,
  parameter int          Pipelined      = 0,
  localparam int LineBits = LineBytes * 8,
  localparam int HdrW     = cni_coh_pkg::HDR_W,
  localparam logic [cni_amap_pkg::LW-1:0] RegionLines =
    cni_amap_pkg::region_lines(MemLines, CPairs, NOvfA, NOvfB, ScratchLines),
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
  output logic                     rx_fwd_credit_o,
  input  wire logic                rx_rsp_valid_i,
  input  wire cni_coh_pkg::hdr_t   rx_rsp_hdr_i,
  input  wire logic [LineBits-1:0] rx_rsp_data_i,
  output logic                     rx_rsp_credit_o,
  input  wire logic                rx_dat_valid_i,
  input  wire cni_coh_pkg::hdr_t   rx_dat_hdr_i,
  output logic                     rx_dat_credit_o,
  // link transmit
  output logic                     tx_fwd_valid_o,
  output cni_coh_pkg::hdr_t        tx_fwd_hdr_o,
  input  wire logic                tx_fwd_credit_i,
  output logic                     tx_rsp_valid_o,
  output cni_coh_pkg::hdr_t        tx_rsp_hdr_o,
  input  wire logic                tx_rsp_credit_i,
  output logic                     tx_dat_valid_o,
  output cni_coh_pkg::hdr_t        tx_dat_hdr_o,
  output logic [LineBits-1:0]      tx_dat_data_o,
  input  wire logic                tx_dat_credit_i,
  // CSR
  input  wire logic                s_axil_awvalid_i,
  output logic                     s_axil_awready_o,
  input  wire logic [11:0]         s_axil_awaddr_i,
  input  wire logic                s_axil_wvalid_i,
  output logic                     s_axil_wready_o,
  input  wire logic [31:0]         s_axil_wdata_i,
  input  wire logic [3:0]          s_axil_wstrb_i,
  output logic                     s_axil_bvalid_o,
  input  wire logic                s_axil_bready_i,
  output logic [1:0]               s_axil_bresp_o,
  input  wire logic                s_axil_arvalid_i,
  output logic                     s_axil_arready_o,
  input  wire logic [11:0]         s_axil_araddr_i,
  output logic                     s_axil_rvalid_o,
  input  wire logic                s_axil_rready_i,
  output logic [31:0]              s_axil_rdata_o,
  output logic [1:0]               s_axil_rresp_o,
  // PIO streams
  output logic                     pa_valid_o,
  input  wire logic                pa_ready_i,
  output logic [LineBits-1:0]      pa_data_o,
  output logic [15:0]              pa_len_o,
  output logic                     pa_last_o,
  input  wire logic                pb_valid_i,
  output logic                     pb_ready_o,
  input  wire logic [LineBits-1:0] pb_data_i,
  input  wire logic [15:0]         pb_len_i,
  input  wire logic                pb_last_i,
  output logic                     init_done_o
);

  localparam int NumCnt = 19;
  localparam int NE     = cni_amap_pkg::NUM_ENGINES;

  // ---- link receive ---------------------------------------------------------------------------
  logic                req_valid, req_ready, rsp_valid, rsp_ready;
  logic                fwd_valid, fwd_ready, dat_valid, dat_ready;
  cni_coh_pkg::hdr_t   req_hdr, rsp_hdr, fwd_hdr, dat_hdr;
  logic [LineBits-1:0] req_data, rsp_data;
  logic [3:0]          rx_overflow;

  cni_link_rx_ch #(.Width(HdrW + LineBits), .Depth(RxDepth)) u_rx_req (
    .clk_i, .rst_ni,
    .link_valid_i (rx_req_valid_i),
    .link_data_i  ({rx_req_hdr_i, rx_req_data_i}),
    .credit_o     (rx_req_credit_o),
    .overflow_o   (rx_overflow[cni_coh_pkg::CH_REQ]),
    .out_valid_o  (req_valid),
    .out_ready_i  (req_ready),
    .out_data_o   ({req_hdr, req_data})
  );
  cni_link_rx_ch #(.Width(HdrW), .Depth(RxDepth)) u_rx_fwd (
    .clk_i, .rst_ni,
    .link_valid_i (rx_fwd_valid_i),
    .link_data_i  (rx_fwd_hdr_i),
    .credit_o     (rx_fwd_credit_o),
    .overflow_o   (rx_overflow[cni_coh_pkg::CH_FWD]),
    .out_valid_o  (fwd_valid),
    .out_ready_i  (fwd_ready),
    .out_data_o   (fwd_hdr)
  );
  cni_link_rx_ch #(.Width(HdrW + LineBits), .Depth(RxDepth)) u_rx_rsp (
    .clk_i, .rst_ni,
    .link_valid_i (rx_rsp_valid_i),
    .link_data_i  ({rx_rsp_hdr_i, rx_rsp_data_i}),
    .credit_o     (rx_rsp_credit_o),
    .overflow_o   (rx_overflow[cni_coh_pkg::CH_RSP]),
    .out_valid_o  (rsp_valid),
    .out_ready_i  (rsp_ready),
    .out_data_o   ({rsp_hdr, rsp_data})
  );
  cni_link_rx_ch #(.Width(HdrW), .Depth(RxDepth)) u_rx_dat (
    .clk_i, .rst_ni,
    .link_valid_i (rx_dat_valid_i),
    .link_data_i  (rx_dat_hdr_i),
    .credit_o     (rx_dat_credit_o),
    .overflow_o   (rx_overflow[cni_coh_pkg::CH_DAT]),
    .out_valid_o  (dat_valid),
    .out_ready_i  (dat_ready),
    .out_data_o   (dat_hdr)
  );

  // ---- link transmit --------------------------------------------------------------------------
  logic                ofwd_valid, ofwd_ready, orsp_valid, orsp_ready, odat_valid, odat_ready;
  cni_coh_pkg::hdr_t   ofwd_hdr, orsp_hdr, odat_hdr;
  logic [LineBits-1:0] odat_data;
  logic [2:0]          tx_credit_err;
  logic                tx_rsp_pending, tx_dat_pending;

  cni_link_tx_ch #(.Width(HdrW), .Credits(TxCredits)) u_tx_fwd (
    .clk_i, .rst_ni,
    .in_valid_i   (ofwd_valid),
    .in_ready_o   (ofwd_ready),
    .in_data_i    (ofwd_hdr),
    .link_valid_o (tx_fwd_valid_o),
    .link_data_o  (tx_fwd_hdr_o),
    .credit_i     (tx_fwd_credit_i),
    .credit_err_o (tx_credit_err[0]),
    // Only answers (RSP, DAT) must drain before a snoop; FWD's own fill level is not needed.
    /* verilator lint_off PINCONNECTEMPTY */
    .pending_o    ()
    /* verilator lint_on PINCONNECTEMPTY */
  );
  cni_link_tx_ch #(.Width(HdrW), .Credits(TxCredits)) u_tx_rsp (
    .clk_i, .rst_ni,
    .in_valid_i   (orsp_valid),
    .in_ready_o   (orsp_ready),
    .in_data_i    (orsp_hdr),
    .link_valid_o (tx_rsp_valid_o),
    .link_data_o  (tx_rsp_hdr_o),
    .credit_i     (tx_rsp_credit_i),
    .credit_err_o (tx_credit_err[1]),
    .pending_o    (tx_rsp_pending)
  );
  cni_link_tx_ch #(.Width(HdrW + LineBits), .Credits(TxCredits)) u_tx_dat (
    .clk_i, .rst_ni,
    .in_valid_i   (odat_valid),
    .in_ready_o   (odat_ready),
    .in_data_i    ({odat_hdr, odat_data}),
    .link_valid_o (tx_dat_valid_o),
    .link_data_o  ({tx_dat_hdr_o, tx_dat_data_o}),
    .credit_i     (tx_dat_credit_i),
    .credit_err_o (tx_credit_err[2]),
    .pending_o    (tx_dat_pending)
  );

  // ---- home agent, memory, engine bus --------------------------------------------------------
  logic                            evt_valid, evt_ready, cmd_valid, cmd_ready;
  logic [cni_coh_pkg::EVT_W-1:0]   evt_kind;
  logic [cni_coh_pkg::CMD_W-1:0]   cmd_op;
  logic [cni_coh_pkg::ARG_W-1:0]   cmd_arg;
  logic [cni_coh_pkg::OP_W-1:0]    evt_op;
  logic [cni_coh_pkg::AGENT_W-1:0] evt_src;
  logic [LineIdxW-1:0]             evt_line, cmd_line;
  logic                            ma_en, ma_we, mb_en, mb_we;
  logic [LineIdxW-1:0]             ma_addr, mb_addr;
  logic [LineBits-1:0]             ma_wd, ma_rd, mb_wd, mb_rd;
  logic [cni_amap_pkg::NUM_REGIONS-1:0] cfg_ret_excl;
  logic [31:0]                     cfg_park_timeout;
  logic [15:0]                     home_cnt;
  logic                            cnt_c, cnt_a, cnt_b;
  logic [NumCnt-1:0]               cnt;

  cni_home_agent #(
    .LineBytes (LineBytes), .NumAgents (NumAgents), .DevBase (DevBase),
    .RegionLines (RegionLines), .TtEntries (TtEntries), .TtReserve (TtReserve),
    .Pipelined (Pipelined)
  ) u_home (
    .clk_i, .rst_ni, .agent_id_i,
    .req_valid_i (req_valid), .req_ready_o (req_ready), .req_hdr_i (req_hdr),
    .req_data_i (req_data),
    .rsp_valid_i (rsp_valid), .rsp_ready_o (rsp_ready), .rsp_hdr_i (rsp_hdr),
    .rsp_data_i (rsp_data),
    .fwd_valid_i (fwd_valid), .fwd_ready_o (fwd_ready), .fwd_hdr_i (fwd_hdr),
    .dat_valid_i (dat_valid), .dat_ready_o (dat_ready), .dat_hdr_i (dat_hdr),
    .ofwd_valid_o (ofwd_valid), .ofwd_ready_i (ofwd_ready), .ofwd_hdr_o (ofwd_hdr),
    .ofwd_hold_i (tx_rsp_pending || tx_dat_pending),
    .orsp_valid_o (orsp_valid), .orsp_ready_i (orsp_ready), .orsp_hdr_o (orsp_hdr),
    .odat_valid_o (odat_valid), .odat_ready_i (odat_ready), .odat_hdr_o (odat_hdr),
    .odat_data_o (odat_data),
    .evt_valid_o (evt_valid), .evt_ready_i (evt_ready), .evt_kind_o (evt_kind),
    .evt_line_o (evt_line), .evt_op_o (evt_op), .evt_src_o (evt_src),
    .cmd_valid_i (cmd_valid), .cmd_ready_o (cmd_ready), .cmd_op_i (cmd_op),
    .cmd_arg_i (cmd_arg), .cmd_line_i (cmd_line),
    .mem_en_o (ma_en), .mem_we_o (ma_we), .mem_addr_o (ma_addr), .mem_wdata_o (ma_wd),
    .mem_rdata_i (ma_rd),
    .cfg_ret_excl_i (cfg_ret_excl), .cfg_park_timeout_i (cfg_park_timeout),
    .cnt_o (home_cnt),
    .init_done_o
  );

  cni_dpram #(.Width(LineBits), .Words(NumLines)) u_mem (
    .clk_i,
    .a_en_i (ma_en), .a_we_i (ma_we), .a_addr_i (ma_addr), .a_wd_i (ma_wd), .a_rd_o (ma_rd),
    .b_en_i (mb_en), .b_we_i (mb_we), .b_addr_i (mb_addr), .b_wd_i (mb_wd), .b_rd_o (mb_rd)
  );

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
  logic                                reg_valid, reg_we;
  logic [$clog2(NE + 1)-1:0]           reg_eng;
  logic [7:0]                          reg_addr;
  logic [31:0]                         reg_wdata, reg_rdata;

  cni_engine_bus #(.RegionLines (RegionLines), .LineBytes (LineBytes), .LineIdxW (LineIdxW)) u_bus (
    .clk_i, .rst_ni,
    .evt_valid_i (evt_valid), .evt_ready_o (evt_ready), .evt_line_i (evt_line),
    .cmd_valid_o (cmd_valid), .cmd_ready_i (cmd_ready), .cmd_op_o (cmd_op), .cmd_arg_o (cmd_arg),
    .cmd_line_o (cmd_line),
    .mem_en_o (mb_en), .mem_we_o (mb_we), .mem_addr_o (mb_addr), .mem_wdata_o (mb_wd),
    .reg_valid_i (reg_valid), .reg_eng_i (reg_eng), .reg_rdata_o (reg_rdata),
    .eb_evt_valid_o (eb_evt_valid), .eb_evt_ready_i (eb_evt_ready),
    .eb_cmd_valid_i (eb_cmd_valid), .eb_cmd_ready_o (eb_cmd_ready), .eb_cmd_op_i (eb_cmd_op),
    .eb_cmd_arg_i (eb_cmd_arg), .eb_cmd_line_i (eb_cmd_line),
    .eb_mem_en_i (eb_mem_en), .eb_mem_we_i (eb_mem_we), .eb_mem_addr_i (eb_mem_addr),
    .eb_mem_wdata_i (eb_mem_wdata), .eb_mem_gnt_o (eb_mem_gnt),
    .eb_reg_valid_o (eb_reg_valid), .eb_reg_rdata_i (eb_reg_rdata)
  );

  // ---- engines (one instantiation each; docs/endpoint.md, "Adding an engine") ----------------
  cni_pio_engine #(
    .LineBytes (LineBytes), .LineIdxW (LineIdxW),
    .CBase (cni_amap_pkg::base(RegionLines, cni_amap_pkg::REG_PIO_C)), .CPairs (CPairs),
    .ABase (cni_amap_pkg::base(RegionLines, cni_amap_pkg::REG_PIO_A)), .NOvfA (NOvfA),
    .BBase (cni_amap_pkg::base(RegionLines, cni_amap_pkg::REG_PIO_B)), .NOvfB (NOvfB),
    .BloomFoldWords (BloomFoldWords), .EvtReg (Pipelined), .RdReg (Pipelined),
    .ReqReg (Pipelined)
  ) u_pio (
    `CNI_ENGINE_BUS(cni_amap_pkg::ENG_PIO),
    .pa_valid_o, .pa_ready_i, .pa_data_o, .pa_len_o, .pa_last_o,
    .pb_valid_i, .pb_ready_o, .pb_data_i, .pb_len_i, .pb_last_i,
    .cnt_c_invoke_o (cnt_c), .cnt_a_msg_o (cnt_a), .cnt_b_msg_o (cnt_b)
  );

  if (ScratchLines > 0) begin : g_scratch
    cni_scratch_engine #(
      .LineBytes (LineBytes), .LineIdxW (LineIdxW), .Lines (ScratchLines),
      .Base (cni_amap_pkg::base(RegionLines, cni_amap_pkg::REG_SCRATCH))
    ) u_scratch (`CNI_ENGINE_BUS(cni_amap_pkg::ENG_SCRATCH));
  end else begin : g_no_scratch
    assign eb_evt_ready[cni_amap_pkg::ENG_SCRATCH] = 1'b1;
    assign eb_cmd_valid[cni_amap_pkg::ENG_SCRATCH] = 1'b0;
    assign eb_mem_en[cni_amap_pkg::ENG_SCRATCH]    = 1'b0;
    assign eb_mem_we[cni_amap_pkg::ENG_SCRATCH]    = 1'b0;
    assign eb_cmd_op[cni_amap_pkg::ENG_SCRATCH * cni_coh_pkg::CMD_W +: cni_coh_pkg::CMD_W] = '0;
    assign eb_cmd_arg[cni_amap_pkg::ENG_SCRATCH * cni_coh_pkg::ARG_W +: cni_coh_pkg::ARG_W] = '0;
    assign eb_cmd_line[cni_amap_pkg::ENG_SCRATCH * LineIdxW +: LineIdxW] = '0;
    assign eb_mem_addr[cni_amap_pkg::ENG_SCRATCH * LineIdxW +: LineIdxW] = '0;
    assign eb_mem_wdata[cni_amap_pkg::ENG_SCRATCH * LineBits +: LineBits] = '0;
    assign eb_reg_rdata[cni_amap_pkg::ENG_SCRATCH * 32 +: 32] = '0;
  end

  // ---- CSR ---------------------------------------------------------------------------------
  always_comb begin
    // home 0..14, PIO 15..17, requests denied by a policy 18
    cnt = {home_cnt[15], cnt_b, cnt_a, cnt_c, home_cnt[14:0]};
    cnt[10 + cni_coh_pkg::ERR_CREDIT] = (|rx_overflow) || (|tx_credit_err);
  end

  // CONFIG: [7:0] table entries, [15:8] reserve, [23:16] receive depth, [30:24] transmit
  // credits, [31] Pipelined
  localparam logic [31:0] Config = {Pipelined != 0, 7'(TxCredits), 8'(RxDepth), 8'(TtReserve),
                                    8'(TtEntries)};
  cni_csr #(.NumCnt(NumCnt), .LineBytes(LineBytes), .RegionLines(RegionLines),
            .Config(Config), .DevBase(DevBase)) u_csr (
    .clk_i, .rst_ni,
    .s_axil_awvalid_i, .s_axil_awready_o, .s_axil_awaddr_i,
    .s_axil_wvalid_i, .s_axil_wready_o, .s_axil_wdata_i, .s_axil_wstrb_i,
    .s_axil_bvalid_o, .s_axil_bready_i, .s_axil_bresp_o,
    .s_axil_arvalid_i, .s_axil_arready_o, .s_axil_araddr_i,
    .s_axil_rvalid_o, .s_axil_rready_i, .s_axil_rdata_o, .s_axil_rresp_o,
    .cnt_i (cnt),
    .cfg_ret_excl_o (cfg_ret_excl), .cfg_park_timeout_o (cfg_park_timeout),
    .reg_valid_o (reg_valid), .reg_eng_o (reg_eng), .reg_we_o (reg_we), .reg_addr_o (reg_addr),
    .reg_wdata_o (reg_wdata), .reg_rdata_i (reg_rdata)
  );

endmodule
