// SPDX-License-Identifier: Apache-2.0
// The home agent's transaction table (docs/endpoint.md, "Pipeline"): one entry per line with a
// transaction open (a snoop round, a parked request, an engine's RECALL), its park timer, the
// event it offers the engines, and the lookup a message makes in it by its line and tag. It
// changes only by the decision cni_home_agent applies (allocate, update, free, convert) and by
// the engines taking an event. The records' layouts: cni_home_types.svh.
//
// Parameters:
//   LineBytes, NumAgents, DevBase, TtEntries, TtReserve, Pipelined, QuietLog2 - as
//                          cni_home_agent's
//   LineIdxW, SlotW, NumCnt - as cni_home_decide's
//   MsgW, LkW, DecW      - (derived) the widths of the records msg_t, lk_t and dec_t on the ports
// Ports (the records as their packed bits):
//   time_i, cfg_park_timeout_i        - the agent's: the time base and the park timeout
//   apply_i, c_valid_i, m_c_i, e_i    - the apply stage: a decision applied now, the stage holds
//                                       a message, its message and its decision record
//   evt_*                             - the event offered to the engines (the agent's ports)
//   tmo_any_o, tmo_idx_o, tmo_line_o  - a park timer has run out (registered), its entry and line
//   tmo_x_ent_i, tmo_live_o           - X: a timeout's entry is still a PARK entry past its
//                                       deadline
//   tmo_b_ent_i, tmo_src_o, tmo_tag_o,- B: a timeout's entry: its requester and line
//   tmo_line_b_o
//   snp_ent_i, snp_line_o             - the snoop sequencer's entry and its line
//   lk_go_i                           - a message is in the lookup stage (T, or R Pipelined)
//   lk_line_i, lk_tag_i               - its line and tag
//   lk_region_i, lk_inrange_i         - its line's region; it names a device line
//   resv_i                            - entries an older message in flight may take
//   eq_rsp_line_i, eq_req_line_i,     - Pipelined: the lines of the response and request heads
//   eq_cmd_line_i                       and of the command, compared with every entry's in T
//   eq_rsp_i, eq_cmd_first_i          - ... and which the selection takes (the response head; a
//                                       command before the request head)
//   lk_o                              - the lookup's result (lk_t)
//   evt_pending_o, tmo_flag_o         - an event is offered; a timeout flag is set (quiescence)
//   park_o, park_near_o, park_new_o   - a request is parked; one's timer runs out within
//                                       2**QuietLog2 cycles; an entry was made at the last edge
`default_nettype none
`include "cni_assert.svh"

