#!/usr/bin/env python3
"""scripts/fpga-report.py: the per-instance routed arrivals, from a hand-made nextpnr report."""
import importlib.util
import os
import unittest

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

    def test_core_port_cells_count_as_the_shell(self):
        # a cell named after the core itself (no instance below it) is not an instance's
        report = {"detailed_net_timings": [net(("u_shell.u_core", 5.0), ("u_shell.x", 1.0))]}
        self.assertEqual(fr.arrivals(report), {"(board shell)": 5.0})

    def test_no_detailed_timings(self):
        self.assertEqual(fr.arrivals({}), {})


if __name__ == "__main__":
    unittest.main(verbosity=2)
