// SPDX-License-Identifier: Apache-2.0
// Receives one network frame at a time from an AXI4-Stream of NetBytes-byte beats into a
// frame register (header and payload as docs/network.md lays them out; the MAC has checked and
// removed the FCS and says so in tuser), and holds it until the consumer takes it.
//
// Parameters:
//   NetBytes - bytes per beat
//   MaxBytes - the longest frame kept, header included; the bytes of a longer one are dropped
//              and the frame is marked bad
// Ports:
//   rx_*                    - the stream: tready low while a received frame waits; tkeep's
//                             bytes must be contiguous from lane 0 (the MAC's)
//   valid_o, frame_o,
//   bytes_o, bad_o, ack_i   - the frame received (byte i at frame_o[8i +: 8], bytes beyond
//                             bytes_o undefined), its length, bad (tuser on its last beat: the
//                             FCS check failed, or longer than MaxBytes); held until ack_i
//   idle_o                  - no frame under way or waiting
`default_nettype none

module cni_net_rx #(
  parameter int NetBytes = 64,
  parameter int MaxBytes = 140,
  localparam int NetW  = NetBytes * 8,
  localparam int Beats = (MaxBytes + NetBytes - 1) / NetBytes,
  localparam int BW    = (Beats > 1) ? $clog2(Beats + 1) : 1
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_ni,
  input  wire logic                  rx_tvalid_i,
  output logic                       rx_tready_o,
  input  wire logic [NetW-1:0]       rx_tdata_i,
  input  wire logic [NetBytes-1:0]   rx_tkeep_i,
  input  wire logic                  rx_tlast_i,
  input  wire logic                  rx_tuser_i,
  output logic                       valid_o,
  output logic [MaxBytes*8-1:0]      frame_o,
  output logic [15:0]                bytes_o,
  output logic                       bad_o,
  input  wire logic                  ack_i,
  output logic                       idle_o
);

  if (NetBytes < 1 || MaxBytes < 1 || MaxBytes > 65535) $error("cni_net_rx: bad sizes");

  // Whole beats: the last one's bytes beyond MaxBytes are kept but never read.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [Beats*NetW-1:0] frame_q;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [BW-1:0]         beat_q;    // beats of the frame taken so far
  logic [15:0]           bytes_q;
  logic                  over_q;    // more beats than MaxBytes holds
  logic                  valid_q, bad_q;

  // Bytes of a beat: tkeep's ones (contiguous from lane 0).
  logic [15:0] keep_bytes;
  always_comb begin
    keep_bytes = '0;
    for (int j = 0; j < NetBytes; j++) keep_bytes = keep_bytes + 16'(rx_tkeep_i[j]);
  end

  assign rx_tready_o = !valid_q;
  wire take = rx_tvalid_i && !valid_q;
  wire room = 32'(beat_q) < 32'(Beats);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      beat_q  <= '0;
      bytes_q <= '0;
      over_q  <= 1'b0;
      valid_q <= 1'b0;
      bad_q   <= 1'b0;
    end else if (valid_q) begin
      if (ack_i) begin
        valid_q <= 1'b0;
        bytes_q <= '0;
      end
    end else if (take) begin
      bytes_q <= bytes_q + keep_bytes;
      if (rx_tlast_i) begin
        valid_q <= 1'b1;
        bad_q   <= rx_tuser_i || over_q || !room ||
                   32'(bytes_q) + 32'(keep_bytes) > 32'(MaxBytes);
        beat_q  <= '0;
        over_q  <= 1'b0;
      end else if (room) begin
        beat_q <= beat_q + 1'b1;
      end else begin
        over_q <= 1'b1;
      end
    end
  end
  // A beat lands in its slot of the frame register.
  always_ff @(posedge clk_i) begin
    if (take && room) frame_q[NetW * beat_q +: NetW] <= rx_tdata_i;
  end

  assign valid_o = valid_q;
  assign frame_o = frame_q[MaxBytes*8-1:0];
  assign bytes_o = bytes_q;
  assign bad_o   = bad_q;
  assign idle_o  = !valid_q && beat_q == '0 && !over_q;

endmodule
