#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Guard of `cni-bench bus` on seed 000's machines. Table 2's occupancies are the profiles'
input; what the suite measures is the RTL device's turnaround inside them, and that is what this
checks: the device cycles from a request reaching the device to its answer leaving it, for each
operation the device answers (TURNAROUND; the I/O bus's device clock is a quarter of the
processor's, so a line request waits half a device cycle for the edge there), and where it
exceeds the row's slack (only the memory bus's uncached store: 10 processor cycles against 8).
The bus must then charge exactly the row plus that excess, plus the core's own two cycles on a
miss (core.access_ns + cache.miss_ns = 10 ns), and a pull of a dirty line exactly its row (the
core's snoop answers at once, cache.snoop_ns = 0; docs/network.md). Simulated time is
deterministic, so these are exact: a change to the device's cycles or to the bus model trips it.

usage: bus_figures.py <cni-bench binary>
"""
import json
import subprocess
import sys

CORE_CYCLES = 2.0
# profile: op -> (device cycles, processor cycles over the row's slack)
TURNAROUND = {
    "mbus-1996": {"nc_load": (6.0, 0.0), "nc_store": (5.0, 2.0), "from_device": (3.0, 0.0)},
    "iobus-1996": {"nc_load": (6.0, 0.0), "nc_store": (5.0, 0.0), "from_device": (3.5, 0.0)},
}
MISSES = ("from_device", "memory")  # the core's own cycles are in the latency


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = subprocess.run([sys.argv[1], "bus", "--quick", "--json"], check=True,
                         capture_output=True, text=True).stdout
    res = json.loads(out)
    bad = []
    seen = set()
    for prof in res["profiles"]:
        name = prof["profile"]
        seen.add(name)
        want = TURNAROUND.get(name, {})
        rows = {r["op"]: r for r in prof["rows"]}
        for op, (dev_cycles, over) in want.items():
            r = rows.get(op)
            if r is None or r["turnaround_device_cycles"] is None:
                bad.append(f"{name} {op}: no device turnaround measured")
                continue
            print(f"{name} {op}: turnaround {r['turnaround_device_cycles']} device cycles "
                  f"({r['turnaround_cycles']} processor cycles, slack {r['slack_cycles']}, over "
                  f"{r['over_cycles']}; expected {dev_cycles} and over {over})")
            if r["turnaround_device_cycles"] != dev_cycles:
                bad.append(f"{name} {op}: turnaround {r['turnaround_device_cycles']} device "
                           f"cycles, not {dev_cycles}")
            if r["over_cycles"] != over:
                bad.append(f"{name} {op}: {r['over_cycles']} processor cycles over the slack, "
                           f"not {over}")
        for op, r in rows.items():
            if op not in want and r["turnaround_device_cycles"] is not None:
                bad.append(f"{name} {op}: a device turnaround where the {r['answerer']} answers")
            charged = r["table2_cycles"] + (r["over_cycles"] or 0.0) + \
                (CORE_CYCLES if op in MISSES else 0.0)
            if r["latency_cycles"] != charged:
                bad.append(f"{name} {op}: latency {r['latency_cycles']} cycles, not the row "
                           f"{r['table2_cycles']} + over + core = {charged}")
    if seen != set(TURNAROUND):
        bad.append(f"profiles run: {sorted(seen)}")
    for b in bad:
        print("FAIL " + b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
