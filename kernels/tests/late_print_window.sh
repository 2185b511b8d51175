#!/usr/bin/env bash
# late_print_window.sh EXE - the harness's late-print window matters.
# EXE is an instrumented build with STAGE_A on. Device lines are delivered
# 800 ms after they are printed, so they arrive after the stream has synced:
# without a window the two warmup lines leak into the restored stdout (3
# STAGE_A lines in all), with a 2500 ms window only the timed run's line shows.
set -u
exe=$1
fail() { echo "FAIL: $*"; exit 1; }

leaky=$("$exe" --warmup 2 --repeat 1 --print-delay-ms 800 --late-window-ms 0) || fail "run without window exited $?"
n=$(printf '%s\n' "$leaky" | grep -c '^\[STAGE_A\] start=')
[ "$n" -eq 3 ] || fail "without a late-print window expected the 2 warmup lines to leak (3 lines), got $n:
$leaky"

clean=$("$exe" --warmup 2 --repeat 1 --print-delay-ms 800 --late-window-ms 2500) || fail "run with window exited $?"
n=$(printf '%s\n' "$clean" | grep -c '^\[STAGE_A\] start=')
[ "$n" -eq 1 ] || fail "with a 2500 ms window expected only the timed run's line, got $n:
$clean"
printf '%s\n' "$clean" | grep -q '^probe STAGE_A: 1 runs' || fail "summary missing the timed line:
$clean"
echo "ok: 3 lines without the window (warmup leaked), 1 with it"
