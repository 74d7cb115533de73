// SPDX-License-Identifier: Apache-2.0
// The engine records: the channels of an engine's ports, one request/response pair per channel,
// in the manner of PULP's AXI structs (docs/architecture.md, "The engine contract"). A request
// record travels from the channel's initiator and carries its valid and its payload (and, for a
// channel with a return path, the ready of that path); the response record travels back with the
// ready (and the return path). Included in the body of every engine and of cni_endpoint: the
// widths follow the platform geometry, which every engine takes as the parameters LineBytes,
// LineIdxW, NetBytes and CacheIdW, and the pinned Yosys has no parameter types. On the ports the
// records are their packed bits, of the widths cni_coh_pkg::eng_*_w, checked below.
//
//   channel  request (initiator)             response                   port names (engine)
//   evt      eng_evt_req_t (home agent)      eng_evt_rsp_t              evt_req_i, evt_rsp_o
//   cmd      eng_cmd_req_t (engine)          eng_cmd_rsp_t              cmd_req_o, cmd_rsp_i
//   mem      eng_mem_req_t (engine)          eng_mem_rsp_t              mem_req_o, mem_rsp_i
//   reg      eng_reg_req_t (CSR block)       eng_reg_rsp_t              reg_req_i, reg_rsp_o
//   net      eng_net_req_t (engine: frames   eng_net_rsp_t (frames in,  net_req_o, net_rsp_i
//            out, ready for frames in)       ready for frames out)
//   ca       eng_ca_req_t (engine: request,  eng_ca_rsp_t (ready,       ca_req_o, ca_rsp_i
//            ready for the response)         response)

// An event of a line the engine owns (cni_engine_bus): TRIGGER (a request its policy parked) or
// RECALL_DONE; the owner may hold it (ready low).
typedef struct packed {
  logic                            valid;
  logic [cni_coh_pkg::EVT_W-1:0]   kind;
  logic [LineIdxW-1:0]             line;
  logic [cni_coh_pkg::OP_W-1:0]    op;    // TRIGGER: the parked request's opcode
  logic [cni_coh_pkg::AGENT_W-1:0] src;   // TRIGGER: its requester
} eng_evt_req_t;
typedef struct packed {
  logic ready;
} eng_evt_rsp_t;

// A command to the home agent (cni_coh_pkg::CMD_*), held until taken.
typedef struct packed {
  logic                          valid;
  logic [cni_coh_pkg::CMD_W-1:0] op;
  logic [cni_coh_pkg::ARG_W-1:0] arg;
  logic [LineIdxW-1:0]           line;
} eng_cmd_req_t;
typedef struct packed {
  logic ready;
} eng_cmd_rsp_t;

// The line memory's port B: an access held until granted; read data the cycle after the grant.
typedef struct packed {
  logic                   en;
  logic                   we;
  logic [LineIdxW-1:0]    addr;
  logic [LineBytes*8-1:0] wdata;
} eng_mem_req_t;
typedef struct packed {
  logic                   gnt;
  logic [LineBytes*8-1:0] rdata;
} eng_mem_rsp_t;

// An access to the engine's register window (one cycle; read data the cycle after): through
// which of the region's windows (ctx) and whether that region is privileged (priv: the host
// reached it through a page only the OS maps, or the CSR block's management path, which is
// privileged, context 0; docs/architecture.md, "Register windows").
typedef struct packed {
  logic        valid;
  logic        we;
  logic        priv;
  logic [3:0]  ctx;
  logic [7:0]  addr;   // byte offset in the window
  logic [31:0] wdata;
} eng_reg_req_t;
typedef struct packed {
  logic [31:0] rdata;
} eng_reg_rsp_t;

