// SPDX-License-Identifier: Apache-2.0
// iCE40-HX8K breakout board (iCE40HX8K-CT256) top: the 12 MHz oscillator clocks the core
// directly, reset synchronizer, the reduced core inside cni_fpga_shell (on-chip link/PIO
// exerciser + serial bridge to the CSR port) on the FTDI UART at 115200 baud, status on the
// LEDs. Pins: constraints/ice40.pcf. Configuration: docs/fpga.md.
//
// Ports:
//   clk       - 12 MHz oscillator
//   uart_rx   - from the FTDI chip (its TXD)
//   uart_tx   - to the FTDI chip (its RXD)
//   led[7:0]  - [0] init done, [1] link traffic on, [2] PIO traffic on, [7:3] signature bits
// Reset: power-up (the synchronizer's flip-flops start at 0 on iCE40) and a serial BREAK
// (uart_rx held low for 256 bit times).
`default_nettype none

module fpga (
  input  wire logic       clk,
  input  wire logic       uart_rx,
  output logic            uart_tx,
  output logic [7:0]      led
);

  // ---- reset: power-up, or BREAK on the serial line ------------------------------------------
  localparam int ClkDiv = 104;  // 12 MHz / 115200 baud
  logic [15:0] brk_q = '0;
  logic        brk;
  always_ff @(posedge clk) begin
    if (uart_rx) brk_q <= '0;
    else if (!brk) brk_q <= brk_q + 1'b1;
  end
  assign brk = (brk_q == 16'(256 * ClkDiv));

  logic rst_n;
  cni_fpga_rst_sync u_rst (.clk_i (clk), .arst_ni (!brk), .rst_no (rst_n));

  // ---- core: the reduced configuration (docs/fpga.md, "iCE40") -------------------------------
  logic [7:0] status;

  cni_fpga_shell #(
    .LineBytes (64), .NumAgents (4), .MemLines (8), .CPairs (2), .NOvfA (2), .NOvfB (2),
    .TtEntries (8), .TtReserve (2), .RxDepth (2), .TxCredits (2), .BloomFoldWords (4),
    .ClkDiv (ClkDiv)
  ) u_shell (
    .clk_i (clk), .rst_ni (rst_n), .uart_rx_i (uart_rx), .uart_tx_o (uart_tx),
    .status_o (status)
  );

  assign led = status;

endmodule
