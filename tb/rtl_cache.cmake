# SPDX-License-Identifier: Apache-2.0
# Device caching agent under unit test (tests/cache): a checking build of cni_cache_agent with a
# small geometry (64-byte lines, 2 sets of 2 ways, 3 MSHRs: evictions and a full MSHR file come
# quickly), and its adapter into the host simulation (tb/cache/).
#   cni_rtl_cache_chk - the Verilated model (class Vcni_cache_agent)
#   cni_cache_chk     - tb/cache/rtl_cache_agent.cpp on top of it
# The parameters are exported as CNI_CACHE_<NAME>=<value> compile definitions (the SV name in
# capitals: LineBytes -> CNI_CACHE_LINEBYTES).
set(CNI_CACHE_PARAMS LineBytes=64 Sets=2 Ways=2 Mshrs=3 IdW=4 HomeShift=32 BackoffW=16)

set(CNI_CACHE_GARGS "")
set(CNI_CACHE_DEFS "")
foreach(p ${CNI_CACHE_PARAMS})
  string(REPLACE "=" ";" pv ${p})
  list(GET pv 0 name)
  list(GET pv 1 value)
  string(TOUPPER ${name} upper)
  list(APPEND CNI_CACHE_GARGS -G${name}=${value})
  list(APPEND CNI_CACHE_DEFS CNI_CACHE_${upper}=${value})
endforeach()

add_library(cni_rtl_cache_chk STATIC)
verilate(cni_rtl_cache_chk
  SOURCES ${PROJECT_SOURCE_DIR}/rtl/coh/cni_coh_pkg.sv ${PROJECT_SOURCE_DIR}/rtl/common/cni_dpram.sv
    ${PROJECT_SOURCE_DIR}/rtl/coh/cni_cache_agent.sv
  TOP_MODULE cni_cache_agent
  PREFIX Vcni_cache_agent
  TRACE_FST
  VERILATOR_ARGS --assert --x-assign unique --x-initial unique -Wall ${CNI_CACHE_GARGS})
# Verilator's runtime headers are not project code: included as system headers.
get_target_property(CNI_CACHE_VINC cni_rtl_cache_chk INTERFACE_INCLUDE_DIRECTORIES)
set_property(TARGET cni_rtl_cache_chk APPEND PROPERTY INTERFACE_SYSTEM_INCLUDE_DIRECTORIES
             ${CNI_CACHE_VINC})

add_library(cni_cache_chk STATIC ${CMAKE_CURRENT_SOURCE_DIR}/cache/rtl_cache_agent.cpp)
target_include_directories(cni_cache_chk PUBLIC ${CMAKE_CURRENT_SOURCE_DIR})
target_link_libraries(cni_cache_chk PUBLIC cni_rtl_cache_chk cni_tb cni_sim)
target_compile_definitions(cni_cache_chk PUBLIC ${CNI_CACHE_DEFS})
cni_warnings(cni_cache_chk)
