// SPDX-License-Identifier: Apache-2.0
// Demo accelerator behind PIO protocol (c): k = 8 Bloom-filter hashes of one line-sized element,
// XOR/rotate fold plus a shift/add avalanche, in four register stages (latency 4 cycles).
//
// Definition (mirrored bit for bit by tb/bloom_ref.hpp; see docs/pio.md):
//   w_j  = 32-bit little-endian word j of the element, j = 0 .. LineBytes/4-1
//   K_i  = 0x9E3779B9 * (i + 1) mod 2^32,                            i = 0 .. 7
//   u_j  = w_j ^ (0x85EBCA6B * (j + 1) mod 2^32)
//   v_j  = u_j ^ (~rotl(u_j, 1) & rotl(u_j, 2))                     (Keccak chi: nonlinear)
//   f_i  = K_i ^ XOR_j rotl(v_j, ((2i + 5) j + 7i + 1) mod 32)
//   h_i  = avalanche(f_i): x ^= x << 13; x ^= x >> 17; x ^= x << 5;     (xorshift32)
//                          x += x << 3;  x ^= x >> 11; x += x << 15;    (one-at-a-time final)
//   out bytes [4i, 4i+4)        = h_i, little endian
//   out bytes [32, LineBytes)   = element bytes [32, LineBytes) XOR 0xFF
// Stages: 0 registers the element (a block RAM's read port then drives one flip-flop per bit
// instead of the whole hash network); 1 registers the chi step of every word, shared by the
// eight hashes (one 3-input gate per element bit, on neighbouring bits only); 2 is, per hash,
// the rotations (wiring: each registered chi bit feeds one XOR tree per hash) and a 32-bit XOR
// tree of depth log2(words) into a registered fold; 3 is four xorshifts and two 32-bit adders
// into the registered result. The split and the shared chi step are for FPGA timing and
// routing (docs/fpga.md, "ECP5: timing and routing"). No multipliers (the products above are
// constants).
//
// Parameters:
//   LineBytes - element and result size in bytes (multiple of 4, >= 32)
// Ports:
//   clk_i, rst_ni            - clock, active-low asynchronous reset
//   in_valid_i, in_data_i    - element (byte b at bits [8b+7:8b]); no back-pressure
//   out_valid_o, out_data_o  - one-cycle pulse four cycles after in_valid_i; out_data_o holds
//                              the result from that pulse until two cycles after the next
//                              in_valid_i
`default_nettype none

module cni_bloom #(
  parameter int LineBytes = 128
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  input  wire logic                   in_valid_i,
  input  wire logic [LineBytes*8-1:0] in_data_i,
  output logic                        out_valid_o,
  output logic [LineBytes*8-1:0]      out_data_o
);

  localparam int DW = LineBytes * 8;
  localparam int NW = LineBytes / 4;  // 32-bit words per element
  localparam int NH = 8;              // hashes

  if (LineBytes < 32 || (LineBytes % 4) != 0) begin : g_bad_line
    $error("cni_bloom: LineBytes must be a multiple of 4 and at least 32");
  end

  logic [DW-1:0]       elem_q;
  logic                elem_valid_q;
  logic [DW-1:0]       chi_d, chi_q;   // the chi step of every word
  logic                chi_valid_q;
  logic [32*NH-1:0]    fold_d, fold_q, hash;
  logic                fold_valid_q;

  // stage 1: chi of the registered element
  for (genvar j = 0; j < NW; j++) begin : g_word
    localparam logic [31:0] C = 32'h85EB_CA6B * (j + 1);
    logic [31:0] u;
    assign u = elem_q[32*j +: 32] ^ C;
    assign chi_d[32*j +: 32] = u ^ (~{u[30:0], u[31]} & {u[29:0], u[31:30]});
  end

  for (genvar i = 0; i < NH; i++) begin : g_hash
    localparam logic [31:0] K = 32'h9E37_79B9 * (i + 1);
    logic [NW*32-1:0] t;  // rotated chi of each word
    logic [31:0] fold;
    logic [31:0] x0, x1, x2, x3, x4, x5;

    // stage 2: rotl(v_j, R) of the registered chi; for R = 0 both terms are v_j, the identity.
    for (genvar j = 0; j < NW; j++) begin : g_rot
      localparam int R = ((2 * i + 5) * j + 7 * i + 1) % 32;
      logic [31:0] v;
      assign v = chi_q[32*j +: 32];
      assign t[32*j +: 32] = (v << R) | (v >> ((32 - R) % 32));
    end

    always_comb begin
      fold = K;
      for (int j = 0; j < NW; j++) fold = fold ^ t[32*j +: 32];
    end
    assign fold_d[32*i +: 32] = fold;

    // stage 3: avalanche of the registered fold
    assign x0 = fold_q[32*i +: 32] ^ (fold_q[32*i +: 32] << 13);
    assign x1 = x0 ^ (x0 >> 17);
    assign x2 = x1 ^ (x1 << 5);
    assign x3 = x2 + (x2 << 3);
    assign x4 = x3 ^ (x3 >> 11);
    assign x5 = x4 + (x4 << 15);
    assign hash[32*i +: 32] = x5;
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      elem_valid_q <= 1'b0;
      chi_valid_q  <= 1'b0;
      fold_valid_q <= 1'b0;
      out_valid_o  <= 1'b0;
    end else begin
      elem_valid_q <= in_valid_i;
      chi_valid_q  <= elem_valid_q;
      fold_valid_q <= chi_valid_q;
      out_valid_o  <= fold_valid_q;
    end
  end

  // The tail needs no hashing: it goes straight to the output register in stage 1.
  always_ff @(posedge clk_i) begin
    if (in_valid_i) elem_q <= in_data_i;
    if (elem_valid_q) begin
      chi_q                  <= chi_d;
      out_data_o[DW-1:32*NH] <= ~elem_q[DW-1:32*NH];
    end
    if (chi_valid_q) fold_q <= fold_d;
    if (fold_valid_q) out_data_o[32*NH-1:0] <= hash;
  end

endmodule
