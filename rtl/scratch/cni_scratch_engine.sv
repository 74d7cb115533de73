// SPDX-License-Identifier: Apache-2.0
// Scratch-pad engine: the worked example of an engine on the engine bus (docs/endpoint.md,
// "Adding an engine"). Its region is coherent device memory that device software reaches
// through the engine's register window: a coherent line read (a downgrade-only recall pulls a
// host's dirty copy, which the host keeps Shared), a coherent line write (a recall invalidates
// every host copy first) and a policy change of a line; a host request its policy parks is
// answered Error (NACK). It also sends its line buffer to another node's scratch-pad engine as a
// network frame, and takes such frames into the buffer (docs/endpoint.md, "Network port"), and
// reads or writes a host line through the device's caching agent (docs/endpoint.md, "The
// caching agent on the engine bus").
// Registers (byte offsets in the engine's CSR window):
//   0x00 CTRL    W: start: [2:0] op (0 read, 1 write, 2 policy, 3 send, 4 host), [6:4] the
//                   host op's caching-agent operation (cni_coh_pkg::CA_*), [9:8] policy,
//                   [31:16] line (within the region), or the destination node (send); ignored
//                   while busy
//                R: [0] busy (an operation runs or the last frame is leaving), [1] the last op
//                   named a line outside the region, [2] the last host op was answered with an
//                   error, [31:16] ops done
//   0x04 NACKS   R: host requests answered Error
//   0x08 NET_TX  R: frames sent
//   0x0C NET_RX  R: [15:0] frames taken into the buffer, [31:16] the last one's source node
//   0x10 NET_BAD R: frames dropped (FCS check failed, or not a line's payload)
//   0x14 HADDR_LO, 0x18 HADDR_HI ([15:0])
//                RW: the host byte address of a host op (line aligned, else the op's error);
//                    ignored while busy
//   0x80 + 4i    RW: word i of the line buffer (what a read returns, what a write writes, what a
//                    send sends, what a frame received brings)
// A frame (type NET_TYPE_SCRATCH) carries the line buffer as its payload, and its sequence
// number is the count of frames sent before it. A frame received waits while an operation runs
// and replaces the buffer once none does. A host op sends the buffer with a write (every byte
// enabled) and takes the line into the buffer from a read (CA_RD_S, CA_RD_X, CA_RD_NA).
//
// Parameters:
//   LineBytes, LineIdxW - line size, device line index width
//   Base, Lines         - the region: device lines [Base, Base + Lines)
//   NetBytes            - bytes per beat of the network stream
//   CacheIdW            - id width of the caching agent's request port
// Ports: the engine records (cni_engine_types.svh): the engine bus (events, commands, memory
// port B, the register window), the network and the caching agent;
// idle_o: no operation running, no NACK owed, no frame under way (docs/endpoint.md,
// "Quiescence").
`default_nettype none

module cni_scratch_engine #(
  parameter int LineBytes = 128,
  parameter int LineIdxW  = 11,
  parameter int NetBytes  = 64,
  parameter int CacheIdW  = 4,
  parameter int Base      = 0,
  parameter int Lines     = 64,
  localparam int LineBits = LineBytes * 8,
  localparam int Words    = LineBytes / 4
) (
  input  wire logic                                                 clk_i,
  input  wire logic                                                 rst_ni,
  input  wire logic [cni_coh_pkg::eng_evt_req_w(LineIdxW)-1:0]      evt_req_i,
  output logic [cni_coh_pkg::ENG_EVT_RSP_W-1:0]                     evt_rsp_o,
  output logic [cni_coh_pkg::eng_cmd_req_w(LineIdxW)-1:0]           cmd_req_o,
  input  wire logic [cni_coh_pkg::ENG_CMD_RSP_W-1:0]                cmd_rsp_i,
  output logic [cni_coh_pkg::eng_mem_req_w(LineIdxW, LineBytes)-1:0] mem_req_o,
  input  wire logic [cni_coh_pkg::eng_mem_rsp_w(LineBytes)-1:0]     mem_rsp_i,
  input  wire logic [cni_coh_pkg::ENG_REG_REQ_W-1:0]                reg_req_i,
  output logic [cni_coh_pkg::ENG_REG_RSP_W-1:0]                     reg_rsp_o,
  output logic [cni_coh_pkg::eng_net_req_w(NetBytes)-1:0]           net_req_o,
  input  wire logic [cni_coh_pkg::eng_net_rsp_w(NetBytes)-1:0]      net_rsp_i,
  output logic [cni_coh_pkg::eng_ca_req_w(LineBytes, CacheIdW)-1:0] ca_req_o,
  input  wire logic [cni_coh_pkg::eng_ca_rsp_w(LineBytes, CacheIdW)-1:0] ca_rsp_i,
  output logic                                                      idle_o
);

`include "cni_engine_types.svh"
  // The engine records (cni_engine_types.svh).
  eng_cmd_req_t cmd;
  eng_cmd_rsp_t cmd_rsp;
  eng_mem_req_t mem;
  eng_mem_rsp_t mem_rsp;
  /* verilator lint_off UNUSEDSIGNAL */
  eng_reg_req_t rq;       // priv, ctx: one window, no privileged register
  /* verilator lint_on UNUSEDSIGNAL */
  eng_net_req_t net;
  eng_ca_req_t  ca;
  /* verilator lint_off UNUSEDSIGNAL */
  eng_evt_req_t evt;      // op, src: any parked request is refused
  eng_net_rsp_t net_rsp;  // rx_data, rx_keep, rx_last, rx_user: cni_net_rx's; rx_chan,
                          // tx_room: one input for both channels, the switch gates the output
  eng_ca_rsp_t  ca_rsp;   // rsp_id: one request at a time
  /* verilator lint_on UNUSEDSIGNAL */
  assign evt       = evt_req_i;
  assign cmd_req_o = cmd;
  assign cmd_rsp   = cmd_rsp_i;
  assign mem_req_o = mem;
  assign mem_rsp   = mem_rsp_i;
  assign rq        = reg_req_i;
  assign net_req_o = net;
  assign net_rsp   = net_rsp_i;
  assign ca_req_o  = ca;
  assign ca_rsp    = ca_rsp_i;


  // The window's register offsets (R_CTRL, R_NACKS, ... R_BUF), from its SystemRDL description
  // (rtl/scratch/cni_scratch.rdl; generated by scripts/gen-engines.py).
