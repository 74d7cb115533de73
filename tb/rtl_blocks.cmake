# SPDX-License-Identifier: Apache-2.0
# The small shared blocks under unit test (tests/blocks): checking builds of cni_fifo,
# cni_pipe_reg, cni_assert_hold, cni_ca_arb, cni_net_switch, cni_engine_bus, the NIC datapath and
# the block-transfer engine's source pages, one model per parameter set,
# Vcni_<block>_<set>. Each set is given once, as <SV parameter>:<value> entries; the tests read
# the values as compile definitions CNI_BLK_<block>_<set>_<SV parameter> (cni_sv_params), so a
# set the tests name and the build lacks does not compile. (A parameter given as a wide sized
# literal is not defined; its set passes its values another way.) The blocks whose port vectors
# the engine registry sizes (cni_net_switch, cni_engine_bus: one slice per engine) are built at
# the registry's engine count, with the parameters they take swept around it.
add_library(cni_rtl_blocks STATIC)
set(CNI_BLK_DEFS "")

# cni_block_model(<block> <set> SOURCES <file>... PARAMS <P:value>... [ARGS <argument>...]):
# Vcni_<block>_<set>, a checking build of module cni_<block> with the parameters given (ARGS:
# more Verilator arguments).
function(cni_block_model block set)
  cmake_parse_arguments(B "" "" "SOURCES;PARAMS;ARGS" ${ARGN})
  set(entries "")
  foreach(p ${B_PARAMS})
    string(REPLACE ":" ";" pl ${p})
    list(GET pl 0 name)
    list(GET pl 1 value)
    list(APPEND entries "${name}:${block}_${set}_${name}:${value}")
  endforeach()
  cni_sv_params(pp CNI_BLK ${entries})
  list(TRANSFORM pp_SV PREPEND -G OUTPUT_VARIABLE gargs)
  # A sized binary literal (a bit parameter's 1'b1) is a C++ binary literal; a wider sized
  # literal (RegionLines) is no C++ value.
  list(TRANSFORM pp_DEFS REPLACE "=[0-9]+'b([01]+)$" "=0b\\1")
  list(FILTER pp_DEFS EXCLUDE REGEX "'")
  cni_verilate(cni_rtl_blocks
    SOURCES ${B_SOURCES}
    TOP_MODULE cni_${block}
    PREFIX Vcni_${block}_${set}
    TRACE_FST
    VERILATOR_ARGS --assert --x-assign unique --x-initial unique -Wall ${gargs} ${B_ARGS})
  set(CNI_BLK_DEFS ${CNI_BLK_DEFS} ${pp_DEFS} PARENT_SCOPE)
endfunction()

