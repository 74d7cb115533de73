// SPDX-License-Identifier: Apache-2.0
// The home agent's records and constants, shared by its blocks (cni_home_agent, cni_home_take,
// cni_home_table, cni_home_decide, cni_home_snoop, cni_home_out: the message in flight, what the
// table lookup found, the conditions, the row, the decision record). Included in the body of each
// module: their widths follow the module's parameters, and the pinned Yosys has no parameter
// types. The including module has the parameters LineBytes, NumAgents, LineIdxW, SlotW, NumCnt and
// DevBase and the constant TtW; the field widths below (AgW ... DirW) are declared here, once.
// Each module uses some of the constants. The widths of the records on the blocks' ports:
// cni_coh_pkg::home_*_w.

/* verilator lint_off UNUSEDPARAM */
// Field widths.
localparam int AgW  = cni_coh_pkg::AGENT_W;
localparam int OpW  = cni_coh_pkg::OP_W;
localparam int TagW = cni_coh_pkg::TAG_W;
localparam int OffW = $clog2(LineBytes);
localparam int RegW = cni_amap_pkg::REGION_W;
localparam int DirW = cni_coh_pkg::home_dir_w(NumAgents);  // {policy, state, sharers}

// Counter indices (CSR counters 0..14; see docs/endpoint.md).
localparam int CNT_RDS = 0, CNT_RDX = 1, CNT_UPG = 2, CNT_WB = 3, CNT_SNOOP = 4;
localparam int CNT_RETRY_BUSY = 5, CNT_RETRY_TMO = 6, CNT_PARKED = 7, CNT_RELEASED = 8;
localparam int CNT_RECALL = 9, CNT_ERR0 = 10;  // 10..14 = ERR_OPCODE..ERR_CREDIT (ERR_CREDIT
                                               // pulses come from the link layer)
localparam int CNT_DENIED = 15;                // requests answered Error by a DENY policy

localparam logic [1:0] DIR_I = 2'd0, DIR_S = 2'd1, DIR_X = 2'd2;
localparam logic [1:0] K_SNOOP = 2'd0, K_PARK = 2'd1, K_RECALL = 2'd2;

// Input sources.
localparam logic [1:0] SRC_TMO = 2'd0, SRC_RSP = 2'd1, SRC_CMD = 2'd2, SRC_REQ = 2'd3;
/* verilator lint_on UNUSEDPARAM */

// ---- message in flight and what travels with it ------------------------------------------
typedef struct packed {
  logic [1:0]                    src;
  cni_coh_pkg::hdr_t             hdr;
  logic [cni_coh_pkg::CMD_W-1:0] cmd;
  logic [cni_coh_pkg::ARG_W-1:0] arg;
  logic [LineIdxW-1:0]           line;       // the line the message names (interlock, RAMs)
  logic [TtW-1:0]                tmo_ent;    // SRC_TMO: the timed-out entry
  logic [SlotW-1:0]              slot;       // Pipelined: its line-wide data's slot
  logic                          may_write;  // a snoop answer with data or a write-back
  logic                          may_alloc;  // a request or a RECALL: may take a table entry
} msg_t;

// What the decision needs from the transaction table, looked up by the message's line and tag.
typedef struct packed {
  logic                 hit_any;
  logic [TtW-1:0]       hit_idx;
  logic [1:0]           hit_kind;
  logic [NumAgents-1:0] hit_pend, hit_wbp, hit_wbgot;
  logic [AgW-1:0]       hit_src;
  logic [TagW-1:0]      hit_tag;
  logic [OpW-1:0]       hit_grant;
  logic                 park_hit;
  logic [TtW-1:0]       park_idx;
  logic [AgW-1:0]       park_src;
  logic [TagW-1:0]      park_tag;
  logic [OpW-1:0]       park_op;
  logic                 ent_match;   // the tag names a live non-PARK entry of this line
  logic [1:0]           ent_kind;
  logic [NumAgents-1:0] ent_pend, ent_wbp, ent_wbgot;
  logic [AgW-1:0]       ent_src;
  logic [TagW-1:0]      ent_tag;
  logic [OpW-1:0]       ent_grant;
  logic                 room;        // a request may take an entry (beyond the reserve)
  logic                 free_any;
  logic [TtW-1:0]       free_idx;    // the entry an allocation takes
  logic                 inrange;     // the message names a device line
  logic [RegW-1:0]      region;
} lk_t;

