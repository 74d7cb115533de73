#!/usr/bin/env python3
"""Estimate register-to-register paths of a synthesized ECP5 netlist, before place and route.

    scripts/fpga-paths.py NETLIST.json [--over NS] [--top N] [--json OUT] [--routed REPORT.json]

NETLIST.json is the flat `synth_ecp5 -json` netlist (`build/fpga/ecp5/fpga.json`). Every path
starts at a flip-flop or a block RAM output and ends at a flip-flop input (data, clock enable,
set/reset), a block RAM input or a LUT RAM write input. Its delay is the sum of the cell
delays below plus one fixed routing delay per net, so it ranks paths and counts logic levels
in seconds instead of a place-and-route's half hour. It does not replace the routed figure:
nets with a large fan-out or far ends route much slower than the nominal delay (docs/fpga.md,
"Path estimate before place and route", compares the two). The cell delays are those that
nextpnr-ecp5 reports for the LFE5U-85F, speed grade 6 (the ULX3S part), in this project's
routed timing reports:

    flip-flop clock to output 0.52 ns, DP16KD clock to output 5.61 ns (no output register),
    LUT4 0.24, PFUMX / L6MUX21 0.20 (from a LUT of the same slice: no routing), CCU2C input to
    carry out 0.45, carry in to carry out 0.07 (no routing), carry in to sum 0.44,
    TRELLIS_DPR16X4 read 0.60; routing 0.85 per net (the mean over the critical path of the
    first routed pipelined build); setup 0.1 (data), 0.2 (clock enable), 0.3 (set/reset and
    RAM inputs).

Paths are grouped by the source line of their end point (the `always_ff` that the flip-flop
came from); each group shows its longest path's estimate, start, levels and named nets.

With --routed, the end points are ranked by their routed arrival instead: nextpnr's detailed net
timings (`--report --detailed-timing-report`) give the arrival at every flip-flop and RAM input
of the placed and routed netlist, not only along the one critical path it prints. Each group
shows its latest routed arrival (before the sink's setup time) and, for its latest end point,
the estimated path's start and levels, which say what logic the routed time runs through.
"""
import argparse
import collections
import json
import sys

ROUTE = 0.85
CLK_Q = {"TRELLIS_FF": 0.52, "DP16KD": 5.61}
SOURCES = ("TRELLIS_IO", "EHXPLLL", "$scopeinfo")   # outputs timed from 0 (inputs, clocks)
LOGIC = {"LUT4": 0.24, "PFUMX": 0.20, "L6MUX21": 0.20}
MUX_LOCAL = {"ALUT", "BLUT", "D0", "D1"}             # wide-mux inputs fed inside the slice
CCU2C_DATA = ("A0", "B0", "C0", "D0", "A1", "B1", "C1", "D1")
ENDS = {"TRELLIS_FF": (("DI", 0.1), ("CE", 0.2), ("LSR", 0.3)),
        "TRELLIS_DPR16X4": (("DI", 0.3), ("WAD", 0.3), ("WRE", 0.3))}


