#!/usr/bin/env python3
"""Plots of `cni-bench pio` results (seed 002 Fig. 6, 7, 8) from the CSV files it writes."""
import csv
import json
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

PAPER_FIG6 = {"eci-exclusive": 900, "eci-shared": 1600, "fastforward": 1750}
PAPER_PEAK = (32768, 2.19)


def read_rows(d, name="pio"):
    with open(os.path.join(d, name + ".csv")) as f:
        return list(csv.DictReader(f))


def caption(d, name="pio"):
    try:
        with open(os.path.join(d, name + ".json")) as f:
            j = json.load(f)
        return (f"profile {j['profile']}, seed {j['seed']}, device model {j['device_build']}, "
                f"Pipelined = {int(j['device_pipelined'])} at {j['device_mhz']:.0f} MHz")
    except (OSError, KeyError, ValueError):
        return ""


# The invocation curves' interfaces: the coherent channel and the PCIe ones (--interface).
VARIANTS = (("eci-exclusive", "coherent PIO (ECI)"), ("pcie-pio", "PCIe PIO"),
            ("pcie-dma", "PCIe DMA"))


def fig6(d, cap):
    samples = {}
    path = os.path.join(d, "pio_single_line_samples.csv")
    if not os.path.exists(path):
        return
    with open(path) as f:
        for r in csv.DictReader(f):
            samples.setdefault(r["variant"], []).append(float(r["latency_ns"]))
    fig, ax = plt.subplots(figsize=(7, 4))
    colors = {"eci-exclusive": "tab:blue", "eci-shared": "tab:orange", "fastforward": "tab:green"}
    for v, xs in samples.items():
        ax.hist(xs, bins=40, alpha=0.6, label=f"{v} (ours)", color=colors.get(v))
        if v in PAPER_FIG6:
            ax.axvline(PAPER_FIG6[v], color=colors.get(v), linestyle="--", label=f"{v} paper median")
    ax.set_xlabel("invocation latency (ns)")
    ax.set_ylabel("invocations")
    ax.set_title("Single-line RPC (002 Fig. 6)\n" + cap, fontsize=9)
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "pio_fig6_single_line.png"), dpi=120)


def fig7(rows, d, cap, name):
    fig, ax = plt.subplots(figsize=(7, 4))
    for variant, label in VARIANTS:
        lat = [r for r in rows if r["experiment"] == "latency" and r["variant"] == variant]
        if not lat:
            continue
        x = [int(r["payload_bytes"]) for r in lat]
        (line,) = ax.plot(x, [float(r["median_ns"]) for r in lat], "o-", label=f"{label} median")
        ax.plot(x, [float(r["p99_ns"]) for r in lat], "x--", color=line.get_color(),
                label=f"{label} p99")
    if not ax.lines:
        plt.close(fig)
        return
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("payload (bytes, request and response)")
    ax.set_ylabel("invocation latency (ns)")
    ax.set_title("Latency vs payload (002 Fig. 7: coherent PIO flat to 256 B, then linear)\n" + cap,
                 fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(d, f"{name}_fig7_latency.png"), dpi=120)


def fig8(rows, d, cap, name):
    fig, ax = plt.subplots(figsize=(7, 4))
    for variant, label in VARIANTS:
        thr = [r for r in rows if r["experiment"] == "throughput" and r["variant"] == variant]
        if thr:
            ax.plot([int(r["payload_bytes"]) for r in thr],
                    [float(r["throughput_gib_s"]) for r in thr], "o-", label=f"{label} (ours)")
    if not ax.lines:
        plt.close(fig)
        return
    ax.plot([PAPER_PEAK[0]], [PAPER_PEAK[1]], "r*", markersize=12, label="paper peak (2.19 GiB/s)")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("payload (bytes)")
    ax.set_ylabel("throughput (GiB/s)")
    ax.set_title("Back-to-back invocations for 1 ms (002 Fig. 8)\n" + cap, fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(d, f"{name}_fig8_throughput.png"), dpi=120)


def main():
    d = sys.argv[1] if len(sys.argv) > 1 else "results"
    rows = read_rows(d)
    cap = caption(d)
    fig6(d, cap)
    fig7(rows, d, cap, "pio")
    fig8(rows, d, cap, "pio")
    # cni-bench pio --interface pcie-pio,pcie-dma: the PCIe curves beside the coherent ones
    if os.path.exists(os.path.join(d, "pio-pcie.csv")):
        rows = read_rows(d, "pio-pcie")
        cap = caption(d, "pio-pcie")
        fig7(rows, d, cap, "pio-pcie")
        fig8(rows, d, cap, "pio-pcie")


if __name__ == "__main__":
    main()
