#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Skip equivalence on a benchmark suite: `cni-bench <suite> --quick` run with the idle devices'
clocks asleep (the default) and with every device clocked (--set device.skip_idle=false) must
write the same message trace (--msg-trace: every coherence message of every run, its time,
node, header and data digest) and print the same results (docs/endpoint.md, "Quiescence").

usage: skip_trace.py <cni-bench binary> <suite> [cni-bench options...]
"""
import json
import subprocess
import sys
import tempfile
from pathlib import Path


def run(binary: str, suite: str, extra: list, trace: Path, skip: bool) -> dict:
    cmd = [binary, suite, "--quick", "--json", "--msg-trace", str(trace)] + extra
    if not skip:
        cmd += ["--set", "device.skip_idle=false"]
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    return json.loads(out)


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    binary, suite, extra = sys.argv[1], sys.argv[2], sys.argv[3:]
    with tempfile.TemporaryDirectory() as d:
        a, b = Path(d) / "clocked.trace", Path(d) / "asleep.trace"
        ra = run(binary, suite, extra, a, skip=False)
        rb = run(binary, suite, extra, b, skip=True)
        la, lb = a.read_text().splitlines(), b.read_text().splitlines()
    print(f"{suite}: {len(la)} trace lines clocked, {len(lb)} asleep")
    if not la:
        print("the trace is empty")
        return 1
    for i, (x, y) in enumerate(zip(la, lb)):
        if x != y:
            print(f"first difference at line {i + 1}:\n  clocked: {x}\n  asleep:  {y}")
            return 1
    if len(la) != len(lb):
        print("the traces differ in length")
        return 1
    rows_a, rows_b = ra.get("rows"), rb.get("rows")
    if rows_a != rows_b:
        print("the results differ:\n", json.dumps(rows_a)[:400], "\n", json.dumps(rows_b)[:400])
        return 1
    print("the same messages at the same times, the same results")
    return 0


if __name__ == "__main__":
    sys.exit(main())
