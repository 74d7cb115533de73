// SPDX-License-Identifier: Apache-2.0
// The home agent's take (docs/endpoint.md, "Pipeline", stage T): its three inputs (snoop answers,
// requests, engine commands) and a park timeout; which one is taken this cycle (a one-hot
// choice by priority), the line interlock that holds a message back while one on its line is in
// flight or its memory read would meet the apply stage's write, the address decode and range
// check, and the message record the take starts down the pipeline. Without Pipelined the inputs
// are the agent's ports and the interlock compares the one stage in flight (D) in the take's
// cycle; with it, each input is a head register with its compares as flip-flops
// (`cni_home_head`), so a message is taken the cycle after it arrives.
//
// Parameters:
//   LineBytes, NumAgents, DevBase, TtEntries, Pipelined - as cni_home_agent's
//   NumLines             - lines of on-chip memory (the decode's range check)
//   DramIdxW             - 0, or the DRAM line index bits: lines 2**DramIdxW on are DRAM lines
//                          (cni_home_agent's DRAM-backed lines), all in range
//   LineIdxW, SlotW, NumCnt - as cni_home_decide's (the shared records' widths)
// Ports:
//   req_*, rsp_*, cmd_*  - the agent's inputs (req_ready_o, rsp_ready_o: the link channels'
//                          handshakes; a command is consumed when applied: cmd_pop_i)
//   tmo_any_i, tmo_idx_i, tmo_line_i - a park timer has run out: its entry and line (the table)
//   st_valid_i, st_line_i - the stages behind the take (R, D, X, B, C; R first): valid, line
//   pipe_empty_i         - no stage holds a message (a timeout is taken only then)
//   adv_i, init_run_i, cred_ok_i - the pipeline advances; the init sweep runs; the output queue
//                          has a place (a message is taken only with all three as they must be)
//   wr_c_i               - the apply stage writes the memory (a read must not meet it)
//   slot_i               - the data slot of the next message taken (Pipelined)
//   r_src_i, r_addr_i    - the message in R: its source and address (Pipelined: checked there)
//   defer_i, cmd_done_i  - an applied RECALL had to wait; a command was applied
//   absent_i             - the selected message's DRAM line is not in its frame (not taken)
//   rsv_valid_i, rsv_line_i - a frame was just filled for this line (cni_home_dram): the input
//                          that names it goes first; rsv_held_o: an input names it
//   take_o               - a message is taken (which input: take_* inside, the formal harness
//                          probes them)
//   sel_any_o, sel_line_o - an input is selected; its line (the directory's read address)
//   m_t_o                - the record of the selected message (msg_t)
//   rd_o                 - the selected message reads the memory (Pipelined: a line it has)
//   in_data_o            - the line of data at the inputs (the response channel's first, but
//                          for a request taken ahead of it: rsv_valid_i)
//   rq_valid_o, rs_valid_o, rq_line_o, rs_line_o, cm_line_o - the inputs as the take sees them
//   cmd_first_o          - a command goes before the requests (the selection's priority)
//   cmd_busy_o           - a command is in the pipeline
//   lk_inrange_o         - the lookup stage's message names a device line
`default_nettype none

module cni_home_take #(
  parameter int          LineBytes = 128,
  parameter int          NumAgents = 16,
  parameter logic [47:0] DevBase   = 48'h10_0000_0000,
  parameter int          TtEntries = 32,
  parameter int          Pipelined = 0,
  parameter int          NumLines  = 256,
  parameter int          DramIdxW  = 0,
  parameter int          LineIdxW  = 8,
  parameter int          SlotW     = 4,
  parameter int          NumCnt    = 16,
  localparam int LineBits = LineBytes * 8,
  localparam int TtW  = $clog2(TtEntries),
  localparam int MsgW = cni_coh_pkg::home_msg_w(LineIdxW, TtW, SlotW)
) (
  input  wire logic                          clk_i,
  input  wire logic                          rst_ni,
  input  wire logic                          req_valid_i,
  output logic                               req_ready_o,
  input  wire cni_coh_pkg::hdr_t             req_hdr_i,
  input  wire logic [LineBits-1:0]           req_data_i,
  input  wire logic                          rsp_valid_i,
  output logic                               rsp_ready_o,
  input  wire cni_coh_pkg::hdr_t             rsp_hdr_i,
  input  wire logic [LineBits-1:0]           rsp_data_i,
  input  wire logic                          cmd_valid_i,
  input  wire logic [cni_coh_pkg::CMD_W-1:0] cmd_op_i,
  input  wire logic [cni_coh_pkg::ARG_W-1:0] cmd_arg_i,
  input  wire logic [LineIdxW-1:0]           cmd_line_i,
  input  wire logic                          tmo_any_i,
  input  wire logic [TtW-1:0]                tmo_idx_i,
  input  wire logic [LineIdxW-1:0]           tmo_line_i,
  input  wire logic                          pipe_empty_i,
  input  wire logic                          adv_i,
  input  wire logic                          init_run_i,
  input  wire logic                          cred_ok_i,
  input  wire logic                          wr_c_i,
  input  wire logic [SlotW-1:0]              slot_i,
  // (without Pipelined: of the stages only D's valid and line; the rest is Pipelined's)
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic                          cmd_pop_i,
  input  wire logic [4:0]                    st_valid_i,
  input  wire logic [5*LineIdxW-1:0]         st_line_i,
  input  wire logic [1:0]                    r_src_i,
  input  wire logic [47:0]                   r_addr_i,
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic                          defer_i,
  input  wire logic                          cmd_done_i,
  input  wire logic                          absent_i,
  input  wire logic                          rsv_valid_i,
  input  wire logic [LineIdxW-1:0]           rsv_line_i,
  output logic                               rsv_held_o,
  output logic                               take_o,
  output logic                               sel_any_o,
  output logic [LineIdxW-1:0]                sel_line_o,
  output logic [MsgW-1:0]                    m_t_o,
  output logic                               rd_o,
  output logic [LineBits-1:0]                in_data_o,
  output logic                               rq_valid_o,
  output logic                               rs_valid_o,
  output logic [LineIdxW-1:0]                rq_line_o,
  output logic [LineIdxW-1:0]                rs_line_o,
  output logic [LineIdxW-1:0]                cm_line_o,
  output logic                               cmd_first_o,
  output logic                               cmd_busy_o,
  output logic                               lk_inrange_o
);

  `include "cni_home_types.svh"

  localparam int SpanW = LineIdxW + OffW;     // address bits of the device window
  localparam bit P     = Pipelined != 0;

  // a DRAM line (the top bit of the line index, with DramIdxW)
  function automatic logic dram(input logic [LineIdxW-1:0] line);
    dram = DramIdxW > 0 && line[LineIdxW-1];
  endfunction

  // ---- address decode of an incoming header -------------------------------------------------
  // DevBase is aligned to the window (the agent's elaboration check), so the decode needs no
  // subtraction: the bits above the window must equal DevBase's and the line index must be below
  // NumLines, or a DRAM line's (DramIdxW).
  function automatic logic [LineIdxW:0] decode(input logic [47:0] addr);
    logic [LineIdxW-1:0] line;
    line   = addr[OffW +: LineIdxW];
    decode = '0;
    // (compared at 32 bits: NumLines may be 2^LineIdxW, which LineIdxW bits cannot hold)
    if (addr[47:SpanW] == DevBase[47:SpanW] && (32'(line) < 32'(NumLines) || dram(line)) &&
        addr[OffW-1:0] == '0) begin
      decode = {1'b1, line};
    end
  endfunction

  // Commands and timeouts name a device line; requests and snoop answers if their header
  // decodes to one.
  function automatic logic in_range(input logic [1:0] src, input logic dec_ok);
    in_range = src == SRC_CMD || src == SRC_TMO ||
               ((src == SRC_REQ || src == SRC_RSP) && dec_ok);
  endfunction

  logic                take, take_rsp_go, take_req_go, take_cmd_go;  // the take of each input
  logic                cmd_defer_q;  // a RECALL had to wait: requests first until one is taken
  logic                cmd_busy_q;   // a command is in the pipeline (taken when applied)
  logic                sel_any;
  cni_coh_pkg::hdr_t   sel_hdr;
  logic [LineIdxW:0]   sel_dec;
  logic [LineIdxW-1:0] sel_line;
  logic                take_tmo, take_rsp, take_cmd, take_req;  // the selection (one-hot)
  logic [1:0]          sel_src;
  // The inputs as the take sees them. Without Pipelined, the ports. With it, a head register per
  // link channel and the command port's compares (`cni_home_head`): a message is taken the cycle
  // after it arrives, and the line interlock is a flip-flop per stage.
  logic                rq_valid, rs_valid, cm_valid;
  logic [LineIdxW-1:0] cm_line;  // the command's line (Pipelined: a flip-flop, the head's)
  logic                busy_rsp, busy_req, busy_cmd;  // the input's line is in flight
  logic                rs_w, rq_w;  // the head writes the memory (snoop data, a write-back)
  cni_coh_pkg::hdr_t   rq_hdr, rs_hdr;
  logic [LineBits-1:0] rq_data, rs_data;
  if (P) begin : g_heads
    // a message: whether it writes the memory (worked out as it arrives, so the take reads a
    // flip-flop), its header, its line of data
    localparam int MsgInW = 1 + cni_coh_pkg::HDR_W + LineBits;
    // the selection per source and each source's line (what `sel_line` selects among). A
    // timeout counts as on every line (`Every`): its line is read out of the table, and the
    // heads' compares would sit behind that read. It is taken with the pipeline empty, and the
    // inputs wait the five cycles it is in flight (it is rare: a parked request's Retry).
    localparam logic [3:0] EveryTmo = 4'b0100;
    logic [3:0]            src_sel;
    logic [4*LineIdxW-1:0] src_line;
    assign src_sel  = {take_cmd, take_tmo, take_req, take_rsp};
    assign src_line = {cm_line, LineIdxW'(0), rq_hdr.addr[OffW +: LineIdxW],
                       rs_hdr.addr[OffW +: LineIdxW]};
    /* verilator lint_off UNUSEDSIGNAL */
    logic                    cm_ready_unused;
    /* verilator lint_on UNUSEDSIGNAL */
    cni_home_head #(.Width(MsgInW), .LineW(LineIdxW), .Stages(5), .Buffer(1'b1), .Src(1),
                    .DataW(LineBits), .Every(EveryTmo)) u_req (
      .clk_i, .rst_ni,
      .in_valid_i (req_valid_i), .in_ready_o (req_ready_o),
      .in_data_i  ({req_hdr_i.op == cni_coh_pkg::OP_WB, req_hdr_i, req_data_i}),
      .in_line_i  (req_hdr_i.addr[OffW +: LineIdxW]),
      /* verilator lint_off PINCONNECTEMPTY */
      .out_valid_o (rq_valid), .out_data_o ({rq_w, rq_hdr, rq_data}), .out_line_o (),
      /* verilator lint_on PINCONNECTEMPTY */
      .busy_o (busy_req), .pop_i (take_req_go),
      .take_i (take), .sel_i (src_sel), .take_line_i (src_line), .st_valid_i,
      .st_line_i
    );
    cni_home_head #(.Width(MsgInW), .LineW(LineIdxW), .Stages(5), .Buffer(1'b1), .Src(0),
                    .DataW(LineBits), .Every(EveryTmo)) u_rsp (
      .clk_i, .rst_ni,
      .in_valid_i (rsp_valid_i), .in_ready_o (rsp_ready_o),
      .in_data_i  ({rsp_hdr_i.op == cni_coh_pkg::OP_SNP_DATA, rsp_hdr_i, rsp_data_i}),
      .in_line_i  (rsp_hdr_i.addr[OffW +: LineIdxW]),
      /* verilator lint_off PINCONNECTEMPTY */
      .out_valid_o (rs_valid), .out_data_o ({rs_w, rs_hdr, rs_data}), .out_line_o (),
      /* verilator lint_on PINCONNECTEMPTY */
      .busy_o (busy_rsp), .pop_i (take_rsp_go),
      .take_i (take), .sel_i (src_sel), .take_line_i (src_line), .st_valid_i,
      .st_line_i
    );
    // a command stays at its port until it is applied (cmd_pop_i)
    cni_home_head #(.Width(1), .LineW(LineIdxW), .Stages(5), .Buffer(1'b0),
                    .Every(EveryTmo)) u_cmd (
      .clk_i, .rst_ni,
      .in_valid_i (cmd_valid_i), .in_ready_o (cm_ready_unused), .in_data_i (1'b0),
      .in_line_i  (cmd_line_i),
      /* verilator lint_off PINCONNECTEMPTY */
      .out_valid_o (cm_valid), .out_data_o (), .out_line_o (cm_line),
      /* verilator lint_on PINCONNECTEMPTY */
      .busy_o (busy_cmd), .pop_i (cmd_pop_i),
      .take_i (take), .sel_i (src_sel), .take_line_i (src_line), .st_valid_i,
      .st_line_i
    );
  end else begin : g_ports
    assign rq_valid    = req_valid_i;
    assign rq_hdr      = req_hdr_i;
    assign rq_data     = req_data_i;
    assign rs_valid    = rsp_valid_i;
    assign rs_hdr      = rsp_hdr_i;
    assign rs_data     = rsp_data_i;
    assign rq_w        = req_hdr_i.op == cni_coh_pkg::OP_WB;
    assign rs_w        = rsp_hdr_i.op == cni_coh_pkg::OP_SNP_DATA;
    assign cm_valid    = cmd_valid_i;
    assign cm_line     = cmd_line_i;
    assign req_ready_o = take_req_go;
    assign rsp_ready_o = take_rsp_go;
  end

  // Snoop answers and requests name a device line; each channel decodes its own header, in
  // parallel with the selection.
  wire  [LineIdxW:0]   rsp_dec = decode(rs_hdr.addr);
  wire  [LineIdxW:0]   req_dec = decode(rq_hdr.addr);
  wire                 cmd_avail = cm_valid && !cmd_busy_q;

  // The choice is one-hot (`take_*`, the priority below), each a function of the valid flags
  // and registers, and the header, the decode and the line are AND-OR terms of the channels'
  // heads under it. Priority: a timeout, the response channel, a command not deferred,
  // requests, a deferred command (a RECALL that had to wait, until a request is taken). A
  // timeout waits until the pipeline is empty (it is rare; the
  // entry it answers is then changed by nothing else in flight), and nothing is taken
  // meanwhile. A command is taken when no other command is in flight (it is consumed when it is
  // applied: a RECALL that must wait stays at the engine's port).
  // A frame just filled for a DRAM line (cni_home_dram) is kept for it: the input that names the
  // line goes ahead of the priority order (else a message of higher priority on another line of
  // the frame could take the frame back before it is taken, over and over), once: the
  // reservation ends when that message is taken, or when no input names the line.
  wire rs_rsv  = rsv_valid_i && rs_valid && rsp_dec == {1'b1, rsv_line_i};
  wire rq_rsv  = rsv_valid_i && rq_valid && req_dec == {1'b1, rsv_line_i};
  wire cm_rsv  = rsv_valid_i && cmd_avail && cm_line == rsv_line_i;
  wire tm_rsv  = rsv_valid_i && tmo_any_i && tmo_line_i == rsv_line_i;
  wire rsv_any = rs_rsv || rq_rsv || cm_rsv || tm_rsv;
  assign rsv_held_o = rsv_any;

  always_comb begin
    take_tmo   = tmo_any_i && pipe_empty_i;
    take_rsp   = !tmo_any_i && rs_valid;
    take_cmd   = !tmo_any_i && !rs_valid && cmd_avail && (!cmd_defer_q || !rq_valid);
    take_req   = !tmo_any_i && !rs_valid && !(cmd_avail && !cmd_defer_q) && rq_valid;
    if (rsv_any) begin
      take_tmo = tm_rsv && pipe_empty_i;
      take_rsp = !tm_rsv && rs_rsv;
      take_cmd = !tm_rsv && !rs_rsv && cm_rsv;
      take_req = !tm_rsv && !rs_rsv && !cm_rsv && rq_rsv;
    end
    sel_any    = take_tmo || take_rsp || take_cmd || take_req;
    sel_src    = take_tmo ? SRC_TMO : take_rsp ? SRC_RSP : take_cmd ? SRC_CMD : SRC_REQ;
    sel_hdr    = ({$bits(sel_hdr){take_req}} & rq_hdr) |
                 ({$bits(sel_hdr){take_tmo || take_rsp || take_cmd}} & rs_hdr);
    sel_dec    = ({(LineIdxW + 1){take_rsp}} & rsp_dec) | ({(LineIdxW + 1){take_req}} & req_dec);
    // Pipelined, a header's line is taken as it stands and checked in R (off this path): only
    // messages found in range use it. A timeout names its entry's line.
    if (P) begin
      sel_line = ({LineIdxW{take_cmd}} & cm_line) | ({LineIdxW{take_tmo}} & tmo_line_i) |
                 ({LineIdxW{!take_cmd && !take_tmo}} & sel_hdr.addr[OffW +: LineIdxW]);
    end else begin
      sel_line = take_cmd ? cm_line : take_tmo ? tmo_line_i : sel_dec[LineIdxW-1:0];
    end
  end

  // What the selected message will do to the memory: a write (snoop data, a write-back), or a
  // read for an answer with the memory's line (everything else that names a line).
  wire t_may_write = (take_rsp && rs_w) || (take_req && rq_w);
  wire t_may_alloc = (take_req && rq_hdr.op != cni_coh_pkg::OP_WB) ||
                     (take_cmd && (cmd_op_i == cni_coh_pkg::CMD_RECALL ||
                                   cmd_op_i == cni_coh_pkg::CMD_RECALL_DN));
  if (P) begin : g_rd
    // the taken message reads a line the memory has: each source's line checked on its own,
    // the selection picking the result (no compare behind the line's multiplexer)
    function automatic logic in_mem(input logic [LineIdxW-1:0] l);
      in_mem = 32'(l) < 32'(NumLines) || dram(l);
    endfunction
    assign rd_o = (take_rsp && !rs_w && in_mem(rs_hdr.addr[OffW +: LineIdxW])) ||
                  (take_req && !rq_w && in_mem(rq_hdr.addr[OffW +: LineIdxW])) ||
                  (take_cmd && in_mem(cm_line));
  end else begin : g_rd_d
    assign rd_o = !t_may_write && (take_rsp || take_req || take_cmd);
  end

  // Interlock: the lines of the messages in flight. A stage's line counts while it holds a
  // message; the apply stage's too, since it writes the directory in the cycle T reads it. Each
  // source's line is compared on its own, in parallel with the selection, and the selection
  // picks the result (the compares are not behind the selection's multiplexer).
  // Without Pipelined, the stage in flight (D) is compared in the take's cycle; with it, the
  // inputs' heads carry the compares as flip-flops (`cni_home_head`, above). A timeout is taken
  // only with the pipeline empty.
  if (!P) begin : g_busy
    wire                v_d    = st_valid_i[1];
    wire [LineIdxW-1:0] d_line = st_line_i[LineIdxW +: LineIdxW];
    assign busy_rsp = v_d && d_line == rsp_dec[LineIdxW-1:0];
    assign busy_req = v_d && d_line == req_dec[LineIdxW-1:0];
    assign busy_cmd = v_d && d_line == cm_line;
  end
  // The memory's port A: the apply stage's write (without Pipelined in the cycle it applies,
  // with it in the cycle after) and a taken message's read (the same cycle, or the next) meet
  // when the message in the apply stage writes. The take is worked out per source (its line in
  // flight, or a read meeting that write) and the selection picks one, so each input's terms
  // start at flip-flops (the heads' busy and write flags), not behind the selection.
  wire blk_rsp = busy_rsp || (wr_c_i && !rs_w);
  wire blk_req = busy_req || (wr_c_i && !rq_w);
  wire blk_cmd = busy_cmd || wr_c_i;
  // Each input's take on its own (the selection is one-hot), so an input head's pop starts at
  // its own few flip-flops rather than behind the whole take.
  wire go = adv_i && !init_run_i && cred_ok_i && !absent_i;
  assign take_rsp_go = go && take_rsp && !blk_rsp;
  assign take_req_go = go && take_req && !blk_req;
  assign take_cmd_go = go && take_cmd && !blk_cmd;
  assign take = (go && take_tmo) || take_rsp_go || take_req_go || take_cmd_go;

  msg_t m_t;
  always_comb begin
    m_t           = '0;
    m_t.src       = sel_src;
    m_t.hdr       = sel_hdr;
    m_t.cmd       = cmd_op_i;
    m_t.arg       = cmd_arg_i;
    m_t.line      = sel_line;
    m_t.tmo_ent   = tmo_idx_i;
    m_t.slot      = slot_i;
    m_t.may_write = t_may_write;
    m_t.may_alloc = t_may_alloc;
  end

  // The lookup stage's message names a device line: Pipelined, the message in R, its address
  // checked there; without, the selection.
  wire [LineIdxW:0] r_dec = decode(r_addr_i);
  assign lk_inrange_o = P ? in_range(r_src_i, r_dec[LineIdxW]) : in_range(sel_src, sel_dec[LineIdxW]);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cmd_defer_q <= 1'b0;
      cmd_busy_q  <= 1'b0;
    end else begin
      // a deferred RECALL gets its turn again once a request has been taken (a snoop answer or
      // a timeout taken meanwhile does not use up the requests' turn: the request waiting may
      // be the write-back that closes the transaction the RECALL waits for)
      if (take && take_req) cmd_defer_q <= 1'b0;
      if (defer_i) cmd_defer_q <= 1'b1;
      if (take && take_cmd) cmd_busy_q <= 1'b1;
      else if (cmd_done_i) cmd_busy_q <= 1'b0;
    end
  end

  assign take_o       = take;
  assign sel_any_o    = sel_any;
  assign sel_line_o   = sel_line;
  assign m_t_o        = m_t;
  // (the response channel's first, but for a request taken ahead of it for its reserved frame)
  assign in_data_o    = (rs_valid && !(rsv_any && take_req)) ? rs_data : rq_data;
  assign rq_valid_o   = rq_valid;
  assign rs_valid_o   = rs_valid;
  assign rq_line_o    = rq_hdr.addr[OffW +: LineIdxW];
  assign rs_line_o    = rs_hdr.addr[OffW +: LineIdxW];
  assign cm_line_o    = cm_line;
  assign cmd_first_o  = cmd_avail && (!cmd_defer_q || !rq_valid);
  assign cmd_busy_o   = cmd_busy_q;

endmodule
