# SPDX-License-Identifier: Apache-2.0
# The CNI cache/queue engine under unit test (tests/cni): checking builds of cni_cq_engine alone
# (through its test view tb/sv/cni_tb_cq_engine.sv: each field of its records on a port),
# one model per configuration and line size, Vcni_cq_<config>_l<bytes> (q16ep: CNI16Q with
# EarlyPull = 1; q16rt: CNI16Q with go-back-N retransmission built, Retransmit = 1). The region
# starts at device line CNI_CQ_BASE (the tests' harness plays the
# home agent and memory around it).
set(CNI_CQ_BASE 8)
set(CNI_CQ_RTL
  ${CNI_RTL_PKGS}
  ${PROJECT_SOURCE_DIR}/rtl/cni/cni_cq_pkg.sv
  ${PROJECT_SOURCE_DIR}/rtl/common/cni_fifo.sv
  ${PROJECT_SOURCE_DIR}/rtl/net/cni_net_tx.sv
  ${PROJECT_SOURCE_DIR}/rtl/net/cni_net_rx.sv
  ${PROJECT_SOURCE_DIR}/rtl/cni/cni_cq_net.sv
  ${PROJECT_SOURCE_DIR}/rtl/cni/cni_cq_ni2w.sv
  ${PROJECT_SOURCE_DIR}/rtl/cni/cni_cq_cni4.sv
  ${PROJECT_SOURCE_DIR}/rtl/cni/cni_cq_queue.sv
  ${PROJECT_SOURCE_DIR}/rtl/cni/cni_cq_engine.sv
  ${PROJECT_SOURCE_DIR}/tb/sv/cni_tb_cq_engine.sv)

add_library(cni_rtl_cq_chk STATIC)
# <name>;<configuration (the registry's CniConfig name)>;<LineBytes>;<EarlyPull>;<Retransmit>
foreach(m "ni2w;NI2W;64;0;0" "q16;CNI16Q;64;0;0" "q512;CNI512Q;64;0;0" "ni2w;NI2W;128;0;0"
          "q16;CNI16Q;128;0;0" "q16ep;CNI16Q;64;1;0" "q16rt;CNI16Q;64;0;1")
  list(GET m 0 name)
  list(GET m 1 cfg)
  set(cfg ${CNI_CNI_CONFIG_${cfg}})
  list(GET m 2 lb)
  list(GET m 3 ep)
  list(GET m 4 rt)
  cni_verilate(cni_rtl_cq_chk
    SOURCES ${CNI_CQ_RTL}
    TOP_MODULE cni_tb_cq_engine
    PREFIX Vcni_cq_${name}_l${lb}
    TRACE_FST
    VERILATOR_ARGS --assert --x-assign unique --x-initial unique -Wall
      -GConfig=${cfg} -GLineBytes=${lb} -GLineIdxW=12 -GBase=${CNI_CQ_BASE} -GEarlyPull=${ep}
      -GRetransmit=${rt})
endforeach()
cni_model_finish(cni_rtl_cq_chk)
target_compile_definitions(cni_rtl_cq_chk PUBLIC CNI_CQ_BASE=${CNI_CQ_BASE})
target_link_libraries(cni_rtl_cq_chk PUBLIC gen_hdr)  # cni/engines.hpp: the configuration codes
