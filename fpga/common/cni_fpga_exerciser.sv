// SPDX-License-Identifier: Apache-2.0
// Board helper (not part of the portable core): on-chip stand-in for the host side of the
// coherent link and for the PIO stream consumers/producers, so a board build keeps every port
// of the core live without routing thousands of bits to pins.
//
// Link: pseudo-random requests (RdS/RdX/Upg/WB from host agents 0..3, now and then a malformed
// one) on REQ, snoop answers (SnpAck or SnpData, echoing each snoop the core sends) on RSP, rare
// stray messages on FWD and DAT; every receive channel honours the core's credits and every
// transmit channel's credits are returned. PIO: random (b) beats into the core, (a) beats taken
// with a random ready. Everything the core emits is folded into 32-bit signature registers
// (MISRs) that the serial bridge can read, so synthesis cannot remove any output bit.
//
// Parameters:
//   LineBytes, NumLines, DevBase - the core's geometry (addresses are drawn over a power-of-two
//                                  span that covers the device, so some fall outside it)
//   RxDepth, TxCredits           - the core's receive depth and transmit credits
// Ports:
//   clk_i, rst_ni     - clock, active-low asynchronous reset
//   en_link_i         - generate link traffic
//   en_pio_i          - generate PIO stream traffic
//   seed_valid_i, seed_i - reload the random generator
//   agent_id_i        - the core's agent id (destination of requests)
//   rx_*, tx_*        - connect to the core's link ports (directions as seen by the core)
//   pa_*, pb_*        - connect to the core's PIO stream ports
//   sig_link_o, sig_pio_o - signatures of everything the core sent on the link / on (a)
//   n_sent_o, n_recv_o    - messages sent to / received from the core
`default_nettype none

module cni_fpga_exerciser #(
  parameter int          LineBytes = 128,
  parameter int          NumLines  = 1024,
  parameter logic [47:0] DevBase   = 48'h10_0000_0000,
  parameter int          RxDepth   = 8,
  parameter int          TxCredits = 8,
  localparam int LineBits = LineBytes * 8,
  localparam int HdrW     = cni_coh_pkg::HDR_W
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  input  wire logic                en_link_i,
  input  wire logic                en_pio_i,
  input  wire logic                seed_valid_i,
  input  wire logic [63:0]         seed_i,
  input  wire logic [cni_coh_pkg::AGENT_W-1:0] agent_id_i,
  // to the core's link receive side
  output logic                     rx_req_valid_o,
  output logic [HdrW-1:0]          rx_req_hdr_o,
  output logic [LineBits-1:0]      rx_req_data_o,
  input  wire logic                rx_req_credit_i,
  output logic                     rx_fwd_valid_o,
  output logic [HdrW-1:0]          rx_fwd_hdr_o,
  input  wire logic                rx_fwd_credit_i,
  output logic                     rx_rsp_valid_o,
  output logic [HdrW-1:0]          rx_rsp_hdr_o,
  output logic [LineBits-1:0]      rx_rsp_data_o,
  input  wire logic                rx_rsp_credit_i,
  output logic                     rx_dat_valid_o,
  output logic [HdrW-1:0]          rx_dat_hdr_o,
  input  wire logic                rx_dat_credit_i,
  // from the core's link transmit side
  input  wire logic                tx_fwd_valid_i,
  input  wire logic [HdrW-1:0]     tx_fwd_hdr_i,
  output logic                     tx_fwd_credit_o,
  input  wire logic                tx_rsp_valid_i,
  input  wire logic [HdrW-1:0]     tx_rsp_hdr_i,
  output logic                     tx_rsp_credit_o,
  input  wire logic                tx_dat_valid_i,
  input  wire logic [HdrW-1:0]     tx_dat_hdr_i,
  input  wire logic [LineBits-1:0] tx_dat_data_i,
  output logic                     tx_dat_credit_o,
  // PIO streams
  input  wire logic                pa_valid_i,
  output logic                     pa_ready_o,
  input  wire logic [LineBits-1:0] pa_data_i,
  input  wire logic [15:0]         pa_len_i,
  input  wire logic                pa_last_i,
  output logic                     pb_valid_o,
  input  wire logic                pb_ready_i,
  output logic [LineBits-1:0]      pb_data_o,
  output logic [15:0]              pb_len_o,
  output logic                     pb_last_o,
  // status
  output logic [31:0]              sig_link_o,
  output logic [31:0]              sig_pio_o,
  output logic [31:0]              n_sent_o,
  output logic [31:0]              n_recv_o
);

  localparam int OffW  = $clog2(LineBytes);
  localparam int SpanW = $clog2(NumLines) + 1;  // twice the device: half the draws miss it
  localparam int CrW   = $clog2(RxDepth + 1);
  localparam logic [7:0] LEN_LINE = 8'(LineBytes);

  // ---- random source: xorshift64, one step per cycle -------------------------------------------
  logic [63:0] rnd_q, rnd_d;
  always_comb begin
    rnd_d = rnd_q ^ (rnd_q << 13);
    rnd_d = rnd_d ^ (rnd_d >> 7);
    rnd_d = rnd_d ^ (rnd_d << 17);
  end

  // Line-wide data: a shift register fed 64 fresh bits per cycle, so every data bit the core
  // sees is an independent register (nothing for synthesis to merge).
  logic [LineBits-1:0] data_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rnd_q <= 64'h9E37_79B9_7F4A_7C15;
    end else if (seed_valid_i) begin
      rnd_q <= (seed_i == '0) ? 64'h9E37_79B9_7F4A_7C15 : seed_i;
    end else begin
      rnd_q <= rnd_d;
    end
  end

  always_ff @(posedge clk_i) begin
    data_q <= {data_q[LineBits-65:0], rnd_q};
  end

  // ---- receive-side credits (one counter per channel: REQ, FWD, RSP, DAT) ----------------------
  // A returned credit is counted one cycle after the core returns it (`credit_back` is a
  // register): the core's credit returns come from its home agent's take of a message, so the
  // counters start from flip-flops. Counting late only holds a message back a cycle more.
  logic [CrW-1:0] cr_q [4];
  logic [3:0]     send, credit_back;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      credit_back <= '0;
      for (int c = 0; c < 4; c++) cr_q[c] <= CrW'(RxDepth);
    end else begin
      credit_back <= {rx_dat_credit_i, rx_rsp_credit_i, rx_fwd_credit_i, rx_req_credit_i};
      for (int c = 0; c < 4; c++) begin
        if (send[c] && !credit_back[c]) cr_q[c] <= cr_q[c] - 1'b1;
        else if (!send[c] && credit_back[c]) cr_q[c] <= cr_q[c] + 1'b1;
      end
    end
  end

  // ---- snoops the core sent, waiting for an answer ---------------------------------------------
  logic            snp_valid, snp_pop;
  cni_coh_pkg::hdr_t snp_hdr;
  logic [$clog2(TxCredits + 1)-1:0] snp_cnt;

  cni_fifo #(.Width(HdrW), .Depth(TxCredits)) u_snp (
    .clk_i, .rst_ni,
    .in_valid_i (tx_fwd_valid_i),
    // The core holds TxCredits FWD credits and this FIFO returns one per answer, so it never
    // overflows.
    /* verilator lint_off PINCONNECTEMPTY */
    .in_ready_o (),
    /* verilator lint_on PINCONNECTEMPTY */
    .in_data_i  (tx_fwd_hdr_i),
    .out_valid_o(snp_valid),
    .out_ready_i(snp_pop),
    .out_data_o (snp_hdr),
    .count_o    (snp_cnt)
  );

  // ---- message generation ----------------------------------------------------------------------
  // A request: opcode from rnd[1:0], source agent rnd[3:2], line from rnd[SpanW+15:16],
  // tag rnd[47:40]; rnd[63:58] == 0 makes it malformed (opcode 0).
  logic [4:0]            g_op;
  logic [SpanW-1:0]      g_line;
  logic [47:0]           g_addr;
  cni_coh_pkg::hdr_t     g_req, g_snp, g_stray;

  always_comb begin
    unique case (rnd_q[1:0])
      2'd0:    g_op = cni_coh_pkg::OP_RDS;
      2'd1:    g_op = cni_coh_pkg::OP_RDX;
      2'd2:    g_op = cni_coh_pkg::OP_UPG;
      default: g_op = cni_coh_pkg::OP_WB;
    endcase
    if (rnd_q[63:58] == '0) g_op = '0;
    g_line = rnd_q[16 +: SpanW];
    g_addr = DevBase + (48'(g_line) << OffW);

    g_req       = '0;
    g_req.op    = g_op;
    g_req.src   = {2'b00, rnd_q[3:2]};
    g_req.dst   = agent_id_i;
    g_req.tag   = rnd_q[47:40];
    g_req.len   = (g_op == cni_coh_pkg::OP_WB) ? LEN_LINE : 8'd0;
    g_req.addr  = g_addr;

    // Answer to the oldest snoop: SnpData (dirty) or SnpAck, by rnd[4].
    g_snp       = snp_hdr;
    g_snp.op    = rnd_q[4] ? cni_coh_pkg::OP_SNP_DATA : cni_coh_pkg::OP_SNP_ACK;
    g_snp.src   = snp_hdr.dst;      // the snoop's destination (a host agent) answers
    g_snp.dst   = snp_hdr.src;      // to the core
    g_snp.flags = {3'b000, rnd_q[5] && !rnd_q[4]};  // now and then "write-back pending"
    g_snp.len   = rnd_q[4] ? LEN_LINE : 8'd0;

    // A stray message for FWD/DAT: a snoop or a grant the core never asked for.
    g_stray      = g_req;
    g_stray.op   = rnd_q[6] ? cni_coh_pkg::OP_FWD_INV : cni_coh_pkg::OP_DATA_S;
  end

  wire cr_req = cr_q[0] != '0, cr_fwd = cr_q[1] != '0, cr_rsp = cr_q[2] != '0,
       cr_dat = cr_q[3] != '0;

  assign send[0] = en_link_i && cr_req && rnd_q[7];
  assign send[1] = en_link_i && cr_fwd && rnd_q[15:8] == 8'hA5;
  assign send[2] = cr_rsp && snp_valid;   // snoops are always answered
  assign send[3] = en_link_i && cr_dat && rnd_q[15:8] == 8'h5A;
  assign snp_pop = send[2];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rx_req_valid_o  <= 1'b0;
      rx_fwd_valid_o  <= 1'b0;
      rx_rsp_valid_o  <= 1'b0;
      rx_dat_valid_o  <= 1'b0;
      tx_fwd_credit_o <= 1'b0;
      tx_rsp_credit_o <= 1'b0;
      tx_dat_credit_o <= 1'b0;
    end else begin
      rx_req_valid_o  <= send[0];
      rx_fwd_valid_o  <= send[1];
      rx_rsp_valid_o  <= send[2];
      rx_dat_valid_o  <= send[3];
      // The link takes every message offered: RSP and DAT slots free at once, FWD slots when
      // the snoop has been answered.
      tx_fwd_credit_o <= snp_pop;
      tx_rsp_credit_o <= tx_rsp_valid_i;
      tx_dat_credit_o <= tx_dat_valid_i;
    end
  end

  always_ff @(posedge clk_i) begin
    rx_req_hdr_o <= g_req;
    rx_fwd_hdr_o <= g_stray;
    rx_rsp_hdr_o <= g_snp;
    rx_dat_hdr_o <= g_stray;
  end
  assign rx_req_data_o = data_q;
  assign rx_rsp_data_o = data_q;

  // ---- PIO streams -------------------------------------------------------------------------------
  // (b): a beat is offered with probability 1/4 and held until taken; its length field is small
  // (0..511 bytes), last by rnd[23]. The data is the live shift register: the core samples it on
  // the handshake.
  // (a): taken with probability 1/2 (always while PIO traffic is off), from a register: the
  // ready fans out to the core's line-wide (a) registers.
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      pb_valid_o <= 1'b0;
      pb_len_o   <= '0;
      pb_last_o  <= 1'b0;
      pa_ready_o <= 1'b1;
    end else begin
      pa_ready_o <= !en_pio_i || rnd_q[22];
      if (!pb_valid_o || pb_ready_i) begin
        pb_valid_o <= en_pio_i && rnd_q[21:20] == 2'b11;
        pb_len_o   <= {7'd0, rnd_q[32:24]};
        pb_last_o  <= rnd_q[23];
      end
    end
  end
  assign pb_data_o  = data_q;

  // ---- signatures and counts -------------------------------------------------------------------
  localparam int LinkW = 3 * (HdrW + 1) + LineBits;
  localparam int PioW  = LineBits + 18;

  function automatic logic [31:0] misr(input logic [31:0] s, input logic [31:0] in);
    misr = {s[30:0], s[31] ^ s[21] ^ s[1] ^ s[0]} ^ in;
  endfunction

  logic [LinkW-1:0] link_bits;
  logic [PioW-1:0]  pio_bits;
  logic [31:0]      link_fold, pio_fold;
  // The folds and the (a) handshake are registered before the signatures take them (the folds
  // are XOR trees over the core's line-wide outputs): a signature is one cycle late.
  logic [31:0]      link_fold_q, pio_fold_q;
  logic             pa_take_q;
  logic [2:0]       n_sent_inc_q;   // messages sent last cycle (0..4)
  logic [1:0]       n_recv_inc_q;   // messages received last cycle (0..3)

  assign link_bits = {tx_fwd_valid_i, tx_fwd_hdr_i, tx_rsp_valid_i, tx_rsp_hdr_i,
                      tx_dat_valid_i, tx_dat_hdr_i, tx_dat_data_i};
  assign pio_bits  = {pa_valid_i && pa_ready_o, pa_last_i, pa_len_i, pa_data_i};

  always_comb begin
    link_fold = '0;
    for (int i = 0; i < LinkW; i++) link_fold[i % 32] = link_fold[i % 32] ^ link_bits[i];
    pio_fold = '0;
    for (int i = 0; i < PioW; i++) pio_fold[i % 32] = pio_fold[i % 32] ^ pio_bits[i];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      sig_link_o <= '0;
      sig_pio_o  <= '0;
      n_sent_o   <= '0;
      n_recv_o   <= '0;
    end else begin
      sig_link_o <= misr(sig_link_o, link_fold_q);
      if (pa_take_q) sig_pio_o <= misr(sig_pio_o, pio_fold_q);
      n_sent_o <= n_sent_o + 32'(n_sent_inc_q);
      n_recv_o <= n_recv_o + 32'(n_recv_inc_q);
    end
  end

  // The counts add the previous cycle's messages, registered as small sums, so the 32-bit adders
  // start from flip-flops instead of the core's link handshakes (a count is one cycle late).
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      link_fold_q  <= '0;
      pio_fold_q   <= '0;
      pa_take_q    <= 1'b0;
      n_sent_inc_q <= '0;
      n_recv_inc_q <= '0;
    end else begin
      link_fold_q  <= link_fold;
      pio_fold_q   <= pio_fold;
      pa_take_q    <= pa_valid_i && pa_ready_o;
      n_sent_inc_q <= 3'(send[0]) + 3'(send[1]) + 3'(send[2]) + 3'(send[3]);
      n_recv_inc_q <= 2'(tx_fwd_valid_i) + 2'(tx_rsp_valid_i) + 2'(tx_dat_valid_i);
    end
  end

  // Never used: the snoop FIFO's fill level (bounded by the core's FWD credits).
  logic unused;
  assign unused = ^snp_cnt;

endmodule
