// SPDX-License-Identifier: Apache-2.0
// PIO protocol (c): combined request/response invocations on pairs of lines (docs/pio.md,
// "Protocol (c)"). Per pair a parity, a busy and a recalled bit (an event changes its pair's,
// the compute unit's finish its pair's); a FIFO of payload lines to recall and a FIFO of pairs
// whose payload is in memory; one compute unit (memory read, the accelerator, result write,
// ARM(P), RELEASE(T)) shared by every pair.
//
// Parameters:
//   LineBytes, LineIdxW - line size, device line index width
//   CBase, CPairs       - group 0 lines [CBase, CBase+CPairs), group 1 the next CPairs
//   BloomFoldWords      - the accelerator's words per cycle (cni_bloom FoldWords)
//   EvtReg              - 1: what enters the two FIFOs is registered (one cycle later)
//   RdWait              - cycles from the memory request to its read data
// Ports:
//   ev_*          - the decoded event: TRIGGER / RECALL_DONE, in the (c) region, its group,
//                   its pair (ev_cj_i) and the same pair one-hot (ev_coh_i), its line
//   creq_o, cop_o, cline_o, cgnt_i - the completion commands (ARM(P), RELEASE(T)); a request
//                   from flip-flops
//   rreq_o, rline_o, rgnt_i        - RECALLs of payload lines (the recall FIFO's head)
//   mreq_o, mwe_o, maddr_o, mwdata_o, mem_rd_i - memory port B (always granted: the engine's
//                   arbiter serves (c) first); the read data RdWait cycles after the request
//   fin_o         - RELEASE(T) of an invocation granted this cycle
//   idle_o        - the compute unit idle, both FIFOs empty, nothing on its way into them
`default_nettype none
`include "cni_assert.svh"