module cni_home_table #(
  parameter int          LineBytes = 128,
  parameter int          NumAgents = 16,
  parameter logic [47:0] DevBase   = 48'h10_0000_0000,
  parameter int          TtEntries = 32,
  parameter int          TtReserve = 8,
  parameter int          Pipelined = 0,
  parameter int          QuietLog2 = 10,
  parameter int          LineIdxW  = 8,
  parameter int          SlotW     = 4,
  parameter int          NumCnt    = 16,
  localparam int TtW  = $clog2(TtEntries),
  localparam int MsgW = cni_coh_pkg::home_msg_w(LineIdxW, TtW, SlotW),
  localparam int LkW  = cni_coh_pkg::home_lk_w(NumAgents, TtW, cni_amap_pkg::REGION_W),
  localparam int DecW = cni_coh_pkg::home_dec_w(NumAgents, TtW, cni_amap_pkg::REGION_W, NumCnt)
) (
  input  wire logic                         clk_i,
  input  wire logic                         rst_ni,
  input  wire logic [31:0]                  time_i,
  input  wire logic [31:0]                  cfg_park_timeout_i,
  // the apply stage
  input  wire logic                         apply_i,
  /* verilator lint_off UNUSEDSIGNAL */  // (Pipelined only: c_valid_i, eq_*)
  input  wire logic                         c_valid_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic [MsgW-1:0]              m_c_i,
  input  wire logic [DecW-1:0]              e_i,
  // events
  output logic                              evt_valid_o,
  input  wire logic                         evt_ready_i,
  output logic [cni_coh_pkg::EVT_W-1:0]     evt_kind_o,
  output logic [LineIdxW-1:0]               evt_line_o,
  output logic [cni_amap_pkg::REGION_W-1:0] evt_region_o,
  output logic [cni_coh_pkg::OP_W-1:0]      evt_op_o,
  output logic [cni_coh_pkg::AGENT_W-1:0]   evt_src_o,
  // timeouts
  output logic                              tmo_any_o,
  output logic [TtW-1:0]                    tmo_idx_o,
  output logic [LineIdxW-1:0]               tmo_line_o,
  input  wire logic [TtW-1:0]               tmo_x_ent_i,
  output logic                              tmo_live_o,
  input  wire logic [TtW-1:0]               tmo_b_ent_i,
  output logic [cni_coh_pkg::AGENT_W-1:0]   tmo_src_o,
  output logic [cni_coh_pkg::TAG_W-1:0]     tmo_tag_o,
  output logic [LineIdxW-1:0]               tmo_line_b_o,
  // the snoop sequencer's entry
  input  wire logic [TtW-1:0]               snp_ent_i,
  output logic [LineIdxW-1:0]               snp_line_o,
  // the lookup
  input  wire logic                         lk_go_i,
  input  wire logic [LineIdxW-1:0]          lk_line_i,
  input  wire logic [cni_coh_pkg::TAG_W-1:0] lk_tag_i,
  input  wire logic [cni_amap_pkg::REGION_W-1:0] lk_region_i,
  input  wire logic                         lk_inrange_i,
  input  wire logic [TtEntries-1:0]         resv_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [LineIdxW-1:0]          eq_rsp_line_i,
  input  wire logic [LineIdxW-1:0]          eq_req_line_i,
  input  wire logic [LineIdxW-1:0]          eq_cmd_line_i,
  input  wire logic                         eq_rsp_i,
  input  wire logic                         eq_cmd_first_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [LkW-1:0]                    lk_o,
  // status
  output logic                              evt_pending_o,
  output logic                              tmo_flag_o,
  output logic                              park_o,
  output logic                              park_near_o,
  output logic                              park_new_o
);

  localparam bit  P    = Pipelined != 0;

  `include "cni_home_types.svh"

  /* verilator lint_off UNUSEDSIGNAL */
  msg_t m_c;   // (the line and the requester's header fields)
  dec_t e;     // (the table's writes)
  /* verilator lint_on UNUSEDSIGNAL */
  lk_t  lk_l;
  assign m_c  = m_c_i;
  assign e    = e_i;
  assign lk_o = lk_l;
  wire apply = apply_i;

  function automatic logic [TtEntries-1:0] onehot(input logic [TtW-1:0] i);
    onehot = TtEntries'(1) << i;
  endfunction

  // ---- the entries (one array per field) --------------------------------------------------------
  logic [TtEntries-1:0] tt_valid_q, tt_evt_q;
  logic [TtEntries-1:0] tt_tmo_q;                 // PARK entry past its timeout (registered)
  logic [1:0]           tt_kind_q  [TtEntries];
  logic [LineIdxW-1:0]  tt_line_q  [TtEntries];
  logic [RegW-1:0]      tt_reg_q   [TtEntries];  // the line's region (the engine bus routes by it)
  logic [AgW-1:0]       tt_src_q   [TtEntries];
  logic [TagW-1:0]      tt_tag_q   [TtEntries];
  logic [OpW-1:0]       tt_op_q    [TtEntries];   // the request's opcode
  logic [OpW-1:0]       tt_grant_q [TtEntries];   // DataS/DataE/UpgAck at completion
  logic [NumAgents-1:0] tt_pend_q  [TtEntries];
  logic [NumAgents-1:0] tt_wbp_q   [TtEntries];
  logic [NumAgents-1:0] tt_wbgot_q [TtEntries];
  logic [31:0]          tt_due_q   [TtEntries];   // PARK: the time_i its timer runs out

  // ---- timers, free entries, event selection -----------------------------------------------
  // A PARK entry's timeout flag is registered (the 32-bit compares stay out of the selection
  // path), so it rises one cycle after the timer reaches the limit. Registered beside the flags:
  // whether any is set, and the lowest one set (one-hot), so the input selection starts from a
  // flip-flop; with `Pipelined` they are registered from the flags themselves (one cycle later
  // again), so the compares end at the flags. Either may still name an entry for a cycle or two
  // after it was freed, converted or even made again: the decision re-checks that the entry is a
  // PARK entry whose own flag is set (SRC_TMO), and a timeout that no longer holds does nothing.
  logic [TtEntries-1:0] tmo_1h_q;
  logic                 tmo_any_q;
  logic [TtEntries-1:0] evt_1h;     // the entry whose event is offered: the lowest with one
  logic [TtEntries-1:0] valid_nx;   // entries still valid after this cycle's event take
  logic [TtEntries-1:0] lk_valid;   // the valid bits the lookup sees

  // A park timer is the deadline time_i + 1 + timeout, set when the entry is made (the timeout
  // saturates at 2**31 - 1, so deadline and time compare by their difference's sign): a PARK
  // entry times out in the cycle time_i reaches it, as a count from 0 in the cycle after the
  // entry is made reaches the timeout. The compares are made at the clock edge, into the flags
  // (tt_tmo_q), and into `park_near_q`: some deadline falls within the next 2**QuietLog2 cycles
  // (park_near_o; an entry made at that edge is not in it yet, `park_new_q` says so).
  wire [31:0] park_tmo = cfg_park_timeout_i[31] ? 32'h7FFF_FFFF : cfg_park_timeout_i;
  // tt_park: the valid PARK entries, a flip-flop per entry kept beside the valid bits and kinds
  // (simulation checks it), so no cycle loops over the kinds to find them.
  logic [TtEntries-1:0] tt_park;
  logic                 park_near_q, park_new_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tt_tmo_q    <= '0;
      tmo_any_q   <= 1'b0;
      tmo_1h_q    <= '0;
      park_near_q <= 1'b0;
    end else begin
      logic [TtEntries-1:0] due, near;
      logic [31:0]          left, left1;
      due  = '0;
      near = '0;
      // (a simulator skips the compares when nothing is parked, and an entry's when it is not)
      if (tt_park != '0) begin
        for (int k = 0; k < TtEntries; k++) begin
          if (tt_park[k]) begin
            left    = tt_due_q[k] - time_i;           // cycles to the deadline from this cycle
            left1   = tt_due_q[k] - time_i - 32'd1;   // ... and from the next
            due[k]  = left[31] || left == '0;
            near[k] = left1[31] || left1 < 32'(1 << QuietLog2);
          end
        end
      end
      tt_tmo_q    <= due;
      tmo_any_q   <= P ? |tt_tmo_q : |due;
      tmo_1h_q    <= P ? tt_tmo_q & (~tt_tmo_q + 1'b1) : due & (~due + 1'b1);
      park_near_q <= |near;
    end
  end
  // (Searched only when there is an event or a timeout: their results are used only then, and
  // a simulator skips the searches in the other cycles.)
  always_comb begin
    tmo_idx_o  = 'x;
    tmo_line_o = 'x;
    if (tmo_any_q) begin
      tmo_idx_o  = '0;
      tmo_line_o = '0;
      for (int k = 0; k < TtEntries; k++) begin
        if (tmo_1h_q[k]) begin
          tmo_idx_o  = tmo_idx_o | TtW'(k);
          tmo_line_o = tmo_line_o | tt_line_q[k];
        end
      end
    end
  end
  assign tmo_any_o = tmo_any_q;

  // The event offered: the lowest entry with one (one-hot), its fields an AND-OR of the
  // entries' under it (a valid entry is a PARK entry exactly when its `tt_park` is set).
  // (Word-wide operations, and the AND-OR only when an event waits: a simulator evaluates this
  // in every cycle.)
  wire [TtEntries-1:0] evt_all = tt_valid_q & tt_evt_q;
  assign evt_1h = evt_all & (~evt_all + 1'b1);
  always_comb begin
    evt_line_o   = '0;
    evt_region_o = '0;
    evt_op_o     = '0;
    evt_src_o    = '0;
    if (evt_all != '0) begin
      for (int k = 0; k < TtEntries; k++) begin
        if (evt_1h[k]) begin
          evt_line_o   = evt_line_o | tt_line_q[k];
          evt_region_o = evt_region_o | tt_reg_q[k];
          evt_op_o     = evt_op_o | tt_op_q[k];
          evt_src_o    = evt_src_o | tt_src_q[k];
        end
      end
    end
  end
  assign evt_valid_o = evt_all != '0;
  assign evt_kind_o  = (evt_1h & tt_park) != '0 ? cni_coh_pkg::EVT_TRIGGER
                                                : cni_coh_pkg::EVT_RECALL_DONE;
  wire   evt_take    = evt_valid_o && evt_ready_i;
  // a RECALL entry whose event is taken ends (a PARK entry keeps waiting)
  logic [TtEntries-1:0] tt_rec;
  always_comb begin
    for (int k = 0; k < TtEntries; k++) tt_rec[k] = tt_kind_q[k] == K_RECALL;
  end
  assign valid_nx = tt_valid_q & ~({TtEntries{evt_take}} & evt_1h & tt_rec);
  assign lk_valid = P ? tt_valid_q : valid_nx;

  // An entry's fields read by index: a timeout's (X, B) and the snoop sequencer's.
  assign tmo_live_o   = tt_valid_q[tmo_x_ent_i] && tt_kind_q[tmo_x_ent_i] == K_PARK &&
                        tt_tmo_q[tmo_x_ent_i];
  assign tmo_src_o    = tt_src_q[tmo_b_ent_i];
  assign tmo_tag_o    = tt_tag_q[tmo_b_ent_i];
  assign tmo_line_b_o = tt_line_q[tmo_b_ent_i];
  assign snp_line_o   = tt_line_q[snp_ent_i];

  // ---- lookup (the lookup stage: T, or R when Pipelined) ---------------------------------------
  // The table holds at most one entry per line (every allocation requires no hit), so the hit
  // vector is one-hot or zero, and the hit entry's index and fields are ORs of its terms. The
  // table changes after the lookup only by messages on other lines (the interlock), by the
  // engine taking an event (which frees a RECALL entry that has nothing pending) and by the
  // timers: a freed entry may still count as busy (the request is retried, the RECALL waits),
  // and a free entry an older message in flight may take is not offered (`resv_i`).
  wire [TtW-1:0] l_ent = lk_tag_i[TtW-1:0];
  logic [TtEntries-1:0] l_hit, l_park, l_free;
  assign l_free = ~lk_valid & ~resv_i;
  // The line compares: entry k holds the lookup stage's line (masked with the valid bits in the
  // search). Pipelined, they are registered as the message enters R: each input's line is
  // compared with every entry's in T, in parallel with the selection, which picks one input's
  // compares (a timeout's line is its own entry's). An entry written at that edge (the apply
  // stage allocates it for its own line) compares unequal: the message taken then is not on a
  // line in flight (the interlock). So the search in R starts at flip-flops, not at a compare
  // of the stage's line; simulation checks the registered compares against the lines.
  logic [TtEntries-1:0] l_eq;
  if (P) begin : g_l_eq
    logic [TtEntries-1:0] eq_q, eq_rsp, eq_req, eq_cmd;
    wire  [TtEntries-1:0] alloc_now = (c_valid_i && e.alloc) ? onehot(e.alloc_idx) : '0;
    always_comb begin
      for (int k = 0; k < TtEntries; k++) begin
        eq_rsp[k] = tt_line_q[k] == eq_rsp_line_i;
        eq_req[k] = tt_line_q[k] == eq_req_line_i;
        eq_cmd[k] = tt_line_q[k] == eq_cmd_line_i;
      end
    end
    // chosen by the selection's priority from the flip-flops it starts at (a timeout, the
    // response head, a command first, else the request head), not by the one-hot take: the
    // register loads in every cycle and is used only for a message taken, which is the one the
    // priority names
    always_ff @(posedge clk_i) begin
      eq_q <= ~alloc_now & (tmo_any_q ? tmo_1h_q : eq_rsp_i ? eq_rsp : eq_cmd_first_i ? eq_cmd :
                                                                                       eq_req);
    end
    assign l_eq = eq_q;
    // (checks) the compare as the lookup would make it now
    logic [TtEntries-1:0] eq_now;
    always_comb for (int k = 0; k < TtEntries; k++) eq_now[k] = tt_line_q[k] == lk_line_i;
    `CNI_ASSERT_SIM(EqReg_A, !lk_go_i || (lk_valid & (eq_q ^ eq_now)) == '0,
                    "a registered line compare disagrees with the lookup's")
  end else begin : g_l_eq_t
    always_comb for (int k = 0; k < TtEntries; k++) l_eq[k] = tt_line_q[k] == lk_line_i;
  end
  // Searched only for a message in the lookup stage: its result is used only then, and the
  // else-branch's don't-care leaves the synthesized network as it is (a multiplexer with an
  // undefined input is removed) while a simulator skips the search in idle cycles.
  logic [TtW:0] free_cnt;
  always_comb begin
    lk_l     = 'x;
    l_hit    = 'x;
    l_park   = 'x;
    free_cnt = 'x;
    if (lk_go_i) begin
      lk_l   = '0;
      l_hit  = lk_valid & l_eq;
      l_park = '0;
      // (the entries' fields gathered only when an entry hits: a simulator skips the loop else)
      if (l_hit != '0) begin
        for (int k = 0; k < TtEntries; k++) begin
          if (l_hit[k]) begin
            l_park[k]      = tt_kind_q[k] == K_PARK;
            lk_l.hit_idx   = lk_l.hit_idx | TtW'(k);
            lk_l.hit_kind  = lk_l.hit_kind | tt_kind_q[k];
            lk_l.hit_pend  = lk_l.hit_pend | tt_pend_q[k];
            lk_l.hit_wbp   = lk_l.hit_wbp | tt_wbp_q[k];
            lk_l.hit_wbgot = lk_l.hit_wbgot | tt_wbgot_q[k];
            lk_l.hit_src   = lk_l.hit_src | tt_src_q[k];
            lk_l.hit_tag   = lk_l.hit_tag | tt_tag_q[k];
            lk_l.hit_grant = lk_l.hit_grant | tt_grant_q[k];
          end
          if (l_park[k]) begin
            lk_l.park_idx = lk_l.park_idx | TtW'(k);
            lk_l.park_src = lk_l.park_src | tt_src_q[k];
            lk_l.park_tag = lk_l.park_tag | tt_tag_q[k];
            lk_l.park_op  = lk_l.park_op | tt_op_q[k];
          end
        end
      end
      lk_l.hit_any   = l_hit != '0;
      lk_l.park_hit  = l_park != '0;
      lk_l.ent_match = (lk_tag_i < TagW'(TtEntries)) && l_hit[l_ent] &&
                       tt_kind_q[l_ent] != K_PARK;
      lk_l.ent_kind  = tt_kind_q[l_ent];
      lk_l.ent_pend  = tt_pend_q[l_ent];
      lk_l.ent_wbp   = tt_wbp_q[l_ent];
      lk_l.ent_wbgot = tt_wbgot_q[l_ent];
      lk_l.ent_src   = tt_src_q[l_ent];
      lk_l.ent_tag   = tt_tag_q[l_ent];
      lk_l.ent_grant = tt_grant_q[l_ent];
      free_cnt = '0;
      for (int k = 0; k < TtEntries; k++) if (l_free[k]) free_cnt = free_cnt + 1'b1;
      lk_l.room = free_cnt > (TtW + 1)'(TtReserve);
      lk_l.free_any = l_free != '0;
      for (int k = TtEntries - 1; k >= 0; k--) if (l_free[k]) lk_l.free_idx = TtW'(k);
      lk_l.region  = lk_region_i;
      lk_l.inrange = lk_inrange_i;
    end
  end

  // ---- writes ----------------------------------------------------------------------------------
  // The valid and event bits after this cycle: the apply stage's writes (allocate, update, free,
  // convert, in that order) over the bits as they stand, and over them as the engine's take of
  // the entry's event leaves them (a RECALL entry ends, the event is gone); the take, from the
  // engine's ready (the latest input), picks one last. Word-wide: each write is a one-hot vector
  // (a simulator evaluates this in every cycle).
  logic [TtEntries-1:0] tt_valid_d, tt_evt_d;
  always_comb begin
    logic [TtEntries-1:0] a_1h, u_1h, f_1h, c_1h, a_evt, v0, v1, x0, x1, tk;
    a_1h  = (apply && e.alloc) ? onehot(e.alloc_idx) : '0;
    u_1h  = (apply && e.upd && e.upd_evt) ? onehot(e.upd_idx) : '0;
    f_1h  = (apply && e.free) ? onehot(e.free_idx) : '0;
    c_1h  = (apply && e.conv) ? onehot(e.conv_idx) : '0;
    a_evt = a_1h & {TtEntries{e.alloc_evt}};
    // without, with the take of the entry's event
    v0 = (tt_valid_q | a_1h) & ~f_1h;
    v1 = ((tt_valid_q & ~tt_rec) | a_1h) & ~f_1h;
    x0 = ((tt_evt_q & ~a_1h) | a_evt | u_1h) & ~f_1h & ~c_1h;
    x1 = (a_evt | u_1h) & ~f_1h & ~c_1h;
    tk = evt_take ? evt_1h : '0;
    tt_valid_d = (tk & v1) | (~tk & v0);
    tt_evt_d   = (tk & x1) | (~tk & x0);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tt_valid_q <= '0;
      tt_evt_q   <= '0;
      tt_park    <= '0;
      park_new_q <= 1'b0;
      for (int k = 0; k < TtEntries; k++) begin
        tt_kind_q[k]  <= K_SNOOP;
        tt_line_q[k]  <= '0;
        tt_reg_q[k]   <= '0;
        tt_src_q[k]   <= '0;
        tt_tag_q[k]   <= '0;
        tt_op_q[k]    <= '0;
        tt_grant_q[k] <= '0;
        tt_pend_q[k]  <= '0;
        tt_wbp_q[k]   <= '0;
        tt_wbgot_q[k] <= '0;
        tt_due_q[k]   <= '0;
      end
    end else begin
      park_new_q <= apply && e.alloc;
      tt_valid_q <= tt_valid_d;
      tt_evt_q   <= tt_evt_d;
      if (apply) begin
        if (e.alloc) begin
          tt_park[e.alloc_idx]    <= e.alloc_kind == K_PARK;
          tt_kind_q[e.alloc_idx]  <= e.alloc_kind;
          tt_line_q[e.alloc_idx]  <= m_c.line;
          tt_reg_q[e.alloc_idx]   <= e.alloc_reg;
          tt_src_q[e.alloc_idx]   <= m_c.hdr.src;
          tt_tag_q[e.alloc_idx]   <= m_c.hdr.tag;
          tt_op_q[e.alloc_idx]    <= m_c.hdr.op;
          tt_grant_q[e.alloc_idx] <= e.alloc_grant;
          tt_pend_q[e.alloc_idx]  <= e.alloc_pend;
          tt_wbp_q[e.alloc_idx]   <= '0;
          tt_wbgot_q[e.alloc_idx] <= '0;
          tt_due_q[e.alloc_idx]   <= time_i + 32'd1 + park_tmo;
        end
        if (e.upd) begin
          tt_pend_q[e.upd_idx]  <= e.upd_pend;
          tt_wbp_q[e.upd_idx]   <= e.upd_wbp;
          tt_wbgot_q[e.upd_idx] <= e.upd_wbgot;
        end
        if (e.free) tt_park[e.free_idx] <= 1'b0;
        if (e.conv) begin
          tt_kind_q[e.conv_idx]  <= K_SNOOP;
          tt_park[e.conv_idx]    <= 1'b0;
          tt_grant_q[e.conv_idx] <= e.conv_grant;
          tt_pend_q[e.conv_idx]  <= e.conv_pend;
          tt_wbp_q[e.conv_idx]   <= '0;
          tt_wbgot_q[e.conv_idx] <= '0;
        end
      end
    end
  end

  assign evt_pending_o = |(tt_valid_q & tt_evt_q);
  assign tmo_flag_o    = |tt_tmo_q;
  assign park_o        = |tt_park;
  assign park_near_o   = park_near_q;
  assign park_new_o    = park_new_q;

  // ---- checks ---------------------------------------------------------------------------------
  // An allocation takes a free entry; the PARK flags are the valid PARK entries.
  wire chk_alloc = !(apply && e.alloc && tt_valid_q[e.alloc_idx]);
`ifdef SYNTHESIS
`else
  logic [TtEntries-1:0] park_ref;
  always_comb begin
    for (int k = 0; k < TtEntries; k++) park_ref[k] = tt_valid_q[k] && tt_kind_q[k] == K_PARK;
  end
`endif
  `CNI_ASSERT(AllocFree_A, chk_alloc, "an allocation takes a live entry")
  `CNI_ASSERT(ParkFlags_A, tt_park == park_ref, "a PARK flag disagrees")

endmodule
