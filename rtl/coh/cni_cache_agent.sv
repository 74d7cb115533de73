// SPDX-License-Identifier: Apache-2.0
// Device caching agent: a set-associative cache of host-homed lines that speaks docs/protocol.md
// as a caching agent (MOESI with the transients IS/IM/SM/OM/MI, MSHRs, a write-back buffer for
// dirty victims, Retry back-off, Error reporting) and serves an engine's reads, writes,
// non-allocating reads (RdNA), full-line write-invalidates (WrInv) and flushes. Design, state
// table and message sequences: docs/cache-agent.md. This module is the controller (the job in
// StExec, the RAM ports, the output registers, monitor and counters) around its blocks:
// cni_ca_tags (the ways: state, line, pin, victim pointers, set lookups), cni_ca_mshr (the
// MSHRs), cni_ca_wbuf (the write-back buffer), cni_ca_jobs (the lookups, the state tables'
// rows and the job selection) and cni_dpram (the line data).
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
  localparam logic [3:0] ST_I = cni_ca_pkg::ST_I, ST_MI = cni_ca_pkg::ST_MI;
  localparam logic [3:0] ST_IS = cni_ca_pkg::ST_IS, ST_IM = cni_ca_pkg::ST_IM;
  localparam logic [1:0] MD_LINE = cni_ca_pkg::MD_LINE, MD_RDNA = cni_ca_pkg::MD_RDNA;
  localparam logic [1:0] MD_WRINV = cni_ca_pkg::MD_WRINV;
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
  localparam row_e R_FLUSH_WB = cni_ca_pkg::R_FLUSH_WB, R_FLUSH_ACK = cni_ca_pkg::R_FLUSH_ACK;
  localparam row_e R_BAD = cni_ca_pkg::R_BAD;

  // ---- counter pulses (cnt_o) ------------------------------------------------------------------
  localparam int CNT_HIT = 0, CNT_MISS = 1, CNT_WB = 2, CNT_RETRY = 3, CNT_SNOOP = 4;
  localparam int CNT_ERROR = 5;

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
  logic             take_any, take_in;
  row_e             sel_row;
  logic [IdxW-1:0]  sel_way;
  logic [MW-1:0]    sel_m;
  logic [EW-1:0]    sel_e;
  logic [LineW-1:0] sel_line;
  logic [3:0]       sel_st, sel_nst;
  logic             sel_wb, sel_err, sel_snp_data, sel_flm;
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
    ra_addr = RamW'(sel_way);
    ra_wd   = merged;
    rb_en   = 1'b0;
    rb_we   = 1'b0;
    rb_addr = RamW'(Lines) + RamW'(sel_m);
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
      row_q      <= sel_row;
      way_q      <= sel_way;
      m_q        <= sel_m;
      e_q        <= sel_e;
      line_q     <= sel_line;
      st_q       <= sel_st;
      nst_q      <= sel_nst;
      chg_q      <= sel_nst != sel_st;
      wb_q       <= sel_wb;
      err_q      <= sel_err;
      flm_q      <= sel_flm;
      snp_data_q <= sel_snp_data;
      last_in_q  <= take_in;
    end
  end

  // ---- the blocks: ways, write-back buffer, MSHRs, jobs -------------------------------------
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

  cni_ca_jobs #(
    .LineBytes(LineBytes), .Sets(Sets), .Ways(Ways), .Mshrs(Mshrs), .Wbs(Wbs),
    .CleanW(CleanW), .LookReg(LookReg)
  ) u_jobs (
    .clk_i, .rst_ni, .agent_id_i, .cfg_clean_i, .in_valid_i, .in_hdr_i, .req_valid_i,
    .req_op_i, .req_addr_i,
    .in_way_i(i_way), .in_st_i(i_hst), .req_way_i(r_way), .req_st_i(r_st),
    .req_free_i(r_free), .req_fway_i(r_fway), .req_vic_i(r_vic), .req_vway_i(r_vway),
    .req_vst_i(r_vst), .req_vline_i(r_vline), .t_st_i(t_st), .cln_v_i(cln_v),
    .cln_way_i(cln_way), .cln_line_i(cln_line), .cln_way_o(cln_way_q),
    .wb_free_i(wfree_any), .wb_free_e_i(wfree_e), .wb_req_hit_i(r_wbb), .wb_in_hit_i(i_wbb),
    .wb_tag_hit_i(w_match),
    .iss_any_i(iss_any), .iss_m_i(iss_m), .iss_way_i(iss_way), .dlv_any_i(dlv_any),
    .dlv_m_i(dlv_m), .dlv_way_i(dlv_way), .dlv_err_i(dlv_err), .m_free_i(free_any),
    .m_free_m_i(free_m), .m_req_busy_i(r_mbusy), .t_ok_i(t_ok), .t_match_i(m_match),
    .t_mode_i(t_mode), .t_full_i(t_full), .t_mrg_i(t_mrg), .t_way_i(t_way),
    .fl_any_i(fl_any), .fl_m_i(fl_m),
    .idle_i(state_q == StIdle), .fire_i(fire), .last_in_i(last_in_q),
    .oreq_busy_i(oreq_valid_q), .rsp_busy_i(rsp_valid_q),
    .take_o(take_any), .take_in_o(take_in), .job_row_o(sel_row), .job_way_o(sel_way),
    .job_m_o(sel_m), .job_e_o(sel_e), .job_line_o(sel_line), .job_st_o(sel_st),
    .job_nst_o(sel_nst), .job_wb_o(sel_wb), .job_err_o(sel_err),
    .job_snp_data_o(sel_snp_data), .job_flm_o(sel_flm)
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
`endif
  `CNI_ASSERT_SIM(Pins_A, pin_chk == u_tags.wpin_q,
                  "a pinned way without its MSHR, or an MSHR's way unpinned")
  `CNI_ASSERT_SIM(DupWb_A, !dup_wb, "a line in a way and the write-back buffer, or in it twice")
  `CNI_ASSERT_SIM(MonChange_A, !(mon_valid_o && mon_from_o == mon_to_o),
                  "a state change to the same state")
  // the request and the snoop answer until the link takes them, the response until the engine
  `CNI_ASSERT_HOLD(OreqHold_A, oreq_valid_o, oreq_ready_i, {oreq_hdr_o, oreq_data_o})
  `CNI_ASSERT_HOLD(OrspHold_A, orsp_valid_o, orsp_ready_i, {orsp_hdr_o, orsp_data_o})
  `CNI_ASSERT_HOLD(RspHold_A, rsp_valid_o, rsp_ready_i, {rsp_id_o, rsp_err_o, rsp_data_o})

endmodule
