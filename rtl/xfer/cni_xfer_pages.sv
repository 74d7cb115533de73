// SPDX-License-Identifier: Apache-2.0
// The block-transfer engine's source pages (docs/xfer.md, "Source pages"; 004 section 3.2 and
// Figure 7): a message's source is described page by page (XPAGE: the first piece from the
// message's start to its page's end, then whole 4 KiB pages, the last to the message's end), so
// its pages need not follow one another in memory. Each piece's page frame is written, as its
// XPAGE arrives, into a row (513 words) of a block RAM that no live sender record uses: a commit
// gives the row to its record and the next row, in turn, takes the next description. There is one
// row more than records, and the records live at once are among the last Recs committed, so the
// row a description is written into is never one a message still reads, and nothing is
// irreversible before XGO. A source read's offset from the start of the message's first page
// becomes its address here: the RAM is read every cycle at the (row, page) of the read the
// streamer presents, valid or not, and the read may go when the frame read in the previous cycle
// is its own (a page change costs a cycle; the streamer presents a stream's first line before the
// stream starts).
//
// Parameters:
//   Recs - sender records (a power of two)
// Ports:
//   pw_valid_i, pw_page_i, pw_pfn_i - a piece of the description staged: its index (the page of
//                                     the message), its page frame (address bits [47:12])
//   cm_valid_i, cm_rec_i            - a commit: record cm_rec_i takes the staged row
//   v_rec_i, v_off_i                - the read presented: its record, its offset from the start
//                                     of the message's first page
//   hit_o, addr_o                   - the read's page frame is at hand; its address
`default_nettype none

module cni_xfer_pages #(
  parameter int Recs  = 4,
  localparam int RW   = $clog2(Recs),
  localparam int RowW = $clog2(Recs + 1),
  localparam int Pages = 513,   // 2 MiB from any offset in its first page
  localparam int AW   = $clog2((Recs + 1) * Pages)
) (
  input  wire logic          clk_i,
  input  wire logic          rst_ni,
  input  wire logic          pw_valid_i,
  input  wire logic [9:0]    pw_page_i,
  input  wire logic [35:0]   pw_pfn_i,
  input  wire logic          cm_valid_i,
  input  wire logic [RW-1:0] cm_rec_i,
  input  wire logic [RW-1:0] v_rec_i,
  input  wire logic [21:0]   v_off_i,
  output logic               hit_o,
  output logic [47:0]        addr_o
);

  logic [RowW-1:0]           next_q;   // the row the next description is written into
  logic [Recs-1:0][RowW-1:0] row_q;    // each record's row
  logic [AW-1:0]             tag_q;    // the word read in the previous cycle
  logic                      tag_v_q;  // (not written in that cycle: the RAM's word is defined)
  /* verilator lint_off UNUSEDSIGNAL */
  logic [63:0]               pfn;      // (a 36-bit frame in a word of the RAM's simulation width)
  /* verilator lint_on UNUSEDSIGNAL */
  // a row holds Pages words; a page index past them (a line presented but never read) reads the
  // row's last word, and a write past them (a description already refused) is not made
  wire  [9:0]                v_pg = v_off_i[21:12] < 10'(Pages) ? v_off_i[21:12] : 10'(Pages - 1);
  wire  [AW-1:0]             want = AW'(row_q[v_rec_i]) * AW'(Pages) + AW'(v_pg);
  wire                       pw   = pw_valid_i && pw_page_i < 10'(Pages);

  cni_dpram #(.Width(64), .Words((Recs + 1) * Pages)) u_ram (
    .clk_i,
    .a_en_i (pw), .a_we_i (1'b1), .a_addr_i (AW'(next_q) * AW'(Pages) + AW'(pw_page_i)),
    .a_wd_i (64'(pw_pfn_i)),
    /* verilator lint_off PINCONNECTEMPTY */
    .a_rd_o (),
    /* verilator lint_on PINCONNECTEMPTY */
    .b_en_i (1'b1), .b_we_i (1'b0), .b_addr_i (want), .b_wd_i ('0), .b_rd_o (pfn)
  );

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      next_q  <= '0;
      row_q   <= '0;
      tag_q   <= '0;
      tag_v_q <= 1'b0;
    end else begin
      tag_q   <= want;
      tag_v_q <= !pw;
      if (cm_valid_i) begin
        row_q[cm_rec_i] <= next_q;
        next_q          <= next_q == RowW'(Recs) ? '0 : next_q + 1'b1;
      end
    end
  end

  assign hit_o  = tag_v_q && tag_q == want;
  assign addr_o = {pfn[35:0], v_off_i[11:0]};

endmodule
