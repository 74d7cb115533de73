# SPDX-License-Identifier: Apache-2.0
# Home agent under unit test (tests/home): checking builds of cni_home_agent alone, driven by
# tb/home/ (docs/endpoint.md, "Standalone testbench"), with a small geometry: 64-byte lines,
# 8 agents (ids 8..15 are out of range), 16 table entries of which 4 are reserved, and a map of
# 16 lines of plain memory then 4 lines for each of the engine registry's other regions (36 lines
# with today's six regions), so the lines above them, up to 63 of the 6-bit line index, are beyond
# the RAMs.
#   cni_rtl_home_chk / cni_home_chk   - the model (class Vcni_home_agent) and tb/home/ on it
#   cni_rtl_home_pipe / cni_home_pipe - the same, Pipelined=1
#   cni_rtl_home_dram / cni_home_dram - the first, with 64 DRAM-backed lines (line index 64..127)
#                                       in 4 frames behind the DRAM model (docs/dram.md)
# The parameters are exported to the tests as CNI_HOME_* compile definitions.
#
# RegionLines is passed as the sized literal cni_amap_pkg::region_lines() would return (32 bits
# per region, region r at [32r +: 32]), packed below from the line counts. A wrapper module
# computing it with the package function would have to repeat every port of the home agent; the
# literal keeps the model's ports the home agent's own, and the tests check the layout it makes
# (each region's RET_EXCL bit applies to exactly its lines).
set(CNI_HOME_REGION_LINES 16)
foreach(r RANGE 2 ${CNI_NUM_REGIONS})
  list(APPEND CNI_HOME_REGION_LINES 4)
endforeach()
set(CNI_HOME_DEV_BASE_HEX 1000000000)
set(CNI_HOME_PARAMS
  LineBytes:LINE_BYTES:64 NumAgents:NUM_AGENTS:8 TtEntries:TT_ENTRIES:16 TtReserve:TT_RESERVE:4)

# cni_home_region_lines(<out> <lines>...): the packed literal of cni_amap_pkg::region_lines.
function(cni_home_region_lines out)
  set(hex "")
  foreach(n ${ARGN})
    math(EXPR v "${n}" OUTPUT_FORMAT HEXADECIMAL)
    string(SUBSTRING ${v} 2 -1 v)
    string(LENGTH ${v} len)
    math(EXPR pad "8 - ${len}")
    string(REPEAT 0 ${pad} zeros)
    set(hex "${zeros}${v}${hex}")
  endforeach()
  list(LENGTH ARGN nregions)
  math(EXPR bits "32 * ${nregions}")
  set(${out} "${bits}'h${hex}" PARENT_SCOPE)
endfunction()
cni_home_region_lines(CNI_HOME_RL_LITERAL ${CNI_HOME_REGION_LINES})
string(REPLACE ";" "," CNI_HOME_RL_LIST "${CNI_HOME_REGION_LINES}")

set(CNI_HOME_RTL
  ${CNI_RTL_PKGS}
  ${PROJECT_SOURCE_DIR}/rtl/common/cni_pipe_reg.sv
  ${PROJECT_SOURCE_DIR}/rtl/common/cni_fifo.sv
  ${PROJECT_SOURCE_DIR}/rtl/coh/cni_home_head.sv
  ${PROJECT_SOURCE_DIR}/rtl/coh/cni_home_decide.sv
  ${PROJECT_SOURCE_DIR}/rtl/coh/cni_home_table.sv
  ${PROJECT_SOURCE_DIR}/rtl/coh/cni_home_snoop.sv
  ${PROJECT_SOURCE_DIR}/rtl/coh/cni_home_take.sv
  ${PROJECT_SOURCE_DIR}/rtl/coh/cni_home_out.sv
  ${PROJECT_SOURCE_DIR}/rtl/coh/cni_home_dram.sv
  ${PROJECT_SOURCE_DIR}/rtl/coh/cni_home_data.sv
  ${PROJECT_SOURCE_DIR}/rtl/coh/cni_home_dir.sv
  ${PROJECT_SOURCE_DIR}/rtl/common/cni_dpram.sv
  ${PROJECT_SOURCE_DIR}/rtl/mem/cni_mem_inflight.sv
  ${PROJECT_SOURCE_DIR}/rtl/mem/cni_mem_port.sv
  ${PROJECT_SOURCE_DIR}/rtl/mem/cni_mem_frames.sv
  ${PROJECT_SOURCE_DIR}/rtl/coh/cni_home_agent.sv)

