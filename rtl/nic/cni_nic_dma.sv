// SPDX-License-Identifier: Apache-2.0
// The NIC's descriptor-ring DMA host interface (docs/nic.md, "Descriptor-ring DMA interface";
// seed 003 §2.1.1, seed 002 Fig. 9a) on the datapath's host streams: transmit and receive
// descriptor rings in host memory, registers behind a BAR (an AXI4-Lite slave of 64-bit words:
// ring bases and sizes, the producer counts the host writes as doorbells, the consumer counts,
// interrupt coalescing), the two engines (cni_nic_dma_tx, cni_nic_dma_rx) sharing one AXI4
// master (a PCIe hard IP's DMA interface: ID 0 transmit, ID 1 receive), and MSI requests.
//
// Parameters:
//   Bytes    - bytes per beat (AXI data width and the datapath's: 64)
//   AddrW    - host address bits
//   RingW    - log2 of the largest ring (entries)
//   MaxBytes - the longest frame
// Ports:
//   s_axil_* - the BAR's registers: one write and one read at a time; this block may stall
//   m_axi_*  - DMA: INCR bursts of full beats; reads answered in order per ID, write responses
//              likewise; the write channels carry one burst at a time, address before data
//   msi_*    - an MSI request (vector 0: transmit, 1: receive), held until taken
//   rx_*     - good frames from the datapath (rx_len_i: the frame's length on each beat)
//   tx_*     - frames to the datapath (which may stall); tuser: a read of the frame failed
//   idle_o   - no descriptor under way, no MSI pending, nothing posted
`default_nettype none
`include "cni_assert.svh"

