#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Every RTL module (rtl/, fpga/) is small: at most LIMIT lines from `module` to `endmodule` (packages aside;
docs/architecture.md, "The device core as built"). Prints the largest modules; fails naming
each one over the limit. A self-check first shows that an oversized module is caught."""
import pathlib
import re
import sys

ROOT = pathlib.Path(__file__).resolve().parent.parent.parent
LIMIT = 600
START = re.compile(r"^\s*module\s+(\w+)")
END = re.compile(r"^\s*endmodule\b")


def modules(text):
    """(name, lines) of each module of a SystemVerilog source, `module` to `endmodule`."""
    out, name, first = [], None, 0
    for i, line in enumerate(text.splitlines()):
        m = START.match(line)
        if m and name is None:
            name, first = m.group(1), i
        elif END.match(line) and name is not None:
            out.append((name, i - first + 1))
            name = None
    return out


def main():
    big = "module too_big;\n" + "  wire a;\n" * (LIMIT - 1) + "endmodule\n"
    small = "module ok;\n" + "  wire a;\n" * (LIMIT - 2) + "endmodule\n"
    if modules(big) != [("too_big", LIMIT + 1)] or modules(small) != [("ok", LIMIT)]:
        print("module_sizes: the line counter is wrong", file=sys.stderr)
        return 1
    sizes = []
    for f in sorted([*(ROOT / "rtl").rglob("*.sv"), *(ROOT / "fpga").rglob("*.sv")]):
        if f.name.endswith("_pkg.sv"):
            continue
        sizes += [(n, lines, f.relative_to(ROOT)) for n, lines in modules(f.read_text())]
    if not sizes:
        print("module_sizes: no RTL module found", file=sys.stderr)
        return 1
    sizes.sort(key=lambda s: -s[1])
    for n, lines, f in sizes[:8]:
        print(f"{lines:5d}  {n}  ({f})")
    over = [s for s in sizes if s[1] > LIMIT]
    for n, lines, f in over:
        print(f"module_sizes: {n} ({f}) has {lines} lines, over {LIMIT}", file=sys.stderr)
    print(f"module_sizes: {len(sizes)} modules, the largest {sizes[0][1]} lines (limit {LIMIT})")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
