#!/usr/bin/env bash
# Checks that a build with nothing changed does nothing: configuring again runs no Verilator, and
# the build tool then has no step to run (no Verilator, no compile, no link).
#   scripts/check-noop-build.sh BUILD
# `make test` runs it after its build; a configure or build rule that reruns on every invocation
# (a model re-verilated, a generated file rewritten) fails it and prints the steps Ninja would run.
set -euo pipefail
build=${1:?usage: $0 BUILD}
root=$(cd "$(dirname "$0")/.." && pwd)
if ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$build/CMakeCache.txt" 2>/dev/null; then
  echo "check-noop-build: $build is not a Ninja build (configure it with -G Ninja, as the Makefile does)" >&2
  exit 1
fi
out=$(cmake -S "$root" -B "$build" 2>&1)
if grep -q "Executing Verilator" <<< "$out"; then
  echo "check-noop-build: configuring again reran Verilator:" >&2
  grep -B2 "Executing Verilator" <<< "$out" >&2
  exit 1
fi
plan=$(cmake --build "$build" -- -n -d explain 2>&1)
if ! grep -q "^ninja: no work to do\.$" <<< "$plan"; then
  echo "check-noop-build: a second build with nothing changed would run these steps:" >&2
  grep -v "^ninja: Entering directory" <<< "$plan" | head -40 >&2
  exit 1
fi
echo "check-noop-build: a second configure and build with nothing changed run no Verilator and no step"
