// SPDX-License-Identifier: Apache-2.0
// The device address map: its regions in address order, the engine that owns each, and the
// layout functions every block uses (the endpoint, the home agent, the engine bus, the CSR
// block, the formal harness); the C++ side reads the same map from the CSR block at run time
// (docs/endpoint.md, "Address map"). Adding an engine adds its region(s) here.
`ifndef CNI_AMAP_PKG_SV
`define CNI_AMAP_PKG_SV
`default_nettype none

// A package's constants serve many modules; any one module uses only some of them.
/* verilator lint_off UNUSEDPARAM */
package cni_amap_pkg;

  // ---- regions (in address order; a region's index is its RET_EXCL bit) --------------------
  localparam int NUM_REGIONS = 6;
  localparam int REGION_W    = $clog2(NUM_REGIONS);  // a region's index
  localparam int REG_MEM     = 0;  // plain coherent device memory
  localparam int REG_PIO_C   = 1;  // PIO (c): two groups of line pairs
  localparam int REG_PIO_A   = 2;  // PIO (a): two control lines, then overflow lines
  localparam int REG_PIO_B   = 3;  // PIO (b): the same layout
  localparam int REG_SCRATCH = 4;  // scratch-pad engine (docs/endpoint.md, worked example)
  localparam int REG_CNI     = 5;  // CNI cache/queue engine (docs/cni.md; cni_cq_pkg's layout)

  // ---- engines (on the engine bus, in priority order: lower index first) --------------------
  localparam int NUM_ENGINES = 3;
  localparam int ENG_PIO     = 0;
  localparam int ENG_SCRATCH = 1;
  localparam int ENG_CNI     = 2;
  localparam int ENG_NONE    = NUM_ENGINES;  // plain memory: no engine

  // The engine that owns a region.
  function automatic int owner(input int r);
    if (r == REG_PIO_C || r == REG_PIO_A || r == REG_PIO_B) owner = ENG_PIO;
    else if (r == REG_SCRATCH) owner = ENG_SCRATCH;
    else if (r == REG_CNI) owner = ENG_CNI;
    else owner = ENG_NONE;
  endfunction

  // ---- layout -------------------------------------------------------------------------------
  // Line counts of the regions, 32 bits each (region r at [32r +: 32]), from the sizes the
  // endpoint is built with (cni_lines: cni_cq_pkg::region_lines of its configuration, 0 when the
  // endpoint has no CNI engine).
  localparam int LW = NUM_REGIONS * 32;
  function automatic logic [LW-1:0] region_lines(input int mem_lines, input int c_pairs,
                                                 input int novf_a, input int novf_b,
                                                 input int scratch_lines, input int cni_lines);
    region_lines = '0;
    region_lines[REG_MEM * 32 +: 32]     = 32'(mem_lines);
    region_lines[REG_PIO_C * 32 +: 32]   = 32'(2 * c_pairs);
    region_lines[REG_PIO_A * 32 +: 32]   = 32'(2 + novf_a);
    region_lines[REG_PIO_B * 32 +: 32]   = 32'(2 + novf_b);
    region_lines[REG_SCRATCH * 32 +: 32] = 32'(scratch_lines);
    region_lines[REG_CNI * 32 +: 32]     = 32'(cni_lines);
  endfunction

  // Lines of region r.
  function automatic int lines(input logic [LW-1:0] rl, input int r);
    lines = int'(rl[r * 32 +: 32]);
  endfunction

  // First line of region r (r = NUM_REGIONS: the total).
  function automatic int base(input logic [LW-1:0] rl, input int r);
    base = 0;
    for (int i = 0; i < NUM_REGIONS; i++) if (i < r) base = base + int'(rl[i * 32 +: 32]);
  endfunction

  function automatic int total(input logic [LW-1:0] rl);
    total = base(rl, NUM_REGIONS);
  endfunction

  // The full geometry (the benchmark build; docs/endpoint.md, "Parameters").
  localparam logic [LW-1:0] FULL_LINES = region_lines(1024, 256, 76, 76, 64, 0);

  // ---- network (docs/network.md "Frames", docs/endpoint.md "Network port") ------------------
  // A frame on the device's port: a 12-byte header -- dst (2 bytes), src (2), len (2, payload
  // bytes), type (1), flags (1), seq (4), little-endian -- then the payload (the MAC appends the
  // FCS). The type says which engine a received frame is for.
  localparam int NET_HDR_BYTES = 12;
  localparam logic [7:0] NET_TYPE_SCRATCH = 8'h01;  // the scratch-pad engine's frames
  localparam logic [7:0] NET_TYPE_CNI_DATA = 8'h02; // the CNI engine's (cni_cq_pkg::NET_TYPE_*)
  localparam logic [7:0] NET_TYPE_CNI_ACK  = 8'h03;

  // Engines with a network port (`CNI_ENGINE_NET`); the endpoint ties the others' off.
  localparam logic [NUM_ENGINES-1:0] ENG_NET = (NUM_ENGINES'(1) << ENG_SCRATCH) |
                                               (NUM_ENGINES'(1) << ENG_CNI);

  // The engine that owns frames of type t (ENG_NONE: none; such frames are dropped, counted).
  function automatic int net_owner(input logic [7:0] t);
    if (t == NET_TYPE_SCRATCH) net_owner = ENG_SCRATCH;
    else if (t == NET_TYPE_CNI_DATA || t == NET_TYPE_CNI_ACK) net_owner = ENG_CNI;
    else net_owner = ENG_NONE;
  endfunction

  // ---- the caching agent (docs/endpoint.md, "The caching agent on the engine bus") ----------
  // Engines that use the caching agent's request port (`CNI_ENGINE_CA`) for host lines; the
  // endpoint ties the others' off. They share it with the endpoint's external port (first).
  // (The CNI engine uses it in CNI16Qm only; its other configurations present no request.)
  localparam logic [NUM_ENGINES-1:0] ENG_CA = (NUM_ENGINES'(1) << ENG_SCRATCH) |
                                              (NUM_ENGINES'(1) << ENG_CNI);

endpackage
/* verilator lint_on UNUSEDPARAM */

// The engine-bus connections every engine takes (docs/endpoint.md, "Engine bus"): the clock and
// reset and its slice of cni_endpoint's bus signals. `CNI_ENGINE_BUS(k)` inside an engine's
// instantiation connects it as engine k. (Defined here, beside the map, because this file is
// read before every module that uses it.)
`define CNI_ENGINE_BUS(k) \
  .clk_i, .rst_ni, \
  .evt_valid_i (eb_evt_valid[k]), .evt_ready_o (eb_evt_ready[k]), .evt_kind_i (evt_kind), \
  .evt_line_i (evt_line), .evt_op_i (evt_op), .evt_src_i (evt_src), \
  .cmd_valid_o (eb_cmd_valid[k]), .cmd_ready_i (eb_cmd_ready[k]), \
  .cmd_op_o (eb_cmd_op[(k) * cni_coh_pkg::CMD_W +: cni_coh_pkg::CMD_W]), \
  .cmd_arg_o (eb_cmd_arg[(k) * cni_coh_pkg::ARG_W +: cni_coh_pkg::ARG_W]), \
  .cmd_line_o (eb_cmd_line[(k) * LineIdxW +: LineIdxW]), \
  .mem_en_o (eb_mem_en[k]), .mem_we_o (eb_mem_we[k]), \
  .mem_addr_o (eb_mem_addr[(k) * LineIdxW +: LineIdxW]), \
  .mem_wdata_o (eb_mem_wdata[(k) * LineBits +: LineBits]), .mem_gnt_i (eb_mem_gnt[k]), \
  .mem_rdata_i (mb_rd), \
  .reg_valid_i (eb_reg_valid[k]), .reg_we_i (reg_we), .reg_addr_i (reg_addr), \
  .reg_wdata_i (reg_wdata), .reg_rdata_o (eb_reg_rdata[(k) * 32 +: 32]), \
  .idle_o (eb_idle[k])

