// SPDX-License-Identifier: Apache-2.0
// The home agent's line-wide data (docs/endpoint.md, "Pipeline"): the line a message carries
// and the line the memory returns for it, from the take to the answer. Without Pipelined, the
// message register of the D stage, loaded with the stage (only a response or a request carries
// data; the data is used only after such a message is taken), and the memory's line is the
// RAM's output. Pipelined, the message's data is written into its slot in every cycle (the slot
// moves on when a message is taken), the memory's line into the slot of the message that read
// it, and the answer reads both at its slot; the memory's read (in R) and a decision's write
// (the cycle after C) are driven from flip-flops here.
//
// Parameters:
//   LineBytes, Pipelined - as cni_home_agent's; LineIdxW, SlotW - its line index and slot bits
// Ports:
//   take_i, rd_i, adv_i  - a message is taken; it reads the memory; the pipeline advances
//   apply_i, mem_we_i    - the apply stage's decision takes effect; it writes the memory
//   r_slot_i, c_slot_i, c_line_i - the slots of the messages in R and C; C's line
//   in_data_i            - the line at the inputs (the taken message's)
//   mem_rd_i             - port A's read data
//   f_slot_i, f_data_msg_i - the answer leaving: its slot; its data is the message's, else the
//                          memory's
//   slot_o               - the slot of the next message taken
//   f_data_o, wr_line_o  - the answer's data; the memory write's data
//   ma_rd_o, ma_wr_o, ma_wline_o - Pipelined: the memory read in R; a write after C, its line
`default_nettype none

module cni_home_data #(
  parameter int LineBytes = 128,
  parameter int Pipelined = 0,
  parameter int LineIdxW  = 8,
  parameter int SlotW     = 4,
  localparam int LineBits = LineBytes * 8
) (
  input  wire logic                clk_i,
  input  wire logic                rst_ni,
  input  wire logic                take_i,
  input  wire logic                rd_i,
  input  wire logic                adv_i,
  input  wire logic                apply_i,
  input  wire logic                mem_we_i,
  input  wire logic [SlotW-1:0]    r_slot_i,
  input  wire logic [SlotW-1:0]    c_slot_i,
  input  wire logic [LineIdxW-1:0] c_line_i,
  input  wire logic [LineBits-1:0] in_data_i,
  input  wire logic [LineBits-1:0] mem_rd_i,
  input  wire logic [SlotW-1:0]    f_slot_i,
  input  wire logic                f_data_msg_i,
  output logic [SlotW-1:0]         slot_o,
  output logic [LineBits-1:0]      f_data_o,
  output logic [LineBits-1:0]      wr_line_o,
  output logic                     ma_rd_o,
  output logic                     ma_wr_o,
  output logic [LineIdxW-1:0]      ma_wline_o
);

  logic [LineBits-1:0] msg_line, mem_line;
  if (Pipelined != 0) begin : g_slots
    logic [LineBits-1:0] dbuf_q [1 << SlotW];
    logic [LineBits-1:0] mbuf_q [1 << SlotW];
    logic [LineBits-1:0] wdata_q;
    logic                rd_land_q;
    logic [SlotW-1:0]    rd_slot_q;
    always_ff @(posedge clk_i) begin
      dbuf_q[slot_o] <= in_data_i;
      if (rd_land_q) mbuf_q[rd_slot_q] <= mem_rd_i;
      wdata_q <= dbuf_q[c_slot_i];  // the memory write's data (the apply stage's message)
    end
    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        ma_rd_o    <= 1'b0;
        ma_wr_o    <= 1'b0;
        rd_land_q  <= 1'b0;
        rd_slot_q  <= '0;
        ma_wline_o <= '0;
      end else begin
        ma_rd_o    <= take_i && rd_i;
        rd_land_q  <= ma_rd_o;
        rd_slot_q  <= r_slot_i;
        ma_wr_o    <= apply_i && mem_we_i;
        ma_wline_o <= c_line_i;
      end
    end
    assign msg_line  = dbuf_q[f_slot_i];
    assign mem_line  = mbuf_q[f_slot_i];
    assign wr_line_o = wdata_q;
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused = adv_i;  // (the slots load in every cycle)
    /* verilator lint_on UNUSEDSIGNAL */
  end else begin : g_direct
    logic [LineBits-1:0] data_q;
    always_ff @(posedge clk_i) if (adv_i) data_q <= in_data_i;
    assign msg_line   = data_q;
    assign mem_line   = mem_rd_i;
    assign wr_line_o  = data_q;
    assign ma_rd_o    = 1'b0;
    assign ma_wr_o    = 1'b0;
    assign ma_wline_o = '0;
    /* verilator lint_off UNUSEDSIGNAL */
    wire unused = ^{rd_i, apply_i, mem_we_i, r_slot_i, c_slot_i, c_line_i, f_slot_i};
    /* verilator lint_on UNUSEDSIGNAL */
  end
  assign f_data_o = f_data_msg_i ? msg_line : mem_line;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) slot_o <= '0;
    else if (take_i) slot_o <= slot_o + 1'b1;
  end

endmodule

`default_nettype wire
