// SPDX-License-Identifier: Apache-2.0
// Home agent for device-homed lines: directory (sharer vector, per-line policy), transaction
// table, snoop issue and answer collection, write-back acceptance, parked (delayed) requests
// with a per-request timer that answers Retry, the engine bus (commands: policy, resume, recall,
// downgrade-only recall, NACK; events: TRIGGER with the parked request, RECALL_DONE), and
// malformed-message handling. A pipeline: it takes one message per cycle and answers
// messages on different lines without waiting for one another. State table and pipeline:
// docs/endpoint.md; protocol: docs/protocol.md.
//
// Parameters:
//   LineBytes            - coherence line size (64 or 128)
//   NumAgents            - sharer-vector width; agent ids >= NumAgents are rejected
//   DevBase              - byte address of device line 0
//   RegionLines          - lines per region, 32 bits each (cni_amap_pkg; docs/endpoint.md,
//                          "Address map"): the home agent treats every region alike, beside
//                          its RET_EXCL bit
//   TtEntries, TtReserve - transaction-table size and entries kept for engine RECALLs
//   Pipelined            - 0: two stages (take; decide and apply): an answer 2 cycles after the
//                          message is at the head of its FIFO;
//                          1: six stages for FPGA clock rates (take, read, conditions, row,
//                          build, apply): 4 more cycles per message, still one message a cycle
//   QuietLog2            - park_near_o looks 2**QuietLog2 cycles ahead
//   DramIdxW             - 0: every device line is on chip; else 2**DramIdxW DRAM-backed lines
//                          follow, at line index 2**DramIdxW on (docs/dram.md: their data and
//                          directory words in DRAM, held in frames while in use; without
//                          Pipelined only, region 0's lines)
//   FrameW               - 2**FrameW frames of DRAM lines
//   DramAddrW, DramBase  - the DRAM's AXI address bits; the AXI address of DRAM line 0's slot
// Ports:
//   agent_id_i                        - this agent's id on the fabric
//   req_*/rsp_* (inputs)              - inbound requests and snoop answers, valid/ready (consumer:
//                                       this block; the device's caching agent takes the
//                                       snoops and grants addressed to the device);
//                                       without Pipelined a message is taken (ready) when it
//                                       enters the pipeline; with it, when its input head or
//                                       the spare behind it has room (ready is a flip-flop)
//   ofwd_*/orsp_*/odat_* (outputs)    - outbound channels, valid/ready (this block may be stalled)
//   ofwd_hold_i                       - earlier answers are still buffered for transmission: a
//                                       snoop must not overtake them (docs/protocol.md rule 8)
//   evt_*                             - events to device engines (the engine may stall them): the
//                                       kind, the line and its region (found at the lookup, kept
//                                       with the entry: the engine bus routes by it), and the
//                                       parked request's opcode and requester (TRIGGER)
//   cmd_*                             - commands from device engines (this block may stall them;
//                                       a command is taken, ready, when it is applied): opcode,
//                                       argument (policy, grant, NACK answer), line
//   mem_*                             - port A of the line memory (synchronous read)
//   m_axi_*                           - the AXI4 master of the DRAM lines' fill unit (512-bit
//                                       data; unused without DramIdxW)
//   pb_*                              - an engine's access to a DRAM line's data (cni_mem_frames'
//                                       eb_*: granted when present, fetched when absent)
//   dram_cnt_o, dram_err_o            - the fill unit's pulses and sticky write-back error
//                                       (cni_mem_frames' cnt_o, err_o)
//   cfg_ret_excl_i                    - per region: grant DataE to RdS on an unshared line
//   time_i                            - the time base: a cycle count that rises by one each cycle
//                                       (wrapping); a park timer is a deadline on it, so a
//                                       simulator may stop the clock while nothing happens and
//                                       resume with the count it would have reached
//   cfg_park_timeout_i                - cycles before a parked request is answered Retry (values
//                                       from 2**31 on count as 2**31 - 1)
//   cnt_o                             - one-cycle event pulses for the CSR counters (CNT_*)
//   init_done_o                       - directory and memory cleared after reset
//   idle_o                            - nothing in flight or pending: without an input, only a
//                                       park timer can change the state
//   park_o, park_near_o               - a request is parked; one's timer runs out within
//                                       2**QuietLog2 cycles (or has run out)
`default_nettype none
`include "cni_assert.svh"

