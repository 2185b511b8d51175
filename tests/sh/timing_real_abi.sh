#!/usr/bin/env bash
# timing_real_abi.sh BIN_DIR SRC_DIR - the timing tensor on the simpler and
# pypto ABIs (golden cases simpler-tasks, pypto-extern): after probe-inject,
# probe-check flags every file the injection touched (kernel, helper header,
# orchestration, test script, Python extern); probe-strip on them gives back
# every file byte for byte and probe-check passes them again.
set -euo pipefail
bin=$(cd "$1" && pwd) src=$(cd "$2" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
fail=0
run_case() { # CASE FILES-TO-CHECK...
  local name=$1; shift
  local d=$work/$name
  cp -r "$src/testdata/timing/$name" "$d"
  rm -rf "$d/expected" "$d/expected.err" "$d/expected.out"
  (cd "$d" && eval "\"$bin\"/$(cat args)") 2>/dev/null || { echo "FAIL $name: injection refused"; fail=1; return; }
  for f in "$@"; do
    local rc=0
    "$bin/probe-check" "$d/$f" >/dev/null 2>&1 || rc=$?
    [ "$rc" -eq 1 ] || { echo "FAIL $name: probe-check exit $rc on the instrumented $f (want 1)"; fail=1; }
  done
  find "$d" -name '*.timing.json' -delete
  (cd "$d" && "$bin/probe-strip" "$@") || { echo "FAIL $name: probe-strip"; fail=1; }
  rm -f "$d/args"
  for f in $(cd "$src/testdata/timing/$name" && find . -type f ! -path './expected/*' ! -name 'expected.*' ! -name args); do
    cmp -s "$src/testdata/timing/$name/$f" "$d/$f" || { echo "FAIL $name: $f not restored byte for byte"; fail=1; }
  done
  for f in "$@"; do
    "$bin/probe-check" "$d/$f" >/dev/null 2>&1 || { echo "FAIL $name: probe-check flags the restored $f"; fail=1; }
  done
}
run_case simpler-tasks kernels/aiv/kernel_scale.cpp kernels/orchestration/scale_orch.cpp test_scale.py
run_case pypto-extern model.py kernels/norm_cce/entry/entry.cpp kernels/norm_cce/kernel/norm_body.hpp
# a mark someone damaged in a Python file is an error naming the line, nothing written
d=$work/damaged; mkdir -p "$d"
printf 'x = 1  # TIMING_PROBE: @timing-line "x = 2\n' > "$d/a.py"
cp "$d/a.py" "$d/a.orig"
if "$bin/probe-strip" "$d/a.py" 2>/dev/null; then echo "FAIL damaged: probe-strip accepted a damaged mark"; fail=1; fi
cmp -s "$d/a.py" "$d/a.orig" || { echo "FAIL damaged: the file changed"; fail=1; }
[ $fail -eq 0 ] && echo "ok"
exit $fail
