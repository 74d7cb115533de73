# SPDX-License-Identifier: Apache-2.0
# VCU118 (XCVU9P-L2FLGA2104E) constraints for fpga/vcu118/fpga.sv.
# UNVERIFIED ON HARDWARE: pin locations follow the VCU118 board documentation as used by public
# VCU118 designs; this file has not been through Vivado implementation or on a board. The open
# flow (`make fpga-xilinx`) only synthesizes with Yosys for resource counts.

# 300 MHz system clock (SYSCLK1_300)
set_property -dict {PACKAGE_PIN G31 IOSTANDARD DIFF_SSTL12} [get_ports clk_300mhz_p]
set_property -dict {PACKAGE_PIN F31 IOSTANDARD DIFF_SSTL12} [get_ports clk_300mhz_n]
create_clock -period 3.333 -name clk_300mhz [get_ports clk_300mhz_p]

# CPU_RESET push button (active high)
set_property -dict {PACKAGE_PIN L19 IOSTANDARD LVCMOS12} [get_ports reset]
set_false_path -from [get_ports reset]
set_input_delay 0 [get_ports reset]

# USB UART (FPGA side: uart_txd out, uart_rxd in)
set_property -dict {PACKAGE_PIN BB21 IOSTANDARD LVCMOS18 SLEW SLOW DRIVE 8} [get_ports uart_txd]
set_property -dict {PACKAGE_PIN AW25 IOSTANDARD LVCMOS18} [get_ports uart_rxd]
set_false_path -to [get_ports uart_txd]
set_output_delay 0 [get_ports uart_txd]
set_false_path -from [get_ports uart_rxd]
set_input_delay 0 [get_ports uart_rxd]

# User LEDs
set_property -dict {PACKAGE_PIN AT32 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[0]}]
set_property -dict {PACKAGE_PIN AV34 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[1]}]
set_property -dict {PACKAGE_PIN AY30 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[2]}]
set_property -dict {PACKAGE_PIN BB32 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[3]}]
set_property -dict {PACKAGE_PIN BF32 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[4]}]
set_property -dict {PACKAGE_PIN AU37 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[5]}]
set_property -dict {PACKAGE_PIN AV36 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[6]}]
set_property -dict {PACKAGE_PIN BA37 IOSTANDARD LVCMOS12 SLEW SLOW DRIVE 8} [get_ports {led[7]}]
set_false_path -to [get_ports {led[*]}]
set_output_delay 0 [get_ports {led[*]}]

# Configuration
set_property CFGBVS GND [current_design]
set_property CONFIG_VOLTAGE 1.8 [current_design]
set_property BITSTREAM.GENERAL.COMPRESS true [current_design]
