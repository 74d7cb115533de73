// SPDX-License-Identifier: Apache-2.0
// The home agent's snoop sequencer (docs/endpoint.md, "Pipeline"): the snoop jobs the applied
// decisions give it, one FWD per agent of a job on the forward channel, in the order the jobs
// came. A job is the agents to snoop, the agents after the first (the vector less its lowest
// bit) and whether there are none, worked out with the decision (`snp_job`) and registered with
// it, so neither taking the next job nor the sequencer's load and enables wait for a carry chain
// over the agents left; its opcode and its transaction's table entry (the FWD's tag). Jobs wait
// in a FIFO (one job per table entry at most, so it never fills), which a job bypasses when
// both it and the sequencer are empty.
//
// Parameters:
//   LineBytes, NumAgents, DevBase, TtEntries - as cni_home_agent's
//   LineIdxW, SlotW, NumCnt - as cni_home_decide's (the shared records' widths)
//   JobW                 - (derived) a job's width: {agents, rest, last, opcode, entry}
// Ports:
//   agent_id_i                        - this agent's id on the fabric (the FWD's source)
//   job_push_i, job_i, job_room_o     - a job (the cycle its decision's answer leaves); there is
//                                       room for one
//   ofwd_*                            - the forward channel (the agent's ports); ofwd_hold_i:
//                                       earlier answers are still buffered, and a snoop must
//                                       not overtake them (docs/protocol.md rule 8)
//   ent_o, line_i                     - the job's table entry (the FWD's tag) and that entry's
//                                       line (the FWD's address), read from the table
//   fire_o                            - a FWD leaves (the CSR's snoop counter)
//   idle_o                            - no job waits and no snoop is being sent
`default_nettype none

module cni_home_snoop #(
  parameter int          LineBytes = 128,
  parameter int          NumAgents = 16,
  parameter logic [47:0] DevBase   = 48'h10_0000_0000,
  parameter int          TtEntries = 32,
  parameter int          LineIdxW  = 8,
  parameter int          SlotW     = 4,
  parameter int          NumCnt    = 16,
  localparam int TtW  = $clog2(TtEntries),
  localparam int JobW = cni_coh_pkg::home_job_w(NumAgents, TtW)
) (
  input  wire logic                          clk_i,
  input  wire logic                          rst_ni,
  input  wire logic [cni_coh_pkg::AGENT_W-1:0] agent_id_i,
  input  wire logic                          job_push_i,
  input  wire logic [JobW-1:0]               job_i,
  output logic                               job_room_o,
  output logic                               ofwd_valid_o,
  input  wire logic                          ofwd_ready_i,
  output cni_coh_pkg::hdr_t                  ofwd_hdr_o,
  input  wire logic                          ofwd_hold_i,
  output logic [TtW-1:0]                     ent_o,
  input  wire logic [LineIdxW-1:0]           line_i,
  output logic                               fire_o,
  output logic                               idle_o
);

  `include "cni_home_types.svh"

  logic snp_busy_q, snp_last_q, snp_fire, job_valid, job_take;
  logic [NumAgents-1:0] snp_vec_q, snp_rest_q;
  logic [OpW-1:0]       snp_op_q;
  logic [TtW-1:0]       snp_ent_q;
  logic [JobW-1:0]      job_out;
  wire  job_direct = job_push_i && !snp_busy_q && !job_valid;
  cni_fifo #(.Width(JobW), .Depth(TtEntries)) u_jobs (
    .clk_i, .rst_ni,
    .in_valid_i  (job_push_i && !job_direct),
    .in_ready_o  (job_room_o),
    .in_data_i   (job_i),
    .out_valid_o (job_valid),
    .out_ready_i (job_take),
    .out_data_o  (job_out),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o     ()
    /* verilator lint_on PINCONNECTEMPTY */
  );
  // The sequencer holds the agents still to snoop (`snp_vec_q`; the lowest is snooped now),
  // those after it (`snp_rest_q`) and whether there are none (`snp_last_q`): as a FWD leaves,
  // the vector takes the rest and the rest drops its lowest bit.
  wire [NumAgents-1:0] snp_next = drop_lowest(snp_rest_q);
  assign snp_fire = snp_busy_q && ofwd_ready_i && !ofwd_hold_i;
  assign job_take = job_valid && (!snp_busy_q || (snp_fire && snp_last_q));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      snp_busy_q <= 1'b0;
      snp_vec_q  <= '0;
      snp_rest_q <= '0;
      snp_last_q <= 1'b0;
      snp_op_q   <= '0;
      snp_ent_q  <= '0;
    end else if (job_direct) begin
      snp_busy_q <= 1'b1;
      {snp_vec_q, snp_rest_q, snp_last_q, snp_op_q, snp_ent_q} <= job_i;
    end else if (job_take) begin
      snp_busy_q <= 1'b1;
      {snp_vec_q, snp_rest_q, snp_last_q, snp_op_q, snp_ent_q} <= job_out;
    end else if (snp_fire) begin
      snp_vec_q  <= snp_rest_q;
      snp_rest_q <= snp_next;
      snp_last_q <= snp_next == '0;
      if (snp_last_q) snp_busy_q <= 1'b0;
    end
  end

  function automatic logic [AgW-1:0] lowest(input logic [NumAgents-1:0] v);
    lowest = '0;
    for (int i = NumAgents - 1; i >= 0; i--) if (v[i]) lowest = AgW'(i);
  endfunction

  wire [AgW-1:0] snp_dst = lowest(snp_vec_q);
  always_comb begin
    ofwd_valid_o    = snp_busy_q && !ofwd_hold_i;
    ofwd_hdr_o      = '0;
    ofwd_hdr_o.op   = snp_op_q;
    ofwd_hdr_o.src  = agent_id_i;
    ofwd_hdr_o.dst  = snp_dst;
    ofwd_hdr_o.tag  = TagW'(snp_ent_q);
    ofwd_hdr_o.addr = line_addr(line_i);
  end
  assign ent_o  = snp_ent_q;
  assign fire_o = snp_fire;
  assign idle_o = !snp_busy_q && !job_valid;

endmodule