// The network connections of an engine that has a port (cni_amap_pkg::ENG_NET): its frames out
// and in (AXI4-Stream beats of NetBytes bytes, docs/endpoint.md "Network port") and the node id.
`define CNI_ENGINE_NET(k) \
  .node_id_i (node_id_i), \
  .ntx_valid_o (eb_ntx_valid[k]), .ntx_ready_i (eb_ntx_ready[k]), \
  .ntx_data_o (eb_ntx_data[(k) * NetW +: NetW]), \
  .ntx_keep_o (eb_ntx_keep[(k) * NetBytes +: NetBytes]), \
  .ntx_last_o (eb_ntx_last[k]), .ntx_dest_o (eb_ntx_dest[(k) * 16 +: 16]), \
  .nrx_valid_i (eb_nrx_valid[k]), .nrx_ready_o (eb_nrx_ready[k]), .nrx_data_i (nrx_data), \
  .nrx_keep_i (nrx_keep), .nrx_last_i (nrx_last), .nrx_user_i (nrx_user)


`endif

// The caching-agent connections of an engine that uses it (cni_amap_pkg::ENG_CA): requests for
// host lines on cni_cache_agent's engine port (ops cni_coh_pkg::CA_*, ids of CacheIdW bits, a
// request held until taken) and the responses to them (offered to the engine that asked only).
`define CNI_ENGINE_CA(k) \
  .ca_req_valid_o (eb_ca_req_valid[k]), .ca_req_ready_i (eb_ca_req_ready[k]), \
  .ca_req_op_o (eb_ca_req_op[(k) * cni_coh_pkg::CA_OP_W +: cni_coh_pkg::CA_OP_W]), \
  .ca_req_addr_o (eb_ca_req_addr[(k) * cni_coh_pkg::ADDR_W +: cni_coh_pkg::ADDR_W]), \
  .ca_req_data_o (eb_ca_req_data[(k) * LineBits +: LineBits]), \
  .ca_req_be_o (eb_ca_req_be[(k) * LineBytes +: LineBytes]), \
  .ca_req_id_o (eb_ca_req_id[(k) * CacheIdW +: CacheIdW]), \
  .ca_rsp_valid_i (eb_ca_rsp_valid[k]), .ca_rsp_ready_o (eb_ca_rsp_ready[k]), \
  .ca_rsp_id_i (ca_rsp_id), .ca_rsp_data_i (ca_rsp_data), .ca_rsp_err_i (ca_rsp_err)