class Netlist:
    def __init__(self, doc):
        mods = doc["modules"]
        tops = [m for m in mods.values() if m.get("attributes", {}).get("top")]
        if len(tops) != 1:
            raise ValueError("expected one top module in the netlist, found %d" % len(tops))
        top = tops[0]
        self.cells = top["cells"]
        self.name = {}
        for net, v in top.get("netnames", {}).items():
            hidden = v.get("hide_name", 0)
            for i, b in enumerate(v["bits"]):
                if not isinstance(b, int):
                    continue
                label = net + ("[%d]" % i if len(v["bits"]) > 1 else "")
                if b not in self.name or (not hidden and self.name[b][1]):
                    self.name[b] = (label, hidden)
        self.driver = {}
        for cn, c in self.cells.items():
            for port, d in c.get("port_directions", {}).items():
                if d == "output":
                    for b in c["connections"].get(port, []):
                        if isinstance(b, int):
                            self.driver[b] = (cn, port)
        self.arrival = {}
        self.pred = {}

    def inputs(self, cell, port):
        """(bit, delay from that bit to `port`) for every input the output `port` depends on."""
        c = self.cells[cell]
        t = c["type"]
        conn = c["connections"]
        if t == "CCU2C":
            if port == "COUT":
                arcs = [("CIN", 0.07, 0.0)] + [(q, 0.45, ROUTE) for q in CCU2C_DATA]
            elif port == "S0":
                arcs = [("CIN", 0.44, 0.0)] + [(q, 0.45, ROUTE) for q in CCU2C_DATA[:4]]
            else:
                arcs = [("CIN", 0.44, 0.0)] + [(q, 0.50, ROUTE) for q in CCU2C_DATA]
            return [(b, d + r) for q, d, r in arcs for b in conn.get(q, [])]
        if t == "TRELLIS_DPR16X4":
            return [(b, 0.60 + ROUTE) for b in conn.get("RAD", [])]
        d = LOGIC.get(t, 0.30)
        out = []
        for q, direction in c["port_directions"].items():
            if direction != "input":
                continue
            r = 0.05 if t in ("PFUMX", "L6MUX21") and q in MUX_LOCAL else ROUTE
            out += [(b, d + r) for b in conn.get(q, [])]
        return out

    def arrive(self, bit):
        """Latest arrival time at `bit` (iterative depth-first walk; loops count as 0)."""
        if not isinstance(bit, int):
            return 0.0
        stack = [bit]
        while stack:
            b = stack[-1]
            if b in self.arrival and self.arrival[b] is not None:
                stack.pop()
                continue
            cell, port = self.driver.get(b, (None, None))
            if cell is None:
                self.arrival[b] = 0.0
                self.pred[b] = None
                stack.pop()
                continue
            t = self.cells[cell]["type"]
            if t in CLK_Q or t in SOURCES:
                self.arrival[b] = CLK_Q.get(t, 0.0)
                self.pred[b] = None
                stack.pop()
                continue
            ins = self.inputs(cell, port)
            if b not in self.arrival:
                self.arrival[b] = None   # on the stack: a loop back to it counts as 0
                todo = [i for i, _ in ins
                        if isinstance(i, int) and i not in self.arrival]
                if todo:
                    stack.extend(todo)
                    continue
            best, via = 0.0, None
            for i, d in ins:
                a = self.arrival.get(i) if isinstance(i, int) else 0.0
                a = (a or 0.0) + d
                if a > best:
                    best, via = a, i
            self.arrival[b] = best
            self.pred[b] = via
            stack.pop()
        return self.arrival[bit]

    def path(self, bit):
        """(arrival, cell type, net name, cell) along the longest path into `bit`, end first."""
        out, seen = [], set()
        while isinstance(bit, int) and bit in self.driver and bit not in seen:
            seen.add(bit)
            cell, _ = self.driver[bit]
            out.append((self.arrival.get(bit) or 0.0, self.cells[cell]["type"],
                        self.name.get(bit, ("$%d" % bit, 1))[0], self.cells[cell]))
            bit = self.pred.get(bit)
        return out

    def endpoints(self):
        for cn, c in self.cells.items():
            t = c["type"]
            if t == "DP16KD":
                ports = [(p, 0.3) for p, d in c["port_directions"].items() if d == "input"
                         and not p.startswith("CLK")]
            else:
                ports = ENDS.get(t, ())
            for p, setup in ports:
                for b in c["connections"].get(p, []):
                    if isinstance(b, int):
                        yield self.arrive(b) + ROUTE + setup, cn, p, b


def src_of(cell):
    return cell.get("attributes", {}).get("src", "").split("|")[0] or "(no source)"


def end_of(nl, name, cell):
    """Where a path ends: the RAM (block or LUT RAM, named after the memory), or the source line
    of the flip-flop's `always_ff` (its output net if Yosys kept only its own library's)."""
    if cell["type"] in ("DP16KD", "TRELLIS_DPR16X4"):
        return "RAM " + name.rsplit(".", 2)[0]
    s = src_of(cell)
    if s.startswith("/"):
        q = cell["connections"].get("Q", [None])[0]
        return "FF " + nl.name.get(q, (name, 1))[0]
    return s


