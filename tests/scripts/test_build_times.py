#!/usr/bin/env python3
"""scripts/build-times.py: the parts of a hand-made Ninja log, a step with several outputs
counted once, a step's latest run only, and a missing log refused."""
import os
import subprocess
import sys
import tempfile
import unittest
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent.parent
SCRIPT = ROOT / "scripts" / "build-times.py"

LOG = """# ninja log v5
0\t1000\t0\ttb/CMakeFiles/cni_rtl_fast.dir/CMakeFiles/cni_rtl_fast.dir/Vm.dir/a.cpp.o\th1
0\t8000\t0\ttb/CMakeFiles/cni_rtl_fast.dir/CMakeFiles/cni_rtl_fast.dir/Vm.dir/b.cpp.o\th2
100\t20100\t0\ttb/netlist/cni_rtl_netlist_pipe.v\th3
100\t20100\t0\ttb/netlist/cni_rtl_netlist_pipe.json\th3
0\t9000\t0\ttests/CMakeFiles/test_x.dir/x.cpp.o\th4
0\t3000\t0\ttests/CMakeFiles/test_x.dir/x.cpp.o\th5
0\t6000\t0\tbench/fast_profile.stamp\th6
"""


def run(build):
    return subprocess.run([sys.executable, str(SCRIPT), str(build)], capture_output=True,
                          text=True)


class BuildTimes(unittest.TestCase):
    def test_parts_of_a_log(self):
        with tempfile.TemporaryDirectory() as d:
            Path(d, ".ninja_log").write_text(LOG)
            r = run(d)
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertIn("(5 steps, 38 s of step time", r.stdout)
        rows = {l[:62].strip(): l[62:].split() for l in r.stdout.splitlines()[2:]}
        self.assertEqual(rows["gate netlists (Yosys)"], ["1", "20.0"])
        self.assertEqual(rows["cni_rtl_fast (models: compile)"], ["2", "9.0"])
        self.assertEqual(rows["profile feedback (instrumented model, training)"], ["1", "6.0"])
        self.assertNotIn("test programs", rows)  # its latest run, 3 s, is under 5 s
        self.assertEqual(rows["the other parts (under 5 s each)"], ["1", "3.0"])

    def test_no_log(self):
        with tempfile.TemporaryDirectory() as d:
            r = run(d)
        self.assertEqual(r.returncode, 1)
        self.assertIn("no ", r.stderr)


if __name__ == "__main__":
    unittest.main()
