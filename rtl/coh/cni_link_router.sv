// SPDX-License-Identifier: Apache-2.0
// The device's side of a symmetric coherent link: four channels each way, every one carrying a
// header and a line of data, with per-channel credits; received messages routed by opcode to the
// device's home agent or to its caching agent, and both agents' messages merged onto the
// transmit channels (and uncached register accesses carried to and from the device's engines).
// Protocol rule 8 on the receive side: the caching agent gets its messages
// (FWD snoops, RSP answers, DAT grants) in the order they arrived, a grant or an answer before
// a snoop that arrived with it in the same cycle. docs/endpoint.md, "Link layer".
//
// Parameters:
//   LineBytes - data bits per message: LineBytes * 8
//   RxDepth   - receive buffer per channel = credits advertised to the peer
//   TxCredits - credits per channel held for the peer's receive buffer
//   HomeHdrReg - the home agent's receive buffers show their heads' headers from registers
//               (`cni_fifo` OutReg on the header bits only; set by the endpoint's Pipelined)
// Ports:
//   rx_<ch>_*            - link receive side per channel (req, fwd, rsp, dat): valid, header and
//                          data, no ready (credits); credit_o pulses once per message taken
//   tx_<ch>_*            - link transmit side per channel: valid, header and data (the link
//                          takes every message offered); credit_i pulses return peer slots
//   h_req_*, h_rsp_*     - to the home agent: requests, snoop answers (valid/ready)
//   n_req_*              - the uncached accesses (Nc) among the requests, to the NC unit: header
//                          and the value (the data's first 8 bytes)
//   n_orsp_*, n_odat_*   - the NC unit's answers (NcAck or Error; NcData)
//   h_fwd_*, h_orsp_*,
//   h_odat_*             - from the home agent: snoops, answers, grants (valid/ready)
//   h_fwd_hold_o         - earlier answers still wait in the transmit buffers: the home's next
//                          snoop must wait (rule 8)
//   c_in_*               - to the caching agent, merged in arrival order (valid/ready)
//   c_oreq_*, c_orsp_*   - from the caching agent: requests, snoop answers (valid/ready)
//   overflow_o           - per channel: a message arrived with its buffer full (dropped)
//   credit_err_o         - per transmit channel: a credit came back beyond TxCredits (ignored)
//   idle_o               - every buffer empty, no credit owed, the transmit turns at rest:
//                          nothing changes until a message or a credit arrives or a producer
//                          offers one (docs/endpoint.md, "Quiescence")
`default_nettype none

module cni_link_router #(
  parameter int LineBytes = 128,
  parameter int RxDepth   = 8,
  parameter int TxCredits = 8,
  parameter bit HomeHdrReg = 1'b0,
  localparam int LineBits = LineBytes * 8,
  localparam int HdrW     = cni_coh_pkg::HDR_W,
  localparam int MsgW     = HdrW + LineBits
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  // link receive
  input  wire logic                rx_req_valid_i,
  input  wire cni_coh_pkg::hdr_t   rx_req_hdr_i,
  input  wire logic [LineBits-1:0] rx_req_data_i,
  output logic                     rx_req_credit_o,
  input  wire logic                rx_fwd_valid_i,
  input  wire cni_coh_pkg::hdr_t   rx_fwd_hdr_i,
  /* verilator lint_off UNUSEDSIGNAL */
  input  wire logic [LineBits-1:0] rx_fwd_data_i,   // snoops carry no data: not kept
  /* verilator lint_on UNUSEDSIGNAL */
  output logic                     rx_fwd_credit_o,
  input  wire logic                rx_rsp_valid_i,
  input  wire cni_coh_pkg::hdr_t   rx_rsp_hdr_i,
  input  wire logic [LineBits-1:0] rx_rsp_data_i,
  output logic                     rx_rsp_credit_o,
  input  wire logic                rx_dat_valid_i,
  input  wire cni_coh_pkg::hdr_t   rx_dat_hdr_i,
  input  wire logic [LineBits-1:0] rx_dat_data_i,
  output logic                     rx_dat_credit_o,
  // link transmit
  output logic                     tx_req_valid_o,
  output cni_coh_pkg::hdr_t        tx_req_hdr_o,
  output logic [LineBits-1:0]      tx_req_data_o,
  input  wire logic                tx_req_credit_i,
  output logic                     tx_fwd_valid_o,
  output cni_coh_pkg::hdr_t        tx_fwd_hdr_o,
  output logic [LineBits-1:0]      tx_fwd_data_o,
  input  wire logic                tx_fwd_credit_i,
  output logic                     tx_rsp_valid_o,
  output cni_coh_pkg::hdr_t        tx_rsp_hdr_o,
  output logic [LineBits-1:0]      tx_rsp_data_o,
  input  wire logic                tx_rsp_credit_i,
  output logic                     tx_dat_valid_o,
  output cni_coh_pkg::hdr_t        tx_dat_hdr_o,
  output logic [LineBits-1:0]      tx_dat_data_o,
  input  wire logic                tx_dat_credit_i,
  // home agent
  output logic                     h_req_valid_o,
  input  wire logic                h_req_ready_i,
  output cni_coh_pkg::hdr_t        h_req_hdr_o,
  output logic [LineBits-1:0]      h_req_data_o,
  output logic                     n_req_valid_o,
  input  wire logic                n_req_ready_i,
  output cni_coh_pkg::hdr_t        n_req_hdr_o,
  output logic [63:0]              n_req_data_o,
  output logic                     h_rsp_valid_o,
  input  wire logic                h_rsp_ready_i,
  output cni_coh_pkg::hdr_t        h_rsp_hdr_o,
  output logic [LineBits-1:0]      h_rsp_data_o,
  input  wire logic                h_fwd_valid_i,
  output logic                     h_fwd_ready_o,
  input  wire cni_coh_pkg::hdr_t   h_fwd_hdr_i,
  output logic                     h_fwd_hold_o,
  input  wire logic                h_orsp_valid_i,
  output logic                     h_orsp_ready_o,
  input  wire cni_coh_pkg::hdr_t   h_orsp_hdr_i,
  input  wire logic                h_odat_valid_i,
  output logic                     h_odat_ready_o,
  input  wire cni_coh_pkg::hdr_t   h_odat_hdr_i,
  input  wire logic [LineBits-1:0] h_odat_data_i,
  input  wire logic                n_orsp_valid_i,
  output logic                     n_orsp_ready_o,
  input  wire cni_coh_pkg::hdr_t   n_orsp_hdr_i,
  input  wire logic                n_odat_valid_i,
  output logic                     n_odat_ready_o,
  input  wire cni_coh_pkg::hdr_t   n_odat_hdr_i,
  input  wire logic [LineBits-1:0] n_odat_data_i,
  // caching agent
  output logic                     c_in_valid_o,
  input  wire logic                c_in_ready_i,
  output cni_coh_pkg::hdr_t        c_in_hdr_o,
  output logic [LineBits-1:0]      c_in_data_o,
  input  wire logic                c_oreq_valid_i,
  output logic                     c_oreq_ready_o,
  input  wire cni_coh_pkg::hdr_t   c_oreq_hdr_i,
  input  wire logic [LineBits-1:0] c_oreq_data_i,
  input  wire logic                c_orsp_valid_i,
  output logic                     c_orsp_ready_o,
  input  wire cni_coh_pkg::hdr_t   c_orsp_hdr_i,
  input  wire logic [LineBits-1:0] c_orsp_data_i,
  // errors
  output logic [cni_coh_pkg::NUM_CH-1:0] overflow_o,
  output logic [cni_coh_pkg::NUM_CH-1:0] credit_err_o,
  output logic                     idle_o
);

  // Messages bound for the caching agent carry their arrival number: at most 3 * RxDepth of them
  // wait at once, so numbers SeqW bits wide compare by their difference's sign.
  localparam int SeqW  = $clog2(3 * RxDepth) + 2;
  localparam int NcW   = 64;   // an uncached access's value: the first 8 bytes of its data

  // ---- receive ----------------------------------------------------------------------------
  // Each channel is split at arrival where two blocks consume it, so each consumer's valid and
  // head come from its own buffer (flip-flops and the buffer's storage), never through a decode
  // of another block's head. REQ: uncached accesses (Nc) to the NC unit, which keeps the value's
  // first 8 bytes, the rest to the home agent. RSP: snoop answers (with data) to the home agent;
  // the caching agent's answers (UpgAck, WbAck, WrAck, Retry, Error) carry no data. FWD snoops
  // carry no data either: their buffer keeps the header only.
  wire req_nc   = rx_req_hdr_i.op == cni_coh_pkg::OP_NC;
  wire rsp_home = rx_rsp_hdr_i.op == cni_coh_pkg::OP_SNP_ACK ||
                  rx_rsp_hdr_i.op == cni_coh_pkg::OP_SNP_DATA;
  wire arr_dat  = rx_dat_valid_i;
  wire arr_crsp = rx_rsp_valid_i && !rsp_home;
  wire arr_fwd  = rx_fwd_valid_i;
  logic [SeqW-1:0] seq_q, seq_dat, seq_crsp, seq_fwd;
  always_comb begin
    // numbered in this order within a cycle: grants and answers before snoops
    seq_dat  = seq_q;
    seq_crsp = seq_dat + SeqW'(arr_dat);
    seq_fwd  = seq_crsp + SeqW'(arr_crsp);
  end
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) seq_q <= '0;
    else seq_q <= seq_fwd + SeqW'(arr_fwd);
  end

  logic req_ovf, fwd_ovf, rsp_ovf, dat_ovf, req_idle, rsp_idle;
  logic fwd_v, crsp_v, dat_v, fwd_take, crsp_take, dat_take;
  logic [SeqW+HdrW-1:0] fwd_q, crsp_q;
  logic [SeqW+MsgW-1:0] dat_q;

  // The home agent's requests and snoop answers: with HomeHdrReg, their headers at the buffers'
  // heads come from registers (the pipelined home agent compares the line as it arrives).
  localparam int HomeRegW = HomeHdrReg ? HdrW : 0;
  cni_link_rx_split #(.WidthA(MsgW), .WidthB(HdrW + NcW), .Depth(RxDepth), .RegWA(HomeRegW)) u_rx_req (
    .clk_i, .rst_ni,
    .link_valid_i  (rx_req_valid_i),
    .link_to_b_i   (req_nc),
    .link_data_a_i ({rx_req_hdr_i, rx_req_data_i}),
    .link_data_b_i ({rx_req_hdr_i, rx_req_data_i[NcW-1:0]}),
    .credit_o      (rx_req_credit_o),
    .overflow_o    (req_ovf),
    .a_valid_o     (h_req_valid_o),
    .a_ready_i     (h_req_ready_i),
    .a_data_o      ({h_req_hdr_o, h_req_data_o}),
    .b_valid_o     (n_req_valid_o),
    .b_ready_i     (n_req_ready_i),
    .b_data_o      ({n_req_hdr_o, n_req_data_o}),
    .idle_o        (req_idle)
  );
  cni_link_rx_ch #(.Width(SeqW + HdrW), .Depth(RxDepth)) u_rx_fwd (
    .clk_i, .rst_ni,
    .link_valid_i (rx_fwd_valid_i),
    .link_data_i  ({seq_fwd, rx_fwd_hdr_i}),
    .credit_o     (rx_fwd_credit_o),
    .overflow_o   (fwd_ovf),
    .out_valid_o  (fwd_v),
    .out_ready_i  (fwd_take),
    .out_data_o   (fwd_q)
  );
  cni_link_rx_split #(.WidthA(MsgW), .WidthB(SeqW + HdrW), .Depth(RxDepth), .RegWA(HomeRegW)) u_rx_rsp (
    .clk_i, .rst_ni,
    .link_valid_i  (rx_rsp_valid_i),
    .link_to_b_i   (!rsp_home),
    .link_data_a_i ({rx_rsp_hdr_i, rx_rsp_data_i}),
    .link_data_b_i ({seq_crsp, rx_rsp_hdr_i}),
    .credit_o      (rx_rsp_credit_o),
    .overflow_o    (rsp_ovf),
    .a_valid_o     (h_rsp_valid_o),
    .a_ready_i     (h_rsp_ready_i),
    .a_data_o      ({h_rsp_hdr_o, h_rsp_data_o}),
    .b_valid_o     (crsp_v),
    .b_ready_i     (crsp_take),
    .b_data_o      (crsp_q),
    .idle_o        (rsp_idle)
  );
  cni_link_rx_ch #(.Width(SeqW + MsgW), .Depth(RxDepth)) u_rx_dat (
    .clk_i, .rst_ni,
    .link_valid_i (rx_dat_valid_i),
    .link_data_i  ({seq_dat, rx_dat_hdr_i, rx_dat_data_i}),
    .credit_o     (rx_dat_credit_o),
    .overflow_o   (dat_ovf),
    .out_valid_o  (dat_v),
    .out_ready_i  (dat_take),
    .out_data_o   (dat_q)
  );

  assign overflow_o[cni_coh_pkg::CH_REQ] = req_ovf;
  assign overflow_o[cni_coh_pkg::CH_FWD] = fwd_ovf;
  assign overflow_o[cni_coh_pkg::CH_RSP] = rsp_ovf;
  assign overflow_o[cni_coh_pkg::CH_DAT] = dat_ovf;

  // ---- the caching agent's input: the oldest of the three heads -------------------------------
  // into a two-slot buffer with a registered head (`OutReg`: synthesis makes the slots LUT RAM,
  // whose read would start the agent's decode), so the agent starts from flip-flops (the
  // merge's compares and the agent's own logic are not one path) and still takes a message
  // every cycle
  function automatic logic older(input logic [SeqW-1:0] a, input logic [SeqW-1:0] b);
    logic [SeqW-1:0] d;
    d     = a - b;
    older = d[SeqW-1];
  endfunction
  wire [SeqW-1:0] fwd_seq  = fwd_q[HdrW +: SeqW];
  wire [SeqW-1:0] crsp_seq = crsp_q[HdrW +: SeqW];
  wire [SeqW-1:0] dat_seq  = dat_q[MsgW +: SeqW];
  logic pick_fwd, pick_crsp, pick_dat, mrg_valid, mrg_ready;
  cni_coh_pkg::hdr_t   mrg_hdr;
  logic [LineBits-1:0] mrg_data;
  always_comb begin
    pick_dat  = dat_v && (!crsp_v || older(dat_seq, crsp_seq)) &&
                (!fwd_v || older(dat_seq, fwd_seq));
    pick_crsp = crsp_v && (!dat_v || older(crsp_seq, dat_seq)) &&
                (!fwd_v || older(crsp_seq, fwd_seq));
    pick_fwd  = fwd_v && !pick_dat && !pick_crsp;
    mrg_valid = fwd_v || crsp_v || dat_v;
    mrg_hdr   = pick_dat ? dat_q[LineBits +: HdrW] :
                pick_crsp ? crsp_q[HdrW-1:0] : fwd_q[HdrW-1:0];
    mrg_data  = pick_dat ? dat_q[LineBits-1:0] : '0;
  end
  assign dat_take  = pick_dat && mrg_ready;
  assign crsp_take = pick_crsp && mrg_ready;
  assign fwd_take  = pick_fwd && mrg_ready;
  cni_fifo #(.Width(MsgW), .Depth(2), .OutReg(1'b1)) u_cin (
    .clk_i, .rst_ni,
    .in_valid_i  (mrg_valid),
    .in_ready_o  (mrg_ready),
    .in_data_i   ({mrg_hdr, mrg_data}),
    .out_valid_o (c_in_valid_o),
    .out_ready_i (c_in_ready_i),
    .out_data_o  ({c_in_hdr_o, c_in_data_o}),
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o     ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  // ---- transmit ---------------------------------------------------------------------------
  logic req_pending, fwd_pending, rsp_pending, dat_pending;
  logic trsp_valid, trsp_ready;
  cni_coh_pkg::hdr_t   trsp_hdr;
  logic [LineBits-1:0] trsp_data;

  cni_link_tx_ch #(.Width(MsgW), .Credits(TxCredits)) u_tx_req (
    .clk_i, .rst_ni,
    .in_valid_i   (c_oreq_valid_i),
    .in_ready_o   (c_oreq_ready_o),
    .in_data_i    ({c_oreq_hdr_i, c_oreq_data_i}),
    .link_valid_o (tx_req_valid_o),
    .link_data_o  ({tx_req_hdr_o, tx_req_data_o}),
    .credit_i     (tx_req_credit_i),
    .credit_err_o (credit_err_o[cni_coh_pkg::CH_REQ]),
    .pending_o    (req_pending)
  );
  cni_link_tx_ch #(.Width(MsgW), .Credits(TxCredits)) u_tx_fwd (
    .clk_i, .rst_ni,
    .in_valid_i   (h_fwd_valid_i),
    .in_ready_o   (h_fwd_ready_o),
    .in_data_i    ({h_fwd_hdr_i, LineBits'(0)}),
    .link_valid_o (tx_fwd_valid_o),
    .link_data_o  ({tx_fwd_hdr_o, tx_fwd_data_o}),
    .credit_i     (tx_fwd_credit_i),
    .credit_err_o (credit_err_o[cni_coh_pkg::CH_FWD]),
    .pending_o    (fwd_pending)
  );
  // RSP: the home agent's answers, the caching agent's snoop answers and the NC unit's answers.
  // Whose turn it is, is a register (`rsp_turn_q`), so every producer's ready is a function of
  // flip-flops (the turn and the buffer's not-full flag), never of another producer's valid: the
  // home agent's commit, and through it its whole pipeline's advance, starts from flip-flops.
  // The turn stays with the home agent while nobody else waits; a producer that waits gets the
  // next cycle: the NC unit first, the caching agent in turns with the home agent.
  localparam logic [1:0] T_HOME = 2'd0, T_CACHE = 2'd1, T_NC = 2'd2;
  logic [1:0] rsp_turn_q, rsp_turn_d;
  logic       dat_nc_q, tdat_ready;
  always_comb begin
    unique case (rsp_turn_q)
      T_CACHE: begin trsp_valid = c_orsp_valid_i; trsp_hdr = c_orsp_hdr_i; end
      T_NC:    begin trsp_valid = n_orsp_valid_i; trsp_hdr = n_orsp_hdr_i; end
      default: begin trsp_valid = h_orsp_valid_i; trsp_hdr = h_orsp_hdr_i; end
    endcase
    trsp_data      = (rsp_turn_q == T_CACHE) ? c_orsp_data_i : '0;
    h_orsp_ready_o = trsp_ready && rsp_turn_q == T_HOME;
    c_orsp_ready_o = trsp_ready && rsp_turn_q == T_CACHE;
    n_orsp_ready_o = trsp_ready && rsp_turn_q == T_NC;
  end
  wire h_rsp_wait = h_orsp_valid_i && !h_orsp_ready_o;
  wire c_rsp_wait = c_orsp_valid_i && !c_orsp_ready_o;
  wire n_rsp_wait = n_orsp_valid_i && !n_orsp_ready_o;
  always_comb begin
    if (n_rsp_wait) rsp_turn_d = T_NC;
    else if (c_rsp_wait && (rsp_turn_q != T_CACHE || !h_rsp_wait)) rsp_turn_d = T_CACHE;
    else rsp_turn_d = T_HOME;
  end
  // DAT: the home agent's grants; the NC unit's read values in the cycle after they start to
  // wait, by a turn register of the same kind
  assign h_odat_ready_o = tdat_ready && !dat_nc_q;
  assign n_odat_ready_o = tdat_ready && dat_nc_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsp_turn_q <= T_HOME;
      dat_nc_q   <= 1'b0;
    end else begin
      rsp_turn_q <= rsp_turn_d;
      dat_nc_q   <= n_odat_valid_i && !n_odat_ready_o;
    end
  end
  cni_link_tx_ch #(.Width(MsgW), .Credits(TxCredits)) u_tx_rsp (
    .clk_i, .rst_ni,
    .in_valid_i   (trsp_valid),
    .in_ready_o   (trsp_ready),
    .in_data_i    ({trsp_hdr, trsp_data}),
    .link_valid_o (tx_rsp_valid_o),
    .link_data_o  ({tx_rsp_hdr_o, tx_rsp_data_o}),
    .credit_i     (tx_rsp_credit_i),
    .credit_err_o (credit_err_o[cni_coh_pkg::CH_RSP]),
    .pending_o    (rsp_pending)
  );
  cni_link_tx_ch #(.Width(MsgW), .Credits(TxCredits)) u_tx_dat (
    .clk_i, .rst_ni,
    .in_valid_i   (dat_nc_q ? n_odat_valid_i : h_odat_valid_i),
    .in_ready_o   (tdat_ready),
    .in_data_i    (dat_nc_q ? {n_odat_hdr_i, n_odat_data_i} : {h_odat_hdr_i, h_odat_data_i}),
    .link_valid_o (tx_dat_valid_o),
    .link_data_o  ({tx_dat_hdr_o, tx_dat_data_o}),
    .credit_i     (tx_dat_credit_i),
    .credit_err_o (credit_err_o[cni_coh_pkg::CH_DAT]),
    .pending_o    (dat_pending)
  );
  // Only answers (RSP, DAT) must drain before a snoop; FWD's own fill level is not needed.
  assign h_fwd_hold_o = rsp_pending || dat_pending;

  // Quiescence: no buffer holds a message, no credit is owed to the peer, and the turns are
  // where they rest when nobody waits (a waiting producer is not idle itself).
  assign idle_o = req_idle && rsp_idle && !fwd_v && !dat_v && !c_in_valid_o &&
                  !req_pending && !fwd_pending && !rsp_pending && !dat_pending &&
                  rsp_turn_q == T_HOME && !dat_nc_q;

endmodule
