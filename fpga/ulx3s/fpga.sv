// SPDX-License-Identifier: Apache-2.0
// ULX3S (Lattice ECP5 LFE5U-85F, CABGA381) board top: 25 MHz oscillator -> EHXPLLL -> ClkMHz
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

module fpga #(
  // Core clock in MHz: a divisor of 600 and a multiple of 5 (the PLL runs its VCO at 600 MHz and
  // its phase detector at 25 MHz, or 5 MHz when ClkMHz is not a multiple of 25). The clock the
  // routed core meets: docs/fpga.md.
  parameter int ClkMHz = 25,
  // The CNI engine's configuration (the engine registry's CniConfig, cni_amap_pkg::CNI_CONFIG_*):
  // none on the board by default; `CNI=<name> scripts/fpga.sh ecp5` builds one (docs/fpga.md)
  parameter int CniConfig = cni_amap_pkg::CNI_CONFIG_NONE
) (
  input  wire logic       clk_25mhz,
  input  wire logic [6:0] btn,
  output logic [7:0]      led,
  input  wire logic       ftdi_txd,
  output logic            ftdi_rxd,
  output logic            wifi_gpio0
);

  // ---- clock: 25 MHz / InDiv x FbDiv = ClkMHz (VCO 600 MHz = ClkMHz x CLKOP divider) ---------
  localparam int InDiv = (ClkMHz % 25 == 0) ? 1 : 5;
  localparam int FbDiv = ClkMHz * InDiv / 25;
  localparam int OpDiv = 600 / ClkMHz;
  if (ClkMHz % 5 != 0 || 600 % ClkMHz != 0 || ClkMHz < 10) begin : g_bad_clk
    $error("ClkMHz must be a multiple of 5, at least 10, and divide 600");
  end

  logic clk, locked;

  (* FREQUENCY_PIN_CLKI = "25" *)
  (* ICP_CURRENT = "12" *) (* LPF_RESISTOR = "8" *) (* MFG_ENABLE_FILTEROPAMP = "1" *)
  (* MFG_GMCREF_SEL = "2" *)
  EHXPLLL #(
    .PLLRST_ENA ("DISABLED"), .INTFB_WAKE ("DISABLED"), .STDBY_ENABLE ("DISABLED"),
    .DPHASE_SOURCE ("DISABLED"),
    .OUTDIVIDER_MUXA ("DIVA"), .OUTDIVIDER_MUXB ("DIVB"), .OUTDIVIDER_MUXC ("DIVC"),
    .OUTDIVIDER_MUXD ("DIVD"),
    .CLKI_DIV (InDiv), .CLKFB_DIV (FbDiv), .FEEDBK_PATH ("CLKOP"),
    .CLKOP_ENABLE ("ENABLED"), .CLKOP_DIV (OpDiv), .CLKOP_CPHASE ((OpDiv - 1) / 2),
    .CLKOP_FPHASE (0)
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
  // Configuration (docs/fpga.md, "Configurations"): 64-byte lines, 880 lines of device memory in
  // block RAM, 32 protocol-(c) pairs, 9656-byte (a)/(b) messages, 8 transaction-table entries,
  // 4-deep link buffers, the (c) accelerator folding 4 of the 16 words per cycle, the home
  // agent pipelined.
  logic [7:0] status;

  cni_fpga_shell #(
    .LineBytes (64), .MemLines (512), .CPairs (32), .NOvfA (150), .NOvfB (150),
    .TtEntries (8), .TtReserve (2), .RxDepth (4), .TxCredits (4), .BloomFoldWords (4),
    .Pipelined (1), .CniConfig (CniConfig),
    .ClkDiv (ClkMHz * 1_000_000 / 115_200)
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
