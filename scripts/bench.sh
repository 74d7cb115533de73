#!/usr/bin/env bash
# `make bench`: the default benchmark suite on a profile; tables on stdout and in
# RESULTS/pio.txt, JSON and CSV beside them, plots as PNG.
set -euo pipefail
BUILD=${1:-build}
RESULTS=${2:-results}
PROFILE=${3:-enzian-eci}
mkdir -p "$RESULTS"
"$BUILD/sim/bench/cni-bench" pio --profile "$PROFILE" --csv "$RESULTS" \
  --json-out "$RESULTS/pio.json" | tee "$RESULTS/pio.txt"
python3 scripts/plot_pio.py "$RESULTS"
echo "bench: results in $RESULTS/ (pio.txt, pio.json, pio.csv, pio_*.png)"
