// SPDX-License-Identifier: Apache-2.0
// Demo accelerator behind PIO protocol (c): k = 8 Bloom-filter hashes of one line-sized element,
// XOR/rotate fold plus a shift/add avalanche; latency 4 cycles, more when folded in groups.
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
// Fold in groups of FoldWords words, Horner style: with s_i = 2i + 5, word j = FoldWords*m + r,
//   H_im = XOR_r rotl(v_(FoldWords*m+r), s_i r),   acc_i = H_i,M-1;  acc_i = H_im ^ rotl(acc_i,
//   s_i FoldWords) for m = M-2 .. 0;  f_i = K_i ^ rotl(acc_i, 7i + 1)
// which is the definition above (M = words / FoldWords groups, highest group first).
// Stages: 0 registers the element (a block RAM's read port then drives one flip-flop per bit
// instead of the hash network); 1 registers the chi step of one group of words, shared by the
// eight hashes (one 3-input gate per bit, on neighbouring bits only), one group per cycle; 2
// folds the registered group into each hash's accumulator (the rotations are wiring: each
// registered chi bit feeds one XOR tree per hash), and registers beside it the linear start of
// stage 3 on the accumulator's next value (seed, final rotation, three xorshifts); 3 is the
// two 32-bit adders and the xorshift between them, into the registered result. Latency M + 3
// cycles: 4 with one group (the default), 7 with FoldWords = words / 4. Fewer words per cycle
// make the network between the chi register and the accumulators smaller, for FPGA routing
// (docs/fpga.md, "ECP5: timing and routing"). No multipliers (the products above are
// constants).
//
// Parameters:
//   LineBytes - element and result size in bytes (multiple of 4, >= 32)
//   FoldWords - 32-bit words folded per cycle (divides LineBytes/4; default all of them)
// Ports:
//   clk_i, rst_ni            - clock, active-low asynchronous reset
//   in_valid_i, in_data_i    - element (byte b at bits [8b+7:8b]); no back-pressure: the next
//                              in_valid_i comes at or after out_valid_o
//   out_valid_o, out_data_o  - one-cycle pulse M + 3 cycles after in_valid_i; out_data_o holds
//                              the result from that pulse until two cycles after the next
//                              in_valid_i
//   out_valid_next_o         - out_valid_o of the next cycle (a flip-flop), so a user can
//                              register what it does with the result
`default_nettype none
`include "cni_assert.svh"

