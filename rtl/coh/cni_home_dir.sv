// SPDX-License-Identifier: Apache-2.0
// The home agent's directory RAM for its on-chip lines and the init sweep that clears it (and
// port A's memory, through the agent) after reset: one read port (the take), one write port
// (the apply, or the sweep). Block RAM by request: Yosys 0.70 otherwise picks UltraScale+ LUTRAM
// for the directory of the full geometry and fails to map it ("invalid OPTION_ABITS/WIDTH
// combination"). A read of the word written in the same cycle is never used: the apply stage's
// line is in the interlock, so no message on it is taken in that cycle, and what is read for a
// message not taken is not used (`no_rw_check`: synthesis adds no bypass from the write to the
// read port, which block RAMs leave undefined for such a read, docs/fpga.md). Indexed by the
// on-chip lines' bits: a DRAM line's word is in its frame (cni_home_dram), and what is read here
// for one is not used.
//
// Parameters:
//   DirW, NumLines, LineIdxW - the word's bits; the on-chip lines; the agent's line index bits
// Ports:
//   re_i, raddr_i, rd_o       - the take's read (registered)
//   we_i, waddr_i, wd_i       - the apply's write (ignored while the sweep runs)
//   init_run_o, init_line_o   - the sweep runs; the line it clears this cycle
`default_nettype none

module cni_home_dir #(
  parameter int DirW     = 20,
  parameter int NumLines = 256,
  parameter int LineIdxW = 8
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  input  wire logic                re_i,
  input  wire logic [LineIdxW-1:0] raddr_i,
  output logic [DirW-1:0]          rd_o,
  input  wire logic                we_i,
  input  wire logic [LineIdxW-1:0] waddr_i,
  input  wire logic [DirW-1:0]     wd_i,
  output logic                     init_run_o,
  output logic [LineIdxW-1:0]      init_line_o
);

  localparam int OnIdxW = $clog2(NumLines);
  (* ram_style = "block", no_rw_check *) logic [DirW-1:0] dir_q [NumLines];
  /* verilator lint_off UNUSEDSIGNAL */
  wire [LineIdxW-1:0] waddr = init_run_o ? init_line_o : waddr_i;  // (the on-chip bits)
  wire [LineIdxW-1:0] raddr = raddr_i;
  /* verilator lint_on UNUSEDSIGNAL */

  always_ff @(posedge clk_i) begin
    if (init_run_o || we_i) dir_q[waddr[OnIdxW-1:0]] <= init_run_o ? '0 : wd_i;
    if (re_i) rd_o <= dir_q[raddr[OnIdxW-1:0]];
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      init_run_o  <= 1'b1;
      init_line_o <= '0;
    end else if (init_run_o) begin
      init_line_o <= (init_line_o == LineIdxW'(NumLines - 1)) ? '0 : init_line_o + 1'b1;
      if (init_line_o == LineIdxW'(NumLines - 1)) init_run_o <= 1'b0;
    end
  end

endmodule

`default_nettype wire
