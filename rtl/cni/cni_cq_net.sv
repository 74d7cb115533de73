// SPDX-License-Identifier: Apache-2.0
// The CNI engine's network side (docs/cni.md section 6): data frames out under a sliding window
// per destination, cumulative acks in and out, data frames in checked and handed to the receive
// front end in order per source. Without retransmission (Retransmit = 0, or CTRL.retransmit
// clear) delivery under loss is at most once, in order, and a gap is counted; with it, go-back-N
// (a copy of each frame outstanding, a timer per destination) makes it exactly once, in order.
// A message to this node does not use the network: it goes straight into the receive register
// (local delivery: no window, no frame, no ack).
//
// Messages cross this block as slot images (docs/cni.md, "Message layout in a slot"): byte 1
// flags, bytes 2-3 len, 4-5 node (the destination going out, the source coming in), 6-7 handler,
// 8-11 seq (in: the frame's sequence number), payload from byte 12 -- the same offsets the
// payload has in a frame, so only the 12 header bytes are rearranged.
//
//   sender, per destination d: next[d], una[d]; outstanding = next - una (mod 2^16)
//     message to this node, open, the receive register free, its turn
//                                               -> into the receive register (seq = {handler,
//                                                  next[node]}), next + 1, C_LOCAL
//     message to this node, closed, its turn    -> dropped, C_RX_CLOSED
//       its turn: no data frame contends (one that would take the receive register, or be
//       dropped as closed), or one did and was taken last (turn bit: under a stream of frames
//       local messages and frames alternate)
//     message offered, outstanding < Window     -> DATA(seq = {handler, next}), next + 1
//     message offered, outstanding = Window     -> held (counted once: C_WIN_WAITS)
//     ACK(a), 0 <= a - una < outstanding        -> una = a + 1
//     ACK otherwise                             -> C_ACK_STALE
//   go-back-N (Retransmit, retx_en_i): each data frame sent is kept in store[d][seq mod Window];
//   timer[d] counts cycles while d has frames outstanding, from 0 at the first one sent and at
//   each ack that moves una
//     timer[d] >= retx_timeout_i, no round under way -> a round for d (the lowest such d):
//                                                  store[d][una .. next-1] sent again in order
//                                                  (after owed acks, before new frames; each
//                                                  C_RETX), then timer[d] from 0; the round ends
//                                                  early when acks cover the rest
//   receiver, per source s: exp[s], owe[s]
//     FCS failed / longer than a message        -> dropped, C_RX_BAD_FCS (no field trusted)
//     src >= NODES or this node, len > MAX_LEN, size != 12 + len, unknown type -> C_RX_BAD
//     closed                                    -> dropped; seq = exp: exp + 1, owe; C_RX_CLOSED
//     seq = exp, the receive register free      -> taken, exp + 1, owe
//     seq ahead (a lost frame), go-back-N       -> dropped, owe (the ack says what is missing),
//                                                  C_RX_SEQ
//     seq ahead (a lost frame), otherwise       -> C_RX_GAP += seq - exp, then as seq = exp
//     seq behind (a duplicate)                  -> dropped, owe, C_RX_DUP
//     the receive register full                 -> the frame waits (tready low), C_ROOM_WAITS once
//   output: an owed ack first (lowest source), then a data frame; ACK(exp[s] - 1)
//
// Parameters:
//   MaxNodes   - nodes the window and sequence state is kept for
//   Window     - data frames outstanding per destination (<= 2^15; a power of two with
//                Retransmit)
//   NetBytes   - bytes per beat of the network stream
//   Retransmit - 1: go-back-N built (a store of MaxNodes * Window frames, a timer per node)
// Ports:
//   open_i, nodes_i, node_id_i - CTRL.open, CTRL.NODES, this node
//   retx_en_i, retx_timeout_i  - CTRL.retransmit, TIMERS.RETX_TIMEOUT (cycles; Retransmit only)
//   msg_*                      - a message to send (held until taken; msg_ready_o depends on
//                                the message's destination)
//   rmsg_*                     - a message received (held until taken)
//   cnt_o                      - counter pulses (cni_cq_pkg::C_*), one cycle each
//   n{tx,rx}_*                 - the engine's network port
//   idle_o                     - nothing to send, no frame arriving or to process
`default_nettype none

module cni_cq_net #(
  parameter int MaxNodes   = 16,
  parameter int Window     = 4,
  parameter int NetBytes   = 64,
  parameter int Retransmit = 0,
  localparam int MsgBits = cni_cq_pkg::MSG_BYTES * 8,
  localparam int NetW    = NetBytes * 8,
  localparam int NW      = (MaxNodes > 1) ? $clog2(MaxNodes) : 1
) (
  input  wire logic                           clk_i,
  input  wire logic                           rst_ni,
  input  wire logic                           open_i,
  input  wire logic [7:0]                     nodes_i,
  input  wire logic [15:0]                    node_id_i,
  input  wire logic                           retx_en_i,
  input  wire logic [31:0]                    retx_timeout_i,
  input  wire logic                           msg_valid_i,
  output logic                                msg_ready_o,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [MsgBits-1:0]             msg_i,      // (ctl and seq are the frame's own)
  /* verilator lint_on UNUSEDSIGNAL */
  output logic                                rmsg_valid_o,
  input  wire logic                           rmsg_ready_i,
  output logic [MsgBits-1:0]                  rmsg_o,
  output logic [cni_cq_pkg::NUM_CNT-1:0]      cnt_o,
  output logic [31:0]                         gap_o,      // frames skipped, with C_RX_GAP
  output logic                                ntx_valid_o,
  input  wire logic                           ntx_ready_i,
  output logic [NetW-1:0]                     ntx_data_o,
  output logic [NetBytes-1:0]                 ntx_keep_o,
  output logic                                ntx_last_o,
  output logic [15:0]                         ntx_dest_o,
  input  wire logic                           nrx_valid_i,
  output logic                                nrx_ready_o,
  input  wire logic [NetW-1:0]                nrx_data_i,
  input  wire logic [NetBytes-1:0]            nrx_keep_i,
  input  wire logic                           nrx_last_i,
  input  wire logic                           nrx_user_i,
  output logic                                idle_o
);

  localparam int HdrBits = cni_cq_pkg::HDR_BYTES * 8;

  if (MaxNodes < 2 || MaxNodes > 256) $error("cni_cq_net: MaxNodes must be 2..256");
  if (Window < 1 || Window > 32768) $error("cni_cq_net: Window must be 1..2^15");
  if (Retransmit != 0 && (Window & (Window - 1)) != 0)
    $error("cni_cq_net: Retransmit needs a Window that is a power of two");

  logic [15:0]       next_q [MaxNodes];
  logic [15:0]       una_q  [MaxNodes];
  logic [15:0]       exp_q  [MaxNodes];
  logic [MaxNodes-1:0] owe_q;
  logic              wwait_q;  // the offered message was counted as waiting for the window
  logic              rwait_q;  // the frame waiting in the receiver was counted

  // ---- out --------------------------------------------------------------------------------
  wire [15:0] m_len     = msg_i[16 +: 16];
  wire [15:0] m_dst     = msg_i[32 +: 16];
  wire [15:0] m_handler = msg_i[48 +: 16];
  wire [7:0]  m_flags   = msg_i[8 +: 8];
  wire [NW-1:0] m_d     = NW'(m_dst);
  wire [15:0] m_out     = next_q[m_d] - una_q[m_d];
  wire        win_open  = 32'(m_out) < 32'(Window);
  wire        m_local   = m_dst == node_id_i;

  // the lowest source an ack is owed to
  logic [NW-1:0] ack_s;
  always_comb begin
    ack_s = '0;
    for (int i = MaxNodes - 1; i >= 0; i--) if (owe_q[i]) ack_s = NW'(i);
  end
  wire ack_owed = owe_q != '0;

  logic tx_busy, tx_idle;
  logic rmsg_q, rx_contend, turn_q;
  // go-back-N (g_retx below): a round under way, the frame it sends next, and its start
  wire               gbn = Retransmit != 0 && retx_en_i;
  logic              x_busy, x_ready, x_any_out;
  logic [NW-1:0]     x_d;
  logic [MsgBits-1:0] x_frame;
  // A local message and a data frame that wants the receive register (or, closed, the
  // C_RX_CLOSED pulse) take turns: the local one goes when no frame contends or turn_q says so.
  wire  loc_turn = turn_q || !rx_contend;
  assign msg_ready_o = !m_local ? !tx_busy && !ack_owed && !x_busy && win_open
                                : loc_turn && (!open_i || !rmsg_q);
  wire send_ack   = !tx_busy && ack_owed;
  wire send_retx  = !tx_busy && !ack_owed && x_ready;
  wire send_data  = msg_valid_i && msg_ready_o && !m_local;
  wire loc_go     = msg_valid_i && msg_ready_o && m_local;
  wire send_local = loc_go && open_i;
  wire drop_local = loc_go && !open_i;
  wire [HdrBits-1:0] data_hdr = {m_handler, next_q[m_d], m_flags, cni_cq_pkg::NET_TYPE_DATA,
                                 m_len, node_id_i, m_dst};
  wire [HdrBits-1:0] ack_hdr  = {16'd0, exp_q[ack_s] - 16'd1, 8'd0, cni_cq_pkg::NET_TYPE_ACK,
                                 16'd0, node_id_i, 16'(ack_s)};
  wire [MsgBits-1:0] data_frame = {msg_i[MsgBits-1:HdrBits], data_hdr};
  wire [MsgBits-1:0] tx_frame = send_ack ? MsgBits'(ack_hdr) : send_retx ? x_frame : data_frame;
  wire [15:0] tx_bytes = send_ack  ? 16'(cni_cq_pkg::HDR_BYTES)
                       : send_retx ? 16'(cni_cq_pkg::HDR_BYTES) + x_frame[32 +: 16]
                                   : 16'(cni_cq_pkg::HDR_BYTES) + m_len;
  wire [15:0] tx_dest  = send_ack ? 16'(ack_s) : send_retx ? 16'(x_d) : m_dst;
  cni_net_tx #(.NetBytes(NetBytes), .MaxBytes(cni_cq_pkg::MSG_BYTES)) u_tx (
    .clk_i, .rst_ni,
    .start_i (send_ack || send_retx || send_data), .frame_i (tx_frame), .bytes_i (tx_bytes),
    .dest_i (tx_dest), .busy_o (tx_busy),
    .tx_tvalid_o (ntx_valid_o), .tx_tready_i (ntx_ready_i), .tx_tdata_o (ntx_data_o),
    .tx_tkeep_o (ntx_keep_o), .tx_tlast_o (ntx_last_o), .tx_tdest_o (ntx_dest_o),
    .idle_o (tx_idle)
  );

  // ---- in ---------------------------------------------------------------------------------
  logic              rx_valid, rx_bad, rx_idle;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [MsgBits-1:0] rx_frame;   // (dst: the switch routed the frame here)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [15:0]       rx_bytes;
  logic              rx_ack;
  cni_net_rx #(.NetBytes(NetBytes), .MaxBytes(cni_cq_pkg::MSG_BYTES)) u_rx (
    .clk_i, .rst_ni,
    .rx_tvalid_i (nrx_valid_i), .rx_tready_o (nrx_ready_o), .rx_tdata_i (nrx_data_i),
    .rx_tkeep_i (nrx_keep_i), .rx_tlast_i (nrx_last_i), .rx_tuser_i (nrx_user_i),
    .valid_o (rx_valid), .frame_o (rx_frame), .bytes_o (rx_bytes), .bad_o (rx_bad),
    .ack_i (rx_ack), .idle_o (rx_idle)
  );
  wire [15:0]   f_src  = rx_frame[16 +: 16];
  wire [15:0]   f_len  = rx_frame[32 +: 16];
  wire [7:0]    f_type = rx_frame[48 +: 8];
  wire [7:0]    f_flags = rx_frame[56 +: 8];
  wire [31:0]   f_seq  = rx_frame[64 +: 32];
  wire [NW-1:0] f_s    = NW'(f_src);
  wire          f_src_ok = 32'(f_src) < 32'(nodes_i) && 32'(f_src) < 32'(MaxNodes) &&
                           f_src != node_id_i;
  wire          is_data = f_type == cni_cq_pkg::NET_TYPE_DATA;
  wire          is_ack  = f_type == cni_cq_pkg::NET_TYPE_ACK;
  wire          f_ok    = f_src_ok && (is_ack ? rx_bytes == 16'(cni_cq_pkg::HDR_BYTES) :
                          is_data && 32'(f_len) <= 32'(cni_cq_pkg::MAX_LEN) &&
                          32'(rx_bytes) == 32'(cni_cq_pkg::HDR_BYTES) + 32'(f_len));
  wire [15:0]   f_diff  = f_seq[15:0] - exp_q[f_s];   // 0: in order; < 2^15: ahead
  wire          f_dup   = f_diff[15];
  // an ack: a - una against outstanding
  wire [15:0]   a_rel   = f_seq[15:0] - una_q[f_s];
  wire          a_good  = a_rel < next_q[f_s] - una_q[f_s];

  logic [MsgBits-1:0] rmsg_img_q;
  wire  f_ahead    = f_diff != '0 && !f_dup;
  wire  rx_data    = rx_valid && !rx_bad && f_ok && is_data;
  wire  rx_deliver = rx_data && open_i && !f_dup && !(gbn && f_ahead);
  assign rx_contend = rx_deliver || (rx_data && !open_i);
  wire  rx_take_data = rx_deliver && !rmsg_q && !loc_go;
  // Every frame is dropped or taken at once but one that waits for the receive register or for
  // a local message's turn.
  assign rx_ack = rx_valid && !(rx_contend && (loc_go || (open_i && rmsg_q)));

  always_comb begin
    cnt_o = '0;
    gap_o = '0;
    cnt_o[cni_cq_pkg::C_TX_FRAMES] = send_data || send_retx;
    cnt_o[cni_cq_pkg::C_RETX]      = send_retx;
    cnt_o[cni_cq_pkg::C_ACKS_TX]   = send_ack;
    cnt_o[cni_cq_pkg::C_WIN_WAITS] = msg_valid_i && !m_local && !win_open && !wwait_q;
    cnt_o[cni_cq_pkg::C_LOCAL]     = send_local;
    cnt_o[cni_cq_pkg::C_RX_CLOSED] = drop_local;
    if (rx_valid) begin
      if (rx_bad) cnt_o[cni_cq_pkg::C_RX_BAD_FCS] = 1'b1;
      else if (!f_ok) cnt_o[cni_cq_pkg::C_RX_BAD] = 1'b1;
      else if (is_ack) begin
        cnt_o[cni_cq_pkg::C_ACKS_RX]   = a_good;
        cnt_o[cni_cq_pkg::C_ACK_STALE] = !a_good;
      end else if (!open_i) cnt_o[cni_cq_pkg::C_RX_CLOSED] = 1'b1;  // (or the local drop's)
      else if (f_dup) cnt_o[cni_cq_pkg::C_RX_DUP] = 1'b1;
      else if (gbn && f_ahead) cnt_o[cni_cq_pkg::C_RX_SEQ] = 1'b1;
      else if (rx_take_data) begin
        cnt_o[cni_cq_pkg::C_RX_FRAMES] = 1'b1;
        cnt_o[cni_cq_pkg::C_RX_GAP]    = f_diff != '0;
        gap_o = 32'(f_diff);
      end else begin
        cnt_o[cni_cq_pkg::C_ROOM_WAITS] = !rwait_q;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < MaxNodes; i++) begin
        next_q[i] <= '0;
        una_q[i]  <= '0;
        exp_q[i]  <= '0;
      end
      owe_q   <= '0;
      wwait_q <= 1'b0;
      rwait_q <= 1'b0;
      rmsg_q  <= 1'b0;
      turn_q  <= 1'b0;
    end else begin
      if (send_data || send_local) next_q[m_d] <= next_q[m_d] + 16'd1;
      wwait_q <= msg_valid_i && !m_local && !send_data && (wwait_q || !win_open);
      rwait_q <= rx_valid && !rx_ack;
      if (send_ack) owe_q[ack_s] <= 1'b0;
      if (loc_go) turn_q <= 1'b0;
      else if (rx_contend && rx_ack) turn_q <= 1'b1;
      if (rx_valid && rx_ack && !rx_bad && f_ok) begin
        if (is_ack) begin
          if (a_good) una_q[f_s] <= f_seq[15:0] + 16'd1;
        end else if (!open_i) begin
          if (f_diff == '0) exp_q[f_s] <= exp_q[f_s] + 16'd1;
          owe_q[f_s] <= 1'b1;
        end else if (f_dup || (gbn && f_ahead)) begin
          owe_q[f_s] <= 1'b1;
        end else if (rx_take_data) begin
          exp_q[f_s] <= f_seq[15:0] + 16'd1;
          owe_q[f_s] <= 1'b1;
        end
      end
      if (rx_take_data || send_local) rmsg_q <= 1'b1;
      else if (rmsg_ready_i) rmsg_q <= 1'b0;
    end
  end

  // The received message as a slot image: ctl 0, flags, len, source, handler, seq, payload.
  always_ff @(posedge clk_i) begin
    if (rx_take_data) begin
      rmsg_img_q <= {rx_frame[MsgBits-1:HdrBits], f_seq, f_seq[31:16], f_src, f_len, f_flags,
                     8'd0};
    end else if (send_local) begin
      rmsg_img_q <= {msg_i[MsgBits-1:HdrBits], m_handler, next_q[m_d], m_handler, node_id_i,
                     m_len, m_flags, 8'd0};
    end
  end
  assign rmsg_valid_o = rmsg_q;
  assign rmsg_o       = rmsg_img_q;

  // ---- go-back-N ----------------------------------------------------------------------------
  if (Retransmit != 0) begin : g_retx
    localparam int WW = Window > 1 ? $clog2(Window) : 1;
    localparam int SW = $clog2(MaxNodes * Window);
    logic [31:0]        tmr_q [MaxNodes];
    logic [MaxNodes-1:0] out, due;
    logic [NW-1:0]      due_d;
    typedef enum logic [1:0] { XIdle, XRead, XSend } xst_e;
    xst_e               xs_q;
    logic [NW-1:0]      xd_q;
    logic [15:0]        xseq_q;

    // store[d][seq mod Window] (lo: the sequence number's low bits)
    function automatic logic [SW-1:0] slot(input logic [NW-1:0] d, input logic [WW-1:0] lo);
      slot = SW'(32'(d) * Window + (32'(lo) & (Window - 1)));
    endfunction

    always_comb begin
      due_d = '0;
      for (int i = 0; i < MaxNodes; i++) begin
        out[i] = next_q[i] != una_q[i];
        due[i] = out[i] && tmr_q[i] >= retx_timeout_i;
      end
      for (int i = MaxNodes - 1; i >= 0; i--) if (due[i]) due_d = NW'(i);
    end
    // the round's next frame is still outstanding (acks may have covered the rest)
    wire x_live = xseq_q - una_q[xd_q] < next_q[xd_q] - una_q[xd_q];
    assign x_busy    = xs_q != XIdle;
    assign x_ready   = xs_q == XSend && x_live;
    assign x_d       = xd_q;
    assign x_any_out = out != '0;

    // The store: each data frame written as it is sent (port a), read in XRead for XSend (port
    // b; no frame is sent during a round, so the ports never meet on one word).
    /* verilator lint_off UNUSEDSIGNAL */
    logic [MsgBits-1:0] st_a_rd;
    /* verilator lint_on UNUSEDSIGNAL */
    cni_dpram #(.Width (MsgBits), .Words (MaxNodes * Window)) u_store (
      .clk_i,
      .a_en_i (send_data), .a_we_i (1'b1), .a_addr_i (slot(m_d, next_q[m_d][WW-1:0])),
      .a_wd_i (data_frame), .a_rd_o (st_a_rd),
      .b_en_i (xs_q == XRead), .b_we_i (1'b0), .b_addr_i (slot(xd_q, xseq_q[WW-1:0])),
      .b_wd_i ('0), .b_rd_o (x_frame)
    );

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        for (int i = 0; i < MaxNodes; i++) tmr_q[i] <= '0;
        xs_q   <= XIdle;
        xd_q   <= '0;
        xseq_q <= '0;
      end else begin
        for (int i = 0; i < MaxNodes; i++) begin
          if (out[i] && !(x_busy && xd_q == NW'(i)) && tmr_q[i] != '1) tmr_q[i] <= tmr_q[i] + 1;
        end
        if (send_data && !out[m_d]) tmr_q[m_d] <= '0;
        if (rx_valid && rx_ack && !rx_bad && f_ok && is_ack && a_good) tmr_q[f_s] <= '0;
        unique case (xs_q)
          XIdle: if (gbn && due != '0) begin
            xs_q   <= XRead;
            xd_q   <= due_d;
            xseq_q <= una_q[due_d];
          end
          XRead: xs_q <= XSend;
          XSend: begin
            if (!x_live || !gbn) begin
              xs_q        <= XIdle;
              tmr_q[xd_q] <= '0;
            end else if (send_retx) begin
              xseq_q <= xseq_q + 16'd1;
              xs_q   <= XRead;
            end
          end
          default: xs_q <= XIdle;
        endcase
      end
    end
  end else begin : g_no_retx
    assign x_busy    = 1'b0;
    assign x_ready   = 1'b0;
    assign x_d       = '0;
    assign x_frame   = '0;
    assign x_any_out = 1'b0;
    wire unused_retx = ^retx_timeout_i;
  end

  // Idle: nothing leaving, no ack owed, no message that could go now, no frame arriving or to
  // process (one that waits for the receive register waits for the front end); with go-back-N
  // on, no frame outstanding (a timer runs).
  assign idle_o = tx_idle && !ack_owed && !(msg_valid_i && msg_ready_o) &&
                  (rx_idle || (rx_valid && !rx_ack)) && !x_busy && !(gbn && x_any_out);

endmodule
