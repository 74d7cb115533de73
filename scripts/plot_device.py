#!/usr/bin/env python3
"""Plot of `cni-bench device` results: the home agent's messages per cycle per message type, in
the default configuration and, where the build has its model, the pipelined one, both measured in
the same run, from the CSV file it writes."""
import csv
import os
import sys

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def main(d):
    path = os.path.join(d, "device.csv")
    with open(path) as f:
        rows = [r for r in csv.DictReader(f) if r["table"] == "stream"]
    types = [r["type"] for r in rows]
    default = [float(r["messages_per_cycle"]) for r in rows]
    piped = [float(r["pipelined_messages_per_cycle"]) for r in rows
             if r["pipelined_messages_per_cycle"]]
    fig, ax = plt.subplots(figsize=(7, 3.6))
    x = range(len(types))
    width = 0.4 if len(piped) == len(rows) else 0.8
    ax.bar([i - (0.2 if width < 0.8 else 0) for i in x], default, width=width,
           label="Pipelined = 0 (the benchmarks' model)", color="tab:blue")
    if len(piped) == len(rows):
        ax.bar([i + 0.2 for i in x], piped, width=width, label="Pipelined = 1 (the ECP5 board's)",
               color="tab:orange")
    ax.set_xticks(list(x))
    ax.set_xticklabels(types)
    ax.set_ylabel("answers per device cycle")
    ax.set_ylim(0, 1.2)
    ax.set_title("device home agent throughput per message type (cni-bench device)")
    ax.legend(loc="upper right", fontsize=8)
    fig.tight_layout()
    out = os.path.join(d, "device_throughput.png")
    fig.savefig(out, dpi=120)
    print(f"plot: {out}")


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "results")
