// SPDX-License-Identifier: Apache-2.0
// Simulation only: the home agent's decision (cni_home_decide) alone, its three steps wired as
// the agent without Pipelined wires them (the conditions and the row fed straight back, every
// step seeing the same message, lookup and directory word), with each field of its records on a
// port of its own, so a test can set a row's condition and read every field of its answer
// (tests/home_decide).
//
// Parameters: as cni_home_decide's.
// Ports:
//   agent_id_i, cfg_ret_excl_i        - as cni_home_decide's
//   src_i, hdr_i, cmd_i, arg_i,       - the message: its source (0 timeout, 1 snoop answer,
//   line_i, tmo_ent_i, may_alloc_i      2 command, 3 request), header, command, argument,
//                                       line, timed-out entry, whether it may take an entry
//   tmo_live_i, tmo_src_i, tmo_tag_i,  - a timeout's entry: still timed out, its requester, line
//   tmo_line_i
//   dir_pol_i, dir_st_i, dir_sh_i     - the directory word: policy, state, sharers
//   lk_*_i                            - the lookup (cni_home_types.svh, lk_t), field by field
//   row_o, cnt_o                      - the row (row_e) and the counters it pulses
//   d_*_o                             - the decision record (dec_t), field by field; the
//                                       directory word written as d_dir_pol_o, d_dir_st_o,
//                                       d_dir_sh_o
`default_nettype none

module cni_nonsynth_home_decide #(
  parameter int          LineBytes = 64,
  parameter int          NumAgents = 8,
  parameter logic [47:0] DevBase   = 48'h10_0000_0000,
  parameter int          TtEntries = 16,
  parameter int          LineIdxW  = 6,
  localparam int TtW  = $clog2(TtEntries),
  localparam int N    = NumAgents
) (
  input  wire logic [cni_coh_pkg::AGENT_W-1:0]      agent_id_i,
  input  wire logic [cni_amap_pkg::NUM_REGIONS-1:0] cfg_ret_excl_i,
  input  wire logic [1:0]                           src_i,
  input  wire cni_coh_pkg::hdr_t                    hdr_i,
  input  wire logic [cni_coh_pkg::CMD_W-1:0]        cmd_i,
  input  wire logic [cni_coh_pkg::ARG_W-1:0]        arg_i,
  input  wire logic [LineIdxW-1:0]                  line_i,
  input  wire logic [TtW-1:0]                       tmo_ent_i,
  input  wire logic                                 may_alloc_i,
  input  wire logic                                 tmo_live_i,
  input  wire logic [cni_coh_pkg::AGENT_W-1:0]      tmo_src_i,
  input  wire logic [cni_coh_pkg::TAG_W-1:0]        tmo_tag_i,
  input  wire logic [LineIdxW-1:0]                  tmo_line_i,
  input  wire logic [cni_coh_pkg::POL_W-1:0]        dir_pol_i,
  input  wire logic [1:0]                           dir_st_i,
  input  wire logic [N-1:0]                         dir_sh_i,
  input  wire logic                                 lk_hit_any_i,
  input  wire logic [TtW-1:0]                       lk_hit_idx_i,
  input  wire logic [1:0]                           lk_hit_kind_i,
  input  wire logic [N-1:0]                         lk_hit_pend_i,
  input  wire logic [N-1:0]                         lk_hit_wbp_i,
  input  wire logic [N-1:0]                         lk_hit_wbgot_i,
  input  wire logic [cni_coh_pkg::AGENT_W-1:0]      lk_hit_src_i,
  input  wire logic [cni_coh_pkg::TAG_W-1:0]        lk_hit_tag_i,
  input  wire logic [cni_coh_pkg::OP_W-1:0]         lk_hit_grant_i,
  input  wire logic                                 lk_park_hit_i,
  input  wire logic [TtW-1:0]                       lk_park_idx_i,
  input  wire logic [cni_coh_pkg::AGENT_W-1:0]      lk_park_src_i,
  input  wire logic [cni_coh_pkg::TAG_W-1:0]        lk_park_tag_i,
  input  wire logic [cni_coh_pkg::OP_W-1:0]         lk_park_op_i,
  input  wire logic                                 lk_ent_match_i,
  input  wire logic [1:0]                           lk_ent_kind_i,
  input  wire logic [N-1:0]                         lk_ent_pend_i,
  input  wire logic [N-1:0]                         lk_ent_wbp_i,
  input  wire logic [N-1:0]                         lk_ent_wbgot_i,
  input  wire logic [cni_coh_pkg::AGENT_W-1:0]      lk_ent_src_i,
  input  wire logic [cni_coh_pkg::TAG_W-1:0]        lk_ent_tag_i,
  input  wire logic [cni_coh_pkg::OP_W-1:0]         lk_ent_grant_i,
  input  wire logic                                 lk_room_i,
  input  wire logic                                 lk_free_any_i,
  input  wire logic [TtW-1:0]                       lk_free_idx_i,
  input  wire logic                                 lk_inrange_i,
  input  wire logic [cni_amap_pkg::REGION_W-1:0]    lk_region_i,
  output logic [4:0]                                row_o,
  output logic [15:0]                               cnt_o,
  output logic                                      d_out_rsp_o,
  output logic                                      d_out_dat_o,
  output cni_coh_pkg::hdr_t                         d_rsp_hdr_o,
  output cni_coh_pkg::hdr_t                         d_dat_hdr_o,
  output logic                                      d_data_msg_o,
  output logic                                      d_pop_o,
  output logic                                      d_stall_cmd_o,
  output logic                                      d_mem_we_o,
  output logic                                      d_dir_we_o,
  output logic [cni_coh_pkg::POL_W-1:0]             d_dir_pol_o,
  output logic [1:0]                                d_dir_st_o,
  output logic [N-1:0]                              d_dir_sh_o,
  output logic                                      d_alloc_o,
  output logic [TtW-1:0]                            d_alloc_idx_o,
  output logic                                      d_rsv_o,
  output logic [cni_amap_pkg::REGION_W-1:0]         d_alloc_reg_o,
  output logic [1:0]                                d_alloc_kind_o,
  output logic [N-1:0]                              d_alloc_pend_o,
  output logic [cni_coh_pkg::OP_W-1:0]              d_alloc_grant_o,
  output logic                                      d_alloc_evt_o,
  output logic                                      d_upd_o,
  output logic [TtW-1:0]                            d_upd_idx_o,
  output logic [N-1:0]                              d_upd_pend_o,
  output logic [N-1:0]                              d_upd_wbp_o,
  output logic [N-1:0]                              d_upd_wbgot_o,
  output logic                                      d_upd_evt_o,
  output logic                                      d_free_o,
  output logic [TtW-1:0]                            d_free_idx_o,
  output logic                                      d_conv_o,
  output logic [TtW-1:0]                            d_conv_idx_o,
  output logic [N-1:0]                              d_conv_pend_o,
  output logic [cni_coh_pkg::OP_W-1:0]              d_conv_grant_o,
  output logic                                      d_snp_o,
  output logic [N-1:0]                              d_snp_vec_o,
  output logic [N-1:0]                              d_snp_rest_o,
  output logic                                      d_snp_last_o,
  output logic [cni_coh_pkg::OP_W-1:0]              d_snp_op_o,
  output logic [TtW-1:0]                            d_snp_ent_o
);

  localparam int SlotW  = 4;
  localparam int NumCnt = 16;

  `include "cni_home_types.svh"

  msg_t            m;
  lk_t             lk;
  hlp_t            hn;
  row_e            row;
  logic [NumCnt-1:0] cnt;
  dec_t            d;
  wire [DirW-1:0]  dir = {dir_pol_i, dir_st_i, dir_sh_i};

  always_comb begin
    m           = '0;
    m.src       = src_i;
    m.hdr       = hdr_i;
    m.cmd       = cmd_i;
    m.arg       = arg_i;
    m.line      = line_i;
    m.tmo_ent   = tmo_ent_i;
    m.may_alloc = may_alloc_i;
    lk           = '0;
    lk.hit_any   = lk_hit_any_i;
    lk.hit_idx   = lk_hit_idx_i;
    lk.hit_kind  = lk_hit_kind_i;
    lk.hit_pend  = lk_hit_pend_i;
    lk.hit_wbp   = lk_hit_wbp_i;
    lk.hit_wbgot = lk_hit_wbgot_i;
    lk.hit_src   = lk_hit_src_i;
    lk.hit_tag   = lk_hit_tag_i;
    lk.hit_grant = lk_hit_grant_i;
    lk.park_hit  = lk_park_hit_i;
    lk.park_idx  = lk_park_idx_i;
    lk.park_src  = lk_park_src_i;
    lk.park_tag  = lk_park_tag_i;
    lk.park_op   = lk_park_op_i;
    lk.ent_match = lk_ent_match_i;
    lk.ent_kind  = lk_ent_kind_i;
    lk.ent_pend  = lk_ent_pend_i;
    lk.ent_wbp   = lk_ent_wbp_i;
    lk.ent_wbgot = lk_ent_wbgot_i;
    lk.ent_src   = lk_ent_src_i;
    lk.ent_tag   = lk_ent_tag_i;
    lk.ent_grant = lk_ent_grant_i;
    lk.room      = lk_room_i;
    lk.free_any  = lk_free_any_i;
    lk.free_idx  = lk_free_idx_i;
    lk.inrange   = lk_inrange_i;
    lk.region    = lk_region_i;
  end

  cni_home_decide #(
    .LineBytes (LineBytes), .NumAgents (NumAgents), .DevBase (DevBase), .TtEntries (TtEntries),
    .LineIdxW (LineIdxW), .SlotW (SlotW), .NumCnt (NumCnt)
  ) u_decide (
    .agent_id_i, .cfg_ret_excl_i,
    .m_d_i (m), .lk_d_i (lk), .dir_d_i (dir), .hn_o (hn),
    .m_x_i (m), .lk_x_i (lk), .dir_x_i (dir), .hl_i (hn), .tmo_live_i,
    .row_o (row), .cnt_o (cnt),
    .m_b_i (m), .lk_b_i (lk), .dir_b_i (dir), .hb_i (hn), .row_b_i (row), .cnt_b_i (cnt),
    .tmo_src_i, .tmo_tag_i, .tmo_line_i, .dec_o (d)
  );

  assign row_o           = row;
  assign cnt_o           = d.cnt;
  assign d_out_rsp_o     = d.out_rsp;
  assign d_out_dat_o     = d.out_dat;
  assign d_rsp_hdr_o     = d.rsp_hdr;
  assign d_dat_hdr_o     = d.dat_hdr;
  assign d_data_msg_o    = d.data_msg;
  assign d_pop_o         = d.pop;
  assign d_stall_cmd_o   = d.stall_cmd;
  assign d_mem_we_o      = d.mem_we;
  assign d_dir_we_o      = d.dir_we;
  assign {d_dir_pol_o, d_dir_st_o, d_dir_sh_o} = d.dir_wd;
  assign d_alloc_o       = d.alloc;
  assign d_alloc_idx_o   = d.alloc_idx;
  assign d_rsv_o         = d.rsv;
  assign d_alloc_reg_o   = d.alloc_reg;
  assign d_alloc_kind_o  = d.alloc_kind;
  assign d_alloc_pend_o  = d.alloc_pend;
  assign d_alloc_grant_o = d.alloc_grant;
  assign d_alloc_evt_o   = d.alloc_evt;
  assign d_upd_o         = d.upd;
  assign d_upd_idx_o     = d.upd_idx;
  assign d_upd_pend_o    = d.upd_pend;
  assign d_upd_wbp_o     = d.upd_wbp;
  assign d_upd_wbgot_o   = d.upd_wbgot;
  assign d_upd_evt_o     = d.upd_evt;
  assign d_free_o        = d.free;
  assign d_free_idx_o    = d.free_idx;
  assign d_conv_o        = d.conv;
  assign d_conv_idx_o    = d.conv_idx;
  assign d_conv_pend_o   = d.conv_pend;
  assign d_conv_grant_o  = d.conv_grant;
  assign d_snp_o         = d.snp;
  assign d_snp_vec_o     = d.snp_vec;
  assign d_snp_rest_o    = d.snp_rest;
  assign d_snp_last_o    = d.snp_last;
  assign d_snp_op_o      = d.snp_op;
  assign d_snp_ent_o     = d.snp_ent;

endmodule
