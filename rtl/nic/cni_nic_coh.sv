// SPDX-License-Identifier: Apache-2.0
// The NIC's coherent-PIO host interface (docs/nic.md, "Coherent PIO interface"): the PIO engine's
// line-wide message streams -- protocol (a)'s out of the host, protocol (b)'s into it
// (rtl/pio, cni_pio_engine's pa_* and pb_* ports) -- joined to the datapath's host streams of
// Bytes-wide beats. A frame is one message each way.
//
// (a) -> transmit: a line is taken into a register and sent as the datapath beats that hold the
// message's bytes (the message's length, on each of its lines, says how many), the last beat of
// the message with only its bytes kept and tlast; the next line is taken in the cycle the
// current one's last beat goes, so the datapath gets a beat every cycle. A line holding none of
// the message's bytes (a message of 0 bytes) is taken and dropped.
// receive -> (b): beats are gathered into a line, which is offered with the frame's length when
// full or at the frame's last beat; the first beat of the next line is taken in the cycle the
// offered one goes. The line's bytes past the frame's end are zero, whatever the MAC left in the
// bytes its last beat does not keep: a frame never carries bytes of another to the host.
//
// Parameters:
//   Bytes     - datapath beat bytes (64: 512 bits)
//   LineBytes - PIO stream beat bytes (the device's line), a multiple of Bytes
// Ports:
//   pa_*   - (a)'s stream in: a line, the message's length, its last line
//   pb_*   - (b)'s stream out: the same
//   tx_*   - to the datapath's host transmit stream (tuser, abort, never set)
//   rx_*   - from the datapath's host receive stream (rx_len_i: the frame's length, on each beat;
//            rx_tkeep_i: the bytes of the beat that belong to it)
//   idle_o - nothing held
`default_nettype none
`include "cni_assert.svh"

