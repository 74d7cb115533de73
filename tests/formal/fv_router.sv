// SPDX-License-Identifier: Apache-2.0
// Formal harness (not synthesizable: free inputs, assertions) for cni_link_router, the device's
// side of the symmetric link: a peer that sends on the four receive channels only with a credit
// and returns transmit credits at will, consumers (home agent, NC unit, caching agent) and
// producers (home agent, caching agent, NC unit) that stall at will, a home agent that offers
// a snoop only while h_fwd_hold_o is low. Every message carries its number in its tag (per
// destination on the receive side, per producer on the transmit side), so order, loss and
// duplication are visible at every output; data is one bit (bit 0), the parity of the tag.
// Properties and why: docs/formal.md, "Link router".
//
// Parameters:
//   RxDepth   - the router's receive buffers (= credits the peer starts with)
//   TxCredits - the router's transmit credits (= the peer's receive buffers)
// Ports: every input is chosen freely by the solver in every step (the environment's choices).
// fv_bitlevel: scripts/formal.sh splits the line-wide registers into bits (all but bit 0 go)
`default_nettype none

module cni_nonsynth_fv_router #(
  parameter int RxDepth   = 2,
  parameter int TxCredits = 2,
  localparam int CW = $clog2(RxDepth + 1),
  localparam int TW = $clog2(TxCredits + 1)
) (
  input wire logic       clk_i,
  // the peer: a message on each receive channel (with a credit), and its opcode choice
  input wire logic [3:0] rx_en_i,
  input wire logic [11:0] rx_op_i,    // per receive channel, 3 bits: which opcode
  input wire logic [3:0] tx_credit_i,
  // consumers' readies
  input wire logic       h_req_ready_i,
  input wire logic       n_req_ready_i,
  input wire logic       h_rsp_ready_i,
  input wire logic       c_in_ready_i,
  // producers: a new message offered (held until taken)
  input wire logic       h_fwd_en_i,
  input wire logic       h_orsp_en_i,
  input wire logic       h_odat_en_i,
  input wire logic       c_oreq_en_i,
  input wire logic       c_orsp_en_i,
  input wire logic       n_orsp_en_i,
  input wire logic       n_odat_en_i
);
  localparam int LB = 64, LBits = LB * 8;
  localparam int HW = cni_coh_pkg::HDR_W;

  // Reset in step 0 only.
  logic rst_q = 1'b1;
  always_ff @(posedge clk_i) rst_q <= 1'b0;
  wire rst_n = !rst_q;

  function automatic logic [HW-1:0] mk(input logic [4:0] op, input logic [7:0] tag);
    cni_coh_pkg::hdr_t h;
    h       = '0;
    h.op    = op;
    h.tag   = tag;
    // a line for WB, WrInv, SnpData and the data grants; an uncached read's 8 bytes for NcData
    h.len   = (op == cni_coh_pkg::OP_NC_DATA) ? 8'd8 :
              (op == cni_coh_pkg::OP_WB || op == cni_coh_pkg::OP_WRINV ||
               op == cni_coh_pkg::OP_SNP_DATA || op >= cni_coh_pkg::OP_DATA_S) ? 8'(LB) : 8'd0;
    mk      = h;
  endfunction

  // ---- receive side: what the peer sends ----------------------------------------------------------
  // REQ: RdS..WrInv to the home agent, Nc to the NC unit; FWD: snoops to the caching agent;
  // RSP: SnpAck/SnpData to the home agent, the rest to the caching agent; DAT: to the caching agent
  function automatic logic [4:0] req_op(input logic [2:0] c);
    // 1..6: RdS..WrInv; 0 and 7: Nc
    req_op = (c == 3'd0 || c == 3'd7) ? cni_coh_pkg::OP_NC : 5'(c);
  endfunction
  function automatic logic [4:0] fwd_op(input logic [2:0] c);
    fwd_op = (c[1:0] == 2'd0) ? cni_coh_pkg::OP_FWD_INV :
             (c[1:0] == 2'd1) ? cni_coh_pkg::OP_FWD_DOWN : cni_coh_pkg::OP_FWD_DNO;
  endfunction
  function automatic logic [4:0] rsp_op(input logic [2:0] c);
    rsp_op = cni_coh_pkg::OP_SNP_ACK + 5'(c);  // 0x10..0x17
  endfunction
  function automatic logic [4:0] dat_op(input logic [2:0] c);
    dat_op = cni_coh_pkg::OP_DATA_S + 5'(c[1:0]);  // DataS, DataE, DataM, DataI
  endfunction

  logic [CW-1:0] rxc_q [4];   // the peer's credits per receive channel
  logic [7:0] n_hreq_q, n_nreq_q, n_hrsp_q, n_cin_q;       // sent by the peer, per destination
  logic [7:0] d_hreq_q, d_nreq_q, d_hrsp_q, d_cin_q;       // delivered, per destination
  logic [3:0] rx_v;
  logic [4:0] op_c [4];
  logic       req_nc, rsp_home;
  logic [7:0] t_req, t_fwd, t_rsp, t_dat;
  always_comb begin
    for (int c = 0; c < 4; c++) rx_v[c] = !rst_q && rx_en_i[c] && rxc_q[c] != '0;
    op_c[0]  = req_op(rx_op_i[2:0]);
    op_c[1]  = fwd_op(rx_op_i[5:3]);
    op_c[2]  = rsp_op(rx_op_i[8:6]);
    op_c[3]  = dat_op(rx_op_i[11:9]);
    req_nc   = op_c[0] == cni_coh_pkg::OP_NC;
    rsp_home = op_c[2] == cni_coh_pkg::OP_SNP_ACK || op_c[2] == cni_coh_pkg::OP_SNP_DATA;
    t_req    = req_nc ? n_nreq_q : n_hreq_q;
    // the caching agent's messages are numbered in the order rule 8 asks for: grants and
    // answers before a snoop that arrives in the same cycle
    t_dat    = n_cin_q;
    t_rsp    = rsp_home ? n_hrsp_q : n_cin_q + 8'(rx_v[3]);
    t_fwd    = n_cin_q + 8'(rx_v[3]) + 8'(rx_v[2] && !rsp_home);
  end

  // ---- transmit side: what the producers offer ------------------------------------------------------
  // tags: producer in bits 7:6 (0 home, 1 caching agent, 2 NC unit), its message number below
  localparam logic [1:0] P_HOME = 2'd0, P_CACHE = 2'd1, P_NC = 2'd2;
  logic       fwd_p_q, orsp_p_q, odat_p_q, coreq_p_q, corsp_p_q, norsp_p_q, nodat_p_q;
  logic [5:0] o_fwd_q, o_hrsp_q, o_hdat_q, o_creq_q, o_crsp_q, o_nrsp_q, o_ndat_q;  // offered
  logic [5:0] s_fwd_q, s_hrsp_q, s_hdat_q, s_creq_q, s_crsp_q, s_nrsp_q, s_ndat_q;  // on the link
  logic [TW-1:0] txc_q [4];   // the router's transmit credits, as the peer counts them
  logic [6:0] h_ans_acc_q, h_ans_sent_q;  // the home's answers taken by the router / on the link
  // the home's answers taken before each snoop the router holds, oldest first
  logic [6:0] snap_q [4];
  logic [2:0] snap_n_q;

  wire hold;
  wire h_fwd_valid = fwd_p_q && !hold;  // the home agent offers a snoop only while not held

  logic h_fwd_ready, h_orsp_ready, h_odat_ready, c_oreq_ready, c_orsp_ready, n_orsp_ready,
        n_odat_ready;
  logic h_req_valid, n_req_valid, h_rsp_valid, c_in_valid;
  cni_coh_pkg::hdr_t h_req_hdr, n_req_hdr, h_rsp_hdr, c_in_hdr;
  logic [LBits-1:0] h_req_data, h_rsp_data, c_in_data;
  logic [63:0] n_req_data;
  logic tx_req_v, tx_fwd_v, tx_rsp_v, tx_dat_v;
  cni_coh_pkg::hdr_t tx_req_h, tx_fwd_h, tx_rsp_h, tx_dat_h;
  logic [3:0] rx_credit, ovf, cerr, tx_credit;
  logic idle;

  cni_link_router #(.LineBytes(LB), .RxDepth(RxDepth), .TxCredits(TxCredits)) u_dut (
    .clk_i, .rst_ni(rst_n),
    .rx_req_valid_i(rx_v[0]), .rx_req_hdr_i(mk(op_c[0], t_req)),
    .rx_req_data_i({511'd0, ^t_req}), .rx_req_credit_o(rx_credit[0]),
    .rx_fwd_valid_i(rx_v[1]), .rx_fwd_hdr_i(mk(op_c[1], t_fwd)), .rx_fwd_data_i('0),
    .rx_fwd_credit_o(rx_credit[1]),
    .rx_rsp_valid_i(rx_v[2]), .rx_rsp_hdr_i(mk(op_c[2], t_rsp)),
    .rx_rsp_data_i({511'd0, ^t_rsp}), .rx_rsp_credit_o(rx_credit[2]),
    .rx_dat_valid_i(rx_v[3]), .rx_dat_hdr_i(mk(op_c[3], t_dat)),
    .rx_dat_data_i({511'd0, ^t_dat}), .rx_dat_credit_o(rx_credit[3]),
    .tx_req_valid_o(tx_req_v), .tx_req_hdr_o(tx_req_h), .tx_req_data_o(),
    .tx_req_credit_i(tx_credit[0]),
    .tx_fwd_valid_o(tx_fwd_v), .tx_fwd_hdr_o(tx_fwd_h), .tx_fwd_data_o(),
    .tx_fwd_credit_i(tx_credit[1]),
    .tx_rsp_valid_o(tx_rsp_v), .tx_rsp_hdr_o(tx_rsp_h), .tx_rsp_data_o(),
    .tx_rsp_credit_i(tx_credit[2]),
    .tx_dat_valid_o(tx_dat_v), .tx_dat_hdr_o(tx_dat_h), .tx_dat_data_o(),
    .tx_dat_credit_i(tx_credit[3]),
    .h_req_valid_o(h_req_valid), .h_req_ready_i(h_req_ready_i), .h_req_hdr_o(h_req_hdr),
    .h_req_data_o(h_req_data),
    .n_req_valid_o(n_req_valid), .n_req_ready_i(n_req_ready_i), .n_req_hdr_o(n_req_hdr),
    .n_req_data_o(n_req_data),
    .h_rsp_valid_o(h_rsp_valid), .h_rsp_ready_i(h_rsp_ready_i), .h_rsp_hdr_o(h_rsp_hdr),
    .h_rsp_data_o(h_rsp_data),
    .h_fwd_valid_i(h_fwd_valid), .h_fwd_ready_o(h_fwd_ready),
    .h_fwd_hdr_i(mk(cni_coh_pkg::OP_FWD_INV, {P_HOME, o_fwd_q})), .h_fwd_hold_o(hold),
    .h_orsp_valid_i(orsp_p_q), .h_orsp_ready_o(h_orsp_ready),
    .h_orsp_hdr_i(mk(cni_coh_pkg::OP_RETRY, {P_HOME, o_hrsp_q})),
    .h_odat_valid_i(odat_p_q), .h_odat_ready_o(h_odat_ready),
    .h_odat_hdr_i(mk(cni_coh_pkg::OP_DATA_S, {P_HOME, o_hdat_q})), .h_odat_data_i('0),
    .n_orsp_valid_i(norsp_p_q), .n_orsp_ready_o(n_orsp_ready),
    .n_orsp_hdr_i(mk(cni_coh_pkg::OP_NC_ACK, {P_NC, o_nrsp_q})),
    .n_odat_valid_i(nodat_p_q), .n_odat_ready_o(n_odat_ready),
    .n_odat_hdr_i(mk(cni_coh_pkg::OP_NC_DATA, {P_NC, o_ndat_q})), .n_odat_data_i('0),
    .c_in_valid_o(c_in_valid), .c_in_ready_i(c_in_ready_i), .c_in_hdr_o(c_in_hdr),
    .c_in_data_o(c_in_data),
    .c_oreq_valid_i(coreq_p_q), .c_oreq_ready_o(c_oreq_ready),
    .c_oreq_hdr_i(mk(cni_coh_pkg::OP_RDS, {P_CACHE, o_creq_q})), .c_oreq_data_i('0),
    .c_orsp_valid_i(corsp_p_q), .c_orsp_ready_o(c_orsp_ready),
    .c_orsp_hdr_i(mk(cni_coh_pkg::OP_SNP_ACK, {P_CACHE, o_crsp_q})), .c_orsp_data_i('0),
    .overflow_o(ovf), .credit_err_o(cerr), .idle_o(idle)
  );

  // the peer returns a transmit credit only for a slot it has freed (one it holds a message in)
  always_comb begin
    for (int c = 0; c < 4; c++) tx_credit[c] = !rst_q && tx_credit_i[c] && txc_q[c] != TW'(TxCredits);
  end
  wire [3:0] tx_v = {tx_dat_v, tx_rsp_v, tx_fwd_v, tx_req_v};

  // handshakes
  wire hreq_f  = h_req_valid && h_req_ready_i;
  wire nreq_f  = n_req_valid && n_req_ready_i;
  wire hrsp_f  = h_rsp_valid && h_rsp_ready_i;
  wire cin_f   = c_in_valid && c_in_ready_i;
  wire fwd_f   = h_fwd_valid && h_fwd_ready;
  wire orsp_f  = orsp_p_q && h_orsp_ready;
  wire odat_f  = odat_p_q && h_odat_ready;
  wire coreq_f = coreq_p_q && c_oreq_ready;
  wire corsp_f = corsp_p_q && c_orsp_ready;
  wire norsp_f = norsp_p_q && n_orsp_ready;
  wire nodat_f = nodat_p_q && n_odat_ready;
  wire [1:0] rsp_prod = tx_rsp_h.tag[7:6];
  wire [1:0] dat_prod = tx_dat_h.tag[7:6];
  wire [6:0] h_sent_now = h_ans_sent_q + 7'(tx_rsp_v && rsp_prod == P_HOME) +
                          7'(tx_dat_v && dat_prod == P_HOME);

  function automatic logic cin_op(input logic [4:0] op);
    cin_op = (op >= cni_coh_pkg::OP_FWD_INV && op <= cni_coh_pkg::OP_FWD_DNO) ||
             (op >= cni_coh_pkg::OP_UPG_ACK && op <= cni_coh_pkg::OP_NC_ACK) ||
             (op >= cni_coh_pkg::OP_DATA_S && op <= cni_coh_pkg::OP_DATA_I);
  endfunction
  wire cin_dat = c_in_hdr.op >= cni_coh_pkg::OP_DATA_S;

  // ================================ properties ====================================================
  always_comb begin
    if (!rst_q) begin
      // receive side: each destination gets its messages, in the order they arrived, once;
      // the caching agent in arrival order across FWD, RSP and DAT (rule 8), a grant's data with it
      if (cin_f) begin
        p_cin_order: assert (c_in_hdr.tag == d_cin_q && d_cin_q != n_cin_q && cin_op(c_in_hdr.op));
        p_cin_data:  assert (!cin_dat || c_in_data[0] == ^c_in_hdr.tag);
      end
      if (hreq_f) begin
        p_hreq_order: assert (h_req_hdr.tag == d_hreq_q && d_hreq_q != n_hreq_q &&
                              h_req_hdr.op != cni_coh_pkg::OP_NC);
        p_hreq_data:  assert (h_req_data[0] == ^h_req_hdr.tag);
      end
      if (nreq_f) begin
        p_nreq_order: assert (n_req_hdr.tag == d_nreq_q && d_nreq_q != n_nreq_q &&
                              n_req_hdr.op == cni_coh_pkg::OP_NC);
        p_nreq_data:  assert (n_req_data[0] == ^n_req_hdr.tag);
      end
      if (hrsp_f) begin
        p_hrsp_order: assert (h_rsp_hdr.tag == d_hrsp_q && d_hrsp_q != n_hrsp_q &&
                              (h_rsp_hdr.op == cni_coh_pkg::OP_SNP_ACK ||
                               h_rsp_hdr.op == cni_coh_pkg::OP_SNP_DATA));
        p_hrsp_data:  assert (h_rsp_data[0] == ^h_rsp_hdr.tag);
      end
      // a peer that sends only with a credit never overflows a buffer
      p_no_ovf: assert (ovf == '0);
      // transmit side: only with a credit; each producer's messages in order, once, on its
      // channel
      p_tx_credit: assert ((!tx_v[0] || txc_q[0] != '0) && (!tx_v[1] || txc_q[1] != '0) &&
                           (!tx_v[2] || txc_q[2] != '0) && (!tx_v[3] || txc_q[3] != '0));
      p_tx_no_err: assert (cerr == '0);
      if (tx_req_v) p_tx_req: assert (tx_req_h.tag == {P_CACHE, s_creq_q} && s_creq_q != o_creq_q);
      if (tx_fwd_v) p_tx_fwd: assert (tx_fwd_h.tag == {P_HOME, s_fwd_q} && s_fwd_q != o_fwd_q);
      if (tx_rsp_v) begin
        p_tx_rsp: assert ((rsp_prod == P_HOME && tx_rsp_h.tag[5:0] == s_hrsp_q && s_hrsp_q != o_hrsp_q &&
                           tx_rsp_h.op == cni_coh_pkg::OP_RETRY) ||
                          (rsp_prod == P_CACHE && tx_rsp_h.tag[5:0] == s_crsp_q && s_crsp_q != o_crsp_q &&
                           tx_rsp_h.op == cni_coh_pkg::OP_SNP_ACK) ||
                          (rsp_prod == P_NC && tx_rsp_h.tag[5:0] == s_nrsp_q && s_nrsp_q != o_nrsp_q &&
                           tx_rsp_h.op == cni_coh_pkg::OP_NC_ACK));
      end
      if (tx_dat_v) begin
        p_tx_dat: assert ((dat_prod == P_HOME && tx_dat_h.tag[5:0] == s_hdat_q && s_hdat_q != o_hdat_q &&
                           tx_dat_h.op == cni_coh_pkg::OP_DATA_S) ||
                          (dat_prod == P_NC && tx_dat_h.tag[5:0] == s_ndat_q && s_ndat_q != o_ndat_q &&
                           tx_dat_h.op == cni_coh_pkg::OP_NC_DATA));
      end
      // rule 8 on the transmit side: a snoop leaves only after every answer the home gave
      // before it (a grant or answer in the same link cycle goes first at the receiver)
      if (tx_fwd_v) p_rule8_tx: assert (snap_n_q != '0 && h_sent_now >= snap_q[0]);
      // quiescent: every message delivered or sent, every credit back
      if (idle) begin
        p_idle: assert (d_hreq_q == n_hreq_q && d_nreq_q == n_nreq_q && d_hrsp_q == n_hrsp_q &&
                        d_cin_q == n_cin_q && rxc_q[0] == CW'(RxDepth) &&
                        rxc_q[1] == CW'(RxDepth) && rxc_q[2] == CW'(RxDepth) &&
                        rxc_q[3] == CW'(RxDepth) && s_fwd_q == o_fwd_q &&
                        s_hrsp_q == o_hrsp_q && s_hdat_q == o_hdat_q && s_creq_q == o_creq_q &&
                        s_crsp_q == o_crsp_q && s_nrsp_q == o_nrsp_q && s_ndat_q == o_ndat_q);
      end
    end
  end

  // ================================ the environment ================================================
  always_ff @(posedge clk_i) begin
    if (rst_q) begin
      for (int c = 0; c < 4; c++) begin
        rxc_q[c] <= CW'(RxDepth);
        txc_q[c] <= TW'(TxCredits);
        snap_q[c] <= '0;
      end
      {n_hreq_q, n_nreq_q, n_hrsp_q, n_cin_q} <= '0;
      {d_hreq_q, d_nreq_q, d_hrsp_q, d_cin_q} <= '0;
      {fwd_p_q, orsp_p_q, odat_p_q, coreq_p_q, corsp_p_q, norsp_p_q, nodat_p_q} <= '0;
      {o_fwd_q, o_hrsp_q, o_hdat_q, o_creq_q, o_crsp_q, o_nrsp_q, o_ndat_q} <= '0;
      {s_fwd_q, s_hrsp_q, s_hdat_q, s_creq_q, s_crsp_q, s_nrsp_q, s_ndat_q} <= '0;
      h_ans_acc_q  <= '0;
      h_ans_sent_q <= '0;
      snap_n_q     <= '0;
    end else begin
      // the peer's credits: -1 per message sent, +1 per credit returned
      for (int c = 0; c < 4; c++) begin
        rxc_q[c] <= rxc_q[c] - CW'(rx_v[c]) + CW'(rx_credit[c]);
        txc_q[c] <= txc_q[c] - TW'(tx_v[c]) + TW'(tx_credit[c]);
      end
      if (rx_v[0]) begin
        if (req_nc) n_nreq_q <= n_nreq_q + 8'd1;
        else n_hreq_q <= n_hreq_q + 8'd1;
      end
      if (rx_v[2] && rsp_home) n_hrsp_q <= n_hrsp_q + 8'd1;
      n_cin_q <= n_cin_q + 8'(rx_v[3]) + 8'(rx_v[2] && !rsp_home) + 8'(rx_v[1]);
      if (hreq_f) d_hreq_q <= d_hreq_q + 8'd1;
      if (nreq_f) d_nreq_q <= d_nreq_q + 8'd1;
      if (hrsp_f) d_hrsp_q <= d_hrsp_q + 8'd1;
      if (cin_f)  d_cin_q  <= d_cin_q + 8'd1;
      // producers: a message is held until taken; the next one is numbered on
      if (fwd_f)   begin fwd_p_q   <= 1'b0; o_fwd_q  <= o_fwd_q + 6'd1;  end
      if (orsp_f)  begin orsp_p_q  <= 1'b0; o_hrsp_q <= o_hrsp_q + 6'd1; end
      if (odat_f)  begin odat_p_q  <= 1'b0; o_hdat_q <= o_hdat_q + 6'd1; end
      if (coreq_f) begin coreq_p_q <= 1'b0; o_creq_q <= o_creq_q + 6'd1; end
      if (corsp_f) begin corsp_p_q <= 1'b0; o_crsp_q <= o_crsp_q + 6'd1; end
      if (norsp_f) begin norsp_p_q <= 1'b0; o_nrsp_q <= o_nrsp_q + 6'd1; end
      if (nodat_f) begin nodat_p_q <= 1'b0; o_ndat_q <= o_ndat_q + 6'd1; end
      if (h_fwd_en_i  && (!fwd_p_q   || fwd_f))   fwd_p_q   <= 1'b1;
      if (h_orsp_en_i && (!orsp_p_q  || orsp_f))  orsp_p_q  <= 1'b1;
      if (h_odat_en_i && (!odat_p_q  || odat_f))  odat_p_q  <= 1'b1;
      if (c_oreq_en_i && (!coreq_p_q || coreq_f)) coreq_p_q <= 1'b1;
      if (c_orsp_en_i && (!corsp_p_q || corsp_f)) corsp_p_q <= 1'b1;
      if (n_orsp_en_i && (!norsp_p_q || norsp_f)) norsp_p_q <= 1'b1;
      if (n_odat_en_i && (!nodat_p_q || nodat_f)) nodat_p_q <= 1'b1;
      // on the link
      if (tx_req_v) s_creq_q <= s_creq_q + 6'd1;
      if (tx_fwd_v) s_fwd_q  <= s_fwd_q + 6'd1;
      if (tx_rsp_v) begin
        if (rsp_prod == P_HOME)  s_hrsp_q <= s_hrsp_q + 6'd1;
        if (rsp_prod == P_CACHE) s_crsp_q <= s_crsp_q + 6'd1;
        if (rsp_prod == P_NC)    s_nrsp_q <= s_nrsp_q + 6'd1;
      end
      if (tx_dat_v) begin
        if (dat_prod == P_HOME) s_hdat_q <= s_hdat_q + 6'd1;
        if (dat_prod == P_NC)   s_ndat_q <= s_ndat_q + 6'd1;
      end
      h_ans_acc_q  <= h_ans_acc_q + 7'(orsp_f) + 7'(odat_f);
      h_ans_sent_q <= h_sent_now;
      // each snoop the router takes records the home's answers it took before it; the record
      // leaves when the snoop leaves on the link
      begin
        logic [2:0] n;
        n = snap_n_q;
        if (tx_fwd_v) begin
          for (int k = 0; k < 3; k++) snap_q[k] <= snap_q[k + 1];
          n = n - 3'd1;
        end
        if (fwd_f) snap_q[2'(n)] <= h_ans_acc_q;
        snap_n_q <= n + 3'(fwd_f);
      end
    end
  end
endmodule
