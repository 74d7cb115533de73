// SPDX-License-Identifier: Apache-2.0
// Device caching agent (cni_cache_agent, docs/cache-agent.md): the codes its blocks share --
// line states (also the monitor's mon_from_o/mon_to_o codes), MSHR modes and the rows of the
// state tables a job falls in -- and the line-state classes. The modules give the codes they
// use local names (the pinned Yosys subset has no `import`).
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

  // ---- jobs: the row of the state tables (docs/cache-agent.md) a job falls in -----------------
  typedef enum logic [4:0] {
    R_NONE,       // (the engine request cannot be taken yet)
    R_SNP,        // snoop: answer SnpAck/SnpData (+WBP), maybe change the line's state
    R_GNT,        // DataS/DataE/DataM to a LINE MSHR: line (merged for writes) -> way, DONE
    R_UPGACK,     // UpgAck: SM/OM, or IM of a whole-line write (RdX FULL) -> M (merged), DONE
    R_DATAI,      // DataI: data -> the MSHR's buffer word, DONE
    R_WRACK,      // WrAck: DONE
    R_RETRY,      // Retry: BACKOFF
    R_ERR,        // Error to an MSHR: the transient reverts, DONE with error
    R_WBACK,      // WbAck (or Error) to a write-back: MI -> I (entry freed), its FLUSH MSHR DONE
    R_DROP,       // malformed or unexpected message: dropped, counted
    R_ISS,        // send an MSHR's request
    R_DLV,        // deliver an MSHR's response, free it
    R_HIT_RD,     // engine read hit: respond with the line
    R_HIT_WR,     // engine write hit (E/M): merge, -> M, respond
    R_UPG,        // engine request needing ownership of a line in S/O: -> SM/OM, MSHR
    R_MISS,       // engine request to a line in I: way -> IS/IM, MSHR
    R_NA,         // CA_RD_NA / CA_WR_INV to a line in I: MSHR (RDNA / WRINV), no way
    R_EVICT,      // make room: victim S/E -> I, or O/M -> MI (way freed, line to the write-back
                  //   buffer) with a WB (request not taken)
    R_FLUSH_WB,   // CA_FLUSH of O/M: WB, -> MI (line to the write-back buffer), FLUSH MSHR
    R_CLEAN,      // idle clean: a line in O -> MI with a WB (the set's victim pointer stays)
    R_FLUSH_ACK,  // CA_FLUSH of S/E (-> I) or I: respond
    R_BAD         // malformed engine request: respond with error
  } row_e;

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
