// SPDX-License-Identifier: Apache-2.0
// PIO engine: runs the three coherent PIO protocols ((a) CPU->device, (b) device->CPU, (c)
// combined invocation) on device-homed line pairs by driving the home agent's delayed-response
// commands (ARM/RECALL/RELEASE) and reacting to its events (TRIGGER/RECALL_DONE). One client of
// the engine bus: the three protocols (cni_pio_c, cni_pio_a, cni_pio_b; (a) and (b) over the
// shared recall-and-count block cni_pio_recall) behind one command arbiter (cni_pio_cmd_arb) and
// one memory-port arbiter, with the event decode and the reset ARMs here.
// See docs/pio.md for the per-pair state tables, message sequences and line layouts.
//
// Parameters:
//   LineBytes        - line size in bytes (power of two, >= 32)
//   LineIdxW         - width of a device line index
//   NetBytes, CacheIdW - the platform's network beat and caching-agent id widths (every
//                      engine's parameters; this engine has neither port)
//   CBase, CPairs    - protocol (c): group 0 lines [CBase, CBase+CPairs), group 1 lines
//                      [CBase+CPairs, CBase+2*CPairs); pair j = (CBase+j, CBase+CPairs+j)
//   ABase, NOvfA     - protocol (a): control lines ABase, ABase+1; overflow ABase+2 .. ABase+1+NOvfA
//   BBase, NOvfB     - protocol (b): same layout at BBase
//   BloomFoldWords   - words the (c) accelerator folds per cycle (cni_bloom FoldWords: fewer
//                      make it smaller and slower; default all, latency 4 cycles)
//   EvtReg           - 1: register the events, and again decoded (FPGA clock rates): every
//                      reaction to an event two cycles later
//   RdReg            - 1: register the memory's read data (FPGA clock rates): every memory
//                      read takes one cycle more
//   ReqReg           - 1: register each channel's memory request and its grant (FPGA clock
//                      rates): every memory access reaches the memory one cycle later, so
//                      every read takes one cycle more
// Ports:
//   clk_i, rst_ni                       - clock, active-low asynchronous reset
//   evt_req_i/evt_rsp_o, cmd_req_o/cmd_rsp_i, mem_req_o/mem_rsp_i, reg_req_i/reg_rsp_o
//                                       - the engine records (cni_engine_types.svh):
//     evt                               - events from the home agent; always ready (every
//                                         event is absorbed into bounded state); the parked
//                                         request's opcode and requester are not needed
//     cmd                               - commands to the home agent; the home may stall; a
//                                         presented command is held until taken (a second
//                                         granted command waits in a skid register, so no
//                                         grant depends on the ready)
//     mem                               - device memory port B, synchronous, read data the cycle
//                                         after a read; with ReqReg the request chooses among
//                                         registers by registered grants; the engine is engine
//                                         0 of the engine bus, whose requests are always
//                                         granted, so it does not look at the grant
//     reg                               - its register window (no registers: reads return 0)
//   pa_valid_o/pa_ready_i, pa_data_o, pa_len_o, pa_last_o
//                                       - (a) messages out, one beat per line of payload, the
//                                         consumer may stall; outputs registered
//   pb_valid_i/pb_ready_o, pb_data_i, pb_len_i, pb_last_i
//                                       - (b) messages in; the engine stalls until a TRIGGER
//                                         has been served up to the data phase
//   cnt_c_invoke_o, cnt_a_msg_o, cnt_b_msg_o
//                                       - one-cycle pulses per finished (c) invocation, (a)
//                                         message, (b) message
//   idle_o                              - nothing happens until an event or a (b) beat
//                                         (docs/endpoint.md, "Quiescence")
`default_nettype none
`include "cni_assert.svh"