module cni_bloom #(
  parameter int LineBytes = 128,
  parameter int FoldWords = LineBytes / 4
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  input  wire logic                   in_valid_i,
  input  wire logic [LineBytes*8-1:0] in_data_i,
  output logic                        out_valid_o,
  output logic [LineBytes*8-1:0]      out_data_o,
  output logic                        out_valid_next_o
);

  localparam int DW = LineBytes * 8;
  localparam int NW = LineBytes / 4;     // 32-bit words per element
  localparam int NG = NW / FoldWords;    // groups, folded one per cycle
  localparam int GW = 32 * FoldWords;    // group width in bits
  localparam int GIW = NG > 1 ? $clog2(NG) : 1;
  localparam int NH = 8;                 // hashes

  if (LineBytes < 32 || (LineBytes % 4) != 0) begin : g_bad_line
    $error("cni_bloom: LineBytes must be a multiple of 4 and at least 32");
  end
  if (FoldWords < 1 || (NW % FoldWords) != 0) begin : g_bad_fold
    $error("cni_bloom: FoldWords must divide LineBytes/4");
  end

  logic [DW-1:0]       elem_q;
  logic                elem_valid_q;
  logic [GIW-1:0]      grp_q;          // group whose chi step is taken this cycle
  logic                chi_busy_q;     // groups left to take
  logic [GW-1:0]       chi_q;          // the chi step of one group
  logic                chi_valid_q, chi_first_q, chi_last_q;
  logic [32*NH-1:0]    acc_q;
  logic [32*NH-1:0]    lin_q;          // stage 3's linear start, on the accumulator's value
  logic                acc_valid_q;

  // Rotate left by a constant: wiring.
  function automatic logic [31:0] rotl(input logic [31:0] x, input int r);
    rotl = (r % 32 == 0) ? x : (x << (r % 32)) | (x >> (32 - r % 32));
  endfunction

  // The stages' logic, as functions called in the clocked block under the enables of the
  // registers they load: the same network, but a simulator evaluates it only in the cycles that
  // load its result (the engine waits for hosts most of the time).

  // Word j's constant 0x85EBCA6B * (j + 1), for every word (constants: no multipliers).
  logic [DW-1:0] wc;
  for (genvar j = 0; j < NW; j++) begin : g_wc
    localparam logic [31:0] C = 32'h85EB_CA6B * (j + 1);
    assign wc[32*j +: 32] = C;
  end

  // Stage 1: the chi step of a group's words w, their constants c folded in.
  function automatic logic [GW-1:0] chi_of(input logic [GW-1:0] w, input logic [GW-1:0] c);
    logic [31:0] u;
    for (int r = 0; r < FoldWords; r++) begin
      u = w[32*r +: 32] ^ c[32*r +: 32];
      chi_of[32*r +: 32] = u ^ (~rotl(u, 1) & rotl(u, 2));
    end
  endfunction

  // Stage 2: H_i = XOR_r rotl(v_r, S r) of a group's chi words, into each hash's accumulator.
  function automatic logic [32*NH-1:0] acc_of(input logic [GW-1:0] chi,
                                             input logic [32*NH-1:0] acc, input logic first);
    logic [31:0] h;
    for (int i = 0; i < NH; i++) begin
      h = '0;
      for (int r = 0; r < FoldWords; r++) h = h ^ rotl(chi[32*r +: 32], (2 * i + 5) * r);
      acc_of[32*i +: 32] = first ? h : h ^ rotl(acc[32*i +: 32], (2 * i + 5) * FoldWords);
    end
  endfunction

  // Stage 3's linear start (XORs only), taken in stage 2 on the accumulator's next value: the
  // seed K_i = 0x9E3779B9 * (i + 1), the final rotation and three xorshifts.
  function automatic logic [32*NH-1:0] lin_of(input logic [32*NH-1:0] acc);
    logic [31:0] f, x0, x1;
    for (int i = 0; i < NH; i++) begin
      f  = (32'h9E37_79B9 * 32'(i + 1)) ^ rotl(acc[32*i +: 32], 7 * i + 1);
      x0 = f ^ (f << 13);
      x1 = x0 ^ (x0 >> 17);
      lin_of[32*i +: 32] = x1 ^ (x1 << 5);
    end
  endfunction

  // Stage 3: the rest of the avalanche.
  function automatic logic [32*NH-1:0] hash_of(input logic [32*NH-1:0] lin);
    logic [31:0] x2, x3, x4;
    for (int i = 0; i < NH; i++) begin
      x2 = lin[32*i +: 32];
      x3 = x2 + (x2 << 3);
      x4 = x3 ^ (x3 >> 11);
      hash_of[32*i +: 32] = x4 + (x4 << 15);
    end
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      elem_valid_q <= 1'b0;
      chi_busy_q   <= 1'b0;
      grp_q        <= '0;
      chi_valid_q  <= 1'b0;
      chi_first_q  <= 1'b0;
      chi_last_q   <= 1'b0;
      acc_valid_q  <= 1'b0;
      out_valid_o  <= 1'b0;
    end else begin
      elem_valid_q <= in_valid_i;
      // Groups are taken highest first, one per cycle, from the cycle the element is registered.
      if (in_valid_i) begin
        chi_busy_q <= 1'b1;
        grp_q      <= GIW'(NG - 1);
      end else if (chi_busy_q) begin
        chi_busy_q <= grp_q != '0;
        if (grp_q != '0) grp_q <= grp_q - 1'b1;
      end
      chi_valid_q  <= chi_busy_q;
      chi_first_q  <= elem_valid_q;
      chi_last_q   <= chi_busy_q && grp_q == '0;
      acc_valid_q  <= chi_valid_q && chi_last_q;
      out_valid_o  <= acc_valid_q;
    end
  end
  assign out_valid_next_o = acc_valid_q;

  // The tail needs no hashing: it goes straight to the output register in stage 1.
  always_ff @(posedge clk_i) begin
    logic [32*NH-1:0] acc_d;
    if (in_valid_i) elem_q <= in_data_i;
    if (chi_busy_q) chi_q <= chi_of(elem_q[GW*grp_q +: GW], wc[GW*grp_q +: GW]);
    if (elem_valid_q) out_data_o[DW-1:32*NH] <= ~elem_q[DW-1:32*NH];
    if (chi_valid_q) begin
      acc_d = acc_of(chi_q, acc_q, chi_first_q);
      acc_q <= acc_d;
      lin_q <= lin_of(acc_d);
    end
    if (acc_valid_q) out_data_o[32*NH-1:0] <= hash_of(lin_q);
  end

  `CNI_ASSERT(OneAtATime_A,
              !(in_valid_i && (elem_valid_q || chi_busy_q || chi_valid_q || acc_valid_q)),
              "new element before the previous result")

endmodule
