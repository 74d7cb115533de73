# SPDX-License-Identifier: Apache-2.0
# The FPGA board shell (fpga/common/cni_fpga_shell.sv: core + exerciser + serial bridge) as a
# Verilated model, in the iCE40 board's reduced configuration with a fast UART (4 clocks per
# bit), for tests/fpga. Checking build.
set(CNI_FPGA_SHELL_PARAMS LineBytes=64 NumAgents=4 MemLines=8 CPairs=2 NOvfA=2 NOvfB=2
    TtEntries=8 TtReserve=2 RxDepth=2 TxCredits=2 BloomFoldWords=4 ClkDiv=4)
set(CNI_FPGA_GARGS "")
foreach(p ${CNI_FPGA_SHELL_PARAMS})
  list(APPEND CNI_FPGA_GARGS -G${p})
endforeach()
file(GLOB CNI_FPGA_COMMON CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/fpga/common/*.sv)
add_library(cni_rtl_fpga_shell STATIC)
cni_verilate(cni_rtl_fpga_shell
  SOURCES ${CNI_RTL_SOURCES} ${CNI_FPGA_COMMON}
  TOP_MODULE cni_fpga_shell
  PREFIX Vcni_fpga_shell
  TRACE_FST
  VERILATOR_ARGS --assert --x-assign unique --x-initial unique -Wno-fatal ${CNI_FPGA_GARGS})
cni_model_finish(cni_rtl_fpga_shell)
target_link_libraries(cni_rtl_fpga_shell PUBLIC gen_hdr)  # cni/engines.hpp: the region count
target_compile_definitions(cni_rtl_fpga_shell PUBLIC CNI_FPGA_CLKDIV=4)
