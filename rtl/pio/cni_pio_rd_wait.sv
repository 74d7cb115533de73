// SPDX-License-Identifier: Apache-2.0
// Read-data wait of a PIO engine channel: a state that waits for its memory read's data (RdWait
// cycles after the request: 1, plus one per registered stage on the way) counts the cycles past
// the first and is left when the data is there.
//
// Parameters:
//   RdWait - cycles from the request to the data (1..4)
// Ports:
//   wait_i - the channel is in a state that waits for read data
//   ok_o   - the data is there this cycle
`default_nettype none
`include "cni_assert.svh"

module cni_pio_rd_wait #(
  parameter int RdWait = 1
) (
  input  wire logic clk_i,
  input  wire logic rst_ni,
  input  wire logic wait_i,
  output logic      ok_o
);

  if (RdWait < 1 || RdWait > 4) $error("cni_pio_rd_wait: RdWait must be 1..4");

  if (RdWait > 1) begin : g_count
    // ok_o is a flip-flop, loaded with the compare of the count it will hold, so the channel's
    // next state starts at a register rather than behind the count's compare
    logic [1:0] n_q;
    logic       ok_q;
    wire        run = wait_i && !ok_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        n_q  <= '0;
        ok_q <= 1'b0;
      end else begin
        n_q  <= run ? n_q + 2'd1 : 2'd0;
        ok_q <= run && n_q == 2'(RdWait - 2);
      end
    end
    assign ok_o = ok_q;
    `CNI_ASSERT(DataFlag_A, ok_q == (n_q == 2'(RdWait - 1)),
                "the data flag disagrees with its count")
  end else begin : g_now
    assign ok_o = 1'b1;
    wire unused = ^{clk_i, rst_ni, wait_i};
  end

endmodule
