// SPDX-License-Identifier: Apache-2.0
// Formal harness (not synthesizable: free inputs, assertions) for cni_home_agent: an abstract
// environment of NA host caching agents that follow docs/protocol.md on NL tracked lines, a
// device engine that issues ARM/RECALL/RELEASE/DISARM under its documented contract (with
// FV_POLICY every command with any argument), and malformed traffic; assertions for
// single-writer-or-many-readers, no answer without a request, the lines' policies (FV_POLICY),
// and (with FV_LIVE) every accepted request answered within AnswerBound cycles.
// Properties, assumptions and why they are the protocol's rules: docs/formal.md.
//
// Parameters:
//   NA          - host caching agents (ids 0..NA-1); also the home's NumAgents
//   NL          - lines the hosts use (device lines 0, 1, 3: regions 0, 1, 2); 1..3
//   MaxTimeout  - PARK_TIMEOUT is a free constant in 0..MaxTimeout (FV_LIVE: exactly this)
//   Fair        - FV_LIVE: a pending snoop answer or issued request waits at most Fair cycles
//                 for its channel once the channel is free; a stalled output at most Fair cycles
//   CmdGap      - FV_LIVE: cycles between engine commands
//   AnswerBound - FV_LIVE: cycles within which every accepted request must be answered when
//                 the home takes no message on its line meanwhile but its own transaction's
//   MsgCost     - FV_LIVE: cycles each such message adds to the bound
//   Pipelined   - the home agent's Pipelined parameter
// Ports: every input is chosen freely by the solver in every step (the environment's choices).
//
// Defines: FV_LIVE (fair environment, bounded-answer property, no malformed traffic),
// FV_NO_JUNK (no malformed traffic), FV_NO_STALL (outputs never stalled), FV_ONE_HOST (only
// agent 0 sends requests),
// FV_WEAK_ENGINE (the engine may ARM a line hosts still hold or request: see docs/formal.md),
// FV_POLICY (the engine issues every command with any argument, at any time; implies
// FV_WEAK_ENGINE; the policy properties), FV_FAIR_ENGINE (with FV_LIVE and FV_POLICY: no park
// timer; the engine takes every event at once, answers every TRIGGER with its next command,
// and recalls only lines it does not park),
// FV_BUG_* (injected bugs, each must make one assertion fail), FV_REACH_SNOOP (a reachability
// witness: p_reach_snoop says no grant follows a snoop answer, and must fail), FV_REACH_ANSWER
// and FV_REACH_PARKED (the witnesses of the bounded-answer checks, which must fail too:
// p_reach_answer says no host request is granted, p_reach_parked that no request the engine
// parked is answered; tests/formal/checks.tsv runs each beside its pass check, with the same
// assumptions and depth, so that check's property is not vacuous).
`default_nettype none
`ifdef FV_LIVE
`define FV_NO_JUNK
`endif
`ifdef FV_POLICY
`define FV_WEAK_ENGINE
`endif

module cni_nonsynth_fv_home #(
  parameter int NA          = 2,
  parameter int NL          = 2,
  parameter int MaxTimeout  = 3,
  parameter int Fair        = 2,
  parameter int CmdGap      = 6,
  parameter int AnswerBound = 40,
  parameter int MsgCost     = 2,
  parameter int Pipelined   = 0,
  localparam int NS       = NA * NL,        // agent x line slots
  localparam int SW       = $clog2(NS + NA + 1),
  // the map: each parameter's `formal` value in the engine registry (MemLines=1, CPairs=1,
  // NOvfA=NOvfB=1, no scratch-pad, no CNI engine)
  localparam logic [cni_amap_pkg::LW-1:0] RegionLines = cni_amap_pkg::FORMAL_LINES,
  localparam int NumLines = cni_amap_pkg::total(RegionLines),
  localparam int LW       = $clog2(NumLines),
  localparam int HW       = cni_coh_pkg::HDR_W
) (
  input wire logic                 clk_i,
  // host agents: one action per agent per cycle on one line
  input wire logic [NA*3-1:0]      act_i,
  input wire logic [NA*2-1:0]      act_line_i,
  input wire logic                 snp_dirty_i,    // a writable holder answers with data
  // request / snoop-answer channels into the home: which pending message goes next
  input wire logic                 rq_pick_en_i,
  input wire logic [SW-1:0]        rq_pick_i,
  input wire logic                 rs_pick_en_i,
  input wire logic [SW-1:0]        rs_pick_i,
  input wire logic [HW-1:0]        junk_hdr_i,     // malformed request / snoop answer
  // engine
  input wire logic                 cmd_en_i,
  input wire logic [cni_coh_pkg::CMD_W-1:0] cmd_op_i,
  input wire logic [cni_coh_pkg::ARG_W-1:0] cmd_arg_i,
  input wire logic [LW-1:0]        cmd_line_i,
  input wire logic                 evt_ready_i,
  // outputs of the home: the hosts may stall them
  input wire logic                 ofwd_ready_i,
  input wire logic                 orsp_ready_i,
  input wire logic                 odat_ready_i,
  input wire logic                 hold_i,
  // configuration
  input wire logic [cni_amap_pkg::NUM_REGIONS-1:0] ret_excl_i,
  input wire logic [31:0]          timeout_i
);
  localparam logic [3:0]  HOME = 4'd15;
  localparam logic [47:0] DEV_BASE = 48'h10_0000_0000;
  localparam logic [7:0]  LEN_LINE = 8'd64;
  localparam logic [7:0]  JUNK_TAG = 8'hFF;
  // cache states of a host agent (E and M are one state: the home cannot tell them apart)
  localparam logic [1:0] ST_I = 2'd0, ST_S = 2'd1, ST_W = 2'd2;
  // outstanding request of a slot
  localparam logic [2:0] RQ_NONE = 3'd0, RQ_RDS = 3'd1, RQ_RDX = 3'd2, RQ_UPG = 3'd3, RQ_WB = 3'd4;
  // host actions
  localparam logic [2:0] A_NONE = 3'd0, A_RDS = 3'd1, A_RDX = 3'd2, A_UPG = 3'd3, A_EVICT = 3'd4,
                         A_DROP = 3'd5, A_JUNK = 3'd6;

  if (NL < 1 || NL > 3) $error("NL must be 1..3");

  // Reset in step 0 only.
  logic rst_q = 1'b1;
  always_ff @(posedge clk_i) rst_q <= 1'b0;
  wire rst_n = !rst_q;

  // The home's time base (docs/endpoint.md, "Quiescence"): a cycle count from reset, as a board's
  // free-running counter (the park timers are deadlines on it).
  logic [31:0] time_q = '0;
  always_ff @(posedge clk_i) time_q <= time_q + 32'd1;

  function automatic logic [LW-1:0] line_of(input int l);
    line_of = (l == 0) ? LW'(0) : (l == 1) ? LW'(1) : LW'(3);
  endfunction
  function automatic logic [47:0] addr_of(input int l);
    addr_of = DEV_BASE + (48'(line_of(l)) << 6);
  endfunction

  // ---- environment state ----------------------------------------------------------------------
  logic [1:0] st_q  [NS];  // cache state
  logic [2:0] rq_q  [NS];  // outstanding request
  logic       dlv_q [NS];  // ... accepted by the home
  logic [7:0] age_q [NS];  // cycles since acceptance (FV_LIVE)
  logic       pk_q  [NS];  // the home parked it: the engine took its TRIGGER (FV_LIVE)
  logic [3:0] nmsg_q[NS];  // other messages the home took on its line since (FV_LIVE)
  logic [3:0] iage_q[NS];  // cycles since issue, not yet accepted (FV_LIVE fairness)
  logic       sa_v_q[NS];  // snoop answer on its way to the home
  logic       sa_d_q[NS];  //   SnpData (else SnpAck)
  logic       sa_w_q[NS];  //   WBP flag
  logic [7:0] sa_t_q[NS];  //   tag (the home's entry)
  logic [3:0] sa_age_q[NS];
  logic [NA-1:0] jk_v_q, jk_dlv_q;  // malformed request outstanding / accepted
  logic [NumLines-1:0] armed_q;     // lines the engine has armed

  // presenters (what each inbound channel of the home shows; stable until taken)
  logic                rqp_v_q, rsp_v_q, cmp_v_q;
  logic [SW-1:0]       rqp_s_q, rsp_s_q;
  cni_coh_pkg::hdr_t   rqp_hdr_q, rsp_hdr_q;
  logic [cni_coh_pkg::CMD_W-1:0] cmp_op_q;
  logic [cni_coh_pkg::ARG_W-1:0] cmp_arg_q;
  logic [LW-1:0]       cmp_line_q;
  logic [3:0]          cmd_gap_q;
  logic [31:0]         tmo_q;
  logic [cni_amap_pkg::NUM_REGIONS-1:0] ret_excl_q;  // RET_EXCL: a free constant per run
  logic [3:0]          stall_fwd_q, stall_rsp_q, stall_dat_q;

  // ---- the home agent -------------------------------------------------------------------------
  // FV_NO_STALL: the hosts take every message at once (fewer interleavings, for short runs)
`ifdef FV_NO_STALL
  wire ofwd_ready = 1'b1, orsp_ready = 1'b1, odat_ready = 1'b1;
