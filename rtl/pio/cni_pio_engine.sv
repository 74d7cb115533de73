// SPDX-License-Identifier: Apache-2.0
// PIO engine: runs the three coherent PIO protocols ((a) CPU->device, (b) device->CPU, (c)
// combined invocation) on device-homed line pairs by driving the home agent's delayed-response
// commands (ARM/RECALL/RELEASE) and reacting to its events (TRIGGER/RECALL_DONE).
// See docs/pio.md for the per-pair state tables, message sequences and line layouts.
//
// Parameters:
//   LineBytes        - line size in bytes (power of two, >= 32)
//   LineIdxW         - width of a device line index
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
//   evt_valid_i/evt_ready_o, evt_kind_i, evt_line_i, evt_op_i, evt_src_i
//                                       - events from the home agent; evt_ready_o is always 1
//                                         (every event is absorbed into bounded state); the
//                                         parked request's opcode and requester are not needed
//   cmd_valid_o/cmd_ready_i, cmd_op_o, cmd_arg_o, cmd_line_o
//                                       - commands to the home agent; the home may stall; a
//                                         presented command is held until taken (a second
//                                         granted command waits in a skid register, so no
//                                         grant depends on cmd_ready_i)
//   mem_en_o, mem_we_o, mem_addr_o, mem_wdata_o, mem_rdata_i, mem_gnt_i
//                                       - device memory port B, synchronous, read data the cycle
//                                         after mem_en_o && !mem_we_o; with ReqReg the outputs
//                                         choose among registers by registered grants; the
//                                         engine is engine 0 of the engine bus, whose requests
//                                         are always granted, so it does not look at mem_gnt_i
//   reg_*                               - its register window on the engine bus (no registers:
//                                         reads return 0)
//   pa_valid_o/pa_ready_i, pa_data_o, pa_len_o, pa_last_o
//                                       - (a) messages out, one beat per line of payload, the
//                                         consumer may stall; outputs registered
//   pb_valid_i/pb_ready_o, pb_data_i, pb_len_i, pb_last_i
//                                       - (b) messages in; the engine stalls until a TRIGGER
//                                         has been served up to the data phase
//   cnt_c_invoke_o, cnt_a_msg_o, cnt_b_msg_o
//                                       - one-cycle pulses per finished (c) invocation, (a)
//                                         message, (b) message
`default_nettype none

module cni_pio_engine #(
  parameter int LineBytes = 128,
  parameter int LineIdxW  = 12,
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
  input  wire logic                            clk_i,
  input  wire logic                            rst_ni,
  // events from the home agent
  input  wire logic                            evt_valid_i,
  output logic                                 evt_ready_o,
  input  wire logic [cni_coh_pkg::EVT_W-1:0]   evt_kind_i,
  input  wire logic [LineIdxW-1:0]             evt_line_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [cni_coh_pkg::OP_W-1:0]    evt_op_i,   // (the engine bus's; not used here)
  input  wire logic [cni_coh_pkg::AGENT_W-1:0] evt_src_i,
  /* verilator lint_on UNUSEDSIGNAL */
  // commands to the home agent
  output logic                                 cmd_valid_o,
  input  wire logic                            cmd_ready_i,
  output logic [cni_coh_pkg::CMD_W-1:0]        cmd_op_o,
  output logic [cni_coh_pkg::ARG_W-1:0]        cmd_arg_o,  // ARM/RECALL/RELEASE: no argument
  output logic [LineIdxW-1:0]                  cmd_line_o,
  // device memory port B
  output logic                                 mem_en_o,
  output logic                                 mem_we_o,
  output logic [LineIdxW-1:0]                  mem_addr_o,
  output logic [LineBytes*8-1:0]               mem_wdata_o,
  input  wire logic [LineBytes*8-1:0]          mem_rdata_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic                            mem_gnt_i,
  input  wire logic                            reg_valid_i,
  input  wire logic                            reg_we_i,
  input  wire logic [7:0]                      reg_addr_i,
  input  wire logic [31:0]                     reg_wdata_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic [31:0]                          reg_rdata_o,
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
  output logic                                 cnt_b_msg_o
);

  // ---- derived constants ----------------------------------------------------------------------
  localparam int DW      = LineBytes * 8;
  localparam int HW      = 64;                                // header / status word bits
  localparam int PairW   = (CPairs > 1) ? $clog2(CPairs) : 1;
  localparam int RcAW    = $clog2(NOvfA + 2);                 // counts 0 .. NOvfA+1
  localparam int RcBW    = $clog2(NOvfB + 2);
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
  localparam logic [15:0] LB16  = 16'(LineBytes);
  localparam logic [15:0] LB8   = 16'(LineBytes - 8);

  // Byte masks of a beat, kept as flip-flops beside the (a) and (b) byte counts (bit i: byte i
  // carries payload). `len_mask`: the first beat of a message of `len` bytes capped at `cap`;
  // `next_mask`: the beat after one with `rem` bytes from its start on.
  function automatic logic [LineBytes-1:0] len_mask(input logic [15:0] len, input int cap);
    for (int i = 0; i < LineBytes; i++) len_mask[i] = len > 16'(i) && cap > i;
  endfunction
  function automatic logic [LineBytes-1:0] next_mask(input logic [15:0] rem);
    for (int i = 0; i < LineBytes; i++) next_mask[i] = rem > LB16 + 16'(i);
  endfunction

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
  // then registered again decoded. Every event is taken (evt_ready_o is 1), so the registers
  // need no handshake of their own.
  typedef struct packed {
    logic                trig, done;
    logic                c, c_g;      // in (c) region; group of the line
    logic [PairW-1:0]    c_j;         // pair index
    logic                a_ctl, a_g, a_ovf;
    logic                b_ctl, b_g, b_ovf;
    logic [LineIdxW-1:0] line;
  } evd_t;

  logic                          ev_valid;
  logic [cni_coh_pkg::EVT_W-1:0] ev_kind;
  logic [LineIdxW-1:0]           ev_line;
  evd_t                          evd, ev;
  if (EvtReg != 0) begin : g_evt_reg
    logic                          ev_valid_q;
    logic [cni_coh_pkg::EVT_W-1:0] ev_kind_q;
    logic [LineIdxW-1:0]           ev_line_q;
    evd_t                          ev_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ev_valid_q <= 1'b0;
        ev_q       <= '0;
      end else begin
        ev_valid_q <= evt_valid_i;
        ev_q       <= evd;
      end
    end
    always_ff @(posedge clk_i) begin
      ev_kind_q <= evt_kind_i;
      ev_line_q <= evt_line_i;
    end
    assign ev_valid = ev_valid_q;
    assign ev_kind  = ev_kind_q;
    assign ev_line  = ev_line_q;
    assign ev       = ev_q;
  end else begin : g_evt_direct
    assign ev_valid = evt_valid_i;
    assign ev_kind  = evt_kind_i;
    assign ev_line  = evt_line_i;
    assign ev       = evd;
  end

  always_comb begin
    logic [31:0] l;
    l         = 32'(ev_line);
    evd.trig  = ev_valid && (ev_kind == cni_coh_pkg::EVT_TRIGGER);
    evd.done  = ev_valid && (ev_kind == cni_coh_pkg::EVT_RECALL_DONE);
    evd.c     = (l >= C_LO) && (l < C_HI);
    evd.c_g   = (l >= C_MID);
    evd.c_j   = PairW'(evd.c_g ? (l - C_MID) : (l - C_LO));
    evd.a_ctl = (l == A_LO) || (l == A_LO + 32'd1);
    evd.a_g   = (l == A_LO + 32'd1);
    evd.a_ovf = (l >= A_OV) && (l < A_HI);
    evd.b_ctl = (l == B_LO) || (l == B_LO + 32'd1);
    evd.b_g   = (l == B_LO + 32'd1);
    evd.b_ovf = (l >= B_OV) && (l < B_HI);
    evd.line  = ev_line;
  end

  wire [31:0] el = 32'(ev.line);
  assign evt_ready_o = 1'b1;

  // ---- shared resources: command slot and memory port -----------------------------------------
  // Command requests (all registered-state based). Priority: init > C > A > B > C recall FIFO >
  // A recalls > B recalls. Completion commands (ARM/RELEASE) go first because they answer
  // parked host requests; recalls of a pair are only queued after that pair's RELEASE.
  logic                     cmd_load;
  logic                     init_req, c_creq, a_creq, b_creq, crec_req, a_rreq, b_rreq;
  logic [cni_coh_pkg::CMD_W-1:0] init_op, c_cop, a_cop, b_cop;
  logic [LineIdxW-1:0]      init_line, c_cline, a_cline, b_cline, crec_line, a_rline, b_rline;
  logic                     init_gnt, c_cgnt, a_cgnt, b_cgnt, crec_gnt, a_rgnt, b_rgnt;
  logic                     cmd_valid_q, skid_valid_q, cmd_any;
  logic [cni_coh_pkg::CMD_W-1:0] cmd_op_q, skid_op_q, cmd_op_sel;
  logic [LineIdxW-1:0]      cmd_line_q, skid_line_q, cmd_line_sel;

  // Command slot plus skid register: a command is granted whenever the skid register is empty
  // (a registered condition), so the grants never wait on the home agent's cmd_ready_i. With a
  // home that takes every command at once the skid register stays empty and the timing is that
  // of a single slot.
  assign cmd_load = !skid_valid_q;
  assign init_gnt = cmd_load && init_req;
  assign c_cgnt   = cmd_load && !init_req && c_creq;
  assign a_cgnt   = cmd_load && !init_req && !c_creq && a_creq;
  assign b_cgnt   = cmd_load && !init_req && !c_creq && !a_creq && b_creq;
  assign crec_gnt = cmd_load && !init_req && !c_creq && !a_creq && !b_creq && crec_req;
  assign a_rgnt   = cmd_load && !init_req && !c_creq && !a_creq && !b_creq && !crec_req && a_rreq;
  assign b_rgnt   = cmd_load && !init_req && !c_creq && !a_creq && !b_creq && !crec_req &&
                    !a_rreq && b_rreq;

  always_comb begin
    cmd_any      = init_req || c_creq || a_creq || b_creq || crec_req || a_rreq || b_rreq;
    cmd_op_sel   = cni_coh_pkg::CMD_RECALL;
    cmd_line_sel = b_rline;
    if (init_req) begin
      cmd_op_sel = init_op;  cmd_line_sel = init_line;
    end else if (c_creq) begin
      cmd_op_sel = c_cop;    cmd_line_sel = c_cline;
    end else if (a_creq) begin
      cmd_op_sel = a_cop;    cmd_line_sel = a_cline;
    end else if (b_creq) begin
      cmd_op_sel = b_cop;    cmd_line_sel = b_cline;
    end else if (crec_req) begin
      cmd_line_sel = crec_line;
    end else if (a_rreq) begin
      cmd_line_sel = a_rline;
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cmd_valid_q  <= 1'b0;
      cmd_op_q     <= cni_coh_pkg::CMD_ARM;
      cmd_line_q   <= '0;
      skid_valid_q <= 1'b0;
      skid_op_q    <= cni_coh_pkg::CMD_ARM;
      skid_line_q  <= '0;
    end else if (!cmd_valid_q || cmd_ready_i) begin
      // the slot is free after this cycle: the skid register drains first (no grant while it
      // is full), else this cycle's grant enters the slot
      if (skid_valid_q) begin
        cmd_valid_q  <= 1'b1;
        cmd_op_q     <= skid_op_q;
        cmd_line_q   <= skid_line_q;
        skid_valid_q <= 1'b0;
      end else begin
        cmd_valid_q <= cmd_any;
        cmd_op_q    <= cmd_op_sel;
        cmd_line_q  <= cmd_line_sel;
      end
    end else if (cmd_load && cmd_any) begin
      skid_valid_q <= 1'b1;
      skid_op_q    <= cmd_op_sel;
      skid_line_q  <= cmd_line_sel;
    end
  end

  assign cmd_valid_o = cmd_valid_q;
  assign cmd_op_o    = cmd_op_q;
  assign cmd_arg_o   = '0;
  assign reg_rdata_o = '0;
  assign cmd_line_o  = cmd_line_q;

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
  logic          c_rd_ok, a_rd_ok;

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
    mem_en_o    = s_c || s_b || s_a;
    mem_we_o    = 1'b0;
    mem_addr_o  = '0;
    mem_wdata_o = '0;
    if (s_c) begin
      mem_we_o = s_cwe;  mem_addr_o = s_caddr;  mem_wdata_o = s_cwd;
    end else if (s_b) begin
      mem_we_o = 1'b1;   mem_addr_o = s_baddr;  mem_wdata_o = s_bwd;
    end else if (s_a) begin
      mem_we_o = s_awe;  mem_addr_o = s_aaddr;  mem_wdata_o = s_awd;
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
    end else if (init_gnt) begin
      init_q      <= init_q + 1'b1;
      init_req_q  <= init_q != InitW'(InitN - 1);
      init_line_q <= init_line_of(init_q + 1'b1);
    end
  end

  assign init_req  = init_req_q;
  assign init_op   = cni_coh_pkg::CMD_ARM;
  assign init_line = init_line_q;

  // =============================================================================================
  // Protocol (c): per-pair parity/busy/recalled bits, a FIFO of lines to recall and a FIFO of
  // pairs whose payload is in memory; one compute unit shared by every pair.
  // =============================================================================================
  typedef enum logic [2:0] {CIdle, CRdWait, CHash, CArm, CRel} c_state_e;

  c_state_e          c_st_q, c_st_d;
  logic [PairW-1:0]  c_j_q, c_j_d;      // pair being computed
  logic              c_tg_q, c_tg_d;    // its trigger group (= parity)
  logic              c_fin;             // RELEASE(T) taken: flip parity, clear busy
  logic              c_creq_now, c_creq_q;
  logic [CPairs-1:0] c_par_q, c_par_d, c_busy_q, c_busy_d, c_rdy_q, c_rdy_d;
  logic [CPairs-1:0] c_trig, c_done;

  for (genvar k = 0; k < CPairs; k++) begin : g_pair
    logic fin_k, hit_k, par_k, busy_k, rdy_k;
    assign fin_k  = c_fin && (c_j_q == PairW'(k));
    assign hit_k  = ev.c && (ev.c_j == PairW'(k));
    // An event in the cycle a pair finishes sees the pair already finished.
    assign par_k  = fin_k ? !c_par_q[k] : c_par_q[k];
    assign busy_k = fin_k ? 1'b0 : c_busy_q[k];
    assign rdy_k  = fin_k ? 1'b0 : c_rdy_q[k];
    // TRIGGER on the current trigger line of an idle pair starts it.
    assign c_trig[k] = ev.trig && hit_k && !busy_k && (par_k == ev.c_g);
    // RECALL_DONE on the payload line of a pair being recalled makes it ready.
    assign c_done[k] = ev.done && hit_k && busy_k && !rdy_k && (par_k != ev.c_g);
    assign c_par_d[k]  = par_k;
    assign c_busy_d[k] = busy_k || c_trig[k];
    assign c_rdy_d[k]  = rdy_k || c_done[k];
  end

  // What enters the two FIFOs: this cycle's, or (EvtReg) registered, one cycle later (both FIFOs
  // are as deep as there are pairs, so neither needs a ready).
  logic                crec_push, crdy_push;
  logic [LineIdxW-1:0] crec_in;
  logic [PairW:0]      crdy_in;
  logic                crec_push_n, crdy_push_n;
  logic [LineIdxW-1:0] crec_in_n;
  logic [PairW:0]      crdy_in_n;
  assign crec_push_n = |c_trig;
  // The payload line is the same pair's line in the other group.
  assign crec_in_n   = ev.c_g ? LineIdxW'(el - 32'(CPairs)) : LineIdxW'(el + 32'(CPairs));
  assign crdy_push_n = |c_done;
  assign crdy_in_n   = {!ev.c_g, ev.c_j};  // the event is on the payload line
  if (EvtReg != 0) begin : g_push_reg
    logic                crec_push_q, crdy_push_q;
    logic [LineIdxW-1:0] crec_in_q;
    logic [PairW:0]      crdy_in_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        crec_push_q <= 1'b0;
        crdy_push_q <= 1'b0;
      end else begin
        crec_push_q <= crec_push_n;
        crdy_push_q <= crdy_push_n;
      end
    end
    always_ff @(posedge clk_i) begin
      crec_in_q <= crec_in_n;
      crdy_in_q <= crdy_in_n;
    end
    assign crec_push = crec_push_q;
    assign crec_in   = crec_in_q;
    assign crdy_push = crdy_push_q;
    assign crdy_in   = crdy_in_q;
  end else begin : g_push_direct
    assign crec_push = crec_push_n;
    assign crec_in   = crec_in_n;
    assign crdy_push = crdy_push_n;
    assign crdy_in   = crdy_in_n;
  end

  // Lines to recall: at most one entry per busy pair.
  logic                crec_in_ready, crec_valid;
  logic [LineIdxW-1:0] crec_out;
  logic [$clog2(CPairs+1)-1:0] crec_cnt_unused;

  cni_fifo #(.Width(LineIdxW), .Depth(CPairs)) u_crec_fifo (
    .clk_i, .rst_ni,
    .in_valid_i(crec_push), .in_ready_o(crec_in_ready), .in_data_i(crec_in),
    .out_valid_o(crec_valid), .out_ready_i(crec_gnt), .out_data_o(crec_out),
    .count_o(crec_cnt_unused)
  );
  assign crec_req  = crec_valid;
  assign crec_line = crec_out;

  // Pairs ready to compute: {trigger group, pair}; at most one entry per busy pair.
  logic                crdy_in_ready, crdy_valid, crdy_pop;
  logic [PairW:0]      crdy_out;
  logic [$clog2(CPairs+1)-1:0] crdy_cnt_unused;

  cni_fifo #(.Width(PairW + 1), .Depth(CPairs)) u_crdy_fifo (
    .clk_i, .rst_ni,
    .in_valid_i(crdy_push), .in_ready_o(crdy_in_ready), .in_data_i(crdy_in),
    .out_valid_o(crdy_valid), .out_ready_i(crdy_pop), .out_data_o(crdy_out),
    .count_o(crdy_cnt_unused)
  );

  // Accelerator.
  logic          bloom_in_valid, bloom_out_valid, bloom_out_valid_next;
  logic [DW-1:0] bloom_out;

  cni_bloom #(.LineBytes(LineBytes), .FoldWords(BloomFoldWords)) u_bloom (
    .clk_i, .rst_ni,
    .in_valid_i(bloom_in_valid), .in_data_i(mem_rd),
    .out_valid_o(bloom_out_valid), .out_data_o(bloom_out),
    .out_valid_next_o(bloom_out_valid_next)
  );

  // Lines of the pair in the compute unit.
  logic [LineIdxW-1:0] c_t_line, c_p_line, crdy_p_line;
  assign c_t_line    = LineIdxW'((c_tg_q ? C_MID : C_LO) + 32'(c_j_q));
  assign c_p_line    = LineIdxW'((c_tg_q ? C_LO : C_MID) + 32'(c_j_q));
  assign crdy_p_line = LineIdxW'((crdy_out[PairW] ? C_LO : C_MID) + 32'(crdy_out[PairW-1:0]));

  always_comb begin
    c_st_d         = c_st_q;
    c_j_d          = c_j_q;
    c_tg_d         = c_tg_q;
    c_fin          = 1'b0;
    crdy_pop       = 1'b0;
    bloom_in_valid = 1'b0;
    c_mreq         = 1'b0;
    c_mwe          = 1'b0;
    c_maddr        = crdy_p_line;
    c_mwdata       = bloom_out;
    c_creq_now     = 1'b0;
    c_cop          = cni_coh_pkg::CMD_ARM;
    c_cline        = c_p_line;
    unique case (c_st_q)
      CIdle: begin
        // Read the payload (the CPU's arguments) of the oldest ready pair.
        c_mreq = crdy_valid;
        if (crdy_valid) begin
          crdy_pop = 1'b1;  // c_mgnt == c_mreq: the memory port always takes C
          c_j_d    = crdy_out[PairW-1:0];
          c_tg_d   = crdy_out[PairW];
          c_st_d   = CRdWait;
        end
      end
      CRdWait: begin
        if (c_rd_ok) begin
          bloom_in_valid = 1'b1;  // read data is on mem_rd this cycle
          c_st_d         = CHash;
        end
      end
      CHash: begin
        // Write the result into the trigger line and ask for ARM(P) in the same cycle.
        if (bloom_out_valid) begin
          c_mreq  = 1'b1;
          c_mwe   = 1'b1;
          c_maddr = c_t_line;
          c_creq_now = 1'b1;
          c_st_d  = c_cgnt ? CRel : CArm;
        end
      end
      CArm: begin
        c_creq_now = 1'b1;
        if (c_cgnt) c_st_d = CRel;
      end
      CRel: begin
        c_creq_now = 1'b1;
        c_cop   = cni_coh_pkg::CMD_RELEASE;
        c_cline = c_t_line;
        if (c_cgnt) begin
          c_fin  = 1'b1;
          c_st_d = CIdle;
        end
      end
      default: c_st_d = CIdle;
    endcase
  end

  // (c)'s command request as the grants see it: registered from the next state (in CHash, from
  // the accelerator's result valid of the next cycle), so every grant starts from flip-flops.
  // It equals the request the state machine makes (`c_creq_now`; simulation checks it).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c_creq_q <= 1'b0;
    end else begin
      c_creq_q <= c_st_d == CArm || c_st_d == CRel || (c_st_d == CHash && bloom_out_valid_next);
    end
  end
  assign c_creq = c_creq_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      c_st_q   <= CIdle;
      c_j_q    <= '0;
      c_tg_q   <= 1'b0;
      c_par_q  <= '0;
      c_busy_q <= '0;
      c_rdy_q  <= '0;
    end else begin
      c_st_q   <= c_st_d;
      c_j_q    <= c_j_d;
      c_tg_q   <= c_tg_d;
      c_par_q  <= c_par_d;
      c_busy_q <= c_busy_d;
      c_rdy_q  <= c_rdy_d;
    end
  end

  // =============================================================================================
  // Protocol (a): CPU -> device. Recall the payload control line and every overflow line, count
  // the RECALL_DONEs, then stream the message out with a fixed 8-byte shift.
  // =============================================================================================
  typedef enum logic [3:0] {
    AIdle, ARecall, AHdr, AHdrWait, ARead, AWait, AOut, AStatus, AArm, ARel
  } a_state_e;

  a_state_e         a_st_q, a_st_d;
  logic             a_par_q, a_par_d;
  // The next line to RECALL (the payload control line, then each overflow line), whether it is
  // the first, whether all 1 + NOvfA have been asked for, and whether all their RECALL_DONEs are
  // in: flip-flops, so the command choice and the state start from registers.
  logic [LineIdxW-1:0] a_rl_q, a_rl_d;
  logic             a_rfirst_q, a_rfirst_d, a_rall_q, a_rall_d;
  logic [RcAW-1:0]  a_dc_q, a_dc_d;     // recalls done
  logic             a_dall_q, a_dall_d;  // a_dc_q == 1 + NOvfA (a flip-flop)
  logic [RcAW-1:0]  a_b_q, a_b_d;       // beat index
  logic             a_bend_q, a_bend_d;  // a_b_q >= NOvfA: no overflow line left (a flip-flop)
  logic [15:0]      a_len_q, a_len_d;   // message length (clamped)
  logic [15:0]      a_rem_q, a_rem_d;   // bytes from the current beat on
  // Byte i of a beat carries payload if a_rem_q > i: kept as flip-flops beside a_rem_q (one per
  // byte), so the line-wide output register's mask starts from registers, not compares.
  logic [LineBytes-1:0] a_rm_q, a_rm_d;
  logic             a_clamp_q, a_clamp_d, a_empty_q, a_empty_d;
  logic [47:0]      a_cnt_q;           // messages consumed
  logic [DW-1:0]    a_cur_q, a_cur_d, a_nxt_q, a_nxt_d;
  logic             pa_valid_q, pa_valid_d, pa_last_q, pa_last_d;
  logic [DW-1:0]    pa_data_q;
  logic [15:0]      pa_len_q, pa_len_d;
  logic             a_fin, a_trig, a_pa_free;
  logic [LineIdxW-1:0] a_t_line, a_p_line;
  logic [DW-1:0]    a_beat, a_beat_m;
  logic [15:0]      a_hdr_len;

  assign a_t_line  = LineIdxW'(A_LO + 32'(a_par_q));
  assign a_p_line  = LineIdxW'(A_LO + 32'(!a_par_q));
  assign a_pa_free = !pa_valid_q || pa_ready_i;
  // Beat = bytes [8, LineBytes) of the current line, then bytes [0, 8) of the next one.
  assign a_beat    = {((a_st_q == AWait) ? mem_rd[HW-1:0] : a_nxt_q[HW-1:0]), a_cur_q[DW-1:HW]};
  for (genvar i = 0; i < LineBytes; i++) begin : g_amask
    assign a_beat_m[8*i +: 8] = a_rm_q[i] ? a_beat[8*i +: 8] : 8'h00;
  end
  assign a_hdr_len = mem_rd[15:0];
  // A TRIGGER on the current trigger line of an idle channel starts it (also in the cycle the
  // previous message finishes, which flips the parity).
  assign a_trig = ev.trig && ev.a_ctl && ((a_st_q == AIdle) || a_fin) &&
                  (ev.a_g == (a_fin ? !a_par_q : a_par_q));

  always_comb begin
    a_st_d     = a_st_q;
    a_par_d    = a_par_q;
    a_rl_d     = a_rl_q;
    a_rfirst_d = a_rfirst_q;
    a_rall_d   = a_rall_q;
    a_dc_d     = a_dc_q;
    a_b_d      = a_b_q;
    a_bend_d   = a_bend_q;
    a_len_d    = a_len_q;
    a_rem_d    = a_rem_q;
    a_rm_d     = a_rm_q;
    a_clamp_d  = a_clamp_q;
    a_empty_d  = a_empty_q;
    a_cur_d    = a_cur_q;
    a_nxt_d    = a_nxt_q;
    pa_valid_d = pa_valid_q && !pa_ready_i;
    pa_len_d   = pa_len_q;
    pa_last_d  = pa_last_q;
    a_fin      = 1'b0;
    a_mreq     = 1'b0;
    a_mwe      = 1'b0;
    a_maddr    = a_p_line;
    a_mwdata   = {{(DW-HW){1'b0}}, a_clamp_q, a_empty_q, 14'd0, a_cnt_q + 48'd1};  // status
    a_creq     = 1'b0;
    a_cop      = cni_coh_pkg::CMD_ARM;
    a_cline    = a_p_line;
    a_rreq     = 1'b0;
    a_rline    = a_rl_q;
    unique case (a_st_q)
      AIdle: ;
      ARecall: begin
        a_rreq = !a_rall_q;
        if (a_rgnt) begin
          a_rfirst_d = 1'b0;
          a_rl_d     = a_rfirst_q ? LineIdxW'(A_OV) : a_rl_q + 1'b1;
          a_rall_d   = !a_rfirst_q && 32'(a_rl_q) == A_HI - 32'd1;
        end
        if (ev.done && ((el == 32'(a_p_line)) || ev.a_ovf)) a_dc_d = a_dc_q + 1'b1;
        if (a_dall_q) a_st_d = AHdr;
      end
      AHdr: begin
        a_mreq = 1'b1;
        if (a_mgnt) a_st_d = AHdrWait;
      end
      AHdrWait: begin
        if (a_rd_ok) begin
          a_cur_d   = mem_rd;
          a_clamp_d = (a_hdr_len > 16'(CapA));
          a_len_d   = (a_hdr_len > 16'(CapA)) ? 16'(CapA) : a_hdr_len;
          a_rem_d   = a_len_d;
          a_rm_d    = len_mask(a_hdr_len, CapA);
          a_empty_d = (a_hdr_len == 16'd0);  // CapA > 0: the clamp never empties a message
          a_b_d     = '0;
          a_bend_d  = NOvfA == 0;
          a_st_d    = a_empty_d ? AStatus : ARead;
        end
      end
      ARead: begin
        // Line b+1 holds the tail of beat b; past the last overflow line it is zero.
        if (!a_bend_q) begin
          a_mreq  = 1'b1;
          a_maddr = LineIdxW'(A_OV + 32'(a_b_q));
          if (a_mgnt) a_st_d = AWait;
        end else begin
          a_nxt_d = '0;
          a_st_d  = AOut;
        end
      end
      AWait, AOut: begin
        if (a_st_q == AOut || a_rd_ok) begin
          if (a_st_q == AWait) a_nxt_d = mem_rd;
          if (a_pa_free) begin
            pa_valid_d = 1'b1;
            pa_len_d   = a_len_q;
            pa_last_d  = (a_rem_q <= LB16);
            a_cur_d    = (a_st_q == AWait) ? mem_rd : a_nxt_q;
            a_b_d      = a_b_q + 1'b1;
            a_bend_d   = 32'(a_b_q) + 32'd1 >= 32'(NOvfA);
            a_rem_d    = a_rem_q - LB16;
            a_rm_d     = next_mask(a_rem_q);
            a_st_d     = (a_rem_q <= LB16) ? AStatus : ARead;
          end else begin
            a_st_d = AOut;
          end
        end
      end
      AStatus: begin
        a_mreq  = 1'b1;
        a_mwe   = 1'b1;
        a_maddr = a_t_line;
        if (a_mgnt) a_st_d = AArm;
      end
      AArm: begin
        a_creq = 1'b1;
        if (a_cgnt) a_st_d = ARel;
      end
      ARel: begin
        a_creq  = 1'b1;
        a_cop   = cni_coh_pkg::CMD_RELEASE;
        a_cline = a_t_line;
        if (a_cgnt) begin
          a_fin   = 1'b1;
          a_par_d = !a_par_q;
          a_st_d  = AIdle;
        end
      end
      default: a_st_d = AIdle;
    endcase
    if (a_trig) begin
      a_st_d     = ARecall;
      a_rl_d     = LineIdxW'(A_LO + 32'(!a_par_d));  // the new payload control line
      a_rfirst_d = 1'b1;
      a_rall_d   = 1'b0;
      a_dc_d     = '0;
    end
    a_dall_d = 32'(a_dc_d) == 32'(NOvfA + 1);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_st_q     <= AIdle;
      a_par_q    <= 1'b0;
      a_rl_q     <= LineIdxW'(A_LO + 32'd1);
      a_rfirst_q <= 1'b1;
      a_rall_q   <= 1'b0;
      a_dc_q     <= '0;
      a_dall_q   <= 1'b0;
      a_b_q      <= '0;
      a_bend_q   <= NOvfA == 0;
      a_len_q    <= '0;
      a_rem_q    <= '0;
      a_rm_q     <= '0;
      a_clamp_q  <= 1'b0;
      a_empty_q  <= 1'b0;
      a_cnt_q    <= '0;
      pa_valid_q <= 1'b0;
      pa_last_q  <= 1'b0;
      pa_len_q   <= '0;
    end else begin
      a_st_q     <= a_st_d;
      a_par_q    <= a_par_d;
      a_rl_q     <= a_rl_d;
      a_rfirst_q <= a_rfirst_d;
      a_rall_q   <= a_rall_d;
      a_dc_q     <= a_dc_d;
      a_dall_q   <= a_dall_d;
      a_b_q      <= a_b_d;
      a_bend_q   <= a_bend_d;
      a_len_q    <= a_len_d;
      a_rem_q    <= a_rem_d;
      a_rm_q     <= a_rm_d;
      a_clamp_q  <= a_clamp_d;
      a_empty_q  <= a_empty_d;
      // messages consumed: counted from the registered pulse, one cycle after the RELEASE
      // (the next status is written many cycles later)
      if (cnt_a_msg_o) a_cnt_q <= a_cnt_q + 48'd1;
      pa_valid_q <= pa_valid_d;
      pa_last_q  <= pa_last_d;
      pa_len_q   <= pa_len_d;
    end
  end

  // Datapath registers: no reset. The output data register is loaded with the masked beat in
  // every cycle it is free after (empty, or taken now), beat or not: its contents are used only
  // while pa_valid_q, and a beat is sent only then. So its enable is the output handshake alone.
  always_ff @(posedge clk_i) begin
    a_cur_q <= a_cur_d;
    a_nxt_q <= a_nxt_d;
    if (a_pa_free) pa_data_q <= a_beat_m;
  end

  if (RdReg != 0) begin : g_rd_reg
    logic [DW-1:0] mem_rd_q;
    always_ff @(posedge clk_i) mem_rd_q <= mem_rdata_i;
    assign mem_rd = mem_rd_q;
  end else begin : g_rd_direct
    assign mem_rd = mem_rdata_i;
  end

  if (RdWait > 1) begin : g_rd_wait
    // Cycles spent waiting for read data; a waiting state is left when its data is there.
    logic [1:0] c_rdw_q, a_rdw_q;
    logic       c_wait, a_wait;
    assign c_wait = (c_st_q == CRdWait);
    assign a_wait = (a_st_q == AHdrWait || a_st_q == AWait);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        c_rdw_q <= '0;
        a_rdw_q <= '0;
      end else begin
        c_rdw_q <= (c_wait && !c_rd_ok) ? c_rdw_q + 2'd1 : 2'd0;
        a_rdw_q <= (a_wait && !a_rd_ok) ? a_rdw_q + 2'd1 : 2'd0;
      end
    end
    assign c_rd_ok = (c_rdw_q == 2'(RdWait - 1));
    assign a_rd_ok = (a_rdw_q == 2'(RdWait - 1));
  end else begin : g_rd_now
    assign c_rd_ok = 1'b1;
    assign a_rd_ok = 1'b1;
  end

  assign pa_valid_o = pa_valid_q;
  assign pa_data_o  = pa_data_q;
  assign pa_len_o   = pa_len_q;
  assign pa_last_o  = pa_last_q;

  // =============================================================================================
  // Protocol (b): device -> CPU. Recall the other control line and every overflow line, then
  // take one message from pb_* and write header + payload (inverse 8-byte shift) into the
  // trigger line and the overflow lines.
  // =============================================================================================
  typedef enum logic [2:0] {BIdle, BRecall, BRecv, BTail, BArm, BRel} b_state_e;

  b_state_e         b_st_q, b_st_d;
  logic             b_par_q, b_par_d;
  // The next line to RECALL and the flags kept beside it, as for (a).
  logic [LineIdxW-1:0] b_rl_q, b_rl_d;
  logic             b_rfirst_q, b_rfirst_d, b_rall_q, b_rall_d;
  logic [RcBW-1:0]  b_dc_q, b_dc_d;     // recalls done
  logic             b_dall_q, b_dall_d;  // b_dc_q == 1 + NOvfB (a flip-flop)
  logic [RcBW-1:0]  b_k_q, b_k_d;       // line the next beat completes (0 = trigger line)
  logic             b_kover_q, b_kover_d;  // b_k_q > NOvfB: beats are dropped (a flip-flop)
  logic             b_first_q, b_first_d, b_gotlast_q, b_gotlast_d, b_trunc_q, b_trunc_d;
  logic [15:0]      b_len_q, b_len_d, b_rem_q, b_rem_d;
  // The 8 bytes that lead the next line, as taken from the beat, and which of them carry payload
  // (applied where they are used, so the register's inputs are not masked).
  logic [HW-1:0]    b_carry_q, b_carry_d, b_carry_m;
  logic [HW/8-1:0]  b_ckeep_q, b_ckeep_d;
  logic [31:0]      b_cnt_q;           // messages delivered
  logic             bin_valid_q, bin_valid_d, bin_last_q;
  logic [DW-1:0]    bin_data_q;
  logic [15:0]      bin_len_q;
  logic             b_fin, b_trig, b_take, b_drop, b_consume;
  logic [LineIdxW-1:0] b_t_line, b_p_line;
  logic             b_trunc_now;
  logic [15:0]      b_len_now, b_rem_now;
  logic [HW-1:0]    b_carry_now;
  logic [DW-HW-1:0] bin_m;     // the beat's bytes below the 8 that lead the next line, masked
  // The bytes of the beat that still carry payload (byte i: b_rem_now > i), as flip-flops, one
  // per byte, so the line-wide mask starts from registers instead of compares: `bin_lm_q` for
  // a first beat (the header's length capped at CapB, > i), loaded with the beat; `b_rm_q` for
  // the others (b_rem_q > i), kept beside b_rem_q.
  logic [LineBytes-1:0] bin_lm_q, b_rm_q, b_rm_d, b_rm_next, b_keep;

  assign b_t_line    = LineIdxW'(B_LO + 32'(b_par_q));
  assign b_p_line    = LineIdxW'(B_LO + 32'(!b_par_q));
  assign b_trunc_now = (bin_len_q > 16'(CapB));
  // Length, remaining bytes and the 8 bytes that lead the line: from the header on the first
  // beat, from the registers afterwards.
  assign b_len_now   = b_first_q ? (b_trunc_now ? 16'(CapB) : bin_len_q) : b_len_q;
  assign b_rem_now   = b_first_q ? b_len_now : b_rem_q;
  for (genvar j = 0; j < HW / 8; j++) begin : g_bcarry
    assign b_carry_m[8*j +: 8] = b_ckeep_q[j] ? b_carry_q[8*j +: 8] : 8'h00;
  end
  assign b_carry_now = b_first_q ? {b_cnt_q + 32'd1, 15'd0, b_trunc_now, b_len_now} : b_carry_m;
  for (genvar i = 0; i < LineBytes; i++) begin : g_bmask
    assign b_keep[i]       = b_first_q ? bin_lm_q[i] : b_rm_q[i];
    if (i < LineBytes - HW / 8) begin : g_m
      assign bin_m[8*i +: 8] = b_keep[i] ? bin_data_q[8*i +: 8] : 8'h00;
    end
  end
  // after a consume: b_rem_d > i, where b_rem_d is b_rem_now - LineBytes floored at 0
  assign b_rm_next = next_mask(b_rem_now);
  // A beat past the last overflow line is consumed without a write.
  assign b_drop    = bin_valid_q && b_kover_q;
  assign b_consume = bin_valid_q && (b_drop || b_mgnt);
  assign pb_ready_o = (b_st_q == BRecv) && !b_gotlast_q && (!bin_valid_q || b_consume);
  assign b_take     = pb_valid_i && pb_ready_o;
  assign b_trig     = ev.trig && ev.b_ctl && ((b_st_q == BIdle) || b_fin) &&
                      (ev.b_g == (b_fin ? !b_par_q : b_par_q));

  always_comb begin
    b_st_d      = b_st_q;
    b_par_d     = b_par_q;
    b_rl_d      = b_rl_q;
    b_rfirst_d  = b_rfirst_q;
    b_rall_d    = b_rall_q;
    b_dc_d      = b_dc_q;
    b_k_d       = b_k_q;
    b_kover_d   = b_kover_q;
    b_first_d   = b_first_q;
    b_gotlast_d = b_gotlast_q || (b_take && pb_last_i);
    b_trunc_d   = b_trunc_q;
    b_len_d     = b_len_q;
    b_rem_d     = b_rem_q;
    b_rm_d      = b_rm_q;
    b_carry_d   = b_carry_q;
    b_ckeep_d   = b_ckeep_q;
    bin_valid_d = b_take || (bin_valid_q && !b_consume);
    b_fin       = 1'b0;
    b_mreq      = 1'b0;
    b_maddr     = (b_k_q == '0) ? b_t_line : LineIdxW'(B_LO + 32'd1 + 32'(b_k_q));
    b_mwdata    = {bin_m, b_carry_now};
    b_creq      = 1'b0;
    b_cop       = cni_coh_pkg::CMD_ARM;
    b_cline     = b_p_line;
    b_rreq      = 1'b0;
    b_rline     = b_rl_q;
    unique case (b_st_q)
      BIdle: ;
      BRecall: begin
        b_rreq = !b_rall_q;
        if (b_rgnt) begin
          b_rfirst_d = 1'b0;
          b_rl_d     = b_rfirst_q ? LineIdxW'(B_OV) : b_rl_q + 1'b1;
          b_rall_d   = !b_rfirst_q && 32'(b_rl_q) == B_HI - 32'd1;
        end
        if (ev.done && ((el == 32'(b_p_line)) || ev.b_ovf)) b_dc_d = b_dc_q + 1'b1;
        if (b_dall_q) b_st_d = BRecv;
      end
      BRecv: begin
        b_mreq = bin_valid_q && !b_drop;
        if (b_consume) begin
          b_first_d = 1'b0;
          b_trunc_d = b_first_q ? b_trunc_now : b_trunc_q;
          b_len_d   = b_len_now;
          b_rem_d   = (b_rem_now > LB16) ? (b_rem_now - LB16) : 16'd0;
          b_rm_d    = b_rm_next;
          b_carry_d = bin_data_q[DW-1:DW-HW];
          b_ckeep_d = b_keep[LineBytes-1 -: HW/8];
          if (!b_kover_q) begin
            b_k_d     = b_k_q + 1'b1;
            b_kover_d = 32'(b_k_q) == 32'(NOvfB);
          end
          if (bin_last_q) begin
            // The last 8 bytes of this beat still carry payload: they lead line k+1.
            b_st_d = ((b_rem_now > LB8) && (32'(b_k_q) < 32'(NOvfB))) ? BTail : BArm;
          end
        end
      end
      BTail: begin
        b_mreq   = 1'b1;
        b_mwdata = {{(DW-HW){1'b0}}, b_carry_m};
        if (b_mgnt) b_st_d = BArm;
      end
      BArm: begin
        b_creq = 1'b1;
        if (b_cgnt) b_st_d = BRel;
      end
      BRel: begin
        b_creq  = 1'b1;
        b_cop   = cni_coh_pkg::CMD_RELEASE;
        b_cline = b_t_line;
        if (b_cgnt) begin
          b_fin   = 1'b1;
          b_par_d = !b_par_q;
          b_st_d  = BIdle;
        end
      end
      default: b_st_d = BIdle;
    endcase
    if (b_trig) begin
      b_st_d      = BRecall;
      b_rl_d      = LineIdxW'(B_LO + 32'(!b_par_d));  // the new payload control line
      b_rfirst_d  = 1'b1;
      b_rall_d    = 1'b0;
      b_dc_d      = '0;
      b_k_d       = '0;
      b_kover_d   = 1'b0;
      b_first_d   = 1'b1;
      b_gotlast_d = 1'b0;
    end
    b_dall_d = 32'(b_dc_d) == 32'(NOvfB + 1);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      b_st_q      <= BIdle;
      b_par_q     <= 1'b0;
      b_rl_q      <= LineIdxW'(B_LO + 32'd1);
      b_rfirst_q  <= 1'b1;
      b_rall_q    <= 1'b0;
      b_dc_q      <= '0;
      b_dall_q    <= 1'b0;
      b_k_q       <= '0;
      b_kover_q   <= 1'b0;
      b_first_q   <= 1'b1;
      b_gotlast_q <= 1'b0;
      b_trunc_q   <= 1'b0;
      b_len_q     <= '0;
      b_rem_q     <= '0;
      b_rm_q      <= '0;
      b_cnt_q     <= '0;
      bin_valid_q <= 1'b0;
    end else begin
      b_st_q      <= b_st_d;
      b_par_q     <= b_par_d;
      b_rl_q      <= b_rl_d;
      b_rfirst_q  <= b_rfirst_d;
      b_rall_q    <= b_rall_d;
      b_dc_q      <= b_dc_d;
      b_dall_q    <= b_dall_d;
      b_k_q       <= b_k_d;
      b_kover_q   <= b_kover_d;
      b_first_q   <= b_first_d;
      b_gotlast_q <= b_gotlast_d;
      b_trunc_q   <= b_trunc_d;
      b_len_q     <= b_len_d;
      b_rem_q     <= b_rem_d;
      b_rm_q      <= b_rm_d;
      // messages delivered: counted from the registered pulse, one cycle after the RELEASE
      // (the next header is written many cycles later)
      if (cnt_b_msg_o) b_cnt_q <= b_cnt_q + 32'd1;
      bin_valid_q <= bin_valid_d;
    end
  end

  // Datapath registers: no reset. The beat register (data, length, last flag, byte mask) is
  // loaded in every cycle after which it is free (empty, or consumed now), beat or not: a beat
  // is taken only then, and the register's contents are used only while `bin_valid_q`. So its
  // enable does not wait for the sender's valid.
  always_ff @(posedge clk_i) begin
    b_carry_q <= b_carry_d;
    b_ckeep_q <= b_ckeep_d;
    if (!bin_valid_q || b_consume) begin
      bin_data_q <= pb_data_i;
      bin_len_q  <= pb_len_i;
      bin_last_q <= pb_last_i;
      bin_lm_q   <= len_mask(pb_len_i, CapB);
    end
  end

  // ---- counters -------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cnt_c_invoke_o <= 1'b0;
      cnt_a_msg_o    <= 1'b0;
      cnt_b_msg_o    <= 1'b0;
    end else begin
      cnt_c_invoke_o <= c_fin;
      cnt_a_msg_o    <= a_fin;
      cnt_b_msg_o    <= b_fin;
    end
  end

  // ---- checks (simulation) --------------------------------------------------------------------
`ifndef SYNTHESIS
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
    end else begin
      // Each pair has at most one entry in each FIFO, so they never overflow.
      assert (!(crec_push && !crec_in_ready)) else $error("cni_pio_engine: recall FIFO overflow");
      assert (!(crdy_push && !crdy_in_ready)) else $error("cni_pio_engine: ready FIFO overflow");
      assert (c_creq_q == c_creq_now)
        else $error("cni_pio_engine: the registered (c) command request disagrees");
      // The memory port always serves C when it asks (C's FSM relies on it).
      assert (!(c_mreq && !c_mgnt)) else $error("cni_pio_engine: C lost the memory port");
      // With ReqReg (where `s_*` are the registered grants) an (a) request reaches the port
      // alone, and a held (b) write waits one cycle only.
      assert (ReqReg == 0 || (!(s_a && (s_b || s_c)) && !(b_hold && c_mgnt)))
        else $error("cni_pio_engine: memory port B requests collide");
      // The flip-flops kept beside counters agree with them.
      assert (init_req_q == (init_q != InitW'(InitN)) &&
              (!init_req_q || init_line_q == init_line_of(init_q)))
        else $error("cni_pio_engine: the reset ARM's request or line disagrees with its count");
      assert (a_dall_q == (32'(a_dc_q) == 32'(NOvfA + 1)) &&
              b_dall_q == (32'(b_dc_q) == 32'(NOvfB + 1)))
        else $error("cni_pio_engine: a RECALL_DONE flag disagrees with its count");
      assert (b_kover_q == (32'(b_k_q) > 32'(NOvfB)) && a_bend_q == (32'(a_b_q) >= 32'(NOvfA)))
        else $error("cni_pio_engine: an overflow flag disagrees with its line count");
      // (After an (a) message's last beat its count wraps, unused until the next header.)
      for (int i = 0; i < LineBytes; i++) begin
        assert (b_rm_q[i] == (b_rem_q > 16'(i)) && (a_rm_q[i] == (a_rem_q > 16'(i)) ||
                !(a_st_q inside {ARead, AWait, AOut})))
          else $error("cni_pio_engine: a byte mask disagrees with its remaining count");
      end
    end
  end
`endif

  // Never used: each FIFO's fill level (bounded by construction, checked above).
  logic unused_cnt;
  assign unused_cnt = ^{crec_cnt_unused, crdy_cnt_unused, crec_in_ready, crdy_in_ready};

endmodule
