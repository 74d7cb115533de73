#!/usr/bin/env python3
"""Plots of `cni-bench xfer` results (seed 004's page transfer through the block-transfer engine)
from the CSV file it writes: the 4 KB page's useful bandwidth per case, the engine with MAGIC's
occupancy emulated and at its own speed, beside 004's figures; and the bandwidth against the
message size."""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

# 004 section 5.2: useful bandwidth of a 4 KB page, MB/s
PAPER = {"clean": 372, "dirty": 249, "network": 317}


def main(d):
    with open(os.path.join(d, "xfer.csv")) as f:
        rows = list(csv.DictReader(f))
    page = [r for r in rows if r["experiment"] == "page"]
    if page:
        cases = [c for c in PAPER if any(r["case"] == c for r in page)]
        fig, ax = plt.subplots(figsize=(6, 4))
        w = 0.2
        for k, (label, get) in enumerate([
                ("004 (MAGIC, estimated)", lambda c: PAPER[c]),
                ("magic (occupancy emulated)", lambda c: rate(page, "magic", c)),
                ("engine (own speed)", lambda c: rate(page, "engine", c)),
                ("CPU copy through CNI16Q (to its last store)", lambda c: rate(page, "cpu_copy", c))]):
            ax.bar([i + (k - 1.5) * w for i in range(len(cases))], [get(c) for c in cases], w,
                   label=label)
        ax.set_xticks(range(len(cases)))
        ax.set_xticklabels(cases)
        ax.set_ylabel("useful bandwidth, MB/s")
        ax.set_title("4 KB page transfer (cni-bench xfer)")
        ax.legend(fontsize=8)
        fig.tight_layout()
        out = os.path.join(d, "xfer_page.png")
        fig.savefig(out, dpi=120)
        print(f"plot: {out}")
    size = [r for r in rows if r["experiment"] == "size"]
    if size:
        fig, ax = plt.subplots(figsize=(6, 4))
        for mode in ("magic", "engine"):
            pts = sorted((int(r["size_bytes"]), float(r["mb_s"])) for r in size
                         if r["mode"] == mode)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=mode)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("message bytes")
        ax.set_ylabel("useful bandwidth, MB/s")
        ax.set_title("bandwidth vs message size (cni-bench xfer)")
        ax.legend(fontsize=8)
        fig.tight_layout()
        out = os.path.join(d, "xfer_size.png")
        fig.savefig(out, dpi=120)
        print(f"plot: {out}")


def rate(rows, mode, case):
    """The row's MB/s, 0 where the run has no such row (the CPU copy runs the clean case only)."""
    return next((float(r["mb_s"]) for r in rows if r["mode"] == mode and r["case"] == case), 0.0)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "results")
