#!/usr/bin/env python3
"""Plots of `cni-bench dsm` results (seed 001's remote read miss on Stache) from the CSV file it
writes: the miss broken down into 001 Table 1's steps per design point, beside the Simple COMA
model's total, and the miss against the network's one-way latency."""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(d):
    with open(os.path.join(d, "dsm.csv")) as f:
        rows = list(csv.DictReader(f))
    brk = [r for r in rows if r["experiment"] == "breakdown"]
    designs = []
    for r in brk:
        if r["design"] not in designs:
            designs.append(r["design"])
    steps = [r["step"] for r in brk if r["design"] == designs[0] and r["step"] != "total"]
    fig, ax = plt.subplots(figsize=(10, 4))
    for i, dz in enumerate(designs):
        mine = {r["step"]: float(r["cycles"]) for r in brk if r["design"] == dz}
        if len(mine) == 1:  # a model: its total only
            ax.bar(i, mine["total"], color="tab:gray", label=dz)
            continue
        bottom = 0.0
        for k, st in enumerate(steps):
            ax.bar(i, mine[st], bottom=bottom, color=plt.cm.tab10(k),
                   label=st if i == 0 else None)
            bottom += mine[st]
    ax.set_xticks(range(len(designs)))
    ax.set_xticklabels(designs, fontsize=8)
    ax.set_ylabel("processor cycles")
    ax.set_title("remote read miss, by step (cni-bench dsm)")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))
    fig.tight_layout()
    out = os.path.join(d, "dsm_breakdown.png")
    fig.savefig(out, dpi=120)
    print(f"plot: {out}")

    sw = [r for r in rows if r["experiment"] == "latency-sweep"]
    fig, ax = plt.subplots(figsize=(6, 4))
    for dz in sorted({r["design"] for r in sw}):
        pts = sorted((float(r["network_us"]), float(r["ns"]) / 1000) for r in sw
                     if r["design"] == dz)
        ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=dz)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("network one-way latency, us")
    ax.set_ylabel("remote read miss, us")
    ax.set_title("remote read miss vs network latency (cni-bench dsm)")
    ax.legend(fontsize=8)
    fig.tight_layout()
    out = os.path.join(d, "dsm_latency.png")
    fig.savefig(out, dpi=120)
    print(f"plot: {out}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "results")