// ---- conditions (D) ---------------------------------------------------------------------------
// They depend on the message, the lookup and the directory word only.
typedef struct packed {
  logic [NumAgents-1:0] c_bit;       // the requester's bit (none if out of range)
  logic                 c_ret_e;     // an RdS on an unshared line gets DataE: the region
                                     // returns RdS exclusive and the policy allows it
  logic                 pol_park;    // the line's policy parks this request
  logic                 pol_deny;    // ... or denies it
  logic                 c_addr_ok;   // a device line, addressed to this agent, known source
  logic                 c_ent_ok;    // the tag names a live entry that waits for this source
  logic                 c_busy;      // a request must be retried: the line is busy, or it
                                     // needs a table entry (parks, or snoops another
                                     // holder) and none is free outside the reserve
  logic                 c_wb_race;   // a write-back that races this agent's snoop
  logic                 c_rec_wait;  // a RECALL must wait: line busy, or table full
  // RELEASE of a parked request from R: the grant (shared for an RdS outside a ret-excl
  // region), the other holders the directory names, and whether they must be snooped first.
  logic [NumAgents-1:0] rel_bit, rel_others;
  logic                 rel_shared, rel_snoop;
  logic                 pol_keep;    // RESUME: the answer leaves the line's policy as it is
  logic                 rsm_retry;   // RESUME SO of a parked RdX or Upg: answered Retry
  logic                 rcd_snoop;   // RECALL_DN: an owner must be downgraded
  // The row search's tests of the opcode, the length, the entry and the directory word.
  logic                 rsp_op_ok, rsp_len_ok;  // a snoop answer's opcode; its length
  logic                 snp_more;    // the entry still waits for answers or write-backs
  logic                 req_op_ok, req_len_ok;  // a request's opcode; its length
  logic                 wb_more;     // a racing write-back: answers or write-backs remain
  logic                 wb_owner;    // a write-back from the owner (X{R})
  logic                 rec_none;    // no host holds the line
  logic                 x_other;     // another agent holds the line exclusive
  logic                 others;      // an agent other than the requester holds the line
  logic                 upg_sh;      // an Upg from a sharer
} hlp_t;

