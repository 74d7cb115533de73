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
// (POLICY, RESUME, RECALL, RECALL_DN), takes its TRIGGER and RECALL_DONE events, reads and writes device memory
// through port B, takes uncached register accesses through its register window, and sends and
// receives frames through cni_cq_net. The state tables are docs/cni.md section 5; in short:
//
//   NI2w send:    TX_HDR (checked: open, len <= 244, destination known, room in the TX queue)
//                 and TX_DATA words go into the TX hardware queue (64-bit words, the header word
//                 marked); the injector builds the message from it and hands it to the network
//   NI2w receive: a message from the network goes into the RX hardware queue as words when the
//                 whole of it fits; RX_HDR shows the head message, RX_DATA pops its words
//   CQ send:      TX_READY adds to pend; per message: pull (RECALL_DN) every line of slot hd,
//                 read line 0 (sense, len, destination checked), read lines 1..n-1, hd + 1,
//                 the locked write of SQ_HEAD, the message to the network. EarlyPull = 1: the
//                 SQ lines are SHARED, every ownership request parks (TRIGGER) and is RESUMEd
//                 at once, and one of line k of a slot (k >= 1) pulls line k - 1 early
//   CQ receive:   a message from the network is written into slot tl when used(tl, sh) < N
//                 (else RQ_HEAD is pulled into the shadow sh, again every RQ_POLL cycles): the
//                 locked writes of lines 1..n-1, then of line 0 with the valid bit (sense), tl + 1
//   CNI16Qm receive: as CQ receive, into the host-homed queue at RQ_BASE through the caching
//                 agent: CA_WR of lines 1..n-1, then (all answered) of line 0 with the valid
//                 bit; the shadow head refreshed by CA_RD_NA of RQ_HEAD; an Error answer closes
//                 the endpoint (STATUS.err, counter RQ_ERR)
//   CNI4 send:    TX CDRs under SHARED: an ownership request parks (TRIGGER), RESUME(E) grants
//                 it and VP_BACKOFF cycles later the line is pulled (RECALL_DN, virtual polling);
//                 a pull of T0 that finds the valid word expected (TX_SEQ) starts the message:
//                 header checked, every line still owned pulled, T0..Tn-1 copied to the TX queue
//   CNI4 receive: the RX queue's head into R1..Rn-1, then R0, by locked writes; rx_ready until
//                 RX_CLEAR, which RECALLs the lines (the explicit clear)
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
//   NetBytes            - bytes per beat of the network port
//   CaIdW               - id width of the caching agent's request port
//   EarlyPull           - CQ configurations: 1 pulls a send line when the CPU asks to own the
//                         next line of its slot (000 section 3), 0 only at message-ready
//   ParkMax             - EarlyPull: requests the home agent can hold parked (its table's
//                         entries less its reserve), the depth of the owed-RESUME FIFO
// Ports: the engine bus (`CNI_ENGINE_BUS`), the network (`CNI_ENGINE_NET`), the caching agent
// (`CNI_ENGINE_CA`; CNI16Qm only, the other configurations present no request).
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
  parameter int CaIdW     = 4,
  parameter int EarlyPull = 0,
  parameter int ParkMax   = 24,
  localparam int LineBits = LineBytes * 8,
  localparam int NetW     = NetBytes * 8
) (
  input  wire logic                            clk_i,
  input  wire logic                            rst_ni,
  input  wire logic                            evt_valid_i,
  output logic                                 evt_ready_o,
  input  wire logic [cni_coh_pkg::EVT_W-1:0]   evt_kind_i,
  input  wire logic [LineIdxW-1:0]             evt_line_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [cni_coh_pkg::OP_W-1:0]    evt_op_i,   // unused: SHARED parks only writes
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
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [7:0]                      reg_addr_i,   // [1:0]: 32-bit accesses
  /* verilator lint_on UNUSEDSIGNAL */
  input  wire logic [31:0]                     reg_wdata_i,
  output logic [31:0]                          reg_rdata_o,
  output logic                                 idle_o,
  input  wire logic [15:0]                     node_id_i,
  output logic                                 ntx_valid_o,
  input  wire logic                            ntx_ready_i,
  output logic [NetW-1:0]                      ntx_data_o,
  output logic [NetBytes-1:0]                  ntx_keep_o,
  output logic                                 ntx_last_o,
  output logic [15:0]                          ntx_dest_o,
  input  wire logic                            nrx_valid_i,
  output logic                                 nrx_ready_o,
  input  wire logic [NetW-1:0]                 nrx_data_i,
  input  wire logic [NetBytes-1:0]             nrx_keep_i,
  input  wire logic                            nrx_last_i,
  input  wire logic                            nrx_user_i,
  output logic                                 ca_req_valid_o,
  input  wire logic                            ca_req_ready_i,
  output logic [cni_coh_pkg::CA_OP_W-1:0]      ca_req_op_o,
  output logic [cni_coh_pkg::ADDR_W-1:0]       ca_req_addr_o,
  output logic [LineBits-1:0]                  ca_req_data_o,
  output logic [LineBytes-1:0]                 ca_req_be_o,
  output logic [CaIdW-1:0]                     ca_req_id_o,
  input  wire logic                            ca_rsp_valid_i,
  output logic                                 ca_rsp_ready_o,
  input  wire logic [CaIdW-1:0]                ca_rsp_id_i,
  input  wire logic [LineBits-1:0]             ca_rsp_data_i,
  input  wire logic                            ca_rsp_err_i
);

  localparam int  MsgBits = cni_cq_pkg::MSG_BYTES * 8;
  localparam int  B       = cni_cq_pkg::MSG_BYTES / LineBytes;  // lines per slot
  localparam int  BW      = $clog2(B + 1);                     // a count of lines, 0..B
  localparam int  JW      = (B > 1) ? $clog2(B) : 1;            // a line within a slot
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
  if (Qm && (1 << CaIdW) < B)
    $error("cni_cq_engine: CaIdW must name every line of a slot (%0d)", B);
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
  logic [7:0]  nodes_q;
  logic [15:0] vp_backoff_q, rq_poll_q;
  logic [31:0] retx_q;
  logic [47:0] rqb_q;       // CNI16Qm: RQ_BASE, the host byte address of RQ_HEAD
  logic        err_q;       // CNI16Qm: a queue access was answered Error (STATUS.err)
  logic        rx_err;      // ... this cycle: the endpoint closes
  logic [31:0] cnt_q [NC];
  logic [NC-1:0] cnt_inc;   // counter pulses of this cycle
  logic [31:0]   gap;       // frames a sequence gap skipped (with C_RX_GAP)

  wire        reg_wr  = reg_valid_i && reg_we_i && !reg_addr_i[7];
  wire        reg_rd  = reg_valid_i && !reg_we_i;
  wire        wr_hi   = reg_wr && reg_addr_i[2];
  wire [7:0]  wreg    = {reg_addr_i[7:3], 3'b000};
  wire [63:0] wval    = {reg_wdata_i, wlo_q};
  wire        w_ctrl  = wr_hi && wreg == cni_cq_pkg::R_CTRL;
  wire        w_tmr   = wr_hi && wreg == cni_cq_pkg::R_TIMERS;
  wire        w_txhdr = wr_hi && wreg == cni_cq_pkg::R_TX_HDR;
  wire        w_txdat = wr_hi && wreg == cni_cq_pkg::R_TX_DATA;
  wire        w_ready = wr_hi && wreg == cni_cq_pkg::R_TX_READY;
  wire        w_rqb   = wr_hi && wreg == cni_cq_pkg::R_RQ_BASE && Qm;
  wire        w_clear = wr_hi && wreg == cni_cq_pkg::R_RX_CLEAR && Cdr;
  wire        rd_hi   = reg_rd && reg_addr_i[2] && !reg_addr_i[7];
  wire        r_rxhdr = reg_rd && {reg_addr_i[7:3], 3'b000} == cni_cq_pkg::R_RX_HDR;
  wire        r_rxdat = reg_rd && {reg_addr_i[7:3], 3'b000} == cni_cq_pkg::R_RX_DATA;
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
      nodes_q      <= 8'(MaxNodes);
      vp_backoff_q <= 16'd16;
      rq_poll_q    <= 16'd64;
      retx_q       <= 32'h4000;
      rqb_q        <= '0;
      err_q        <= 1'b0;
    end else begin
      if (reg_wr && !reg_addr_i[2]) wlo_q <= reg_wdata_i;
      if (w_rqb) begin
        rqb_q <= wval[47:0] & ~(48'(LineBytes) - 48'd1);   // line aligned
        err_q <= 1'b0;
      end
      if (rx_err) err_q <= 1'b1;
      if (w_ctrl) begin
        open_q  <= wval[0];
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
      reg_rdata_o <= '0;
    end else if (reg_rd) begin
      reg_rdata_o <= '0;
      if (reg_addr_i[7]) begin
        if (32'(reg_addr_i[6:2]) < 32'(NC)) reg_rdata_o <= cnt_q[reg_addr_i[6:2]];
      end else begin
        unique case ({reg_addr_i[7:3], 3'b000})
          cni_cq_pkg::R_ID: reg_rdata_o <= reg_addr_i[2] ? {16'(NR), 16'(NS)}
                                                         : {node_id_i, 8'(Window), 8'(Config)};
          cni_cq_pkg::R_CTRL: reg_rdata_o <= reg_addr_i[2] ? '0 : {16'd0, nodes_q, 7'd0, open_q};
          cni_cq_pkg::R_TIMERS: reg_rdata_o <= reg_addr_i[2] ? retx_q : {rq_poll_q, vp_backoff_q};
          cni_cq_pkg::R_STATUS: reg_rdata_o <= reg_addr_i[2]
                                                 ? {12'd0, st_rx_ready, st_tx_open, err_q, open_q,
                                                    st_pend}
                                                 : {st_rx_msgs, st_tx_free};
          cni_cq_pkg::R_TX_SEQ: reg_rdata_o <= reg_addr_i[2] ? {31'd0, st_tx_open} : st_tx_seq;
          cni_cq_pkg::R_RQ_BASE: reg_rdata_o <= reg_addr_i[2] ? {16'd0, rqb_q[47:32]}
                                                              : rqb_q[31:0];
          cni_cq_pkg::R_RX_HDR: reg_rdata_o <= reg_addr_i[2] ? rx_hdr_val[63:32] : rx_hdr_val[31:0];
          cni_cq_pkg::R_RX_DATA: reg_rdata_o <= reg_addr_i[2] ? rx_dat_val[63:32] : rx_dat_val[31:0];
          default: reg_rdata_o <= '0;
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
  cni_cq_net #(.MaxNodes (MaxNodes), .Window (Window), .NetBytes (NetBytes)) u_net (
    .clk_i, .rst_ni, .open_i (open_q), .nodes_i (nodes_q), .node_id_i,
    .msg_valid_i (txm_q), .msg_ready_o (txm_take), .msg_i (txm_img_q),
    .rmsg_valid_o (rmsg_valid), .rmsg_ready_i (rmsg_ready), .rmsg_o (rmsg_img),
    .cnt_o (net_cnt), .gap_o (gap),
    .ntx_valid_o, .ntx_ready_i, .ntx_data_o, .ntx_keep_o, .ntx_last_o, .ntx_dest_o,
    .nrx_valid_i, .nrx_ready_o, .nrx_data_i, .nrx_keep_i, .nrx_last_i, .nrx_user_i,
    .idle_o (net_idle)
  );

  // A message header written by software is checked the same way for every configuration.
  // (a destination equal to this node is good: cni_cq_net delivers it locally)
  function automatic logic [2:0] hdr_check(input logic [15:0] len, input logic [15:0] dst,
                                           input logic open, input logic [7:0] nodes);
    // [0] closed, [1] too long, [2] unknown destination
    hdr_check = {32'(dst) >= 32'(nodes) || 32'(dst) >= 32'(MaxNodes),
                 32'(len) > 32'(cni_cq_pkg::MAX_LEN), !open};
  endfunction

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
  wire                        cmd_free = !cmd_q || cmd_ready_i;
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
  localparam int LRq     = Base + cni_cq_pkg::off_rq(LineBytes, SqLines);

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
  assign cmd_valid_o = cmd_q;
  assign cmd_op_o    = cmd_op_q;
  assign cmd_arg_o   = cmd_arg_q;
  assign cmd_line_o  = cmd_line_q;

  // ==== NI2w ===================================================================================
  if (Config == cni_cq_pkg::CFG_NI2W) begin : g_ni2w
    // Hardware queues of 64-bit words, FifoMsgs messages of the largest size each: a message is
    // one header word and ceil(len / 8) data words. TX words carry a header mark (bit 64).
    localparam int MaxWords = (cni_cq_pkg::MAX_LEN + 7) / 8;   // 31
    localparam int Depth    = FifoMsgs * (1 + MaxWords);
    localparam int CW       = $clog2(Depth + 1);
    localparam int ImgBits  = MsgBits + 64;   // a word written at byte 12 + 8k, k < 31

    // -- send: registers into the TX queue -------------------------------------------------
    logic          tf_in_valid, tf_in_ready, tf_out_valid, tf_out_ready;
    logic [64:0]   tf_in, tf_out;
    logic [CW-1:0] tf_count;
    logic          tfill_q;         // a message is being written
    logic [5:0]    tleft_q;         // its data words still to come
    wire  [15:0]   h_len   = wval[15:0];
    wire  [15:0]   h_dst   = wval[31:16];
    wire  [5:0]    h_words = 6'((32'(h_len) + 7) / 8);
    wire  [2:0]    h_bad   = hdr_check(h_len, h_dst, open_q, nodes_q);
    wire           h_room  = 32'(Depth) - 32'(tf_count) >= 32'(h_words) + 1;
    wire           h_ok    = h_bad == '0 && h_room;
    wire           d_ok    = tfill_q && tleft_q != '0;
    assign tf_in_valid = (w_txhdr && h_ok) || (w_txdat && d_ok);
    assign tf_in       = {w_txhdr, wval};
    cni_fifo #(.Width (65), .Depth (Depth)) u_txq (
      .clk_i, .rst_ni,
      .in_valid_i (tf_in_valid), .in_ready_o (tf_in_ready), .in_data_i (tf_in),
      .out_valid_o (tf_out_valid), .out_ready_i (tf_out_ready), .out_data_o (tf_out),
      .count_o (tf_count)
    );
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        tfill_q <= 1'b0;
        tleft_q <= '0;
      end else if (w_txhdr) begin
        tfill_q <= h_ok && h_words != '0;
        tleft_q <= h_words;
      end else if (w_txdat && d_ok) begin
        tleft_q <= tleft_q - 1'b1;
        tfill_q <= tleft_q != 6'd1;
      end
    end

    // -- send: the injector, TX queue -> txm ---------------------------------------------------
    logic               ij_q;          // a message is being assembled
    logic [5:0]         ij_left_q, ij_k_q;
    logic [ImgBits-1:0] ij_img_q;
    wire  hdr_word = tf_out_valid && tf_out[64];
    // A header word while data words are still owed cuts the message short: it is dropped.
    assign tf_out_ready = !txm_q && tf_out_valid && (!ij_q || !tf_out[64]);
    wire  ij_cut  = ij_q && hdr_word && !txm_q;
    wire  ij_done = !txm_q && tf_out_valid &&
                    ((!ij_q && tf_out[64] && tf_out[15:0] == '0) ||
                     (ij_q && !tf_out[64] && ij_left_q == 6'd1));
    assign fe_txm_load = ij_done;
    logic [ImgBits-1:0] ij_img_x;
    always_comb begin
      ij_img_x = ij_img_q;
      if (!ij_q) begin  // a 0-byte message: the header word alone
        ij_img_x = '0;
        ij_img_x[8 +: 8]   = {6'd0, tf_out[49:48]};
        ij_img_x[16 +: 16] = tf_out[15:0];
        ij_img_x[32 +: 16] = tf_out[31:16];
        ij_img_x[48 +: 16] = tf_out[47:32];
      end else begin
        ij_img_x[96 + 64 * 32'(ij_k_q) +: 64] = tf_out[63:0];
      end
    end
    assign fe_txm_img = ij_img_x[MsgBits-1:0];
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_img = ^ij_img_x[ImgBits-1:MsgBits];  // beyond byte 255: never part of a message
    /* verilator lint_on UNUSEDSIGNAL */
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ij_q      <= 1'b0;
        ij_left_q <= '0;
        ij_k_q    <= '0;
      end else if (tf_out_valid && tf_out_ready) begin
        if (tf_out[64]) begin
          ij_q      <= tf_out[15:0] != '0;
          ij_left_q <= 6'((32'(tf_out[15:0]) + 7) / 8);
          ij_k_q    <= '0;
        end else begin
          ij_q      <= ij_left_q != 6'd1;
          ij_left_q <= ij_left_q - 1'b1;
          ij_k_q    <= ij_k_q + 1'b1;
        end
      end else if (ij_cut) begin
        ij_q <= 1'b0;
      end
    end
    always_ff @(posedge clk_i) begin
      if (tf_out_valid && tf_out_ready) begin
        if (tf_out[64]) begin
          ij_img_q             <= '0;
          ij_img_q[8 +: 8]     <= {6'd0, tf_out[49:48]};
          ij_img_q[16 +: 16]   <= tf_out[15:0];
          ij_img_q[32 +: 16]   <= tf_out[31:16];
          ij_img_q[48 +: 16]   <= tf_out[47:32];
        end else begin
          ij_img_q[96 + 64 * 32'(ij_k_q) +: 64] <= tf_out[63:0];
        end
      end
    end

    // -- receive: rmsg -> RX queue -------------------------------------------------------------
    logic          rf_in_valid, rf_in_ready, rf_out_valid, rf_out_ready;
    logic [63:0]   rf_in, rf_out;
    logic [CW-1:0] rf_count;
    logic          rp_q;            // a message is being pushed
    logic [5:0]    rp_k_q;          // its next word (0: the header)
    logic [15:0]   rmsgs_q;         // whole messages in the queue (the one shown included)
    wire  [15:0]   m_len   = rmsg_img[16 +: 16];
    wire  [5:0]    m_words = 6'((32'(m_len) + 7) / 8);
    wire           m_room  = 32'(Depth) - 32'(rf_count) >= 32'(m_words) + 1;
    wire           rp_go   = rmsg_valid && (rp_q || m_room);
    wire           rp_last = rp_k_q == m_words;
    assign rf_in_valid = rp_go;
    cni_fifo #(.Width (64), .Depth (Depth)) u_rxq (
      .clk_i, .rst_ni,
      .in_valid_i (rf_in_valid), .in_ready_o (rf_in_ready), .in_data_i (rf_in),
      .out_valid_o (rf_out_valid), .out_ready_i (rf_out_ready), .out_data_o (rf_out),
      .count_o (rf_count)
    );
    wire  [ImgBits-1:0] rimg_x = ImgBits'(rmsg_img);
    assign rf_in = (rp_k_q == '0)
      ? {14'd0, rmsg_img[9:8], rmsg_img[48 +: 16], rmsg_img[32 +: 16], m_len}
      : rimg_x[96 + 64 * (32'(rp_k_q) - 1) +: 64];
    assign rmsg_ready = rp_go && rp_last;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rp_q   <= 1'b0;
        rp_k_q <= '0;
      end else if (rp_go) begin
        rp_q   <= !rp_last;
        rp_k_q <= rp_last ? '0 : rp_k_q + 1'b1;
      end
    end
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_rf = rf_in_ready;  // room is checked for the whole message before it starts
    wire unused_tf = tf_in_ready;  // and before a message's header is taken
    /* verilator lint_on UNUSEDSIGNAL */

    // -- receive: the registers ----------------------------------------------------------------
    logic        rh_q;             // the head message's header is shown (popped from the queue)
    logic [63:0] rh_val_q;
    logic [5:0]  rh_left_q;        // its data words still to read
    wire         rh_load = !rh_q && rmsgs_q != '0;
    wire         pop_hdr0 = r_rxhdr && rd_hi && rh_q && rh_left_q == '0;
    wire         pop_data = r_rxdat && rd_hi && rh_q && rh_left_q != '0;
    assign rf_out_ready = rh_load || pop_data;
    wire         rx_done = pop_hdr0 || (pop_data && rh_left_q == 6'd1);
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rh_q      <= 1'b0;
        rh_val_q  <= '0;
        rh_left_q <= '0;
        rmsgs_q   <= '0;
      end else begin
        if (rh_load) begin
          rh_q      <= 1'b1;
          rh_val_q  <= {1'b1, rf_out[62:0]};
          rh_left_q <= 6'((32'(rf_out[15:0]) + 7) / 8);
        end else if (rx_done) begin
          rh_q <= 1'b0;
        end else if (pop_data) begin
          rh_left_q <= rh_left_q - 1'b1;
        end
        rmsgs_q <= rmsgs_q + 16'(rmsg_ready) - 16'(rx_done);
      end
    end
    assign rx_hdr_val = rh_q ? rh_val_q : '0;
    assign rx_dat_val = (rh_q && rh_left_q != '0) ? rf_out : '0;

    assign st_tx_free = 16'(32'(Depth) - 32'(tf_count));
    assign st_rx_msgs = rmsgs_q;
    assign st_pend    = '0;

    always_comb begin
      fe_cnt = '0;
      fe_cnt[cni_cq_pkg::C_TX_MSGS]    = ij_done;
      fe_cnt[cni_cq_pkg::C_TX_CLOSED]  = w_txhdr && h_bad[0];
      fe_cnt[cni_cq_pkg::C_TX_BAD_LEN] = (w_txhdr && !h_bad[0] && h_bad[1]) || ij_cut;
      fe_cnt[cni_cq_pkg::C_TX_BAD_DST] = w_txhdr && !h_bad[0] && !h_bad[1] && h_bad[2];
      fe_cnt[cni_cq_pkg::C_TX_OVERRUN] = w_txhdr && h_bad == '0 && !h_room;
      fe_cnt[cni_cq_pkg::C_TX_STRAY]   = w_txdat && !d_ok;
      fe_cnt[cni_cq_pkg::C_RX_STRAY]   = r_rxdat && rd_hi && !(rh_q && rh_left_q != '0);
    end

    // No commands after the reset policies, no memory.
    assign rq_rsm  = 1'b0;
    assign rq_rsm_line = '0;
    assign st_tx_open  = 1'b0;
    assign st_rx_ready = 1'b0;
    assign st_tx_seq   = '0;
    assign rq_pull = 1'b0;
    assign rq_lock = 1'b0;
    assign rq_sqh  = 1'b0;
    assign rq_ref  = 1'b0;
    assign rq_pull_line = '0;
    assign rq_lock_line = '0;
    assign mem_en_o     = 1'b0;
    assign mem_we_o     = 1'b0;
    assign mem_addr_o   = '0;
    assign mem_wdata_o  = '0;
    assign evt_ready_o  = 1'b1;
    assign ca_req_valid_o = 1'b0;
    assign ca_req_op_o    = '0;
    assign ca_req_addr_o  = '0;
    assign ca_req_data_o  = '0;
    assign ca_req_be_o    = '0;
    assign ca_req_id_o    = '0;
    assign ca_rsp_ready_o = 1'b1;
    assign rx_err         = 1'b0;
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_ni2w = ^{ca_req_ready_i, ca_rsp_valid_i, ca_rsp_id_i, ca_rsp_data_i, ca_rsp_err_i,
                         rqb_q, w_rqb, evt_valid_i, w_ready, rf_out_valid, mem_gnt_i, mem_rdata_i, evt_kind_i, evt_line_i, go_pull, go_lock,
                         go_sqh, go_ref, go_rsm, vp_backoff_q, rq_poll_q, w_clear};
    /* verilator lint_on UNUSEDSIGNAL */

    // idle: nothing the injector or the RX queue could take now
    assign fe_idle = !(tf_out_valid && !txm_q) && !(rmsg_valid && (rp_q || m_room));

  // ==== CNI4: cachable device registers over hardware queues =================================
  end else if (Cdr) begin : g_cni4
    localparam int LT = Base + cni_cq_pkg::off_tcdr(LineBytes);   // T0 (TX CDRs, SHARED)
    localparam int LR = Base + cni_cq_pkg::off_rcdr(LineBytes);   // R0 (RX CDRs, ALLOW)
    localparam int QW = $clog2(FifoMsgs + 1);

    // -- the hardware queues behind the CDRs: whole messages (slot images) ---------------------
    logic               tq_in_valid, tq_in_ready, tq_out_valid, tq_out_ready;
    logic [MsgBits-1:0] tq_in, tq_out;
    logic [QW-1:0]      tq_count;
    logic               rq_in_ready, rq_out_valid, rq_out_ready;
    logic [MsgBits-1:0] rq_out;
    logic [QW-1:0]      rq_count;
    cni_fifo #(.Width (MsgBits), .Depth (FifoMsgs)) u_txq (
      .clk_i, .rst_ni,
      .in_valid_i (tq_in_valid), .in_ready_o (tq_in_ready), .in_data_i (tq_in),
      .out_valid_o (tq_out_valid), .out_ready_i (tq_out_ready), .out_data_o (tq_out),
      .count_o (tq_count)
    );
    cni_fifo #(.Width (MsgBits), .Depth (FifoMsgs)) u_rxq (
      .clk_i, .rst_ni,
      .in_valid_i (rmsg_valid), .in_ready_o (rq_in_ready), .in_data_i (rmsg_img),
      .out_valid_o (rq_out_valid), .out_ready_i (rq_out_ready), .out_data_o (rq_out),
      .count_o (rq_count)
    );
    assign rmsg_ready   = rq_in_ready;
    assign fe_txm_load  = tq_out_valid && !txm_q;
    assign tq_out_ready = fe_txm_load;
    assign fe_txm_img   = tq_out;

    // -- events --------------------------------------------------------------------------------
    wire          evt_trg = evt_valid_i && evt_kind_i == cni_coh_pkg::EVT_TRIGGER;
    wire          evt_dn  = evt_valid_i && evt_kind_i == cni_coh_pkg::EVT_RECALL_DONE;
    wire [31:0]   e_t     = 32'(evt_line_i) - 32'(LT);   // a TX CDR: below B
    wire [31:0]   e_r     = 32'(evt_line_i) - 32'(LR);   // an RX CDR: below B
    wire [JW-1:0] e_tj    = JW'(e_t);
    wire [JW-1:0] e_rj    = JW'(e_r);

    // -- send: the TX CDRs under virtual polling (docs/cni.md section 5, "Send lines") ----------
    // Per line: ask (a RESUME is owed), own (the CPU may hold it writable: a RESUME was taken
    // since the last pull), rsp (a RESUME was taken since the last pull was taken), pl (a pull
    // is in flight), due (the back-off: cycles until a line the CPU owns is pulled).
    typedef enum logic [2:0] {TOpen, TRd0, TChk0, TCheck, TRead, TData, TPush} tstate_e;
    tstate_e             ts_q, ts_d;
    logic [B-1:0]        ask_q, own_q, rsp_q, pl_q;
    logic [16*B-1:0]     due_q;     // line j's at [16j +: 16]: counted down together, flip-flops
    logic [31:0]         exp_q;     // the message number expected next in T0's valid word
    logic [JW-1:0]       tj_q;      // the line being copied
    logic [BW-1:0]       tn_q;      // lines the message uses
    logic [31:0]         t0_q;      // T0's len and destination, read when its valid word matched
    logic                ovr_q;     // this message's wait for queue room is counted
    logic [MsgBits-1:0]  timg_q;
    wire  e_trg = evt_trg && e_t < 32'(B);
    wire  e_tdn = evt_dn && e_t < 32'(B);   // a pull of a TX CDR is done (taken at once)

    // RESUMEs only while the CDRs take a message (held while one is checked or copied), and not
    // in the cycle a pull's RECALL_DONE is taken (own follows the command order exactly).
    logic [JW-1:0] rsm_j, pull_j;
    logic [B-1:0]  pr;
    always_comb begin
      rsm_j  = '0;
      pull_j = '0;
      for (int j = B - 1; j >= 0; j--) begin
        pr[j] = own_q[j] && !pl_q[j] &&
                (ts_q == TCheck || (!ask_q[j] && due_q[16 * j +: 16] == '0));
        if (ask_q[j]) rsm_j = JW'(j);
        if (pr[j]) pull_j = JW'(j);
      end
    end
    assign rq_rsm       = ts_q == TOpen && ask_q != '0 && !e_tdn;
    assign rq_rsm_line  = LineIdxW'(LT + 32'(rsm_j));
    assign rq_pull      = pr != '0;
    assign rq_pull_line = LineIdxW'(LT + 32'(pull_j));

    wire [15:0]   h_len = t0_q[15:0];
    wire [15:0]   h_dst = t0_q[31:16];
    wire [2:0]    h_bad = hdr_check(h_len, h_dst, open_q, nodes_q);
    wire [BW-1:0] h_n   = BW'((32'(h_len) + cni_cq_pkg::HDR_BYTES + LineBytes - 1) / LineBytes);
    wire          h_room = 32'(tq_count) < 32'(FifoMsgs);
    wire          t0_ok  = mem_rdata_i[64 +: 32] == exp_q;   // TChk0: the valid word
    wire          t_ready = pl_q == '0 && own_q == '0;       // TCheck: every line pulled
    wire [31:0]   exp_nx = exp_q + 32'd1 == '0 ? 32'd1 : exp_q + 32'd1;   // 0 is never valid

    // -- receive: the RX CDRs, written under their locks, given back by the explicit clear -----
    typedef enum logic [1:0] {RFree, RWrite, RReady, RClear} rstate_e;
    rstate_e       rs_q;
    logic [B-1:0]  lt_q, lo_q;      // locked writes still to present / presented, not written
    logic [B-1:0]  ct_q, co_q;      // the clear's RECALLs still to present / presented, not done
    logic [BW-1:0] rn_q;            // lines of the message in the CDRs
    wire  [15:0]   r_len = rq_out[16 +: 16];
    wire  [BW-1:0] r_n   = BW'((32'(r_len) + cni_cq_pkg::HDR_BYTES + LineBytes - 1) / LineBytes);
    wire  e_lock = evt_dn && e_r < 32'(B) && rs_q == RWrite && lo_q[e_rj];
    wire  e_clr  = evt_dn && e_r < 32'(B) && rs_q == RClear && co_q[e_rj];
    // the next RECALL: locked writes of lines 1..n-1, then line 0; the clear's in line order
    logic [JW-1:0] lt_j, ct_j;
    always_comb begin
      lt_j = '0;
      ct_j = '0;
      for (int j = B - 1; j >= 1; j--) if (lt_q[j]) lt_j = JW'(j);
      for (int j = B - 1; j >= 0; j--) if (ct_q[j]) ct_j = JW'(j);
    end
    assign rq_lock      = (rs_q == RWrite && lt_q != '0) || (rs_q == RClear && ct_q != '0);
    assign rq_lock_line = LineIdxW'(LR + 32'(JW'(rs_q == RClear ? ct_j : lt_j)));
    wire   w_done = rs_q == RWrite && lt_q == '0 && lo_q == '0;
    assign rq_out_ready = w_done;

    // -- port B: locked writes (the held event), then the TX CDR reads --------------------------
    wire pb_lock = e_lock;
    wire pb_tx   = !pb_lock && (ts_q == TRd0 || ts_q == TRead);
    logic [LineBits-1:0] lock_data;
    always_comb begin
      lock_data = rq_out[LineBits * e_rj +: LineBits];
      if (e_rj == '0) lock_data[7:0] = '0;   // ctl: 0 in a CDR
    end
    assign mem_en_o    = pb_lock || pb_tx;
    assign mem_we_o    = pb_lock;
    assign mem_addr_o  = pb_lock ? evt_line_i
                                 : LineIdxW'(LT + (ts_q == TRd0 ? 0 : 32'(tj_q)));
    assign mem_wdata_o = lock_data;
    wire   g_lock = pb_lock && mem_gnt_i;
    wire   g_tx   = pb_tx && mem_gnt_i;
    assign evt_ready_o = !e_lock;   // taken the cycle after its write (as the CQ's locks)

    always_comb begin
      ts_d = ts_q;
      unique case (ts_q)
        TOpen:  if (e_tdn && e_tj == '0 && !rsp_q[0]) ts_d = TRd0;
        TRd0:   if (g_tx) ts_d = TChk0;
        TChk0:  ts_d = t0_ok ? TCheck : TOpen;
        TCheck: if (h_bad != '0) ts_d = TOpen;
                else if (t_ready && h_room) ts_d = TRead;
        TRead:  if (g_tx) ts_d = TData;
        TData:  ts_d = (BW'(tj_q) + 1'b1 == tn_q) ? TPush : TRead;
        TPush:  ts_d = TOpen;
        default: ts_d = TOpen;
      endcase
    end
    assign tq_in_valid = ts_q == TPush;
    assign tq_in       = timg_q;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ts_q  <= TOpen;
        ask_q <= '0;
        own_q <= '0;
        rsp_q <= '0;
        pl_q  <= '0;
        due_q <= '0;
        exp_q <= 32'd1;
        tj_q  <= '0;
        tn_q  <= '0;
        ovr_q <= 1'b0;
        rs_q  <= RFree;
        lt_q  <= '0;
        lo_q  <= '0;
        ct_q  <= '0;
        co_q  <= '0;
        rn_q  <= '0;
      end else begin
        ts_q <= ts_d;
        for (int j = 0; j < B; j++) begin
          if (due_q[16 * j +: 16] != '0) due_q[16 * j +: 16] <= due_q[16 * j +: 16] - 1'b1;
        end
        if (go_rsm) begin
          ask_q[rsm_j] <= 1'b0;
          own_q[rsm_j] <= 1'b1;
          rsp_q[rsm_j] <= 1'b1;
          due_q[16 * 32'(rsm_j) +: 16] <= vp_backoff_q;
        end
        if (e_trg) ask_q[e_tj] <= 1'b1;
        if (go_pull) begin
          pl_q[pull_j]  <= 1'b1;
          rsp_q[pull_j] <= 1'b0;
        end
        if (e_tdn) begin
          pl_q[e_tj]  <= 1'b0;
          own_q[e_tj] <= rsp_q[e_tj];
        end
        if (ts_q == TCheck && h_bad != '0) exp_q <= exp_nx;
        if (ts_q == TPush) exp_q <= exp_nx;
        if (ts_q == TCheck) begin
          tj_q <= '0;
          tn_q <= h_n;
          ovr_q <= ovr_q || (t_ready && !h_room);
        end else begin
          ovr_q <= 1'b0;
        end
        if (ts_q == TData) tj_q <= tj_q + 1'b1;
        // receive
        unique case (rs_q)
          RFree: if (rq_out_valid) begin
            rs_q <= RWrite;
            lt_q <= r_n == BW'(1) ? B'(1) : B'((B'(1) << r_n) - 1'b1);
            lo_q <= '0;
            rn_q <= r_n;
          end
          RWrite: if (w_done) rs_q <= RReady;
          RReady: if (w_clear) begin
            rs_q <= RClear;
            ct_q <= rn_q == BW'(B) ? '1 : B'((B'(1) << rn_q) - 1'b1);
            co_q <= '0;
          end
          RClear: if (ct_q == '0 && co_q == '0) rs_q <= RFree;
          default: rs_q <= RFree;
        endcase
        if (go_lock && rs_q == RWrite) begin
          lt_q[lt_j] <= 1'b0;   // lines 1..n-1 first, line 0 last
          lo_q[lt_j] <= 1'b1;
        end
        if (go_lock && rs_q == RClear) begin
          ct_q[ct_j] <= 1'b0;
          co_q[ct_j] <= 1'b1;
        end
        if (e_lock && g_lock) lo_q[e_rj] <= 1'b0;
        if (e_clr) co_q[e_rj] <= 1'b0;
      end
    end
    always_ff @(posedge clk_i) begin
      if (ts_q == TChk0 && t0_ok) t0_q <= mem_rdata_i[16 +: 32];
      if (ts_q == TCheck) timg_q <= '0;
      if (ts_q == TData) timg_q[LineBits * tj_q +: LineBits] <= mem_rdata_i;
    end

    assign st_tx_free  = 16'(32'(FifoMsgs) - 32'(tq_count));
    assign st_rx_msgs  = 16'(rq_count);
    assign st_pend     = '0;
    assign st_tx_open  = ts_q == TOpen && h_room;
    assign st_rx_ready = rs_q == RReady;
    assign st_tx_seq   = exp_q;
    assign rx_hdr_val  = '0;
    assign rx_dat_val  = '0;

    always_comb begin
      fe_cnt = '0;
      fe_cnt[cni_cq_pkg::C_TX_MSGS]    = ts_q == TPush;
      fe_cnt[cni_cq_pkg::C_TX_CLOSED]  = ts_q == TCheck && h_bad[0];
      fe_cnt[cni_cq_pkg::C_TX_BAD_LEN] = ts_q == TCheck && !h_bad[0] && h_bad[1];
      fe_cnt[cni_cq_pkg::C_TX_BAD_DST] = ts_q == TCheck && !h_bad[0] && !h_bad[1] && h_bad[2];
      fe_cnt[cni_cq_pkg::C_TX_OVERRUN] = ts_q == TCheck && h_bad == '0 && t_ready && !h_room &&
                                         !ovr_q;
      fe_cnt[cni_cq_pkg::C_TX_EARLY]   = e_trg && ts_q != TOpen && ts_q != TRd0 && ts_q != TChk0;
      fe_cnt[cni_cq_pkg::C_VP_OLD]     = ts_q == TChk0 && !t0_ok;
      fe_cnt[cni_cq_pkg::C_PULLS]      = go_pull;
      fe_cnt[cni_cq_pkg::C_LOCKED_WR]  = g_lock;
      fe_cnt[cni_cq_pkg::C_RX_STRAY]   = w_clear && rs_q != RReady;
    end

    // no SQ_HEAD, no RQ_HEAD refresh, no caching agent
    assign rq_sqh  = 1'b0;
    assign rq_ref  = 1'b0;
    assign ca_req_valid_o = 1'b0;
    assign ca_req_op_o    = '0;
    assign ca_req_addr_o  = '0;
    assign ca_req_data_o  = '0;
    assign ca_req_be_o    = '0;
    assign ca_req_id_o    = '0;
    assign ca_rsp_ready_o = 1'b1;
    assign rx_err         = 1'b0;
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_cni4 = ^{ca_req_ready_i, ca_rsp_valid_i, ca_rsp_id_i, ca_rsp_data_i, ca_rsp_err_i,
                         rqb_q, w_rqb, w_ready, w_txhdr, w_txdat, rd_hi, r_rxhdr, r_rxdat,
                         go_sqh, go_ref, rq_poll_q, tq_in_ready, e_t[31:JW], e_r[31:JW]};
    /* verilator lint_on UNUSEDSIGNAL */

    // idle: nothing owed to the host, no line the CPU owns (its back-off runs), nothing to move
    assign fe_idle = ts_q == TOpen && ask_q == '0 && own_q == '0 && pl_q == '0 &&
                     !(tq_out_valid && !txm_q) && !(rmsg_valid && rq_in_ready) &&
                     ((rs_q == RFree && !rq_out_valid) || rs_q == RReady);

  // ==== CQ: CNI16Q, CNI512Q, CNI16Qm ===========================================================
  end else begin : g_cq
    localparam int SPW = $clog2(NS) + 1;   // SQ pointer: slot index, pass parity on top
    localparam int RPW = $clog2(NR) + 1;
    localparam int SIW = SPW - 1;
    localparam int RIW = RPW - 1;

    // -- send side ---------------------------------------------------------------------------
    typedef enum logic [2:0] {QIdle, QPull, QRead, QData, QNext} qstate_e;
    qstate_e         qs_q, qs_d;
    logic [SPW-1:0]  hd_q;
    logic [15:0]     pend_q;
    logic [B-1:0]    pt_q;          // lines of slot hd whose pull is still to be presented
    logic [B-1:0]    po_q;          // pulls presented, not done
    logic [JW-1:0]   qj_q;          // the line being read
    logic [BW-1:0]   qn_q;          // lines the message uses
    logic            qdrop_q;       // the message was refused (counted)
    logic            sqh_owe_q, sqh_busy_q;
    wire  [SIW-1:0]  hd_idx   = hd_q[SIW-1:0];
    wire             hd_sense = !hd_q[SPW-1];

    // the lowest line whose pull is to be presented
    logic [JW-1:0] pt_j;
    always_comb begin
      pt_j = '0;
      for (int j = B - 1; j >= 0; j--) if (pt_q[j]) pt_j = JW'(j);
    end
    // EarlyPull: the owed RESUMEs (one per TRIGGER, in order), the early pull requested (ep_v)
    // and the one in flight (ep_busy). QPull presents no pull while an early pull is in flight
    // and no early pull is presented in QPull, so each RECALL_DONE of an SQ line is unambiguous;
    // an early pull waits until no RESUME is owed (a pull of a line with a parked request would
    // turn its grant into a Retry, gap G1).
    logic                ep_v_q, ep_busy_q;
    logic [LineIdxW-1:0] ep_line_q, ep_bline_q;
    logic                rf_out_valid;
    logic [LineIdxW-1:0] rf_out;
    wire q_pull  = qs_q == QPull && pt_q != '0 && !ep_busy_q;
    wire ep_pull = Ep && ep_v_q && !ep_busy_q && qs_q != QPull && !rf_out_valid;
    assign rq_pull      = q_pull || ep_pull;
    assign rq_pull_line = q_pull ? LineIdxW'(LSq + 32'(hd_idx) * B + 32'(pt_j)) : ep_line_q;
    assign rq_sqh       = sqh_owe_q && !sqh_busy_q;
    assign rq_rsm       = rf_out_valid;
    assign rq_rsm_line  = rf_out;

    // TX_READY: v messages made ready
    wire [15:0] tr_v    = wval[15:0];
    wire [16:0] tr_sum  = 17'(pend_q) + 17'(tr_v);
    wire        tr_ok   = w_ready && open_q && 32'(tr_sum) <= 32'(NS);

    // the header read from line 0
    wire        l0_ctl  = mem_rdata_i[0];   // the valid bit
    wire [15:0] l0_len  = mem_rdata_i[16 +: 16];
    wire [15:0] l0_dst  = mem_rdata_i[32 +: 16];
    wire [2:0]  l0_bad  = hdr_check(l0_len, l0_dst, 1'b1, nodes_q);
    wire        l0_sns  = l0_ctl != hd_sense;
    wire [BW-1:0] l0_n  = BW'((32'(l0_len) + cni_cq_pkg::HDR_BYTES + LineBytes - 1) / LineBytes);

    // -- receive side ------------------------------------------------------------------------
    // RLock writes a message into slot tl: locked writes (device-homed RQ) or, CNI16Qm, CA_WRs
    // through the caching agent; RRef..RRefRead (device) or MRef, MRefRsp (CNI16Qm: CA_RD_NA)
    // read RQ_HEAD into the shadow.
    typedef enum logic [3:0] {RIdle, RRef, RRefWait, RRefRead, RRefData, RPoll, RLock, MRef,
                              MRefRsp} rstate_e;
    rstate_e         rs_q, rs_d;
    logic [RPW-1:0]  tl_q, sh_q;
    logic [B-1:0]    lt_q;          // lines of slot tl whose RECALL is still to be presented
    logic [B-1:0]    lo_q;          // presented, not yet written
    logic [15:0]     poll_q;
    logic            ref_sent_q;
    logic [31:0]     rhw_q;         // CNI16Qm: RQ_HEAD as the caching agent read it
    wire  [RIW-1:0]  tl_idx   = tl_q[RIW-1:0];
    wire             tl_sense = !tl_q[RPW-1];
    wire  [RPW-1:0]  used     = tl_q - sh_q;
    wire             rq_room  = 32'(used) < 32'(NR);
    wire  [15:0]     r_len    = rmsg_img[16 +: 16];
    wire  [BW-1:0]   r_n      = BW'((32'(r_len) + cni_cq_pkg::HDR_BYTES + LineBytes - 1) /
                                    LineBytes);
    // the next lock to present: lines 1..n-1 first, then line 0
    logic [JW-1:0] lt_j;
    always_comb begin
      lt_j = '0;
      for (int j = B - 1; j >= 1; j--) if (lt_q[j]) lt_j = JW'(j);
    end
    assign rq_lock      = !Qm && rs_q == RLock && lt_q != '0;
    assign rq_lock_line = LineIdxW'(LRq + 32'(tl_idx) * B + 32'(lt_j));
    assign rq_ref       = rs_q == RRef && !ref_sent_q;

    // -- events ------------------------------------------------------------------------------
    wire evt_done = evt_valid_i && evt_kind_i == cni_coh_pkg::EVT_RECALL_DONE;
    wire [31:0] e_line = 32'(evt_line_i);
    wire [31:0] e_sq   = e_line - 32'(LSq) - 32'(hd_idx) * B;     // line within slot hd
    wire [31:0] e_rq   = e_line - 32'(LRq) - 32'(tl_idx) * B;     // line within slot tl
    wire e_ep    = Ep && evt_done && ep_busy_q && evt_line_i == ep_bline_q;
    wire e_pull  = evt_done && !e_ep && qs_q == QPull && e_sq < 32'(B) && po_q[JW'(e_sq)];
    // EarlyPull: a TRIGGER of an SQ line (the CPU asks to own it): its RESUME is owed, and line
    // k >= 1 of a slot asks the early pull of line k - 1
    wire [31:0] e_sl   = e_line - 32'(LSq);   // line within the SQ
    wire e_trg  = Ep && evt_valid_i && evt_kind_i == cni_coh_pkg::EVT_TRIGGER &&
                  e_sl < 32'(SqLines);
    wire rf_in_ready;
    if (Ep) begin : g_ep
      // as many owed RESUMEs as the home agent can park, so a TRIGGER never waits for room
      cni_fifo #(.Width (LineIdxW), .Depth (ParkMax)) u_rsm (
        .clk_i, .rst_ni,
        .in_valid_i (e_trg), .in_ready_o (rf_in_ready), .in_data_i (evt_line_i),
        .out_valid_o (rf_out_valid), .out_ready_i (go_rsm), .out_data_o (rf_out),
        /* verilator lint_off PINCONNECTEMPTY */
        .count_o ()
        /* verilator lint_on PINCONNECTEMPTY */
      );
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) begin
          ep_v_q     <= 1'b0;
          ep_busy_q  <= 1'b0;
          ep_line_q  <= '0;
          ep_bline_q <= '0;
        end else begin
          if (go_pull && !q_pull) begin
            ep_v_q     <= 1'b0;
            ep_busy_q  <= 1'b1;
            ep_bline_q <= ep_line_q;
          end else if (qs_q == QIdle && qs_d == QPull) begin
            ep_v_q <= 1'b0;   // QPull pulls what the request was for
          end else if (e_trg && rf_in_ready && e_sl % B != 0 && !ep_v_q) begin
            ep_v_q    <= 1'b1;
            ep_line_q <= evt_line_i - 1'b1;
          end
          if (e_ep) ep_busy_q <= 1'b0;
        end
      end
    end else begin : g_no_ep
      assign rf_in_ready  = 1'b1;
      assign rf_out_valid = 1'b0;
      assign rf_out       = '0;
      assign ep_v_q       = 1'b0;
      assign ep_busy_q    = 1'b0;
      assign ep_line_q    = '0;
      assign ep_bline_q   = '0;
    end
    wire e_lock  = !Qm && evt_done && rs_q == RLock && e_rq < 32'(B) && lo_q[JW'(e_rq)];
    wire e_sqh   = evt_done && sqh_busy_q && e_line == 32'(LSqHead);
    wire e_ref   = evt_done && rs_q == RRefWait && e_line == 32'(LRqHead);
    wire e_held  = e_lock || e_sqh;   // a locked write's event: held until the write is granted

    // -- port B: lock writes, then the RQ_HEAD read, then SQ reads ----------------------------
    wire pb_lock  = e_held;
    wire pb_ref   = !pb_lock && rs_q == RRefRead;
    wire pb_sq    = !pb_lock && !pb_ref && qs_q == QRead;
    // Line j of the message being received as it goes into slot tl: line 0 carries the valid
    // bit, the pass's sense.
    function automatic logic [LineBits-1:0] rq_line(input logic [MsgBits-1:0] img,
                                                    input logic sense, input logic [JW-1:0] j);
      rq_line = img[LineBits * j +: LineBits];
      if (j == '0) rq_line[0] = sense;
    endfunction
    logic [LineBits-1:0] lock_data;
    always_comb begin
      lock_data = '0;
      if (e_sqh) lock_data[31:0] = {hd_q[SPW-1], 31'(hd_idx)};
      else lock_data = rq_line(rmsg_img, tl_sense, e_rq[JW-1:0]);
    end
    assign mem_en_o    = pb_lock || pb_ref || pb_sq;
    assign mem_we_o    = pb_lock;
    assign mem_addr_o  = pb_lock ? evt_line_i
                       : pb_ref ? LineIdxW'(LRqHead)
                       : LineIdxW'(LSq + 32'(hd_idx) * B + 32'(qj_q));
    assign mem_wdata_o = lock_data;
    wire   g_lock = pb_lock && mem_gnt_i;
    wire   g_ref  = pb_ref && mem_gnt_i;
    wire   g_sq   = pb_sq && mem_gnt_i;
    // A locked write's event is taken the cycle after its write: the home agent reads a line in
    // the cycle it looks at a request and decides in the next, so a request looked at in the
    // write's cycle (a read that meets the write, undefined in a block RAM) must still find the
    // line's entry when it is decided. The write clears the line's bit, which releases the event.
    assign evt_ready_o = !e_held && !(e_trg && !rf_in_ready);

    // -- send side: state ----------------------------------------------------------------------
    always_comb begin
      qs_d = qs_q;
      unique case (qs_q)
        QIdle: if (pend_q != '0 && !txm_q) qs_d = QPull;
        QPull: if (pt_q == '0 && po_q == '0) qs_d = QRead;
        QRead: if (g_sq) qs_d = QData;
        QData: begin
          if (qj_q == '0) begin
            if (l0_bad != '0 || l0_sns || l0_n == BW'(1)) qs_d = QNext;
            else qs_d = QRead;
          end else if (BW'(qj_q) + 1'b1 == qn_q) qs_d = QNext;
          else qs_d = QRead;
        end
        QNext: qs_d = QIdle;
        default: qs_d = QIdle;
      endcase
    end
    // Into txm: the header line and the lines read, as they come.
    logic [MsgBits-1:0] qimg_q;
    always_comb begin
      fe_txm_img = qimg_q;
    end
    assign fe_txm_load = qs_q == QNext && !qdrop_q;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        qs_q       <= QIdle;
        hd_q       <= '0;
        pend_q     <= '0;
        pt_q       <= '0;
        po_q       <= '0;
        qj_q       <= '0;
        qn_q       <= '0;
        qdrop_q    <= 1'b0;
        sqh_owe_q  <= 1'b0;
        sqh_busy_q <= 1'b0;
      end else begin
        qs_q <= qs_d;
        if (qs_q == QIdle && qs_d == QPull) begin
          pt_q <= '1;
          po_q <= '0;
          qj_q <= '0;
        end
        if (go_pull && q_pull) begin
          pt_q[pt_j] <= 1'b0;
          po_q[pt_j] <= 1'b1;
        end
        if (e_pull) po_q[JW'(e_sq)] <= 1'b0;
        if (qs_q == QData) begin
          if (qj_q == '0) begin
            qdrop_q <= l0_bad != '0 || l0_sns;
            qn_q    <= l0_n;
          end
          qj_q <= qj_q + 1'b1;
        end
        if (qs_q == QNext) begin
          hd_q      <= hd_q + 1'b1;
          sqh_owe_q <= 1'b1;
        end
        // pend: TX_READY adds, each message taken from the queue subtracts
        if (w_ready && open_q) begin
          pend_q <= (32'(tr_sum) > 32'(NS) ? 16'(NS) : 16'(tr_sum)) - 16'(qs_q == QNext);
        end else if (qs_q == QNext) begin
          pend_q <= pend_q - 1'b1;
        end
        if (go_sqh) begin
          sqh_owe_q  <= qs_q == QNext;
          sqh_busy_q <= 1'b1;
        end
        if (e_sqh && g_lock) sqh_busy_q <= 1'b0;
      end
    end
    always_ff @(posedge clk_i) begin
      if (qs_q == QData) qimg_q[LineBits * qj_q +: LineBits] <= mem_rdata_i;
      if (qs_q == QIdle && qs_d == QPull) qimg_q <= '0;
    end

    // -- receive side: state -------------------------------------------------------------------
    always_comb begin
      rs_d = rs_q;
      unique case (rs_q)
        RIdle:    if (rmsg_valid && !(Qm && err_q)) rs_d = rq_room ? RLock : Qm ? MRef : RRef;
        RRef:     if (go_ref) rs_d = RRefWait;
        RRefWait: if (e_ref) rs_d = RRefRead;
        RRefRead: if (g_ref) rs_d = RRefData;
        RRefData: rs_d = RPoll;
        RPoll:    if (rq_room) rs_d = RIdle;
                  else if (poll_q == '0) rs_d = Qm ? MRef : RRef;
        RLock:    if (lt_q == '0 && lo_q == '0) rs_d = RIdle;
        MRef:     if (ca_req_ready_i) rs_d = MRefRsp;
        MRefRsp:  if (ca_rsp_valid_i) rs_d = ca_rsp_err_i ? RIdle : RRefData;
        default:  rs_d = RIdle;
      endcase
    end
    // RQ_HEAD as read: [30:0] slot index, [31] pass parity
    wire [31:0]     rh_word = Qm ? rhw_q : mem_rdata_i[31:0];
    wire [RPW-1:0]  rh_ptr  = {rh_word[31], RIW'(rh_word[30:0])};
    wire            rh_ok   = 32'(rh_word[30:0]) < 32'(NR) && 32'(RPW'(tl_q - rh_ptr)) <= 32'(NR)
                              && 32'(RPW'(rh_ptr - sh_q)) <= 32'(NR);
    // (CNI16Qm after an Error: the endpoint is closed and the message is dropped)
    assign rmsg_ready = (rs_q == RLock && lt_q == '0 && lo_q == '0) ||
                        (Qm && rs_q == RIdle && err_q && rmsg_valid);

    // -- CNI16Qm: the caching agent's port ---------------------------------------------------
    // RLock: CA_WR of lines 1..n-1 (id = the line), then, every one answered without an Error,
    // of line 0 (docs/cni.md section 5, rule 6: no header is written over a payload line that
    // was not); MRef: CA_RD_NA of RQ_HEAD. Every response is taken at once.
    wire       ca_pay  = rs_q == RLock && lt_q != '0 && (lt_j != '0 || (lo_q == '0 && !err_q));
    wire       ca_drop = Qm && rs_q == RLock && lt_q == B'(1) && lo_q == '0 && err_q;
    wire       ca_take = Qm && ca_pay && ca_req_ready_i;
    wire [31:0] ca_line = 1 + 32'(tl_idx) * B + 32'(lt_j);   // line of the host queue
    assign ca_req_valid_o = Qm && (ca_pay || rs_q == MRef);
    assign ca_req_op_o    = rs_q == MRef ? cni_coh_pkg::CA_RD_NA : cni_coh_pkg::CA_WR;
    assign ca_req_addr_o  = cni_coh_pkg::ADDR_W'(rs_q == MRef ? rqb_q
                                                              : rqb_q + 48'(ca_line) * 48'(LineBytes));
    assign ca_req_data_o  = rq_line(rmsg_img, tl_sense, lt_j);
    assign ca_req_be_o    = '1;
    assign ca_req_id_o    = CaIdW'(lt_j);
    assign ca_rsp_ready_o = 1'b1;
    wire   ca_rsp  = Qm && ca_rsp_valid_i;
    assign rx_err  = ca_rsp && ca_rsp_err_i;

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        rs_q       <= RIdle;
        tl_q       <= '0;
        sh_q       <= '0;
        lt_q       <= '0;
        lo_q       <= '0;
        poll_q     <= '0;
        ref_sent_q <= 1'b0;
        rhw_q      <= '0;
      end else begin
        rs_q <= rs_d;
        if (rs_q == RIdle && rs_d == RLock) begin
          lt_q <= BW'(1) == r_n ? B'(1) : B'((B'(1) << r_n) - 1'b1);
          lo_q <= '0;
        end
        if (go_lock || ca_take) begin
          // lines 1..n-1 first; line 0 once they are all presented (CNI16Qm: answered)
          if (lt_j != '0) begin
            lt_q[lt_j] <= 1'b0;
            lo_q[lt_j] <= 1'b1;
          end else begin
            lt_q[0] <= 1'b0;
            lo_q[0] <= 1'b1;
          end
        end
        if (e_lock && g_lock) lo_q[JW'(e_rq)] <= 1'b0;
        if (ca_rsp && rs_q == RLock) lo_q[JW'(ca_rsp_id_i)] <= 1'b0;
        if (ca_drop) lt_q[0] <= 1'b0;   // after an Error: the header is not written
        if (ca_rsp && rs_q == MRefRsp) rhw_q <= ca_rsp_data_i[31:0];
        if (rmsg_ready && !(Qm && err_q)) tl_q <= tl_q + 1'b1;
        ref_sent_q <= rs_q == RRef ? (ref_sent_q || go_ref) : 1'b0;
        if (rs_q == RRefData && rh_ok) sh_q <= rh_ptr;
        if (w_rqb) begin   // a new host queue (written while closed): empty, first pass
          tl_q <= '0;
          sh_q <= '0;
        end
        if (rs_q == RRefData) poll_q <= rq_poll_q;
        else if (rs_q == RPoll && poll_q != '0) poll_q <= poll_q - 1'b1;
      end
    end

    assign st_tx_free  = '0;
    assign st_rx_msgs  = '0;
    assign st_pend     = pend_q;
    assign st_tx_open  = 1'b0;
    assign st_rx_ready = 1'b0;
    assign st_tx_seq   = '0;
    assign rx_hdr_val = '0;
    assign rx_dat_val = '0;

    always_comb begin
      fe_cnt = '0;
      fe_cnt[cni_cq_pkg::C_TX_MSGS]    = qs_q == QNext && !qdrop_q;
      fe_cnt[cni_cq_pkg::C_TX_CLOSED]  = w_ready && !open_q;
      fe_cnt[cni_cq_pkg::C_TX_OVERRUN] = tr_ok ? 1'b0 : (w_ready && open_q);
      fe_cnt[cni_cq_pkg::C_TX_BAD_LEN] = qs_q == QData && qj_q == '0 && !l0_sns && l0_bad[1];
      fe_cnt[cni_cq_pkg::C_TX_BAD_DST] = qs_q == QData && qj_q == '0 && !l0_sns && !l0_bad[1] &&
                                         l0_bad[2];
      fe_cnt[cni_cq_pkg::C_TX_BAD_SNS] = qs_q == QData && qj_q == '0 && l0_sns;
      fe_cnt[cni_cq_pkg::C_PULLS]      = go_pull && q_pull;
      fe_cnt[cni_cq_pkg::C_EARLY]      = go_pull && !q_pull;
      fe_cnt[cni_cq_pkg::C_REFRESHES]  = rs_q == RRefData;
      fe_cnt[cni_cq_pkg::C_RX_BAD]     = rs_q == RRefData && !rh_ok;
      fe_cnt[cni_cq_pkg::C_LOCKED_WR]  = g_lock;
      fe_cnt[cni_cq_pkg::C_RQ_ERR]     = rx_err;
    end

    /* verilator lint_off UNUSEDSIGNAL */
    wire unused_cq = ^{vp_backoff_q, rd_hi, r_rxhdr, r_rxdat, w_txhdr, w_txdat, l0_bad[0], w_clear,
                       wlo_q[31:16],
                       ca_rsp_id_i,      // ids above the slot's lines are never issued
                       ca_rsp_data_i};   // only RQ_HEAD's word is read
    /* verilator lint_on UNUSEDSIGNAL */

    assign fe_idle = qs_q == QIdle && !(pend_q != '0 && !txm_q) && rs_q == RIdle &&
                     !rmsg_valid && !sqh_owe_q && !sqh_busy_q && !rf_out_valid && !ep_v_q &&
                     !ep_busy_q;
  end

  assign idle_o = pol_done && !cmd_q && net_idle && fe_idle;

endmodule
