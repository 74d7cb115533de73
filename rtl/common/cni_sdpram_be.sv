// SPDX-License-Identifier: Apache-2.0
// Simple dual-port RAM with byte enables, one clock: port w writes the bytes its enables select,
// port r reads (data the cycle after the enable, held until the next read); maps to block RAM
// with byte-write enables.
//
// Parameters:
//   Bytes - bytes per word
//   Words - number of words
// Ports:
//   w_en_i, w_be_i, w_addr_i, w_wd_i - a write of the bytes w_be_i selects
//   r_en_i, r_addr_i, r_rd_o          - a read
// A read of the word written in the same cycle returns undefined data (a block RAM's read-write
// collision); in simulation, random bits for the bytes written.
`default_nettype none

module cni_sdpram_be #(
  parameter int Bytes = 64,
  parameter int Words = 256,
  localparam int W  = Bytes * 8,
  localparam int AW = (Words > 1) ? $clog2(Words) : 1
) (
  input  wire logic             clk_i,
  input  wire logic             w_en_i,
  input  wire logic [Bytes-1:0] w_be_i,
  input  wire logic [AW-1:0]    w_addr_i,
  input  wire logic [W-1:0]     w_wd_i,
  input  wire logic             r_en_i,
  input  wire logic [AW-1:0]    r_addr_i,
  output logic [W-1:0]          r_rd_o
);

  (* no_rw_check *) logic [W-1:0] mem_q [Words];
  logic [W-1:0] rd_q;

  always_ff @(posedge clk_i) begin
    if (w_en_i) begin
      for (int i = 0; i < Bytes; i++) begin
        if (w_be_i[i]) mem_q[w_addr_i][8*i +: 8] <= w_wd_i[8*i +: 8];
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (r_en_i) rd_q <= mem_q[r_addr_i];
  end

`ifdef SYNTHESIS
  assign r_rd_o = rd_q;
`elsif FORMAL
  assign r_rd_o = rd_q;
`else
  // Simulation: a read of the word written in the same cycle sees random bytes where written.
  logic [Bytes-1:0] col_q;
  logic [W-1:0]     junk_q;
  always_ff @(posedge clk_i) begin
    if (r_en_i) col_q <= (w_en_i && w_addr_i == r_addr_i) ? w_be_i : '0;
    if (r_en_i && w_en_i && w_addr_i == r_addr_i) begin
      for (int b = 0; b < W; b += 32) junk_q[b +: 32] <= $urandom;
    end
  end
  always_comb begin
    r_rd_o = rd_q;
    for (int i = 0; i < Bytes; i++) begin
      if (col_q[i]) r_rd_o[8*i +: 8] = junk_q[8*i +: 8];
    end
  end
`endif

endmodule
