// SPDX-License-Identifier: Apache-2.0
// CNI4 front end of the CNI cache/queue engine (docs/cni.md): cachable device registers over
// hardware queues of whole messages. Send: the TX CDRs T0..Tn-1 are SHARED, so the CPU's
// ownership request parks (TRIGGER); RESUME(E) grants it and VP_BACKOFF cycles later the line
// is pulled (RECALL_DN, virtual polling); a pull of T0 that finds the valid word expected
// (TX_SEQ) starts the message: header checked, every line still owned pulled, T0..Tn-1 copied
// to the TX queue. Receive: the RX queue's head goes into R1..Rn-1, then R0, by locked writes;
// rx_ready_o until RX_CLEAR, which RECALLs the lines (the explicit clear). The command slot,
// the reset POLICYs and the registers are cni_cq_engine's.
//
// Parameters:
//   LineBytes, LineIdxW - line size (64 or 128), device line index width
//   Base                - the region's first device line
//   FifoMsgs            - messages each hardware queue holds
//   MaxNodes            - the network side's node count (the destination check)
// Ports:
//   w_clear_i (RX_CLEAR written), the endpoint's CTRL and TIMERS state (open_i, nodes_i,
//   vp_backoff_i); txm_* / rmsg_*: the messages to and from the network side (as cni_cq_ni2w)
//   rq_*_o: the commands it asks for (RESUME, RECALL_DN pull, RECALL lock; with their line),
//   go_*_i: the command slot took that request this cycle
//   evt_*, mem_*: the engine bus's event and port-B channels (cni_cq_engine's ports)
//   tx_free_o, rx_msgs_o, tx_open_o, rx_ready_o, tx_seq_o: what STATUS and TX_SEQ show
//   cnt_o: counter pulses (cni_cq_pkg::C_*); idle_o: nothing owed or to move
`default_nettype none

module cni_cq_cni4 #(
  parameter int LineBytes = 128,
  parameter int LineIdxW  = 12,
  parameter int Base      = 0,
  parameter int FifoMsgs  = 4,
  parameter int MaxNodes  = 16,
  localparam int LineBits = LineBytes * 8,
  localparam int MsgBits  = cni_cq_pkg::MSG_BYTES * 8,
  localparam int NC       = cni_cq_pkg::NUM_CNT
) (
  input  wire logic                            clk_i,
  input  wire logic                            rst_ni,
  input  wire logic                            w_clear_i,
  input  wire logic                            open_i,
  input  wire logic [7:0]                      nodes_i,
  input  wire logic [15:0]                     vp_backoff_i,
  input  wire logic                            txm_busy_i,
  output logic                                 txm_load_o,
  output logic [MsgBits-1:0]                   txm_img_o,
  input  wire logic                            rmsg_valid_i,
  output logic                                 rmsg_ready_o,
  input  wire logic [MsgBits-1:0]              rmsg_i,
  output logic                                 rq_rsm_o,
  output logic [LineIdxW-1:0]                  rq_rsm_line_o,
  input  wire logic                            go_rsm_i,
  output logic                                 rq_pull_o,
  output logic [LineIdxW-1:0]                  rq_pull_line_o,
  input  wire logic                            go_pull_i,
  output logic                                 rq_lock_o,
  output logic [LineIdxW-1:0]                  rq_lock_line_o,
  input  wire logic                            go_lock_i,
  input  wire logic                            evt_valid_i,
  output logic                                 evt_ready_o,
  input  wire logic [cni_coh_pkg::EVT_W-1:0]   evt_kind_i,
  input  wire logic [LineIdxW-1:0]             evt_line_i,
  output logic                                 mem_en_o,
  output logic                                 mem_we_o,
  output logic [LineIdxW-1:0]                  mem_addr_o,
  output logic [LineBits-1:0]                  mem_wdata_o,
  input  wire logic                            mem_gnt_i,
  input  wire logic [LineBits-1:0]             mem_rdata_i,
  output logic [15:0]                          tx_free_o,
  output logic [15:0]                          rx_msgs_o,
  output logic                                 tx_open_o,
  output logic                                 rx_ready_o,
  output logic [31:0]                          tx_seq_o,
  output logic [NC-1:0]                        cnt_o,
  output logic                                 idle_o
);

  localparam int  B  = cni_cq_pkg::MSG_BYTES / LineBytes;  // lines per slot
  localparam int  BW = $clog2(B + 1);                     // a count of lines, 0..B
  localparam int  JW = (B > 1) ? $clog2(B) : 1;            // a line within a slot

  localparam int LT = Base + cni_cq_pkg::off_tcdr(LineBytes);   // T0 (TX CDRs, SHARED)
  localparam int LR = Base + cni_cq_pkg::off_rcdr(LineBytes);   // R0 (RX CDRs, ALLOW)
  localparam int QW = $clog2(FifoMsgs + 1);

  // -- the hardware queues behind the CDRs: whole messages (slot images) ---------------------
  logic               tq_in_valid, tq_in_ready, tq_out_valid, tq_out_ready;
  logic [MsgBits-1:0] tq_in, tq_out;
  logic [QW-1:0]      tq_count;
  logic               rq_in_ready, rq_out_valid, rq_out_ready;
  logic [MsgBits-1:0] rq_out;
  logic [QW-1:0]      rq_count;
  cni_fifo #(.Width (MsgBits), .Depth (FifoMsgs)) u_txq (
    .clk_i, .rst_ni,
    .in_valid_i (tq_in_valid), .in_ready_o (tq_in_ready), .in_data_i (tq_in),
    .out_valid_o (tq_out_valid), .out_ready_i (tq_out_ready), .out_data_o (tq_out),
    .count_o (tq_count)
  );
  cni_fifo #(.Width (MsgBits), .Depth (FifoMsgs)) u_rxq (
    .clk_i, .rst_ni,
    .in_valid_i (rmsg_valid_i), .in_ready_o (rq_in_ready), .in_data_i (rmsg_i),
    .out_valid_o (rq_out_valid), .out_ready_i (rq_out_ready), .out_data_o (rq_out),
    .count_o (rq_count)
  );
  assign rmsg_ready_o = rq_in_ready;
  assign txm_load_o   = tq_out_valid && !txm_busy_i;
  assign tq_out_ready = txm_load_o;
  assign txm_img_o    = tq_out;

  // -- events --------------------------------------------------------------------------------
  wire          evt_trg = evt_valid_i && evt_kind_i == cni_coh_pkg::EVT_TRIGGER;
  wire          evt_dn  = evt_valid_i && evt_kind_i == cni_coh_pkg::EVT_RECALL_DONE;
  wire [31:0]   e_t     = 32'(evt_line_i) - 32'(LT);   // a TX CDR: below B
  wire [31:0]   e_r     = 32'(evt_line_i) - 32'(LR);   // an RX CDR: below B
  wire [JW-1:0] e_tj    = JW'(e_t);
  wire [JW-1:0] e_rj    = JW'(e_r);

  // -- send: the TX CDRs under virtual polling (docs/cni.md section 5, "Send lines") ----------
  // Per line: ask (a RESUME is owed), own (the CPU may hold it writable: a RESUME was taken
  // since the last pull), rsp (a RESUME was taken since the last pull was taken), pl (a pull
  // is in flight), due (the back-off: cycles until a line the CPU owns is pulled).
  typedef enum logic [2:0] {TOpen, TRd0, TChk0, TCheck, TRead, TData, TPush} tstate_e;
  tstate_e             ts_q, ts_d;
  logic [B-1:0]        ask_q, own_q, rsp_q, pl_q;
  logic [16*B-1:0]     due_q;     // line j's at [16j +: 16]: counted down together, flip-flops
  logic [31:0]         exp_q;     // the message number expected next in T0's valid word
  logic [JW-1:0]       tj_q;      // the line being copied
  logic [BW-1:0]       tn_q;      // lines the message uses
  logic [31:0]         t0_q;      // T0's len and destination, read when its valid word matched
  logic                ovr_q;     // this message's wait for queue room is counted
  logic [MsgBits-1:0]  timg_q;
  wire  e_trg = evt_trg && e_t < 32'(B);
  wire  e_tdn = evt_dn && e_t < 32'(B);   // a pull of a TX CDR is done (taken at once)

  // RESUMEs only while the CDRs take a message (held while one is checked or copied), and not
  // in the cycle a pull's RECALL_DONE is taken (own follows the command order exactly).
  logic [JW-1:0] rsm_j, pull_j;
  logic [B-1:0]  pr;
  always_comb begin
    rsm_j  = '0;
    pull_j = '0;
    for (int j = B - 1; j >= 0; j--) begin
      pr[j] = own_q[j] && !pl_q[j] &&
              (ts_q == TCheck || (!ask_q[j] && due_q[16 * j +: 16] == '0));
      if (ask_q[j]) rsm_j = JW'(j);
      if (pr[j]) pull_j = JW'(j);
    end
  end
  assign rq_rsm_o       = ts_q == TOpen && ask_q != '0 && !e_tdn;
  assign rq_rsm_line_o  = LineIdxW'(LT + 32'(rsm_j));
  assign rq_pull_o      = pr != '0;
  assign rq_pull_line_o = LineIdxW'(LT + 32'(pull_j));

  wire [15:0]   h_len = t0_q[15:0];
  wire [15:0]   h_dst = t0_q[31:16];
  wire [2:0]    h_bad = cni_cq_pkg::hdr_check(h_len, h_dst, open_i, nodes_i, MaxNodes);
  wire [BW-1:0] h_n   = BW'((32'(h_len) + cni_cq_pkg::HDR_BYTES + LineBytes - 1) / LineBytes);
  wire          h_room = 32'(tq_count) < 32'(FifoMsgs);
  wire          t0_ok  = mem_rdata_i[64 +: 32] == exp_q;   // TChk0: the valid word
  wire          t_ready = pl_q == '0 && own_q == '0;       // TCheck: every line pulled
  wire [31:0]   exp_nx = exp_q + 32'd1 == '0 ? 32'd1 : exp_q + 32'd1;   // 0 is never valid

  // -- receive: the RX CDRs, written under their locks, given back by the explicit clear -----
  typedef enum logic [1:0] {RFree, RWrite, RReady, RClear} rstate_e;
  rstate_e       rs_q;
  logic [B-1:0]  lt_q, lo_q;      // locked writes still to present / presented, not written
  logic [B-1:0]  ct_q, co_q;      // the clear's RECALLs still to present / presented, not done
  logic [BW-1:0] rn_q;            // lines of the message in the CDRs
  wire  [15:0]   r_len = rq_out[16 +: 16];
  wire  [BW-1:0] r_n   = BW'((32'(r_len) + cni_cq_pkg::HDR_BYTES + LineBytes - 1) / LineBytes);
  wire  e_lock = evt_dn && e_r < 32'(B) && rs_q == RWrite && lo_q[e_rj];
  wire  e_clr  = evt_dn && e_r < 32'(B) && rs_q == RClear && co_q[e_rj];
  // the next RECALL: locked writes of lines 1..n-1, then line 0; the clear's in line order
  logic [JW-1:0] lt_j, ct_j;
  always_comb begin
    lt_j = '0;
    ct_j = '0;
    for (int j = B - 1; j >= 1; j--) if (lt_q[j]) lt_j = JW'(j);
    for (int j = B - 1; j >= 0; j--) if (ct_q[j]) ct_j = JW'(j);
  end
  assign rq_lock_o      = (rs_q == RWrite && lt_q != '0) || (rs_q == RClear && ct_q != '0);
  assign rq_lock_line_o = LineIdxW'(LR + 32'(JW'(rs_q == RClear ? ct_j : lt_j)));
  wire   w_done = rs_q == RWrite && lt_q == '0 && lo_q == '0;
  assign rq_out_ready = w_done;

  // -- port B: locked writes (the held event), then the TX CDR reads --------------------------
  wire pb_lock = e_lock;
  wire pb_tx   = !pb_lock && (ts_q == TRd0 || ts_q == TRead);
  logic [LineBits-1:0] lock_data;
  always_comb begin
    lock_data = rq_out[LineBits * e_rj +: LineBits];
    if (e_rj == '0) lock_data[7:0] = '0;   // ctl: 0 in a CDR
  end
  assign mem_en_o    = pb_lock || pb_tx;
  assign mem_we_o    = pb_lock;
  assign mem_addr_o  = pb_lock ? evt_line_i
                               : LineIdxW'(LT + (ts_q == TRd0 ? 0 : 32'(tj_q)));
  assign mem_wdata_o = lock_data;
  wire   g_lock = pb_lock && mem_gnt_i;
  wire   g_tx   = pb_tx && mem_gnt_i;
  assign evt_ready_o = !e_lock;   // taken the cycle after its write (as the CQ's locks)

  always_comb begin
    ts_d = ts_q;
    unique case (ts_q)
      TOpen:  if (e_tdn && e_tj == '0 && !rsp_q[0]) ts_d = TRd0;
      TRd0:   if (g_tx) ts_d = TChk0;
      TChk0:  ts_d = t0_ok ? TCheck : TOpen;
      TCheck: if (h_bad != '0) ts_d = TOpen;
              else if (t_ready && h_room) ts_d = TRead;
      TRead:  if (g_tx) ts_d = TData;
      TData:  ts_d = (BW'(tj_q) + 1'b1 == tn_q) ? TPush : TRead;
      TPush:  ts_d = TOpen;
      default: ts_d = TOpen;
    endcase
  end
  assign tq_in_valid = ts_q == TPush;
  assign tq_in       = timg_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ts_q  <= TOpen;
      ask_q <= '0;
      own_q <= '0;
      rsp_q <= '0;
      pl_q  <= '0;
      due_q <= '0;
      exp_q <= 32'd1;
      tj_q  <= '0;
      tn_q  <= '0;
      ovr_q <= 1'b0;
      rs_q  <= RFree;
      lt_q  <= '0;
      lo_q  <= '0;
      ct_q  <= '0;
      co_q  <= '0;
      rn_q  <= '0;
    end else begin
      ts_q <= ts_d;
      for (int j = 0; j < B; j++) begin
        if (due_q[16 * j +: 16] != '0) due_q[16 * j +: 16] <= due_q[16 * j +: 16] - 1'b1;
      end
      if (go_rsm_i) begin
        ask_q[rsm_j] <= 1'b0;
        own_q[rsm_j] <= 1'b1;
        rsp_q[rsm_j] <= 1'b1;
        due_q[16 * 32'(rsm_j) +: 16] <= vp_backoff_i;
      end
      if (e_trg) ask_q[e_tj] <= 1'b1;
      if (go_pull_i) begin
        pl_q[pull_j]  <= 1'b1;
        rsp_q[pull_j] <= 1'b0;
      end
      if (e_tdn) begin
        pl_q[e_tj]  <= 1'b0;
        own_q[e_tj] <= rsp_q[e_tj];
      end
      if (ts_q == TCheck && h_bad != '0) exp_q <= exp_nx;
      if (ts_q == TPush) exp_q <= exp_nx;
      if (ts_q == TCheck) begin
        tj_q <= '0;
        tn_q <= h_n;
        ovr_q <= ovr_q || (t_ready && !h_room);
      end else begin
        ovr_q <= 1'b0;
      end
      if (ts_q == TData) tj_q <= tj_q + 1'b1;
      // receive
      unique case (rs_q)
        RFree: if (rq_out_valid) begin
          rs_q <= RWrite;
          lt_q <= r_n == BW'(1) ? B'(1) : B'((B'(1) << r_n) - 1'b1);
          lo_q <= '0;
          rn_q <= r_n;
        end
        RWrite: if (w_done) rs_q <= RReady;
        RReady: if (w_clear_i) begin
          rs_q <= RClear;
          ct_q <= rn_q == BW'(B) ? '1 : B'((B'(1) << rn_q) - 1'b1);
          co_q <= '0;
        end
        RClear: if (ct_q == '0 && co_q == '0) rs_q <= RFree;
        default: rs_q <= RFree;
      endcase
      if (go_lock_i && rs_q == RWrite) begin
        lt_q[lt_j] <= 1'b0;   // lines 1..n-1 first, line 0 last
        lo_q[lt_j] <= 1'b1;
      end
      if (go_lock_i && rs_q == RClear) begin
        ct_q[ct_j] <= 1'b0;
        co_q[ct_j] <= 1'b1;
      end
      if (e_lock && g_lock) lo_q[e_rj] <= 1'b0;
      if (e_clr) co_q[e_rj] <= 1'b0;
    end
  end
  always_ff @(posedge clk_i) begin
    if (ts_q == TChk0 && t0_ok) t0_q <= mem_rdata_i[16 +: 32];
    if (ts_q == TCheck) timg_q <= '0;
    if (ts_q == TData) timg_q[LineBits * tj_q +: LineBits] <= mem_rdata_i;
  end

  assign tx_free_o  = 16'(32'(FifoMsgs) - 32'(tq_count));
  assign rx_msgs_o  = 16'(rq_count);
  assign tx_open_o  = ts_q == TOpen && h_room;
  assign rx_ready_o = rs_q == RReady;
  assign tx_seq_o   = exp_q;

  always_comb begin
    cnt_o = '0;
    cnt_o[cni_cq_pkg::C_TX_MSGS]    = ts_q == TPush;
    cnt_o[cni_cq_pkg::C_TX_CLOSED]  = ts_q == TCheck && h_bad[0];
    cnt_o[cni_cq_pkg::C_TX_BAD_LEN] = ts_q == TCheck && !h_bad[0] && h_bad[1];
    cnt_o[cni_cq_pkg::C_TX_BAD_DST] = ts_q == TCheck && !h_bad[0] && !h_bad[1] && h_bad[2];
    cnt_o[cni_cq_pkg::C_TX_OVERRUN] = ts_q == TCheck && h_bad == '0 && t_ready && !h_room &&
                                       !ovr_q;
    cnt_o[cni_cq_pkg::C_TX_EARLY]   = e_trg && ts_q != TOpen && ts_q != TRd0 && ts_q != TChk0;
    cnt_o[cni_cq_pkg::C_VP_OLD]     = ts_q == TChk0 && !t0_ok;
    cnt_o[cni_cq_pkg::C_PULLS]      = go_pull_i;
    cnt_o[cni_cq_pkg::C_LOCKED_WR]  = g_lock;
    cnt_o[cni_cq_pkg::C_RX_STRAY]   = w_clear_i && rs_q != RReady;
  end

  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_cni4 = ^{tq_in_ready, e_t[31:JW], e_r[31:JW]};
  /* verilator lint_on UNUSEDSIGNAL */

  // idle: nothing owed to the host, no line the CPU owns (its back-off runs), nothing to move
  assign idle_o = ts_q == TOpen && ask_q == '0 && own_q == '0 && pl_q == '0 &&
                   !(tq_out_valid && !txm_busy_i) && !(rmsg_valid_i && rq_in_ready) &&
                   ((rs_q == RFree && !rq_out_valid) || rs_q == RReady);
endmodule
