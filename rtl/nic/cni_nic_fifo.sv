// SPDX-License-Identifier: Apache-2.0
// Store-and-forward frame FIFO of the NIC datapath (docs/nic.md): takes frames from an
// AXI4-Stream, checks their keep, length and error flag, holds the good ones whole in a packet
// buffer and sends them on in order, a beat a cycle; a bad frame, or with DropFull one that
// finds no room, is dropped whole and its cause counted.
//
// Parameters:
//   Bytes    - bytes per beat
//   Beats    - packet buffer words (a power of two, more than MaxBytes / Bytes: an oversize
//              frame is seen as such before it fills the buffer)
//   Frames   - frames held at most (the frame table)
//   MinBytes, MaxBytes - frame lengths accepted
//   DropFull - 1: in_tready_o is always 1 and a frame without room is dropped (a MAC's receive
//              stream); 0: in_tready_o is low while the buffer or the frame table is full
// Ports:
//   in_*                  - frames in (tuser on the last beat: the frame is bad); the consumer
//                           side of the stream (this block may stall it only with DropFull = 0)
//   out_*                 - frames out, out_len_o the frame's length on each of its beats; the
//                           consumer may stall
//   cnt_*_o               - one-cycle pulses: a frame committed; a frame dropped, by its cause
//   idle_o                - no frame held or under way
`default_nettype none
`include "cni_assert.svh"

