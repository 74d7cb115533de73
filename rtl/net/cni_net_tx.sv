// SPDX-License-Identifier: Apache-2.0
// Sends one network frame at a time on an AXI4-Stream of NetBytes-byte beats: the frame (its
// header and payload, as docs/network.md lays them out; the MAC appends the FCS) is loaded
// whole and shifted out a beat at a time.
//
// Parameters:
//   NetBytes - bytes per beat (tdata is NetBytes * 8 bits)
//   MaxBytes - the longest frame, header included
// Ports:
//   start_i, frame_i, bytes_i, dest_i - a frame to send (byte i at frame_i[8i +: 8]), its length
//                                       (1 .. MaxBytes) and its destination node; taken when
//                                       !busy_o (start_i is ignored while busy)
//   busy_o                            - a frame is being sent
//   tx_*                              - the stream (tvalid/tready; the receiver may stall):
//                                       tkeep full but on the last beat, tlast on it, tdest the
//                                       destination on every beat
//   idle_o                            - nothing being sent
`default_nettype none

module cni_net_tx #(
  parameter int NetBytes = 64,
  parameter int MaxBytes = 140,
  localparam int NetW  = NetBytes * 8,
  localparam int Beats = (MaxBytes + NetBytes - 1) / NetBytes
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_ni,
  input  wire logic                  start_i,
  input  wire logic [MaxBytes*8-1:0] frame_i,
  input  wire logic [15:0]           bytes_i,
  input  wire logic [15:0]           dest_i,
  output logic                       busy_o,
  output logic                       tx_tvalid_o,
  input  wire logic                  tx_tready_i,
  output logic [NetW-1:0]            tx_tdata_o,
  output logic [NetBytes-1:0]        tx_tkeep_o,
  output logic                       tx_tlast_o,
  output logic [15:0]                tx_tdest_o,
  output logic                       idle_o
);

  if (NetBytes < 1 || MaxBytes < 1 || MaxBytes > 65535) $error("cni_net_tx: bad sizes");

  logic [Beats*NetW-1:0] frame_q;   // the beats still to send, the next at the bottom
  logic [15:0]           left_q;    // bytes still to send
  logic                  busy_q;
  logic [15:0]           dest_q;

  wire last = left_q <= 16'(NetBytes);
  wire fire = busy_q && tx_tready_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      left_q <= '0;
      dest_q <= '0;
    end else if (!busy_q) begin
      if (start_i) begin
        busy_q <= 1'b1;
        left_q <= bytes_i;
        dest_q <= dest_i;
      end
    end else if (fire) begin
      busy_q <= !last;
      left_q <= last ? '0 : left_q - 16'(NetBytes);
    end
  end
  // The frame register: loaded at the start, shifted down a beat per beat sent.
  always_ff @(posedge clk_i) begin
    if (!busy_q && start_i) frame_q <= (Beats*NetW)'(frame_i);
    else if (fire) frame_q <= frame_q >> NetW;
  end

  assign busy_o      = busy_q;
  assign tx_tvalid_o = busy_q;
  assign tx_tdata_o  = frame_q[NetW-1:0];
  assign tx_tlast_o  = last;
  assign tx_tdest_o  = dest_q;
  always_comb begin
    tx_tkeep_o = '1;
    if (last) begin
      for (int j = 0; j < NetBytes; j++) tx_tkeep_o[j] = 16'(j) < left_q;
    end
  end
  assign idle_o = !busy_q;

endmodule