# cni_home_model(<flavor> <pipelined> <dram index bits>): cni_rtl_home_<flavor>, the checking
# build, and cni_home_<flavor>, the harness on it.
function(cni_home_model flavor pipelined dram)
  cni_sv_params(hp CNI_HOME ${CNI_HOME_PARAMS} Pipelined:PIPELINED:${pipelined}
    DramIdxW:DRAM_IDX_W:${dram} FrameW:FRAME_W:2)
  list(TRANSFORM hp_SV PREPEND -G OUTPUT_VARIABLE gargs)
  set(lib cni_rtl_home_${flavor})
  add_library(${lib} STATIC)
  cni_verilate(${lib}
    SOURCES ${CNI_HOME_RTL}
    TOP_MODULE cni_home_agent
    PREFIX Vcni_home_agent
    TRACE_FST
    VERILATOR_ARGS --assert --x-assign unique --x-initial unique -Wall ${gargs}
      -GRegionLines=${CNI_HOME_RL_LITERAL} -GDevBase=48'h${CNI_HOME_DEV_BASE_HEX})
  cni_model_finish(${lib})

  add_library(cni_home_${flavor} STATIC ${PROJECT_SOURCE_DIR}/tb/home/home_harness.cpp)
  target_include_directories(cni_home_${flavor} PUBLIC ${PROJECT_SOURCE_DIR}/tb)
  target_link_libraries(cni_home_${flavor} PUBLIC ${lib} cni_sim gen_hdr)
  target_compile_definitions(cni_home_${flavor} PRIVATE ${hp_DEFS}
    CNI_HOME_REGION_LINES=${CNI_HOME_RL_LIST} CNI_HOME_DEV_BASE=0x${CNI_HOME_DEV_BASE_HEX}ull)
  cni_warnings(cni_home_${flavor})
endfunction()
cni_home_model(chk 0 0)
cni_home_model(pipe 1 0)
cni_home_model(dram 0 6)

# The decision alone (tests/home_decide): cni_home_decide under its field-by-field wrapper
# (tb/sv/cni_nonsynth_home_decide.sv), with the geometry above and its 6-bit line index.
#   cni_rtl_home_decide - the model (class Vcni_nonsynth_home_decide), its parameters exported
#                         to the tests as CNI_HOME_* compile definitions
cni_sv_params(hd CNI_HOME LineBytes:LINE_BYTES:64 NumAgents:NUM_AGENTS:8 TtEntries:TT_ENTRIES:16
  LineIdxW:LINE_IDX_W:6)
list(TRANSFORM hd_SV PREPEND -G OUTPUT_VARIABLE hd_gargs)
add_library(cni_rtl_home_decide STATIC)
cni_verilate(cni_rtl_home_decide
  SOURCES ${CNI_RTL_PKGS} ${PROJECT_SOURCE_DIR}/rtl/coh/cni_home_decide.sv
          ${PROJECT_SOURCE_DIR}/tb/sv/cni_nonsynth_home_decide.sv
  TOP_MODULE cni_nonsynth_home_decide
  PREFIX Vcni_nonsynth_home_decide
  VERILATOR_ARGS --assert --x-assign unique --x-initial unique -Wall ${hd_gargs}
    -GDevBase=48'h${CNI_HOME_DEV_BASE_HEX})
cni_model_finish(cni_rtl_home_decide)
target_compile_definitions(cni_rtl_home_decide INTERFACE ${hd_DEFS}
  CNI_HOME_DEV_BASE=0x${CNI_HOME_DEV_BASE_HEX}ull)
