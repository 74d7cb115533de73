// SPDX-License-Identifier: Apache-2.0
// Device-memory port: reads and writes of a client's lines as AXI4 bursts to a DRAM controller,
// the way an FPGA's DDR4 controller presents its memory (an AXI4 slave). An access is one INCR
// burst of full beats within a line: the beats the client names (a first beat and a count; all
// LineBytes / DataBytes of them for a whole line) at Base + line * LineBytes (a line is aligned,
// so a burst never crosses a 4 KiB boundary). Reads and writes stay in flight up to MaxRd and MaxWr; a read
// waits while a write of its line is in flight and a write while a read of its line is (AXI
// orders neither direction against the other), so every read returns what the writes accepted
// before it left. docs/dram.md.
//
// Parameters:
//   LineBytes - bytes per line (a multiple of DataBytes)
//   DataBytes - bytes per AXI beat (the data bus)
//   AddrW     - AXI address bits; LineIdxW - line index bits of the client
//   Base      - AXI address of line 0 (line-aligned)
//   TagW      - bits of the client's tag, returned with the access's answer
//   MaxRd, MaxWr - reads and writes in flight at most (from the request to its answer taken)
// Ports:
//   req_*        - an access: write (req_we_i) or read of line req_line_i, its beats
//                  (req_beat_i the first, req_len_i the count less one: within the line), the
//                  tag, and the data to write (its first beat at bit 0); the port may stall it
//   rd_*         - read answers, in the reads' order: the tag, the beats read (the first at bit
//                  0; the bits above them keep what an earlier answer left), and whether a beat
//                  came back with an error response (the data is then what the slave sent); the
//                  client may stall them
//   wr_*         - write answers, in the writes' order: the tag and whether the write response
//                  was an error; the client may stall them
//   m_axi_*      - the AXI4 master (one ID: the ID signals of an ID-less master; AxSIZE the
//                  data bus, AxBURST INCR, the other Ax signals at their defaults)
//   cnt_o        - one-cycle pulses: [0] a read issued, [1] a write issued, [2] an access held
//                  waits (a cycle) on one of its line in flight the other way, [3] an error
//                  response
//   idle_o       - nothing in flight
`default_nettype none
`include "cni_assert.svh"

