// SPDX-License-Identifier: Apache-2.0
// PIO protocol (b), device -> CPU (docs/pio.md, "Protocol (b)"): on a TRIGGER of the channel's
// trigger line, recall the other control line and the overflow lines the last message used (the
// shared recall-and-count block); once the message's first beat is offered, recall the overflow
// lines it uses and were not asked for; then take the message from pb_* and write its header and
// payload (inverse 8-byte shift) into the trigger line and the overflow lines, ARM(P),
// RELEASE(T); the roles of the two control lines swap every message.
//
// Parameters:
//   LineBytes, LineIdxW - line size, device line index width
//   BBase, NOvfB        - control lines BBase, BBase+1; overflow lines BBase+2 .. BBase+1+NOvfB
// Ports:
//   ev_*                - the decoded event: TRIGGER / RECALL_DONE, on a control line (which) or
//                         an overflow line, its line
//   creq_o, cop_o, cline_o, cgnt_i - ARM(P), RELEASE(T)
//   rreq_o, rline_o, rgnt_i        - the RECALLs of a round
//   mreq_o, maddr_o, mwdata_o, mgnt_i - memory port B writes (this channel never reads)
//   pb_*                - the message stream in (this block stalls it until a TRIGGER has been
//                         served up to the data phase)
//   fin_o               - RELEASE(T) granted this cycle; cnt_o the same, registered
//   idle_o              - nothing happens until an event or a beat (docs/endpoint.md,
//                         "Quiescence")
`default_nettype none
`include "cni_assert.svh"

