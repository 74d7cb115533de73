#!/usr/bin/env bash
# Profile feedback for the fast models (tb/rtl_endpoint.cmake, "Profile feedback"): runs the
# instrumented training program and puts the counts it writes (one .gcda file beside each object
# of the instrumented library) beside the same objects of the library compiled with them.
#   scripts/pgo-train.sh TRAIN_OBJS FAST_OBJS LOG PROGRAM [ARGS...]
# The counts of an earlier run are removed first, so a retrained profile is this run's alone.
# The program's output goes to LOG; on failure the script prints its end and fails.
set -euo pipefail
train=${1:?usage: $0 TRAIN_OBJS FAST_OBJS LOG PROGRAM [ARGS...]}
fast=${2:?} log=${3:?}
shift 3
find "$train" -name '*.gcda' -delete
if ! "$@" > "$log" 2>&1; then
  echo "pgo-train: the training run failed: $*" >&2
  tail -20 "$log" >&2
  exit 1
fi
n=0
while IFS= read -r -d '' f; do
  rel=${f#"$train"/}
  mkdir -p "$fast/$(dirname "$rel")"
  cp "$f" "$fast/$rel"
  n=$((n + 1))
done < <(find "$train" -name '*.gcda' -print0)
if [ "$n" -eq 0 ]; then
  echo "pgo-train: the training run wrote no counts under $train" >&2
  exit 1
fi
echo "pgo-train: $n count files from: $*" >> "$log"
