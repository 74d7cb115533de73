# The device core (cni_endpoint) as Verilated models, and the C++ device adapters on top:
#   cni_rtl_chk / cni_dev_chk   - checking build, test geometry (small memories): tests
#   cni_rtl_fast / cni_dev_fast - fast build, full geometry (docs/endpoint.md): benchmarks
#   cni_rtl_pipe / cni_dev_pipe - the checking build, pipelined configuration (the FPGA
#                                 board configuration, docs/endpoint.md), carrying the CNI
#                                 engine as CNI16Qm: the same tests
# Each library holds one model per line size (LINES, default 128 and 64), Vcni_endpoint_l<size>
# with -GLineBytes=<size>; tb::Endpoint picks one by Options::line_bytes (docs/endpoint.md).
# PIPE_LINES adds the flavor's model with Pipelined = 1 at those sizes, Vcni_endpoint_l<size>_pipe
# (variant "pipe").
# Packages first (file(GLOB) sorts what it finds: cni_cache_agent.sv sorts before cni_coh_pkg.sv,
# and cni_coh_pkg.sv must come before rtl/top/cni_amap_pkg.sv, which a sort keeps).
file(GLOB CNI_RTL_PKGS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/rtl/*/*_pkg.sv)
file(GLOB CNI_RTL_MODULES CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/rtl/*/*.sv)
list(REMOVE_ITEM CNI_RTL_MODULES ${CNI_RTL_PKGS})
set(CNI_RTL_SOURCES ${CNI_RTL_PKGS} ${CNI_RTL_MODULES})
file(GLOB CNI_DEV_SRC CONFIGURE_DEPENDS ${CMAKE_CURRENT_SOURCE_DIR}/device/*.cpp)

function(cni_endpoint_model flavor)
  cmake_parse_arguments(M "CHECKING" "MEM;CPAIRS;NOVFA;NOVFB;SCRATCH;TT;RESERVE;RXDEPTH;TXCREDITS;PIPE;CNI"
                        "ARGS;LINES;CNI_VARIANTS;PIPE_LINES"
                        ${ARGN})
  if(NOT M_PIPE)
    set(M_PIPE 0)
  endif()
  if(NOT DEFINED M_CNI)
    set(M_CNI 5)  # cni_cq_pkg::CFG_NONE: no CNI engine
  endif()
  if(NOT M_LINES)
    set(M_LINES 128 64)
  endif()
  add_library(cni_rtl_${flavor} STATIC)
  # Each line size with the flavor's CNI configuration, then each CNI variant
  # (<name>:<Config>[:<EarlyPull>], 64-byte lines only, seed 000's size) as
  # Vcni_endpoint_l64_<name>, then the pipelined models (suffix:lines:Config:EarlyPull:Pipelined).
  set(models)
  foreach(lb ${M_LINES})
    list(APPEND models "l${lb}:${lb}:${M_CNI}:0:${M_PIPE}")
  endforeach()
  foreach(lb ${M_PIPE_LINES})
    list(APPEND models "l${lb}_pipe:${lb}:${M_CNI}:0:1")
  endforeach()
  foreach(v ${M_CNI_VARIANTS})
    string(REPLACE ":" ";" v ${v})
    list(GET v 0 vname)
    list(GET v 1 vcfg)
    list(LENGTH v vn)
    set(vep 0)
    if(vn GREATER 2)
      list(GET v 2 vep)
    endif()
    list(APPEND models "l64_${vname}:64:${vcfg}:${vep}:${M_PIPE}")
  endforeach()
  foreach(m ${models})
    string(REPLACE ":" ";" m ${m})
    list(GET m 0 suffix)
    list(GET m 1 lb)
    list(GET m 2 cni)
    list(GET m 3 ep)
    list(GET m 4 pipe)
    cni_verilate(cni_rtl_${flavor}
      SOURCES ${CNI_RTL_SOURCES}
      TOP_MODULE cni_endpoint
      PREFIX Vcni_endpoint_${suffix}
      TRACE_FST
      # -fno-localize: Verilator 5.006 (Debian 12's) can turn a DFG temporary into a local of one
      # function while another function still reads it as a member, and the C++ does not compile
      # (seen on the engine's command grants). Later releases fix it; the flag costs a little
      # speed.
      VERILATOR_ARGS ${M_ARGS} -Wno-fatal -fno-localize -GLineBytes=${lb}
        -GMemLines=${M_MEM} -GCPairs=${M_CPAIRS} -GNOvfA=${M_NOVFA} -GNOvfB=${M_NOVFB}
        -GScratchLines=${M_SCRATCH} -GTtEntries=${M_TT} -GTtReserve=${M_RESERVE}
        -GRxDepth=${M_RXDEPTH} -GTxCredits=${M_TXCREDITS} -GPipelined=${pipe}
        -GCniConfig=${cni} -GCniEarlyPull=${ep})
  endforeach()
  set_property(TARGET cni_rtl_${flavor} PROPERTY POSITION_INDEPENDENT_CODE ON)
  if(M_CHECKING)
    cni_checking_opt(cni_rtl_${flavor})
  endif()

  add_library(cni_dev_${flavor} STATIC ${CNI_DEV_SRC})
  target_include_directories(cni_dev_${flavor} PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
  # Verilator's runtime headers are not held to the project's warning flags.
  target_include_directories(cni_dev_${flavor} SYSTEM PRIVATE ${VERILATOR_ROOT}/include
                             ${VERILATOR_ROOT}/include/vltstd)
  target_link_libraries(cni_dev_${flavor} PUBLIC cni_rtl_${flavor} cni_tb cni_sim)
  target_compile_definitions(cni_dev_${flavor} PUBLIC CNI_DEV_BUILD="${flavor}")
  cni_warnings(cni_dev_${flavor})
endfunction()

# The test geometry, shared by the checking builds and the netlist models (tb/rtl_netlist.cmake).
set(CNI_CHK_GEOMETRY MEM 64 CPAIRS 8 NOVFA 8 NOVFB 8 SCRATCH 16 TT 32 RESERVE 8 RXDEPTH 4
    TXCREDITS 4)
# The checking build carries the CNI engine as CNI16Q, its pipelined configuration as CNI16Qm
# (the receive queue in host memory through the caching agent), so the CNI tests run against
# both receive sides (docs/cni.md; tests/rtl/test_cni_port.cpp, tests/system/test_cni_system.cpp);
# the checking build also has CNI4 as a variant at 64-byte lines (the CNI4 system tests).
cni_endpoint_model(chk ${CNI_CHK_GEOMETRY} CNI 2 CNI_VARIANTS c4:1 CHECKING
  ARGS --assert --x-assign unique --x-initial unique)
cni_endpoint_model(pipe ${CNI_CHK_GEOMETRY} PIPE 1 CNI 4 CHECKING
  ARGS --assert --x-assign unique --x-initial unique)
# The fast build carries CNI16Q, and NI2w, CNI4, CNI512Q, CNI16Qm and CNI512Q with EarlyPull = 1
# as variants at 64-byte lines (cni-bench cni; tb::Endpoint::Options::variant, profile keys
# device.cni and device.cni_early_pull), and the pipelined configuration at 128-byte lines
# (variant "pipe": cni-bench pio's single-line RPC at the clock it routes on the ECP5, and
# cni-bench device beside the default configuration).
cni_endpoint_model(fast MEM 1024 CPAIRS 256 NOVFA 76 NOVFB 76 SCRATCH 64 TT 64 RESERVE 16 RXDEPTH 16
  TXCREDITS 16 CNI 2 CNI_VARIANTS ni2w:0 c4:1 q512:3 qm:4 q512ep:3:1 PIPE_LINES 128
  ARGS -O3 --x-assign fast --x-initial fast --noassert)
