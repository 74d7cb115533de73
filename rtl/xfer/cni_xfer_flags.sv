// SPDX-License-Identifier: Apache-2.0
// The block-transfer sender's status-flag writer (docs/xfer.md, "Sender record"): one flag write
// at a time, for the lowest record that owes its report (CLOSE). The flag line (CA_WR_INV) holds
// word 0 = the record's count | status << 16 and word 1 = a Fetch-and-Op's old value; a
// Fetch-and-Op's flag is not written before OCC_FOP_DONE cycles after its reply (fop_i).
//
// Parameters: LineBytes - the flag line's size; Recs - sender records
// Ports:
//   close_i                 - the records owing their flag; fop_i of them, Fetch-and-Ops
//   flag_i, stat_i, c_i,
//   old_i                   - per record: the flag's address, the status, the count, the old value
//   occ_fdone_i, fdone_i    - emulated occupancy: cycles from a FOP_RSP (a pulse) to its flag
//   take_o, take_rec_o      - a flag write leaves for this record (the record moves to FLAG)
//   done_rec_o              - the record whose write is in flight (fw_done_i: it is answered)
//   fw_*                    - the flag line's write (CA_WR_INV) and its answer
//   cnt_*                   - one-cycle pulses: a DONE, a FOP_DONE, a failure reported
//   busy_o                  - a write in flight
`default_nettype none

module cni_xfer_flags #(
  parameter int LineBytes = 64,
  parameter int Recs      = 4,
  localparam int LineBits = LineBytes * 8,
  localparam int RW       = $clog2(Recs)
) (
  input  wire logic                    clk_i,
  input  wire logic                    rst_ni,
  input  wire logic [Recs-1:0]         close_i,
  input  wire logic [Recs-1:0]         fop_i,
  input  wire logic [Recs-1:0][47:0]   flag_i,
  input  wire logic [Recs-1:0][7:0]    stat_i,
  input  wire logic [Recs-1:0][15:0]   c_i,
  input  wire logic [Recs-1:0][63:0]   old_i,
  input  wire logic [15:0]             occ_fdone_i,
  input  wire logic                    fdone_i,
  output logic                         take_o,
  output logic [RW-1:0]                take_rec_o,
  output logic [RW-1:0]                done_rec_o,
  output logic                         fw_valid_o,
  output logic [47:0]                  fw_addr_o,
  output logic [LineBits-1:0]          fw_data_o,
  input  wire logic                    fw_ready_i,
  input  wire logic                    fw_done_i,
  output logic                         cnt_done_o,
  output logic                         cnt_fop_o,
  output logic                         cnt_failed_o,
  output logic                         busy_o
);

  localparam logic [7:0] StDone = 8'd1, StFop = 8'd6;

  logic          busy_q;
  logic [RW-1:0] rec_q;
  logic [15:0]   gate_q;    // OCC_FOP_DONE: a Fetch-and-Op's flag not before it is 0
  logic          any;
  logic [RW-1:0] idx;
  always_comb begin
    any = 1'b0;
    idx = '0;
    for (int i = Recs - 1; i >= 0; i--) begin
      if (close_i[i]) begin
        any = 1'b1;
        idx = RW'(i);
      end
    end
  end
  assign fw_valid_o   = any && !busy_q && !(fop_i[idx] && gate_q != '0);
  assign fw_addr_o    = flag_i[idx];
  assign fw_data_o    = LineBits'({fop_i[idx] ? old_i[idx] : 64'd0, 40'd0, stat_i[idx], c_i[idx]});
  assign take_o       = fw_valid_o && fw_ready_i;
  assign take_rec_o   = idx;
  assign done_rec_o   = rec_q;
  assign busy_o       = busy_q;
  assign cnt_done_o   = take_o && stat_i[idx] == StDone;
  assign cnt_fop_o    = take_o && stat_i[idx] == StFop;
  assign cnt_failed_o = take_o && stat_i[idx] != StDone && stat_i[idx] != StFop;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      busy_q <= 1'b0;
      rec_q  <= '0;
      gate_q <= '0;
    end else begin
      if (fdone_i) gate_q <= occ_fdone_i;
      else if (gate_q != '0) gate_q <= gate_q - 16'd1;
      if (take_o) begin
        busy_q <= 1'b1;
        rec_q  <= idx;
      end
      if (fw_done_i) busy_q <= 1'b0;
    end
  end

endmodule
