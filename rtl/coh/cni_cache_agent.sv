// SPDX-License-Identifier: Apache-2.0
// Device caching agent: a set-associative cache of host-homed lines that speaks docs/protocol.md
// as a caching agent (MOESI with the transients IS/IM/SM/OM/MI, MSHRs, a write-back buffer for
// dirty victims, Retry back-off, Error reporting) and serves an engine's reads, writes,
// non-allocating reads (RdNA), full-line write-invalidates (WrInv) and flushes. Design, state
// table and message sequences: docs/cache-agent.md.
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
  localparam int WayW  = (Ways > 1) ? $clog2(Ways) : 1;
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

  // ---- line states (mon_from_o / mon_to_o codes) ----------------------------------------------
  localparam logic [3:0] ST_I = 4'd0, ST_S = 4'd1, ST_E = 4'd2, ST_O = 4'd3, ST_M = 4'd4;
  localparam logic [3:0] ST_IS = 4'd5, ST_IM = 4'd6, ST_SM = 4'd7, ST_MI = 4'd8, ST_OM = 4'd9;

  // ---- MSHR phases and modes -----------------------------------------------------------------
  localparam logic [1:0] PH_ISSUE = 2'd0, PH_WAIT = 2'd1, PH_BACKOFF = 2'd2, PH_DONE = 2'd3;
  localparam logic [1:0] MD_LINE = 2'd0, MD_RDNA = 2'd1, MD_WRINV = 2'd2, MD_FLUSH = 2'd3;

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

  // ---- per way: state, line address, pinned by an MSHR; per set: round-robin victim ---------
  logic [3:0]       wst_q   [Lines];
  logic [LineW-1:0] wline_q [Lines];
  logic [Lines-1:0] wpin_q;
  logic [WayW-1:0]  vic_q   [Sets];

  // ---- write-back buffer: lines in MI (their WB sent or waiting in the request register) -----
  logic [Wbs-1:0]   wbv_q;
  logic [LineW-1:0] wbl_q [Wbs];

  // ---- MSHRs ----------------------------------------------------------------------------------
  logic [Mshrs-1:0]     mv_q, mmrg_q, merr_q;  // valid; merges the engine's bytes; error
  logic [Mshrs-1:0]     mfull_q;               // merges every byte (its RdX carries FULL)
  logic [1:0]           mph_q   [Mshrs];
  logic [1:0]           mmode_q [Mshrs];
  logic [IdW-1:0]       mid_q   [Mshrs];
  logic [LineW-1:0]     maddr_q [Mshrs];
  logic [IdxW-1:0]      mway_q  [Mshrs];  // LINE: its way; FLUSH: its write-back buffer entry
  logic [LineBytes-1:0] mbe_q   [Mshrs];
  logic [BackoffW-1:0]  mtmr_q  [Mshrs];

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
  function automatic logic [IdxW-1:0] widx(input int k, input logic [SetW-1:0] s);
    widx = IdxW'(k * Sets) | IdxW'(s);
  endfunction

  function automatic logic readable(input logic [3:0] s);
    readable = s == ST_S || s == ST_E || s == ST_O || s == ST_M;
  endfunction

  function automatic logic transient(input logic [3:0] s);
    transient = s == ST_IS || s == ST_IM || s == ST_SM || s == ST_OM;
  endfunction

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

  // ---- MSHR scans: the lowest to issue, to deliver, free; the one on the request's line ------
  wire [LineW-1:0] r_line = req_addr_i[AddrW-1:OffW];
  logic          iss_any, dlv_any, free_any, r_mbusy;
  logic [MW-1:0] iss_m, dlv_m, free_m;
  always_comb begin
    iss_any  = 1'b0;
    dlv_any  = 1'b0;
    free_any = 1'b0;
    r_mbusy  = 1'b0;
    iss_m    = '0;
    dlv_m    = '0;
    free_m   = '0;
    for (int k = Mshrs - 1; k >= 0; k--) begin
      if (mv_q[k] && mph_q[k] == PH_ISSUE) begin
        iss_any = 1'b1;
        iss_m   = MW'(k);
      end
      if (mv_q[k] && mph_q[k] == PH_DONE) begin
        dlv_any = 1'b1;
        dlv_m   = MW'(k);
      end
      if (!mv_q[k]) begin
        free_any = 1'b1;
        free_m   = MW'(k);
      end
      if (mv_q[k] && maddr_q[k] == r_line) r_mbusy = 1'b1;
    end
  end

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

  wire  [LineW-1:0] in_line = in_hdr_i.addr[AddrW-1:OffW];
  wire  [SetW-1:0]  r_set   = r_line[SetW-1:0];
  wire  [Ways-1:0]  i_hitv  = hits(in_line);
  wire  [Ways-1:0]  r_hitv  = hits(r_line);

  // ---- write-back buffer scans: a free entry; the entry holding the request's / message's line --
  logic          wfree_any, r_wbb, i_wbb;
  logic [EW-1:0] wfree_e;
  always_comb begin
    wfree_any = 1'b0;
    wfree_e   = '0;
    r_wbb     = 1'b0;
    i_wbb     = 1'b0;
    for (int k = Wbs - 1; k >= 0; k--) begin
      if (!wbv_q[k]) begin
        wfree_any = 1'b1;
        wfree_e   = EW'(k);
      end
      if (wbv_q[k] && wbl_q[k] == r_line) r_wbb = 1'b1;
      if (wbv_q[k] && wbl_q[k] == in_line) i_wbb = 1'b1;
    end
  end

  logic [IdxW-1:0]  i_way, r_way;
  logic [3:0]       i_hst, i_st, r_st;
  assign {i_way, i_hst} = hit_way(i_hitv, in_line[SetW-1:0]);
  assign {r_way, r_st}  = hit_way(r_hitv, r_set);
  // a line is in a way or in the write-back buffer (MI), never both
  assign i_st = i_wbb ? ST_MI : i_hst;

  // The request's set: a free way, a victim.
  logic            r_free, r_vic;
  logic [IdxW-1:0] r_fway, r_vway;
  logic [3:0]      r_vst;
  always_comb begin
    int kv;
    r_free = 1'b0;
    r_vic  = 1'b0;
    r_fway = '0;
    r_vway = '0;
    r_vst  = ST_I;
    for (int k = Ways - 1; k >= 0; k--) begin
      if (wst_q[widx(k, r_set)] == ST_I && !wpin_q[widx(k, r_set)]) begin
        r_free = 1'b1;
        r_fway = widx(k, r_set);
      end
    end
    // The victim: the first way at or after the set's pointer holding a line no MSHR pins.
    for (int j = Ways - 1; j >= 0; j--) begin
      kv = int'(vic_q[r_set]) + j;
      if (kv >= Ways) kv = kv - Ways;
      if (readable(wst_q[widx(kv, r_set)]) && !wpin_q[widx(kv, r_set)]) begin
        r_vic  = 1'b1;
        r_vway = widx(kv, r_set);
        r_vst  = wst_q[widx(kv, r_set)];
      end
    end
  end

  // ---- the engine request's row --------------------------------------------------------------
  logic r_rd, r_wr;  // the request reads / writes (gains ownership)
  row_e r_row;
  always_comb begin
    logic alloc, need_m;
    r_rd   = req_op_i == cni_coh_pkg::CA_RD_S || req_op_i == cni_coh_pkg::CA_RD_X ||
             req_op_i == cni_coh_pkg::CA_RD_NA;
    r_wr   = req_op_i == cni_coh_pkg::CA_WR || req_op_i == cni_coh_pkg::CA_WR_INV;
    r_row  = R_NONE;
    alloc  = 1'b0;
    need_m = 1'b0;
    if (req_addr_i[OffW-1:0] != '0) begin
      r_row = R_BAD;
    end else if (r_mbusy || r_wbb) begin
      r_row = R_NONE;  // the line has an MSHR (transients included) or is being written back
    end else begin
      unique case (req_op_i)
        cni_coh_pkg::CA_RD_S, cni_coh_pkg::CA_RD_NA: begin
          if (readable(r_st)) r_row = R_HIT_RD;
          else if (req_op_i == cni_coh_pkg::CA_RD_S) alloc = 1'b1;
          else need_m = 1'b1;
        end
        cni_coh_pkg::CA_RD_X, cni_coh_pkg::CA_WR, cni_coh_pkg::CA_WR_INV: begin
          if (r_st == ST_E || r_st == ST_M) r_row = r_rd ? R_HIT_RD : R_HIT_WR;
          else if (r_st == ST_S || r_st == ST_O) r_row = R_UPG;
          else if (req_op_i == cni_coh_pkg::CA_WR_INV) need_m = 1'b1;
          else alloc = 1'b1;
        end
        cni_coh_pkg::CA_FLUSH: begin
          if (r_st == ST_M || r_st == ST_O) begin
            if (free_any && wfree_any && !oreq_valid_q) r_row = R_FLUSH_WB;
          end else begin
            r_row = R_FLUSH_ACK;
          end
        end
        default: r_row = R_BAD;
      endcase
      if (need_m && free_any) r_row = R_NA;
      if (r_row == R_UPG && !free_any) r_row = R_NONE;
      if (alloc && free_any) begin
        if (r_free) r_row = R_MISS;
        else if (r_vic && (!(r_vst == ST_M || r_vst == ST_O) || (wfree_any && !oreq_valid_q))) begin
          r_row = R_EVICT;
        end
      end
    end
    // a response goes out at once: the response register must be free
    if ((r_row == R_HIT_RD || r_row == R_HIT_WR || r_row == R_FLUSH_ACK || r_row == R_BAD) &&
        rsp_valid_q) begin
      r_row = R_NONE;
    end
  end

  // ---- the inbound message's row ---------------------------------------------------------------
  wire [4:0]       in_op   = in_hdr_i.op;
  wire [TagW-1:0]  in_tag  = in_hdr_i.tag;
  wire [MW-1:0]    t_m     = in_tag[MW-1:0];
  wire [EW-1:0]    t_e     = in_tag[EW-1:0];
  wire             len0    = in_hdr_i.len == 8'd0;
  wire             lenl    = in_hdr_i.len == LEN_LINE;
  // the tag names an MSHR that waits for an answer about this line
  wire             m_match = in_tag < TagW'(Mshrs) && mv_q[t_m] && mph_q[t_m] == PH_WAIT &&
                             maddr_q[t_m] == in_line;
  wire [1:0]       t_mode  = mmode_q[t_m];
  // that MSHR writes every byte of its line (its RdX went out with FULL)
  wire             t_full  = mfull_q[t_m];
  wire [3:0]       t_st    = wst_q[mway_q[t_m]];  // the state of that MSHR's way
  // the tag names a write-back buffer entry holding this line
  wire             w_match = in_tag[TagW-1] && {1'b0, in_tag[TagW-2:0]} < TagW'(Wbs) &&
                             wbv_q[t_e] && wbl_q[t_e] == in_line;
  // a FLUSH MSHR waiting on that entry
  logic            fl_any;
  logic [MW-1:0]   fl_m;
  always_comb begin
    fl_any = 1'b0;
    fl_m   = '0;
    for (int k = 0; k < Mshrs; k++) begin
      if (mv_q[k] && mmode_q[k] == MD_FLUSH && mph_q[k] == PH_WAIT && mway_q[k] == IdxW'(t_e)) begin
        fl_any = 1'b1;
        fl_m   = fl_m | MW'(k);
      end
    end
  end

  row_e i_row;
  always_comb begin
    logic line_m;
    line_m = m_match && t_mode == MD_LINE;
    i_row  = R_DROP;
    if (in_hdr_i.dst == agent_id_i && in_hdr_i.addr[OffW-1:0] == '0) begin
      unique case (in_op)
        cni_coh_pkg::OP_FWD_INV, cni_coh_pkg::OP_FWD_DOWN, cni_coh_pkg::OP_FWD_DNO:
          if (len0) i_row = R_SNP;
        cni_coh_pkg::OP_DATA_S:
          if (line_m && lenl && t_st == ST_IS) i_row = R_GNT;
        cni_coh_pkg::OP_DATA_E, cni_coh_pkg::OP_DATA_M:
          if (line_m && lenl && (t_st == ST_IS || t_st == ST_IM || t_st == ST_SM)) i_row = R_GNT;
        cni_coh_pkg::OP_UPG_ACK:
          if (line_m && len0 && (t_st == ST_SM || t_st == ST_OM || (t_st == ST_IM && t_full)))
            i_row = R_UPGACK;
        cni_coh_pkg::OP_DATA_I:
          if (m_match && t_mode == MD_RDNA && lenl) i_row = R_DATAI;
        cni_coh_pkg::OP_WR_ACK:
          if (m_match && t_mode == MD_WRINV && len0) i_row = R_WRACK;
        cni_coh_pkg::OP_RETRY:
          if (m_match && t_mode != MD_FLUSH && len0) i_row = R_RETRY;
        cni_coh_pkg::OP_ERROR:
          if (m_match && t_mode != MD_FLUSH && len0) i_row = R_ERR;
          else if (w_match && len0) i_row = R_WBACK;
        cni_coh_pkg::OP_WB_ACK:
          if (w_match && len0) i_row = R_WBACK;
        default: i_row = R_DROP;
      endcase
    end
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
  logic              cln_v;
  logic [IdxW-1:0]   cln_way;
  always_comb begin
    cln_v   = 1'b0;
    cln_way = '0;
    for (int w = Lines - 1; w >= 0; w--) begin
      if (wst_q[w] == ST_O && !wpin_q[w]) begin
        cln_v   = 1'b1;
        cln_way = IdxW'(w);
      end
    end
  end
  wire cln_go = cfg_clean_i != '0 && cln_cnt_q == '0 && cln_quiet_q && cln_v_q && wfree_any &&
                !oreq_valid_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cln_cnt_q   <= '0;
      cln_quiet_q <= 1'b0;
      cln_v_q     <= 1'b0;
      cln_way_q <= '0;
    end else begin
      cln_quiet_q <= state_q == StIdle && !take_any;
      cln_v_q     <= cln_v;
      cln_way_q   <= cln_way;
      if (state_q != StIdle || take_any) cln_cnt_q <= cfg_clean_i;
      else if (cln_cnt_q != '0) cln_cnt_q <= cln_cnt_q - 1'b1;
    end
  end

  // ---- job selection (StIdle) ------------------------------------------------------------------
  // An inbound message first, except right after one when another job is ready; then an MSHR
  // to issue, an MSHR to deliver, the engine request.
  wire c_iss    = iss_any && !oreq_valid_q;
  wire c_dlv    = dlv_any && !rsp_valid_q;
  wire c_req    = req_valid_i && r_row != R_NONE;
  wire take_in  = in_valid_i && !(last_in_q && (c_iss || c_dlv || c_req));
  wire take_iss = !take_in && c_iss;
  wire take_dlv = !take_in && !c_iss && c_dlv;
  wire take_req = !take_in && !c_iss && !c_dlv && c_req;
  // idle clean: lowest priority, after cfg_clean_i cycles in which no job was taken
  wire take_cln = !take_in && !c_iss && !c_dlv && !c_req && cln_go;
  wire take_any = take_in || take_iss || take_dlv || take_req || take_cln;

  // What the chosen job registers for StExec, and the RAM words it reads now.
  row_e             s_row;
  logic [IdxW-1:0]  s_way;
  logic [MW-1:0]    s_m;
  logic [EW-1:0]    s_e;
  logic [LineW-1:0] s_line;
  logic [3:0]       s_st, s_nst;
  logic             s_wb, s_err, s_snp_data;
  always_comb begin
    s_row      = R_NONE;
    s_way      = '0;
    s_m        = '0;
    s_e        = wfree_e;
    s_line     = '0;
    s_st       = ST_I;
    s_nst      = ST_I;
    s_wb       = 1'b0;
    s_err      = 1'b0;
    s_snp_data = 1'b0;
    if (take_in) begin
      s_row = i_row;
      s_m   = t_m;
      unique case (i_row)
        R_SNP: begin
          s_way      = i_way;
          s_line     = in_line;
          s_st       = i_st;
          s_nst      = i_st;
          s_snp_data = i_st == ST_M || i_st == ST_O || i_st == ST_OM;
          unique case (in_op)
            cni_coh_pkg::OP_FWD_INV: begin
              if (readable(i_st)) s_nst = ST_I;
              else if (i_st == ST_SM || i_st == ST_OM) s_nst = ST_IM;
            end
            cni_coh_pkg::OP_FWD_DOWN: begin
              if (i_st == ST_M || i_st == ST_O || i_st == ST_E) s_nst = ST_S;
              else if (i_st == ST_OM) s_nst = ST_SM;
            end
            default: begin  // FwdDownO
              if (i_st == ST_M) s_nst = ST_O;
              else if (i_st == ST_E) s_nst = ST_S;
            end
          endcase
        end
        R_GNT, R_UPGACK, R_ERR: begin
          s_way  = mway_q[t_m];
          s_line = in_line;
          s_st   = t_st;
          s_nst  = ST_M;
          if (i_row == R_GNT && in_op == cni_coh_pkg::OP_DATA_S) s_nst = ST_S;
          if (i_row == R_GNT && in_op == cni_coh_pkg::OP_DATA_E && !mmrg_q[t_m]) s_nst = ST_E;
          if (i_row == R_ERR) begin
            // the transient reverts; an RdNA/WrInv entry has no way and changes no line
            s_nst = (t_mode != MD_LINE) ? t_st : (t_st == ST_SM) ? ST_S :
                    (t_st == ST_OM) ? ST_O : ST_I;
          end
        end
        R_WBACK: begin
          s_e    = t_e;
          s_line = in_line;
          s_st   = ST_MI;
          s_nst  = ST_I;
          s_m    = fl_m;
          s_err  = in_op == cni_coh_pkg::OP_ERROR;
        end
        default: ;
      endcase
    end else if (take_iss) begin
      s_row = R_ISS;
      s_m   = iss_m;
      s_way = mway_q[iss_m];
    end else if (take_dlv) begin
      s_row = R_DLV;
      s_m   = dlv_m;
      s_way = mway_q[dlv_m];
      s_err = merr_q[dlv_m];
    end else if (take_req) begin
      s_row  = r_row;
      s_m    = free_m;
      s_way  = r_way;
      s_line = r_line;
      s_st   = r_st;
      s_nst  = r_st;
      unique case (r_row)
        R_HIT_WR: s_nst = ST_M;
        R_UPG:    s_nst = (r_st == ST_O) ? ST_OM : ST_SM;
        R_MISS: begin
          s_way = r_fway;
          s_st  = ST_I;
          s_nst = (req_op_i == cni_coh_pkg::CA_RD_S) ? ST_IS : ST_IM;
        end
        R_EVICT: begin
          s_way  = r_vway;
          s_line = wline_q[r_vway];
          s_st   = r_vst;
          s_wb   = r_vst == ST_M || r_vst == ST_O;
          s_nst  = s_wb ? ST_MI : ST_I;
        end
        R_FLUSH_WB: begin
          s_nst = ST_MI;
          s_wb  = 1'b1;
        end
        R_FLUSH_ACK: s_nst = ST_I;  // (a line in I stays I)
        default: ;
      endcase
    end else if (take_cln) begin
      s_row  = R_CLEAN;
      s_way  = cln_way_q;
      s_line = wline_q[cln_way_q];
      s_st   = ST_O;
      s_nst  = ST_MI;
      s_wb   = 1'b1;
    end
  end

  // ---- StExec: what the job does ----------------------------------------------------------------
  wire exec    = state_q == StExec;
  // the job is applied this cycle (a snoop when its answer is taken)
  wire fire    = exec && (row_q != R_SNP || orsp_ready_i);
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
  wire m_line  = mmode_q[m_q] == MD_LINE;

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
      wr_be = mmrg_q[m_q] ? mbe_q[m_q] : '0;
    end
    merged = 'x;
    if (state_q == StExec) merged = merge(wr_old, wr_new, wr_be);
  end

  // RAM ports: reads in StIdle for the chosen job, writes in StExec.
  always_comb begin
    ra_en   = 1'b0;
    ra_we   = 1'b0;
    ra_addr = RamW'(s_way);
    ra_wd   = merged;
    rb_en   = 1'b0;
    rb_we   = 1'b0;
    rb_addr = RamW'(Lines) + RamW'(s_m);
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
  logic [Mshrs-1:0] m_backoff;
  always_comb begin
    for (int k = 0; k < Mshrs; k++) m_backoff[k] = mv_q[k] && mph_q[k] == PH_BACKOFF;
  end
  // (an idle clean still to come is a job: its countdown runs without an input)
  assign idle_o = state_q == StIdle && !iss_any && !dlv_any && !(|m_backoff) && !oreq_valid_q &&
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
  assign mon_acc_id_o    = (row_q == R_HIT_RD || row_q == R_HIT_WR) ? req_id_i : mid_q[m_q];
  assign mon_acc_addr_o  = {line_q, OffW'(0)};
  assign mon_acc_we_o    = row_q == R_HIT_WR || (row_q != R_HIT_RD && mmrg_q[m_q]);
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
  wire [4:0] iss_op = (mmode_q[m_q] == MD_RDNA)  ? cni_coh_pkg::OP_RDNA :
                      (mmode_q[m_q] == MD_WRINV) ? cni_coh_pkg::OP_WRINV : line_req(wst_q[way_q]);
  // An RdX of a write of every byte asks for ownership without the old data (FULL: the home may
  // answer UpgAck, protocol rule 3).
  wire [3:0] iss_flags = (iss_op == cni_coh_pkg::OP_RDX && mfull_q[m_q])
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
      row_q      <= s_row;
      way_q      <= s_way;
      m_q        <= s_m;
      e_q        <= s_e;
      line_q     <= s_line;
      st_q       <= s_st;
      nst_q      <= s_nst;
      chg_q      <= s_nst != s_st;
      wb_q       <= s_wb;
      err_q      <= s_err;
      flm_q      <= fl_any;
      snp_data_q <= s_snp_data;
      last_in_q  <= take_in;
    end
  end

  // ---- ways ------------------------------------------------------------------------------------
  wire [IdxW-1:0] vk = way_q >> SetW;  // the job's way within its set (index = k * Sets + s)
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wpin_q <= '0;
      for (int w = 0; w < Lines; w++) begin
        wst_q[w]   <= ST_I;
        wline_q[w] <= '0;
      end
      for (int s = 0; s < Sets; s++) vic_q[s] <= '0;
    end else if (fire) begin
      // a line going to MI leaves its way (I) for the write-back buffer; a WbAck frees an entry
      if (chg_q && row_q != R_WBACK) wst_q[way_q] <= (nst_q == ST_MI) ? ST_I : nst_q;
      if (row_q == R_MISS) wline_q[way_q] <= line_q;
      if (row_q == R_UPG || row_q == R_MISS) wpin_q[way_q] <= 1'b1;
      if (row_q == R_DLV && m_line) wpin_q[way_q] <= 1'b0;
      if (row_q == R_EVICT) begin
        vic_q[way_q[SetW-1:0]] <= (vk == IdxW'(Ways - 1)) ? '0 : WayW'(vk + 1'b1);
      end
    end
  end

  // ---- write-back buffer ----------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wbv_q <= '0;
      for (int k = 0; k < Wbs; k++) wbl_q[k] <= '0;
    end else if (fire) begin
      if (wb_q) begin
        wbv_q[e_q] <= 1'b1;
        wbl_q[e_q] <= line_q;
      end
      if (row_q == R_WBACK) wbv_q[e_q] <= 1'b0;
    end
  end

  // ---- MSHRs -----------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mv_q   <= '0;
      mmrg_q <= '0;
      mfull_q <= '0;
      merr_q <= '0;
      for (int k = 0; k < Mshrs; k++) begin
        mph_q[k]   <= PH_ISSUE;
        mmode_q[k] <= MD_LINE;
        mid_q[k]   <= '0;
        maddr_q[k] <= '0;
        mway_q[k]  <= '0;
        mbe_q[k]   <= '0;
        mtmr_q[k]  <= '0;
      end
    end else begin
      // back-off: BACKOFF -> ISSUE after cfg_backoff_i cycles (no job touches a BACKOFF entry)
      for (int k = 0; k < Mshrs; k++) begin
        if (mv_q[k] && mph_q[k] == PH_BACKOFF) begin
          if (mtmr_q[k] >= cfg_backoff_i) mph_q[k] <= PH_ISSUE;
          else mtmr_q[k] <= mtmr_q[k] + 1'b1;
        end
      end
      if (fire) begin
        if (alloc_m) begin
          mv_q[m_q]    <= 1'b1;
          mph_q[m_q]   <= (row_q == R_FLUSH_WB) ? PH_WAIT : PH_ISSUE;
          mmode_q[m_q] <= (row_q == R_FLUSH_WB) ? MD_FLUSH :
                          (row_q != R_NA) ? MD_LINE :
                          (req_op_i == cni_coh_pkg::CA_RD_NA) ? MD_RDNA : MD_WRINV;
          mmrg_q[m_q]  <= r_wr;
          mfull_q[m_q] <= r_wr && (req_op_i == cni_coh_pkg::CA_WR_INV || &req_be_i);
          merr_q[m_q]  <= 1'b0;
          mid_q[m_q]   <= req_id_i;
          maddr_q[m_q] <= r_line;
          mway_q[m_q]  <= (row_q == R_FLUSH_WB) ? IdxW'(e_q) : way_q;  // FLUSH: its entry
          mbe_q[m_q]   <= (req_op_i == cni_coh_pkg::CA_WR_INV) ? '1 : req_be_i;
        end
        unique case (row_q)
          R_ISS: mph_q[m_q] <= PH_WAIT;
          R_GNT, R_UPGACK, R_DATAI, R_WRACK: mph_q[m_q] <= PH_DONE;
          R_RETRY: begin
            mph_q[m_q]  <= PH_BACKOFF;
            mtmr_q[m_q] <= '0;
          end
          R_ERR: begin
            mph_q[m_q]  <= PH_DONE;
            merr_q[m_q] <= 1'b1;
          end
          R_WBACK: begin
            if (flm_q) begin
              mph_q[m_q]  <= PH_DONE;
              merr_q[m_q] <= err_q;
            end
          end
          R_DLV: mv_q[m_q] <= 1'b0;
          default: ;
        endcase
      end
    end
  end

  // ---- output registers ----------------------------------------------------------------------------
  // A job loads the request register only when it sends something (a clean eviction does not:
  // it may run while a write-back still waits there), the response register only when it
  // answers the engine. Both are free then: the jobs that load them are picked only so.
  wire oreq_load = fire && (row_q == R_ISS || wb_q);
  wire rsp_load  = fire && (row_q == R_DLV || row_q == R_HIT_RD || row_q == R_HIT_WR ||
                            row_q == R_FLUSH_ACK || row_q == R_BAD);
  // the home of a request's line: addr[HomeShift +: AGENT_W]
  wire [AgentW-1:0] iss_home = maddr_q[m_q][HomeShift - OffW +: AgentW];
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
                   (mmode_q[m_q] == MD_WRINV) ? LEN_LINE : 8'd0, maddr_q[m_q]) :
            mk_hdr(cni_coh_pkg::OP_WB, agent_id_i, wb_home, {1'b1, (TagW - 1)'(e_q)}, 4'd0,
                   LEN_LINE, line_q);
      end
      if (rsp_load) begin
        rsp_valid_q <= 1'b1;
        rsp_id_q    <= (row_q == R_DLV) ? mid_q[m_q] : req_id_i;
        rsp_err_q   <= (row_q == R_DLV) ? err_q : row_q == R_BAD;
      end
    end
  end

  // Line-wide data registers (no reset: each is read only with its valid flag).
  always_ff @(posedge clk_i) begin
    if (oreq_load) oreq_data_q <= (row_q == R_ISS) ? b_rd : a_rd;
    if (rsp_load) rsp_data_q <= (row_q == R_DLV && mmode_q[m_q] == MD_RDNA) ? b_rd : a_rd;
  end

  // Unused: the flags of inbound messages (only SnpAck, which a caching agent never receives,
  // carries one).
  wire unused_in_flags = ^in_hdr_i.flags;

  // ---- invariants (simulation; not in synthesis or the formal models) ------------------------
`ifdef SYNTHESIS
`elsif FORMAL
`else
  // a pin is an MSHR's: each pinned way has exactly one LINE MSHR on it and every transient line
  // is pinned; no two MSHRs hold one line; a line in MI is in the write-back buffer only, once;
  // a tag matches at most one way of a set; what an output offers holds until it is taken
  logic [Lines-1:0] pin_chk;
  logic             dup_m, dup_wb;
  always_comb begin
    pin_chk = '0;
    dup_m   = 1'b0;
    dup_wb  = 1'b0;
    for (int k = 0; k < Wbs; k++) begin
      if (wbv_q[k]) begin
        for (int w = 0; w < Lines; w++) begin
          if (wst_q[w] != ST_I && wline_q[w] == wbl_q[k]) dup_wb = 1'b1;
        end
        for (int j = k + 1; j < Wbs; j++) begin
          if (wbv_q[j] && wbl_q[j] == wbl_q[k]) dup_wb = 1'b1;
        end
      end
    end
    for (int k = 0; k < Mshrs; k++) begin
      if (mv_q[k] && mmode_q[k] == MD_LINE) pin_chk[mway_q[k]] = 1'b1;
      for (int j = k + 1; j < Mshrs; j++) begin
        if (mv_q[k] && mv_q[j] && maddr_q[k] == maddr_q[j]) dup_m = 1'b1;
      end
    end
  end
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
  always_ff @(posedge clk_i) begin
    oreq_prev_q <= {oreq_hdr_o, oreq_data_o};
    orsp_prev_q <= {orsp_hdr_o, orsp_data_o};
    rsp_prev_q  <= {rsp_id_o, rsp_err_o, rsp_data_o};
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
    end else begin
      assert (pin_chk == wpin_q)
        else $error("cni_cache_agent: a pinned way without its MSHR, or an MSHR's way unpinned");
      for (int w = 0; w < Lines; w++) begin
        assert (!transient(wst_q[w]) || wpin_q[w])
          else $error("cni_cache_agent: way %0d in a transient state is not pinned", w);
      end
      assert (!dup_m) else $error("cni_cache_agent: two MSHRs on one line");
      assert (!dup_wb)
        else $error("cni_cache_agent: a line in a way and the write-back buffer, or in it twice");
      for (int w = 0; w < Lines; w++) begin
        assert (wst_q[w] != ST_MI) else $error("cni_cache_agent: way %0d in MI", w);
      end
      assert ($onehot0(i_hitv) && $onehot0(r_hitv))
        else $error("cni_cache_agent: a line matches two ways of its set");
      assert (!(mon_valid_o && mon_from_o == mon_to_o))
        else $error("cni_cache_agent: a state change to the same state");
      assert (!oreq_wait_q || (oreq_valid_o && {oreq_hdr_o, oreq_data_o} == oreq_prev_q))
        else $error("cni_cache_agent: a request changed before the link took it");
      assert (!orsp_wait_q || (orsp_valid_o && {orsp_hdr_o, orsp_data_o} == orsp_prev_q))
        else $error("cni_cache_agent: a snoop answer changed before the link took it");
      assert (!rsp_wait_q || (rsp_valid_o && {rsp_id_o, rsp_err_o, rsp_data_o} == rsp_prev_q))
        else $error("cni_cache_agent: a response changed before the engine took it");
    end
  end
`endif

endmodule
