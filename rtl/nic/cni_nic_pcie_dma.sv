// SPDX-License-Identifier: Apache-2.0
// The NIC as a PCIe device with the descriptor-ring DMA host interface (docs/nic.md): the
// datapath between the MAC's streams and the DMA interface, whose AXI4-Lite slave is the BAR a
// PCIe hard IP reaches and whose AXI4 master and MSI port are the hard IP's DMA and interrupt
// interfaces.
//
// Parameters:
//   Bytes, RxBeats, TxBeats, Frames, MinBytes, MaxBytes - the datapath's (cni_nic_datapath)
//   AddrW, RingW                                         - the DMA interface's (cni_nic_dma)
// Ports:
//   s_axil_*, m_axi_*, msi_* - the BAR, DMA and MSI (cni_nic_dma)
//   mac_rx_*, mac_tx_*       - the MAC's streams (cni_nic_datapath)
//   rx_cnt_*_o, tx_cnt_*_o   - the datapath's counter pulses
//   idle_o                   - nothing held or under way
`default_nettype none

module cni_nic_pcie_dma #(
  parameter int Bytes    = 64,
  parameter int RxBeats  = 512,
  parameter int TxBeats  = 512,
  parameter int Frames   = 64,
  parameter int MinBytes = 60,
  parameter int MaxBytes = 9596,
  parameter int AddrW    = 48,
  parameter int RingW    = 12,
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
  input  wire logic             m_axi_rlast_i,
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
  input  wire logic             mac_rx_tvalid_i,
  input  wire logic [DW-1:0]    mac_rx_tdata_i,
  input  wire logic [Bytes-1:0] mac_rx_tkeep_i,
  input  wire logic             mac_rx_tlast_i,
  input  wire logic             mac_rx_tuser_i,
  output logic                  mac_tx_tvalid_o,
  input  wire logic             mac_tx_tready_i,
  output logic [DW-1:0]         mac_tx_tdata_o,
  output logic [Bytes-1:0]      mac_tx_tkeep_o,
  output logic                  mac_tx_tlast_o,
  output logic                  rx_cnt_frames_o,
  output logic                  rx_cnt_runt_o,
  output logic                  rx_cnt_oversize_o,
  output logic                  rx_cnt_bad_fcs_o,
  output logic                  rx_cnt_overflow_o,
  output logic                  rx_cnt_bad_keep_o,
  output logic                  tx_cnt_frames_o,
  output logic                  tx_cnt_runt_o,
  output logic                  tx_cnt_oversize_o,
  output logic                  tx_cnt_aborted_o,
  output logic                  tx_cnt_bad_keep_o,
  output logic                  idle_o
);

  logic             hrx_tvalid, hrx_tready, hrx_tlast;
  logic [DW-1:0]    hrx_tdata;
  logic [15:0]      hrx_len;
  logic             htx_tvalid, htx_tready, htx_tlast, htx_tuser;
  logic [DW-1:0]    htx_tdata;
  logic [Bytes-1:0] htx_tkeep;
  logic             dp_idle, dma_idle;
  // The buffers take whole beats: a frame's length says which bytes of its last count.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [Bytes-1:0] hrx_tkeep;
  /* verilator lint_on UNUSEDSIGNAL */

  cni_nic_datapath #(
    .Bytes(Bytes), .RxBeats(RxBeats), .TxBeats(TxBeats), .Frames(Frames), .MinBytes(MinBytes),
    .MaxBytes(MaxBytes)
  ) u_dp (
    .clk_i, .rst_ni,
    .mac_rx_tvalid_i, .mac_rx_tdata_i, .mac_rx_tkeep_i, .mac_rx_tlast_i, .mac_rx_tuser_i,
    .host_rx_tvalid_o(hrx_tvalid),
    .host_rx_tready_i(hrx_tready),
    .host_rx_tdata_o (hrx_tdata),
    .host_rx_tkeep_o (hrx_tkeep),
    .host_rx_tlast_o (hrx_tlast),
    .host_rx_len_o   (hrx_len),
    .host_tx_tvalid_i(htx_tvalid),
    .host_tx_tready_o(htx_tready),
    .host_tx_tdata_i (htx_tdata),
    .host_tx_tkeep_i (htx_tkeep),
    .host_tx_tlast_i (htx_tlast),
    .host_tx_tuser_i (htx_tuser),
    .mac_tx_tvalid_o, .mac_tx_tready_i, .mac_tx_tdata_o, .mac_tx_tkeep_o, .mac_tx_tlast_o,
    .rx_cnt_frames_o, .rx_cnt_runt_o, .rx_cnt_oversize_o, .rx_cnt_bad_fcs_o,
    .rx_cnt_overflow_o, .rx_cnt_bad_keep_o,
    .tx_cnt_frames_o, .tx_cnt_runt_o, .tx_cnt_oversize_o, .tx_cnt_aborted_o, .tx_cnt_bad_keep_o,
    .idle_o(dp_idle)
  );

  cni_nic_dma #(.Bytes(Bytes), .AddrW(AddrW), .RingW(RingW), .MaxBytes(MaxBytes)) u_dma (
    .clk_i, .rst_ni,
    .s_axil_awvalid_i, .s_axil_awready_o, .s_axil_awaddr_i, .s_axil_wvalid_i, .s_axil_wready_o,
    .s_axil_wdata_i, .s_axil_wstrb_i, .s_axil_bvalid_o, .s_axil_bready_i, .s_axil_bresp_o,
    .s_axil_arvalid_i, .s_axil_arready_o, .s_axil_araddr_i, .s_axil_rvalid_o, .s_axil_rready_i,
    .s_axil_rdata_o, .s_axil_rresp_o,
    .m_axi_arvalid_o, .m_axi_arready_i, .m_axi_arid_o, .m_axi_araddr_o, .m_axi_arlen_o,
    .m_axi_rvalid_i, .m_axi_rready_o, .m_axi_rid_i, .m_axi_rdata_i, .m_axi_rresp_i,
    .m_axi_rlast_i, .m_axi_awvalid_o, .m_axi_awready_i, .m_axi_awid_o, .m_axi_awaddr_o,
    .m_axi_awlen_o, .m_axi_wvalid_o, .m_axi_wready_i, .m_axi_wdata_o, .m_axi_wstrb_o,
    .m_axi_wlast_o, .m_axi_bvalid_i, .m_axi_bready_o, .m_axi_bid_i, .m_axi_bresp_i,
    .msi_valid_o, .msi_ready_i, .msi_vec_o,
    .rx_tvalid_i(hrx_tvalid),
    .rx_tready_o(hrx_tready),
    .rx_tdata_i (hrx_tdata),
    .rx_tlast_i (hrx_tlast),
    .rx_len_i   (hrx_len),
    .tx_tvalid_o(htx_tvalid),
    .tx_tready_i(htx_tready),
    .tx_tdata_o (htx_tdata),
    .tx_tkeep_o (htx_tkeep),
    .tx_tlast_o (htx_tlast),
    .tx_tuser_o (htx_tuser),
    .idle_o     (dma_idle)
  );

  assign idle_o = dp_idle && dma_idle;

endmodule
