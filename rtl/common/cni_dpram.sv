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
// same-clock true dual-port memory to them instead of flip-flops. The simulation check below
// flags both cases.
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

  always_ff @(posedge clk_i) begin
    if (a_en_i) begin
      if (a_we_i) mem_q[a_addr_i] <= a_wd_i;
      else a_rd_o <= mem_q[a_addr_i];
    end
  end

  always_ff @(posedge clk_i) begin
    if (b_en_i) begin
      if (b_we_i) mem_q[b_addr_i] <= b_wd_i;
      else b_rd_o <= mem_q[b_addr_i];
    end
  end

  // ---- checks (simulation; Yosys reads this file for synthesis and for formal harnesses) ----
`ifndef SYNTHESIS
`ifndef FORMAL
  always_ff @(posedge clk_i) begin
    if (a_en_i && b_en_i && a_addr_i == b_addr_i && (a_we_i || b_we_i)) begin
      $error("cni_dpram: one port writes a word the other port accesses in the same cycle");
    end
  end
`endif
`endif

endmodule
