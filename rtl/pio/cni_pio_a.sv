// SPDX-License-Identifier: Apache-2.0
// PIO protocol (a), CPU -> device (docs/pio.md, "Protocol (a)"): on a TRIGGER of the channel's
// trigger line, recall the payload control line and the overflow lines the last message used
// (the shared recall-and-count block), read the header from the control line, recall the
// overflow lines this message uses and were not asked for, read the payload lines and stream
// the message out on pa_* with a fixed 8-byte shift, write the status word into the trigger
// line, ARM(P), RELEASE(T); the roles of the two control lines swap every message.
//
// Parameters:
//   LineBytes, LineIdxW - line size, device line index width
//   ABase, NOvfA        - control lines ABase, ABase+1; overflow lines ABase+2 .. ABase+1+NOvfA
//   RdWait              - cycles from the memory request to its read data
// Ports:
//   ev_*                - the decoded event: TRIGGER / RECALL_DONE, on a control line (which) or
//                         an overflow line, its line
//   creq_o, cop_o, cline_o, cgnt_i - ARM(P), RELEASE(T)
//   rreq_o, rline_o, rgnt_i        - the RECALLs of a round
//   mreq_o, mwe_o, maddr_o, mwdata_o, mgnt_i, mem_rd_i - memory port B (granted when neither
//                         other channel uses it); the read data RdWait cycles after the request
//   pa_*                - the message stream (registered; the consumer may stall)
//   fin_o               - RELEASE(T) granted this cycle; cnt_o the same, registered
//   idle_o              - nothing happens until an event (docs/endpoint.md, "Quiescence")
`default_nettype none
`include "cni_assert.svh"