module cni_pio_engine #(
  parameter int LineBytes = 128,
  parameter int LineIdxW  = 12,
  /* verilator lint_off UNUSEDPARAM */
  parameter int NetBytes  = 64,    // (the platform's; no network port)
  parameter int CacheIdW  = 4,     // (the platform's; no caching-agent port)
  /* verilator lint_on UNUSEDPARAM */
  parameter int CBase     = 1024,
  parameter int CPairs    = 256,
  parameter int ABase     = 1536,
  parameter int NOvfA     = 76,
  parameter int BBase     = 1614,
  parameter int NOvfB     = 76,
  parameter int BloomFoldWords = LineBytes / 4,
  parameter int EvtReg    = 0,
  parameter int RdReg     = 0,
  parameter int ReqReg    = 0
) (
  input  wire logic                                                 clk_i,
  input  wire logic                                                 rst_ni,
  // the engine records (cni_engine_types.svh)
  input  wire logic [cni_coh_pkg::eng_evt_req_w(LineIdxW)-1:0]      evt_req_i,
  output logic [cni_coh_pkg::ENG_EVT_RSP_W-1:0]                     evt_rsp_o,
  output logic [cni_coh_pkg::eng_cmd_req_w(LineIdxW)-1:0]           cmd_req_o,
  input  wire logic [cni_coh_pkg::ENG_CMD_RSP_W-1:0]                cmd_rsp_i,
  output logic [cni_coh_pkg::eng_mem_req_w(LineIdxW, LineBytes)-1:0] mem_req_o,
  input  wire logic [cni_coh_pkg::eng_mem_rsp_w(LineBytes)-1:0]     mem_rsp_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [cni_coh_pkg::ENG_REG_REQ_W-1:0]                reg_req_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [cni_coh_pkg::ENG_REG_RSP_W-1:0]                     reg_rsp_o,
  // (a) CPU -> device messages out
  output logic                                 pa_valid_o,
  input  wire logic                            pa_ready_i,
  output logic [LineBytes*8-1:0]               pa_data_o,
  output logic [15:0]                          pa_len_o,
  output logic                                 pa_last_o,
  // (b) device -> CPU messages in
  input  wire logic                            pb_valid_i,
  output logic                                 pb_ready_o,
  input  wire logic [LineBytes*8-1:0]          pb_data_i,
  input  wire logic [15:0]                     pb_len_i,
  input  wire logic                            pb_last_i,
  // counters
  output logic                                 cnt_c_invoke_o,
  output logic                                 cnt_a_msg_o,
  output logic                                 cnt_b_msg_o,
  output logic                                 idle_o
);

