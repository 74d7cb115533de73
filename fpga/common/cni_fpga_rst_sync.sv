// SPDX-License-Identifier: Apache-2.0
// Board helper (not part of the portable core): reset synchronizer. Asserts asynchronously,
// releases synchronously after Stages clock edges with the reset input and the clock-ready
// input both inactive.
//
// Parameters:
//   Stages - synchronizer depth (>= 2)
// Ports:
//   clk_i      - clock of the reset domain
//   arst_ni    - asynchronous reset request, active low (button, PLL not locked)
//   rst_no     - reset for the domain, active low
`default_nettype none

module cni_fpga_rst_sync #(
  parameter int Stages = 4
) (
  input  wire logic clk_i,
  input  wire logic arst_ni,
  output logic      rst_no
);

  logic [Stages-1:0] sync_q;

  always_ff @(posedge clk_i or negedge arst_ni) begin
    if (!arst_ni) sync_q <= '0;
    else sync_q <= {sync_q[Stages-2:0], 1'b1};
  end

  assign rst_no = sync_q[Stages-1];

endmodule
