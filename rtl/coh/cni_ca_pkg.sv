// SPDX-License-Identifier: Apache-2.0
// Device caching agent (cni_cache_agent, docs/cache-agent.md): the codes its blocks share --
// line states (also the monitor's mon_from_o/mon_to_o codes) and MSHR modes -- and the
// line-state classes. The modules give the codes they use local names (the pinned Yosys subset
// has no `import`).
`ifndef CNI_CA_PKG_SV
`define CNI_CA_PKG_SV
`default_nettype none

// A package's constants serve several modules; any one module uses only some of them.
/* verilator lint_off UNUSEDPARAM */
package cni_ca_pkg;

  // ---- line states (mon_from_o / mon_to_o codes; 0..8 in the order of sim::CacheState) -----
  localparam logic [3:0] ST_I = 4'd0, ST_S = 4'd1, ST_E = 4'd2, ST_O = 4'd3, ST_M = 4'd4;
  localparam logic [3:0] ST_IS = 4'd5, ST_IM = 4'd6, ST_SM = 4'd7, ST_MI = 4'd8, ST_OM = 4'd9;

  // ---- MSHR modes ------------------------------------------------------------------------------
  localparam logic [1:0] MD_LINE = 2'd0, MD_RDNA = 2'd1, MD_WRINV = 2'd2, MD_FLUSH = 2'd3;

  // A line in S, E, O or M: its copy is valid.
  function automatic logic readable(input logic [3:0] s);
    readable = s == ST_S || s == ST_E || s == ST_O || s == ST_M;
  endfunction

  // A line with a request outstanding (its way pinned by a LINE MSHR).
  function automatic logic transient(input logic [3:0] s);
    transient = s == ST_IS || s == ST_IM || s == ST_SM || s == ST_OM;
  endfunction

endpackage
/* verilator lint_on UNUSEDPARAM */

`endif
