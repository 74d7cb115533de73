// SPDX-License-Identifier: Apache-2.0
// The NIC's PCIe PIO host interface (docs/nic.md, "PCIe PIO interface"; seed 002 Fig. 9b):
// receive and transmit rings of frame slots and a few registers behind a BAR, reached through
// an AXI4 slave (a PCIe hard IP's BAR interface), on the datapath's host streams.
//
// Parameters:
//   Bytes     - bytes per beat (AXI data width and the datapath's; at least 64, which the
//               register beats need)
//   Slots     - frame slots per ring (2, 4 or 8)
//   SlotBeats - beats per slot (a power of two, holding MaxBytes)
//   MaxBytes  - the longest frame
// Ports:
//   s_axi_*    - the BAR: INCR bursts of full beats, one write and one read burst at a time;
//                this block may stall every channel
//   rx_*       - good frames from the datapath (rx_len_i: the frame's length on each beat); held
//                back while every receive slot is full
//   tx_*       - frames to the datapath (which may stall); tuser is never set
//   idle_o     - no burst, no frame under way or posted
`default_nettype none
`include "cni_assert.svh"

module cni_nic_pio #(
  parameter int Bytes     = 64,
  parameter int Slots     = 4,
  parameter int SlotBeats = 256,
  parameter int MaxBytes  = 9596,
  localparam int DW  = Bytes * 8,
  localparam int RB  = Slots * SlotBeats,              // beats per ring
  localparam int AW  = $clog2(4 * RB * Bytes),        // BAR address bits
  localparam int OB  = $clog2(Bytes),                 // offset bits in a beat
  localparam int BW  = AW - OB,                       // beat address bits
  localparam int SW  = $clog2(Slots),
  localparam int RAW = $clog2(RB)                     // ring address bits
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             s_axi_awvalid_i,
  output logic                  s_axi_awready_o,
  // (An address's offset in its beat is not used: the strobes say which bytes a write writes,
  // and a read returns whole beats.)
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [AW-1:0]    s_axi_awaddr_i,
  /* verilator lint_on UNUSEDSIGNAL */
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
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [AW-1:0]    s_axi_araddr_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic [7:0]       s_axi_arlen_i,
  input  wire logic [2:0]       s_axi_arsize_i,
  input  wire logic [1:0]       s_axi_arburst_i,
  output logic                  s_axi_rvalid_o,
  input  wire logic             s_axi_rready_i,
  output logic [DW-1:0]         s_axi_rdata_o,
  output logic [1:0]            s_axi_rresp_o,
  output logic                  s_axi_rlast_o,
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

  `CNI_ASSERT_INIT(Params_A, (Slots == 2 || Slots == 4 || Slots == 8) && Bytes >= 64 &&
                   (Bytes & (Bytes - 1)) == 0 && (SlotBeats & (SlotBeats - 1)) == 0 &&
                   SlotBeats >= 2 && SlotBeats < 65536 && SlotBeats * Bytes >= MaxBytes &&
                   MaxBytes <= 65535 - Bytes,
                   "cni_nic_pio: bad parameters")

  localparam logic [1:0] OKAY = 2'b00, SLVERR = 2'b10, INCR = 2'b01;
  localparam int OutQ = 4;

  // ---- state ------------------------------------------------------------------------------------
  logic [31:0] rx_head_q, rx_tail_q, tx_post_q, tx_tail_q, errors_q;
  logic [47:0] rx_slot_q [Slots];   // per receive slot: {length, frame number + 1}
  logic [SlotBeats > 1 ? $clog2(SlotBeats) - 1 : 0 : 0] rx_beat_q;

  // A beat address: its quarter of the BAR ([BW-1 -: 2]) and the beat in the quarter (its ring
  // beat, [RAW-1:0], since a ring fills its quarter: BW - 2 = RAW).
  wire [BW-3:0] zero_in_quarter = '0;

  // ---- receive: frames into the receive ring ----------------------------------------------------
  wire rx_free = (rx_head_q - rx_tail_q) < 32'(Slots);
  assign rx_tready_o = rx_free;
  wire rx_take = rx_tvalid_i && rx_tready_o;
  wire [SW-1:0] rx_slot = rx_head_q[SW-1:0];

  logic          rram_ren;
  logic [RAW-1:0] rram_raddr;
  logic [DW-1:0] rram_rd;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [DW-1:0] rram_a_rd;
  /* verilator lint_on UNUSEDSIGNAL */
  cni_dpram #(.Width(DW), .Words(RB)) u_rx_ram (
    .clk_i,
    .a_en_i  (rx_take),
    .a_we_i  (1'b1),
    .a_addr_i({rx_slot, rx_beat_q}),
    .a_wd_i  (rx_tdata_i),
    .a_rd_o  (rram_a_rd),
    .b_en_i  (rram_ren),
    .b_we_i  (1'b0),
    .b_addr_i(rram_raddr),
    .b_wd_i  ('0),
    .b_rd_o  (rram_rd)
  );

  // ---- AXI write: the transmit ring and the registers ------------------------------------------
  logic          w_act_q, w_err_q, b_pend_q, b_err_q;
  logic [BW-1:0] w_addr_q;
  logic [7:0]    w_left_q;  // beats after this one, by AWLEN
  wire aw_take = s_axi_awvalid_i && s_axi_awready_o;
  wire w_take  = s_axi_wvalid_i && s_axi_wready_o;
  // A beat of the register beat waits while a read of the receive ring is under way, so a store
  // to RX_TAIL that frees a slot never lets a new frame into it before an earlier read of the
  // slot has returned (AXI does not order reads and writes; PCIe lets a posted write pass a
  // read).
  logic rx_read_busy;
  assign s_axi_awready_o = !w_act_q && !b_pend_q;
  assign s_axi_wready_o  = w_act_q && !(w_reg0 && rx_read_busy);
  assign s_axi_bvalid_o  = b_pend_q;
  assign s_axi_bresp_o   = b_err_q ? SLVERR : OKAY;

  wire w_tx   = w_addr_q[BW-1 -: 2] == 2'd1;
  wire w_reg0 = w_addr_q[BW-1 -: 2] == 2'd2 && w_addr_q[BW-3:0] == zero_in_quarter;
  function automatic logic [63:0] word(input logic [DW-1:0] d, input int i);
    word = d[64*i +: 64];
  endfunction
  function automatic logic full_word(input logic [Bytes-1:0] s, input int i);
    full_word = &s[8*i +: 8];
  endfunction
  // The register beat takes RX_TAIL (word 1) and TX_POST (word 2), each written whole. The
  // counters are 32-bit and wrap: RX_TAIL may move to any count from itself to RX_HEAD, taken
  // modulo 2^32 (the word's upper half is not looked at).
  wire        st_tail = full_word(s_axi_wstrb_i, 1);
  wire        st_post = full_word(s_axi_wstrb_i, 2);
  wire [31:0] tail_v  = s_axi_wdata_i[64 +: 32];
  wire [63:0] post_v  = word(s_axi_wdata_i, 2);
  wire tail_ok = tail_v - rx_tail_q <= rx_head_q - rx_tail_q;
  logic post_room;
  wire post_ok = post_v != '0 && post_v <= 64'(MaxBytes) && post_room;
  logic [Bytes-1:0] reg_strb;  // the strobes the register beat takes
  always_comb begin
    reg_strb = '0;
    reg_strb[8 +: 8]  = '1;
    reg_strb[16 +: 8] = '1;
  end
  // A beat is refused for its burst's attributes, for WLAST where AWLEN does not put it (and so
  // is every later beat of the burst), for strobes on bytes that take no write (the receive ring,
  // read-only registers, part of a register, beyond the registers), or for a register value its
  // register does not take. A refused beat changes nothing; the beats of its burst before it
  // are written.
  wire w_frame_bad = w_err_q || s_axi_wlast_i != (w_left_q == '0);
  wire w_beat_bad  = w_frame_bad || (w_tx ? 1'b0 : w_reg0 ?
                       ((s_axi_wstrb_i & ~reg_strb) != '0 ||
                        (s_axi_wstrb_i[8 +: 8] != '0 && !st_tail) ||
                        (s_axi_wstrb_i[16 +: 8] != '0 && !st_post) ||
                        (st_tail && !tail_ok) || (st_post && !post_ok)) :
                       s_axi_wstrb_i != '0);
  wire wr_tail = w_take && !w_beat_bad && w_reg0 && st_tail;
  wire wr_post = w_take && !w_beat_bad && w_reg0 && st_post;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      w_act_q  <= 1'b0;
      w_err_q  <= 1'b0;
      w_addr_q <= '0;
      w_left_q <= '0;
      b_pend_q <= 1'b0;
      b_err_q  <= 1'b0;
    end else begin
      if (aw_take) begin
        w_act_q  <= 1'b1;
        w_addr_q <= s_axi_awaddr_i[AW-1:OB];
        w_left_q <= s_axi_awlen_i;
        w_err_q  <= s_axi_awsize_i != 3'(OB) || s_axi_awburst_i != INCR;
        b_err_q  <= 1'b0;
      end
      if (w_take) begin
        w_addr_q <= w_addr_q + 1'b1;
        w_left_q <= w_left_q - 1'b1;
        if (w_beat_bad) b_err_q <= 1'b1;
        if (w_frame_bad) w_err_q <= 1'b1;
        if (s_axi_wlast_i) begin
          w_act_q  <= 1'b0;
          b_pend_q <= 1'b1;
        end
      end
      if (s_axi_bvalid_o && s_axi_bready_i) b_pend_q <= 1'b0;
    end
  end

  // The transmit ring: written by the host, read by the transmit side.
  logic          tram_ren;
  logic [RAW-1:0] tram_raddr;
  logic [DW-1:0] tram_rd;
  cni_sdpram_be #(.Bytes(Bytes), .Words(RB)) u_tx_ram (
    .clk_i,
    .w_en_i  (w_take && !w_beat_bad && w_tx),
    .w_be_i  (s_axi_wstrb_i),
    .w_addr_i(w_addr_q[RAW-1:0]),
    .w_wd_i  (s_axi_wdata_i),
    .r_en_i  (tram_ren),
    .r_addr_i(tram_raddr),
    .r_rd_o  (tram_rd)
  );

  // ---- transmit: posted slots into the datapath ---------------------------------------------
  logic        post_valid;
  logic [15:0] post_len;
  logic        post_pop;
  logic [$clog2(Slots + 1)-1:0] post_count;
  cni_fifo #(.Width(16), .Depth(Slots)) u_posts (
    .clk_i, .rst_ni,
    .in_valid_i (wr_post),
    .in_ready_o (post_room),
    .in_data_i  (post_v[15:0]),
    .out_valid_o(post_valid),
    .out_ready_i(post_pop),
    .out_data_o (post_len),
    .count_o    (post_count)
  );

  logic [15:0] tbeat_q;
  logic        tinfl_q, tlast_q;
  logic [OB-1:0] tlen_q;   // the frame's length mod Bytes (its last beat's keep)
  logic        oq_out_valid;
  logic [$clog2(OutQ + 1)-1:0] oq_count;
  wire [15:0] tbeats = (post_len + 16'(Bytes - 1)) >> OB;
  wire        tlast_beat = tbeat_q + 1'b1 == tbeats;
  assign tram_ren   = post_valid && (32'(oq_count) + 32'(tinfl_q) < OutQ);
  assign tram_raddr = {tx_tail_q[SW-1:0], tbeat_q[RAW-SW-1:0]};
  assign post_pop   = tram_ren && tlast_beat;

  logic [Bytes-1:0] tkeep;
  always_comb begin
    tkeep = '1;
    if (tlast_q && tlen_q != '0) tkeep = (Bytes'(1) << tlen_q) - 1'b1;
  end
  /* verilator lint_off UNUSEDSIGNAL */
  logic oq_in_ready;
  /* verilator lint_on UNUSEDSIGNAL */
  cni_fifo #(.Width(DW + Bytes + 1), .Depth(OutQ)) u_txq (
    .clk_i, .rst_ni,
    .in_valid_i (tinfl_q),
    .in_ready_o (oq_in_ready),
    .in_data_i  ({tlast_q, tkeep, tram_rd}),
    .out_valid_o(oq_out_valid),
    .out_ready_i(tx_tready_i),
    .out_data_o ({tx_tlast_o, tx_tkeep_o, tx_tdata_o}),
    .count_o    (oq_count)
  );
  assign tx_tvalid_o = oq_out_valid;
  assign tx_tuser_o  = 1'b0;

  // ---- AXI read: the receive ring and the registers --------------------------------------------
  logic          r_act_q, r_err_q, rv_q, r_last_q, r_fromram_q, r_bad_q;
  logic [BW-1:0] r_addr_q;
  logic [7:0]    r_left_q;   // beats after the one being issued
  logic [DW-1:0] r_reg_q;
  wire ar_take = s_axi_arvalid_i && s_axi_arready_o;
  assign s_axi_arready_o = !r_act_q;
  wire r_issue = r_act_q && (!rv_q || s_axi_rready_i);
  wire r_rx    = r_addr_q[BW-1 -: 2] == 2'd0;
  wire r_reg0  = r_addr_q[BW-1 -: 2] == 2'd2 && r_addr_q[BW-3:0] == zero_in_quarter;
  wire r_reg1  = r_addr_q[BW-1 -: 2] == 2'd2 && r_addr_q[BW-3:0] == (BW-2)'(1);
  assign rram_ren   = r_issue && r_rx && !r_err_q;
  assign rram_raddr = r_addr_q[RAW-1:0];

  logic [DW-1:0] reg_beat;
  always_comb begin
    reg_beat = '0;
    if (r_reg0) begin
      reg_beat[0 +: 64]   = 64'(rx_head_q);
      reg_beat[64 +: 64]  = 64'(rx_tail_q);
      reg_beat[128 +: 64] = 64'(tx_post_q);
      reg_beat[192 +: 64] = 64'(tx_tail_q);
      reg_beat[256 +: 64] = {16'd0, 16'(Bytes), 16'(SlotBeats), 16'(Slots)};
      reg_beat[320 +: 64] = 64'(errors_q);
    end else if (r_reg1) begin
      for (int i = 0; i < Slots; i++) reg_beat[64*i +: 64] = 64'(rx_slot_q[i]);
    end
  end
  wire r_beat_bad = r_err_q || !(r_rx || r_reg0 || r_reg1);
  assign rx_read_busy = (r_act_q && r_rx) || (rv_q && r_fromram_q);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      r_act_q     <= 1'b0;
      r_err_q     <= 1'b0;
      r_addr_q    <= '0;
      r_left_q    <= '0;
      rv_q        <= 1'b0;
      r_last_q    <= 1'b0;
      r_fromram_q <= 1'b0;
      r_bad_q     <= 1'b0;
      r_reg_q     <= '0;
    end else begin
      if (ar_take) begin
        r_act_q  <= 1'b1;
        r_addr_q <= s_axi_araddr_i[AW-1:OB];
        r_left_q <= s_axi_arlen_i;
        r_err_q  <= s_axi_arsize_i != 3'(OB) || s_axi_arburst_i != INCR;
      end
      if (r_issue) begin
        rv_q        <= 1'b1;
        r_last_q    <= r_left_q == '0;
        r_fromram_q <= r_rx && !r_err_q;
        r_bad_q     <= r_beat_bad;
        r_reg_q     <= r_beat_bad ? '0 : reg_beat;
        r_addr_q    <= r_addr_q + 1'b1;
        r_left_q    <= r_left_q - 1'b1;
        if (r_left_q == '0) r_act_q <= 1'b0;
      end else if (rv_q && s_axi_rready_i) begin
        rv_q <= 1'b0;
      end
    end
  end
  assign s_axi_rvalid_o = rv_q;
  assign s_axi_rdata_o  = r_fromram_q ? rram_rd : r_reg_q;
  assign s_axi_rresp_o  = r_bad_q ? SLVERR : OKAY;
  assign s_axi_rlast_o  = r_last_q;

  // ---- counters and registers ------------------------------------------------------------------
  // A write burst with a refused beat (a refused register value included) counts once.
  wire w_refused = w_take && s_axi_wlast_i && (b_err_q || w_beat_bad);
  wire r_refused = r_issue && r_beat_bad;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rx_head_q <= '0;
      rx_tail_q <= '0;
      tx_post_q <= '0;
      tx_tail_q <= '0;
      errors_q  <= '0;
      rx_beat_q <= '0;
      tbeat_q   <= '0;
      tinfl_q   <= 1'b0;
      tlast_q   <= 1'b0;
      tlen_q    <= '0;
      for (int i = 0; i < Slots; i++) rx_slot_q[i] <= '0;
    end else begin
      if (rx_take) begin
        rx_beat_q <= rx_tlast_i ? '0 : rx_beat_q + 1'b1;
        if (rx_tlast_i) begin
          rx_slot_q[rx_slot] <= {rx_len_i, rx_head_q + 1'b1};
          rx_head_q          <= rx_head_q + 1'b1;
        end
      end
      if (wr_tail) rx_tail_q <= tail_v;
      if (wr_post) tx_post_q <= tx_post_q + 1'b1;
      tinfl_q <= tram_ren;
      if (tram_ren) begin
        tbeat_q <= tlast_beat ? '0 : tbeat_q + 1'b1;
        tlast_q <= tlast_beat;
        tlen_q  <= post_len[OB-1:0];
        if (tlast_beat) tx_tail_q <= tx_tail_q + 1'b1;
      end
      errors_q <= errors_q + 32'(w_refused) + 32'(r_refused);
    end
  end

  assign idle_o = !w_act_q && !b_pend_q && !r_act_q && !rv_q && rx_beat_q == '0 &&
                  !post_valid && !tinfl_q && !oq_out_valid;

  `CNI_ASSERT(TxRoom_A, !tinfl_q || oq_in_ready, "a transmit beat found the queue full")
  `CNI_ASSERT(PostCount_A, 32'(post_count) == tx_post_q - tx_tail_q,
              "posted slots and the post queue disagree")

endmodule
