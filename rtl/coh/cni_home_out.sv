// SPDX-License-Identifier: Apache-2.0
// The home agent's answers (docs/endpoint.md, "Pipeline"): what a decision applied in C sends,
// an answer on RSP and/or DAT and a snoop job, all in one cycle, in the order the decisions
// were applied (a grant before the snoop job of a later message on its line: docs/protocol.md
// rule 8). Without Pipelined the apply stage sends it and waits for the channels (`commit_o`;
// the pipeline stalls). Pipelined, the apply stage applies in every cycle: what it sends goes
// out at once when the queue is empty and the channels take it, else into the output queue,
// whose head is sent first. The queue never overflows: a message takes a credit when it is taken
// and gives it back when it leaves the apply stage with nothing queued or when it leaves the
// queue; there are OutQ credits, so every message between R and the queue's head has a place.
// One message a cycle needs a credit per stage R..C (5).
//
// Parameters:
//   LineBytes, NumAgents, DevBase, TtEntries, Pipelined - as cni_home_agent's
//   LineIdxW, SlotW, NumCnt - as cni_home_decide's (the shared records' widths)
//   OutQ                 - output queue entries (Pipelined)
//   MsgW, DecW, JobW     - (derived) the widths of the records msg_t, dec_t and a snoop job
// Ports (the records as their packed bits):
//   c_valid_i, m_c_i, e_i             - the apply stage holds a message; its message and decision
//   st_valid_i                        - (checks) the stages R, D, X, B, C hold a message
//   take_i                            - a message is taken (it takes a credit)
//   commit_o                          - the apply stage's decision is applied now
//   cred_ok_o                         - a credit is left (a registered flag): a message may be
//                                       taken
//   job_push_o, job_o, job_room_i     - the snoop job of the answer leaving now; the sequencer
//                                       has room for one
//   orsp_*, odat_*                    - the answer channels (the agent's ports; DAT's data is
//                                       the agent's, chosen by f_slot_o and f_data_msg_o)
//   f_slot_o, f_data_msg_o            - the answer leaving now: its data slot, and whether its
//                                       DAT data is the message's (else the memory's line)
//   q_valid_o                         - an answer waits in the queue (quiescence)
`default_nettype none
`include "cni_assert.svh"

