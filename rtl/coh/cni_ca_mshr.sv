// SPDX-License-Identifier: Apache-2.0
// Device caching agent's miss-status entries (cni_cache_agent, docs/cache-agent.md): per MSHR
// its phase (ISSUE -> WAIT -> DONE, a Retry's BACKOFF), mode (LINE, RDNA, WRINV, FLUSH), engine
// request id, line, way (a FLUSH: its write-back buffer entry), byte enables and back-off timer;
// the scans for an MSHR to issue, to deliver, free, on the engine request's line, named by an
// inbound message's tag, and the FLUSH waiting on a write-back buffer entry; the back-off timers
// and the updates when the controller's job fires. Flip-flops, reset and searched in parallel.
//
// Parameters:
//   Mshrs     - entries (1..32)
//   LineBytes - line size (an entry's byte enables)
//   IdW       - engine request id width
//   LineW     - line address width (byte address >> offset)
//   IdxW      - way index width (an entry's way, or its write-back buffer entry)
//   BackoffW  - width of cfg_backoff_i
//   TagW      - message tag width (an MSHR's requests carry its index)
// Ports:
//   clk_i, rst_ni            - clock, active-low asynchronous reset
//   cfg_backoff_i            - cycles from a Retry to the re-issue (BACKOFF -> ISSUE)
//   iss_*, dlv_*, free_*     - the lowest entry to issue (ISSUE), to deliver (DONE), free; an
//                              issue's and a delivery's way, a delivery's error
//   backoff_o                - an entry is in BACKOFF
//   req_line_i, req_busy_o   - an entry holds the engine request's line
//   in_tag_i, in_line_i      - the inbound message: t_ok_o its tag names an entry, t_match_o
//                              that entry waits (WAIT) for an answer about in_line_i; t_* that
//                              entry's mode, full-line write, merge and way
//   fl_e_i, fl_any_o, fl_m_o - the FLUSH entry waiting (WAIT) on write-back buffer entry fl_e_i
//   m_i, m_*_o               - the job's entry and its mode, merge, full-line write, byte
//                              enables, id and line
//   upd_i                    - the job fires: the updates below apply at this edge to entry m_i
//   alloc_i                  - it is allocated for the engine request (req_*): a FLUSH (flush_i,
//                              for write-back buffer entry e_i, in WAIT), an RDNA or WRINV
//                              (na_i), or a LINE for way way_i; it merges the request's bytes
//                              when req_wr_i
//   issued_i                 - its request was sent: WAIT
//   done_i                   - it was answered: DONE
//   retry_i                  - it was answered Retry: BACKOFF
//   fail_i                   - it was answered Error: DONE with error
//   wback_i, wback_err_i     - the write-back its FLUSH waits on was answered (Error): DONE
//   free_i                   - its response was delivered: free
`default_nettype none
`include "cni_assert.svh"

