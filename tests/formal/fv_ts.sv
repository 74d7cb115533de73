// SPDX-License-Identifier: Apache-2.0
// Formal harness (not synthesizable: free inputs, assertions) for the tag store's access rule:
// the tag store engine (cni_ts_engine) and the home agent (cni_home_agent), unchanged, joined by
// the engine bus as the engine complex joins them (for one engine: wires); an abstract
// environment of NA host caching agents that follow docs/protocol.md on the engine's blocks;
// an abstract handler that writes the engine's register window (CMD, ACK, MODE) with free
// values, bad commands included; assertions that a block's tag rules the hosts' grants and
// copies.
// Properties, assumptions and why they are the protocol's rules: docs/formal.md ("Tag store
// engine with the home agent").
//
// Parameters:
//   NA         - host caching agents (ids 0..NA-1); also the home's NumAgents
//   Blocks     - blocks of the engine's region (its Lines); the hosts use every block
//   LineBytes  - line size (64: the register page is 4 lines)
//   TrigDepth, CmdDepth - the engine's fault queue and command queue
// The region (docs/tagstore.md): the register page (256 / LineBytes lines), the dispatch line,
// the buffer line, then the blocks; the device map is that region alone (every other region
// empty), so the home's lines are the engine's.
// Ports: every input is chosen freely by the solver in every step (the environment's choices);
// ret_excl_i and timeout_i are taken once, at reset (free constants per run).
//
// The tags: the harness keeps a copy of the engine's tag RAM, written as the engine writes it
// (its write port, u_ts.t_we/t_wa/t_wd, probed): the tag RAM is a memory, which a probe cannot
// name, and following the port gives the tag the engine holds, not one a harness rule derives
// from the commands (that rule would have the engine's bugs built in). Beside it, per block, the
// tag the home enforces: the tag the RAM held when the home applied the engine's last POLICY of
// the block's line (the engine writes a tag, then sets the policy: until the policy lands the
// home still enforces the old tag, and a decrease then recalls what the home granted under it).
//
// Defines (each a narrower environment, for the depth a resume needs; docs/formal.md):
// FV_NO_HANDLER_INIT (the handler writes nothing before the engine is ready, as its driver
// waits for STATUS.ready), FV_LATE_HOSTS (the hosts start once the engine is ready),
// FV_ONE_HOST (only agent 0 sends requests), FV_GOOD_CMDS (the handler writes only commands,
// each a known op with a tag below 3 on a block of the region), FV_NO_TIMER (no park timeout:
// only the engine answers a parked request); FV_REACH_RESUMED (a reachability witness:
// p_reach_resumed says no request its enforced tag did not allow is granted, and must fail);
// FV_BUG_* (injected bugs on the command path between the engine and the home, each must make
// one assertion fail).
//
// Properties (slot k: agent k / Blocks, block k % Blocks; ttag: the enforced tag when the home
// took k's request; res / xres: the home applied a RESUME of the block since then, with a grant
// the tag RAM's tag allowed at that moment / with AUTO while the tag was ReadWrite):
//   p_ro_shared   (1) an exclusive grant (DataE, DataM, UpgAck) only if ttag is ReadWrite or
//                 xres: a ReadOnly or Invalid block is granted Shared only, unless the handler's
//                 command raised the tag to ReadWrite and resumed the request
//   p_inv_resume  (2) a request ttag does not allow (Invalid; RdX or Upg on ReadOnly) is granted
//                 (DataS, DataE, DataM, UpgAck) only if res: it completes only through a resume
//                 (a NACK, a busy line, the park timeout answer Retry or Error)
//   p_tag_copies  (3) while no tag change is in progress (the handler command that changed the
//                 RAM's tag has ended), no host holds a copy of a block tagged Invalid, nor a
//                 writable copy of one tagged ReadOnly
//   p_pol_tag     every POLICY of a block the home applies is the one its tag RAM's tag maps to
//   p_resume_tag  every RESUME of a block the home applies carries a grant its tag allows
//   p_swmr        single writer or many readers on every block
`default_nettype none

module cni_nonsynth_fv_ts #(
  parameter int NA        = 2,
  parameter int Blocks    = 1,
  parameter int LineBytes = 64,
  parameter int TrigDepth = 2,
  parameter int CmdDepth  = 2,
  localparam int R        = 256 / LineBytes,       // register page lines
  localparam int LBlk0    = R + 2,                 // block 0's line
  localparam int NumLines = LBlk0 + Blocks,
  // (only the tag store's region: its field of the packed sizes, whatever regions the registry
  // has)
  localparam logic [cni_amap_pkg::LW-1:0] RegionLines =
      cni_amap_pkg::LW'(NumLines) << (32 * cni_amap_pkg::REG_TS),
  localparam int LW       = $clog2(NumLines),
  localparam int NL       = Blocks,                // lines the hosts use
  localparam int NS       = NA * NL,               // agent x block slots
  localparam int SW       = $clog2(NS + 1),
  localparam int BW       = NL > 1 ? $clog2(NL) : 1,
  localparam int LineBits = LineBytes * 8
) (
  input wire logic                 clk_i,
  // host agents: one action per agent per cycle on one block
  input wire logic [NA*3-1:0]      act_i,
  input wire logic [NA*BW-1:0]     act_line_i,
  input wire logic                 snp_dirty_i,    // a writable holder answers with data
  // request / snoop-answer channels into the home: which pending message goes next
  input wire logic                 rq_pick_en_i,
  input wire logic [SW-1:0]        rq_pick_i,
  input wire logic                 rs_pick_en_i,
  input wire logic [SW-1:0]        rs_pick_i,
  // handler: one register write per cycle (which register, its value)
  input wire logic                 hw_en_i,
  input wire logic [2:0]           hw_reg_i,
  input wire logic [31:0]          hw_data_i,
  // configuration
  input wire logic [cni_amap_pkg::NUM_REGIONS-1:0] ret_excl_i,
  input wire logic [31:0]          timeout_i
);
  localparam logic [3:0]  HOME = 4'd15;
  localparam logic [47:0] DEV_BASE = 48'h10_0000_0000;
  // cache states of a host agent (E and M are one state: the home cannot tell them apart)
  localparam logic [1:0] ST_I = 2'd0, ST_S = 2'd1, ST_W = 2'd2;
  // outstanding request of a slot
  localparam logic [2:0] RQ_NONE = 3'd0, RQ_RDS = 3'd1, RQ_RDX = 3'd2, RQ_UPG = 3'd3, RQ_WB = 3'd4;
  // host actions
  localparam logic [2:0] A_NONE = 3'd0, A_RDS = 3'd1, A_RDX = 3'd2, A_UPG = 3'd3, A_EVICT = 3'd4,
                         A_DROP = 3'd5;
  // tags (cni_ts_pkg)
  localparam logic [1:0] T_I = 2'd0, T_RO = 2'd1, T_RW = 2'd2;

  if (LineBytes != 64 && LineBytes != 128) $error("LineBytes must be 64 or 128");

  // Reset in step 0 only.
  logic rst_q = 1'b1;
  always_ff @(posedge clk_i) rst_q <= 1'b0;
  wire rst_n = !rst_q;

  // The home's time base: a cycle count from reset.
  logic [31:0] time_q = '0;
  always_ff @(posedge clk_i) time_q <= time_q + 32'd1;

  function automatic logic [LW-1:0] line_of(input int l);
    line_of = LW'(LBlk0 + l);
  endfunction
  function automatic logic [47:0] addr_of(input int l);
    addr_of = DEV_BASE + 48'(line_of(l)) * 48'(LineBytes);
  endfunction

  // ---- environment state ----------------------------------------------------------------------
  logic [1:0] st_q  [NS];  // cache state
  logic [2:0] rq_q  [NS];  // outstanding request
  logic       dlv_q [NS];  // ... taken by the home
  logic       sa_v_q[NS];  // snoop answer on its way to the home
  logic       sa_d_q[NS];  //   SnpData (else SnpAck)
  logic       sa_w_q[NS];  //   WBP flag
  logic [7:0] sa_t_q[NS];  //   tag (the home's entry)
  logic                rqp_v_q, rsp_v_q;  // presenters (stable until taken)
  logic [SW-1:0]       rqp_s_q, rsp_s_q;
  cni_coh_pkg::hdr_t   rqp_hdr_q, rsp_hdr_q;
  logic [31:0]         tmo_q;
  logic [cni_amap_pkg::NUM_REGIONS-1:0] ret_excl_q;

  // ---- the home agent -------------------------------------------------------------------------
  logic req_ready, rsp_ready;
  logic ofwd_valid, orsp_valid, odat_valid;
  cni_coh_pkg::hdr_t ofwd_hdr, orsp_hdr, odat_hdr;
  logic h_evt_valid, h_evt_ready, h_cmd_valid, h_cmd_ready;
  logic [cni_coh_pkg::EVT_W-1:0] h_evt_kind;
  logic [LW-1:0] h_evt_line, h_cmd_line;
  logic [cni_amap_pkg::REGION_W-1:0] h_evt_region;
  logic [cni_coh_pkg::OP_W-1:0] h_evt_op;
  logic [cni_coh_pkg::AGENT_W-1:0] h_evt_src;
  logic [cni_coh_pkg::CMD_W-1:0] h_cmd_op;
  logic [cni_coh_pkg::ARG_W-1:0] h_cmd_arg, e_cmd_arg;
  logic init_done;

  cni_home_agent #(
    .LineBytes(LineBytes), .NumAgents(NA), .DevBase(DEV_BASE), .RegionLines(RegionLines),
    .TtEntries(8), .TtReserve(2), .Pipelined(0)
  ) u_dut (
    .clk_i, .rst_ni(rst_n), .agent_id_i(HOME),
    .req_valid_i(rqp_v_q), .req_ready_o(req_ready), .req_hdr_i(rqp_hdr_q), .req_data_i('0),
    .rsp_valid_i(rsp_v_q), .rsp_ready_o(rsp_ready), .rsp_hdr_i(rsp_hdr_q), .rsp_data_i('0),
    // the hosts take every message at once (fewer interleavings; docs/formal.md)
    .ofwd_valid_o(ofwd_valid), .ofwd_ready_i(1'b1), .ofwd_hdr_o(ofwd_hdr), .ofwd_hold_i(1'b0),
    .orsp_valid_o(orsp_valid), .orsp_ready_i(1'b1), .orsp_hdr_o(orsp_hdr),
    .odat_valid_o(odat_valid), .odat_ready_i(1'b1), .odat_hdr_o(odat_hdr), .odat_data_o(),
    .evt_valid_o(h_evt_valid), .evt_ready_i(h_evt_ready), .evt_kind_o(h_evt_kind),
    .evt_line_o(h_evt_line), .evt_region_o(h_evt_region), .evt_op_o(h_evt_op),
    .evt_src_o(h_evt_src),
    .cmd_valid_i(h_cmd_valid), .cmd_ready_o(h_cmd_ready), .cmd_op_i(h_cmd_op),
    .cmd_arg_i(h_cmd_arg), .cmd_line_i(h_cmd_line),
    .mem_en_o(), .mem_we_o(), .mem_addr_o(), .mem_wdata_o(),
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
    .time_i(time_q), .cfg_ret_excl_i(ret_excl_q), .cfg_park_timeout_i(tmo_q), .cnt_o(),
    .init_done_o(init_done), .idle_o(), .park_o(), .park_near_o()
  );

  // ---- the tag store engine, on the engine bus --------------------------------------------------
  // With one engine the engine bus is wires: every event of the map's one region goes to the
  // engine, its command goes to the home as it is presented (held until taken), its memory
  // accesses are granted at once (engine priority), the handler's register accesses reach it.
  // (The bus module itself is not instantiated: its text names the whole device, which the
  // script would then read.) The records, as the engine complex builds them (the layouts of
  // cni_engine_types.svh: evt {valid, kind, line, op, src}; cmd {valid, op, arg, line}; mem {en,
  // we, addr, wdata}; mem rsp {gnt, rdata}; reg {valid, we, addr, wdata}).
  logic [cni_coh_pkg::eng_mem_req_w(LW, LineBytes)-1:0] ts_mem;
  logic [cni_coh_pkg::ENG_EVT_RSP_W-1:0]                ts_evt_rsp;
  logic                                                 reg_valid;
  logic [7:0]                                           reg_addr;
  cni_ts_engine #(
    .LineBytes(LineBytes), .LineIdxW(LW), .NetBytes(64), .CacheIdW(1), .Base(0),
    .Lines(Blocks), .TrigDepth(TrigDepth), .CmdDepth(CmdDepth)
  ) u_ts (
    .clk_i, .rst_ni(rst_n),
    .evt_req_i({h_evt_valid, h_evt_kind, h_evt_line, h_evt_op, h_evt_src}),
    .evt_rsp_o(ts_evt_rsp),
    .cmd_req_o({h_cmd_valid, h_cmd_op, e_cmd_arg, h_cmd_line}), .cmd_rsp_i(h_cmd_ready),
    .mem_req_o(ts_mem), .mem_rsp_i({ts_mem[$bits(ts_mem)-1], LineBits'(0)}),  // (no data)
    .reg_req_i({reg_valid, 1'b1, 1'b1, 4'd0, reg_addr, hw_data_i}), .reg_rsp_o(),  // a write,
    // privileged, window 0 (eng_reg_req_t: valid, we, priv, ctx, addr, wdata)
    // its network interface: node 0, a network that takes every frame and brings none
    .net_req_o(), .net_rsp_i({16'd0, 1'b1, {(cni_coh_pkg::eng_net_rsp_w(64) - 17){1'b0}}}),
    .idle_o(), .msg_i(1'b0)  // no CNI engine beside it: no message arrivals
  );
  assign h_evt_ready = ts_evt_rsp[0];

  // ---- injected bugs: corrupt the engine's command on its way to the home (must FAIL) ---------
  // FV_BUG_RESUME_AUTO: a RESUME's shared-only grant (SO) reaches the home as AUTO.
  // FV_BUG_SHARED_AS_ALLOW: a POLICY SHARED (ReadOnly) reaches the home as ALLOW.
  always_comb begin
    h_cmd_arg = e_cmd_arg;
`ifdef FV_BUG_RESUME_AUTO
    if (h_cmd_op == cni_coh_pkg::CMD_RESUME && e_cmd_arg == cni_coh_pkg::GNT_SO)
      h_cmd_arg = cni_coh_pkg::GNT_AUTO;
