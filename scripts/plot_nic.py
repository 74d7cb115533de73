#!/usr/bin/env python3
"""Plots of `cni-bench nic` results (seed 002's NIC) from the CSV file it writes: receive and
transmit latency (P50) against the frame's size per interface (002 Fig. 10), with 002 Table 1's
P50 points beside them where the run measured Table 1's sizes (nic_latency.png); one core's
throughput against the frame's size per interface, beside 100 Gb/s Ethernet (nic_throughput.png)."""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(d):
    with open(os.path.join(d, "nic.csv")) as f:
        rows = list(csv.DictReader(f))
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for (iface, direction), style in (
        (("pcie-pio", "rx"), "o-"),
        (("pcie-pio", "tx"), "s-"),
        (("pcie-dma", "rx"), "D-"),
        (("pcie-dma", "tx"), "d-"),
        (("coherent-pio", "rx"), "^-"),
        (("coherent-pio", "tx"), "v-"),
        (("cni-queues", "rx"), "P-"),
        (("cni-queues", "tx"), "X-"),
    ):
        pts = sorted((int(r["size_bytes"]), float(r["p50_us"])) for r in rows
                     if r["experiment"] == "sweep" and r["interface"] == iface
                     and r["direction"] == direction)
        color = None
        if pts:
            (line,) = ax.plot([p[0] for p in pts], [p[1] for p in pts], style,
                              label=f"{iface} {direction} (ours)")
            color = line.get_color()
        paper = sorted((int(r["size_bytes"]), float(r["paper_p50_us"])) for r in rows
                       if r["experiment"] == "latency" and r["interface"] == iface
                       and r["direction"] == direction and r["paper_p50_us"])
        if paper:
            ax.plot([p[0] for p in paper], [p[1] for p in paper], style[0], fillstyle="none",
                    markersize=9, color=color, label=f"{iface} {direction} (002 Table 1)")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("frame (bytes, FCS included)")
    ax.set_ylabel("latency P50 (us)")
    ax.set_title("NIC latency against frame size (cni-bench nic)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "nic_latency.png"), dpi=120)
    plot_throughput(d, rows)


def plot_throughput(d, rows):
    fig, ax = plt.subplots(figsize=(6.5, 4.2))
    for i, iface in enumerate(("pcie-pio", "pcie-dma", "coherent-pio", "cni-queues")):
        for direction, style in (("rx", "o-"), ("tx", "s--")):
            pts = sorted((int(r["size_bytes"]), float(r["gbit_s"])) for r in rows
                         if r["experiment"] == "throughput" and r["interface"] == iface
                         and r["direction"] == direction)
            if pts:
                ax.plot([p[0] for p in pts], [p[1] for p in pts], style, color=f"C{i}",
                        label=f"{iface} {direction}")
    ax.axhline(100, color="black", linewidth=1, label="100 Gb/s line rate")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("frame (bytes, FCS included)")
    ax.set_ylabel("one core's throughput (Gb/s)")
    ax.set_title("NIC throughput against frame size (cni-bench nic)")
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=7, ncol=2)
    fig.tight_layout()
    fig.savefig(os.path.join(d, "nic_throughput.png"), dpi=120)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "results")