module cni_mem_port #(
  parameter int          LineBytes = 128,
  parameter int          DataBytes = 64,
  parameter int          AddrW     = 34,
  parameter int          LineIdxW  = 20,
  parameter logic [63:0] Base      = '0,
  parameter int          TagW      = 4,
  parameter int          MaxRd     = 8,
  parameter int          MaxWr     = 8,
  localparam int LineBits = LineBytes * 8,
  localparam int DW       = DataBytes * 8,
  localparam int Beats    = LineBytes / DataBytes,
  localparam int BeatW    = (Beats > 1) ? $clog2(Beats) : 1
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  // client
  input  wire logic                req_valid_i,
  output logic                     req_ready_o,
  input  wire logic                req_we_i,
  input  wire logic [LineIdxW-1:0] req_line_i,
  input  wire logic [BeatW-1:0]    req_beat_i,
  input  wire logic [BeatW-1:0]    req_len_i,
  input  wire logic [TagW-1:0]     req_tag_i,
  input  wire logic [LineBits-1:0] req_wdata_i,
  output logic                     rd_valid_o,
  input  wire logic                rd_ready_i,
  output logic [TagW-1:0]          rd_tag_o,
  output logic [LineBits-1:0]      rd_data_o,
  output logic                     rd_err_o,
  output logic                     wr_valid_o,
  input  wire logic                wr_ready_i,
  output logic [TagW-1:0]          wr_tag_o,
  output logic                     wr_err_o,
  // AXI4 master
  output logic                     m_axi_arvalid_o,
  input  wire logic                m_axi_arready_i,
  output logic [AddrW-1:0]         m_axi_araddr_o,
  output logic [7:0]               m_axi_arlen_o,
  output logic [2:0]               m_axi_arsize_o,
  output logic [1:0]               m_axi_arburst_o,
  input  wire logic                m_axi_rvalid_i,
  output logic                     m_axi_rready_o,
  input  wire logic [DW-1:0]       m_axi_rdata_i,
  input  wire logic [1:0]          m_axi_rresp_i,
  input  wire logic                m_axi_rlast_i,
  output logic                     m_axi_awvalid_o,
  input  wire logic                m_axi_awready_i,
  output logic [AddrW-1:0]         m_axi_awaddr_o,
  output logic [7:0]               m_axi_awlen_o,
  output logic [2:0]               m_axi_awsize_o,
  output logic [1:0]               m_axi_awburst_o,
  output logic                     m_axi_wvalid_o,
  input  wire logic                m_axi_wready_i,
  output logic [DW-1:0]            m_axi_wdata_o,
  output logic [DataBytes-1:0]     m_axi_wstrb_o,
  output logic                     m_axi_wlast_o,
  input  wire logic                m_axi_bvalid_i,
  output logic                     m_axi_bready_o,
  input  wire logic [1:0]          m_axi_bresp_i,
  output logic [3:0]               cnt_o,
  output logic                     idle_o
);

  if ((1 << $clog2(DataBytes)) != DataBytes || DataBytes > 128) $error("DataBytes: 1..128, 2**n");
  if ((1 << $clog2(LineBytes)) != LineBytes || LineBytes < DataBytes || LineBytes > 4096)
    $error("LineBytes must be a power of two from DataBytes to 4096 (a burst within 4 KiB)");
  if (Base % 64'(LineBytes) != 0) $error("Base must be line-aligned");
  if (AddrW > 63 || Base + (64'(1) << (LineIdxW + $clog2(LineBytes))) > (64'(1) << AddrW))
    $error("AddrW must cover Base and every line after it");
  if (MaxRd < 1 || MaxWr < 1) $error("MaxRd and MaxWr must be >= 1");

  localparam logic [1:0] INCR = 2'b01;
  // an error response: SLVERR or DECERR (OKAY and EXOKAY are not)
  function automatic logic is_err(input logic [1:0] resp);
    is_err = resp == 2'b10 || resp == 2'b11;
  endfunction

  function automatic logic [AddrW-1:0] addr_of(input logic [LineIdxW-1:0] line,
                                               input logic [BeatW-1:0] beat);
    addr_of = AddrW'(Base) + (AddrW'(line) << $clog2(LineBytes)) +
              (AddrW'(beat) << $clog2(DataBytes));
  endfunction

  // ---- accesses in flight, per direction ---------------------------------------------------------
  logic rd_full, rd_any, wr_full, wr_any, rd_hit, wr_hit;
  logic rd_push, rd_pop, wr_push, wr_pop;
  cni_mem_inflight #(.Depth (MaxRd), .LineIdxW (LineIdxW), .TagW (TagW)) u_rd (
    .clk_i, .rst_ni, .push_i (rd_push), .line_i (req_line_i), .tag_i (req_tag_i),
    .pop_i (rd_pop), .full_o (rd_full), .any_o (rd_any), .head_tag_o (rd_tag_o),
    .match_line_i (req_line_i), .match_o (rd_hit)
  );
  cni_mem_inflight #(.Depth (MaxWr), .LineIdxW (LineIdxW), .TagW (TagW)) u_wr (
    .clk_i, .rst_ni, .push_i (wr_push), .line_i (req_line_i), .tag_i (req_tag_i),
    .pop_i (wr_pop), .full_o (wr_full), .any_o (wr_any), .head_tag_o (wr_tag_o),
    .match_line_i (req_line_i), .match_o (wr_hit)
  );

  // ---- the request: an address register per direction, and the write's line -----------------
  logic                 ar_q, aw_q, w_q;     // AR, AW waiting for ready; W beats to send
  logic [AddrW-1:0]     araddr_q, awaddr_q;
  logic [7:0]           arlen_q, awlen_q;
  logic [LineBits-1:0]  wline_q;
  logic [BeatW-1:0]     wbeat_q;
  wire ar_free = !ar_q || m_axi_arready_i;
  wire w_done  = m_axi_wvalid_o && m_axi_wready_i && m_axi_wlast_o;
  // the write's address and data registers free at the next edge
  wire aw_free = (!aw_q || m_axi_awready_i) && (!w_q || w_done);
  wire held    = req_valid_i && (req_we_i ? rd_hit : wr_hit);
  assign req_ready_o = !held && (req_we_i ? (!wr_full && aw_free) : (!rd_full && ar_free));
  assign rd_push = req_valid_i && req_ready_o && !req_we_i;
  assign wr_push = req_valid_i && req_ready_o && req_we_i;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ar_q    <= 1'b0;
      aw_q    <= 1'b0;
      w_q     <= 1'b0;
      wbeat_q <= '0;
    end else begin
      if (rd_push) ar_q <= 1'b1;
      else if (m_axi_arready_i) ar_q <= 1'b0;
      if (wr_push) aw_q <= 1'b1;
      else if (m_axi_awready_i) aw_q <= 1'b0;
      if (wr_push) w_q <= 1'b1;
      else if (w_done) w_q <= 1'b0;
      if (wr_push || w_done) wbeat_q <= '0;
      else if (m_axi_wvalid_o && m_axi_wready_i) wbeat_q <= wbeat_q + 1'b1;
    end
  end
  always_ff @(posedge clk_i) begin
    if (rd_push) begin
      araddr_q <= addr_of(req_line_i, req_beat_i);
      arlen_q  <= 8'(req_len_i);
    end
    if (wr_push) begin
      awaddr_q <= addr_of(req_line_i, req_beat_i);
      awlen_q  <= 8'(req_len_i);
      wline_q  <= req_wdata_i;
    end
  end

  assign m_axi_arvalid_o = ar_q;
  assign m_axi_araddr_o  = araddr_q;
  assign m_axi_arlen_o   = arlen_q;
  assign m_axi_arsize_o  = 3'($clog2(DataBytes));
  assign m_axi_arburst_o = INCR;
  assign m_axi_awvalid_o = aw_q;
  assign m_axi_awaddr_o  = awaddr_q;
  assign m_axi_awlen_o   = awlen_q;
  assign m_axi_awsize_o  = 3'($clog2(DataBytes));
  assign m_axi_awburst_o = INCR;
  // W goes with AW, not after it (a slave may wait for both)
  assign m_axi_wvalid_o  = w_q;
  assign m_axi_wdata_o   = wline_q[DW * wbeat_q +: DW];
  assign m_axi_wstrb_o   = '1;
  assign m_axi_wlast_o   = 8'(wbeat_q) == awlen_q;

  // ---- read answers: the beats gathered into the answer register ------------------------------
  logic             rdv_q, rderr_q, rerr_acc_q;
  logic [BeatW-1:0] rbeat_q;
  wire r_take = m_axi_rvalid_i && m_axi_rready_o;
  // a beat is taken while the answer register is empty or being emptied
  assign m_axi_rready_o = !rdv_q || rd_ready_i;
  wire r_err = is_err(m_axi_rresp_i);
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rdv_q      <= 1'b0;
      rderr_q    <= 1'b0;
      rerr_acc_q <= 1'b0;
      rbeat_q    <= '0;
    end else begin
      if (rd_valid_o && rd_ready_i) rdv_q <= 1'b0;
      if (r_take) begin
        if (m_axi_rlast_i) begin
          rdv_q      <= 1'b1;
          rderr_q    <= rerr_acc_q || r_err;
          rerr_acc_q <= 1'b0;
          rbeat_q    <= '0;
        end else begin
          rerr_acc_q <= rerr_acc_q || r_err;
          rbeat_q    <= rbeat_q + 1'b1;
        end
      end
    end
  end
  always_ff @(posedge clk_i) begin
    if (r_take) rd_data_o[DW * rbeat_q +: DW] <= m_axi_rdata_i;
  end
  assign rd_valid_o = rdv_q;
  assign rd_err_o   = rderr_q;
  assign rd_pop     = rd_valid_o && rd_ready_i;

  // ---- write answers --------------------------------------------------------------------------
  logic wrv_q, wrerr_q;
  assign m_axi_bready_o = !wrv_q || wr_ready_i;
  wire b_take = m_axi_bvalid_i && m_axi_bready_o;
  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      wrv_q   <= 1'b0;
      wrerr_q <= 1'b0;
    end else begin
      if (b_take) begin
        wrv_q   <= 1'b1;
        wrerr_q <= is_err(m_axi_bresp_i);
      end else if (wr_valid_o && wr_ready_i) begin
        wrv_q <= 1'b0;
      end
    end
  end
  assign wr_valid_o = wrv_q;
  assign wr_err_o   = wrerr_q;
  assign wr_pop     = wr_valid_o && wr_ready_i;

  assign cnt_o  = {(r_take && r_err) || (b_take && is_err(m_axi_bresp_i)), held, wr_push, rd_push};
  assign idle_o = !rd_any && !wr_any;

  // A beat or a response only for an access in flight (the slave's side of the contract).
  `CNI_ASSERT(r_in_flight, !r_take || rd_any, "a read beat with no read in flight")
  `CNI_ASSERT(b_in_flight, !b_take || wr_any, "a write response with no write in flight")
  `CNI_ASSERT(req_in_line, !req_valid_i || 32'(req_beat_i) + 32'(req_len_i) < 32'(Beats),
              "an access beyond its line")

endmodule

`default_nettype wire
