// SPDX-License-Identifier: Apache-2.0
// Device caching agent's tags (cni_cache_agent, docs/cache-agent.md): per way its line state,
// line address and pin (a LINE MSHR owns the way), per set a round-robin victim pointer; the set
// lookups of the inbound message's line and of the engine request's line (hit way, free way,
// victim), the idle clean's candidate, and the ways' updates when the controller's job fires.
// Flip-flops, reset and searched in parallel; the line data is in the agent's RAM.
//
// Parameters:
//   Sets  - sets, a power of two >= 2 (a line's set: its low address bits)
//   Ways  - ways per set (1..16); way k of set s has index k * Sets + s
//   LineW - line address width (byte address >> offset)
// Ports:
//   clk_i, rst_ni                 - clock, active-low asynchronous reset
//   in_line_i                     - the inbound message's line: in_way_o/in_st_o are the way
//                                   holding it and its state ({0, I} if none)
//   req_line_i                    - the engine request's line: req_way_o/req_st_o the way
//                                   holding it and its state; req_free_o/req_fway_o the
//                                   set's lowest free way (I, not pinned);
//                                   req_vic_o/req_vway_o/req_vst_o/req_vline_o the victim (the
//                                   first way at or after the set's pointer holding a line no
//                                   MSHR pins), its state and line
//   t_way_i, t_st_o               - read port: the state of way t_way_i
//   job_way_i, job_st_o           - read port: the state of way job_way_i
//   cln_way_i, cln_line_o         - read port: the line of way cln_way_i
//   cln_v_o, cln_way_o            - the lowest way in O that no MSHR pins (the idle clean's
//                                   candidate)
//   upd_i                         - the job fires: the updates below apply at this edge to way
//                                   job_way_i
//   st_we_i, nst_i                - its state becomes nst_i (MI: the line leaves the way, I)
//   fill_i, line_i                - it is allocated for line_i (a miss)
//   pin_i, unpin_i                - an MSHR takes it / lets it go
//   evict_i                       - its set's victim pointer moves past it
`default_nettype none
`include "cni_assert.svh"

