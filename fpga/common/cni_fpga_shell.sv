// SPDX-License-Identifier: Apache-2.0
// Board helper (not part of the portable core): the portable core (cni_endpoint) with what a
// board needs around it and nothing board-specific: the on-chip link/PIO exerciser
// (cni_fpga_exerciser), the serial bridge to the CSR port and board registers
// (cni_fpga_bridge) and its UART. Board tops (fpga/<board>/fpga.sv) add clocking, reset and pins.
//
// Parameters:
//   core geometry          - passed to cni_endpoint (docs/endpoint.md, "Parameters")
//   engine parameters      - every engine's (the engine registry, rtl/engines.toml; the boards'
//                            defaults: no scratch-pad engine, no CNI engine), passed to
//                            cni_endpoint. With an engine that has a network port (CniConfig
//                            naming a CNI configuration), the port is looped back: every frame
//                            returns to this node (and is counted RX_BAD: its source is this
//                            node), so the receive path stays in the netlist
//   ClkDiv                 - UART clock cycles per bit (clock / baud)
// Ports:
//   clk_i, rst_ni          - core clock, active-low reset (synchronized by the board top)
//   uart_rx_i, uart_tx_o   - serial bridge (8N1)
//   status_o               - [0] init done, [1] link traffic on, [2] PIO traffic on,
//                            [7:3] bits of the link signature (activity)
`default_nettype none

module cni_fpga_shell #(
  parameter int          LineBytes = 128,
  parameter int          NumAgents = 16,
  parameter logic [47:0] DevBase   = 48'h10_0000_0000,
  parameter int          MemLines  = 1024,
  parameter int          TtEntries = 32,
  parameter int          TtReserve = 8,
  parameter int          RxDepth   = 8,
  parameter int          TxCredits = 8,
  parameter int          Pipelined      = 0,
  parameter int          NetBytes       = 64,
  parameter int          ClkDiv    = 868,
  // no DRAM-backed lines: the endpoint's AXI4 master is tied off (the registry's region sizes
  // read it)
  localparam int         DramIdxW  = 0,
`include "cni_engine_params_board.svh"
  localparam int LineBits = LineBytes * 8,
  localparam int HdrW     = cni_coh_pkg::HDR_W,
  localparam int NumLines = cni_amap_pkg::total(RegionLines)
) (
  input  wire logic       clk_i,
  input  wire logic       rst_ni,
  input  wire logic       uart_rx_i,
  output logic            uart_tx_o,
  output logic [7:0]      status_o
);

  localparam logic [cni_coh_pkg::AGENT_W-1:0] AGENT_ID = cni_coh_pkg::AGENT_W'(8);

  // ---- core ports ---------------------------------------------------------------------------
  logic                rx_req_valid, rx_req_credit, rx_fwd_valid, rx_fwd_credit;
  logic                rx_rsp_valid, rx_rsp_credit, rx_dat_valid, rx_dat_credit;
  logic [HdrW-1:0]     rx_req_hdr, rx_fwd_hdr, rx_rsp_hdr, rx_dat_hdr;
  logic [LineBits-1:0] rx_req_data, rx_rsp_data;
  logic                tx_fwd_valid, tx_fwd_credit, tx_rsp_valid, tx_rsp_credit;
  logic                tx_dat_valid, tx_dat_credit;
  logic [HdrW-1:0]     tx_fwd_hdr, tx_rsp_hdr, tx_dat_hdr;
  logic [LineBits-1:0] tx_dat_data;
  logic                awvalid, awready, wvalid, wready, bvalid, bready;
  logic                arvalid, arready, rvalid, rready;
  logic [11:0]         awaddr, araddr;
  logic [31:0]         wdata, rdata;
  logic [3:0]          wstrb;
  logic [1:0]          bresp, rresp;
  logic                pa_valid, pa_ready, pa_last, pb_valid, pb_ready, pb_last;
  logic [LineBits-1:0] pa_data, pb_data;
  logic [15:0]         pa_len, pb_len;
  logic                init_done;
  logic                net_valid, net_ready, net_last;
  logic [1:0]          net_room;   // a frame starts only on a channel the receive side takes
  logic [NetBytes*8-1:0] net_data;
  logic [NetBytes-1:0] net_keep;
  // The core's time base (its park timers are deadlines on it): a free-running cycle count.
  logic [31:0]         time_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) time_q <= '0;
    else time_q <= time_q + 32'd1;
  end

  cni_endpoint #(
    .LineBytes (LineBytes), .NumAgents (NumAgents), .DevBase (DevBase),
    .MemLines (MemLines), .TtEntries (TtEntries), .TtReserve (TtReserve),
    .RxDepth (RxDepth), .TxCredits (TxCredits), .Pipelined (Pipelined), .NetBytes (NetBytes),
