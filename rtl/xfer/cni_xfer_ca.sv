// SPDX-License-Identifier: Apache-2.0
// The block-transfer engine's caching-agent request port (docs/xfer.md, "Datapath"): four
// requesters by fixed priority - a component's write (the receiving side), an entry write or
// head read, a status-flag write, a source read - and one request register that presents the
// chosen request until the agent takes it (the contract: a request is held, unchanged, until
// taken); a new one is loaded in the cycle the agent takes the last, so one request a cycle.
//
// Parameters:
//   LineBytes, CacheIdW   - the platform's
//   IdFlag, IdEnt, IdWr   - the ids of a flag write, an entry write or head read, and the first
//                           component write (one per receiver record, IdWr + dw_rec_i)
// Ports:
//   dw_*  - a component's write: CA_WR_INV, or with dw_part_i CA_WR of the enabled bytes
//   ew_*  - an entry write (CA_WR_INV), or with ew_rd_i a head read (CA_RD_NA)
//   fw_*  - a status-flag write (CA_WR_INV)
//   rd_*  - a source read (CA_RD_NA), its id the streamer's
//   ca_o  - the request (eng_ca_req_t, cni_engine_types.svh; rsp_ready always set);
//           ca_ready_i: the agent takes it
`default_nettype none

module cni_xfer_ca #(
  parameter int LineBytes = 64,
  parameter int CacheIdW  = 4,
  parameter int IdFlag    = 8,
  parameter int IdEnt     = 9,
  parameter int IdWr      = 10,
  localparam int LineBits = LineBytes * 8,
  localparam int ReqW     = 1 + cni_coh_pkg::CA_OP_W + cni_coh_pkg::ADDR_W + LineBits +
                            LineBytes + CacheIdW
) (
  input  wire logic                    clk_i,
  input  wire logic                    rst_ni,
  input  wire logic                    dw_valid_i,
  input  wire logic                    dw_part_i,
  input  wire logic [47:0]             dw_addr_i,
  input  wire logic [LineBits-1:0]     dw_data_i,
  input  wire logic [LineBytes-1:0]    dw_be_i,
  input  wire logic [2:0]              dw_rec_i,
  output logic                         dw_ready_o,
  input  wire logic                    ew_valid_i,
  input  wire logic                    ew_rd_i,
  input  wire logic [47:0]             ew_addr_i,
  input  wire logic [LineBits-1:0]     ew_data_i,
  output logic                         ew_ready_o,
  input  wire logic                    fw_valid_i,
  input  wire logic [47:0]             fw_addr_i,
  input  wire logic [LineBits-1:0]     fw_data_i,
  output logic                         fw_ready_o,
  input  wire logic                    rd_valid_i,
  input  wire logic [47:0]             rd_addr_i,
  input  wire logic [CacheIdW-1:0]     rd_id_i,
  output logic                         rd_ready_o,
  output logic [ReqW:0]                ca_o,
  input  wire logic                    ca_ready_i
);

  typedef struct packed {
    logic                             valid;
    logic [cni_coh_pkg::CA_OP_W-1:0]  op;
    logic [cni_coh_pkg::ADDR_W-1:0]   addr;
    logic [LineBits-1:0]              data;
    logic [LineBytes-1:0]             be;
    logic [CacheIdW-1:0]              id;
  } req_t;
  req_t d, q;
  always_comb begin
    d       = '0;
    d.valid = dw_valid_i || ew_valid_i || fw_valid_i || rd_valid_i;
    d.be    = '1;
    if (dw_valid_i) begin
      d.op = dw_part_i ? cni_coh_pkg::CA_WR : cni_coh_pkg::CA_WR_INV; d.addr = dw_addr_i;
      d.data = dw_data_i; d.be = dw_be_i; d.id = CacheIdW'(IdWr + 32'(dw_rec_i));
    end else if (ew_valid_i) begin
      d.op = ew_rd_i ? cni_coh_pkg::CA_RD_NA : cni_coh_pkg::CA_WR_INV;
      d.addr = ew_addr_i; d.data = ew_data_i; d.id = CacheIdW'(IdEnt);
    end else if (fw_valid_i) begin
      d.op = cni_coh_pkg::CA_WR_INV; d.addr = fw_addr_i; d.data = fw_data_i;
      d.id = CacheIdW'(IdFlag);
    end else begin
      d.op = cni_coh_pkg::CA_RD_NA; d.addr = rd_addr_i; d.id = rd_id_i;
    end
  end
  wire load = !q.valid || ca_ready_i;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) q <= '0;
    else if (load) q <= d;
  end
  assign ca_o       = {q, 1'b1};
  assign dw_ready_o = load;
  assign ew_ready_o = load && !dw_valid_i;
  assign fw_ready_o = load && !dw_valid_i && !ew_valid_i;
  assign rd_ready_o = load && !dw_valid_i && !ew_valid_i && !fw_valid_i;

endmodule
