// SPDX-License-Identifier: Apache-2.0
// The home agent's decision (docs/endpoint.md, "State table", "Events and commands"): from a
// message, the line's directory word (its policy, state and sharers) and what the transaction
// table's lookup found, the conditions, the row of the state tables the message falls in and that
// row's answer, the decision record cni_home_agent applies. Purely combinational, in three
// steps, each fed by its own stage: the conditions (D), the row (X) and the answer (B). The agent
// feeds the conditions and the row back to the later steps: registered between the stages
// (Pipelined) or as wires, so one piece of logic serves both configurations and this module holds
// no state. The records' layouts: cni_home_types.svh.
//
// Parameters:
//   LineBytes, NumAgents, DevBase, TtEntries - as cni_home_agent's
//   LineIdxW             - width of a line index
//   SlotW                - width of a message's data slot (a field of the message record)
//   NumCnt               - counter pulses (cnt_o)
//   MsgW, LkW, HlpW, RowW, DecW - (derived) the widths of the records msg_t, lk_t, hlp_t, row_e
//                          and dec_t on the ports
// Ports (the records as their packed bits):
//   agent_id_i                        - this agent's id on the fabric
//   cfg_ret_excl_i                    - per region: grant DataE to RdS on an unshared line
//   m_d_i, lk_d_i, dir_d_i            - D: the message, its lookup and the line's directory word
//   hn_o                              - D: the conditions
//   m_x_i, lk_x_i, dir_x_i, hl_i      - X: the message, its lookup, the directory word, the
//                                       conditions
//   tmo_live_i                        - X: a timeout's entry is still a PARK entry past its
//                                       deadline (a timeout that no longer holds does nothing)
//   row_o, cnt_o                      - X: the row and the counters it pulses
//   m_b_i, lk_b_i, dir_b_i, hb_i,     - B: the message, its lookup, the directory word, the
//   row_b_i, cnt_b_i                    conditions, the row and its counters
//   tmo_src_i, tmo_tag_i, tmo_line_i  - B: a timeout's entry: its requester and line
//   dec_o                             - B: the decision record
`default_nettype none

module cni_home_decide #(
  parameter int          LineBytes = 128,
  parameter int          NumAgents = 16,
  parameter logic [47:0] DevBase   = 48'h10_0000_0000,
  parameter int          TtEntries = 32,
  parameter int          LineIdxW  = 8,
  parameter int          SlotW     = 4,
  parameter int          NumCnt    = 16,
  localparam int TtW  = $clog2(TtEntries),
  localparam int N    = NumAgents,
  // the records' widths (cni_home_types.svh; checked against the records below)
  localparam int MsgW = cni_coh_pkg::home_msg_w(LineIdxW, TtW, SlotW),
  localparam int LkW  = cni_coh_pkg::home_lk_w(NumAgents, TtW, cni_amap_pkg::REGION_W),
  localparam int HlpW = 3 * N + 24,
  localparam int RowW = 5,
  localparam int DecW = cni_coh_pkg::home_dec_w(NumAgents, TtW, cni_amap_pkg::REGION_W, NumCnt)
) (
  input  wire logic [cni_coh_pkg::AGENT_W-1:0]      agent_id_i,
  input  wire logic [cni_amap_pkg::NUM_REGIONS-1:0] cfg_ret_excl_i,
  // D: the conditions
  input  wire logic [MsgW-1:0]                      m_d_i,
  input  wire logic [LkW-1:0]                       lk_d_i,
  input  wire logic [cni_coh_pkg::home_dir_w(NumAgents)-1:0] dir_d_i,
  output logic [HlpW-1:0]                           hn_o,
  // X: the row
  input  wire logic [MsgW-1:0]                      m_x_i,
  input  wire logic [LkW-1:0]                       lk_x_i,
  input  wire logic [cni_coh_pkg::home_dir_w(NumAgents)-1:0] dir_x_i,
  input  wire logic [HlpW-1:0]                      hl_i,
  input  wire logic                                 tmo_live_i,
  output logic [RowW-1:0]                           row_o,
  output logic [NumCnt-1:0]                         cnt_o,
  // B: the answer
  input  wire logic [MsgW-1:0]                      m_b_i,
  input  wire logic [LkW-1:0]                       lk_b_i,
  input  wire logic [cni_coh_pkg::home_dir_w(NumAgents)-1:0] dir_b_i,
  input  wire logic [HlpW-1:0]                      hb_i,
  input  wire logic [RowW-1:0]                      row_b_i,
  input  wire logic [NumCnt-1:0]                    cnt_b_i,
  input  wire logic [cni_coh_pkg::AGENT_W-1:0]      tmo_src_i,
  input  wire logic [cni_coh_pkg::TAG_W-1:0]        tmo_tag_i,
  input  wire logic [LineIdxW-1:0]                  tmo_line_i,
  output logic [DecW-1:0]                           dec_o
);

  localparam int PolW = cni_coh_pkg::POL_W;
  localparam logic [7:0] LEN_LINE = 8'(LineBytes);

  `include "cni_home_types.svh"

  // The records, each stage's (the later steps use only some fields).
  /* verilator lint_off UNUSEDSIGNAL */
  msg_t            m_d, m_x, m_b;
  lk_t             lk_d, lk_x, lk_b;
  hlp_t            hn, hl, hb;
  logic [DirW-1:0] dir_x;         // (X reads the state only)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [DirW-1:0] dir_d, dir_b;
  dec_t            x;             // the decision being built
  assign m_d   = m_d_i;
  assign m_x   = m_x_i;
  assign m_b   = m_b_i;
  assign lk_d  = lk_d_i;
  assign lk_x  = lk_x_i;
  assign lk_b  = lk_b_i;
  assign dir_d = dir_d_i;
  assign dir_x = dir_x_i;
  assign dir_b = dir_b_i;
  assign hl    = hl_i;
  assign hb    = hb_i;
  // ---- conditions (D) ---------------------------------------------------------------------------
  always_comb begin
    logic [NumAgents-1:0] sh;
    logic [1:0]           st;
    logic                 src_ok, need_entry, snp_data, wbp_add;
    logic [OpW-1:0]       op;
    logic [PolW-1:0]      pol;
    logic [cni_coh_pkg::ARG_W-1:0] grant;
    op              = m_d.hdr.op;
    sh              = dir_d[NumAgents-1:0];
    st              = dir_d[NumAgents +: 2];
    src_ok          = {1'b0, m_d.hdr.src} < (AgW + 1)'(NumAgents);
    hn.c_bit        = src_ok ? NumAgents'(1) << m_d.hdr.src : '0;
    pol             = dir_d[NumAgents + 2 +: PolW];
    hn.c_ret_e      = cfg_ret_excl_i[lk_d.region] && pol != cni_coh_pkg::POL_SHARED;
    hn.pol_park     = pol == cni_coh_pkg::POL_PARK ||
                      (pol == cni_coh_pkg::POL_SHARED && op != cni_coh_pkg::OP_RDS);
    hn.pol_deny     = pol == cni_coh_pkg::POL_DENY;
    hn.c_addr_ok    = lk_d.inrange && m_d.hdr.dst == agent_id_i && src_ok;
    hn.c_ent_ok     = lk_d.ent_match && lk_d.inrange && ((lk_d.ent_pend & hn.c_bit) != '0);
    need_entry      = hn.pol_park ||
                      (st == DIR_X && sh != hn.c_bit) ||
                      (op != cni_coh_pkg::OP_RDS && st == DIR_S && (sh & ~hn.c_bit) != '0);
    hn.c_busy       = lk_d.hit_any || (!lk_d.room && need_entry);
    hn.c_wb_race    = lk_d.hit_any && ((lk_d.hit_pend | lk_d.hit_wbp) & hn.c_bit) != '0 &&
                      lk_d.hit_kind != K_PARK;
    hn.c_rec_wait   = lk_d.hit_any || !lk_d.free_any;
    hn.rel_bit      = NumAgents'(1) << lk_d.park_src;
    // a RELEASE answers as the state tables would (GNT_AUTO); a RESUME with its grant
    grant           = (m_d.cmd == cni_coh_pkg::CMD_RESUME) ? m_d.arg : cni_coh_pkg::GNT_AUTO;
    hn.rel_shared   = lk_d.park_op == cni_coh_pkg::OP_RDS &&
                      (grant == cni_coh_pkg::GNT_S || grant == cni_coh_pkg::GNT_SO ||
                       (grant == cni_coh_pkg::GNT_AUTO && !hn.c_ret_e));
    hn.pol_keep     = m_d.cmd == cni_coh_pkg::CMD_RESUME;
    hn.rsm_retry    = m_d.cmd == cni_coh_pkg::CMD_RESUME && grant == cni_coh_pkg::GNT_SO &&
                      lk_d.park_op != cni_coh_pkg::OP_RDS;
    hn.rcd_snoop    = st == DIR_X && sh != '0;
    hn.rel_others   = (st == DIR_I) ? '0 : sh & ~hn.rel_bit;
    hn.rel_snoop    = hn.rel_others != '0 && (st == DIR_X || !hn.rel_shared);
    snp_data        = op == cni_coh_pkg::OP_SNP_DATA;
    wbp_add         = !snp_data && m_d.hdr.flags[cni_coh_pkg::FLAG_WBP] &&
                      (lk_d.ent_wbgot & hn.c_bit) == '0;
    hn.rsp_op_ok    = op == cni_coh_pkg::OP_SNP_ACK || snp_data;
    hn.rsp_len_ok   = m_d.hdr.len == (snp_data ? LEN_LINE : 8'd0);
    hn.snp_more     = (lk_d.ent_pend & ~hn.c_bit) != '0 || lk_d.ent_wbp != '0 ||
                      (wbp_add && hn.c_bit != '0);
    hn.req_op_ok    = op == cni_coh_pkg::OP_RDS || op == cni_coh_pkg::OP_RDX ||
                      op == cni_coh_pkg::OP_UPG || op == cni_coh_pkg::OP_WB;
    hn.req_len_ok   = m_d.hdr.len == ((op == cni_coh_pkg::OP_WB) ? LEN_LINE : 8'd0);
    hn.wb_more      = lk_d.hit_pend != '0 || (lk_d.hit_wbp & ~hn.c_bit) != '0;
    hn.wb_owner     = st == DIR_X && sh == hn.c_bit;
    hn.rec_none     = st == DIR_I || sh == '0;
    hn.x_other      = st == DIR_X && sh != hn.c_bit;
    hn.others       = st != DIR_I && (sh & ~hn.c_bit) != '0;
    hn.upg_sh       = op == cni_coh_pkg::OP_UPG && st == DIR_S && (sh & hn.c_bit) != '0;
  end
  assign hn_o = hn;

  // ---- which row (X) ----------------------------------------------------------------------------
  // The decision is made in two parts. The first finds which row of the state tables
  // (docs/endpoint.md) the message falls in: a small code (`row_e`) and the counters it pulses.
  // The second builds that row's answer (the `dec_t` record) from the code and the registers.
  // With `Pipelined` the agent registers the row between them, so no condition drives the wide
  // fields of the record directly (each condition had hundreds of loads: routing, not logic,
  // set the clock).
  wire [OpW-1:0] x_op = m_x.hdr.op;
  row_e              r_row;
  logic [NumCnt-1:0] r_cnt;
  always_comb begin
    r_row = R_NONE;
    r_cnt = '0;
    unique case (m_x.src)
      SRC_TMO: begin
        if (tmo_live_i) begin
          r_row = R_TMO_RETRY;
          r_cnt[CNT_RETRY_TMO] = 1'b1;
        end
      end

      // snoop answers: always consumed
      SRC_RSP: begin
        if (!hl.rsp_op_ok) begin
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_OPCODE] = 1'b1;
        end else if (!hl.c_addr_ok) begin
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_ADDR] = 1'b1;
        end else if (!hl.rsp_len_ok) begin
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_LEN] = 1'b1;
        end else if (!hl.c_ent_ok) begin
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_PROTO] = 1'b1;
        end else if (hl.snp_more) begin
          r_row = R_SNP_UPD;
        end else begin
          r_row = (lk_x.ent_kind == K_RECALL) ? R_SNP_EVT : R_SNP_GRANT;
        end
      end

      // engine commands
      SRC_CMD: begin
        unique case (m_x.cmd)
          cni_coh_pkg::CMD_ARM, cni_coh_pkg::CMD_DISARM, cni_coh_pkg::CMD_POLICY:
            r_row = R_SET_POL;
          cni_coh_pkg::CMD_RELEASE, cni_coh_pkg::CMD_RESUME: begin
            r_row = (m_x.cmd == cni_coh_pkg::CMD_RELEASE) ? R_SET_POL : R_NONE;
            if (lk_x.park_hit && hl.rsm_retry) begin
              r_row = R_NACK;   // (its answer: Retry, the argument not being NACK_ERROR)
            end else if (lk_x.park_hit) begin
              r_row = hl.rel_snoop ? R_REL_SNOOP : R_REL_GRANT;
              r_cnt[CNT_RELEASED] = 1'b1;
            end
          end
          cni_coh_pkg::CMD_NACK: if (lk_x.park_hit) r_row = R_NACK;
          cni_coh_pkg::CMD_RECALL_DN: begin
            if (lk_x.park_hit) begin
              r_row = R_REC_NACK;
            end else if (hl.c_rec_wait) begin
              r_row = R_REC_WAIT;
            end else begin
              r_row = hl.rcd_snoop ? R_RCD_SNOOP : R_RCD_DONE;
              r_cnt[CNT_RECALL] = 1'b1;
            end
          end
          default: begin  // CMD_RECALL
            if (lk_x.park_hit) begin
              r_row = R_REC_NACK;
            end else if (hl.c_rec_wait) begin
              r_row = R_REC_WAIT;
            end else begin
              r_row = hl.rec_none ? R_REC_DONE : R_REC_SNOOP;
              r_cnt[CNT_RECALL] = 1'b1;
            end
          end
        endcase
      end

      // requests
      default: begin
        r_row = R_REQ_ERROR;
        if (!hl.req_op_ok) begin
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_OPCODE] = 1'b1;
        end else if (!hl.c_addr_ok) begin
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_ADDR] = 1'b1;
        end else if (!hl.req_len_ok) begin
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_LEN] = 1'b1;
        end else if (x_op == cni_coh_pkg::OP_WB) begin
          r_cnt[CNT_WB] = 1'b1;
          if (hl.c_wb_race) begin
            if (hl.wb_more) r_row = R_WB_RACE;
            else r_row = (lk_x.hit_kind == K_RECALL) ? R_WB_RACE_EVT : R_WB_RACE_GNT;
          end else if (hl.wb_owner) begin
            r_row = R_WB_OWNER;
          end else begin
            r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_PROTO] = 1'b1;  // WB from a non-owner
          end
        end else begin
          r_cnt[CNT_RDS] = (x_op == cni_coh_pkg::OP_RDS);
          r_cnt[CNT_RDX] = (x_op == cni_coh_pkg::OP_RDX);
          r_cnt[CNT_UPG] = (x_op == cni_coh_pkg::OP_UPG);
          if (hl.c_busy) begin
            r_row = R_RETRY;
            r_cnt[CNT_RETRY_BUSY] = 1'b1;
          end else if (hl.pol_park) begin
            r_row = R_PARK;   // delayed response: park until the engine answers it
            r_cnt[CNT_PARKED] = 1'b1;
          end else if (hl.pol_deny) begin
            r_cnt[CNT_DENIED] = 1'b1;  // (R_REQ_ERROR would count nothing)
            r_row = R_DENY;
          end else if (x_op == cni_coh_pkg::OP_RDS) begin
            if (dir_x[NumAgents +: 2] == DIR_S) r_row = R_GRANT_S_ADD;
            else if (hl.x_other) r_row = R_SNOOP_DOWN;
            else r_row = hl.c_ret_e ? R_GRANT_E : R_GRANT_S;
          end else if (hl.others) begin
            r_row = R_SNOOP_INV;
          end else begin
            r_row = hl.upg_sh ? R_UPG_ACK : R_GRANT_E;
          end
        end
      end
    endcase
  end
  assign row_o = r_row;
  assign cnt_o = r_cnt;

  // ---- the row's answer (B) ---------------------------------------------------------------------
  wire [RowW-1:0]   b_row = row_b_i;
  wire [NumCnt-1:0] b_cnt = cnt_b_i;

  // Header for an answer (returns the packed bits: the pinned Yosys subset has no typedef
  // return types).
  function automatic logic [cni_coh_pkg::HDR_W-1:0] answer(
      input logic [OpW-1:0] op, input logic [AgW-1:0] self, input logic [AgW-1:0] to,
      input logic [TagW-1:0] tag, input logic [47:0] addr, input logic [7:0] ln);
    cni_coh_pkg::hdr_t h;
    h      = '0;
    h.op   = op;
    h.src  = self;
    h.dst  = to;
    h.tag  = tag;
    h.addr = addr;
    h.len  = ln;
    answer = h;
  endfunction

  // A snoop job's agents: the vector, the agents after its first and whether there are none
  // (made where the decision picks the vector, in B, so the job leaves C from flip-flops).
  function automatic logic [2 * NumAgents:0] snp_job(input logic [NumAgents-1:0] v);
    snp_job = {v, drop_lowest(v), drop_lowest(v) == '0};
  endfunction

  wire [AgW-1:0]       c_src   = m_b.hdr.src;
  wire [TagW-1:0]      c_tag   = m_b.hdr.tag;
  wire [47:0]          c_addr  = m_b.hdr.addr;
  wire [TtW-1:0]       c_ent   = m_b.hdr.tag[TtW-1:0];
  wire [NumAgents-1:0] c_bit   = hb.c_bit;
  wire [NumAgents-1:0] d_sharers = dir_b[NumAgents-1:0];
  wire [PolW-1:0]      d_pol     = dir_b[NumAgents + 2 +: PolW];
  // the policy a command sets: ARM parks, DISARM and RELEASE allow, POLICY sets its argument
  wire [PolW-1:0]      cmd_pol   = (m_b.cmd == cni_coh_pkg::CMD_ARM) ? cni_coh_pkg::POL_PARK :
                                   (m_b.cmd == cni_coh_pkg::CMD_POLICY) ? PolW'(m_b.arg) :
                                   cni_coh_pkg::POL_ALLOW;

  // the policy a RELEASE (ALLOW) or a RESUME (unchanged) leaves
  wire [PolW-1:0]      rel_pol   = hb.pol_keep ? d_pol : cni_coh_pkg::POL_ALLOW;

  // Entry updates of a snoop answer (tag = entry) and of a racing write-back (the hit entry).
  wire                 c_snp_data = m_b.hdr.op == cni_coh_pkg::OP_SNP_DATA;
  wire [NumAgents-1:0] snp_pend   = lk_b.ent_pend & ~c_bit;
  wire [NumAgents-1:0] snp_wbp    = (!c_snp_data && m_b.hdr.flags[cni_coh_pkg::FLAG_WBP] &&
                                     (lk_b.ent_wbgot & c_bit) == '0) ? lk_b.ent_wbp | c_bit
                                                                     : lk_b.ent_wbp;
  wire [NumAgents-1:0] wb_wbp     = lk_b.hit_wbp & ~c_bit;
  wire [NumAgents-1:0] wb_wbgot   = ((lk_b.hit_wbp & c_bit) != '0) ? lk_b.hit_wbgot
                                                                   : lk_b.hit_wbgot | c_bit;
  // Grants of a request: UpgAck for an Upg from a sharer, else DataE.
  wire [OpW-1:0]       c_xgrant   = hb.upg_sh ? cni_coh_pkg::OP_UPG_ACK : cni_coh_pkg::OP_DATA_E;

  always_comb begin
    x             = '0;
    x.dir_wd      = dir_b;
    x.pop         = m_b.src != SRC_TMO;
    x.alloc_kind  = K_SNOOP;
    x.alloc_idx   = lk_b.free_idx;
    x.rsv         = m_b.may_alloc && lk_b.free_any;
    x.alloc_reg   = lk_b.region;
    x.upd_idx     = c_ent;
    x.free_idx    = c_ent;
    x.conv_idx    = lk_b.park_idx;
    x.snp_ent     = lk_b.free_idx;
    x.cnt         = b_cnt;
    x.rsp_hdr     = answer(cni_coh_pkg::OP_ERROR, agent_id_i, c_src, c_tag, c_addr, 8'd0);

    unique case (b_row)
      R_TMO_RETRY: begin
        x.out_rsp  = 1'b1;
        x.rsp_hdr  = answer(cni_coh_pkg::OP_RETRY, agent_id_i, tmo_src_i, tmo_tag_i,
                            line_addr(tmo_line_i), 8'd0);
        x.free     = 1'b1;
        x.free_idx = m_b.tmo_ent;
      end

      R_SNP_UPD, R_SNP_EVT, R_SNP_GRANT: begin
        x.upd       = b_row != R_SNP_GRANT;
        x.upd_pend  = snp_pend;
        x.upd_wbgot = lk_b.ent_wbgot;
        x.upd_wbp   = snp_wbp;
        x.upd_evt   = b_row == R_SNP_EVT;
        x.mem_we    = c_snp_data;
        x.data_msg  = c_snp_data;
        if (b_row == R_SNP_GRANT) begin  // the SNOOP is complete: grant the requester
          x.free = 1'b1;
          if (lk_b.ent_grant == cni_coh_pkg::OP_UPG_ACK) begin
            x.out_rsp = 1'b1;
            x.rsp_hdr = answer(lk_b.ent_grant, agent_id_i, lk_b.ent_src, lk_b.ent_tag, c_addr,
                               8'd0);
          end else begin
            x.out_dat = 1'b1;
            x.dat_hdr = answer(lk_b.ent_grant, agent_id_i, lk_b.ent_src, lk_b.ent_tag, c_addr,
                               LEN_LINE);
          end
        end
      end

      R_SET_POL: begin
        x.dir_we = 1'b1;
        x.dir_wd = {cmd_pol, dir_b[NumAgents + 1:0]};
      end

      R_NACK: begin
        x.free     = 1'b1;
        x.free_idx = lk_b.park_idx;
        x.out_rsp  = 1'b1;
        x.rsp_hdr  = answer((m_b.arg == cni_coh_pkg::NACK_ERROR) ? cni_coh_pkg::OP_ERROR :
                            cni_coh_pkg::OP_RETRY, agent_id_i, lk_b.park_src, lk_b.park_tag,
                            line_addr(m_b.line), 8'd0);
      end

      // The parked request is answered as if it arrived now and were let through: hosts the
      // directory still names (the line was armed while held, or a snoop's grant landed after
      // the ARM) are snooped first; the PARK entry becomes the SNOOP.
      R_REL_GRANT, R_REL_SNOOP: begin
        x.dir_we = 1'b1;
        x.dir_wd = hb.rel_shared ? {rel_pol, DIR_S, hb.rel_others | hb.rel_bit}
                                 : {rel_pol, DIR_X, hb.rel_bit};
        if (b_row == R_REL_SNOOP) begin
          x.conv       = 1'b1;
          x.conv_pend  = hb.rel_others;
          x.conv_grant = hb.rel_shared ? cni_coh_pkg::OP_DATA_S : cni_coh_pkg::OP_DATA_E;
          x.snp        = 1'b1;
          {x.snp_vec, x.snp_rest, x.snp_last} = snp_job(hb.rel_others);
          x.snp_op     = hb.rel_shared ? cni_coh_pkg::OP_FWD_DOWN : cni_coh_pkg::OP_FWD_INV;
          x.snp_ent    = lk_b.park_idx;
        end else begin
          x.free     = 1'b1;
          x.free_idx = lk_b.park_idx;
          x.out_dat  = 1'b1;
          x.dat_hdr  = answer(hb.rel_shared ? cni_coh_pkg::OP_DATA_S : cni_coh_pkg::OP_DATA_E,
                              agent_id_i, lk_b.park_src, lk_b.park_tag, line_addr(m_b.line),
                              LEN_LINE);
        end
      end

      R_REC_NACK: begin
        x.pop      = 1'b0;   // the RECALL itself is taken again next
        x.free     = 1'b1;
        x.free_idx = lk_b.park_idx;
        x.out_rsp  = 1'b1;
        x.rsp_hdr  = answer(cni_coh_pkg::OP_RETRY, agent_id_i, lk_b.park_src, lk_b.park_tag,
                            line_addr(m_b.line), 8'd0);
      end

      R_REC_WAIT: begin
        x.pop       = 1'b0;   // try again later
        x.stall_cmd = 1'b1;
      end

      R_REC_DONE, R_REC_SNOOP: begin
        x.alloc      = 1'b1;
        x.alloc_kind = K_RECALL;
        x.dir_we     = 1'b1;
        x.dir_wd     = {d_pol, DIR_I, NumAgents'(0)};
        if (b_row == R_REC_DONE) begin
          x.alloc_evt = 1'b1;
        end else begin
          x.alloc_pend = d_sharers;
          x.snp        = 1'b1;
          {x.snp_vec, x.snp_rest, x.snp_last} = snp_job(d_sharers);
          x.snp_op     = cni_coh_pkg::OP_FWD_INV;
        end
      end

      R_RCD_DONE, R_RCD_SNOOP: begin
        x.alloc      = 1'b1;
        x.alloc_kind = K_RECALL;
        if (b_row == R_RCD_DONE) begin
          x.alloc_evt = 1'b1;
        end else begin  // the owner keeps a Shared copy
          x.dir_we     = 1'b1;
          x.dir_wd     = {d_pol, DIR_S, d_sharers};
          x.alloc_pend = d_sharers;
          x.snp        = 1'b1;
          {x.snp_vec, x.snp_rest, x.snp_last} = snp_job(d_sharers);
          x.snp_op     = cni_coh_pkg::OP_FWD_DOWN;
        end
      end

      R_REQ_ERROR, R_DENY: x.out_rsp = 1'b1;

      R_PARK: begin
        x.alloc      = 1'b1;
        x.alloc_kind = K_PARK;
        x.alloc_evt  = 1'b1;
      end

      R_WB_RACE, R_WB_RACE_EVT, R_WB_RACE_GNT, R_WB_OWNER: begin
        x.out_rsp  = 1'b1;
        x.rsp_hdr  = answer(cni_coh_pkg::OP_WB_ACK, agent_id_i, c_src, c_tag, c_addr, 8'd0);
        x.mem_we   = 1'b1;
        x.data_msg = 1'b1;
        if (b_row == R_WB_OWNER) begin
          x.dir_we = 1'b1;
          x.dir_wd = {d_pol, DIR_I, NumAgents'(0)};
        end else if (b_row == R_WB_RACE_GNT) begin
          // The write-back completes the SNOOP: the requester's grant leaves with its data
          // beside the WbAck. The grant carries the line; an UpgAck (only a write-back from an
          // agent the directory named as a sharer, a protocol violation, gets here with one)
          // becomes DataE, which a requester in SM also takes.
          x.free     = 1'b1;
          x.free_idx = lk_b.hit_idx;
          x.out_dat  = 1'b1;
          x.dat_hdr  = answer((lk_b.hit_grant == cni_coh_pkg::OP_UPG_ACK) ?
                              cni_coh_pkg::OP_DATA_E : lk_b.hit_grant, agent_id_i,
                              lk_b.hit_src, lk_b.hit_tag, c_addr, LEN_LINE);
        end else begin  // absorbed into the transaction
          x.upd       = 1'b1;
          x.upd_idx   = lk_b.hit_idx;
          x.upd_pend  = lk_b.hit_pend;
          x.upd_wbp   = wb_wbp;
          x.upd_wbgot = wb_wbgot;
          x.upd_evt   = b_row == R_WB_RACE_EVT;
        end
      end

      R_RETRY: begin
        x.out_rsp = 1'b1;
        x.rsp_hdr = answer(cni_coh_pkg::OP_RETRY, agent_id_i, c_src, c_tag, c_addr, 8'd0);
      end

      R_GRANT_E, R_GRANT_S, R_GRANT_S_ADD: begin
        x.out_dat = 1'b1;
        x.dat_hdr = answer((b_row == R_GRANT_E) ? cni_coh_pkg::OP_DATA_E : cni_coh_pkg::OP_DATA_S,
                           agent_id_i, c_src, c_tag, c_addr, LEN_LINE);
        x.dir_we  = 1'b1;
        unique case (b_row)
          R_GRANT_E: x.dir_wd = {d_pol, DIR_X, c_bit};
          R_GRANT_S: x.dir_wd = {d_pol, DIR_S, c_bit};
          default:   x.dir_wd = {d_pol, DIR_S, d_sharers | c_bit};
        endcase
      end

      R_SNOOP_DOWN, R_SNOOP_INV: begin
        x.alloc  = 1'b1;
        x.dir_we = 1'b1;
        x.snp    = 1'b1;
        if (b_row == R_SNOOP_DOWN) begin
          x.alloc_pend  = d_sharers;
          x.alloc_grant = cni_coh_pkg::OP_DATA_S;
          x.dir_wd      = {d_pol, DIR_S, d_sharers | c_bit};
          {x.snp_vec, x.snp_rest, x.snp_last} = snp_job(d_sharers);
          x.snp_op      = cni_coh_pkg::OP_FWD_DOWN;
        end else begin
          x.alloc_pend  = d_sharers & ~c_bit;
          x.alloc_grant = c_xgrant;
          x.dir_wd      = {d_pol, DIR_X, c_bit};
          {x.snp_vec, x.snp_rest, x.snp_last} = snp_job(d_sharers & ~c_bit);
          x.snp_op      = cni_coh_pkg::OP_FWD_INV;
        end
      end

      R_UPG_ACK: begin
        x.out_rsp = 1'b1;
        x.rsp_hdr = answer(cni_coh_pkg::OP_UPG_ACK, agent_id_i, c_src, c_tag, c_addr, 8'd0);
        x.dir_we  = 1'b1;
        x.dir_wd  = {d_pol, DIR_X, c_bit};
      end

      default: ;  // R_NONE
    endcase
  end
  assign dec_o = x;

  if ($bits(m_d) != MsgW || $bits(lk_d) != LkW || $bits(hn) != HlpW || $bits(r_row) != RowW ||
      $bits(x) != DecW) $error("MsgW, LkW, HlpW, RowW and DecW must be the records' widths");

endmodule
