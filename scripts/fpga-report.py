#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""FPGA flow results: per-target summaries and the tables of docs/fpga.md.

  scripts/fpga-report.py --summarize DIR   read one flow's outputs (scripts/fpga.sh) in DIR and
                                           write DIR/summary.json
  scripts/fpga-report.py [--build BUILD] [--doc docs/fpga.md]
                                           rewrite the generated section of the doc from
                                           BUILD/fpga/{ecp5,ice40,xilinx}/summary.json
"""
import argparse
import json
import re
import sys
from pathlib import Path

TARGETS = ["ecp5", "ice40", "xilinx"]
DEVICE = {
    "ecp5": "ECP5 LFE5U-85F-6BG381C (ULX3S)",
    "ice40": "iCE40 HX8K-CT256 (iCE40-HX8K breakout)",
    "xilinx": "XCVU9P (VCU118; synthesis only)",
}

# Device capacity where no place-and-route report gives it (XCVU9P: AMD UltraScale+ product
# table: 1,182,240 LUTs, 2,364,480 flip-flops, 2,160 36-Kb block RAMs, 960 UltraRAMs, 6,840 DSPs).
CAPACITY = {
    "xilinx": {"name": "XCVU9P", "res": {"LUT": 1182240, "FF": 2364480, "BRAM36": 2160,
                                        "URAM": 960, "DSP": 6840}},
}

# Resource columns per family: name -> {cell type: weight}.
RESOURCES = {
    "ecp5": {
        "LUT4": {"LUT4": 1, "CCU2C": 2},
        "FF": {"TRELLIS_FF": 1},
        "LUTRAM": {"TRELLIS_DPR16X4": 1},
        "BRAM": {"DP16KD": 1, "PDPW16KD": 1},
        "DSP": {"MULT18X18D": 1, "ALU54B": 1},
    },
    "ice40": {
        "LUT4": {"SB_LUT4": 1},
        "FF": {t: 1 for t in ["SB_DFF", "SB_DFFE", "SB_DFFSR", "SB_DFFR", "SB_DFFS", "SB_DFFSS",
                              "SB_DFFRS", "SB_DFFESR", "SB_DFFER", "SB_DFFES", "SB_DFFESS",
                              "SB_DFFERS", "SB_DFFN", "SB_DFFNE", "SB_DFFNSR", "SB_DFFNR",
                              "SB_DFFNS", "SB_DFFNSS", "SB_DFFNRS", "SB_DFFNESR", "SB_DFFNER",
                              "SB_DFFNES", "SB_DFFNESS", "SB_DFFNERS"]},
        "BRAM": {t: 1 for t in ["SB_RAM40_4K", "SB_RAM40_4KNR", "SB_RAM40_4KNW",
                                "SB_RAM40_4KNRNW"]},
        "DSP": {"SB_MAC16": 1},
    },
    "xilinx": {
        "LUT": {f"LUT{i}": 1 for i in range(1, 7)},
        "FF": {t: 1 for t in ["FDRE", "FDSE", "FDCE", "FDPE", "LDCE", "LDPE"]},
        "LUTRAM": {t: 1 for t in ["RAM16X1D", "RAM32X1D", "RAM64X1D", "RAM128X1D",
                                  "RAM256X1D", "RAM32M", "RAM64M", "RAM32M16", "RAM64M8",
                                  "RAM16X1S", "RAM32X1S", "RAM64X1S", "RAM128X1S",
                                  "RAM256X1S", "SRL16E", "SRLC32E"]},
        "BRAM36": {"RAMB36E2": 1, "RAMB18E2": 0.5},
        "URAM": {"URAM288": 1},
        "DSP": {"DSP48E2": 1},
    },
}

# Blocks of the core, by module name (base name, parameters stripped).
BLOCKS = [
    ("home agent", ["cni_home_agent"]),
    ("PIO engine (with Bloom accelerator)", ["cni_pio_engine"]),
    ("  of which Bloom accelerator", ["cni_bloom"]),
    ("CSR", ["cni_csr"]),
    ("link layer (4 rx + 3 tx channels)", ["cni_link_rx_ch", "cni_link_tx_ch"]),
    ("device line memory", ["cni_dpram"]),
    ("CNI engine (`CNI=` builds only)", ["cni_cq_engine"]),
]

CORE_PARAMS = ["LineBytes", "MemLines", "CPairs", "NOvfA", "NOvfB", "TtEntries", "TtReserve",
               "RxDepth", "TxCredits", "NumAgents", "BloomFoldWords", "Pipelined"]


def base_name(mod):
    mod = mod.lstrip("\\")
    if mod.startswith("$paramod"):
        parts = mod.split("\\")
        return parts[1] if len(parts) > 1 else mod
    return mod


def load_stat(path):
    data = json.loads(Path(path).read_text())
    mods = {}
    for name, m in data["modules"].items():
        mods[name.lstrip("\\")] = m.get("num_cells_by_type", {})
    return mods


def totals(mods, name, memo):
    """Primitive counts of module `name` including its submodules."""
    if name in memo:
        return memo[name]
    out = {}
    for typ, n in mods[name].items():
        sub = typ.lstrip("\\")
        if sub in mods:
            for t, k in totals(mods, sub, memo).items():
                out[t] = out.get(t, 0) + n * k
        else:
            out[typ] = out.get(typ, 0) + n
    memo[name] = out
    return out


def resources(target, cells):
    res = {}
    for col, types in RESOURCES[target].items():
        v = sum(cells.get(t, 0) * w for t, w in types.items())
        res[col] = int(v) if float(v).is_integer() else v
    return res


def find_core(mods):
    cores = [m for m in mods if base_name(m) == "cni_endpoint"]
    if len(cores) != 1:
        raise SystemExit(f"fpga-report: expected one cni_endpoint module, found {cores}")
    return cores[0]


def core_params(src_top):
    """The cni_fpga_shell parameters set in the board top."""
    text = Path(src_top).read_text()
    m = re.search(r"cni_fpga_shell\s*#\((.*?)\)\s*u_shell", text, re.S)
    params = {}
    if m:
        for k, v in re.findall(r"\.(\w+)\s*\(\s*([^)]+?)\s*\)", m.group(1)):
            if k in CORE_PARAMS:
                params[k] = v
    return params


def rtl_sources(netlist):
    """Cell name -> the project RTL lines it came from (Yosys 'src' attributes of the placed
    netlist, technology-library entries dropped), for naming the ends of the critical path."""
    if not netlist.exists():
        return {}
    src = {}
    for mod in json.loads(netlist.read_text()).get("modules", {}).values():
        for name, cell in mod.get("cells", {}).items():
            ours = [x for x in cell.get("attributes", {}).get("src", "").split("|")
                    if x.startswith(("src/rtl/", "src/fpga/"))]
            if ours:
                src[name] = ", ".join(sorted({re.sub(r"^src/|\.\d+-\d+\.\d+$", "", x)
                                              for x in ours}))
    return src


CORE_PREFIX = "u_shell.u_core."
# The core's engine complex: its engines are reported on their own (u_pio, not u_engines).
ENGINE_COMPLEX = "u_engines"


def core_instance(cell):
    """The core instance a cell belongs to: the first level below the core, or below the engine
    complex and generate scopes (g_*) for a cell inside an instance there; "" for a cell of the
    board shell or of the core itself."""
    if not cell.startswith(CORE_PREFIX):
        return ""
    parts = cell[len(CORE_PREFIX):].split(".")
    i = 0
    while i + 2 < len(parts) and (parts[i] == ENGINE_COMPLEX or parts[i].startswith("g_")):
        i += 1
    return parts[i] if i + 1 < len(parts) else ""


def arrivals(report):
    """Latest routed arrival (ns after the launching clock edge, before the sink's setup time)
    at the cells of each core instance (core_instance), and at the board shell's, from nextpnr's
    detailed net timings: where, besides the one critical path, the clock period is used up.
    Largest first."""
    worst = {}
    for net in report.get("detailed_net_timings", []):
        for e in net.get("endpoints", []):
            d = e.get("delay", 0.0)
            d = max(d) if isinstance(d, list) else d
            key = core_instance(e.get("cell", "")) or "(board shell)"
            worst[key] = max(worst.get(key, 0.0), d)
    return {k: round(v, 2) for k, v in sorted(worst.items(), key=lambda kv: -kv[1])}


def critical_path(report, src=None):
    src = src or {}
    paths = report.get("critical_paths", [])
    if not paths:
        return None
    p = max(paths, key=lambda q: sum(s.get("delay", 0) for s in q.get("path", [])))
    steps = p.get("path", [])
    total = sum(s.get("delay", 0) for s in steps)
    logic = [s for s in steps if s.get("type") == "logic"]
    routing = sum(s.get("delay", 0) for s in steps if s.get("type") == "routing")
    start = steps[0]["from"]["cell"] if steps else "?"
    end = steps[-1]["to"]["cell"] if steps else "?"
    cells = [s["to"]["cell"] for s in steps if s.get("type") in ("logic", "setup")]
    return {"from_clock": p.get("from"), "to_clock": p.get("to"), "delay_ns": round(total, 2),
            "routing_ns": round(routing, 2), "logic_levels": len(logic), "start": start,
            "end": end, "start_src": src.get(start), "end_src": src.get(end),
            "through": cells[:40]}


NEXTPNR_FMAX = re.compile(r"Max frequency for clock '([^']+)': ([\d.]+) MHz \((?:PASS|FAIL) "
                          r"at ([\d.]+) MHz\)")


def log_fmax(text):
    """{clock: (achieved, target MHz)} from nextpnr's log: its last Fmax line of each clock (the
    routed one after the placement estimate; the estimate of a --no-route run)."""
    return {c: (float(a), float(t)) for c, a, t in NEXTPNR_FMAX.findall(text)}


def pick_seed(d, seeds):
    """The fastest of the place-and-route runs of `seeds` in directory d (each logged to
    pnr-seed<N>.log): nextpnr's last Fmax line of each log (the routed one, or the placement
    estimate of a --no-route run), the lowest over clocks. Writes seeds.json ({seed: MHz or
    null for a run that failed}) and returns the best seed, or None if every run failed."""
    d = Path(d)
    res = {}
    for s in seeds:
        log = d / f"pnr-seed{s}.log"
        ok = (d / f"pnr-seed{s}.ok").exists()
        last = log_fmax(log.read_text()) if ok and log.exists() else {}
        res[str(s)] = round(min(a for a, _ in last.values()), 2) if last else None
    (d / "seeds.json").write_text(json.dumps(res) + "\n")
    done = [(v, int(k)) for k, v in res.items() if v is not None]
    return max(done)[1] if done else None


def seeds_text(s):
    """'seed 2 (the fastest of seeds 1, 2: 96.8, 101.1 MHz)' from a summary."""
    seeds = s.get("seeds") or {}
    if len(seeds) < 2:
        return f"seed {s['seed']}"
    mhz = ", ".join("failed" if v is None else f"{v:.1f}" for v in seeds.values())
    return f"seed {s['seed']} (the fastest of seeds {', '.join(seeds)}: {mhz} MHz)"


def summarize(d):
    d = Path(d)
    flow = json.loads((d / "flow.json").read_text())
    target = flow["target"]
    hier = load_stat(d / "stat-hier.json")
    # (xilinx: synthesis only, so no flattened run: the hierarchical totals are the design's)
    flat = load_stat(d / "stat-flat.json") if (d / "stat-flat.json").exists() else None
    memo = {}
    core = find_core(hier)
    blocks = []
    for label, names in BLOCKS:
        cells = {}
        inst = 0
        # instances of the block inside the core (or inside the PIO engine, for the Bloom unit)
        for mod in hier:
            if base_name(mod) in names:
                # how many times the module is instantiated anywhere below the core
                n = count_instances(hier, core, mod)
                inst += n
                for t, k in totals(hier, mod, memo).items():
                    cells[t] = cells.get(t, 0) + n * k
        blocks.append({"block": label, "instances": inst, "res": resources(target, cells)})
    top_flat = [m for m in flat if base_name(m) == "fpga"] if flat else []
    flat_cells = totals(flat, top_flat[0], {}) if top_flat else None
    top_hier = [m for m in hier if base_name(m) == "fpga"][0]
    summary = {
        "target": target, "device": DEVICE[target], "status": flow["status"],
        "board": flow["board"], "constraints": flow["constraints"], "command": flow["command"],
        "yosys": flow["yosys"], "synth_seconds": flow["synth_seconds"],
        "pnr_seconds": flow["pnr_seconds"], "seed": flow["seed"],
        "seeds": (json.loads((d / "seeds.json").read_text()) if (d / "seeds.json").exists()
                  else {}),
        "config": core_params(d / "src" / "fpga" / flow["board"] / "fpga.sv"),
        "core": resources(target, totals(hier, core, memo)),
        "design_hier": resources(target, totals(hier, top_hier, memo)),
        "design": resources(target, flat_cells) if flat_cells is not None else None,
        "blocks": blocks,
    }
    rep = d / "pnr-report.json"
    if rep.exists() and flow["status"] in ("ok", "placed"):
        r = json.loads(rep.read_text())
        summary["utilization"] = r.get("utilization", {})
        summary["critical_path"] = critical_path(r, rtl_sources(d / "fpga.json"))
        if flow["status"] == "ok":
            summary["arrivals"] = arrivals(r)
        if flow["status"] == "ok":
            summary["fmax"] = {k: {"achieved": round(v["achieved"], 2),
                                   "constraint": round(v["constraint"], 2)}
                               for k, v in r.get("fmax", {}).items()}
        else:
            # --no-route: the report has no timing; nextpnr logs its post-placement estimate
            summary["fmax"] = {c: {"achieved": a, "constraint": t}
                               for c, (a, t) in log_fmax((d / "pnr.log").read_text()).items()}
    it = d / "icetime.rpt"
    if it.exists():
        m = re.search(r"Total path delay:\s*([\d.]+)\s*ns\s*\(([\d.]+)\s*MHz\)", it.read_text())
        if m:
            summary["icetime"] = {"delay_ns": float(m.group(1)), "mhz": float(m.group(2))}
    log = d / "pnr.log"
    if flow["status"] == "does-not-fit" and log.exists():
        # the utilization lines nextpnr prints before it gives up, and its error
        summary["pnr_error"] = [l.strip() for l in log.read_text().splitlines()
                                if "ERROR" in l or re.search(r"ICESTORM_LC:|ICESTORM_RAM:|"
                                                             r"TRELLIS_COMB:", l)][-6:]
    (d / "summary.json").write_text(json.dumps(summary, indent=1) + "\n")
    return summary


def count_instances(mods, root, target_mod, memo=None):
    """Instances of target_mod in the hierarchy below root."""
    if memo is None:
        memo = {}
    key = (root, target_mod)
    if key in memo:
        return memo[key]
    n = 0
    for typ, k in mods[root].items():
        sub = typ.lstrip("\\")
        if sub == target_mod:
            n += k
        elif sub in mods:
            n += k * count_instances(mods, sub, target_mod, memo)
    memo[key] = n
    return n


def fmt(v):
    return f"{v:,}" if isinstance(v, int) else f"{v:,.1f}"


def table(target, s):
    cols = list(RESOURCES[target].keys())
    lines = ["| block | " + " | ".join(cols) + " |", "|---|" + "---:|" * len(cols)]
    for b in s["blocks"]:
        if b["instances"] == 0:
            continue   # a block this configuration leaves out
        name = b["block"] + (f" (×{b['instances']})" if b["instances"] > 1 and "link" not in
                             b["block"] else "")
        lines.append(f"| {name} | " + " | ".join(fmt(b["res"][c]) for c in cols) + " |")
    lines.append("| **whole core** (`cni_endpoint`) | " +
                 " | ".join(fmt(s["core"][c]) for c in cols) + " |")
    lines.append("| board shell (exerciser, serial bridge, UART, reset) | " +
                 " | ".join(fmt(s["design_hier"][c] - s["core"][c]) for c in cols) + " |")
    if s["design"] is not None:
        lines.append("| **whole design, flattened** (what is placed) | " +
                     " | ".join(fmt(s["design"][c]) for c in cols) + " |")
    return lines


def fmax_line(s):
    if s["status"] == "synth-only":
        return "not available: no open place-and-route for UltraScale+"
    if s["status"] == "does-not-fit":
        return "not available: the design does not fit the device (see below)"
    if "fmax" not in s:
        return "not available: place-and-route failed"
    parts = []
    est = (" estimated from the placement (not routed: `--no-route`; routing adds delay)"
           if s["status"] == "placed" else "")
    for clk, v in s["fmax"].items():
        ok = "meets" if v["achieved"] >= v["constraint"] else "misses"
        parts.append(f"**{v['achieved']:.1f} MHz** on `{clk}`{est} (target "
                     f"{v['constraint']:.0f} MHz: {ok})")
    if "icetime" in s:
        parts.append(f"icetime: {s['icetime']['mhz']:.1f} MHz")
    return "; ".join(parts)


def render(build):
    out = []
    for t in TARGETS:
        f = Path(build) / "fpga" / t / "summary.json"
        out.append(f"### {DEVICE[t]}")
        out.append("")
        if not f.exists():
            out.append(f"No results: run `make fpga-{t}`.")
            out.append("")
            continue
        s = json.loads(f.read_text())
        cfg = ", ".join(f"{k} {v}" for k, v in s["config"].items())
        pnr = ("" if s["status"] == "synth-only" else
               f", {'placement' if s['status'] == 'placed' else 'place-and-route'} "
               f"{s['pnr_seconds']} s, {seeds_text(s)}")
        out.append(f"Command: `{s['command']}` ({s['yosys']}, board top "
                   f"`fpga/{s['board']}/fpga.sv`, constraints `{s['constraints']}`; synthesis "
                   f"{s['synth_seconds']} s{pnr}).")
        out.append("")
        out.append(f"Core configuration: {cfg}.")
        out.append("")
        out.append(f"Achieved Fmax: {fmax_line(s)}.")
        out.append("")
        out += table(t, s)
        out.append("")
        cp = s.get("critical_path")
        if cp:
            def at(k):
                # Synthesis names of merged cells can run to hundreds of characters.
                name = cp[k] if len(cp[k]) <= 60 else cp[k][:57] + "…"
                return f"`{name}`" + (f" ({cp[k + '_src']})" if cp.get(k + "_src") else "")
            out.append(f"Critical path: {cp['delay_ns']} ns ({cp['logic_levels']} logic levels, "
                       f"{cp['routing_ns']} ns of it routing) from {at('start')} to "
                       f"{at('end')}.")
            out.append("")
        arr = s.get("arrivals")
        if arr:
            out.append("Latest routed arrival at each core instance's cells (ns after the clock "
                       "edge, before setup; the period must cover it): " +
                       ", ".join(f"`{k}` {v:.2f}" for k, v in arr.items()) + ".")
            out.append("")
        cap = CAPACITY.get(t)
        if cap:
            out.append(f"Share of the {cap['name']} taken by the whole core: " + ", ".join(
                f"{k} {100.0 * s['core'][k] / v:.1f} % of {v:,}" for k, v in cap["res"].items())
                + " (device figures from the vendor's product table).")
            out.append("")
        util = s.get("utilization")
        if util:
            keys = [k for k in util if util[k].get("used", 0) > 0]
            out.append("Device utilization (nextpnr): " + ", ".join(
                f"{k} {util[k]['used']:,}/{util[k]['available']:,}" for k in keys) + ".")
            out.append("")
        if s.get("pnr_error"):
            out.append("Place-and-route stopped with:")
            out.append("")
            out.append("```")
            out += s["pnr_error"]
            out.append("```")
            out.append("")
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--summarize", metavar="DIR")
    ap.add_argument("--pick-seed", nargs="+", metavar=("DIR", "SEED"),
                    help="print the fastest seed of DIR's pnr-seed<N>.log runs")
    ap.add_argument("--build", default="build")
    ap.add_argument("--doc", default="docs/fpga.md")
    a = ap.parse_args()
    if a.pick_seed:
        best = pick_seed(a.pick_seed[0], a.pick_seed[1:])
        if best is None:
            print("fpga-report: every place-and-route run failed", file=sys.stderr)
            return 1
        print(best)
        return 0
    if a.summarize:
        summarize(a.summarize)
        return 0
    doc = Path(a.doc)
    text = doc.read_text()
    begin, end = "<!-- fpga-report:begin -->", "<!-- fpga-report:end -->"
    if begin not in text or end not in text:
        print(f"fpga-report: {doc} has no {begin} ... {end} section", file=sys.stderr)
        return 1
    head, rest = text.split(begin, 1)
    _, tail = rest.split(end, 1)
    body = "\n".join(["", "<!-- generated by scripts/fpga-report.py; do not edit by hand -->",
                      ""] + render(a.build))
    doc.write_text(head + begin + body + "\n" + end + tail)
    print(f"fpga-report: wrote {doc}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
