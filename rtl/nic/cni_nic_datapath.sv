// SPDX-License-Identifier: Apache-2.0
// The NIC datapath (docs/nic.md): a MAC's receive stream into a checked, store-and-forward packet
// buffer whose good frames a host interface takes in order, and a host interface's frames held
// until whole, then sent to the MAC's transmit stream without a gap inside a frame.
//
// Parameters:
//   Bytes              - bytes per beat (64: 512 bits)
//   RxBeats, TxBeats   - packet buffer words of each direction (powers of two)
//   Frames             - frames each direction's buffer holds at most
//   MinBytes, MaxBytes - frame lengths accepted (without the FCS, which the MAC handles)
// Ports:
//   mac_rx_*           - the MAC's receive stream (no tready: never held back); tuser on the last
//                        beat: bad FCS
//   host_rx_*          - good frames to the host interface (which may stall), host_rx_len_o the
//                        frame's length on each of its beats
//   host_tx_*          - frames from the host interface (held back while the buffer is full);
//                        tuser on the last beat: abort
//   mac_tx_*           - frames to the MAC (which may stall)
//   rx_cnt_*_o, tx_cnt_*_o - one-cycle pulses: frames passed on; frames dropped, by cause
//   idle_o             - no frame held or under way in either direction
`default_nettype none

module cni_nic_datapath #(
  parameter int Bytes    = 64,
  parameter int RxBeats  = 512,
  parameter int TxBeats  = 512,
  parameter int Frames   = 64,
  parameter int MinBytes = 60,
  parameter int MaxBytes = 9596,
  localparam int DW = Bytes * 8
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             mac_rx_tvalid_i,
  input  wire logic [DW-1:0]    mac_rx_tdata_i,
  input  wire logic [Bytes-1:0] mac_rx_tkeep_i,
  input  wire logic             mac_rx_tlast_i,
  input  wire logic             mac_rx_tuser_i,
  output logic                  host_rx_tvalid_o,
  input  wire logic             host_rx_tready_i,
  output logic [DW-1:0]         host_rx_tdata_o,
  output logic [Bytes-1:0]      host_rx_tkeep_o,
  output logic                  host_rx_tlast_o,
  output logic [15:0]           host_rx_len_o,
  input  wire logic             host_tx_tvalid_i,
  output logic                  host_tx_tready_o,
  input  wire logic [DW-1:0]    host_tx_tdata_i,
  input  wire logic [Bytes-1:0] host_tx_tkeep_i,
  input  wire logic             host_tx_tlast_i,
  input  wire logic             host_tx_tuser_i,
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

  logic rx_idle, tx_idle;
  // The MAC's receive stream has no tready; the receive side never holds it back (DropFull).
  /* verilator lint_off UNUSEDSIGNAL */
  logic rx_tready;
  /* verilator lint_on UNUSEDSIGNAL */

  cni_nic_fifo #(
    .Bytes(Bytes), .Beats(RxBeats), .Frames(Frames), .MinBytes(MinBytes), .MaxBytes(MaxBytes),
    .DropFull(1'b1)
  ) u_rx (
    .clk_i, .rst_ni,
    .in_tvalid_i   (mac_rx_tvalid_i),
    .in_tready_o   (rx_tready),
    .in_tdata_i    (mac_rx_tdata_i),
    .in_tkeep_i    (mac_rx_tkeep_i),
    .in_tlast_i    (mac_rx_tlast_i),
    .in_tuser_i    (mac_rx_tuser_i),
    .out_tvalid_o  (host_rx_tvalid_o),
    .out_tready_i  (host_rx_tready_i),
    .out_tdata_o   (host_rx_tdata_o),
    .out_tkeep_o   (host_rx_tkeep_o),
    .out_tlast_o   (host_rx_tlast_o),
    .out_len_o     (host_rx_len_o),
    .cnt_frames_o  (rx_cnt_frames_o),
    .cnt_runt_o    (rx_cnt_runt_o),
    .cnt_oversize_o(rx_cnt_oversize_o),
    .cnt_bad_o     (rx_cnt_bad_fcs_o),
    .cnt_overflow_o(rx_cnt_overflow_o),
    .cnt_bad_keep_o(rx_cnt_bad_keep_o),
    .idle_o        (rx_idle)
  );

  // The transmit side holds its input back instead of dropping: it never overflows.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [15:0] tx_len;
  logic        tx_overflow;
  /* verilator lint_on UNUSEDSIGNAL */
  cni_nic_fifo #(
    .Bytes(Bytes), .Beats(TxBeats), .Frames(Frames), .MinBytes(MinBytes), .MaxBytes(MaxBytes),
    .DropFull(1'b0)
  ) u_tx (
    .clk_i, .rst_ni,
    .in_tvalid_i   (host_tx_tvalid_i),
    .in_tready_o   (host_tx_tready_o),
    .in_tdata_i    (host_tx_tdata_i),
    .in_tkeep_i    (host_tx_tkeep_i),
    .in_tlast_i    (host_tx_tlast_i),
    .in_tuser_i    (host_tx_tuser_i),
    .out_tvalid_o  (mac_tx_tvalid_o),
    .out_tready_i  (mac_tx_tready_i),
    .out_tdata_o   (mac_tx_tdata_o),
    .out_tkeep_o   (mac_tx_tkeep_o),
    .out_tlast_o   (mac_tx_tlast_o),
    .out_len_o     (tx_len),
    .cnt_frames_o  (tx_cnt_frames_o),
    .cnt_runt_o    (tx_cnt_runt_o),
    .cnt_oversize_o(tx_cnt_oversize_o),
    .cnt_bad_o     (tx_cnt_aborted_o),
    .cnt_overflow_o(tx_overflow),
    .cnt_bad_keep_o(tx_cnt_bad_keep_o),
    .idle_o        (tx_idle)
  );

  assign idle_o = rx_idle && tx_idle;

endmodule
