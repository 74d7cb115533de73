// SPDX-License-Identifier: Apache-2.0
// The tag store's register window reads (rtl/ts/cni_ts.rdl, docs/tagstore.md "Registers"): the
// counters, which the engine (cni_ts_engine) drives with one-cycle pulses, and the read data of
// every register, registered (a read's data is there the cycle after it).
//
// Parameters: Lines, Words (32-bit words of a line), First (the register page's lines + 2),
// BlockLine (block 0's line from the region's first), CmdDepth - the geometry the window shows.
// Ports: rd_i, addr_i - a read of the window; status_i, result_i, mode_i, ev_w0_i, ev_w1_i,
// buf_i - what STATUS, RESULT, MODE, EVT0/EVT1 and BUF read; cnt_i - the counters' pulses
// (C_* below), ref_i - commands refused this cycle (0..3); rdata_o - the read data.
`default_nettype none

module cni_ts_regs #(
  parameter int Lines     = 16,
  parameter int Words     = 16,
  parameter int First     = 6,
  parameter int BlockLine = 6,
  parameter int CmdDepth  = 4,
  localparam int NCnt     = 11
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_ni,
  input  wire logic                  rd_i,
  input  wire logic [7:0]            addr_i,
  input  wire logic [31:0]           status_i,
  input  wire logic [3:0]            result_i,
  input  wire logic [1:0]            mode_i,
  input  wire logic [63:0]           ev_w0_i,
  input  wire logic [63:0]           ev_w1_i,
  input  wire logic [Words*32-1:0]   buf_i,
  input  wire logic [NCnt-1:0]       cnt_i,
  input  wire logic [1:0]            ref_i,
  output logic [31:0]                rdata_o
);

`include "cni_engine_ts_consts.svh"

  // the counters' pulses (cnt_i bits)
  localparam int C_FAULTS = 0, C_DUPS = 1, C_AUTO = 2, C_OVF = 3, C_DONE = 4, C_BAD_ACK = 5,
                 C_DERR = 6, C_MSGS = 7, C_NI_TX = 8, C_NI_RX = 9, C_NI_BAD = 10;
  logic [NCnt-1:0][31:0] n_q;   // (packed: counters all incremented in one cycle are flip-flops)
  logic [31:0]           n_ref_q;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      n_q     <= '0;
      n_ref_q <= '0;
    end else begin
      for (int i = 0; i < NCnt; i++) n_q[i] <= n_q[i] + 32'(cnt_i[i]);
      n_ref_q <= n_ref_q + 32'(ref_i);
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rdata_o <= '0;
    end else if (rd_i) begin
      unique case (addr_i)
        R_STATUS:     rdata_o <= status_i;
        R_RESULT:     rdata_o <= 32'(result_i);
        R_MODE:       rdata_o <= 32'(mode_i);
        R_EVT0_LO:    rdata_o <= ev_w0_i[31:0];
        R_EVT0_HI:    rdata_o <= ev_w0_i[63:32];
        R_EVT1_LO:    rdata_o <= ev_w1_i[31:0];
        R_EVT1_HI:    rdata_o <= ev_w1_i[63:32];
        R_FAULTS:     rdata_o <= n_q[C_FAULTS];
        R_DUPS:       rdata_o <= n_q[C_DUPS];
        R_AUTO:       rdata_o <= n_q[C_AUTO];
        R_OVERFLOW:   rdata_o <= n_q[C_OVF];
        R_REFUSED:    rdata_o <= n_ref_q;
        R_DONE:       rdata_o <= n_q[C_DONE];
        R_BAD_ACKS:   rdata_o <= n_q[C_BAD_ACK];
        R_DISP_ERR:   rdata_o <= n_q[C_DERR];
        R_GEOMETRY:   rdata_o <= {8'(First), 24'(Lines)};
        R_MSGS:       rdata_o <= n_q[C_MSGS];
        R_CMD_DEPTH:  rdata_o <= 32'(CmdDepth);
        R_BLOCK_LINE: rdata_o <= 32'(BlockLine);
        R_NI_TX:      rdata_o <= n_q[C_NI_TX];
        R_NI_RX:      rdata_o <= n_q[C_NI_RX];
        R_NI_BAD:     rdata_o <= n_q[C_NI_BAD];
        default: begin
          rdata_o <= '0;
          if (addr_i >= R_BUF && 32'(addr_i[6:2]) < 32'(Words)) begin
            rdata_o <= buf_i[32 * addr_i[6:2] +: 32];
          end
        end
      endcase
    end
  end

endmodule
