#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""Guard of `cni-bench cni` (quick) on seed 000's machines: every point is there (each
experiment, bus, configuration and size; CNI16Qm on the memory bus only, and never on the I/O
bus), every time and rate is positive, and seed 000's ordering holds at 64 bytes: every CNI
(CNI4, CNI16Q, CNI512Q, and CNI16Qm on the memory bus) beats NI2w in round-trip latency and in
bandwidth, on both buses; CNI4 is the weakest CNI, behind every other CNI in both; CNI16Qm is
close to the device-homed queues, its round trip within 1.2 times CNI512Q's (docs/cni.md section
11, "CNI16Qm"; 1.31 before the caching agent's idle clean); the idle clean's sweep is there on
the memory bus only, and its point at the profile's value is within 2% of the tables' CNI16Qm;
CNI4's back-off sweep is there and its reset value's point is within 2% of the tables' CNI4
point; CNI512Q with EarlyPull is there at 64 and 256 bytes on both buses, with early pulls at 256; --msg-trace writes one named section per run (every configuration, both experiments);
and the best CNI's 64-byte improvements over NI2w,
computed as seed 000 does, are inside the bands around 000's figures (latency 18-56% on the
memory bus, 000 37%, and 37-110% on the I/O bus, 000 74%; bandwidth 60-190% and 60-185%, 000
125% and 123%).
Simulated time is deterministic per seed.

usage: cni_figures.py <cni-bench binary>
"""
import json
import os
import subprocess
import sys
import tempfile

CONFIGS = {"mbus": ["NI2w", "CNI4", "CNI16Q", "CNI512Q", "CNI16Qm"],
           "iobus": ["NI2w", "CNI4", "CNI16Q", "CNI512Q"]}
BACKOFFS = [0, 4, 8, 16, 32, 64]
RESET_BACKOFF = 16  # TIMERS.VP_BACKOFF after reset (rtl/cni/cni_cq_engine.sv)
CLEANS = [0, 16, 32, 64, 96, 128, 256]
MBUS_CLEAN = 96  # device.ca_clean_cycles of mbus-1996
QM_CLOSE = 1.2   # CNI16Qm's 64-byte round trip at most this times CNI512Q's
SIZES = [8, 64, 256]
# bus: (latency band, bandwidth band), percent
BANDS = {"mbus": ((18, 56), (60, 190)), "iobus": ((37, 110), (60, 185))}


def off_the_tables(r, rt, bw):
    """A sweep's point r differs by more than 2% from the tables' round trip rt or bandwidth bw
    (the same run, apart from the setting's register write at open)."""
    return bool(r and rt and bw) and (abs(r["roundtrip_ns"] / rt["median_ns"] - 1) > 0.02 or
                                      abs(r["mb_s"] / bw["mb_s"] - 1) > 0.02)


def main() -> int:
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory() as tmp:
        trace = os.path.join(tmp, "cni.trace")
        out = subprocess.run([sys.argv[1], "cni", "--quick", "--json", "--msg-trace", trace],
                             check=True, capture_output=True, text=True).stdout
        with open(trace, encoding="utf-8") as f:
            sections = {}
            name = None
            for line in f:
                if line.startswith("# cni "):
                    name = tuple(line.split()[2:6])
                    sections[name] = 0
                elif name is not None:
                    sections[name] += 1
    res = json.loads(out)
    pts = {(r["experiment"], r["bus"], r["config"], r["payload_bytes"]): r for r in res["rows"]}
    bad = []
    machine = {"mbus": "mbus-1996", "iobus": "iobus-1996"}
    for (exp, bus, cfg, n) in pts:
        if sections.get((machine[bus], cfg, exp, str(n)), 0) == 0:
            bad.append(f"--msg-trace has no messages for {machine[bus]} {cfg} {exp} {n}")
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
            # CNI4 the weakest CNI
            c4 = pts.get((exp, bus, "CNI4", 64))
            for cfg in CONFIGS[bus][2:]:
                q = pts.get((exp, bus, cfg, 64))
                if c4 is None or q is None:
                    continue
                weaker = c4["median_ns"] > q["median_ns"] if exp == "roundtrip" else \
                    c4["mb_s"] < q["mb_s"]
                if not weaker:
                    bad.append(f"{exp} {bus} 64 B: CNI4 is not behind {cfg}")
    # CNI16Qm close to the queues (seed 000 section 5.1.1: "slightly worse")
    qm, q512 = pts.get(("roundtrip", "mbus", "CNI16Qm", 64)), pts.get(("roundtrip", "mbus", "CNI512Q", 64))
    if qm and q512:
        ratio = qm["median_ns"] / q512["median_ns"]
        print(f"roundtrip mbus 64 B: CNI16Qm / CNI512Q = {ratio:.3f} (limit {QM_CLOSE})")
        if ratio > QM_CLOSE:
            bad.append(f"roundtrip mbus 64 B: CNI16Qm {ratio:.3f} x CNI512Q, over {QM_CLOSE}")
    cleans = {(r["bus"], r["ca_clean"]): r for r in res.get("cni16qm_clean_64B", [])}
    if any(b == "iobus" for b, _ in cleans):
        bad.append("CNI16Qm's idle-clean sweep ran on the I/O bus")
    for c in CLEANS:
        if ("mbus", c) not in cleans:
            bad.append(f"no CNI16Qm idle-clean point {c} on mbus")
    r, bw = cleans.get(("mbus", MBUS_CLEAN)), pts.get(("bandwidth", "mbus", "CNI16Qm", 64))
    if off_the_tables(r, qm, bw):
        bad.append(f"mbus: CNI16Qm's idle-clean point {MBUS_CLEAN} {r} is not the tables' "
                   f"({qm['median_ns']} ns, {bw['mb_s']} MB/s)")
    sweep = {(r["bus"], r["vp_backoff"]): r for r in res.get("cni4_backoff_64B", [])}
    for bus in ("mbus", "iobus"):
        for b in BACKOFFS:
            if (bus, b) not in sweep:
                bad.append(f"no CNI4 back-off point {b} on {bus}")
        r, rt, bw = sweep.get((bus, RESET_BACKOFF)), pts.get(("roundtrip", bus, "CNI4", 64)), \
            pts.get(("bandwidth", bus, "CNI4", 64))
        # (the sweep's runs also write TIMERS at open: within 2% of the tables' runs)
        if off_the_tables(r, rt, bw):
            bad.append(f"{bus}: CNI4's back-off {RESET_BACKOFF} point {r} is not the tables' "
                       f"({rt['median_ns']} ns, {bw['mb_s']} MB/s)")
    early = {(r["bus"], r["payload_bytes"]): r for r in res.get("cni512q_early_pull", [])}
    for bus in ("mbus", "iobus"):
        for n in (64, 256):
            r = early.get((bus, n))
            if r is None:
                bad.append(f"no CNI512Q early-pull point {n} B on {bus}")
            elif r["roundtrip_ns"] <= 0 or r["mb_s"] <= 0 or (n == 256 and r["early_pulls"] == 0):
                bad.append(f"CNI512Q early-pull point {bus} {n} B: {r}")
            else:
                print(f"CNI512Q EarlyPull {bus} {n} B: {r['roundtrip_ns']} ns {r['mb_s']} MB/s, "
                      f"{r['early_pulls']} early pulls")
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
