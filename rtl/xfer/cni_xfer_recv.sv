// SPDX-License-Identifier: Apache-2.0
// The block-transfer engine's receiving side (docs/xfer.md, "Receiver"): the posted receive
// buffers (bufalloc), the receiver records of the messages being received, each component
// written into the buffer through the caching agent with its coherence action (CA_WR_INV: the
// whole line written at the home, every host copy invalidated), the receive-table entry written
// into the process's table once every line is written, and the replies (ACK after the entry;
// REJECT for a header refused).
//
//   header:  a record of (source, count) exists -> dropped (DUP); the destination slot disabled
//            or without a table -> REJECT PROT; a length and component count that disagree ->
//            REJECT ERR; no posted buffer of (slot, type) holding the length -> REJECT NOBUF; no
//            free record -> REJECT BUSY; else the buffer is taken and a record made (RECV). Taken
//            only when the reply queue has room (a header never waits for a record: the request
//            stream never stops behind a message being received). A memory copy (004 section
//            3.5: its header names the destination D) takes no buffer: [D, D + length) must lie in
//            the slot's receive window (else REJECT PROT), and its first and last lines are
//            written with their bytes outside the message disabled (CA_WR, which merges them).
//   record:  FREE -> RECV (components in order, each written) -> DRAIN (the writes answered)
//            -> ENTRY (its entry owed) -> EWAIT (the entry's write in flight) -> ACKO (its ACK
//            owed; REJECT ERR if a write failed) -> FREE; a memory copy without NOTE goes from
//            DRAIN to ACKO (no entry). An ABORT (the sender could not read its source) ends
//            RECV: the entry, marked failed, returns the buffer, and no reply is sent. A
//            component out of order is dropped (GAP); one with no record too (NOREC).
//   retransmission (docs/xfer.md "Retransmission"): a component after a gap is dropped and
//            answered NACK_GAP(c, exp) once until the record moves on; a header (a resend's,
//            RETX) of a message with a record is dropped; a probe (PROBE) is answered
//            NACK_GAP(c, exp) by a record receiving, NACK_GAP(c, n) by one past it (alive), and
//            NACK_GAP(c, 0) with no record (the resend's header is then judged); a header of a
//            message already acknowledged is answered ACK again: per source node (below
//            MaxNodes) a map of the counts [una, una + Win) completed, una from the headers.
//   ordered: a header with PREV names prev, the sender's earlier ORDERED message of the same pair
//            still unanswered when it left: accepted only when prev is acknowledged or has a
//            record (else REJECT BUSY); with a record, the new record waits in DRAIN until
//            prev's record is freed (after prev's entry), so the process
//            sees the pair's ORDERED messages in the order sent (004 section 3.4.2).
//   entries: one at a time; the table's head (the driver's count of entries taken, word 0 of
//            the table's line 0) is read (CA_RD_NA) only when the shadow says the table is full;
//            a table still full after the read puts its slot aside for RtPoll cycles, and the
//            entries of other slots go on meanwhile.
//
// Parameters:
//   LineBytes - line size; Recs - receiver records (2 .. 6); Bufs - receive-buffer descriptors;
//   Procs     - process slots; RtPoll - cycles between reads of a full table's head line
//   Win       - the senders' count window (their records, XferSendRecs); MaxNodes - sources
//               whose completed counts are kept
// Ports:
//   occ_recv_i                  - emulated occupancy: cycles between components written
//   fr_*                        - a request frame (kind 1 HDR, 2 DATA, 3 ABORT; fr_retx_i: a
//                                 resend's header), held until fr_take_o
//   rw_base_i, rw_size_i        - per slot: the receive window (a memory copy's destination)
//   en_i, rt_base_i, rt_n_i,
//   rt_reset_i                  - per slot: enabled, receive-table base and entries (a power of
//                                 two); a slot's table counts restart (a pulse per slot)
//   bp_*, bufs_free_o           - post a buffer (a pulse), a descriptor is free
//   dw_*, dw_done_*             - a component's line write (id: the record; dw_part_o: some
//                                 bytes disabled, dw_be_o), its answer (err: the home refused it)
//   ew_*, ew_done_i, ew_data_i,
//   ew_err_i                    - an entry write or a head read (ew_rd_o), its answer
//   rp_*                        - a reply to send (held until rp_ready_i)
//   cnt_*                       - one-cycle pulses for the counters
//   idle_o                      - no record live, no reply queued
`default_nettype none

module cni_xfer_recv #(
  parameter int LineBytes = 64,
  parameter int Recs      = 2,
  parameter int Bufs      = 4,
  parameter int Procs     = 4,
  parameter int RtPoll    = 256,
  parameter int Win       = 4,
  parameter int MaxNodes  = 16,
  localparam int LineBits = LineBytes * 8,
  localparam int RW       = (Recs > 1) ? $clog2(Recs) : 1,
  localparam int BW       = (Bufs > 1) ? $clog2(Bufs) : 1,
  localparam int LbW      = $clog2(LineBytes),
  localparam int PW       = $clog2(Procs)
) (
  input  wire logic                     clk_i,
  input  wire logic                     rst_ni,
  input  wire logic [15:0]              occ_recv_i,
  input  wire logic                     fr_valid_i,
  input  wire logic [2:0]               fr_kind_i,
  input  wire logic                     fr_retx_i,
  input  wire logic [15:0]              fr_src_i,
  input  wire logic [15:0]              fr_c_i,
  input  wire logic [15:0]              fr_k_i,
  input  wire logic [LineBits-1:0]      fr_pay_i,
  output logic                          fr_take_o,
  input  wire logic [Procs-1:0]         en_i,
  input  wire logic [Procs-1:0][47:0]   rt_base_i,
  input  wire logic [Procs-1:0][15:0]   rt_n_i,
  input  wire logic [Procs-1:0]         rt_reset_i,
  input  wire logic [Procs-1:0][47:0]   rw_base_i,
  input  wire logic [Procs-1:0][47:0]   rw_size_i,
  input  wire logic                     bp_valid_i,
  input  wire logic [3:0]               bp_pid_i,
  input  wire logic [7:0]               bp_type_i,
  input  wire logic [47:0]              bp_addr_i,
  input  wire logic [23:0]              bp_bytes_i,
  output logic                          bufs_free_o,
  output logic [Procs-1:0][7:0]         posted_o,
  output logic                          dw_valid_o,
  output logic [47:0]                   dw_addr_o,
  output logic [LineBits-1:0]           dw_data_o,
  output logic [2:0]                    dw_rec_o,
  output logic [LineBytes-1:0]          dw_be_o,
  output logic                          dw_part_o,
  input  wire logic                     dw_ready_i,
  input  wire logic                     dw_done_i,
  input  wire logic [2:0]               dw_done_rec_i,
  input  wire logic                     dw_done_err_i,
  output logic                          ew_valid_o,
  output logic                          ew_rd_o,
  output logic [47:0]                   ew_addr_o,
  output logic [LineBits-1:0]           ew_data_o,
  input  wire logic                     ew_ready_i,
  input  wire logic                     ew_done_i,
  input  wire logic [31:0]              ew_data_i,
  input  wire logic                     ew_err_i,
  output logic                          rp_valid_o,
  output logic [2:0]                    rp_kind_o,
  output logic [15:0]                   rp_dst_o,
  output logic [15:0]                   rp_c_o,
  output logic [15:0]                   rp_lo_o,   // NACK_GAP: the gap; REJECT: the reason
  input  wire logic                     rp_ready_i,
  output logic                          cnt_msg_o,
  output logic                          cnt_comp_o,
  output logic                          cnt_nobuf_o,
  output logic                          cnt_busy_o,
  output logic                          cnt_prot_o,
  output logic                          cnt_norec_o,
  output logic                          cnt_gap_o,
  output logic                          cnt_dup_o,
  output logic                          cnt_err_o,
  output logic                          cnt_orph_o,
  output logic                          idle_o
);

  if (Recs < 1 || Recs > 6 || Bufs < 1 || Procs < 2 || Procs > 16)
    $error("cni_xfer_recv: Recs 1..6, Bufs >= 1, Procs 2..16");

  localparam logic [2:0] RFree = 3'd0, RRecv = 3'd1, RDrain = 3'd2, REntry = 3'd3,
                         REwait = 3'd4, RAcko = 3'd5;
  localparam logic [2:0] KHdr = 3'd1, KData = 3'd2, KAbort = 3'd3, KAck = 3'd1, KNack = 3'd2,
                         KReject = 3'd3;
  localparam int WW = $clog2(Win), NW = $clog2(MaxNodes);
  if ((1 << WW) != Win || (1 << NW) != MaxNodes)
    $error("cni_xfer_recv: Win and MaxNodes powers of two");
  localparam logic [2:0] WhyNobuf = 3'd1, WhyBusy = 3'd2, WhyProt = 3'd3, WhyErr = 3'd4;

  // ---- records and buffers ----------------------------------------------------------------------
  logic [Recs-1:0][2:0]  st_q;
  logic [Recs-1:0][15:0] r_src_q, r_c_q, r_n_q, r_exp_q, r_svpid_q;
  logic [Recs-1:0][3:0]  r_pid_q;
  logic [Recs-1:0][7:0]  r_type_q, r_wout_q;
  logic [Recs-1:0][23:0] r_len_q;
  logic [Recs-1:0][47:0] r_buf_q;
  logic [Recs-1:0]       r_err_q;     // a write failed: the entry says so, the reply is REJECT ERR
  logic [Recs-1:0]       r_abort_q;   // the sender aborted: a failed entry and no reply
  logic [Recs-1:0]       r_cp_q, r_note_q;   // a memory copy (r_buf_q: its destination D)
  logic [Recs-1:0]       r_gap_q;     // its NACK_GAP sent (again once a component is taken)
  logic [Recs-1:0]       r_hold_q;    // ORDERED: it waits in DRAIN while record r_pidx_q
  logic [Recs-1:0][15:0] r_prev_q;    // holds its predecessor, count r_prev_q
  logic [Recs-1:0][RW-1:0] r_pidx_q;
  logic [MaxNodes-1:0][15:0]    c_una_q;   // per source: the oldest count not retired there,
  logic [MaxNodes-1:0][Win-1:0] c_map_q;   // and which of [una, una + Win) are acknowledged
  logic [Bufs-1:0]       b_v_q;
  logic [Bufs-1:0][3:0]  b_pid_q;
  logic [Bufs-1:0][7:0]  b_type_q;
  logic [Bufs-1:0][47:0] b_addr_q;
  logic [Bufs-1:0][23:0] b_bytes_q;
  logic [Procs-1:0][31:0] tail_q, head_q;   // entries written; the shadow of the head count
  logic [Procs-1:0]      hwait_q;           // the slot's table was full when its head was read
  logic [15:0]           gate_q;

  // ---- a header -----------------------------------------------------------------------------
  wire [15:0] h_svpid = fr_pay_i[15:0];
  wire [3:0]  h_dpid  = fr_pay_i[19:16];
  wire [7:0]  h_type  = fr_pay_i[39:32];
  wire [23:0] h_len   = fr_pay_i[87:64];
  wire [15:0] h_n     = fr_pay_i[111:96];
  wire        h_probe = fr_pay_i[42];
  wire [15:0] h_una   = fr_pay_i[63:48];
  // the source's completed counts, with those below the header's una retired
  wire            c_trk  = 32'(fr_src_i) < 32'(MaxNodes);
  wire [NW-1:0]   c_s    = NW'(fr_src_i);
  // (una only moves forward: the frames of one sender arrive in order, as go-back-N needs)
  wire [15:0]     c_adv  = h_una - c_una_q[c_s];       // how far una moves
  logic [Win-1:0] c_kept;
  always_comb begin
    for (int i = 0; i < Win; i++) begin
      c_kept[i] = c_map_q[c_s][i] && c_adv < 16'(Win) &&
                  (WW'(i) - WW'(c_una_q[c_s])) >= WW'(c_adv);
    end
  end
  // a first header (neither RETX nor PROBE) is of a new count: never acknowledged, its bit
  // cleared (a bit left from the count's use 2^16 counts before cannot answer for it)
  wire        h_first = !fr_retx_i && !h_probe;
  wire        h_done  = c_trk && !h_first && c_kept[WW'(fr_c_i)] && (fr_c_i - h_una) < 16'(Win);
  wire [Win-1:0] c_next = c_kept & ~(Win'(h_first) << WW'(fr_c_i));   // the map after the header
  // ORDERED with a predecessor prev (PREV; named only while its sender waits for its reply, so
  // never below una): released when acknowledged, or when it has a record (this one then waits
  // for that record); otherwise (refused, or its header lost) this one is refused BUSY
  wire        h_pv    = fr_pay_i[44];
  wire [15:0] h_prev  = fr_pay_i[127:112];
  wire        p_ack   = c_trk && c_kept[WW'(h_prev)] && (h_prev - h_una) < 16'(Win);
  wire        h_cp    = fr_pay_i[40];
  wire        h_note  = fr_pay_i[43];
  wire [47:0] h_dst   = fr_pay_i[175:128];
  wire [48:0] h_end   = 49'(h_dst) + 49'(h_len);
  wire        h_slot_ok = 32'(h_dpid) < 32'(Procs) && en_i[PW'(h_dpid)] &&
                          ((h_cp && !h_note) || rt_n_i[PW'(h_dpid)] != '0);
  // a memory copy's destination inside the slot's receive window
  wire        h_in      = !h_cp || (h_dst >= rw_base_i[PW'(h_dpid)] &&
                          h_end <= 49'(rw_base_i[PW'(h_dpid)]) + 49'(rw_size_i[PW'(h_dpid)]));
  wire [LbW-1:0] h_dd    = h_cp ? h_dst[LbW-1:0] : '0;
  wire [23:0] h_n_want  = (h_len + 24'(h_dd) + 24'(LineBytes - 1)) >> LbW;
  wire        h_n_ok    = h_len != '0 && h_n_want == 24'(h_n);
  logic          dup_any, free_any, buf_any;
  logic [RW-1:0] free_idx;
  logic [BW-1:0] buf_idx;
  logic          m_any;      // a record in RECV of (source, count)
  logic [RW-1:0] m_idx, d_idx;
  logic          p_any;     // a record of (source, prev)
  logic [RW-1:0] p_idx;
  always_comb begin
    dup_any  = 1'b0;
    free_any = 1'b0;
    free_idx = '0;
    m_any    = 1'b0;
    m_idx    = '0;
    d_idx    = '0;
    p_any    = 1'b0;
    p_idx    = '0;
    for (int i = Recs - 1; i >= 0; i--) begin
      if (st_q[i] != RFree && r_src_q[i] == fr_src_i && r_c_q[i] == fr_c_i) begin
        dup_any = 1'b1;
        d_idx   = RW'(i);
        if (st_q[i] == RRecv) begin
          m_any = 1'b1;
          m_idx = RW'(i);
        end
      end
      if (st_q[i] != RFree && r_src_q[i] == fr_src_i && r_c_q[i] == h_prev) begin
        p_any = 1'b1;
        p_idx = RW'(i);
      end
      if (st_q[i] == RFree) begin
        free_any = 1'b1;
        free_idx = RW'(i);
      end
    end
    buf_any = 1'b0;
    buf_idx = '0;
    for (int j = Bufs - 1; j >= 0; j--) begin
      if (b_v_q[j] && b_pid_q[j] == h_dpid && b_type_q[j] == h_type && b_bytes_q[j] >= h_len) begin
        buf_any = 1'b1;
        buf_idx = BW'(j);
      end
    end
  end

  // the reply queue: {kind, reason, destination, count}
  logic       rq_ready;
  logic       rq_push;
  logic [53:0] rq_in;
  logic [53:0] rq_out;
  cni_fifo #(.Width(54), .Depth(4)) u_rq (
    .clk_i, .rst_ni,
    .in_valid_i (rq_push), .in_ready_o (rq_ready), .in_data_i (rq_in),
    .out_valid_o (rp_valid_o), .out_ready_i (rp_ready_i), .out_data_o (rq_out),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o ()
    /* verilator lint_on PINCONNECTEMPTY */
  );
  logic [2:0]  rq_reason;
  logic [15:0] rq_k;
  assign {rp_kind_o, rq_reason, rq_k, rp_dst_o, rp_c_o} = rq_out;
  assign rp_lo_o = rp_kind_o == KNack ? rq_k : 16'(rq_reason);

  wire is_hdr  = fr_valid_i && fr_kind_i == KHdr;
  wire is_data = fr_valid_i && fr_kind_i == KData;
  wire is_abort = fr_valid_i && fr_kind_i == KAbort;
  wire hdr_take = is_hdr && rq_ready;
  // a probe is never taken as a new message: with no record it asks for everything (the
  // resend's header is then judged), NACK_GAP(c, 0); a record receiving answers what it
  // expects, one past receiving NACK_GAP(c, n): received, its entry pending
  wire hdr_acc  = hdr_take && h_slot_ok && h_in && h_n_ok && !dup_any && !h_done && !h_probe &&
                  (h_cp || buf_any) && free_any && (!h_pv || p_any || p_ack);
  wire hdr_rej  = hdr_take && !dup_any && !h_done && !h_probe && !hdr_acc;
  wire hdr_gap  = hdr_take && h_probe && (dup_any || !h_done);
  wire hdr_again = hdr_take && !dup_any && h_done;   // acknowledged before: ACK again
  logic [2:0] why;
  always_comb begin
    if (!h_slot_ok || !h_in) why = WhyProt;
    else if (!h_n_ok) why = WhyErr;
    else if (!h_cp && !buf_any) why = WhyNobuf;
    else why = WhyBusy;
  end

  // ---- a component ----------------------------------------------------------------------------
  wire d_exp  = is_data && m_any && fr_k_i == r_exp_q[m_idx];
  assign dw_valid_o = d_exp && gate_q == '0;
  assign dw_addr_o  = {r_buf_q[m_idx][47:LbW], LbW'(0)} + 48'({fr_k_i, LbW'(0)});
  // a memory copy's bytes outside [D, D + length) in its first and last lines are not written
  wire [LbW-1:0] d_lo = r_buf_q[m_idx][LbW-1:0];
  wire [LbW-1:0] d_hi = d_lo + r_len_q[m_idx][LbW-1:0];
  always_comb begin
    for (int b = 0; b < LineBytes; b++) begin
      dw_be_o[b] = !r_cp_q[m_idx] ||
                   ((fr_k_i != '0 || LbW'(b) >= d_lo) &&
                    (fr_k_i != r_n_q[m_idx] - 16'd1 || d_hi == '0 || LbW'(b) < d_hi));
    end
  end
  assign dw_part_o  = dw_be_o != '1;
  assign dw_data_o  = fr_pay_i;
  assign dw_rec_o   = 3'(m_idx);
  wire   dw_fire    = dw_valid_o && dw_ready_i;
  wire   d_drop     = is_data && !d_exp;   // out of order, or no record
  // a component after a gap: NACK_GAP(c, exp), once until the record takes one
  wire   d_gap      = is_data && m_any && fr_k_i > r_exp_q[m_idx] && !r_gap_q[m_idx] && rq_ready;
  assign fr_take_o  = hdr_take || dw_fire || d_drop || (fr_valid_i && !is_hdr && !is_data);
  wire   abort_hit  = is_abort && m_any;
  // records given up, the rest of their message not coming (a failed entry, no reply): the one
  // an ABORT names (its sender could not read its source), and orphans (docs/xfer.md, "Orphaned
  // records"): a record receiving whose count a header of its source puts below una (its sender
  // has closed it)
  logic [Recs-1:0] orph, give_up;
  always_comb begin
    for (int i = 0; i < Recs; i++) begin
      orph[i]    = st_q[i] == RRecv && hdr_take && !(m_any && m_idx == RW'(i)) &&
                   r_src_q[i] == fr_src_i && (h_una - r_c_q[i] - 16'd1) < 16'h7FFF;
      give_up[i] = orph[i] || (abort_hit && m_idx == RW'(i));
    end
  end
  assign cnt_orph_o = orph != '0;

  // ---- entries ----------------------------------------------------------------------------------
  typedef enum logic [2:0] {EIdle, EWrite, EWait, EHead, EHeadWait} estate_e;
  estate_e       e_q;
  logic [RW-1:0] e_rec_q;
  logic          e_read_q;    // the head was read for this entry and the table is still full
  logic [15:0]   poll_q;
  logic          ent_any;
  logic [RW-1:0] ent_idx;
  logic          ack_any;
  logic [RW-1:0] ack_idx;
  always_comb begin
    ent_any = 1'b0;
    ent_idx = '0;
    ack_any = 1'b0;
    ack_idx = '0;
    for (int i = Recs - 1; i >= 0; i--) begin
      if (st_q[i] == REntry && !hwait_q[PW'(r_pid_q[i])]) begin
        ent_any = 1'b1;
        ent_idx = RW'(i);
      end
      if (st_q[i] == RAcko) begin
        ack_any = 1'b1;
        ack_idx = RW'(i);
      end
    end
  end
  wire [3:0]  e_pid  = r_pid_q[e_rec_q];
  wire [31:0] e_tail = tail_q[e_pid];
  wire [15:0] e_n    = rt_n_i[e_pid];
  wire        e_full = (e_tail - head_q[e_pid]) >= 32'(e_n);
  wire [31:0] e_slot = e_tail & (32'(e_n) - 32'd1);
  // valid: the pass's sense (1 on even passes; the table starts cleared)
  wire        e_sense = (e_tail & 32'(e_n)) == '0;
  // word 0 [1]: the message failed (a write refused, or the sender aborted): the buffer is
  // returned, its contents undefined
  wire [191:0] e_line = {32'd0, r_c_q[e_rec_q], r_src_q[e_rec_q],
                         16'd0, r_buf_q[e_rec_q],
                         8'd0, r_len_q[e_rec_q], r_svpid_q[e_rec_q], r_type_q[e_rec_q], 6'd0,
                         r_err_q[e_rec_q] || r_abort_q[e_rec_q], e_sense};
  assign ew_valid_o = (e_q == EWrite && !e_full) || e_q == EHead;
  assign ew_rd_o    = e_q == EHead;
  assign ew_addr_o  = rt_base_i[e_pid] + (e_q == EHead ? 48'd0 : 48'({e_slot + 32'd1, LbW'(0)}));
  assign ew_data_o  = LineBits'(e_line);
  wire   ew_fire    = ew_valid_o && ew_ready_i;

  // a record owing its ACK sends it when no header's reply takes the queue
  wire f_push   = hdr_rej || hdr_gap || hdr_again || d_gap;   // the frame's own reply
  wire ack_push = ack_any && !f_push && rq_ready;
  assign rq_push = f_push || ack_push;
  always_comb begin
    if (hdr_rej) rq_in = {KReject, why, 16'd0, fr_src_i, fr_c_i};
    else if (hdr_gap) rq_in = {KNack, 3'd0, m_any ? r_exp_q[m_idx] : dup_any ? r_n_q[d_idx] : 16'd0,
                               fr_src_i, fr_c_i};
    else if (hdr_again) rq_in = {KAck, 3'd0, 16'd0, fr_src_i, fr_c_i};
    else if (d_gap) rq_in = {KNack, 3'd0, r_exp_q[m_idx], fr_src_i, fr_c_i};
    else if (r_err_q[ack_idx]) rq_in = {KReject, WhyErr, 16'd0, r_src_q[ack_idx], r_c_q[ack_idx]};
    else rq_in = {KAck, 3'd0, 16'd0, r_src_q[ack_idx], r_c_q[ack_idx]};
  end
  // an ACK sent: its count marked completed at its source
  wire            a_trk = ack_push && !r_err_q[ack_idx] && 32'(r_src_q[ack_idx]) < 32'(MaxNodes);
  wire [NW-1:0]   a_s   = NW'(r_src_q[ack_idx]);

  assign cnt_msg_o   = ack_push && !r_err_q[ack_idx];
  assign cnt_err_o   = (dw_done_i && dw_done_err_i) || (ew_done_i && ew_err_i);
  assign cnt_comp_o  = dw_fire;
  assign cnt_nobuf_o = hdr_rej && why == WhyNobuf;
  assign cnt_busy_o  = hdr_rej && why == WhyBusy;
  assign cnt_prot_o  = hdr_rej && why == WhyProt;
  assign cnt_norec_o = (is_data || is_abort) && !m_any && !dup_any;
  assign cnt_gap_o   = is_data && m_any && !d_exp;
  assign cnt_dup_o   = (hdr_take && (dup_any || h_done)) || (is_data && dup_any && !m_any);

  logic bp_any;
  logic [BW-1:0] bp_idx;
  always_comb begin
    bp_any = 1'b0;
    bp_idx = '0;
    for (int j = Bufs - 1; j >= 0; j--) begin
      if (!b_v_q[j]) begin
        bp_any = 1'b1;
        bp_idx = BW'(j);
      end
    end
  end
  assign bufs_free_o = bp_any;
  always_comb begin
    for (int p = 0; p < Procs; p++) begin
      posted_o[p] = '0;
      for (int j = 0; j < Bufs; j++) posted_o[p] += 8'(b_v_q[j] && b_pid_q[j] == 4'(p));
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q     <= '0;
      r_exp_q  <= '0;
      r_wout_q <= '0;
      b_v_q    <= '0;
      tail_q   <= '0;
      head_q   <= '0;
      gate_q   <= '0;
      e_q      <= EIdle;
      e_rec_q  <= '0;
      e_read_q <= 1'b0;
      poll_q   <= '0;
      hwait_q  <= '0;
      r_err_q  <= '0;
      r_abort_q <= '0;
      r_gap_q   <= '0;
      r_hold_q  <= '0;
      c_una_q   <= '0;
      c_map_q   <= '0;
    end else begin
      // the completed counts: retired below a header's una, marked by an ACK
      if (hdr_take && c_trk) begin
        c_una_q[c_s] <= h_una;
        c_map_q[c_s] <= c_next;
      end
      if (a_trk && hdr_take && c_trk && c_s == a_s) begin   // the same source's header too
        if ((r_c_q[ack_idx] - h_una) < 16'(Win))
          c_map_q[a_s] <= c_next | (Win'(1) << WW'(r_c_q[ack_idx]));
      end else if (a_trk && (r_c_q[ack_idx] - c_una_q[a_s]) < 16'(Win)) begin
        c_map_q[a_s][WW'(r_c_q[ack_idx])] <= 1'b1;
      end
      if (d_gap) r_gap_q[m_idx] <= 1'b1;
      if (hdr_take && m_any) r_gap_q[m_idx] <= 1'b0;   // a resend: a new gap is answered again
      if (gate_q != '0) gate_q <= gate_q - 16'd1;
      // buffers
      if (bp_valid_i && bp_any) begin
        b_v_q[bp_idx]     <= 1'b1;
        b_pid_q[bp_idx]   <= bp_pid_i;
        b_type_q[bp_idx]  <= bp_type_i;
        b_addr_q[bp_idx]  <= bp_addr_i;
        b_bytes_q[bp_idx] <= bp_bytes_i;
      end
      // a header accepted
      if (hdr_acc) begin
        if (!h_cp) b_v_q[buf_idx] <= 1'b0;
        st_q[free_idx]      <= RRecv;
        r_src_q[free_idx]   <= fr_src_i;
        r_c_q[free_idx]     <= fr_c_i;
        r_n_q[free_idx]     <= h_n;
        r_exp_q[free_idx]   <= '0;
        r_svpid_q[free_idx] <= h_svpid;
        r_pid_q[free_idx]   <= h_dpid;
        r_type_q[free_idx]  <= h_type;
        r_len_q[free_idx]   <= h_len;
        r_buf_q[free_idx]   <= h_cp ? h_dst : b_addr_q[buf_idx];
        r_cp_q[free_idx]    <= h_cp;
        r_note_q[free_idx]  <= h_note;
        r_err_q[free_idx]   <= 1'b0;
        r_abort_q[free_idx] <= 1'b0;
        r_gap_q[free_idx]   <= 1'b0;
        r_hold_q[free_idx]  <= h_pv && p_any;
        r_prev_q[free_idx]  <= h_prev;
        r_pidx_q[free_idx]  <= p_idx;
      end
      for (int i = 0; i < Recs; i++) begin
        if (give_up[i]) begin
          r_abort_q[i] <= 1'b1;
          st_q[i]      <= RDrain;
        end
      end
      // components
      if (dw_fire) begin
        r_exp_q[m_idx] <= r_exp_q[m_idx] + 16'd1;
        r_gap_q[m_idx] <= 1'b0;
        gate_q         <= occ_recv_i - 16'(occ_recv_i != '0);  // the next OCC_RECV later
        if (r_exp_q[m_idx] + 16'd1 == r_n_q[m_idx]) st_q[m_idx] <= RDrain;
      end
      if (dw_done_i && dw_done_err_i) r_err_q[RW'(dw_done_rec_i)] <= 1'b1;
      for (int i = 0; i < Recs; i++) begin
        r_wout_q[i] <= r_wout_q[i] + 8'(dw_fire && m_idx == RW'(i)) -
                       8'(dw_done_i && dw_done_rec_i == 3'(i));
        // ORDERED: released when its predecessor's record is free (or holds another message)
        if (st_q[i] != RFree && (st_q[r_pidx_q[i]] == RFree || r_src_q[r_pidx_q[i]] != r_src_q[i] ||
            r_c_q[r_pidx_q[i]] != r_prev_q[i])) r_hold_q[i] <= 1'b0;
        if (st_q[i] == RDrain && r_wout_q[i] == '0 && !r_hold_q[i]) begin
          st_q[i] <= !(r_cp_q[i] && !r_note_q[i]) ? REntry : r_abort_q[i] ? RFree : RAcko;
        end
      end
      // entries
      unique case (e_q)
        EIdle: if (ent_any) begin
          e_rec_q <= ent_idx;
          e_q     <= EWrite;
        end
        EWrite: if (e_full) begin
            // still full after a read of its head: the slot waits aside, other slots go on
            if (e_read_q) hwait_q[PW'(e_pid)] <= 1'b1;
            e_q      <= e_read_q ? EIdle : EHead;
            e_read_q <= 1'b0;
          end else if (ew_fire) begin
            tail_q[e_pid] <= e_tail + 32'd1;
            st_q[e_rec_q] <= REwait;
            e_q           <= EWait;
            e_read_q      <= 1'b0;
          end
        EWait: if (ew_done_i) begin
          // an entry the home refused is not in the table: its place is given back and the
          // message fails (REJECT ERR; its buffer is not returned)
          if (ew_err_i) begin
            tail_q[e_pid]    <= e_tail - 32'd1;
            r_err_q[e_rec_q] <= 1'b1;
          end
          st_q[e_rec_q] <= r_abort_q[e_rec_q] ? RFree : RAcko;
          e_q           <= EIdle;
        end
        EHead: if (ew_fire) e_q <= EHeadWait;
        EHeadWait: if (ew_done_i) begin
          if (ew_err_i) begin   // the head line refused: the shadow kept, the slot waits aside
            hwait_q[PW'(e_pid)] <= 1'b1;
            e_q            <= EIdle;
          end else begin
            head_q[e_pid] <= ew_data_i;
            e_read_q      <= 1'b1;
            e_q           <= EWrite;
          end
        end
        default: e_q <= EIdle;
      endcase
      // slots put aside are tried again every RtPoll cycles
      if (hwait_q == '0) poll_q <= 16'(RtPoll);
      else if (poll_q == '0) hwait_q <= '0;
      else poll_q <= poll_q - 16'd1;
      if (ack_push) st_q[ack_idx] <= RFree;
      for (int p = 0; p < Procs; p++) begin
        if (rt_reset_i[p]) begin
          tail_q[p] <= '0;
          head_q[p] <= '0;
        end
      end
    end
  end

  assign idle_o = st_q == '0 && !rp_valid_o && e_q == EIdle && gate_q == '0 && hwait_q == '0;

endmodule
