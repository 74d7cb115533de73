// SPDX-License-Identifier: Apache-2.0
// What the PIO engine's (a) and (b) channels share: the byte masks of a message's beats (bit i:
// byte i of the beat carries payload), kept as flip-flops beside the byte counts, and their
// expansion to bit masks; the overflow lines a message uses.
`ifndef CNI_PIO_PKG_SV
`define CNI_PIO_PKG_SV
`default_nettype none

package cni_pio_pkg;

  localparam int MAX_LINE_BYTES = 128;

  // The `n` low bits set (n <= MAX_LINE_BYTES): a shift, not a loop of compares, so that a
  // simulator evaluates it in a few word operations; a shift of ones, not (1 << n) - 1, so that
  // synthesis makes each bit a function of n's 8 bits (a few LUT levels), not a 129-bit carry
  // chain.
  function automatic logic [MAX_LINE_BYTES-1:0] low_ones(input logic [7:0] n);
    low_ones = ~({MAX_LINE_BYTES{1'b1}} << n);
  endfunction

  // The first beat of a message of `len` bytes capped at `cap`, for lines of `lb` bytes (bits
  // at and above `lb` are zero): bit i = i < lb && len > i && cap > i.
  function automatic logic [MAX_LINE_BYTES-1:0] len_mask(input logic [15:0] len, input int cap,
                                                         input int lb);
    int n;
    n = lb;
    if (cap < n) n = cap;
    if (32'(len) < 32'(n)) n = int'(len);
    len_mask = low_ones(8'(n));
  endfunction

  // The beat after one with `rem` bytes from its start on: bit i = i < lb && rem > lb + i, for
  // lines of `lb` bytes, a power of two (64 or 128, the protocol's sizes). From rem's bits
  // alone, with no arithmetic: rem >= 2 * lb sets every bit below lb; else bit i needs rem's lb
  // bit and its bits below lb to exceed i, which low_ones makes of them. So each mask bit is a
  // few LUTs of the count, not carry chains (a compare, a subtraction and a compare).
  function automatic logic [MAX_LINE_BYTES-1:0] next_mask(input logic [15:0] rem,
                                                          input logic [15:0] lb);
    if ((rem & ~((lb << 1) - 16'd1)) != 16'd0) next_mask = low_ones(8'(lb));
    else if ((rem & lb) != 16'd0)               next_mask = low_ones(8'(rem & (lb - 16'd1)));
    else                                        next_mask = '0;
  endfunction

  // Overflow lines a message of `len` bytes uses (its 8-byte header and payload fill lines of
  // `lb` bytes, a power of two, from the control line on): (len + 8 + lb - 1) / lb - 1, a shift.
  function automatic logic [15:0] ovf_lines(input logic [15:0] len, input int lb);
    ovf_lines = 16'((17'(len) + 17'd7) >> $clog2(lb));
  endfunction

  // The bit mask of a byte mask: byte i of the result is all ones where be[i] (32-bit words at a
  // time, so that a simulator unrolls it into word operations).
  function automatic logic [MAX_LINE_BYTES*8-1:0] byte_bits(input logic [MAX_LINE_BYTES-1:0] be);
    for (int w = 0; w < MAX_LINE_BYTES / 4; w++) begin
      byte_bits[32*w +: 32] = {{8{be[4*w+3]}}, {8{be[4*w+2]}}, {8{be[4*w+1]}}, {8{be[4*w]}}};
    end
  endfunction

endpackage

`endif