module cni_ca_mshr #(
  parameter int Mshrs     = 4,
  parameter int LineBytes = 128,
  parameter int IdW       = 4,
  parameter int LineW     = 41,
  parameter int IdxW      = 4,
  parameter int BackoffW  = 16,
  parameter int TagW      = 8,
  localparam int MW       = (Mshrs > 1) ? $clog2(Mshrs) : 1
) (
  input  wire logic                            clk_i,
  input  wire logic                            rst_ni,
  input  wire logic [BackoffW-1:0]             cfg_backoff_i,
  output logic                                 iss_any_o,
  output logic [MW-1:0]                        iss_m_o,
  output logic [IdxW-1:0]                      iss_way_o,
  output logic                                 dlv_any_o,
  output logic [MW-1:0]                        dlv_m_o,
  output logic [IdxW-1:0]                      dlv_way_o,
  output logic                                 dlv_err_o,
  output logic                                 free_any_o,
  output logic [MW-1:0]                        free_m_o,
  output logic                                 backoff_o,
  input  wire logic [LineW-1:0]                req_line_i,
  output logic                                 req_busy_o,
  input  wire logic [TagW-1:0]                 in_tag_i,
  input  wire logic [LineW-1:0]                in_line_i,
  output logic                                 t_ok_o,
  output logic                                 t_match_o,
  output logic [1:0]                           t_mode_o,
  output logic                                 t_full_o,
  output logic                                 t_mrg_o,
  output logic [IdxW-1:0]                      t_way_o,
  input  wire logic [IdxW-1:0]                 fl_e_i,
  output logic                                 fl_any_o,
  output logic [MW-1:0]                        fl_m_o,
  input  wire logic [MW-1:0]                   m_i,
  output logic [1:0]                           m_mode_o,
  output logic                                 m_mrg_o,
  output logic                                 m_full_o,
  output logic [LineBytes-1:0]                 m_be_o,
  output logic [IdW-1:0]                       m_id_o,
  output logic [LineW-1:0]                     m_line_o,
  input  wire logic                            upd_i,
  input  wire logic                            alloc_i,
  input  wire logic                            flush_i,
  input  wire logic                            na_i,
  input  wire logic [IdxW-1:0]                 e_i,
  input  wire logic [IdxW-1:0]                 way_i,
  input  wire logic [cni_coh_pkg::CA_OP_W-1:0] req_op_i,
  input  wire logic                            req_wr_i,
  input  wire logic [LineBytes-1:0]            req_be_i,
  input  wire logic [IdW-1:0]                  req_id_i,
  input  wire logic                            issued_i,
  input  wire logic                            done_i,
  input  wire logic                            retry_i,
  input  wire logic                            fail_i,
  input  wire logic                            wback_i,
  input  wire logic                            wback_err_i,
  input  wire logic                            free_i
);

  localparam logic [1:0] PH_ISSUE = 2'd0, PH_WAIT = 2'd1, PH_BACKOFF = 2'd2, PH_DONE = 2'd3;
  localparam logic [1:0] MD_LINE = cni_ca_pkg::MD_LINE, MD_RDNA = cni_ca_pkg::MD_RDNA;
  localparam logic [1:0] MD_WRINV = cni_ca_pkg::MD_WRINV, MD_FLUSH = cni_ca_pkg::MD_FLUSH;

  logic [Mshrs-1:0]     mv_q, mmrg_q, merr_q;  // valid; merges the engine's bytes; error
  logic [Mshrs-1:0]     mfull_q;               // merges every byte (its RdX carries FULL)
  logic [1:0]           mph_q   [Mshrs];
  logic [1:0]           mmode_q [Mshrs];
  logic [IdW-1:0]       mid_q   [Mshrs];
  logic [LineW-1:0]     maddr_q [Mshrs];
  logic [IdxW-1:0]      mway_q  [Mshrs];  // LINE: its way; FLUSH: its write-back buffer entry
  logic [LineBytes-1:0] mbe_q   [Mshrs];
  logic [BackoffW-1:0]  mtmr_q  [Mshrs];

  // ---- scans: the lowest to issue, to deliver, free; the one on the request's line -----------
  always_comb begin
    iss_any_o  = 1'b0;
    dlv_any_o  = 1'b0;
    free_any_o = 1'b0;
    req_busy_o = 1'b0;
    iss_m_o    = '0;
    dlv_m_o    = '0;
    free_m_o   = '0;
    for (int k = Mshrs - 1; k >= 0; k--) begin
      if (mv_q[k] && mph_q[k] == PH_ISSUE) begin
        iss_any_o = 1'b1;
        iss_m_o   = MW'(k);
      end
      if (mv_q[k] && mph_q[k] == PH_DONE) begin
        dlv_any_o = 1'b1;
        dlv_m_o   = MW'(k);
      end
      if (!mv_q[k]) begin
        free_any_o = 1'b1;
        free_m_o   = MW'(k);
      end
      if (mv_q[k] && maddr_q[k] == req_line_i) req_busy_o = 1'b1;
    end
  end
  assign iss_way_o = mway_q[iss_m_o];
  assign dlv_way_o = mway_q[dlv_m_o];
  assign dlv_err_o = merr_q[dlv_m_o];

  logic [Mshrs-1:0] m_backoff;
  always_comb begin
    for (int k = 0; k < Mshrs; k++) m_backoff[k] = mv_q[k] && mph_q[k] == PH_BACKOFF;
  end
  assign backoff_o = |m_backoff;

  // ---- the MSHR an inbound message's tag names -------------------------------------------------
  wire [MW-1:0] t_m = in_tag_i[MW-1:0];
  assign t_ok_o    = in_tag_i < TagW'(Mshrs);
  // it waits for an answer about this line
  assign t_match_o = t_ok_o && mv_q[t_m] && mph_q[t_m] == PH_WAIT && maddr_q[t_m] == in_line_i;
  assign t_mode_o  = mmode_q[t_m];
  assign t_full_o  = mfull_q[t_m];
  assign t_mrg_o   = mmrg_q[t_m];
  assign t_way_o   = mway_q[t_m];

  // a FLUSH MSHR waiting on write-back buffer entry fl_e_i
  always_comb begin
    fl_any_o = 1'b0;
    fl_m_o   = '0;
    for (int k = 0; k < Mshrs; k++) begin
      if (mv_q[k] && mmode_q[k] == MD_FLUSH && mph_q[k] == PH_WAIT && mway_q[k] == fl_e_i) begin
        fl_any_o = 1'b1;
        fl_m_o   = fl_m_o | MW'(k);
      end
    end
  end

  // ---- the job's MSHR --------------------------------------------------------------------------
  assign m_mode_o = mmode_q[m_i];
  assign m_mrg_o  = mmrg_q[m_i];
  assign m_full_o = mfull_q[m_i];
  assign m_be_o   = mbe_q[m_i];
  assign m_id_o   = mid_q[m_i];
  assign m_line_o = maddr_q[m_i];

  // ---- updates -------------------------------------------------------------------------------
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      mv_q   <= '0;
      mmrg_q <= '0;
      mfull_q <= '0;
      merr_q <= '0;
      for (int k = 0; k < Mshrs; k++) begin
        mph_q[k]   <= PH_ISSUE;
        mmode_q[k] <= MD_LINE;
        mid_q[k]   <= '0;
        maddr_q[k] <= '0;
        mway_q[k]  <= '0;
        mbe_q[k]   <= '0;
        mtmr_q[k]  <= '0;
      end
    end else begin
      // back-off: BACKOFF -> ISSUE after cfg_backoff_i cycles (no job touches a BACKOFF entry)
      for (int k = 0; k < Mshrs; k++) begin
        if (mv_q[k] && mph_q[k] == PH_BACKOFF) begin
          if (mtmr_q[k] >= cfg_backoff_i) mph_q[k] <= PH_ISSUE;
          else mtmr_q[k] <= mtmr_q[k] + 1'b1;
        end
      end
      if (upd_i) begin
        if (alloc_i) begin
          mv_q[m_i]    <= 1'b1;
          mph_q[m_i]   <= flush_i ? PH_WAIT : PH_ISSUE;
          mmode_q[m_i] <= flush_i ? MD_FLUSH : !na_i ? MD_LINE :
                          (req_op_i == cni_coh_pkg::CA_RD_NA) ? MD_RDNA : MD_WRINV;
          mmrg_q[m_i]  <= req_wr_i;
          mfull_q[m_i] <= req_wr_i && (req_op_i == cni_coh_pkg::CA_WR_INV || &req_be_i);
          merr_q[m_i]  <= 1'b0;
          mid_q[m_i]   <= req_id_i;
          maddr_q[m_i] <= req_line_i;
          mway_q[m_i]  <= flush_i ? e_i : way_i;  // FLUSH: its entry
          mbe_q[m_i]   <= (req_op_i == cni_coh_pkg::CA_WR_INV) ? '1 : req_be_i;
        end
        if (issued_i) mph_q[m_i] <= PH_WAIT;
        if (done_i) mph_q[m_i] <= PH_DONE;
        if (retry_i) begin
          mph_q[m_i]  <= PH_BACKOFF;
          mtmr_q[m_i] <= '0;
        end
        if (fail_i) begin
          mph_q[m_i]  <= PH_DONE;
          merr_q[m_i] <= 1'b1;
        end
        if (wback_i) begin
          mph_q[m_i]  <= PH_DONE;
          merr_q[m_i] <= wback_err_i;
        end
        if (free_i) mv_q[m_i] <= 1'b0;
      end
    end
  end

  // ---- invariants (simulation) -----------------------------------------------------------------
  // no two MSHRs hold one line
`ifndef SYNTHESIS
  logic dup_m;
  always_comb begin
    dup_m = 1'b0;
    for (int k = 0; k < Mshrs; k++) begin
      for (int j = k + 1; j < Mshrs; j++) begin
        if (mv_q[k] && mv_q[j] && maddr_q[k] == maddr_q[j]) dup_m = 1'b1;
      end
    end
  end
`endif
  `CNI_ASSERT_SIM(DupMshr_A, !dup_m, "two MSHRs on one line")

endmodule
