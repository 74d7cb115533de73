// SPDX-License-Identifier: Apache-2.0
// True dual-port RAM, one clock, synchronous read (read data the cycle after the enable, held
// until the next read on that port); maps to block RAM.
//
// Parameters:
//   Width - bits per word
//   Words - number of words
// Ports (per port a and b):
//   en_i   - access this cycle
//   we_i   - write (with en_i); a write does not update rd_o
//   addr_i, wd_i, rd_o
// Both ports writing one word in one cycle is undefined, and so is what a port reads in the
// cycle the other port writes the same word: block RAMs do not define either (ECP5 DP16KD,
// Xilinx RAMB36 in the mode used here), and saying so (`no_rw_check`) is what lets Yosys map a
// same-clock true dual-port memory to them instead of flip-flops. In simulation both store or
// return random bits (see the end of the module).
`default_nettype none

module cni_dpram #(
  parameter int Width = 1024,
  parameter int Words = 256,
  localparam int AW = (Words > 1) ? $clog2(Words) : 1
) (
  input  wire logic             clk_i,
  input  wire logic             a_en_i,
  input  wire logic             a_we_i,
  input  wire logic [AW-1:0]    a_addr_i,
  input  wire logic [Width-1:0] a_wd_i,
  output logic [Width-1:0]      a_rd_o,
  input  wire logic             b_en_i,
  input  wire logic             b_we_i,
  input  wire logic [AW-1:0]    b_addr_i,
  input  wire logic [Width-1:0] b_wd_i,
  output logic [Width-1:0]      b_rd_o
);

  (* no_rw_check *) logic [Width-1:0] mem_q [Words];
  logic [Width-1:0] a_rd_q, b_rd_q;
  logic             a_wr_ok;  // port a's write goes to memory
  logic [Width-1:0] b_wd;     // what port b writes

  always_ff @(posedge clk_i) begin
    if (a_en_i) begin
      if (a_we_i) begin
        if (a_wr_ok) mem_q[a_addr_i] <= a_wd_i;
      end else begin
        a_rd_q <= mem_q[a_addr_i];
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (b_en_i) begin
      if (b_we_i) mem_q[b_addr_i] <= b_wd;
      else b_rd_q <= mem_q[b_addr_i];
    end
  end

`ifdef SYNTHESIS
  assign a_wr_ok = 1'b1;
  assign b_wd    = b_wd_i;
  assign a_rd_o  = a_rd_q;
  assign b_rd_o  = b_rd_q;
`elsif FORMAL
  assign a_wr_ok = 1'b1;
  assign b_wd    = b_wd_i;
  assign a_rd_o  = a_rd_q;
  assign b_rd_o  = b_rd_q;
`else
  // ---- simulation: the undefined cases made visible ------------------------------------------
  // Both ports writing one word store random bits; a read of the word the other port writes
  // returns random bits (what a block RAM may do). A user that relies on either fails its data
  // checks instead of passing on the simulator's ordering. (Only hosts that break the protocol
  // on PIO lines cause either: the home agent reads a line for every message it looks at, but
  // uses the data only for grants.)
  if (Width % 32 != 0) begin : g_bad_width
    $error("cni_dpram: simulation model needs Width to be a multiple of 32");
  end
  wire same  = a_en_i && b_en_i && a_addr_i == b_addr_i;
  wire both  = same && a_we_i && b_we_i;
  wire a_col = same && !a_we_i && b_we_i;
  wire b_col = same && !b_we_i && a_we_i;
  logic             a_col_q, b_col_q;
  logic [Width-1:0] junk_q;  // refreshed at each collision; the next one uses it
  always_ff @(posedge clk_i) begin
    if (a_en_i) a_col_q <= a_col;
    if (b_en_i) b_col_q <= b_col;
    if (a_col || b_col || both) begin
      for (int w = 0; w < Width; w += 32) junk_q[w +: 32] <= $urandom;
    end
  end
  assign a_wr_ok = !both;
  assign b_wd    = both ? junk_q : b_wd_i;
  assign a_rd_o  = a_col_q ? junk_q : a_rd_q;
  assign b_rd_o  = b_col_q ? junk_q : b_rd_q;
`endif

endmodule
