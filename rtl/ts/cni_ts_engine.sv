// SPDX-License-Identifier: Apache-2.0
// Tag store engine: seed 001's fine-grain access control on the engine bus (docs/tagstore.md).
// A 2-bit tag per block of its region (Invalid, ReadOnly, ReadWrite), enforced by the home
// agent's line policies (PARK, SHARED, ALLOW), which the engine sets whenever it writes a tag;
// a request the tag does not allow is parked and its TRIGGER is an access fault, dispatched to a
// handler through the dispatch register (uncached registers, a cachable dispatch line, or a
// dispatch line whose read parks until an event); the handler answers through queued commands
// (READ, WRITE, SET_TAG, RESUME, NACK, GET_TAG, FILL, SEND) in the register window. Its own
// network interface (cni_ts_ni, Typhoon-1's) sends messages and dispatches the ones it receives.
// Region (lines from Base): the register page (256 bytes, policy DENY), the dispatch line, the
// buffer line (a cachable block buffer: WRITE and FILL may take their data from it), then the
// Lines blocks from BlkBase on: next in the region, or the first DRAM-backed lines.
//
// Parameters:
//   LineBytes, LineIdxW - line size, device line index width
//   NetBytes, CacheIdW  - the platform's (CacheIdW unused: no caching-agent port)
//   Base, Lines         - the region's first line, and its blocks
//   BlkBase             - block 0's line (after the buffer line, or a DRAM-backed line)
//   TrigDepth, CmdDepth - faults waiting for the dispatch register, handler commands queued
//   RxDepth             - messages of the network interface queued
// Ports: the engine bus records (cni_engine_types.svh); idle_o: nothing to do until an input
// (docs/endpoint.md, "Quiescence"); msg_i: a pulse per message arrival (the registry's signal
// `cni_rx`, from the CNI engine; 0 without one), dispatched as message events beside the faults.
`default_nettype none

module cni_ts_engine #(
  parameter int LineBytes = 128,
  parameter int LineIdxW  = 11,
  parameter int NetBytes  = 64,
  parameter int CacheIdW  = 4,
  parameter int Base      = 0,
  parameter int Lines     = 16,
  parameter int BlkBase   = Base + 256 / LineBytes + 2,
  parameter int TrigDepth = 4,
  parameter int CmdDepth  = 4,
  parameter int RxDepth   = 4,
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
  output logic                                                      idle_o,
  input  wire logic                                                 msg_i
);

`include "cni_engine_types.svh"
  eng_evt_req_t evt;
  eng_evt_rsp_t evt_rsp;
  eng_cmd_req_t cmd;
  eng_cmd_rsp_t cmd_rsp;
  eng_mem_req_t mem;
  eng_mem_rsp_t mem_rsp;
  /* verilator lint_off UNUSEDSIGNAL */
  eng_reg_req_t rq;       // priv, ctx: one window, no privileged register
  eng_net_rsp_t net_rsp;  // rx_chan, tx_room: one input, the switch gates what it sends
  /* verilator lint_on UNUSEDSIGNAL */
  eng_net_req_t net;
  assign {evt, cmd_rsp, mem_rsp, rq, net_rsp} = {evt_req_i, cmd_rsp_i, mem_rsp_i, reg_req_i,
                                                 net_rsp_i};
  assign {evt_rsp_o, cmd_req_o, mem_req_o, net_req_o} = {evt_rsp, cmd, mem, net};

  // The window's offsets (R_STATUS, ... R_BUF), from rtl/ts/cni_ts.rdl.
