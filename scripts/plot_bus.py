#!/usr/bin/env python3
"""Plot of `cni-bench bus` results: for each of seed 000's Table 2 operations the device answers,
on its two machines, the row's slack for the answerer (from Table 2's occupancy, an input) beside
the RTL device's measured turnaround, from the CSV file it writes."""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(d):
    path = os.path.join(d, "bus.csv")
    with open(path) as f:
        rows = [r for r in csv.DictReader(f) if r["turnaround_cycles"]]
    profiles = list(dict.fromkeys(r["profile"] for r in rows))
    fig, axes = plt.subplots(1, len(profiles), figsize=(5 * len(profiles), 3.6), squeeze=False)
    for ax, prof in zip(axes[0], profiles):
        rs = [r for r in rows if r["profile"] == prof]
        ops = [r["op"] for r in rs]
        x = range(len(ops))
        ax.bar([i - 0.2 for i in x], [float(r["slack_cycles"]) for r in rs], width=0.4,
               label="slack Table 2 leaves the answerer (input)", color="tab:gray")
        ax.bar([i + 0.2 for i in x], [float(r["turnaround_cycles"]) for r in rs], width=0.4,
               label="RTL device's turnaround (measured)", color="tab:blue")
        ax.set_xticks(list(x))
        ax.set_xticklabels(ops, fontsize=8)
        ax.set_ylabel("processor cycles (200 MHz)")
        top = max(max(float(r["slack_cycles"]), float(r["turnaround_cycles"])) for r in rs)
        ax.set_ylim(0, 1.35 * top)
        ax.set_title(prof)
        ax.legend(loc="upper left", fontsize=7)
    fig.suptitle("the device's turnaround inside seed 000's bus transactions (cni-bench bus)",
                 fontsize=9)
    fig.tight_layout()
    out = os.path.join(d, "bus.png")
    fig.savefig(out, dpi=120)
    print(f"plot: {out}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "results")