# cni_fifo: every depth shape (one entry, two, odd, not a power of two, a power of two), a narrow
# and a wide (more than 64 bits) entry, and the head register, whole and in part.
foreach(m "d1_w8;8;1;0;0;8" "d2_w70;70;2;0;0;70" "d3_w8;8;3;0;0;8" "d5_w70;70;5;0;0;70"
          "d16_w8;8;16;0;0;8" "d1_w70_or;70;1;1;0;70" "d3_w8_or;8;3;1;0;8"
          "d5_w70_or8x16;70;5;1;8;16")
  list(GET m 0 set)
  list(GET m 1 w)
  list(GET m 2 d)
  list(GET m 3 o)
  list(GET m 4 lo)
  list(GET m 5 ow)
  # At a depth of 2^k - 1 (1, 3) the count's k bits hold no more than Depth, and Verilator finds
  # the bound in the count check (Count_A: cnt_q <= Depth) always true: waived for those sets.
  math(EXPR full_count "(${d} + 1) & ${d}")
  set(args "")
  if(full_count EQUAL 0)
    set(args -Wno-CMPCONST)
  endif()
  cni_block_model(fifo ${set} SOURCES ${PROJECT_SOURCE_DIR}/rtl/common/cni_fifo.sv
    PARAMS Width:${w} Depth:${d} OutReg:1'b${o} OutRegLo:${lo} OutRegW:${ow} ARGS ${args})
endforeach()

# cni_pipe_reg: a register that resets, one that does not (wide), a wire.
foreach(m "w1_rst;1;1;1" "w70_reg;70;1;0" "w8_wire;8;0;0")
  list(GET m 0 set)
  list(GET m 1 w)
  list(GET m 2 r)
  list(GET m 3 rst)
  cni_block_model(pipe_reg ${set} SOURCES ${PROJECT_SOURCE_DIR}/rtl/common/cni_pipe_reg.sv
    PARAMS Width:${w} Reg:1'b${r} Reset:1'b${rst})
endforeach()

# cni_xfer_pages (rtl/xfer): the block-transfer engine's source pages, at the test geometry's 4
# sender records and at 2 (three rows, so the rows are reused often).
foreach(r 4 2)
  cni_block_model(xfer_pages r${r} SOURCES ${PROJECT_SOURCE_DIR}/rtl/common/cni_dpram.sv
    ${PROJECT_SOURCE_DIR}/rtl/xfer/cni_xfer_pages.sv PARAMS Recs:${r})
endforeach()

# cni_assert_hold (the check behind `CNI_ASSERT_HOLD): a one-bit offer and a wide one.
foreach(m "w1;1" "w70;70")
  list(GET m 0 set)
  list(GET m 1 w)
  cni_block_model(assert_hold ${set} SOURCES ${PROJECT_SOURCE_DIR}/rtl/common/cni_assert_hold.sv
    PARAMS Width:${w})
endforeach()

# cni_ca_arb: one to four sources (the endpoint's: the external port and one per engine, at its
# default id width and line size), source fields from one bit of id up.
foreach(m "n1;1;1;8" "n2;2;3;16" "n3;3;2;8" "n4;4;4;128")
  list(GET m 0 set)
  list(GET m 1 n)
  list(GET m 2 id)
  list(GET m 3 lb)
  cni_block_model(ca_arb ${set} SOURCES ${CNI_RTL_PKGS} ${PROJECT_SOURCE_DIR}/rtl/top/cni_ca_arb.sv
    PARAMS NumSrc:${n} IdW:${id} LineBytes:${lb})
endforeach()

# cni_net_switch: the smallest beat (8 bytes: the header's type byte in the first beat) with every
# engine present, and the endpoint's 64-byte beat with an engine absent (its frames dropped).
list(LENGTH CNI_ENGINE_NAMES ne)
string(REPEAT 1 ${ne} all)
string(REGEX REPLACE "1(.)$" "0\\1" but1 ${all})  # engine 1 absent
foreach(m "nb8_all;8;${all}" "nb64_no1;64;${but1}")
  list(GET m 0 set)
  list(GET m 1 nb)
  list(GET m 2 present)
  cni_block_model(net_switch ${set}
    SOURCES ${CNI_RTL_PKGS} ${PROJECT_SOURCE_DIR}/rtl/net/cni_net_switch.sv
    PARAMS NetBytes:${nb} Present:${ne}'b${present})
endforeach()

# cni_engine_bus: the registry's full geometry (cni_amap_pkg::FULL_LINES, read from the generated
# package) at 128-byte lines, and a small one at 64-byte lines with an empty engine region in
# the middle. RegionLines is passed as the 32-bit line counts, region 0 first; the tests get them
# as a comma-separated list.
file(STRINGS ${CNI_GEN}/rtl/cni_amap_pkg.sv full REGEX "FULL_LINES = ")
string(REGEX MATCHALL "32'd[0-9]+" full "${full}")
list(TRANSFORM full REPLACE "32'd" "")
list(REVERSE full)
set(small 2 2 3 0 1 5)
list(LENGTH full nr)
if(NOT nr EQUAL CNI_NUM_REGIONS)
  message(FATAL_ERROR
    "tb/rtl_blocks.cmake: FULL_LINES has ${nr} regions, the registry ${CNI_NUM_REGIONS}")
endif()
foreach(m "full;full;128;11" "small;small;64;4")
  list(GET m 0 set)
  list(GET m 1 geo)
  list(GET m 2 lb)
  list(GET m 3 iw)
  set(hex "")
  foreach(n ${${geo}})
    math(EXPR h "${n}" OUTPUT_FORMAT HEXADECIMAL)
    string(REPLACE "0x" "" h ${h})
    string(LENGTH ${h} hl)
    math(EXPR zeros "8 - ${hl}")
    string(REPEAT 0 ${zeros} pad)
    set(hex "${pad}${h}${hex}")
  endforeach()
  math(EXPR bits "${CNI_NUM_REGIONS} * 32")
  string(REPLACE ";" "," lines "${${geo}}")
  cni_block_model(engine_bus ${set}
    SOURCES ${CNI_RTL_PKGS} ${PROJECT_SOURCE_DIR}/rtl/top/cni_engine_bus.sv
    PARAMS RegionLines:${bits}'h${hex} LineBytes:${lb} LineIdxW:${iw})
  list(APPEND CNI_BLK_DEFS CNI_BLK_engine_bus_${set}_Lines=${lines})
endforeach()

# cni_nic_datapath (rtl/nic): the 512-bit datapath with buffers of 16 KiB each way (one frame
# of the longest length and more), a frame table of 16.
cni_block_model(nic_datapath b64
  SOURCES ${PROJECT_SOURCE_DIR}/rtl/common/cni_fifo.sv ${PROJECT_SOURCE_DIR}/rtl/common/cni_dpram.sv
          ${PROJECT_SOURCE_DIR}/rtl/nic/cni_nic_fifo.sv ${PROJECT_SOURCE_DIR}/rtl/nic/cni_nic_datapath.sv
  PARAMS Bytes:64 RxBeats:256 TxBeats:256 Frames:16 MinBytes:60 MaxBytes:9596)
# cni_nic_pcie: the datapath with the PCIe PIO interface, four slots of 16 KiB each way.
cni_block_model(nic_pcie s4
  SOURCES ${PROJECT_SOURCE_DIR}/rtl/common/cni_fifo.sv ${PROJECT_SOURCE_DIR}/rtl/common/cni_dpram.sv
          ${PROJECT_SOURCE_DIR}/rtl/common/cni_sdpram_be.sv
          ${PROJECT_SOURCE_DIR}/rtl/nic/cni_nic_fifo.sv ${PROJECT_SOURCE_DIR}/rtl/nic/cni_nic_datapath.sv
          ${PROJECT_SOURCE_DIR}/rtl/nic/cni_nic_pio.sv ${PROJECT_SOURCE_DIR}/rtl/nic/cni_nic_pcie.sv
  PARAMS Bytes:64 RxBeats:256 TxBeats:256 Frames:16 MinBytes:60 MaxBytes:9596 Slots:4
         SlotBeats:256)
# cni_nic_pcie_dma: the datapath with the descriptor-ring DMA interface, rings up to 4096 entries.
cni_block_model(nic_pcie_dma r12
  SOURCES ${PROJECT_SOURCE_DIR}/rtl/common/cni_fifo.sv ${PROJECT_SOURCE_DIR}/rtl/common/cni_dpram.sv
          ${PROJECT_SOURCE_DIR}/rtl/nic/cni_nic_fifo.sv ${PROJECT_SOURCE_DIR}/rtl/nic/cni_nic_datapath.sv
          ${PROJECT_SOURCE_DIR}/rtl/nic/cni_nic_dma_tx.sv ${PROJECT_SOURCE_DIR}/rtl/nic/cni_nic_dma_rx.sv
          ${PROJECT_SOURCE_DIR}/rtl/nic/cni_nic_dma.sv ${PROJECT_SOURCE_DIR}/rtl/nic/cni_nic_pcie_dma.sv
  PARAMS Bytes:64 RxBeats:256 TxBeats:256 Frames:16 MinBytes:60 MaxBytes:9596 AddrW:48 RingW:12)
# cni_nic_eci: the datapath with the coherent-PIO interface at 128-byte lines (enzian-eci's).
cni_block_model(nic_eci l128
  SOURCES ${PROJECT_SOURCE_DIR}/rtl/common/cni_fifo.sv ${PROJECT_SOURCE_DIR}/rtl/common/cni_dpram.sv
          ${PROJECT_SOURCE_DIR}/rtl/common/cni_assert_hold.sv
          ${PROJECT_SOURCE_DIR}/rtl/nic/cni_nic_fifo.sv ${PROJECT_SOURCE_DIR}/rtl/nic/cni_nic_datapath.sv
          ${PROJECT_SOURCE_DIR}/rtl/nic/cni_nic_coh.sv ${PROJECT_SOURCE_DIR}/rtl/nic/cni_nic_eci.sv
  PARAMS Bytes:64 RxBeats:256 TxBeats:256 Frames:16 MinBytes:60 MaxBytes:9596 LineBytes:128)

# cni_mem_port (rtl/mem): the device-memory port at 128-byte lines (two beats of the 512-bit bus)
# and 64-byte lines (one), 4096 lines from 256 MiB on (Base, the tests' kBase), sixteen reads (more than an
# idle read's cycles: streamed reads are limited by the bus or the DRAM) and four writes in flight.
foreach(lb 128 64)
  cni_block_model(mem_port l${lb}
    SOURCES ${PROJECT_SOURCE_DIR}/rtl/mem/cni_mem_inflight.sv ${PROJECT_SOURCE_DIR}/rtl/mem/cni_mem_port.sv
    PARAMS LineBytes:${lb} DataBytes:64 AddrW:34 LineIdxW:12 TagW:6 MaxRd:16 MaxWr:4
    ARGS -GBase=64'h10000000)
endforeach()

# cni_mem_frames (rtl/mem): the frames of DRAM-backed device lines and their fill unit, at both
# line sizes: 4096 DRAM lines from 256 MiB on in 8 frames (small, so the tests evict often), two
# failed lines remembered, a directory word of 24 bits whose
# initial value is not zero (so a line never written shows where its word came from).
foreach(lb 128 64)
  cni_block_model(mem_frames l${lb}
    SOURCES ${PROJECT_SOURCE_DIR}/rtl/common/cni_dpram.sv ${PROJECT_SOURCE_DIR}/rtl/mem/cni_mem_inflight.sv
            ${PROJECT_SOURCE_DIR}/rtl/mem/cni_mem_port.sv ${PROJECT_SOURCE_DIR}/rtl/mem/cni_mem_frames.sv
    PARAMS LineBytes:${lb} DataBytes:64 DramIdxW:12 FrameW:3 DirW:24 AddrW:34 MaxWr:4 PoisonN:2
    ARGS -GBase=64'h10000000 -GDirInit=24'h5a0003)
endforeach()

cni_model_finish(cni_rtl_blocks)
# Each model compiles as one unit (a unity build, one group per model): a block model's own code
# is small, and most of a generated file's compile is Verilator's headers, parsed so once per
# model, not once per file (about nine files a model). At -O1, as cni_model_finish sets per file.
get_target_property(srcs cni_rtl_blocks SOURCES)
foreach(src ${srcs})
  if(src MATCHES "/(Vcni_[a-z0-9_]+)\\.dir/[^/]+\\.cpp$")
    set_source_files_properties(${src} TARGET_DIRECTORY cni_rtl_blocks
                                PROPERTIES UNITY_GROUP ${CMAKE_MATCH_1})
    # (a file with options of its own is left out of a unity build: the -O1 moves to the target)
    set_property(SOURCE ${src} TARGET_DIRECTORY cni_rtl_blocks PROPERTY COMPILE_OPTIONS)
  endif()
endforeach()
set_target_properties(cni_rtl_blocks PROPERTIES UNITY_BUILD ON UNITY_BUILD_MODE GROUP)
target_compile_options(cni_rtl_blocks PRIVATE -O1)
target_compile_definitions(cni_rtl_blocks PUBLIC ${CNI_BLK_DEFS})
target_link_libraries(cni_rtl_blocks PUBLIC gen_hdr)  # cni/engines.hpp: engines, regions, types

# The NIC's host interfaces in the host simulation (tb/nic), its MAC on the network model (the
# system tests of tests/nic): the nic_pcie_s4 and nic_pcie_dma_r12 models behind the PCIe
# endpoint model, and the nic_eci_l128 model joined to a device core's PIO engine (whose
# model, a cni_dev_<flavor> library, the program links: the tests' checking build, the
# benchmark's fast one).
add_library(cni_nic_dev STATIC ${PROJECT_SOURCE_DIR}/tb/nic/nic_pcie_device.cpp
                               ${PROJECT_SOURCE_DIR}/tb/nic/nic_dma_device.cpp
                               ${PROJECT_SOURCE_DIR}/tb/nic/nic_coh_device.cpp)
target_include_directories(cni_nic_dev PUBLIC ${PROJECT_SOURCE_DIR}/tb/nic
                           PRIVATE ${PROJECT_SOURCE_DIR}/tb)
target_link_libraries(cni_nic_dev PUBLIC cni_sim cni_drv_api PRIVATE cni_rtl_blocks gen_hdr)
cni_warnings(cni_nic_dev)
