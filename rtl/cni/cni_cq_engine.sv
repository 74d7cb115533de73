// SPDX-License-Identifier: Apache-2.0
// CNI cache/queue engine (docs/cni.md): seed 000's coherent network interface as one engine on
// the engine bus, its configuration picked by a parameter: NI2w (uncached registers over hardware
// queues), CNI4 (cachable device registers over hardware queues), the cachable queues homed on
// the device, CNI16Q and CNI512Q, and CNI16Qm (their send side; the receive queue homed in host
// memory, written through the device caching agent); the queues' send lines pulled at
// message-ready, or (EarlyPull = 1) each also as the CPU asks to own the next line of its slot;
// no retransmission.
//
// The engine never touches the link: it sets line policies and drives the home agent's commands
// (POLICY, RESUME, RECALL, RECALL_DN), takes its TRIGGER and RECALL_DONE events, reads and writes
// device memory through port B, takes uncached register accesses through its register window,
// and sends and receives frames through cni_cq_net. This module is the part every configuration
// shares: the registers and counters, the network side, the reset POLICYs and the command slot;
// the configuration's front end is its own module (cni_cq_ni2w, cni_cq_cni4, cni_cq_queue),
// chosen by Config; each front end's header sums up its side of the state tables (docs/cni.md
// section 5). The lock every front end but NI2w's uses:
//
//   locked write: RECALL(l); its RECALL_DONE is held while l is written through port B and
//                 taken in the cycle after the write is granted (docs/protocol.md, "The locked
//                 write")
//
// Commands go out through one registered slot (never withdrawn), in priority order: the reset
// POLICYs (the register page DENY, CNI4's TX CDRs SHARED), RESUMEs, pulls, locked-write RECALLs
// (and the clear's), the SQ_HEAD RECALL, the RQ_HEAD refresh. Port B: lock writes, then the
// RQ_HEAD read, then SQ (CNI4: TX CDR) reads.
//
// Parameters:
//   Config              - cni_cq_pkg::CFG_* (NI2w, CNI4, CNI16Q, CNI512Q, CNI16Qm)
//   LineBytes, LineIdxW - line size (64 or 128), device line index width
//   Base                - the region's first device line
//   SqLines, RqLines    - CQ: send and receive queue lines (MSG_BYTES / LineBytes per slot,
//                         a power of two >= 2 slots)
//   FifoMsgs            - NI2w, CNI4: messages of the largest size each hardware queue holds
//   MaxNodes, Window    - network side (cni_cq_net)
//   Retransmit          - 1: go-back-N retransmission built (cni_cq_net; CTRL.retransmit turns
//                         it on)
//   NetBytes            - bytes per beat of the network port
//   CacheIdW            - id width of the caching agent's request port
//   EarlyPull           - CQ configurations: 1 pulls a send line when the CPU asks to own the
//                         next line of its slot (000 section 3), 0 only at message-ready
//   ParkMax             - EarlyPull: requests the home agent can hold parked (its table's
//                         entries less its reserve), the depth of the owed-RESUME FIFO
// Ports: the engine records (cni_engine_types.svh): the engine bus (events, commands, memory
// port B, the register window), the network and the caching agent (CNI16Qm only, the other
// configurations present no request); rx_msg_o: a one-cycle pulse per message the receive side
// takes into its queue or FIFO (from the network or from this node), the engine registry's
// signal `cni_rx` (the tag store's message arrivals).
`default_nettype none

module cni_cq_engine #(
  parameter int Config    = cni_cq_pkg::CFG_CNI16Q,
  parameter int LineBytes = 128,
  parameter int LineIdxW  = 12,
  parameter int Base      = 0,
  parameter int SqLines   = cni_cq_pkg::sq_bytes(Config) / LineBytes,
  parameter int RqLines   = cni_cq_pkg::rq_bytes(Config) / LineBytes,
  parameter int FifoMsgs  = 4,
  parameter int MaxNodes  = 16,
  parameter int Window    = 4,
  parameter int NetBytes  = 64,
  parameter int CacheIdW  = 4,
  parameter int EarlyPull = 0,
  parameter int Retransmit = 0,
  parameter int ParkMax   = 24
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
  output logic                                                      idle_o,
  output logic                                                      rx_msg_o
);

`include "cni_engine_types.svh"
  // The engine records (cni_engine_types.svh).
  eng_cmd_req_t cmd;
  eng_cmd_rsp_t cmd_rsp;
  eng_mem_req_t mem;
  eng_mem_rsp_t mem_rsp;
  eng_net_req_t net;
  eng_ca_req_t  ca;
  eng_ca_rsp_t  ca_rsp;
  /* verilator lint_off UNUSEDSIGNAL */
  eng_net_rsp_t net_rsp;  // rx_chan, tx_room: one input for both channels, the switch gates
                          // the output (cni_engine_types.svh)
  eng_evt_req_t evt;      // op, src: SHARED parks only writes
  eng_reg_req_t rq;       // addr[1:0]: 32-bit accesses; priv, ctx: one window, none privileged
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

  localparam int  MsgBits = cni_cq_pkg::MSG_BYTES * 8;
  localparam int  B       = cni_cq_pkg::MSG_BYTES / LineBytes;  // lines per slot
  localparam int  R       = cni_cq_pkg::reg_lines(LineBytes);   // register-page lines
  localparam bit  Cq      = cni_cq_pkg::is_cq(Config);
  localparam bit  Qm      = Config == cni_cq_pkg::CFG_CNI16QM;  // RQ in host memory
  localparam bit  Cdr     = Config == cni_cq_pkg::CFG_CNI4;     // cachable device registers
  localparam int  NS      = Cq ? SqLines / B : 0;               // SQ slots
  localparam int  NR      = Cq ? RqLines / B : 0;               // RQ slots
  localparam int  Lines   = cni_cq_pkg::region_lines(Config, LineBytes, SqLines, RqLines);
  localparam int  NC      = cni_cq_pkg::NUM_CNT;
  localparam bit  Ep      = Cq && EarlyPull != 0;                // SQ lines SHARED, early pulls

  if (!cni_cq_pkg::built(Config)) $error("cni_cq_engine: Config %0d is not a CNI configuration", Config);
  if (Qm && (1 << CacheIdW) < B)
    $error("cni_cq_engine: CacheIdW must name every line of a slot (%0d)", B);
  if (LineBytes != 64 && LineBytes != 128) $error("cni_cq_engine: LineBytes must be 64 or 128");
  if (EarlyPull != 0 && !Cq) $error("cni_cq_engine: EarlyPull is for the queue configurations");
  if (Cq && (NS < 2 || (NS & (NS - 1)) != 0 || NS * B != SqLines))
    $error("cni_cq_engine: SqLines must be a power of two >= 2 slots of %0d lines", B);
  if (Cq && (NR < 2 || (NR & (NR - 1)) != 0 || NR * B != RqLines))
    $error("cni_cq_engine: RqLines must be a power of two >= 2 slots of %0d lines", B);
  if (Base + Lines > (1 << LineIdxW)) $error("cni_cq_engine: the region does not fit LineIdxW");

  // ---- registers ------------------------------------------------------------------------------
  // An 8-byte register is written low word then high word; the write takes effect with the high
  // word, with the low word kept from the access before.
  logic [31:0] wlo_q;
  logic        open_q;
  logic        retx_en_q;   // CTRL.retransmit (0 unless built with Retransmit)
  logic [7:0]  nodes_q;
  logic [15:0] vp_backoff_q, rq_poll_q;
  logic [31:0] retx_q;
  logic [47:0] rqb_q;       // CNI16Qm: RQ_BASE, the host byte address of RQ_HEAD
  logic        err_q;       // CNI16Qm: a queue access was answered Error (STATUS.err)
  logic        rx_err;      // ... this cycle: the endpoint closes
  logic [31:0] cnt_q [NC];
  logic [NC-1:0] cnt_inc;   // counter pulses of this cycle
  logic [31:0]   gap;       // frames a sequence gap skipped (with C_RX_GAP)

  wire        reg_wr  = rq.valid && rq.we && !rq.addr[7];
  wire        reg_rd  = rq.valid && !rq.we;
  wire        wr_hi   = reg_wr && rq.addr[2];
  wire [7:0]  wreg    = {rq.addr[7:3], 3'b000};
  wire [63:0] wval    = {rq.wdata, wlo_q};
  wire        w_ctrl  = wr_hi && wreg == cni_cq_pkg::R_CTRL;
  wire        w_tmr   = wr_hi && wreg == cni_cq_pkg::R_TIMERS;
  wire        w_txhdr = wr_hi && wreg == cni_cq_pkg::R_TX_HDR;
  wire        w_txdat = wr_hi && wreg == cni_cq_pkg::R_TX_DATA;
  wire        w_ready = wr_hi && wreg == cni_cq_pkg::R_TX_READY;
  wire        w_rqb   = wr_hi && wreg == cni_cq_pkg::R_RQ_BASE && Qm;
  wire        w_clear = wr_hi && wreg == cni_cq_pkg::R_RX_CLEAR && Cdr;
  wire        rd_hi   = reg_rd && rq.addr[2] && !rq.addr[7];
  wire        r_rxhdr = reg_rd && {rq.addr[7:3], 3'b000} == cni_cq_pkg::R_RX_HDR;
  wire        r_rxdat = reg_rd && {rq.addr[7:3], 3'b000} == cni_cq_pkg::R_RX_DATA;
  // a write to a register of another configuration (or a read-only one)
  wire        w_known = wreg == cni_cq_pkg::R_CTRL || wreg == cni_cq_pkg::R_TIMERS ||
                        (Config == cni_cq_pkg::CFG_NI2W &&
                         (wreg == cni_cq_pkg::R_TX_HDR || wreg == cni_cq_pkg::R_TX_DATA)) ||
                        (Cdr && wreg == cni_cq_pkg::R_RX_CLEAR) ||
                        (Cq && wreg == cni_cq_pkg::R_TX_READY) ||
                        (Qm && wreg == cni_cq_pkg::R_RQ_BASE);

  // Values the front ends show in STATUS and the NI2w receive registers.
  logic [15:0] st_tx_free, st_rx_msgs, st_pend;
  logic        st_tx_open, st_rx_ready;   // CNI4: the TX CDRs take a message; the RX CDRs hold one
  logic [31:0] st_tx_seq;                 // CNI4: the message number expected next in T0
  logic [63:0] rx_hdr_val, rx_dat_val;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wlo_q        <= '0;
      open_q       <= 1'b0;
      retx_en_q    <= 1'b0;
      nodes_q      <= 8'(MaxNodes);
      vp_backoff_q <= 16'd16;
      rq_poll_q    <= 16'd64;
      retx_q       <= 32'h4000;
      rqb_q        <= '0;
      err_q        <= 1'b0;
    end else begin
      if (reg_wr && !rq.addr[2]) wlo_q <= rq.wdata;
      if (w_rqb) begin
        rqb_q <= wval[47:0] & ~(48'(LineBytes) - 48'd1);   // line aligned
        err_q <= 1'b0;
      end
      if (rx_err) err_q <= 1'b1;
      if (w_ctrl) begin
        open_q    <= wval[0];
        retx_en_q <= Retransmit != 0 && wval[1];
        nodes_q <= (32'(wval[15:8]) > 32'(MaxNodes) || wval[15:8] == '0) ? 8'(MaxNodes)
                                                                          : wval[15:8];
      end
      if (rx_err) open_q <= 1'b0;
      if (w_tmr) begin
        vp_backoff_q <= wval[15:0];
        rq_poll_q    <= wval[31:16];
        retx_q       <= wval[63:32];
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      reg_rsp_o <= '0;
    end else if (reg_rd) begin
      reg_rsp_o <= '0;
      if (rq.addr[7]) begin
        if (32'(rq.addr[6:2]) < 32'(NC)) reg_rsp_o <= cnt_q[rq.addr[6:2]];
      end else begin
        unique case ({rq.addr[7:3], 3'b000})
          cni_cq_pkg::R_ID: reg_rsp_o <= rq.addr[2] ? {16'(NR), 16'(NS)}
                                               : {net_rsp.node_id, 8'(Window), 8'(Config)};
          cni_cq_pkg::R_CTRL: reg_rsp_o <= rq.addr[2] ? '0
                                                      : {16'd0, nodes_q, 6'd0, retx_en_q, open_q};
          cni_cq_pkg::R_TIMERS: reg_rsp_o <= rq.addr[2] ? retx_q : {rq_poll_q, vp_backoff_q};
          cni_cq_pkg::R_STATUS: reg_rsp_o <= rq.addr[2]
                                                 ? {12'd0, st_rx_ready, st_tx_open, err_q, open_q,
                                                    st_pend}
                                                 : {st_rx_msgs, st_tx_free};
          cni_cq_pkg::R_TX_SEQ: reg_rsp_o <= rq.addr[2] ? {31'd0, st_tx_open} : st_tx_seq;
          cni_cq_pkg::R_RQ_BASE: reg_rsp_o <= rq.addr[2] ? {16'd0, rqb_q[47:32]}
                                                              : rqb_q[31:0];
          cni_cq_pkg::R_RX_HDR: reg_rsp_o <= rq.addr[2] ? rx_hdr_val[63:32] : rx_hdr_val[31:0];
          cni_cq_pkg::R_RX_DATA: reg_rsp_o <= rq.addr[2] ? rx_dat_val[63:32] : rx_dat_val[31:0];
          default: reg_rsp_o <= '0;
        endcase
      end
    end
  end

  // counters; CTRL written with bit 31 set clears them
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      for (int i = 0; i < NC; i++) cnt_q[i] <= '0;
    end else if (w_ctrl && wval[31]) begin
      for (int i = 0; i < NC; i++) cnt_q[i] <= '0;
    end else begin
      for (int i = 0; i < NC; i++) begin
        if (cnt_inc[i]) cnt_q[i] <= cnt_q[i] + ((i == cni_cq_pkg::C_RX_GAP) ? gap : 32'd1);
      end
    end
  end

  // ---- the message to send, and the network side ----------------------------------------------
  // txm: the message the send front end built (a slot image), held until the network takes it.
  logic              txm_q;
  logic [MsgBits-1:0] txm_img_q;
  logic              txm_take;
  logic              rmsg_valid, rmsg_ready;
  logic [MsgBits-1:0] rmsg_img;
  logic [NC-1:0]     net_cnt;
  logic              net_idle;
  logic              nrx_ready;  // its one input takes a frame of either channel
  assign net.rx_ready = {2{nrx_ready}};
  cni_cq_net #(.MaxNodes (MaxNodes), .Window (Window), .NetBytes (NetBytes),
               .Retransmit (Retransmit)) u_net (
    .clk_i, .rst_ni, .open_i (open_q), .nodes_i (nodes_q), .node_id_i (net_rsp.node_id),
    .retx_en_i (retx_en_q), .retx_timeout_i (retx_q),
    .msg_valid_i (txm_q), .msg_ready_o (txm_take), .msg_i (txm_img_q),
    .rmsg_valid_o (rmsg_valid), .rmsg_ready_i (rmsg_ready), .rmsg_o (rmsg_img),
    .cnt_o (net_cnt), .gap_o (gap),
    .ntx_valid_o (net.tx_valid), .ntx_ready_i (net_rsp.tx_ready), .ntx_data_o (net.tx_data),
    .ntx_keep_o (net.tx_keep), .ntx_last_o (net.tx_last), .ntx_dest_o (net.tx_dest),
    .nrx_valid_i (net_rsp.rx_valid), .nrx_ready_o (nrx_ready), .nrx_data_i (net_rsp.rx_data),
    .nrx_keep_i (net_rsp.rx_keep), .nrx_last_i (net_rsp.rx_last), .nrx_user_i (net_rsp.rx_user),
    .idle_o (net_idle)
  );

  // Front-end outputs (per configuration below).
  logic              fe_txm_load;                 // txm_q <- fe_txm_img
  logic [MsgBits-1:0] fe_txm_img;
  logic [NC-1:0]     fe_cnt;
  logic              fe_idle;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) txm_q <= 1'b0;
    else if (fe_txm_load) txm_q <= 1'b1;
    else if (txm_take) txm_q <= 1'b0;
  end
  always_ff @(posedge clk_i) begin
    if (fe_txm_load) txm_img_q <= fe_txm_img;
  end

  assign cnt_inc = net_cnt | fe_cnt |
                   (NC'(wr_hi && !w_known) << cni_cq_pkg::C_TX_STRAY);
  // (a message the front end takes: in the receive queue or FIFO, not dropped after an Error)
  assign rx_msg_o = rmsg_valid && rmsg_ready && !err_q;

  // ---- reset POLICYs: the register page DENY (a coherent request there is a driver bug); CNI4's
  // TX CDRs and, with EarlyPull, the SQ lines SHARED (the CPU's ownership requests park: virtual
  // polling, early pull) ---------------------------------------------------------------------
  localparam int PolLines = R + (Cdr ? B : 0) + (Ep ? SqLines : 0);
  localparam int PW = $clog2(PolLines + 1);
  logic [PW-1:0] pol_q;   // policies issued
  wire           pol_done = 32'(pol_q) == 32'(PolLines);

  // ---- the command slot ----------------------------------------------------------------------
  logic                       cmd_q;
  logic [cni_coh_pkg::CMD_W-1:0] cmd_op_q;
  logic [cni_coh_pkg::ARG_W-1:0] cmd_arg_q;
  logic [LineIdxW-1:0]        cmd_line_q;
  wire                        cmd_free = !cmd_q || cmd_rsp.ready;
  // requests from the front ends (CQ): line and op; *_go: loaded into the slot this cycle
  logic                       rq_rsm, rq_pull, rq_lock, rq_sqh, rq_ref;
  logic [LineIdxW-1:0]        rq_rsm_line, rq_pull_line, rq_lock_line;
  wire                        go_pol  = cmd_free && !pol_done;
  wire                        go_rsm  = cmd_free && pol_done && rq_rsm;
  wire                        go_pull = cmd_free && pol_done && !rq_rsm && rq_pull;
  wire                        go_lock = cmd_free && pol_done && !rq_rsm && !rq_pull && rq_lock;
  wire                        go_sqh  = cmd_free && pol_done && !rq_rsm && !rq_pull && !rq_lock &&
                                        rq_sqh;
  wire                        go_ref  = cmd_free && pol_done && !rq_rsm && !rq_pull && !rq_lock &&
                                        !rq_sqh && rq_ref;
  localparam int LSqHead = Base + cni_cq_pkg::off_sq_head(LineBytes);
  localparam int LRqHead = Base + cni_cq_pkg::off_rq_head(LineBytes);
  localparam int LSq     = Base + cni_cq_pkg::off_sq(LineBytes);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cmd_q      <= 1'b0;
      cmd_op_q   <= '0;
      cmd_arg_q  <= '0;
      cmd_line_q <= '0;
      pol_q      <= '0;
    end else if (cmd_free) begin
      cmd_q     <= go_pol || go_rsm || go_pull || go_lock || go_sqh || go_ref;
      cmd_arg_q <= '0;
      if (go_pol) begin
        cmd_op_q   <= cni_coh_pkg::CMD_POLICY;
        cmd_arg_q  <= cni_coh_pkg::ARG_W'(32'(pol_q) < 32'(R) ? cni_coh_pkg::POL_DENY
                                                              : cni_coh_pkg::POL_SHARED);
        // the page and CNI4's TX CDRs follow each other; the SQ slots start at LSq
        cmd_line_q <= LineIdxW'(32'(pol_q) < 32'(R) || !Ep ? Base + 32'(pol_q)
                                                           : LSq + 32'(pol_q) - R);
        pol_q      <= pol_q + 1'b1;
      end else if (go_rsm) begin
        cmd_op_q   <= cni_coh_pkg::CMD_RESUME;
        cmd_arg_q  <= cni_coh_pkg::GNT_E;
        cmd_line_q <= rq_rsm_line;
      end else if (go_pull) begin
        cmd_op_q   <= cni_coh_pkg::CMD_RECALL_DN;
        cmd_line_q <= rq_pull_line;
      end else if (go_lock) begin
        cmd_op_q   <= cni_coh_pkg::CMD_RECALL;
        cmd_line_q <= rq_lock_line;
      end else if (go_sqh) begin
        cmd_op_q   <= cni_coh_pkg::CMD_RECALL;
        cmd_line_q <= LineIdxW'(LSqHead);
      end else if (go_ref) begin
        cmd_op_q   <= cni_coh_pkg::CMD_RECALL_DN;
        cmd_line_q <= LineIdxW'(LRqHead);
      end
    end
  end
  assign cmd.valid = cmd_q;
  assign cmd.op    = cmd_op_q;
  assign cmd.arg   = cmd_arg_q;
  assign cmd.line  = cmd_line_q;

  // ---- the front end of the configuration ---------------------------------------------------
  // Each drives what it uses; the rest is tied off here.
  if (Config == cni_cq_pkg::CFG_NI2W) begin : g_ni2w
    cni_cq_ni2w #(.FifoMsgs (FifoMsgs), .MaxNodes (MaxNodes)) u_fe (
      .clk_i, .rst_ni,
      .wval_i (wval), .w_txhdr_i (w_txhdr), .w_txdat_i (w_txdat),
      .rd_hi_i (rd_hi), .r_rxhdr_i (r_rxhdr), .r_rxdat_i (r_rxdat),
      .open_i (open_q), .nodes_i (nodes_q),
      .txm_busy_i (txm_q), .txm_load_o (fe_txm_load), .txm_img_o (fe_txm_img),
      .rmsg_valid_i (rmsg_valid), .rmsg_ready_o (rmsg_ready), .rmsg_i (rmsg_img),
      .rx_hdr_o (rx_hdr_val), .rx_dat_o (rx_dat_val),
      .tx_free_o (st_tx_free), .rx_msgs_o (st_rx_msgs),
      .cnt_o (fe_cnt), .idle_o (fe_idle)
    );
    // no commands after the reset policies, no memory, no caching agent
    assign {rq_rsm, rq_pull, rq_lock, rq_sqh, rq_ref} = '0;
    assign {rq_rsm_line, rq_pull_line, rq_lock_line}  = '0;
    assign mem       = '0;
    assign evt_rsp_o = 1'b1;
    always_comb begin
      ca           = '0;
      ca.rsp_ready = 1'b1;
    end
    assign rx_err = 1'b0;
    assign {st_pend, st_tx_open, st_rx_ready, st_tx_seq} = '0;
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_ni2w = ^{ca_rsp, evt, mem_rsp, w_ready,
                         w_clear, go_pull, go_lock, go_sqh, go_ref, go_rsm};
    /* verilator lint_on UNUSEDSIGNAL */
  end else if (Cdr) begin : g_cni4
    cni_cq_cni4 #(
      .LineBytes (LineBytes), .LineIdxW (LineIdxW), .Base (Base), .FifoMsgs (FifoMsgs),
      .MaxNodes (MaxNodes)
    ) u_fe (
      .clk_i, .rst_ni,
      .w_clear_i (w_clear), .open_i (open_q), .nodes_i (nodes_q), .vp_backoff_i (vp_backoff_q),
      .txm_busy_i (txm_q), .txm_load_o (fe_txm_load), .txm_img_o (fe_txm_img),
      .rmsg_valid_i (rmsg_valid), .rmsg_ready_o (rmsg_ready), .rmsg_i (rmsg_img),
      .rq_rsm_o (rq_rsm), .rq_rsm_line_o (rq_rsm_line), .go_rsm_i (go_rsm),
      .rq_pull_o (rq_pull), .rq_pull_line_o (rq_pull_line), .go_pull_i (go_pull),
      .rq_lock_o (rq_lock), .rq_lock_line_o (rq_lock_line), .go_lock_i (go_lock),
      .evt_valid_i (evt.valid), .evt_ready_o (evt_rsp_o), .evt_kind_i (evt.kind),
      .evt_line_i (evt.line),
      .mem_en_o (mem.en), .mem_we_o (mem.we), .mem_addr_o (mem.addr), .mem_wdata_o (mem.wdata),
      .mem_gnt_i (mem_rsp.gnt), .mem_rdata_i (mem_rsp.rdata),
      .tx_free_o (st_tx_free), .rx_msgs_o (st_rx_msgs), .tx_open_o (st_tx_open),
      .rx_ready_o (st_rx_ready), .tx_seq_o (st_tx_seq),
      .cnt_o (fe_cnt), .idle_o (fe_idle)
    );
    // no SQ_HEAD, no RQ_HEAD refresh, no caching agent
    assign {rq_sqh, rq_ref} = '0;
    always_comb begin
      ca           = '0;
      ca.rsp_ready = 1'b1;
    end
    assign rx_err = 1'b0;
    assign {st_pend, rx_hdr_val, rx_dat_val} = '0;
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_cni4 = ^{ca_rsp, w_ready, w_txhdr, w_txdat, rd_hi, r_rxhdr, r_rxdat, go_sqh,
                         go_ref};
    /* verilator lint_on UNUSEDSIGNAL */
  end else begin : g_cq
    cni_cq_queue #(
      .Config (Config), .LineBytes (LineBytes), .LineIdxW (LineIdxW), .Base (Base),
      .SqLines (SqLines), .RqLines (RqLines), .MaxNodes (MaxNodes), .CaIdW (CacheIdW),
      .EarlyPull (EarlyPull), .ParkMax (ParkMax)
    ) u_fe (
      .clk_i, .rst_ni,
      .wval_i (wval[15:0]), .w_ready_i (w_ready), .w_rqb_i (w_rqb),
      .open_i (open_q), .nodes_i (nodes_q), .rq_poll_i (rq_poll_q), .rqb_i (rqb_q), .err_i (err_q),
      .txm_busy_i (txm_q), .txm_load_o (fe_txm_load), .txm_img_o (fe_txm_img),
      .rmsg_valid_i (rmsg_valid), .rmsg_ready_o (rmsg_ready), .rmsg_i (rmsg_img),
      .rq_rsm_o (rq_rsm), .rq_rsm_line_o (rq_rsm_line), .go_rsm_i (go_rsm),
      .rq_pull_o (rq_pull), .rq_pull_line_o (rq_pull_line), .go_pull_i (go_pull),
      .rq_lock_o (rq_lock), .rq_lock_line_o (rq_lock_line), .go_lock_i (go_lock),
      .rq_sqh_o (rq_sqh), .go_sqh_i (go_sqh), .rq_ref_o (rq_ref), .go_ref_i (go_ref),
      .evt_valid_i (evt.valid), .evt_ready_o (evt_rsp_o), .evt_kind_i (evt.kind),
      .evt_line_i (evt.line),
      .mem_en_o (mem.en), .mem_we_o (mem.we), .mem_addr_o (mem.addr), .mem_wdata_o (mem.wdata),
      .mem_gnt_i (mem_rsp.gnt), .mem_rdata_i (mem_rsp.rdata),
      .ca_req_valid_o (ca.valid), .ca_req_ready_i (ca_rsp.ready), .ca_req_op_o (ca.op),
      .ca_req_addr_o (ca.addr), .ca_req_data_o (ca.data), .ca_req_be_o (ca.be),
      .ca_req_id_o (ca.id), .ca_rsp_valid_i (ca_rsp.rsp_valid), .ca_rsp_ready_o (ca.rsp_ready),
      .ca_rsp_id_i (ca_rsp.rsp_id), .ca_rsp_data_i (ca_rsp.rsp_data),
      .ca_rsp_err_i (ca_rsp.rsp_err),
      .rx_err_o (rx_err), .pend_o (st_pend),
      .cnt_o (fe_cnt), .idle_o (fe_idle)
    );
    assign {st_tx_free, st_rx_msgs, st_tx_open, st_rx_ready, st_tx_seq} = '0;
    assign {rx_hdr_val, rx_dat_val} = '0;
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_cq = ^{vp_backoff_q, rd_hi, r_rxhdr, r_rxdat, w_txhdr, w_txdat, w_clear};
    /* verilator lint_on UNUSEDSIGNAL */
  end

  assign idle_o = pol_done && !cmd_q && net_idle && fe_idle;

endmodule
