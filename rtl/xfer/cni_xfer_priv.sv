// SPDX-License-Identifier: Apache-2.0
// The block-transfer engine's privileged registers (docs/xfer.md, "Registers", 0x80-0xFF): the
// control, occupancy and retransmission registers, each host context's current process, the
// process slots
// (windows, status flags, receive table, vpid range, Fetch-and-Op window) and the vpid table.
// The engine's register decode passes every 8-byte write (taking effect with its high word) and
// the offset of every read; reads of offsets this block does not hold return 0.
//
// Parameters: Procs - process slots (2 .. 16); Vpids - vpid-table entries (1 .. 256); Ctxs -
// host contexts (1 .. 16)
// Ports:
//   wr_i, wr_at_i, wv_i   - a privileged register write (its offset, its 64-bit value)
//   rd_at_i, rv_o         - a read's offset, this block's value for it
//   the rest              - the registers' values; rt_reset_o: a slot's receive table set (a
//                           pulse per slot: its counts restart)
`default_nettype none

module cni_xfer_priv #(
  parameter int Procs = 4,
  parameter int Vpids = 8,
  parameter int Ctxs  = 2,
  localparam int VW   = (Vpids > 1) ? $clog2(Vpids) : 1,
  localparam int PW   = $clog2(Procs),
  localparam int CW   = (Ctxs > 1) ? $clog2(Ctxs) : 1
) (
  input  wire logic                   clk_i,
  input  wire logic                   rst_ni,
  input  wire logic                   wr_i,
  input  wire logic [7:0]             wr_at_i,
  input  wire logic [63:0]            wv_i,
  input  wire logic [7:0]             rd_at_i,
  output logic [63:0]                 rv_o,
  output logic                        enable_o,
  output logic [15:0]                 occ_send_o,
  output logic [15:0]                 occ_recv_o,
  output logic [15:0]                 occ_init_o,
  output logic [15:0]                 occ_freq_o,
  output logic [15:0]                 occ_fhome_o,
  output logic [15:0]                 occ_fdone_o,
  output logic [15:0]                 tmo_o,
  output logic [7:0]                  rmax_o,
  output logic [Ctxs-1:0][3:0]        cur_o,     // each context's process slot, if cur_v_o
  output logic [Ctxs-1:0]             cur_v_o,
  output logic [Procs-1:0]            s_en_o,
  output logic [Procs-1:0][47:0]      s_sbase_o,
  output logic [Procs-1:0][47:0]      s_ssize_o,
  output logic [Procs-1:0][47:0]      s_rbase_o,
  output logic [Procs-1:0][47:0]      s_rsize_o,
  output logic [Procs-1:0][47:0]      s_stat_o,
  output logic [Procs-1:0][47:0]      s_rt_o,
  output logic [Procs-1:0][7:0]       s_nflag_o,
  output logic [Procs-1:0][7:0]       s_vfirst_o,
  output logic [Procs-1:0][7:0]       s_vn_o,
  output logic [Procs-1:0][15:0]      s_rtn_o,
  output logic [Procs-1:0][15:0]      s_own_o,
  output logic [Procs-1:0][15:0]      s_ffirst_o,
  output logic [Procs-1:0][15:0]      s_fwords_o,
  output logic [Procs-1:0]            rt_reset_o,
  output logic [Vpids-1:0]            v_v_o,
  output logic [Vpids-1:0][15:0]      v_node_o,
  output logic [Vpids-1:0][3:0]       v_pid_o
);

`include "cni_engine_xfer_consts.svh"

  logic [7:0] psel_q;
  wire  [3:0] ps    = psel_q[3:0];
  wire        ps_ok = 32'(psel_q) < 32'(Procs);
  wire        w     = wr_i;
  wire [63:0] wv    = wv_i;

  always_comb begin
    rv_o = '0;
    unique case (rd_at_i)
      R_CTL_LO: rv_o = {63'd0, enable_o};
      R_OCC_LO: rv_o = {16'd0, occ_init_o, occ_recv_o, occ_send_o};
      R_OCC_FOP_LO: rv_o = {16'd0, occ_fdone_o, occ_fhome_o, occ_freq_o};
      R_TIMERS_LO: rv_o = {40'd0, rmax_o, tmo_o};
      R_PSEL_LO: rv_o = {56'd0, psel_q};
      R_P_SEND_BASE_LO: rv_o = ps_ok ? 64'(s_sbase_o[ps]) : '0;
      R_P_SEND_SIZE_LO: rv_o = ps_ok ? 64'(s_ssize_o[ps]) : '0;
      R_P_RECV_BASE_LO: rv_o = ps_ok ? 64'(s_rbase_o[ps]) : '0;
      R_P_RECV_SIZE_LO: rv_o = ps_ok ? 64'(s_rsize_o[ps]) : '0;
      R_P_STAT_LO: rv_o = ps_ok ? {s_nflag_o[ps], 8'd0, s_stat_o[ps]} : '0;
      R_P_RT_LO: rv_o = ps_ok ? {s_rtn_o[ps], s_rt_o[ps]} : '0;
      R_P_VPT_LO: rv_o = ps_ok ? {s_fwords_o[ps], s_ffirst_o[ps], s_own_o[ps], s_vn_o[ps],
                                  s_vfirst_o[ps]} : '0;
      default: rv_o = '0;
    endcase
  end

  always_comb begin
    for (int p = 0; p < Procs; p++)
      rt_reset_o[p] = w && wr_at_i == R_P_RT_LO && ps_ok && ps == 4'(p);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      enable_o    <= 1'b0;
      occ_send_o  <= '0;
      occ_recv_o  <= '0;
      occ_init_o  <= '0;
      occ_freq_o  <= '0;
      occ_fhome_o <= '0;
      occ_fdone_o <= '0;
      tmo_o       <= '0;
      rmax_o      <= '0;
      cur_o       <= '0;
      cur_v_o     <= '0;
      psel_q      <= '0;
      s_en_o      <= '0;
      s_sbase_o   <= '0;
      s_ssize_o   <= '0;
      s_rbase_o   <= '0;
      s_rsize_o   <= '0;
      s_stat_o    <= '0;
      s_rt_o      <= '0;
      s_nflag_o   <= '0;
      s_vfirst_o  <= '0;
      s_vn_o      <= '0;
      s_rtn_o     <= '0;
      s_own_o     <= '0;
      s_ffirst_o  <= '0;
      s_fwords_o  <= '0;
      v_v_o       <= '0;
      v_node_o    <= '0;
      v_pid_o     <= '0;
    end else if (w) begin
      if (wr_at_i == R_CTL_LO) enable_o <= wv[0];
      if (wr_at_i == R_OCC_LO) begin
        occ_send_o <= wv[15:0];
        occ_recv_o <= wv[31:16];
        occ_init_o <= wv[47:32];
      end
      if (wr_at_i == R_OCC_FOP_LO) begin
        occ_freq_o  <= wv[15:0];
        occ_fhome_o <= wv[31:16];
        occ_fdone_o <= wv[47:32];
      end
      if (wr_at_i == R_TIMERS_LO) begin
        tmo_o  <= wv[15:0];
        rmax_o <= wv[23:16];
      end
      if (wr_at_i == R_CUR_PID_LO && 32'(wv[3:0]) < 32'(Ctxs)) begin
        cur_o[CW'(wv[3:0])]   <= wv[11:8];
        cur_v_o[CW'(wv[3:0])] <= wv[16] && 32'(wv[11:8]) < 32'(Procs);
      end
      if (wr_at_i == R_PSEL_LO) begin
        psel_q <= wv[7:0];
        if (32'(wv[7:0]) < 32'(Procs)) begin
          if (wv[8]) s_en_o[PW'(wv[3:0])] <= 1'b1;
          if (wv[9]) s_en_o[PW'(wv[3:0])] <= 1'b0;
        end
      end
      if (ps_ok) begin
        if (wr_at_i == R_P_SEND_BASE_LO) s_sbase_o[ps] <= wv[47:0];
        if (wr_at_i == R_P_SEND_SIZE_LO) s_ssize_o[ps] <= wv[47:0];
        if (wr_at_i == R_P_RECV_BASE_LO) s_rbase_o[ps] <= wv[47:0];
        if (wr_at_i == R_P_RECV_SIZE_LO) s_rsize_o[ps] <= wv[47:0];
        if (wr_at_i == R_P_STAT_LO) begin
          s_stat_o[ps]  <= wv[47:0];
          s_nflag_o[ps] <= wv[63:56];
        end
        if (wr_at_i == R_P_RT_LO) begin
          s_rt_o[ps]  <= wv[47:0];
          s_rtn_o[ps] <= wv[63:48];
        end
        if (wr_at_i == R_P_VPT_LO) begin
          s_vfirst_o[ps] <= wv[7:0];
          s_vn_o[ps]     <= wv[15:8];
          s_own_o[ps]    <= wv[31:16];
          s_ffirst_o[ps] <= wv[47:32];
          s_fwords_o[ps] <= wv[63:48];
        end
      end
      if (wr_at_i == R_VPT_LO && 32'(wv[7:0]) < 32'(Vpids)) begin
        v_v_o[VW'(wv[7:0])]    <= wv[63];
        v_node_o[VW'(wv[7:0])] <= wv[47:32];
        v_pid_o[VW'(wv[7:0])]  <= wv[51:48];
      end
    end
  end

endmodule
