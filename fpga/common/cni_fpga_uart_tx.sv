// SPDX-License-Identifier: Apache-2.0
// Board helper (not part of the portable core): 8N1 UART transmitter.
//
// Parameters:
//   ClkDiv - clock cycles per bit (clock frequency / baud rate), >= 1
// Ports:
//   clk_i, rst_ni          - clock, active-low asynchronous reset
//   valid_i/ready_o/data_i - byte to send; ready_o while idle (never depends on valid_i)
//   tx_o                   - serial line (idle high), registered
`default_nettype none

module cni_fpga_uart_tx #(
  parameter int ClkDiv = 868
) (
  input  wire logic       clk_i,
  input  wire logic       rst_ni,
  input  wire logic       valid_i,
  output logic            ready_o,
  input  wire logic [7:0] data_i,
  output logic            tx_o
);

  localparam int DivW = $clog2(ClkDiv + 1);

  logic [DivW-1:0] div_q;
  logic [3:0]      left_q;   // bits still to send (start + 8 data + stop)
  logic [8:0]      sh_q;     // {stop, data}; the start bit is driven on load

  assign ready_o = (left_q == '0);

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      div_q  <= '0;
      left_q <= '0;
      sh_q   <= '1;
      tx_o   <= 1'b1;
    end else if (left_q == '0) begin
      if (valid_i) begin
        tx_o   <= 1'b0;                      // start bit
        sh_q   <= {1'b1, data_i};
        left_q <= 4'd10;
        div_q  <= DivW'(ClkDiv - 1);
      end
    end else if (div_q != '0) begin
      div_q <= div_q - 1'b1;
    end else begin
      left_q <= left_q - 1'b1;
      div_q  <= DivW'(ClkDiv - 1);
      if (left_q != 4'd1) begin
        tx_o <= sh_q[0];
        sh_q <= {1'b1, sh_q[8:1]};
      end
    end
  end

endmodule
