#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Guard of `cni-bench cni` (quick) on seed 000's machines: every point is there (each
experiment, bus, configuration and size; CNI16Qm on the memory bus only, and never on the I/O
bus), every time and rate is positive, and seed 000's ordering holds at 64 bytes: CNI16Q and
CNI512Q beat NI2w in round-trip latency and in bandwidth, on both buses, and so does CNI16Qm on
the memory bus (by 1% in latency: docs/cni.md section 11, "CNI16Qm"); and the best CNI's
64-byte improvements over NI2w, computed as
seed 000 does, are inside the bands around 000's figures (latency 18-56% on the memory bus, 000
37%, and 37-110% on the I/O bus, 000 74%; bandwidth 60-190% and 60-185%, 000 125% and 123%).
Simulated time is deterministic per seed.

usage: cni_figures.py <cni-bench binary>
"""
import json
import subprocess
import sys

CONFIGS = {"mbus": ["NI2w", "CNI16Q", "CNI512Q", "CNI16Qm"], "iobus": ["NI2w", "CNI16Q", "CNI512Q"]}
SIZES = [8, 64, 256]
# bus: (latency band, bandwidth band), percent
BANDS = {"mbus": ((18, 56), (60, 190)), "iobus": ((37, 110), (60, 185))}


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    out = subprocess.run([sys.argv[1], "cni", "--quick", "--json"], check=True,
                         capture_output=True, text=True).stdout
    res = json.loads(out)
    pts = {(r["experiment"], r["bus"], r["config"], r["payload_bytes"]): r for r in res["rows"]}
    bad = []
    for exp in ("roundtrip", "bandwidth"):
        for bus in ("mbus", "iobus"):
            if bus == "iobus" and any(k[1] == "iobus" and k[2] == "CNI16Qm" for k in pts):
                bad.append("CNI16Qm ran on the I/O bus")
            for cfg in CONFIGS[bus]:
                for n in SIZES:
                    r = pts.get((exp, bus, cfg, n))
                    if r is None:
                        bad.append(f"missing {exp} {bus} {cfg} {n} B")
                    elif r["median_ns"] <= 0 or r["mb_s"] <= 0:
                        bad.append(f"{exp} {bus} {cfg} {n} B: {r}")
            for cfg in CONFIGS[bus][1:]:
                n = 64
                ni = pts.get((exp, bus, "NI2w", n))
                q = pts.get((exp, bus, cfg, n))
                if ni is None or q is None:
                    continue
                better = q["median_ns"] < ni["median_ns"] if exp == "roundtrip" else \
                    q["mb_s"] > ni["mb_s"]
                print(f"{exp} {bus} {n} B: {cfg} {q['median_ns']} ns {q['mb_s']} MB/s, "
                      f"NI2w {ni['median_ns']} ns {ni['mb_s']} MB/s")
                if not better:
                    bad.append(f"{exp} {bus} {n} B: {cfg} does not beat NI2w")
    got = {r["bus"]: r for r in res["improvement_64B"]}
    for bus, ((llo, lhi), (blo, bhi)) in BANDS.items():
        r = got.get(bus)
        if r is None:
            bad.append(f"no 64 B improvement for {bus}")
            continue
        print(f"{bus} 64 B: latency {r['latency_pct']}% (band {llo}-{lhi}), "
              f"bandwidth {r['bandwidth_pct']}% (band {blo}-{bhi})")
        if not llo <= r["latency_pct"] <= lhi:
            bad.append(f"{bus} 64 B latency improvement {r['latency_pct']}% outside {llo}-{lhi}%")
        if not blo <= r["bandwidth_pct"] <= bhi:
            bad.append(f"{bus} 64 B bandwidth improvement {r['bandwidth_pct']}% outside "
                       f"{blo}-{bhi}%")
    for b in bad:
        print("FAIL:", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
