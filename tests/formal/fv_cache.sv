// SPDX-License-Identifier: Apache-2.0
// Formal harness (not synthesizable: free inputs, assertions) for cni_cache_agent, the device's
// caching agent of host-homed lines: an abstract host home that follows docs/protocol.md for NL
// tracked lines (grants of every kind the request allows, Retry, snoops of every kind at any
// time the directory names the device, write-backs that race snoops, writes by other agents
// while the device holds nothing), an engine that issues every operation with any byte enable,
// and (with FV_JUNK) malformed messages and engine requests. Data is one bit per line (bit 0 of
// the line; byte 0's enable): every other bit is never looked at, so Yosys removes it.
// Properties, the environment and why its rules are the protocol's: docs/formal.md, "Device
// caching agent".
//
// Parameters:
//   NL          - tracked lines 0..NL-1 (byte address 64 * l, home agent 0); with two sets of
//                 one way, lines 0 and 2 share a way: the second evicts the first. 1..3
//   Mshrs       - the caching agent's MSHRs
//   AnswerBound - FV_LIVE: cycles within which every engine request taken must be answered
// Ports: every input is chosen freely by the solver in every step (the environment's choices).
//
// Defines: FV_JUNK (malformed messages from the home and malformed engine requests), FV_ERR (the
// home may answer any request Error, refusing a write-back too), FV_LIVE (a fair home: every
// request taken at once and answered in the next free slot, no Retry, no Error, no snoops; the
// engine takes responses at once; the bounded-answer property). FV_REACH_ANSWER, FV_REACH_ERR:
// reachability witnesses, which must fail (p_reach_answer says no engine request is answered,
// p_reach_err that no well-formed one is answered Error); tests/formal/checks.tsv runs each
// beside a pass check, with the same assumptions and depth, so that check is not vacuous.
// fv_bitlevel: scripts/formal.sh splits the line-wide registers into bits (all but bit 0 go)
`default_nettype none
`ifdef FV_LIVE
`undef FV_ERR
`undef FV_JUNK
`endif

module cni_nonsynth_fv_cache #(
  parameter int NL          = 3,
  parameter int Mshrs       = 2,
  parameter int AnswerBound = 24,
  parameter int IdW         = 2,
  parameter int LookReg     = 0,
  localparam int NI  = 1 << IdW,   // engine request ids
  localparam int HW  = cni_coh_pkg::HDR_W
) (
  input wire logic                 clk_i,
  // engine: a new request (held until taken), and the response handshake
  input wire logic                 eng_en_i,
  input wire logic [2:0]           eng_op_i,
  input wire logic [1:0]           eng_line_i,
  input wire logic [IdW-1:0]       eng_id_i,
  input wire logic                 eng_bit_i,   // bit 0 of the data to write
  input wire logic                 eng_be_i,    // byte 0's enable (the other bytes: never)
  input wire logic                 eng_bad_i,   // FV_JUNK: a misaligned address
  input wire logic                 rsp_ready_i,
  // home: its inputs may stall; each cycle it may put one message into the inbound slot
  input wire logic                 oreq_ready_i,
  input wire logic                 orsp_ready_i,
  input wire logic [1:0]           h_act_i,     // 0 nothing, 1 answer, 2 snoop, 3 junk
  input wire logic [1:0]           h_line_i,
  input wire logic [2:0]           h_kind_i,    // which answer / which snoop
  input wire logic                 h_wb_err_i,  // FV_ERR: the write-back being taken is refused
  input wire logic [HW-1:0]        junk_hdr_i,  // FV_JUNK: a malformed inbound message
  input wire logic                 ow_en_i,     // another agent writes a line ...
  input wire logic [1:0]           ow_line_i,
  input wire logic                 ow_bit_i,    // ... with this bit
  input wire logic [1:0]           backoff_i,   // cfg_backoff_i: a free constant per run
  input wire logic [1:0]           clean_i      // cfg_clean_i: a free constant per run (0: off)
);
  localparam logic [3:0] DEV = 4'd1, HOME = 4'd0;
  localparam logic [7:0] LEN_LINE = 8'd64;
  localparam int LineW = cni_coh_pkg::ADDR_W - 6;
  // the caching agent's line states (docs/cache-agent.md, "States")
  localparam logic [3:0] C_I = 4'd0, C_S = 4'd1, C_E = 4'd2, C_O = 4'd3, C_M = 4'd4,
                         C_IS = 4'd5, C_IM = 4'd6, C_SM = 4'd7, C_MI = 4'd8, C_OM = 4'd9;
  // what the home's directory says the device may hold: nothing, a shared copy, an exclusive
  // one (E or M: the home cannot tell), or the owned dirty copy FwdDownO left it
  localparam logic [1:0] H_I = 2'd0, H_S = 2'd1, H_X = 2'd2, H_O = 2'd3;

  if (NL < 1 || NL > 3) $error("NL must be 1..3");

  // Reset in step 0 only.
  logic rst_q = 1'b1;
  always_ff @(posedge clk_i) rst_q <= 1'b0;
  wire rst_n = !rst_q;

  function automatic logic [47:0] addr_of(input logic [1:0] l);
    addr_of = 48'(l) << 6;
  endfunction
  function automatic logic data_op(input logic [4:0] op);
    data_op = op == cni_coh_pkg::OP_DATA_S || op == cni_coh_pkg::OP_DATA_E ||
              op == cni_coh_pkg::OP_DATA_M || op == cni_coh_pkg::OP_DATA_I ||
              op == cni_coh_pkg::OP_SNP_DATA || op == cni_coh_pkg::OP_WB ||
              op == cni_coh_pkg::OP_WRINV;
  endfunction

  // ---- the caching agent ----------------------------------------------------------------------
  logic                req_ready, rsp_valid, rsp_err;
  logic [IdW-1:0]      rsp_id;
  logic [511:0]        rsp_data, oreq_data, orsp_data, mon_acc_data;
  logic                oreq_valid, orsp_valid, in_ready;
  cni_coh_pkg::hdr_t   oreq_hdr, orsp_hdr;
  logic                mon_valid, mon_acc_valid, mon_acc_we;
  logic [47:0]         mon_addr, mon_acc_addr;
  logic [3:0]          mon_from, mon_to;
  logic [IdW-1:0]      mon_acc_id;

  // engine request presenter and inbound slot (stable until taken)
  logic              eq_v_q, eq_bit_q, eq_be_q, eq_bad_q;
  logic [2:0]        eq_op_q;
  logic [1:0]        eq_line_q;
  logic [IdW-1:0]    eq_id_q;
  logic              in_v_q, in_bit_q;
  cni_coh_pkg::hdr_t in_hdr_q;
  logic [1:0]        backoff_q, clean_q;

  cni_cache_agent #(
    .LineBytes(64), .Sets(2), .Ways(1), .Mshrs(Mshrs), .Wbs(2), .IdW(IdW), .HomeShift(32),
    .BackoffW(2), .CleanW(2), .LookReg(LookReg)
  ) u_dut (
    .clk_i, .rst_ni(rst_n), .agent_id_i(DEV), .cfg_backoff_i(backoff_q), .cfg_clean_i(clean_q),
    .req_valid_i(eq_v_q), .req_ready_o(req_ready), .req_op_i(eq_op_q),
    .req_addr_i(addr_of(eq_line_q) | (eq_bad_q ? 48'd8 : 48'd0)),
    .req_data_i({511'd0, eq_bit_q}), .req_be_i({63'd0, eq_be_q}), .req_id_i(eq_id_q),
    .rsp_valid_o(rsp_valid), .rsp_ready_i(rsp_ready), .rsp_id_o(rsp_id), .rsp_data_o(rsp_data),
    .rsp_err_o(rsp_err),
    .oreq_valid_o(oreq_valid), .oreq_ready_i(oreq_ready), .oreq_hdr_o(oreq_hdr),
    .oreq_data_o(oreq_data),
    .orsp_valid_o(orsp_valid), .orsp_ready_i(orsp_ready), .orsp_hdr_o(orsp_hdr),
    .orsp_data_o(orsp_data),
    .in_valid_i(in_v_q), .in_ready_o(in_ready), .in_hdr_i(in_hdr_q),
    .in_data_i({511'd0, in_bit_q}),
    .mon_valid_o(mon_valid), .mon_addr_o(mon_addr), .mon_from_o(mon_from), .mon_to_o(mon_to),
    .mon_acc_valid_o(mon_acc_valid), .mon_acc_id_o(mon_acc_id), .mon_acc_addr_o(mon_acc_addr),
    .mon_acc_we_o(mon_acc_we), .mon_acc_data_o(mon_acc_data), .cnt_o(), .idle_o()
  );

  // The ways' states and lines and the two write-back buffer entries (probes, connected by
  // scripts/formal.sh). Two sets of one way: way s is set s, so line l lives in way l % 2; a
  // line in MI has left its way for a write-back buffer entry.
  (* keep, fv_probe = "u_dut.u_tags.wst_q[0]" *) wire [3:0] probe_wst0;
  (* keep, fv_probe = "u_dut.u_tags.wst_q[1]" *) wire [3:0] probe_wst1;
  (* keep, fv_probe = "u_dut.u_tags.wline_q[0]" *) wire [LineW-1:0] probe_wline0;
  (* keep, fv_probe = "u_dut.u_tags.wline_q[1]" *) wire [LineW-1:0] probe_wline1;
  (* keep, fv_probe = "u_dut.u_wbuf.wbv_q" *) wire [1:0] probe_wbv;
  (* keep, fv_probe = "u_dut.u_wbuf.wbl_q[0]" *) wire [LineW-1:0] probe_wbl0;
  (* keep, fv_probe = "u_dut.u_wbuf.wbl_q[1]" *) wire [LineW-1:0] probe_wbl1;
  // LookReg: the registered lookups the agent chooses from are the lookups made now
  (* keep, fv_probe = "u_dut.u_jobs.chk_look" *) wire probe_look;
  logic [3:0] cst [NL];  // the device's state of each tracked line
  always_comb begin
    for (int l = 0; l < NL; l++) begin
      logic [3:0]       s;
      logic [LineW-1:0] w;
      s      = (l % 2 == 0) ? probe_wst0 : probe_wst1;
      w      = (l % 2 == 0) ? probe_wline0 : probe_wline1;
      cst[l] = (w == LineW'(l) && s != C_I) ? s : C_I;
      if ((probe_wbv[0] && probe_wbl0 == LineW'(l)) ||
          (probe_wbv[1] && probe_wbl1 == LineW'(l))) begin
        cst[l] = C_MI;
      end
    end
  end

  // ---- the home's state ---------------------------------------------------------------------------
  logic [1:0] hs_q  [NL];  // directory: what the device may hold
  logic       mem_q [NL];  // memory's bit
  logic       ref_q [NL];  // the line's current value (the last write performed anywhere)
  logic       dd_q  [NL];  // the device holds the only current copy (dirty)
  logic       tx_q  [NL];  // a device request taken, not yet answered
  logic [4:0] tx_op_q  [NL];
  logic [7:0] tx_tag_q [NL];
  logic       tx_busy_q[NL];  // ... taken while a snoop was open: Retry (or Error) only
  logic       tx_bit_q [NL];  // ... a WrInv's bit
  logic       tx_full_q[NL];  // ... an RdX with FULL (the device writes the whole line)
  logic       wb_q  [NL];  // a write-back taken, its WbAck (or Error) not yet delivered
  logic       wb_sent_q[NL];
  logic       wb_err_q [NL];
  logic [7:0] wb_tag_q [NL];
  logic       sn_q  [NL];  // a snoop sent, its transaction open
  logic [4:0] sn_op_q  [NL];
  logic       sn_ans_q [NL];  // ... answered
  logic       sn_wbp_q [NL];  // ... answered SnpAck with WBP: waits for the write-back
  logic       sn_wbg_q [NL];  // ... the write-back arrived while the snoop was open
  // engine requests by id
  logic [NI-1:0] out_q, perf_q, val_q, bit_q, be_q, bad_q;
  logic [NI-1:0] later_q;  // another request on the line was taken since
  logic [2:0]    op_q   [NI];
  logic [1:0]    line_q [NI];
  logic [7:0]    age_q  [NI];

  wire eq_take   = eq_v_q && req_ready;
  wire rsp_fire  = rsp_valid && rsp_ready;
  wire oreq_fire = oreq_valid && oreq_ready;
  wire orsp_fire = orsp_valid && orsp_ready;
  wire in_fire   = in_v_q && in_ready;
`ifdef FV_LIVE
  wire rsp_ready = 1'b1, oreq_ready = 1'b1, orsp_ready = 1'b1;
