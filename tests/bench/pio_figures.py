#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Figure guard: the coherent-PIO single-line figures of `cni-bench pio` on the default profile
must stay within 2% of the figures the project published for them (docs/results.md), and the
device's protocol-processing cycles must not change. Simulated time is deterministic per seed,
so this is not a wall-clock test: a change that moves a figure must say why and update it here.

usage: pio_figures.py <cni-bench binary> [cni-bench options...]
(extra options, e.g. --set link.one_way_ns=160, show that the guard fails when a figure moves)
"""
import json
import subprocess
import sys

# Published figures (docs/results.md, `make bench` on enzian-eci, seed 1): single-line medians
# in ns and the idle device's request -> first answer cycles.
MEDIANS_NS = {"eci-exclusive": 817.0, "eci-shared": 1155.0, "fastforward": 2280.0}
CYCLES = {"device_plain_read_cycles": 3.0, "device_pio_trigger_cycles": 8.0}
TOLERANCE = 0.02


def main() -> int:
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    cmd = [sys.argv[1], "pio", "--experiments", "single-line", "--iterations", "200", "--json"]
    cmd += sys.argv[2:]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    res = json.loads(out)
    bad = []
    rows = {r["variant"]: r for r in res["rows"] if r["experiment"] == "single-line"}
    for variant, want in MEDIANS_NS.items():
        got = rows[variant]["median_ns"]
        ok = abs(got - want) <= TOLERANCE * want
        print(f"{variant:15s} median {got:8.1f} ns  published {want:8.1f} ns  "
              f"{'ok' if ok else 'MOVED'}")
        if not ok:
            bad.append(variant)
    for key, want in CYCLES.items():
        got = res[key]
        ok = abs(got - want) <= TOLERANCE * want
        print(f"{key:28s} {got:5.1f} cycles  published {want:5.1f}  {'ok' if ok else 'MOVED'}")
        if not ok:
            bad.append(key)
    if res["result_mismatches"] != 0:
        bad.append("result_mismatches")
    if bad:
        print("pio figures moved: " + ", ".join(bad), file=sys.stderr)
        return 1
    print("pio figures within 2% of the published ones")
    return 0


if __name__ == "__main__":
    sys.exit(main())