module cni_nic_dma #(
  parameter int Bytes    = 64,
  parameter int AddrW    = 48,
  parameter int RingW    = 12,
  parameter int MaxBytes = 9596,
  localparam int DW = Bytes * 8
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             s_axil_awvalid_i,
  output logic                  s_axil_awready_o,
  input  wire logic [7:0]       s_axil_awaddr_i,
  input  wire logic             s_axil_wvalid_i,
  output logic                  s_axil_wready_o,
  input  wire logic [63:0]      s_axil_wdata_i,
  input  wire logic [7:0]       s_axil_wstrb_i,
  output logic                  s_axil_bvalid_o,
  input  wire logic             s_axil_bready_i,
  output logic [1:0]            s_axil_bresp_o,
  input  wire logic             s_axil_arvalid_i,
  output logic                  s_axil_arready_o,
  input  wire logic [7:0]       s_axil_araddr_i,
  output logic                  s_axil_rvalid_o,
  input  wire logic             s_axil_rready_i,
  output logic [63:0]           s_axil_rdata_o,
  output logic [1:0]            s_axil_rresp_o,
  output logic                  m_axi_arvalid_o,
  input  wire logic             m_axi_arready_i,
  output logic                  m_axi_arid_o,
  output logic [AddrW-1:0]      m_axi_araddr_o,
  output logic [7:0]            m_axi_arlen_o,
  input  wire logic             m_axi_rvalid_i,
  output logic                  m_axi_rready_o,
  input  wire logic             m_axi_rid_i,
  input  wire logic [DW-1:0]    m_axi_rdata_i,
  input  wire logic [1:0]       m_axi_rresp_i,
  // (Framing follows the bursts this block asked for.)
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic             m_axi_rlast_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic                  m_axi_awvalid_o,
  input  wire logic             m_axi_awready_i,
  output logic                  m_axi_awid_o,
  output logic [AddrW-1:0]      m_axi_awaddr_o,
  output logic [7:0]            m_axi_awlen_o,
  output logic                  m_axi_wvalid_o,
  input  wire logic             m_axi_wready_i,
  output logic [DW-1:0]         m_axi_wdata_o,
  output logic [Bytes-1:0]      m_axi_wstrb_o,
  output logic                  m_axi_wlast_o,
  input  wire logic             m_axi_bvalid_i,
  output logic                  m_axi_bready_o,
  input  wire logic             m_axi_bid_i,
  input  wire logic [1:0]       m_axi_bresp_i,
  output logic                  msi_valid_o,
  input  wire logic             msi_ready_i,
  output logic                  msi_vec_o,
  input  wire logic             rx_tvalid_i,
  output logic                  rx_tready_o,
  input  wire logic [DW-1:0]    rx_tdata_i,
  input  wire logic             rx_tlast_i,
  input  wire logic [15:0]      rx_len_i,
  output logic                  tx_tvalid_o,
  input  wire logic             tx_tready_i,
  output logic [DW-1:0]         tx_tdata_o,
  output logic [Bytes-1:0]      tx_tkeep_o,
  output logic                  tx_tlast_o,
  output logic                  tx_tuser_o,
  output logic                  idle_o
);

  // Register words (byte offset / 8).
  localparam logic [4:0] R_TX_BASE = 5'd0, R_TX_LOG2 = 5'd1, R_TX_TAIL = 5'd2, R_TX_HEAD = 5'd3,
                         R_RX_BASE = 5'd4, R_RX_LOG2 = 5'd5, R_RX_TAIL = 5'd6, R_RX_HEAD = 5'd7,
                         R_IRQ = 5'd8, R_ERRORS = 5'd9, R_GEOMETRY = 5'd10;
  localparam logic [1:0] OKAY = 2'b00, SLVERR = 2'b10;

  // ---- registers -------------------------------------------------------------------------------
  logic [AddrW-1:0] tx_base_q, rx_base_q;
  logic [3:0]       tx_log2_q, rx_log2_q;
  logic [31:0]      tx_tail_q, tx_head_q, rx_tail_q, rx_head_q;
  logic             irq_tx_q, irq_rx_q;
  logic [7:0]       coal_q;             // frames per MSI (0: 1)
  logic [15:0]      e_tx_q, e_rx_q, e_axi_q, e_reg_q;  // error counts (saturating)
  logic             tx_done, tx_err, rx_done, rx_trunc, rx_err;
  logic             tx_idle, rx_idle;

  // One write at a time: address and data taken together.
  logic       bvalid_q, rvalid_q;
  logic [1:0] bresp_q, rresp_q;
  logic [63:0] rdata_q;
  logic       wr, rd;
  logic [4:0] wi, ri;
  logic       w_ok;
  assign wr = s_axil_awvalid_i && s_axil_wvalid_i && !bvalid_q;
  assign rd = s_axil_arvalid_i && !rvalid_q;
  assign wi = s_axil_awaddr_i[7:3];
  assign ri = s_axil_araddr_i[7:3];
  assign s_axil_awready_o = wr;
  assign s_axil_wready_o  = wr;
  assign s_axil_arready_o = rd;

  // Ring sizes may change only while the ring is empty and its engine idle; a producer count may
  // move only forward, by at most the ring's entries past the consumer count (modulo 2^32).
  logic [31:0] wv32;
  logic        tx_quiet, rx_quiet, tx_tail_ok, rx_tail_ok, base_ok;
  assign wv32       = s_axil_wdata_i[31:0];
  assign base_ok    = s_axil_wdata_i[3:0] == '0 && (s_axil_wdata_i >> AddrW) == '0;
  assign tx_quiet   = tx_tail_q == tx_head_q && tx_idle;
  assign rx_quiet   = rx_tail_q == rx_head_q && rx_idle;
  assign tx_tail_ok = (wv32 - tx_head_q) <= (32'd1 << tx_log2_q) &&
                      (wv32 - tx_head_q) >= (tx_tail_q - tx_head_q);
  assign rx_tail_ok = (wv32 - rx_head_q) <= (32'd1 << rx_log2_q) &&
                      (wv32 - rx_head_q) >= (rx_tail_q - rx_head_q);
  always_comb begin
    // whole, aligned words; a base that is an address, 16-byte aligned
    w_ok = s_axil_wstrb_i == 8'hFF && s_axil_awaddr_i[2:0] == '0;
    unique case (wi)
      R_TX_BASE: w_ok = w_ok && tx_quiet && base_ok;
      R_TX_LOG2: w_ok = w_ok && tx_quiet && s_axil_wdata_i <= 64'(RingW);
      R_TX_TAIL: w_ok = w_ok && tx_tail_ok;
      R_RX_BASE: w_ok = w_ok && rx_quiet && base_ok;
      R_RX_LOG2: w_ok = w_ok && rx_quiet && s_axil_wdata_i <= 64'(RingW);
      R_RX_TAIL: w_ok = w_ok && rx_tail_ok;
      R_IRQ: ;
      default: w_ok = 1'b0;
    endcase
  end

  // ---- the engines -----------------------------------------------------------------------------
  logic [AddrW-1:0] tx_desc, rx_desc;
  logic [31:0]      tx_idx, rx_idx;  // the consumer's entry in its ring
  assign tx_idx  = tx_head_q & ((32'd1 << tx_log2_q) - 32'd1);
  assign rx_idx  = rx_head_q & ((32'd1 << rx_log2_q) - 32'd1);
  assign tx_desc = tx_base_q + (AddrW'(tx_idx) << 4);
  assign rx_desc = rx_base_q + (AddrW'(rx_idx) << 4);

  logic             t_arv, t_arr, t_rv, t_rr, t_awv, t_awr, t_wv, t_wr, t_bv;
  logic [AddrW-1:0] t_ara, t_awa;
  logic [7:0]       t_arl;
  logic [DW-1:0]    t_wd;
  logic [Bytes-1:0] t_ws;
  logic             r_arv, r_arr, r_rv, r_awv, r_awr, r_wv, r_wr, r_wl, r_bv;
  logic [AddrW-1:0] r_ara, r_awa;
  logic [7:0]       r_awl;
  logic [DW-1:0]    r_wd;
  logic [Bytes-1:0] r_ws;
  logic             r_err_in, b_err_in;
  assign r_err_in = m_axi_rresp_i != OKAY;
  assign b_err_in = m_axi_bresp_i != OKAY;

  cni_nic_dma_tx #(.Bytes(Bytes), .AddrW(AddrW), .MaxBytes(MaxBytes)) u_tx (
    .clk_i, .rst_ni,
    .go_i (tx_tail_q != tx_head_q), .desc_addr_i (tx_desc),
    .done_o (tx_done), .err_o (tx_err),
    .ar_valid_o (t_arv), .ar_ready_i (t_arr), .ar_addr_o (t_ara), .ar_len_o (t_arl),
    .r_valid_i (t_rv), .r_ready_o (t_rr), .r_data_i (m_axi_rdata_i), .r_err_i (r_err_in),
    .aw_valid_o (t_awv), .aw_ready_i (t_awr), .aw_addr_o (t_awa),
    .w_valid_o (t_wv), .w_ready_i (t_wr), .w_data_o (t_wd), .w_strb_o (t_ws),
    .b_valid_i (t_bv),
    .tx_tvalid_o, .tx_tready_i, .tx_tdata_o, .tx_tkeep_o, .tx_tlast_o, .tx_tuser_o,
    .idle_o (tx_idle)
  );

  cni_nic_dma_rx #(.Bytes(Bytes), .AddrW(AddrW)) u_rx (
    .clk_i, .rst_ni,
    .avail_i (rx_tail_q != rx_head_q), .desc_addr_i (rx_desc),
    .done_o (rx_done), .trunc_o (rx_trunc), .err_o (rx_err),
    .ar_valid_o (r_arv), .ar_ready_i (r_arr), .ar_addr_o (r_ara),
    .r_valid_i (r_rv), .r_data_i (m_axi_rdata_i), .r_err_i (r_err_in),
    .aw_valid_o (r_awv), .aw_ready_i (r_awr), .aw_addr_o (r_awa), .aw_len_o (r_awl),
    .w_valid_o (r_wv), .w_ready_i (r_wr), .w_data_o (r_wd), .w_strb_o (r_ws), .w_last_o (r_wl),
    .b_valid_i (r_bv), .b_err_i (b_err_in),
    .rx_tvalid_i, .rx_tready_o, .rx_tdata_i, .rx_tlast_i, .rx_len_i,
    .idle_o (rx_idle)
  );

  // Reads: receive (a descriptor, rare) first; an address offered and not taken stays offered
  // (ar_sel_q holds the choice). Data routed by ID.
  logic [1:0] ar_sel_q, ar_sel;  // 0 none, 1 transmit, 2 receive
  assign ar_sel          = (ar_sel_q != '0) ? ar_sel_q : r_arv ? 2'd2 : t_arv ? 2'd1 : 2'd0;
  assign m_axi_arvalid_o = (ar_sel == 2'd2 && r_arv) || (ar_sel == 2'd1 && t_arv);
  assign m_axi_arid_o    = ar_sel == 2'd2;
  assign m_axi_araddr_o  = (ar_sel == 2'd2) ? r_ara : t_ara;
  assign m_axi_arlen_o   = (ar_sel == 2'd2) ? 8'd0 : t_arl;
  assign r_arr           = ar_sel == 2'd2 && m_axi_arready_i;
  assign t_arr           = ar_sel == 2'd1 && m_axi_arready_i;
  assign t_rv            = m_axi_rvalid_i && !m_axi_rid_i;
  assign r_rv            = m_axi_rvalid_i && m_axi_rid_i;
  assign m_axi_rready_o  = m_axi_rid_i ? 1'b1 : t_rr;

  // Writes: one burst at a time. An engine offers a burst's address and its data together (AXI:
  // neither waits for the other); the first to offer an address owns both channels (receive
  // first) until the address and the last beat are taken (w_own_q: 0 none, 1 transmit, 2
  // receive). Responses routed by ID.
  logic [1:0] w_own_q, w_own_d, w_own;
  logic       awd_q, awd_d, wld_q, wld_d;  // the owned burst's address, its last beat taken
  logic       aw_ok, wl_ok;
  assign w_own = (w_own_q != '0) ? w_own_q : r_awv ? 2'd2 : t_awv ? 2'd1 : 2'd0;
  assign m_axi_awvalid_o = !awd_q && ((w_own == 2'd2 && r_awv) || (w_own == 2'd1 && t_awv));
  assign m_axi_awid_o    = w_own == 2'd2;
  assign m_axi_awaddr_o  = (w_own == 2'd2) ? r_awa : t_awa;
  assign m_axi_awlen_o   = (w_own == 2'd2) ? r_awl : 8'd0;
  assign r_awr           = w_own == 2'd2 && !awd_q && m_axi_awready_i;
  assign t_awr           = w_own == 2'd1 && !awd_q && m_axi_awready_i;
  assign m_axi_wvalid_o  = (w_own == 2'd2 && r_wv) || (w_own == 2'd1 && t_wv);
  assign m_axi_wdata_o   = (w_own == 2'd2) ? r_wd : t_wd;
  assign m_axi_wstrb_o   = (w_own == 2'd2) ? r_ws : t_ws;
  assign m_axi_wlast_o   = (w_own == 2'd2) ? r_wl : 1'b1;
  assign r_wr            = w_own == 2'd2 && m_axi_wready_i;
  assign t_wr            = w_own == 2'd1 && m_axi_wready_i;
  assign m_axi_bready_o  = 1'b1;
  assign t_bv            = m_axi_bvalid_i && !m_axi_bid_i;
  assign r_bv            = m_axi_bvalid_i && m_axi_bid_i;
  assign aw_ok = awd_q || (m_axi_awvalid_o && m_axi_awready_i);
  assign wl_ok = wld_q || (m_axi_wvalid_o && m_axi_wready_i && m_axi_wlast_o);
  always_comb begin
    w_own_d = w_own_q;
    awd_d   = awd_q;
    wld_d   = wld_q;
    if (w_own != '0) begin
      if (aw_ok && wl_ok) begin
        w_own_d = '0;
        awd_d   = 1'b0;
        wld_d   = 1'b0;
      end else begin
        w_own_d = w_own;
        awd_d   = aw_ok;
        wld_d   = wl_ok;
      end
    end
  end

  // ---- MSI: one per `coal` frames each way, while enabled ---------------------------------------
  // A request shown and not taken keeps its vector (msi_hold_q); a vector that falls due in the
  // cycle its last request is taken stays pending.
  logic [7:0] tx_cnt_q, rx_cnt_q;
  logic       tx_pend_q, rx_pend_q, msi_hold_q, msi_vec_q;
  logic       tx_due, rx_due, tx_take, rx_take;
  logic [7:0] coal;
  assign coal        = (coal_q == '0) ? 8'd1 : coal_q;
  assign msi_valid_o = tx_pend_q || rx_pend_q;
  assign msi_vec_o   = msi_hold_q ? msi_vec_q : !tx_pend_q;
  assign tx_due      = tx_done && irq_tx_q && tx_cnt_q + 8'd1 >= coal;
  assign rx_due      = rx_done && irq_rx_q && rx_cnt_q + 8'd1 >= coal;
  assign tx_take     = msi_valid_o && msi_ready_i && !msi_vec_o;
  assign rx_take     = msi_valid_o && msi_ready_i && msi_vec_o;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tx_base_q <= '0;
      rx_base_q <= '0;
      tx_log2_q <= '0;
      rx_log2_q <= '0;
      tx_tail_q <= '0;
      tx_head_q <= '0;
      rx_tail_q <= '0;
      rx_head_q <= '0;
      irq_tx_q  <= 1'b0;
      irq_rx_q  <= 1'b0;
      coal_q    <= '0;
      e_tx_q    <= '0;
      e_rx_q    <= '0;
      e_axi_q   <= '0;
      e_reg_q   <= '0;
      bvalid_q  <= 1'b0;
      bresp_q   <= OKAY;
      rvalid_q  <= 1'b0;
      rresp_q   <= OKAY;
      rdata_q   <= '0;
      w_own_q   <= '0;
      awd_q     <= 1'b0;
      wld_q     <= 1'b0;
      ar_sel_q  <= '0;
      msi_hold_q <= 1'b0;
      msi_vec_q <= 1'b0;
      tx_cnt_q  <= '0;
      rx_cnt_q  <= '0;
      tx_pend_q <= 1'b0;
      rx_pend_q <= 1'b0;
    end else begin
      w_own_q <= w_own_d;
      awd_q   <= awd_d;
      wld_q   <= wld_d;
      ar_sel_q <= (m_axi_arvalid_o && !m_axi_arready_i) ? ar_sel : 2'd0;
      msi_hold_q <= msi_valid_o && !msi_ready_i;
      msi_vec_q  <= msi_vec_o;
      if (wr) begin
        bvalid_q <= 1'b1;
        bresp_q  <= w_ok ? OKAY : SLVERR;
        if (!w_ok && e_reg_q != '1) e_reg_q <= e_reg_q + 16'd1;
        if (w_ok) begin
          unique case (wi)
            R_TX_BASE: tx_base_q <= s_axil_wdata_i[AddrW-1:0];
            R_TX_LOG2: tx_log2_q <= s_axil_wdata_i[3:0];
            R_TX_TAIL: tx_tail_q <= wv32;
            R_RX_BASE: rx_base_q <= s_axil_wdata_i[AddrW-1:0];
            R_RX_LOG2: rx_log2_q <= s_axil_wdata_i[3:0];
            R_RX_TAIL: rx_tail_q <= wv32;
            R_IRQ: begin
              irq_tx_q <= s_axil_wdata_i[0];
              irq_rx_q <= s_axil_wdata_i[1];
              coal_q   <= s_axil_wdata_i[15:8];
            end
            default: ;
          endcase
        end
      end else if (s_axil_bready_i) begin
        bvalid_q <= 1'b0;
      end
      if (rd) begin
        rvalid_q <= 1'b1;
        // (reserved words read as zero: the host's loads are 16 bytes wide on ThunderX-1, so a
        // load of the last register reads the word after it too)
        rresp_q  <= (s_axil_araddr_i[2:0] == '0) ? OKAY : SLVERR;
        unique case (ri)
          R_TX_BASE:  rdata_q <= 64'(tx_base_q);
          R_TX_LOG2:  rdata_q <= 64'(tx_log2_q);
          R_TX_TAIL:  rdata_q <= 64'(tx_tail_q);
          R_TX_HEAD:  rdata_q <= 64'(tx_head_q);
          R_RX_BASE:  rdata_q <= 64'(rx_base_q);
          R_RX_LOG2:  rdata_q <= 64'(rx_log2_q);
          R_RX_TAIL:  rdata_q <= 64'(rx_tail_q);
          R_RX_HEAD:  rdata_q <= 64'(rx_head_q);
          R_IRQ:      rdata_q <= {48'd0, coal_q, 6'd0, irq_rx_q, irq_tx_q};
          R_ERRORS:   rdata_q <= {e_reg_q, e_axi_q, e_rx_q, e_tx_q};
          R_GEOMETRY: rdata_q <= {16'd0, 16'(MaxBytes), 16'(RingW), 16'(Bytes)};
          default:    rdata_q <= '0;
        endcase
      end else if (s_axil_rready_i) begin
        rvalid_q <= 1'b0;
      end
      // consumer counts and errors
      if (tx_done) tx_head_q <= tx_head_q + 32'd1;
      if (rx_done) rx_head_q <= rx_head_q + 32'd1;
      if (tx_err && e_tx_q != '1) e_tx_q <= e_tx_q + 16'd1;
      if ((rx_trunc || rx_err) && e_rx_q != '1) e_rx_q <= e_rx_q + 16'd1;
      if (((m_axi_rvalid_i && m_axi_rready_o && r_err_in) || (m_axi_bvalid_i && b_err_in)) &&
          e_axi_q != '1) begin
        e_axi_q <= e_axi_q + 16'd1;
      end
      // MSI
      if (tx_done && irq_tx_q) tx_cnt_q <= tx_due ? 8'd0 : tx_cnt_q + 8'd1;
      if (rx_done && irq_rx_q) rx_cnt_q <= rx_due ? 8'd0 : rx_cnt_q + 8'd1;
      tx_pend_q <= (tx_pend_q && !tx_take) || tx_due;
      rx_pend_q <= (rx_pend_q && !rx_take) || rx_due;
    end
  end

  assign s_axil_bvalid_o = bvalid_q;
  assign s_axil_bresp_o  = bresp_q;
  assign s_axil_rvalid_o = rvalid_q;
  assign s_axil_rresp_o  = rresp_q;
  assign s_axil_rdata_o  = rdata_q;

  assign idle_o = tx_idle && rx_idle && !msi_valid_o && w_own_q == '0 && ar_sel_q == '0;

  `CNI_ASSERT_INIT(Params_A, RingW >= 1 && RingW <= 15, "rings of 2 to 32768 entries")
  `CNI_ASSERT(ArHold_A, ar_sel_q == '0 || m_axi_arvalid_o, "a read address withdrawn")
  `CNI_ASSERT(MsiVec_A, !msi_hold_q || (msi_vec_q ? rx_pend_q : tx_pend_q),
              "the MSI shown lost its pending request")

endmodule
