// SPDX-License-Identifier: Apache-2.0
// Synchronous FIFO with valid/ready on both sides; registered storage, first-word fall-through.
//
// Parameters:
//   Width  - bits per entry
//   Depth  - entries (>= 1)
//   OutReg - 1: the head comes from a register (loaded as the entry it will show is written or
//            uncovered), not from a read of the storage: the same cycles, and the consumer's
//            logic starts at a flip-flop (Width more flip-flops)
//   OutRegLo, OutRegW - with OutReg, only the head's bits [OutRegLo +: OutRegW] come from the
//            register (say, a message's header, not its data); the default is every bit
// Ports:
//   clk_i, rst_ni               - clock, active-low asynchronous reset
//   in_valid_i/in_ready_o/in_data_i    - write side; in_ready_o = not full (never depends on valid)
//   out_valid_o/out_ready_i/out_data_o - read side; out_valid_o = not empty
//   count_o                     - entries held
`default_nettype none
`include "cni_assert.svh"

module cni_fifo #(
  parameter int Width = 8,
  parameter int Depth = 4,
  parameter bit OutReg = 1'b0,
  parameter int OutRegLo = 0,
  parameter int OutRegW = Width,
  localparam int PtrW = (Depth > 1) ? $clog2(Depth) : 1,
  localparam int CntW = $clog2(Depth + 1)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             in_valid_i,
  output logic                  in_ready_o,
  input  wire logic [Width-1:0] in_data_i,
  output logic                  out_valid_o,
  input  wire logic             out_ready_i,
  output logic [Width-1:0]      out_data_o,
  output logic [CntW-1:0]       count_o
);

  logic [Width-1:0] mem_q [Depth];
  logic [PtrW-1:0]  rd_q, wr_q;
  logic [CntW-1:0]  cnt_q;
  logic             nempty_q, nfull_q;  // cnt_q != 0, cnt_q != Depth, kept as flip-flops

  wire push = in_valid_i && in_ready_o;
  wire pop  = out_valid_o && out_ready_i;

  // The flags come from flip-flops, not from a compare of the count: the consumers (arbiters,
  // the home agent's input selection) start from them.
  assign in_ready_o  = nfull_q;
  assign out_valid_o = nempty_q;
  assign count_o     = cnt_q;

  function automatic logic [PtrW-1:0] inc(input logic [PtrW-1:0] p);
    inc = (p == PtrW'(Depth - 1)) ? '0 : p + 1'b1;
  endfunction

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q     <= '0;
      wr_q     <= '0;
      cnt_q    <= '0;
      nempty_q <= 1'b0;
      nfull_q  <= 1'b1;
    end else begin
      if (push) wr_q <= inc(wr_q);
      if (pop) rd_q <= inc(rd_q);
      if (push && !pop) begin
        cnt_q    <= cnt_q + 1'b1;
        nempty_q <= 1'b1;
        nfull_q  <= (cnt_q != CntW'(Depth - 1));
      end else if (pop && !push) begin
        cnt_q    <= cnt_q - 1'b1;
        nempty_q <= (cnt_q != CntW'(1));
        nfull_q  <= 1'b1;
      end
    end
  end

  // The storage is written in every cycle the FIFO is not full, not only on a push: the entry at
  // `wr_q` is free then, and a push only has to move the pointer. So the write enable of every
  // storage bit is a flip-flop, not the writer's valid (a wide FIFO has hundreds of them).
  always_ff @(posedge clk_i) begin
    if (nfull_q) mem_q[wr_q] <= in_data_i;
  end

  if (OutReg) begin : g_out_reg
    // The head after this edge: the entry behind it on a pop (the one written now if only the
    // head was held), else the head itself, or what is written now into an empty FIFO. Its
    // contents are used only while out_valid_o. The pop only enables the register: what it
    // loads depends on the count alone (an entry behind the head, else the input), so the
    // consumer's pop does not reach the data multiplexer of every bit.
    logic [OutRegW-1:0] head_q;
    wire  [OutRegW-1:0] behind = mem_q[inc(rd_q)][OutRegLo +: OutRegW];
    wire                more   = cnt_q > CntW'(1);
    always_ff @(posedge clk_i) begin
      if (pop || !nempty_q) head_q <= more ? behind : in_data_i[OutRegLo +: OutRegW];
    end
    always_comb begin
      out_data_o = mem_q[rd_q];  // (no read of the storage is left when OutRegW = Width)
      out_data_o[OutRegLo +: OutRegW] = head_q;
    end
    // the register shows the entry at the head (simulation: the formal checks compare the
    // messages end to end)
    `CNI_ASSERT_SIM(HeadReg_A, !nempty_q || head_q == mem_q[rd_q][OutRegLo +: OutRegW],
                    "the head register differs from the head entry")
  end else begin : g_out_mem
    assign out_data_o = mem_q[rd_q];
  end

  // The count stays within the depth and the flags agree with it (an invariant the link checks'
  // induction needs).
  `CNI_ASSERT(Count_A, cnt_q <= CntW'(Depth) && nempty_q == (cnt_q != '0) &&
                       nfull_q == (cnt_q != CntW'(Depth)),
              "a flag disagrees with the count, or the count exceeds the depth")

endmodule
