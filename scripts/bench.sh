#!/usr/bin/env bash
# `make bench`: the default benchmark suites on a profile (pio, device, nodes), the PIO
# invocations over PCIe beside the coherent ones (pio --interface, on enzian-pcie), seed 000's bus
# operations and microbenchmarks on its two machines (bus, cni), and seed 001's remote read miss
# on its machine and on the profile (dsm), seed 002's NIC latencies (nic); tables on stdout and in
# RESULTS/<suite>.txt, JSON and CSV beside them, plots as PNG.
set -euo pipefail
BUILD=${1:-build}
RESULTS=${2:-results}
PROFILE=${3:-enzian-eci}
mkdir -p "$RESULTS"
"$BUILD/bench/cni-bench" pio --profile "$PROFILE" --csv "$RESULTS" \
  --json-out "$RESULTS/pio.json" | tee "$RESULTS/pio.txt"
"$BUILD/bench/cni-bench" pio --interface pcie-pio,pcie-dma --experiments latency,throughput \
  --csv "$RESULTS" --json-out "$RESULTS/pio-pcie.json" | tee "$RESULTS/pio-pcie.txt"
python3 scripts/plot_pio.py "$RESULTS"
"$BUILD/bench/cni-bench" device --csv "$RESULTS" --json-out "$RESULTS/device.json" |
  tee "$RESULTS/device.txt"
python3 scripts/plot_device.py "$RESULTS"
"$BUILD/bench/cni-bench" nodes --profile "$PROFILE" --json-out "$RESULTS/nodes.json" |
  tee "$RESULTS/nodes.txt"
"$BUILD/bench/cni-bench" bus --csv "$RESULTS" --json-out "$RESULTS/bus.json" |
  tee "$RESULTS/bus.txt"
python3 scripts/plot_bus.py "$RESULTS"
"$BUILD/bench/cni-bench" cni --csv "$RESULTS" --json-out "$RESULTS/cni.json" |
  tee "$RESULTS/cni.txt"
python3 scripts/plot_cni.py "$RESULTS"
"$BUILD/bench/cni-bench" dsm --csv "$RESULTS" --json-out "$RESULTS/dsm.json" |
  tee "$RESULTS/dsm.txt"
python3 scripts/plot_dsm.py "$RESULTS"
"$BUILD/bench/cni-bench" dsm --profile "$PROFILE" --json-out "$RESULTS/dsm-$PROFILE.json" |
  tee "$RESULTS/dsm-$PROFILE.txt"
"$BUILD/bench/cni-bench" nic --csv "$RESULTS" --json-out "$RESULTS/nic.json" |
  tee "$RESULTS/nic.txt"
python3 scripts/plot_nic.py "$RESULTS"
"$BUILD/bench/cni-bench" xfer --csv "$RESULTS" --json-out "$RESULTS/xfer.json" |
  tee "$RESULTS/xfer.txt"
python3 scripts/plot_xfer.py "$RESULTS"
echo "bench: results in $RESULTS/ (pio.txt, pio.json, pio.csv, pio_*.png, pio-pcie.txt," \
  "pio-pcie.json, pio-pcie.csv, pio-pcie_*.png, device.txt," \
  "device.json, device.csv, device_throughput.png, nodes.txt, nodes.json, bus.txt, bus.json," \
  "bus.csv, bus.png, cni.txt, cni.json, cni.csv, cni_roundtrip.png, cni_bandwidth.png," \
  "dsm.txt, dsm.json, dsm.csv, dsm_breakdown.png, dsm_latency.png, dsm_em3d.png," \
  "dsm_em3d_latency.png, dsm-$PROFILE.txt, dsm-$PROFILE.json, nic.txt, nic.json, nic.csv," \
  "nic_latency.png, nic_throughput.png, xfer.txt, xfer.json, xfer.csv, xfer_page.png," \
  "xfer_size.png)"
