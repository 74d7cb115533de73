// SPDX-License-Identifier: Apache-2.0
// The coherent block-transfer engine (docs/xfer.md): seed 004's message passing as one engine
// on the engine bus. A process describes a message with uncached register writes (XCMD, then
// its source pieces, XPAGE; a memory copy also its destination, XDST) and closes the
// description with one uncached read (XGO) that commits it or refuses it as a whole, so nothing
// irreversible happens before that read. The
// engine then moves the message as line-sized components through the caching agent and the
// network (cni_xfer_send), and the receiving engine writes them into a buffer the destination
// process posted (BUF_ADDR, BUF_POST), writes a receive-table entry in that process's space and
// acknowledges (cni_xfer_recv); the sender writes the process's status flag. A Fetch-and-Op
// (FOP_TGT, FOP_ARG, FOP_CMP, then XGO) goes through a sender record as a FOP_REQ frame, is
// performed at the home on a word of its region (cni_xfer_fop) and reported in the flag with the
// old value. Slots, windows and the vpid table are set through the privileged registers, which
// answer only a privileged access (the OS's page); each host context's window acts for the
// process slot the OS bound to it (CUR_PID), and the node's one initiation record is held by one
// context from its first command to its XGO (docs/xfer.md, "Host contexts and privilege").
//
// Parameters:
//   LineBytes, LineIdxW, NetBytes, CacheIdW - the platform's
//   Procs     - process slots (2 .. 16)
//   SendRecs  - sender records (a power of two): messages outstanding at this node
//   PerProc   - messages outstanding per process slot
//   RecvRecs  - receiver records (1 .. 6): messages received at once
//   Bufs      - receive-buffer descriptors
//   Vpids     - vpid-table entries
//   XLines    - line buffers: source reads in flight (2, 4 or 8)
//   Ctxs      - host contexts (1 .. 16): register windows CtxBytes apart
//   FopBase   - the first device line of the Fetch-and-Op words; FopLines - their lines
// Ports: the engine records (cni_engine_types.svh): events, commands and memory port B (the
// Fetch-and-Op unit's), the register window, the network and the caching agent; idle_o: no
// message, no reply, no operation, no frame under way.
`default_nettype none

module cni_xfer_engine #(
  parameter int LineBytes = 64,
  parameter int LineIdxW  = 11,
  parameter int NetBytes  = 64,
  parameter int CacheIdW  = 4,
  parameter int Procs     = 4,
  parameter int SendRecs  = 4,
  parameter int PerProc   = 2,
  parameter int RecvRecs  = 2,
  parameter int Bufs      = 4,
  parameter int Vpids     = 8,
  parameter int XLines    = 4,
  parameter int Ctxs      = 2,
  parameter int CtxBytes  = 256,
  parameter int FopBase   = 0,
  parameter int FopLines  = 2,
  localparam int LineBits = LineBytes * 8,
  localparam int FrameB   = 12 + LineBytes,
  localparam int LbW      = $clog2(LineBytes),
  localparam int VW       = (Vpids > 1) ? $clog2(Vpids) : 1,
  localparam int PW       = $clog2(Procs),
  localparam int CW       = (Ctxs > 1) ? $clog2(Ctxs) : 1
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
  eng_reg_req_t rq;
  eng_net_req_t net;
  eng_ca_req_t  ca;
  eng_net_rsp_t net_rsp;
  eng_ca_rsp_t  ca_rsp;
  /* verilator lint_off UNUSEDSIGNAL */
  eng_evt_req_t evt;      // (op, src: no line is parked)
  /* verilator lint_on UNUSEDSIGNAL */
  eng_cmd_req_t cmd;
  eng_cmd_rsp_t cmd_rsp;
  eng_mem_req_t mem;
  eng_mem_rsp_t mem_rsp;
  assign {evt, cmd_rsp, mem_rsp, rq, net_rsp, ca_rsp} = {evt_req_i, cmd_rsp_i, mem_rsp_i,
                                                          reg_req_i, net_rsp_i, ca_rsp_i};
  assign {net_req_o, ca_req_o, cmd_req_o, mem_req_o} = {net, ca, cmd, mem};

  // The window's offsets (R_ID_LO, ... R_VPT_HI), from rtl/xfer/cni_xfer.rdl.
`include "cni_engine_xfer_consts.svh"

  if (Procs < 2 || Procs > 16 || PerProc < 1 || PerProc > 255 || Vpids < 1 || Vpids > 256 ||
      Ctxs < 1 || Ctxs > 16)
    $error("cni_xfer_engine: Procs 2..16, PerProc 1..255, Vpids 1..256, Ctxs 1..16");

  // caching-agent ids: source reads 0 .. XLines - 1, a flag write, an entry write or head read,
  // then a component's write per receiver record
  localparam int IdFlag = 8, IdEnt = 9, IdWr = 10;
  if (CacheIdW < 4 || RecvRecs > 6) $error("cni_xfer_engine: CacheIdW >= 4, RecvRecs <= 6");

  // ---- the privileged state: control, slots, vpid table (cni_xfer_priv) ---------------------
  logic                   enable_q;
  logic [Ctxs-1:0]        cur_v_q;
  logic [15:0]            occ_send_q, occ_recv_q, occ_init_q, occ_freq_q, occ_fhome_q,
                          occ_fdone_q, tmo_q;
  logic [7:0]             rmax_q;
  logic [Ctxs-1:0][3:0]   cur_q;
  logic [Procs-1:0]       s_en_q, rt_reset;
  logic [Procs-1:0][47:0] s_sbase_q, s_ssize_q, s_rbase_q, s_rsize_q, s_stat_q, s_rt_q;
  logic [Procs-1:0][7:0]  s_nflag_q, s_vfirst_q, s_vn_q;
  logic [Procs-1:0][15:0] s_rtn_q, s_own_q, s_ffirst_q, s_fwords_q;
  logic [Vpids-1:0]       v_v_q;
  logic [Vpids-1:0][15:0] v_node_q;
  logic [Vpids-1:0][3:0]  v_pid_q;
  logic [63:0]            prv_rv;

  // ---- register writes: a write takes effect with its high word --------------------------------
  // (its low word kept per privilege: the CSR block's two words may have a host access between
  // them, whose low word must not become part of a privileged write)
  logic [1:0][31:0] wlo_q;
  wire         wr_hi = rq.valid && rq.we && rq.addr[2];
  wire [7:0]   wr_at = {rq.addr[7:3], 3'd0};
  wire [63:0]  wv    = {rq.wdata, wlo_q[rq.priv]};
  // offsets 0x80-0xFF answer only a privileged access: a user window's write there is ignored
  // (counted PROT), its read returns 0
  wire         wr_prv = wr_hi && rq.addr[7] && rq.priv;
  wire         wr_bad = wr_hi && rq.addr[7] && !rq.priv;

  cni_xfer_priv #(.Procs(Procs), .Vpids(Vpids), .Ctxs(Ctxs)) u_priv (
    .clk_i, .rst_ni, .wr_i (wr_prv), .wr_at_i (wr_at), .wv_i (wv),
    .rd_at_i ({rq.addr[7:3], 3'd0}), .rv_o (prv_rv),
    .enable_o (enable_q), .occ_send_o (occ_send_q), .occ_recv_o (occ_recv_q),
    .occ_init_o (occ_init_q), .occ_freq_o (occ_freq_q), .occ_fhome_o (occ_fhome_q),
    .occ_fdone_o (occ_fdone_q), .tmo_o (tmo_q), .rmax_o (rmax_q), .cur_o (cur_q),
    .cur_v_o (cur_v_q), .s_en_o (s_en_q),
    .s_sbase_o (s_sbase_q), .s_ssize_o (s_ssize_q), .s_rbase_o (s_rbase_q),
    .s_rsize_o (s_rsize_q), .s_stat_o (s_stat_q), .s_rt_o (s_rt_q), .s_nflag_o (s_nflag_q),
    .s_vfirst_o (s_vfirst_q), .s_vn_o (s_vn_q), .s_rtn_o (s_rtn_q), .s_own_o (s_own_q),
    .s_ffirst_o (s_ffirst_q), .s_fwords_o (s_fwords_q), .rt_reset_o (rt_reset),
    .v_v_o (v_v_q), .v_node_o (v_node_q), .v_pid_o (v_pid_q)
  );

  // ---- the initiation record --------------------------------------------------------------------
  localparam logic [1:0] IIdle = 2'd0, ISend = 2'd1, IBuf = 2'd2, IFop = 2'd3;
  typedef struct packed {
    logic [1:0]    st;
    logic [3:0]    slot;     // the slot whose description it is (the node has one record),
    logic [CW-1:0] ctx;      // through which context
    logic [3:0]    bad;      // the first check that failed (0: none)
    logic [7:0]    mtype;    // the message type
    logic [15:0]   vpid;
    logic [23:0]   len, sum;
    logic [6:0]    flag;
    logic [15:0]   np;       // pieces taken
    logic [11:0]   src;      // the first piece's offset in its page
    logic [47:0]   baddr;    // a buffer's
    logic [23:0]   bbytes;
    logic [7:0]    btype;
    logic          bposted;
    logic [1:0]    fop;      // a Fetch-and-Op's op, its word and operands
    logic [15:0]   word;
    logic [63:0]   arg, cmp;
    logic          cp, note, ord, dset;   // a memory copy, NOTE, ORDERED, XDST set
    logic [47:0]   dst;
  } init_t;
  init_t i_q;

  // the access's context (a privileged access has none) and that context's process slot
  wire [CW-1:0] c_ctx = CW'(rq.ctx);
  wire        ctx_ok  = !rq.priv && 32'(rq.ctx) < 32'(Ctxs);
  wire [3:0]  c_slot  = cur_q[c_ctx];
  wire        c_ok    = enable_q && ctx_ok && cur_v_q[c_ctx] && s_en_q[PW'(c_slot)];
  // the record is held by another context (which gave a command in the last HoldCycles): this
  // context's first commands are refused, its XGO is RETRY; own: the description is this one's
  localparam int HoldW = 11;   // HoldCycles = 2^11
  logic [HoldW:0] idle_q;      // cycles since the holder's last command ([HoldW]: expired)
  wire        held    = i_q.st != IIdle && i_q.ctx != c_ctx && !idle_q[HoldW];
  wire        own     = ctx_ok && i_q.st != IIdle && i_q.ctx == c_ctx && i_q.slot == c_slot;
  // each command's checks, for the context's slot and the staged description
  logic [3:0] x_bad, t_bad, p_bad, b_bad;
  cni_xfer_checks #(.LineBytes(LineBytes), .Vpids(Vpids)) u_chk (
    .wv_i (wv), .vfirst_i (s_vfirst_q[c_slot]), .vn_i (s_vn_q[c_slot]),
    .nflag_i (s_nflag_q[c_slot]), .sbase_i (s_sbase_q[c_slot]), .ssize_i (s_ssize_q[c_slot]),
    .rbase_i (s_rbase_q[c_slot]), .rsize_i (s_rsize_q[c_slot]), .v_v_i (v_v_q),
    .np_i (i_q.np), .src_i (i_q.src), .sum_i (i_q.sum), .len_i (i_q.len), .baddr_i (i_q.baddr),
    .x_bad_o (x_bad), .t_bad_o (t_bad), .p_bad_o (p_bad), .b_bad_o (b_bad)
  );

  // ---- the sides ----------------------------------------------------------------------------
  logic                  cm_valid, cm_ok;
  logic [15:0]           cm_c;
  logic [15:0]           ep_q;   // the counts' wraps: a Fetch-and-Op's epoch (its record's D)
  logic [7:0]            cm_rec;
  logic [Procs-1:0][7:0] out_cnt, posted;
  logic                  bufs_free, bp_valid;
  wire [VW-1:0]          c_vidx = VW'(32'(s_vfirst_q[c_slot]) + 32'(i_q.vpid));

  // XGO: the verdict of the staged description, from flip-flops and the resources now
  logic [1:0] g_verdict;
  logic [3:0] g_reason;
  always_comb begin
    g_verdict = cni_xfer_pkg::V_FAIL;
    g_reason  = '0;
    if (!c_ok) g_reason = cni_xfer_pkg::W_NO_PID;
    else if (held) {g_verdict, g_reason} = {cni_xfer_pkg::V_RETRY, cni_xfer_pkg::W_INIT_BUSY};
    else if (!own) g_reason = cni_xfer_pkg::W_NO_CMD;
    else if (i_q.bad != '0) g_reason = i_q.bad;
    else if (i_q.st == ISend && (i_q.sum != i_q.len || (i_q.cp && !i_q.dset)))
      g_reason = cni_xfer_pkg::W_BAD_PIECE;
    else if (i_q.st == IBuf && !i_q.bposted) g_reason = cni_xfer_pkg::W_BAD_LEN;
    else begin
      g_verdict = cni_xfer_pkg::V_RETRY;
      if (i_q.st != IBuf && out_cnt[c_slot] >= 8'(PerProc)) g_reason = cni_xfer_pkg::W_PROC_FULL;
      else if (i_q.st != IBuf && !cm_ok) g_reason = cni_xfer_pkg::W_RECS_FULL;
      else if (i_q.st == IBuf && !bufs_free) g_reason = cni_xfer_pkg::W_BUFS_FULL;
      else g_verdict = cni_xfer_pkg::V_SUCCESS;
    end
  end
  wire go = rq.valid && !rq.we && rq.addr == R_XGO_LO;
  wire ok = go && g_verdict == cni_xfer_pkg::V_SUCCESS;
  assign cm_valid = ok && (i_q.st == ISend || i_q.st == IFop);
  assign bp_valid = ok && i_q.st == IBuf;
  wire [63:0] g_word = {i_q.np, cm_c, 16'd0, cm_rec, g_reason, 2'd0, g_verdict};

  // ---- counters (CNT_SEL; docs/xfer.md, "Counters": counter i is bit i of inc) ---------------
  localparam int NCnt = 21;
  logic [NCnt-1:0]       inc;
  logic [NCnt-1:0][31:0] cnt_q;
  logic [4:0]            cnt_sel_q;

  logic s_done, s_failed, s_comp, s_stale, r_msg, r_comp, r_nobuf, r_busy, r_prot, r_norec,
        r_gap, r_dup, r_err, stray, bad_frame, ca_err, f_op, f_prot, f_dup, s_fop, s_retx, r_orph;
  wire  g_fail = go && g_verdict == cni_xfer_pkg::V_FAIL;
  wire  g_prot = g_fail && (g_reason == cni_xfer_pkg::W_PROT_SEND ||
                            g_reason == cni_xfer_pkg::W_PROT_RECV);
  assign inc = {r_orph, s_retx, s_fop, f_op, ca_err, s_failed, bad_frame, stray, s_stale,
                r_dup || f_dup, r_gap, r_norec, r_busy, r_nobuf,
                g_prot || r_prot || f_prot || wr_bad,
                go && g_verdict == cni_xfer_pkg::V_RETRY, g_fail, r_comp, s_comp, r_msg, s_done};

  // ---- register reads ---------------------------------------------------------------------------
  logic [63:0] xgo_q;
  logic [4:0]  xtag_q;   // whose XGO it latched: {priv, ctx}
  logic [63:0] rv;
  always_comb begin
    rv = '0;
    unique case ({rq.addr[7:3], 3'd0})
      R_ID_LO: rv = {8'(Bufs), 8'(XLines), 8'(RecvRecs), 8'(SendRecs), net_rsp.node_id,
                     8'(Procs), 8'd2};
      R_GEOM_LO: rv = {32'(FopLines * LineBytes / 8), 16'(Ctxs * CtxBytes / LineBytes),
                       8'($clog2(CtxBytes)), 8'(Ctxs)};
      R_XGO_LO: rv = xtag_q == {rq.priv, rq.ctx} ? xgo_q : '0;   // (the high word: its reader's)
      R_STATUS_LO: rv = {16'(FopLines * LineBytes / 8), 14'd0, bufs_free, cm_ok, 14'd0,
                         own && i_q.bad != '0, own, posted[c_slot], out_cnt[c_slot]};
      R_CNT_VAL_LO: rv = 32'(cnt_sel_q) < NCnt ? {32'd0, cnt_q[cnt_sel_q]} : '0;
      default: rv = rq.priv ? prv_rv : '0;
    endcase
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      reg_rsp_o <= '0;
      xgo_q     <= '0;
      xtag_q    <= '0;
    end else if (rq.valid && !rq.we) begin
      if (go) begin
        xgo_q     <= g_word;
        xtag_q    <= {rq.priv, rq.ctx};
        reg_rsp_o <= g_word[31:0];
      end else begin
        reg_rsp_o <= rq.addr[2] ? rv[63:32] : rv[31:0];
      end
    end
  end

  // ---- register and initiation state -----------------------------------------------------------
  // a first command: taken from a context with a process unless another context holds the record
  wire first      = wr_hi && (wr_at == R_XCMD_LO || wr_at == R_FOP_TGT_LO ||
                              wr_at == R_BUF_ADDR_LO);
  wire start      = first && c_ok && !held;
  wire stray_page = (wr_hi && (wr_at == R_XPAGE_LO || wr_at == R_XDST_LO)) &&
                    (i_q.st != ISend || !own);
  wire stray_post = (wr_hi && wr_at == R_BUF_POST_LO) && (i_q.st != IBuf || !own);
  wire stray_fop  = (wr_hi && (wr_at == R_FOP_ARG_LO || wr_at == R_FOP_CMP_LO)) &&
                    (i_q.st != IFop || !own);
  assign stray = stray_page || stray_post || stray_fop || (first && !start);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wlo_q      <= '0;
      i_q        <= '0;
      idle_q     <= '0;
      cnt_q      <= '0;
      cnt_sel_q  <= '0;
      ep_q       <= '0;
    end else begin
      if (cm_valid && cm_c == 16'hFFFF) ep_q <= ep_q + 16'd1;
      if (rq.valid && rq.we && !rq.addr[2]) wlo_q[rq.priv] <= rq.wdata;
      if (start || (rq.valid && own)) idle_q <= '0;
      else if (!idle_q[HoldW]) idle_q <= idle_q + 1'b1;
      for (int i = 0; i < NCnt; i++) if (inc[i]) cnt_q[i] <= cnt_q[i] + 32'd1;
      if ((wr_hi && wr_at == R_CNT_SEL_LO)) cnt_sel_q <= wv[4:0];
      // the initiation record
      if (start) begin
        i_q.slot <= c_slot;
        i_q.ctx  <= c_ctx;
      end
      if (start && wr_at == R_XCMD_LO) begin
        i_q.st   <= ISend;
        i_q.bad  <= x_bad;
        i_q.mtype <= wv[15:8];
        i_q.vpid <= wv[31:16];
        i_q.len  <= wv[55:32];
        i_q.flag <= wv[62:56];
        i_q.sum  <= '0;
        i_q.np   <= '0;
        i_q.fop  <= '0;
        i_q.cp   <= wv[2:0] == 3'd2;
        i_q.note <= wv[4];
        i_q.ord  <= wv[3];
        i_q.dset <= 1'b0;
      end
      if ((wr_hi && wr_at == R_XDST_LO) && i_q.st == ISend && own) begin
        if (i_q.bad == '0 && wv[2:0] != '0) i_q.bad <= cni_xfer_pkg::W_BAD_PIECE;
        i_q.dst  <= wv[47:0];
        i_q.dset <= 1'b1;
      end
      if (start && wr_at == R_FOP_TGT_LO) begin
        i_q.st   <= IFop;
        i_q.bad  <= t_bad;
        i_q.fop  <= wv[17:16];
        i_q.word <= wv[15:0];
        i_q.vpid <= wv[47:32];
        i_q.flag <= wv[54:48];
        i_q.arg  <= '0;
        i_q.cmp  <= '0;
      end
      if ((wr_hi && wr_at == R_FOP_ARG_LO) && i_q.st == IFop && own) i_q.arg <= wv;
      if ((wr_hi && wr_at == R_FOP_CMP_LO) && i_q.st == IFop && own) i_q.cmp <= wv;
      if ((wr_hi && wr_at == R_XPAGE_LO) && i_q.st == ISend && own) begin
        if (i_q.bad == '0) i_q.bad <= p_bad;
        if (i_q.np == '0) i_q.src <= wv[11:0];
        i_q.sum <= i_q.sum + 24'(wv[63:48]);
        i_q.np  <= i_q.np + 16'd1;
      end
      if (start && wr_at == R_BUF_ADDR_LO) begin
        i_q.st      <= IBuf;
        i_q.bad     <= wv[LbW-1:0] != '0 ? cni_xfer_pkg::W_BAD_LEN : '0;
        i_q.baddr   <= wv[47:0];
        i_q.bposted <= 1'b0;
      end
      if ((wr_hi && wr_at == R_BUF_POST_LO) && i_q.st == IBuf && own) begin
        if (i_q.bad == '0) i_q.bad <= b_bad;
        i_q.bbytes  <= wv[23:0];
        i_q.btype   <= wv[31:24];
        i_q.bposted <= 1'b1;
      end
      // (another context's XGO, or another process's, leaves the description staged)
      if (go && own) i_q.st <= IIdle;
      // the OS rebinds the holding context, or kills the holding slot: the description goes
      if ((wr_prv && wr_at == R_CUR_PID_LO) && 32'(wv[3:0]) == 32'(i_q.ctx)) i_q.st <= IIdle;
      if ((wr_prv && wr_at == R_PSEL_LO) && wv[9] && 32'(wv[7:0]) == 32'(i_q.slot))
        i_q.st <= IIdle;
    end
  end

  // ---- network: frames in, a buffer per channel ---------------------------------------------
  // Requests (HDR, DATA, PROBE, FOP_REQ) and replies (ACK, REJECT, NACK_GAP, FOP_RSP) come in
  // on their own channels and buffers (docs/xfer.md, "Channels and deadlock"): a request waiting
  // for a receive record, a reply slot or the Fetch-and-Op unit never holds a reply, and the
  // replies are always taken. rx_* and qr_*: a buffer's frame, or one on the local path (below).
  logic                rx_valid, rx_bad, rx_idle, rx_ack, rx_rdy, nr_valid, nr_bad, l_req;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [FrameB*8-1:0] rx_frame, nr_frame;   // (dst: ours; flags [7:3]: RETX, LAST)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [15:0]         rx_bytes, nr_bytes;
  cni_net_rx #(.NetBytes(NetBytes), .MaxBytes(FrameB)) u_rx (
    .clk_i, .rst_ni,
    .rx_tvalid_i (net_rsp.rx_valid && !net_rsp.rx_chan), .rx_tready_o (rx_rdy),
    .rx_tdata_i (net_rsp.rx_data), .rx_tkeep_i (net_rsp.rx_keep), .rx_tlast_i (net_rsp.rx_last),
    .rx_tuser_i (net_rsp.rx_user), .valid_o (nr_valid), .frame_o (nr_frame), .bytes_o (nr_bytes),
    .bad_o (nr_bad), .ack_i (rx_ack && !l_req), .idle_o (rx_idle)
  );
  localparam int RspB = 20;        // the longest reply, FOP_RSP: the header and the old value
  logic                qr_valid, qr_bad, qr_idle, qr_ack, qr_rdy, nq_valid, nq_bad, l_rp, l_fh;
  /* verilator lint_off UNUSEDSIGNAL */
  logic [RspB*8-1:0]   qr_frame, nq_frame;   // (dst, src, flags [7:3]: none read)
  /* verilator lint_on UNUSEDSIGNAL */
  logic [15:0]         qr_bytes, nq_bytes;
  cni_net_rx #(.NetBytes(NetBytes), .MaxBytes(RspB)) u_rxq (
    .clk_i, .rst_ni,
    .rx_tvalid_i (net_rsp.rx_valid && net_rsp.rx_chan), .rx_tready_o (qr_rdy),
    .rx_tdata_i (net_rsp.rx_data), .rx_tkeep_i (net_rsp.rx_keep), .rx_tlast_i (net_rsp.rx_last),
    .rx_tuser_i (net_rsp.rx_user), .valid_o (nq_valid), .frame_o (nq_frame), .bytes_o (nq_bytes),
    .bad_o (nq_bad), .ack_i (qr_ack && !(l_rp || l_fh)), .idle_o (qr_idle)
  );
  assign net.rx_ready = {qr_rdy, rx_rdy};
  wire [15:0] f_src  = rx_frame[16 +: 16];
  wire [15:0] f_len  = rx_frame[32 +: 16];
  wire [7:0]  f_type = rx_frame[48 +: 8];
  wire [2:0]  f_kind = rx_frame[56 +: 3];
  wire [15:0] f_lo   = rx_frame[64 +: 16];
  wire [15:0] f_c    = rx_frame[80 +: 16];
  wire        f_ok   = !rx_bad && rx_bytes == 16'd12 + f_len;
  wire        f_req  = f_ok && f_type == cni_amap_pkg::NET_TYPE_XFER_REQ &&
                       ((f_kind == 3'd1 && f_len == 16'd32) ||
                        (f_kind == 3'd2 && f_len == 16'(LineBytes)) ||
                        (f_kind == 3'd3 && f_len == '0) || (f_kind == 3'd4 && f_len == 16'd32));
  wire        f_fop  = f_req && f_kind == 3'd4;
  logic       fr_take, fq_take;
  // a reply: taken in the cycle it is whole
  wire [15:0] q_len  = qr_frame[32 +: 16];
  wire [2:0]  q_kind = qr_frame[56 +: 3];
  wire [15:0] q_lo   = qr_frame[64 +: 16];
  wire [15:0] q_c    = qr_frame[80 +: 16];
  wire        q_rsp  = !qr_bad && qr_bytes == 16'd12 + q_len &&
                       qr_frame[48 +: 8] == cni_amap_pkg::NET_TYPE_XFER_RSP &&
                       (((q_kind == 3'd1 || q_kind == 3'd2 || q_kind == 3'd3) && q_len == '0) ||
                        (q_kind == 3'd4 && q_len == 16'd8));
  // (a bad frame on each channel at once: the reply's is counted, and dropped, a cycle later)
  wire        rx_junk = rx_valid && !f_req;
  assign rx_ack    = rx_valid && (f_fop ? fq_take : f_req ? fr_take : 1'b1);
  assign qr_ack    = qr_valid && (q_rsp || !rx_junk);
  assign bad_frame = rx_junk || (qr_valid && !q_rsp);

  // ---- caching agent: one request port, fixed priority (cni_xfer_ca) -------------------------
  logic                  rd_valid, rd_ready, fw_valid, fw_ready, dw_valid, dw_ready, ew_valid,
                         ew_ready, ew_rd;
  logic [47:0]           rd_addr, fw_addr, dw_addr, ew_addr;
  logic [CacheIdW-1:0]   rd_id;
  logic [LineBits-1:0]   fw_data, dw_data, ew_data;
  logic [2:0]            dw_rec;
  logic [LineBytes-1:0]  dw_be;
  logic                  dw_part;   // a memory copy's partial line: CA_WR merges the enabled bytes
  cni_xfer_ca #(.LineBytes(LineBytes), .CacheIdW(CacheIdW), .IdFlag(IdFlag), .IdEnt(IdEnt),
                .IdWr(IdWr)) u_ca (
    .clk_i, .rst_ni, .dw_valid_i (dw_valid), .dw_part_i (dw_part), .dw_addr_i (dw_addr),
    .dw_data_i (dw_data), .dw_be_i (dw_be), .dw_rec_i (dw_rec), .dw_ready_o (dw_ready),
    .ew_valid_i (ew_valid), .ew_rd_i (ew_rd), .ew_addr_i (ew_addr), .ew_data_i (ew_data),
    .ew_ready_o (ew_ready), .fw_valid_i (fw_valid), .fw_addr_i (fw_addr), .fw_data_i (fw_data),
    .fw_ready_o (fw_ready), .rd_valid_i (rd_valid), .rd_addr_i (rd_addr), .rd_id_i (rd_id),
    .rd_ready_o (rd_ready), .ca_o (ca), .ca_ready_i (ca_rsp.ready)
  );
  wire rs_rd   = ca_rsp.rsp_valid && 32'(ca_rsp.rsp_id) < 32'(XLines);
  wire rs_flag = ca_rsp.rsp_valid && 32'(ca_rsp.rsp_id) == IdFlag;
  wire rs_ent  = ca_rsp.rsp_valid && 32'(ca_rsp.rsp_id) == IdEnt;
  wire rs_wr   = ca_rsp.rsp_valid && 32'(ca_rsp.rsp_id) >= IdWr;

  // ---- network: frames out, replies first ------------------------------------------------------
  logic                tx_busy, tx_idle;
  logic                st_valid, rp_valid;
  logic [FrameB*8-1:0] st_frame;
  logic [15:0]         st_bytes, st_dest, rp_dst, rp_c;
  logic [2:0]          rp_kind;
  logic [15:0]         rp_lo;
  wire [95:0] rp_hdr = {rp_c, rp_lo, 5'd0, rp_kind, cni_amap_pkg::NET_TYPE_XFER_RSP,
                        16'd0, net_rsp.node_id, rp_dst};
  // a Fetch-and-Op's reply: the old value as 8 bytes of payload
  logic        fh_valid;
  logic [15:0] fh_dst, fh_c;
  logic [2:0]  fh_status;
  logic [63:0] fh_old;
  wire [159:0] fh_frame = {fh_old, fh_c, 13'd0, fh_status, 5'd0, 3'd4,
                           cni_amap_pkg::NET_TYPE_XFER_RSP, 16'd8, net_rsp.node_id, fh_dst};
  // A frame starts only on a channel the MAC has room for (net_rsp.tx_room: [0] requests,
  // [1] replies), so a reply never waits behind a request the network holds back, nor a request
  // behind a reply.
  // A frame to this node (a process of its own, a word of its own Fetch-and-Op window) takes the
  // local path, not the network (docs/xfer.md, "The local path"): a request into the request
  // decode, taking turns with the request buffer (l_turn_q: a network request was taken while a
  // local one waited), a reply into the reply decode before the reply buffer's (taken at once).
  logic l_turn_q;
  wire rp_loc = rp_dst == net_rsp.node_id, fh_loc = fh_dst == net_rsp.node_id;
  wire l_want = st_valid && st_dest == net_rsp.node_id;
  assign l_req = l_want && (!nr_valid || l_turn_q);
  assign l_rp  = rp_valid && rp_loc;
  assign l_fh  = fh_valid && fh_loc && !l_rp;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) l_turn_q <= 1'b0;
    else if (rx_ack) l_turn_q <= l_want && !l_req;
  end
  assign {rx_valid, rx_bad} = {nr_valid || l_req, nr_valid && nr_bad && !l_req};
  assign rx_frame = l_req ? st_frame : nr_frame;
  assign rx_bytes = l_req ? st_bytes : nr_bytes;
  assign {qr_valid, qr_bad} = {nq_valid || l_rp || l_fh, nq_valid && nq_bad && !(l_rp || l_fh)};
  assign qr_frame = l_rp ? (RspB*8)'(rp_hdr) : l_fh ? fh_frame : nq_frame;
  assign qr_bytes = l_rp ? 16'd12 : l_fh ? 16'd20 : nq_bytes;
  wire rp_go = rp_valid && !rp_loc && !tx_busy && net_rsp.tx_room[1];
  wire fh_go = fh_valid && !fh_loc && !tx_busy && !(rp_valid && !rp_loc) && net_rsp.tx_room[1];
  wire st_go = st_valid && st_dest != net_rsp.node_id && !tx_busy && !rp_go && !fh_go &&
               net_rsp.tx_room[0];
  cni_net_tx #(.NetBytes(NetBytes), .MaxBytes(FrameB)) u_tx (
    .clk_i, .rst_ni,
    .start_i (rp_go || fh_go || st_go),
    .frame_i (rp_go ? (FrameB*8)'(rp_hdr) : fh_go ? (FrameB*8)'(fh_frame) : st_frame),
    .bytes_i (rp_go ? 16'd12 : fh_go ? 16'd20 : st_bytes),
    .dest_i (rp_go ? rp_dst : fh_go ? fh_dst : st_dest),
    .busy_o (tx_busy),
    .tx_tvalid_o (net.tx_valid), .tx_tready_i (net_rsp.tx_ready), .tx_tdata_o (net.tx_data),
    .tx_tkeep_o (net.tx_keep), .tx_tlast_o (net.tx_last), .tx_tdest_o (net.tx_dest),
    .idle_o (tx_idle)
  );

  // ---- the sending side ----------------------------------------------------------------------
  logic s_idle, r_idle;
  cni_xfer_send #(.LineBytes(LineBytes), .CacheIdW(CacheIdW), .Recs(SendRecs), .Lines(XLines),
                  .Procs(Procs)) u_send (
    .clk_i, .rst_ni, .node_id_i (net_rsp.node_id),
    .tmo_i (tmo_q), .rmax_i (rmax_q), .occ_send_i (occ_send_q), .occ_init_i (occ_init_q),
    .occ_freq_i (occ_freq_q), .occ_fdone_i (occ_fdone_q),
    .cm_valid_i (cm_valid), .cm_dst_i (v_node_q[c_vidx]), .cm_dpid_i (v_pid_q[c_vidx]),
    .cm_spid_i (c_slot), .cm_svpid_i (s_own_q[c_slot]), .cm_type_i (i_q.mtype),
    .cm_len_i (i_q.len), .cm_src_i (i_q.src),
    .cm_flag_i (s_stat_q[c_slot] + 48'({i_q.flag, LbW'(0)})),
    .cm_fop_i (i_q.st == IFop ? i_q.fop : 2'd0), .cm_word_i (i_q.word), .cm_arg_i (i_q.arg),
    .cm_cmp_i (i_q.cmp), .cm_cp_i (i_q.cp), .cm_note_i (i_q.note),
    .cm_daddr_i (i_q.st == IFop ? 48'(ep_q) : i_q.dst), .cm_ord_i (i_q.st == ISend && i_q.ord),
    .pw_valid_i ((wr_hi && wr_at == R_XPAGE_LO) && i_q.st == ISend && own),
    .pw_page_i (i_q.np[9:0]), .pw_pfn_i (wv[47:12]),
    .cm_ok_o (cm_ok), .cm_c_o (cm_c), .cm_rec_o (cm_rec), .out_o (out_cnt),
    .rp_valid_i (qr_valid && q_rsp), .rp_kind_i (q_kind), .rp_c_i (q_c),
    .rp_reason_i (q_lo[2:0]), .rp_k_i (q_lo), .rp_old_i (qr_frame[96 +: 64]),
    .rd_valid_o (rd_valid), .rd_addr_o (rd_addr), .rd_id_o (rd_id), .rd_ready_i (rd_ready),
    .rr_valid_i (rs_rd), .rr_id_i (ca_rsp.rsp_id), .rr_data_i (ca_rsp.rsp_data),
    .rr_err_i (ca_rsp.rsp_err),
    .fw_valid_o (fw_valid), .fw_addr_o (fw_addr), .fw_data_o (fw_data), .fw_ready_i (fw_ready),
    .fw_done_i (rs_flag),
    .tx_valid_o (st_valid), .tx_frame_o (st_frame), .tx_bytes_o (st_bytes),
    .tx_dest_o (st_dest), .tx_ready_i (st_go || (l_req && rx_ack)),
    .cnt_done_o (s_done), .cnt_failed_o (s_failed), .cnt_comp_o (s_comp),
    .cnt_stale_o (s_stale), .cnt_fop_o (s_fop), .cnt_retx_o (s_retx), .idle_o (s_idle)
  );

  // ---- the receiving side --------------------------------------------------------------------
  logic [Procs-1:0] r_en;
  always_comb for (int p = 0; p < Procs; p++) r_en[p] = enable_q && s_en_q[p];
  cni_xfer_recv #(.LineBytes(LineBytes), .Recs(RecvRecs), .Bufs(Bufs), .Procs(Procs),
                  .Win(SendRecs)) u_recv (
    .clk_i, .rst_ni, .occ_recv_i (occ_recv_q),
    .fr_valid_i (rx_valid && f_req && !f_fop), .fr_kind_i (f_kind), .fr_src_i (f_src),
    .fr_c_i (f_c), .fr_retx_i (rx_frame[59]),
    .fr_k_i (f_lo), .fr_pay_i (rx_frame[96 +: LineBits]), .fr_take_o (fr_take),
    .en_i (r_en), .rt_base_i (s_rt_q), .rt_n_i (s_rtn_q), .rt_reset_i (rt_reset),
    .rw_base_i (s_rbase_q), .rw_size_i (s_rsize_q),
    .bp_valid_i (bp_valid), .bp_pid_i (c_slot), .bp_type_i (i_q.btype), .bp_addr_i (i_q.baddr),
    .bp_bytes_i (i_q.bbytes), .bufs_free_o (bufs_free), .posted_o (posted),
    .dw_valid_o (dw_valid), .dw_addr_o (dw_addr), .dw_data_o (dw_data), .dw_rec_o (dw_rec),
    .dw_be_o (dw_be), .dw_part_o (dw_part),
    .dw_ready_i (dw_ready), .dw_done_i (rs_wr), .dw_done_rec_i (3'(32'(ca_rsp.rsp_id) - IdWr)),
    .dw_done_err_i (ca_rsp.rsp_err),
    .ew_valid_o (ew_valid), .ew_rd_o (ew_rd), .ew_addr_o (ew_addr), .ew_data_o (ew_data),
    .ew_ready_i (ew_ready), .ew_done_i (rs_ent), .ew_data_i (ca_rsp.rsp_data[31:0]),
    .ew_err_i (ca_rsp.rsp_err),
    .rp_valid_o (rp_valid), .rp_kind_o (rp_kind), .rp_dst_o (rp_dst), .rp_c_o (rp_c),
    .rp_lo_o (rp_lo), .rp_ready_i (rp_go || l_rp),
    .cnt_msg_o (r_msg), .cnt_comp_o (r_comp), .cnt_nobuf_o (r_nobuf), .cnt_busy_o (r_busy),
    .cnt_prot_o (r_prot), .cnt_norec_o (r_norec), .cnt_gap_o (r_gap), .cnt_dup_o (r_dup),
    .cnt_err_o (r_err), .cnt_orph_o (r_orph),
    .idle_o (r_idle)
  );

  // ---- the Fetch-and-Op unit (the home's side) -----------------------------------------------
  logic                f_idle, fc_valid, fm_en, fm_we;
  logic [LineIdxW-1:0] fc_line, fm_addr;
  logic [LineBits-1:0] fm_wdata;
  always_comb begin
    cmd       = '0;
    cmd.valid = fc_valid;
    cmd.op    = cni_coh_pkg::CMD_RECALL;
    cmd.line  = fc_line;
    mem.en    = fm_en;
    mem.we    = fm_we;
    mem.addr  = fm_addr;
    mem.wdata = fm_wdata;
  end
  cni_xfer_fop #(.LineBytes(LineBytes), .LineIdxW(LineIdxW), .FopBase(FopBase), .FopLines(FopLines),
                 .Procs(Procs), .Win(SendRecs)) u_fop (
    .clk_i, .rst_ni, .occ_i (occ_fhome_q),
    .fq_valid_i (rx_valid && f_fop), .fq_src_i (f_src), .fq_c_i (f_c), .fq_retx_i (rx_frame[59]),
    .fq_pay_i (rx_frame[96 +: 256]), .fq_take_o (fq_take),
    .en_i (r_en), .first_i (s_ffirst_q), .words_i (s_fwords_q),
    .evt_valid_i (evt.valid), .evt_done_i (evt.kind == cni_coh_pkg::EVT_RECALL_DONE),
    .evt_line_i (evt.line), .evt_ready_o (evt_rsp_o),
    .cmd_valid_o (fc_valid), .cmd_line_o (fc_line), .cmd_ready_i (cmd_rsp.ready),
    .mem_en_o (fm_en), .mem_we_o (fm_we), .mem_addr_o (fm_addr), .mem_wdata_o (fm_wdata),
    .mem_gnt_i (mem_rsp.gnt), .mem_rdata_i (mem_rsp.rdata),
    .fh_valid_o (fh_valid), .fh_dst_o (fh_dst), .fh_c_o (fh_c), .fh_status_o (fh_status),
    .fh_old_o (fh_old), .fh_ready_i (fh_go || l_fh),
    .cnt_op_o (f_op), .cnt_prot_o (f_prot), .cnt_dup_o (f_dup), .idle_o (f_idle)
  );

  assign ca_err = r_err || ((rs_rd || rs_flag) && ca_rsp.rsp_err);
  // (a staged description's hold timer running is not idle; a buffer's idle: no frame in it)
  assign idle_o = s_idle && r_idle && f_idle && tx_idle && rx_idle && qr_idle && !ca.valid &&
                  (i_q.st == IIdle || idle_q[HoldW]);

endmodule
