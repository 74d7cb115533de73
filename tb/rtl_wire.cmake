# The coherence header taken apart and put together by the SV package itself
# (tb/sv/cni_nonsynth_hdr_probe.sv), for tests/wire: the C++ packing must agree with it.
add_library(cni_rtl_hdr_probe STATIC)
cni_verilate(cni_rtl_hdr_probe
  SOURCES ${PROJECT_SOURCE_DIR}/rtl/coh/cni_coh_pkg.sv
          ${CMAKE_CURRENT_SOURCE_DIR}/sv/cni_nonsynth_hdr_probe.sv
  TOP_MODULE cni_nonsynth_hdr_probe
  PREFIX Vcni_nonsynth_hdr_probe
  VERILATOR_ARGS -Wall)
cni_model_finish(cni_rtl_hdr_probe)
