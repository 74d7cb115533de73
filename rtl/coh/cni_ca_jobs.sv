// SPDX-License-Identifier: Apache-2.0
// Device caching agent's jobs (cni_cache_agent, docs/cache-agent.md): what the inbound message
// and the engine request find (their lookups in the ways, the MSHRs and the write-back buffer),
// the row of the state tables each falls in and what its job registers for StExec; with
// LookReg, those lookups and jobs registered ("Registered lookups"); the idle clean's wait; and
// the choice, in StIdle, among the message, an MSHR to issue, an MSHR to deliver, the request
// and the idle clean.
//
// Parameters:
//   LineBytes, Sets, Ways, Mshrs, Wbs, CleanW, LookReg - as cni_cache_agent's
// Ports:
//   clk_i, rst_ni                 - clock, active-low asynchronous reset
//   agent_id_i, cfg_clean_i       - this agent's id; the idle clean's wait (0: off)
//   in_valid_i, in_hdr_i          - the inbound message (held until a job takes it)
//   req_valid_i, req_op_i,
//   req_addr_i                    - the engine request (held until a job takes it)
//   in_way_i ... cln_line_i       - the ways (cni_ca_tags): the message's hit way and state, the
//                                   request's hit way and state, free way and victim, the state
//                                   of the way the message's MSHR names, the idle clean's
//                                   candidate and the line of cln_way_o
//   cln_way_o                     - the idle clean's way (registered)
//   wb_*_i                        - the write-back buffer (cni_ca_wbuf): a free entry, the
//                                   request's and the message's line in it, the message's tag
//                                   naming the entry holding its line
//   iss_*_i, dlv_*_i, m_*_i, t_*_i,
//   fl_*_i                        - the MSHRs (cni_ca_mshr): to issue, to deliver, free, on the
//                                   request's line; named by the message's tag; the FLUSH
//                                   waiting on the entry the tag names
//   idle_i, fire_i, last_in_i     - the controller: in StIdle; the job in StExec is applied this
//                                   cycle; the last job was an inbound message
//   oreq_busy_i, rsp_busy_i       - the request register / the response register is full
//   take_o, take_in_o             - StIdle takes a job this cycle; it is the inbound message
//   job_*_o                       - what the job taken registers for StExec
`default_nettype none
`include "cni_assert.svh"

