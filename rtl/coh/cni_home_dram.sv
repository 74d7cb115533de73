// SPDX-License-Identifier: Apache-2.0
// The home agent's DRAM-backed lines (docs/dram.md, "The home agent's side as built"): the
// frames and their fill unit (cni_mem_frames) with what joins them to the home's pipeline
// without Pipelined. A message on a DRAM line is taken only when the line is in its frame: the
// take's selected line is looked up, and when it is absent the take waits (holding the other
// inputs: one miss at a time) while the fill unit fetches it. The frame being evicted waits
// until D (the only stage, which writes the memory and the directory in the cycle it applies)
// holds none of its lines. A fill's frame is kept for the message it was filled for (review
// point 1): cni_home_take serves first the input that names the reserved line, and the
// reservation ends when a message on that line is taken or when no input names it (the message
// it was for may have been overtaken by another on its line, or a park timeout answered). Port A's read data and the directory word come
// from the frames when the line read was a DRAM line (a flag set with each read). A line that
// failed in the DRAM reads as a DENY line's word (no sharers): its requests are answered Error.
// An engine's port-B access to a DRAM line goes to the frames (granted when the line is
// present; an absent one is fetched, the engine's and the take's misses taking turns).
// With DramIdxW = 0 there are no DRAM lines: the on-chip answers pass through and the AXI
// outputs are zero.
//
// Parameters:
//   LineBytes, NumAgents - as cni_home_agent's; LineIdxW - its line index bits (DramIdxW + 1)
//   DramIdxW, FrameW, DramAddrW, DramBase - as cni_home_agent's
// Ports:
//   sel_any_i, sel_line_i - the take's selection; absent_o: its DRAM line is not in its frame
//   take_i                - the take took the selected message
//   rsv_valid_o, rsv_line_o, rsv_held_i - the line a frame was just filled for; an input names it
//   init_run_i            - the home's init sweep runs (no miss is asked for meanwhile)
//   d_valid_i, d_line_i   - the message in D
//   m_en_i, m_we_i, m_addr_i, m_wdata_i - port A's access (a DRAM line's goes to its frame)
//   mem_rdata_i, mem_rd_o - the on-chip RAM's read data; port A's (the line read)
//   dir_re_i, dir_line_i  - the take's directory read; dir_rd_q_i: the on-chip word read;
//                           dir_rd_o: the word read (the line's)
//   dir_we_i, dir_wline_i, dir_wd_i - the apply's directory write (a DRAM line's: its frame)
//   pb_*                  - an engine's access to a DRAM line's data (cni_mem_frames' eb_*; the
//                           line index's top bit set)
//   m_axi_*               - the AXI4 master (512-bit data)
//   dram_cnt_o, dram_err_o - cni_mem_frames' cnt_o and err_o
//   ready_o, idle_o       - the frames' init done; no miss or DRAM access in flight
`default_nettype none

module cni_home_dram #(
  parameter int          LineBytes = 128,
  parameter int          NumAgents = 16,
  parameter int          LineIdxW  = 8,
  parameter int          DramIdxW  = 0,
  parameter int          FrameW    = 4,
  parameter int          DramAddrW = 34,
  parameter logic [63:0] DramBase  = '0,
  localparam int LineBits = LineBytes * 8,
  localparam int DirW     = cni_coh_pkg::home_dir_w(NumAgents)
) (
  input  wire logic                  clk_i,
  input  wire logic                  rst_ni,
  input  wire logic                  sel_any_i,
  input  wire logic [LineIdxW-1:0]   sel_line_i,
  output logic                       absent_o,
  input  wire logic                  take_i,
  output logic                       rsv_valid_o,
  output logic [LineIdxW-1:0]        rsv_line_o,
  input  wire logic                  rsv_held_i,
  input  wire logic                  init_run_i,
  input  wire logic                  d_valid_i,
  input  wire logic [LineIdxW-1:0]   d_line_i,
  input  wire logic                  m_en_i,
  input  wire logic                  m_we_i,
  input  wire logic [LineIdxW-1:0]   m_addr_i,
  input  wire logic [LineBits-1:0]   m_wdata_i,
  input  wire logic [LineBits-1:0]   mem_rdata_i,
  output logic [LineBits-1:0]        mem_rd_o,
  input  wire logic                  dir_re_i,
  input  wire logic [DirW-1:0]       dir_rd_q_i,
  output logic [DirW-1:0]            dir_rd_o,
  input  wire logic                  dir_we_i,
  input  wire logic [LineIdxW-1:0]   dir_wline_i,
  input  wire logic [DirW-1:0]       dir_wd_i,
  output logic                       m_axi_arvalid_o,
  input  wire logic                  m_axi_arready_i,
  output logic [DramAddrW-1:0]       m_axi_araddr_o,
  output logic [7:0]                 m_axi_arlen_o,
  output logic [2:0]                 m_axi_arsize_o,
  output logic [1:0]                 m_axi_arburst_o,
  input  wire logic                  m_axi_rvalid_i,
  output logic                       m_axi_rready_o,
  input  wire logic [511:0]          m_axi_rdata_i,
  input  wire logic [1:0]            m_axi_rresp_i,
  input  wire logic                  m_axi_rlast_i,
  output logic                       m_axi_awvalid_o,
  input  wire logic                  m_axi_awready_i,
  output logic [DramAddrW-1:0]       m_axi_awaddr_o,
  output logic [7:0]                 m_axi_awlen_o,
  output logic [2:0]                 m_axi_awsize_o,
  output logic [1:0]                 m_axi_awburst_o,
  output logic                       m_axi_wvalid_o,
  input  wire logic                  m_axi_wready_i,
  output logic [511:0]               m_axi_wdata_o,
  output logic [63:0]                m_axi_wstrb_o,
  output logic                       m_axi_wlast_o,
  input  wire logic                  m_axi_bvalid_i,
  output logic                       m_axi_bready_o,
  input  wire logic [1:0]            m_axi_bresp_i,
  input  wire logic                  pb_en_i,
  input  wire logic                  pb_we_i,
  input  wire logic [LineIdxW-1:0]   pb_line_i,
  input  wire logic [LineBits-1:0]   pb_wdata_i,
  output logic                       pb_gnt_o,
  output logic [LineBits-1:0]        pb_rdata_o,
  output logic [4:0]                 dram_cnt_o,
  output logic                       dram_err_o,
  output logic                       ready_o,
  output logic                       idle_o
);

  if (DramIdxW > 0) begin : g_dram
    localparam int DIW = DramIdxW;
    if (LineIdxW != DIW + 1) $error("LineIdxW must be DramIdxW + 1");
    // a DRAM line: the top bit of the line index
    function automatic logic dram(input logic [LineIdxW-1:0] line);
      dram = line[LineIdxW-1];
    endfunction
    logic                present, failed, rsv_v, quiet;
    logic [DIW-1:0]      rsv_line;
    logic [FrameW-1:0]   qframe;
    logic [LineBits-1:0] fd_rd;
    logic [DirW-1:0]     fdir_rd;
    logic                msel_q, dsel_q, dfail_q;
    wire                 sel_dram = dram(sel_line_i);
    assign absent_o = sel_any_i && sel_dram && !present;
    assign quiet    = !(d_valid_i && dram(d_line_i) && d_line_i[FrameW-1:0] == qframe);
    /* verilator lint_off PINCONNECTEMPTY */
    cni_mem_frames #(
      .LineBytes (LineBytes), .DataBytes (64), .DramIdxW (DIW), .FrameW (FrameW), .DirW (DirW),
      .DirInit ('0), .AddrW (DramAddrW), .Base (DramBase)
    ) u_frames (
      .clk_i, .rst_ni,
      .look_line_i (sel_line_i[DIW-1:0]), .look_present_o (present), .look_err_o (failed),
      .miss_valid_i (absent_o && !init_run_i), .miss_ready_o (),
      .miss_line_i (sel_line_i[DIW-1:0]),
      .rsv_valid_o (rsv_v), .rsv_line_o (rsv_line),
      .take_i (rsv_v && (!rsv_held_i || (take_i && sel_line_i == {1'b1, rsv_line}))),
      .take_line_i (rsv_line),
      .quiet_req_o (), .quiet_frame_o (qframe), .quiet_i (quiet),
      .hd_en_i (m_en_i && dram(m_addr_i)), .hd_we_i (m_we_i), .hd_line_i (m_addr_i[DIW-1:0]),
      .hd_wdata_i (m_wdata_i), .hd_rdata_o (fd_rd),
      .hdir_re_i (dir_re_i), .hdir_rline_i (sel_line_i[DIW-1:0]), .hdir_rdata_o (fdir_rd),
      .hdir_we_i (dir_we_i && dram(dir_wline_i)), .hdir_wline_i (dir_wline_i[DIW-1:0]),
      .hdir_wd_i (dir_wd_i),
      .eb_en_i (pb_en_i && dram(pb_line_i)), .eb_we_i (pb_we_i), .eb_line_i (pb_line_i[DIW-1:0]),
      .eb_wdata_i (pb_wdata_i), .eb_gnt_o (pb_gnt_o), .eb_rdata_o (pb_rdata_o),
      .m_axi_arvalid_o, .m_axi_arready_i, .m_axi_araddr_o, .m_axi_arlen_o, .m_axi_arsize_o,
      .m_axi_arburst_o, .m_axi_rvalid_i, .m_axi_rready_o, .m_axi_rdata_i, .m_axi_rresp_i,
      .m_axi_rlast_i, .m_axi_awvalid_o, .m_axi_awready_i, .m_axi_awaddr_o, .m_axi_awlen_o,
      .m_axi_awsize_o, .m_axi_awburst_o, .m_axi_wvalid_o, .m_axi_wready_i, .m_axi_wdata_o,
      .m_axi_wstrb_o, .m_axi_wlast_o, .m_axi_bvalid_i, .m_axi_bready_o, .m_axi_bresp_i,
      .cnt_o (dram_cnt_o), .err_o (dram_err_o), .init_done_o (ready_o), .idle_o
    );
    /* verilator lint_on PINCONNECTEMPTY */
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        msel_q  <= 1'b0;
        dsel_q  <= 1'b0;
        dfail_q <= 1'b0;
      end else begin
        if (m_en_i && !m_we_i) msel_q <= dram(m_addr_i);
        if (dir_re_i) begin
          dsel_q  <= sel_dram;
          dfail_q <= sel_dram && failed;
        end
      end
    end
    assign rsv_valid_o = rsv_v;
    assign rsv_line_o  = {1'b1, rsv_line};
    assign mem_rd_o = msel_q ? fd_rd : mem_rdata_i;
    assign dir_rd_o = dfail_q ? DirW'({cni_coh_pkg::POL_DENY, 2'b00, NumAgents'(0)}) :
                      dsel_q ? fdir_rd : dir_rd_q_i;
  end else begin : g_no_dram
    assign absent_o = 1'b0;
    assign rsv_valid_o = 1'b0;
    assign rsv_line_o  = '0;
    assign mem_rd_o = mem_rdata_i;
    assign dir_rd_o = dir_rd_q_i;
    assign pb_gnt_o   = 1'b0;
    assign pb_rdata_o = '0;
    assign ready_o  = 1'b1;
    assign idle_o   = 1'b1;
    assign {m_axi_arvalid_o, m_axi_araddr_o, m_axi_arlen_o, m_axi_arsize_o, m_axi_arburst_o,
            m_axi_rready_o, m_axi_awvalid_o, m_axi_awaddr_o, m_axi_awlen_o, m_axi_awsize_o,
            m_axi_awburst_o, m_axi_wvalid_o, m_axi_wdata_o, m_axi_wstrb_o, m_axi_wlast_o,
            m_axi_bready_o, dram_cnt_o, dram_err_o} = '0;
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused = ^{clk_i, rst_ni, sel_any_i, sel_line_i, take_i, rsv_held_i, init_run_i,
                    d_valid_i, d_line_i, m_en_i, pb_en_i, pb_we_i, pb_line_i, pb_wdata_i,
                    m_we_i, m_addr_i, m_wdata_i, dir_re_i, dir_we_i, dir_wline_i, dir_wd_i,
                    m_axi_arready_i, m_axi_rvalid_i, m_axi_rdata_i, m_axi_rresp_i,
                    m_axi_rlast_i, m_axi_awready_i, m_axi_wready_i, m_axi_bvalid_i,
                    m_axi_bresp_i};
    /* verilator lint_on UNUSEDSIGNAL */
  end

endmodule

`default_nettype wire