module cni_home_agent #(
  parameter int          LineBytes = 128,
  parameter int          NumAgents = 16,
  parameter logic [47:0] DevBase   = 48'h10_0000_0000,
  parameter logic [cni_amap_pkg::LW-1:0] RegionLines = cni_amap_pkg::FULL_LINES,
  parameter int          TtEntries = 32,
  parameter int          TtReserve = 8,
  parameter int          Pipelined = 0,
  parameter int          QuietLog2 = 10,
  parameter int          DramIdxW  = 0,
  parameter int          FrameW    = 4,
  parameter int          DramAddrW = 34,
  parameter logic [63:0] DramBase  = '0,
  localparam int LineBits = LineBytes * 8,
  localparam int NumLines = cni_amap_pkg::total(RegionLines),
  localparam int LineIdxW = cni_coh_pkg::line_idx_w(NumLines, DramIdxW),
  localparam int NumCnt   = 16
) (
  input  wire logic                      clk_i,
  input  wire logic                      rst_ni,
  input  wire logic [cni_coh_pkg::AGENT_W-1:0] agent_id_i,
  // inbound
  input  wire logic                      req_valid_i,
  output logic                           req_ready_o,
  input  wire cni_coh_pkg::hdr_t         req_hdr_i,
  input  wire logic [LineBits-1:0]       req_data_i,
  input  wire logic                      rsp_valid_i,
  output logic                           rsp_ready_o,
  input  wire cni_coh_pkg::hdr_t         rsp_hdr_i,
  input  wire logic [LineBits-1:0]       rsp_data_i,
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
  output logic [cni_amap_pkg::REGION_W-1:0] evt_region_o,
  output logic [cni_coh_pkg::OP_W-1:0]   evt_op_o,
  output logic [cni_coh_pkg::AGENT_W-1:0] evt_src_o,
  input  wire logic                      cmd_valid_i,
  output logic                           cmd_ready_o,
  input  wire logic [cni_coh_pkg::CMD_W-1:0] cmd_op_i,
  input  wire logic [cni_coh_pkg::ARG_W-1:0] cmd_arg_i,
  input  wire logic [LineIdxW-1:0]       cmd_line_i,
  // line memory, port A
  output logic                           mem_en_o,
  output logic                           mem_we_o,
  output logic [LineIdxW-1:0]            mem_addr_o,
  output logic [LineBits-1:0]            mem_wdata_o,
  input  wire logic [LineBits-1:0]       mem_rdata_i,
  // DRAM-backed lines (DramIdxW)
  output logic                           m_axi_arvalid_o,
  input  wire logic                      m_axi_arready_i,
  output logic [DramAddrW-1:0]           m_axi_araddr_o,
  output logic [7:0]                     m_axi_arlen_o,
  output logic [2:0]                     m_axi_arsize_o,
  output logic [1:0]                     m_axi_arburst_o,
  input  wire logic                      m_axi_rvalid_i,
  output logic                           m_axi_rready_o,
  input  wire logic [511:0]              m_axi_rdata_i,
  input  wire logic [1:0]                m_axi_rresp_i,
  input  wire logic                      m_axi_rlast_i,
  output logic                           m_axi_awvalid_o,
  input  wire logic                      m_axi_awready_i,
  output logic [DramAddrW-1:0]           m_axi_awaddr_o,
  output logic [7:0]                     m_axi_awlen_o,
  output logic [2:0]                     m_axi_awsize_o,
  output logic [1:0]                     m_axi_awburst_o,
  output logic                           m_axi_wvalid_o,
  input  wire logic                      m_axi_wready_i,
  output logic [511:0]                   m_axi_wdata_o,
  output logic [63:0]                    m_axi_wstrb_o,
  output logic                           m_axi_wlast_o,
  input  wire logic                      m_axi_bvalid_i,
  output logic                           m_axi_bready_o,
  input  wire logic [1:0]                m_axi_bresp_i,
  input  wire logic                      pb_en_i,
  input  wire logic                      pb_we_i,
  input  wire logic [LineIdxW-1:0]       pb_line_i,
  input  wire logic [LineBits-1:0]       pb_wdata_i,
  output logic                           pb_gnt_o,
  output logic [LineBits-1:0]            pb_rdata_o,
  output logic [4:0]                     dram_cnt_o,
  output logic                           dram_err_o,
  // configuration and status
  input  wire logic [31:0]               time_i,
  input  wire logic [cni_amap_pkg::NUM_REGIONS-1:0] cfg_ret_excl_i,
  input  wire logic [31:0]               cfg_park_timeout_i,
  output logic [NumCnt-1:0]              cnt_o,
  output logic                           init_done_o,
  output logic                           idle_o,
  output logic                           park_o,
  output logic                           park_near_o
);

  localparam int  TtW    = $clog2(TtEntries);
  localparam int  NReg   = cni_amap_pkg::NUM_REGIONS;
  localparam bit  P      = Pipelined != 0;
  // Pipelined: what the apply stage sends waits in an output queue of OutQ entries when the
  // channels do not take it at once (the pipeline never stalls; "answers" below). Line-wide
  // data of the messages in flight lives in two small buffers indexed by a slot that travels
  // with the message: at most OutQ messages are between R and the queue's head, plus the one
  // being taken, so 2**SlotW slots never collide.
  localparam int  OutQ   = 8;
  localparam int  SlotW  = $clog2(OutQ + 1);

  // ---- the field widths, records and constants shared by the home blocks ----------------------
  `include "cni_home_types.svh"
  localparam int  SpanW  = LineIdxW + OffW;     // address bits of the device window

  if (TtEntries < 8 || (1 << TtW) != TtEntries) $error("TtEntries must be a power of two >= 8");
  if (TtReserve >= TtEntries) $error("TtReserve must leave entries for host requests");
  if (NumAgents > (1 << AgW) || NumAgents < 2) $error("NumAgents must be 2..2**AGENT_W");
  if (LineBytes != 64 && LineBytes != 128) $error("LineBytes must be 64 or 128");
  if (DevBase[SpanW-1:0] != '0) $error("DevBase must be aligned to 2**$clog2(NumLines*LineBytes)");
  if (QuietLog2 < 1 || QuietLog2 > 30) $error("QuietLog2 must be 1..30");
  if (DramIdxW > 0 && (P || NumLines > (1 << DramIdxW)))
    $error("DRAM-backed lines: without Pipelined, and NumLines <= 2**DramIdxW");

  // ---- directory RAM of the on-chip lines and the init sweep (cni_home_dir, below) ------------
  logic [DirW-1:0]     dir_rd_q;
  logic                dir_re, dir_we;
  logic [LineIdxW-1:0] dir_raddr;
  logic                init_run_q;   // the init sweep clears the RAMs after reset
  logic [LineIdxW-1:0] init_q;

  // a DRAM-backed line: the top bit of the line index, with DramIdxW
  function automatic logic dram(input logic [LineIdxW-1:0] line);
    dram = DramIdxW > 0 && line[LineIdxW-1];
  endfunction

  // The region of a line: the last region whose first line is at or below it.
  // DRAM lines are region 0's (plain memory).
  function automatic logic [RegW-1:0] region_of(input logic [LineIdxW-1:0] line);
    region_of = '0;
    for (int r = 1; r < NReg; r++) begin
      if (32'(line) >= 32'(cni_amap_pkg::base(RegionLines, r)) && !dram(line)) region_of = RegW'(r);
    end
  endfunction

  function automatic logic [TtEntries-1:0] onehot(input logic [TtW-1:0] i);
    onehot = TtEntries'(1) << i;
  endfunction

  // ---- the transaction table (cni_home_table): entries, park timers, events, lookup ----------
  logic [TtW-1:0]      tmo_idx;
  logic [LineIdxW-1:0] tmo_line;
  logic                tmo_any;   // a park timer has run out (a flip-flop of the table)

  // ==== the pipeline ============================================================================
  // Stages: T take (select an input, read the directory; without Pipelined also look the
  // message up and read the memory), then, Pipelined: R read (look up, check the address, read
  // the memory), D conditions, X row, B build, C apply; without: D, where the conditions, the
  // row, the record and the apply are all wires of one cycle. Every stage moves in lock step
  // when the pipeline advances (`adv`): without Pipelined, when the apply stage is empty or its
  // output channels take what it sends; Pipelined, in every cycle (what the apply stage sends
  // goes through the output queue when the channels do not take it, and a message is taken only
  // with a place in the queue for it: `cred_ok`). A message is not taken while one on its line
  // is in flight (so every message sees the directory, the table and the memory as the one
  // before it left them) or when its memory read would meet the memory write of the message
  // being applied.
  logic   take, adv;
  // The records travel whole from stage to stage; the later stages use only some fields.
  /* verilator lint_off UNUSEDSIGNAL */
  msg_t   m_t, m_r, m_d, m_x, m_b, m_c;   // the message in each stage (T: the selection)
  lk_t    lk_l, lk_d, lk_x, lk_b;          // the lookup: made in the lookup stage, carried on
  /* verilator lint_on UNUSEDSIGNAL */
  logic   v_r, v_d, v_x, v_b, v_c;         // each stage holds a message
  logic   e_commit;
  dec_t   x, e;                            // the decision being built; being applied
  logic   apply;                           // the apply stage's decision takes effect
  logic   cred_ok;                         // Pipelined: a place in the output queue is free
  logic [SlotW-1:0] slot_q;                // Pipelined: the slot of the next message taken
  logic   e_mem_we;                        // the decision in the apply stage writes the memory
  /* verilator lint_off UNUSEDSIGNAL */
  logic [TtW-1:0] e_alloc_idx;             // Pipelined: the entry it allocates (if it does),
  logic           e_rsv;                   // which its lookup found free and reserved
  logic           e_alloc;                 // the decision in the apply stage allocates
  /* verilator lint_on UNUSEDSIGNAL */

  // ---- the take (T, cni_home_take): the inputs, the selection, the interlock ------------------
  logic                absent;      // the selected message's DRAM line is not in its frame
  logic                rsv_valid, rsv_held;  // a frame was just filled for rsv_line; an input
  logic [LineIdxW-1:0] rsv_line;             // names it (cni_home_dram, cni_home_take)
  logic                sel_any;
  logic [LineIdxW-1:0] sel_line;
  logic                t_rd;        // the taken message reads the memory
  logic                rq_valid, rs_valid, cmd_first, cmd_busy, lk_inrange;
  logic [LineIdxW-1:0] rq_line, rs_line, cm_line;
  logic [LineBits-1:0] in_data;     // the line of data at the inputs
  wire                 pipe_empty = !(v_r || v_d || v_x || v_b || v_c);
  // the apply stage writes the memory: a taken message's read must not meet it
  wire                 wr_c = v_c && (P ? e_mem_we : m_c.may_write);
  cni_home_take #(
    .LineBytes (LineBytes), .NumAgents (NumAgents), .DevBase (DevBase), .TtEntries (TtEntries),
    .Pipelined (Pipelined), .NumLines (NumLines), .DramIdxW (DramIdxW), .LineIdxW (LineIdxW),
    .SlotW (SlotW), .NumCnt (NumCnt)
  ) u_take (
    .clk_i, .rst_ni,
    .req_valid_i, .req_ready_o, .req_hdr_i, .req_data_i,
    .rsp_valid_i, .rsp_ready_o, .rsp_hdr_i, .rsp_data_i,
    .cmd_valid_i, .cmd_op_i, .cmd_arg_i, .cmd_line_i, .cmd_pop_i (cmd_ready_o),
    .tmo_any_i (tmo_any), .tmo_idx_i (tmo_idx), .tmo_line_i (tmo_line),
    .st_valid_i ({v_c, v_b, v_x, v_d, v_r}),
    .st_line_i ({m_c.line, m_b.line, m_x.line, m_d.line, m_r.line}),
    .pipe_empty_i (pipe_empty), .adv_i (adv), .init_run_i (init_run_q), .cred_ok_i (cred_ok),
    .wr_c_i (wr_c), .slot_i (slot_q), .r_src_i (m_r.src), .r_addr_i (m_r.hdr.addr),
    .defer_i (apply && e.stall_cmd), .cmd_done_i (apply && m_c.src == SRC_CMD),
    .absent_i (absent), .rsv_valid_i (rsv_valid), .rsv_line_i (rsv_line), .rsv_held_o (rsv_held),
    .take_o (take), .sel_any_o (sel_any), .sel_line_o (sel_line), .m_t_o (m_t),
    .rd_o (t_rd), .in_data_o (in_data), .rq_valid_o (rq_valid), .rs_valid_o (rs_valid),
    .rq_line_o (rq_line), .rs_line_o (rs_line), .cm_line_o (cm_line),
    .cmd_first_o (cmd_first), .cmd_busy_o (cmd_busy), .lk_inrange_o (lk_inrange)
  );

  // Line-wide data (cni_home_data): the answer's and the memory write's lines.
  logic [LineBits-1:0] wr_line;
  logic [LineBits-1:0] mem_rd;  // port A's read data (on chip, or a DRAM line's frame)
  logic                dram_ready, dram_idle;  // the frames' init done; nothing in flight

  // ---- stage registers ----------------------------------------------------------------------
  // T -> R (Pipelined; without it the lookup stage is T itself)
  cni_pipe_reg #(.Width($bits(m_t)), .Reg(P)) u_m_r (.clk_i, .rst_ni, .en_i(adv), .d_i(m_t), .q_o(m_r));
  // lookup stage -> D (always a register: the take)
  msg_t m_l;
  assign m_l = P ? m_r : m_t;
  cni_pipe_reg #(.Width($bits(m_t)), .Reg(1'b1)) u_m_d (.clk_i, .rst_ni, .en_i(adv), .d_i(m_l), .q_o(m_d));
  cni_pipe_reg #(.Width($bits(lk_l)), .Reg(1'b1)) u_lk_d (.clk_i, .rst_ni, .en_i(adv), .d_i(lk_l), .q_o(lk_d));
  // D -> X -> B -> C (Pipelined)
  cni_pipe_reg #(.Width($bits(m_t)), .Reg(P)) u_m_x (.clk_i, .rst_ni, .en_i(adv), .d_i(m_d), .q_o(m_x));
  cni_pipe_reg #(.Width($bits(m_t)), .Reg(P)) u_m_b (.clk_i, .rst_ni, .en_i(adv), .d_i(m_x), .q_o(m_b));
  cni_pipe_reg #(.Width($bits(m_t)), .Reg(P)) u_m_c (.clk_i, .rst_ni, .en_i(adv), .d_i(m_b), .q_o(m_c));
  cni_pipe_reg #(.Width($bits(lk_l)), .Reg(P)) u_lk_x (.clk_i, .rst_ni, .en_i(adv), .d_i(lk_d), .q_o(lk_x));
  cni_pipe_reg #(.Width($bits(lk_l)), .Reg(P)) u_lk_b (.clk_i, .rst_ni, .en_i(adv), .d_i(lk_x), .q_o(lk_b));

  // valid bits (reset)
  logic v_r_q, v_d_q, v_x_q, v_b_q, v_c_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      v_r_q <= 1'b0;
      v_d_q <= 1'b0;
      v_x_q <= 1'b0;
      v_b_q <= 1'b0;
      v_c_q <= 1'b0;
    end else if (adv) begin
      v_r_q <= take;
      v_d_q <= P ? v_r_q : take;
      v_x_q <= v_d_q;
      v_b_q <= v_x_q;
      v_c_q <= v_b_q;
    end
  end
  assign v_r = P && v_r_q;
  assign v_d = v_d_q;
  assign v_x = P ? v_x_q : v_d_q;
  assign v_b = P ? v_b_q : v_d_q;
  assign v_c = P ? v_c_q : v_d_q;
  assign adv = !v_c || e_commit;  // (Pipelined: e_commit is 1)

  // ---- table lookup (the lookup stage: T, or R when Pipelined; cni_home_table) ------------------
  // A free entry an older message in flight may take is not offered (`resv`).
  wire [LineIdxW-1:0] lk_line = m_l.line;
  logic [TtEntries-1:0] resv;
  // Without Pipelined the only message in flight is D's. With it, the reservations of D, X, B
  // and C are a register, kept as the stages move: the message entering D adds the entry it
  // found free, the message leaving C drops its own (by then the table holds the entry if the
  // message took it). Only an entry found free is reserved, so the reservations never share an
  // entry and dropping one leaves the others. The lookup then starts from flip-flops, not from
  // the later stages' records.
  if (P) begin : g_resv
    logic [TtEntries-1:0] resv_q;
    wire  [TtEntries-1:0] resv_add = (v_r && m_r.may_alloc && lk_l.free_any) ?
                                     onehot(lk_l.free_idx) : '0;
    wire  [TtEntries-1:0] resv_drop = (v_c && e_rsv) ? onehot(e_alloc_idx) : '0;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) resv_q <= '0;
      else if (adv) resv_q <= (resv_q & ~resv_drop) | resv_add;
    end
    assign resv = resv_q;
  end else begin : g_resv_d
    assign resv = (v_d && m_d.may_alloc) ? onehot(lk_d.free_idx) : '0;
  end
  wire lk_go = P ? v_r : sel_any;
  // (the table's lookup compares, Pipelined: each input's line and the selection's priority
  // from the flip-flops it starts at)
  logic                evt_pending, tmo_flag, park_new;
  logic [TtW-1:0]      snp_ent;
  logic [LineIdxW-1:0] snp_line;
  logic                tmo_live;
  logic [AgW-1:0]      tmo_src;
  logic [TagW-1:0]     tmo_tag;
  logic [LineIdxW-1:0] tmo_line_b;
  cni_home_table #(
    .LineBytes (LineBytes), .NumAgents (NumAgents), .DevBase (DevBase), .TtEntries (TtEntries),
    .TtReserve (TtReserve), .Pipelined (Pipelined), .QuietLog2 (QuietLog2),
    .LineIdxW (LineIdxW), .SlotW (SlotW), .NumCnt (NumCnt)
  ) u_tt (
    .clk_i, .rst_ni, .time_i, .cfg_park_timeout_i,
    .apply_i (apply), .c_valid_i (v_c), .m_c_i (m_c), .e_i (e),
    .evt_valid_o, .evt_ready_i, .evt_kind_o, .evt_line_o, .evt_region_o, .evt_op_o, .evt_src_o,
    .tmo_any_o (tmo_any), .tmo_idx_o (tmo_idx), .tmo_line_o (tmo_line),
    .tmo_x_ent_i (m_x.tmo_ent), .tmo_live_o (tmo_live),
    .tmo_b_ent_i (m_b.tmo_ent), .tmo_src_o (tmo_src), .tmo_tag_o (tmo_tag),
    .tmo_line_b_o (tmo_line_b),
    .snp_ent_i (snp_ent), .snp_line_o (snp_line),
    .lk_go_i (lk_go), .lk_line_i (lk_line), .lk_tag_i (m_l.hdr.tag),
    .lk_region_i (region_of(lk_line)), .lk_inrange_i (lk_inrange), .resv_i (resv),
    .eq_rsp_line_i (rs_line), .eq_req_line_i (rq_line),
    .eq_cmd_line_i (cm_line), .eq_rsp_i (rs_valid), .eq_cmd_first_i (cmd_first),
    .lk_o (lk_l),
    .evt_pending_o (evt_pending), .tmo_flag_o (tmo_flag), .park_o, .park_near_o,
    .park_new_o (park_new)
  );

  // ---- directory word ---------------------------------------------------------------------------
  // Read at the take; the decision reads the RAM's output (without Pipelined), or a register
  // behind it loaded as the message leaves R (so the decision starts from a flip-flop).
  logic [DirW-1:0] dir_d, dir_rd;  // dir_rd: the word read (on chip, or a DRAM line's frame)
  cni_pipe_reg #(.Width(DirW), .Reg(P)) u_dir_d (.clk_i, .rst_ni, .en_i(adv), .d_i(dir_rd), .q_o(dir_d));
  logic [DirW-1:0] dir_x, dir_b;
  cni_pipe_reg #(.Width(DirW), .Reg(P)) u_dir_x (.clk_i, .rst_ni, .en_i(adv), .d_i(dir_d), .q_o(dir_x));
  cni_pipe_reg #(.Width(DirW), .Reg(P)) u_dir_b (.clk_i, .rst_ni, .en_i(adv), .d_i(dir_x), .q_o(dir_b));

  // The conditions (D) depend on the message, the lookup and the directory word only, so with
  // `Pipelined` they are registered into X and again into B; without, they are the wires. (A CSR
  // change then counts one cycle later.)
  hlp_t hn, hl, hb;
  cni_pipe_reg #(.Width($bits(hn)), .Reg(P)) u_h_x (.clk_i, .rst_ni, .en_i(adv), .d_i(hn), .q_o(hl));
  cni_pipe_reg #(.Width($bits(hn)), .Reg(P)) u_h_b (.clk_i, .rst_ni, .en_i(adv), .d_i(hl), .q_o(hb));

  // The row (X) and the counters it pulses: registered into B with `Pipelined`.
  row_e              r_row, b_row;
  logic [NumCnt-1:0] r_cnt, b_cnt;
  cni_pipe_reg #(.Width($bits(r_row)), .Reg(P)) u_row_b (.clk_i, .rst_ni, .en_i(adv), .d_i(r_row), .q_o(b_row));
  cni_pipe_reg #(.Width(NumCnt), .Reg(P)) u_cnt_b (.clk_i, .rst_ni, .en_i(adv), .d_i(r_cnt), .q_o(b_cnt));

  // ---- the decision (D, X, B) -------------------------------------------------------------------
  // The conditions, the row and the row's answer (`cni_home_decide`, a pure function), each step
  // fed by its stage: the conditions registered into X and again into B, the row and its
  // counters into B, the record into C (Pipelined; without, all wires of D). A timeout's entry is
  // re-checked in X (a PARK entry still past its deadline) and read in B (its requester, line).
  cni_home_decide #(
    .LineBytes (LineBytes), .NumAgents (NumAgents), .DevBase (DevBase), .TtEntries (TtEntries),
    .LineIdxW (LineIdxW), .SlotW (SlotW), .NumCnt (NumCnt)
  ) u_decide (
    .agent_id_i, .cfg_ret_excl_i,
    .m_d_i (m_d), .lk_d_i (lk_d), .dir_d_i (dir_d), .hn_o (hn),
    .m_x_i (m_x), .lk_x_i (lk_x), .dir_x_i (dir_x), .hl_i (hl), .tmo_live_i (tmo_live),
    .row_o (r_row), .cnt_o (r_cnt),
    .m_b_i (m_b), .lk_b_i (lk_b), .dir_b_i (dir_b), .hb_i (hb), .row_b_i (b_row),
    .cnt_b_i (b_cnt), .tmo_src_i (tmo_src), .tmo_tag_i (tmo_tag), .tmo_line_i (tmo_line_b),
    .dec_o (x)
  );

  // ---- the decision applied (C) -----------------------------------------------------------------
  cni_pipe_reg #(.Width($bits(x)), .Reg(P)) u_dec_c (.clk_i, .rst_ni, .en_i(adv), .d_i(x), .q_o(e));
  assign e_mem_we    = e.mem_we;
  assign e_alloc_idx = e.alloc_idx;
  assign e_rsv       = e.rsv;
  assign e_alloc     = e.alloc;

  // ---- snoops (cni_home_snoop): one FWD per agent of each job, in the order the jobs came ------
  localparam int JobW = cni_coh_pkg::home_job_w(NumAgents, TtW);
  logic [JobW-1:0] job_in;
  logic job_push, job_room, snp_fire, snp_idle;
  cni_home_snoop #(
    .LineBytes (LineBytes), .NumAgents (NumAgents), .DevBase (DevBase), .TtEntries (TtEntries),
    .LineIdxW (LineIdxW), .SlotW (SlotW), .NumCnt (NumCnt)
  ) u_snp (
    .clk_i, .rst_ni, .agent_id_i,
    .job_push_i (job_push), .job_i (job_in), .job_room_o (job_room),
    .ofwd_valid_o, .ofwd_ready_i, .ofwd_hdr_o, .ofwd_hold_i,
    .ent_o (snp_ent), .line_i (snp_line), .fire_o (snp_fire), .idle_o (snp_idle)
  );

  // ---- answers (cni_home_out): sent at once, or through the output queue (Pipelined) ----------
  logic                q_valid;   // an answer waits in the output queue
  logic [SlotW-1:0]    f_slot;    // the answer leaving now: its data slot (Pipelined)
  logic                f_data_msg;  // ... its DAT data is the message's, else the memory's
  cni_home_out #(
    .LineBytes (LineBytes), .NumAgents (NumAgents), .DevBase (DevBase), .TtEntries (TtEntries),
    .Pipelined (Pipelined), .LineIdxW (LineIdxW), .SlotW (SlotW), .NumCnt (NumCnt), .OutQ (OutQ)
  ) u_out (
    .clk_i, .rst_ni,
    .c_valid_i (v_c), .m_c_i (m_c), .e_i (e), .st_valid_i ({v_c, v_b, v_x, v_d, v_r}),
    .take_i (take), .commit_o (e_commit), .cred_ok_o (cred_ok),
    .job_push_o (job_push), .job_o (job_in), .job_room_i (job_room),
    .orsp_valid_o, .orsp_ready_i, .orsp_hdr_o, .odat_valid_o, .odat_ready_i, .odat_hdr_o,
    .f_slot_o (f_slot), .f_data_msg_o (f_data_msg), .q_valid_o (q_valid)
  );
  assign apply = v_c && e_commit;

  // Input handshakes: link messages when taken, a command when applied.
  assign cmd_ready_o = apply && m_c.src == SRC_CMD && e.pop;

  // ---- line-wide data (cni_home_data) --------------------------------------------------------
  logic                ma_rd_q, ma_wr_q;  // Pipelined: the memory read in R; a write after C
  logic [LineIdxW-1:0] ma_wline_q;
  logic [LineBits-1:0] f_data;
  cni_home_data #(.LineBytes (LineBytes), .Pipelined (Pipelined), .LineIdxW (LineIdxW),
                  .SlotW (SlotW)) u_data (
    .clk_i, .rst_ni, .take_i (take), .rd_i (t_rd), .adv_i (adv), .apply_i (apply),
    .mem_we_i (e.mem_we), .r_slot_i (m_r.slot), .c_slot_i (m_c.slot), .c_line_i (m_c.line),
    .in_data_i (in_data), .mem_rd_i (mem_rd), .f_slot_i (f_slot), .f_data_msg_i (f_data_msg),
    .slot_o (slot_q), .f_data_o (f_data), .wr_line_o (wr_line), .ma_rd_o (ma_rd_q),
    .ma_wr_o (ma_wr_q), .ma_wline_o (ma_wline_q)
  );

  // the directory RAM of the on-chip lines and the init sweep
  cni_home_dir #(.DirW (DirW), .NumLines (NumLines), .LineIdxW (LineIdxW)) u_dir (
    .clk_i, .rst_ni, .re_i (dir_re), .raddr_i (dir_raddr), .rd_o (dir_rd_q), .we_i (dir_we),
    .waddr_i (m_c.line), .wd_i (e.dir_wd), .init_run_o (init_run_q), .init_line_o (init_q)
  );

  // ---- RAM ports ----------------------------------------------------------------------------
  // Directory: read in every cycle the pipeline advances (at the take's line; what is read for a
  // message not taken is not used), written when a decision is applied.
  // Memory, without Pipelined: read at the take, written in the cycle a decision is applied
  // (the two never meet: `wr_c` in the take); with it, driven from flip-flops: the read in R
  // (`ma_rd_q`, registered at the take, with the line's range check), the init sweep's flag,
  // and a decision's write in the cycle after it is applied (`ma_wr_q`, with the line and the
  // data registered beside it). A write lands one cycle after its decision: the next reader of
  // the line is a later message's R (the interlock keeps it behind), or the PIO engine after the
  // event the decision raises, which it acts on through its event and request registers three
  // cycles or more later.
  logic                m_en, m_we;  // port A's access, to the on-chip RAM or a frame
  logic [LineIdxW-1:0] m_addr;
  always_comb begin
    dir_re    = adv;
    dir_raddr = sel_line;
    dir_we    = apply && e.dir_we && !dram(m_c.line);  // (the sweep's writes: cni_home_dir)
    if (P) begin
      m_en        = init_run_q || ma_rd_q || ma_wr_q;
      m_we        = !ma_rd_q;
      m_addr      = init_run_q ? init_q : ma_rd_q ? m_r.line : ma_wline_q;
    end else begin
      m_en        = init_run_q || (apply && e.mem_we) || (take && t_rd);
      m_we        = init_run_q || (apply && e.mem_we);
      m_addr      = init_run_q ? init_q : m_we ? m_c.line : sel_line;
    end
    mem_en_o    = m_en && !dram(m_addr);
    mem_we_o    = m_we;
    mem_addr_o  = m_addr;
    mem_wdata_o = init_run_q ? '0 : wr_line;
  end

  // ---- DRAM-backed lines (DramIdxW; docs/dram.md): cni_home_dram ---------------------------
  cni_home_dram #(
    .LineBytes (LineBytes), .NumAgents (NumAgents), .LineIdxW (LineIdxW), .DramIdxW (DramIdxW),
    .FrameW (FrameW), .DramAddrW (DramAddrW), .DramBase (DramBase)
  ) u_dram (
    .clk_i, .rst_ni,
    .sel_any_i (sel_any), .sel_line_i (sel_line), .absent_o (absent), .take_i (take),
    .rsv_valid_o (rsv_valid), .rsv_line_o (rsv_line), .rsv_held_i (rsv_held),
    .init_run_i (init_run_q),
    .d_valid_i (v_d), .d_line_i (m_d.line),
    .m_en_i (m_en), .m_we_i (m_we), .m_addr_i (m_addr), .m_wdata_i (mem_wdata_o),
    .mem_rdata_i, .mem_rd_o (mem_rd),
    .dir_re_i (dir_re), .dir_rd_q_i (dir_rd_q), .dir_rd_o (dir_rd),
    .dir_we_i (apply && e.dir_we), .dir_wline_i (m_c.line), .dir_wd_i (e.dir_wd),
    .m_axi_arvalid_o, .m_axi_arready_i, .m_axi_araddr_o, .m_axi_arlen_o, .m_axi_arsize_o,
    .m_axi_arburst_o, .m_axi_rvalid_i, .m_axi_rready_o, .m_axi_rdata_i, .m_axi_rresp_i,
    .m_axi_rlast_i, .m_axi_awvalid_o, .m_axi_awready_i, .m_axi_awaddr_o, .m_axi_awlen_o,
    .m_axi_awsize_o, .m_axi_awburst_o, .m_axi_wvalid_o, .m_axi_wready_i, .m_axi_wdata_o,
    .m_axi_wstrb_o, .m_axi_wlast_o, .m_axi_bvalid_i, .m_axi_bready_o, .m_axi_bresp_i,
    .pb_en_i, .pb_we_i, .pb_line_i, .pb_wdata_i, .pb_gnt_o, .pb_rdata_o,
    .dram_cnt_o, .dram_err_o, .ready_o (dram_ready), .idle_o (dram_idle)
  );

  // ---- outputs --------------------------------------------------------------------------------
  assign odat_data_o  = f_data;

  // Counter pulses: decisions plus one per snoop sent.
  always_comb begin
    cnt_o = '0;
    if (apply) cnt_o = e.cnt;
    if (snp_fire) cnt_o[CNT_SNOOP] = 1'b1;
  end

  assign init_done_o = !init_run_q && dram_ready;

  // Quiescence (docs/endpoint.md, "Quiescence"): no message in the pipeline, the output queue
  // or at an input, no event or snoop to send, no timeout flagged, no memory access pending.
  // Then only a message, a command or a park timer changes the state (the registers loaded in
  // every cycle hold nothing a later message reads).
  assign idle_o = !init_run_q && pipe_empty && !q_valid && !rq_valid && !rs_valid &&
                  !cmd_busy && !evt_pending && !tmo_flag && !tmo_any &&
                  snp_idle && !ma_rd_q && !ma_wr_q && !park_new && dram_idle;

  // ---- checks ---------------------------------------------------------------------------------
  // The interlock's promise: no two messages in flight name one line; a write and a read never
  // share the memory's port (Pipelined); the reservations (Pipelined: a register) are those of
  // the messages in D, X, B and C. (The table checks its own entries: cni_home_table.)
  wire chk_port  = !(ma_rd_q && ma_wr_q);
`ifdef SYNTHESIS
`else
  logic [TtEntries-1:0] resv_ref;
  always_comb begin
    resv_ref = resv;
    if (P) begin
      resv_ref = '0;
      if (v_d && m_d.may_alloc && lk_d.free_any) resv_ref = resv_ref | onehot(lk_d.free_idx);
      if (v_x && m_x.may_alloc && lk_x.free_any) resv_ref = resv_ref | onehot(lk_x.free_idx);
      if (v_b && m_b.may_alloc && lk_b.free_any) resv_ref = resv_ref | onehot(lk_b.free_idx);
      if (v_c && e_rsv) resv_ref = resv_ref | onehot(e_alloc_idx);
    end
  end
  wire chk_resv = resv == resv_ref;  // (the formal harness probes it: p_resv)
`endif
  `CNI_ASSERT(Port_A, chk_port, "a memory read meets a write")
  `CNI_ASSERT(Resv_A, chk_resv, "the reservations disagree")

endmodule
