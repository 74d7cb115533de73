#!/usr/bin/env python3
"""Plot of `cni-bench bus` results: the latency of each of seed 000's Table 2 operations on its
two machines beside Table 2's bus occupancy for it, from the CSV file it writes."""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(d):
    path = os.path.join(d, "bus.csv")
    with open(path) as f:
        rows = list(csv.DictReader(f))
    profiles = list(dict.fromkeys(r["profile"] for r in rows))
    fig, axes = plt.subplots(1, len(profiles), figsize=(5 * len(profiles), 3.6), squeeze=False)
    for ax, prof in zip(axes[0], profiles):
        rs = [r for r in rows if r["profile"] == prof]
        ops = [r["op"] for r in rs]
        x = range(len(ops))
        ax.bar([i - 0.2 for i in x], [float(r["table2_cycles"]) for r in rs], width=0.4,
               label="seed 000 Table 2 (bus occupancy)", color="tab:gray")
        ax.bar([i + 0.2 for i in x], [float(r["median_cycles"]) for r in rs], width=0.4,
               label="ours (latency, median)", color="tab:blue")
        ax.set_xticks(list(x))
        ax.set_xticklabels(ops, rotation=20, fontsize=8)
        ax.set_ylabel("processor cycles (200 MHz)")
        ax.set_ylim(0, 1.35 * max(float(r["median_cycles"]) for r in rs))
        ax.set_title(prof)
        ax.legend(loc="upper left", fontsize=7)
    fig.suptitle("seed 000's bus operations through the host model and the device (cni-bench bus)",
                 fontsize=9)
    fig.tight_layout()
    out = os.path.join(d, "bus.png")
    fig.savefig(out, dpi=120)
    print(f"plot: {out}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "results")
