// SPDX-License-Identifier: Apache-2.0
// The block-transfer engine's ORDERED predecessor (docs/xfer.md, "Ordered delivery"): for the
// record being streamed, prev, the youngest earlier ORDERED message of the same pair (sending
// slot, destination node and slot) still waiting for its reply. Records are taken in count order
// (record c mod Recs), so the candidates are the Recs - 1 records before it. Combinational.
//
// Parameters: Recs - sender records (a power of two)
// Ports:
//   a_i                          - the record streamed
//   ord_i, wait_i                - per record: ORDERED; waiting for its reply
//   c_i, spid_i, dst_i, dpid_i   - per record: count, sending slot, destination node and slot
//   pv_o, prev_o                 - a predecessor waits; its count
`default_nettype none

module cni_xfer_prev #(
  parameter int Recs = 4,
  localparam int RW  = $clog2(Recs)
) (
  input  wire logic [RW-1:0]         a_i,
  input  wire logic [Recs-1:0]       ord_i,
  input  wire logic [Recs-1:0]       wait_i,
  input  wire logic [Recs-1:0][15:0] c_i,
  input  wire logic [Recs-1:0][3:0]  spid_i,
  input  wire logic [Recs-1:0][15:0] dst_i,
  input  wire logic [Recs-1:0][3:0]  dpid_i,
  output logic                       pv_o,
  output logic [15:0]                prev_o
);

  logic [RW-1:0] j;
  always_comb begin
    pv_o   = 1'b0;
    prev_o = '0;
    j      = '0;
    for (int d = Recs - 1; d >= 1; d--) begin
      j = a_i - RW'(d);
      if (ord_i[a_i] && ord_i[j] && wait_i[j] && c_i[j] == c_i[a_i] - 16'(d) &&
          spid_i[j] == spid_i[a_i] && dst_i[j] == dst_i[a_i] && dpid_i[j] == dpid_i[a_i]) begin
        pv_o   = 1'b1;
        prev_o = c_i[j];
      end
    end
  end

endmodule
