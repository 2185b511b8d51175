#!/usr/bin/env bash
# clean_fails_check.sh PROBE_CHECK KERNEL - the clean kernel still carries its
# (disabled) probe blocks, so the pre-commit gate must refuse it: exit 1 with
# path:line:col findings. Keeps the prod-check test honest: it can fail.
set -u
out=$("$1" --strict "$2" 2>&1)
rc=$?
[ "$rc" -eq 1 ] || { echo "FAIL: probe-check --strict on the clean kernel exited $rc, expected 1"; echo "$out"; exit 1; }
printf '%s\n' "$out" | grep -q "tsort32_kernel.cpp:[0-9]*:[0-9]*: error: " || { echo "FAIL: no findings:"; echo "$out"; exit 1; }
echo "ok: $(printf '%s\n' "$out" | grep -c ': error: ') findings"
