// SPDX-License-Identifier: Apache-2.0
// The NIC behind the coherent link (docs/nic.md, "Coherent PIO interface"; seed 002 Fig. 9c): the
// datapath between the MAC's streams and the coherent-PIO interface, whose line-wide streams join
// the PIO engine's protocol (a) and (b) streams (cni_pio_engine's pa_* and pb_*, endpoint ports
// of cni_endpoint). One clock: where the datapath runs at another clock than the endpoint, an
// FPGA design puts an AXI4-Stream clock converter on the pa/pb streams (the host simulation
// models one, tb/nic/nic_coh_device.cpp).
//
// Parameters:
//   Bytes, RxBeats, TxBeats, Frames, MinBytes, MaxBytes - the datapath's (cni_nic_datapath)
//   LineBytes                                            - the PIO streams' beat (cni_nic_coh)
// Ports:
//   pa_*, pb_*             - the PIO engine's (a) and (b) streams (cni_nic_coh)
//   mac_rx_*, mac_tx_*     - the MAC's streams (cni_nic_datapath)
//   rx_cnt_*_o, tx_cnt_*_o - the datapath's counter pulses
//   idle_o                 - nothing held or under way
`default_nettype none

module cni_nic_eci #(
  parameter int Bytes     = 64,
  parameter int RxBeats   = 512,
  parameter int TxBeats   = 512,
  parameter int Frames    = 64,
  parameter int MinBytes  = 60,
  parameter int MaxBytes  = 9596,
  parameter int LineBytes = 128,
  localparam int DW = Bytes * 8,
  localparam int LW = LineBytes * 8
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             pa_valid_i,
  output logic                  pa_ready_o,
  input  wire logic [LW-1:0]    pa_data_i,
  input  wire logic [15:0]      pa_len_i,
  input  wire logic             pa_last_i,
  output logic                  pb_valid_o,
  input  wire logic             pb_ready_i,
  output logic [LW-1:0]         pb_data_o,
  output logic [15:0]           pb_len_o,
  output logic                  pb_last_o,
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
  logic [Bytes-1:0] hrx_tkeep;
  logic             dp_idle, coh_idle;

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

  cni_nic_coh #(
    .Bytes(Bytes), .LineBytes(LineBytes)
  ) u_coh (
    .clk_i, .rst_ni,
    .pa_valid_i, .pa_ready_o, .pa_data_i, .pa_len_i, .pa_last_i,
    .pb_valid_o, .pb_ready_i, .pb_data_o, .pb_len_o, .pb_last_o,
    .tx_tvalid_o(htx_tvalid),
    .tx_tready_i(htx_tready),
    .tx_tdata_o (htx_tdata),
    .tx_tkeep_o (htx_tkeep),
    .tx_tlast_o (htx_tlast),
    .tx_tuser_o (htx_tuser),
    .rx_tvalid_i(hrx_tvalid),
    .rx_tready_o(hrx_tready),
    .rx_tdata_i (hrx_tdata),
    .rx_tkeep_i (hrx_tkeep),
    .rx_tlast_i (hrx_tlast),
    .rx_len_i   (hrx_len),
    .idle_o     (coh_idle)
  );

  assign idle_o = dp_idle && coh_idle;

endmodule
