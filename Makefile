# OpenCNI top-level targets. `make test` and `make bench` install what is missing first.
BUILD   ?= build
RESULTS ?= results
JOBS    ?= $(shell nproc)
PROFILE ?= enzian-eci

.PHONY: all deps build test bench lint synth-check stress clean
.PHONY: formal test-netlist
.PHONY: fpga-ecp5 fpga-ecp5-place fpga-ice40 fpga-xilinx fpga-report

all: build

deps:
	@scripts/install-deps.sh

# Configure every time: Verilator's generated file list is fixed at configure time, so an RTL
# change must reach CMake before the build.
CONFIGURE = cmake -S . -B $(BUILD) -G Ninja -DCMAKE_BUILD_TYPE=Release
build: deps
	$(CONFIGURE) > /dev/null
	cmake --build $(BUILD) -j $(JOBS)

lint: deps
	scripts/lint.sh

synth-check: deps
	scripts/synth-check.sh

# CTest's summary line, then the skipped tests by reason (scripts/test-summary.py), then where
# the build's time went (scripts/build-times.py).
test: build lint synth-check
	scripts/check-noop-build.sh $(BUILD)
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) --output-junit ctest-junit.xml; \
	  rc=$$?; python3 $(CURDIR)/scripts/test-summary.py ctest-junit.xml || rc=1; \
	  python3 $(CURDIR)/scripts/build-times.py . || rc=1; exit $$rc

# The endpoint's tests also on the gate netlist of its default configuration (make test runs
# them on the pipelined configuration's); the setting stays in $(BUILD)'s cache.
test-netlist: deps
	$(CONFIGURE) -DCNI_NETLIST_BOTH=ON > /dev/null
	cmake --build $(BUILD) -j $(JOBS)
	cd $(BUILD) && ctest --output-on-failure -j $(JOBS) -L 'netlist'

bench: build
	scripts/bench.sh $(BUILD) $(RESULTS) $(PROFILE)

# Seeded coherence stress (docs/host-sim.md): the device's home agent with 3 M host requests on
# the 128- and the 64-byte device model (tests/system/test_stress.cpp), then its caching agent
# with 10 M device requests ("The device's caching agent"); about 45 min of CPU time.
stress: build
	for lb in 128 64; do \
	  CNI_LINE_BYTES=$$lb CNI_STRESS_TRANSACTIONS=3000000 $(BUILD)/tests/test_system \
	    --gtest_filter='*Stress*:-DeviceCacheStress.*' || exit 1; \
	done
	CNI_STRESS_TRANSACTIONS=10000000 $(BUILD)/tests/test_system --gtest_filter='DeviceCacheStress.*'
	for seed in 1 2 3 4; do \
	  CNI_SEED=$$seed CNI_CNI_MESSAGES=1000 $(BUILD)/tests/test_system \
	    --gtest_filter='CniSystem.SixteenNodes*' || exit 1; \
	done

clean:
	rm -rf $(BUILD) $(RESULTS)

# FPGA flows (docs/fpga.md): synthesis, place-and-route, timing and bitstreams under
# $(BUILD)/fpga/<target>/. Long; not part of `make test`.
fpga-ecp5 fpga-ice40 fpga-xilinx: deps
	BUILD=$(BUILD) scripts/fpga.sh $(@:fpga-%=%)

# ECP5 synthesis and placement only: Fmax estimated from the placement, no bitstream.
fpga-ecp5-place: deps
	BUILD=$(BUILD) scripts/fpga.sh ecp5 --no-route

# Regenerates the tables of docs/fpga.md from fresh runs of the three flows.
fpga-report: fpga-ecp5 fpga-ice40 fpga-xilinx
	scripts/fpga-report.py --build $(BUILD) --doc docs/fpga.md

# Formal checks at their deep depths (docs/formal.md); `make test` runs the short ones.
formal: deps
	FORMAL_OUT=$(BUILD)/formal scripts/formal.sh --deep