`endif
`ifdef FV_BUG_SHARED_AS_ALLOW
    if (h_cmd_op == cni_coh_pkg::CMD_POLICY && e_cmd_arg == cni_coh_pkg::POL_SHARED)
      h_cmd_arg = cni_coh_pkg::POL_ALLOW;
`endif
  end

  // The engine's tag RAM writes, its state and its command's end (probes, connected by
  // scripts/formal.sh).
  (* keep, fv_probe = "u_ts.t_we" *) wire probe_t_we;
  (* keep, fv_probe = "u_ts.t_wa" *) wire [BW-1:0] probe_t_wa;
  (* keep, fv_probe = "u_ts.t_wd" *) wire [3:0] probe_t_wd;
  (* keep, fv_probe = "u_ts.c_end" *) wire probe_c_end;
  (* keep, fv_probe = "u_ts.j_blk_q" *) wire [BW-1:0] probe_j_blk;
  (* keep, fv_probe = "u_ts.st_q" *) wire [3:0] probe_ts_st;
  wire ts_ready = probe_ts_st > 4'd1;  // past SInit and SInitPol: STATUS.ready

  // ---- handler: register writes ---------------------------------------------------------------
  // CMD_LO, CMD_HI, ACK_LO, ACK_HI, MODE, with any value: every command (any op, tag, flag, ack,
  // line flag, block), acknowledgements of any seq, any mode.
  always_comb begin
    reg_valid = hw_en_i && hw_reg_i <= 3'd4;
    unique case (hw_reg_i)
      3'd0:    reg_addr = 8'h08;  // CMD_LO
      3'd1:    reg_addr = 8'h0C;  // CMD_HI: the command is queued
      3'd2:    reg_addr = 8'h10;  // ACK_LO
      3'd3:    reg_addr = 8'h14;  // ACK_HI: acknowledge
      default: reg_addr = 8'h18;  // MODE
    endcase
`ifdef FV_NO_HANDLER_INIT
    if (!ts_ready) reg_valid = 1'b0;
