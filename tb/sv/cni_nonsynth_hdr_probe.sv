// SPDX-License-Identifier: Apache-2.0
// Simulation only: the coherence header (cni_coh_pkg::hdr_t) taken apart and put together, so
// a test can check the C++ packing (tb/msg_wire.hpp) against the package's own layout.
//
// Ports:
//   hdr_i            - a packed header; its fields come out on f_*_o
//   f_*_i            - fields; packed into hdr_o
//   hdr_bits_o       - $bits(hdr_t), the header's width
`default_nettype none

module cni_nonsynth_hdr_probe (
  input  wire cni_coh_pkg::hdr_t                 hdr_i,
  output logic [cni_coh_pkg::OP_W-1:0]            f_op_o,
  output logic [cni_coh_pkg::AGENT_W-1:0]         f_src_o,
  output logic [cni_coh_pkg::AGENT_W-1:0]         f_dst_o,
  output logic [cni_coh_pkg::TAG_W-1:0]           f_tag_o,
  output logic [cni_coh_pkg::FLAGS_W-1:0]         f_flags_o,
  output logic [cni_coh_pkg::LEN_W-1:0]           f_len_o,
  output logic [cni_coh_pkg::ADDR_W-1:0]          f_addr_o,
  input  wire logic [cni_coh_pkg::OP_W-1:0]       f_op_i,
  input  wire logic [cni_coh_pkg::AGENT_W-1:0]    f_src_i,
  input  wire logic [cni_coh_pkg::AGENT_W-1:0]    f_dst_i,
  input  wire logic [cni_coh_pkg::TAG_W-1:0]      f_tag_i,
  input  wire logic [cni_coh_pkg::FLAGS_W-1:0]    f_flags_i,
  input  wire logic [cni_coh_pkg::LEN_W-1:0]      f_len_i,
  input  wire logic [cni_coh_pkg::ADDR_W-1:0]     f_addr_i,
  output cni_coh_pkg::hdr_t                       hdr_o,
  output logic [7:0]                              hdr_bits_o
);
  assign f_op_o     = hdr_i.op;
  assign f_src_o    = hdr_i.src;
  assign f_dst_o    = hdr_i.dst;
  assign f_tag_o    = hdr_i.tag;
  assign f_flags_o  = hdr_i.flags;
  assign f_len_o    = hdr_i.len;
  assign f_addr_o   = hdr_i.addr;
  always_comb begin
    hdr_o       = '0;
    hdr_o.op    = f_op_i;
    hdr_o.src   = f_src_i;
    hdr_o.dst   = f_dst_i;
    hdr_o.tag   = f_tag_i;
    hdr_o.flags = f_flags_i;
    hdr_o.len   = f_len_i;
    hdr_o.addr  = f_addr_i;
  end
  assign hdr_bits_o = 8'($bits(hdr_o));
endmodule
