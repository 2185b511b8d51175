#!/usr/bin/env bash
# The test machinery itself must not pass a test that did not test:
#   - block-lib.bash: a skipped part makes the test exit 77 (ctest: skipped),
#     a failure exit 1, never 0
#   - tests/golden.py finds a temporary file left in any folder of the case
#   - cmake/ExpectRun.cmake checks the exit code as well as the output, and no
#     ctest case passes on its output alone (PASS_REGULAR_EXPRESSION)
#   - the slow shell tests carry the label slow (ctest -LE slow: the fast loop)
#   bash tests/sh/tests_selftest.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
build=$(cd "$bin/.." && pwd)
cd "$scratch" || exit 1

# ---- block-lib.bash: skips are skips ----------------------------------------
lib=$src/tests/sh/block-lib.bash
printf 'source %q "$@"\n%s\nfinish\n' "$lib" 'ok "one part"; partial_skip "the other part"' >part.sh
printf 'source %q "$@"\n%s\nfinish\n' "$lib" 'partial_skip "one part"; fail "the other part"' >partfail.sh
printf 'source %q "$@"\n%s\nfinish\n' "$lib" 'ok "all of it"' >whole.sh
for t in "part.sh 77" "partfail.sh 1" "whole.sh 0"; do
	set -- $t
	bash "$1" "$bin" "$src" >/dev/null 2>&1
	rc=$?
	[ "$rc" = "$2" ] && ok "block-lib: $1 exits $2" || fail "block-lib: $1 exits $rc, expected $2"
done

# ---- golden.py: leftovers in a sub-folder ------------------------------------
mkdir -p fakebin case/sub
cat >fakebin/probe-strip <<'SH'
#!/bin/sh
: >sub/.probekit.k.cpp.99999.tmp
SH
chmod +x fakebin/probe-strip
echo 'probe-strip sub/k.cpp' >case/args
echo 'int x;' >case/sub/k.cpp
out=$(python3 "$src/tests/golden.py" --bin "$scratch/fakebin" "$scratch/case" 2>&1)
rc=$?
[ "$rc" = 1 ] && ok "golden.py fails on a leftover in a sub-folder" || fail "golden.py exit $rc on a leftover in sub/"
has "golden.py names the leftover" "temporary files left behind: sub/.probekit.k.cpp.99999.tmp"

# ---- ExpectRun.cmake: the exit code counts -----------------------------------
er=$src/cmake/ExpectRun.cmake
cmake -DER_EXIT=1 "-DER_REGEX=stale" "-DER_CMD=sh;-c;echo stale" -P "$er" >/dev/null 2>&1 &&
	fail "ExpectRun passed a command that exits 0 where 1 was expected" || ok "ExpectRun: a wrong exit code fails"
cmake -DER_EXIT=1 "-DER_REGEX=stale" "-DER_CMD=sh;-c;echo fresh && false" -P "$er" >/dev/null 2>&1 &&
	fail "ExpectRun passed output that does not match" || ok "ExpectRun: wrong output fails"
cmake -DER_EXIT=1 "-DER_REGEX=stale" "-DER_CMD=sh;-c;echo stale && false" -P "$er" >/dev/null 2>&1 &&
	ok "ExpectRun: the right exit code and output pass" || fail "ExpectRun failed a right run"

# ---- the ctest registry -------------------------------------------------------
if [ -f "$build/CTestTestfile.cmake" ] && command -v ctest >/dev/null; then
	ctest --test-dir "$build" --show-only=json-v1 >tests.json 2>/dev/null || fail "ctest --show-only"
	python3 - tests.json <<'PY' && ok "no test passes on its output alone" || fail "a test passes on its output alone"
import json, sys
bad = [t["name"] for t in json.load(open(sys.argv[1]))["tests"]
       for p in t.get("properties", []) if p["name"] == "PASS_REGULAR_EXPRESSION"]
for n in bad:
    print("PASS_REGULAR_EXPRESSION ignores the exit code:", n, file=sys.stderr)
sys.exit(1 if bad else 0)
PY
	n=$(ctest --test-dir "$build" -N -L slow | grep -c 'Test *#.*sh/')
	[ "$n" = 5 ] && ok "five shell tests are labelled slow" || fail "$n shell tests labelled slow, expected 5"
else
	partial_skip "the ctest registry: no CTestTestfile.cmake in $build"
fi
finish