`include "cni_engine_types.svh"

  // ---- the engine records ---------------------------------------------------------------------
  eng_cmd_req_t cmd;
  eng_cmd_rsp_t cmd_rsp;
  eng_mem_req_t mem;
  /* verilator lint_off UNUSEDSIGNAL */
  eng_evt_req_t evt;      // op, src: not needed
  eng_mem_rsp_t mem_rsp;  // gnt: engine 0 of the engine bus is always granted
  /* verilator lint_on UNUSEDSIGNAL */
  assign evt       = evt_req_i;
  assign cmd_req_o = cmd;
  assign cmd_rsp   = cmd_rsp_i;
  assign mem_req_o = mem;
  assign mem_rsp   = mem_rsp_i;

  // ---- derived constants ----------------------------------------------------------------------
  localparam int DW      = LineBytes * 8;
  localparam int PairW   = (CPairs > 1) ? $clog2(CPairs) : 1;
  localparam int CmdW    = cni_coh_pkg::CMD_W;
  localparam int InitN   = CPairs + 2;                        // reset ARMs: group 0, A, B
  localparam int InitW   = $clog2(InitN + 1);
  localparam int CapA    = (LineBytes - 8) + NOvfA * LineBytes;  // max (a) message bytes
  localparam int CapB    = (LineBytes - 8) + NOvfB * LineBytes;  // max (b) message bytes

  localparam logic [31:0] C_LO  = 32'(CBase);
  localparam logic [31:0] C_MID = 32'(CBase + CPairs);
  localparam logic [31:0] C_HI  = 32'(CBase + 2 * CPairs);
  localparam logic [31:0] A_LO  = 32'(ABase);
  localparam logic [31:0] A_OV  = 32'(ABase + 2);
  localparam logic [31:0] A_HI  = 32'(ABase + 2 + NOvfA);
  localparam logic [31:0] B_LO  = 32'(BBase);
  localparam logic [31:0] B_OV  = 32'(BBase + 2);
  localparam logic [31:0] B_HI  = 32'(BBase + 2 + NOvfB);

  // ---- elaboration checks ---------------------------------------------------------------------
  if (LineBytes < 32 || (LineBytes & (LineBytes - 1)) != 0) begin : g_bad_line
    $error("cni_pio_engine: LineBytes must be a power of two >= 32");
  end
  if (CPairs < 1 || NOvfA < 1 || NOvfB < 1) begin : g_bad_count
    $error("cni_pio_engine: CPairs, NOvfA and NOvfB must be >= 1");
  end
  if (CapA > 65535 || CapB > 65535) begin : g_bad_cap
    $error("cni_pio_engine: (a)/(b) capacity must fit the 16-bit length field");
  end
  if (LineIdxW > 31 || CBase + 2 * CPairs > (1 << LineIdxW) || ABase + 2 + NOvfA > (1 << LineIdxW) ||
      BBase + 2 + NOvfB > (1 << LineIdxW)) begin : g_bad_map
    $error("cni_pio_engine: a region does not fit LineIdxW");
  end
  if ((ABase < CBase + 2 * CPairs && ABase + 2 + NOvfA > CBase) ||
      (BBase < CBase + 2 * CPairs && BBase + 2 + NOvfB > CBase) ||
      (BBase < ABase + 2 + NOvfA && BBase + 2 + NOvfB > ABase)) begin : g_bad_overlap
    $error("cni_pio_engine: regions overlap");
  end

  // ---- event decode ---------------------------------------------------------------------------
  // The event as used: decoded from the inputs, or (EvtReg) from a register behind them, and
  // then registered again decoded. Every event is taken (its ready is 1), so the registers
  // need no handshake of their own.
  typedef struct packed {
    logic                trig, done;
    logic                c, c_g;      // in (c) region; group of the line
    logic [PairW-1:0]    c_j;         // pair index
    logic [CPairs-1:0]   c_oh;        // the same pair, one-hot (0 outside the (c) region)
    logic                a_ctl, a_g, a_ovf;
    logic                b_ctl, b_g, b_ovf;
    logic [LineIdxW-1:0] line;
  } evd_t;

  logic                          ev_valid;
  logic [cni_coh_pkg::EVT_W-1:0] ev_kind;
  logic [LineIdxW-1:0]           ev_line;
  evd_t                          evd, ev;
  cni_pipe_reg #(.Width(1), .Reg(EvtReg != 0), .Reset(1'b1)) u_ev_valid (
    .clk_i, .rst_ni, .en_i(1'b1), .d_i(evt.valid), .q_o(ev_valid));
  cni_pipe_reg #(.Width(cni_coh_pkg::EVT_W + LineIdxW), .Reg(EvtReg != 0)) u_ev_in (
    .clk_i, .rst_ni, .en_i(1'b1), .d_i({evt.kind, evt.line}), .q_o({ev_kind, ev_line}));
  cni_pipe_reg #(.Width($bits(evd)), .Reg(EvtReg != 0), .Reset(1'b1)) u_ev (
    .clk_i, .rst_ni, .en_i(1'b1), .d_i(evd), .q_o(ev));

  always_comb begin
    logic [31:0] l;
    l         = 32'(ev_line);
    evd.trig  = ev_valid && (ev_kind == cni_coh_pkg::EVT_TRIGGER);
    evd.done  = ev_valid && (ev_kind == cni_coh_pkg::EVT_RECALL_DONE);
    evd.c     = (l >= C_LO) && (l < C_HI);
    evd.c_g   = (l >= C_MID);
    evd.c_j   = PairW'(evd.c_g ? (l - C_MID) : (l - C_LO));
    evd.c_oh  = evd.c ? CPairs'(1) << evd.c_j : '0;
    evd.a_ctl = (l == A_LO) || (l == A_LO + 32'd1);
    evd.a_g   = (l == A_LO + 32'd1);
    evd.a_ovf = (l >= A_OV) && (l < A_HI);
    evd.b_ctl = (l == B_LO) || (l == B_LO + 32'd1);
    evd.b_g   = (l == B_LO + 32'd1);
    evd.b_ovf = (l >= B_OV) && (l < B_HI);
    evd.line  = ev_line;
  end

  assign evt_rsp_o = 1'b1;

  // ---- the command arbiter ----------------------------------------------------------------------
  // Priority: the reset ARMs, the completion commands of (c), (a), (b) (ARM/RELEASE: they answer
  // parked host requests), then the RECALLs: (c)'s FIFO, (a), (b). Recalls of a pair are only
  // queued after that pair's RELEASE. Every request comes from registered state.
  localparam int NReq = 7;
  localparam int R_INIT = 0, R_C = 1, R_A = 2, R_B = 3, R_CREC = 4, R_AREC = 5, R_BREC = 6;
  logic [NReq-1:0]          cmd_req, cmd_gnt;
  logic [NReq*CmdW-1:0]     cmd_ops;
  logic [NReq*LineIdxW-1:0] cmd_lines;
  logic                     init_req, c_creq, a_creq, b_creq, crec_req, a_rreq, b_rreq;
  logic [CmdW-1:0]          c_cop, a_cop, b_cop;
  logic                     arb_idle, c_idle, a_idle, b_idle;
  logic                     arb_valid;
  logic [CmdW-1:0]          arb_op;
  logic [LineIdxW-1:0]      arb_line;
  logic [LineIdxW-1:0]      init_line, c_cline, a_cline, b_cline, crec_line, a_rline, b_rline;
  assign cmd_req   = {b_rreq, a_rreq, crec_req, b_creq, a_creq, c_creq, init_req};
  assign cmd_ops   = {cni_coh_pkg::CMD_RECALL, cni_coh_pkg::CMD_RECALL, cni_coh_pkg::CMD_RECALL,
                      b_cop, a_cop, c_cop, cni_coh_pkg::CMD_ARM};
  assign cmd_lines = {b_rline, a_rline, crec_line, b_cline, a_cline, c_cline, init_line};

  cni_pio_cmd_arb #(.N(NReq), .LineIdxW(LineIdxW)) u_cmd (
    .clk_i, .rst_ni,
    .req_i (cmd_req), .op_i (cmd_ops), .line_i (cmd_lines), .gnt_o (cmd_gnt),
    .cmd_valid_o (arb_valid), .cmd_ready_i (cmd_rsp.ready), .cmd_op_o (arb_op),
    .cmd_line_o (arb_line), .idle_o (arb_idle)
  );
  always_comb begin
    cmd.valid = arb_valid;
    cmd.op    = arb_op;
    cmd.arg   = '0;  // ARM, RECALL, RELEASE: no argument
    cmd.line  = arb_line;
  end
  assign reg_rsp_o = '0;  // no registers

  // Memory port B. Priority: C > B > A (all requests are registered-state based).
  logic                c_mreq, c_mwe, b_mreq, a_mreq, a_mwe;
  logic [LineIdxW-1:0] c_maddr, b_maddr, a_maddr;
  logic [DW-1:0]       c_mwdata, b_mwdata, a_mwdata;
  logic                c_mgnt, b_mgnt, a_mgnt;

  // With ReqReg, a (b) request granted in the cycle (c) asks waits in its register while (c)'s
  // takes the port (`b_hold`, below), so (b) is granted whenever that register is not holding, a
  // condition of two flip-flops: neither (b)'s beat handshake nor its line-wide beat register
  // waits for (c)'s request. (a) is granted only when neither (c) nor (b) uses the port next.
  logic b_hold;

  assign c_mgnt = c_mreq;
  assign b_mgnt = b_mreq && ((ReqReg != 0) ? !b_hold : !c_mreq);
  assign a_mgnt = a_mreq && !c_mreq && !b_mreq && !b_hold;

  // Read data as used: the port's output, or (RdReg) a register behind it. A read's data is
  // there RdWait = 1 + RdReg + ReqReg cycles after the request; the states that wait for read
  // data count the cycles past the first (`*_rd_ok`).
  localparam int RdWait = 1 + ((RdReg != 0) ? 1 : 0) + ((ReqReg != 0) ? 1 : 0);
  logic [DW-1:0] mem_rd;


  // The request: chosen by the priority and sent to the port directly, or (ReqReg) through
  // registers, so the block RAMs' address and data start from flip-flops. With ReqReg each
  // channel's request is registered beside a record of its grant, and the choice is made behind
  // the registers: neither a line-wide register's enable nor a select of the choice then depends
  // on the arbitration. (c) and (a) register theirs every cycle (no enable); (b)'s register
  // holds a write that (c) keeps from the port (`b_hold`: (c) never asks in two cycles in a row,
  // so for one cycle) and loads in every other cycle. The engine reads its own writes: (a) and
  // (c) requests keep their order, and (b) writes only (b) lines, which the engine never reads.
  // The home agent reads a line the engine wrote only after a command the engine gives in or
  // after the cycle the write's request was granted ((c), (a)), or two cycles or more after it
  // ((b): its RELEASE follows its ARM), and a command takes more than one cycle to reach the
  // home's memory read, so every write is in memory by then. `s_*`: what the choice sees, the
  // requests as they are or those registers.
  logic                s_c, s_b, s_a, s_cwe, s_awe;
  logic [LineIdxW-1:0] s_caddr, s_baddr, s_aaddr;
  logic [DW-1:0]       s_cwd, s_bwd, s_awd;

  if (ReqReg != 0) begin : g_req_reg
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        s_c <= 1'b0;
        s_b <= 1'b0;
        s_a <= 1'b0;
      end else begin
        s_c <= c_mgnt;
        s_b <= b_mgnt || b_hold;
        s_a <= a_mgnt;
      end
    end
    always_ff @(posedge clk_i) begin
      s_cwe   <= c_mwe;
      s_awe   <= a_mwe;
      s_caddr <= c_maddr;
      s_aaddr <= a_maddr;
      s_cwd   <= c_mwdata;
      s_awd   <= a_mwdata;
      if (!b_hold) begin
        s_baddr <= b_maddr;
        s_bwd   <= b_mwdata;
      end
    end
    assign b_hold = s_b && s_c;
  end else begin : g_req_direct
    assign s_c     = c_mreq;
    assign s_b     = b_mreq;
    assign s_a     = a_mreq;
    assign s_cwe   = c_mwe;
    assign s_awe   = a_mwe;
    assign s_caddr = c_maddr;
    assign s_baddr = b_maddr;
    assign s_aaddr = a_maddr;
    assign s_cwd   = c_mwdata;
    assign s_bwd   = b_mwdata;
    assign s_awd   = a_mwdata;
    assign b_hold  = 1'b0;
  end

  always_comb begin
    mem.en    = s_c || s_b || s_a;
    mem.we    = 1'b0;
    mem.addr  = '0;
    mem.wdata = '0;
    if (s_c) begin
      mem.we = s_cwe;  mem.addr = s_caddr;  mem.wdata = s_cwd;
    end else if (s_b) begin
      mem.we = 1'b1;   mem.addr = s_baddr;  mem.wdata = s_bwd;
    end else if (s_a) begin
      mem.we = s_awe;  mem.addr = s_aaddr;  mem.wdata = s_awd;
    end
  end

  // ---- reset ARMs: every group-0 (c) line, then (a) and (b) control line 0 ----------------------
  // The request and the line of the next ARM are flip-flops kept beside the count, so every
  // command grant starts from registers (simulation checks them against the count).
  logic [InitW-1:0]    init_q;
  logic                init_req_q;
  logic [LineIdxW-1:0] init_line_q;

  function automatic logic [LineIdxW-1:0] init_line_of(input logic [InitW-1:0] n);
    init_line_of = (32'(n) < 32'(CPairs)) ? LineIdxW'(C_LO + 32'(n)) :
                   (32'(n) == 32'(CPairs)) ? LineIdxW'(A_LO) : LineIdxW'(B_LO);
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      init_q      <= '0;
      init_req_q  <= 1'b1;
      init_line_q <= LineIdxW'(C_LO);
    end else if (cmd_gnt[R_INIT]) begin
      init_q      <= init_q + 1'b1;
      init_req_q  <= init_q != InitW'(InitN - 1);
      init_line_q <= init_line_of(init_q + 1'b1);
    end
  end

  assign init_req  = init_req_q;
  assign init_line = init_line_q;

  // ---- the three protocols ---------------------------------------------------------------------
  logic c_fin, a_fin, b_fin;

  cni_pio_c #(
    .LineBytes (LineBytes), .LineIdxW (LineIdxW), .CBase (CBase), .CPairs (CPairs),
    .BloomFoldWords (BloomFoldWords), .EvtReg (EvtReg), .RdWait (RdWait)
  ) u_c (
    .clk_i, .rst_ni,
    .ev_trig_i (ev.trig), .ev_done_i (ev.done), .ev_c_i (ev.c), .ev_cg_i (ev.c_g),
    .ev_cj_i (ev.c_j), .ev_coh_i (ev.c_oh), .ev_line_i (ev.line),
    .creq_o (c_creq), .cop_o (c_cop), .cline_o (c_cline), .cgnt_i (cmd_gnt[R_C]),
    .rreq_o (crec_req), .rline_o (crec_line), .rgnt_i (cmd_gnt[R_CREC]),
    .mreq_o (c_mreq), .mwe_o (c_mwe), .maddr_o (c_maddr), .mwdata_o (c_mwdata),
    .mem_rd_i (mem_rd),
    .fin_o (c_fin), .idle_o (c_idle)
  );

  cni_pio_a #(
    .LineBytes (LineBytes), .LineIdxW (LineIdxW), .ABase (ABase), .NOvfA (NOvfA),
    .RdWait (RdWait)
  ) u_a (
    .clk_i, .rst_ni,
    .ev_trig_i (ev.trig), .ev_done_i (ev.done), .ev_ctl_i (ev.a_ctl), .ev_g_i (ev.a_g),
    .ev_ovf_i (ev.a_ovf), .ev_line_i (ev.line),
    .creq_o (a_creq), .cop_o (a_cop), .cline_o (a_cline), .cgnt_i (cmd_gnt[R_A]),
    .rreq_o (a_rreq), .rline_o (a_rline), .rgnt_i (cmd_gnt[R_AREC]),
    .mreq_o (a_mreq), .mwe_o (a_mwe), .maddr_o (a_maddr), .mwdata_o (a_mwdata),
    .mgnt_i (a_mgnt), .mem_rd_i (mem_rd),
    .pa_valid_o, .pa_ready_i, .pa_data_o, .pa_len_o, .pa_last_o,
    .fin_o (a_fin), .cnt_o (cnt_a_msg_o), .idle_o (a_idle)
  );

  cni_pio_b #(
    .LineBytes (LineBytes), .LineIdxW (LineIdxW), .BBase (BBase), .NOvfB (NOvfB)
  ) u_b (
    .clk_i, .rst_ni,
    .ev_trig_i (ev.trig), .ev_done_i (ev.done), .ev_ctl_i (ev.b_ctl), .ev_g_i (ev.b_g),
    .ev_ovf_i (ev.b_ovf), .ev_line_i (ev.line),
    .creq_o (b_creq), .cop_o (b_cop), .cline_o (b_cline), .cgnt_i (cmd_gnt[R_B]),
    .rreq_o (b_rreq), .rline_o (b_rline), .rgnt_i (cmd_gnt[R_BREC]),
    .mreq_o (b_mreq), .maddr_o (b_maddr), .mwdata_o (b_mwdata), .mgnt_i (b_mgnt),
    .pb_valid_i, .pb_ready_o, .pb_data_i, .pb_len_i, .pb_last_i,
    .fin_o (b_fin), .cnt_o (cnt_b_msg_o), .idle_o (b_idle)
  );

  cni_pipe_reg #(.Width(DW), .Reg(RdReg != 0)) u_rd (
    .clk_i, .rst_ni, .en_i(1'b1), .d_i(mem_rsp.rdata), .q_o(mem_rd));

  // ---- counters -------------------------------------------------------------------------------
  // (c)'s here; (a)'s and (b)'s come from their channels, which count their messages with them
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) cnt_c_invoke_o <= 1'b0;
    else cnt_c_invoke_o <= c_fin;
  end

  // Quiescence: the reset ARMs done, no event on its way, no command or memory access pending,
  // every protocol waiting for an event (or a (b) beat).
  assign idle_o = !init_req_q && !ev_valid && !ev.trig && !ev.done && arb_idle && c_idle &&
                  a_idle && b_idle && !cnt_c_invoke_o && !s_c && !s_b && !s_a;

  // ---- checks (simulation) --------------------------------------------------------------------
  // The memory port always serves (c) when it asks ((c)'s state machine relies on it).
  `CNI_ASSERT(CGrant_A, !(c_mreq && !c_mgnt), "(c) lost the memory port")
  // With ReqReg (where `s_*` are the registered grants) an (a) request reaches the port alone,
  // and a held (b) write waits one cycle only.
  `CNI_ASSERT(PortB_A, ReqReg == 0 || (!(s_a && (s_b || s_c)) && !(b_hold && c_mgnt)),
              "memory port B requests collide")
  // The reset ARM's request and line agree with their count.
  `CNI_ASSERT(InitArm_A, init_req_q == (init_q != InitW'(InitN)) &&
                         (!init_req_q || init_line_q == init_line_of(init_q)),
              "the reset ARM's request or line disagrees with its count")

  // (b)'s fin pulse is its channel's own business; (a)'s likewise.
  wire unused_fin = ^{a_fin, b_fin};

endmodule