module cni_home_out #(
  parameter int          LineBytes = 128,
  parameter int          NumAgents = 16,
  parameter logic [47:0] DevBase   = 48'h10_0000_0000,
  parameter int          TtEntries = 32,
  parameter int          Pipelined = 0,
  parameter int          LineIdxW  = 8,
  parameter int          SlotW     = 4,
  parameter int          NumCnt    = 16,
  parameter int          OutQ      = 8,
  localparam int TtW  = $clog2(TtEntries),
  localparam int MsgW = cni_coh_pkg::home_msg_w(LineIdxW, TtW, SlotW),
  localparam int DecW = cni_coh_pkg::home_dec_w(NumAgents, TtW, cni_amap_pkg::REGION_W, NumCnt),
  localparam int JobW = cni_coh_pkg::home_job_w(NumAgents, TtW)
) (
  // (Pipelined only: the clock and reset, st_valid_i, take_i)
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic                   c_valid_i,
  input  wire logic [MsgW-1:0]        m_c_i,
  input  wire logic [DecW-1:0]        e_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [4:0]             st_valid_i,
  input  wire logic                   take_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic                        commit_o,
  output logic                        cred_ok_o,
  output logic                        job_push_o,
  output logic [JobW-1:0]             job_o,
  input  wire logic                   job_room_i,
  output logic                        orsp_valid_o,
  input  wire logic                   orsp_ready_i,
  output cni_coh_pkg::hdr_t           orsp_hdr_o,
  output logic                        odat_valid_o,
  input  wire logic                   odat_ready_i,
  output cni_coh_pkg::hdr_t           odat_hdr_o,
  output logic [SlotW-1:0]            f_slot_o,
  output logic                        f_data_msg_o,
  output logic                        q_valid_o
);

  localparam bit  P    = Pipelined != 0;

  `include "cni_home_types.svh"

  /* verilator lint_off UNUSEDSIGNAL */
  msg_t m_c;   // (its source and slot)
  dec_t e;     // (what it sends)
  /* verilator lint_on UNUSEDSIGNAL */
  assign m_c = m_c_i;
  assign e   = e_i;
  wire v_c = c_valid_i;

  typedef struct packed {
    logic              rsp, dat, snp;  // an answer on RSP, on DAT; a snoop job
    logic              data_msg;       // DAT data: the message's, else the memory's
    logic              tmo;            // a park timeout's Retry (the formal harness probes it)
    cni_coh_pkg::hdr_t rsp_hdr, dat_hdr;
    logic [SlotW-1:0]  slot;           // Pipelined: where its line-wide data is
    logic [JobW-1:0]   job;
  } ans_t;
  ans_t e_ans, q_ans;      // the apply stage's; the queue's head
  ans_t f;                 // the one sent now, the front
  logic q_valid, f_valid, f_fire;
  always_comb begin
    e_ans          = '0;
    e_ans.rsp      = e.out_rsp;
    e_ans.dat      = e.out_dat;
    e_ans.snp      = e.snp;
    e_ans.data_msg = e.data_msg;
    e_ans.tmo      = m_c.src == SRC_TMO;
    e_ans.rsp_hdr  = e.rsp_hdr;
    e_ans.dat_hdr  = e.dat_hdr;
    e_ans.slot     = m_c.slot;
    e_ans.job      = {e.snp_vec, e.snp_rest, e.snp_last, e.snp_op, e.snp_ent};
  end
  wire e_sends = e.out_rsp || e.out_dat || e.snp;
  assign f       = q_valid ? q_ans : e_ans;
  assign f_valid = q_valid || (v_c && e_sends);
  assign f_fire  = f_valid && (!f.rsp || orsp_ready_i) && (!f.dat || odat_ready_i) &&
                   (!f.snp || job_room_i);
  assign job_push_o = f_fire && f.snp;
  assign job_o      = f.job;
  assign commit_o   = P || !e_sends || f_fire;
  /* verilator lint_off UNUSEDSIGNAL */
  wire   ans_tmo  = f.tmo;   // the answer leaving now is a park timeout's Retry (formal probe)
  /* verilator lint_on UNUSEDSIGNAL */

  if (P) begin : g_outq
    localparam int CredW = $clog2(OutQ + 1);
    wire q_push = v_c && e_sends && (q_valid || !f_fire);
    wire q_pop  = q_valid && f_fire;
    // (read only by the checks)
    /* verilator lint_off UNUSEDSIGNAL */
    logic             q_room;
    logic [CredW-1:0] q_count;
    /* verilator lint_on UNUSEDSIGNAL */
    // The head from a register (`OutReg`): what is sent, the data slot's address, the job and the
    // handshake's terms start at flip-flops, not at a LUT RAM read.
    cni_fifo #(.Width($bits(e_ans)), .Depth(OutQ), .OutReg(1'b1)) u_outq (
      .clk_i, .rst_ni,
      .in_valid_i  (q_push),
      .in_ready_o  (q_room),
      .in_data_i   (e_ans),
      .out_valid_o (q_valid),
      .out_ready_i (f_fire),
      .out_data_o  (q_ans),
      .count_o     (q_count)
    );
    // The credits: OutQ less the messages in R..C and in the queue. The take reads a flip-flop
    // (`cred_ok_q`: credits are left), loaded with the count it will hold.
    logic [CredW-1:0] cred_q;
    logic             cred_ok_q;
    wire  [CredW-1:0] cred_nx = cred_q - CredW'(take_i) + CredW'(v_c && !q_push) + CredW'(q_pop);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        cred_q    <= CredW'(OutQ);
        cred_ok_q <= 1'b1;
      end else begin
        cred_q    <= cred_nx;
        cred_ok_q <= cred_nx != '0;
      end
    end
    assign cred_ok_o = cred_ok_q;
    `CNI_ASSERT(OutqRoom_A, !q_push || q_room, "the output queue overflows")
    wire [CredW-1:0] in_flight = CredW'(st_valid_i[0]) + CredW'(st_valid_i[1]) +
                                 CredW'(st_valid_i[2]) + CredW'(st_valid_i[3]) +
                                 CredW'(st_valid_i[4]);  // (checks)
    `CNI_ASSERT_SIM(OutqCredits_A, 32'(cred_q) + 32'(in_flight) + 32'(q_count) == OutQ,
                    "the output queue's credits disagree")
  end else begin : g_noq
    assign q_valid   = 1'b0;
    assign q_ans     = '0;
    assign cred_ok_o = 1'b1;
  end

  assign orsp_valid_o = f_valid && f.rsp && (!f.dat || odat_ready_i) && (!f.snp || job_room_i);
  assign odat_valid_o = f_valid && f.dat && (!f.rsp || orsp_ready_i) && (!f.snp || job_room_i);
  assign orsp_hdr_o   = f.rsp_hdr;
  assign odat_hdr_o   = f.dat_hdr;
  assign f_slot_o     = f.slot;
  assign f_data_msg_o = f.data_msg;
  assign q_valid_o    = q_valid;

endmodule
