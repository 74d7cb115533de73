// SPDX-License-Identifier: Apache-2.0
// Device caching agent: a set-associative cache of host-homed lines that speaks docs/protocol.md
// as a caching agent (MOESI with the transients IS/IM/SM/OM/MI, MSHRs, a write-back buffer for
// dirty victims, Retry back-off, Error reporting) and serves an engine's reads, writes,
// non-allocating reads (RdNA), full-line write-invalidates (WrInv) and flushes. Design, state
// table and message sequences: docs/cache-agent.md. Its blocks: cni_ca_tags (the ways: state,
// line, pin, victim pointers, set lookups), cni_ca_mshr (the MSHRs), cni_ca_wbuf (the
// write-back buffer) and cni_dpram (the line data).
//
// Parameters:
//   LineBytes - coherence line size (64 or 128)
//   Sets      - sets, a power of two >= 2 (a line's set: the address bits above the offset)
//   Ways      - ways per set (1..16)
//   Mshrs     - miss-status entries (1..32): outstanding RdS/RdX/Upg/RdNA/WrInv and flushes
//   Wbs       - write-back buffer entries (1..Sets*Ways, at most 64): lines written back (MI),
//               their WbAck not yet received; an evicted line leaves its way at once
//   IdW       - engine request id width
//   HomeShift - the home agent of an address is addr[HomeShift +: AGENT_W]
//   BackoffW  - width of cfg_backoff_i (a port rather than a parameter, so that a CSR can set
//               it, like the home agent's PARK_TIMEOUT)
//   CleanW    - width of cfg_clean_i (a port for the same reason)
//   LookReg   - 1: the lookups of the inbound message and of the engine request (set and
//               write-back buffer compares, MSHR match, victim, row) are registered, and a job
//               is chosen from the registers in the next cycle (one more cycle per job, a
//               shorter critical path; the endpoint's Pipelined configuration); 0: chosen in
//               the cycle of the lookup (docs/cache-agent.md, "Registered lookups")
// Ports:
//   clk_i, rst_ni                 - clock, active-low asynchronous reset
//   agent_id_i                    - this agent's id on the fabric (the src of its messages)
//   cfg_backoff_i                 - cycles from a Retry to the re-issue of the request
//   cfg_clean_i                   - idle clean: after this many cycles without a job, write
//                                   back a line in O (dirty, read by another agent); 0 = off
//   req_* (valid/ready)           - engine requests (cni_coh_pkg::CA_*): the engine holds a
//                                   request stable until req_ready_o; this block may stall it.
//                                   Requests are taken in order; one to a line with an MSHR or
//                                   in the write-back buffer (MI) waits at the port
//   rsp_* (valid/ready)           - one response per request (the line for reads; rsp_err_o if
//                                   the home answered Error or the request was malformed), in
//                                   completion order, matched by id; the engine may stall it
//   oreq_* (valid/ready)          - link out, REQ: RdS/RdX/Upg/RdNA/WrInv/WB (data for WrInv and
//                                   WB); the link may stall it
//   orsp_* (valid/ready)          - link out, RSP: SnpAck/SnpData; the link may stall it
//   in_* (valid/ready)            - link in: every FWD, RSP and DAT message to this agent in
//                                   arrival order (a grant comes before a later snoop of its
//                                   line); this block stalls it only while a snoop's answer
//                                   waits for orsp_ready_i
//   mon_valid_o, mon_addr_o,
//   mon_from_o, mon_to_o          - one pulse per line state change; state codes ST_* below
//                                   (0..8 in the order of sim::CacheState, 9 = OM)
//   mon_acc_valid_o, mon_acc_id_o,
//   mon_acc_addr_o, mon_acc_we_o,
//   mon_acc_data_o                - one pulse per engine access performed in this cache: its
//                                   request's id, the line, whether it wrote, and a read's line
//                                   as read or a write's line as written (for the coherence
//                                   checker; a response may leave much later)
//   cnt_o                         - one-cycle event pulses: CNT_* below
//   idle_o                        - no job running or waiting (no MSHR to issue, answer or back
//                                   off, no output held): without an input nothing changes
`default_nettype none
`include "cni_assert.svh"