module cni_pio_b #(
  parameter int LineBytes = 128,
  parameter int LineIdxW  = 12,
  parameter int BBase     = 1614,
  parameter int NOvfB     = 76,
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
  output logic [LineIdxW-1:0]      maddr_o,
  output logic [DW-1:0]            mwdata_o,
  input  wire logic                mgnt_i,
  input  wire logic                pb_valid_i,
  output logic                     pb_ready_o,
  input  wire logic [DW-1:0]       pb_data_i,
  input  wire logic [15:0]         pb_len_i,
  input  wire logic                pb_last_i,
  output logic                     fin_o,
  output logic                     cnt_o,
  output logic                     idle_o
);

  localparam int MLB  = cni_pio_pkg::MAX_LINE_BYTES;
  localparam int HW   = 64;                                 // header word bits
  localparam int RcBW = $clog2(NOvfB + 2);
  localparam int CapB = (LineBytes - 8) + NOvfB * LineBytes;  // max message bytes
  localparam logic [31:0] B_LO = 32'(BBase);
  localparam logic [15:0] LB16 = 16'(LineBytes);
  localparam logic [15:0] LB8  = 16'(LineBytes - 8);

  typedef enum logic [2:0] {BIdle, BLen, BExt, BRcWait, BRecv, BTail, BArm, BRel} b_state_e;

  b_state_e         b_st_q, b_st_d;
  logic             b_par_q, b_par_d;
  logic             b_dall;            // every RECALL_DONE of the round is in (the recall block)
  // (b) never reads its control line: the recall block's flag that it was recalled is not used.
  /* verilator lint_off UNUSEDSIGNAL */
  logic             b_pdone;
  /* verilator lint_on UNUSEDSIGNAL */
  // Overflow lines the message uses (of the last message until the next one's first beat).
  logic [RcBW-1:0]  b_nu_q, b_nu_d;
  logic [RcBW-1:0]  b_k_q, b_k_d;       // line the next beat completes (0 = trigger line)
  logic             b_kover_q, b_kover_d;  // b_k_q > NOvfB: beats are dropped (a flip-flop)
  logic             b_first_q, b_first_d, b_gotlast_q, b_gotlast_d, b_trunc_q, b_trunc_d;
  logic [15:0]      b_len_q, b_len_d, b_rem_q, b_rem_d;
  // The 8 bytes that lead the next line, as taken from the beat, and which of them carry payload
  // (applied where they are used, so the register's inputs are not masked).
  logic [HW-1:0]    b_carry_q, b_carry_d, b_carry_m;
  logic [HW/8-1:0]  b_ckeep_q, b_ckeep_d;
  logic [31:0]      b_cnt_q;           // messages delivered
  logic             bin_valid_q, bin_valid_d, bin_last_q;
  logic [DW-1:0]    bin_data_q;
  logic [15:0]      bin_lenc_q;        // the beat's header length capped at CapB (a first beat)
  logic             bin_trunc_q;       // ... and whether the cap cut it
  logic             b_trig, b_take, b_drop, b_consume;
  logic [LineIdxW-1:0] b_t_line, b_p_line;
  logic             b_trunc_now;
  logic [15:0]      b_len_now, b_rem_now;
  logic [HW-1:0]    b_carry_now;
  logic [DW-HW-1:0] bin_m;     // the beat's bytes below the 8 that lead the next line, masked
  // The bytes of the beat that still carry payload (byte i: b_rem_now > i), as flip-flops, one
  // per byte, so the line-wide mask starts from registers instead of compares: `bin_lm_q` for
  // a first beat (the header's length capped at CapB, > i), loaded with the beat; `b_rm_q` for
  // the others (b_rem_q > i), kept beside b_rem_q.
  logic [LineBytes-1:0] bin_lm_q, b_rm_q, b_rm_d, b_rm_next, b_keep;

  assign b_t_line    = LineIdxW'(B_LO + 32'(b_par_q));
  assign b_p_line    = LineIdxW'(B_LO + 32'(!b_par_q));
  assign b_trunc_now = bin_trunc_q;
  // Length, remaining bytes and the 8 bytes that lead the line: from the header on the first
  // beat (capped as the beat is loaded), from the registers afterwards.
  assign b_len_now   = b_first_q ? bin_lenc_q : b_len_q;
  assign b_rem_now   = b_first_q ? b_len_now : b_rem_q;
  for (genvar j = 0; j < HW / 8; j++) begin : g_bcarry
    assign b_carry_m[8*j +: 8] = b_ckeep_q[j] ? b_carry_q[8*j +: 8] : 8'h00;
  end
  assign b_carry_now = b_first_q ? {b_cnt_q + 32'd1, 15'd0, b_trunc_now, b_len_now} : b_carry_m;
  assign b_keep = b_first_q ? bin_lm_q : b_rm_q;
  // Only a write of a beat (BRecv) uses it: elsewhere a don't-care, which leaves the network as
  // it is and lets a simulator skip the masking.
  always_comb begin
    bin_m = 'x;
    if (b_st_q == BRecv) begin
      bin_m = bin_data_q[DW-HW-1:0] & (DW-HW)'(cni_pio_pkg::byte_bits(MLB'(b_keep)));
    end
  end
  // after a consume: b_rem_d > i, where b_rem_d is b_rem_now - LineBytes floored at 0
  assign b_rm_next = LineBytes'(cni_pio_pkg::next_mask(b_rem_now, 16'(LineBytes)));
  // A beat past the last overflow line is consumed without a write.
  assign b_drop    = bin_valid_q && b_kover_q;
  assign b_consume = bin_valid_q && (b_drop || mgnt_i);
  assign pb_ready_o = (b_st_q == BRecv) && !b_gotlast_q && (!bin_valid_q || b_consume);
  assign b_take     = pb_valid_i && pb_ready_o;
  assign b_trig     = ev_trig_i && ev_ctl_i && ((b_st_q == BIdle) || fin_o) &&
                      (ev_g_i == (fin_o ? !b_par_q : b_par_q));

  always_comb begin
    b_st_d      = b_st_q;
    b_par_d     = b_par_q;
    b_k_d       = b_k_q;
    b_kover_d   = b_kover_q;
    b_nu_d      = b_nu_q;
    b_first_d   = b_first_q;
    b_gotlast_d = b_gotlast_q || (b_take && pb_last_i);
    b_trunc_d   = b_trunc_q;
    b_len_d     = b_len_q;
    b_rem_d     = b_rem_q;
    b_rm_d      = b_rm_q;
    b_carry_d   = b_carry_q;
    b_ckeep_d   = b_ckeep_q;
    bin_valid_d = b_take || (bin_valid_q && !b_consume);
    fin_o       = 1'b0;
    mreq_o      = 1'b0;
    maddr_o     = (b_k_q == '0) ? b_t_line : LineIdxW'(B_LO + 32'd1 + 32'(b_k_q));
    mwdata_o    = {bin_m, b_carry_now};
    creq_o      = 1'b0;
    cop_o       = cni_coh_pkg::CMD_ARM;
    cline_o     = b_p_line;
    unique case (b_st_q)
      BIdle: ;
      // The first beat is offered (not taken): its length gives the lines the message uses.
      BLen: begin
        if (pb_valid_i) begin
          b_nu_d = RcBW'(cni_pio_pkg::ovf_lines((pb_len_i > 16'(CapB)) ? 16'(CapB) : pb_len_i,
                                               LineBytes));
          b_st_d = BExt;
        end
      end
      BExt: b_st_d = BRcWait;
      BRcWait: if (b_dall) b_st_d = BRecv;
      BRecv: begin
        mreq_o = bin_valid_q && !b_drop;
        if (b_consume) begin
          b_first_d = 1'b0;
          b_trunc_d = b_first_q ? b_trunc_now : b_trunc_q;
          b_len_d   = b_len_now;
          b_rem_d   = (b_rem_now > LB16) ? (b_rem_now - LB16) : 16'd0;
          b_rm_d    = b_rm_next;
          b_carry_d = bin_data_q[DW-1:DW-HW];
          b_ckeep_d = b_keep[LineBytes-1 -: HW/8];
          if (!b_kover_q) begin
            b_k_d     = b_k_q + 1'b1;
            b_kover_d = 32'(b_k_q) == 32'(NOvfB);
          end
          if (bin_last_q) begin
            // The last 8 bytes of this beat still carry payload: they lead line k+1.
            b_st_d = ((b_rem_now > LB8) && (32'(b_k_q) < 32'(NOvfB))) ? BTail : BArm;
          end
        end
      end
      BTail: begin
        mreq_o   = 1'b1;
        mwdata_o = {{(DW-HW){1'b0}}, b_carry_m};
        if (mgnt_i) b_st_d = BArm;
      end
      BArm: begin
        creq_o = 1'b1;
        if (cgnt_i) b_st_d = BRel;
      end
      BRel: begin
        creq_o  = 1'b1;
        cop_o   = cni_coh_pkg::CMD_RELEASE;
        cline_o = b_t_line;
        if (cgnt_i) begin
          fin_o   = 1'b1;
          b_par_d = !b_par_q;
          b_st_d  = BIdle;
        end
      end
      default: b_st_d = BIdle;
    endcase
    if (b_trig) begin
      b_st_d      = BLen;
      b_k_d       = '0;
      b_kover_d   = 1'b0;
      b_first_d   = 1'b1;
      b_gotlast_d = 1'b0;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      b_st_q      <= BIdle;
      b_par_q     <= 1'b0;
      b_k_q       <= '0;
      b_kover_q   <= 1'b0;
      b_nu_q      <= '0;
      b_first_q   <= 1'b1;
      b_gotlast_q <= 1'b0;
      b_trunc_q   <= 1'b0;
      b_len_q     <= '0;
      b_rem_q     <= '0;
      b_rm_q      <= '0;
      b_cnt_q     <= '0;
      bin_valid_q <= 1'b0;
    end else begin
      b_st_q      <= b_st_d;
      b_par_q     <= b_par_d;
      b_k_q       <= b_k_d;
      b_kover_q   <= b_kover_d;
      b_nu_q      <= b_nu_d;
      b_first_q   <= b_first_d;
      b_gotlast_q <= b_gotlast_d;
      b_trunc_q   <= b_trunc_d;
      b_len_q     <= b_len_d;
      b_rem_q     <= b_rem_d;
      b_rm_q      <= b_rm_d;
      // messages delivered: counted from the registered pulse, one cycle after the RELEASE
      // (the next header is written many cycles later)
      if (cnt_o) b_cnt_q <= b_cnt_q + 32'd1;
      bin_valid_q <= bin_valid_d;
    end
  end

  // Datapath registers: no reset. The beat register (data, capped length, last flag, byte mask)
  // is loaded in every cycle after which it is free (empty, or consumed now), beat or not: a beat
  // is taken only then, and the register's contents are used only while `bin_valid_q`. So its
  // enable does not wait for the sender's valid.
  always_ff @(posedge clk_i) begin
    b_carry_q <= b_carry_d;
    b_ckeep_q <= b_ckeep_d;
    if (!bin_valid_q || b_consume) begin
      bin_data_q  <= pb_data_i;
      bin_trunc_q <= pb_len_i > 16'(CapB);
      bin_lenc_q  <= (pb_len_i > 16'(CapB)) ? 16'(CapB) : pb_len_i;
      bin_last_q  <= pb_last_i;
      bin_lm_q    <= LineBytes'(cni_pio_pkg::len_mask(pb_len_i, CapB, LineBytes));
    end
  end

  // The recalls of a round: the other control line and the overflow lines the last message
  // used, then the rest of this message's.
  cni_pio_recall #(.LineIdxW(LineIdxW), .Base(BBase), .NOvf(NOvfB)) u_recall (
    .clk_i, .rst_ni,
    .start_i (b_trig), .p_line_i (LineIdxW'(B_LO + 32'(!b_par_d))), .pre_i (b_nu_q),
    .ext_i (b_st_q == BExt), .upto_i (b_nu_q),
    .active_i (b_st_q == BLen || b_st_q == BExt || b_st_q == BRcWait),
    .req_o (rreq_o), .line_o (rline_o), .gnt_i (rgnt_i),
    .done_i (ev_done_i), .done_line_i (ev_line_i), .done_ovf_i (ev_ovf_i),
    .cur_p_line_i (b_p_line),
    .p_done_o (b_pdone), .all_done_o (b_dall)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cnt_o <= 1'b0;
    else cnt_o <= fin_o;
  end

  // Quiescence: idle, every RECALL asked so far and the first beat or the RECALL_DONEs awaited,
  // or waiting for a beat of the message (inputs).
  assign idle_o = (b_st_q == BIdle || (b_st_q == BLen && !pb_valid_i && !rreq_o) ||
                   (b_st_q == BRcWait && !b_dall && !rreq_o) ||
                   (b_st_q == BRecv && !bin_valid_q && !b_gotlast_q)) && !cnt_o;

  `CNI_ASSERT(Used_A, 32'(b_nu_q) <= 32'(NOvfB), "a message uses more overflow lines than exist")
  `CNI_ASSERT(Written_A, !mreq_o || maddr_o == b_t_line ||
                         32'(maddr_o) <= B_LO + 32'd1 + 32'(b_nu_q),
              "a write of an overflow line the message does not use")
  `CNI_ASSERT(OvfFlag_A, b_kover_q == (32'(b_k_q) > 32'(NOvfB)),
              "the overflow flag disagrees with its line count")
  // bit i of the mask: b_rem_q > i
  `CNI_ASSERT(Mask_A, MLB'(b_rm_q) == cni_pio_pkg::len_mask(b_rem_q, LineBytes, LineBytes),
              "a byte mask disagrees with its remaining count")

endmodule