`include "cni_engine_scratch_consts.svh"
  localparam logic [2:0] OP_READ = 3'd0, OP_WRITE = 3'd1, OP_POLICY = 3'd2, OP_SEND = 3'd3;
  localparam logic [2:0] OP_HOST = 3'd4;
  localparam int HdrB   = cni_amap_pkg::NET_HDR_BYTES;
  localparam int FrameB = HdrB + LineBytes;

  if (Lines < 1 || Lines > 65536) $error("cni_scratch_engine: Lines must be 1..65536");
  if (LineBytes * 8 != Words * 32 || Words > 32) $error("cni_scratch_engine: LineBytes 4..128");

  // An operation: recall (RECALL_DN for a read, RECALL for a write), wait for RECALL_DONE,
  // then the memory access; a policy change is one command; a host op is one request to the
  // caching agent and its response.
  typedef enum logic [2:0] {SIdle, SCmd, SWait, SMem, SRead, SSend, SHost, SHostRsp} state_e;
  state_e state_q, state_d;

  logic [LineBits-1:0] buf_q;
  logic [2:0]          op_q;
  logic [cni_coh_pkg::CA_OP_W-1:0] caop_q;  // a host op's caching-agent operation
  logic [47:0]         haddr_q;     // a host op's address
  logic                herr_q;      // the last host op was answered with an error
  logic [1:0]          pol_q;
  logic [LineIdxW-1:0] line_q;
  logic                bad_q;
  logic [15:0]         done_q;
  logic [31:0]         nacks_q;
  logic [15:0]         dest_q;      // a send's destination node
  logic [31:0]         sent_q;      // frames sent
  logic [15:0]         rcvd_q;      // frames taken
  logic [15:0]         rsrc_q;      // the last one's source
  logic [31:0]         nbad_q;      // frames dropped
  // A parked host request waiting for its NACK (taken events wait while one is pending).
  logic                nack_q;
  logic [LineIdxW-1:0] nack_line_q;

  // ---- registers --------------------------------------------------------------------------
  // Busy: an operation runs, or the last send's frame is still leaving (the network may hold
  // it back for long). A CTRL write is taken only when not busy, so a send never waits for the
  // sender and the receiver goes on taking frames meanwhile: two engines that stream frames at
  // each other cannot each wait for the other to take one.
  logic       tx_busy;
  wire        busy = state_q != SIdle || tx_busy;
  wire        ctrl_wr = rq.valid && rq.we && rq.addr == R_CTRL && !busy;
  wire [15:0] ctrl_line = rq.wdata[31:16];
  wire        ctrl_send = rq.wdata[2:0] == OP_SEND;
  wire        ctrl_host = rq.wdata[2:0] == OP_HOST;
  wire        ctrl_ok = ctrl_send || ctrl_host || 32'(ctrl_line) < 32'(Lines);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      reg_rsp_o <= '0;
    end else if (rq.valid && !rq.we) begin
      reg_rsp_o <= '0;
      if (rq.addr == R_CTRL) reg_rsp_o <= {done_q, 13'd0, herr_q, bad_q, busy};
      else if (rq.addr == R_NACKS) reg_rsp_o <= nacks_q;
      else if (rq.addr == R_NET_TX) reg_rsp_o <= sent_q;
      else if (rq.addr == R_NET_RX) reg_rsp_o <= {rsrc_q, rcvd_q};
      else if (rq.addr == R_NET_BAD) reg_rsp_o <= nbad_q;
      else if (rq.addr == R_HADDR_LO) reg_rsp_o <= haddr_q[31:0];
      else if (rq.addr == R_HADDR_HI) reg_rsp_o <= {16'd0, haddr_q[47:32]};
      else if (rq.addr >= R_BUF && 32'(rq.addr[6:2]) < 32'(Words)) begin
        reg_rsp_o <= buf_q[32 * rq.addr[6:2] +: 32];
      end
    end
  end

  // ---- commands: the operation's, or a NACK --------------------------------------------------
  // One is presented at a time and held until taken: the choice is kept while it waits.
  logic pres_q, pres_nack_q;
  wire  op_cmd  = state_q == SCmd;
  wire  is_nack = pres_q ? pres_nack_q : nack_q;
  always_comb begin
    cmd.valid = op_cmd || nack_q;
    cmd.line  = is_nack ? nack_line_q : line_q;
    cmd.arg   = '0;
    unique case (op_q)
      OP_READ:  cmd.op = cni_coh_pkg::CMD_RECALL_DN;
      OP_WRITE: cmd.op = cni_coh_pkg::CMD_RECALL;
      default: begin
        cmd.op  = cni_coh_pkg::CMD_POLICY;
        cmd.arg = pol_q;
      end
    endcase
    if (is_nack) begin
      cmd.op  = cni_coh_pkg::CMD_NACK;
      cmd.arg = cni_coh_pkg::NACK_ERROR;
    end
  end
  wire cmd_fire = cmd.valid && cmd_rsp.ready;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pres_q      <= 1'b0;
      pres_nack_q <= 1'b0;
    end else begin
      pres_q      <= cmd.valid && !cmd_rsp.ready;
      pres_nack_q <= is_nack;
    end
  end

  // ---- events -----------------------------------------------------------------------------
  // RECALL_DONE of the operation's line ends its wait; a TRIGGER (a host request the line's
  // policy parked) is answered NACK Error; anything else is dropped.
  assign evt_rsp_o = !nack_q;
  wire evt_take = evt.valid && evt_rsp_o;
  wire evt_done = evt_take && evt.kind == cni_coh_pkg::EVT_RECALL_DONE &&
                  state_q == SWait && evt.line == line_q;
  wire evt_trig = evt_take && evt.kind == cni_coh_pkg::EVT_TRIGGER;

  // ---- network ------------------------------------------------------------------------------
  // A send: the header and the line buffer, out through cni_net_tx. A frame received lands in
  // cni_net_rx and is taken into the buffer when no operation runs.
  logic tx_idle, rx_valid, rx_bad, rx_idle;
  // (the header's dst, len, type, flags and seq are not read: the switch routed the frame by
  // type, and its length is checked as a count)
  /* verilator lint_off UNUSEDSIGNAL */
  logic [FrameB*8-1:0] rx_frame;
  /* verilator lint_on UNUSEDSIGNAL */
  logic [15:0]         rx_bytes;
  wire  [HdrB*8-1:0]   tx_hdr = {sent_q, 8'h00, NET_TYPE_SCRATCH, 16'(LineBytes),
                                 net_rsp.node_id, dest_q};
  cni_net_tx #(.NetBytes(NetBytes), .MaxBytes(FrameB)) u_tx (
    .clk_i, .rst_ni,
    .start_i (state_q == SSend), .frame_i ({buf_q, tx_hdr}),
    .bytes_i (16'(FrameB)), .dest_i (dest_q), .busy_o (tx_busy),
    .tx_tvalid_o (net.tx_valid), .tx_tready_i (net_rsp.tx_ready), .tx_tdata_o (net.tx_data),
    .tx_tkeep_o (net.tx_keep), .tx_tlast_o (net.tx_last), .tx_tdest_o (net.tx_dest),
    .idle_o (tx_idle)
  );
  // (not in a cycle of a register write: the write, or the operation it starts, keeps the
  // buffer software gave it)
  wire rx_take = rx_valid && state_q == SIdle && !(rq.valid && rq.we);
  logic rx_ready;  // its one input takes a frame of either channel
  assign net.rx_ready = {2{rx_ready}};
  cni_net_rx #(.NetBytes(NetBytes), .MaxBytes(FrameB)) u_rx (
    .clk_i, .rst_ni,
    .rx_tvalid_i (net_rsp.rx_valid), .rx_tready_o (rx_ready), .rx_tdata_i (net_rsp.rx_data),
    .rx_tkeep_i (net_rsp.rx_keep), .rx_tlast_i (net_rsp.rx_last), .rx_tuser_i (net_rsp.rx_user),
    .valid_o (rx_valid), .frame_o (rx_frame), .bytes_o (rx_bytes), .bad_o (rx_bad),
    .ack_i (rx_take), .idle_o (rx_idle)
  );
  // a good frame: its FCS held, a line's payload
  wire rx_good = !rx_bad && rx_bytes == 16'(FrameB) && rx_frame[4*8 +: 16] == 16'(LineBytes);

  // Quiescence: no operation running, no NACK owed, no frame under way.
  assign idle_o = state_q == SIdle && !nack_q && tx_idle && rx_idle;

  // ---- caching agent: a host op -----------------------------------------------------------------
  wire ca_read = caop_q == cni_coh_pkg::CA_RD_S || caop_q == cni_coh_pkg::CA_RD_X ||
                 caop_q == cni_coh_pkg::CA_RD_NA;
  assign ca.valid = state_q == SHost;
  assign ca.op    = caop_q;
  assign ca.addr  = cni_coh_pkg::ADDR_W'(haddr_q);
  assign ca.data  = buf_q;
  assign ca.be    = '1;
  assign ca.id    = '0;
  assign ca.rsp_ready = state_q == SHostRsp;
  wire   ca_rsp_take    = ca_rsp.rsp_valid && state_q == SHostRsp;

  // ---- memory -------------------------------------------------------------------------------
  assign mem.en    = state_q == SMem;
  assign mem.we    = op_q == OP_WRITE;
  assign mem.addr  = line_q;
  assign mem.wdata = buf_q;

  always_comb begin
    state_d = state_q;
    unique case (state_q)
      SIdle: if (ctrl_wr && ctrl_ok) state_d = ctrl_send ? SSend : ctrl_host ? SHost : SCmd;
      SCmd:  if (cmd_fire && !is_nack) state_d = (op_q == OP_POLICY) ? SIdle : SWait;
      SWait: if (evt_done) state_d = SMem;
      SMem:  if (mem_rsp.gnt) state_d = (op_q == OP_READ) ? SRead : SIdle;
      SRead: state_d = SIdle;
      SSend: state_d = SIdle;  // the sender is free (CTRL waited for it) and takes the frame
      SHost: if (ca_rsp.ready) state_d = SHostRsp;
      SHostRsp: if (ca_rsp_take) state_d = SIdle;
      default: state_d = SIdle;
    endcase
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q     <= SIdle;
      op_q        <= OP_READ;
      caop_q      <= '0;
      haddr_q     <= '0;
      herr_q      <= 1'b0;
      pol_q       <= '0;
      line_q      <= '0;
      bad_q       <= 1'b0;
      done_q      <= '0;
      nacks_q     <= '0;
      nack_q      <= 1'b0;
      nack_line_q <= '0;
      dest_q      <= '0;
      sent_q      <= '0;
      rcvd_q      <= '0;
      rsrc_q      <= '0;
      nbad_q      <= '0;
    end else begin
      state_q <= state_d;
      if (ctrl_wr) begin
        bad_q <= !ctrl_ok;
        if (ctrl_ok) begin
          op_q   <= rq.wdata[2:0];
          caop_q <= rq.wdata[6:4];
          pol_q  <= rq.wdata[9:8];
          if (!ctrl_send) line_q <= LineIdxW'(32'(Base) + 32'(ctrl_line));
          dest_q <= ctrl_line;
        end
      end
      if (state_q != SIdle && state_d == SIdle) done_q <= done_q + 1'b1;
      // (not while busy: a host op presents its address until the agent takes it)
      if (rq.valid && rq.we && !busy && rq.addr == R_HADDR_LO) haddr_q[31:0] <= rq.wdata;
      if (rq.valid && rq.we && !busy && rq.addr == R_HADDR_HI) haddr_q[47:32] <= rq.wdata[15:0];
      if (ca_rsp_take) herr_q <= ca_rsp.rsp_err;
      if (state_q == SSend) sent_q <= sent_q + 1'b1;
      if (rx_take) begin
        if (rx_good) begin
          rcvd_q <= rcvd_q + 1'b1;
          rsrc_q <= rx_frame[2*8 +: 16];
        end else begin
          nbad_q <= nbad_q + 1'b1;
        end
      end
      if (evt_trig) begin
        nack_q      <= 1'b1;
        nack_line_q <= evt.line;
      end else if (cmd_fire && is_nack) begin
        nack_q  <= 1'b0;
        nacks_q <= nacks_q + 1'b1;
      end
    end
  end

  // the line buffer: written by software, or by a read's data
  always_ff @(posedge clk_i) begin
    if (state_q == SRead) buf_q <= mem_rsp.rdata;
    else if (ca_rsp_take && ca_read && !ca_rsp.rsp_err) buf_q <= ca_rsp.rsp_data;
    else if (rx_take && rx_good) buf_q <= rx_frame[HdrB*8 +: LineBits];
    else if (rq.valid && rq.we && rq.addr >= R_BUF && 32'(rq.addr[6:2]) < 32'(Words)) begin
      buf_q[32 * rq.addr[6:2] +: 32] <= rq.wdata;
    end
  end

endmodule
