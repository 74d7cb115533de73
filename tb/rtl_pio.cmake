# SPDX-License-Identifier: Apache-2.0
# PIO engine under unit test (tests/pio): checking builds of cni_pio_engine with small
# parameters. The parameters are exported to the tests as CNI_PIO_* compile definitions.
# One list, <SV parameter>:<C++ macro suffix>:<value>.
set(CNI_PIO_PARAMS
  LineBytes:LINE_BYTES:128 LineIdxW:LINE_IDX_W:8 CBase:CBASE:16 CPairs:CPAIRS:16
  ABase:ABASE:48 NOvfA:NOVFA:76 BBase:BBASE:126 NOvfB:NOVFB:76
  EvtReg:EVT_REG:0 RdReg:RD_REG:0 ReqReg:REQ_REG:0)
# The pipelined engine (the endpoint's Pipelined configuration, the ECP5 board's): the same
# geometry with its event, read-data and request registers.
set(CNI_PIO_PIPE_PARAMS ${CNI_PIO_PARAMS})
list(TRANSFORM CNI_PIO_PIPE_PARAMS REPLACE "^((EvtReg|RdReg|ReqReg):.*):0$" "\\1:1")

file(GLOB CNI_PIO_MODULES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/rtl/pio/cni_*.sv)
list(REMOVE_ITEM CNI_PIO_MODULES ${PROJECT_SOURCE_DIR}/rtl/pio/cni_pio_pkg.sv)
set(CNI_PIO_RTL
  ${PROJECT_SOURCE_DIR}/rtl/coh/cni_coh_pkg.sv
  ${PROJECT_SOURCE_DIR}/rtl/pio/cni_pio_pkg.sv
  ${PROJECT_SOURCE_DIR}/rtl/common/cni_fifo.sv
  ${PROJECT_SOURCE_DIR}/rtl/common/cni_pipe_reg.sv
  ${CNI_PIO_MODULES}
  ${PROJECT_SOURCE_DIR}/tb/sv/cni_tb_pio_engine.sv)

# cni_pio_model(<library> <params>...): a checking build of the engine (class Vcni_pio_engine)
# with the parameters given as above, through its test view (tb/sv/cni_tb_pio_engine.sv: each
# field of the engine records on a port of its own).
function(cni_pio_model lib)
  cni_sv_params(pp CNI_PIO ${ARGN})
  list(TRANSFORM pp_SV PREPEND -G OUTPUT_VARIABLE gargs)
  add_library(${lib} STATIC)
  cni_verilate(${lib}
    SOURCES ${CNI_PIO_RTL}
    TOP_MODULE cni_tb_pio_engine
    PREFIX Vcni_pio_engine
    TRACE_FST
    VERILATOR_ARGS --assert --x-assign unique --x-initial unique -Wall ${gargs})
  cni_model_finish(${lib})
  target_compile_definitions(${lib} PUBLIC ${pp_DEFS})
  target_include_directories(${lib} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
endfunction()
cni_pio_model(cni_rtl_pio_chk ${CNI_PIO_PARAMS})
cni_pio_model(cni_rtl_pio_pipe ${CNI_PIO_PIPE_PARAMS})

# tests/pio links cni_tb for the header-only reference models in tb/. While tb/ has no compiled
# sources that library does not exist yet; stand in with a header-only one.
if(NOT TARGET cni_tb)
  add_library(cni_tb INTERFACE)
  target_include_directories(cni_tb INTERFACE ${CMAKE_CURRENT_SOURCE_DIR})
endif()

# The accelerator alone (tests/pio/test_bloom_rtl.cpp) in two folded configurations: the ULX3S
# board's (64-byte lines, 4 words per cycle: 4 groups) and one word per cycle at 128 bytes
# (32 groups). The engine models above fold all words in one cycle (the default).
add_library(cni_rtl_bloom STATIC)
foreach(cfg "64;4" "128;1")
  list(GET cfg 0 lb)
  list(GET cfg 1 fw)
  cni_verilate(cni_rtl_bloom
    SOURCES ${PROJECT_SOURCE_DIR}/rtl/pio/cni_bloom.sv
    TOP_MODULE cni_bloom
    PREFIX Vcni_bloom_${lb}x${fw}
    VERILATOR_ARGS --assert --x-assign unique --x-initial unique -Wall
      -GLineBytes=${lb} -GFoldWords=${fw})
endforeach()
cni_model_finish(cni_rtl_bloom)
