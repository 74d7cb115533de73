#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""scripts/synth-check.sh --check-log, the rule the synthesis gate and the netlist build apply to
a Yosys log: a warning outside the allow-list fails it, whether the line starts with "Warning:"
or with the source location Yosys puts before it; a warning on the allow-list passes."""
import pathlib
import subprocess
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def check(text):
    with tempfile.TemporaryDirectory() as d:
        log = pathlib.Path(d) / "yosys.log"
        log.write_text(text)
        return subprocess.run([str(ROOT / "scripts/synth-check.sh"), "--check-log", str(log), "probe"],
                              cwd=ROOT, capture_output=True, text=True)


class CheckLog(unittest.TestCase):
    def test_a_warning_outside_the_list_fails(self):
        r = check("1. Executing pass.\nWarning: Wire top.x is used but has no driver.\n")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("Wire top.x is used but has no driver", r.stdout)

    def test_a_warning_after_a_source_location_fails(self):
        r = check("rtl/top/cni_x.sv:12: Warning: Range select out of bounds on signal `\\y'.\n")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("rtl/top/cni_x.sv:12", r.stdout)

    def test_a_warning_on_the_list_passes(self):
        r = check("rtl/top/cni_engine_bus.sv:97: Warning: Range select out of bounds on signal "
                  "`\\owner_of_region$func$rtl/top/cni_engine_bus.sv:127$1.$result': Setting "
                  "result bit to undef.\n"
                  "Warning: Replacing memory \\cnt_q with list of registers. See "
                  "rtl/coh/cni_csr.sv:140\n")
        self.assertEqual(r.returncode, 0, r.stdout + r.stderr)


if __name__ == "__main__":
    unittest.main()