module cni_ca_jobs #(
  parameter int LineBytes = 128,
  parameter int Sets      = 4,
  parameter int Ways      = 4,
  parameter int Mshrs     = 4,
  parameter int Wbs       = 4,
  parameter int CleanW    = 16,
  parameter int LookReg   = 0,
  localparam int AddrW    = cni_coh_pkg::ADDR_W,
  localparam int AgentW   = cni_coh_pkg::AGENT_W,
  localparam int OffW     = $clog2(LineBytes),
  localparam int IdxW     = $clog2(Sets * Ways),
  localparam int MW       = (Mshrs > 1) ? $clog2(Mshrs) : 1,
  localparam int EW       = (Wbs > 1) ? $clog2(Wbs) : 1,
  localparam int LineW    = AddrW - OffW
) (
  input  wire logic                            clk_i,
  input  wire logic                            rst_ni,
  input  wire logic [AgentW-1:0]               agent_id_i,
  input  wire logic [CleanW-1:0]               cfg_clean_i,
  input  wire logic                            in_valid_i,
  input  wire cni_coh_pkg::hdr_t               in_hdr_i,
  input  wire logic                            req_valid_i,
  input  wire logic [cni_coh_pkg::CA_OP_W-1:0] req_op_i,
  input  wire logic [AddrW-1:0]                req_addr_i,
  // the ways
  input  wire logic [IdxW-1:0]                 in_way_i,
  input  wire logic [3:0]                      in_st_i,
  input  wire logic [IdxW-1:0]                 req_way_i,
  input  wire logic [3:0]                      req_st_i,
  input  wire logic                            req_free_i,
  input  wire logic [IdxW-1:0]                 req_fway_i,
  input  wire logic                            req_vic_i,
  input  wire logic [IdxW-1:0]                 req_vway_i,
  input  wire logic [3:0]                      req_vst_i,
  input  wire logic [LineW-1:0]                req_vline_i,
  input  wire logic [3:0]                      t_st_i,
  input  wire logic                            cln_v_i,
  input  wire logic [IdxW-1:0]                 cln_way_i,
  input  wire logic [LineW-1:0]                cln_line_i,
  output logic [IdxW-1:0]                      cln_way_o,
  // the write-back buffer
  input  wire logic                            wb_free_i,
  input  wire logic [EW-1:0]                   wb_free_e_i,
  input  wire logic                            wb_req_hit_i,
  input  wire logic                            wb_in_hit_i,
  input  wire logic                            wb_tag_hit_i,
  // the MSHRs
  input  wire logic                            iss_any_i,
  input  wire logic [MW-1:0]                   iss_m_i,
  input  wire logic [IdxW-1:0]                 iss_way_i,
  input  wire logic                            dlv_any_i,
  input  wire logic [MW-1:0]                   dlv_m_i,
  input  wire logic [IdxW-1:0]                 dlv_way_i,
  input  wire logic                            dlv_err_i,
  input  wire logic                            m_free_i,
  input  wire logic [MW-1:0]                   m_free_m_i,
  input  wire logic                            m_req_busy_i,
  input  wire logic                            t_ok_i,
  input  wire logic                            t_match_i,
  input  wire logic [1:0]                      t_mode_i,
  input  wire logic                            t_full_i,
  input  wire logic                            t_mrg_i,
  input  wire logic [IdxW-1:0]                 t_way_i,
  input  wire logic                            fl_any_i,
  input  wire logic [MW-1:0]                   fl_m_i,
  // the controller
  input  wire logic                            idle_i,
  input  wire logic                            fire_i,
  input  wire logic                            last_in_i,
  input  wire logic                            oreq_busy_i,
  input  wire logic                            rsp_busy_i,
  output logic                                 take_o,
  output logic                                 take_in_o,
  output cni_ca_pkg::row_e                     job_row_o,
  output logic [IdxW-1:0]                      job_way_o,
  output logic [MW-1:0]                        job_m_o,
  output logic [EW-1:0]                        job_e_o,
  output logic [LineW-1:0]                     job_line_o,
  output logic [3:0]                           job_st_o,
  output logic [3:0]                           job_nst_o,
  output logic                                 job_wb_o,
  output logic                                 job_err_o,
  output logic                                 job_snp_data_o,
  output logic                                 job_flm_o
);

  localparam logic [7:0] LEN_LINE = 8'(LineBytes);

  // the codes of cni_ca_pkg by their names (the pinned Yosys subset has no `import`)
  localparam logic [3:0] ST_I = cni_ca_pkg::ST_I, ST_S = cni_ca_pkg::ST_S;
  localparam logic [3:0] ST_E = cni_ca_pkg::ST_E, ST_O = cni_ca_pkg::ST_O, ST_M = cni_ca_pkg::ST_M;
  localparam logic [3:0] ST_IS = cni_ca_pkg::ST_IS, ST_IM = cni_ca_pkg::ST_IM;
  localparam logic [3:0] ST_SM = cni_ca_pkg::ST_SM, ST_MI = cni_ca_pkg::ST_MI;
  localparam logic [3:0] ST_OM = cni_ca_pkg::ST_OM;
  localparam logic [1:0] MD_LINE = cni_ca_pkg::MD_LINE, MD_RDNA = cni_ca_pkg::MD_RDNA;
  localparam logic [1:0] MD_WRINV = cni_ca_pkg::MD_WRINV, MD_FLUSH = cni_ca_pkg::MD_FLUSH;
  typedef cni_ca_pkg::row_e row_e;
  localparam row_e R_NONE = cni_ca_pkg::R_NONE, R_SNP = cni_ca_pkg::R_SNP;
  localparam row_e R_GNT = cni_ca_pkg::R_GNT, R_UPGACK = cni_ca_pkg::R_UPGACK;
  localparam row_e R_DATAI = cni_ca_pkg::R_DATAI, R_WRACK = cni_ca_pkg::R_WRACK;
  localparam row_e R_RETRY = cni_ca_pkg::R_RETRY, R_ERR = cni_ca_pkg::R_ERR;
  localparam row_e R_WBACK = cni_ca_pkg::R_WBACK, R_DROP = cni_ca_pkg::R_DROP;
  localparam row_e R_ISS = cni_ca_pkg::R_ISS, R_DLV = cni_ca_pkg::R_DLV;
  localparam row_e R_HIT_RD = cni_ca_pkg::R_HIT_RD, R_HIT_WR = cni_ca_pkg::R_HIT_WR;
  localparam row_e R_UPG = cni_ca_pkg::R_UPG, R_MISS = cni_ca_pkg::R_MISS;
  localparam row_e R_NA = cni_ca_pkg::R_NA, R_EVICT = cni_ca_pkg::R_EVICT;
  localparam row_e R_FLUSH_WB = cni_ca_pkg::R_FLUSH_WB, R_CLEAN = cni_ca_pkg::R_CLEAN;
  localparam row_e R_FLUSH_ACK = cni_ca_pkg::R_FLUSH_ACK, R_BAD = cni_ca_pkg::R_BAD;

  wire [LineW-1:0] r_line  = req_addr_i[AddrW-1:OffW];
  wire [LineW-1:0] in_line = in_hdr_i.addr[AddrW-1:OffW];
  wire [4:0]       in_op   = in_hdr_i.op;
  wire [MW-1:0]    t_m     = in_hdr_i.tag[MW-1:0];
  wire [EW-1:0]    t_e     = in_hdr_i.tag[EW-1:0];
  // a line is in a way or in the write-back buffer (MI), never both
  wire [3:0]       i_st    = wb_in_hit_i ? ST_MI : in_st_i;

  // ---- lookups: what the inbound message and the engine request find --------------------------
  // the opcodes a caching agent receives, one-hot
  localparam int C_FINV = 0, C_FDOWN = 1, C_FDNO = 2, C_DS = 3, C_DE = 4, C_DM = 5, C_UACK = 6;
  localparam int C_DI = 7, C_WRACK = 8, C_RETRY = 9, C_ERR = 10, C_WBACK = 11, NumCls = 12;
  // (set and write-back buffer compares, the MSHR or entry the tag names, the victim)
  typedef struct packed {
    logic [IdxW-1:0] way;              // the hit way (snoops)
    logic [3:0]      st;               // the line's state (MI: in the write-back buffer)
    logic            m_match, w_match; // the tag names an MSHR waiting on / an entry holding it
    logic [1:0]      t_mode;           // that MSHR's mode, full-line write, merge, way, way state
    logic            t_full, t_mrg;
    logic [IdxW-1:0] t_way;
    logic [3:0]      t_st;
    logic            fl_any;           // a FLUSH MSHR waits on that entry
    logic [MW-1:0]   fl_m;
    logic            for_me;           // the header: to this agent, its address line-aligned
    logic            len0, lenl;       // ... no data, a line of data
    logic [NumCls-1:0] cls;            // ... its opcode (one-hot, C_*; none: not for an agent)
  } ilook_t;
  typedef struct packed {
    logic             bad;             // the address is not line-aligned
    logic             mbusy, wbb;      // the line has an MSHR / is in the write-back buffer
    logic [IdxW-1:0]  way;             // the hit way and the line's state
    logic [3:0]       st;
    logic             free;            // a free way of the set
    logic [IdxW-1:0]  fway;
    logic             vic;             // a victim: its way, state and line
    logic [IdxW-1:0]  vway;
    logic [3:0]       vst;
    logic [LineW-1:0] vline;
  } rlook_t;
  ilook_t lki_c, lki;
  rlook_t lkr_c, lkr;
  logic   lki_v, lkr_v;  // lki / lkr are the lookups of the message / request now
  always_comb begin
    lki_c.way     = in_way_i;
    lki_c.st      = i_st;
    lki_c.m_match = t_match_i;
    lki_c.w_match = wb_tag_hit_i;
    // (the fields of the MSHR the tag names: zero for a tag beyond the MSHRs, whose entry does
    // not exist, so that the registered lookup is defined; a job uses them only with m_match)
    lki_c.t_mode  = t_ok_i ? t_mode_i : MD_LINE;
    lki_c.t_full  = t_ok_i && t_full_i;
    lki_c.t_mrg   = t_ok_i && t_mrg_i;
    lki_c.t_way   = t_ok_i ? t_way_i : '0;
    lki_c.t_st    = t_ok_i ? t_st_i : ST_I;
    lki_c.fl_any  = fl_any_i;
    lki_c.fl_m    = fl_m_i;
    lki_c.for_me  = in_hdr_i.dst == agent_id_i && in_hdr_i.addr[OffW-1:0] == '0;
    lki_c.len0    = in_hdr_i.len == 8'd0;
    lki_c.lenl    = in_hdr_i.len == LEN_LINE;
    lki_c.cls          = '0;
    lki_c.cls[C_FINV]  = in_op == cni_coh_pkg::OP_FWD_INV;
    lki_c.cls[C_FDOWN] = in_op == cni_coh_pkg::OP_FWD_DOWN;
    lki_c.cls[C_FDNO]  = in_op == cni_coh_pkg::OP_FWD_DNO;
    lki_c.cls[C_DS]    = in_op == cni_coh_pkg::OP_DATA_S;
    lki_c.cls[C_DE]    = in_op == cni_coh_pkg::OP_DATA_E;
    lki_c.cls[C_DM]    = in_op == cni_coh_pkg::OP_DATA_M;
    lki_c.cls[C_UACK]  = in_op == cni_coh_pkg::OP_UPG_ACK;
    lki_c.cls[C_DI]    = in_op == cni_coh_pkg::OP_DATA_I;
    lki_c.cls[C_WRACK] = in_op == cni_coh_pkg::OP_WR_ACK;
    lki_c.cls[C_RETRY] = in_op == cni_coh_pkg::OP_RETRY;
    lki_c.cls[C_ERR]   = in_op == cni_coh_pkg::OP_ERROR;
    lki_c.cls[C_WBACK] = in_op == cni_coh_pkg::OP_WB_ACK;
    lkr_c.bad     = req_addr_i[OffW-1:0] != '0;
    lkr_c.mbusy   = m_req_busy_i;
    lkr_c.wbb     = wb_req_hit_i;
    lkr_c.way     = req_way_i;
    lkr_c.st      = req_st_i;
    lkr_c.free    = req_free_i;
    lkr_c.fway    = req_fway_i;
    lkr_c.vic     = req_vic_i;
    lkr_c.vway    = req_vway_i;
    lkr_c.vst     = req_vst_i;
    lkr_c.vline   = req_vline_i;
  end

  // ---- the engine request's row --------------------------------------------------------------
  // r_row_pre as if the request register (oreq) and the response register were free; r_row
  // applies them (they clear without a job, so a registered lookup cannot hold them).
  logic r_rd;  // the request reads
  row_e r_row_pre;
  logic r_need_oreq;  // r_row_pre sends a WB (a flush of O/M, the eviction of a dirty victim)
  always_comb begin
    logic alloc, need_m;
    r_rd      = req_op_i == cni_coh_pkg::CA_RD_S || req_op_i == cni_coh_pkg::CA_RD_X ||
                req_op_i == cni_coh_pkg::CA_RD_NA;
    r_row_pre = R_NONE;
    alloc     = 1'b0;
    need_m    = 1'b0;
    if (lkr.bad) begin
      r_row_pre = R_BAD;
    end else if (lkr.mbusy || lkr.wbb) begin
      r_row_pre = R_NONE;  // the line has an MSHR (transients included) or is being written back
    end else begin
      unique case (req_op_i)
        cni_coh_pkg::CA_RD_S, cni_coh_pkg::CA_RD_NA: begin
          if (cni_ca_pkg::readable(lkr.st)) r_row_pre = R_HIT_RD;
          else if (req_op_i == cni_coh_pkg::CA_RD_S) alloc = 1'b1;
          else need_m = 1'b1;
        end
        cni_coh_pkg::CA_RD_X, cni_coh_pkg::CA_WR, cni_coh_pkg::CA_WR_INV: begin
          if (lkr.st == ST_E || lkr.st == ST_M) r_row_pre = r_rd ? R_HIT_RD : R_HIT_WR;
          else if (lkr.st == ST_S || lkr.st == ST_O) r_row_pre = R_UPG;
          else if (req_op_i == cni_coh_pkg::CA_WR_INV) need_m = 1'b1;
          else alloc = 1'b1;
        end
        cni_coh_pkg::CA_FLUSH: begin
          if (lkr.st == ST_M || lkr.st == ST_O) begin
            if (m_free_i && wb_free_i) r_row_pre = R_FLUSH_WB;
          end else begin
            r_row_pre = R_FLUSH_ACK;
          end
        end
        default: r_row_pre = R_BAD;
      endcase
      if (need_m && m_free_i) r_row_pre = R_NA;
      if (r_row_pre == R_UPG && !m_free_i) r_row_pre = R_NONE;
      if (alloc && m_free_i) begin
        if (lkr.free) r_row_pre = R_MISS;
        else if (lkr.vic && (!(lkr.vst == ST_M || lkr.vst == ST_O) || wb_free_i)) r_row_pre = R_EVICT;
      end
    end
    r_need_oreq = r_row_pre == R_FLUSH_WB ||
                  (r_row_pre == R_EVICT && (lkr.vst == ST_M || lkr.vst == ST_O));
  end

  // Each row's condition from the lookup (at most one holds; none: R_DROP), flat so that the
  // row and the job's fields are a few levels of logic after the lookup's flip-flops.
  row_e i_row;
  logic f_snp, f_gnt, f_upgack, f_datai, f_wrack, f_retry, f_err, f_wback;
  always_comb begin
    logic ok, line_m, m_nf;
    logic [4:0] row;
    ok       = lki.for_me;
    line_m   = lki.m_match && lki.t_mode == MD_LINE;
    m_nf     = lki.m_match && lki.t_mode != MD_FLUSH;
    f_snp    = ok && lki.len0 && (lki.cls[C_FINV] || lki.cls[C_FDOWN] || lki.cls[C_FDNO]);
    f_gnt    = ok && line_m && lki.lenl &&
               ((lki.cls[C_DS] && lki.t_st == ST_IS) ||
                ((lki.cls[C_DE] || lki.cls[C_DM]) &&
                 (lki.t_st == ST_IS || lki.t_st == ST_IM || lki.t_st == ST_SM)));
    f_upgack = ok && line_m && lki.len0 && lki.cls[C_UACK] &&
               (lki.t_st == ST_SM || lki.t_st == ST_OM || (lki.t_st == ST_IM && lki.t_full));
    f_datai  = ok && lki.m_match && lki.t_mode == MD_RDNA && lki.lenl && lki.cls[C_DI];
    f_wrack  = ok && lki.m_match && lki.t_mode == MD_WRINV && lki.len0 && lki.cls[C_WRACK];
    f_retry  = ok && m_nf && lki.len0 && lki.cls[C_RETRY];
    f_err    = ok && m_nf && lki.len0 && lki.cls[C_ERR];
    // WbAck, or an Error that is not an MSHR's, to a write-back
    f_wback  = ok && lki.w_match && lki.len0 &&
               (lki.cls[C_WBACK] || (lki.cls[C_ERR] && !m_nf));
    row = ({5{f_snp}} & 5'(R_SNP)) | ({5{f_gnt}} & 5'(R_GNT)) | ({5{f_upgack}} & 5'(R_UPGACK)) |
          ({5{f_datai}} & 5'(R_DATAI)) | ({5{f_wrack}} & 5'(R_WRACK)) |
          ({5{f_retry}} & 5'(R_RETRY)) | ({5{f_err}} & 5'(R_ERR)) | ({5{f_wback}} & 5'(R_WBACK));
    i_row = (row == 5'(R_NONE)) ? R_DROP : row_e'(row);
  end

  // ---- idle clean ------------------------------------------------------------------------------
  // A line in O (dirty, read by another agent since it was written) is written back once the
  // controller has had no job for cfg_clean_i cycles, so that a later miss finds a free way
  // instead of a dirty victim (docs/cache-agent.md, "Idle clean"). The candidate, the lowest
  // such way, is registered: a way's state and pin change only when a job fires, and a clean is
  // taken only after at least one cycle without a job, so the register is current then.
  logic [CleanW-1:0] cln_cnt_q;   // quiet cycles still to wait
  logic              cln_quiet_q; // the last cycle had no job (nothing fired)
  logic              cln_v_q;     // cln_way_q is in O and not pinned
  logic [IdxW-1:0]   cln_way_q;
  logic              cln_on_q;    // cfg_clean_i is not 0 (as of the last cycle)
  logic              cln_zero_q;  // cln_cnt_q is 0
  wire cln_go = cln_on_q && cln_zero_q && cln_quiet_q && cln_v_q && wb_free_i && !oreq_busy_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cln_cnt_q   <= '0;
      cln_zero_q  <= 1'b1;
      cln_on_q    <= 1'b0;
      cln_quiet_q <= 1'b0;
      cln_v_q     <= 1'b0;
      cln_way_q   <= '0;
    end else begin
      cln_on_q    <= cfg_clean_i != '0;
      cln_quiet_q <= idle_i && !take_any;
      cln_v_q     <= cln_v_i;
      cln_way_q   <= cln_way_i;
      if (!idle_i || take_any) begin
        cln_cnt_q  <= cfg_clean_i;
        cln_zero_q <= cfg_clean_i == '0;
      end else if (!cln_zero_q) begin
        cln_cnt_q  <= cln_cnt_q - 1'b1;
        cln_zero_q <= cln_cnt_q == CleanW'(1);
      end
    end
  end
  assign cln_way_o = cln_way_q;

  // ---- the jobs the inbound message and the engine request would be ---------------------------
  // What a job registers for StExec, for each of the two sources that need a lookup.
  typedef struct packed {
    row_e             row;
    logic [IdxW-1:0]  way;
    logic [MW-1:0]    m;
    logic [EW-1:0]    e;
    logic [LineW-1:0] line;
    logic [3:0]       st, nst;
    logic             wb, err, snp_data, flm;
  } job_t;

  // The inbound message's job. The fields a row does not use are left as they fall: its line's
  // state changes only in R_SNP, R_GNT, R_UPGACK, R_ERR and R_WBACK (st and nst alike otherwise).
  logic [3:0] snp_nst, gnt_nst;
  always_comb begin
    snp_nst = lki.st;
    if (lki.cls[C_FINV]) begin
      if (cni_ca_pkg::readable(lki.st)) snp_nst = ST_I;
      else if (lki.st == ST_SM || lki.st == ST_OM) snp_nst = ST_IM;
    end else if (lki.cls[C_FDOWN]) begin
      if (lki.st == ST_M || lki.st == ST_O || lki.st == ST_E) snp_nst = ST_S;
      else if (lki.st == ST_OM) snp_nst = ST_SM;
    end else begin  // FwdDownO
      if (lki.st == ST_M) snp_nst = ST_O;
      else if (lki.st == ST_E) snp_nst = ST_S;
    end
    gnt_nst = ST_M;
    if (f_gnt && lki.cls[C_DS]) gnt_nst = ST_S;
    if (f_gnt && lki.cls[C_DE] && !lki.t_mrg) gnt_nst = ST_E;
    if (lki.cls[C_ERR]) begin
      // the transient reverts; an RdNA/WrInv entry has no way and changes no line
      gnt_nst = (lki.t_mode != MD_LINE) ? lki.t_st : (lki.t_st == ST_SM) ? ST_S :
                (lki.t_st == ST_OM) ? ST_O : ST_I;
    end
  end
  job_t jin;
  always_comb begin
    logic f_fill;  // a grant, UpgAck or Error to a LINE MSHR's way
    f_fill       = f_gnt || f_upgack || f_err;
    jin          = '0;
    jin.row      = i_row;
    jin.way      = f_snp ? lki.way : lki.t_way;
    jin.line     = in_line;
    jin.m        = f_wback ? lki.fl_m : t_m;
    jin.e        = f_wback ? t_e : wb_free_e_i;
    jin.st       = f_snp ? lki.st : f_fill ? lki.t_st : f_wback ? ST_MI : ST_I;
    jin.nst      = f_snp ? snp_nst : f_fill ? gnt_nst : ST_I;
    jin.err      = f_wback && lki.cls[C_ERR];
    jin.snp_data = lki.st == ST_M || lki.st == ST_O || lki.st == ST_OM;
    jin.flm      = lki.fl_any;
  end

  job_t jrq;  // the engine request's job (row before the output registers' gating)
  always_comb begin
    jrq      = '0;
    jrq.row  = r_row_pre;
    jrq.m    = m_free_m_i;
    jrq.e    = wb_free_e_i;
    jrq.way  = lkr.way;
    jrq.line = r_line;
    jrq.st   = lkr.st;
    jrq.nst  = lkr.st;
    unique case (r_row_pre)
      R_HIT_WR: jrq.nst = ST_M;
      R_UPG:    jrq.nst = (lkr.st == ST_O) ? ST_OM : ST_SM;
      R_MISS: begin
        jrq.way = lkr.fway;
        jrq.st  = ST_I;
        jrq.nst = (req_op_i == cni_coh_pkg::CA_RD_S) ? ST_IS : ST_IM;
      end
      R_EVICT: begin
        jrq.way  = lkr.vway;
        jrq.line = lkr.vline;
        jrq.st   = lkr.vst;
        jrq.wb   = r_need_oreq;
        jrq.nst  = r_need_oreq ? ST_MI : ST_I;
      end
      R_FLUSH_WB: begin
        jrq.nst = ST_MI;
        jrq.wb  = 1'b1;
      end
      R_FLUSH_ACK: jrq.nst = ST_I;  // (a line in I stays I)
      default: ;
    endcase
  end

  // ---- registered lookups and jobs (LookReg) ---------------------------------------------------
  // LookReg: the lookups are registered (lki, lkr), the jobs worked out from them are registered
  // in the next cycle (jin_u, jrq_u), and a job is chosen from those. Only a job (fire) changes
  // what a lookup reads (ways, write-back buffer, MSHRs: a back-off's BACKOFF -> ISSUE is not
  // read), and the message and the request stay until a job takes them, so a lookup made in a
  // cycle without a job holds in the next, and a job worked out from it as well.
  job_t jin_u, jrq_u;    // the jobs the selection uses
  logic jin_v, jrq_v;    // ... are the jobs of the message / request now
  if (LookReg != 0) begin : g_look
    ilook_t lki_q;
    rlook_t lkr_q;
    job_t   jin_q, jrq_q;
    logic   lki_v_q, lkr_v_q, jin_v_q, jrq_v_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        lki_v_q <= 1'b0;
        lkr_v_q <= 1'b0;
        jin_v_q <= 1'b0;
        jrq_v_q <= 1'b0;
        lki_q   <= '0;
        lkr_q   <= '0;
        jin_q   <= '0;
        jrq_q   <= '0;
      end else begin
        lki_v_q <= in_valid_i && !fire_i;
        lkr_v_q <= req_valid_i && !fire_i;
        jin_v_q <= lki_v_q && in_valid_i && !fire_i;
        jrq_v_q <= lkr_v_q && req_valid_i && !fire_i;
        lki_q   <= lki_c;
        lkr_q   <= lkr_c;
        jin_q   <= jin;
        jrq_q   <= jrq;
      end
    end
    assign lki   = lki_q;
    assign lkr   = lkr_q;
    assign lki_v = lki_v_q;
    assign lkr_v = lkr_v_q;
    assign jin_u = jin_q;
    assign jrq_u = jrq_q;
    assign jin_v = jin_v_q;
    assign jrq_v = jrq_v_q;
  end else begin : g_nolook
    assign lki   = lki_c;
    assign lkr   = lkr_c;
    assign lki_v = 1'b1;
    assign lkr_v = 1'b1;
    assign jin_u = jin;
    assign jrq_u = jrq;
    assign jin_v = 1'b1;
    assign jrq_v = 1'b1;
    wire unused_fire = fire_i;  // (read by the registered lookups only)
  end

  // the request's row: a response goes out at once (the response register must be free), a WB
  // needs the request register
  row_e r_row;
  always_comb begin
    r_row = jrq_u.row;
    if (((r_row == R_HIT_RD || r_row == R_HIT_WR || r_row == R_FLUSH_ACK || r_row == R_BAD) &&
         rsp_busy_i) || (jrq_u.wb && oreq_busy_i)) begin
      r_row = R_NONE;
    end
  end

  // ---- job selection (StIdle) ------------------------------------------------------------------
  // An inbound message first, except right after one when another job is ready; then an MSHR
  // to issue, an MSHR to deliver, the engine request.
  wire c_iss    = iss_any_i && !oreq_busy_i;
  wire c_dlv    = dlv_any_i && !rsp_busy_i;
  wire c_req    = req_valid_i && jrq_v && r_row != R_NONE;
  wire take_in  = in_valid_i && jin_v && !(last_in_i && (c_iss || c_dlv || c_req));
  wire take_iss = !take_in && c_iss;
  wire take_dlv = !take_in && !c_iss && c_dlv;
  wire take_req = !take_in && !c_iss && !c_dlv && c_req;
  // idle clean: lowest priority, after cfg_clean_i cycles in which no job was taken
  wire take_cln = !take_in && !c_iss && !c_dlv && !c_req && cln_go;
  wire take_any = take_in || take_iss || take_dlv || take_req || take_cln;

  // What the chosen job registers for StExec, and the RAM words it reads now.
  // (AND-OR of the one-hot takes: no priority chain behind the selection)
  localparam int JobW = 5 + IdxW + MW + EW + LineW + 4 + 4 + 4;  // $bits(job_t)
  job_t sel, j_iss, j_dlv, j_cln;
  always_comb begin
    j_iss      = '0;
    j_iss.row  = R_ISS;
    j_iss.m    = iss_m_i;
    j_iss.e    = wb_free_e_i;
    j_iss.way  = iss_way_i;
    j_dlv      = '0;
    j_dlv.row  = R_DLV;
    j_dlv.m    = dlv_m_i;
    j_dlv.e    = wb_free_e_i;
    j_dlv.way  = dlv_way_i;
    j_dlv.err  = dlv_err_i;
    j_cln      = '0;
    j_cln.row  = R_CLEAN;
    j_cln.e    = wb_free_e_i;
    j_cln.way  = cln_way_q;
    j_cln.line = cln_line_i;
    j_cln.st   = ST_O;
    j_cln.nst  = ST_MI;
    j_cln.wb   = 1'b1;
    // (take_req: r_row is jrq_u.row, the request's row not held back)
    sel = ({JobW{take_in}} & jin_u) | ({JobW{take_iss}} & j_iss) |
          ({JobW{take_dlv}} & j_dlv) | ({JobW{take_req}} & jrq_u) |
          ({JobW{take_cln}} & j_cln);
  end

  assign take_o         = take_any;
  assign take_in_o      = take_in;
  assign job_row_o      = sel.row;
  assign job_way_o      = sel.way;
  assign job_m_o        = sel.m;
  assign job_e_o        = sel.e;
  assign job_line_o     = sel.line;
  assign job_st_o       = sel.st;
  assign job_nst_o      = sel.nst;
  assign job_wb_o       = sel.wb;
  assign job_err_o      = sel.err;
  assign job_snp_data_o = sel.snp_data;
  assign job_flm_o      = sel.flm;

  // Unused: the message's source and flags (the snoop answer, the controller's, reads the
  // source), and its tag's bits beyond the MSHR and write-back buffer entry indices.
  wire unused_hdr = ^{in_hdr_i.src, in_hdr_i.flags, in_hdr_i.tag};

  // ---- invariants ------------------------------------------------------------------------------
  // A registered lookup in use is the lookup made now (LookReg; the formal harness proves it,
  // tests/formal/fv_cache.sv p_look).
  wire chk_look = (!lki_v || !in_valid_i || lki == lki_c) &&
                  (!lkr_v || !req_valid_i || lkr == lkr_c) &&
                  (!jin_v || !in_valid_i || jin_u == jin) &&
                  (!jrq_v || !req_valid_i || jrq_u == jrq);
  `CNI_ASSERT_SIM(Look_A, chk_look, "a registered lookup differs from the lookup")

endmodule
