#!/usr/bin/env python3
"""Plots of `cni-bench cni` results: seed 000's two microbenchmarks -- process-to-process
round-trip latency and one-way bandwidth against message size -- for each configuration of the
CNI engine on each of 000's machines, from the CSV file it writes. CNI16Qm+clean (the caching
agent's idle clean, a mechanism beyond the paper) is drawn dashed and labelled so."""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(d):
    path = os.path.join(d, "cni.csv")
    with open(path) as f:
        rows = list(csv.DictReader(f))
    buses = list(dict.fromkeys(r["bus"] for r in rows))
    for exp, col, ylabel in (("roundtrip", "median_ns", "round-trip latency (ns)"),
                             ("bandwidth", "mb_s", "bandwidth (MB/s)")):
        fig, axes = plt.subplots(1, len(buses), figsize=(5 * len(buses), 3.6), squeeze=False)
        for ax, bus in zip(axes[0], buses):
            rs = [r for r in rows if r["bus"] == bus and r["experiment"] == exp]
            for cfg in dict.fromkeys(r["config"] for r in rs):
                pts = sorted((int(r["payload_bytes"]), float(r[col])) for r in rs
                             if r["config"] == cfg)
                beyond = cfg == "CNI16Qm+clean"
                ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o",
                        linestyle="--" if beyond else "-",
                        label=cfg + (" (beyond the paper)" if beyond else ""))
            ax.set_xscale("log", base=2)
            ax.set_xlabel("message bytes")
            ax.set_ylabel(ylabel)
            ax.set_title({"mbus": "memory bus (mbus-1996)", "iobus": "I/O bus (iobus-1996)"}
                         .get(bus, bus))
            ax.legend(fontsize=7)
            ax.grid(alpha=0.3)
        fig.suptitle(f"seed 000's {exp} microbenchmark through the CNI engine (cni-bench cni)",
                     fontsize=9)
        fig.tight_layout()
        out = os.path.join(d, f"cni_{exp}.png")
        fig.savefig(out, dpi=120)
        print(f"plot: {out}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "results")
