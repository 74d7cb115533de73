#!/usr/bin/env bash
# Lint gate: `verilator --lint-only -Wall` on every RTL file and every board-independent FPGA
# helper (fpga/common/), each module as its own top with all the sources. Any warning fails.
# Waivers live in the RTL, line-scoped, each with its reason. (The board tops, fpga/<board>/,
# instantiate vendor primitives and are checked by the fpga-* flows.)
set -euo pipefail
cd "$(dirname "$0")/.."
list=$(scripts/rtl-files.sh && ls fpga/common/*.sv)  # (not <(...): its failure must stop us)
mapfile -t files <<< "$list"
list=$(scripts/rtl-files.sh --incdir)
mapfile -t incs <<< "$list"
mapfile -t pkgs < <(printf '%s\n' "${files[@]}" | grep '_pkg\.sv$')
# Each module with its defaults, then the parameter settings that select other logic: the
# platform's here; each engine module's, the endpoint with each device-model variant and the FPGA
# shell with every engine from the engine registry (rtl/engines.toml; gen-engines.py --list lint).
variants=("cni_home_agent -GPipelined=1" "cni_cache_agent -GLineBytes=64 -GWays=1 -GMshrs=1"
          "cni_endpoint -GPipelined=1" "cni_nic_coh -GLineBytes=64" "cni_mem_port -GLineBytes=64"
          "cni_mem_frames -GLineBytes=64" "cni_home_agent -GDramIdxW=11 -GFrameW=4"
          "cni_endpoint -GDramIdxW=12 -GFrameW=4 -GTsLines=16")
mapfile -t -O ${#variants[@]} variants < <(python3 scripts/gen-engines.py --list lint)
fail=0
lint() {
  local mod=$1; shift
  if ! out=$(verilator --lint-only -Wall "${incs[@]/#/-I}" "${pkgs[@]}" "${files[@]}" --top-module "$mod" "$@" \
               2>&1); then
    echo "lint: $mod $*"; echo "$out"; fail=1
  fi
}
for f in "${files[@]}"; do
  case "$f" in *_pkg.sv) continue ;; esac
  lint "$(basename "$f" .sv)"
done
for v in "${variants[@]}"; do
  read -r -a args <<< "$v"
  lint "${args[@]}"
done
ver=$(verilator --version | awk '{print $2}')
[ $fail -eq 0 ] && echo "lint: ${#files[@]} RTL and FPGA helper files and" \
  "${#variants[@]} parameter variant(s) clean (verilator $ver -Wall)"
exit $fail