module cni_pio_c #(
  parameter int LineBytes      = 128,
  parameter int LineIdxW       = 12,
  parameter int CBase          = 1024,
  parameter int CPairs         = 256,
  parameter int BloomFoldWords = LineBytes / 4,
  parameter int EvtReg         = 0,
  parameter int RdWait         = 1,
  localparam int DW            = LineBytes * 8,
  localparam int PairW         = (CPairs > 1) ? $clog2(CPairs) : 1,
  localparam int CmdW          = cni_coh_pkg::CMD_W
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  input  wire logic                ev_trig_i,
  input  wire logic                ev_done_i,
  input  wire logic                ev_c_i,
  input  wire logic                ev_cg_i,
  input  wire logic [PairW-1:0]    ev_cj_i,
  input  wire logic [CPairs-1:0]   ev_coh_i,
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
  input  wire logic [DW-1:0]       mem_rd_i,
  output logic                     fin_o,
  output logic                     idle_o
);

  localparam logic [31:0] C_LO  = 32'(CBase);
  localparam logic [31:0] C_MID = 32'(CBase + CPairs);

  typedef enum logic [2:0] {CIdle, CRdWait, CHash, CArm, CRel} c_state_e;

  c_state_e          st_q, st_d;
  logic [PairW-1:0]  j_q, j_d;       // pair being computed
  logic              tg_q, tg_d;     // its trigger group (= parity)
  logic              fin;            // RELEASE(T) taken: flip parity, clear busy
  logic              creq_now, creq_q;
  logic              rd_ok;
  logic [CPairs-1:0] par_q, busy_q, rdy_q;
  logic              trig, done;

  // ---- per-pair bits -----------------------------------------------------------------------
  // An event in the cycle a pair finishes sees the pair already finished. TRIGGER on the current
  // trigger line of an idle pair starts it; RECALL_DONE on the payload line of a pair being
  // recalled makes it ready. The finish (`fin`, a command grant) is the latest input, so it
  // comes last: `trig` and `done` (what enters the FIFOs) are worked out from the event's pair
  // as it stands and as it would stand finished, and the finish picks one; each pair's next
  // bits are worked out from its own bits and its bit of the event's one-hot pair, both as if
  // the pair does not finish now (`_n`) and as if it does (`_f`: idle, parity flipped), and its
  // finish picks one, the last logic in front of the flip-flops.
  wire ev_jq  = j_q == ev_cj_i;   // the event is on the compute unit's pair
  wire ev_fin = fin && ev_jq;
  wire par_s  = par_q[ev_cj_i];
  wire busy_s = busy_q[ev_cj_i];
  wire rdy_s  = rdy_q[ev_cj_i];
  wire trig_s = ev_trig_i && ev_c_i && !busy_s && (par_s == ev_cg_i);
  wire trig_f = ev_trig_i && ev_c_i && (par_s != ev_cg_i);
  wire done_s = ev_done_i && ev_c_i && busy_s && !rdy_s && (par_s != ev_cg_i);
  assign trig = ev_fin ? trig_f : trig_s;
  assign done = !ev_fin && done_s;

  // (Written on whole vectors rather than as a loop over the pairs: the same gates, and a
  // simulator evaluates a few words instead of one bit at a time, in every cycle.)
  wire [CPairs-1:0] fin_k  = {CPairs{fin}} & (CPairs'(1) << j_q);      // one-hot: the finishing pair
  wire [CPairs-1:0] ev_k   = {CPairs{ev_c_i}} & ev_coh_i;
  wire [CPairs-1:0] same_g = ~(par_q ^ {CPairs{ev_cg_i}});             // parity == the event's group
  wire [CPairs-1:0] busy_n = busy_q | ({CPairs{ev_trig_i}} & ev_k & same_g);
  wire [CPairs-1:0] busy_f = {CPairs{ev_trig_i}} & ev_k & ~same_g;
  wire [CPairs-1:0] rdy_n  = rdy_q | ({CPairs{ev_done_i}} & ev_k & busy_q & ~same_g);
  wire [CPairs-1:0] par_d  = par_q ^ fin_k;
  wire [CPairs-1:0] busy_d = (fin_k & busy_f) | (~fin_k & busy_n);
  wire [CPairs-1:0] rdy_d  = ~fin_k & rdy_n;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      par_q  <= '0;
      busy_q <= '0;
      rdy_q  <= '0;
    end else begin
      par_q  <= par_d;
      busy_q <= busy_d;
      rdy_q  <= rdy_d;
    end
  end

  // ---- the two FIFOs ----------------------------------------------------------------------------
  // What enters them: this cycle's, or (EvtReg) registered, one cycle later (both FIFOs are as
  // deep as there are pairs, so neither needs a ready).
  wire  [31:0]         el = 32'(ev_line_i);
  logic                rec_push, rdy_push;
  logic [LineIdxW-1:0] rec_in;
  logic [PairW:0]      rdy_in;
  // The payload line is the same pair's line in the other group; a ready entry is the pair and
  // its trigger group (the event is on the payload line).
  wire [LineIdxW-1:0] rec_in_n = ev_cg_i ? LineIdxW'(el - 32'(CPairs)) : LineIdxW'(el + 32'(CPairs));
  wire [PairW:0]      rdy_in_n = {!ev_cg_i, ev_cj_i};
  cni_pipe_reg #(.Width(2), .Reg(EvtReg != 0), .Reset(1'b1)) u_push (
    .clk_i, .rst_ni, .en_i(1'b1), .d_i({trig, done}), .q_o({rec_push, rdy_push}));
  cni_pipe_reg #(.Width(LineIdxW + PairW + 1), .Reg(EvtReg != 0)) u_in (
    .clk_i, .rst_ni, .en_i(1'b1), .d_i({rec_in_n, rdy_in_n}), .q_o({rec_in, rdy_in}));

  // Lines to recall: at most one entry per busy pair.
  logic                rec_in_ready;
  logic [$clog2(CPairs+1)-1:0] rec_cnt_unused;
  cni_fifo #(.Width(LineIdxW), .Depth(CPairs)) u_rec_fifo (
    .clk_i, .rst_ni,
    .in_valid_i(rec_push), .in_ready_o(rec_in_ready), .in_data_i(rec_in),
    .out_valid_o(rreq_o), .out_ready_i(rgnt_i), .out_data_o(rline_o),
    .count_o(rec_cnt_unused)
  );

  // Pairs ready to compute: {trigger group, pair}; at most one entry per busy pair.
  logic                rdy_in_ready, rdy_valid, rdy_pop;
  logic [PairW:0]      rdy_out;
  logic [$clog2(CPairs+1)-1:0] rdy_cnt_unused;
  cni_fifo #(.Width(PairW + 1), .Depth(CPairs)) u_rdy_fifo (
    .clk_i, .rst_ni,
    .in_valid_i(rdy_push), .in_ready_o(rdy_in_ready), .in_data_i(rdy_in),
    .out_valid_o(rdy_valid), .out_ready_i(rdy_pop), .out_data_o(rdy_out),
    .count_o(rdy_cnt_unused)
  );

  // ---- compute unit -----------------------------------------------------------------------------
  logic          bloom_in_valid, bloom_out_valid, bloom_out_valid_next;
  logic [DW-1:0] bloom_out;
  cni_bloom #(.LineBytes(LineBytes), .FoldWords(BloomFoldWords)) u_bloom (
    .clk_i, .rst_ni,
    .in_valid_i(bloom_in_valid), .in_data_i(mem_rd_i),
    .out_valid_o(bloom_out_valid), .out_data_o(bloom_out),
    .out_valid_next_o(bloom_out_valid_next)
  );

  // Lines of the pair in the compute unit.
  wire [LineIdxW-1:0] t_line   = LineIdxW'((tg_q ? C_MID : C_LO) + 32'(j_q));
  wire [LineIdxW-1:0] p_line   = LineIdxW'((tg_q ? C_LO : C_MID) + 32'(j_q));
  wire [LineIdxW-1:0] rdy_p_line = LineIdxW'((rdy_out[PairW] ? C_LO : C_MID) +
                                              32'(rdy_out[PairW-1:0]));

  always_comb begin
    st_d           = st_q;
    j_d            = j_q;
    tg_d           = tg_q;
    fin            = 1'b0;
    rdy_pop        = 1'b0;
    bloom_in_valid = 1'b0;
    mreq_o         = 1'b0;
    mwe_o          = 1'b0;
    maddr_o        = rdy_p_line;
    mwdata_o       = bloom_out;
    creq_now       = 1'b0;
    cop_o          = cni_coh_pkg::CMD_ARM;
    cline_o        = p_line;
    unique case (st_q)
      CIdle: begin
        // Read the payload (the CPU's arguments) of the oldest ready pair.
        mreq_o = rdy_valid;
        if (rdy_valid) begin
          rdy_pop = 1'b1;  // the memory port always takes (c)
          j_d     = rdy_out[PairW-1:0];
          tg_d    = rdy_out[PairW];
          st_d    = CRdWait;
        end
      end
      CRdWait: begin
        if (rd_ok) begin
          bloom_in_valid = 1'b1;  // read data is on mem_rd_i this cycle
          st_d           = CHash;
        end
      end
      CHash: begin
        // Write the result into the trigger line and ask for ARM(P) in the same cycle.
        if (bloom_out_valid) begin
          mreq_o   = 1'b1;
          mwe_o    = 1'b1;
          maddr_o  = t_line;
          creq_now = 1'b1;
          st_d     = cgnt_i ? CRel : CArm;
        end
      end
      CArm: begin
        creq_now = 1'b1;
        if (cgnt_i) st_d = CRel;
      end
      CRel: begin
        creq_now = 1'b1;
        cop_o    = cni_coh_pkg::CMD_RELEASE;
        cline_o  = t_line;
        if (cgnt_i) begin
          fin  = 1'b1;
          st_d = CIdle;
        end
      end
      default: st_d = CIdle;
    endcase
  end
  assign fin_o  = fin;
  assign idle_o = st_q == CIdle && !rreq_o && !rdy_valid && !creq_q && !rec_push && !rdy_push;

  // The command request as the arbiter sees it: registered from the next state (in CHash, from
  // the accelerator's result valid of the next cycle), so every grant starts from flip-flops.
  // It equals the request the state machine makes (`creq_now`; simulation checks it).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      creq_q <= 1'b0;
    end else begin
      creq_q <= st_d == CArm || st_d == CRel || (st_d == CHash && bloom_out_valid_next);
    end
  end
  assign creq_o = creq_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= CIdle;
      j_q  <= '0;
      tg_q <= 1'b0;
    end else begin
      st_q <= st_d;
      j_q  <= j_d;
      tg_q <= tg_d;
    end
  end

  // Cycles spent waiting for read data: the state is left when its data is there.
  cni_pio_rd_wait #(.RdWait(RdWait)) u_rd_wait (
    .clk_i, .rst_ni, .wait_i(st_q == CRdWait), .ok_o(rd_ok));

  // Each pair has at most one entry in each FIFO, so they never overflow.
  `CNI_ASSERT(RecFifo_A, !(rec_push && !rec_in_ready), "recall FIFO overflow")
  `CNI_ASSERT(RdyFifo_A, !(rdy_push && !rdy_in_ready), "ready FIFO overflow")
  `CNI_ASSERT(CmdReq_A, creq_q == creq_now, "the registered command request disagrees")
  // the event's pair one-hot is its index's
  `CNI_ASSERT(EvtOneHot_A, !ev_c_i || ev_coh_i == CPairs'(1) << ev_cj_i,
              "the event's one-hot pair disagrees with its index")
  // the event's pair: a TRIGGER that starts it makes it busy, a RECALL_DONE ready
  `CNI_ASSERT(PairUpdate_A,
              trig == (ev_c_i && busy_d[ev_cj_i] && !(busy_q[ev_cj_i] && !fin_k[ev_cj_i])) &&
              done == (ev_c_i && rdy_d[ev_cj_i] && !rdy_q[ev_cj_i]),
              "a pair's update disagrees with the event's")

  // Never used: each FIFO's fill level (bounded by construction, checked above).
  wire unused = ^{rec_cnt_unused, rdy_cnt_unused, rec_in_ready, rdy_in_ready};

endmodule
