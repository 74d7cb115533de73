#!/usr/bin/env python3
"""Plot of `cni-bench device` results: the home agent's messages per cycle per message type,
beside the previous home agent's one message every 2 cycles, from the CSV file it writes."""
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
    ours = [float(r["messages_per_cycle"]) for r in rows]
    before = [float(r["previous_messages_per_cycle"]) for r in rows]
    fig, ax = plt.subplots(figsize=(7, 3.6))
    x = range(len(types))
    ax.bar([i - 0.2 for i in x], before, width=0.4, label="previous (one at a time, every 2 cycles)",
           color="tab:gray")
    ax.bar([i + 0.2 for i in x], ours, width=0.4, label="pipelined home agent", color="tab:blue")
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