module cni_cache_agent #(
  parameter int LineBytes = 128,
  parameter int Sets      = 4,
  parameter int Ways      = 4,
  parameter int Mshrs     = 4,
  parameter int Wbs       = 4,
  parameter int IdW       = 4,
  parameter int HomeShift = 32,
  parameter int BackoffW  = 16,
  parameter int CleanW    = 16,
  parameter int LookReg   = 0,
  localparam int LineBits = LineBytes * 8,
  localparam int AddrW    = cni_coh_pkg::ADDR_W,
  localparam int AgentW   = cni_coh_pkg::AGENT_W,
  localparam int NumCnt   = 6
) (
  input  wire logic                            clk_i,
  input  wire logic                            rst_ni,
  input  wire logic [AgentW-1:0]               agent_id_i,
  input  wire logic [BackoffW-1:0]             cfg_backoff_i,
  input  wire logic [CleanW-1:0]               cfg_clean_i,
  // engine
  input  wire logic                            req_valid_i,
  output logic                                 req_ready_o,
  input  wire logic [cni_coh_pkg::CA_OP_W-1:0] req_op_i,
  input  wire logic [AddrW-1:0]                req_addr_i,
  input  wire logic [LineBits-1:0]             req_data_i,
  input  wire logic [LineBytes-1:0]            req_be_i,
  input  wire logic [IdW-1:0]                  req_id_i,
  output logic                                 rsp_valid_o,
  input  wire logic                            rsp_ready_i,
  output logic [IdW-1:0]                       rsp_id_o,
  output logic [LineBits-1:0]                  rsp_data_o,
  output logic                                 rsp_err_o,
  // link out
  output logic                                 oreq_valid_o,
  input  wire logic                            oreq_ready_i,
  output cni_coh_pkg::hdr_t                    oreq_hdr_o,
  output logic [LineBits-1:0]                  oreq_data_o,
  output logic                                 orsp_valid_o,
  input  wire logic                            orsp_ready_i,
  output cni_coh_pkg::hdr_t                    orsp_hdr_o,
  output logic [LineBits-1:0]                  orsp_data_o,
  // link in
  input  wire logic                            in_valid_i,
  output logic                                 in_ready_o,
  input  wire cni_coh_pkg::hdr_t               in_hdr_i,
  input  wire logic [LineBits-1:0]             in_data_i,
  // monitor and counters
  output logic                                 mon_valid_o,
  output logic [AddrW-1:0]                     mon_addr_o,
  output logic [3:0]                           mon_from_o,
  output logic [3:0]                           mon_to_o,
  output logic                                 mon_acc_valid_o,
  output logic [IdW-1:0]                       mon_acc_id_o,
  output logic [AddrW-1:0]                     mon_acc_addr_o,
  output logic                                 mon_acc_we_o,
  output logic [LineBits-1:0]                  mon_acc_data_o,
  output logic [NumCnt-1:0]                    cnt_o,
  output logic                                 idle_o
);

  localparam int OffW  = $clog2(LineBytes);
  localparam int SetW  = $clog2(Sets);
  localparam int Lines = Sets * Ways;
  localparam int IdxW  = $clog2(Lines);              // way index: way k of set s is k*Sets + s
  localparam int MW    = (Mshrs > 1) ? $clog2(Mshrs) : 1;
  localparam int EW    = (Wbs > 1) ? $clog2(Wbs) : 1;   // write-back buffer entry index
  localparam int LineW = AddrW - OffW;               // line address (byte address >> OffW)
  localparam int RamW  = $clog2(Lines + Mshrs);      // RAM: the lines, then one buffer per MSHR
  localparam int TagW  = cni_coh_pkg::TAG_W;
  localparam logic [7:0] LEN_LINE = 8'(LineBytes);

  if (LineBytes != 64 && LineBytes != 128) $error("LineBytes must be 64 or 128");
  if (Sets < 2 || (1 << SetW) != Sets) $error("Sets must be a power of two >= 2");
  if (Ways < 1 || Ways > 16) $error("Ways must be 1..16");
  if (Mshrs < 1 || Mshrs > 32) $error("Mshrs must be 1..32");
  if (Wbs < 1 || Wbs > Lines || Wbs > 64) $error("Wbs must be 1..Sets*Ways and at most 64");
  if (IdW < 1) $error("IdW must be >= 1");
  if (HomeShift < OffW + SetW || HomeShift + AgentW > AddrW) begin
    $error("HomeShift must select AGENT_W address bits above the set index");
  end
  if (BackoffW < 1 || BackoffW > 32) $error("BackoffW must be 1..32");
  if (CleanW < 1 || CleanW > 32) $error("CleanW must be 1..32");

  // ---- the codes of cni_ca_pkg by their names (the pinned Yosys subset has no `import`) -------
  // line states (mon_from_o / mon_to_o codes), MSHR modes
  localparam logic [3:0] ST_I = cni_ca_pkg::ST_I, ST_S = cni_ca_pkg::ST_S;
  localparam logic [3:0] ST_E = cni_ca_pkg::ST_E, ST_O = cni_ca_pkg::ST_O, ST_M = cni_ca_pkg::ST_M;
  localparam logic [3:0] ST_IS = cni_ca_pkg::ST_IS, ST_IM = cni_ca_pkg::ST_IM;
  localparam logic [3:0] ST_SM = cni_ca_pkg::ST_SM, ST_MI = cni_ca_pkg::ST_MI;
  localparam logic [3:0] ST_OM = cni_ca_pkg::ST_OM;
  localparam logic [1:0] MD_LINE = cni_ca_pkg::MD_LINE, MD_RDNA = cni_ca_pkg::MD_RDNA;
  localparam logic [1:0] MD_WRINV = cni_ca_pkg::MD_WRINV, MD_FLUSH = cni_ca_pkg::MD_FLUSH;

  // ---- counter pulses (cnt_o) ------------------------------------------------------------------
  localparam int CNT_HIT = 0, CNT_MISS = 1, CNT_WB = 2, CNT_RETRY = 3, CNT_SNOOP = 4;
  localparam int CNT_ERROR = 5;

  // ---- jobs: the row of the state tables (docs/cache-agent.md) a job falls in -----------------
  typedef enum logic [4:0] {
    R_NONE,       // (the engine request cannot be taken yet)
    R_SNP,        // snoop: answer SnpAck/SnpData (+WBP), maybe change the line's state
    R_GNT,        // DataS/DataE/DataM to a LINE MSHR: line (merged for writes) -> way, DONE
    R_UPGACK,     // UpgAck: SM/OM, or IM of a whole-line write (RdX FULL) -> M (merged), DONE
    R_DATAI,      // DataI: data -> the MSHR's buffer word, DONE
    R_WRACK,      // WrAck: DONE
    R_RETRY,      // Retry: BACKOFF
    R_ERR,        // Error to an MSHR: the transient reverts, DONE with error
    R_WBACK,      // WbAck (or Error) to a write-back: MI -> I (entry freed), its FLUSH MSHR DONE
    R_DROP,       // malformed or unexpected message: dropped, counted
    R_ISS,        // send an MSHR's request
    R_DLV,        // deliver an MSHR's response, free it
    R_HIT_RD,     // engine read hit: respond with the line
    R_HIT_WR,     // engine write hit (E/M): merge, -> M, respond
    R_UPG,        // engine request needing ownership of a line in S/O: -> SM/OM, MSHR
    R_MISS,       // engine request to a line in I: way -> IS/IM, MSHR
    R_NA,         // CA_RD_NA / CA_WR_INV to a line in I: MSHR (RDNA / WRINV), no way
    R_EVICT,      // make room: victim S/E -> I, or O/M -> MI (way freed, line to the write-back
                  //   buffer) with a WB (request not taken)
    R_FLUSH_WB,   // CA_FLUSH of O/M: WB, -> MI (line to the write-back buffer), FLUSH MSHR
    R_CLEAN,      // idle clean: a line in O -> MI with a WB (the set's victim pointer stays)
    R_FLUSH_ACK,  // CA_FLUSH of S/E (-> I) or I: respond
    R_BAD         // malformed engine request: respond with error
  } row_e;

  typedef enum logic {StIdle, StExec} state_e;
  state_e state_q, state_d;

  // ---- the job in StExec ------------------------------------------------------------------------
  row_e             row_q;
  logic [IdxW-1:0]  way_q;       // the way the job concerns
  logic [MW-1:0]    m_q;         // the MSHR the job concerns (allocated, answered, issued...)
  logic [EW-1:0]    e_q;         // the write-back buffer entry it fills or frees
  logic [LineW-1:0] line_q;      // the line whose state changes
  logic [3:0]       st_q, nst_q; // its state now and next
  logic             chg_q;       // the job changes that line's state
  logic             wb_q;        // the job writes its line back (a dirty R_EVICT, R_FLUSH_WB,
                                 //   R_CLEAN): WB, the line to the write-back buffer
  logic             err_q;       // R_WBACK: the answer was Error; R_DLV: respond with error
  logic             flm_q;       // R_WBACK: m_q is a FLUSH MSHR waiting on the entry
  logic             snp_data_q;  // R_SNP: answer SnpData
  logic             last_in_q;   // the last job was an inbound message
  logic             fire;        // the job in StExec is applied this cycle (below)

  // ---- output registers ---------------------------------------------------------------------
  logic                oreq_valid_q;
  cni_coh_pkg::hdr_t   oreq_hdr_q;
  logic [LineBits-1:0] oreq_data_q;
  logic                rsp_valid_q, rsp_err_q;
  logic [IdW-1:0]      rsp_id_q;
  logic [LineBits-1:0] rsp_data_q;

  // ---- line data: port A the lines, port B one buffer word per MSHR --------------------------
  logic                ra_en, ra_we, rb_en, rb_we;
  logic [RamW-1:0]     ra_addr, rb_addr;
  logic [LineBits-1:0] ra_wd, rb_wd, a_rd, b_rd;

  cni_dpram #(.Width(LineBits), .Words(Lines + Mshrs)) u_ram (
    .clk_i,
    .a_en_i(ra_en), .a_we_i(ra_we), .a_addr_i(ra_addr), .a_wd_i(ra_wd), .a_rd_o(a_rd),
    .b_en_i(rb_en), .b_we_i(rb_we), .b_addr_i(rb_addr), .b_wd_i(rb_wd), .b_rd_o(b_rd)
  );

  // ---- helpers --------------------------------------------------------------------------------
  // Byte b from `nw` where be[b], else from `old` (32-bit words at a time, so that a simulator
  // unrolls it into word operations).
  function automatic logic [LineBits-1:0] merge(input logic [LineBits-1:0] old,
                                                input logic [LineBits-1:0] nw,
                                                input logic [LineBytes-1:0] be);
    logic [31:0] m;
    for (int w = 0; w < LineBytes / 4; w++) begin
      m = {{8{be[4*w+3]}}, {8{be[4*w+2]}}, {8{be[4*w+1]}}, {8{be[4*w]}}};
      merge[32*w +: 32] = (old[32*w +: 32] & ~m) | (nw[32*w +: 32] & m);
    end
  endfunction

  // A packed header (the pinned Yosys subset has no typedef return types).
  function automatic logic [cni_coh_pkg::HDR_W-1:0] mk_hdr(
      input logic [4:0] op, input logic [AgentW-1:0] src, input logic [AgentW-1:0] dst,
      input logic [TagW-1:0] tag, input logic [3:0] flags, input logic [7:0] len,
      input logic [LineW-1:0] line);
    cni_coh_pkg::hdr_t h;
    h.op    = op;
    h.src   = src;
    h.dst   = dst;
    h.tag   = tag;
    h.flags = flags;
    h.len   = len;
    h.addr  = {line, OffW'(0)};
    mk_hdr  = h;
  endfunction

  // ---- the blocks' signals -------------------------------------------------------------------
  wire [LineW-1:0]  r_line  = req_addr_i[AddrW-1:OffW];
  wire [LineW-1:0]  in_line = in_hdr_i.addr[AddrW-1:OffW];
  wire [TagW-1:0]   in_tag  = in_hdr_i.tag;
  // the request writes (gains ownership)
  wire              r_wr    = req_op_i == cni_coh_pkg::CA_WR ||
                              req_op_i == cni_coh_pkg::CA_WR_INV;
  // the ways
  logic [IdxW-1:0]  i_way, r_way, r_fway, r_vway, cln_way, cln_way_q;
  logic [3:0]       i_hst, r_st, r_vst, t_st, job_st;
  logic             r_free, r_vic, cln_v;
  logic [LineW-1:0] r_vline, cln_line;
  // the write-back buffer
  logic             wfree_any, r_wbb, i_wbb, w_match;
  logic [EW-1:0]    wfree_e;
  // the MSHRs: the scans, the entry the message's tag names, the job's entry
  logic             iss_any, dlv_any, free_any, r_mbusy, dlv_err, m_backoff;
  logic [MW-1:0]    iss_m, dlv_m, free_m, fl_m;
  logic [IdxW-1:0]  iss_way, dlv_way, t_way;
  logic             t_ok, m_match, t_full, t_mrg, fl_any;
  logic [1:0]       t_mode, m_mode;
  logic             m_mrg, m_full;
  logic [LineBytes-1:0] m_be;
  logic [IdW-1:0]   m_id;
  logic [LineW-1:0] m_line_addr;

  logic [3:0]       i_st;
  // a line is in a way or in the write-back buffer (MI), never both
  assign i_st = i_wbb ? ST_MI : i_hst;

  // ---- the inbound message's row ---------------------------------------------------------------
  wire [4:0]       in_op   = in_hdr_i.op;
  wire [MW-1:0]    t_m     = in_tag[MW-1:0];
  wire [EW-1:0]    t_e     = in_tag[EW-1:0];
  wire             len0    = in_hdr_i.len == 8'd0;
  wire             lenl    = in_hdr_i.len == LEN_LINE;
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
    lki_c.way     = i_way;
    lki_c.st      = i_st;
    lki_c.m_match = m_match;
    lki_c.w_match = w_match;
    // (the fields of the MSHR the tag names: zero for a tag beyond the MSHRs, whose entry does
    // not exist, so that the registered lookup is defined; a job uses them only with m_match)
    lki_c.t_mode  = t_ok ? t_mode : MD_LINE;
    lki_c.t_full  = t_ok && t_full;
    lki_c.t_mrg   = t_ok && t_mrg;
    lki_c.t_way   = t_ok ? t_way : '0;
    lki_c.t_st    = t_ok ? t_st : ST_I;
    lki_c.fl_any  = fl_any;
    lki_c.fl_m    = fl_m;
    lki_c.for_me  = in_hdr_i.dst == agent_id_i && in_hdr_i.addr[OffW-1:0] == '0;
    lki_c.len0    = len0;
    lki_c.lenl    = lenl;
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
    lkr_c.mbusy   = r_mbusy;
    lkr_c.wbb     = r_wbb;
    lkr_c.way     = r_way;
    lkr_c.st      = r_st;
    lkr_c.free    = r_free;
    lkr_c.fway    = r_fway;
    lkr_c.vic     = r_vic;
    lkr_c.vway    = r_vway;
    lkr_c.vst     = r_vst;
    lkr_c.vline   = r_vline;
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
            if (free_any && wfree_any) r_row_pre = R_FLUSH_WB;
          end else begin
            r_row_pre = R_FLUSH_ACK;
          end
        end
        default: r_row_pre = R_BAD;
      endcase
      if (need_m && free_any) r_row_pre = R_NA;
      if (r_row_pre == R_UPG && !free_any) r_row_pre = R_NONE;
      if (alloc && free_any) begin
        if (lkr.free) r_row_pre = R_MISS;
        else if (lkr.vic && (!(lkr.vst == ST_M || lkr.vst == ST_O) || wfree_any)) r_row_pre = R_EVICT;
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
  logic              cln_on_q;    // cfg_clean_i is not 0 (as of the last cycle)
  logic              cln_zero_q;  // cln_cnt_q is 0
  wire cln_go = cln_on_q && cln_zero_q && cln_quiet_q && cln_v_q && wfree_any && !oreq_valid_q;
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
      cln_quiet_q <= state_q == StIdle && !take_any;
      cln_v_q     <= cln_v;
      cln_way_q   <= cln_way;
      if (state_q != StIdle || take_any) begin
        cln_cnt_q  <= cfg_clean_i;
        cln_zero_q <= cfg_clean_i == '0;
      end else if (!cln_zero_q) begin
        cln_cnt_q  <= cln_cnt_q - 1'b1;
        cln_zero_q <= cln_cnt_q == CleanW'(1);
      end
    end
  end

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
    jin.e        = f_wback ? t_e : wfree_e;
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
    jrq.m    = free_m;
    jrq.e    = wfree_e;
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
        lki_v_q <= in_valid_i && !fire;
        lkr_v_q <= req_valid_i && !fire;
        jin_v_q <= lki_v_q && in_valid_i && !fire;
        jrq_v_q <= lkr_v_q && req_valid_i && !fire;
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
  end

  // the request's row: a response goes out at once (the response register must be free), a WB
  // needs the request register
  row_e r_row;
  always_comb begin
    r_row = jrq_u.row;
    if (((r_row == R_HIT_RD || r_row == R_HIT_WR || r_row == R_FLUSH_ACK || r_row == R_BAD) &&
         rsp_valid_q) || (jrq_u.wb && oreq_valid_q)) begin
      r_row = R_NONE;
    end
  end

  // ---- job selection (StIdle) ------------------------------------------------------------------
  // An inbound message first, except right after one when another job is ready; then an MSHR
  // to issue, an MSHR to deliver, the engine request.
  wire c_iss    = iss_any && !oreq_valid_q;
  wire c_dlv    = dlv_any && !rsp_valid_q;
  wire c_req    = req_valid_i && jrq_v && r_row != R_NONE;
  wire take_in  = in_valid_i && jin_v && !(last_in_q && (c_iss || c_dlv || c_req));
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
    j_iss.m    = iss_m;
    j_iss.e    = wfree_e;
    j_iss.way  = iss_way;
    j_dlv      = '0;
    j_dlv.row  = R_DLV;
    j_dlv.m    = dlv_m;
    j_dlv.e    = wfree_e;
    j_dlv.way  = dlv_way;
    j_dlv.err  = dlv_err;
    j_cln      = '0;
    j_cln.row  = R_CLEAN;
    j_cln.e    = wfree_e;
    j_cln.way  = cln_way_q;
    j_cln.line = cln_line;
    j_cln.st   = ST_O;
    j_cln.nst  = ST_MI;
    j_cln.wb   = 1'b1;
    // (take_req: r_row is jrq_u.row, the request's row not held back)
    sel = ({JobW{take_in}} & jin_u) | ({JobW{take_iss}} & j_iss) |
          ({JobW{take_dlv}} & j_dlv) | ({JobW{take_req}} & jrq_u) |
          ({JobW{take_cln}} & j_cln);
  end

  // ---- StExec: what the job does ----------------------------------------------------------------
  wire exec    = state_q == StExec;
  // the job is applied this cycle (a snoop when its answer is taken)
  assign fire = exec && (row_q != R_SNP || orsp_ready_i);
  wire in_job  = row_q == R_SNP || row_q == R_GNT || row_q == R_UPGACK || row_q == R_DATAI ||
                 row_q == R_WRACK || row_q == R_RETRY || row_q == R_ERR || row_q == R_WBACK ||
                 row_q == R_DROP;
  wire req_job = row_q == R_HIT_RD || row_q == R_HIT_WR || row_q == R_UPG || row_q == R_MISS ||
                 row_q == R_NA || row_q == R_FLUSH_WB || row_q == R_FLUSH_ACK || row_q == R_BAD;
  wire alloc_m = row_q == R_UPG || row_q == R_MISS || row_q == R_NA || row_q == R_FLUSH_WB;
  // a job writing the line in its way: grants, UpgAck, write hits
  wire wr_way  = row_q == R_GNT || row_q == R_UPGACK || row_q == R_HIT_WR;
  // the new engine request's data goes to its MSHR's buffer word (CA_WR, CA_WR_INV)
  wire wr_buf  = (row_q == R_UPG || row_q == R_MISS || row_q == R_NA) && r_wr;
  wire m_line  = m_mode == MD_LINE;

  // The line a grant, UpgAck or write hit leaves in the way: the old line (the grant's data,
  // or the way's) with the write's bytes merged in. Only a job uses it (StExec): elsewhere it
  // is a don't-care, which leaves the synthesized network as it is while a simulator skips the
  // merge in idle cycles.
  logic [LineBits-1:0] wr_old, wr_new, merged;
  logic [LineBytes-1:0] wr_be;
  always_comb begin
    wr_old = (row_q == R_GNT) ? in_data_i : a_rd;
    wr_new = (row_q == R_HIT_WR) ? req_data_i : b_rd;
    if (row_q == R_HIT_WR) begin
      wr_be = (req_op_i == cni_coh_pkg::CA_WR_INV) ? '1 : req_be_i;
    end else begin
      wr_be = m_mrg ? m_be : '0;
    end
    merged = 'x;
    if (state_q == StExec) merged = merge(wr_old, wr_new, wr_be);
  end

  // RAM ports: reads in StIdle for the chosen job, writes in StExec.
  always_comb begin
    ra_en   = 1'b0;
    ra_we   = 1'b0;
    ra_addr = RamW'(sel.way);
    ra_wd   = merged;
    rb_en   = 1'b0;
    rb_we   = 1'b0;
    rb_addr = RamW'(Lines) + RamW'(sel.m);
    rb_wd   = (row_q == R_DATAI) ? in_data_i : req_data_i;
    unique case (state_q)
      StIdle: begin
        ra_en = take_any;
        rb_en = take_any;
      end
      StExec: begin
        ra_en   = fire && wr_way;
        ra_we   = 1'b1;
        ra_addr = RamW'(way_q);
        rb_en   = fire && (row_q == R_DATAI || wr_buf);
        rb_we   = 1'b1;
        rb_addr = RamW'(Lines) + RamW'(m_q);
      end
      default: ;
    endcase
  end

  // ---- outputs -----------------------------------------------------------------------------------
  // (an idle clean still to come is a job: its countdown runs without an input)
  assign idle_o = state_q == StIdle && !iss_any && !dlv_any && !m_backoff && !oreq_valid_q &&
                  !rsp_valid_q && !in_valid_i && !req_valid_i &&
                  !(cfg_clean_i != '0 && cln_v && wfree_any);
  assign in_ready_o   = fire && in_job;
  assign req_ready_o  = fire && req_job;
  assign orsp_valid_o = exec && row_q == R_SNP;
  assign orsp_hdr_o   = mk_hdr(snp_data_q ? cni_coh_pkg::OP_SNP_DATA : cni_coh_pkg::OP_SNP_ACK,
                               agent_id_i, in_hdr_i.src, in_tag,
                               4'((st_q == ST_MI) ? 1 << cni_coh_pkg::FLAG_WBP : 0),
                               snp_data_q ? LEN_LINE : 8'd0, in_line);
  assign orsp_data_o  = a_rd;
  assign oreq_valid_o = oreq_valid_q;
  assign oreq_hdr_o   = oreq_hdr_q;
  assign oreq_data_o  = oreq_data_q;
  assign rsp_valid_o  = rsp_valid_q;
  assign rsp_id_o     = rsp_id_q;
  assign rsp_err_o    = rsp_err_q;
  assign rsp_data_o   = rsp_data_q;

  assign mon_valid_o  = fire && chg_q;
  assign mon_addr_o   = {line_q, OffW'(0)};
  assign mon_from_o   = st_q;
  assign mon_to_o     = nst_q;
  // accesses performed here: read hits, write hits, and the fills of LINE MSHRs
  assign mon_acc_valid_o = fire && (row_q == R_HIT_RD || row_q == R_HIT_WR || row_q == R_GNT ||
                                    row_q == R_UPGACK);
  assign mon_acc_id_o    = (row_q == R_HIT_RD || row_q == R_HIT_WR) ? req_id_i : m_id;
  assign mon_acc_addr_o  = {line_q, OffW'(0)};
  assign mon_acc_we_o    = row_q == R_HIT_WR || (row_q != R_HIT_RD && m_mrg);
  assign mon_acc_data_o  = (row_q == R_HIT_RD) ? a_rd : merged;

  always_comb begin
    cnt_o = '0;
    if (fire) begin
      cnt_o[CNT_HIT]   = row_q == R_HIT_RD || row_q == R_HIT_WR;
      cnt_o[CNT_MISS]  = row_q == R_UPG || row_q == R_MISS || row_q == R_NA;
      cnt_o[CNT_WB]    = wb_q;
      cnt_o[CNT_RETRY] = row_q == R_RETRY;
      cnt_o[CNT_SNOOP] = row_q == R_SNP;
      cnt_o[CNT_ERROR] = row_q == R_ERR || row_q == R_DROP || row_q == R_BAD ||
                         (row_q == R_WBACK && err_q);
    end
  end

  // The request a LINE MSHR sends, from its way's state (a Upg whose copy a snoop took goes
  // out again as RdX).
  function automatic logic [4:0] line_req(input logic [3:0] s);
    line_req = (s == ST_IS) ? cni_coh_pkg::OP_RDS :
               (s == ST_IM) ? cni_coh_pkg::OP_RDX : cni_coh_pkg::OP_UPG;
  endfunction
  wire [4:0] iss_op = (m_mode == MD_RDNA)  ? cni_coh_pkg::OP_RDNA :
                      (m_mode == MD_WRINV) ? cni_coh_pkg::OP_WRINV : line_req(job_st);
  // An RdX of a write of every byte asks for ownership without the old data (FULL: the home may
  // answer UpgAck, protocol rule 3).
  wire [3:0] iss_flags = (iss_op == cni_coh_pkg::OP_RDX && m_full)
                         ? 4'(1 << cni_coh_pkg::FLAG_FULL) : 4'd0;

  // ---- FSM ------------------------------------------------------------------------------------
  always_comb begin
    state_d = state_q;
    unique case (state_q)
      StIdle: if (take_any) state_d = StExec;
      StExec: if (fire) state_d = StIdle;
      default: state_d = StIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
    end else begin
      state_q <= state_d;
    end
  end

  // ---- job registers ------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      row_q      <= R_NONE;
      way_q      <= '0;
      m_q        <= '0;
      e_q        <= '0;
      line_q     <= '0;
      st_q       <= ST_I;
      nst_q      <= ST_I;
      chg_q      <= 1'b0;
      wb_q       <= 1'b0;
      err_q      <= 1'b0;
      flm_q      <= 1'b0;
      snp_data_q <= 1'b0;
      last_in_q  <= 1'b0;
    end else if (state_q == StIdle && take_any) begin
      row_q      <= sel.row;
      way_q      <= sel.way;
      m_q        <= sel.m;
      e_q        <= sel.e;
      line_q     <= sel.line;
      st_q       <= sel.st;
      nst_q      <= sel.nst;
      chg_q      <= sel.nst != sel.st;
      wb_q       <= sel.wb;
      err_q      <= sel.err;
      flm_q      <= sel.flm;
      snp_data_q <= sel.snp_data;
      last_in_q  <= take_in;
    end
  end

  // ---- the blocks: ways, write-back buffer, MSHRs -------------------------------------------
  cni_ca_tags #(.Sets(Sets), .Ways(Ways), .LineW(LineW)) u_tags (
    .clk_i, .rst_ni,
    .in_line_i(in_line), .in_way_o(i_way), .in_st_o(i_hst),
    .req_line_i(r_line), .req_way_o(r_way), .req_st_o(r_st), .req_free_o(r_free),
    .req_fway_o(r_fway), .req_vic_o(r_vic), .req_vway_o(r_vway), .req_vst_o(r_vst),
    .req_vline_o(r_vline), .t_way_i(t_way), .t_st_o(t_st), .cln_way_i(cln_way_q),
    .cln_line_o(cln_line), .cln_v_o(cln_v), .cln_way_o(cln_way),
    .upd_i(fire), .job_way_i(way_q), .job_st_o(job_st), .st_we_i(chg_q && row_q != R_WBACK),
    .nst_i(nst_q), .fill_i(row_q == R_MISS), .line_i(line_q),
    .pin_i(row_q == R_UPG || row_q == R_MISS), .unpin_i(row_q == R_DLV && m_line),
    .evict_i(row_q == R_EVICT)
  );

  cni_ca_wbuf #(.Wbs(Wbs), .LineW(LineW), .TagW(TagW)) u_wbuf (
    .clk_i, .rst_ni,
    .free_o(wfree_any), .free_e_o(wfree_e), .req_line_i(r_line), .req_hit_o(r_wbb),
    .in_line_i(in_line), .in_hit_o(i_wbb), .in_tag_i(in_tag), .tag_hit_o(w_match),
    .upd_i(fire), .e_i(e_q), .put_i(wb_q), .line_i(line_q), .release_i(row_q == R_WBACK)
  );

  cni_ca_mshr #(
    .Mshrs(Mshrs), .LineBytes(LineBytes), .IdW(IdW), .LineW(LineW), .IdxW(IdxW),
    .BackoffW(BackoffW), .TagW(TagW)
  ) u_mshr (
    .clk_i, .rst_ni, .cfg_backoff_i,
    .iss_any_o(iss_any), .iss_m_o(iss_m), .iss_way_o(iss_way), .dlv_any_o(dlv_any),
    .dlv_m_o(dlv_m), .dlv_way_o(dlv_way), .dlv_err_o(dlv_err), .free_any_o(free_any),
    .free_m_o(free_m), .backoff_o(m_backoff), .req_line_i(r_line), .req_busy_o(r_mbusy),
    .in_tag_i(in_tag), .in_line_i(in_line), .t_ok_o(t_ok), .t_match_o(m_match),
    .t_mode_o(t_mode), .t_full_o(t_full), .t_mrg_o(t_mrg), .t_way_o(t_way),
    .fl_e_i(IdxW'(in_tag[EW-1:0])), .fl_any_o(fl_any), .fl_m_o(fl_m),
    .m_i(m_q), .m_mode_o(m_mode), .m_mrg_o(m_mrg), .m_full_o(m_full), .m_be_o(m_be),
    .m_id_o(m_id), .m_line_o(m_line_addr),
    .upd_i(fire), .alloc_i(alloc_m), .flush_i(row_q == R_FLUSH_WB), .na_i(row_q == R_NA),
    .e_i(IdxW'(e_q)), .way_i(way_q), .req_op_i, .req_wr_i(r_wr), .req_be_i, .req_id_i,
    .issued_i(row_q == R_ISS),
    .done_i(row_q == R_GNT || row_q == R_UPGACK || row_q == R_DATAI || row_q == R_WRACK),
    .retry_i(row_q == R_RETRY), .fail_i(row_q == R_ERR), .wback_i(row_q == R_WBACK && flm_q),
    .wback_err_i(err_q), .free_i(row_q == R_DLV)
  );

  // ---- output registers ----------------------------------------------------------------------------
  // A job loads the request register only when it sends something (a clean eviction does not:
  // it may run while a write-back still waits there), the response register only when it
  // answers the engine. Both are free then: the jobs that load them are picked only so.
  wire oreq_load = fire && (row_q == R_ISS || wb_q);
  wire rsp_load  = fire && (row_q == R_DLV || row_q == R_HIT_RD || row_q == R_HIT_WR ||
                            row_q == R_FLUSH_ACK || row_q == R_BAD);
  // the home of a request's line: addr[HomeShift +: AGENT_W]
  wire [AgentW-1:0] iss_home = m_line_addr[HomeShift - OffW +: AgentW];
  wire [AgentW-1:0] wb_home  = line_q[HomeShift - OffW +: AgentW];
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      oreq_valid_q <= 1'b0;
      oreq_hdr_q   <= '0;
      rsp_valid_q  <= 1'b0;
      rsp_err_q    <= 1'b0;
      rsp_id_q     <= '0;
    end else begin
      if (oreq_valid_q && oreq_ready_i) oreq_valid_q <= 1'b0;
      if (rsp_valid_q && rsp_ready_i) rsp_valid_q <= 1'b0;
      if (oreq_load) begin
        oreq_valid_q <= 1'b1;
        oreq_hdr_q   <= (row_q == R_ISS) ?
            mk_hdr(iss_op, agent_id_i, iss_home, TagW'(m_q), iss_flags,
                   (m_mode == MD_WRINV) ? LEN_LINE : 8'd0, m_line_addr) :
            mk_hdr(cni_coh_pkg::OP_WB, agent_id_i, wb_home, {1'b1, (TagW - 1)'(e_q)}, 4'd0,
                   LEN_LINE, line_q);
      end
      if (rsp_load) begin
        rsp_valid_q <= 1'b1;
        rsp_id_q    <= (row_q == R_DLV) ? m_id : req_id_i;
        rsp_err_q   <= (row_q == R_DLV) ? err_q : row_q == R_BAD;
      end
    end
  end

  // Line-wide data registers (no reset: each is read only with its valid flag).
  always_ff @(posedge clk_i) begin
    if (oreq_load) oreq_data_q <= (row_q == R_ISS) ? b_rd : a_rd;
    if (rsp_load) rsp_data_q <= (row_q == R_DLV && m_mode == MD_RDNA) ? b_rd : a_rd;
  end

  // Unused: the flags of inbound messages (only SnpAck, which a caching agent never receives,
  // carries one).
  wire unused_in_flags = ^in_hdr_i.flags;


  // ---- invariants ------------------------------------------------------------------------------
  // A registered lookup in use is the lookup made now (LookReg; the formal harness proves it,
  // tests/formal/fv_cache.sv p_look).
  wire chk_look = (!lki_v || !in_valid_i || lki == lki_c) &&
                  (!lkr_v || !req_valid_i || lkr == lkr_c) &&
                  (!jin_v || !in_valid_i || jin_u == jin) &&
                  (!jrq_v || !req_valid_i || jrq_u == jrq);
  `CNI_ASSERT_SIM(Look_A, chk_look, "a registered lookup differs from the lookup")
  // (simulation; not in synthesis or the formal models)
  // a pin is an MSHR's: each pinned way has exactly one LINE MSHR on it (and every transient line
  // is pinned: cni_ca_tags); a line in MI is in the write-back buffer only, once; what an output
  // offers holds until it is taken.
`ifndef SYNTHESIS
`ifndef FORMAL
  // (the blocks' registers by their hierarchical names, which only the simulator reads)
  logic [Lines-1:0] pin_chk;
  logic             dup_wb;
  always_comb begin
    pin_chk = '0;
    dup_wb  = 1'b0;
    for (int k = 0; k < Wbs; k++) begin
      if (u_wbuf.wbv_q[k]) begin
        for (int w = 0; w < Lines; w++) begin
          if (u_tags.wst_q[w] != ST_I && u_tags.wline_q[w] == u_wbuf.wbl_q[k]) dup_wb = 1'b1;
        end
        for (int j = k + 1; j < Wbs; j++) begin
          if (u_wbuf.wbv_q[j] && u_wbuf.wbl_q[j] == u_wbuf.wbl_q[k]) dup_wb = 1'b1;
        end
      end
    end
    for (int k = 0; k < Mshrs; k++) begin
      if (u_mshr.mv_q[k] && u_mshr.mmode_q[k] == MD_LINE) pin_chk[u_mshr.mway_q[k]] = 1'b1;
    end
  end
`endif
  // each output as offered in the last cycle, and whether it was offered and not taken
  logic                                      oreq_wait_q, orsp_wait_q, rsp_wait_q;
  logic [cni_coh_pkg::HDR_W+LineBits-1:0]    oreq_prev_q, orsp_prev_q;
  logic [IdW+LineBits:0]                     rsp_prev_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      oreq_wait_q <= 1'b0;
      orsp_wait_q <= 1'b0;
      rsp_wait_q  <= 1'b0;
    end else begin
      oreq_wait_q <= oreq_valid_o && !oreq_ready_i;
      orsp_wait_q <= orsp_valid_o && !orsp_ready_i;
      rsp_wait_q  <= rsp_valid_o && !rsp_ready_i;
    end
  end
  wire [cni_coh_pkg::HDR_W+LineBits-1:0] oreq_now = {oreq_hdr_o, oreq_data_o};
  wire [cni_coh_pkg::HDR_W+LineBits-1:0] orsp_now = {orsp_hdr_o, orsp_data_o};
  wire [IdW+LineBits:0]                  rsp_now  = {rsp_id_o, rsp_err_o, rsp_data_o};
  always_ff @(posedge clk_i) begin
    oreq_prev_q <= oreq_now;
    orsp_prev_q <= orsp_now;
    rsp_prev_q  <= rsp_now;
  end
`endif
  `CNI_ASSERT_SIM(Pins_A, pin_chk == u_tags.wpin_q,
                  "a pinned way without its MSHR, or an MSHR's way unpinned")
  `CNI_ASSERT_SIM(DupWb_A, !dup_wb, "a line in a way and the write-back buffer, or in it twice")
  `CNI_ASSERT_SIM(MonChange_A, !(mon_valid_o && mon_from_o == mon_to_o),
                  "a state change to the same state")
  `CNI_ASSERT_SIM(OreqHold_A, !oreq_wait_q || (oreq_valid_o && oreq_now == oreq_prev_q),
                  "a request changed before the link took it")
  `CNI_ASSERT_SIM(OrspHold_A, !orsp_wait_q || (orsp_valid_o && orsp_now == orsp_prev_q),
                  "a snoop answer changed before the link took it")
  `CNI_ASSERT_SIM(RspHold_A, !rsp_wait_q || (rsp_valid_o && rsp_now == rsp_prev_q),
                  "a response changed before the engine took it")

endmodule
