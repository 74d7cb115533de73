#!/usr/bin/env bash
# Checks that a build with nothing changed does nothing: configuring again runs no Verilator, and
# the build tool then runs no step (no Verilator, no compile, no link; CMake's check of its
# globbed source lists is the one step it always runs).
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
# A real second build, not a dry run: Ninja's dry run cannot evaluate CMake's glob check (it is
# always run and decides at run time whether CMake reruns), so it would list CMake's rerun.
# The glob check is the one step allowed; anything else it runs is a failure.
plan=$(cmake --build "$build" -- -d explain 2>&1)
ran=$(grep -E '^\[[0-9]+/[0-9]+\] ' <<< "$plan" | grep -v 'Re-checking globbed directories' || true)
if [[ -n "$ran" ]]; then
  echo "check-noop-build: a second build with nothing changed ran these steps:" >&2
  grep -v "^ninja: Entering directory" <<< "$plan" | head -40 >&2
  exit 1
fi
echo "check-noop-build: a second configure and build with nothing changed run no Verilator and no step"
