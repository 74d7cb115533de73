#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""The engine registry's checks (scripts/gen-engines.py): an entry added by a second registry
file (as tests/plugin/ adds one) is refused, with a message naming what is wrong, when it breaks
a rule of docs/architecture.md ("The engine registry", "The engine contract"); a good entry is
taken."""
import pathlib
import re
import subprocess
import sys
import tempfile
import unittest

ROOT = pathlib.Path(__file__).resolve().parents[2]
GEN = ROOT / "scripts/gen-engines.py"
PROBE = (ROOT / "tests/plugin/engines.toml").read_text()


def run(entry):
    """gen-engines.py --list lint with the project's registry and `entry` as a second file."""
    with tempfile.TemporaryDirectory() as d:
        extra = pathlib.Path(d) / "extra.toml"
        extra.write_text(entry)
        return subprocess.run([sys.executable, str(GEN), "--registry", str(ROOT / "rtl/engines.toml"),
                               "--registry", str(extra), "--list", "lint"],
                              cwd=ROOT, capture_output=True, text=True)


class Registry(unittest.TestCase):
    def test_the_plugin_entry_is_taken(self):
        r = run(PROBE)
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_an_inst_that_sets_a_platform_parameter_is_refused(self):
        # LineBytes, LineIdxW, NetBytes and CacheIdW size the engine records: the generated
        # instance passes them to every engine, so an entry may not set them.
        for p in ("LineBytes", "LineIdxW", "NetBytes", "CacheIdW"):
            with self.subTest(parameter=p):
                r = run(PROBE.replace('inst = { Base', f'inst = {{ {p} = "{p}", Base'))
                self.assertNotEqual(r.returncode, 0)
                self.assertIn(f"inst sets {p}", r.stderr)

    def test_a_name_used_twice_is_refused(self):
        r = run(PROBE.replace('name = "probe"', 'name = "pio"', 1))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("'pio'", r.stderr)

    def test_a_base_of_another_engines_region_is_refused(self):
        r = run(PROBE.replace('Base = "base(probe)"', 'Base = "base(pio_c)"'))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("base(pio_c) names no region of its own", r.stderr)

    def test_a_signal_in_that_names_no_signal_out_is_refused(self):
        r = run(PROBE.replace('inst = { Base', 'signal_in = [{ name = "no_such", port = "x_i" }]\ninst = { Base'))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("signal_in 'no_such' names no engine's signal_out", r.stderr)

    def test_a_second_owner_of_the_dram_backed_lines_is_refused(self):
        # The engine bus routes every event on a DRAM-backed line to one engine (the tag store
        # owns them): a second owner is refused.
        r = run(PROBE.replace('inst = { Base', 'dram_lines = true\ninst = { Base'))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("only one engine may own the DRAM-backed lines", r.stderr)

    def test_engine_0_as_owner_of_the_dram_backed_lines_is_refused(self):
        # Engine 0 (PIO) is granted port B without looking; a DRAM-backed line's access may wait.
        reg = (ROOT / "rtl/engines.toml").read_text()
        reg = reg.replace('dram_lines = true\n', '').replace('name = "pio"\n', 'name = "pio"\ndram_lines = true\n', 1)
        with tempfile.TemporaryDirectory() as d:
            f = pathlib.Path(d) / "engines.toml"
            f.write_text(reg)
            r = subprocess.run([sys.executable, str(GEN), "--registry", str(f), "--list", "lint"],
                               cwd=ROOT, capture_output=True, text=True)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("engine 0 may not own the DRAM-backed lines", r.stderr)

    def test_a_signal_out_used_twice_is_refused(self):
        r = run(PROBE.replace('inst = { Base', 'signal_out = [{ name = "cni_rx", port = "x_o" }]\ninst = { Base'))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("signal 'cni_rx' bad, used twice", r.stderr)

    def test_another_engines_signal_is_taken(self):
        r = run(PROBE.replace('inst = { Base', 'signal_in = [{ name = "cni_rx", port = "rx_i" }]\ninst = { Base'))
        self.assertEqual(r.returncode, 0, r.stderr)

    def test_an_unknown_region_field_is_refused(self):
        r = run(PROBE.replace('lines = "ProbeLines",', 'lines = "ProbeLines", windowz = "2",'))
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("unknown field(s) ['windowz']", r.stderr)

    def test_an_aligned_region_starts_on_its_alignment_after_a_padding_region(self):
        # `align`: a padding region of plain memory before the region brings its first byte to a
        # multiple of the alignment: here in the full geometry the generator computes (FULL_LINES,
        # 128-byte lines); the endpoint's RegionLines is checked at elaboration (cni_nc_unit).
        entry = PROBE.replace('lines = "ProbeLines",', 'lines = "ProbeLines", align = "4096",')
        with tempfile.TemporaryDirectory() as d:
            extra = pathlib.Path(d) / "extra.toml"
            extra.write_text(entry)
            r = subprocess.run([sys.executable, str(GEN), "--registry", str(ROOT / "rtl/engines.toml"),
                                "--registry", str(extra), "--out", str(pathlib.Path(d) / "gen")],
                               cwd=ROOT, capture_output=True, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            pkg = (pathlib.Path(d) / "gen/rtl/cni_amap_pkg.sv").read_text()
        names = [n.lower() for n in re.findall(r"localparam int REG_(\w+) = \d+;", pkg)]
        full = re.search(r"FULL_LINES = \{([^}]*)\}", pkg).group(1)
        lines = [int(v.split("'d")[1]) for v in full.split(",")][::-1]
        base = sum(lines[:names.index("probe")])
        self.assertEqual(names[names.index("probe") - 1], "probe_pad")
        self.assertEqual(base * 128 % 4096, 0, (names, lines))
        self.assertLess(lines[names.index("probe_pad")], 4096 // 128)


if __name__ == "__main__":
    unittest.main()