// The network port (AXI4-Stream beats of NetBytes bytes; docs/network.md): frames out, and the
// ready for the frames in, which every engine with a port sees (it takes those of its types).
// Two channels share the port (docs/network.md, "Channels"; type bit 7: [0] requests, [1]
// replies): the engine has a ready per channel for the frames in (an engine with one input ties
// the two together) and is told each frame's channel; tx_room says of which channels the MAC
// takes a whole frame now. An engine that sends both may start a frame only on a channel with
// room, so a reply never waits behind a request the network holds; for an engine that does not
// look, the switch forwards a frame only when its channel has room (docs/endpoint.md).
typedef struct packed {
  logic                   tx_valid;
  logic [NetBytes*8-1:0]  tx_data;
  logic [NetBytes-1:0]    tx_keep;
  logic                   tx_last;
  logic [15:0]            tx_dest;   // the destination node
  logic [1:0]             rx_ready;  // per channel: the engine takes a frame of that channel
} eng_net_req_t;
typedef struct packed {
  logic [15:0]            node_id;   // this device's node (static)
  logic                   tx_ready;
  logic                   rx_valid;
  logic [NetBytes*8-1:0]  rx_data;
  logic [NetBytes-1:0]    rx_keep;
  logic                   rx_last;
  logic                   rx_user;   // with rx_last: the frame's FCS check failed
  logic                   rx_chan;   // the channel of the frame coming in (held for the frame)
  logic [1:0]             tx_room;   // per channel: the MAC takes a whole frame of it now
} eng_net_rsp_t;

// The device's caching agent (cni_cache_agent): a request (cni_coh_pkg::CA_*, held until taken)
// and the ready for its response; the response, in the order the agent finishes.
typedef struct packed {
  logic                             valid;
  logic [cni_coh_pkg::CA_OP_W-1:0]  op;
  logic [cni_coh_pkg::ADDR_W-1:0]   addr;
  logic [LineBytes*8-1:0]           data;
  logic [LineBytes-1:0]             be;
  logic [CacheIdW-1:0]              id;
  logic                             rsp_ready;
} eng_ca_req_t;
typedef struct packed {
  logic                   ready;
  logic                   rsp_valid;
  logic [CacheIdW-1:0]    rsp_id;
  logic [LineBytes*8-1:0] rsp_data;
  logic                   rsp_err;
} eng_ca_rsp_t;

// The widths on the ports (cni_coh_pkg) are the records' widths (checked where the tool takes
// $bits of a type: Verilator's builds and lint, not Yosys).
`ifndef YOSYS
if (!(
    $bits(eng_evt_req_t) == cni_coh_pkg::eng_evt_req_w(LineIdxW) &&
    $bits(eng_evt_rsp_t) == cni_coh_pkg::ENG_EVT_RSP_W &&
    $bits(eng_cmd_req_t) == cni_coh_pkg::eng_cmd_req_w(LineIdxW) &&
    $bits(eng_cmd_rsp_t) == cni_coh_pkg::ENG_CMD_RSP_W &&
    $bits(eng_mem_req_t) == cni_coh_pkg::eng_mem_req_w(LineIdxW, LineBytes) &&
    $bits(eng_mem_rsp_t) == cni_coh_pkg::eng_mem_rsp_w(LineBytes) &&
    $bits(eng_reg_req_t) == cni_coh_pkg::ENG_REG_REQ_W &&
    $bits(eng_reg_rsp_t) == cni_coh_pkg::ENG_REG_RSP_W &&
    $bits(eng_net_req_t) == cni_coh_pkg::eng_net_req_w(NetBytes) &&
    $bits(eng_net_rsp_t) == cni_coh_pkg::eng_net_rsp_w(NetBytes) &&
    $bits(eng_ca_req_t) == cni_coh_pkg::eng_ca_req_w(LineBytes, CacheIdW) &&
    $bits(eng_ca_rsp_t) == cni_coh_pkg::eng_ca_rsp_w(LineBytes, CacheIdW)))
  $error("cni_engine_types.svh: a record's width differs from its cni_coh_pkg::eng_*_w");
`endif
