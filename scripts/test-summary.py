#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Lists the tests a CTest run skipped, grouped by the reason each gave, so a skip never hides a
gap: `make test` runs it after CTest on CTest's JUnit report.

usage: test-summary.py JUNIT_XML
"""
import collections
import re
import sys
import xml.etree.ElementTree as ET

# GoogleTest prints a skip as "<file>:<line>: Skipped" followed by the message given to GTEST_SKIP
SKIP_RE = re.compile(r": Skipped\n(.*?)\n?\[  SKIPPED \]", re.S)


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    root = ET.parse(sys.argv[1]).getroot()
    cases = root.iter("testcase")
    total = 0
    skipped = collections.defaultdict(list)
    for case in cases:
        total += 1
        if case.find("skipped") is None and case.get("status") not in ("notrun", "skipped"):
            continue
        out = "".join(e.text or "" for e in case.iter("system-out"))
        m = SKIP_RE.search(out)
        reason = m.group(1).strip().splitlines()[0] if m and m.group(1).strip() else None
        if reason is None:
            sk = case.find("skipped")
            reason = (sk.get("message") if sk is not None else None) or "no reason given"
        skipped[reason].append(case.get("name"))
    n = sum(len(v) for v in skipped.values())
    print(f"test-summary: {total} tests, {n} skipped"
          + (":" if n else " (none)"))
    for reason, names in sorted(skipped.items(), key=lambda kv: -len(kv[1])):
        shown = ", ".join(names[:3]) + (f", ... ({len(names) - 3} more)" if len(names) > 3 else "")
        print(f"  {len(names):4d}  {reason}\n        {shown}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
