#!/usr/bin/env bash
# stdout_restored.sh EXE - a failing launch during the warmup (stdout sent to
# /dev/null) or the timed runs (stdout teed) must leave stdout restored: the
# final "result: FAIL" line reaches stdout, the cause reaches stderr, exit 2.
set -u
exe=$1
fail() { echo "FAIL: $*"; exit 1; }
err=$(mktemp)
trap 'rm -f "$err"' EXIT

for at in warmup repeat; do
	out=$("$exe" --fail-at "$at" --warmup 2 --repeat 2 --late-window-ms 0 2>"$err")
	rc=$?
	[ "$rc" -eq 2 ] || fail "--fail-at $at: exit $rc, expected 2"
	printf '%s\n' "$out" | grep -qx 'result: FAIL' || fail "--fail-at $at: stdout not restored, got:
$out"
	grep -q "pksim: block 0: Tile: valid col 8193" "$err" || fail "--fail-at $at: no cause on stderr:
$(cat "$err")"
	grep -q "aclrtSynchronizeStream" "$err" || fail "--fail-at $at: the failing call is not named:
$(cat "$err")"
done
echo "ok: stdout restored after failures in the warmup and the timed runs"
