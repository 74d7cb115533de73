// SPDX-License-Identifier: Apache-2.0
// VCU118-class board (Xilinx XCVU9P) top: the 300 MHz differential system clock (IBUFDS ->
// BUFG) clocks the core directly, reset synchronizer, the core inside cni_fpga_shell (on-chip
// link/PIO exerciser + serial bridge to the CSR port) on the USB UART at 115200 baud, status on
// the LEDs. Pins: constraints/vcu118.xdc (unverified on hardware). Only synthesized with Yosys
// (`make fpga-xilinx`) for resource counts; there is no open place-and-route for this part.
//
// Ports:
//   clk_300mhz_p/_n   - 300 MHz system clock
//   reset             - CPU_RESET push button, active high
//   uart_rxd          - from the USB UART bridge
//   uart_txd          - to the USB UART bridge
//   led[7:0]          - [0] init done, [1] link traffic on, [2] PIO traffic on, [7:3] signature
`default_nettype none

module fpga (
  input  wire logic       clk_300mhz_p,
  input  wire logic       clk_300mhz_n,
  input  wire logic       reset,
  input  wire logic       uart_rxd,
  output logic            uart_txd,
  output logic [7:0]      led
);

  logic clk_ibuf, clk;
  IBUFDS u_clk_ibuf (.I (clk_300mhz_p), .IB (clk_300mhz_n), .O (clk_ibuf));
  BUFG   u_clk_bufg (.I (clk_ibuf), .O (clk));

  logic rst_n;
  cni_fpga_rst_sync u_rst (.clk_i (clk), .arst_ni (!reset), .rst_no (rst_n));

  // Configuration (docs/fpga.md, "XCVU9P"): the benchmark geometry of docs/endpoint.md.
  logic [7:0] status;

  cni_fpga_shell #(
    .LineBytes (128), .MemLines (1024), .CPairs (256), .NOvfA (76), .NOvfB (76),
    .TtEntries (64), .TtReserve (16), .RxDepth (16), .TxCredits (16),
    .ClkDiv (2604)  // 300 MHz / 115200 baud
  ) u_shell (
    .clk_i (clk), .rst_ni (rst_n), .uart_rx_i (uart_rxd), .uart_tx_o (uart_txd),
    .status_o (status)
  );

  assign led = status;

endmodule