`else
  wire ofwd_ready = ofwd_ready_i, orsp_ready = orsp_ready_i, odat_ready = odat_ready_i;
`endif
  logic req_ready, rsp_ready, cmd_ready;
`ifdef FV_FAIR_ENGINE
  wire  evt_ready = 1'b1;  // the engine takes every event at once (as the PIO engine does)
`else
  wire  evt_ready = evt_ready_i;
`endif
  logic ofwd_valid, orsp_valid, odat_valid, evt_valid;
  cni_coh_pkg::hdr_t ofwd_hdr, orsp_hdr_raw, odat_hdr_raw, orsp_hdr, odat_hdr;
  logic [511:0] odat_data, mem_wdata;
  logic mem_en, mem_we;
  logic [LW-1:0] mem_addr, evt_line;
  logic [0:0] evt_kind;
  logic [cni_coh_pkg::AGENT_W-1:0] evt_src;
  logic [15:0] cnt;
  logic init_done;
  logic orsp_valid_raw, odat_valid_raw, orsp_ready_dut, odat_ready_dut;

  cni_home_agent #(
    .LineBytes(64), .NumAgents(NA), .DevBase(DEV_BASE), .RegionLines(RegionLines),
    .TtEntries(8), .TtReserve(2), .Pipelined(Pipelined)
  ) u_dut (
    .clk_i, .rst_ni(rst_n), .agent_id_i(HOME),
    .req_valid_i(rqp_v_q), .req_ready_o(req_ready), .req_hdr_i(rqp_hdr_q), .req_data_i('0),
    .rsp_valid_i(rsp_v_q), .rsp_ready_o(rsp_ready), .rsp_hdr_i(rsp_hdr_q), .rsp_data_i('0),
    .ofwd_valid_o(ofwd_valid), .ofwd_ready_i(ofwd_ready), .ofwd_hdr_o(ofwd_hdr), .ofwd_hold_i(hold),
    .orsp_valid_o(orsp_valid_raw), .orsp_ready_i(orsp_ready_dut), .orsp_hdr_o(orsp_hdr_raw),
    .odat_valid_o(odat_valid_raw), .odat_ready_i(odat_ready_dut), .odat_hdr_o(odat_hdr_raw),
    .odat_data_o(odat_data),
    .evt_valid_o(evt_valid), .evt_ready_i(evt_ready), .evt_kind_o(evt_kind), .evt_line_o(evt_line),
    .evt_region_o(), .evt_op_o(), .evt_src_o(evt_src),
    .cmd_valid_i(cmp_v_q), .cmd_ready_o(cmd_ready), .cmd_op_i(cmp_op_q), .cmd_arg_i(cmp_arg_q),
    .cmd_line_i(cmp_line_q),
    .mem_en_o(mem_en), .mem_we_o(mem_we), .mem_addr_o(mem_addr), .mem_wdata_o(mem_wdata),
    .mem_rdata_i('0),  // data is abstracted away: no property looks at it
    // no DRAM-backed lines
    .m_axi_arready_i(1'b0), .m_axi_rvalid_i(1'b0), .m_axi_rdata_i('0),
    .m_axi_rresp_i('0), .m_axi_rlast_i(1'b0), .m_axi_awready_i(1'b0), .m_axi_wready_i(1'b0),
    .m_axi_bvalid_i(1'b0), .m_axi_bresp_i('0),
    .pb_en_i(1'b0), .pb_we_i(1'b0), .pb_line_i('0), .pb_wdata_i('0), .pb_gnt_o(), .pb_rdata_o(),
    .m_axi_arvalid_o(), .m_axi_araddr_o(), .m_axi_arlen_o(), .m_axi_arsize_o(),
    .m_axi_arburst_o(), .m_axi_rready_o(), .m_axi_awvalid_o(), .m_axi_awaddr_o(),
    .m_axi_awlen_o(), .m_axi_awsize_o(), .m_axi_awburst_o(), .m_axi_wvalid_o(),
    .m_axi_wdata_o(), .m_axi_wstrb_o(), .m_axi_wlast_o(), .m_axi_bready_o(), .dram_cnt_o(),
    .dram_err_o(),
    .time_i(time_q), .cfg_ret_excl_i(ret_excl_q), .cfg_park_timeout_i(tmo_q), .cnt_o(cnt),
    .init_done_o(init_done), .idle_o(), .park_o(), .park_near_o()
  );

  // The answer leaving the home now is a park timeout's Retry (probe, connected by
  // scripts/formal.sh).
  (* keep, fv_probe = "u_dut.u_out.ans_tmo" *) wire u_dut_ans_tmo;
  // The home's take stage (T) takes a request: at the port without Pipelined (= acc_req), from
  // its input head (H) with it, a cycle or more after the head took it from the port (a request
  // waits in the head while a message on its line is in flight).
  (* keep, fv_probe = "u_dut.take" *) wire probe_take;
  (* keep, fv_probe = "u_dut.u_take.take_req" *) wire probe_take_req;
  wire t_req = probe_take && probe_take_req;
  // ... the line of the message it takes and where that comes from (FV_LIVE: the bound)
  (* keep, fv_probe = "u_dut.sel_line" *) wire [LW-1:0] probe_sel_line;
  (* keep, fv_probe = "u_dut.u_take.take_rsp" *) wire probe_take_rsp;
  (* keep, fv_probe = "u_dut.u_take.take_tmo" *) wire probe_take_tmo;
  (* keep, fv_probe = "u_dut.u_take.take_cmd" *) wire probe_take_cmd;
  // The table reservations agree with the messages in flight (Pipelined: a register kept as
  // the stages move; the home agent compares it with the stages' records).
  (* keep, fv_probe = "u_dut.chk_resv" *) wire probe_resv;

  // ---- injected bugs: corrupt the home's output ports (tests that must FAIL) --------------------
  // FV_BUG_GRANT_E: a DataS grant leaves as DataE (two writers / writer + readers).
  // FV_BUG_RETRY_DST: a Retry goes to the next agent (an answer nobody asked for).
  // FV_BUG_DROP_RETRY: a timeout Retry is swallowed (the request is never answered).
  always_comb begin
    orsp_hdr       = orsp_hdr_raw;
    odat_hdr       = odat_hdr_raw;
    orsp_valid     = orsp_valid_raw;
    odat_valid     = odat_valid_raw;
    orsp_ready_dut = orsp_ready;
    odat_ready_dut = odat_ready;
`ifdef FV_BUG_GRANT_E
    if (odat_hdr_raw.op == cni_coh_pkg::OP_DATA_S) odat_hdr.op = cni_coh_pkg::OP_DATA_E;
