// SPDX-License-Identifier: Apache-2.0
// Board helper (not part of the portable core): 8N1 UART receiver, one byte per frame.
//
// Parameters:
//   ClkDiv - clock cycles per bit (clock frequency / baud rate), >= 4
// Ports:
//   clk_i, rst_ni      - clock, active-low asynchronous reset
//   rx_i               - serial line (idle high); synchronized here
//   valid_o, data_o    - one-cycle pulse with the received byte (no back-pressure)
`default_nettype none

module cni_fpga_uart_rx #(
  parameter int ClkDiv = 868
) (
  input  wire logic       clk_i,
  input  wire logic       rst_ni,
  input  wire logic       rx_i,
  output logic            valid_o,
  output logic [7:0]      data_o
);

  localparam int DivW = $clog2(ClkDiv + 1);

  if (ClkDiv < 4) $error("cni_fpga_uart_rx: ClkDiv must be >= 4");

  typedef enum logic [1:0] {StIdle, StStart, StData, StStop} state_e;

  state_e          state_q;
  logic [1:0]      sync_q;    // two synchronizer stages
  logic [DivW-1:0] div_q;
  logic [2:0]      bit_q;
  logic [7:0]      sh_q;

  wire rx = sync_q[1];

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      state_q <= StIdle;
      sync_q  <= '1;
      div_q   <= '0;
      bit_q   <= '0;
      sh_q    <= '0;
      valid_o <= 1'b0;
      data_o  <= '0;
    end else begin
      sync_q  <= {sync_q[0], rx_i};
      valid_o <= 1'b0;
      unique case (state_q)
        StIdle: begin
          if (!rx) begin
            state_q <= StStart;
            div_q   <= DivW'(ClkDiv / 2);  // sample in the middle of each bit
          end
        end
        StStart: begin
          if (div_q != '0) begin
            div_q <= div_q - 1'b1;
          end else if (rx) begin
            state_q <= StIdle;               // a glitch, not a start bit
          end else begin
            state_q <= StData;
            div_q   <= DivW'(ClkDiv - 1);
            bit_q   <= '0;
          end
        end
        StData: begin
          if (div_q != '0) begin
            div_q <= div_q - 1'b1;
          end else begin
            sh_q  <= {rx, sh_q[7:1]};
            div_q <= DivW'(ClkDiv - 1);
            bit_q <= bit_q + 1'b1;
            if (bit_q == 3'd7) state_q <= StStop;
          end
        end
        StStop: begin
          if (div_q != '0) begin
            div_q <= div_q - 1'b1;
          end else begin
            state_q <= StIdle;
            if (rx) begin                    // a framing error drops the byte
              valid_o <= 1'b1;
              data_o  <= sh_q;
            end
          end
        end
        default: state_q <= StIdle;
      endcase
    end
  end

endmodule