def group_ends(nl, ends, over, named=True):
    """Groups end points (ns, cell, port, bit), latest first, by where they end (end_of; a
    cell the netlist lacks is a LUT RAM's write port that nextpnr split off, counted under its
    memory) down to `over` ns; each group describes the longest path into its latest end point:
    start, logic levels and, if `named`, the nets the RTL named along it."""
    groups = collections.OrderedDict()
    for ns, cn, port, bit in ends:
        if ns < over:
            break
        cell = nl.cells.get(cn)
        key = (end_of(nl, cn, cell) if cell is not None
               else "RAM " + cn.split("$")[0].rsplit(".", 2)[0])
        if key not in groups:
            nl.arrive(bit)
            p = nl.path(bit)
            # nets the RTL named (Yosys names the others after the cells they connect)
            nets = [n for _, _, n, _ in p[1:] if not n.startswith("$") and
                    not any(k in n for k in ("LUT4", "TRELLIS", "CCU2C", "PFUMX", "L6MUX"))]
            start = p[-1] if p else (0.0, "", "", {})
            groups[key] = {"ns": round(ns, 2), "end": key, "port": port, "count": 0,
                           "levels": sum(1 for _, t, _, _ in p if t not in CLK_Q),
                           "start_type": start[1],
                           "start": src_of(start[3]) if start[1] in CLK_Q else start[2],
                           "named": nets[:4] if named else []}
        groups[key]["count"] += 1
    hist = collections.Counter(int(ns) for ns, *_ in ends)
    return {"endpoints": len(ends), "max_ns": round(ends[0][0], 2) if ends else 0.0,
            "histogram": {str(k): hist[k] for k in sorted(hist)},
            "groups": list(groups.values())}


def analyse(doc, over):
    nl = Netlist(doc)
    return group_ends(nl, sorted(nl.endpoints(), key=lambda e: -e[0]), over)


def routed(doc, report, over):
    """End points ranked by their routed arrival from nextpnr's detailed net timings, grouped
    like analyse()."""
    nl = Netlist(doc)
    arr = {}
    for net in report.get("detailed_net_timings", []):
        for e in net.get("endpoints", []):
            d = e.get("delay", 0.0)
            d = max(d) if isinstance(d, list) else d
            port = "DI" if e.get("port") == "M" else e.get("port", "")
            key = (e.get("cell", ""), port)
            arr[key] = max(arr.get(key, 0.0), d)
    ends = []
    for (cn, port), ns in arr.items():
        bits = nl.cells[cn]["connections"].get(port, []) if cn in nl.cells else []
        ends.append((ns, cn, port, bits[0] if bits else None))
    return group_ends(nl, sorted(ends, key=lambda e: -e[0]), over, named=False)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("netlist")
    ap.add_argument("--over", type=float, default=9.0, help="list end points above NS ns")
    ap.add_argument("--top", type=int, default=15, help="groups to print")
    ap.add_argument("--json", help="write the whole result here")
    ap.add_argument("--routed", metavar="REPORT",
                    help="rank by routed arrival from this nextpnr report (--detailed-timing-report)")
    a = ap.parse_args()
    try:
        with open(a.netlist) as f:
            doc = json.load(f)
        if a.routed:
            with open(a.routed) as f:
                r = routed(doc, json.load(f), a.over)
        else:
            r = analyse(doc, a.over)
    except (OSError, ValueError, KeyError) as e:
        print("fpga-paths: %s: %s" % (a.routed or a.netlist, e), file=sys.stderr)
        return 2
    if a.json:
        with open(a.json, "w") as f:
            json.dump(r, f, indent=1)
    if a.routed:
        print("latest routed arrival %.2f ns over %d end points (before setup; nextpnr)" %
              (r["max_ns"], r["endpoints"]))
    else:
        mhz = 1000.0 / r["max_ns"] if r["max_ns"] else 0.0
        print("estimated longest path %.2f ns (%.0f MHz) over %d end points" %
              (r["max_ns"], mhz, r["endpoints"]))
    print("end points per ns: " + " ".join("%s:%d" % kv for kv in r["histogram"].items()))
    est = " (estimated path)" if a.routed else ""
    for g in r["groups"][:a.top]:
        print("%6.2f ns %3d levels%s %5d end points  %s (%s)" %
              (g["ns"], g["levels"], est, g["count"], g["end"], g["port"]))
        print("          from %s %s" % (g["start_type"], g["start"]))
        for n in g["named"]:
            print("          via %s" % n)
    return 0


if __name__ == "__main__":
    sys.exit(main())
