// SPDX-License-Identifier: Apache-2.0
// What the block-transfer engine's initiation shares with the checks its commands make: XGO's
// verdicts and reasons (docs/xfer.md, "Registers": XGO [1:0] the verdict, [7:4] the reason).
`ifndef CNI_XFER_PKG_SV
`define CNI_XFER_PKG_SV
`default_nettype none

// A package's constants serve several modules; any one module uses only some of them.
/* verilator lint_off UNUSEDPARAM */
package cni_xfer_pkg;

  localparam logic [1:0] V_SUCCESS = 2'd0, V_RETRY = 2'd1, V_FAIL = 2'd2;

  // FAIL: the description is bad and would fail again
  localparam logic [3:0] W_NO_PID = 4'd1, W_NO_CMD = 4'd2, W_BAD_VPID = 4'd3, W_BAD_LEN = 4'd4,
                         W_BAD_PIECE = 4'd5, W_PROT_SEND = 4'd6, W_PROT_RECV = 4'd7,
                         W_BAD_FLAG = 4'd8, W_BAD_FOP = 4'd9;
  // RETRY: a shortage of the moment
  localparam logic [3:0] W_PROC_FULL = 4'd10, W_RECS_FULL = 4'd11, W_BUFS_FULL = 4'd13,
                         W_INIT_BUSY = 4'd15;

endpackage
/* verilator lint_on UNUSEDPARAM */

`endif
