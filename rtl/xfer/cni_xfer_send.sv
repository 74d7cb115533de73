// SPDX-License-Identifier: Apache-2.0
// The block-transfer engine's sending side (docs/xfer.md, "Sender"): the sender records of the
// messages committed by XGO, a streamer that sends one message at a time (its header, then its
// line-sized components, from the source lines read coherently through the caching agent with up
// to Lines reads in flight, each at its page's frame: cni_xfer_pages), the replies that close a
// record (ACK, REJECT) and the status-flag write that reports it to the process. Realignment
// (004 section 3.3.3): component k is the message's bytes [k * LineBytes - dd, + LineBytes) (dd:
// a memory copy's destination offset, else 0), joined from two source lines (a carry line holds
// the previous one) shifted by (d - dd) mod LineBytes, d the source's offset; when d < dd the
// first source line makes a component at once.
// A Fetch-and-Op (cm_fop_i) takes a record as a message does, sends FOP_REQ instead of a header
// and components, and reports FOP_RSP's old value in word 1 of the flag (docs/xfer.md).
//
// A committed message takes count c = the next count and record c mod Recs; a count is given
// only while c - una < Recs (una: the oldest count whose record is not free), so a reply finds
// its record without a search and checks the record's full count.
//
//   record: FREE -> QUEUED (commit) -> STREAM (the streamer took it) -> WAIT (last component
//           sent) -> CLOSE (ACK or REJECT: the flag is owed) -> FLAG (its write in flight)
//           -> FREE (the write answered). A REJECT (or a resend's ACK) while streaming stops the
//           stream (no more reads; the reads in flight drain) and the record closes.
//   retransmission (tmo_i != 0: go-back-N, docs/xfer.md "Retransmission"): a NACK_GAP(c, k)
//           makes the record owe a resend from component k (a record being streamed stops,
//           drains, and waits for it); a record in WAIT for tmo_i cycles with no reply owes a
//           probe (its header again, PROBE, no component), up to rmax_i times, then closes with
//           FAIL_TIMEOUT. A Fetch-and-Op's probe is its FOP_REQ again (the home's reply cache
//           answers it again). Resends take the streamer before the queue; they carry RETX.
//   streamer: TIdle -> TInit (OccInit cycles) -> THdr (the header frame) -> TData (components)
//           -> TIdle; TData -> TAbort (rejected, or a source line answered Error: the reads in
//           flight drain) -> TIdle, or -> TKill (an Error after the header left: an ABORT frame
//           frees the receiver's record) -> TIdle.
//
// Parameters:
//   LineBytes - line (component) size; CacheIdW - the caching agent's id width
//   Recs      - sender records (a power of two, >= 2): messages outstanding at this node
//   Lines     - line buffers: source reads in flight (a power of two, 2 .. 8); Procs - slots
// Ports:
//   node_id_i                       - this node (the frames' source)
//   tmo_i, rmax_i                   - retransmission: the reply timeout (cycles, 0: off), probes
//   occ_send_i, occ_init_i,
//   occ_freq_i, occ_fdone_i         - emulated occupancy (cycles): between components; before
//                                     the header; before a FOP_REQ; from FOP_RSP to its flag
//   cm_*                            - a commit (one-cycle pulse, only when cm_ok_o): the
//                                     message's fields; cm_c_o/cm_rec_o its count and record
//   out_o                           - messages outstanding per process slot
//   rp_*                            - a reply received (never held): kind (1 ACK, 2 NACK_GAP,
//                                     3 REJECT, 4 FOP_RSP), count, reason (FOP_RSP: its status),
//                                     the gap (NACK_GAP), the old value (FOP_RSP)
//   pw_*                            - a source piece staged (cni_xfer_pages): its page's
//                                     index in the message and its page frame
//   rd_*                            - a source line read (CA_RD_NA), id = its line buffer
//   rr_*                            - a read's answer
//   fw_*, fw_done_i                 - a status-flag line write (CA_WR_INV), its answer
//   tx_*                            - a frame to send (held until tx_ready_i)
//   cnt_*                           - one-cycle pulses for the counters
//   idle_o                          - no record live
`default_nettype none

module cni_xfer_send #(
  parameter int LineBytes = 64,
  parameter int CacheIdW  = 4,
  parameter int Recs      = 4,
  parameter int Lines     = 4,
  parameter int Procs     = 4,
  localparam int LineBits = LineBytes * 8,
  localparam int FrameB   = 12 + LineBytes,
  localparam int RW       = $clog2(Recs),
  localparam int LW       = $clog2(Lines),
  localparam int LbW      = $clog2(LineBytes)
) (
  input  wire logic                    clk_i,
  input  wire logic                    rst_ni,
  input  wire logic [15:0]             node_id_i,
  input  wire logic [15:0]             tmo_i,
  input  wire logic [7:0]              rmax_i,
  input  wire logic [15:0]             occ_send_i,
  input  wire logic [15:0]             occ_init_i,
  input  wire logic [15:0]             occ_freq_i,
  input  wire logic [15:0]             occ_fdone_i,
  input  wire logic                    cm_valid_i,
  input  wire logic [15:0]             cm_dst_i,
  input  wire logic [3:0]              cm_dpid_i,
  input  wire logic [3:0]              cm_spid_i,
  input  wire logic [15:0]             cm_svpid_i,
  input  wire logic [7:0]              cm_type_i,
  input  wire logic [23:0]             cm_len_i,
  input  wire logic [11:0]             cm_src_i,    // the first piece's offset in its page
  input  wire logic [47:0]             cm_flag_i,
  input  wire logic [1:0]              cm_fop_i,    // 0: a message; else a Fetch-and-Op's op
  input  wire logic [15:0]             cm_word_i,
  input  wire logic [63:0]             cm_arg_i,
  input  wire logic [63:0]             cm_cmp_i,
  input  wire logic                    cm_cp_i,     // a memory copy: its destination address,
  input  wire logic                    cm_note_i,   // and whether it writes an entry too
  input  wire logic                    cm_ord_i,    // ORDERED
  input  wire logic [47:0]             cm_daddr_i,
  input  wire logic                    pw_valid_i,
  input  wire logic [9:0]              pw_page_i,
  input  wire logic [35:0]             pw_pfn_i,
  output logic                         cm_ok_o,
  output logic [15:0]                  cm_c_o,
  output logic [7:0]                   cm_rec_o,
  output logic [Procs-1:0][7:0]        out_o,
  input  wire logic                    rp_valid_i,
  input  wire logic [2:0]              rp_kind_i,
  input  wire logic [15:0]             rp_c_i,
  input  wire logic [2:0]              rp_reason_i,
  input  wire logic [15:0]             rp_k_i,
  input  wire logic [63:0]             rp_old_i,
  output logic                         rd_valid_o,
  output logic [47:0]                  rd_addr_o,
  output logic [CacheIdW-1:0]          rd_id_o,
  input  wire logic                    rd_ready_i,
  input  wire logic                    rr_valid_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [CacheIdW-1:0]     rr_id_i,   // (ids below Lines)
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic [LineBits-1:0]     rr_data_i,
  input  wire logic                    rr_err_i,
  output logic                         fw_valid_o,
  output logic [47:0]                  fw_addr_o,
  output logic [LineBits-1:0]          fw_data_o,
  input  wire logic                    fw_ready_i,
  input  wire logic                    fw_done_i,
  output logic                         tx_valid_o,
  output logic [FrameB*8-1:0]          tx_frame_o,
  output logic [15:0]                  tx_bytes_o,
  output logic [15:0]                  tx_dest_o,
  input  wire logic                    tx_ready_i,
  output logic                         cnt_done_o,
  output logic                         cnt_failed_o,
  output logic                         cnt_comp_o,
  output logic                         cnt_stale_o,
  output logic                         cnt_fop_o,
  output logic                         cnt_retx_o,
  output logic                         idle_o
);

  if (Recs < 2 || (1 << RW) != Recs || Lines < 2 || Lines > 8 || (1 << LW) != Lines ||
      Procs < 2 || Procs > 16 || CacheIdW < 4)
    $error("cni_xfer_send: Recs and Lines powers of two (Lines 2..8), Procs 2..16, CacheIdW >= 4");

  localparam logic [2:0] RFree = 3'd0, RQueued = 3'd1, RStream = 3'd2, RWait = 3'd3,
                         RClose = 3'd4, RFlag = 3'd5;
  localparam logic [2:0] KHdr = 3'd1, KData = 3'd2, KAbort = 3'd3, KFop = 3'd4, KAck = 3'd1,
                         KNack = 3'd2, KReject = 3'd3, KFopRsp = 3'd4;
  // status-flag codes (docs/xfer.md, "Status flags") and REJECT reasons
  localparam logic [7:0] StDone = 8'd1, StProt = 8'd2, StNobuf = 8'd3, StTimeout = 8'd4,
                         StFop = 8'd6, StBusy = 8'd7, StErr = 8'd8;

  // ---- records --------------------------------------------------------------------------------
  logic [Recs-1:0][2:0]  st_q;
  logic [Recs-1:0][15:0] r_c_q, r_dst_q, r_svpid_q, r_n_q, r_nl_q;
  logic [Recs-1:0][LbW-4:0] r_sh_q;    // the realignment's shift, in doublewords
  logic [Recs-1:0]       r_pre_q;    // a memory copy's source offset below its destination's
  logic [Recs-1:0]       r_cp_q, r_note_q, r_ord_q;
  logic [Recs-1:0][47:0] r_daddr_q;
  logic [Recs-1:0][3:0]  r_dpid_q, r_spid_q;
  logic [Recs-1:0][7:0]  r_type_q, r_stat_q;
  logic [Recs-1:0][23:0] r_len_q;
  logic [Recs-1:0][11:0] r_src_q;    // the first source line's offset in its page
  logic [Recs-1:0][47:0] r_flag_q;
  logic [Recs-1:0][1:0] r_op_q;     // a Fetch-and-Op's op (0: a message), word, operands;
  logic [Recs-1:0][15:0] r_word_q;   // r_arg_q then its old value
  logic [Recs-1:0][63:0] r_arg_q, r_cmp_q;
  logic [Recs-1:0]       r_rej_q;
  logic [Recs-1:0]       r_rs_q;     // a resend owed (from r_from_q; r_from_q = n: a probe)
  logic [Recs-1:0]       r_rew_q;    // a NACK_GAP came while it streamed: stop, then resend
  logic [Recs-1:0][15:0] r_from_q, r_tmr_q;
  logic [Recs-1:0][7:0]  r_try_q;    // a REJECT (or a failed read) came while it streamed
  logic [15:0]           next_c_q, una_q;
  logic [Procs-1:0][7:0] out_q;

  wire [RW-1:0] cm_idx = next_c_q[RW-1:0];
  wire [15:0]   in_win = next_c_q - una_q;
  assign cm_ok_o  = in_win < 16'(Recs) && st_q[cm_idx] == RFree;
  assign cm_c_o   = next_c_q;
  assign cm_rec_o = 8'(cm_idx);
  assign out_o    = out_q;
  // components ceil((dd + len) / LineBytes); source lines ceil((offset + len) / LineBytes)
  /* verilator lint_off UNUSEDSIGNAL */
  wire [LbW-1:0] cm_dd = cm_cp_i ? cm_daddr_i[LbW-1:0] : '0;
  wire [23:0] cm_n  = (cm_len_i + 24'(cm_dd) + 24'(LineBytes - 1)) >> LbW;   // (< 2^16)
  wire [23:0] cm_nl = (cm_len_i + 24'(cm_src_i[LbW-1:0]) + 24'(LineBytes - 1)) >> LbW;
  /* verilator lint_on UNUSEDSIGNAL */

  // the queue of committed records, in count order
  logic          q_valid;
  logic [RW-1:0] q_head;
  logic          q_pop;
  cni_fifo #(.Width(RW), .Depth(Recs)) u_q (
    .clk_i, .rst_ni,
    .in_valid_i (cm_valid_i), .in_data_i (cm_idx),
    /* verilator lint_off PINCONNECTEMPTY */
    .in_ready_o (), .count_o (),
    /* verilator lint_on PINCONNECTEMPTY */
    .out_valid_o (q_valid), .out_ready_i (q_pop), .out_data_o (q_head)
  );

  // ---- the streamer ---------------------------------------------------------------------------
  typedef enum logic [2:0] {TIdle, TInit, THdr, TData, TAbort, TKill} tstate_e;
  tstate_e       t_q;
  logic [RW-1:0] a_q;            // the record streamed
  logic [15:0]   gate_q;         // occupancy gate (TInit: before the header; TData: components,
                                 // counting the cycles after a component's until the next may go)
  logic [15:0]   k_iss_q;        // next source line to read
  logic [15:0]   k_stg_q;        // next source line to move out of its line buffer
  logic [15:0]   c_stg_q;        // next component to move into the frame register
  logic [LineBits-1:0] carry_q;  // the previous source line (a realigned message)
  logic [15:0]   k_snt_q;        // components sent
  logic [3:0]    infl_q;         // reads in flight
  logic [Lines-1:0] lval_q;      // a line buffer holds its line's data
  logic          fetch_q;        // a line buffer is being read into the frame register
  logic          primed_q;       // the carry holds the line before the next (a realigned stream)
  logic          retx_q;         // the record streamed is a resend
  logic          f_valid_q;      // the frame register holds a component
  logic          lerr_q;         // a source line of the record streamed answered Error
  logic [FrameB*8-1:0] f_frame_q;

  assign q_pop = t_q == TIdle && q_valid && !rs_any;
  assign cnt_retx_o = t_q == TIdle && rs_any;
  wire         rej = r_rej_q[a_q] || r_rew_q[a_q];   // stop streaming
  wire [15:0]  a_n  = r_n_q[a_q];
  wire [15:0]  a_nl = r_nl_q[a_q];
  wire [LbW-4:0] a_off = r_sh_q[a_q];
  wire [LW-1:0] stg_slot = k_stg_q[LW-1:0];

  // source reads: in order, a line buffer each, once the line's page frame is at hand (before
  // the stream, its first line is presented, so its frame is at hand when the stream starts)
  logic        pg_hit;
  // the first source line of a stream from component k
  wire  [15:0] a_from = r_from_q[a_q];
  wire  [15:0] a_line = r_pre_q[a_q] && a_from != '0 ? a_from - 16'd1 : a_from;
  wire  [15:0] k_rd = t_q == TData ? k_iss_q : a_line;
  cni_xfer_pages #(.Recs(Recs)) u_pages (
    .clk_i, .rst_ni, .pw_valid_i, .pw_page_i, .pw_pfn_i, .cm_valid_i, .cm_rec_i (cm_idx),
    .v_rec_i (a_q), .v_off_i (22'(r_src_q[a_q]) + 22'({k_rd, LbW'(0)})), .hit_o (pg_hit),
    .addr_o (rd_addr_o)
  );
  assign rd_valid_o = t_q == TData && !rej && k_iss_q < a_nl &&
                      (k_iss_q - k_stg_q) < 16'(Lines) && pg_hit;
  assign rd_id_o    = CacheIdW'(k_iss_q[LW-1:0]);
  wire   rd_fire    = rd_valid_o && rd_ready_i;

  // the line buffers
  logic [LineBits-1:0] lb_rd;
  cni_dpram #(.Width(LineBits), .Words(Lines)) u_lines (
    .clk_i,
    .a_en_i (rr_valid_i), .a_we_i (1'b1), .a_addr_i (rr_id_i[LW-1:0]), .a_wd_i (rr_data_i),
    /* verilator lint_off PINCONNECTEMPTY */
    .a_rd_o (),
    /* verilator lint_on PINCONNECTEMPTY */
    .b_en_i (1'b1), .b_we_i (1'b0), .b_addr_i (stg_slot), .b_wd_i ('0), .b_rd_o (lb_rd)
  );

  wire fetch = t_q == TData && !rej && lval_q[stg_slot] && k_stg_q < a_nl && !f_valid_q &&
               !fetch_q;
  // a realigned message's last component, from the carry line alone
  wire flush = t_q == TData && !rej && a_off != '0 && k_stg_q == a_nl && c_stg_q < a_n &&
               !f_valid_q && !fetch_q;
  // the line fetched makes a component: every line of an aligned message, every line but the
  // first of a realigned one
  wire fetch_comp = fetch_q && (a_off == '0 || primed_q);
  // the last component's bytes beyond the message go out as zeros
  wire [LbW-1:0] tail_b = r_len_q[a_q][LbW-1:0] + (r_cp_q[a_q] ? r_daddr_q[a_q][LbW-1:0] : '0);
  // the join: {next line, carry} shifted down by the offset (the next line zero for a flush)
  /* verilator lint_off UNUSEDSIGNAL */
  logic [2*LineBits-1:0] joined;   // (its low line is the component)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [LineBits-1:0]   comp_data;
  always_comb begin
    joined = {(flush ? {LineBits{1'b0}} : lb_rd), carry_q} >> {a_off, 6'd0};
    comp_data = a_off == '0 ? lb_rd : joined[LineBits-1:0];
    if (c_stg_q == a_n - 16'd1 && tail_b != '0) begin
      for (int b = 0; b < LineBytes; b++) if (b >= int'(tail_b)) comp_data[8*b +: 8] = 8'h00;
    end
  end
  wire [7:0]  d_flags = {3'd0, c_stg_q == a_n - 16'd1, 1'b0, KData};
  wire [95:0] d_hdr   = {r_c_q[a_q], c_stg_q, d_flags, cni_amap_pkg::NET_TYPE_XFER_REQ,
                         16'(LineBytes), node_id_i, r_dst_q[a_q]};

  // ORDERED (docs/xfer.md, "Ordered delivery"): prev (cni_xfer_prev)
  logic          a_pv;
  logic [15:0]   a_prev;
  logic [Recs-1:0] r_wait;   // (set with r_close, below)
  cni_xfer_prev #(.Recs(Recs)) u_prev (
    .a_i (a_q), .ord_i (r_ord_q), .wait_i (r_wait), .c_i (r_c_q), .spid_i (r_spid_q),
    .dst_i (r_dst_q), .dpid_i (r_dpid_q), .pv_o (a_pv), .prev_o (a_prev)
  );
  // the header: 32 bytes of payload
  wire [7:0]   h_mode = {3'd0, a_pv, r_note_q[a_q], a_probe, r_ord_q[a_q], r_cp_q[a_q]};
  wire [255:0] h_pay = {80'd0, r_daddr_q[a_q], a_prev, r_n_q[a_q], 8'd0, r_len_q[a_q], una_q,
                        h_mode, r_type_q[a_q], 4'd0, r_spid_q[a_q], 4'd0, r_dpid_q[a_q],
                        r_svpid_q[a_q]};
  // a Fetch-and-Op's request: 32 bytes of payload ([25:24] its epoch, kept in r_daddr_q)
  wire [255:0] o_pay = {48'd0, r_daddr_q[a_q][15:0], r_cmp_q[a_q], r_arg_q[a_q], 16'd0,
                        r_word_q[a_q], r_svpid_q[a_q], 6'd0, r_op_q[a_q], 4'd0, r_dpid_q[a_q]};
  wire         a_fop = r_op_q[a_q] != '0;
  wire         a_probe = r_from_q[a_q] == a_n && !a_fop;   // a header with no component after it
  wire [95:0]  h_hdr = {r_c_q[a_q], 16'd0, 4'd0, retx_q, a_fop ? KFop : KHdr,
                        cni_amap_pkg::NET_TYPE_XFER_REQ, 16'd32, node_id_i, r_dst_q[a_q]};

  // ABORT: no payload; the receiver frees the record and returns the buffer with a failed entry
  wire [95:0]  k_hdr = {r_c_q[a_q], 16'd0, 5'd0, KAbort, cni_amap_pkg::NET_TYPE_XFER_REQ,
                        16'd0, node_id_i, r_dst_q[a_q]};

  wire send_hdr  = t_q == THdr && !rej;
  wire send_kill = t_q == TKill;
  wire send_data = t_q == TData && !rej && f_valid_q && gate_q == '0;
  assign tx_valid_o = send_hdr || send_kill || send_data;
  assign tx_frame_o = send_hdr ? (FrameB*8)'({a_fop ? o_pay : h_pay, h_hdr})
                    : send_kill ? (FrameB*8)'(k_hdr) : f_frame_q;
  assign tx_bytes_o = send_hdr ? 16'd44 : send_kill ? 16'd12 : 16'(FrameB);
  assign tx_dest_o  = r_dst_q[a_q];
  wire   tx_fire    = tx_valid_o && tx_ready_i;
  assign cnt_comp_o = send_data && tx_ready_i;

  wire data_done = t_q == TData && k_snt_q == a_n;
  wire abort_done = t_q == TAbort && infl_q == '0 && !fetch_q;

  // ---- replies --------------------------------------------------------------------------------
  wire [RW-1:0] rp_idx  = rp_c_i[RW-1:0];
  wire          rp_live = st_q[rp_idx] != RFree && st_q[rp_idx] != RQueued &&
                          st_q[rp_idx] != RClose && st_q[rp_idx] != RFlag &&
                          r_c_q[rp_idx] == rp_c_i;
  wire          rp_msg  = rp_live && r_op_q[rp_idx] == '0;
  wire          rp_ack  = rp_valid_i && rp_msg && rp_kind_i == KAck;
  wire          rp_rej  = rp_valid_i && rp_msg && rp_kind_i == KReject;
  wire          rp_end  = (rp_ack || rp_rej) && rp_idx == a_q;   // ends the record streamed
  wire          rp_fop  = rp_valid_i && rp_live && !rp_msg && rp_kind_i == KFopRsp &&
                          st_q[rp_idx] == RWait;
  // NACK_GAP(c, k < n): resend from k; NACK_GAP(c, n): received, its entry pending (alive)
  wire          rp_nk   = rp_valid_i && rp_msg && rp_kind_i == KNack && !r_rej_q[rp_idx];
  wire          rp_nack = rp_nk && rp_k_i < r_n_q[rp_idx];
  assign cnt_stale_o = rp_valid_i && !rp_ack && !rp_rej && !rp_fop && !rp_nk;
  // the resend of a record a NACK_GAP names starts at the lowest gap named since it last ran
  wire [15:0]   nk_from = (r_rs_q[rp_idx] || r_rew_q[rp_idx]) && r_from_q[rp_idx] < rp_k_i ?
                          r_from_q[rp_idx] : rp_k_i;
  // resends first: the lowest record owing one
  logic          rs_any;
  logic [RW-1:0] rs_idx;
  always_comb begin
    rs_any = 1'b0;
    rs_idx = '0;
    for (int i = Recs - 1; i >= 0; i--) begin
      if (st_q[i] == RWait && r_rs_q[i] && !(rp_valid_i && rp_idx == RW'(i))) begin
        rs_any = 1'b1;
        rs_idx = RW'(i);
      end
    end
  end
  // whether a stream's first source line only fills the carry
  wire          a_prime   = r_sh_q[a_q] != '0 && !(r_pre_q[a_q] && a_from == '0);
  // the streamer gives its record back this cycle (a reply then finds it as if waiting)
  wire          hdr_last  = t_q == THdr && (rej || (tx_fire && (a_fop || a_probe)));
  wire          a_leave   = data_done || abort_done || hdr_last;
  wire [7:0]    rej_stat  = rp_reason_i == 3'd1 ? StNobuf : rp_reason_i == 3'd2 ? StBusy :
                          rp_reason_i == 3'd3 ? StProt : StErr;

  // ---- status flags: one write at a time ------------------------------------------------------
  logic          fw_take, fw_busy;
  logic [RW-1:0] close_idx, fw_rec;
  logic [Recs-1:0] r_close, r_fop;
  always_comb begin
    for (int i = 0; i < Recs; i++) begin
      r_wait[i]  = st_q[i] == RWait;
      r_close[i] = st_q[i] == RClose;
      r_fop[i]   = r_op_q[i] != '0;
    end
  end
  cni_xfer_flags #(.LineBytes(LineBytes), .Recs(Recs)) u_flags (
    .clk_i, .rst_ni, .close_i (r_close), .fop_i (r_fop), .flag_i (r_flag_q), .stat_i (r_stat_q),
    .c_i (r_c_q), .old_i (r_arg_q), .occ_fdone_i, .fdone_i (rp_fop), .take_o (fw_take),
    .take_rec_o (close_idx), .done_rec_o (fw_rec), .fw_valid_o, .fw_addr_o, .fw_data_o,
    .fw_ready_i, .fw_done_i, .cnt_done_o, .cnt_fop_o, .cnt_failed_o, .busy_o (fw_busy)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q      <= '0;
      r_rej_q   <= '0;
      r_stat_q  <= '0;
      next_c_q  <= '0;
      una_q     <= '0;
      out_q     <= '0;
      t_q       <= TIdle;
      a_q       <= '0;
      gate_q    <= '0;
      k_iss_q   <= '0;
      k_stg_q   <= '0;
      c_stg_q   <= '0;
      carry_q   <= '0;
      k_snt_q   <= '0;
      infl_q    <= '0;
      lval_q    <= '0;
      fetch_q   <= 1'b0;
      primed_q  <= 1'b0;
      retx_q    <= 1'b0;
      r_rs_q    <= '0;
      r_rew_q   <= '0;
      r_tmr_q   <= '0;
      r_try_q   <= '0;
      f_valid_q <= 1'b0;
      f_frame_q <= '0;
      lerr_q    <= 1'b0;
    end else begin
      // commit
      if (cm_valid_i) begin
        st_q[cm_idx]      <= RQueued;
        r_rej_q[cm_idx]   <= 1'b0;
        r_rs_q[cm_idx]    <= 1'b0;
        r_rew_q[cm_idx]   <= 1'b0;
        r_from_q[cm_idx]  <= '0;
        r_try_q[cm_idx]   <= '0;
        next_c_q          <= next_c_q + 16'd1;
      end
      // una: past every freed count
      if (una_q != next_c_q && st_q[una_q[RW-1:0]] == RFree) una_q <= una_q + 16'd1;
      // per-process outstanding counts
      for (int p = 0; p < Procs; p++) begin
        out_q[p] <= out_q[p] + 8'(cm_valid_i && cm_spid_i == 4'(p)) -
                    8'(fw_done_i && r_spid_q[fw_rec] == 4'(p));
      end

      // replies
      if (rp_ack || rp_rej) begin
        r_stat_q[rp_idx] <= rp_ack ? StDone : rej_stat;
        if (st_q[rp_idx] == RWait) st_q[rp_idx] <= RClose;
        else r_rej_q[rp_idx] <= 1'b1;   // streaming: the streamer stops it
      end
      if (rp_fop) begin
        st_q[rp_idx]     <= RClose;
        r_stat_q[rp_idx] <= rp_reason_i == '0 ? StFop : StProt;
      end

      // the streamer
      if (gate_q != '0) gate_q <= gate_q - 16'd1;
      if (rd_fire) k_iss_q <= k_iss_q + 16'd1;
      infl_q <= infl_q + 4'(rd_fire) - 4'(rr_valid_i);
      if (rr_valid_i) begin
        lval_q[rr_id_i[LW-1:0]] <= 1'b1;
        if (rr_err_i && t_q != TIdle) begin   // a source line answered Error
          r_rej_q[a_q]  <= 1'b1;
          r_stat_q[a_q] <= StErr;
          lerr_q        <= 1'b1;
        end
      end
      fetch_q <= fetch;
      if (fetch) begin
        lval_q[stg_slot] <= 1'b0;
        k_stg_q          <= k_stg_q + 16'd1;
      end
      if (fetch_q) begin
        carry_q  <= lb_rd;
        primed_q <= 1'b1;
      end
      if (fetch_comp || flush) begin
        f_valid_q <= 1'b1;
        f_frame_q <= {comp_data, d_hdr};
        c_stg_q   <= c_stg_q + 16'd1;
      end
      unique case (t_q)
        TIdle: if (rs_any) begin   // a resend: its header (RETX), then from r_from
          a_q          <= rs_idx;
          st_q[rs_idx] <= RStream;
          r_rs_q[rs_idx] <= 1'b0;
          lerr_q       <= 1'b0;
          retx_q       <= 1'b1;
          t_q          <= THdr;
        end else if (q_valid) begin
          a_q          <= q_head;
          st_q[q_head] <= RStream;
          lerr_q       <= 1'b0;
          retx_q       <= 1'b0;
          gate_q       <= r_op_q[q_head] != '0 ? occ_freq_i : occ_init_i;
          t_q          <= TInit;
        end
        TInit: if (gate_q == '0) t_q <= THdr;
        THdr: if (hdr_last) begin   // stopped, or nothing follows
          st_q[a_q]    <= r_rej_q[a_q] || rp_end ? RClose : RWait;
          r_rs_q[a_q]  <= r_rew_q[a_q] && !r_rej_q[a_q];
          r_rew_q[a_q] <= 1'b0;
          r_tmr_q[a_q] <= tmo_i;
          t_q          <= TIdle;
        end else if (tx_fire) begin
          t_q      <= TData;
          carry_q  <= '0;
          k_iss_q  <= a_line;
          k_stg_q  <= a_line;
          c_stg_q  <= r_from_q[a_q];
          k_snt_q  <= r_from_q[a_q];
          primed_q <= !a_prime;
        end
        TData: begin
          if (send_data && tx_ready_i) begin
            f_valid_q <= 1'b0;
            gate_q    <= occ_send_i - 16'(occ_send_i != '0);  // the next goes OCC_SEND later
            k_snt_q   <= k_snt_q + 16'd1;
          end
          if (rej) begin
            t_q <= TAbort;
          end else if (data_done) begin
            // (a REJECT in this very cycle found the record still streaming: it closes it)
            st_q[a_q]    <= rp_end ? RClose : RWait;
            r_tmr_q[a_q] <= tmo_i;
            t_q          <= TIdle;
          end
        end
        TAbort: begin
          f_valid_q <= 1'b0;
          if (abort_done) begin
            lval_q <= '0;
            // a local error after the header: the receiver may hold a record for it
            if (lerr_q) begin
              t_q <= TKill;
            end else begin   // rejected (or acknowledged): closed; a NACK_GAP: the resend
              st_q[a_q]    <= r_rej_q[a_q] || rp_end ? RClose : RWait;
              r_rs_q[a_q]  <= !(r_rej_q[a_q] || rp_end);
              r_rew_q[a_q] <= 1'b0;
              t_q          <= TIdle;
            end
          end
        end
        TKill: if (tx_fire) begin
          st_q[a_q] <= RClose;
          t_q       <= TIdle;
        end
        default: t_q <= TIdle;
      endcase

      // retransmission: the timers of the records waiting for a reply
      for (int i = 0; i < Recs; i++) begin
        if (st_q[i] == RWait && !r_rs_q[i] && tmo_i != '0 && !(rp_valid_i && rp_idx == RW'(i)))
        begin
          if (r_tmr_q[i] != '0) begin
            r_tmr_q[i] <= r_tmr_q[i] - 16'd1;
          end else if (r_try_q[i] >= rmax_i) begin
            st_q[i]     <= RClose;
            r_stat_q[i] <= StTimeout;
          end else begin   // a probe
            r_try_q[i]  <= r_try_q[i] + 8'd1;
            r_from_q[i] <= r_n_q[i];
            r_rs_q[i]   <= 1'b1;
          end
        end
      end
      // a NACK_GAP: a record waiting resends from the gap; one being streamed stops first
      // any NACK_GAP is progress
      if (rp_nk) begin
        r_tmr_q[rp_idx] <= tmo_i;
        r_try_q[rp_idx] <= '0;
      end
      if (rp_nack) begin
        r_from_q[rp_idx] <= nk_from;
        if (st_q[rp_idx] == RWait || (a_q == rp_idx && a_leave)) r_rs_q[rp_idx] <= 1'b1;
        else if (st_q[rp_idx] == RStream) r_rew_q[rp_idx] <= 1'b1;
      end
      if (rp_ack || rp_rej) r_rs_q[rp_idx] <= 1'b0;

      // the flag writes
      if (fw_take) st_q[close_idx] <= RFlag;
      if (fw_done_i) st_q[fw_rec] <= RFree;
    end
  end

  // the records' fields (no reset: read only while the record is live)
  always_ff @(posedge clk_i) begin
    if (cm_valid_i) begin
      r_c_q[cm_idx]     <= next_c_q;
      r_dst_q[cm_idx]   <= cm_dst_i;
      r_svpid_q[cm_idx] <= cm_svpid_i;
      r_n_q[cm_idx]     <= cm_n[15:0];
      r_nl_q[cm_idx]    <= cm_nl[15:0];
      r_sh_q[cm_idx]    <= cm_src_i[LbW-1:3] - cm_dd[LbW-1:3];
      r_pre_q[cm_idx]   <= cm_src_i[LbW-1:0] < cm_dd;
      r_cp_q[cm_idx]    <= cm_cp_i;
      r_note_q[cm_idx]  <= cm_note_i;
      r_ord_q[cm_idx]   <= cm_ord_i;
      r_daddr_q[cm_idx] <= cm_daddr_i;
      r_dpid_q[cm_idx]  <= cm_dpid_i;
      r_spid_q[cm_idx]  <= cm_spid_i;
      r_type_q[cm_idx]  <= cm_type_i;
      r_len_q[cm_idx]   <= cm_len_i;
      r_src_q[cm_idx]   <= {cm_src_i[11:LbW], LbW'(0)};
      r_flag_q[cm_idx]  <= cm_flag_i;
      r_op_q[cm_idx]    <= cm_fop_i;
      r_word_q[cm_idx]  <= cm_word_i;
      r_cmp_q[cm_idx]   <= cm_cmp_i;
    end
    // the operand, then the old value its reply brings
    if (cm_valid_i) r_arg_q[cm_idx] <= cm_arg_i;
    if (rp_fop) r_arg_q[rp_idx] <= rp_old_i;   // (a waiting record: never the one committed)
  end

  assign idle_o = st_q == '0 && t_q == TIdle && !fw_busy && una_q == next_c_q;

endmodule
