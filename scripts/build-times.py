#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Where the build's time went, from Ninja's log (BUILD/.ninja_log): the duration of each step's
last run, summed per model library (the compiles of its Verilated C++; Verilator itself runs
when CMake configures), for the gate netlists (Yosys, then their models), the test programs and
the rest.

    scripts/build-times.py BUILD

`make test` prints it after CTest (whose label summary gives the tests' share per group). After
a fresh build the table is that build; after an incremental one, each step's latest run."""
import collections
import pathlib
import re
import sys

LIB = re.compile(r"CMakeFiles/(cni_rtl_\w+?|cni_dev_\w+?|cni_cache_\w+?)\.dir/")


def group(out):
    """(group, kind) of a step, from its first output."""
    o = out.split("/build/", 1)[-1] if out.startswith("/") else out
    if "/netlist/" in o or o.startswith("tb/netlist"):
        return ("gate netlists", "Yosys" if o.endswith(".v") else "model")
    if re.search(r"fast_profile|cni-bench-train|_train\.dir", o):
        return ("profile feedback (instrumented model, training)", "")
    m = LIB.search(o)
    if m:
        lib = m.group(1)
        if not lib.startswith("cni_rtl_"):
            return ("device and cache adapters", "")
        return (lib, "models: compile")
    if o.startswith("tests/"):
        return ("test programs", "")
    return ("host simulation, driver, cni-bench, runtime, generated files", "")


def main():
    if len(sys.argv) != 2:
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    log = pathlib.Path(sys.argv[1]) / ".ninja_log"
    if not log.exists():
        print(f"build-times: no {log} (not a Ninja build, or not built yet)", file=sys.stderr)
        return 1
    steps = {}  # one entry per step (its outputs share start, end and command hash)
    last = {}
    for line in log.read_text().splitlines()[1:]:
        f = line.split("\t")
        if len(f) != 5:
            continue
        start, end, _, out, h = int(f[0]), int(f[1]), f[2], f[3], f[4]
        last[out] = (start, end, h)
    for out, (start, end, h) in last.items():
        steps.setdefault((start, end, h), out)
    times = collections.defaultdict(lambda: [0, 0.0])
    total = 0.0
    for (start, end, _), out in steps.items():
        g = group(out)
        times[g][0] += 1
        times[g][1] += (end - start) / 1000
        total += (end - start) / 1000
    print(f"build steps by part ({len(steps)} steps, {total:.0f} s of step time; two run at a time):")
    print(f"  {'part':<60} {'steps':>6} {'s':>8}")
    rest = [0, 0.0]
    for (name, kind), (n, s) in sorted(times.items(), key=lambda kv: -kv[1][1]):
        if s < 5:
            rest[0] += n
            rest[1] += s
            continue
        label = f"{name} ({kind})" if kind else name
        print(f"  {label:<60} {n:>6} {s:>8.1f}")
    if rest[0]:
        print(f"  {'the other parts (under 5 s each)':<60} {rest[0]:>6} {rest[1]:>8.1f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
