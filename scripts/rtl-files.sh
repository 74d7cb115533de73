#!/usr/bin/env bash
# Prints the RTL source list in compile order -- the generated address-map package, the other
# packages (cni_coh_pkg first), then the modules -- after writing the engine registry's generated
# files (scripts/gen-engines.py) to $CNI_GEN (default build/gen). The lint and synthesis gates,
# the netlist and FPGA flows and the formal checks use it, so all of them see exactly the files
# the Verilated models are built from.
#
#   scripts/rtl-files.sh            the list (source paths relative to the project root)
#   scripts/rtl-files.sh --incdir   the include directories: the generated includes', then
#                                   rtl/common (cni_assert.svh, cni_home_types.svh)
#   scripts/rtl-files.sh --stage D  copies the sources to D (at their relative paths) and the
#                                   generated files to D/gen/rtl, and prints the list relative to
#                                   D; the include directories are then D/gen/rtl and
#                                   D/rtl/common. (Yosys from
#                                   YoWASP sees only its working directory.)
set -euo pipefail
cd "$(dirname "$0")/.."
gen=${CNI_GEN:-build/gen}
python3 scripts/gen-engines.py --out "$gen"
if [ "${1:-}" = "--incdir" ]; then echo "$gen/rtl"; echo rtl/common; exit 0; fi
srcs=(rtl/coh/cni_coh_pkg.sv)
while IFS= read -r f; do [ "$f" = rtl/coh/cni_coh_pkg.sv ] || srcs+=("$f"); done \
  < <(ls rtl/*/*_pkg.sv)
while IFS= read -r f; do srcs+=("$f"); done < <(ls rtl/*/*.sv | grep -v '_pkg\.sv$')
if [ "${1:-}" = "--stage" ]; then
  dest=${2:?usage: $0 --stage DIR}
  mkdir -p "$dest/gen/rtl"
  cp --parents "${srcs[@]}" rtl/*/*.svh "$dest/"
  cp "$gen"/rtl/* "$dest/gen/rtl/"
  echo gen/rtl/cni_amap_pkg.sv
  printf '%s\n' "${srcs[@]}"
  exit 0
fi
echo "$gen/rtl/cni_amap_pkg.sv"
printf '%s\n' "${srcs[@]}"