module cni_nic_fifo #(
  parameter int Bytes    = 64,
  parameter int Beats    = 512,
  parameter int Frames   = 64,
  parameter int MinBytes = 60,
  parameter int MaxBytes = 9596,
  parameter bit DropFull = 1'b1,
  localparam int DW = Bytes * 8,
  localparam int AW = $clog2(Beats),
  localparam int KW = $clog2(Bytes + 1)
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             in_tvalid_i,
  output logic                  in_tready_o,
  input  wire logic [DW-1:0]    in_tdata_i,
  input  wire logic [Bytes-1:0] in_tkeep_i,
  input  wire logic             in_tlast_i,
  input  wire logic             in_tuser_i,
  output logic                  out_tvalid_o,
  input  wire logic             out_tready_i,
  output logic [DW-1:0]         out_tdata_o,
  output logic [Bytes-1:0]      out_tkeep_o,
  output logic                  out_tlast_o,
  output logic [15:0]           out_len_o,
  output logic                  cnt_frames_o,
  output logic                  cnt_runt_o,
  output logic                  cnt_oversize_o,
  output logic                  cnt_bad_o,
  output logic                  cnt_overflow_o,
  output logic                  cnt_bad_keep_o,
  output logic                  idle_o
);

  `CNI_ASSERT_INIT(Params_A, Beats >= 2 && (Beats & (Beats - 1)) == 0 &&
                   Beats * Bytes >= MaxBytes + Bytes && Frames >= 1 && MinBytes >= 1 &&
                   MaxBytes >= MinBytes && MaxBytes <= 65535 - Bytes && Bytes >= 2 &&
                   (Bytes & (Bytes - 1)) == 0, "cni_nic_fifo: bad parameters")

  localparam int OutQ = 4;  // the output queue: reads in flight and beats waiting
  localparam int OW   = DW + Bytes + 1 + 16;

  typedef enum logic [2:0] {CNone, CBadKeep, COversize, COverflow, CBad, CRunt} cause_e;

  // ---- input side -------------------------------------------------------------------------------
  logic [AW:0]  commit_q;   // the committed frames' end
  logic [AW:0]  cur_q;      // the frame under way: its next word
  logic [AW:0]  rd_q;       // the output side's next word to read: words before it are free
  logic [15:0]  len_q;      // the frame's bytes so far (held at MaxBytes + 1 once over)
  logic         drop_q;
  cause_e       cause_q;
  logic         tab_in_ready, tab_out_valid, tab_pop;
  logic [15:0]  tab_len;

  wire         take  = in_tvalid_i && in_tready_o;
  wire [AW:0]  used  = cur_q - rd_q;
  wire         full  = used[AW];  // Beats words in use (the difference never exceeds Beats)

  logic [KW-1:0] kbytes;
  always_comb begin
    kbytes = '0;
    for (int j = 0; j < Bytes; j++) kbytes = kbytes + KW'(in_tkeep_i[j]);
  end
  // Keep rules: all ones before the last beat; at the last, 2^k - 1 with k >= 1.
  wire keep_ok = in_tlast_i ? (in_tkeep_i != '0 && (in_tkeep_i & (in_tkeep_i + 1'b1)) == '0)
                            : &in_tkeep_i;
  wire [16:0] sum = 17'(len_q) + 17'(kbytes);
  wire [15:0] len_next = (sum > 17'(MaxBytes)) ? 16'(MaxBytes + 1) : sum[15:0];

  // This beat's verdict: the first cause of a drop (the state table of docs/nic.md).
  cause_e beat_cause;
  always_comb begin
    beat_cause = CNone;
    if (!keep_ok)                               beat_cause = CBadKeep;
    else if (len_next > 16'(MaxBytes))          beat_cause = COversize;
    else if (DropFull && full)                  beat_cause = COverflow;
    else if (in_tlast_i && in_tuser_i)          beat_cause = CBad;
    else if (in_tlast_i && len_next < 16'(MinBytes)) beat_cause = CRunt;
    else if (in_tlast_i && DropFull && !tab_in_ready) beat_cause = COverflow;
  end
  wire    dropping = drop_q || beat_cause != CNone;
  cause_e cause;
  assign cause = drop_q ? cause_q : beat_cause;
  wire    write  = take && !dropping;
  wire    commit = take && in_tlast_i && !dropping;

  assign in_tready_o = DropFull ? 1'b1 : (drop_q || (!full && tab_in_ready));

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      commit_q <= '0;
      cur_q    <= '0;
      len_q    <= '0;
      drop_q   <= 1'b0;
      cause_q  <= CNone;
    end else if (take) begin
      if (in_tlast_i) begin
        len_q  <= '0;
        drop_q <= 1'b0;
        cause_q <= CNone;
        if (dropping) cur_q <= commit_q;
        else begin
          cur_q    <= cur_q + 1'b1;
          commit_q <= cur_q + 1'b1;
        end
      end else begin
        len_q   <= len_next;
        drop_q  <= dropping;
        cause_q <= cause;
        if (!dropping) cur_q <= cur_q + 1'b1;
      end
    end
  end

  wire drop_done = take && in_tlast_i && dropping;
  assign cnt_frames_o   = commit;
  assign cnt_runt_o     = drop_done && cause == CRunt;
  assign cnt_oversize_o = drop_done && cause == COversize;
  assign cnt_bad_o      = drop_done && cause == CBad;
  assign cnt_overflow_o = drop_done && cause == COverflow;
  assign cnt_bad_keep_o = drop_done && cause == CBadKeep;

  cni_fifo #(.Width(16), .Depth(Frames)) u_tab (
    .clk_i, .rst_ni,
    .in_valid_i (commit),
    .in_ready_o (tab_in_ready),
    .in_data_i  (len_next),
    .out_valid_o(tab_out_valid),
    .out_ready_i(tab_pop),
    .out_data_o (tab_len),
    // The table's fill level is not needed: its in_ready says full.
    /* verilator lint_off PINCONNECTEMPTY */
    .count_o    ()
    /* verilator lint_on PINCONNECTEMPTY */
  );

  // ---- packet buffer ---------------------------------------------------------------------------
  logic          rd_en;
  logic [DW-1:0] rd_word;
  // Port a only writes, port b only reads.
  /* verilator lint_off UNUSEDSIGNAL */
  logic [DW-1:0] a_rd;
  /* verilator lint_on UNUSEDSIGNAL */
  cni_dpram #(.Width(DW), .Words(Beats)) u_buf (
    .clk_i,
    .a_en_i  (write),
    .a_we_i  (1'b1),
    .a_addr_i(cur_q[AW-1:0]),
    .a_wd_i  (in_tdata_i),
    .a_rd_o  (a_rd),
    .b_en_i  (rd_en),
    .b_we_i  (1'b0),
    .b_addr_i(rd_q[AW-1:0]),
    .b_wd_i  ('0),
    .b_rd_o  (rd_word)
  );

  // ---- output side -----------------------------------------------------------------------------
  logic [15:0]   beat_q;   // the head frame's beats read so far
  logic          inflight_q;
  logic [15:0]   rlen_q;   // the length of the word read last cycle
  logic          rlast_q;
  logic          q_in_ready, q_out_valid;
  logic [$clog2(OutQ + 1)-1:0] q_count;
  logic [OW-1:0] q_in, q_out;

  wire [15:0] beats_of = (tab_len + 16'(Bytes - 1)) >> $clog2(Bytes);
  wire        last_beat = beat_q + 1'b1 == beats_of;
  // A read only when the queue will have room for it and the read before it.
  assign rd_en  = tab_out_valid && (32'(q_count) + 32'(inflight_q) < OutQ);
  assign tab_pop = rd_en && last_beat;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rd_q       <= '0;
      beat_q     <= '0;
      inflight_q <= 1'b0;
      rlen_q     <= '0;
      rlast_q    <= 1'b0;
    end else begin
      inflight_q <= rd_en;
      if (rd_en) begin
        rd_q    <= rd_q + 1'b1;
        beat_q  <= last_beat ? '0 : beat_q + 1'b1;
        rlen_q  <= tab_len;
        rlast_q <= last_beat;
      end
    end
  end

  // The last beat's keep: the length's remainder (0: every byte).
  logic [Bytes-1:0] rkeep;
  always_comb begin
    rkeep = '1;
    if (rlast_q && rlen_q[$clog2(Bytes)-1:0] != '0)
      rkeep = (Bytes'(1) << rlen_q[$clog2(Bytes)-1:0]) - 1'b1;
  end
  assign q_in = {rlen_q, rlast_q, rkeep, rd_word};

  cni_fifo #(.Width(OW), .Depth(OutQ)) u_out (
    .clk_i, .rst_ni,
    .in_valid_i (inflight_q),
    .in_ready_o (q_in_ready),
    .in_data_i  (q_in),
    .out_valid_o(q_out_valid),
    .out_ready_i(out_tready_i),
    .out_data_o (q_out),
    .count_o    (q_count)
  );
  assign out_tvalid_o = q_out_valid;
  assign {out_len_o, out_tlast_o, out_tkeep_o, out_tdata_o} = q_out;

  assign idle_o = commit_q == rd_q && cur_q == commit_q && !drop_q && len_q == '0 &&
                  !inflight_q && !q_out_valid;

  `CNI_ASSERT(ReadRoom_A, !inflight_q || q_in_ready, "a word read found the output queue full")
  `CNI_ASSERT(ReadCommitted_A, !rd_en || rd_q != commit_q, "a read beyond the committed frames")
  `CNI_ASSERT(NoOverfill_A, used <= (AW + 1)'(Beats), "more words in use than the buffer has")

endmodule
