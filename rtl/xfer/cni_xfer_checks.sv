// SPDX-License-Identifier: Apache-2.0
// The checks the block-transfer engine's initiation makes as each command is written (docs/xfer.md,
// "Registers"; section 9): XCMD's (op, destination vpid in the slot's range and valid, length,
// status flag), FOP_TGT's (op, vpid, flag), XPAGE's (the pieces the message's pages in order,
// the first 8-byte aligned, their sum within the length, inside the slot's send window) and
// BUF_POST's (a whole number of lines, inside the slot's receive window). Combinational: the
// engine keeps the first reason found in the record's flip-flops, so XGO needs no check of its
// own.
//
// Parameters: LineBytes - the platform's; Vpids - vpid-table entries
// Ports:
//   wv_i                  - the command's 64-bit value
//   vfirst_i .. rsize_i   - the context's process slot: its vpid range, flag count, send and
//                           receive windows; v_v_i: the vpid table's valid bits
//   np_i .. baddr_i       - the staged description: pieces taken, the first piece's offset in
//                           its page, the pieces' sum, the length; the buffer's address
//   x_bad_o, t_bad_o, p_bad_o, b_bad_o - the reason each command would record (0: none)
`default_nettype none

module cni_xfer_checks #(
  parameter int LineBytes = 64,
  parameter int Vpids     = 8,
  localparam int LbW      = $clog2(LineBytes),
  localparam int VW       = (Vpids > 1) ? $clog2(Vpids) : 1
) (
  input  wire logic [63:0]      wv_i,
  input  wire logic [7:0]       vfirst_i,
  input  wire logic [7:0]       vn_i,
  input  wire logic [7:0]       nflag_i,
  input  wire logic [47:0]      sbase_i,
  input  wire logic [47:0]      ssize_i,
  input  wire logic [47:0]      rbase_i,
  input  wire logic [47:0]      rsize_i,
  input  wire logic [Vpids-1:0] v_v_i,
  input  wire logic [15:0]      np_i,
  input  wire logic [11:0]      src_i,
  input  wire logic [23:0]      sum_i,
  input  wire logic [23:0]      len_i,
  input  wire logic [47:0]      baddr_i,
  output logic [3:0]            x_bad_o,
  output logic [3:0]            t_bad_o,
  output logic [3:0]            p_bad_o,
  output logic [3:0]            b_bad_o
);
  wire [63:0] wv = wv_i;
  // XCMD
  wire [15:0] x_vpid = wv[31:16];
  wire [23:0] x_len  = wv[55:32];
  wire [31:0] x_vidx = 32'(vfirst_i) + 32'(x_vpid);
  wire        x_vpid_ok = 32'(x_vpid) < 32'(vn_i) && x_vidx < 32'(Vpids) && v_v_i[VW'(x_vidx)];
  always_comb begin
    if (wv[2:0] != 3'd1 && wv[2:0] != 3'd2) x_bad_o = cni_xfer_pkg::W_NO_CMD;
    else if (!x_vpid_ok) x_bad_o = cni_xfer_pkg::W_BAD_VPID;
    else if (x_len == '0 || x_len > 24'h20_0000) x_bad_o = cni_xfer_pkg::W_BAD_LEN;
    else if (8'(wv[62:56]) >= nflag_i) x_bad_o = cni_xfer_pkg::W_BAD_FLAG;
    else x_bad_o = '0;
  end
  // FOP_TGT (the word's window is checked at the home)
  wire [31:0] t_vidx = 32'(vfirst_i) + 32'(wv[47:32]);
  always_comb begin
    if (wv[19:16] == '0 || wv[19:16] > 4'd3) t_bad_o = cni_xfer_pkg::W_BAD_FOP;
    else if (!(32'(wv[47:32]) < 32'(vn_i) && t_vidx < 32'(Vpids) && v_v_i[VW'(t_vidx)]))
      t_bad_o = cni_xfer_pkg::W_BAD_VPID;
    else if (8'(wv[54:48]) >= nflag_i) t_bad_o = cni_xfer_pkg::W_BAD_FLAG;
    else t_bad_o = '0;
  end
  // XPAGE
  wire [47:0] p_addr = wv[47:0];
  wire [15:0] p_len  = wv[63:48];
  wire [48:0] p_end  = 49'(p_addr) + 49'(p_len);
  wire        p_in   = p_addr >= sbase_i && p_end <= 49'(sbase_i) + 49'(ssize_i);
  // the pieces are the message's pages: the first from its start (8-byte aligned) to its page's
  // end at most, each other one a page's start, after a piece that reached its page's end
  wire [11:0] p_at   = src_i + sum_i[11:0];   // where the pieces so far end, in a page
  wire [16:0] p_pend = 17'(p_addr[11:0]) + 17'(p_len);
  always_comb begin
    if ((np_i == '0 ? p_addr[2:0] != '0 : (p_addr[11:0] != '0 || p_at != '0)) ||
        p_len == '0 || p_pend > 17'd4096 || 25'(sum_i) + 25'(p_len) > 25'(len_i))
      p_bad_o = cni_xfer_pkg::W_BAD_PIECE;
    else if (!p_in) p_bad_o = cni_xfer_pkg::W_PROT_SEND;
    else p_bad_o = '0;
  end
  // BUF_POST
  wire [23:0] b_bytes = wv[23:0];
  wire [48:0] b_end   = 49'(baddr_i) + 49'(b_bytes);
  wire        b_in    = baddr_i >= rbase_i && b_end <= 49'(rbase_i) + 49'(rsize_i);
  always_comb begin
    if (b_bytes == '0 || b_bytes[LbW-1:0] != '0) b_bad_o = cni_xfer_pkg::W_BAD_LEN;
    else if (!b_in) b_bad_o = cni_xfer_pkg::W_PROT_RECV;
    else b_bad_o = '0;
  end

endmodule
