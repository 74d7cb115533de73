#!/usr/bin/env python3
"""scripts/fpga-paths.py on small hand-made ECP5 netlists whose path delays are known."""
import importlib.util
import json
import os
import subprocess
import sys
import tempfile
import unittest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "fpga-paths.py")
spec = importlib.util.spec_from_file_location("fpga_paths", SCRIPT)
fp = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fp)

R = fp.ROUTE


class Net:
    """A top module built cell by cell; nets are integers."""

    def __init__(self):
        self.cells, self.names, self.next = {}, {}, 10

    def bit(self, name=None):
        self.next += 1
        if name:
            self.names[name] = {"hide_name": 0, "bits": [self.next]}
        return self.next

    def cell(self, name, typ, ins, outs, src=""):
        dirs = {p: "input" for p in ins}
        dirs.update({p: "output" for p in outs})
        conn = {p: [b] for p, b in list(ins.items()) + list(outs.items())}
        self.cells[name] = {"type": typ, "port_directions": dirs, "connections": conn,
                            "attributes": {"src": src} if src else {}}

    def ff(self, name, d, src):
        q = self.bit(name + "_q")
        self.cell(name, "TRELLIS_FF", {"DI": d, "CLK": "0"}, {"Q": q}, src)
        return q

    def lut(self, name, *ins):
        z = self.bit()
        self.cell(name, "LUT4", dict(zip("ABCD", ins)), {"Z": z})
        return z

    def doc(self):
        return {"modules": {"top": {"attributes": {"top": 1}, "cells": self.cells,
                                    "netnames": self.names}}}