module cni_ca_tags #(
  parameter int Sets  = 4,
  parameter int Ways  = 4,
  parameter int LineW = 41,
  localparam int Lines = Sets * Ways,
  localparam int IdxW  = $clog2(Lines)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic [LineW-1:0] in_line_i,
  output logic [IdxW-1:0]       in_way_o,
  output logic [3:0]            in_st_o,
  input  wire logic [LineW-1:0] req_line_i,
  output logic [IdxW-1:0]       req_way_o,
  output logic [3:0]            req_st_o,
  output logic                  req_free_o,
  output logic [IdxW-1:0]       req_fway_o,
  output logic                  req_vic_o,
  output logic [IdxW-1:0]       req_vway_o,
  output logic [3:0]            req_vst_o,
  output logic [LineW-1:0]      req_vline_o,
  input  wire logic [IdxW-1:0]  t_way_i,
  output logic [3:0]            t_st_o,
  input  wire logic [IdxW-1:0]  cln_way_i,
  output logic [LineW-1:0]      cln_line_o,
  output logic                  cln_v_o,
  output logic [IdxW-1:0]       cln_way_o,
  input  wire logic             upd_i,
  input  wire logic [IdxW-1:0]  job_way_i,
  output logic [3:0]            job_st_o,
  input  wire logic             st_we_i,
  input  wire logic [3:0]       nst_i,
  input  wire logic             fill_i,
  input  wire logic [LineW-1:0] line_i,
  input  wire logic             pin_i,
  input  wire logic             unpin_i,
  input  wire logic             evict_i
);

  localparam int SetW = $clog2(Sets);
  localparam int WayW = (Ways > 1) ? $clog2(Ways) : 1;
  localparam logic [3:0] ST_I = cni_ca_pkg::ST_I, ST_O = cni_ca_pkg::ST_O;
  localparam logic [3:0] ST_MI = cni_ca_pkg::ST_MI;

  // ---- per way: state, line address, pinned by an MSHR; per set: round-robin victim ---------
  logic [3:0]       wst_q   [Lines];
  logic [LineW-1:0] wline_q [Lines];
  logic [Lines-1:0] wpin_q;
  logic [WayW-1:0]  vic_q   [Sets];

  function automatic logic [IdxW-1:0] widx(input int k, input logic [SetW-1:0] s);
    widx = IdxW'(k * Sets) | IdxW'(s);
  endfunction

  // ---- set lookups: the inbound message's line (snoops), the engine request's line ------------
  // The ways of `line`'s set that hold it (one-hot or zero: a line is in one way at most).
  function automatic logic [Ways-1:0] hits(input logic [LineW-1:0] line);
    logic [Ways-1:0] h;
    for (int k = 0; k < Ways; k++) begin
      h[k] = wst_q[widx(k, line[SetW-1:0])] != ST_I && wline_q[widx(k, line[SetW-1:0])] == line;
    end
    hits = h;
  endfunction

  // {way index, state} of the hit way (AND-OR terms of the one-hot hits); {0, I} if none.
  function automatic logic [IdxW+3:0] hit_way(input logic [Ways-1:0] h,
                                               input logic [SetW-1:0] set);
    logic [IdxW-1:0] w;
    logic [3:0]      st;
    w  = '0;
    st = ST_I;
    for (int k = 0; k < Ways; k++) begin
      if (h[k]) begin
        w  = w | widx(k, set);
        st = st | wst_q[widx(k, set)];
      end
    end
    hit_way = {w, st};
  endfunction

  wire  [SetW-1:0]  r_set   = req_line_i[SetW-1:0];
  wire  [Ways-1:0]  i_hitv  = hits(in_line_i);
  wire  [Ways-1:0]  r_hitv  = hits(req_line_i);
  assign {in_way_o, in_st_o}   = hit_way(i_hitv, in_line_i[SetW-1:0]);
  assign {req_way_o, req_st_o} = hit_way(r_hitv, r_set);

  // The request's set: a free way, a victim.
  always_comb begin
    int kv;
    req_free_o = 1'b0;
    req_vic_o  = 1'b0;
    req_fway_o = '0;
    req_vway_o = '0;
    req_vst_o  = ST_I;
    for (int k = Ways - 1; k >= 0; k--) begin
      if (wst_q[widx(k, r_set)] == ST_I && !wpin_q[widx(k, r_set)]) begin
        req_free_o = 1'b1;
        req_fway_o = widx(k, r_set);
      end
    end
    // The victim: the first way at or after the set's pointer holding a line no MSHR pins.
    for (int j = Ways - 1; j >= 0; j--) begin
      kv = int'(vic_q[r_set]) + j;
      if (kv >= Ways) kv = kv - Ways;
      if (cni_ca_pkg::readable(wst_q[widx(kv, r_set)]) && !wpin_q[widx(kv, r_set)]) begin
        req_vic_o  = 1'b1;
        req_vway_o = widx(kv, r_set);
        req_vst_o  = wst_q[widx(kv, r_set)];
      end
    end
  end
  assign req_vline_o = wline_q[req_vway_o];

  // ---- read ports ----------------------------------------------------------------------------
  assign t_st_o     = wst_q[t_way_i];
  assign job_st_o   = wst_q[job_way_i];
  assign cln_line_o = wline_q[cln_way_i];

  // ---- the idle clean's candidate: the lowest way in O that no MSHR pins ----------------------
  always_comb begin
    cln_v_o   = 1'b0;
    cln_way_o = '0;
    for (int w = Lines - 1; w >= 0; w--) begin
      if (wst_q[w] == ST_O && !wpin_q[w]) begin
        cln_v_o   = 1'b1;
        cln_way_o = IdxW'(w);
      end
    end
  end

  // ---- updates -------------------------------------------------------------------------------
  wire [IdxW-1:0] vk = job_way_i >> SetW;  // the job's way within its set (index = k * Sets + s)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wpin_q <= '0;
      for (int w = 0; w < Lines; w++) begin
        wst_q[w]   <= ST_I;
        wline_q[w] <= '0;
      end
      for (int s = 0; s < Sets; s++) vic_q[s] <= '0;
    end else if (upd_i) begin
      // a line going to MI leaves its way (I) for the write-back buffer
      if (st_we_i) wst_q[job_way_i] <= (nst_i == ST_MI) ? ST_I : nst_i;
      if (fill_i) wline_q[job_way_i] <= line_i;
      if (pin_i) wpin_q[job_way_i] <= 1'b1;
      if (unpin_i) wpin_q[job_way_i] <= 1'b0;
      if (evict_i) begin
        vic_q[job_way_i[SetW-1:0]] <= (vk == IdxW'(Ways - 1)) ? '0 : WayW'(vk + 1'b1);
      end
    end
  end

  // ---- invariants (simulation) -----------------------------------------------------------------
  // every transient line is pinned; no way is in MI; a line matches one way of its set at most
`ifndef SYNTHESIS
  logic [Lines-1:0] trans_w, mi_w;
  always_comb begin
    for (int w = 0; w < Lines; w++) begin
      trans_w[w] = cni_ca_pkg::transient(wst_q[w]);
      mi_w[w]    = wst_q[w] == ST_MI;
    end
  end
`endif
  `CNI_ASSERT_SIM(TransientPinned_A, (trans_w & ~wpin_q) == '0,
                  "a way in a transient state is not pinned")
  `CNI_ASSERT_SIM(NoMi_A, mi_w == '0, "a way in MI")
  `CNI_ASSERT_SIM(OneWay_A, $onehot0(i_hitv) && $onehot0(r_hitv),
                  "a line matches two ways of its set")

endmodule