module cni_nic_coh #(
  parameter int Bytes     = 64,
  parameter int LineBytes = 128,
  localparam int DW = Bytes * 8,
  localparam int LW = LineBytes * 8
) (
  input  wire logic             clk_i,
  input  wire logic             rst_ni,
  input  wire logic             pa_valid_i,
  output logic                  pa_ready_o,
  input  wire logic [LW-1:0]    pa_data_i,
  input  wire logic [15:0]      pa_len_i,
  input  wire logic             pa_last_i,
  output logic                  pb_valid_o,
  input  wire logic             pb_ready_i,
  output logic [LW-1:0]         pb_data_o,
  output logic [15:0]           pb_len_o,
  output logic                  pb_last_o,
  output logic                  tx_tvalid_o,
  input  wire logic             tx_tready_i,
  output logic [DW-1:0]         tx_tdata_o,
  output logic [Bytes-1:0]      tx_tkeep_o,
  output logic                  tx_tlast_o,
  output logic                  tx_tuser_o,
  input  wire logic             rx_tvalid_i,
  output logic                  rx_tready_o,
  input  wire logic [DW-1:0]    rx_tdata_i,
  input  wire logic [Bytes-1:0] rx_tkeep_i,
  input  wire logic             rx_tlast_i,
  input  wire logic [15:0]      rx_len_i,
  output logic                  idle_o
);

  localparam int Per = LineBytes / Bytes;  // datapath beats a line
  localparam int JW = Per > 1 ? $clog2(Per) : 1;

  // ---- (a) -> transmit ------------------------------------------------------------------------
  logic [LW-1:0] a_q;
  logic [15:0]   a_len_q, a_off_q;  // the message's length; its bytes before this line
  logic          a_last_q, a_full_q;
  logic [JW-1:0] a_j_q;             // the beat of the line being offered
  logic [16:0]   a_at, a_rem;       // the beat's first byte in the message; bytes from there on
  logic          a_empty, a_end, a_go, a_take;

  assign a_at    = {1'b0, a_off_q} + 17'(a_j_q) * 17'(Bytes);
  assign a_rem   = {1'b0, a_len_q} - a_at;
  // a line whose first beat holds none of the message's bytes is dropped (never offered)
  assign a_empty = a_full_q && a_j_q == '0 && a_at >= {1'b0, a_len_q};
  // the line's last beat that holds bytes of the message
  assign a_end   = a_rem <= 17'(Bytes) || a_j_q == JW'(Per - 1);
  assign a_go    = a_empty || (tx_tvalid_o && tx_tready_i && a_end);  // the line is done
  assign pa_ready_o = !a_full_q || a_go;
  assign a_take  = pa_valid_i && pa_ready_o;

  assign tx_tvalid_o = a_full_q && !a_empty;
  assign tx_tdata_o  = a_q[a_j_q * DW +: DW];
  assign tx_tlast_o  = a_last_q && a_rem <= 17'(Bytes);
  assign tx_tuser_o  = 1'b0;
  always_comb begin
    tx_tkeep_o = '1;
    if (a_rem < 17'(Bytes)) tx_tkeep_o = Bytes'((65'(1) << a_rem[6:0]) - 65'(1));
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      a_full_q <= 1'b0;
      a_j_q    <= '0;
      a_off_q  <= '0;
      a_len_q  <= '0;
      a_last_q <= 1'b0;
    end else begin
      if (a_go) begin
        a_j_q   <= '0;
        a_off_q <= a_last_q ? 16'd0 : a_off_q + 16'(LineBytes);
      end else if (tx_tvalid_o && tx_tready_i) begin
        a_j_q <= a_j_q + JW'(1);
      end
      if (a_take) begin
        a_len_q  <= pa_len_i;
        a_last_q <= pa_last_i;
        a_full_q <= 1'b1;
      end else if (a_go) begin
        a_full_q <= 1'b0;
      end
    end
  end

  always_ff @(posedge clk_i) begin
    if (a_take) a_q <= pa_data_i;
  end

  // ---- receive -> (b) -------------------------------------------------------------------------
  logic [LW-1:0] b_q;
  logic [15:0]   b_len_q;
  logic          b_last_q, b_full_q;
  logic [JW-1:0] b_n_q;  // beats gathered into the line not yet offered
  logic          b_give, b_take;
  logic [DW-1:0] b_beat;  // the beat, its bytes not kept zero

  always_comb begin
    for (int i = 0; i < Bytes; i++) begin
      b_beat[8 * i +: 8] = rx_tkeep_i[i] ? rx_tdata_i[8 * i +: 8] : 8'h00;
    end
  end

  assign b_give      = pb_valid_o && pb_ready_i;
  assign rx_tready_o = !b_full_q || b_give;
  assign b_take      = rx_tvalid_i && rx_tready_o;
  assign pb_valid_o  = b_full_q;
  assign pb_data_o   = b_q;
  assign pb_len_o    = b_len_q;
  assign pb_last_o   = b_last_q;

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      b_full_q <= 1'b0;
      b_n_q    <= '0;
      b_len_q  <= '0;
      b_last_q <= 1'b0;
    end else begin
      if (b_take) begin
        b_len_q <= rx_len_i;
        if (rx_tlast_i || b_n_q == JW'(Per - 1)) begin
          b_n_q    <= '0;
          b_last_q <= rx_tlast_i;
          b_full_q <= 1'b1;
        end else begin
          b_n_q <= b_n_q + JW'(1);
          if (b_give) b_full_q <= 1'b0;
        end
      end else if (b_give) begin
        b_full_q <= 1'b0;
      end
    end
  end

  // a line's first beat clears the rest of it: a frame's last line carries no bytes of another
  always_ff @(posedge clk_i) begin
    if (b_take) begin
      if (b_n_q == '0) b_q <= LW'(b_beat);
      else b_q[b_n_q * DW +: DW] <= b_beat;
    end
  end

  assign idle_o = !a_full_q && !b_full_q && b_n_q == '0;

  `CNI_ASSERT_INIT(Params_A, LineBytes % Bytes == 0 && Bytes <= 64,
                   "LineBytes a multiple of Bytes, Bytes at most 64")
  `CNI_ASSERT_HOLD(PbHold_A, pb_valid_o, pb_ready_i, {pb_data_o, pb_len_o, pb_last_o})
  `CNI_ASSERT_HOLD(TxHold_A, tx_tvalid_o, tx_tready_i, {tx_tdata_o, tx_tkeep_o, tx_tlast_o})

endmodule
