// SPDX-License-Identifier: Apache-2.0
// Home agent for device-homed lines: directory (sharer vector, armed bit), transaction table,
// snoop issue and answer collection, write-back acceptance, parked (delayed) requests with a
// per-request timer that answers Retry, engine commands (ARM/RECALL/RELEASE/DISARM) and events,
// and malformed-message handling. State table: docs/endpoint.md; protocol: docs/protocol.md.
//
// Parameters:
//   LineBytes            - coherence line size (64 or 128)
//   NumAgents            - sharer-vector width; agent ids >= NumAgents are rejected
//   DevBase              - byte address of device line 0
//   MemLines, CPairs,
//   NOvfA, NOvfB         - region sizes (docs/endpoint.md, "Address map")
//   TtEntries, TtReserve - transaction-table size and entries kept for engine RECALLs
//   Pipelined            - 0: take a message and decide in the next cycle (StIdle, StExec);
//                          1: register every step for FPGA clock rates (StIdle, StRead, StDir,
//                          StExec, StBuild, StCommit: four more cycles per message;
//                          docs/endpoint.md)
// Ports:
//   agent_id_i                        - this agent's id on the fabric
//   req_*/rsp_*/fwd_*/dat_* (inputs)  - inbound channels, valid/ready (consumer: this block)
//   ofwd_*/orsp_*/odat_* (outputs)    - outbound channels, valid/ready (this block may be stalled)
//   ofwd_hold_i                       - earlier answers are still buffered for transmission: a
//                                       snoop must not overtake them (docs/protocol.md rule 8)
//   evt_*                             - events to device engines (the engine may stall them)
//   cmd_*                             - commands from device engines (this block may stall them)
//   mem_*                             - port A of the line memory (synchronous read)
//   cfg_ret_excl_i                    - per region: grant DataE to RdS on an unshared line
//   cfg_park_timeout_i                - cycles before a parked request is answered Retry
//   cnt_o                             - one-cycle event pulses for the CSR counters (CNT_*)
//   init_done_o                       - directory and memory cleared after reset
`default_nettype none

module cni_home_agent #(
  parameter int          LineBytes = 128,
  parameter int          NumAgents = 16,
  parameter logic [47:0] DevBase   = 48'h10_0000_0000,
  parameter int          MemLines  = 1024,
  parameter int          CPairs    = 256,
  parameter int          NOvfA     = 76,
  parameter int          NOvfB     = 76,
  parameter int          TtEntries = 32,
  parameter int          TtReserve = 8,
  parameter int          Pipelined = 0,
  localparam int LineBits = LineBytes * 8,
  localparam int NumLines = MemLines + 2 * CPairs + 2 + NOvfA + 2 + NOvfB,
  localparam int LineIdxW = $clog2(NumLines),
  localparam int NumCnt   = 15
) (
  input  wire logic                      clk_i,
  input  wire logic                      rst_ni,
  input  wire logic [3:0]                agent_id_i,
  // inbound
  input  wire logic                      req_valid_i,
  output logic                           req_ready_o,
  input  wire cni_coh_pkg::hdr_t         req_hdr_i,
  input  wire logic [LineBits-1:0]       req_data_i,
  input  wire logic                      rsp_valid_i,
  output logic                           rsp_ready_o,
  input  wire cni_coh_pkg::hdr_t         rsp_hdr_i,
  input  wire logic [LineBits-1:0]       rsp_data_i,
  input  wire logic                      fwd_valid_i,
  output logic                           fwd_ready_o,
  input  wire cni_coh_pkg::hdr_t         fwd_hdr_i,
  input  wire logic                      dat_valid_i,
  output logic                           dat_ready_o,
  input  wire cni_coh_pkg::hdr_t         dat_hdr_i,
  // outbound
  output logic                           ofwd_valid_o,
  input  wire logic                      ofwd_ready_i,
  output cni_coh_pkg::hdr_t              ofwd_hdr_o,
  input  wire logic                      ofwd_hold_i,
  output logic                           orsp_valid_o,
  input  wire logic                      orsp_ready_i,
  output cni_coh_pkg::hdr_t              orsp_hdr_o,
  output logic                           odat_valid_o,
  input  wire logic                      odat_ready_i,
  output cni_coh_pkg::hdr_t              odat_hdr_o,
  output logic [LineBits-1:0]            odat_data_o,
  // engines
  output logic                           evt_valid_o,
  input  wire logic                      evt_ready_i,
  output logic [cni_coh_pkg::EVT_W-1:0]  evt_kind_o,
  output logic [LineIdxW-1:0]            evt_line_o,
  input  wire logic                      cmd_valid_i,
  output logic                           cmd_ready_o,
  input  wire logic [cni_coh_pkg::CMD_W-1:0] cmd_op_i,
  input  wire logic [LineIdxW-1:0]       cmd_line_i,
  // line memory, port A
  output logic                           mem_en_o,
  output logic                           mem_we_o,
  output logic [LineIdxW-1:0]            mem_addr_o,
  output logic [LineBits-1:0]            mem_wdata_o,
  input  wire logic [LineBits-1:0]       mem_rdata_i,
  // configuration and status
  input  wire logic [3:0]                cfg_ret_excl_i,
  input  wire logic [31:0]               cfg_park_timeout_i,
  output logic [NumCnt-1:0]              cnt_o,
  output logic                           init_done_o
);

  // ---- counter indices (CSR counters 0..14; see docs/endpoint.md) ---------------------------
  localparam int CNT_RDS = 0, CNT_RDX = 1, CNT_UPG = 2, CNT_WB = 3, CNT_SNOOP = 4;
  localparam int CNT_RETRY_BUSY = 5, CNT_RETRY_TMO = 6, CNT_PARKED = 7, CNT_RELEASED = 8;
  localparam int CNT_RECALL = 9, CNT_ERR0 = 10;  // 10..14 = ERR_OPCODE..ERR_CREDIT (ERR_CREDIT
                                                 // pulses come from the link layer)

  localparam int OffW   = $clog2(LineBytes);
  localparam int TtW    = $clog2(TtEntries);
  localparam int C0     = MemLines;
  localparam int A0     = C0 + 2 * CPairs;
  localparam int B0     = A0 + 2 + NOvfA;
  localparam int DirW   = 1 + 2 + NumAgents;  // {armed, state, sharers}
  localparam int SpanW  = LineIdxW + OffW;     // address bits of the device window

  localparam logic [1:0] DIR_I = 2'd0, DIR_S = 2'd1, DIR_X = 2'd2;
  localparam logic [1:0] K_SNOOP = 2'd0, K_PARK = 2'd1, K_RECALL = 2'd2;

  // Input sources.
  localparam logic [2:0] SRC_TMO = 3'd0, SRC_RSP = 3'd1, SRC_CMD = 3'd2, SRC_FWD = 3'd3,
                         SRC_DAT = 3'd4, SRC_REQ = 3'd5;
  // Output channel of a decision (snoops leave from StSnoop, never from a decision).
  localparam logic [1:0] O_NONE = 2'd0, O_RSP = 2'd2, O_DAT = 2'd3;

  if (TtEntries < 8 || (1 << TtW) != TtEntries) $error("TtEntries must be a power of two >= 8");
  if (TtReserve >= TtEntries) $error("TtReserve must leave entries for host requests");
  if (NumAgents > 16 || NumAgents < 2) $error("NumAgents must be 2..16");
  if (LineBytes != 64 && LineBytes != 128) $error("LineBytes must be 64 or 128");
  if (DevBase[SpanW-1:0] != '0) $error("DevBase must be aligned to 2**$clog2(NumLines*LineBytes)");

  typedef enum logic [3:0] {
    StInit, StIdle, StRead, StDir, StExec, StBuild, StCommit, StSnoop, StGrant
  } state_e;
  state_e state_q, state_d;

  // ---- directory RAM (synchronous read) --------------------------------------------------------
  // Block RAM by request: Yosys 0.70 otherwise picks UltraScale+ LUTRAM for the directory of
  // the full geometry and fails to map it ("invalid OPTION_ABITS/WIDTH combination").
  (* ram_style = "block" *) logic [DirW-1:0] dir_q [NumLines];
  logic [DirW-1:0]     dir_rd_q;
  logic                dir_en, dir_we;
  logic [LineIdxW-1:0] dir_addr;
  logic [DirW-1:0]     dir_wd;

  always_ff @(posedge clk_i) begin
    if (dir_en) begin
      if (dir_we) dir_q[dir_addr] <= dir_wd;
      else dir_rd_q <= dir_q[dir_addr];
    end
  end

  // What the decision reads: the RAM's output, or (Pipelined) a register behind it, so the
  // decision starts from a flip-flop instead of the block RAM's slow clock-to-output. Pipelined,
  // the directory is read with the selection in StIdle and registered in StRead.
  logic [DirW-1:0] dir_x;
  if (Pipelined != 0) begin : g_dir_reg
    logic [DirW-1:0] dir_x_q;
    always_ff @(posedge clk_i) if (state_q == StRead) dir_x_q <= dir_rd_q;
    assign dir_x = dir_x_q;
  end else begin : g_dir_direct
    assign dir_x = dir_rd_q;
  end

  // ---- transaction table (one array per field) ----------------------------------------------
  logic [TtEntries-1:0] tt_valid_q, tt_evt_q;
  logic [TtEntries-1:0] tt_tmo_q;                 // PARK entry past its timeout (registered)
  logic [1:0]           tt_kind_q  [TtEntries];
  logic [LineIdxW-1:0]  tt_line_q  [TtEntries];
  logic [3:0]           tt_src_q   [TtEntries];
  logic [7:0]           tt_tag_q   [TtEntries];
  logic [4:0]           tt_op_q    [TtEntries];   // the request's opcode
  logic [4:0]           tt_grant_q [TtEntries];   // DataS/DataE/UpgAck at completion
  logic [NumAgents-1:0] tt_pend_q  [TtEntries];
  logic [NumAgents-1:0] tt_wbp_q   [TtEntries];
  logic [NumAgents-1:0] tt_wbgot_q [TtEntries];
  logic [31:0]          tt_timer_q [TtEntries];

  // ---- current message --------------------------------------------------------------------
  logic [2:0]          cur_src_q;
  cni_coh_pkg::hdr_t   cur_hdr_q;
  logic [LineBits-1:0] cur_data_q;
  logic [cni_coh_pkg::CMD_W-1:0] cur_cmd_q;
  logic [LineIdxW-1:0] cur_line_q;
  logic                cur_inrange_q;
  logic [1:0]          cur_region_q;
  logic [TtW-1:0]      cur_tmo_ent_q;

  // init sweep: walks every line after reset and is zero afterwards, while `cur_line_q` is zero
  // until the first message is taken; so outside StIdle the RAMs' line is `ram_line`, the OR of
  // the two, with no state select.
  logic [LineIdxW-1:0] init_q;
  wire  [LineIdxW-1:0] ram_line = cur_line_q | init_q;

  // snoop sequencer / deferred grant
  logic [NumAgents-1:0] snp_vec_q;
  logic [4:0]           snp_op_q;
  logic [TtW-1:0]       snp_ent_q, gnt_ent_q;
  logic                 gnt_upg_q;   // the deferred grant is an UpgAck (registered with its entry)
  logic                 cmd_defer_q;

  // ---- address decode of an incoming header -------------------------------------------------
  // DevBase is aligned to the window (elaboration check), so the decode needs no subtraction:
  // the bits above the window must equal DevBase's and the line index must be below NumLines.
  function automatic logic [LineIdxW:0] decode(input logic [47:0] addr);
    logic [LineIdxW-1:0] line;
    line   = addr[OffW +: LineIdxW];
    decode = '0;
    if (addr[47:SpanW] == DevBase[47:SpanW] && line < LineIdxW'(NumLines) &&
        addr[OffW-1:0] == '0) begin
      decode = {1'b1, line};
    end
  endfunction

  // A device line's address: DevBase is aligned to the window (elaboration check), so the line's
  // bits are ORed in, without an adder's carry chain.
  function automatic logic [47:0] line_addr(input logic [LineIdxW-1:0] line);
    line_addr = DevBase | (48'(line) << OffW);
  endfunction

  // Commands and timeouts name a device line; requests and snoop answers if their header
  // decodes to one (snoops and data to the device decode as out of range).
  function automatic logic in_range(input logic [2:0] src, input logic dec_ok);
    in_range = src == SRC_CMD || src == SRC_TMO ||
               ((src == SRC_REQ || src == SRC_RSP) && dec_ok);
  endfunction

  function automatic logic [1:0] region_of(input logic [LineIdxW-1:0] line);
    if (line < LineIdxW'(C0)) region_of = 2'd0;
    else if (line < LineIdxW'(A0)) region_of = 2'd1;
    else if (line < LineIdxW'(B0)) region_of = 2'd2;
    else region_of = 2'd3;
  endfunction

  function automatic logic [3:0] lowest(input logic [NumAgents-1:0] v);
    lowest = '0;
    for (int i = NumAgents - 1; i >= 0; i--) if (v[i]) lowest = 4'(i);
  endfunction

  // ---- timers, free entries, event selection -----------------------------------------------
  // A PARK entry's timeout flag is registered (the 32-bit compares stay out of the selection
  // path), so it rises one cycle after the timer reaches the limit. Registered beside the flags:
  // whether any is set, and the lowest one set (one-hot), so the input selection starts from a
  // flip-flop; with `Pipelined` they are registered from the flags themselves (one cycle later
  // again), so the compares end at the flags. Either may still name an entry for a cycle or two
  // after it was freed, converted or even made again: the decision re-checks that the entry is a
  // PARK entry whose own flag is set (SRC_TMO), and a timeout that no longer holds does nothing.
  logic [TtEntries-1:0] tmo_vec, tmo_nx, tmo_1h_q;
  logic                 tmo_any_q;
  logic [TtW:0]         free_cnt;
  logic [TtW-1:0]       free_idx;
  logic                 free_any;
  logic [TtW-1:0]       tmo_idx, evt_idx;
  logic [TtEntries-1:0] valid_nx;   // entries still valid after this cycle's event take
  logic [TtEntries-1:0] lk_valid;   // the valid bits the lookup and the free count see

  assign tmo_vec = tt_tmo_q;
  always_comb begin
    for (int k = 0; k < TtEntries; k++) begin
      tmo_nx[k] = tt_valid_q[k] && tt_kind_q[k] == K_PARK && tt_timer_q[k] >= cfg_park_timeout_i;
    end
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tmo_any_q <= 1'b0;
      tmo_1h_q  <= '0;
    end else begin
      tmo_any_q <= (Pipelined != 0) ? |tt_tmo_q : |tmo_nx;
      tmo_1h_q  <= (Pipelined != 0) ? tt_tmo_q & (~tt_tmo_q + 1'b1) : tmo_nx & (~tmo_nx + 1'b1);
    end
  end
  always_comb begin
    free_cnt = '0;
    free_idx = '0;
    free_any = 1'b0;
    tmo_idx  = '0;
    evt_idx  = '0;
    for (int k = 0; k < TtEntries; k++) begin
      if (!lk_valid[k]) free_cnt = free_cnt + 1'b1;
    end
    for (int k = TtEntries - 1; k >= 0; k--) begin
      if (!lk_valid[k]) begin
        free_idx = TtW'(k);
        free_any = 1'b1;
      end
      if (tt_valid_q[k] && tt_evt_q[k]) evt_idx = TtW'(k);
    end
    for (int k = 0; k < TtEntries; k++) begin
      if (tmo_1h_q[k]) tmo_idx = tmo_idx | TtW'(k);
    end
  end

  assign evt_valid_o = |(tt_valid_q & tt_evt_q);
  assign evt_kind_o  = (tt_kind_q[evt_idx] == K_PARK) ? cni_coh_pkg::EVT_TRIGGER
                                                       : cni_coh_pkg::EVT_RECALL_DONE;
  assign evt_line_o  = tt_line_q[evt_idx];
  wire   evt_take    = evt_valid_o && evt_ready_i;
  always_comb begin
    valid_nx = tt_valid_q;
    if (evt_take && tt_kind_q[evt_idx] == K_RECALL) valid_nx[evt_idx] = 1'b0;
  end
  assign lk_valid = (Pipelined != 0) ? tt_valid_q : valid_nx;

  // ---- input selection (StIdle) --------------------------------------------------------------
  logic [2:0]          sel_src;
  logic                sel_any;
  cni_coh_pkg::hdr_t   sel_hdr;
  logic [LineIdxW:0]   sel_dec;
  logic [LineIdxW-1:0] sel_line;
  // Only snoop answers and requests name a device line; each channel decodes its own header, in
  // parallel with the selection (snoops and data to the device decode as out of range).
  wire  [LineIdxW:0]   rsp_dec = decode(rsp_hdr_i.addr);
  wire  [LineIdxW:0]   req_dec = decode(req_hdr_i.addr);
  wire  [LineIdxW:0]   cur_dec = decode(cur_hdr_q.addr);  // (Pipelined: checked in StRead)

  // The choice is one-hot (`take_*`, the priority below), each a function of the valid flags
  // and two registers, and the header, the decode and the line are AND-OR terms of the channels'
  // heads under it, so the directory's address in StIdle is a few levels from flip-flops.
  // Priority: a timeout, the response channel, a command not deferred, FWD, DAT, requests, a
  // deferred command. A timeout takes the response channel's header (its decision uses its
  // table entry alone).
  logic take_tmo, take_rsp, take_cmd, take_fwd, take_dat, take_req;
  always_comb begin
    logic before_fwd;
    before_fwd = tmo_any_q || rsp_valid_i || (cmd_valid_i && !cmd_defer_q);
    take_tmo   = tmo_any_q;
    take_rsp   = !tmo_any_q && rsp_valid_i;
    take_cmd   = !tmo_any_q && !rsp_valid_i && cmd_valid_i &&
                 (!cmd_defer_q || !(fwd_valid_i || dat_valid_i || req_valid_i));
    take_fwd   = !before_fwd && fwd_valid_i;
    take_dat   = !before_fwd && !fwd_valid_i && dat_valid_i;
    take_req   = !before_fwd && !fwd_valid_i && !dat_valid_i && req_valid_i;
    sel_any    = take_tmo || take_rsp || take_cmd || take_fwd || take_dat || take_req;
    sel_src    = take_tmo ? SRC_TMO : take_rsp ? SRC_RSP : take_cmd ? SRC_CMD :
                 take_fwd ? SRC_FWD : take_dat ? SRC_DAT : SRC_REQ;
    sel_hdr    = ({$bits(sel_hdr){take_fwd}} & fwd_hdr_i) |
                 ({$bits(sel_hdr){take_dat}} & dat_hdr_i) |
                 ({$bits(sel_hdr){take_req}} & req_hdr_i) |
                 ({$bits(sel_hdr){take_tmo || take_rsp || take_cmd}} & rsp_hdr_i);
    sel_dec    = ({(LineIdxW + 1){take_rsp}} & rsp_dec) | ({(LineIdxW + 1){take_req}} & req_dec);
    // Pipelined, a header's line is taken as it stands and checked in StRead (off this path):
    // only messages found in range use it. A timeout's decision uses its table entry alone (the
    // Retry's address comes from the entry), not the line, the directory word or the lookup, so
    // it takes whatever line the header branch gives.
    if (Pipelined != 0) begin
      sel_line = ({LineIdxW{take_cmd}} & cmd_line_i) |
                 ({LineIdxW{!take_cmd}} & sel_hdr.addr[OffW +: LineIdxW]);
    end else begin
      sel_line = take_cmd ? cmd_line_i : sel_dec[LineIdxW-1:0];
    end
  end

  // ---- table lookup of the message (registered for StExec) ------------------------------------
  // Done in StIdle on the selection, or (Pipelined) in StRead on the registered line and tag.
  // The table holds at most one entry per line (every allocation requires no hit), so the hit
  // vector is one-hot or zero, and the hit entry's index and fields are ORs of its terms (one
  // AND-OR level instead of an encoder in front of a multiplexer). Until the decision is
  // applied the table only changes by the engine taking an event (which frees a RECALL entry
  // that has nothing pending) and by timers. Without Pipelined the lookup sees the table as it
  // will be in the next cycle (`valid_nx`), so the registered copies decide exactly as the live
  // table would; only while the decision waits for an output channel may a RECALL entry freed
  // meanwhile still count as busy (the message is retried or deferred), and a free entry or the
  // reserve only grows. Pipelined, the lookup sees the valid bits as they are (`lk_valid`, no
  // event selection in its path): an entry freed in that cycle or later, up to the commit, is
  // handled the same way.
  wire                  lk_load = (Pipelined != 0) ? state_q == StRead
                                                 : state_q == StIdle && sel_any;
  wire [LineIdxW-1:0]   lk_line = (Pipelined != 0) ? cur_line_q : sel_line;
  wire [7:0]            lk_tag  = (Pipelined != 0) ? cur_hdr_q.tag : sel_hdr.tag;
  logic [TtEntries-1:0] l_hit, l_park;
  logic [TtW-1:0]       l_hit_idx, l_park_idx;
  logic [1:0]           l_hit_kind;
  logic [NumAgents-1:0] l_hit_pend, l_hit_wbp, l_hit_wbgot;
  logic [3:0]           l_park_src;
  logic [7:0]           l_park_tag;
  logic [4:0]           l_park_op;
  wire  [TtW-1:0]       l_ent = lk_tag[TtW-1:0];
  // Which entries' line is the message's (`lk_match`). Pipelined, the compares are made in StIdle,
  // each channel's head against each entry in parallel with the selection, and registered for
  // StRead (an entry's line changes only at a commit, never between the two), so StRead only
  // adds the valid bits; the read enable's range check is made the same way (`lk_inmem`).
  logic [TtEntries-1:0] lk_match;
  logic                 lk_inmem;   // (Pipelined) the selected line is in the RAMs
  if (Pipelined != 0) begin : g_lk_pre
    wire [LineIdxW-1:0] rsp_line = rsp_hdr_i.addr[OffW +: LineIdxW];
    wire [LineIdxW-1:0] fwd_line = fwd_hdr_i.addr[OffW +: LineIdxW];
    wire [LineIdxW-1:0] dat_line = dat_hdr_i.addr[OffW +: LineIdxW];
    wire [LineIdxW-1:0] req_line = req_hdr_i.addr[OffW +: LineIdxW];
    logic [TtEntries-1:0] m_q;
    // the registered compares are those of the line taken (simulation checks it)
    always_ff @(posedge clk_i) begin
      if (state_q == StIdle) begin
        for (int k = 0; k < TtEntries; k++) begin
          m_q[k] <= (take_cmd && tt_line_q[k] == cmd_line_i) ||
                    ((take_tmo || take_rsp) && tt_line_q[k] == rsp_line) ||
                    (take_fwd && tt_line_q[k] == fwd_line) ||
                    (take_dat && tt_line_q[k] == dat_line) ||
                    (take_req && tt_line_q[k] == req_line);
        end
      end
    end
    assign lk_match = m_q;
    assign lk_inmem = (take_cmd && 32'(cmd_line_i) < 32'(NumLines)) ||
                      ((take_tmo || take_rsp) && 32'(rsp_line) < 32'(NumLines)) ||
                      (take_fwd && 32'(fwd_line) < 32'(NumLines)) ||
                      (take_dat && 32'(dat_line) < 32'(NumLines)) ||
                      (take_req && 32'(req_line) < 32'(NumLines));
`ifndef SYNTHESIS
`ifndef FORMAL
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
      end else if (state_q == StRead) begin
        for (int k = 0; k < TtEntries; k++) begin
          assert (m_q[k] == (tt_line_q[k] == cur_line_q))
            else $error("cni_home_agent: a registered line compare disagrees");
        end
      end
    end
`endif
`endif
  end else begin : g_lk_now
    always_comb begin
      for (int k = 0; k < TtEntries; k++) lk_match[k] = tt_line_q[k] == lk_line;
    end
    assign lk_inmem = 1'b0;
  end
  always_comb begin
    l_hit_idx   = '0;
    l_park_idx  = '0;
    l_hit_kind  = '0;
    l_hit_pend  = '0;
    l_hit_wbp   = '0;
    l_hit_wbgot = '0;
    l_park_src  = '0;
    l_park_tag  = '0;
    l_park_op   = '0;
    for (int k = 0; k < TtEntries; k++) begin
      l_hit[k]  = lk_valid[k] && lk_match[k];
      l_park[k] = l_hit[k] && tt_kind_q[k] == K_PARK;
      if (l_hit[k]) begin
        l_hit_idx   = l_hit_idx | TtW'(k);
        l_hit_kind  = l_hit_kind | tt_kind_q[k];
        l_hit_pend  = l_hit_pend | tt_pend_q[k];
        l_hit_wbp   = l_hit_wbp | tt_wbp_q[k];
        l_hit_wbgot = l_hit_wbgot | tt_wbgot_q[k];
      end
      if (l_park[k]) begin
        l_park_idx = l_park_idx | TtW'(k);
        l_park_src = l_park_src | tt_src_q[k];
        l_park_tag = l_park_tag | tt_tag_q[k];
        l_park_op  = l_park_op | tt_op_q[k];
      end
    end
  end

  logic                 hit_any_q, park_hit_q, ent_match_q, room_q, free_any_q;
  logic [TtW-1:0]       hit_idx_q, park_idx_q, free_idx_q;
  logic [1:0]           hit_kind_q, ent_kind_q;
  logic [NumAgents-1:0] hit_pend_q, hit_wbp_q, hit_wbgot_q;
  logic [NumAgents-1:0] ent_pend_q, ent_wbp_q, ent_wbgot_q;
  logic [3:0]           park_src_q, ent_src_q;
  logic [7:0]           park_tag_q, ent_tag_q;
  logic [4:0]           park_op_q, ent_grant_q;

  always_ff @(posedge clk_i) begin
    if (lk_load) begin
      hit_any_q   <= l_hit != '0;
      hit_idx_q   <= l_hit_idx;
      hit_kind_q  <= l_hit_kind;
      hit_pend_q  <= l_hit_pend;
      hit_wbp_q   <= l_hit_wbp;
      hit_wbgot_q <= l_hit_wbgot;
      park_hit_q  <= l_park != '0;
      park_idx_q  <= l_park_idx;
      park_src_q  <= l_park_src;
      park_tag_q  <= l_park_tag;
      park_op_q   <= l_park_op;
      ent_match_q <= (lk_tag < 8'(TtEntries)) && l_hit[l_ent] && tt_kind_q[l_ent] != K_PARK;
      ent_kind_q  <= tt_kind_q[l_ent];
      ent_pend_q  <= tt_pend_q[l_ent];
      ent_wbp_q   <= tt_wbp_q[l_ent];
      ent_wbgot_q <= tt_wbgot_q[l_ent];
      ent_src_q   <= tt_src_q[l_ent];
      ent_tag_q   <= tt_tag_q[l_ent];
      ent_grant_q <= tt_grant_q[l_ent];
      room_q      <= free_cnt > (TtW + 1)'(TtReserve);
      free_any_q  <= free_any;
      free_idx_q  <= free_idx;
    end
  end

  // ---- decision (StExec; Pipelined: StExec and StBuild) -----------------------------------------
  wire [NumAgents-1:0] d_sharers = dir_x[NumAgents-1:0];
  wire [1:0]           d_state   = dir_x[NumAgents +: 2];
  wire                 d_armed   = dir_x[NumAgents + 2];

  // Decision outputs (one record): computed in StExec from registers; applied when the answer's
  // channel takes it (`e_commit`) in StExec, or, with `Pipelined`, built in StBuild from the
  // registered row, registered, and applied in StCommit.
  typedef struct packed {
    logic [1:0]           out;
    cni_coh_pkg::hdr_t    hdr;
    logic                 data_msg; // data: the message's (SnpData, WB), else the memory's line
    logic                 pop, stall_cmd, mem_we, dir_we;
    logic [DirW-1:0]      dir_wd;
    logic                 alloc;
    logic [1:0]           alloc_kind;
    logic [NumAgents-1:0] alloc_pend;
    logic [4:0]           alloc_grant;
    logic                 alloc_evt;
    logic                 upd;
    logic [TtW-1:0]       upd_idx;
    logic [NumAgents-1:0] upd_pend, upd_wbp, upd_wbgot;
    logic                 upd_evt;
    logic                 free;
    logic [TtW-1:0]       free_idx;
    logic                 conv;     // the PARK entry at park_idx_q becomes a SNOOP transaction
    logic [NumAgents-1:0] conv_pend;
    logic [4:0]           conv_grant;
    logic [NumCnt-1:0]    cnt;
    logic [3:0]           next;     // a state_e
    logic [NumAgents-1:0] snp_vec;  // snoop sequencer / deferred grant, loaded at commit
    logic [4:0]           snp_op;
    logic [TtW-1:0]       snp_ent, gnt_ent;
  } dec_t;
  dec_t x, e;     // the decision being made; the decision being applied
  logic e_commit;
  // Both data sources hold still until the decision is applied: the message register, and the
  // memory's read port (port A reads nothing else meanwhile). With `Pipelined` the memory's line
  // is taken from a register behind the read port, loaded every cycle: the line is read in
  // StRead and applied in StCommit, three cycles later, so the register holds it by then, and
  // the outgoing data channel starts from a flip-flop instead of the block RAM's slow
  // clock-to-output.
  logic [LineBits-1:0] mem_line;
  if (Pipelined != 0) begin : g_mrd_reg
    logic [LineBits-1:0] mem_line_q;
    always_ff @(posedge clk_i) mem_line_q <= mem_rdata_i;
    assign mem_line = mem_line_q;
  end else begin : g_mrd_direct
    assign mem_line = mem_rdata_i;
  end
  wire [LineBits-1:0] e_data = e.data_msg ? cur_data_q : mem_line;

  localparam logic [7:0] LEN_LINE = 8'(LineBytes);

  // Helpers on the current message.
  wire [3:0]           c_src   = cur_hdr_q.src;
  wire [4:0]           c_op    = cur_hdr_q.op;
  wire [7:0]           c_tag   = cur_hdr_q.tag;
  wire [47:0]          c_addr  = cur_hdr_q.addr;
  wire [TtW-1:0]       c_ent   = cur_hdr_q.tag[TtW-1:0];

  // Conditions the decision starts from. They depend on the message, the lookup and the
  // directory word only, so with `Pipelined` they are registered in StDir (from the directory
  // register); without, they are the wires. (A CSR change then counts one cycle later.)
  typedef struct packed {
    logic [NumAgents-1:0] c_bit;       // the requester's bit (none if out of range)
    logic                 c_ret_e;     // the line's region returns RdS exclusive
    logic                 c_addr_ok;   // a device line, addressed to this agent, known source
    logic                 c_ent_ok;    // the tag names a live entry that waits for this source
    logic                 c_busy;      // a request must be retried: the line is busy, or it
                                       // needs a table entry (parks, or snoops another
                                       // holder) and none is free outside the reserve
    logic                 c_wb_race;   // a write-back that races this agent's snoop
    logic                 c_rec_wait;  // a RECALL must wait: line busy, or table full
    // RELEASE of a parked request from R: the grant (shared for an RdS outside a ret-excl
    // region), the other holders the directory names, and whether they must be snooped first.
    logic [NumAgents-1:0] rel_bit, rel_others;
    logic                 rel_shared, rel_snoop;
    // The row search's tests of the opcode, the length, the entry and the directory word.
    logic                 rsp_op_ok, rsp_len_ok;  // a snoop answer's opcode; its length
    logic                 snp_more;    // the entry still waits for answers or write-backs
    logic                 req_op_ok, req_len_ok;  // a request's opcode; its length
    logic                 wb_more;     // a racing write-back: answers or write-backs remain
    logic                 wb_owner;    // a write-back from the owner (X{R})
    logic                 fwd_op_ok, dat_op_ok;   // a snoop / a data message's opcode
    logic                 rec_none;    // no host holds the line
    logic                 x_other;     // another agent holds the line exclusive
    logic                 others;      // an agent other than the requester holds the line
    logic                 upg_sh;      // an Upg from a sharer
  } hlp_t;
  hlp_t hn, hl;
  always_comb begin
    logic [NumAgents-1:0] sh;
    logic [1:0]           st;
    logic                 src_ok, need_entry, snp_data, wbp_add;
    sh              = dir_x[NumAgents-1:0];
    st              = dir_x[NumAgents +: 2];
    src_ok          = {1'b0, c_src} < 5'(NumAgents);
    hn.c_bit        = src_ok ? NumAgents'(1) << c_src : '0;
    hn.c_ret_e      = cfg_ret_excl_i[cur_region_q];
    hn.c_addr_ok    = cur_inrange_q && cur_hdr_q.dst == agent_id_i && src_ok;
    hn.c_ent_ok     = ent_match_q && cur_inrange_q && ((ent_pend_q & hn.c_bit) != '0);
    need_entry      = dir_x[NumAgents + 2] ||
                      (st == DIR_X && sh != hn.c_bit) ||
                      (c_op != cni_coh_pkg::OP_RDS && st == DIR_S && (sh & ~hn.c_bit) != '0);
    hn.c_busy       = hit_any_q || (!room_q && need_entry);
    hn.c_wb_race    = hit_any_q && ((hit_pend_q | hit_wbp_q) & hn.c_bit) != '0 &&
                      hit_kind_q != K_PARK;
    hn.c_rec_wait   = hit_any_q || !free_any_q;
    hn.rel_bit      = NumAgents'(1) << park_src_q;
    hn.rel_shared   = park_op_q == cni_coh_pkg::OP_RDS && !hn.c_ret_e;
    hn.rel_others   = (st == DIR_I) ? '0 : sh & ~hn.rel_bit;
    hn.rel_snoop    = hn.rel_others != '0 && (st == DIR_X || !hn.rel_shared);
    snp_data        = c_op == cni_coh_pkg::OP_SNP_DATA;
    wbp_add         = !snp_data && cur_hdr_q.flags[cni_coh_pkg::FLAG_WBP] &&
                      (ent_wbgot_q & hn.c_bit) == '0;
    hn.rsp_op_ok    = c_op == cni_coh_pkg::OP_SNP_ACK || snp_data;
    hn.rsp_len_ok   = cur_hdr_q.len == (snp_data ? LEN_LINE : 8'd0);
    hn.snp_more     = (ent_pend_q & ~hn.c_bit) != '0 || ent_wbp_q != '0 ||
                      (wbp_add && hn.c_bit != '0);
    hn.req_op_ok    = c_op == cni_coh_pkg::OP_RDS || c_op == cni_coh_pkg::OP_RDX ||
                      c_op == cni_coh_pkg::OP_UPG || c_op == cni_coh_pkg::OP_WB;
    hn.req_len_ok   = cur_hdr_q.len == ((c_op == cni_coh_pkg::OP_WB) ? LEN_LINE : 8'd0);
    hn.wb_more      = hit_pend_q != '0 || (hit_wbp_q & ~hn.c_bit) != '0;
    hn.wb_owner     = st == DIR_X && sh == hn.c_bit;
    hn.fwd_op_ok    = c_op == cni_coh_pkg::OP_FWD_INV || c_op == cni_coh_pkg::OP_FWD_DOWN ||
                      c_op == cni_coh_pkg::OP_FWD_DNO;
    hn.dat_op_ok    = c_op == cni_coh_pkg::OP_DATA_S || c_op == cni_coh_pkg::OP_DATA_E ||
                      c_op == cni_coh_pkg::OP_DATA_M;
    hn.rec_none     = st == DIR_I || sh == '0;
    hn.x_other      = st == DIR_X && sh != hn.c_bit;
    hn.others       = st != DIR_I && (sh & ~hn.c_bit) != '0;
    hn.upg_sh       = c_op == cni_coh_pkg::OP_UPG && st == DIR_S && (sh & hn.c_bit) != '0;
  end
  if (Pipelined != 0) begin : g_hlp_reg
    hlp_t h_q;
    always_ff @(posedge clk_i) if (state_q == StDir) h_q <= hn;
    assign hl = h_q;
  end else begin : g_hlp_direct
    assign hl = hn;
  end
  wire [NumAgents-1:0] c_bit        = hl.c_bit;
  wire                 c_ret_e      = hl.c_ret_e;
  wire                 c_addr_ok    = hl.c_addr_ok;
  wire                 c_ent_ok     = hl.c_ent_ok;
  wire                 c_busy       = hl.c_busy;
  wire                 c_wb_race    = hl.c_wb_race;
  wire                 c_rec_wait   = hl.c_rec_wait;
  wire [NumAgents-1:0] rel_bit      = hl.rel_bit;
  wire                 rel_shared   = hl.rel_shared;
  wire [NumAgents-1:0] rel_others   = hl.rel_others;
  wire                 rel_snoop    = hl.rel_snoop;

  // Header for an answer to the current message.
  // (returns the packed bits: the pinned Yosys subset has no typedef return types)
  function automatic logic [cni_coh_pkg::HDR_W-1:0] answer(
      input logic [4:0] op, input logic [3:0] self, input logic [3:0] to,
      input logic [7:0] tag, input logic [47:0] addr, input logic [7:0] ln);
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

  // The decision is made in two parts. The first finds which row of the state tables
  // (docs/endpoint.md) the message falls in: a small code (`row_e`) and the counters it pulses.
  // The second builds that row's answer (the `dec_t` record) from the code and the registers.
  // Without `Pipelined` both are wires of StExec; with it, the row is registered in StExec and
  // the record built and registered in StBuild, so no condition drives the wide fields of the
  // record directly (each condition had hundreds of loads: routing, not logic, set the clock).
  typedef enum logic [4:0] {
    R_NONE,         // nothing (dropped with an error count; a stale timeout; DAT in)
    R_TMO_RETRY,    // a parked request timed out: Retry, free the entry (the line stays armed)
    R_SNP_UPD,      // snoop answer: update the entry, more answers to come
    R_SNP_EVT,      //   the last answer of a RECALL: the entry raises its event
    R_SNP_GRANT,    //   the last answer of a SNOOP: grant the requester, free the entry
    R_SET_ARM,      // ARM, DISARM, RELEASE without a parked request: armed := (cmd == ARM)
    R_REL_GRANT,    // RELEASE: answer the parked request from memory, free its entry
    R_REL_SNOOP,    // RELEASE: the PARK entry becomes a SNOOP of the other holders
    R_REC_WAIT,     // RECALL must wait (line busy or table full): not consumed, deferred
    R_REC_DONE,     // RECALL of a line no host holds: entry with its event at once, dir -> I
    R_REC_SNOOP,    // RECALL: FwdInv every holder, dir -> I
    R_FWD_ACK,      // snoop to the device (caches no host lines): SnpAck
    R_REQ_ERROR,    // request: Error answer (the counters say why)
    R_WB_RACE,      // write-back racing this agent's snoop: absorbed, more answers to come
    R_WB_RACE_EVT,  //   completing a RECALL: event
    R_WB_RACE_GNT,  //   completing a SNOOP: deferred grant (StGrant)
    R_WB_OWNER,     // write-back from the owner: memory, dir -> I, WbAck
    R_RETRY,        // request retried: line busy or no entry free
    R_PARK,         // request on an armed line: parked (PARK entry, TRIGGER)
    R_GRANT_E,      // DataE, dir -> X{R}
    R_GRANT_S,      // DataS, dir -> S{R}
    R_GRANT_S_ADD,  // DataS, dir -> S plus R
    R_SNOOP_DOWN,   // RdS on X{O}: FwdDown O; SNOOP entry; dir -> S{O,R}
    R_SNOOP_INV,    // RdX/Upg with other holders: FwdInv them; SNOOP entry; dir -> X{R}
    R_UPG_ACK       // Upg from a sharer with no other holder: UpgAck, dir -> X{R}
  } row_e;

  // Entry updates of a snoop answer (tag = entry) and of a racing write-back (the hit entry).
  wire                 c_snp_data = c_op == cni_coh_pkg::OP_SNP_DATA;
  wire [NumAgents-1:0] snp_pend   = ent_pend_q & ~c_bit;
  wire [NumAgents-1:0] snp_wbp    = (!c_snp_data && cur_hdr_q.flags[cni_coh_pkg::FLAG_WBP] &&
                                     (ent_wbgot_q & c_bit) == '0) ? ent_wbp_q | c_bit
                                                                  : ent_wbp_q;
  wire [NumAgents-1:0] wb_wbp     = hit_wbp_q & ~c_bit;
  wire [NumAgents-1:0] wb_wbgot   = ((hit_wbp_q & c_bit) != '0) ? hit_wbgot_q
                                                                : hit_wbgot_q | c_bit;
  // Grants of a request: UpgAck for an Upg from a sharer, else DataE.
  wire [4:0]           c_xgrant   = hl.upg_sh ? cni_coh_pkg::OP_UPG_ACK : cni_coh_pkg::OP_DATA_E;

  // ---- which row (StExec) ----
  row_e              r_row;
  logic [NumCnt-1:0] r_cnt;
  always_comb begin
    r_row = R_NONE;
    r_cnt = '0;
    unique case (cur_src_q)
      SRC_TMO: begin
        if (tt_valid_q[cur_tmo_ent_q] && tt_kind_q[cur_tmo_ent_q] == K_PARK &&
            tt_tmo_q[cur_tmo_ent_q]) begin
          r_row = R_TMO_RETRY;
          r_cnt[CNT_RETRY_TMO] = 1'b1;
        end
      end

      // snoop answers: always consumed
      SRC_RSP: begin
        if (!hl.rsp_op_ok) begin
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_OPCODE] = 1'b1;
        end else if (!c_addr_ok) begin
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_ADDR] = 1'b1;
        end else if (!hl.rsp_len_ok) begin
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_LEN] = 1'b1;
        end else if (!c_ent_ok) begin
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_PROTO] = 1'b1;
        end else if (hl.snp_more) begin
          r_row = R_SNP_UPD;
        end else begin
          r_row = (ent_kind_q == K_RECALL) ? R_SNP_EVT : R_SNP_GRANT;
        end
      end

      // engine commands
      SRC_CMD: begin
        unique case (cur_cmd_q)
          cni_coh_pkg::CMD_ARM, cni_coh_pkg::CMD_DISARM: r_row = R_SET_ARM;
          cni_coh_pkg::CMD_RELEASE: begin
            r_row = R_SET_ARM;
            if (park_hit_q) begin
              r_row = rel_snoop ? R_REL_SNOOP : R_REL_GRANT;
              r_cnt[CNT_RELEASED] = 1'b1;
            end
          end
          default: begin  // CMD_RECALL
            if (c_rec_wait) begin
              r_row = R_REC_WAIT;
            end else begin
              r_row = hl.rec_none ? R_REC_DONE : R_REC_SNOOP;
              r_cnt[CNT_RECALL] = 1'b1;
            end
          end
        endcase
      end

      SRC_FWD: begin
        if (!hl.fwd_op_ok) begin
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_OPCODE] = 1'b1;
        end else begin
          r_row = R_FWD_ACK;
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_PROTO] = 1'b1;
        end
      end

      SRC_DAT: begin
        if (!hl.dat_op_ok) begin
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_OPCODE] = 1'b1;
        end else begin
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_PROTO] = 1'b1;
        end
      end

      // requests
      default: begin
        r_row = R_REQ_ERROR;
        if (!hl.req_op_ok) begin
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_OPCODE] = 1'b1;
        end else if (!c_addr_ok) begin
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_ADDR] = 1'b1;
        end else if (!hl.req_len_ok) begin
          r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_LEN] = 1'b1;
        end else if (c_op == cni_coh_pkg::OP_WB) begin
          r_cnt[CNT_WB] = 1'b1;
          if (c_wb_race) begin
            if (hl.wb_more) r_row = R_WB_RACE;
            else r_row = (hit_kind_q == K_RECALL) ? R_WB_RACE_EVT : R_WB_RACE_GNT;
          end else if (hl.wb_owner) begin
            r_row = R_WB_OWNER;
          end else begin
            r_cnt[CNT_ERR0 + cni_coh_pkg::ERR_PROTO] = 1'b1;  // WB from a non-owner
          end
        end else begin
          r_cnt[CNT_RDS] = (c_op == cni_coh_pkg::OP_RDS);
          r_cnt[CNT_RDX] = (c_op == cni_coh_pkg::OP_RDX);
          r_cnt[CNT_UPG] = (c_op == cni_coh_pkg::OP_UPG);
          if (c_busy) begin
            r_row = R_RETRY;
            r_cnt[CNT_RETRY_BUSY] = 1'b1;
          end else if (d_armed) begin
            r_row = R_PARK;   // delayed response: park until the engine releases the line
            r_cnt[CNT_PARKED] = 1'b1;
          end else if (c_op == cni_coh_pkg::OP_RDS) begin
            if (d_state == DIR_S) r_row = R_GRANT_S_ADD;
            else if (hl.x_other) r_row = R_SNOOP_DOWN;
            else r_row = c_ret_e ? R_GRANT_E : R_GRANT_S;
          end else if (hl.others) begin
            r_row = R_SNOOP_INV;
          end else begin
            r_row = hl.upg_sh ? R_UPG_ACK : R_GRANT_E;
          end
        end
      end
    endcase
  end

  // The row the record is built from: registered in StExec with `Pipelined`.
  row_e              b_row;
  logic [NumCnt-1:0] b_cnt;
  if (Pipelined != 0) begin : g_row_reg
    row_e              row_q;
    logic [NumCnt-1:0] cnt_q;
    always_ff @(posedge clk_i) begin
      if (state_q == StExec) begin
        row_q <= r_row;
        cnt_q <= r_cnt;
      end
    end
    assign b_row = row_q;
    assign b_cnt = cnt_q;
  end else begin : g_row_direct
    assign b_row = r_row;
    assign b_cnt = r_cnt;
  end

  // ---- the row's answer (StExec, or StBuild when Pipelined) ----
  always_comb begin
    x.out         = O_NONE;
    x.hdr         = '0;
    x.data_msg    = 1'b0;
    x.pop         = cur_src_q != SRC_TMO;
    x.stall_cmd   = 1'b0;
    x.mem_we      = 1'b0;
    x.dir_we      = 1'b0;
    x.dir_wd      = dir_x;
    x.alloc       = 1'b0;
    x.alloc_kind  = K_SNOOP;
    x.alloc_pend  = '0;
    x.alloc_grant = '0;
    x.alloc_evt   = 1'b0;
    x.upd         = 1'b0;
    x.upd_idx     = c_ent;
    x.upd_pend    = '0;
    x.upd_wbp     = '0;
    x.upd_wbgot   = '0;
    x.upd_evt     = 1'b0;
    x.free        = 1'b0;
    x.free_idx    = c_ent;
    x.conv        = 1'b0;
    x.conv_pend   = '0;
    x.conv_grant  = '0;
    x.cnt         = b_cnt;
    x.next        = StIdle;
    x.snp_vec     = snp_vec_q;
    x.snp_op      = snp_op_q;
    x.snp_ent     = snp_ent_q;
    x.gnt_ent     = gnt_ent_q;
    if (cur_src_q == SRC_REQ) begin
      x.hdr = answer(cni_coh_pkg::OP_ERROR, agent_id_i, c_src, c_tag, c_addr, 8'd0);
    end

    unique case (b_row)
      R_TMO_RETRY: begin
        x.out      = O_RSP;
        x.hdr      = '0;
        x.hdr.op   = cni_coh_pkg::OP_RETRY;
        x.hdr.src  = agent_id_i;
        x.hdr.dst  = tt_src_q[cur_tmo_ent_q];
        x.hdr.tag  = tt_tag_q[cur_tmo_ent_q];
        x.hdr.addr = line_addr(tt_line_q[cur_tmo_ent_q]);
        x.free     = 1'b1;
        x.free_idx = cur_tmo_ent_q;
      end

      R_SNP_UPD, R_SNP_EVT, R_SNP_GRANT: begin
        x.upd       = b_row != R_SNP_GRANT;
        x.upd_pend  = snp_pend;
        x.upd_wbgot = ent_wbgot_q;
        x.upd_wbp   = snp_wbp;
        x.upd_evt   = b_row == R_SNP_EVT;
        x.mem_we    = c_snp_data;
        x.data_msg  = c_snp_data;
        if (b_row == R_SNP_GRANT) begin  // the SNOOP is complete: grant the requester
          x.free     = 1'b1;
          x.out      = (ent_grant_q == cni_coh_pkg::OP_UPG_ACK) ? O_RSP : O_DAT;
          x.hdr.op   = ent_grant_q;
          x.hdr.src  = agent_id_i;
          x.hdr.dst  = ent_src_q;
          x.hdr.tag  = ent_tag_q;
          x.hdr.addr = cur_hdr_q.addr;
          x.hdr.len  = (x.out == O_DAT) ? LEN_LINE : 8'd0;
        end
      end

      R_SET_ARM: begin
        x.dir_we = 1'b1;
        x.dir_wd = {cur_cmd_q == cni_coh_pkg::CMD_ARM, dir_x[DirW-2:0]};
      end

      // The parked request is answered as if it arrived now on the unarmed line: hosts the
      // directory still names (the line was armed while held, or a snoop's grant landed after
      // the ARM) are snooped first; the PARK entry becomes the SNOOP.
      R_REL_GRANT, R_REL_SNOOP: begin
        x.dir_we = 1'b1;
        x.dir_wd = rel_shared ? {1'b0, DIR_S, rel_others | rel_bit} : {1'b0, DIR_X, rel_bit};
        if (b_row == R_REL_SNOOP) begin
          x.conv       = 1'b1;
          x.conv_pend  = rel_others;
          x.conv_grant = rel_shared ? cni_coh_pkg::OP_DATA_S : cni_coh_pkg::OP_DATA_E;
          x.snp_vec    = rel_others;
          x.snp_op     = rel_shared ? cni_coh_pkg::OP_FWD_DOWN : cni_coh_pkg::OP_FWD_INV;
          x.snp_ent    = park_idx_q;
          x.next       = StSnoop;
        end else begin
          x.free     = 1'b1;
          x.free_idx = park_idx_q;
          x.out      = O_DAT;
          x.hdr.op   = rel_shared ? cni_coh_pkg::OP_DATA_S : cni_coh_pkg::OP_DATA_E;
          x.hdr.src  = agent_id_i;
          x.hdr.dst  = park_src_q;
          x.hdr.tag  = park_tag_q;
          x.hdr.addr = line_addr(cur_line_q);
          x.hdr.len  = LEN_LINE;
        end
      end

      R_REC_WAIT: begin
        x.pop       = 1'b0;   // try again later
        x.stall_cmd = 1'b1;
      end

      R_REC_DONE, R_REC_SNOOP: begin
        x.alloc      = 1'b1;
        x.alloc_kind = K_RECALL;
        x.dir_we     = 1'b1;
        x.dir_wd     = {d_armed, DIR_I, NumAgents'(0)};
        if (b_row == R_REC_DONE) begin
          x.alloc_evt = 1'b1;
        end else begin
          x.alloc_pend = d_sharers;
          x.snp_vec    = d_sharers;
          x.snp_op     = cni_coh_pkg::OP_FWD_INV;
          x.snp_ent    = free_idx_q;
          x.next       = StSnoop;
        end
      end

      R_FWD_ACK: begin
        x.out = O_RSP;
        x.hdr = answer(cni_coh_pkg::OP_SNP_ACK, agent_id_i, c_src, c_tag, c_addr, 8'd0);
      end

      R_REQ_ERROR, R_PARK: begin
        x.out = (b_row == R_PARK) ? O_NONE : O_RSP;
        if (b_row == R_PARK) begin
          x.alloc      = 1'b1;
          x.alloc_kind = K_PARK;
          x.alloc_evt  = 1'b1;
        end
      end

      R_WB_RACE, R_WB_RACE_EVT, R_WB_RACE_GNT, R_WB_OWNER: begin
        x.out      = O_RSP;
        x.hdr      = answer(cni_coh_pkg::OP_WB_ACK, agent_id_i, c_src, c_tag, c_addr, 8'd0);
        x.mem_we   = 1'b1;
        x.data_msg = 1'b1;
        if (b_row == R_WB_OWNER) begin
          x.dir_we = 1'b1;
          x.dir_wd = {d_armed, DIR_I, NumAgents'(0)};
        end else begin  // absorbed into the transaction
          x.upd       = 1'b1;
          x.upd_idx   = hit_idx_q;
          x.upd_pend  = hit_pend_q;
          x.upd_wbp   = wb_wbp;
          x.upd_wbgot = wb_wbgot;
          x.upd_evt   = b_row == R_WB_RACE_EVT;
          if (b_row == R_WB_RACE_GNT) begin
            x.gnt_ent = hit_idx_q;
            x.next    = StGrant;
          end
        end
      end

      R_RETRY: begin
        x.out = O_RSP;
        x.hdr = answer(cni_coh_pkg::OP_RETRY, agent_id_i, c_src, c_tag, c_addr, 8'd0);
      end

      R_GRANT_E, R_GRANT_S, R_GRANT_S_ADD: begin
        x.out    = O_DAT;
        x.hdr    = answer((b_row == R_GRANT_E) ? cni_coh_pkg::OP_DATA_E : cni_coh_pkg::OP_DATA_S,
                          agent_id_i, c_src, c_tag, c_addr, LEN_LINE);
        x.dir_we = 1'b1;
        unique case (b_row)
          R_GRANT_E: x.dir_wd = {1'b0, DIR_X, c_bit};
          R_GRANT_S: x.dir_wd = {1'b0, DIR_S, c_bit};
          default:   x.dir_wd = {1'b0, DIR_S, d_sharers | c_bit};
        endcase
      end

      R_SNOOP_DOWN, R_SNOOP_INV: begin
        x.alloc   = 1'b1;
        x.dir_we  = 1'b1;
        x.snp_ent = free_idx_q;
        x.next    = StSnoop;
        if (b_row == R_SNOOP_DOWN) begin
          x.alloc_pend  = d_sharers;
          x.alloc_grant = cni_coh_pkg::OP_DATA_S;
          x.dir_wd      = {1'b0, DIR_S, d_sharers | c_bit};
          x.snp_vec     = d_sharers;
          x.snp_op      = cni_coh_pkg::OP_FWD_DOWN;
        end else begin
          x.alloc_pend  = d_sharers & ~c_bit;
          x.alloc_grant = c_xgrant;
          x.dir_wd      = {1'b0, DIR_X, c_bit};
          x.snp_vec     = d_sharers & ~c_bit;
          x.snp_op      = cni_coh_pkg::OP_FWD_INV;
        end
      end

      R_UPG_ACK: begin
        x.out    = O_RSP;
        x.hdr    = answer(cni_coh_pkg::OP_UPG_ACK, agent_id_i, c_src, c_tag, c_addr, 8'd0);
        x.dir_we = 1'b1;
        x.dir_wd = {1'b0, DIR_X, c_bit};
      end

      default: ;  // R_NONE
    endcase
  end

  // ---- the decision applied (StExec, or StCommit when Pipelined) -------------------------------
  localparam state_e StApply = (Pipelined != 0) ? StCommit : StExec;
  if (Pipelined != 0) begin : g_dec_reg
    dec_t dec_q;
    always_ff @(posedge clk_i) if (state_q == StBuild) dec_q <= x;
    assign e = dec_q;
  end else begin : g_dec_direct
    assign e = x;
  end

  always_comb begin
    unique case (e.out)
      O_RSP:   e_commit = orsp_ready_i;
      O_DAT:   e_commit = odat_ready_i;
      default: e_commit = 1'b1;
    endcase
  end

  // ---- state machine ------------------------------------------------------------------------
  wire snp_last = (snp_vec_q & (snp_vec_q - 1'b1)) == '0;  // one snoop left to send
  wire snp_fire = ofwd_ready_i && !ofwd_hold_i;             // a snoop leaves this cycle
  always_comb begin
    state_d = state_q;
    unique case (state_q)
      StInit:  if (init_q == LineIdxW'(NumLines - 1)) state_d = StIdle;
      StIdle:  if (sel_any) state_d = (Pipelined != 0) ? StRead : StExec;
      StRead:  state_d = StDir;
      StDir:   state_d = StExec;
      StExec:  if (Pipelined != 0) state_d = StBuild;
               else if (e_commit) state_d = state_e'(e.next);
      StBuild: state_d = StCommit;
      StCommit: if (e_commit) state_d = state_e'(e.next);
      StSnoop: if (snp_fire && snp_last) state_d = StIdle;
      StGrant: if (gnt_ready) state_d = StIdle;
      default: state_d = StIdle;
    endcase
  end

  assign init_done_o = (state_q != StInit);

  // Input handshakes: a message is consumed when its decision commits.
  wire exec_fire = (state_q == StApply) && e_commit && e.pop;
  assign rsp_ready_o = exec_fire && cur_src_q == SRC_RSP;
  assign cmd_ready_o = exec_fire && cur_src_q == SRC_CMD;
  assign fwd_ready_o = exec_fire && cur_src_q == SRC_FWD;
  assign dat_ready_o = exec_fire && cur_src_q == SRC_DAT;
  assign req_ready_o = exec_fire && cur_src_q == SRC_REQ;

  // Outputs.
  wire [3:0] snp_dst   = lowest(snp_vec_q);
  wire       gnt_upg   = gnt_upg_q;
  wire       gnt_ready = gnt_upg ? orsp_ready_i : odat_ready_i;
  always_comb begin
    ofwd_valid_o = 1'b0;
    orsp_valid_o = 1'b0;
    odat_valid_o = 1'b0;
    ofwd_hdr_o   = e.hdr;
    orsp_hdr_o   = e.hdr;
    odat_hdr_o   = e.hdr;
    odat_data_o  = e_data;
    unique case (state_q)
      StApply: begin
        orsp_valid_o = (e.out == O_RSP);
        odat_valid_o = (e.out == O_DAT);
      end
      StSnoop: begin
        ofwd_valid_o    = !ofwd_hold_i;
        ofwd_hdr_o      = '0;
        ofwd_hdr_o.op   = snp_op_q;
        ofwd_hdr_o.src  = agent_id_i;
        ofwd_hdr_o.dst  = snp_dst;
        ofwd_hdr_o.tag  = 8'(snp_ent_q);
        ofwd_hdr_o.addr = line_addr(tt_line_q[snp_ent_q]);
      end
      StGrant: begin
        odat_hdr_o      = '0;
        odat_hdr_o.op   = tt_grant_q[gnt_ent_q];
        odat_hdr_o.src  = agent_id_i;
        odat_hdr_o.dst  = tt_src_q[gnt_ent_q];
        odat_hdr_o.tag  = tt_tag_q[gnt_ent_q];
        odat_hdr_o.addr = line_addr(tt_line_q[gnt_ent_q]);
        odat_data_o     = cur_data_q;
        orsp_hdr_o      = odat_hdr_o;
        if (gnt_upg) begin
          orsp_valid_o = 1'b1;
        end else begin
          odat_valid_o   = 1'b1;
          odat_hdr_o.len = LEN_LINE;
        end
      end
      default: ;
    endcase
  end

  // Directory and memory port A. The memory is written only with a message's line (a decision
  // sets `mem_we` only with `data_msg`) or, in the init sweep, zeros, so its write data comes
  // from the message register and not through `e_data`'s choice. Its write enable only matters
  // with the port enabled, and the port reads in one state only, so the enable is "not that
  // state".
  //
  // Pipelined, the memory's port is driven from flip-flops (its enables reach every block RAM
  // of the line memory, across the device): the read is registered in StIdle for the StRead
  // cycle (`ma_rd_q`, with the line's range check), the init sweep is a flag (`init_run_q`, the
  // same cycles as StInit), and a commit's write is registered and done in the next cycle
  // (`ma_wr_q`). That cycle never reads the port (only StRead does, and never right after a
  // commit), and it still has the message's data and line: the message register and
  // `cur_line_q` are loaded at the end of StIdle at the earliest. The write lands one cycle
  // later than the commit; the next reader is a later message's StRead (two cycles or more
  // after the commit) or the PIO engine after the event the commit raises, which it sees one
  // cycle after the commit at the earliest and acts on through its event and request registers.
  localparam state_e StMemRd = (Pipelined != 0) ? StRead : StIdle;
  logic ma_rd_q, ma_wr_q, init_run_q;
  if (Pipelined != 0) begin : g_ma_reg
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ma_rd_q    <= 1'b0;
        ma_wr_q    <= 1'b0;
        init_run_q <= 1'b1;
      end else begin
        ma_rd_q    <= state_q == StIdle && lk_inmem;
        ma_wr_q    <= state_q == StApply && e_commit && e.mem_we;
        init_run_q <= state_d == StInit;
      end
    end
    // The flags: the init sweep's flag is StInit, a read comes only in StRead, and a write never
    // in the same cycle.
    wire ma_ok = init_run_q == (state_q == StInit) && !(ma_rd_q && ma_wr_q) &&
                 (!ma_rd_q || state_q == StRead);
`ifdef SYNTHESIS
`elsif FORMAL
    always_comb assert (ma_ok);
`else
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
      end else begin
        assert (ma_ok) else $error("cni_home_agent: a memory port flag disagrees");
      end
    end