`endif
`ifdef FV_BUG_RETRY_DST
    if (orsp_hdr_raw.op == cni_coh_pkg::OP_RETRY) orsp_hdr.dst = (orsp_hdr_raw.dst == 4'(NA - 1)) ? 4'd0 : orsp_hdr_raw.dst + 4'd1;
`endif
`ifdef FV_BUG_DROP_RETRY
    if (orsp_hdr_raw.op == cni_coh_pkg::OP_RETRY && u_dut_ans_tmo) begin
      orsp_valid     = 1'b0;   // never reaches the host...
      orsp_ready_dut = 1'b1;   // ...but the home believes it was sent
    end
`endif
  end
`ifdef FV_NO_JUNK
  wire hold = 1'b0;
`else
  wire hold = hold_i;
`endif

  // ---- handshakes ---------------------------------------------------------------------------
  wire acc_req  = rqp_v_q && req_ready;
  wire acc_rsp  = rsp_v_q && rsp_ready;
  wire acc_cmd  = cmp_v_q && cmd_ready;
  wire evt_take = evt_valid && evt_ready;
  wire fwd_fire = ofwd_valid && ofwd_ready;
  wire rsp_fire = orsp_valid && orsp_ready;
  wire dat_fire = odat_valid && odat_ready;

  // The answer (RSP or DAT channel) leaving the home this cycle, and the slot it names; the
  // snoop leaving the home this cycle, and the slot it names.
  cni_coh_pkg::hdr_t ans;
  logic ans_fire, ans_junk;
  logic [NS-1:0] ans_hit, snp_hit;
  always_comb begin
    ans      = dat_fire ? odat_hdr : orsp_hdr;
    ans_fire = (dat_fire || rsp_fire) && ans.op != cni_coh_pkg::OP_SNP_ACK;
    ans_junk = {1'b0, ans.dst} < 5'(NA) && ans.tag == JUNK_TAG;
    for (int k = 0; k < NS; k++) begin
      ans_hit[k] = ans.dst == 4'(k / NL) && ans.tag == 8'(k % NL) && ans.addr == addr_of(k % NL);
      snp_hit[k] = ofwd_hdr.dst == 4'(k / NL) && ofwd_hdr.addr == addr_of(k % NL);
    end
  end
  wire ans_slot_ok = |ans_hit;
  wire snp_slot_ok = |snp_hit;

`ifdef FV_POLICY
  // ---- the lines' policies (FV_POLICY) --------------------------------------------------------
  // Each tracked line's policy as the commands the home has applied set it (ARM: PARK; DISARM,
  // RELEASE: ALLOW; POLICY: its argument; the others leave it). Per slot: the policy its line
  // had when the home's take stage took the request (t_req), which is the one the home decides
  // it by (no command on that line is in flight meanwhile: the line interlock), and whether the
  // engine has RESUMEd or RELEASEd the line since, while that policy parked the request.
  // Pipelined, the request the take stage takes is the one in the home's request head: the
  // oldest one the port took and the take stage has not (the head and the spare behind it hold
  // two, in order).
  logic [1:0]    pol_q  [NL];
  logic [1:0]    pol_nx [NL];
  logic [1:0]    tpol_q [NS];
  logic [1:0]    tpol_now [NS];  // (with a request taken this cycle)
  logic [NS-1:0] ovr_q, ovr_now;
  logic [NS-1:0] tk_q;           // the take stage has taken the slot's request (not answered)
  logic [SW-1:0] hs_q, hs2_q;    // Pipelined: the slots of the requests in the home's head
  logic [1:0]    hn_q;           // and in its spare, and how many of the two hold one
  wire  [SW-1:0] t_slot = (Pipelined != 0) ? hs_q : rqp_s_q;
  logic [NL-1:0] rcd_q;          // the line's last recall taken was a RECALL_DN
  logic [NL-1:0] rel_now;        // a RESUME or RELEASE of the line is applied this cycle
  logic [NL-1:0] nack_err_now;   // ... a NACK Error
  logic [NL-1:0] parked;         // a request the policy parks is outstanding on the line

  // the line's policy parks the request (write-backs are never parked)
  function automatic logic parks(input logic [1:0] pol, input logic [2:0] rq);
    parks = (pol == cni_coh_pkg::POL_PARK && rq != RQ_WB) ||
            (pol == cni_coh_pkg::POL_SHARED && (rq == RQ_RDX || rq == RQ_UPG));
  endfunction

  always_comb begin
    for (int l = 0; l < NL; l++) begin
      logic on_l;
      on_l            = acc_cmd && cmp_line_q == line_of(l);
      rel_now[l]      = on_l && (cmp_op_q == cni_coh_pkg::CMD_RESUME ||
                                 cmp_op_q == cni_coh_pkg::CMD_RELEASE);
      nack_err_now[l] = on_l && cmp_op_q == cni_coh_pkg::CMD_NACK &&
                        cmp_arg_q == cni_coh_pkg::NACK_ERROR;
      pol_nx[l]       = pol_q[l];
      if (on_l) begin
        unique case (cmp_op_q)
          cni_coh_pkg::CMD_ARM:     pol_nx[l] = cni_coh_pkg::POL_PARK;
          cni_coh_pkg::CMD_DISARM,
          cni_coh_pkg::CMD_RELEASE: pol_nx[l] = cni_coh_pkg::POL_ALLOW;
          cni_coh_pkg::CMD_POLICY:  pol_nx[l] = cmp_arg_q;
          default: ;
        endcase
      end
    end
    parked = '0;
    for (int k = 0; k < NS; k++) begin
      logic taken_now;
      taken_now   = t_req && t_slot == SW'(k);
      tpol_now[k] = taken_now ? pol_q[k % NL] : tpol_q[k];
      ovr_now[k]  = ovr_q[k] || rel_now[k % NL];
      if (rq_q[k] != RQ_NONE && (tk_q[k] || taken_now) && parks(tpol_now[k], rq_q[k]))
        parked[k % NL] = 1'b1;
    end
  end
`endif

  // ================================ properties ====================================================
  // (1) single writer or many readers, on every tracked line
  logic [NL-1:0] swmr_ok;
  always_comb begin
    for (int l = 0; l < NL; l++) begin
      logic [2:0] w;
      logic       r;
      w = '0;
      r = 1'b0;
      for (int a = 0; a < NA; a++) begin
        if (st_q[a*NL+l] == ST_W) w = w + 3'd1;
        if (st_q[a*NL+l] == ST_S) r = 1'b1;
      end
      swmr_ok[l] = (w <= 3'd1) && (w == 3'd0 || !r);
    end
  end

  // (2) every answer (DataS/E/M, UpgAck, WbAck, Retry, Error) answers a request the agent has
  // outstanding and accepted, and fits it (the home sends no SnpAck: it has no FWD input).
  logic ans_requested, ans_fits, snp_busy;
  always_comb begin
    ans_requested = 1'b0;
    ans_fits      = 1'b0;
    snp_busy      = 1'b0;
    if (ans_junk) begin
      for (int a = 0; a < NA; a++) begin
        if (ans.dst == 4'(a)) begin
          ans_requested = jk_v_q[a] && (jk_dlv_q[a] || (acc_req && rqp_s_q == SW'(NS + a)));
        end
      end
      ans_fits = ans.op == cni_coh_pkg::OP_ERROR;
    end
    for (int k = 0; k < NS; k++) begin
      if (!ans_junk && ans_hit[k]) begin
        ans_requested = rq_q[k] != RQ_NONE && (dlv_q[k] || (acc_req && rqp_s_q == SW'(k)));
        unique case (ans.op)
          cni_coh_pkg::OP_DATA_S:  ans_fits = rq_q[k] == RQ_RDS;
          cni_coh_pkg::OP_DATA_E,
          cni_coh_pkg::OP_DATA_M:  ans_fits = rq_q[k] == RQ_RDS || rq_q[k] == RQ_RDX ||
                                              rq_q[k] == RQ_UPG;
          cni_coh_pkg::OP_UPG_ACK: ans_fits = rq_q[k] == RQ_UPG && st_q[k] == ST_S;
          cni_coh_pkg::OP_WB_ACK:  ans_fits = rq_q[k] == RQ_WB;
          cni_coh_pkg::OP_RETRY:   ans_fits = rq_q[k] == RQ_RDS || rq_q[k] == RQ_RDX ||
                                              rq_q[k] == RQ_UPG;
          cni_coh_pkg::OP_ERROR:   ans_fits = 1'b1;
          default:                 ans_fits = 1'b0;
        endcase
      end
      if (snp_hit[k] && sa_v_q[k]) snp_busy = 1'b1;
    end
  end

`ifdef FV_POLICY
  // (4) the policies: per answer to a well-formed request of slot k (its line's policy when the
  // home took it: tpol_now; its line's policy now: pol_q; the engine answered it: ovr_now)
  logic err_ok, deny_ok, shared_ok, park_ok, recall_ok;
  always_comb begin
    err_ok    = 1'b0;
    deny_ok   = 1'b1;
    shared_ok = 1'b1;
    park_ok   = 1'b1;
    for (int k = 0; k < NS; k++) begin
      if (ans_fire && !ans_junk && ans_hit[k] && rq_q[k] != RQ_WB) begin
        logic excl, grant;
        excl  = ans.op == cni_coh_pkg::OP_DATA_E || ans.op == cni_coh_pkg::OP_DATA_M ||
                ans.op == cni_coh_pkg::OP_UPG_ACK;
        grant = excl || ans.op == cni_coh_pkg::OP_DATA_S;
        if (tpol_now[k] == cni_coh_pkg::POL_DENY ||
            (nack_err_now[k % NL] && parks(tpol_now[k], rq_q[k]))) err_ok = 1'b1;
        // a DENY line grants nothing: Error, or Retry when the line is busy
        if (tpol_now[k] == cni_coh_pkg::POL_DENY && ans.op != cni_coh_pkg::OP_ERROR &&
            ans.op != cni_coh_pkg::OP_RETRY) deny_ok = 1'b0;
        // no exclusive grant on a SHARED line, nor to a request taken while it was SHARED,
        // unless the engine RESUMEd or RELEASEd the request, or the home had decided the grant
        // under ALLOW (a snoop transaction started before the policy changed)
        if (excl && (tpol_now[k] == cni_coh_pkg::POL_SHARED ||
                     pol_q[k % NL] == cni_coh_pkg::POL_SHARED) &&
            !ovr_now[k] && tpol_now[k] != cni_coh_pkg::POL_ALLOW) shared_ok = 1'b0;
        // a request its policy parks is granted only by the engine (RESUME, RELEASE)
        if (grant && parks(tpol_now[k], rq_q[k]) && !ovr_now[k]) park_ok = 1'b0;
      end
    end
    // when the engine takes RECALL_DONE, no host holds the line after a RECALL, and none holds
    // it writable after a RECALL_DN
    recall_ok = 1'b1;
    for (int l = 0; l < NL; l++) begin
      if (evt_take && evt_kind == cni_coh_pkg::EVT_RECALL_DONE && evt_line == line_of(l)) begin
        for (int a = 0; a < NA; a++) begin
          if (st_q[a*NL+l] == ST_W || (!rcd_q[l] && st_q[a*NL+l] != ST_I)) recall_ok = 1'b0;
        end
      end
    end
  end
`endif

`ifdef FV_REACH_SNOOP
  // the home has taken a snoop answer (the first step a grant can end a snoop transaction)
  logic reach_snp_q = 1'b0;
  always_ff @(posedge clk_i) if (!rst_q && acc_rsp) reach_snp_q <= 1'b1;
`endif
`ifdef FV_REACH_PARKED
  // the slots whose request the engine has parked (it took the request's TRIGGER)
  logic [NS-1:0] reach_pk;
  always_comb for (int k = 0; k < NS; k++) reach_pk[k] = pk_q[k];
`endif

  always_comb begin
    if (!rst_q) begin
      p_swmr:          assert (&swmr_ok);
      p_resp_requested: assert (!ans_fire || ans_requested);
      p_resp_fits:     assert (!ans_fire || ans_fits);
      p_resv:          assert (probe_resv);
`ifdef FV_POLICY
      // Error answers a well-formed request only on a line that was DENY when the home took it,
      // or as the engine's NACK Error of the parked request (it leaves as the NACK is applied)
      p_no_error:      assert (!ans_fire || ans.op != cni_coh_pkg::OP_ERROR || ans_junk || err_ok);
`else
      // the hosts here send only well-formed requests: Error only answers the malformed ones
      p_no_error:      assert (!ans_fire || ans.op != cni_coh_pkg::OP_ERROR || ans_junk);
`endif
      // the home never sends a snoop answer (snoops to the device go to its caching agent)
      p_no_snpack:     assert (!(rsp_fire && orsp_hdr.op == cni_coh_pkg::OP_SNP_ACK));
      // a snoop goes to a host that holds a tracked line, is FwdInv/FwdDown, names a table
      // entry, and never reaches an agent whose answer for that line is still on its way
      p_snoop_ok:      assert (!fwd_fire || (snp_slot_ok && !snp_busy &&
                               ofwd_hdr.tag < 8'd8 &&
                               (ofwd_hdr.op == cni_coh_pkg::OP_FWD_INV ||
                                ofwd_hdr.op == cni_coh_pkg::OP_FWD_DOWN)));
`ifdef FV_REACH_SNOOP
      p_reach_snoop:   assert (!(ans_fire && reach_snp_q && (ans.op == cni_coh_pkg::OP_DATA_S ||
                               ans.op == cni_coh_pkg::OP_DATA_E || ans.op == cni_coh_pkg::OP_DATA_M)));
`endif
`ifdef FV_REACH_ANSWER
      p_reach_answer:  assert (!(ans_fire && !ans_junk && (ans.op == cni_coh_pkg::OP_DATA_S ||
                               ans.op == cni_coh_pkg::OP_DATA_E || ans.op == cni_coh_pkg::OP_DATA_M ||
                               ans.op == cni_coh_pkg::OP_UPG_ACK)));
`endif
`ifdef FV_REACH_PARKED
      p_reach_parked:  assert (!(ans_fire && !ans_junk && (ans_hit & reach_pk) != '0));
`endif
`ifdef FV_POLICY
      p_deny:          assert (deny_ok);
      p_shared:        assert (shared_ok);
      p_park:          assert (park_ok);
      p_recall_done:   assert (recall_ok);
      // (the home's request input holds at most two requests it has not taken: head and spare)
      p_head_room:     assert (hn_q != 2'd3);
`endif
    end
  end

  // The messages the home takes that belong to a waiting request's own transaction: snoop
  // answers, park timeouts, and, once the engine has taken its TRIGGER, the engine's RELEASE,
  // RESUME or NACK of its line (they are inside AnswerBound; every other message the home takes
  // on the line adds MsgCost).
  wire answering_cmd = probe_take_cmd && (cmp_op_q == cni_coh_pkg::CMD_RELEASE ||
                                          cmp_op_q == cni_coh_pkg::CMD_RESUME ||
                                          cmp_op_q == cni_coh_pkg::CMD_NACK);
  logic [NS-1:0] own_take;
  always_comb begin
    for (int s = 0; s < NS; s++)
      own_take[s] = probe_take_rsp || probe_take_tmo || (pk_q[s] && answering_cmd);
  end

`ifdef FV_LIVE
  // (3) every accepted request is answered within AnswerBound cycles
  logic late;
  always_comb begin
    late = 1'b0;
    // (each other message the home takes on the request's line while the request waits -- an
    // engine command, another agent's request or write-back -- adds MsgCost cycles: the home
    // takes and applies it, and the interlock keeps the line's other messages back for both;
    // docs/formal.md)
    for (int s = 0; s < NS; s++) begin
      if (rq_q[s] != RQ_NONE && dlv_q[s] &&
          age_q[s] >= 8'(AnswerBound) + 8'(MsgCost) * 8'(nmsg_q[s])) late = 1'b1;
    end
    if (!rst_q) p_answer_bound: assert (!late);
  end
`endif

  // ================================ environment ===================================================
  // Host actions this cycle, per slot (masked: no action on a slot that receives a message
  // this cycle, nor a new request on a line the engine is arming), and malformed requests.
  logic [2:0]    act [NS];
  logic [NA-1:0] act_junk;
  logic          cmd_pick;
  logic [cni_coh_pkg::CMD_W-1:0] cmd_pick_op;
  logic [cni_coh_pkg::ARG_W-1:0] cmd_pick_arg;
  logic [LW-1:0] cmd_pick_line;
  logic [NumLines-1:0] armed_nx;

  always_comb begin
    armed_nx = armed_q;
    if (acc_cmd) begin
      if (cmp_op_q == cni_coh_pkg::CMD_ARM) armed_nx[cmp_line_q] = 1'b1;
      if (cmp_op_q == cni_coh_pkg::CMD_RELEASE || cmp_op_q == cni_coh_pkg::CMD_DISARM)
        armed_nx[cmp_line_q] = 1'b0;
    end
  end

  // a line no host holds, asks for or answers a snoop on (what the engine's RECALL leaves)
  function automatic logic quiet(input logic [LW-1:0] line);
    quiet = 1'b1;
    for (int l = 0; l < NL; l++) begin
      if (line == line_of(l)) begin
        for (int a = 0; a < NA; a++) begin
          if (st_q[a*NL+l] != ST_I || rq_q[a*NL+l] != RQ_NONE || sa_v_q[a*NL+l]) quiet = 1'b0;
        end
      end
    end
  endfunction

  // engine commands
  wire cmp_free = !cmp_v_q || acc_cmd;
`ifdef FV_FAIR_ENGINE
  // TRIGGERs the engine has taken and not yet answered (RESUME, NACK, RELEASE of the line)
  logic [NL-1:0] owed_q, owed;
  always_comb begin
    for (int l = 0; l < NL; l++) begin
      owed[l] = owed_q[l] && !(acc_cmd && cmp_line_q == line_of(l) &&
                               (cmp_op_q == cni_coh_pkg::CMD_RESUME ||
                                cmp_op_q == cni_coh_pkg::CMD_NACK ||
                                cmp_op_q == cni_coh_pkg::CMD_RELEASE));
    end
  end
  // an answer to a TRIGGER: the next command once one is owed
  function automatic logic answers(input logic [cni_coh_pkg::CMD_W-1:0] op,
                                   input logic [LW-1:0] line);
    answers = 1'b0;
    for (int l = 0; l < NL; l++) begin
      if (owed[l] && line == line_of(l) &&
          (op == cni_coh_pkg::CMD_RESUME || op == cni_coh_pkg::CMD_NACK ||
           op == cni_coh_pkg::CMD_RELEASE)) answers = 1'b1;
    end
  endfunction
  // a line the engine may recall: it does not park it, and nothing is parked on it
  function automatic logic recallable(input logic [LW-1:0] line);
    recallable = 1'b1;
    for (int l = 0; l < NL; l++) begin
      if (line == line_of(l) && (parked[l] || pol_nx[l] == cni_coh_pkg::POL_PARK ||
                                 pol_nx[l] == cni_coh_pkg::POL_SHARED)) recallable = 1'b0;
    end
  endfunction
`endif
  always_comb begin
    cmd_pick      = cmd_en_i && cmp_free && init_done;
    cmd_pick_op   = cmd_op_i;
    cmd_pick_arg  = '0;
    cmd_pick_line = cmd_line_i;
`ifdef FV_POLICY
    cmd_pick_arg  = cmd_arg_i;
`endif
`ifdef FV_LIVE
  `ifdef FV_FAIR_ENGINE
    // (an answer to a TRIGGER is not held back)
    if (cmd_gap_q < 4'(CmdGap) && owed == '0) cmd_pick = 1'b0;
  `else
    if (cmd_gap_q < 4'(CmdGap)) cmd_pick = 1'b0;
  `endif
`endif
  end
  always_comb begin
`ifdef FV_FAIR_ENGINE
    if (!rst_q) begin
      // the engine answers every TRIGGER it took, with its next command
      a_eng_answer: assume (!(cmp_free && init_done && owed != '0) ||
                            (cmd_pick && answers(cmd_pick_op, cmd_pick_line)));
    end
`endif
    if (!rst_q && cmd_pick) begin
      a_cmd_line:   assume (cmd_pick_line < LW'(NumLines));
`ifdef FV_FAIR_ENGINE
      // a RECALL presented on a line with a parked request waits until the request is answered
      // and blocks the engine's answer: without the park timer the engine recalls only lines
      // it does not park
      a_eng_recall: assume (!(cmd_pick_op == cni_coh_pkg::CMD_RECALL ||
                              cmd_pick_op == cni_coh_pkg::CMD_RECALL_DN) ||
                            recallable(cmd_pick_line));
`endif
`ifndef FV_POLICY
      // the PIO engine's commands: ARM, RECALL, RELEASE, DISARM
      a_cmd_op:     assume (cmd_pick_op <= cni_coh_pkg::CMD_DISARM);
      // engines never RECALL an armed line, and never ARM a line twice
      a_cmd_recall: assume (cmd_pick_op != cni_coh_pkg::CMD_RECALL || !armed_nx[cmd_pick_line]);
      a_cmd_arm:    assume (cmd_pick_op != cni_coh_pkg::CMD_ARM || !armed_nx[cmd_pick_line]);
`endif
`ifndef FV_WEAK_ENGINE
      // ... and ARM only a line the hosts have left alone (recalled, nothing asked since)
      a_cmd_quiet:  assume (cmd_pick_op != cni_coh_pkg::CMD_ARM || quiet(cmd_pick_line));
`endif
    end
  end
  // lines an ARM is on its way to: hosts leave them alone
  function automatic logic arming(input int l);
`ifdef FV_WEAK_ENGINE
    arming = 1'b0;
`else
    arming = (cmp_v_q && cmp_op_q == cni_coh_pkg::CMD_ARM && cmp_line_q == line_of(l)) ||
             (cmd_pick && cmd_pick_op == cni_coh_pkg::CMD_ARM && cmd_pick_line == line_of(l));
`endif
  endfunction

  always_comb begin
    for (int a = 0; a < NA; a++) begin
`ifdef FV_NO_JUNK
      act_junk[a] = 1'b0;
`else
      act_junk[a] = init_done && act_i[a*3 +: 3] == A_JUNK && !jk_v_q[a];
`endif
    end
    for (int k = 0; k < NS; k++) begin
      logic [2:0] x;
      x = act_i[(k / NL)*3 +: 3];
      if (!init_done || act_line_i[(k / NL)*2 +: 2] != 2'(k % NL) || x == A_JUNK) x = A_NONE;
`ifdef FV_ONE_HOST
      if (k / NL != 0) x = A_NONE;  // only agent 0 acts (a narrower environment, for speed)
`endif
      if ((fwd_fire && snp_hit[k]) || (ans_fire && !ans_junk && ans_hit[k])) x = A_NONE;
      if (rq_q[k] != RQ_NONE) x = A_NONE;
      if (x == A_RDS && st_q[k] != ST_I) x = A_NONE;
      if (x == A_RDX && st_q[k] == ST_W) x = A_NONE;
      if (x == A_UPG && st_q[k] != ST_S) x = A_NONE;
      if (x == A_EVICT && st_q[k] != ST_W) x = A_NONE;
      if (x == A_DROP && st_q[k] == ST_I) x = A_NONE;
      if ((x == A_RDS || x == A_RDX || x == A_UPG) && arming(k % NL)) x = A_NONE;
      if (x > A_DROP) x = A_NONE;
      act[k] = x;
    end
  end

  // Inbound channel presenters: a free presenter may take any pending message.
  wire rqp_free = !rqp_v_q || acc_req;
  wire rsp_free = !rsp_v_q || acc_rsp;
  logic rq_cand_ok, rq_cand_old, rq_any_old, rs_cand_ok, rs_cand_old, rs_any_old, rs_junk;
  cni_coh_pkg::hdr_t rq_cand_hdr, rs_cand_hdr;
  always_comb begin
    rq_cand_ok  = 1'b0;
    rq_cand_old = 1'b0;
    rq_cand_hdr = '0;
    rq_any_old  = 1'b0;
    for (int k = 0; k < NS; k++) begin
      logic pend;
      pend = rq_q[k] != RQ_NONE && !dlv_q[k] && !(rqp_v_q && rqp_s_q == SW'(k));
      if (pend && iage_q[k] >= 4'(Fair)) rq_any_old = 1'b1;
      if (rq_pick_i == SW'(k)) begin
        rq_cand_ok       = pend;
        rq_cand_old      = iage_q[k] >= 4'(Fair);
        rq_cand_hdr.op   = (rq_q[k] == RQ_RDS) ? cni_coh_pkg::OP_RDS :
                           (rq_q[k] == RQ_RDX) ? cni_coh_pkg::OP_RDX :
                           (rq_q[k] == RQ_UPG) ? cni_coh_pkg::OP_UPG : cni_coh_pkg::OP_WB;
        rq_cand_hdr.src  = 4'(k / NL);
        rq_cand_hdr.dst  = HOME;
        rq_cand_hdr.tag  = 8'(k % NL);
        rq_cand_hdr.len  = (rq_q[k] == RQ_WB) ? LEN_LINE : 8'd0;
        rq_cand_hdr.addr = addr_of(k % NL);
      end
    end
    for (int a = 0; a < NA; a++) begin
      if (rq_pick_i == SW'(NS + a)) begin
        rq_cand_ok  = jk_v_q[a] && !jk_dlv_q[a] && !(rqp_v_q && rqp_s_q == SW'(NS + a));
        rq_cand_hdr = junk_hdr_i;
        rq_cand_hdr.src = 4'(a);
        rq_cand_hdr.tag = JUNK_TAG;
      end
    end
  end
  always_comb begin
    rs_cand_ok  = 1'b0;
    rs_cand_old = 1'b0;
    rs_cand_hdr = '0;
    rs_any_old  = 1'b0;
    rs_junk     = 1'b0;
    for (int k = 0; k < NS; k++) begin
      logic pend;
      pend = sa_v_q[k] && !(rsp_v_q && rsp_s_q == SW'(k));
      if (pend && sa_age_q[k] >= 4'(Fair)) rs_any_old = 1'b1;
      if (rs_pick_i == SW'(k)) begin
        rs_cand_ok       = pend;
        rs_cand_old      = sa_age_q[k] >= 4'(Fair);
        rs_cand_hdr.op   = sa_d_q[k] ? cni_coh_pkg::OP_SNP_DATA : cni_coh_pkg::OP_SNP_ACK;
        rs_cand_hdr.src  = 4'(k / NL);
        rs_cand_hdr.dst  = HOME;
        rs_cand_hdr.tag  = sa_t_q[k];
        rs_cand_hdr.flags[cni_coh_pkg::FLAG_WBP] = sa_w_q[k];
        rs_cand_hdr.len  = sa_d_q[k] ? LEN_LINE : 8'd0;
        rs_cand_hdr.addr = addr_of(k % NL);
      end
    end
`ifndef FV_NO_JUNK
    if (rs_pick_i >= SW'(NS)) begin
      rs_junk     = 1'b1;
      rs_cand_ok  = 1'b1;
      rs_cand_hdr = junk_hdr_i;
    end
`endif
  end

  // Malformed messages are malformed in a way the home can see (format, not content).
  function automatic logic bad_format(input cni_coh_pkg::hdr_t h, input logic is_req);
    logic op_ok, len_ok;
    if (is_req) begin
      op_ok  = h.op == cni_coh_pkg::OP_RDS || h.op == cni_coh_pkg::OP_RDX ||
               h.op == cni_coh_pkg::OP_UPG || h.op == cni_coh_pkg::OP_WB;
      len_ok = h.len == ((h.op == cni_coh_pkg::OP_WB) ? LEN_LINE : 8'd0);
    end else begin
      op_ok  = h.op == cni_coh_pkg::OP_SNP_ACK || h.op == cni_coh_pkg::OP_SNP_DATA;
      len_ok = h.len == ((h.op == cni_coh_pkg::OP_SNP_DATA) ? LEN_LINE : 8'd0);
    end
    bad_format = !op_ok || !len_ok || h.dst != HOME || {1'b0, h.src} >= 5'(NA) ||
                 h.addr[5:0] != '0 || h.addr < DEV_BASE ||
                 h.addr >= DEV_BASE + 48'(NumLines * 64);
  endfunction

  wire rq_pick = rq_pick_en_i && rqp_free && rq_cand_ok && init_done;
  wire rs_pick = rs_pick_en_i && rsp_free && rs_cand_ok && init_done;
  always_comb begin
    if (!rst_q) begin
      if (rq_pick && rq_pick_i >= SW'(NS)) a_junk_req: assume (bad_format(rq_cand_hdr, 1'b1));
      if (rs_pick && rs_junk) a_junk_rsp: assume (bad_format(rs_cand_hdr, 1'b0));
`ifdef FV_LIVE
      // fairness: a message that has waited Fair cycles goes next once its channel is free
      a_fair_req: assume (!(rqp_free && rq_any_old) || (rq_pick && rq_cand_old));
      a_fair_rsp: assume (!(rsp_free && rs_any_old) || (rs_pick && rs_cand_old));
      // hosts stall the home's outputs at most Fair cycles
      a_fair_fwd: assume (!(ofwd_valid && stall_fwd_q >= 4'(Fair)) || ofwd_ready);
      a_fair_ors: assume (!(orsp_valid && stall_rsp_q >= 4'(Fair)) || orsp_ready);
      a_fair_odt: assume (!(odat_valid && stall_dat_q >= 4'(Fair)) || odat_ready);
`endif
    end
  end

  // ---- state update ------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (rst_q) begin
      for (int s = 0; s < NS; s++) begin
        st_q[s]   <= ST_I;
        rq_q[s]   <= RQ_NONE;
        dlv_q[s]  <= 1'b0;
        age_q[s]  <= '0;
        nmsg_q[s] <= '0;
        pk_q[s]   <= 1'b0;
        iage_q[s] <= '0;
        sa_v_q[s] <= 1'b0;
        sa_d_q[s] <= 1'b0;
        sa_w_q[s] <= 1'b0;
        sa_t_q[s] <= '0;
        sa_age_q[s] <= '0;
      end
      jk_v_q    <= '0;
      jk_dlv_q  <= '0;
      armed_q   <= '0;
      rqp_v_q   <= 1'b0;
      rsp_v_q   <= 1'b0;
      cmp_v_q   <= 1'b0;
      rqp_s_q   <= '0;
      rsp_s_q   <= '0;
      rqp_hdr_q <= '0;
      rsp_hdr_q <= '0;
      cmp_op_q  <= '0;
      cmp_arg_q <= '0;
      cmp_line_q <= '0;
      cmd_gap_q <= '0;
      ret_excl_q <= ret_excl_i;
`ifdef FV_FAIR_ENGINE
      tmo_q     <= '1;  // no park timer: the engine answers
`elsif FV_LIVE
      tmo_q     <= 32'(MaxTimeout);
`else
      tmo_q     <= (timeout_i <= 32'(MaxTimeout)) ? timeout_i : 32'(MaxTimeout);
`endif
      stall_fwd_q <= '0;
      stall_rsp_q <= '0;
      stall_dat_q <= '0;
`ifdef FV_POLICY
      for (int l = 0; l < NL; l++) pol_q[l] <= cni_coh_pkg::POL_ALLOW;  // the init sweep's
      for (int s = 0; s < NS; s++) tpol_q[s] <= cni_coh_pkg::POL_ALLOW;
      ovr_q <= '0;
      tk_q  <= '0;
      hs_q  <= '0;
      hs2_q <= '0;
      hn_q  <= '0;
      rcd_q <= '0;
`endif
`ifdef FV_FAIR_ENGINE
      owed_q     <= '0;
`endif
    end else begin
      // ages
      for (int s = 0; s < NS; s++) begin
        if (rq_q[s] != RQ_NONE && dlv_q[s] && age_q[s] != 8'hFF) age_q[s] <= age_q[s] + 1'b1;
        if (rq_q[s] != RQ_NONE && dlv_q[s] && evt_take && evt_kind == cni_coh_pkg::EVT_TRIGGER &&
            evt_line == line_of(s % NL) && evt_src == cni_coh_pkg::AGENT_W'(s / NL)) pk_q[s] <= 1'b1;
        if (rq_q[s] != RQ_NONE && dlv_q[s] && probe_take && probe_sel_line == line_of(s % NL) &&
            !own_take[s] && nmsg_q[s] != 4'hF) nmsg_q[s] <= nmsg_q[s] + 1'b1;
        if (rq_q[s] != RQ_NONE && !dlv_q[s] && iage_q[s] != 4'hF) iage_q[s] <= iage_q[s] + 1'b1;
        if (sa_v_q[s] && sa_age_q[s] != 4'hF) sa_age_q[s] <= sa_age_q[s] + 1'b1;
      end
      stall_fwd_q <= (ofwd_valid && !ofwd_ready) ? stall_fwd_q + 1'b1 : '0;
      stall_rsp_q <= (orsp_valid && !orsp_ready) ? stall_rsp_q + 1'b1 : '0;
      stall_dat_q <= (odat_valid && !odat_ready) ? stall_dat_q + 1'b1 : '0;
      armed_q <= armed_nx;
`ifdef FV_POLICY
      for (int l = 0; l < NL; l++) begin
        pol_q[l] <= pol_nx[l];
        if (acc_cmd && cmp_line_q == line_of(l) && (cmp_op_q == cni_coh_pkg::CMD_RECALL ||
                                                    cmp_op_q == cni_coh_pkg::CMD_RECALL_DN)) begin
          rcd_q[l] <= cmp_op_q == cni_coh_pkg::CMD_RECALL_DN;
        end
      end
      if (t_req) begin
        hs_q <= (hn_q == 2'd2) ? hs2_q : rqp_s_q;
        if (acc_req) hs2_q <= rqp_s_q;
      end else if (acc_req) begin
        if (hn_q == 2'd0) hs_q <= rqp_s_q;
        else hs2_q <= rqp_s_q;
      end
      hn_q <= hn_q - 2'(t_req) + 2'(acc_req);
      for (int k = 0; k < NS; k++) begin
        if (t_req && t_slot == SW'(k)) begin
          tpol_q[k] <= pol_q[k % NL];
          ovr_q[k]  <= 1'b0;
        end else if (rel_now[k % NL] && rq_q[k] != RQ_NONE && tk_q[k] &&
                     parks(tpol_q[k], rq_q[k])) begin
          ovr_q[k]  <= 1'b1;
        end
        if (ans_fire && !ans_junk && ans_hit[k]) tk_q[k] <= 1'b0;
        else if (t_req && t_slot == SW'(k)) tk_q[k] <= 1'b1;
      end
`endif
`ifdef FV_FAIR_ENGINE
      for (int l = 0; l < NL; l++) begin
        owed_q[l] <= owed[l] || (evt_take && evt_kind == cni_coh_pkg::EVT_TRIGGER &&
                                 evt_line == line_of(l));
      end
`endif
      cmd_gap_q <= acc_cmd ? '0 : (cmd_gap_q == 4'hF ? cmd_gap_q : cmd_gap_q + 1'b1);

      // requests taken by the home
      if (acc_req) begin
        if (rqp_s_q < SW'(NS)) dlv_q[rqp_s_q] <= 1'b1;
        else jk_dlv_q[rqp_s_q - SW'(NS)] <= 1'b1;
      end
      // snoop answers taken by the home
      if (acc_rsp && rsp_s_q < SW'(NS)) sa_v_q[rsp_s_q] <= 1'b0;

      // answers from the home, malformed requests
      for (int a = 0; a < NA; a++) begin
        if (ans_fire && ans_junk && ans.dst == 4'(a)) begin
          jk_v_q[a]   <= 1'b0;
          jk_dlv_q[a] <= 1'b0;
        end
        if (act_junk[a]) begin
          jk_v_q[a]   <= 1'b1;
          jk_dlv_q[a] <= 1'b0;
        end
      end
      for (int k = 0; k < NS; k++) begin
        if (ans_fire && !ans_junk && ans_hit[k]) begin
          rq_q[k]   <= RQ_NONE;
          dlv_q[k]  <= 1'b0;
          age_q[k]  <= '0;
          nmsg_q[k] <= '0;
          pk_q[k]   <= 1'b0;
          unique case (ans.op)
            cni_coh_pkg::OP_DATA_S: st_q[k] <= ST_S;
            cni_coh_pkg::OP_DATA_E, cni_coh_pkg::OP_DATA_M, cni_coh_pkg::OP_UPG_ACK:
              st_q[k] <= ST_W;
            default: ;  // WbAck, Retry, Error: the state stays
          endcase
        end
        // snoops from the home: answered from the current state
        if (fwd_fire && snp_hit[k]) begin
          sa_v_q[k]   <= 1'b1;
          sa_t_q[k]   <= ofwd_hdr.tag;
          sa_age_q[k] <= '0;
          if (rq_q[k] == RQ_WB) begin  // MI: the write-back carries the data
            sa_d_q[k] <= 1'b0;
            sa_w_q[k] <= 1'b1;
          end else begin
            sa_d_q[k] <= st_q[k] == ST_W && snp_dirty_i;
            sa_w_q[k] <= 1'b0;
            if (ofwd_hdr.op == cni_coh_pkg::OP_FWD_INV) st_q[k] <= ST_I;
            else if (st_q[k] == ST_W) st_q[k] <= ST_S;
          end
        end
        // host actions
        unique case (act[k])
          A_RDS:   begin rq_q[k] <= RQ_RDS; dlv_q[k] <= 1'b0; iage_q[k] <= '0; end
          A_RDX:   begin rq_q[k] <= RQ_RDX; dlv_q[k] <= 1'b0; iage_q[k] <= '0; end
          A_UPG:   begin rq_q[k] <= RQ_UPG; dlv_q[k] <= 1'b0; iage_q[k] <= '0; end
          A_EVICT: begin rq_q[k] <= RQ_WB; dlv_q[k] <= 1'b0; iage_q[k] <= '0; st_q[k] <= ST_I; end
          A_DROP:  st_q[k] <= ST_I;  // a clean copy leaves silently
          default: ;
        endcase
      end

      // presenters
      if (acc_req) rqp_v_q <= 1'b0;
      if (rq_pick) begin
        rqp_v_q   <= 1'b1;
        rqp_s_q   <= rq_pick_i;
        rqp_hdr_q <= rq_cand_hdr;
      end
      if (acc_rsp) rsp_v_q <= 1'b0;
      if (rs_pick) begin
        rsp_v_q   <= 1'b1;
        rsp_s_q   <= rs_junk ? SW'(NS) : rs_pick_i;
        rsp_hdr_q <= rs_cand_hdr;
      end

      if (acc_cmd) cmp_v_q <= 1'b0;
      if (cmd_pick) begin
        cmp_v_q    <= 1'b1;
        cmp_op_q   <= cmd_pick_op;
        cmp_arg_q  <= cmd_pick_arg;
        cmp_line_q <= cmd_pick_line;
      end
    end
  end

endmodule
