#!/usr/bin/env bash
# The tool binaries under valgrind memcheck on a subset: zero errors, zero
# definite or indirect leaks.
#   bash tests/sh/valgrind_tools.sh BIN_DIR [SRC_DIR]
# Each block command runs on two corpus files (in place, --diff, --stdout, a
# refused input); probe-report on a small log when BIN_DIR/probe-report is
# the real command. No suppressions: PCRE2's JIT scans past a subject's end,
# and the buffers it scans are defined there (tool/buf.c), so memcheck has
# nothing to forgive. Skipped (SKIP, exit 0) only for an ASan build:
# valgrind and ASan cannot share a process.
set -u
bin=$(cd "${1:?usage: valgrind_tools.sh BIN_DIR [SRC_DIR]}" && pwd) || exit 2
src=$(cd "${2:-$(dirname "$0")/../..}" && pwd) || exit 2
probe=$bin/probe
[ -x "$probe" ] || { echo "valgrind_tools: no $probe" >&2; exit 2; }

if ldd "$probe" 2>/dev/null | grep -q 'libasan' || nm "$probe" 2>/dev/null | grep -q '__asan_init'; then
	echo "SKIP: $probe is an ASan build (valgrind and ASan do not mix)"
	exit 0
fi
command -v valgrind >/dev/null || { echo "valgrind_tools: valgrind is not installed (scripts/setup.sh installs it)" >&2; exit 2; }

scratch=$(mktemp -d "${TMPDIR:-/tmp}/pk-valgrind.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
corpus=$src/testdata/corpus
files=(matmul_leakyrelu_mix.cpp rmsnorm_crlf_bom.cpp)

runs=0 failures=0
# vg EXPECTED_EXIT CMD... : run under memcheck; 99 means memcheck found something
vg() {
	local want=$1
	shift
	local log=$scratch/vg.$runs.log rc
	runs=$((runs + 1))
	(cd "$scratch" && valgrind -q --error-exitcode=99 --leak-check=full \
		--errors-for-leak-kinds=definite,indirect --show-leak-kinds=definite,indirect \
		--log-file="$log" "$@" >"$scratch/out" 2>"$scratch/err")
	rc=$?
	if [ "$rc" -eq 99 ] || [ -s "$log" ]; then
		echo "FAIL: memcheck errors or leaks: $*" >&2
		head -40 "$log" >&2
		failures=$((failures + 1))
	elif [ "$rc" -ne "$want" ]; then
		echo "FAIL: exit $rc, expected $want: $*" >&2
		head -5 "$scratch/err" >&2
		failures=$((failures + 1))
	fi
}

for f in "${files[@]}"; do
	cp "$corpus/$f" "$scratch/$f"
	probe1=$("$bin/probe-list" --names "$scratch/$f" | grep -v '^T_BASE$' | head -1)
	vg 0 "$bin/probe-list" "$f"
	vg 0 "$bin/probe-list" --format=json "$f"
	vg 0 "$bin/probe-check" "$f"
	vg 1 "$bin/probe-check" --strict --format=sarif "$f"
	vg 1 "$bin/probe-inject" --probe "$probe1" --diff "$f" # 1: the diff shows changes
	vg 0 "$bin/probe-inject" --probe "$probe1" "$f"
	vg 1 "$bin/probe-check" "$f"
	vg 2 "$bin/probe-inject" --probe T_BASE_TYPO "$f"
	vg 0 "$bin/probe-inject" --disable-all "$f"
	cmp -s "$corpus/$f" "$scratch/$f" || { echo "FAIL: $f: inject+disable-all changed bytes" >&2; failures=$((failures + 1)); }
	vg 0 "$bin/probe-strip" --probe "$probe1" --stdout "$f"
	vg 1 "$bin/probe-strip" --diff "$f"
	vg 0 "$bin/probe-strip" "$f"
	vg 0 "$bin/probe-strip" "$f"
	vg 0 "$bin/probe-check" --strict "$f"
done
# refused inputs walk the error paths
printf '#if 0  // TIMING_PROBE: X\nint x;\n' >"$scratch/bad.cpp"
vg 2 "$bin/probe-strip" bad.cpp
vg 2 "$bin/probe-list" bad.cpp
vg 1 "$bin/probe-check" bad.cpp
vg 2 "$bin/probe-inject" --probe X missing.cpp
# a directory walk with the worker threads
mkdir "$scratch/tree" && cp "$corpus"/*.cpp "$scratch/tree/"
vg 1 "$bin/probe-check" -j2 --strict tree

# probe-report, when this build has the real command (not a stub)
if "$bin/probe-report" --help 2>/dev/null | grep -q -- '--timing'; then
	cat >"$scratch/run.log" <<'EOF'
[T_BASE] 1048576
[STAGE_B] start=1049620 end=1050400 dur=780 iter=0
[STAGE_B] start=1050450 end=1051100 dur=650 iter=1
[STAGE_B] start=1051150 end=1051790 dur=640 iter=2
EOF
	vg 0 "$bin/probe-report" run.log
	vg 0 "$bin/probe-report" --format=json run.log
	vg 2 "$bin/probe-report" missing.log
else
	echo "note: $bin/probe-report is not the real command; skipped it"
fi

echo "valgrind: $runs runs, $failures failure(s)"
[ "$failures" -eq 0 ]
