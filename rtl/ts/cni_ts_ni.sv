// SPDX-License-Identifier: Apache-2.0
// The tag store's network interface (docs/tagstore.md, "The integrated network interface"):
// 001's Typhoon-1 keeps the NI on the access-control device. A message is one frame of the
// engine's type: the header of docs/network.md with flags = the handler byte and seq = the block,
// and as payload nothing or one line. Sent one at a time; received into a queue whose head the
// engine dispatches and pops. No window and no retransmission (001's network is reliable): a full
// queue holds the arriving frame at the port.
//
// Parameters:
//   LineBytes - the data of a message with data
//   NetBytes  - bytes per beat of the network stream
//   RxDepth   - messages queued on the receive side
// Ports:
//   node_id_i                              - this node (the frames' source)
//   snd_valid_i/snd_ready_o, snd_dst_i,
//   snd_hdl_i, snd_blk_i, snd_data_en_i,
//   snd_data_i                             - a message to send (held until taken)
//   rcv_valid_o, rcv_src_o, rcv_hdl_o,
//   rcv_blk_o, rcv_data_en_o, rcv_data_o,
//   rcv_pop_i                              - the receive queue's head, popped by rcv_pop_i
//   cnt_tx_o, cnt_rx_o, cnt_bad_o          - one-cycle pulses: a frame sent, a message queued,
//                                            a frame dropped (FCS failed, or a length that is
//                                            neither 0 nor LineBytes)
//   ntx_*, nrx_*                           - the engine's network port
//   idle_o                                 - nothing being sent, no frame arriving or waiting
`default_nettype none

module cni_ts_ni #(
  parameter int LineBytes = 64,
  parameter int NetBytes  = 64,
  parameter int RxDepth   = 4,
  localparam int LineBits = LineBytes * 8,
  localparam int NetW     = NetBytes * 8,
  localparam int HdrBytes = 12,
  localparam int MaxBytes = HdrBytes + LineBytes
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  input  wire logic [15:0]         node_id_i,
  input  wire logic                snd_valid_i,
  output logic                     snd_ready_o,
  input  wire logic [15:0]         snd_dst_i,
  input  wire logic [7:0]          snd_hdl_i,
  input  wire logic [31:0]         snd_blk_i,
  input  wire logic                snd_data_en_i,
  input  wire logic [LineBits-1:0] snd_data_i,
  output logic                     rcv_valid_o,
  output logic [15:0]              rcv_src_o,
  output logic [7:0]               rcv_hdl_o,
  output logic [31:0]              rcv_blk_o,
  output logic                     rcv_data_en_o,
  output logic [LineBits-1:0]      rcv_data_o,
  input  wire logic                rcv_pop_i,
  output logic                     cnt_tx_o,
  output logic                     cnt_rx_o,
  output logic                     cnt_bad_o,
  output logic                     ntx_valid_o,
  input  wire logic                ntx_ready_i,
  output logic [NetW-1:0]          ntx_data_o,
  output logic [NetBytes-1:0]      ntx_keep_o,
  output logic                     ntx_last_o,
  output logic [15:0]              ntx_dest_o,
  input  wire logic                nrx_valid_i,
  output logic                     nrx_ready_o,
  input  wire logic [NetW-1:0]     nrx_data_i,
  input  wire logic [NetBytes-1:0] nrx_keep_i,
  input  wire logic                nrx_last_i,
  input  wire logic                nrx_user_i,
  output logic                     idle_o
);

  localparam logic [15:0] LenData = 16'(LineBytes);

  // ---- send -----------------------------------------------------------------------------------
  logic tx_busy, tx_idle;
  wire [15:0] s_len = snd_data_en_i ? LenData : 16'd0;
  wire [HdrBytes*8-1:0] s_hdr = {snd_blk_i, snd_hdl_i, cni_amap_pkg::NET_TYPE_TS_MSG, s_len,
                                 node_id_i, snd_dst_i};
  assign snd_ready_o = !tx_busy;
  assign cnt_tx_o    = snd_valid_i && !tx_busy;
  cni_net_tx #(.NetBytes(NetBytes), .MaxBytes(MaxBytes)) u_tx (
    .clk_i, .rst_ni,
    .start_i (snd_valid_i), .frame_i ({snd_data_i, s_hdr}), .bytes_i (16'(HdrBytes) + s_len),
    .dest_i (snd_dst_i), .busy_o (tx_busy),
    .tx_tvalid_o (ntx_valid_o), .tx_tready_i (ntx_ready_i), .tx_tdata_o (ntx_data_o),
    .tx_tkeep_o (ntx_keep_o), .tx_tlast_o (ntx_last_o), .tx_tdest_o (ntx_dest_o),
    .idle_o (tx_idle)
  );

  // ---- receive --------------------------------------------------------------------------------
  logic                  rx_valid, rx_bad, rx_idle;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [MaxBytes*8-1:0] rx_frame;   // (dst and type: the switch routed the frame here)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [15:0]           rx_bytes;
  logic                  q_ready;
  wire [15:0] f_src = rx_frame[16 +: 16];
  wire [15:0] f_len = rx_frame[32 +: 16];
  wire        f_ok  = !rx_bad && (f_len == 16'd0 || f_len == LenData) &&
                      rx_bytes == 16'(HdrBytes) + f_len;
  wire        take  = rx_valid && f_ok && q_ready;
  assign cnt_rx_o  = take;
  assign cnt_bad_o = rx_valid && !f_ok;
  cni_net_rx #(.NetBytes(NetBytes), .MaxBytes(MaxBytes)) u_rx (
    .clk_i, .rst_ni,
    .rx_tvalid_i (nrx_valid_i), .rx_tready_o (nrx_ready_o), .rx_tdata_i (nrx_data_i),
    .rx_tkeep_i (nrx_keep_i), .rx_tlast_i (nrx_last_i), .rx_tuser_i (nrx_user_i),
    .valid_o (rx_valid), .frame_o (rx_frame), .bytes_o (rx_bytes), .bad_o (rx_bad),
    .ack_i (take || (rx_valid && !f_ok)), .idle_o (rx_idle)
  );

  // the queue: {data, data_en, block, handler, source}
  localparam int QW = LineBits + 1 + 32 + 8 + 16;
  logic [QW-1:0] q_head;
  cni_fifo #(.Width(QW), .Depth(RxDepth)) u_q (
    .clk_i, .rst_ni,
    .in_valid_i (take), .in_ready_o (q_ready),
    .in_data_i ({rx_frame[HdrBytes*8 +: LineBits], f_len != 16'd0, rx_frame[64 +: 32],
                 rx_frame[56 +: 8], f_src}),
    .out_valid_o (rcv_valid_o), .out_ready_i (rcv_pop_i), .out_data_o (q_head),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o ()
    /* verilator lint_on PINCONNECTEMPTY */
  );
  assign {rcv_data_o, rcv_data_en_o, rcv_blk_o, rcv_hdl_o, rcv_src_o} = q_head;

  // (a good frame held at the port for want of room waits for the engine's pop; a bad one is
  // dropped in this cycle)
  assign idle_o = tx_idle && (rx_idle || (rx_valid && f_ok && !q_ready));

endmodule
