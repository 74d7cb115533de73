#!/usr/bin/env python3
# SPDX-License-Identifier: Apache-2.0
"""A test that must fail for one reason: runs COMMAND and passes only when it exits with an
error status (not a crash: a signal or a missing program does not count) and its output
(stdout and stderr) matches REGEX, the message of the failure the test is about.

usage: fails_with.py REGEX COMMAND [ARGS...]
"""
import re
import subprocess
import sys


def main() -> int:
    if len(sys.argv) < 3:
        print(__doc__, file=sys.stderr)
        return 2
    regex, cmd = sys.argv[1], sys.argv[2:]
    try:
        proc = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except OSError as e:
        print(f"fails_with: cannot run {cmd[0]}: {e}")
        return 1
    sys.stdout.write(proc.stdout)
    if proc.returncode == 0:
        print(f"fails_with: the command succeeded; it must fail with /{regex}/")
        return 1
    if proc.returncode < 0 or proc.returncode > 125:
        print(f"fails_with: the command crashed (status {proc.returncode}); it must fail with "
              f"/{regex}/")
        return 1
    if not re.search(regex, proc.stdout):
        print(f"fails_with: the command failed (status {proc.returncode}) but not with /{regex}/")
        return 1
    print(f"fails_with: failed as expected (status {proc.returncode}, /{regex}/)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
