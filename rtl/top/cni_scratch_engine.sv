// SPDX-License-Identifier: Apache-2.0
// Scratch-pad engine: the worked example of an engine on the engine bus (docs/endpoint.md,
// "Adding an engine"). Its region is coherent device memory that device software reaches
// through the engine's register window: a coherent line read (a downgrade-only recall pulls a
// host's dirty copy, which the host keeps Shared), a coherent line write (a recall invalidates
// every host copy first) and a policy change of a line; a host request its policy parks is
// answered Error (NACK). Registers (byte offsets in the engine's CSR window):
//   0x00 CTRL   W: start: [1:0] op (0 read, 1 write, 2 policy), [9:8] policy, [31:16] line
//                  (within the region); ignored while busy
//               R: [0] busy, [1] the last op named a line outside the region, [31:16] ops done
//   0x04 NACKS  R: host requests answered Error
//   0x80 + 4i   RW: word i of the line buffer (what a read returns, what a write writes)
//
// Parameters:
//   LineBytes, LineIdxW - line size, device line index width
//   Base, Lines         - the region: device lines [Base, Base + Lines)
// Ports: the engine bus (cni_engine_bus; `CNI_ENGINE_BUS`); idle_o: no operation running and no
// NACK owed (docs/endpoint.md, "Quiescence").
`default_nettype none

module cni_scratch_engine #(
  parameter int LineBytes = 128,
  parameter int LineIdxW  = 11,
  parameter int Base      = 0,
  parameter int Lines     = 64,
  localparam int LineBits = LineBytes * 8,
  localparam int Words    = LineBytes / 4
) (
  input  wire logic                            clk_i,
  input  wire logic                            rst_ni,
  input  wire logic                            evt_valid_i,
  output logic                                 evt_ready_o,
  input  wire logic [cni_coh_pkg::EVT_W-1:0]   evt_kind_i,
  input  wire logic [LineIdxW-1:0]             evt_line_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [cni_coh_pkg::OP_W-1:0]    evt_op_i,   // any parked request is refused
  input  wire logic [cni_coh_pkg::AGENT_W-1:0] evt_src_i,
  /* verilator lint_on UNUSEDSIGNAL */
  output logic                                 cmd_valid_o,
  input  wire logic                            cmd_ready_i,
  output logic [cni_coh_pkg::CMD_W-1:0]        cmd_op_o,
  output logic [cni_coh_pkg::ARG_W-1:0]        cmd_arg_o,
  output logic [LineIdxW-1:0]                  cmd_line_o,
  output logic                                 mem_en_o,
  output logic                                 mem_we_o,
  output logic [LineIdxW-1:0]                  mem_addr_o,
  output logic [LineBits-1:0]                  mem_wdata_o,
  input  wire logic                            mem_gnt_i,
  input  wire logic [LineBits-1:0]             mem_rdata_i,
  input  wire logic                            reg_valid_i,
  input  wire logic                            reg_we_i,
  input  wire logic [7:0]                      reg_addr_i,
  input  wire logic [31:0]                     reg_wdata_i,
  output logic [31:0]                          reg_rdata_o,
  output logic                                 idle_o
);

  localparam logic [1:0] OP_READ = 2'd0, OP_WRITE = 2'd1, OP_POLICY = 2'd2;

  if (Lines < 1 || Lines > 65536) $error("cni_scratch_engine: Lines must be 1..65536");
  if (LineBytes * 8 != Words * 32 || Words > 32) $error("cni_scratch_engine: LineBytes 4..128");

  // An operation: recall (RECALL_DN for a read, RECALL for a write), wait for RECALL_DONE,
  // then the memory access; a policy change is one command.
  typedef enum logic [2:0] {SIdle, SCmd, SWait, SMem, SRead} state_e;
  state_e state_q, state_d;

  logic [LineBits-1:0] buf_q;
  logic [1:0]          op_q;
  logic [1:0]          pol_q;
  logic [LineIdxW-1:0] line_q;
  logic                bad_q;
  logic [15:0]         done_q;
  logic [31:0]         nacks_q;
  // A parked host request waiting for its NACK (taken events wait while one is pending).
  logic                nack_q;
  logic [LineIdxW-1:0] nack_line_q;

  // ---- registers --------------------------------------------------------------------------
  wire        ctrl_wr = reg_valid_i && reg_we_i && reg_addr_i == 8'h00;
  wire [15:0] ctrl_line = reg_wdata_i[31:16];
  wire        ctrl_ok = 32'(ctrl_line) < 32'(Lines);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      reg_rdata_o <= '0;
    end else if (reg_valid_i && !reg_we_i) begin
      reg_rdata_o <= '0;
      if (reg_addr_i == 8'h00) reg_rdata_o <= {done_q, 14'd0, bad_q, state_q != SIdle};
      else if (reg_addr_i == 8'h04) reg_rdata_o <= nacks_q;
      else if (reg_addr_i[7] && 32'(reg_addr_i[6:2]) < 32'(Words)) begin
        reg_rdata_o <= buf_q[32 * reg_addr_i[6:2] +: 32];
      end
    end
  end

  // ---- commands: the operation's, or a NACK --------------------------------------------------
  // One is presented at a time and held until taken: the choice is kept while it waits.
  logic pres_q, pres_nack_q;
  wire  op_cmd  = state_q == SCmd;
  wire  is_nack = pres_q ? pres_nack_q : nack_q;
  always_comb begin
    cmd_valid_o = op_cmd || nack_q;
    cmd_line_o  = is_nack ? nack_line_q : line_q;
    cmd_arg_o   = '0;
    unique case (op_q)
      OP_READ:  cmd_op_o = cni_coh_pkg::CMD_RECALL_DN;
      OP_WRITE: cmd_op_o = cni_coh_pkg::CMD_RECALL;
      default: begin
        cmd_op_o  = cni_coh_pkg::CMD_POLICY;
        cmd_arg_o = pol_q;
      end
    endcase
    if (is_nack) begin
      cmd_op_o  = cni_coh_pkg::CMD_NACK;
      cmd_arg_o = cni_coh_pkg::NACK_ERROR;
    end
  end
  wire cmd_fire = cmd_valid_o && cmd_ready_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pres_q      <= 1'b0;
      pres_nack_q <= 1'b0;
    end else begin
      pres_q      <= cmd_valid_o && !cmd_ready_i;
      pres_nack_q <= is_nack;
    end
  end

  // ---- events -----------------------------------------------------------------------------
  // RECALL_DONE of the operation's line ends its wait; a TRIGGER (a host request the line's
  // policy parked) is answered NACK Error; anything else is dropped.
  assign evt_ready_o = !nack_q;
  wire evt_take = evt_valid_i && evt_ready_o;
  wire evt_done = evt_take && evt_kind_i == cni_coh_pkg::EVT_RECALL_DONE &&
                  state_q == SWait && evt_line_i == line_q;
  wire evt_trig = evt_take && evt_kind_i == cni_coh_pkg::EVT_TRIGGER;

  // Quiescence: no operation running, no NACK owed.
  assign idle_o = state_q == SIdle && !nack_q;

  // ---- memory -------------------------------------------------------------------------------
  assign mem_en_o    = state_q == SMem;
  assign mem_we_o    = op_q == OP_WRITE;
  assign mem_addr_o  = line_q;
  assign mem_wdata_o = buf_q;

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      SIdle: if (ctrl_wr && ctrl_ok) state_d = SCmd;
      SCmd:  if (cmd_fire && !is_nack) state_d = (op_q == OP_POLICY) ? SIdle : SWait;
      SWait: if (evt_done) state_d = SMem;
      SMem:  if (mem_gnt_i) state_d = (op_q == OP_READ) ? SRead : SIdle;
      SRead: state_d = SIdle;
      default: state_d = SIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= SIdle;
      op_q        <= OP_READ;
      pol_q       <= '0;
      line_q      <= '0;
      bad_q       <= 1'b0;
      done_q      <= '0;
      nacks_q     <= '0;
      nack_q      <= 1'b0;
      nack_line_q <= '0;
    end else begin
      state_q <= state_d;
      if (state_q == SIdle && ctrl_wr) begin
        bad_q <= !ctrl_ok;
        if (ctrl_ok) begin
          op_q   <= reg_wdata_i[1:0];
          pol_q  <= reg_wdata_i[9:8];
          line_q <= LineIdxW'(32'(Base) + 32'(ctrl_line));
        end
      end
      if (state_q != SIdle && state_d == SIdle) done_q <= done_q + 1'b1;
      if (evt_trig) begin
        nack_q      <= 1'b1;
        nack_line_q <= evt_line_i;
      end else if (cmd_fire && is_nack) begin
        nack_q  <= 1'b0;
        nacks_q <= nacks_q + 1'b1;
      end
    end
  end

  // the line buffer: written by software, or by a read's data
  always_ff @(posedge clk_i) begin
    if (state_q == SRead) buf_q <= mem_rdata_i;
    else if (reg_valid_i && reg_we_i && reg_addr_i[7] && 32'(reg_addr_i[6:2]) < 32'(Words)) begin
      buf_q[32 * reg_addr_i[6:2] +: 32] <= reg_wdata_i;
    end
  end

endmodule
