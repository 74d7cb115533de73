#!/usr/bin/env python3
"""scripts/fpga-report.py: the per-instance routed arrivals, from a hand-made nextpnr report, and
the choice among place-and-route seeds."""
import importlib.util
import json
import os
import tempfile
import unittest
from pathlib import Path

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPT = os.path.join(ROOT, "scripts", "fpga-report.py")
spec = importlib.util.spec_from_file_location("fpga_report", SCRIPT)
fr = importlib.util.module_from_spec(spec)
spec.loader.exec_module(fr)


def net(*endpoints):
    return {"net": "n", "endpoints": [{"cell": c, "delay": d, "port": "A"} for c, d in endpoints]}


class Arrivals(unittest.TestCase):
    def test_latest_per_instance_largest_first(self):
        report = {"detailed_net_timings": [
            net(("u_shell.u_core.u_home.dec_q_FF", [4.0, 4.5]),
                ("u_shell.u_core.u_mem.mem_q.0.17", [9.0, 12.25])),
            net(("u_shell.u_core.u_home.x_LUT4", 7.5)),
            net(("led_TRELLIS_FF_Q_4", [1.0, 2.0]), ("u_shell.u_core.u_pio.u_fifo.q", 3.0)),
        ]}
        self.assertEqual(list(fr.arrivals(report).items()),
                         [("u_mem", 12.25), ("u_home", 7.5), ("u_pio", 3.0),
                          ("(board shell)", 2.0)])

    def test_engines_inside_the_engine_complex_count_on_their_own(self):
        report = {"detailed_net_timings": [
            net(("u_shell.u_core.u_engines.g_eng[0].g_pio.u_pio.bin_q", 9.5),
                ("u_shell.u_core.u_engines.u_bus.cmd_q", 4.0),
                ("u_shell.u_core.u_engines.idle_LUT4", 3.5),
                ("u_shell.u_core.u_engines.g_eng[1].g_scratch.u_scratch.x", 2.5)),
        ]}
        self.assertEqual(list(fr.arrivals(report).items()),
                         [("u_pio", 9.5), ("u_bus", 4.0), ("u_engines", 3.5),
                          ("u_scratch", 2.5)])

    def test_core_port_cells_count_as_the_shell(self):
        # a cell named after the core itself (no instance below it) is not an instance's
        report = {"detailed_net_timings": [net(("u_shell.u_core", 5.0), ("u_shell.x", 1.0))]}
        self.assertEqual(fr.arrivals(report), {"(board shell)": 5.0})

    def test_no_detailed_timings(self):
        self.assertEqual(fr.arrivals({}), {})


class Seeds(unittest.TestCase):
    LOG = ("Info: Max frequency for clock '$glbnet$clk': {0} MHz (PASS at 25.00 MHz)\n"
           "Info: routing...\n"
           "Info: Max frequency for clock '$glbnet$clk': {1} MHz (PASS at 25.00 MHz)\n")

    def run_seeds(self, logs):
        with tempfile.TemporaryDirectory() as d:
            for seed, (text, ok) in logs.items():
                (Path(d) / f"pnr-seed{seed}.log").write_text(text)
                if ok:
                    (Path(d) / f"pnr-seed{seed}.ok").write_text("")
            best = fr.pick_seed(d, list(logs))
            return best, json.loads((Path(d) / "seeds.json").read_text())

    def test_fastest_routed_run_wins(self):
        best, res = self.run_seeds({1: (self.LOG.format(60.1, 96.81), True),
                                    2: (self.LOG.format(75.0, 101.114), True),
                                    3: (self.LOG.format(80.0, 99.0), True)})
        self.assertEqual(best, 2)   # the routed (last) figure counts, not the placement's
        self.assertEqual(res, {"1": 96.81, "2": 101.11, "3": 99.0})

    def test_failed_run_is_recorded_and_skipped(self):
        best, res = self.run_seeds({1: (self.LOG.format(60.0, 150.0), False),
                                    2: (self.LOG.format(70.0, 90.0), True)})
        self.assertEqual(best, 2)
        self.assertEqual(res, {"1": None, "2": 90.0})
        self.assertEqual(self.run_seeds({4: ("ERROR: no route\n", True)})[0], None)

    def test_text(self):
        self.assertEqual(fr.seeds_text({"seed": 1, "seeds": {}}), "seed 1")
        self.assertEqual(fr.seeds_text({"seed": 1, "seeds": {"1": 96.8}}), "seed 1")
        self.assertEqual(fr.seeds_text({"seed": 2, "seeds": {"1": 96.81, "2": 101.11, "3": None}}),
                         "seed 2 (the fastest of seeds 1, 2, 3: 96.8, 101.1, failed MHz)")


if __name__ == "__main__":
    unittest.main(verbosity=2)
