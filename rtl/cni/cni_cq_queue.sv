// SPDX-License-Identifier: Apache-2.0
// Queue front end of the CNI cache/queue engine (docs/cni.md): the cachable queues of CNI16Q
// and CNI512Q (both homed on the device) and CNI16Qm (the receive queue homed in host memory,
// written through the device caching agent).
//   send:    TX_READY adds to pend; per message: pull (RECALL_DN) every line of slot hd, read
//            line 0 (sense, len, destination checked), read lines 1..n-1, hd + 1, the locked
//            write of SQ_HEAD, the message to the network side. EarlyPull = 1: the SQ lines are
//            SHARED, every ownership request parks (TRIGGER) and is RESUMEd at once, and one of
//            line k of a slot (k >= 1) pulls line k - 1 early
//   receive: a message is written into slot tl when used(tl, sh) < N (else RQ_HEAD is pulled
//            into the shadow sh, again every RQ_POLL cycles): the locked writes of lines
//            1..n-1, then of line 0 with the valid bit (sense), tl + 1. CNI16Qm: CA_WR of lines
//            1..n-1, then (all answered) of line 0; the shadow refreshed by CA_RD_NA of
//            RQ_HEAD; an Error answer closes the endpoint (rx_err_o)
// The command slot, the reset POLICYs and the registers are cni_cq_engine's.
//
// Parameters:
//   Config              - cni_cq_pkg::CFG_CNI16Q, CFG_CNI512Q or CFG_CNI16QM
//   LineBytes, LineIdxW - line size (64 or 128), device line index width
//   Base                - the region's first device line
//   SqLines, RqLines    - send and receive queue lines (power-of-two slots, checked by
//                         cni_cq_engine)
//   MaxNodes            - the network side's node count (the destination check)
//   CaIdW               - id width of the caching agent's request port
//   EarlyPull, ParkMax  - as cni_cq_engine's
// Ports:
//   wval_i[15:0] with w_ready_i (TX_READY written), w_rqb_i (RQ_BASE written), the endpoint's
//   state (open_i, nodes_i, rq_poll_i, rqb_i, err_i)
//   txm_* / rmsg_*: the messages to and from the network side (as cni_cq_ni2w)
//   rq_*_o: the commands it asks for (RESUME, pull, lock, the SQ_HEAD RECALL, the RQ_HEAD
//   refresh), go_*_i: the command slot took that request this cycle
//   evt_*, mem_*, ca_*: the engine bus's event, port-B and caching-agent channels
//   pend_o: STATUS's pend; cnt_o: counter pulses (cni_cq_pkg::C_*); idle_o: nothing to move
`default_nettype none

module cni_cq_queue #(
  parameter int Config    = cni_cq_pkg::CFG_CNI16Q,
  parameter int LineBytes = 128,
  parameter int LineIdxW  = 12,
  parameter int Base      = 0,
  parameter int SqLines   = cni_cq_pkg::sq_bytes(Config) / LineBytes,
  parameter int RqLines   = cni_cq_pkg::rq_bytes(Config) / LineBytes,
  parameter int MaxNodes  = 16,
  parameter int CaIdW     = 4,
  parameter int EarlyPull = 0,
  parameter int ParkMax   = 24,
  localparam int LineBits = LineBytes * 8,
  localparam int MsgBits  = cni_cq_pkg::MSG_BYTES * 8,
  localparam int NC       = cni_cq_pkg::NUM_CNT
) (
  input  wire logic                            clk_i,
  input  wire logic                            rst_ni,
  input  wire logic [15:0]                     wval_i,
  input  wire logic                            w_ready_i,
  input  wire logic                            w_rqb_i,
  input  wire logic                            open_i,
  input  wire logic [7:0]                      nodes_i,
  input  wire logic [15:0]                     rq_poll_i,
  input  wire logic [47:0]                     rqb_i,
  input  wire logic                            err_i,
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
  output logic                                 rq_sqh_o,
  input  wire logic                            go_sqh_i,
  output logic                                 rq_ref_o,
  input  wire logic                            go_ref_i,
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
  output logic                                 ca_req_valid_o,
  input  wire logic                            ca_req_ready_i,
  output logic [cni_coh_pkg::CA_OP_W-1:0]      ca_req_op_o,
  output logic [cni_coh_pkg::ADDR_W-1:0]       ca_req_addr_o,
  output logic [LineBits-1:0]                  ca_req_data_o,
  output logic [LineBytes-1:0]                 ca_req_be_o,
  output logic [CaIdW-1:0]                     ca_req_id_o,
  input  wire logic                            ca_rsp_valid_i,
  output logic                                 ca_rsp_ready_o,
  input  wire logic [CaIdW-1:0]                ca_rsp_id_i,
  input  wire logic [LineBits-1:0]             ca_rsp_data_i,
  input  wire logic                            ca_rsp_err_i,
  output logic                                 rx_err_o,
  output logic [15:0]                          pend_o,
  output logic [NC-1:0]                        cnt_o,
  output logic                                 idle_o
);

  localparam int  B       = cni_cq_pkg::MSG_BYTES / LineBytes;  // lines per slot
  localparam int  BW      = $clog2(B + 1);                     // a count of lines, 0..B
  localparam int  JW      = (B > 1) ? $clog2(B) : 1;            // a line within a slot
  localparam bit  Qm      = Config == cni_cq_pkg::CFG_CNI16QM;  // RQ in host memory
  localparam bit  Ep      = EarlyPull != 0;                     // SQ lines SHARED, early pulls
  localparam int  NS      = SqLines / B;                        // SQ slots
  localparam int  NR      = RqLines / B;                        // RQ slots
  localparam int  LSqHead = Base + cni_cq_pkg::off_sq_head(LineBytes);
  localparam int  LRqHead = Base + cni_cq_pkg::off_rq_head(LineBytes);
  localparam int  LSq     = Base + cni_cq_pkg::off_sq(LineBytes);
  localparam int  LRq     = Base + cni_cq_pkg::off_rq(LineBytes, SqLines);

  localparam int SPW = $clog2(NS) + 1;   // SQ pointer: slot index, pass parity on top
  localparam int RPW = $clog2(NR) + 1;
  localparam int SIW = SPW - 1;
  localparam int RIW = RPW - 1;

  // -- send side ---------------------------------------------------------------------------
  typedef enum logic [2:0] {QIdle, QPull, QRead, QData, QNext} qstate_e;
  qstate_e         qs_q, qs_d;
  logic [SPW-1:0]  hd_q;
  logic [15:0]     pend_q;
  logic [B-1:0]    pt_q;          // lines of slot hd whose pull is still to be presented
  logic [B-1:0]    po_q;          // pulls presented, not done
  logic [JW-1:0]   qj_q;          // the line being read
  logic [BW-1:0]   qn_q;          // lines the message uses
  logic            qdrop_q;       // the message was refused (counted)
  logic            sqh_owe_q, sqh_busy_q;
  wire  [SIW-1:0]  hd_idx   = hd_q[SIW-1:0];
  wire             hd_sense = !hd_q[SPW-1];

  // the lowest line whose pull is to be presented
  logic [JW-1:0] pt_j;
  always_comb begin
    pt_j = '0;
    for (int j = B - 1; j >= 0; j--) if (pt_q[j]) pt_j = JW'(j);
  end
  // EarlyPull: the owed RESUMEs (one per TRIGGER, in order), the early pull requested (ep_v)
  // and the one in flight (ep_busy). QPull presents no pull while an early pull is in flight
  // and no early pull is presented in QPull, so each RECALL_DONE of an SQ line is unambiguous;
  // an early pull waits until no RESUME is owed (a pull of a line with a parked request would
  // turn its grant into a Retry, gap G1).
  logic                ep_v_q, ep_busy_q;
  logic [LineIdxW-1:0] ep_line_q, ep_bline_q;
  logic                rf_out_valid;
  logic [LineIdxW-1:0] rf_out;
  wire q_pull  = qs_q == QPull && pt_q != '0 && !ep_busy_q;
  wire ep_pull = Ep && ep_v_q && !ep_busy_q && qs_q != QPull && !rf_out_valid;
  assign rq_pull_o      = q_pull || ep_pull;
  assign rq_pull_line_o = q_pull ? LineIdxW'(LSq + 32'(hd_idx) * B + 32'(pt_j)) : ep_line_q;
  assign rq_sqh_o       = sqh_owe_q && !sqh_busy_q;
  assign rq_rsm_o       = rf_out_valid;
  assign rq_rsm_line_o  = rf_out;

  // TX_READY: v messages made ready
  wire [15:0] tr_v    = wval_i[15:0];
  wire [16:0] tr_sum  = 17'(pend_q) + 17'(tr_v);
  wire        tr_ok   = w_ready_i && open_i && 32'(tr_sum) <= 32'(NS);

  // the header read from line 0
  wire        l0_ctl  = mem_rdata_i[0];   // the valid bit
  wire [15:0] l0_len  = mem_rdata_i[16 +: 16];
  wire [15:0] l0_dst  = mem_rdata_i[32 +: 16];
  wire [2:0]  l0_bad  = cni_cq_pkg::hdr_check(l0_len, l0_dst, 1'b1, nodes_i, MaxNodes);
  wire        l0_sns  = l0_ctl != hd_sense;
  wire [BW-1:0] l0_n  = BW'((32'(l0_len) + cni_cq_pkg::HDR_BYTES + LineBytes - 1) / LineBytes);

  // -- receive side ------------------------------------------------------------------------
  // RLock writes a message into slot tl: locked writes (device-homed RQ) or, CNI16Qm, CA_WRs
  // through the caching agent; RRef..RRefRead (device) or MRef, MRefRsp (CNI16Qm: CA_RD_NA)
  // read RQ_HEAD into the shadow.
  typedef enum logic [3:0] {RIdle, RRef, RRefWait, RRefRead, RRefData, RPoll, RLock, MRef,
                            MRefRsp} rstate_e;
  rstate_e         rs_q, rs_d;
  logic [RPW-1:0]  tl_q, sh_q;
  logic [B-1:0]    lt_q;          // lines of slot tl whose RECALL is still to be presented
  logic [B-1:0]    lo_q;          // presented, not yet written
  logic [15:0]     poll_q;
  logic            ref_sent_q;
  logic [31:0]     rhw_q;         // CNI16Qm: RQ_HEAD as the caching agent read it
  wire  [RIW-1:0]  tl_idx   = tl_q[RIW-1:0];
  wire             tl_sense = !tl_q[RPW-1];
  wire  [RPW-1:0]  used     = tl_q - sh_q;
  wire             rq_room  = 32'(used) < 32'(NR);
  wire  [15:0]     r_len    = rmsg_i[16 +: 16];
  wire  [BW-1:0]   r_n      = BW'((32'(r_len) + cni_cq_pkg::HDR_BYTES + LineBytes - 1) /
                                  LineBytes);
  // the next lock to present: lines 1..n-1 first, then line 0
  logic [JW-1:0] lt_j;
  always_comb begin
    lt_j = '0;
    for (int j = B - 1; j >= 1; j--) if (lt_q[j]) lt_j = JW'(j);
  end
  assign rq_lock_o      = !Qm && rs_q == RLock && lt_q != '0;
  assign rq_lock_line_o = LineIdxW'(LRq + 32'(tl_idx) * B + 32'(lt_j));
  assign rq_ref_o       = rs_q == RRef && !ref_sent_q;

  // -- events ------------------------------------------------------------------------------
  wire evt_done = evt_valid_i && evt_kind_i == cni_coh_pkg::EVT_RECALL_DONE;
  wire [31:0] e_line = 32'(evt_line_i);
  wire [31:0] e_sq   = e_line - 32'(LSq) - 32'(hd_idx) * B;     // line within slot hd
  wire [31:0] e_rq   = e_line - 32'(LRq) - 32'(tl_idx) * B;     // line within slot tl
  wire e_ep    = Ep && evt_done && ep_busy_q && evt_line_i == ep_bline_q;
  wire e_pull  = evt_done && !e_ep && qs_q == QPull && e_sq < 32'(B) && po_q[JW'(e_sq)];
  // EarlyPull: a TRIGGER of an SQ line (the CPU asks to own it): its RESUME is owed, and line
  // k >= 1 of a slot asks the early pull of line k - 1
  wire [31:0] e_sl   = e_line - 32'(LSq);   // line within the SQ
  wire e_trg  = Ep && evt_valid_i && evt_kind_i == cni_coh_pkg::EVT_TRIGGER &&
                e_sl < 32'(SqLines);
  wire rf_in_ready;
  if (Ep) begin : g_ep
    // as many owed RESUMEs as the home agent can park, so a TRIGGER never waits for room
    cni_fifo #(.Width (LineIdxW), .Depth (ParkMax)) u_rsm (
      .clk_i, .rst_ni,
      .in_valid_i (e_trg), .in_ready_o (rf_in_ready), .in_data_i (evt_line_i),
      .out_valid_o (rf_out_valid), .out_ready_i (go_rsm_i), .out_data_o (rf_out),
      /* verilator lint_off PINCONNECTEMPTY */
      .count_o ()
      /* verilator lint_on PINCONNECTEMPTY */
    );
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ep_v_q     <= 1'b0;
        ep_busy_q  <= 1'b0;
        ep_line_q  <= '0;
        ep_bline_q <= '0;
      end else begin
        if (go_pull_i && !q_pull) begin
          ep_v_q     <= 1'b0;
          ep_busy_q  <= 1'b1;
          ep_bline_q <= ep_line_q;
        end else if (qs_q == QIdle && qs_d == QPull) begin
          ep_v_q <= 1'b0;   // QPull pulls what the request was for
        end else if (e_trg && rf_in_ready && e_sl % B != 0 && !ep_v_q) begin
          ep_v_q    <= 1'b1;
          ep_line_q <= evt_line_i - 1'b1;
        end
        if (e_ep) ep_busy_q <= 1'b0;
      end
    end
  end else begin : g_no_ep
    assign rf_in_ready  = 1'b1;
    assign rf_out_valid = 1'b0;
    assign rf_out       = '0;
    assign ep_v_q       = 1'b0;
    assign ep_busy_q    = 1'b0;
    assign ep_line_q    = '0;
    assign ep_bline_q   = '0;
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_rsm = go_rsm_i;  // no RESUME is asked for
    /* verilator lint_on UNUSEDSIGNAL */
  end
  wire e_lock  = !Qm && evt_done && rs_q == RLock && e_rq < 32'(B) && lo_q[JW'(e_rq)];
  wire e_sqh   = evt_done && sqh_busy_q && e_line == 32'(LSqHead);
  wire e_ref   = evt_done && rs_q == RRefWait && e_line == 32'(LRqHead);
  wire e_held  = e_lock || e_sqh;   // a locked write's event: held until the write is granted

  // -- port B: lock writes, then the RQ_HEAD read, then SQ reads ----------------------------
  wire pb_lock  = e_held;
  wire pb_ref   = !pb_lock && rs_q == RRefRead;
  wire pb_sq    = !pb_lock && !pb_ref && qs_q == QRead;
  // Line j of the message being received as it goes into slot tl: line 0 carries the valid
  // bit, the pass's sense.
  function automatic logic [LineBits-1:0] rq_line(input logic [MsgBits-1:0] img,
                                                  input logic sense, input logic [JW-1:0] j);
    rq_line = img[LineBits * j +: LineBits];
    if (j == '0) rq_line[0] = sense;
  endfunction
  logic [LineBits-1:0] lock_data;
  always_comb begin
    lock_data = '0;
    if (e_sqh) lock_data[31:0] = {hd_q[SPW-1], 31'(hd_idx)};
    else lock_data = rq_line(rmsg_i, tl_sense, e_rq[JW-1:0]);
  end
  assign mem_en_o    = pb_lock || pb_ref || pb_sq;
  assign mem_we_o    = pb_lock;
  assign mem_addr_o  = pb_lock ? evt_line_i
                     : pb_ref ? LineIdxW'(LRqHead)
                     : LineIdxW'(LSq + 32'(hd_idx) * B + 32'(qj_q));
  assign mem_wdata_o = lock_data;
  wire   g_lock = pb_lock && mem_gnt_i;
  wire   g_ref  = pb_ref && mem_gnt_i;
  wire   g_sq   = pb_sq && mem_gnt_i;
  // A locked write's event is taken the cycle after its write: the home agent reads a line in
  // the cycle it looks at a request and decides in the next, so a request looked at in the
  // write's cycle (a read that meets the write, undefined in a block RAM) must still find the
  // line's entry when it is decided. The write clears the line's bit, which releases the event.
  assign evt_ready_o = !e_held && !(e_trg && !rf_in_ready);

  // -- send side: state ----------------------------------------------------------------------
  always_comb begin
    qs_d = qs_q;
    unique case (qs_q)
      QIdle: if (pend_q != '0 && !txm_busy_i) qs_d = QPull;
      QPull: if (pt_q == '0 && po_q == '0) qs_d = QRead;
      QRead: if (g_sq) qs_d = QData;
      QData: begin
        if (qj_q == '0) begin
          if (l0_bad != '0 || l0_sns || l0_n == BW'(1)) qs_d = QNext;
          else qs_d = QRead;
        end else if (BW'(qj_q) + 1'b1 == qn_q) qs_d = QNext;
        else qs_d = QRead;
      end
      QNext: qs_d = QIdle;
      default: qs_d = QIdle;
    endcase
  end
  // Into txm: the header line and the lines read, as they come.
  logic [MsgBits-1:0] qimg_q;
  always_comb begin
    txm_img_o = qimg_q;
  end
  assign txm_load_o = qs_q == QNext && !qdrop_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      qs_q       <= QIdle;
      hd_q       <= '0;
      pend_q     <= '0;
      pt_q       <= '0;
      po_q       <= '0;
      qj_q       <= '0;
      qn_q       <= '0;
      qdrop_q    <= 1'b0;
      sqh_owe_q  <= 1'b0;
      sqh_busy_q <= 1'b0;
    end else begin
      qs_q <= qs_d;
      if (qs_q == QIdle && qs_d == QPull) begin
        pt_q <= '1;
        po_q <= '0;
        qj_q <= '0;
      end
      if (go_pull_i && q_pull) begin
        pt_q[pt_j] <= 1'b0;
        po_q[pt_j] <= 1'b1;
      end
      if (e_pull) po_q[JW'(e_sq)] <= 1'b0;
      if (qs_q == QData) begin
        if (qj_q == '0) begin
          qdrop_q <= l0_bad != '0 || l0_sns;
          qn_q    <= l0_n;
        end
        qj_q <= qj_q + 1'b1;
      end
      if (qs_q == QNext) begin
        hd_q      <= hd_q + 1'b1;
        sqh_owe_q <= 1'b1;
      end
      // pend: TX_READY adds, each message taken from the queue subtracts
      if (w_ready_i && open_i) begin
        pend_q <= (32'(tr_sum) > 32'(NS) ? 16'(NS) : 16'(tr_sum)) - 16'(qs_q == QNext);
      end else if (qs_q == QNext) begin
        pend_q <= pend_q - 1'b1;
      end
      if (go_sqh_i) begin
        sqh_owe_q  <= qs_q == QNext;
        sqh_busy_q <= 1'b1;
      end
      if (e_sqh && g_lock) sqh_busy_q <= 1'b0;
    end
  end
  always_ff @(posedge clk_i) begin
    if (qs_q == QData) qimg_q[LineBits * qj_q +: LineBits] <= mem_rdata_i;
    if (qs_q == QIdle && qs_d == QPull) qimg_q <= '0;
  end

  // -- receive side: state -------------------------------------------------------------------
  always_comb begin
    rs_d = rs_q;
    unique case (rs_q)
      RIdle:    if (rmsg_valid_i && !(Qm && err_i)) rs_d = rq_room ? RLock : Qm ? MRef : RRef;
      RRef:     if (go_ref_i) rs_d = RRefWait;
      RRefWait: if (e_ref) rs_d = RRefRead;
      RRefRead: if (g_ref) rs_d = RRefData;
      RRefData: rs_d = RPoll;
      RPoll:    if (rq_room) rs_d = RIdle;
                else if (poll_q == '0) rs_d = Qm ? MRef : RRef;
      RLock:    if (lt_q == '0 && lo_q == '0) rs_d = RIdle;
      MRef:     if (ca_req_ready_i) rs_d = MRefRsp;
      MRefRsp:  if (ca_rsp_valid_i) rs_d = ca_rsp_err_i ? RIdle : RRefData;
      default:  rs_d = RIdle;
    endcase
  end
  // RQ_HEAD as read: [30:0] slot index, [31] pass parity
  wire [31:0]     rh_word = Qm ? rhw_q : mem_rdata_i[31:0];
  wire [RPW-1:0]  rh_ptr  = {rh_word[31], RIW'(rh_word[30:0])};
  wire            rh_ok   = 32'(rh_word[30:0]) < 32'(NR) && 32'(RPW'(tl_q - rh_ptr)) <= 32'(NR)
                            && 32'(RPW'(rh_ptr - sh_q)) <= 32'(NR);
  // (CNI16Qm after an Error: the endpoint is closed and the message is dropped)
  assign rmsg_ready_o = (rs_q == RLock && lt_q == '0 && lo_q == '0) ||
                      (Qm && rs_q == RIdle && err_i && rmsg_valid_i);

  // -- CNI16Qm: the caching agent's port ---------------------------------------------------
  // RLock: CA_WR of lines 1..n-1 (id = the line), then, every one answered without an Error,
  // of line 0 (docs/cni.md section 5, rule 6: no header is written over a payload line that
  // was not); MRef: CA_RD_NA of RQ_HEAD. Every response is taken at once.
  wire       ca_pay  = rs_q == RLock && lt_q != '0 && (lt_j != '0 || (lo_q == '0 && !err_i));
  wire       ca_drop = Qm && rs_q == RLock && lt_q == B'(1) && lo_q == '0 && err_i;
  wire       ca_take = Qm && ca_pay && ca_req_ready_i;
  wire [31:0] ca_line = 1 + 32'(tl_idx) * B + 32'(lt_j);   // line of the host queue
  assign ca_req_valid_o = Qm && (ca_pay || rs_q == MRef);
  assign ca_req_op_o    = rs_q == MRef ? cni_coh_pkg::CA_RD_NA : cni_coh_pkg::CA_WR;
  assign ca_req_addr_o  = cni_coh_pkg::ADDR_W'(rs_q == MRef ? rqb_i
                                               : rqb_i + 48'(ca_line) * 48'(LineBytes));
  assign ca_req_data_o  = rq_line(rmsg_i, tl_sense, lt_j);
  assign ca_req_be_o    = '1;
  assign ca_req_id_o    = CaIdW'(lt_j);
  assign ca_rsp_ready_o = 1'b1;
  wire   ca_rsp  = Qm && ca_rsp_valid_i;
  assign rx_err_o  = ca_rsp && ca_rsp_err_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rs_q       <= RIdle;
      tl_q       <= '0;
      sh_q       <= '0;
      lt_q       <= '0;
      lo_q       <= '0;
      poll_q     <= '0;
      ref_sent_q <= 1'b0;
      rhw_q      <= '0;
    end else begin
      rs_q <= rs_d;
      if (rs_q == RIdle && rs_d == RLock) begin
        lt_q <= BW'(1) == r_n ? B'(1) : B'((B'(1) << r_n) - 1'b1);
        lo_q <= '0;
      end
      if (go_lock_i || ca_take) begin
        // lines 1..n-1 first; line 0 once they are all presented (CNI16Qm: answered)
        if (lt_j != '0) begin
          lt_q[lt_j] <= 1'b0;
          lo_q[lt_j] <= 1'b1;
        end else begin
          lt_q[0] <= 1'b0;
          lo_q[0] <= 1'b1;
        end
      end
      if (e_lock && g_lock) lo_q[JW'(e_rq)] <= 1'b0;
      if (ca_rsp && rs_q == RLock) lo_q[JW'(ca_rsp_id_i)] <= 1'b0;
      if (ca_drop) lt_q[0] <= 1'b0;   // after an Error: the header is not written
      if (ca_rsp && rs_q == MRefRsp) rhw_q <= ca_rsp_data_i[31:0];
      if (rmsg_ready_o && !(Qm && err_i)) tl_q <= tl_q + 1'b1;
      ref_sent_q <= rs_q == RRef ? (ref_sent_q || go_ref_i) : 1'b0;
      if (rs_q == RRefData && rh_ok) sh_q <= rh_ptr;
      if (w_rqb_i) begin   // a new host queue (written while closed): empty, first pass
        tl_q <= '0;
        sh_q <= '0;
      end
      if (rs_q == RRefData) poll_q <= rq_poll_i;
      else if (rs_q == RPoll && poll_q != '0) poll_q <= poll_q - 1'b1;
    end
  end

  assign pend_o     = pend_q;

  always_comb begin
    cnt_o = '0;
    cnt_o[cni_cq_pkg::C_TX_MSGS]    = qs_q == QNext && !qdrop_q;
    cnt_o[cni_cq_pkg::C_TX_CLOSED]  = w_ready_i && !open_i;
    cnt_o[cni_cq_pkg::C_TX_OVERRUN] = tr_ok ? 1'b0 : (w_ready_i && open_i);
    cnt_o[cni_cq_pkg::C_TX_BAD_LEN] = qs_q == QData && qj_q == '0 && !l0_sns && l0_bad[1];
    cnt_o[cni_cq_pkg::C_TX_BAD_DST] = qs_q == QData && qj_q == '0 && !l0_sns && !l0_bad[1] &&
                                       l0_bad[2];
    cnt_o[cni_cq_pkg::C_TX_BAD_SNS] = qs_q == QData && qj_q == '0 && l0_sns;
    cnt_o[cni_cq_pkg::C_PULLS]      = go_pull_i && q_pull;
    cnt_o[cni_cq_pkg::C_EARLY]      = go_pull_i && !q_pull;
    cnt_o[cni_cq_pkg::C_REFRESHES]  = rs_q == RRefData;
    cnt_o[cni_cq_pkg::C_RX_BAD]     = rs_q == RRefData && !rh_ok;
    cnt_o[cni_cq_pkg::C_LOCKED_WR]  = g_lock;
    cnt_o[cni_cq_pkg::C_RQ_ERR]     = rx_err_o;
  end

  /* verilator lint_off UNUSEDSIGNAL */
  wire unused_cq = ^{l0_bad[0],
                     ca_rsp_id_i,      // ids above the slot's lines are never issued
                     ca_rsp_data_i};   // only RQ_HEAD's word is read
  /* verilator lint_on UNUSEDSIGNAL */

  assign idle_o = qs_q == QIdle && !(pend_q != '0 && !txm_busy_i) && rs_q == RIdle &&
                   !rmsg_valid_i && !sqh_owe_q && !sqh_busy_q && !rf_out_valid && !ep_v_q &&
                   !ep_busy_q;
endmodule
