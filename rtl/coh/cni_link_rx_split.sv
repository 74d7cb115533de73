// SPDX-License-Identifier: Apache-2.0
// One receive virtual channel of the coherent link split at arrival into two buffers (say, the
// home agent's messages and the rest), each Depth deep, behind one credit count: the peer holds
// Depth credits for the channel, so neither buffer can fill past them, and each consumer sees
// its own head with flags from flip-flops (no decode of the other's head on its path). Both
// buffers may free a slot in one cycle; the link takes one credit pulse per cycle, so the
// second waits in a count.
//
// Parameters:
//   WidthA, WidthB - bits kept per message in buffer A / buffer B (each keeps what its consumer
//                    uses)
//   Depth          - slots per buffer = credits the peer starts with
//   RegWA          - buffer A's head: its top RegWA bits from a register (cni_link_rx_ch RegW)
// Ports:
//   link_valid_i                  - from the link; no ready: the peer only sends holding a credit
//   link_to_b_i                   - the arriving message goes to buffer B (else A)
//   link_data_a_i, link_data_b_i  - what each buffer keeps of it
//   credit_o                      - one-cycle pulse per credit returned to the peer
//   overflow_o                    - one-cycle pulse: a message arrived with its buffer full
//   a_*, b_*                      - the two consumers (valid/ready; they may stall)
//   idle_o                        - both buffers empty and no credit owed: nothing changes
//                                   until a message arrives
`default_nettype none

module cni_link_rx_split #(
  parameter int WidthA = 81,
  parameter int WidthB = 81,
  parameter int Depth  = 8,
  parameter int RegWA  = 0
) (
  input  wire logic              clk_i,
  input  wire logic              rst_ni,
  input  wire logic              link_valid_i,
  input  wire logic              link_to_b_i,
  input  wire logic [WidthA-1:0] link_data_a_i,
  input  wire logic [WidthB-1:0] link_data_b_i,
  output logic                   credit_o,
  output logic                   overflow_o,
  output logic                   a_valid_o,
  input  wire logic              a_ready_i,
  output logic [WidthA-1:0]      a_data_o,
  output logic                   b_valid_o,
  input  wire logic              b_ready_i,
  output logic [WidthB-1:0]      b_data_o,
  output logic                   idle_o
);

  logic a_credit, b_credit, a_ovf, b_ovf;

  cni_link_rx_ch #(.Width(WidthA), .Depth(Depth), .RegW(RegWA)) u_a (
    .clk_i, .rst_ni,
    .link_valid_i (link_valid_i && !link_to_b_i),
    .link_data_i  (link_data_a_i),
    .credit_o     (a_credit),
    .overflow_o   (a_ovf),
    .out_valid_o  (a_valid_o),
    .out_ready_i  (a_ready_i),
    .out_data_o   (a_data_o)
  );
  cni_link_rx_ch #(.Width(WidthB), .Depth(Depth)) u_b (
    .clk_i, .rst_ni,
    .link_valid_i (link_valid_i && link_to_b_i),
    .link_data_i  (link_data_b_i),
    .credit_o     (b_credit),
    .overflow_o   (b_ovf),
    .out_valid_o  (b_valid_o),
    .out_ready_i  (b_ready_i),
    .out_data_o   (b_data_o)
  );

  // The buffers' credit pulses (their consumers' pops) are registered before the count, so the
  // consumers' handshakes end at two flip-flops, not in the count's adder: a credit goes back
  // one cycle later.
  localparam int CrW = $clog2(2 * Depth + 1);
  logic [CrW-1:0] cr_q;
  logic           a_cr_q, b_cr_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      cr_q   <= '0;
      a_cr_q <= 1'b0;
      b_cr_q <= 1'b0;
    end else begin
      a_cr_q <= a_credit;
      b_cr_q <= b_credit;
      cr_q   <= cr_q + CrW'(a_cr_q) + CrW'(b_cr_q) - CrW'(cr_q != '0);
    end
  end
  assign credit_o   = cr_q != '0;
  assign idle_o     = !a_valid_o && !b_valid_o && cr_q == '0 && !a_cr_q && !b_cr_q;
  assign overflow_o = a_ovf || b_ovf;

endmodule
