// SPDX-License-Identifier: Apache-2.0
// The block-transfer engine's Fetch-and-Op unit at the home (docs/xfer.md, "Fetch-and-Op"):
// seed 004 section 3.6's simple active message. The Fetch-and-Op words are lines of the
// engine's own region, after its register page: device memory, cachable by the node's cores.
// A FOP_REQ names a word of the destination slot's window (P_VPT high: its first word and its
// words), an operation and its operands; the unit recalls the word's line (every host copy
// invalidated, a dirty one written back), reads it through port B, writes the result with the
// line still held (the locked write, docs/protocol.md: RECALL_DONE is taken only the cycle
// after the write, so no host request reads the line in between), and replies FOP_RSP with the
// old value. One operation at a time, in arrival order: each is atomic against the others and
// against every host access. A reply cache (review finding 5) makes a resent request (RETX:
// its sender timed out) idempotent: per source node and sender record (count mod Win) it keeps
// the last count answered, its status and old value; a resent request of that count is answered
// from it again without touching memory, one of an older count is dropped, any other is
// performed. A first request (no RETX) is always performed, so an entry left from the count's
// use 2^16 counts before never answers for it.
//
//   FIdle -> FLook (the cache entry read; the request still held) -> (replayed: FReply; older:
//   dropped, FIdle; else taken and checked) -> FCmd (RECALL of the word's line, held until
//   taken) -> FWait (its RECALL_DONE, not taken) -> FRead (port B read) -> FCalc (the old value) ->
//   FWrite (port B write of the new) -> FTake (RECALL_DONE taken) -> FReply (FOP_RSP, not
//   before OccHome cycles after the request was taken) -> FIdle. A request that fails its checks
//   (the slot disabled, the word outside its window or the region, an unknown op) goes from
//   FIdle to FReply with status PROT and touches no memory.
//
//   op 1 ADD: new = old + arg; 2 SWAP: new = arg; 3 CAS: new = (old == cmp) ? arg : old.
//
// Parameters:
//   LineBytes, LineIdxW - the platform's; FopBase - the first device line of the words
//   FopLines            - lines of Fetch-and-Op words (after the 256-byte register page)
//   Procs               - process slots; Win - the senders' count window (XferSendRecs);
//   MaxNodes            - source nodes whose answers are cached (others are always performed)
// Ports:
//   occ_i                       - emulated occupancy: cycles from taking a request to its reply
//   fq_*                        - a FOP_REQ frame (source node, count, RETX, payload), held
//                                 until taken
//   en_i, first_i, words_i      - per slot: enabled; its window of words
//   evt_*                       - the engine bus's events (RECALL_DONE of the line; others are
//                                 taken and dropped)
//   cmd_*                       - the RECALL command
//   mem_*                       - port B
//   fh_*                        - the reply to send (held until fh_ready_i)
//   cnt_op_o, cnt_prot_o,
//   cnt_dup_o                   - one-cycle pulses: an operation performed; one refused; a resent
//                                 request answered from the cache or dropped as older
//   idle_o                      - no request being served
`default_nettype none

module cni_xfer_fop #(
  parameter int LineBytes = 64,
  parameter int LineIdxW  = 11,
  parameter int FopBase   = 0,
  parameter int FopLines  = 2,
  parameter int Procs     = 4,
  parameter int Win       = 4,
  parameter int MaxNodes  = 16,
  localparam int LineBits = LineBytes * 8,
  localparam int Wpl      = LineBytes / 8,
  localparam int Words    = FopLines * Wpl,
  localparam int WlW      = $clog2(Wpl),
  localparam int PW       = $clog2(Procs),
  localparam int NW       = $clog2(MaxNodes),
  localparam int WW       = $clog2(Win),
  localparam int CW       = NW + WW
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  input  wire logic [15:0]            occ_i,
  input  wire logic                   fq_valid_i,
  input  wire logic [15:0]            fq_src_i,
  input  wire logic [15:0]            fq_c_i,
  input  wire logic                   fq_retx_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [255:0]           fq_pay_i,   // (the sender vpid and the padding unused)
  /* verilator lint_on UNUSEDSIGNAL */
  output logic                        fq_take_o,
  input  wire logic [Procs-1:0]       en_i,
  input  wire logic [Procs-1:0][15:0] first_i,
  input  wire logic [Procs-1:0][15:0] words_i,
  input  wire logic                   evt_valid_i,
  input  wire logic                   evt_done_i,   // the event is a RECALL_DONE
  input  wire logic [LineIdxW-1:0]    evt_line_i,
  output logic                        evt_ready_o,
  output logic                        cmd_valid_o,
  output logic [LineIdxW-1:0]         cmd_line_o,
  input  wire logic                   cmd_ready_i,
  output logic                        mem_en_o,
  output logic                        mem_we_o,
  output logic [LineIdxW-1:0]         mem_addr_o,
  output logic [LineBits-1:0]         mem_wdata_o,
  input  wire logic                   mem_gnt_i,
  input  wire logic [LineBits-1:0]    mem_rdata_i,
  output logic                        fh_valid_o,
  output logic [15:0]                 fh_dst_o,
  output logic [15:0]                 fh_c_o,
  output logic [2:0]                  fh_status_o,
  output logic [63:0]                 fh_old_o,
  input  wire logic                   fh_ready_i,
  output logic                        cnt_op_o,
  output logic                        cnt_prot_o,
  output logic                        cnt_dup_o,
  output logic                        idle_o
);

  if (FopLines < 1 || Procs < 2 || Procs > 16 || Words > 65535 ||
      (1 << $clog2(Win)) != Win || (1 << $clog2(MaxNodes)) != MaxNodes)
    $error("cni_xfer_fop: FopLines >= 1, Procs 2..16, <= 65535 words, Win, MaxNodes powers of 2");

  localparam logic [1:0] OpAdd = 2'd1, OpSwap = 2'd2, OpCas = 2'd3;
  localparam logic [2:0] StOk = 3'd0, StProt = 3'd3;

  typedef enum logic [3:0] {FIdle, FLook, FCmd, FWait, FRead, FCalc, FWrite, FTake,
                            FReply} fstate_e;
  fstate_e             f_q;
  logic [15:0]         src_q, c_q, gate_q;
  logic [1:0]          op_q;
  logic [LineIdxW-1:0] line_q;
  logic [WlW-1:0]      wsel_q;
  logic [63:0]         arg_q, cmp_q, old_q;
  logic [LineBits-1:0] data_q;
  logic [2:0]          status_q;

  // the request: [0] destination slot, [1] op, [3:2] sender vpid, [5:4] word, [15:8] operand,
  // [23:16] CAS's expected value
  wire [3:0]  q_slot = fq_pay_i[3:0];
  wire [7:0]  q_op   = fq_pay_i[15:8];
  wire [15:0] q_word = fq_pay_i[47:32];
  wire [31:0] q_abs  = 32'(first_i[PW'(q_slot)]) + 32'(q_word);
  wire        q_ok   = 32'(q_slot) < 32'(Procs) && en_i[PW'(q_slot)] &&
                       q_word < words_i[PW'(q_slot)] && q_abs < 32'(Words) &&
                       q_op >= 8'd1 && q_op <= 8'd3;
  /* verilator lint_off UNUSEDSIGNAL */
  wire [31:0] q_line = 32'(FopBase) + (q_abs >> WlW);   // (< 2^LineIdxW)
  /* verilator lint_on UNUSEDSIGNAL */

  // the reply cache: {the request's 32-bit count (its epoch, the count's wraps at the sender,
  // and its count), status, old value} per (source node, count mod Win)
  wire          q_trk  = 32'(fq_src_i) < 32'(MaxNodes);
  wire [CW-1:0] q_ci   = {fq_src_i[NW-1:0], fq_c_i[WW-1:0]};
  wire [31:0]   q_id   = {fq_pay_i[207:192], fq_c_i};
  logic [MaxNodes*Win-1:0] rc_v_q;
  logic [CW-1:0] rc_at_q;     // the entry of the request being served
  logic          rc_trk_q;
  logic [31:0]   id_q;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [127:0]  rc_rd;       // (the padding [95:67] unused)
  /* verilator lint_on UNUSEDSIGNAL */
  wire  [31:0]   rc_id  = rc_rd[127:96];
  wire           rc_hit = fq_retx_i && q_trk && rc_v_q[q_ci] && rc_id == q_id;
  // a resend older than the entry's (a late copy), or from a source the cache does not keep
  // (its sender times out, as it would without the cache)
  wire           rc_old = fq_retx_i && (!q_trk || (rc_v_q[q_ci] &&
                          (rc_id - q_id - 32'd1) < 32'h7FFF_FFFF));
  // written when the answer is known: performed (FTake), or refused (its FOP_RSP leaving)
  wire           rc_we  = rc_trk_q && ((f_q == FTake && ours) ||
                                       (f_q == FReply && status_q == StProt && fh_valid_o &&
                                        fh_ready_i));
  cni_dpram #(.Width(128), .Words(MaxNodes * Win)) u_rc (
    .clk_i,
    .a_en_i (rc_we), .a_we_i (1'b1), .a_addr_i (rc_at_q),
    .a_wd_i ({id_q, 29'd0, status_q, old_q}),
    /* verilator lint_off PINCONNECTEMPTY */
    .a_rd_o (),
    /* verilator lint_on PINCONNECTEMPTY */
    .b_en_i (f_q == FIdle), .b_we_i (1'b0), .b_addr_i (q_ci), .b_wd_i ('0), .b_rd_o (rc_rd)
  );

  assign fq_take_o  = fq_valid_i && f_q == FLook;
  assign cnt_op_o   = fq_take_o && !rc_hit && !rc_old && q_ok;
  assign cnt_prot_o = fq_take_o && !rc_hit && !rc_old && !q_ok;
  assign cnt_dup_o  = fq_take_o && (rc_hit || rc_old);

  // the line is held by its RECALL_DONE from FWait until FTake
  wire ours = evt_valid_i && evt_done_i && evt_line_i == line_q;
  assign evt_ready_o = f_q == FTake || !(ours && (f_q == FWait || f_q == FRead ||
                                                 f_q == FCalc || f_q == FWrite));
  assign cmd_valid_o = f_q == FCmd;
  assign cmd_line_o  = line_q;

  logic [63:0] new_v;
  always_comb begin
    unique case (op_q)
      OpAdd:   new_v = old_q + arg_q;
      OpSwap:  new_v = arg_q;
      OpCas:   new_v = old_q == cmp_q ? arg_q : old_q;
      default: new_v = old_q;
    endcase
  end
  logic [LineBits-1:0] wdata;
  always_comb begin
    wdata = data_q;
    wdata[64 * wsel_q +: 64] = new_v;
  end
  assign mem_en_o    = f_q == FRead || f_q == FWrite;
  assign mem_we_o    = f_q == FWrite;
  assign mem_addr_o  = line_q;
  assign mem_wdata_o = wdata;

  assign fh_valid_o  = f_q == FReply && gate_q == '0;
  assign fh_dst_o    = src_q;
  assign fh_c_o      = c_q;
  assign fh_status_o = status_q;
  assign fh_old_o    = old_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      f_q      <= FIdle;
      src_q    <= '0;
      c_q      <= '0;
      gate_q   <= '0;
      op_q     <= '0;
      line_q   <= '0;
      wsel_q   <= '0;
      arg_q    <= '0;
      cmp_q    <= '0;
      old_q    <= '0;
      status_q <= StOk;
      rc_v_q   <= '0;
      rc_at_q  <= '0;
      rc_trk_q <= 1'b0;
      id_q     <= '0;
    end else begin
      if (rc_we) rc_v_q[rc_at_q] <= 1'b1;
      if (gate_q != '0) gate_q <= gate_q - 16'd1;
      unique case (f_q)
        FIdle: if (fq_valid_i) f_q <= FLook;   // the cache entry is read
        FLook: begin
          src_q    <= fq_src_i;
          c_q      <= fq_c_i;
          gate_q   <= occ_i;
          op_q     <= q_op[1:0];
          line_q   <= LineIdxW'(q_line);
          wsel_q   <= q_abs[WlW-1:0];
          arg_q    <= fq_pay_i[127:64];
          cmp_q    <= fq_pay_i[191:128];
          rc_at_q  <= q_ci;
          id_q     <= q_id;
          rc_trk_q <= q_trk && !rc_hit;
          if (rc_hit) begin   // answered again, as before
            old_q    <= rc_rd[63:0];
            status_q <= rc_rd[66:64];
            f_q      <= FReply;
          end else begin
            old_q    <= '0;
            status_q <= q_ok ? StOk : StProt;
            f_q      <= rc_old ? FIdle : q_ok ? FCmd : FReply;
          end
        end
        FCmd:   if (cmd_ready_i) f_q <= FWait;
        FWait:  if (ours) f_q <= FRead;
        FRead:  if (mem_gnt_i) f_q <= FCalc;
        FCalc: begin
          old_q <= mem_rdata_i[64 * wsel_q +: 64];
          f_q   <= FWrite;
        end
        FWrite: if (mem_gnt_i) f_q <= FTake;
        FTake:  if (ours) f_q <= FReply;
        FReply: if (fh_valid_o && fh_ready_i) f_q <= FIdle;
        default: f_q <= FIdle;
      endcase
    end
  end
  // the line read (no reset: read only in FWrite)
  always_ff @(posedge clk_i) if (f_q == FCalc) data_q <= mem_rdata_i;

  assign idle_o = f_q == FIdle;

endmodule