`else
  wire rsp_ready = rsp_ready_i, oreq_ready = oreq_ready_i, orsp_ready = orsp_ready_i;
`endif

  wire [1:0] rq_l  = oreq_hdr.addr[7:6];
  wire [1:0] rs_l  = orsp_hdr.addr[7:6];
  wire [1:0] in_l  = in_hdr_q.addr[7:6];
  wire [1:0] ma_l  = mon_acc_addr[7:6];
  wire [1:0] mo_l  = mon_addr[7:6];
  wire       in_junk = in_hdr_q.tag == 8'hEE;  // the slot holds a malformed message

  // ---- the home's next message ------------------------------------------------------------------
  // The answer to line l's open request for kind k (0 if k is not an answer this home gives).
  function automatic logic [4:0] answer(input logic [4:0] op, input logic full,
                                        input logic [1:0] hs, input logic busy,
                                        input logic [2:0] k);
    logic [4:0] a;
    a = '0;
    if (k == 3'd3) a = cni_coh_pkg::OP_RETRY;
`ifdef FV_ERR
    if (k == 3'd4) a = cni_coh_pkg::OP_ERROR;
`endif
    if (!busy && k < 3'd3) begin
      unique case (op)
        cni_coh_pkg::OP_RDS:
          a = (k == 3'd0) ? cni_coh_pkg::OP_DATA_S :
              (k == 3'd1) ? cni_coh_pkg::OP_DATA_E : cni_coh_pkg::OP_DATA_M;
        // an RdX with FULL may be granted ownership alone (protocol rule 3)
        cni_coh_pkg::OP_RDX:
          a = (k == 3'd0) ? cni_coh_pkg::OP_DATA_E :
              (k == 3'd2 && full) ? cni_coh_pkg::OP_UPG_ACK : cni_coh_pkg::OP_DATA_M;
        // an Upg from a current holder is acknowledged; from one whose copy a snoop took it is
        // an RdX (protocol rule 3)
        cni_coh_pkg::OP_UPG:
          a = (hs == H_S || hs == H_O) ? cni_coh_pkg::OP_UPG_ACK :
              (k == 3'd0) ? cni_coh_pkg::OP_DATA_E : cni_coh_pkg::OP_DATA_M;
        cni_coh_pkg::OP_RDNA:  a = cni_coh_pkg::OP_DATA_I;
        cni_coh_pkg::OP_WRINV: a = cni_coh_pkg::OP_WR_ACK;
        default: a = '0;
      endcase
    end
    answer = a;
  endfunction

  // One message into the free slot: the write-back's WbAck, the open request's answer, a snoop,
  // or (FV_JUNK) a malformed message.
  wire       slot_free = !in_v_q || in_fire;
  logic      h_ans, h_wback, h_snp, h_junk;
  logic [4:0] h_op;
  logic [1:0] hl;
  always_comb begin
    hl      = h_line_i;
    h_ans   = 1'b0;
    h_wback = 1'b0;
    h_snp   = 1'b0;
    h_junk  = 1'b0;
    h_op    = '0;
    if (!rst_q && slot_free) begin
`ifdef FV_LIVE
      // the fair home answers whatever is owed, lowest line first, in every free slot
      for (int l = NL - 1; l >= 0; l--) begin
        if ((wb_q[l] && !wb_sent_q[l]) || tx_q[l]) hl = 2'(l);
      end
      if (wb_q[hl] && !wb_sent_q[hl]) begin
        h_wback = 1'b1;
        h_op    = cni_coh_pkg::OP_WB_ACK;
      end else if (tx_q[hl]) begin
        h_op  = answer(tx_op_q[hl], tx_full_q[hl], hs_q[hl], tx_busy_q[hl], 3'd0);
        h_ans = 1'b1;
      end
`else
      if (hl < 2'(NL)) unique case (h_act_i)
        2'd1: begin
          if (wb_q[hl] && !wb_sent_q[hl]) begin
            h_wback = 1'b1;
            h_op    = wb_err_q[hl] ? cni_coh_pkg::OP_ERROR : cni_coh_pkg::OP_WB_ACK;
          end else if (tx_q[hl]) begin
            h_op  = answer(tx_op_q[hl], tx_full_q[hl], hs_q[hl], tx_busy_q[hl], h_kind_i);
            h_ans = h_op != '0;
          end
        end
        // a snoop of a line the directory names the device for, with no transaction open on it
        2'd2: begin
          h_snp = hs_q[hl] != H_I && !tx_q[hl] && !sn_q[hl] && !wb_q[hl] && h_kind_i < 3'd3;
          h_op  = (h_kind_i == 3'd0) ? cni_coh_pkg::OP_FWD_INV :
                  (h_kind_i == 3'd1) ? cni_coh_pkg::OP_FWD_DOWN : cni_coh_pkg::OP_FWD_DNO;
        end
  `ifdef FV_JUNK
        2'd3: h_junk = 1'b1;
  `endif
        default: ;
      endcase
`endif
    end
  end

  // A malformed inbound message: the wrong destination, a misaligned address, a request
  // opcode or an unknown one, or the wrong length for its opcode. It carries tag 0xEE.
  cni_coh_pkg::hdr_t jh;
  logic jh_bad;
  always_comb begin
    jh     = junk_hdr_i;
    jh.tag = 8'hEE;
    jh_bad = jh.dst != DEV || jh.addr[5:0] != 6'd0 || jh.op < cni_coh_pkg::OP_FWD_INV ||
             (jh.op > cni_coh_pkg::OP_FWD_DNO && jh.op < cni_coh_pkg::OP_SNP_ACK) ||
             jh.op > cni_coh_pkg::OP_DATA_I ||
             jh.len != (data_op(jh.op) ? LEN_LINE : 8'd0);
  end
  // The header of the message the slot takes: a grant or answer carries the request's tag (a
  // write-back's for WbAck), a snoop the line's number as the home's table index.
  logic [HW-1:0] slot_hdr;
  always_comb begin
    logic [7:0] tag;
    tag      = h_wback ? wb_tag_q[hl] : h_ans ? tx_tag_q[hl] : 8'(hl);
    slot_hdr = {h_op, HOME, DEV, tag, 4'd0, data_op(h_op) ? LEN_LINE : 8'd0, addr_of(hl)};
    if (h_junk) slot_hdr = jh;
  end

  // ---- the caching agent's outbound messages, as the home sees them -------------------------------
  wire rq_line_ok = oreq_hdr.addr[47:8] == '0 && oreq_hdr.addr[5:0] == '0 && rq_l < 2'(NL);
  wire rq_fmt_ok  = rq_line_ok && oreq_hdr.src == DEV && oreq_hdr.dst == HOME &&
                    oreq_hdr.len == (data_op(oreq_hdr.op) ? LEN_LINE : 8'd0) &&
                    (oreq_hdr.op == cni_coh_pkg::OP_RDS || oreq_hdr.op == cni_coh_pkg::OP_RDX ||
                     oreq_hdr.op == cni_coh_pkg::OP_UPG || oreq_hdr.op == cni_coh_pkg::OP_WB ||
                     oreq_hdr.op == cni_coh_pkg::OP_RDNA || oreq_hdr.op == cni_coh_pkg::OP_WRINV);
  wire rq_wb      = oreq_hdr.op == cni_coh_pkg::OP_WB;
  wire rs_fmt_ok  = orsp_hdr.addr[47:8] == '0 && orsp_hdr.addr[5:0] == '0 && rs_l < 2'(NL) &&
                    orsp_hdr.src == DEV && orsp_hdr.dst == HOME &&
                    (orsp_hdr.op == cni_coh_pkg::OP_SNP_ACK ||
                     orsp_hdr.op == cni_coh_pkg::OP_SNP_DATA) &&
                    orsp_hdr.len == (data_op(orsp_hdr.op) ? LEN_LINE : 8'd0);
  wire rs_data    = orsp_hdr.op == cni_coh_pkg::OP_SNP_DATA;
  wire rs_wbp     = orsp_hdr.flags[cni_coh_pkg::FLAG_WBP];
  // the engine request a message of line l concerns: the one on l not yet performed (the agent
  // takes a request on a line only when the line has no MSHR, so there is one at most)
  function automatic logic [NI-1:0] pending_on(input logic [1:0] l, input logic [2:0] op);
    for (int i = 0; i < NI; i++) begin
      pending_on[i] = out_q[i] && !perf_q[i] && line_q[i] == l && op_q[i] == op && !bad_q[i];
    end
  endfunction

  // ================================ properties ====================================================
  logic perm_ok, keep_ok, dirty_ok;
  always_comb begin
    perm_ok  = 1'b1;
    keep_ok  = 1'b1;
    dirty_ok = 1'b1;
    for (int l = 0; l < NL; l++) begin
      logic rd, wr, dirty, datam_here;
      rd    = cst[l] == C_S || cst[l] == C_E || cst[l] == C_O || cst[l] == C_M ||
              cst[l] == C_SM || cst[l] == C_OM;
      wr    = cst[l] == C_E || cst[l] == C_M;
      dirty = cst[l] == C_O || cst[l] == C_M || cst[l] == C_OM;
      datam_here = in_v_q && !in_junk && in_l == 2'(l) && (in_hdr_q.op == cni_coh_pkg::OP_DATA_M ||
                                                            in_hdr_q.op == cni_coh_pkg::OP_UPG_ACK);
      // (1) a copy only as the directory says: readable only if it names the device, writable
      // only if exclusively
      if ((rd && hs_q[l] == H_I) || (wr && hs_q[l] != H_X)) perm_ok = 1'b0;
      // (2) dirty data is never dropped: while the device holds the only current copy it is in
      // M, O, OM or MI (or the DataM or UpgAck that makes it the owner is on its way)
      if (dd_q[l] && !(dirty || cst[l] == C_MI || datam_here)) keep_ok = 1'b0;
      // ... and a dirty state is one the home knows of
      if ((dirty && !dd_q[l]) || (cst[l] == C_MI && !dd_q[l] && !wb_q[l])) dirty_ok = 1'b0;
    end
  end

  // engine accesses performed in the cache (the monitor the coherence checker reads): a hit is
  // performed in the cycle its request is taken, a fill or an upgrade later
  wire           acc_now  = eq_take && eq_id_q == mon_acc_id;
  wire [2:0]     acc_op   = acc_now ? eq_op_q : op_q[mon_acc_id];
  wire [1:0]     acc_line = acc_now ? eq_line_q : line_q[mon_acc_id];
  wire           acc_bit  = acc_now ? eq_bit_q : bit_q[mon_acc_id];
  wire           acc_be   = acc_now ? (eq_be_q || eq_op_q == cni_coh_pkg::CA_WR_INV)
                                    : be_q[mon_acc_id];
  wire           acc_ok   = acc_now ? !eq_bad_q && eq_op_q <= cni_coh_pkg::CA_FLUSH
                                    : out_q[mon_acc_id] && !perf_q[mon_acc_id] &&
                                      !bad_q[mon_acc_id];
  wire           acc_exp  = acc_be ? acc_bit : ref_q[ma_l];
  wire acc_write = acc_op == cni_coh_pkg::CA_WR || acc_op == cni_coh_pkg::CA_WR_INV;
  wire rsp_read  = op_q[rsp_id] == cni_coh_pkg::CA_RD_S || op_q[rsp_id] == cni_coh_pkg::CA_RD_X ||
                   op_q[rsp_id] == cni_coh_pkg::CA_RD_NA;

  always_comb begin
    if (!rst_q) begin
      p_perm:  assert (perm_ok);
      p_keep:  assert (keep_ok);
      p_dirty: assert (dirty_ok);
      p_look:  assert (probe_look);
      // (3) requests: well formed, one open per line, never from a dirty owner but an Upg from O
      if (oreq_fire) begin
        p_req_fmt: assert (rq_fmt_ok);
        if (rq_fmt_ok && !rq_wb) begin
          p_req_one: assert (!tx_q[rq_l]);
          p_req_own: assert (!dd_q[rq_l] ||
                             (oreq_hdr.op == cni_coh_pkg::OP_UPG && hs_q[rq_l] == H_O));
        end
        // only a dirty line is written back, with its current data
        if (rq_fmt_ok && rq_wb) begin
          p_wb_dirty: assert (dd_q[rq_l] && !wb_q[rq_l]);
          p_wb_data:  assert (oreq_data[0] == ref_q[rq_l]);
        end
        if (rq_fmt_ok && oreq_hdr.op == cni_coh_pkg::OP_WRINV) begin
          p_wrinv_data: assert (oreq_data[0] == |(pending_on(rq_l, cni_coh_pkg::CA_WR_INV) & bit_q));
          p_wrinv_req:  assert (pending_on(rq_l, cni_coh_pkg::CA_WR_INV) != '0);
        end
        if (rq_fmt_ok && oreq_hdr.op == cni_coh_pkg::OP_RDNA) begin
          p_rdna_req: assert (pending_on(rq_l, cni_coh_pkg::CA_RD_NA) != '0);
        end
      end
      // (4) snoop answers: one per snoop, its line and tag; SnpData with the current data only
      // from the owner, SnpAck without WBP only from a clean holder, WBP only with a write-back
      if (orsp_fire) begin
        p_snp_fmt: assert (rs_fmt_ok);
        if (rs_fmt_ok) begin
          p_snp_ans:   assert (sn_q[rs_l] && !sn_ans_q[rs_l] && orsp_hdr.tag == 8'(rs_l));
          p_snp_data:  assert (!rs_data || (dd_q[rs_l] && orsp_data[0] == ref_q[rs_l]));
          p_snp_lost:  assert (rs_data || rs_wbp || !dd_q[rs_l]);
          p_snp_wbp:   assert (!rs_wbp || (!rs_data && (cst[rs_l] == C_MI)));
        end
      end
      // (5) performed accesses: of a request taken and not yet performed, on its line, with the
      // right permission; a read sees the line's current value, a write writes its bytes over it
      if (mon_acc_valid) begin
        p_acc_req:   assert (acc_ok && acc_line == ma_l && mon_acc_addr[47:8] == '0 &&
                             mon_acc_addr[5:0] == '0);
        p_acc_kind:  assert (mon_acc_we == acc_write);
        p_acc_perm:  assert (mon_acc_we ? hs_q[ma_l] == H_X : hs_q[ma_l] != H_I);
        p_acc_read:  assert (mon_acc_we || mon_acc_data[0] == ref_q[ma_l]);
        p_acc_write: assert (!mon_acc_we || mon_acc_data[0] == acc_exp);
      end
      // (6) the monitor reports the state the line had
      if (mon_valid) begin
        p_mon: assert (mon_addr[47:8] != '0 || mo_l >= 2'(NL) || mon_from == cst[mo_l]);
      end
      // (7) responses: one per request taken; a read returns what it read, a write and a flush
      // are done; an error only for a malformed request or (FV_ERR) the home's Error
      if (rsp_fire) begin
        p_rsp_req:  assert (out_q[rsp_id]);
        p_rsp_bad:  assert (!bad_q[rsp_id] || rsp_err);
`ifndef FV_ERR
        p_rsp_err:  assert (bad_q[rsp_id] || !rsp_err);
`endif
        if (out_q[rsp_id] && !bad_q[rsp_id] && !rsp_err) begin
          p_rsp_done: assert (perf_q[rsp_id] || op_q[rsp_id] == cni_coh_pkg::CA_FLUSH);
          p_rsp_data: assert (!rsp_read || rsp_data[0] == val_q[rsp_id]);
          // (a flush is done when its response is loaded: a later request may own it again)
          p_flush:    assert (op_q[rsp_id] != cni_coh_pkg::CA_FLUSH || later_q[rsp_id] ||
                              !dd_q[line_q[rsp_id]]);
        end
      end
    end
  end

`ifdef FV_REACH_ANSWER
  always_comb if (!rst_q) p_reach_answer: assert (!(rsp_fire && out_q[rsp_id]));
`endif
`ifdef FV_REACH_ERR
  always_comb if (!rst_q) p_reach_err: assert (!(rsp_fire && rsp_err && !bad_q[rsp_id]));
`endif
`ifdef FV_LIVE
  // (8) every engine request taken is answered within AnswerBound cycles
  logic late;
  always_comb begin
    late = 1'b0;
    for (int i = 0; i < NI; i++) if (out_q[i] && age_q[i] >= 8'(AnswerBound)) late = 1'b1;
  end
  always_comb if (!rst_q) p_answer_bound: assert (!late);
`endif

  // ================================ the environment ================================================
  // a new engine request: a free id, a tracked line, an operation (FV_JUNK: also an undefined
  // one, or a misaligned address)
  logic eng_new;
  always_comb begin
    eng_new = !rst_q && eng_en_i && (!eq_v_q || eq_take) && !out_q[eng_id_i] &&
              !(eq_take && eq_id_q == eng_id_i) && eng_line_i < 2'(NL);
`ifndef FV_JUNK
    if (eng_op_i > cni_coh_pkg::CA_FLUSH || eng_bad_i) eng_new = 1'b0;
`endif
  end
  // another agent writes a line the device holds nothing of, with nothing in flight on it
  wire ow = !rst_q && ow_en_i && ow_line_i < 2'(NL) && hs_q[ow_line_i] == H_I &&
            !tx_q[ow_line_i] && !sn_q[ow_line_i] && !wb_q[ow_line_i] && !dd_q[ow_line_i];
`ifdef FV_LIVE
  wire ow_now = 1'b0;  // the fair home's lines are the device's alone
`else
  wire ow_now = ow;
`endif

  always_ff @(posedge clk_i) begin
    if (rst_q) begin
      eq_v_q    <= 1'b0;
      eq_op_q   <= '0;
      eq_line_q <= '0;
      eq_id_q   <= '0;
      eq_bit_q  <= 1'b0;
      eq_be_q   <= 1'b0;
      eq_bad_q  <= 1'b0;
      in_v_q    <= 1'b0;
      in_hdr_q  <= '0;
      in_bit_q  <= 1'b0;
      backoff_q <= backoff_i;
      clean_q   <= clean_i;
      out_q     <= '0;
      perf_q    <= '0;
      val_q     <= '0;
      bit_q     <= '0;
      be_q      <= '0;
      bad_q     <= '0;
      later_q   <= '0;
      for (int i = 0; i < NI; i++) begin
        op_q[i]   <= '0;
        line_q[i] <= '0;
        age_q[i]  <= '0;
      end
      for (int l = 0; l < NL; l++) begin
        hs_q[l]      <= H_I;
        mem_q[l]     <= 1'b0;
        ref_q[l]     <= 1'b0;
        dd_q[l]      <= 1'b0;
        tx_q[l]      <= 1'b0;
        tx_op_q[l]   <= '0;
        tx_tag_q[l]  <= '0;
        tx_busy_q[l] <= 1'b0;
        tx_bit_q[l]  <= 1'b0;
        tx_full_q[l] <= 1'b0;
        wb_q[l]      <= 1'b0;
        wb_sent_q[l] <= 1'b0;
        wb_err_q[l]  <= 1'b0;
        wb_tag_q[l]  <= '0;
        sn_q[l]      <= 1'b0;
        sn_op_q[l]   <= '0;
        sn_ans_q[l]  <= 1'b0;
        sn_wbp_q[l]  <= 1'b0;
        sn_wbg_q[l]  <= 1'b0;
      end
    end else begin
      // ---- engine ----
      if (eq_take) eq_v_q <= 1'b0;
      if (eng_new) begin
        eq_v_q    <= 1'b1;
        eq_op_q   <= eng_op_i;
        eq_line_q <= eng_line_i;
        eq_id_q   <= eng_id_i;
        eq_bit_q  <= eng_bit_i;
        eq_be_q   <= eng_be_i;
        eq_bad_q  <= eng_bad_i;
      end
      for (int i = 0; i < NI; i++) begin
        if (out_q[i]) age_q[i] <= age_q[i] + 8'd1;
        if (eq_take && out_q[i] && line_q[i] == eq_line_q) later_q[i] <= 1'b1;
      end
      if (eq_take) begin
        out_q[eq_id_q]  <= 1'b1;
        perf_q[eq_id_q] <= 1'b0;
        bit_q[eq_id_q]  <= eq_bit_q;
        be_q[eq_id_q]   <= eq_be_q || eq_op_q == cni_coh_pkg::CA_WR_INV;
        bad_q[eq_id_q]  <= eq_bad_q || eq_op_q > cni_coh_pkg::CA_FLUSH;
        op_q[eq_id_q]   <= eq_op_q;
        line_q[eq_id_q] <= eq_line_q;
        age_q[eq_id_q]  <= '0;
        later_q[eq_id_q] <= 1'b0;
      end
      if (rsp_fire) out_q[rsp_id] <= 1'b0;
      if (mon_acc_valid) begin
        perf_q[mon_acc_id] <= 1'b1;
        val_q[mon_acc_id]  <= mon_acc_data[0];
        if (mon_acc_we) begin
          ref_q[ma_l] <= mon_acc_data[0];
          dd_q[ma_l]  <= 1'b1;
        end
      end
      // ---- another agent writes ----
      if (ow_now) begin
        ref_q[ow_line_i] <= ow_bit_i;
        mem_q[ow_line_i] <= ow_bit_i;
      end
      // ---- the home takes a request ----
      if (oreq_fire && rq_fmt_ok) begin
        if (rq_wb) begin
          // a write-back always sinks: memory written, the device no longer named, WbAck owed
          // (FV_ERR: refused while no snoop is open: memory unchanged, the data lost, Error owed)
          logic refuse;
          refuse = 1'b0;
`ifdef FV_ERR
          refuse = h_wb_err_i && !sn_q[rq_l];
`endif
          wb_q[rq_l]      <= 1'b1;
          wb_sent_q[rq_l] <= 1'b0;
          wb_err_q[rq_l]  <= refuse;
          wb_tag_q[rq_l]  <= oreq_hdr.tag;
          hs_q[rq_l]      <= H_I;
          dd_q[rq_l]      <= 1'b0;
          if (refuse) begin
            ref_q[rq_l] <= mem_q[rq_l];
          end else begin
            mem_q[rq_l] <= oreq_data[0];
          end
          if (sn_q[rq_l]) begin
            sn_wbg_q[rq_l] <= 1'b1;
            if (sn_wbp_q[rq_l]) sn_q[rq_l] <= 1'b0;  // the snoop's transaction ends
          end
        end else begin
          tx_q[rq_l]      <= 1'b1;
          tx_op_q[rq_l]   <= oreq_hdr.op;
          tx_tag_q[rq_l]  <= oreq_hdr.tag;
          tx_busy_q[rq_l] <= sn_q[rq_l];
          tx_bit_q[rq_l]  <= oreq_data[0];
          tx_full_q[rq_l] <= oreq_hdr.op == cni_coh_pkg::OP_RDX &&
                             oreq_hdr.flags[cni_coh_pkg::FLAG_FULL];
        end
      end
      // ---- the home takes a snoop answer ----
      if (orsp_fire && rs_fmt_ok) begin
        sn_ans_q[rs_l] <= 1'b1;
        if (rs_wbp) begin
          sn_wbp_q[rs_l] <= 1'b1;
          if (sn_wbg_q[rs_l] || (oreq_fire && rq_fmt_ok && rq_wb && rq_l == rs_l)) begin
            sn_q[rs_l] <= 1'b0;
          end
        end else begin
          sn_q[rs_l] <= 1'b0;
          if (sn_op_q[rs_l] == cni_coh_pkg::OP_FWD_INV) begin
            hs_q[rs_l] <= H_I;
          end else if (rs_data && sn_op_q[rs_l] == cni_coh_pkg::OP_FWD_DNO) begin
            hs_q[rs_l] <= H_O;                   // the owner keeps the dirty line in O
          end else if (hs_q[rs_l] != H_I) begin
            hs_q[rs_l] <= H_S;
          end
          if (rs_data && sn_op_q[rs_l] != cni_coh_pkg::OP_FWD_DNO) begin
            mem_q[rs_l] <= orsp_data[0];
            dd_q[rs_l]  <= 1'b0;
          end
        end
      end
      // ---- the inbound slot ----
      if (in_fire) begin
        in_v_q <= 1'b0;
        if (!in_junk) begin
          if (in_hdr_q.op == cni_coh_pkg::OP_DATA_I) begin
            perf_q <= perf_q | pending_on(in_l, cni_coh_pkg::CA_RD_NA);
            for (int i = 0; i < NI; i++) begin
              if (pending_on(in_l, cni_coh_pkg::CA_RD_NA) == NI'(1 << i)) val_q[i] <= in_bit_q;
            end
          end
          if (in_hdr_q.op == cni_coh_pkg::OP_WR_ACK) begin
            perf_q <= perf_q | pending_on(in_l, cni_coh_pkg::CA_WR_INV);
          end
          // an Error ends the request it answers (not performed: its response is an error);
          // the next request on the line may be taken while that response waits for the engine
          if (in_hdr_q.op == cni_coh_pkg::OP_ERROR && !in_hdr_q.tag[7]) begin
            for (int i = 0; i < NI; i++) begin
              if (out_q[i] && line_q[i] == in_l && !bad_q[i]) perf_q[i] <= 1'b1;
            end
          end
          if (in_hdr_q.tag[7] && (in_hdr_q.op == cni_coh_pkg::OP_WB_ACK ||
                                  in_hdr_q.op == cni_coh_pkg::OP_ERROR)) begin
            wb_q[in_l] <= 1'b0;
          end
        end
      end
      // the slot takes the home's message (a grant carries the line's current value)
      if (h_wback || h_ans || h_snp || (h_junk && jh_bad)) begin
        in_v_q   <= 1'b1;
        in_hdr_q <= slot_hdr;
        in_bit_q <= h_ans && ref_q[hl];
      end
      if (h_wback) wb_sent_q[hl] <= 1'b1;
      if (h_ans) begin
        tx_q[hl] <= 1'b0;
        unique case (h_op)
          cni_coh_pkg::OP_DATA_S: hs_q[hl] <= H_S;
          cni_coh_pkg::OP_DATA_E: hs_q[hl] <= H_X;
          // DataM makes the device the owner; so does UpgAck, which the agent always takes to M
          // (docs/cache-agent.md): it will write the line back or answer a snoop with data
          cni_coh_pkg::OP_DATA_M, cni_coh_pkg::OP_UPG_ACK: begin
            hs_q[hl] <= H_X;
            dd_q[hl] <= 1'b1;                    // the device now owes the write-back
          end
          cni_coh_pkg::OP_WR_ACK: begin
            // the write-invalidate is performed: memory holds its line, every copy is gone
            mem_q[hl] <= tx_bit_q[hl];
            ref_q[hl] <= tx_bit_q[hl];
            hs_q[hl]  <= H_I;
          end
          default: ;
        endcase
      end
      if (h_snp) begin
        sn_q[hl]     <= 1'b1;
        sn_op_q[hl]  <= h_op;
        sn_ans_q[hl] <= 1'b0;
        sn_wbp_q[hl] <= 1'b0;
        sn_wbg_q[hl] <= 1'b0;
      end
    end
  end
endmodule
