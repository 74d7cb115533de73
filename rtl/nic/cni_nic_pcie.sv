// SPDX-License-Identifier: Apache-2.0
// The NIC as a PCIe device with the PIO host interface (docs/nic.md): the datapath between the
// MAC's streams and the PCIe PIO interface, whose AXI4 slave is the BAR a PCIe hard IP reaches.
//
// Parameters:
//   Bytes, RxBeats, TxBeats, Frames, MinBytes, MaxBytes - the datapath's (cni_nic_datapath)
//   Slots, SlotBeats                                     - the PIO interface's (cni_nic_pio)
// Ports:
//   s_axi_*             - the BAR (cni_nic_pio)
//   mac_rx_*, mac_tx_*  - the MAC's streams (cni_nic_datapath)
//   rx_cnt_*_o, tx_cnt_*_o - the datapath's counter pulses
//   idle_o              - nothing held or under way
`default_nettype none

module cni_nic_pcie #(
  parameter int Bytes     = 64,
  parameter int RxBeats   = 512,
  parameter int TxBeats   = 512,
  parameter int Frames    = 64,
  parameter int MinBytes  = 60,
  parameter int MaxBytes  = 9596,
  parameter int Slots     = 4,
  parameter int SlotBeats = 256,
  localparam int DW = Bytes * 8,
  localparam int AW = $clog2(4 * Slots * SlotBeats * Bytes)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             s_axi_awvalid_i,
  output logic                  s_axi_awready_o,
  input  wire logic [AW-1:0]    s_axi_awaddr_i,
  input  wire logic [7:0]       s_axi_awlen_i,
  input  wire logic [2:0]       s_axi_awsize_i,
  input  wire logic [1:0]       s_axi_awburst_i,
  input  wire logic             s_axi_wvalid_i,
  output logic                  s_axi_wready_o,
  input  wire logic [DW-1:0]    s_axi_wdata_i,
  input  wire logic [Bytes-1:0] s_axi_wstrb_i,
  input  wire logic             s_axi_wlast_i,
  output logic                  s_axi_bvalid_o,
  input  wire logic             s_axi_bready_i,
  output logic [1:0]            s_axi_bresp_o,
  input  wire logic             s_axi_arvalid_i,
  output logic                  s_axi_arready_o,
  input  wire logic [AW-1:0]    s_axi_araddr_i,
  input  wire logic [7:0]       s_axi_arlen_i,
  input  wire logic [2:0]       s_axi_arsize_i,
  input  wire logic [1:0]       s_axi_arburst_i,
  output logic                  s_axi_rvalid_o,
  input  wire logic             s_axi_rready_i,
  output logic [DW-1:0]         s_axi_rdata_o,
  output logic [1:0]            s_axi_rresp_o,
  output logic                  s_axi_rlast_o,
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
  logic             dp_idle, pio_idle;
  // The receive ring takes whole beats: a frame's length says which bytes of its last count.
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

  cni_nic_pio #(
    .Bytes(Bytes), .Slots(Slots), .SlotBeats(SlotBeats), .MaxBytes(MaxBytes)
  ) u_pio (
    .clk_i, .rst_ni,
    .s_axi_awvalid_i, .s_axi_awready_o, .s_axi_awaddr_i, .s_axi_awlen_i, .s_axi_awsize_i,
    .s_axi_awburst_i, .s_axi_wvalid_i, .s_axi_wready_o, .s_axi_wdata_i, .s_axi_wstrb_i,
    .s_axi_wlast_i, .s_axi_bvalid_o, .s_axi_bready_i, .s_axi_bresp_o, .s_axi_arvalid_i,
    .s_axi_arready_o, .s_axi_araddr_i, .s_axi_arlen_i, .s_axi_arsize_i, .s_axi_arburst_i,
    .s_axi_rvalid_o, .s_axi_rready_i, .s_axi_rdata_o, .s_axi_rresp_o, .s_axi_rlast_o,
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
    .idle_o     (pio_idle)
  );

  assign idle_o = dp_idle && pio_idle;

endmodule
