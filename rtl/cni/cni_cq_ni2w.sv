// SPDX-License-Identifier: Apache-2.0
// NI2w front end of the CNI cache/queue engine (docs/cni.md): uncached registers over hardware
// queues of 64-bit words. TX_HDR (checked: open, len <= 244, destination known, room in the TX
// queue) and TX_DATA words go into the TX queue, the header word marked; the injector builds
// the message from it and hands it to the network side. A message from the network goes into
// the RX queue as words when the whole of it fits; RX_HDR shows the head message, RX_DATA pops
// its words. No commands and no device memory: cni_cq_engine ties those ports off.
//
// Parameters:
//   FifoMsgs - messages of the largest size each hardware queue holds
//   MaxNodes - the network side's node count (the destination check)
// Ports:
//   register writes and reads decoded by cni_cq_engine (wval_i: the 64-bit value written,
//   w_*_i: its register, rd_hi_i / r_*_i: a read of a register's high word), the endpoint's
//   CTRL state (open_i, nodes_i)
//   txm_*: the message built for the network (txm_busy_i: the previous one is not taken yet)
//   rmsg_*: the message received from the network (taken on rmsg_valid_i && rmsg_ready_o)
//   rx_hdr_o, rx_dat_o, tx_free_o, rx_msgs_o: the values RX_HDR, RX_DATA and STATUS show
//   cnt_o: counter pulses (cni_cq_pkg::C_*); idle_o: nothing to move
`default_nettype none

module cni_cq_ni2w #(
  parameter int FifoMsgs = 4,
  parameter int MaxNodes = 16,
  localparam int MsgBits = cni_cq_pkg::MSG_BYTES * 8,
  localparam int NC      = cni_cq_pkg::NUM_CNT
) (
  input  wire logic               clk_i,
  input  wire logic               rst_ni,
  input  wire logic [63:0]        wval_i,
  input  wire logic               w_txhdr_i,
  input  wire logic               w_txdat_i,
  input  wire logic               rd_hi_i,
  input  wire logic               r_rxhdr_i,
  input  wire logic               r_rxdat_i,
  input  wire logic               open_i,
  input  wire logic [7:0]         nodes_i,
  input  wire logic               txm_busy_i,
  output logic                    txm_load_o,
  output logic [MsgBits-1:0]      txm_img_o,
  input  wire logic               rmsg_valid_i,
  output logic                    rmsg_ready_o,
  input  wire logic [MsgBits-1:0] rmsg_i,
  output logic [63:0]             rx_hdr_o,
  output logic [63:0]             rx_dat_o,
  output logic [15:0]             tx_free_o,
  output logic [15:0]             rx_msgs_o,
  output logic [NC-1:0]           cnt_o,
  output logic                    idle_o
);

  // Hardware queues of 64-bit words, FifoMsgs messages of the largest size each: a message is
  // one header word and ceil(len / 8) data words. TX words carry a header mark (bit 64).
  localparam int MaxWords = (cni_cq_pkg::MAX_LEN + 7) / 8;   // 31
  localparam int Depth    = FifoMsgs * (1 + MaxWords);
  localparam int CW       = $clog2(Depth + 1);
  localparam int ImgBits  = MsgBits + 64;   // a word written at byte 12 + 8k, k < 31

  // -- send: registers into the TX queue -------------------------------------------------
  logic          tf_in_valid, tf_in_ready, tf_out_valid, tf_out_ready;
  logic [64:0]   tf_in, tf_out;
  logic [CW-1:0] tf_count;
  logic          tfill_q;         // a message is being written
  logic [5:0]    tleft_q;         // its data words still to come
  wire  [15:0]   h_len   = wval_i[15:0];
  wire  [15:0]   h_dst   = wval_i[31:16];
  wire  [5:0]    h_words = 6'((32'(h_len) + 7) / 8);
  wire  [2:0]    h_bad   = cni_cq_pkg::hdr_check(h_len, h_dst, open_i, nodes_i, MaxNodes);
  wire           h_room  = 32'(Depth) - 32'(tf_count) >= 32'(h_words) + 1;
  wire           h_ok    = h_bad == '0 && h_room;
  wire           d_ok    = tfill_q && tleft_q != '0;
  assign tf_in_valid = (w_txhdr_i && h_ok) || (w_txdat_i && d_ok);
  assign tf_in       = {w_txhdr_i, wval_i};
  cni_fifo #(.Width (65), .Depth (Depth)) u_txq (
    .clk_i, .rst_ni,
    .in_valid_i (tf_in_valid), .in_ready_o (tf_in_ready), .in_data_i (tf_in),
    .out_valid_o (tf_out_valid), .out_ready_i (tf_out_ready), .out_data_o (tf_out),
    .count_o (tf_count)
  );
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tfill_q <= 1'b0;
      tleft_q <= '0;
    end else if (w_txhdr_i) begin
      tfill_q <= h_ok && h_words != '0;
      tleft_q <= h_words;
    end else if (w_txdat_i && d_ok) begin
      tleft_q <= tleft_q - 1'b1;
      tfill_q <= tleft_q != 6'd1;
    end
  end

  // -- send: the injector, TX queue -> txm ---------------------------------------------------
  logic               ij_q;          // a message is being assembled
  logic [5:0]         ij_left_q, ij_k_q;
  logic [ImgBits-1:0] ij_img_q;
  wire  hdr_word = tf_out_valid && tf_out[64];
  // A header word while data words are still owed cuts the message short: it is dropped.
  assign tf_out_ready = !txm_busy_i && tf_out_valid && (!ij_q || !tf_out[64]);
  wire  ij_cut  = ij_q && hdr_word && !txm_busy_i;
  wire  ij_done = !txm_busy_i && tf_out_valid &&
                  ((!ij_q && tf_out[64] && tf_out[15:0] == '0) ||
                   (ij_q && !tf_out[64] && ij_left_q == 6'd1));
  assign txm_load_o = ij_done;
  logic [ImgBits-1:0] ij_img_x;
  always_comb begin
    ij_img_x = ij_img_q;
    if (!ij_q) begin  // a 0-byte message: the header word alone
      ij_img_x = '0;
      ij_img_x[8 +: 8]   = {6'd0, tf_out[49:48]};
      ij_img_x[16 +: 16] = tf_out[15:0];
      ij_img_x[32 +: 16] = tf_out[31:16];
      ij_img_x[48 +: 16] = tf_out[47:32];
    end else begin
      ij_img_x[96 + 64 * 32'(ij_k_q) +: 64] = tf_out[63:0];
    end
  end
  assign txm_img_o = ij_img_x[MsgBits-1:0];
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_img = ^ij_img_x[ImgBits-1:MsgBits];  // beyond byte 255: never part of a message
  /* verilator lint_on UNUSEDSIGNAL */
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ij_q      <= 1'b0;
      ij_left_q <= '0;
      ij_k_q    <= '0;
    end else if (tf_out_valid && tf_out_ready) begin
      if (tf_out[64]) begin
        ij_q      <= tf_out[15:0] != '0;
        ij_left_q <= 6'((32'(tf_out[15:0]) + 7) / 8);
        ij_k_q    <= '0;
      end else begin
        ij_q      <= ij_left_q != 6'd1;
        ij_left_q <= ij_left_q - 1'b1;
        ij_k_q    <= ij_k_q + 1'b1;
      end
    end else if (ij_cut) begin
      ij_q <= 1'b0;
    end
  end
  always_ff @(posedge clk_i) begin
    if (tf_out_valid && tf_out_ready) begin
      if (tf_out[64]) begin
        ij_img_q             <= '0;
        ij_img_q[8 +: 8]     <= {6'd0, tf_out[49:48]};
        ij_img_q[16 +: 16]   <= tf_out[15:0];
        ij_img_q[32 +: 16]   <= tf_out[31:16];
        ij_img_q[48 +: 16]   <= tf_out[47:32];
      end else begin
        ij_img_q[96 + 64 * 32'(ij_k_q) +: 64] <= tf_out[63:0];
      end
    end
  end

  // -- receive: rmsg -> RX queue -------------------------------------------------------------
  logic          rf_in_valid, rf_in_ready, rf_out_valid, rf_out_ready;
  logic [63:0]   rf_in, rf_out;
  logic [CW-1:0] rf_count;
  logic          rp_q;            // a message is being pushed
  logic [5:0]    rp_k_q;          // its next word (0: the header)
  logic [15:0]   rmsgs_q;         // whole messages in the queue (the one shown included)
  wire  [15:0]   m_len   = rmsg_i[16 +: 16];
  wire  [5:0]    m_words = 6'((32'(m_len) + 7) / 8);
  wire           m_room  = 32'(Depth) - 32'(rf_count) >= 32'(m_words) + 1;
  wire           rp_go   = rmsg_valid_i && (rp_q || m_room);
  wire           rp_last = rp_k_q == m_words;
  assign rf_in_valid = rp_go;
  cni_fifo #(.Width (64), .Depth (Depth)) u_rxq (
    .clk_i, .rst_ni,
    .in_valid_i (rf_in_valid), .in_ready_o (rf_in_ready), .in_data_i (rf_in),
    .out_valid_o (rf_out_valid), .out_ready_i (rf_out_ready), .out_data_o (rf_out),
    .count_o (rf_count)
  );
  wire  [ImgBits-1:0] rimg_x = ImgBits'(rmsg_i);
  assign rf_in = (rp_k_q == '0)
    ? {14'd0, rmsg_i[9:8], rmsg_i[48 +: 16], rmsg_i[32 +: 16], m_len}
    : rimg_x[96 + 64 * (32'(rp_k_q) - 1) +: 64];
  assign rmsg_ready_o = rp_go && rp_last;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rp_q   <= 1'b0;
      rp_k_q <= '0;
    end else if (rp_go) begin
      rp_q   <= !rp_last;
      rp_k_q <= rp_last ? '0 : rp_k_q + 1'b1;
    end
  end
  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_rf = rf_in_ready;  // room is checked for the whole message before it starts
  wire unused_tf = tf_in_ready;  // and before a message's header is taken
  /* verilator lint_on UNUSEDSIGNAL */

  // -- receive: the registers ----------------------------------------------------------------
  logic        rh_q;             // the head message's header is shown (popped from the queue)
  logic [63:0] rh_val_q;
  logic [5:0]  rh_left_q;        // its data words still to read
  wire         rh_load = !rh_q && rmsgs_q != '0;
  wire         pop_hdr0 = r_rxhdr_i && rd_hi_i && rh_q && rh_left_q == '0;
  wire         pop_data = r_rxdat_i && rd_hi_i && rh_q && rh_left_q != '0;
  assign rf_out_ready = rh_load || pop_data;
  wire         rx_done = pop_hdr0 || (pop_data && rh_left_q == 6'd1);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rh_q      <= 1'b0;
      rh_val_q  <= '0;
      rh_left_q <= '0;
      rmsgs_q   <= '0;
    end else begin
      if (rh_load) begin
        rh_q      <= 1'b1;
        rh_val_q  <= {1'b1, rf_out[62:0]};
        rh_left_q <= 6'((32'(rf_out[15:0]) + 7) / 8);
      end else if (rx_done) begin
        rh_q <= 1'b0;
      end else if (pop_data) begin
        rh_left_q <= rh_left_q - 1'b1;
      end
      rmsgs_q <= rmsgs_q + 16'(rmsg_ready_o) - 16'(rx_done);
    end
  end
  assign rx_hdr_o = rh_q ? rh_val_q : '0;
  assign rx_dat_o = (rh_q && rh_left_q != '0) ? rf_out : '0;

  assign tx_free_o = 16'(32'(Depth) - 32'(tf_count));
  assign rx_msgs_o = rmsgs_q;

  always_comb begin
    cnt_o = '0;
    cnt_o[cni_cq_pkg::C_TX_MSGS]    = ij_done;
    cnt_o[cni_cq_pkg::C_TX_CLOSED]  = w_txhdr_i && h_bad[0];
    cnt_o[cni_cq_pkg::C_TX_BAD_LEN] = (w_txhdr_i && !h_bad[0] && h_bad[1]) || ij_cut;
    cnt_o[cni_cq_pkg::C_TX_BAD_DST] = w_txhdr_i && !h_bad[0] && !h_bad[1] && h_bad[2];
    cnt_o[cni_cq_pkg::C_TX_OVERRUN] = w_txhdr_i && h_bad == '0 && !h_room;
    cnt_o[cni_cq_pkg::C_TX_STRAY]   = w_txdat_i && !d_ok;
    cnt_o[cni_cq_pkg::C_RX_STRAY]   = r_rxdat_i && rd_hi_i && !(rh_q && rh_left_q != '0);
  end

  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_rfv = rf_out_valid;  // the head is loaded when rmsgs_q counts a whole message
  /* verilator lint_on UNUSEDSIGNAL */

  // idle: nothing the injector or the RX queue could take now
  assign idle_o = !(tf_out_valid && !txm_busy_i) && !(rmsg_valid_i && (rp_q || m_room));
endmodule
