// SPDX-License-Identifier: Apache-2.0
// Formal harness (not synthesizable: free inputs, assertions) for the link credit counters:
// cni_link_tx_ch and cni_link_rx_ch, each against a reference model with a misbehaving peer
// ("open"), and a tx -> link -> rx -> credit -> tx loop checked for credit conservation
// ("closed"). Properties and assumptions: docs/formal.md, "Link credits".
//
// Parameters:
//   Credits - the receive buffer depth = credits the sender holds after reset
//   TxDepth - transmit output buffer slots
// Ports: every input is chosen freely by the solver in every step.
//   in_valid_i/in_data_i   - producers offering messages to the two transmitters
//   out_ready_i            - consumers of the two receivers (may stall forever)
//   credit_i               - open transmitter: credit pulses from a peer that may misbehave
//   link_i                 - open receiver: messages from a peer that may ignore credits
//   dlv_msg_i, dlv_cr_i    - closed loop: the link delivers the oldest message / credit now
//
// Probes: the `probe_*` wires are connected by scripts/formal.sh to the named registers inside
// the blocks after flattening (`connect -set`), because the Yosys front end has no
// hierarchical references. They are read only, never driven by the harness.
//
// Bug injection (tests that must FAIL): FV_BUG_DUP_CREDIT (the link duplicates a credit
// return), FV_BUG_DROP_CREDIT (the link loses one). The transmitter's saturation is mutated by
// the script (Yosys `mutate`), see tests/formal/checks.tsv.
`default_nettype none

module cni_nonsynth_fv_link #(
  parameter int Credits = 4,
  parameter int TxDepth = 2,
  localparam int Width = 2,                  // message contents are not looked at
  localparam int CrW   = $clog2(Credits + 1),
  localparam int CntW  = $clog2(Credits + 1) + 2
) (
  input wire logic             clk_i,
  input wire logic [1:0]       in_valid_i,
  input wire logic [Width-1:0] in_data_i,
  input wire logic [1:0]       out_ready_i,
  input wire logic             credit_i,
  input wire logic             link_i,
  input wire logic             dlv_msg_i,
  input wire logic             dlv_cr_i,
  input wire logic             dup_i
);

  // Reset in step 0 only.
  logic rst_q = 1'b1;
  always_ff @(posedge clk_i) rst_q <= 1'b0;
  wire rst_n = !rst_q;

  // ---- probes (connected by the script) --------------------------------------------------------
  (* keep, fv_probe = "u_otx.cr_q" *)          wire [CrW-1:0] probe_otx_cr;
  (* keep, fv_probe = "u_ctx.cr_q" *)          wire [CrW-1:0] probe_ctx_cr;
  (* keep, fv_probe = "u_orx.u_buf.cnt_q" *)   wire [CrW-1:0] probe_orx_cnt;
  (* keep, fv_probe = "u_crx.u_buf.cnt_q" *)   wire [CrW-1:0] probe_crx_cnt;

  // ======================= open transmitter: arbitrary credit pulses ==========================
  wire             otx_link_valid, otx_err, otx_pending, otx_in_ready;
  wire [Width-1:0] otx_link_data;
  cni_link_tx_ch #(.Width(Width), .Depth(TxDepth), .Credits(Credits)) u_otx (
    .clk_i, .rst_ni(rst_n),
    .in_valid_i(in_valid_i[0]), .in_ready_o(otx_in_ready), .in_data_i,
    .link_valid_o(otx_link_valid), .link_data_o(otx_link_data),
    .credit_i, .credit_err_o(otx_err), .pending_o(otx_pending)
  );

  // Reference: credits held; a send takes one, a returned credit gives one back unless all
  // Credits are already held (then the return is an error and is ignored).
  logic [CntW-1:0] ref_cr_q;
  wire  [CntW-1:0] ref_after_send = ref_cr_q - CntW'(otx_link_valid);
  wire             ref_err        = credit_i && ref_after_send == CntW'(Credits);
  always_ff @(posedge clk_i) begin
    if (rst_q) ref_cr_q <= CntW'(Credits);
    else ref_cr_q <= ref_after_send + CntW'(credit_i && !ref_err);
  end

  always_comb begin
    if (!rst_q) begin
      p_otx_max:   assert ({2'b0, probe_otx_cr} <= CntW'(Credits));
      p_otx_send:  assert (!otx_link_valid || probe_otx_cr != '0);   // never below zero
      p_otx_ref:   assert ({2'b0, probe_otx_cr} == ref_cr_q);
      p_otx_err:   assert (otx_err == ref_err);
      p_otx_pend:  assert (otx_pending || !otx_link_valid);
    end
  end

  // ========================= open receiver: arbitrary link messages ===========================
  wire             orx_credit, orx_ovf, orx_out_valid;
  wire [Width-1:0] orx_out_data;
  cni_link_rx_ch #(.Width(Width), .Depth(Credits)) u_orx (
    .clk_i, .rst_ni(rst_n),
    .link_valid_i(link_i), .link_data_i(in_data_i),
    .credit_o(orx_credit), .overflow_o(orx_ovf),
    .out_valid_o(orx_out_valid), .out_ready_i(out_ready_i[0]), .out_data_o(orx_out_data)
  );

  // Reference occupancy: messages accepted minus messages dequeued.
  logic [CntW-1:0] orx_occ_q;
  wire             orx_acc = link_i && !orx_ovf;
  wire             orx_deq = orx_out_valid && out_ready_i[0];
  always_ff @(posedge clk_i) begin
    if (rst_q) orx_occ_q <= '0;
    else orx_occ_q <= orx_occ_q + CntW'(orx_acc) - CntW'(orx_deq);
  end

  always_comb begin
    if (!rst_q) begin
      p_orx_depth:  assert (orx_occ_q <= CntW'(Credits));
      p_orx_ovf:    assert (orx_ovf == (link_i && orx_occ_q == CntW'(Credits)));
      p_orx_credit: assert (orx_credit == orx_deq);
      p_orx_valid:  assert (orx_out_valid == (orx_occ_q != '0));
      p_orx_cnt:    assert ({2'b0, probe_orx_cnt} == orx_occ_q);
    end
  end

  // ============ closed loop: tx -> link (in flight) -> rx -> credit (in flight) -> tx ==========
  wire             ctx_link_valid, ctx_err, ctx_pending, ctx_in_ready;
  wire [Width-1:0] ctx_link_data;
  wire             crx_link_valid, crx_credit, crx_ovf, crx_out_valid;
  wire [Width-1:0] crx_out_data;
  logic [CntW-1:0] mf_q, cf_q;  // messages / credits on the wire
  logic            dup_done_q;

  // The link: delivers messages in order after at least one cycle, returns credits after at
  // least one cycle; both delays are arbitrary (the message contents are not modelled).
  assign crx_link_valid = dlv_msg_i && mf_q != '0;
  wire   cr_dlv         = dlv_cr_i && cf_q != '0;
  // A faulty link (bug injection only) duplicates or loses one credit pulse.
`ifdef FV_BUG_DUP_CREDIT
  wire cr_dup  = cr_dlv && dup_i && !dup_done_q;   // delivered but left on the wire
