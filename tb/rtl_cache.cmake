# SPDX-License-Identifier: Apache-2.0
# Device caching agent under unit test (tests/cache): a checking build of cni_cache_agent with a
# small geometry (64-byte lines, 2 sets of 2 ways, 3 MSHRs, 2 write-back buffer entries:
# evictions, a full MSHR file and a full write-back buffer come quickly), and its adapter into the host simulation (tb/cache/).
#   cni_rtl_cache_chk  - the Verilated model (class Vcni_cache_agent)
#   cni_cache_chk      - tb/cache/rtl_cache_agent.cpp on top of it
#   cni_rtl_cache_pipe - the same with LookReg=1, the lookups registered (the endpoint's
#                        Pipelined configuration, as on the ECP5 board)
#   cni_cache_pipe     - the adapter on top of it
# (tb/rtl_netlist.cmake adds cni_cache_netlist: the same adapter on the block's gate netlist.)
# The parameters are exported to the tests as CNI_CACHE_* compile definitions. One list,
# <SV parameter>:<C++ macro suffix>:<value> (cni_sv_params, tb/CMakeLists.txt).
set(CNI_CACHE_PARAMS
  LineBytes:LINE_BYTES:64 Sets:SETS:2 Ways:WAYS:2 Mshrs:MSHRS:3 Wbs:WBS:2 IdW:ID_W:4
  HomeShift:HOME_SHIFT:32 BackoffW:BACKOFF_W:16)
cni_sv_params(CNI_CACHE CNI_CACHE ${CNI_CACHE_PARAMS})
list(TRANSFORM CNI_CACHE_SV PREPEND -G OUTPUT_VARIABLE CNI_CACHE_GARGS)

# cni_rtl_cache_model(<target> <extra Verilator arguments>...): a checking model of the block.
function(cni_rtl_cache_model target)
  add_library(${target} STATIC)
  cni_verilate(${target}
    SOURCES ${PROJECT_SOURCE_DIR}/rtl/coh/cni_coh_pkg.sv ${PROJECT_SOURCE_DIR}/rtl/coh/cni_ca_pkg.sv
      ${PROJECT_SOURCE_DIR}/rtl/common/cni_dpram.sv ${PROJECT_SOURCE_DIR}/rtl/coh/cni_ca_tags.sv
      ${PROJECT_SOURCE_DIR}/rtl/coh/cni_ca_mshr.sv ${PROJECT_SOURCE_DIR}/rtl/coh/cni_ca_wbuf.sv
      ${PROJECT_SOURCE_DIR}/rtl/coh/cni_ca_jobs.sv ${PROJECT_SOURCE_DIR}/rtl/coh/cni_cache_agent.sv
      ${PROJECT_SOURCE_DIR}/rtl/common/cni_assert_hold.sv
    TOP_MODULE cni_cache_agent
    PREFIX Vcni_cache_agent
    TRACE_FST
    VERILATOR_ARGS --assert --x-assign unique --x-initial unique -Wall ${CNI_CACHE_GARGS} ${ARGN})
  cni_model_finish(${target})
endfunction()
cni_rtl_cache_model(cni_rtl_cache_chk)
cni_rtl_cache_model(cni_rtl_cache_pipe -GLookReg=1)

# cni_cache_adapter(<library> <model>): tb/cache/ on top of a model of the block (this checking
# build, or its gate netlist: tb/rtl_netlist.cmake).
function(cni_cache_adapter lib model)
  add_library(${lib} STATIC ${PROJECT_SOURCE_DIR}/tb/cache/rtl_cache_agent.cpp)
  target_include_directories(${lib} PUBLIC ${PROJECT_SOURCE_DIR}/tb)
  target_link_libraries(${lib} PUBLIC ${model} cni_tb cni_sim)
  target_compile_definitions(${lib} PRIVATE ${CNI_CACHE_DEFS})
  cni_warnings(${lib})
endfunction()
cni_cache_adapter(cni_cache_chk cni_rtl_cache_chk)
cni_cache_adapter(cni_cache_pipe cni_rtl_cache_pipe)
