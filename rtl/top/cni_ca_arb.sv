// SPDX-License-Identifier: Apache-2.0
// The caching agent's request port shared by its users (docs/endpoint.md, "The caching agent
// on the engine bus"): the endpoint's external port (source 0) and the engines that use it
// (source 1 + k for engine k, cni_amap_pkg::ENG_CA). A request leaves with its source in the
// top bits of its id, so the agent's response (matched by id, in completion order) goes back
// to the source that asked.
//
// Parameters:
//   NumSrc    - sources (>= 1); source 0 has priority, then 1, 2, ...
//   IdW       - a source's request id width
//   LineBytes - line size
// Ports:
//   s_req_*, s_rsp_* - the sources, source s at [s] / [s*W +: W]: a request is held stable
//                      until s_req_ready_o; a response is offered to its source only
//   req_*, rsp_*     - the caching agent's port (ids of IdW + SrcW bits: {source, id})
//   idle_o           - no request held (chosen and not yet taken)
// A chosen request stays chosen until the agent takes it, so the agent sees one request from
// start to end (its port may stall).
`default_nettype none
`include "cni_assert.svh"

module cni_ca_arb #(
  parameter int NumSrc    = 2,
  parameter int IdW       = 4,
  parameter int LineBytes = 128,
  localparam int SrcW     = (NumSrc > 1) ? $clog2(NumSrc) : 1,
  localparam int LineBits = LineBytes * 8,
  localparam int OpW      = cni_coh_pkg::CA_OP_W,
  localparam int AddrW    = cni_coh_pkg::ADDR_W
) (
  input  wire logic                      clk_i,
  input  wire logic                      rst_ni,
  // sources
  input  wire logic [NumSrc-1:0]         s_req_valid_i,
  output logic [NumSrc-1:0]              s_req_ready_o,
  input  wire logic [NumSrc*OpW-1:0]     s_req_op_i,
  input  wire logic [NumSrc*AddrW-1:0]   s_req_addr_i,
  input  wire logic [NumSrc*LineBits-1:0] s_req_data_i,
  input  wire logic [NumSrc*LineBytes-1:0] s_req_be_i,
  input  wire logic [NumSrc*IdW-1:0]     s_req_id_i,
  output logic [NumSrc-1:0]              s_rsp_valid_o,
  input  wire logic [NumSrc-1:0]         s_rsp_ready_i,
  output logic [IdW-1:0]                 s_rsp_id_o,
  // the caching agent
  output logic                           req_valid_o,
  input  wire logic                      req_ready_i,
  output logic [OpW-1:0]                 req_op_o,
  output logic [AddrW-1:0]               req_addr_o,
  output logic [LineBits-1:0]            req_data_o,
  output logic [LineBytes-1:0]           req_be_o,
  output logic [SrcW+IdW-1:0]            req_id_o,
  input  wire logic                      rsp_valid_i,
  output logic                           rsp_ready_o,
  input  wire logic [SrcW+IdW-1:0]       rsp_id_i,
  output logic                           idle_o
);

  if (NumSrc < 1) $error("cni_ca_arb: NumSrc must be >= 1");
  if (IdW < 1) $error("cni_ca_arb: IdW must be >= 1");

  // ---- requests: fixed priority, held while presented ----------------------------------------
  logic [NumSrc-1:0] lock_q, sel;
  always_comb begin
    sel = '0;
    if (lock_q != '0) begin
      sel = lock_q;
    end else begin
      for (int s = NumSrc - 1; s >= 0; s--) if (s_req_valid_i[s]) sel = NumSrc'(1) << s;
    end
    req_op_o   = '0;
    req_addr_o = '0;
    req_data_o = '0;
    req_be_o   = '0;
    req_id_o   = '0;
    for (int s = 0; s < NumSrc; s++) begin
      if (sel[s]) begin
        req_op_o   = s_req_op_i[s * OpW +: OpW];
        req_addr_o = s_req_addr_i[s * AddrW +: AddrW];
        req_data_o = s_req_data_i[s * LineBits +: LineBits];
        req_be_o   = s_req_be_i[s * LineBytes +: LineBytes];
        req_id_o   = {SrcW'(s), s_req_id_i[s * IdW +: IdW]};
      end
    end
    req_valid_o = |(sel & s_req_valid_i);
  end
  assign s_req_ready_o = sel & {NumSrc{req_ready_i}};
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) lock_q <= '0;
    else lock_q <= (req_valid_o && !req_ready_i) ? sel : '0;
  end
  assign idle_o = lock_q == '0;

  // ---- responses: to the source in the id's top bits -----------------------------------------
  wire [SrcW-1:0] rsp_src = rsp_id_i[IdW +: SrcW];
  always_comb begin
    for (int s = 0; s < NumSrc; s++) s_rsp_valid_o[s] = rsp_valid_i && rsp_src == SrcW'(s);
  end
  assign rsp_ready_o = |(s_rsp_valid_o & s_rsp_ready_i);
  assign s_rsp_id_o  = rsp_id_i[IdW-1:0];

  // ---- checks -----------------------------------------------------------------------------
  // A response names a source that exists (the agent answers with the ids it was given).
  wire chk_rsp = !rsp_valid_i || 32'(rsp_src) < 32'(NumSrc);
  `CNI_ASSERT(RspSource_A, chk_rsp, "a response for a source that does not exist")

endmodule