`endif
  end else begin : g_ma_direct
    assign ma_rd_q    = 1'b0;
    assign ma_wr_q    = 1'b0;
    assign init_run_q = 1'b0;
    wire unused_lk_inmem = lk_inmem;  // the range check of the pipelined read
  end
  always_comb begin
    dir_en      = 1'b0;
    dir_we      = 1'b0;
    dir_addr    = ram_line;
    dir_wd      = e.dir_wd;
    mem_en_o    = 1'b0;
    mem_we_o    = state_q != StMemRd;
    mem_addr_o  = ram_line;
    mem_wdata_o = (state_q == StInit) ? '0 : cur_data_q;
    unique case (state_q)
      StInit: begin
        dir_en   = 1'b1;
        dir_we   = 1'b1;
        dir_wd   = '0;
        mem_en_o = 1'b1;
      end
      // reads: with the message's selection, or (Pipelined) the directory with the selection
      // and the memory from the registered line. Pipelined, a header's line may lie beyond the
      // RAMs (the address check comes later): the directory word read then is not used, and
      // the memory is not read.
      StIdle: begin
        dir_en   = sel_any;
        dir_addr = sel_line;
        if (Pipelined == 0) begin
          mem_en_o   = sel_any;
          mem_addr_o = sel_line;
        end
      end
      StApply: begin
        dir_en   = e_commit && e.dir_we;
        dir_we   = 1'b1;
        mem_en_o = e_commit && e.mem_we;
      end
      default: ;
    endcase
    if (Pipelined != 0) begin
      mem_en_o    = init_run_q || ma_rd_q || ma_wr_q;
      mem_we_o    = !ma_rd_q;
      mem_wdata_o = init_run_q ? '0 : cur_data_q;
    end
  end

  // Counter pulses: decisions plus one per snoop sent.
  always_comb begin
    cnt_o = '0;
    if (state_q == StApply && e_commit) cnt_o = e.cnt;
    if (state_q == StSnoop && snp_fire) cnt_o[CNT_SNOOP] = 1'b1;
  end

  // ---- registers ------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q       <= StInit;
      init_q        <= '0;
      cur_src_q     <= SRC_REQ;
      cur_hdr_q     <= '0;
      cur_cmd_q     <= '0;
      cur_line_q    <= '0;
      cur_inrange_q <= 1'b0;
      cur_region_q  <= '0;
      cur_tmo_ent_q <= '0;
      snp_vec_q     <= '0;
      snp_op_q      <= '0;
      snp_ent_q     <= '0;
      gnt_ent_q     <= '0;
      gnt_upg_q     <= 1'b0;
      cmd_defer_q   <= 1'b0;
    end else begin
      state_q <= state_d;
      if (state_q == StInit) init_q <= (init_q == LineIdxW'(NumLines - 1)) ? '0 : init_q + 1'b1;
      if (state_q == StIdle && sel_any) begin
        cur_src_q     <= sel_src;
        cur_hdr_q     <= sel_hdr;
        cur_cmd_q     <= cmd_op_i;
        cur_tmo_ent_q <= tmo_idx;
        cur_line_q    <= sel_line;
        if (Pipelined == 0) cur_inrange_q <= in_range(sel_src, sel_dec[LineIdxW]);
        // a deferred RECALL gets its turn again once anything else has been looked at
        if (sel_src != SRC_CMD) cmd_defer_q <= 1'b0;
      end
      if (lk_load) cur_region_q <= region_of(lk_line);
      if (Pipelined != 0 && state_q == StRead) begin
        cur_inrange_q <= in_range(cur_src_q, cur_dec[LineIdxW]);
      end
      if (state_q == StApply && e.stall_cmd) cmd_defer_q <= 1'b1;
      if (state_q == StApply && e_commit) begin
        snp_vec_q <= e.snp_vec;
        snp_op_q  <= e.snp_op;
        snp_ent_q <= e.snp_ent;
        gnt_ent_q <= e.gnt_ent;
        // the entry's grant was set when it was made (or converted), never at this commit
        gnt_upg_q <= tt_grant_q[e.gnt_ent] == cni_coh_pkg::OP_UPG_ACK;
      end
      if (state_q == StSnoop && snp_fire) snp_vec_q <= snp_vec_q & ~(NumAgents'(1) << snp_dst);
    end
  end

  // Message data is held separately (wide, no reset needed). It is loaded in every StIdle cycle,
  // not only when a message is taken, and from the response channel whenever that has one: only
  // a message of the response or the request channel carries data, the response channel goes
  // before the request channel, and the data is used only after such a message is taken. So
  // the line-wide register's enable and select need neither the input arbitration nor the
  // timers.
  always_ff @(posedge clk_i) begin
    if (state_q == StIdle) cur_data_q <= rsp_valid_i ? rsp_data_i : req_data_i;
  end

  // Transaction table.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      tt_valid_q <= '0;
      tt_evt_q   <= '0;
      tt_tmo_q   <= '0;
      for (int k = 0; k < TtEntries; k++) begin
        tt_kind_q[k]  <= K_SNOOP;
        tt_line_q[k]  <= '0;
        tt_src_q[k]   <= '0;
        tt_tag_q[k]   <= '0;
        tt_op_q[k]    <= '0;
        tt_grant_q[k] <= '0;
        tt_pend_q[k]  <= '0;
        tt_wbp_q[k]   <= '0;
        tt_wbgot_q[k] <= '0;
        tt_timer_q[k] <= '0;
      end
    end else begin
      for (int k = 0; k < TtEntries; k++) begin
        tt_tmo_q[k] <= tmo_nx[k];
        if (tt_valid_q[k] && tt_kind_q[k] == K_PARK && !tmo_vec[k]) begin
          tt_timer_q[k] <= tt_timer_q[k] + 1'b1;
        end
      end
      // the engine takes an event: RECALL entries end, PARK entries keep waiting
      if (evt_take) begin
        tt_evt_q[evt_idx] <= 1'b0;
        if (tt_kind_q[evt_idx] == K_RECALL) tt_valid_q[evt_idx] <= 1'b0;
      end
      if (state_q == StApply && e_commit) begin
        if (e.alloc) begin
          tt_valid_q[free_idx_q] <= 1'b1;
          tt_evt_q[free_idx_q]   <= e.alloc_evt;
          tt_kind_q[free_idx_q]  <= e.alloc_kind;
          tt_line_q[free_idx_q]  <= cur_line_q;
          tt_src_q[free_idx_q]   <= c_src;
          tt_tag_q[free_idx_q]   <= cur_hdr_q.tag;
          tt_op_q[free_idx_q]    <= c_op;
          tt_grant_q[free_idx_q] <= e.alloc_grant;
          tt_pend_q[free_idx_q]  <= e.alloc_pend;
          tt_wbp_q[free_idx_q]   <= '0;
          tt_wbgot_q[free_idx_q] <= '0;
          tt_timer_q[free_idx_q] <= '0;
        end
        if (e.upd) begin
          tt_pend_q[e.upd_idx]  <= e.upd_pend;
          tt_wbp_q[e.upd_idx]   <= e.upd_wbp;
          tt_wbgot_q[e.upd_idx] <= e.upd_wbgot;
          if (e.upd_evt) tt_evt_q[e.upd_idx] <= 1'b1;
        end
        if (e.free) begin
          tt_valid_q[e.free_idx] <= 1'b0;
          tt_evt_q[e.free_idx]   <= 1'b0;
        end
        if (e.conv) begin
          tt_kind_q[park_idx_q]  <= K_SNOOP;
          tt_evt_q[park_idx_q]   <= 1'b0;
          tt_grant_q[park_idx_q] <= e.conv_grant;
          tt_pend_q[park_idx_q]  <= e.conv_pend;
          tt_wbp_q[park_idx_q]   <= '0;
          tt_wbgot_q[park_idx_q] <= '0;
        end
      end
      if (state_q == StGrant && gnt_ready) tt_valid_q[gnt_ent_q] <= 1'b0;
    end
  end

endmodule