// ---- which row (X) ----------------------------------------------------------------------------
// The rows of the state tables (docs/endpoint.md) a message may fall in.
typedef enum logic [4:0] {
  R_NONE,         // nothing (dropped with an error count; a stale timeout)
  R_TMO_RETRY,    // a parked request timed out: Retry, free the entry (the policy stays)
  R_SNP_UPD,      // snoop answer: update the entry, more answers to come
  R_SNP_EVT,      //   the last answer of a RECALL: the entry raises its event
  R_SNP_GRANT,    //   the last answer of a SNOOP: grant the requester, free the entry
  R_SET_POL,      // ARM, DISARM, POLICY, RELEASE without a parked request: set the policy
  R_REL_GRANT,    // RELEASE/RESUME: answer the parked request from memory, free its entry
  R_REL_SNOOP,    // RELEASE/RESUME: the PARK entry becomes a SNOOP of the other holders
  R_NACK,         // NACK: answer the parked request Retry or Error, free its entry
  R_REC_NACK,     // RECALL of a line with a parked request: Retry it, free its entry;
                  //   the RECALL is not consumed (taken again once the line is free)
  R_REC_WAIT,     // RECALL must wait (line busy or table full): not consumed, deferred
  R_REC_DONE,     // RECALL of a line no host holds: entry with its event at once, dir -> I
  R_REC_SNOOP,    // RECALL: FwdInv every holder, dir -> I
  R_RCD_DONE,     // RECALL_DN of a line no one holds exclusive: entry with its event at once
  R_RCD_SNOOP,    // RECALL_DN: FwdDown the owner, dir -> S{owner}
  R_REQ_ERROR,    // request: Error answer (the counters say why)
  R_WB_RACE,      // write-back racing this agent's snoop: absorbed, more answers to come
  R_WB_RACE_EVT,  //   completing a RECALL: event
  R_WB_RACE_GNT,  //   completing a SNOOP: WbAck and the requester's grant together
  R_WB_OWNER,     // write-back from the owner: memory, dir -> I, WbAck
  R_RETRY,        // request retried: line busy or no entry free
  R_PARK,         // request the line's policy parks: PARK entry, TRIGGER
  R_DENY,         // request the line's policy denies: Error
  R_GRANT_E,      // DataE, dir -> X{R}
  R_GRANT_S,      // DataS, dir -> S{R}
  R_GRANT_S_ADD,  // DataS, dir -> S plus R
  R_SNOOP_DOWN,   // RdS on X{O}: FwdDown O; SNOOP entry; dir -> S{O,R}
  R_SNOOP_INV,    // RdX/Upg with other holders: FwdInv them; SNOOP entry; dir -> X{R}
  R_UPG_ACK       // Upg from a sharer with no other holder: UpgAck, dir -> X{R}
} row_e;

// ---- the row's answer (B) ---------------------------------------------------------------------
// Decision record: built in B from the row; applied in C when its output channels take it.
typedef struct packed {
  logic                 out_rsp, out_dat;  // an answer on RSP / on DAT (both: WbAck + grant)
  cni_coh_pkg::hdr_t    rsp_hdr, dat_hdr;
  logic                 data_msg; // DAT data: the message's (SnpData, WB), else the memory's
  logic                 pop, stall_cmd, mem_we, dir_we;
  logic [DirW-1:0]      dir_wd;
  logic                 alloc;
  logic [TtW-1:0]       alloc_idx;
  logic                 rsv;      // alloc_idx was found free at the lookup and reserved
  logic [RegW-1:0]      alloc_reg;  // the line's region
  logic [1:0]           alloc_kind;
  logic [NumAgents-1:0] alloc_pend;
  logic [OpW-1:0]       alloc_grant;
  logic                 alloc_evt;
  logic                 upd;
  logic [TtW-1:0]       upd_idx;
  logic [NumAgents-1:0] upd_pend, upd_wbp, upd_wbgot;
  logic                 upd_evt;
  logic                 free;
  logic [TtW-1:0]       free_idx;
  logic                 conv;     // the PARK entry at conv_idx becomes a SNOOP transaction
  logic [TtW-1:0]       conv_idx;
  logic [NumAgents-1:0] conv_pend;
  logic [OpW-1:0]       conv_grant;
  logic [NumCnt-1:0]    cnt;
  logic                 snp;      // snoops to send: a job for the snoop sequencer
  logic [NumAgents-1:0] snp_vec;
  logic [NumAgents-1:0] snp_rest; // the agents after the first (snp_vec less its lowest bit)
  logic                 snp_last; // ... none: the first snoop is the job's last
  logic [OpW-1:0]       snp_op;
  logic [TtW-1:0]       snp_ent;
} dec_t;

// A device line's address: DevBase is aligned to the window (the agent's elaboration check), so
// the line's bits are ORed in, without an adder's carry chain.
function automatic logic [47:0] line_addr(input logic [LineIdxW-1:0] line);
  line_addr = DevBase | (48'(line) << OffW);
endfunction

function automatic logic [NumAgents-1:0] drop_lowest(input logic [NumAgents-1:0] v);
  drop_lowest = v & (v - 1'b1);  // v less its lowest bit set
endfunction