`include "cni_engine_pass.svh"
    // the exerciser plays host homes that the device never asks for lines: the smallest cache
    .CacheSets (2), .CacheWays (1), .CacheMshrs (1), .CacheWbs (1), .CacheIdW (1)
  ) u_core (
    .clk_i, .rst_ni,
    .agent_id_i       (AGENT_ID),
    .rx_req_valid_i   (rx_req_valid), .rx_req_hdr_i (rx_req_hdr), .rx_req_data_i (rx_req_data),
    .rx_req_credit_o  (rx_req_credit),
    .rx_fwd_valid_i   (rx_fwd_valid), .rx_fwd_hdr_i (rx_fwd_hdr), .rx_fwd_data_i ('0),
    .rx_fwd_credit_o  (rx_fwd_credit),
    .rx_rsp_valid_i   (rx_rsp_valid), .rx_rsp_hdr_i (rx_rsp_hdr), .rx_rsp_data_i (rx_rsp_data),
    .rx_rsp_credit_o  (rx_rsp_credit),
    .rx_dat_valid_i   (rx_dat_valid), .rx_dat_hdr_i (rx_dat_hdr), .rx_dat_data_i ('0),
    .rx_dat_credit_o  (rx_dat_credit),
    // the device's requests (its caching agent's): none without engine requests; data the
    // exerciser does not look at; the caching agent's engine port is idle
    /* verilator lint_off PINCONNECTEMPTY */
    .tx_req_valid_o   (), .tx_req_hdr_o (), .tx_req_data_o (), .tx_req_credit_i (1'b0),
    .tx_fwd_valid_o   (tx_fwd_valid), .tx_fwd_hdr_o (tx_fwd_hdr), .tx_fwd_data_o (),
    .tx_fwd_credit_i  (tx_fwd_credit),
    .tx_rsp_valid_o   (tx_rsp_valid), .tx_rsp_hdr_o (tx_rsp_hdr), .tx_rsp_data_o (),
    .tx_rsp_credit_i  (tx_rsp_credit),
    .tx_dat_valid_o   (tx_dat_valid), .tx_dat_hdr_o (tx_dat_hdr), .tx_dat_data_o (tx_dat_data),
    .tx_dat_credit_i  (tx_dat_credit),
    .s_axil_awvalid_i (awvalid), .s_axil_awready_o (awready),
    .s_axil_awaddr_i  (cni_amap_pkg::CSR_AW'(awaddr)),
    .s_axil_wvalid_i  (wvalid),  .s_axil_wready_o  (wready),  .s_axil_wdata_i  (wdata),
    .s_axil_wstrb_i   (wstrb),
    .s_axil_bvalid_o  (bvalid),  .s_axil_bready_i  (bready),  .s_axil_bresp_o  (bresp),
    .s_axil_arvalid_i (arvalid), .s_axil_arready_o (arready),
    .s_axil_araddr_i  (cni_amap_pkg::CSR_AW'(araddr)),
    .s_axil_rvalid_o  (rvalid),  .s_axil_rready_i  (rready),  .s_axil_rdata_o  (rdata),
    .s_axil_rresp_o   (rresp),
    .pa_valid_o (pa_valid), .pa_ready_i (pa_ready), .pa_data_o (pa_data), .pa_len_o (pa_len),
    .pa_last_o  (pa_last),
    .pb_valid_i (pb_valid), .pb_ready_o (pb_ready), .pb_data_i (pb_data), .pb_len_i (pb_len),
    .pb_last_i  (pb_last),
    .ca_req_valid_i (1'b0), .ca_req_ready_o (), .ca_req_op_i ('0), .ca_req_addr_i ('0),
    .ca_req_data_i ('0), .ca_req_be_i ('0), .ca_req_id_i ('0),
    .ca_rsp_valid_o (), .ca_rsp_ready_i (1'b1), .ca_rsp_id_o (), .ca_rsp_data_o (),
    .ca_rsp_err_o (),
    .ca_mon_valid_o (), .ca_mon_addr_o (), .ca_mon_from_o (), .ca_mon_to_o (),
    .ca_mon_acc_valid_o (), .ca_mon_acc_id_o (), .ca_mon_acc_data_o (),
    .ca_mon_eng_valid_o (), .ca_mon_eng_addr_o (), .ca_mon_eng_we_o (),
    .pb_mon_valid_o (), .pb_mon_line_o (), .pb_mon_data_o (),
    // quiescence is for simulators that skip idle cycles: not used on the board
    .quiet_o (), .idle_o (),
    // no network on these boards: the network port looped back (CniConfig)
    .m_axis_net_tvalid_o (net_valid), .m_axis_net_tready_i (net_ready),
    .m_axis_net_tdata_o (net_data), .m_axis_net_tkeep_o (net_keep),
    .m_axis_net_tlast_o (net_last), .m_axis_net_tdest_o (), .net_tx_room_i (net_room),
    .s_axis_net_tvalid_i (net_valid), .s_axis_net_tready_o (net_ready),
    .s_axis_net_tdata_i (net_data), .s_axis_net_tkeep_i (net_keep),
    .s_axis_net_tlast_i (net_last), .s_axis_net_tuser_i (1'b0), .net_rx_room_o (net_room),
    .node_id_i (16'd0),
    // no device memory in DRAM on these boards (DramIdxW 0): the AXI4 master idle
    .m_axi_arvalid_o (), .m_axi_arready_i (1'b0), .m_axi_araddr_o (), .m_axi_arlen_o (),
    .m_axi_arsize_o (), .m_axi_arburst_o (), .m_axi_rvalid_i (1'b0), .m_axi_rready_o (),
    .m_axi_rdata_i (512'b0), .m_axi_rresp_i (2'b0), .m_axi_rlast_i (1'b0),
    .m_axi_awvalid_o (), .m_axi_awready_i (1'b0), .m_axi_awaddr_o (), .m_axi_awlen_o (),
    .m_axi_awsize_o (), .m_axi_awburst_o (), .m_axi_wvalid_o (), .m_axi_wready_i (1'b0),
    .m_axi_wdata_o (), .m_axi_wstrb_o (), .m_axi_wlast_o (), .m_axi_bvalid_i (1'b0),
    .m_axi_bready_o (), .m_axi_bresp_i (2'b0),
    /* verilator lint_on PINCONNECTEMPTY */
    .init_done_o (init_done),
    .time_i      (time_q)
  );

  // ---- board registers (serial bridge, addresses 0x8000 + 4*i) --------------------------------
  //   0 CTRL      RW  [0] link traffic, [1] PIO traffic (reset 0: the core idles)
  //   1 SEED_LO   W   low word of a new random seed
  //   2 SEED_HI   W   high word; writing it loads {SEED_HI, SEED_LO}
  //   3 STATUS    RO  [0] init done
  //   4 SIG_LINK  RO  signature of everything the core sent on the link
  //   5 SIG_PIO   RO  signature of the (a) beats taken from the core
  //   6 N_SENT    RO  messages the exerciser sent to the core
  //   7 N_RECV    RO  messages the core sent
  logic        loc_valid, loc_we;
  logic [5:0]  loc_addr;
  logic [31:0] loc_wdata, loc_rdata;
  logic [1:0]  ctrl_q;
  logic [1:0]  en_q;      // CTRL's traffic bits once the core is initialized (registered: the
                          // init flag comes from the home agent's state)
  logic [31:0] seed_lo_q;
  logic        seed_valid;
  logic [31:0] sig_link, sig_pio, n_sent, n_recv;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ctrl_q    <= '0;
      en_q      <= '0;
      seed_lo_q <= '0;
    end else begin
      en_q <= ctrl_q & {2{init_done}};
      if (loc_valid && loc_we) begin
        if (loc_addr == 6'd0) ctrl_q <= loc_wdata[1:0];
        if (loc_addr == 6'd1) seed_lo_q <= loc_wdata;
      end
    end
  end
  assign seed_valid = loc_valid && loc_we && loc_addr == 6'd2;

  always_comb begin
    unique case (loc_addr)
      6'd0:    loc_rdata = {30'd0, ctrl_q};
      6'd3:    loc_rdata = {31'd0, init_done};
      6'd4:    loc_rdata = sig_link;
      6'd5:    loc_rdata = sig_pio;
      6'd6:    loc_rdata = n_sent;
      6'd7:    loc_rdata = n_recv;
      default: loc_rdata = '0;
    endcase
  end

  cni_fpga_exerciser #(
    .LineBytes (LineBytes), .NumLines (NumLines), .DevBase (DevBase),
    .RxDepth (RxDepth), .TxCredits (TxCredits)
  ) u_ex (
    .clk_i, .rst_ni,
    .en_link_i (en_q[0]), .en_pio_i (en_q[1]),
    .seed_valid_i (seed_valid), .seed_i ({loc_wdata, seed_lo_q}),
    .agent_id_i (AGENT_ID),
    .rx_req_valid_o (rx_req_valid), .rx_req_hdr_o (rx_req_hdr), .rx_req_data_o (rx_req_data),
    .rx_req_credit_i (rx_req_credit),
    .rx_fwd_valid_o (rx_fwd_valid), .rx_fwd_hdr_o (rx_fwd_hdr), .rx_fwd_credit_i (rx_fwd_credit),
    .rx_rsp_valid_o (rx_rsp_valid), .rx_rsp_hdr_o (rx_rsp_hdr), .rx_rsp_data_o (rx_rsp_data),
    .rx_rsp_credit_i (rx_rsp_credit),
    .rx_dat_valid_o (rx_dat_valid), .rx_dat_hdr_o (rx_dat_hdr), .rx_dat_credit_i (rx_dat_credit),
    .tx_fwd_valid_i (tx_fwd_valid), .tx_fwd_hdr_i (tx_fwd_hdr), .tx_fwd_credit_o (tx_fwd_credit),
    .tx_rsp_valid_i (tx_rsp_valid), .tx_rsp_hdr_i (tx_rsp_hdr), .tx_rsp_credit_o (tx_rsp_credit),
    .tx_dat_valid_i (tx_dat_valid), .tx_dat_hdr_i (tx_dat_hdr), .tx_dat_data_i (tx_dat_data),
    .tx_dat_credit_o (tx_dat_credit),
    .pa_valid_i (pa_valid), .pa_ready_o (pa_ready), .pa_data_i (pa_data), .pa_len_i (pa_len),
    .pa_last_i (pa_last),
    .pb_valid_o (pb_valid), .pb_ready_i (pb_ready), .pb_data_o (pb_data), .pb_len_o (pb_len),
    .pb_last_o (pb_last),
    .sig_link_o (sig_link), .sig_pio_o (sig_pio), .n_sent_o (n_sent), .n_recv_o (n_recv)
  );

  // ---- serial bridge ----------------------------------------------------------------------
  logic       urx_valid, utx_valid, utx_ready;
  logic [7:0] urx_data, utx_data;

  cni_fpga_uart_rx #(.ClkDiv (ClkDiv)) u_urx (
    .clk_i, .rst_ni, .rx_i (uart_rx_i), .valid_o (urx_valid), .data_o (urx_data)
  );
  cni_fpga_uart_tx #(.ClkDiv (ClkDiv)) u_utx (
    .clk_i, .rst_ni, .valid_i (utx_valid), .ready_o (utx_ready), .data_i (utx_data),
    .tx_o (uart_tx_o)
  );

  cni_fpga_bridge u_bridge (
    .clk_i, .rst_ni,
    .rx_valid_i (urx_valid), .rx_data_i (urx_data),
    .tx_valid_o (utx_valid), .tx_ready_i (utx_ready), .tx_data_o (utx_data),
    .m_axil_awvalid_o (awvalid), .m_axil_awready_i (awready), .m_axil_awaddr_o (awaddr),
    .m_axil_wvalid_o (wvalid), .m_axil_wready_i (wready), .m_axil_wdata_o (wdata),
    .m_axil_wstrb_o (wstrb),
    .m_axil_bvalid_i (bvalid), .m_axil_bready_o (bready), .m_axil_bresp_i (bresp),
    .m_axil_arvalid_o (arvalid), .m_axil_arready_i (arready), .m_axil_araddr_o (araddr),
    .m_axil_rvalid_i (rvalid), .m_axil_rready_o (rready), .m_axil_rdata_i (rdata),
    .m_axil_rresp_i (rresp),
    .loc_valid_o (loc_valid), .loc_we_o (loc_we), .loc_addr_o (loc_addr),
    .loc_wdata_o (loc_wdata), .loc_rdata_i (loc_rdata)
  );

  assign status_o = {sig_link[4:0], ctrl_q[1], ctrl_q[0], init_done};

endmodule