`endif
`ifdef FV_GOOD_CMDS
    // only commands, each a known op on a block of the region (a narrower handler, for depth)
    if (hw_reg_i > 3'd1) reg_valid = 1'b0;
`endif
  end

  // ---- handshakes ---------------------------------------------------------------------------
  wire acc_req  = rqp_v_q && req_ready;
  wire acc_rsp  = rsp_v_q && rsp_ready;
  wire acc_cmd  = h_cmd_valid && h_cmd_ready;   // the home applies the engine's command
  wire fwd_fire = ofwd_valid;
  wire rsp_fire = orsp_valid;
  wire dat_fire = odat_valid;

  cni_coh_pkg::hdr_t ans;
  logic ans_fire;
  logic [NS-1:0] ans_hit, snp_hit;
  always_comb begin
    ans      = dat_fire ? odat_hdr : orsp_hdr;
    ans_fire = dat_fire || rsp_fire;
    for (int k = 0; k < NS; k++) begin
      ans_hit[k] = ans.dst == 4'(k / NL) && ans.tag == 8'(k % NL) && ans.addr == addr_of(k % NL);
      snp_hit[k] = ofwd_hdr.dst == 4'(k / NL) && ofwd_hdr.addr == addr_of(k % NL);
    end
  end

  // ================================ the tags =====================================================
  // tag_q: the engine's tag RAM (its tag bits); enf_q: the tag the home enforces (the RAM's tag
  // when the home applied the block's last POLICY); chg_q: a tag change whose command has not
  // ended yet (set as the RAM's tag changes, cleared as a handler command on the block ends).
  logic [1:0]    tag_q [NL];
  logic [1:0]    enf_q [NL];
  logic [NL-1:0] chg_q;
  // per slot: the tag the home enforced when it took the request; a RESUME of the block the
  // home applied since then with a grant the RAM's tag allowed at that moment (res), and one
  // with an exclusive grant (AUTO) under ReadWrite (xres)
  logic [1:0]    ttag_q [NS];
  logic [NS-1:0] res_q, xres_q;
  logic [1:0]    ttag_now [NS];
  logic [NS-1:0] res_now, xres_now;
  logic [NL-1:0] pol_now, rs_ok_now, rs_x_now, rs_any_now;

  // a tag does not allow the request (a write: RdX or Upg)
  function automatic logic denies(input logic [1:0] t, input logic [2:0] rq);
    denies = t == T_I || (t == T_RO && (rq == RQ_RDX || rq == RQ_UPG));
  endfunction

  always_comb begin
    for (int l = 0; l < NL; l++) begin
      logic on_l;
      on_l          = acc_cmd && h_cmd_line == line_of(l);
      pol_now[l]    = on_l && h_cmd_op == cni_coh_pkg::CMD_POLICY;
      rs_any_now[l] = on_l && h_cmd_op == cni_coh_pkg::CMD_RESUME;
      // the grant is one the tag allows: AUTO (as RELEASE: DataE for a write) under ReadWrite,
      // shared only (SO) under ReadOnly or ReadWrite
      rs_x_now[l]   = rs_any_now[l] && h_cmd_arg == cni_coh_pkg::GNT_AUTO && tag_q[l] == T_RW;
      rs_ok_now[l]  = rs_x_now[l] ||
                      (rs_any_now[l] && h_cmd_arg == cni_coh_pkg::GNT_SO && tag_q[l] != T_I);
    end
    for (int k = 0; k < NS; k++) begin
      logic taken_now;
      taken_now   = acc_req && rqp_s_q == SW'(k);
      ttag_now[k] = taken_now ? enf_q[k % NL] : ttag_q[k];
      res_now[k]  = (res_q[k] && !taken_now) || rs_ok_now[k % NL];
      xres_now[k] = (xres_q[k] && !taken_now) || rs_x_now[k % NL];
    end
  end

  // the POLICY the engine sets on a block is the one its tag maps to
  logic [NL-1:0] pol_ok;
  always_comb begin
    for (int l = 0; l < NL; l++) begin
      pol_ok[l] = !pol_now[l] ||
                  h_cmd_arg == (tag_q[l] == T_I  ? cni_coh_pkg::POL_PARK :
                                tag_q[l] == T_RO ? cni_coh_pkg::POL_SHARED :
                                tag_q[l] == T_RW ? cni_coh_pkg::POL_ALLOW : 2'(3));
    end
  end

  // ================================ properties ===================================================
  logic excl_ok, inv_ok, copies_ok, swmr_ok, reach_ok;
  always_comb begin
    excl_ok  = 1'b1;
    inv_ok   = 1'b1;
    reach_ok = 1'b1;
    for (int k = 0; k < NS; k++) begin
      if (ans_fire && ans_hit[k] && rq_q[k] != RQ_NONE && rq_q[k] != RQ_WB) begin
        logic excl, grant;
        excl  = ans.op == cni_coh_pkg::OP_DATA_E || ans.op == cni_coh_pkg::OP_DATA_M ||
                ans.op == cni_coh_pkg::OP_UPG_ACK;
        grant = excl || ans.op == cni_coh_pkg::OP_DATA_S;
        // (1) an exclusive grant only to a request the home took under ReadWrite, or after a
        // RESUME with an exclusive grant while the block's tag was ReadWrite
        if (excl && ttag_now[k] != T_RW && !xres_now[k]) excl_ok = 1'b0;
        // (2) a request its tag did not allow is granted only after a RESUME of its block
        // with a grant the tag then allowed
        if (grant && denies(ttag_now[k], rq_q[k]) && !res_now[k]) inv_ok = 1'b0;
        if (grant && denies(ttag_now[k], rq_q[k])) reach_ok = 1'b0;
      end
    end
    // (3) no tag change in progress: no host copy the tag does not allow
    copies_ok = 1'b1;
    swmr_ok   = 1'b1;
    for (int l = 0; l < NL; l++) begin
      logic [2:0] w;
      logic       r;
      w = '0;
      r = 1'b0;
      for (int a = 0; a < NA; a++) begin
        if (st_q[a*NL+l] == ST_W) w = w + 3'd1;
        if (st_q[a*NL+l] == ST_S) r = 1'b1;
        if (!chg_q[l] && ((tag_q[l] == T_I && st_q[a*NL+l] != ST_I) ||
                          (tag_q[l] == T_RO && st_q[a*NL+l] == ST_W))) copies_ok = 1'b0;
      end
      if (w > 3'd1 || (w != 3'd0 && r)) swmr_ok = 1'b0;
    end
  end

`ifdef FV_GOOD_CMDS
  always_comb begin
    if (!rst_q && reg_valid && hw_reg_i == 3'd0)
      a_good_op: assume (hw_data_i[3:0] >= 4'd1 && hw_data_i[3:0] <= 4'd7 &&
                         hw_data_i[5:4] != 2'd3);
    if (!rst_q && reg_valid && hw_reg_i == 3'd1)
      a_good_blk: assume (hw_data_i < 32'(Blocks));
  end
`endif
  always_comb begin
    if (!rst_q) begin
      p_ro_shared:    assert (excl_ok);
      p_inv_resume:   assert (inv_ok);
      p_tag_copies:   assert (copies_ok);
      // the engine sets a block's policy to the one its tag RAM's tag maps to
      // (Invalid: PARK, ReadOnly: SHARED, ReadWrite: ALLOW)
      p_pol_tag:      assert (&pol_ok);
      // the engine answers a block's parked request only with a grant its tag allows
      p_resume_tag:   assert (rs_any_now == rs_ok_now);
      p_swmr:         assert (swmr_ok);
`ifdef FV_REACH_RESUMED
      p_reach_resumed: assert (reach_ok);
`endif
    end
  end

  // ================================ environment ==================================================
  logic [2:0] act [NS];
  always_comb begin
    for (int k = 0; k < NS; k++) begin
      logic [2:0] x;
      x = act_i[(k / NL)*3 +: 3];
      if (!init_done || act_line_i[(k / NL)*BW +: BW] != BW'(k % NL)) x = A_NONE;
`ifdef FV_LATE_HOSTS
      if (!ts_ready) x = A_NONE;  // the hosts start once the engine is ready
`endif
`ifdef FV_ONE_HOST
      if (k / NL != 0) x = A_NONE;
`endif
      if ((fwd_fire && snp_hit[k]) || (ans_fire && ans_hit[k])) x = A_NONE;
      if (rq_q[k] != RQ_NONE) x = A_NONE;
      if (x == A_RDS && st_q[k] != ST_I) x = A_NONE;
      if (x == A_RDX && st_q[k] == ST_W) x = A_NONE;
      if (x == A_UPG && st_q[k] != ST_S) x = A_NONE;
      if (x == A_EVICT && st_q[k] != ST_W) x = A_NONE;
      if (x == A_DROP && st_q[k] == ST_I) x = A_NONE;
      if (x > A_DROP) x = A_NONE;
      act[k] = x;
    end
  end

  // Inbound channel presenters: a free presenter may take any pending message.
  wire rqp_free = !rqp_v_q || acc_req;
  wire rsp_free = !rsp_v_q || acc_rsp;
  logic rq_cand_ok, rs_cand_ok;
  cni_coh_pkg::hdr_t rq_cand_hdr, rs_cand_hdr;
  always_comb begin
    rq_cand_ok  = 1'b0;
    rq_cand_hdr = '0;
    rs_cand_ok  = 1'b0;
    rs_cand_hdr = '0;
    for (int k = 0; k < NS; k++) begin
      if (rq_pick_i == SW'(k)) begin
        rq_cand_ok       = rq_q[k] != RQ_NONE && !dlv_q[k] && !(rqp_v_q && rqp_s_q == SW'(k));
        rq_cand_hdr.op   = (rq_q[k] == RQ_RDS) ? cni_coh_pkg::OP_RDS :
                           (rq_q[k] == RQ_RDX) ? cni_coh_pkg::OP_RDX :
                           (rq_q[k] == RQ_UPG) ? cni_coh_pkg::OP_UPG : cni_coh_pkg::OP_WB;
        rq_cand_hdr.src  = 4'(k / NL);
        rq_cand_hdr.dst  = HOME;
        rq_cand_hdr.tag  = 8'(k % NL);
        rq_cand_hdr.len  = (rq_q[k] == RQ_WB) ? 8'(LineBytes) : 8'd0;
        rq_cand_hdr.addr = addr_of(k % NL);
      end
      if (rs_pick_i == SW'(k)) begin
        rs_cand_ok       = sa_v_q[k] && !(rsp_v_q && rsp_s_q == SW'(k));
        rs_cand_hdr.op   = sa_d_q[k] ? cni_coh_pkg::OP_SNP_DATA : cni_coh_pkg::OP_SNP_ACK;
        rs_cand_hdr.src  = 4'(k / NL);
        rs_cand_hdr.dst  = HOME;
        rs_cand_hdr.tag  = sa_t_q[k];
        rs_cand_hdr.flags[cni_coh_pkg::FLAG_WBP] = sa_w_q[k];
        rs_cand_hdr.len  = sa_d_q[k] ? 8'(LineBytes) : 8'd0;
        rs_cand_hdr.addr = addr_of(k % NL);
      end
    end
  end
  wire rq_pick = rq_pick_en_i && rqp_free && rq_cand_ok && init_done;
  wire rs_pick = rs_pick_en_i && rsp_free && rs_cand_ok && init_done;

  // ---- state update ------------------------------------------------------------------------
  always_ff @(posedge clk_i) begin
    if (rst_q) begin
      for (int s = 0; s < NS; s++) begin
        st_q[s]   <= ST_I;
        rq_q[s]   <= RQ_NONE;
        dlv_q[s]  <= 1'b0;
        sa_v_q[s] <= 1'b0;
        sa_d_q[s] <= 1'b0;
        sa_w_q[s] <= 1'b0;
        sa_t_q[s] <= '0;
        ttag_q[s] <= T_RW;
      end
      for (int l = 0; l < NL; l++) begin
        tag_q[l] <= T_RW;  // the engine's reset sweep writes ReadWrite; the home's policy ALLOW
        enf_q[l] <= T_RW;
      end
      chg_q      <= '0;
      res_q      <= '0;
      xres_q     <= '0;
      rqp_v_q    <= 1'b0;
      rsp_v_q    <= 1'b0;
      rqp_s_q    <= '0;
      rsp_s_q    <= '0;
      rqp_hdr_q  <= '0;
      rsp_hdr_q  <= '0;
      ret_excl_q <= ret_excl_i;
`ifdef FV_NO_TIMER
      tmo_q      <= '1;  // no park timeout: only the handler answers a parked request
`else
      tmo_q      <= timeout_i;
`endif
    end else begin
      // the tags
      for (int l = 0; l < NL; l++) begin
        if (pol_now[l]) enf_q[l] <= tag_q[l];
        if (probe_t_we && probe_t_wa == BW'(l)) begin
          tag_q[l] <= probe_t_wd[1:0];
          if (probe_t_wd[1:0] != tag_q[l]) chg_q[l] <= 1'b1;
        end else if (probe_c_end && probe_j_blk == BW'(l)) begin
          chg_q[l] <= 1'b0;
        end
      end
      for (int k = 0; k < NS; k++) begin
        ttag_q[k] <= ttag_now[k];
        res_q[k]  <= res_now[k];
        xres_q[k] <= xres_now[k];
      end

      // requests taken by the home
      if (acc_req) dlv_q[rqp_s_q] <= 1'b1;
      // snoop answers taken by the home
      if (acc_rsp) sa_v_q[rsp_s_q] <= 1'b0;

      for (int k = 0; k < NS; k++) begin
        if (ans_fire && ans_hit[k]) begin
          rq_q[k]  <= RQ_NONE;
          dlv_q[k] <= 1'b0;
          unique case (ans.op)
            cni_coh_pkg::OP_DATA_S: st_q[k] <= ST_S;
            cni_coh_pkg::OP_DATA_E, cni_coh_pkg::OP_DATA_M, cni_coh_pkg::OP_UPG_ACK:
              st_q[k] <= ST_W;
            default: ;  // WbAck, Retry, Error: the state stays
          endcase
        end
        // snoops from the home: answered from the current state
        if (fwd_fire && snp_hit[k]) begin
          sa_v_q[k] <= 1'b1;
          sa_t_q[k] <= ofwd_hdr.tag;
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
          A_RDS:   begin rq_q[k] <= RQ_RDS; dlv_q[k] <= 1'b0; end
          A_RDX:   begin rq_q[k] <= RQ_RDX; dlv_q[k] <= 1'b0; end
          A_UPG:   begin rq_q[k] <= RQ_UPG; dlv_q[k] <= 1'b0; end
          A_EVICT: begin rq_q[k] <= RQ_WB; dlv_q[k] <= 1'b0; st_q[k] <= ST_I; end
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
        rsp_s_q   <= rs_pick_i;
        rsp_hdr_q <= rs_cand_hdr;
      end
    end
  end

endmodule