module cni_pio_a #(
  parameter int LineBytes = 128,
  parameter int LineIdxW  = 12,
  parameter int ABase     = 1536,
  parameter int NOvfA     = 76,
  parameter int RdWait    = 1,
  localparam int DW       = LineBytes * 8,
  localparam int CmdW     = cni_coh_pkg::CMD_W
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  input  wire logic                ev_trig_i,
  input  wire logic                ev_done_i,
  input  wire logic                ev_ctl_i,
  input  wire logic                ev_g_i,
  input  wire logic                ev_ovf_i,
  input  wire logic [LineIdxW-1:0] ev_line_i,
  output logic                     creq_o,
  output logic [CmdW-1:0]          cop_o,
  output logic [LineIdxW-1:0]      cline_o,
  input  wire logic                cgnt_i,
  output logic                     rreq_o,
  output logic [LineIdxW-1:0]      rline_o,
  input  wire logic                rgnt_i,
  output logic                     mreq_o,
  output logic                     mwe_o,
  output logic [LineIdxW-1:0]      maddr_o,
  output logic [DW-1:0]            mwdata_o,
  input  wire logic                mgnt_i,
  input  wire logic [DW-1:0]       mem_rd_i,
  output logic                     pa_valid_o,
  input  wire logic                pa_ready_i,
  output logic [DW-1:0]            pa_data_o,
  output logic [15:0]              pa_len_o,
  output logic                     pa_last_o,
  output logic                     fin_o,
  output logic                     cnt_o,
  output logic                     idle_o
);

  localparam int MLB  = cni_pio_pkg::MAX_LINE_BYTES;
  localparam int HW   = 64;                                 // header / status word bits
  localparam int RcAW = $clog2(NOvfA + 2);
  localparam int CapA = (LineBytes - 8) + NOvfA * LineBytes;  // max message bytes
  localparam logic [31:0] A_LO = 32'(ABase);
  localparam logic [31:0] A_OV = 32'(ABase + 2);
  localparam logic [15:0] LB16 = 16'(LineBytes);

  typedef enum logic [3:0] {
    AIdle, ARecall, AHdr, AHdrWait, AExt, ARcWait, ARead, AWait, AOut, AStatus, AArm, ARel
  } a_state_e;

  a_state_e         a_st_q, a_st_d;
  logic             a_par_q, a_par_d;
  logic             a_pdone;           // the control line's RECALL_DONE is in (the recall block)
  logic             a_dall;            // every RECALL_DONE of the round is in (the recall block)
  logic             a_rc_on;           // the round's recalls are under way
  // Overflow lines the message uses (of the last message until the next header is read).
  logic [RcAW-1:0]  a_nu_q, a_nu_d;
  logic             a_rd_ok;
  logic [RcAW-1:0]  a_b_q, a_b_d;       // beat index
  logic             a_bend_q, a_bend_d;  // a_b_q >= a_nu_q: no overflow line left (a flip-flop)
  logic [15:0]      a_len_q, a_len_d;   // message length (clamped)
  logic [15:0]      a_rem_q, a_rem_d;   // bytes from the current beat on
  // Byte i of a beat carries payload if a_rem_q > i: kept as flip-flops beside a_rem_q (one per
  // byte), so the line-wide output register's mask starts from registers, not compares.
  logic [LineBytes-1:0] a_rm_q, a_rm_d;
  logic             a_clamp_q, a_clamp_d, a_empty_q, a_empty_d;
  logic [47:0]      a_cnt_q;           // messages consumed
  logic [DW-HW-1:0] a_cur_q;           // bytes [8, LineBytes) of the current line
  logic [DW-1:0]    a_nxt_q;
  // The line-wide registers' loads, decided by the state machine: a_cur_q from the read data or
  // from a_nxt_q, a_nxt_q from the read data or zero (no line-wide next-state copies).
  logic             cur_ld, cur_from_rd, nxt_ld, nxt_zero;
  logic             pa_valid_q, pa_valid_d, pa_last_q, pa_last_d;
  logic [DW-1:0]    pa_data_q;
  logic [15:0]      pa_len_q, pa_len_d;
  logic             a_trig, a_pa_free;
  logic [LineIdxW-1:0] a_t_line, a_p_line;
  logic [DW-1:0]    a_beat, a_beat_m;
  logic [15:0]      a_hdr_len;

  assign a_t_line  = LineIdxW'(A_LO + 32'(a_par_q));
  assign a_p_line  = LineIdxW'(A_LO + 32'(!a_par_q));
  assign a_pa_free = !pa_valid_q || pa_ready_i;
  // Beat = bytes [8, LineBytes) of the current line, then bytes [0, 8) of the next one.
  assign a_beat    = {((a_st_q == AWait) ? mem_rd_i[HW-1:0] : a_nxt_q[HW-1:0]), a_cur_q};
  // Only a beat sent (AWait, AOut) uses it: elsewhere a don't-care, which leaves the network as
  // it is and lets a simulator skip the masking.
  always_comb begin
    a_beat_m = 'x;
    if (a_st_q == AWait || a_st_q == AOut) begin
      a_beat_m = a_beat & DW'(cni_pio_pkg::byte_bits(MLB'(a_rm_q)));
    end
  end
  assign a_hdr_len = mem_rd_i[15:0];
  // A TRIGGER on the current trigger line of an idle channel starts it (also in the cycle the
  // previous message finishes, which flips the parity).
  assign a_trig = ev_trig_i && ev_ctl_i && ((a_st_q == AIdle) || fin_o) &&
                  (ev_g_i == (fin_o ? !a_par_q : a_par_q));

  always_comb begin
    a_st_d     = a_st_q;
    a_par_d    = a_par_q;
    a_b_d      = a_b_q;
    a_bend_d   = a_bend_q;
    a_nu_d     = a_nu_q;
    a_len_d    = a_len_q;
    a_rem_d    = a_rem_q;
    a_rm_d     = a_rm_q;
    a_clamp_d  = a_clamp_q;
    a_empty_d  = a_empty_q;
    cur_ld      = 1'b0;
    cur_from_rd = 1'b1;
    nxt_ld      = 1'b0;
    nxt_zero    = 1'b0;
    pa_valid_d = pa_valid_q && !pa_ready_i;
    pa_len_d   = pa_len_q;
    pa_last_d  = pa_last_q;
    fin_o      = 1'b0;
    mreq_o     = 1'b0;
    mwe_o      = 1'b0;
    maddr_o    = a_p_line;
    mwdata_o   = {{(DW-HW){1'b0}}, a_clamp_q, a_empty_q, 14'd0, a_cnt_q + 48'd1};  // status
    creq_o     = 1'b0;
    cop_o      = cni_coh_pkg::CMD_ARM;
    cline_o    = a_p_line;
    unique case (a_st_q)
      AIdle: ;
      ARecall: if (a_pdone) a_st_d = AHdr;
      AHdr: begin
        mreq_o = 1'b1;
        if (mgnt_i) a_st_d = AHdrWait;
      end
      AHdrWait: begin
        if (a_rd_ok) begin
          cur_ld    = 1'b1;
          a_clamp_d = (a_hdr_len > 16'(CapA));
          a_len_d   = (a_hdr_len > 16'(CapA)) ? 16'(CapA) : a_hdr_len;
          a_rem_d   = a_len_d;
          a_rm_d    = LineBytes'(cni_pio_pkg::len_mask(a_hdr_len, CapA, LineBytes));
          a_empty_d = (a_hdr_len == 16'd0);  // CapA > 0: the clamp never empties a message
          a_b_d     = '0;
          a_nu_d    = RcAW'(cni_pio_pkg::ovf_lines(a_len_d, LineBytes));
          a_bend_d  = a_nu_d == '0;
          a_st_d    = AExt;
        end
      end
      // The round takes in the message's own overflow lines, and every RECALL_DONE is awaited:
      // port B reads only recalled lines, and no RECALL_DONE of this round comes in the next.
      AExt: a_st_d = ARcWait;
      ARcWait: if (a_dall) a_st_d = a_empty_q ? AStatus : ARead;
      ARead: begin
        // Line b+1 holds the tail of beat b; past the message's overflow lines it is zero.
        if (!a_bend_q) begin
          mreq_o  = 1'b1;
          maddr_o = LineIdxW'(A_OV + 32'(a_b_q));
          if (mgnt_i) a_st_d = AWait;
        end else begin
          nxt_ld   = 1'b1;
          nxt_zero = 1'b1;
          a_st_d   = AOut;
        end
      end
      AWait, AOut: begin
        if (a_st_q == AOut || a_rd_ok) begin
          if (a_st_q == AWait) nxt_ld = 1'b1;
          if (a_pa_free) begin
            pa_valid_d  = 1'b1;
            pa_len_d   = a_len_q;
            pa_last_d  = (a_rem_q <= LB16);
            cur_ld      = 1'b1;
            cur_from_rd = a_st_q == AWait;
            a_b_d      = a_b_q + 1'b1;
            a_bend_d   = 32'(a_b_q) + 32'd1 >= 32'(a_nu_q);
            a_rem_d    = a_rem_q - LB16;
            a_rm_d     = LineBytes'(cni_pio_pkg::next_mask(a_rem_q, 16'(LineBytes)));
            a_st_d     = (a_rem_q <= LB16) ? AStatus : ARead;
          end else begin
            a_st_d = AOut;
          end
        end
      end
      AStatus: begin
        mreq_o  = 1'b1;
        mwe_o   = 1'b1;
        maddr_o = a_t_line;
        if (mgnt_i) a_st_d = AArm;
      end
      AArm: begin
        creq_o = 1'b1;
        if (cgnt_i) a_st_d = ARel;
      end
      ARel: begin
        creq_o  = 1'b1;
        cop_o   = cni_coh_pkg::CMD_RELEASE;
        cline_o = a_t_line;
        if (cgnt_i) begin
          fin_o   = 1'b1;
          a_par_d = !a_par_q;
          a_st_d  = AIdle;
        end
      end
      default: a_st_d = AIdle;
    endcase
    if (a_trig) a_st_d = ARecall;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_st_q     <= AIdle;
      a_par_q    <= 1'b0;
      a_b_q      <= '0;
      a_bend_q   <= 1'b1;
      a_nu_q     <= '0;
      a_len_q    <= '0;
      a_rem_q    <= '0;
      a_rm_q     <= '0;
      a_clamp_q  <= 1'b0;
      a_empty_q  <= 1'b0;
      a_cnt_q    <= '0;
      pa_valid_q <= 1'b0;
      pa_last_q  <= 1'b0;
      pa_len_q   <= '0;
    end else begin
      a_st_q     <= a_st_d;
      a_par_q    <= a_par_d;
      a_b_q      <= a_b_d;
      a_bend_q   <= a_bend_d;
      a_nu_q     <= a_nu_d;
      a_len_q    <= a_len_d;
      a_rem_q    <= a_rem_d;
      a_rm_q     <= a_rm_d;
      a_clamp_q  <= a_clamp_d;
      a_empty_q  <= a_empty_d;
      // messages consumed: counted from the registered pulse, one cycle after the RELEASE
      // (the next status is written many cycles later)
      if (cnt_o) a_cnt_q <= a_cnt_q + 48'd1;
      pa_valid_q <= pa_valid_d;
      pa_last_q  <= pa_last_d;
      pa_len_q   <= pa_len_d;
    end
  end

  // Datapath registers: no reset. The output data register is loaded with the masked beat in
  // every cycle it is free after (empty, or taken now), beat or not: its contents are used only
  // while pa_valid_q, and a beat is sent only then. So its enable is the output handshake alone.
  always_ff @(posedge clk_i) begin
    if (cur_ld) a_cur_q <= cur_from_rd ? mem_rd_i[DW-1:HW] : a_nxt_q[DW-1:HW];
    if (nxt_ld) a_nxt_q <= nxt_zero ? '0 : mem_rd_i;
    if (a_pa_free) pa_data_q <= a_beat_m;
  end

  // The recalls of a round: the payload control line and the overflow lines the last message
  // used, then the rest of this message's.
  assign a_rc_on = a_st_q == ARecall || a_st_q == AHdr || a_st_q == AHdrWait ||
                   a_st_q == AExt || a_st_q == ARcWait;
  cni_pio_recall #(.LineIdxW(LineIdxW), .Base(ABase), .NOvf(NOvfA)) u_recall (
    .clk_i, .rst_ni,
    .start_i (a_trig), .p_line_i (LineIdxW'(A_LO + 32'(!a_par_d))), .pre_i (a_nu_q),
    .ext_i (a_st_q == AExt), .upto_i (a_nu_q),
    .active_i (a_rc_on),
    .req_o (rreq_o), .line_o (rline_o), .gnt_i (rgnt_i),
    .done_i (ev_done_i), .done_line_i (ev_line_i), .done_ovf_i (ev_ovf_i),
    .cur_p_line_i (a_p_line),
    .p_done_o (a_pdone), .all_done_o (a_dall)
  );

  cni_pio_rd_wait #(.RdWait(RdWait)) u_rd_wait (
    .clk_i, .rst_ni, .wait_i(a_st_q == AHdrWait || a_st_q == AWait), .ok_o(a_rd_ok));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cnt_o <= 1'b0;
    else cnt_o <= fin_o;
  end

  // Quiescence: idle, or every RECALL asked so far and the RECALL_DONEs the state waits for
  // awaited.
  assign idle_o = (a_st_q == AIdle || (a_st_q == ARecall && !a_pdone && !rreq_o) ||
                   (a_st_q == ARcWait && !a_dall && !rreq_o)) && !pa_valid_q && !cnt_o;

  assign pa_valid_o = pa_valid_q;
  assign pa_data_o  = pa_data_q;
  assign pa_len_o   = pa_len_q;
  assign pa_last_o  = pa_last_q;

  `CNI_ASSERT(OvfFlag_A, a_bend_q == (32'(a_b_q) >= 32'(a_nu_q)) ||
                         !(a_st_q inside {ARead, AWait, AOut}),
              "the overflow flag disagrees with its line count")
  `CNI_ASSERT(Used_A, 32'(a_nu_q) <= 32'(NOvfA), "a message uses more overflow lines than exist")
  // (After a message's last beat its count wraps, unused until the next header.)
  // bit i of the mask: a_rem_q > i
  `CNI_ASSERT(Mask_A, MLB'(a_rm_q) == cni_pio_pkg::len_mask(a_rem_q, LineBytes, LineBytes) ||
                      !(a_st_q inside {ARead, AWait, AOut}),
              "a byte mask disagrees with its remaining count")

endmodule
