// SPDX-License-Identifier: Apache-2.0
// The check behind `CNI_ASSERT_HOLD (cni_assert.svh): what a valid/ready output offers holds until
// it is taken. After a clock edge at which valid_i is high and ready_i low, valid_i is still high
// at the next edge and data_i unchanged (the stability rule of AMBA's handshakes). Simulation
// only (synthesis and the formal models see an empty module); the error names the instance, which
// the macro names after the check.
//
// Parameters:
//   Width                - data_i's width
// Ports:
//   valid_i, ready_i, data_i          - the handshake and what it offers
`default_nettype none

module cni_assert_hold #(
  parameter int Width = 1
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             valid_i,
  input  wire logic             ready_i,
  input  wire logic [Width-1:0] data_i
);

`ifndef SYNTHESIS
`ifndef FORMAL
  logic             wait_q;   // offered and not taken at the last edge
  logic [Width-1:0] prev_q;   // what was offered then
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) wait_q <= 1'b0;
    else wait_q <= valid_i && !ready_i;
  end
  always_ff @(posedge clk_i) prev_q <= data_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
    end else begin
      Hold_A: assert (!wait_q || (valid_i && data_i == prev_q))
        else $error("%m: an offer changed or was withdrawn before it was taken");
    end
  end
`endif
`endif

endmodule