`else
  wire cr_dup  = 1'b0;
`endif
`ifdef FV_BUG_DROP_CREDIT
  wire cr_drop = cr_dlv && dup_i && !dup_done_q;   // taken off the wire, never delivered
`else
  wire cr_drop = 1'b0;
`endif
  wire ctx_credit = cr_dlv && !cr_drop;

  cni_link_tx_ch #(.Width(Width), .Depth(TxDepth), .Credits(Credits)) u_ctx (
    .clk_i, .rst_ni(rst_n),
    .in_valid_i(in_valid_i[1]), .in_ready_o(ctx_in_ready), .in_data_i,
    .link_valid_o(ctx_link_valid), .link_data_o(ctx_link_data),
    .credit_i(ctx_credit), .credit_err_o(ctx_err), .pending_o(ctx_pending)
  );

  cni_link_rx_ch #(.Width(Width), .Depth(Credits)) u_crx (
    .clk_i, .rst_ni(rst_n),
    .link_valid_i(crx_link_valid), .link_data_i(ctx_link_data),
    .credit_o(crx_credit), .overflow_o(crx_ovf),
    .out_valid_o(crx_out_valid), .out_ready_i(out_ready_i[1]), .out_data_o(crx_out_data)
  );

  always_ff @(posedge clk_i) begin
    if (rst_q) begin
      mf_q       <= '0;
      cf_q       <= '0;
      dup_done_q <= 1'b0;
    end else begin
      mf_q <= mf_q + CntW'(ctx_link_valid) - CntW'(crx_link_valid);
      cf_q <= cf_q + CntW'(crx_credit) - CntW'(cr_dlv && !cr_dup);
      if (cr_dup || cr_drop) dup_done_q <= 1'b1;
    end
  end

  always_comb begin
    if (!rst_q) begin
      // credits held + messages on the wire + messages buffered at rx + credits on the wire
      p_loop_conserve: assert ({2'b0, probe_ctx_cr} + mf_q + {2'b0, probe_crx_cnt} + cf_q ==
                               CntW'(Credits));
      p_loop_max:      assert ({2'b0, probe_ctx_cr} <= CntW'(Credits));
      p_loop_send:     assert (!ctx_link_valid || probe_ctx_cr != '0);
      p_loop_no_ovf:   assert (!crx_ovf);
      p_loop_no_err:   assert (!ctx_err);
      // (bounds that make the conservation sum free of wrap-around: needed for induction)
      p_loop_wire:     assert (mf_q <= CntW'(Credits) && cf_q <= CntW'(Credits));
    end
  end

endmodule
