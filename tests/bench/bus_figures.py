#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Guard of `cni-bench bus` on seed 000's machines: every operation takes at least its Table 2
occupancy (the bus carries it for exactly that), a pull of a dirty line takes exactly its row
(the core's snoop answers at once, cache.snoop_ns = 0), a miss to memory its row plus the core's
own two cycles (core.access_ns + cache.miss_ns = 10 ns), and an uncached load exactly its row:
the device core's turnaround (6 cycles) runs inside the row's slack (docs/network.md). Simulated
time is deterministic, so these are exact.

usage: bus_figures.py <cni-bench binary>
"""
import json
import subprocess
import sys

CORE_CYCLES = 2.0


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
        seen.add(prof["profile"])
        for r in prof["rows"]:
            where = f'{prof["profile"]} {r["op"]}'
            t2, ours = float(r["table2_cycles"]), float(r["median_cycles"])
            if ours < t2:
                bad.append(f"{where}: {ours} cycles, below Table 2's {t2}")
            if r["op"] == "to_device" and ours != t2:
                bad.append(f"{where}: {ours} cycles, not Table 2's {t2}")
            if r["op"] == "nc_load" and ours != t2:
                bad.append(f"{where}: {ours} cycles, not Table 2's {t2}")
            if r["op"] == "memory" and ours != t2 + CORE_CYCLES:
                bad.append(f"{where}: {ours} cycles, not Table 2's {t2} + {CORE_CYCLES}")
            print(f"{where}: {ours} cycles (Table 2: {t2})")
    if seen != {"mbus-1996", "iobus-1996"}:
        bad.append(f"profiles run: {sorted(seen)}")
    for b in bad:
        print("FAIL " + b, file=sys.stderr)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
