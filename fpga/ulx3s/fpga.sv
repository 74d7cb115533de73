// SPDX-License-Identifier: Apache-2.0
// ULX3S (Lattice ECP5 LFE5U-85F, CABGA381) board top: 25 MHz oscillator -> EHXPLLL -> 100 MHz
// core clock, reset synchronizer, the portable core inside cni_fpga_shell (on-chip link/PIO
// exerciser + serial bridge to the CSR port) on the FTDI UART at 115200 baud, status on the
// LEDs. Pins: constraints/ulx3s.lpf. Configuration and bridge protocol: docs/fpga.md.
//
// Ports:
//   clk_25mhz            - on-board 25 MHz oscillator
//   btn[6:0]             - buttons; btn[1] (FIRE1, active high) resets the design
//   led[7:0]             - [0] init done, [1] link traffic on, [2] PIO traffic on,
//                          [6:3] link-signature bits (activity), [7] PLL locked
//   ftdi_txd / ftdi_rxd  - UART from / to the USB serial chip
//   wifi_gpio0           - held high so the on-board ESP32 does not reset the FPGA
`default_nettype none

module fpga (
  input  wire logic       clk_25mhz,
  input  wire logic [6:0] btn,
  output logic [7:0]      led,
  input  wire logic       ftdi_txd,
  output logic            ftdi_rxd,
  output logic            wifi_gpio0
);

  // ---- clock: 25 MHz x 4 / 1 = 100 MHz (VCO 600 MHz, CLKOP divider 6; values from ecppll) ----
  logic clk, locked;

  (* FREQUENCY_PIN_CLKI = "25" *)
  (* FREQUENCY_PIN_CLKOP = "100" *)
  (* ICP_CURRENT = "12" *) (* LPF_RESISTOR = "8" *) (* MFG_ENABLE_FILTEROPAMP = "1" *)
  (* MFG_GMCREF_SEL = "2" *)
  EHXPLLL #(
    .PLLRST_ENA ("DISABLED"), .INTFB_WAKE ("DISABLED"), .STDBY_ENABLE ("DISABLED"),
    .DPHASE_SOURCE ("DISABLED"),
    .OUTDIVIDER_MUXA ("DIVA"), .OUTDIVIDER_MUXB ("DIVB"), .OUTDIVIDER_MUXC ("DIVC"),
    .OUTDIVIDER_MUXD ("DIVD"),
    .CLKI_DIV (1), .CLKFB_DIV (4), .FEEDBK_PATH ("CLKOP"),
    .CLKOP_ENABLE ("ENABLED"), .CLKOP_DIV (6), .CLKOP_CPHASE (2), .CLKOP_FPHASE (0)
  ) u_pll (
    .RST (1'b0), .STDBY (1'b0), .CLKI (clk_25mhz), .CLKOP (clk), .CLKFB (clk),
    .CLKINTFB (), .PHASESEL0 (1'b0), .PHASESEL1 (1'b0), .PHASEDIR (1'b1), .PHASESTEP (1'b1),
    .PHASELOADREG (1'b1), .PLLWAKESYNC (1'b0), .ENCLKOP (1'b0),
    .LOCK (locked)
  );

  // ---- reset ---------------------------------------------------------------------------------
  logic rst_n;
  cni_fpga_rst_sync u_rst (.clk_i (clk), .arst_ni (locked && !btn[1]), .rst_no (rst_n));

  // ---- core ----------------------------------------------------------------------------------
  // Configuration (docs/fpga.md, "ULX3S"): 128-byte lines, 796 lines of device memory in block
  // RAM, 64 protocol-(c) pairs, 9600-byte (a)/(b) messages, 32 transaction-table entries.
  logic [7:0] status;

  cni_fpga_shell #(
    .LineBytes (128), .MemLines (512), .CPairs (64), .NOvfA (76), .NOvfB (76),
    .TtEntries (32), .TtReserve (8), .RxDepth (8), .TxCredits (8),
    .ClkDiv (868)  // 100 MHz / 115200 baud
  ) u_shell (
    .clk_i (clk), .rst_ni (rst_n), .uart_rx_i (ftdi_txd), .uart_tx_o (ftdi_rxd),
    .status_o (status)
  );

  assign led        = {locked, status[6:0]};
  assign wifi_gpio0 = 1'b1;

  // btn[0], btn[2..6] are not used.
  logic unused;
  assign unused = ^{btn[6:2], btn[0]};

endmodule
