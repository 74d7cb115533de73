#!/usr/bin/env bash
# Prints the RTL source list in compile order (packages first); used by the lint and synthesis
# gates so both see exactly the files the Verilated models are built from.
set -euo pipefail
cd "$(dirname "$0")/.."
ls rtl/*/*_pkg.sv
ls rtl/*/*.sv | grep -v '_pkg\.sv$'
