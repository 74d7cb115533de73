// SPDX-License-Identifier: Apache-2.0
// What the PIO engine's (a) and (b) channels share: the byte masks of a message's beats (bit i:
// byte i of the beat carries payload), kept as flip-flops beside the byte counts.
`ifndef CNI_PIO_PKG_SV
`define CNI_PIO_PKG_SV
`default_nettype none

package cni_pio_pkg;

  localparam int MAX_LINE_BYTES = 128;

  // The first beat of a message of `len` bytes capped at `cap`, for lines of `lb` bytes (bits
  // at and above `lb` are zero).
  function automatic logic [MAX_LINE_BYTES-1:0] len_mask(input logic [15:0] len, input int cap,
                                                         input int lb);
    for (int i = 0; i < MAX_LINE_BYTES; i++) len_mask[i] = i < lb && len > 16'(i) && cap > i;
  endfunction

  // The beat after one with `rem` bytes from its start on.
  function automatic logic [MAX_LINE_BYTES-1:0] next_mask(input logic [15:0] rem, input int lb);
    for (int i = 0; i < MAX_LINE_BYTES; i++) next_mask[i] = i < lb && rem > 16'(lb + i);
  endfunction

endpackage

`endif
