#!/usr/bin/env python3
"""Plots of `cni-bench dsm` results (seed 001's DSM, Stache) from the CSV file it writes: the
remote read miss broken down into 001 Table 1's steps per design point, beside the Simple COMA
model's total; the miss against the network's one-way latency; EM3D's speed-up against the node
count and its slowdown against the network's latency, for both protocols. A part the run did not
do (--experiments) is not plotted."""
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
    if brk:
        breakdown(d, brk)
    sw = [r for r in rows if r["experiment"] == "latency-sweep"]
    if sw:
        sweep(d, sw)
    em = [r for r in rows if r["experiment"] == "em3d"]
    if em:
        series(d, em, "speedup", "nodes", "speed-up over the standard protocol on 1 node",
               "EM3D (cni-bench dsm)", "dsm_em3d.png", log_x=True)
    eml = [r for r in rows if r["experiment"] == "em3d-latency"]
    if eml:
        series(d, eml, "slowdown", "network_us", "slowdown over 0.5 us",
               "EM3D on 4 nodes vs network latency (cni-bench dsm)", "dsm_em3d_latency.png",
               log_x=True)


def series(d, rows, what, x, ylabel, title, name, log_x=False):
    fig, ax = plt.subplots(figsize=(6, 4))
    for dz in sorted({r["design"] for r in rows}):
        pts = sorted((float(r[x]), float(r["speedup"])) for r in rows if r["design"] == dz)
        # the CSV's speedup column is base / time: a slowdown is its inverse
        ys = [p[1] if what == "speedup" else 1.0 / p[1] for p in pts]
        ax.plot([p[0] for p in pts], ys, marker="o", label=dz)
    if log_x:
        ax.set_xscale("log", base=2 if x == "nodes" else 10)
    ax.set_xlabel("nodes" if x == "nodes" else "network one-way latency, us")
    ax.set_ylabel(ylabel)
    ax.set_title(title)
    ax.legend(fontsize=8)
    fig.tight_layout()
    out = os.path.join(d, name)
    fig.savefig(out, dpi=120)
    print(f"plot: {out}")


def breakdown(d, brk):
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


def sweep(d, sw):
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
