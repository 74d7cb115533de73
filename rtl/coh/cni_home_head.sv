// SPDX-License-Identifier: Apache-2.0
// One input of the pipelined home agent (Pipelined = 1) with its line interlock precomputed:
// the message at the head, and a flip-flop per pipeline stage saying whether the stage's line is
// the head's line, so the take reads "is my line in flight" from flip-flops instead of comparing
// lines in the cycle it takes (docs/endpoint.md, "Pipeline"). The bits are the compares against
// the stages as they stand after each clock edge: the stages move on at every edge (the
// pipelined home agent never stalls), so the first stage gets the message taken now (from the
// source whose sel_i bit is set, on that source's take_line_i) and every other stage its
// predecessor's line.
// The line is compared with every source's line in parallel and the one-hot selection picks
// the result, so the compare is not behind the home agent's selection multiplexer. The take
// itself comes last: each next state is computed with and without it, and take_i picks one.
//
//   Buffer = 1: the head is a register loaded as the message before it is taken (take_i with
//               sel_i[Src]) or while it is empty, so a new message is taken the cycle after it
//               arrives, and one every cycle. Behind it a spare register (a skid buffer) takes
//               the producer's message when the head cannot, so in_ready_o is a flip-flop ("the
//               spare is empty") and the take does not reach back into the producer's pops. The
//               head loads from the spare when the spare holds a message, else from the
//               producer; the spare holds one only while the head does, and its bits move with
//               the stages like the head's. The message's low DataW bits (a line of data) do
//               not move from the spare to the head: they stay in one of two entries, written
//               when the message arrives, and a pointer that turns when the head leaves says
//               which one is the head's, so the take enables none of those bits.
//   Buffer = 0: the producer holds its message until it is consumed (pop_i: its handshake,
//               which may come long after the take; the home agent's commands); the bits are
//               compared every cycle, and a message counts as at the head from the cycle after
//               it appears.
//
// Parameters:
//   Width  - message bits (unused with Buffer = 0)
//   LineW  - line index bits
//   Stages - pipeline stages behind the take (R, D, X, B, C: 5)
//   Buffer - see above
//   Srcs   - sources the home agent takes messages from
//   Src    - this input's source (Buffer = 1)
//   DataW  - the message's low bits kept in the two registers (Buffer = 1; 0: none)
// Ports:
//   in_valid_i/in_ready_o/in_data_i/in_line_i - the producer (in_ready_o: Buffer = 1 only)
//   out_valid_o, out_data_o, out_line_o      - the head (out_data_o: Buffer = 1 only)
//   busy_o      - a stage holding a message on the head's line
//   pop_i       - Buffer = 0: the head leaves (the producer's handshake)
//   take_i      - a message enters the first stage at this edge
//   sel_i       - one-hot (or zero): the source it comes from (the selection)
//   take_line_i - each source's line (source j's at [j * LineW +: LineW])
//   st_valid_i, st_line_i - each stage's valid bit and line (stage k's at [k * LineW +: LineW])
`default_nettype none

module cni_home_head #(
  parameter int Width  = 8,
  parameter int LineW  = 8,
  parameter int Stages = 5,
  parameter bit Buffer = 1'b1,
  parameter int Srcs   = 4,
  parameter int Src    = 0,
  parameter int DataW  = 0
) (
  input  wire logic                         clk_i,
  input  wire logic                         rst_ni,
  input  wire logic                         in_valid_i,
  output logic                              in_ready_o,
  input  wire logic [Width-1:0]             in_data_i,
  input  wire logic [LineW-1:0]             in_line_i,
  output logic                              out_valid_o,
  output logic [Width-1:0]                  out_data_o,
  output logic [LineW-1:0]                  out_line_o,
  output logic                              busy_o,
  input  wire logic                         pop_i,
  input  wire logic                         take_i,
  input  wire logic [Srcs-1:0]              sel_i,
  input  wire logic [Srcs*LineW-1:0]        take_line_i,
  input  wire logic [Stages-1:0]            st_valid_i,
  input  wire logic [Stages*LineW-1:0]      st_line_i
);

  logic [Stages-1:0] mv_q, mv_new;
  logic              valid_q;

  // the selected source's line is `l` (the message entering the first stage, if taken now)
  function automatic logic sel_on(input logic [LineW-1:0] l, input logic [Srcs-1:0] sel,
                                  input logic [Srcs*LineW-1:0] lines);
    sel_on = 1'b0;
    for (int j = 0; j < Srcs; j++) sel_on |= sel[j] && l == lines[j * LineW +: LineW];
  endfunction

  // The compare bits of a line arriving now (or, Buffer = 0, held now) against the stages after
  // this edge, as if a message is taken (bit 0 counts only with take_i).
  always_comb begin
    for (int k = 0; k < Stages; k++) begin
      mv_new[k] = (k == 0) ? sel_on(in_line_i, sel_i, take_line_i)
                           : in_line_i == st_line_i[(k > 0 ? k - 1 : 0) * LineW +: LineW];
    end
  end
  assign busy_o = |(mv_q & st_valid_i);

  if (Buffer) begin : g_buf
    localparam int HiW = Width - DataW;        // the bits the head and the spare registers hold
    logic [HiW-1:0]    data_q, sp_data_q;
    logic [LineW-1:0]  line_q, sp_line_q;
    logic [Stages-1:0] keep, sp_keep, nx_in, mv_nx, mv_nx1;
    logic [Stages-1:1] mv_nx0;
    // the spare's bits: not for the last stage (the spare reaches the head one edge later at the
    // earliest, and that stage's message has then left)
    logic [Stages-2:0] sp_mv_q;
    logic              sp_valid_q;
    wire acc = in_valid_i && !sp_valid_q;     // the producer's message is accepted
    wire out = sel_i[Src];                    // the head leaves if a message is taken now
    wire hd_free = !valid_q || (take_i && out);  // the head is empty after this edge
    // a message that stays (the head, the spare): its bits move with the stages (bit 0 as if a
    // message is taken)
    assign keep    = {mv_q[Stages-2:0], sel_on(line_q, sel_i, take_line_i)};
    assign sp_keep = {sp_mv_q[Stages-2:0], sel_on(sp_line_q, sel_i, take_line_i)};
    // the bits of a message moving into the head: the spare's, else the producer's
    assign nx_in  = sp_valid_q ? sp_keep : mv_new;
    // the head's bits after this edge with a take (nx1) and without one (nx0)
    assign mv_nx1 = (valid_q && !out) ? keep : nx_in;
    assign mv_nx0 = valid_q ? keep[Stages-1:1] : nx_in[Stages-1:1];
    assign mv_nx  = take_i ? mv_nx1 : {mv_nx0, 1'b0};
    assign in_ready_o  = !sp_valid_q;
    assign out_valid_o = valid_q;
    assign out_line_o  = line_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q    <= 1'b0;
        sp_valid_q <= 1'b0;
        mv_q       <= '0;
      end else begin
        // (the spare holds a message only while the head does)
        valid_q    <= take_i ? (valid_q && !out) || sp_valid_q || acc : valid_q || acc;
        sp_valid_q <= take_i ? valid_q && !out && (sp_valid_q || acc) :
                               valid_q && (sp_valid_q || acc);
        mv_q       <= mv_nx;
      end
    end
    // The data registers load without a reset; the spare captures whatever arrives while it is
    // empty (its valid bit says whether it holds a message).
    always_ff @(posedge clk_i) begin
      if (hd_free) begin
        data_q <= sp_valid_q ? sp_data_q : in_data_i[Width-1:DataW];
        line_q <= sp_valid_q ? sp_line_q : in_line_i;
      end
      if (!sp_valid_q) begin
        sp_data_q <= in_data_i[Width-1:DataW];
        sp_line_q <= in_line_i;
      end
      if (sp_valid_q) sp_mv_q <= {sp_keep[Stages-2:1], take_i && sp_keep[0]};
      else            sp_mv_q <= {mv_new[Stages-2:1], take_i && mv_new[0]};
    end
    if (DataW > 0) begin : g_low
      // The low bits: the head's are in entry rd_q; an arriving message's go to the head's
      // entry when the head is empty, else to the other one (the spare's place).
      logic [DataW-1:0] low_q [2];
      logic             rd_q;
      wire              wr = valid_q ? !rd_q : rd_q;
      always_ff @(posedge clk_i or negedge rst_ni) begin
        if (!rst_ni) rd_q <= 1'b0;
        else if (take_i && out) rd_q <= !rd_q;
      end
      always_ff @(posedge clk_i) begin
        if (acc) low_q[wr] <= in_data_i[DataW-1:0];
      end
      assign out_data_o = {data_q, low_q[rd_q]};
    end else begin : g_nolow
      assign out_data_o = data_q;
    end
    // pop_i is Buffer = 0's: here the head leaves with take_i and sel_i[Src]
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused = pop_i;
    /* verilator lint_on UNUSEDSIGNAL */
`ifdef SYNTHESIS
`elsif FORMAL
`else
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (rst_ni) begin
        assert (!sp_valid_q || valid_q)
          else $error("cni_home_head: the spare holds a message while the head is empty");
      end
    end
`endif
  end else begin : g_hold
    assign in_ready_o  = 1'b0;
    assign out_valid_o = in_valid_i && valid_q;
    assign out_data_o  = '0;
    assign out_line_o  = in_line_i;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        valid_q <= 1'b0;
        mv_q    <= '0;
      end else begin
        valid_q <= in_valid_i && !pop_i;
        mv_q    <= {mv_new[Stages-1:1], take_i && mv_new[0]};
      end
    end
    // in_data_i is not kept: the producer holds its message
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused = ^in_data_i;
    /* verilator lint_on UNUSEDSIGNAL */
`ifdef SYNTHESIS
`elsif FORMAL
`else
    // the producer holds its message: the line compared last cycle is the one at the port now
    logic [LineW-1:0] line_chk_q;
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        line_chk_q <= '0;
      end else begin
        line_chk_q <= in_line_i;
        if (valid_q && in_valid_i) begin
          assert (in_line_i == line_chk_q)
            else $error("cni_home_head: a held message changed before it was consumed");
        end
      end
    end
`endif
  end

endmodule