`include "cni_engine_ts_consts.svh"

  localparam int R      = 256 / LineBytes;     // register page lines
  localparam int LDisp  = Base + R;            // the dispatch line
  localparam int LBuf   = Base + R + 1;        // the buffer line
  localparam int LBlk0  = BlkBase;             // block 0
  localparam int BlkW   = Lines > 1 ? $clog2(Lines) : 1;
  localparam int OpW    = cni_coh_pkg::OP_W;
  localparam int AgW    = cni_coh_pkg::AGENT_W;

  if (Lines < 1 || Lines >= (1 << 24)) $error("cni_ts_engine: Lines must be 1 .. 2^24 - 1");
  if (LineBytes * 8 != Words * 32 || Words > 32) $error("cni_ts_engine: LineBytes 4..128");
  if (32'(LBlk0) + 32'(Lines) > (32'd1 << LineIdxW)) $error("cni_ts_engine: region past the map");

  // ---- state --------------------------------------------------------------------------------
  typedef enum logic [3:0] {
    SInit, SInitPol, SIdle, STRd, SCRd, SSeq, SCmd, SWait, SMem, SRData, STake, SSnd
  } state_e;
  state_e st_q;

  // The tag RAM: {write, pending, tag} per block; one access per cycle, synchronous read.
  logic [3:0]      tram [Lines];
  logic [3:0]      tw_rd;                 // the word read in the cycle before
  logic            t_re, t_we;
  logic [BlkW-1:0] t_ra, t_wa;
  logic [3:0]      t_wd;
  always_ff @(posedge clk_i) begin
    if (t_we) tram[t_wa] <= t_wd;
    if (t_re) tw_rd <= tram[t_ra];
  end

  // The job being run: its line and block, and its steps, done in this order (docs/tagstore.md,
  // "State table"): a direct memory write, the tag word, POLICY, a recall (then a locked write, or
  // a read), the answer (RESUME or NACK).
  logic [LineIdxW-1:0]          j_line_q;
  logic [BlkW-1:0]              j_blk_q;
  logic                         j_cmd_q;     // a handler command (counted DONE at its end)
  logic                         s_ld_q;      // first: the buffer line into the buffer
  logic                         s_wdir_q, s_tag_q, s_pol_q, s_rec_q, s_ans_q, s_snd_q;
  logic                         rec_dn_q;    // the recall is RECALL_DN
  logic                         lockw_q;     // ... followed by a locked write
  logic                         rd_q;        // ... followed by a read into the buffer
  logic                         wbl_q;       // ... then the buffer into the buffer line
  logic                         wev_q;       // the memory write writes the event (else the buffer)
  logic [3:0]                   tw_q;        // the tag word to write
  logic [cni_coh_pkg::POL_W-1:0] pol_q;
  logic [cni_coh_pkg::CMD_W-1:0] ans_op_q;
  logic [cni_coh_pkg::ARG_W-1:0] ans_arg_q;

  // Reset sweep and policies.
  logic [BlkW-1:0] init_q;
  logic [$clog2(R + 2)-1:0] ipol_q;        // register page lines, then the dispatch line

  // Registers and the dispatch register.
  logic [LineBits-1:0] buf_q;
  logic [1:0]   mode_q;
  logic         mode_chg_q;                // a MODE write waits to be applied
  logic [31:0]  ack_lo_q;
  logic [3:0]   cause_q;
  logic [3:0]   result_q;
  logic         ev_valid_q, ev_written_q;  // an event not acknowledged; written into the line
  logic         ev_msg_q;                  // the event is a message arrival (kind 1)
  logic [15:0]  arr_q;                     // message arrivals not yet dispatched
  logic         last_msg_q;                // the last dispatch was a message event
  logic [31:0]  seq_q;
  logic         ev_wr_q;
  logic [1:0]   ev_tag_q;
  logic [AgW-1:0] ev_src_q;
  logic [OpW-1:0] ev_op_q;
  logic [BlkW-1:0] ev_blk_q;
  logic         ev_ni_q, ev_nd_q;          // the network interface's queue head; with data
  logic [15:0]  ev_nsrc_q;                 // ... its source node, handler byte and block
  logic [7:0]   ev_nhdl_q;
  logic [31:0]  ev_nblk_q;
  logic         disp_copy_q;               // a host may hold the dispatch line (mode 2)
  logic         d_wait_q;                  // a read of the dispatch line is parked (mode 2)
  logic         d_bad_q;                   // a request to the dispatch line to refuse (Error)

  // ---- events -------------------------------------------------------------------------------
  // A TRIGGER is always taken: a block's goes into the fault queue (dropped when it is full: the
  // request's park timer retries it), the dispatch line's sets d_wait or d_bad. RECALL_DONE is the
  // job's recall: taken in SWait (a read's), or in STake (a locked write's: the cycle after it).
  wire ev_trig = evt.valid && evt.kind == cni_coh_pkg::EVT_TRIGGER;
  wire ev_done = evt.valid && evt.kind == cni_coh_pkg::EVT_RECALL_DONE;
  assign evt_rsp.ready = ev_trig ||
                         (ev_done && ((st_q == SWait && (s_ld_q || !lockw_q)) || st_q == STake));
  wire trig_disp = ev_trig && evt.line == LineIdxW'(LDisp);
  wire trig_blk  = ev_trig && 32'(evt.line) >= 32'(LBlk0);
  wire trig_page = ev_trig && !trig_disp && !trig_blk;   // cannot happen (DENY); refused

  logic                tq_in_ready, tq_valid, tq_pop, tq_wr;
  logic [LineIdxW-1:0] tq_line;
  logic [OpW-1:0]      tq_op;
  logic [AgW-1:0]      tq_src;
  logic [BlkW-1:0]     tq_blk;
  cni_ts_faultq #(.LineIdxW(LineIdxW), .Lines(Lines), .BlkBase(LBlk0), .Depth(TrigDepth)) u_tq (
    .clk_i, .rst_ni, .push_i (trig_blk), .ready_o (tq_in_ready), .line_i (evt.line),
    .op_i (evt.op), .src_i (evt.src), .pop_i (tq_pop), .valid_o (tq_valid), .line_o (tq_line),
    .op_o (tq_op), .src_o (tq_src), .wr_o (tq_wr), .blk_o (tq_blk)
  );

  // ---- handler commands: CMD, checked and queued (cni_ts_cmdq) --------------------------------
  wire         wr_cmd_hi = rq.valid && rq.we && rq.addr == R_CMD_HI;
  logic        cq_valid, cq_pop, enq_refuse;
  logic [3:0]  enq_cause;
  logic [3:0]  c_op;
  logic [1:0]  c_tag;
  logic        c_flag, c_ack, c_line, c_rx;
  logic [7:0]  c_dst, c_hdl;
  logic [BlkW-1:0] c_blk;
  cni_ts_cmdq #(.Lines(Lines), .Depth(CmdDepth)) u_cmdq (
    .clk_i, .rst_ni,
    .wr_lo_i (rq.valid && rq.we && rq.addr == R_CMD_LO), .wr_hi_i (wr_cmd_hi),
    .wdata_i (rq.wdata), .refuse_o (enq_refuse), .cause_o (enq_cause),
    .pop_i (cq_pop), .valid_o (cq_valid), .op_o (c_op), .tag_o (c_tag), .flag_o (c_flag),
    .ack_o (c_ack), .line_o (c_line), .rx_o (c_rx), .dst_o (c_dst), .hdl_o (c_hdl), .blk_o (c_blk)
  );
  // the command decoded with its block's tag word (SCRd): what to do, or why it is refused
  logic [3:0] c_op_q;
  logic [1:0] c_tag_q;
  logic       c_flag_q, c_line_q, c_ack_q, c_rx_q;
  logic [7:0] c_dst_q, c_hdl_q;

  // ---- the network interface (Typhoon-1's) ----------------------------------------------------
  logic                ni_valid, ni_data_en, ni_pop, ni_tx, ni_rx, ni_bad, ni_idle, snd_ready;
  logic [15:0]         ni_src;
  logic [7:0]          ni_hdl;
  logic [31:0]         ni_blk;
  logic [LineBits-1:0] ni_data;
  logic                nrx_ready;  // its one input takes a frame of either channel
  assign net.rx_ready = {2{nrx_ready}};
  cni_ts_ni #(.LineBytes(LineBytes), .NetBytes(NetBytes), .RxDepth(RxDepth)) u_ni (
    .clk_i, .rst_ni, .node_id_i (net_rsp.node_id),
    .snd_valid_i (st_q == SSnd), .snd_ready_o (snd_ready), .snd_dst_i (16'(c_dst_q)),
    .snd_hdl_i (c_hdl_q), .snd_blk_i (32'(j_blk_q)),
    .snd_data_en_i (c_flag_q || c_line_q || c_rx_q),
    .snd_data_i (buf_q),
    .rcv_valid_o (ni_valid), .rcv_src_o (ni_src), .rcv_hdl_o (ni_hdl), .rcv_blk_o (ni_blk),
    .rcv_data_en_o (ni_data_en), .rcv_data_o (ni_data), .rcv_pop_i (ni_pop),
    .cnt_tx_o (ni_tx), .cnt_rx_o (ni_rx), .cnt_bad_o (ni_bad),
    .ntx_valid_o (net.tx_valid), .ntx_ready_i (net_rsp.tx_ready), .ntx_data_o (net.tx_data),
    .ntx_keep_o (net.tx_keep), .ntx_last_o (net.tx_last), .ntx_dest_o (net.tx_dest),
    .nrx_valid_i (net_rsp.rx_valid), .nrx_ready_o (nrx_ready), .nrx_data_i (net_rsp.rx_data),
    .nrx_keep_i (net_rsp.rx_keep), .nrx_last_i (net_rsp.rx_last), .nrx_user_i (net_rsp.rx_user),
    .idle_o (ni_idle)
  );

  // ---- acknowledgements ---------------------------------------------------------------------
  wire ack_seq = rq.valid && rq.we && rq.addr == R_ACK_HI;
  wire ack_ok  = ack_seq && ev_valid_q && ack_lo_q == seq_q;
  // (a command's ack flag acts as the command is decided, and not when it is refused)
  logic [3:0] dec_cause;   // SCRd: the command's refusal (0: none)
  wire ack_cmd = st_q == SCRd && dec_cause == '0 && c_ack_q && ev_valid_q &&
                 (ev_ni_q || (!ev_msg_q && ev_blk_q == j_blk_q));
  wire ack     = ack_ok || ack_cmd;
  assign ni_pop = ack && ev_ni_q;

  // ---- choosing the next job (SIdle) --------------------------------------------------------
  // In this order: a mode change; the dispatch line taken back from the host that holds an old
  // event, when a new one is to be written (mode 2); the new event written; the dispatch line's
  // triggers; the fault queue's head (unless it waits for the dispatch register: tq_hold, until
  // the ack); a handler command; the dispatch line taken back otherwise (after the commands, so an
  // answer with the ack flag is not held behind the recall of the handler's own copy).
  logic tq_hold_q;   // the fault queue's head was examined and waits for the dispatch register
  wire d_stale  = mode_q == cni_ts_pkg::MODE_BLOCK && disp_copy_q && !(ev_valid_q && ev_written_q);
  wire d_want   = ev_valid_q && !ev_written_q && mode_q != cni_ts_pkg::MODE_STATUS && !ack;
  // a read of the dispatch line parked: in mode 2 answered once an event is in the line; in the
  // other modes (a read that parked while the mode changed) at once
  wire d_resume = d_wait_q && (mode_q != cni_ts_pkg::MODE_BLOCK || (ev_valid_q && ev_written_q));
  wire w_trig   = tq_valid && !(tq_hold_q && ev_valid_q);
  wire go_mode  = mode_chg_q;
  wire go_curg  = !go_mode && d_stale && d_want;
  wire go_write = !go_mode && !d_stale && d_want;
  wire go_dtrig = !go_mode && !d_want && (d_bad_q || d_resume);
  // message arrivals and faults take the dispatch register in turn
  wire w_msg    = (arr_q != '0 || ni_valid) && !ev_valid_q;
  wire base_ok  = !go_mode && !d_want && !d_bad_q && !d_resume;
  wire go_msg   = base_ok && w_msg && (!last_msg_q || !w_trig);
  wire go_trig  = base_ok && w_trig && !go_msg;
  wire go_cmd   = base_ok && !w_msg && !w_trig && cq_valid;
  wire go_clean = go_curg || (base_ok && !w_msg && !w_trig && !cq_valid && d_stale);
  wire idle_st  = st_q == SIdle;
  assign cq_pop = idle_st && go_cmd;

  // ---- memory port B ------------------------------------------------------------------------
  // The event as the dispatch line holds it (docs/tagstore.md, "Dispatch register").
  wire [63:0] ev_w0 = {ev_nhdl_q, 2'd0, ev_ni_q, ev_op_q, ev_ni_q ? ev_nsrc_q[7:0] : 8'(ev_src_q),
                       ev_msg_q, ev_wr_q, ev_tag_q, ev_tag_q, ev_wr_q, ev_msg_q, seq_q};
  wire [31:0] ev_off = (32'(LBlk0) + 32'(ev_blk_q)) * 32'(LineBytes);
  logic [15:0] ev_cnt_q;   // a message event: the arrivals it stands for
  wire [63:0] ev_w1 = ev_ni_q ? {16'd0, ev_nsrc_q, ev_nblk_q} :
                      ev_msg_q ? 64'(ev_cnt_q) : {ev_off, 32'(ev_blk_q)};
  wire [LineBits-1:0] ev_line = LineBits'({ev_w1, ev_w0});
  assign mem.en    = st_q == SMem;
  assign mem.we    = !s_ld_q && (s_wdir_q || lockw_q);
  assign mem.addr  = s_ld_q ? LineIdxW'(LBuf) : j_line_q;
  assign mem.wdata = wev_q ? ev_line : buf_q;

  // ---- commands to the home agent -----------------------------------------------------------
  // SCmd presents the job's next command (POLICY, a recall, or the answer) until it is taken.
  always_comb begin
    cmd.valid = st_q == SCmd || st_q == SInitPol;
    cmd.line  = j_line_q;
    cmd.op    = cni_coh_pkg::CMD_POLICY;
    cmd.arg   = pol_q;
    if (st_q == SInitPol) begin
      cmd.line = LineIdxW'(32'(Base) + 32'(ipol_q));
      // (the reset mode's: a MODE write meanwhile is applied after the sweep, by go_mode)
      cmd.arg  = 32'(ipol_q) < 32'(R) ? cni_coh_pkg::POL_DENY : cni_coh_pkg::POL_SHARED;
    end else if (s_ld_q) begin
      cmd.line = LineIdxW'(LBuf);
      cmd.op   = cni_coh_pkg::CMD_RECALL;
      cmd.arg  = '0;
    end else if (s_pol_q) begin
      cmd.arg = pol_q;
    end else if (s_rec_q) begin
      cmd.op  = rec_dn_q ? cni_coh_pkg::CMD_RECALL_DN : cni_coh_pkg::CMD_RECALL;
      cmd.arg = '0;
    end else begin
      cmd.op  = ans_op_q;
      cmd.arg = ans_arg_q;
    end
  end
  wire cmd_fire = cmd.valid && cmd_rsp.ready;

  // ---- the tag RAM's port -------------------------------------------------------------------
  always_comb begin
    t_re = idle_st && (go_trig || go_cmd);
    t_ra = go_trig ? tq_blk : c_blk;
    t_we = st_q == SInit || (st_q == SSeq && !s_wdir_q && s_tag_q);
    t_wa = st_q == SInit ? init_q : j_blk_q;
    t_wd = st_q == SInit ? {2'b00, cni_ts_pkg::TAG_RW} : tw_q;
  end

  // ---- the job sequencer --------------------------------------------------------------------
  // A fault (STRd) and a command (SCRd) are decided with their block's tag word; both load the
  // job's steps, which SSeq then runs in order.
  wire [1:0] tw_tag  = tw_rd[1:0];
  wire       tw_pend = tw_rd[2];
  // STRd: the head is a fault to dispatch (not a duplicate, not allowed by the tag now); it stays
  // at the head while it waits for the dispatch register, else it is popped
  wire t_fault  = !tw_pend && !cni_ts_pkg::permits(tw_tag, tq_wr);
  assign tq_pop = st_q == STRd && !(t_fault && ev_valid_q);
  wire ld_fault = st_q == STRd && t_fault && !ev_valid_q;
  wire ld_msg   = idle_st && go_msg;
  cni_ts_pkg::steps_t                        d_steps;
  logic [3:0]                    d_tw;
  logic [cni_coh_pkg::POL_W-1:0] d_pol;
  logic [cni_coh_pkg::CMD_W-1:0] d_ans_op;
  logic [cni_coh_pkg::ARG_W-1:0] d_ans_arg;
  logic [3:0]                    d_cause;
  // the network interface's refusals: rx without a dispatched message with data; SEND to itself
  assign dec_cause = c_rx_q && !(ev_valid_q && ev_ni_q && ev_nd_q) ? cni_ts_pkg::CA_NO_RX :
                     c_op_q == cni_ts_pkg::OP_SEND && 16'(c_dst_q) == net_rsp.node_id ?
                         cni_ts_pkg::CA_BAD_DST : d_cause;
  cni_ts_decide u_dec (
    .op_i (c_op_q), .tag_i (c_tag_q), .flag_i (c_flag_q), .line_i (c_line_q), .tw_i (tw_rd),
    .cause_o (d_cause), .steps_o (d_steps), .tw_o (d_tw), .pol_o (d_pol),
    .ans_op_o (d_ans_op), .ans_arg_o (d_ans_arg)
  );
  wire seq_done = !s_ld_q && !s_wdir_q && !s_tag_q && !s_pol_q && !s_rec_q && !s_ans_q && !s_snd_q;
  // a command ends: GET_TAG in SCRd, the others when their last step is done (a refused one is
  // not counted)
  wire c_end    = (st_q == SCRd && dec_cause == '0 && c_op_q == cni_ts_pkg::OP_GET_TAG) ||
                  (st_q == SSeq && seq_done && j_cmd_q);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      st_q <= SInit;
      {init_q, ipol_q, j_line_q, j_blk_q, j_cmd_q, tw_q, pol_q, ans_arg_q} <= '0;
      {s_ld_q, s_wdir_q, s_tag_q, s_pol_q, s_rec_q, s_ans_q, s_snd_q} <= '0;
      {rec_dn_q, lockw_q, rd_q, wev_q, wbl_q} <= '0;
      ans_op_q <= cni_coh_pkg::CMD_RESUME;
      {c_op_q, c_tag_q, c_flag_q, c_line_q, c_ack_q, c_rx_q, c_dst_q, c_hdl_q, result_q} <= '0;
      mode_q <= cni_ts_pkg::MODE_LINE;
      {mode_chg_q, ack_lo_q, cause_q} <= '0;
      {ev_valid_q, ev_written_q, ev_msg_q, ev_cnt_q, arr_q, last_msg_q, tq_hold_q} <= '0;
      {seq_q, ev_wr_q, ev_tag_q, ev_src_q, ev_op_q, ev_blk_q} <= '0;
      {ev_ni_q, ev_nd_q, ev_nsrc_q, ev_nhdl_q, ev_nblk_q} <= '0;
      {disp_copy_q, d_wait_q, d_bad_q} <= '0;
    end else begin
      // -- the register window's writes
      if (rq.valid && rq.we) begin
        if (rq.addr == R_ACK_LO) ack_lo_q <= rq.wdata;
        if (rq.addr == R_MODE) begin
          if (rq.wdata[1:0] == 2'd3) cause_q <= cni_ts_pkg::CA_BAD_MODE;
          else if (rq.wdata[1:0] != mode_q) begin
            mode_q     <= rq.wdata[1:0];
            mode_chg_q <= 1'b1;
          end
        end
        if (enq_refuse) cause_q <= enq_cause;
      end
      if (ack) begin
        ev_valid_q   <= 1'b0;
        ev_written_q <= 1'b0;
      end

      // -- the dispatch line's triggers, and the fault queue's overflow
      if (trig_disp) begin
        if (evt.op == cni_coh_pkg::OP_RDS) d_wait_q <= 1'b1;
        else d_bad_q <= 1'b1;
      end
      if (trig_page) d_bad_q <= 1'b1;
      if (msg_i && arr_q != '1) arr_q <= arr_q + 1'b1;

      // -- the dispatch register loaded: a message event (SIdle) or a fault (STRd)
      if (ld_msg || ld_fault) begin
        seq_q        <= seq_q + 1'b1;
        ev_valid_q   <= 1'b1;
        ev_written_q <= 1'b0;
        ev_msg_q     <= ld_msg;
        ev_ni_q      <= ld_msg && ni_valid;
        {ev_nd_q, ev_nsrc_q, ev_nhdl_q, ev_nblk_q} <=
            ld_msg && ni_valid ? {ni_data_en, ni_src, ni_hdl, ni_blk} : '0;
        if (ld_msg) ev_cnt_q <= arr_q;
        {ev_wr_q, ev_tag_q, ev_src_q, ev_op_q, ev_blk_q} <=
            ld_msg ? {ni_valid && ni_data_en, 2'd0, AgW'(0), OpW'(0), BlkW'(0)} :
                     {tq_wr, tw_tag, tq_src, tq_op, tq_blk};
      end

      unique case (st_q)
        SInit: begin
          init_q <= init_q + 1'b1;
          if (32'(init_q) == 32'(Lines) - 1) st_q <= SInitPol;
        end
        SInitPol: if (cmd_fire) begin
          ipol_q <= ipol_q + 1'b1;
          if (32'(ipol_q) == 32'(R)) st_q <= SIdle;
        end
        SIdle: begin
          {s_ld_q, s_wdir_q, s_tag_q, s_pol_q, s_rec_q, s_ans_q, s_snd_q} <= '0;
          {rec_dn_q, lockw_q, rd_q, wev_q, wbl_q} <= '0;
          j_cmd_q <= 1'b0;
          if (go_mode) begin
            // the line's new policy, and no host keeps a copy across the change
            mode_chg_q   <= 1'b0;
            ev_written_q <= 1'b0;
            disp_copy_q  <= 1'b0;
            d_wait_q     <= 1'b0;
            j_line_q     <= LineIdxW'(LDisp);
            pol_q        <= mode_q == cni_ts_pkg::MODE_BLOCK ? cni_coh_pkg::POL_PARK
                                                                 : cni_coh_pkg::POL_SHARED;
            s_pol_q      <= 1'b1;
            s_rec_q      <= 1'b1;
            st_q         <= SSeq;
          end else if (go_clean) begin
            disp_copy_q <= 1'b0;
            j_line_q    <= LineIdxW'(LDisp);
            s_rec_q     <= 1'b1;
            st_q        <= SSeq;
          end else if (go_write) begin
            ev_written_q <= 1'b1;
            j_line_q     <= LineIdxW'(LDisp);
            wev_q        <= 1'b1;
            if (mode_q == cni_ts_pkg::MODE_BLOCK) s_wdir_q <= 1'b1;  // no host holds it (d_stale)
            else begin
              s_rec_q <= 1'b1;
              lockw_q <= 1'b1;
            end
            st_q <= SSeq;
          end else if (go_dtrig) begin
            j_line_q  <= LineIdxW'(LDisp);
            s_ans_q   <= 1'b1;
            if (d_bad_q) begin
              d_bad_q   <= 1'b0;
              ans_op_q  <= cni_coh_pkg::CMD_NACK;
              ans_arg_q <= cni_coh_pkg::NACK_ERROR;
            end else begin
              d_wait_q    <= 1'b0;
              disp_copy_q <= mode_q == cni_ts_pkg::MODE_BLOCK;
              ans_op_q    <= cni_coh_pkg::CMD_RESUME;
              ans_arg_q   <= cni_coh_pkg::GNT_SO;
            end
            st_q <= SSeq;
          end else if (go_msg) begin
            // a message event (ld_msg): the network interface's queue head, else the CNI
            // engine's arrivals so far (one arriving now waits for the next)
            if (!ni_valid) arr_q <= 16'(msg_i);
            last_msg_q   <= 1'b1;
          end else if (go_trig) begin
            j_line_q  <= tq_line;
            j_blk_q   <= tq_blk;
            st_q      <= STRd;
          end else if (go_cmd) begin
            j_line_q <= LineIdxW'(32'(LBlk0) + 32'(c_blk));
            j_blk_q  <= c_blk;
            j_cmd_q  <= 1'b1;
            {c_op_q, c_tag_q, c_flag_q, c_line_q, c_ack_q, c_rx_q, c_dst_q, c_hdl_q} <=
                {c_op, c_tag, c_flag, c_line, c_ack, c_rx, c_dst, c_hdl};
            st_q     <= SCRd;
          end
        end
        STRd: begin
          st_q <= SSeq;
          tq_hold_q <= 1'b0;
          // (a head popped gives the messages the next turn)
          if (tq_pop) last_msg_q <= 1'b0;
          if (tw_pend) begin
            // a duplicate: dropped
          end else if (cni_ts_pkg::permits(tw_tag, tq_wr)) begin
            s_ans_q   <= 1'b1;
            ans_op_q  <= cni_coh_pkg::CMD_RESUME;
            ans_arg_q <= cni_ts_pkg::gnt_of(tw_tag);
          end else if (ev_valid_q) begin
            tq_hold_q <= 1'b1;                     // stays at the head until the ack
          end else begin
            // dispatched (ld_fault)
            tw_q         <= {tq_wr, 1'b1, tw_tag};
            s_tag_q      <= 1'b1;
          end
        end
        SCRd: begin
          st_q <= SSeq;
          if (dec_cause != '0) begin
            cause_q <= dec_cause;
            st_q    <= SIdle;
          end else if (c_op_q == cni_ts_pkg::OP_GET_TAG) begin
            result_q <= tw_rd;
            st_q     <= SIdle;
          end else begin
            {s_ld_q, s_wdir_q, s_tag_q, s_pol_q, s_rec_q} <=
                {d_steps.ld, d_steps.wdir, d_steps.tag, d_steps.pol, d_steps.rec};
            {rec_dn_q, rd_q, lockw_q, s_ans_q, wbl_q, s_snd_q} <=
                {d_steps.rec_dn, d_steps.rd, d_steps.lockw, d_steps.ans, d_steps.wbl, d_steps.snd};
            tw_q      <= d_tw;
            pol_q     <= d_pol;
            ans_op_q  <= d_ans_op;
            ans_arg_q <= d_ans_arg;
          end
        end
        SSeq: begin
          if (s_ld_q) st_q <= SCmd;
          else if (s_wdir_q) st_q <= SMem;
          else if (s_tag_q) s_tag_q <= 1'b0;         // written this cycle (t_we)
          else if (s_pol_q || s_rec_q || s_ans_q) st_q <= SCmd;
          else if (s_snd_q) st_q <= SSnd;
          else st_q <= SIdle;
        end
        SCmd: if (cmd_fire) begin
          if (s_ld_q) begin
            st_q <= SWait;
          end else if (s_pol_q) begin
            s_pol_q <= 1'b0;
            st_q    <= SSeq;
          end else if (s_rec_q) begin
            st_q <= SWait;
          end else begin
            s_ans_q <= 1'b0;
            st_q    <= SSeq;
          end
        end
        SWait: if (ev_done) begin
          if (s_ld_q) st_q <= SMem;                 // (taken: nothing is written to it)
          else if (lockw_q) st_q <= SMem;                // RECALL_DONE held until after the write
          else if (rd_q) st_q <= SMem;
          else begin
            s_rec_q <= 1'b0;
            st_q    <= SSeq;
          end
        end
        SMem: if (mem_rsp.gnt) begin
          if (s_ld_q) begin
            st_q <= SRData;
          end else if (s_wdir_q) begin
            s_wdir_q <= 1'b0;
            st_q     <= SSeq;
          end else if (lockw_q) begin
            st_q <= STake;
          end else begin
            st_q <= SRData;
          end
        end
        SRData: begin
          if (s_ld_q) begin
            s_ld_q <= 1'b0;
          end else begin
            // READ with the line flag: then the buffer line's recall and the locked write
            {s_rec_q, lockw_q, rec_dn_q, rd_q, wbl_q} <= {wbl_q, wbl_q, 3'b000};
            if (wbl_q) j_line_q <= LineIdxW'(LBuf);
          end
          st_q <= SSeq;
        end
        SSnd: if (snd_ready) begin
          s_snd_q <= 1'b0;
          st_q    <= SSeq;
        end
        STake: if (ev_done) begin
          s_rec_q <= 1'b0;
          lockw_q <= 1'b0;
          st_q    <= SSeq;
        end
        default: st_q <= SIdle;
      endcase
    end
  end

  // the line buffer: written by software, by a READ, or by a command with the rx flag
  always_ff @(posedge clk_i) begin
    if (st_q == SRData) buf_q <= mem_rsp.rdata;
    else if (st_q == SCRd && dec_cause == '0 && c_rx_q) buf_q <= ni_data;
    else if (rq.valid && rq.we && rq.addr >= R_BUF && 32'(rq.addr[6:2]) < 32'(Words)) begin
      buf_q[32 * rq.addr[6:2] +: 32] <= rq.wdata;
    end
  end

  // ---- register reads, and the counters ------------------------------------------------------
  wire busy   = cq_valid || (st_q != SIdle && j_cmd_q);
  wire st_trd = st_q == STRd;
  cni_ts_regs #(.Lines(Lines), .Words(Words), .First(R + 2), .BlockLine(LBlk0 - Base),
                .CmdDepth(CmdDepth)) u_regs (
    .clk_i, .rst_ni, .rd_i (rq.valid && !rq.we), .addr_i (rq.addr),
    .status_i ({22'd0, mode_q, cause_q, 1'b0, st_q != SInit && st_q != SInitPol, ev_valid_q, busy}),
    .result_i (result_q), .mode_i (mode_q), .ev_w0_i (ev_w0), .ev_w1_i (ev_w1), .buf_i (buf_q),
    .cnt_i ({ni_bad, ni_rx, ni_tx, ld_msg, idle_st && go_dtrig && d_bad_q, ack_seq && !ack_ok,
             c_end, trig_blk && !tq_in_ready, st_trd && !tw_pend && cni_ts_pkg::permits(tw_tag, tq_wr),
             st_trd && tw_pend, ld_fault}),
    .ref_i (2'(enq_refuse) + 2'(st_q == SCRd && dec_cause != '0) +
            2'(rq.valid && rq.we && rq.addr == R_MODE && rq.wdata[1:0] == 2'd3)),
    .rdata_o (reg_rsp_o)
  );

  // Quiescence: nothing to do until an input (an event, a register access, the home agent).
  assign idle_o = ni_idle && st_q == SIdle && !go_mode && !go_clean && !go_write && !go_dtrig && !go_msg &&
                  !go_trig && !go_cmd;

endmodule
