#!/usr/bin/env bash
# overhead.sh CLEAN TIMING EVENTS [PAIRS] - probe overhead as docs/method.md ("Probe overhead") asks: the
# clean and the instrumented build run alternately on the same inputs, each
# pair is reported with its delta, and nothing is subtracted mechanically.
# Confirm every conclusion on the clean build.
set -euo pipefail
clean=$1 timing=$2 events=$3 pairs=${4:-5}
args=(--rows 8 --cols 64 --blocks 4 --warmup 1 --repeat 3 --envelope)
median() { sed -n 's/^envelope over .* median \([0-9.]*\) .*/\1/p'; }
echo "pair  clean_ms  timing_ms  delta_ms   (median envelope of each run)"
for i in $(seq 1 "$pairs"); do
  c=$("$clean" "${args[@]}" | median)
  t=$("$timing" --expect-timing --events "$events" "${args[@]}" | median)
  [ -n "$c" ] && [ -n "$t" ] || { echo "overhead.sh: a run printed no envelope" >&2; exit 1; }
  printf '%4d  %8s  %9s  %8s\n' "$i" "$c" "$t" "$(awk -v a="$t" -v b="$c" 'BEGIN { printf "%.3f", a - b }')"
done
echo "each pair is one clean and one instrumented run; the deltas vary - do not subtract one of them"