class PathEstimate(unittest.TestCase):
    def test_two_luts_between_flip_flops(self):
        n = Net()
        a = n.ff("a", "0", "x.sv:1")
        b = n.ff("b", "0", "x.sv:2")
        z = n.lut("l2", n.lut("l1", a, b), a)
        n.ff("c", z, "x.sv:3")
        r = fp.analyse(n.doc(), 0.0)
        self.assertAlmostEqual(r["max_ns"], round(0.52 + 2 * (0.24 + R) + R + 0.1, 2))
        top = r["groups"][0]
        self.assertEqual(top["end"], "x.sv:3")
        self.assertEqual(top["levels"], 2)
        self.assertEqual(top["start"], "x.sv:1")   # the start flip-flop's source line

    def test_block_ram_output_is_slow(self):
        n = Net()
        do = n.bit()
        n.cell("m.mem_q.0.0", "DP16KD", {"CLKA": "0"}, {"DOA0": do})
        n.ff("c", n.lut("l", do), "x.sv:9")
        r = fp.analyse(n.doc(), 0.0)
        self.assertAlmostEqual(r["max_ns"], round(5.61 + 0.24 + R + R + 0.1, 2))
        self.assertEqual(r["groups"][0]["start_type"], "DP16KD")

    def test_carry_chain_has_no_routing_between_cells(self):
        n = Net()
        a = n.ff("a", "0", "x.sv:1")
        c0 = n.bit()
        n.cell("cc0", "CCU2C", {"A0": a}, {"COUT": c0})
        s = n.bit()
        n.cell("cc1", "CCU2C", {"CIN": c0}, {"S0": s})
        n.ff("c", s, "x.sv:3")
        r = fp.analyse(n.doc(), 0.0)
        self.assertAlmostEqual(r["max_ns"], round(0.52 + (R + 0.45) + 0.44 + R + 0.1, 2))

    def test_ram_end_points_are_named_after_the_memory(self):
        n = Net()
        a = n.ff("a", "0", "x.sv:1")
        n.cell("u.fifo.mem_q.0.1", "TRELLIS_DPR16X4", {"WRE": n.lut("l", a)}, {})
        r = fp.analyse(n.doc(), 0.0)
        self.assertEqual(r["groups"][0]["end"], "RAM u.fifo.mem_q")

    def test_groups_by_end_line_longest_first(self):
        n = Net()
        a = n.ff("a", "0", "x.sv:1")
        n.ff("short", a, "y.sv:5")
        n.ff("long1", n.lut("l1", n.lut("l0", a)), "y.sv:7")
        n.ff("long2", n.lut("l2", a), "y.sv:7")
        r = fp.analyse(n.doc(), 0.0)
        ends = [(g["end"], g["count"]) for g in r["groups"]]
        self.assertEqual(ends[0], ("y.sv:7", 2))
        self.assertIn(("y.sv:5", 1), ends)
        # only end points at or above the threshold are listed
        self.assertEqual([g["end"] for g in fp.analyse(n.doc(), 2.5)["groups"]], ["y.sv:7"])

    def test_combinational_loop_terminates(self):
        n = Net()
        a = n.ff("a", "0", "x.sv:1")
        x = n.bit()
        y = n.lut("l1", a, x)
        n.cells["l2"] = {"type": "LUT4", "port_directions": {"A": "input", "Z": "output"},
                         "connections": {"A": [y], "Z": [x]}, "attributes": {}}
        n.ff("c", y, "x.sv:3")
        r = fp.analyse(n.doc(), 0.0)
        self.assertGreater(r["max_ns"], 0.52)

    def test_routed_ranks_end_points_by_nextpnr_arrival(self):
        n = Net()
        a = n.ff("a", "0", "x.sv:1")
        n.ff("deep", n.lut("l2", n.lut("l1", a)), "x.sv:2")   # deeper, but routed short
        n.ff("far", a, "x.sv:3")                              # no logic, routed far
        n.ff("far2", a, "x.sv:3")
        n.cell("u.fifo.mem_q.0.1", "TRELLIS_DPR16X4", {"WRE": a}, {})
        report = {"detailed_net_timings": [
            {"net": "n1", "endpoints": [
                {"cell": "deep", "port": "M", "delay": [2.0, 2.5]},
                {"cell": "far", "port": "M", "delay": [6.0, 7.25]},
                {"cell": "far2", "port": "CE", "delay": 3.0},
                # nextpnr splits a LUT RAM into new cells: counted under the memory
                {"cell": "u.fifo.mem_q.0.1$DPRAM_COMB3", "port": "WD", "delay": 4.0}]}]}
        r = fp.routed(n.doc(), report, 0.0)
        self.assertEqual(r["max_ns"], 7.25)
        self.assertEqual(r["endpoints"], 4)
        ends = [(g["end"], g["ns"], g["count"]) for g in r["groups"]]
        self.assertEqual(ends[0], ("x.sv:3", 7.25, 2))
        self.assertIn(("RAM u.fifo.mem_q", 4.0, 1), ends)
        deep = [g for g in r["groups"] if g["end"] == "x.sv:2"][0]
        self.assertEqual((deep["ns"], deep["port"], deep["levels"], deep["start"]),
                         (2.5, "DI", 2, "x.sv:1"))   # the estimated path names its logic
        self.assertEqual([g["end"] for g in fp.routed(n.doc(), report, 5.0)["groups"]],
                         ["x.sv:3"])

    def test_command_line_and_errors(self):
        n = Net()
        n.ff("c", n.lut("l", n.ff("a", "0", "x.sv:1")), "x.sv:3")
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "n.json")
            with open(path, "w") as f:
                json.dump(n.doc(), f)
            out = subprocess.run([sys.executable, SCRIPT, path, "--over", "0",
                                  "--json", os.path.join(d, "r.json")],
                                 capture_output=True, text=True, check=True).stdout
            self.assertIn("estimated longest path", out)
            self.assertIn("x.sv:3", out)
            with open(os.path.join(d, "r.json")) as f:
                self.assertEqual(json.load(f)["groups"][0]["end"], "x.sv:3")
            rep = os.path.join(d, "pnr-report.json")
            with open(rep, "w") as f:
                json.dump({"detailed_net_timings": [{"net": "x", "endpoints": [
                    {"cell": "c", "port": "M", "delay": 3.5}]}]}, f)
            out = subprocess.run([sys.executable, SCRIPT, path, "--routed", rep, "--over", "0"],
                                 capture_output=True, text=True, check=True).stdout
            self.assertIn("latest routed arrival 3.50 ns over 1 end points", out)
            bad = subprocess.run([sys.executable, SCRIPT, path, "--routed",
                                  os.path.join(d, "none.json")], capture_output=True, text=True)
            self.assertEqual(bad.returncode, 2)
            bad = subprocess.run([sys.executable, SCRIPT, os.path.join(d, "none.json")],
                                 capture_output=True, text=True)
            self.assertEqual(bad.returncode, 2)
            self.assertIn("fpga-paths:", bad.stderr)


if __name__ == "__main__":
    unittest.main(verbosity=2)
