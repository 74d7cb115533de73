// SPDX-License-Identifier: Apache-2.0
// Coherent link protocol: channels, opcodes, message header and device-internal command/event
// types shared by every OpenCNI block. The C++ mirror is sim/include/cni/proto.hpp; the two
// must agree bit for bit (tests/test_proto_layout.cpp checks the encodings).
`ifndef CNI_COH_PKG_SV
`define CNI_COH_PKG_SV
`default_nettype none

// A package's constants serve many modules; any one module uses only some of them.
/* verilator lint_off UNUSEDPARAM */
package cni_coh_pkg;

  // ---- sizes ------------------------------------------------------------------------------
  localparam int AGENT_W = 4;   // agent id: up to 16 agents on one coherence fabric
  localparam int TAG_W   = 8;   // requester's transaction tag, echoed in responses
  localparam int ADDR_W  = 48;  // physical byte address; always line aligned in messages
  localparam int LEN_W   = 8;   // data bytes carried (0 or the line size)
  localparam int FLAGS_W = 4;
  localparam int OP_W    = 5;

  // ---- virtual channels -------------------------------------------------------------------
  localparam int NUM_CH = 4;
  localparam int CH_REQ = 0;  // requester -> home: RdS, RdX, Upg, WB
  localparam int CH_FWD = 1;  // home -> caching agent: snoops
  localparam int CH_RSP = 2;  // acks (with or without dirty data), Retry, Error
  localparam int CH_DAT = 3;  // home -> requester: data grants

  // ---- opcodes (one space; the high bits name the channel an opcode belongs to) -------------
  localparam logic [OP_W-1:0] OP_RDS      = 5'h01;  // read, want Shared (home may grant E)
  localparam logic [OP_W-1:0] OP_RDX      = 5'h02;  // read for ownership
  localparam logic [OP_W-1:0] OP_UPG      = 5'h03;  // S -> M without data
  localparam logic [OP_W-1:0] OP_WB       = 5'h04;  // write back dirty line (carries data)
  localparam logic [OP_W-1:0] OP_FWD_INV  = 5'h08;  // invalidate; return data if dirty
  localparam logic [OP_W-1:0] OP_FWD_DOWN = 5'h09;  // downgrade to S; return data if dirty
  localparam logic [OP_W-1:0] OP_FWD_DNO  = 5'h0A;  // downgrade; dirty owner keeps O, sends data
  localparam logic [OP_W-1:0] OP_SNP_ACK  = 5'h10;  // snoop done, no dirty data (flag WBP)
  localparam logic [OP_W-1:0] OP_SNP_DATA = 5'h11;  // snoop done, dirty data attached
  localparam logic [OP_W-1:0] OP_UPG_ACK  = 5'h12;  // upgrade granted (requester now E/M)
  localparam logic [OP_W-1:0] OP_WB_ACK   = 5'h13;  // write-back accepted
  localparam logic [OP_W-1:0] OP_RETRY    = 5'h14;  // not ready / busy: re-issue the request
  localparam logic [OP_W-1:0] OP_ERROR    = 5'h15;  // request rejected (malformed)
  localparam logic [OP_W-1:0] OP_DATA_S   = 5'h18;  // grant Shared
  localparam logic [OP_W-1:0] OP_DATA_E   = 5'h19;  // grant Exclusive (clean)
  localparam logic [OP_W-1:0] OP_DATA_M   = 5'h1A;  // grant Exclusive, dirty (writeback owed)
  localparam logic [OP_W-1:0] OP_RDNA     = 5'h05;  // non-allocating read: a copy, no state
  localparam logic [OP_W-1:0] OP_WRINV    = 5'h06;  // full-line write-invalidate (carries data)
  localparam logic [OP_W-1:0] OP_NC       = 5'h07;  // uncached 8-byte register access (FLAG_NCWR:
                                                    // a write, len 8, the value in data [63:0])
  localparam logic [OP_W-1:0] OP_WR_ACK   = 5'h16;  // WrInv done: memory written, copies gone
  localparam logic [OP_W-1:0] OP_NC_ACK   = 5'h17;  // uncached write done
  localparam logic [OP_W-1:0] OP_DATA_I   = 5'h1B;  // data for RdNA; line left I at requester
  localparam logic [OP_W-1:0] OP_NC_DATA  = 5'h1C;  // uncached read's value: len 8, data [63:0]

  // ---- flags ------------------------------------------------------------------------------
  localparam int FLAG_WBP  = 0;  // SnpAck: a write-back of this line is in flight from me
  localparam int FLAG_NCWR = 1;  // Nc: a write
  localparam int FLAG_FULL = 2;  // RdX: the requester writes the whole line (UpgAck may grant)

  // ---- message header (data travels beside it, LineBytes*8 bits) ---------------------------
  typedef struct packed {
    logic [OP_W-1:0]    op;
    logic [AGENT_W-1:0] src;
    logic [AGENT_W-1:0] dst;
    logic [TAG_W-1:0]   tag;
    logic [FLAGS_W-1:0] flags;
    logic [LEN_W-1:0]   len;
    logic [ADDR_W-1:0]  addr;
  } hdr_t;
  localparam int HDR_W = OP_W + 2 * AGENT_W + TAG_W + FLAGS_W + LEN_W + ADDR_W;  // 81

  // ---- device-internal: home agent <-> device engines (the engine bus, docs/endpoint.md) ----
  // Commands an engine gives the home agent for one line (line index within the device map),
  // with an argument (CMD_POLICY: a policy; CMD_RESUME: a grant; CMD_NACK: the answer).
  localparam int CMD_W = 3;
  localparam logic [CMD_W-1:0] CMD_ARM       = 3'd0;  // policy PARK (park requests until RELEASE)
  localparam logic [CMD_W-1:0] CMD_RECALL    = 3'd1;  // invalidate host copies; memory current
  localparam logic [CMD_W-1:0] CMD_RELEASE   = 3'd2;  // policy ALLOW; answer the parked request
  localparam logic [CMD_W-1:0] CMD_DISARM    = 3'd3;  // policy ALLOW without answering anything
  localparam logic [CMD_W-1:0] CMD_POLICY    = 3'd4;  // policy := arg, nothing answered
  localparam logic [CMD_W-1:0] CMD_RESUME    = 3'd5;  // answer the parked request (grant arg)
  localparam logic [CMD_W-1:0] CMD_RECALL_DN = 3'd6;  // downgrade-only recall: owner keeps S
  localparam logic [CMD_W-1:0] CMD_NACK      = 3'd7;  // answer the parked request Retry / Error
  localparam int ARG_W = 2;

  // Per-line policy, kept in the directory word and set by commands: how the home answers a
  // request on the line (after the line's busy check).
  localparam int POL_W = 2;
  localparam logic [POL_W-1:0] POL_ALLOW  = 2'd0;  // the state tables
  localparam logic [POL_W-1:0] POL_SHARED = 2'd1;  // RdS granted Shared only; RdX/Upg parked
  localparam logic [POL_W-1:0] POL_PARK   = 2'd2;  // every request parked (TRIGGER)
  localparam logic [POL_W-1:0] POL_DENY   = 2'd3;  // every request answered Error

  // CMD_RESUME's grant.
  localparam logic [ARG_W-1:0] GNT_AUTO = 2'd0;  // as RELEASE: DataE, or DataS for an RdS
                                                 // outside a return-in-Exclusive region
  localparam logic [ARG_W-1:0] GNT_S    = 2'd1;  // DataS to an RdS (DataE to RdX/Upg)
  localparam logic [ARG_W-1:0] GNT_E    = 2'd2;  // DataE
  localparam logic [ARG_W-1:0] GNT_SO   = 2'd3;  // shared only: DataS to an RdS; an RdX or Upg
                                                 // is answered Retry (it re-issues)
  // CMD_NACK's answer.
  localparam logic [ARG_W-1:0] NACK_RETRY = 2'd0;
  localparam logic [ARG_W-1:0] NACK_ERROR = 2'd1;

  // Events the home agent gives the engines (with the line, and for a TRIGGER the parked
  // request's opcode and requester).
  localparam int EVT_W = 1;
  localparam logic [EVT_W-1:0] EVT_TRIGGER     = 1'b0;  // a request parked on the line
  localparam logic [EVT_W-1:0] EVT_RECALL_DONE = 1'b1;  // RECALL finished; memory is current

  // ---- device caching agent: engine request codes (cni_cache_agent, docs/cache-agent.md) ----
  localparam int CA_OP_W = 3;
  localparam logic [CA_OP_W-1:0] CA_RD_S   = 3'd0;  // read; the line allocated shared (or E)
  localparam logic [CA_OP_W-1:0] CA_RD_X   = 3'd1;  // read; the line allocated exclusive
  localparam logic [CA_OP_W-1:0] CA_WR     = 3'd2;  // write the enabled bytes (gains M, merges)
  localparam logic [CA_OP_W-1:0] CA_RD_NA  = 3'd3;  // read without allocating (RdNA on a miss)
  localparam logic [CA_OP_W-1:0] CA_WR_INV = 3'd4;  // write a full line (WrInv on a miss)
  localparam logic [CA_OP_W-1:0] CA_FLUSH  = 3'd5;  // write back a dirty line, drop a clean one

  // ---- malformed-message counter indices -----------------------------------------------------
  localparam int ERR_OPCODE = 0;  // unknown opcode or opcode on the wrong channel
  localparam int ERR_ADDR   = 1;  // outside every region, misaligned, or wrong destination
  localparam int ERR_LEN    = 2;  // data length does not match the opcode
  localparam int ERR_PROTO  = 3;  // protocol violation (WB from non-owner, stray response...)
  localparam int ERR_CREDIT = 4;  // message arrived with no buffer credit
  localparam int NUM_ERR    = 5;

  // ---- the home agent's records on the ports of its blocks ----------------------------------
  // (cni_home_agent, cni_home_table, cni_home_decide, cni_home_snoop; the layouts are in
  // rtl/common/cni_home_types.svh, and cni_home_decide checks these widths against them.) n: the
  // agents (NumAgents); tt_w: an entry index; line_w: a line index; slot_w: a data slot index;
  // num_cnt: the counter pulses.
  // A device line index (the home agent's, the engines'): the on-chip lines', or with
  // 2**dram_idx_w DRAM-backed lines after them one bit more than those (docs/dram.md).
  function automatic int line_idx_w(input int num_lines, input int dram_idx_w);
    line_idx_w = (dram_idx_w > 0) ? dram_idx_w + 1 : $clog2(num_lines);
  endfunction
  function automatic int home_dir_w(input int n);  // {policy, state, sharers}
    home_dir_w = POL_W + 2 + n;
  endfunction
  function automatic int home_msg_w(input int line_w, input int tt_w, input int slot_w);
    home_msg_w = 2 + HDR_W + CMD_W + ARG_W + line_w + tt_w + slot_w + 2;
  endfunction
  function automatic int home_lk_w(input int n, input int tt_w, input int reg_w);
    home_lk_w = 3 * tt_w + 6 * n + 3 * (AGENT_W + TAG_W + OP_W) + reg_w + 10;
  endfunction
  function automatic int home_dec_w(input int n, input int tt_w, input int reg_w,
                                    input int num_cnt);
    home_dec_w = 2 * HDR_W + home_dir_w(n) + 5 * tt_w + reg_w + 7 * n + 3 * OP_W + num_cnt + 18;
  endfunction
  // a snoop job: {agents, the agents after the first, none after it, opcode, table entry}
  function automatic int home_job_w(input int n, input int tt_w);
    home_job_w = 2 * n + 1 + OP_W + tt_w;
  endfunction

  // ---- the engine records: an engine's ports (docs/architecture.md, "The engine contract") ---
  // The widths of the channel records on every engine's ports, one request/response pair per
  // channel; the layouts are in rtl/common/cni_engine_types.svh, which checks these widths
  // against them. line_w: a device line index; line_bytes: the line size; net_bytes: bytes per
  // network beat; id_w: a caching-agent request id.
  function automatic int eng_evt_req_w(input int line_w);  // home agent -> engine: an event
    eng_evt_req_w = 1 + EVT_W + line_w + OP_W + AGENT_W;
  endfunction
  localparam int ENG_EVT_RSP_W = 1;
  function automatic int eng_cmd_req_w(input int line_w);  // engine -> home agent: a command
    eng_cmd_req_w = 1 + CMD_W + ARG_W + line_w;
  endfunction
  localparam int ENG_CMD_RSP_W = 1;
  function automatic int eng_mem_req_w(input int line_w, input int line_bytes);  // line memory
    eng_mem_req_w = 2 + line_w + 8 * line_bytes;
  endfunction
  function automatic int eng_mem_rsp_w(input int line_bytes);
    eng_mem_rsp_w = 1 + 8 * line_bytes;
  endfunction
  localparam int ENG_REG_REQ_W = 47;  // the CSR block -> engine: a register access
  localparam int ENG_REG_RSP_W = 32;
  function automatic int eng_net_req_w(input int net_bytes);  // the network port
    eng_net_req_w = 9 * net_bytes + 20;
  endfunction
  function automatic int eng_net_rsp_w(input int net_bytes);
    eng_net_rsp_w = 9 * net_bytes + 23;
  endfunction
  function automatic int eng_ca_req_w(input int line_bytes, input int id_w);  // caching agent
    eng_ca_req_w = 2 + CA_OP_W + ADDR_W + 9 * line_bytes + id_w;
  endfunction
  function automatic int eng_ca_rsp_w(input int line_bytes, input int id_w);
    eng_ca_rsp_w = 3 + id_w + 8 * line_bytes;
  endfunction

endpackage
/* verilator lint_on UNUSEDPARAM */

`endif
