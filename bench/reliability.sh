#!/usr/bin/env bash
# The reliability figures in one report: fuzz executions
# per target, and the faults tried on real files, each with nothing lost.
#   bench/reliability.sh [BUILD_DIR] [FUZZ_SECONDS] [KILL_ROUNDS] [RACE_ROUNDS] [SET_KILL_ROUNDS]
# (defaults: build, 60, 40, 20, 300). Runs bench/fuzz.sh and the fault tests
# of tests/sh (block_kill, block_concurrent, block_changed, block_fulldisk,
# block_readonly, block_valgrind; txn_kill: kill -9 at every rename boundary
# of a 4-file timing set; hostile_repo: what a cloned repository can bring)
# and, when present, the corpus round trips (tests/sh/corpus_roundtrip.sh).
# Exit 1 when anything failed or was lost.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
build=${1:-$here/build}
secs=${2:-60}
kills=${3:-40}
races=${4:-20}
set_kills=${5:-300}
[ -d "$build" ] && build=$(cd "$build" && pwd)
bin=$build/bin
[ -x "$bin/probe-inject" ] || { echo "reliability.sh: no $bin/probe-inject: build first" >&2; exit 2; }
log=$(mktemp -d "${TMPDIR:-/tmp}/pk-reliability.XXXXXX")
trap 'rm -rf "$log"' EXIT
status=0

echo "== fuzzing (${secs}s per target)"
FUZZ_OUT=${FUZZ_OUT:-$build/fuzz} bash "$here/bench/fuzz.sh" "$secs" || status=1

echo "== faults on real files"
run() { # run NAME SCRIPT ARGS...: print the script's figure line, or its failures
	local name=$1 script=$2
	shift 2
	bash "$script" "$bin" "$here" "$@" >"$log/$name.out" 2>&1
	local rc=$?
	if [ "$rc" = 77 ]; then # skipped, whole or in part (the test says which)
		printf '%-18s skip %s\n' "$name" "$(grep -E 'SKIP' "$log/$name.out" | tr '\n' ' ')"
	elif [ "$rc" = 0 ]; then
		local figure
		figure=$(grep -E '^(kill -9|concurrent|valgrind|corpus):|SKIP' "$log/$name.out" | tr '\n' ' ')
		printf '%-18s ok   %s\n' "$name" "${figure:-$(grep -c '^ok:' "$log/$name.out") checks}"
	else
		status=1
		printf '%-18s FAIL\n' "$name"
		grep -E '^FAIL' "$log/$name.out" | head -5 | sed 's/^/    /'
	fi
}
run kill "$here/tests/sh/block_kill.sh" "$kills"
run concurrent "$here/tests/sh/block_concurrent.sh" "$races"
run set-kill "$here/tests/sh/txn_kill.sh" "$set_kills"
run hostile-repo "$here/tests/sh/hostile_repo.sh"
run changed-meanwhile "$here/tests/sh/block_changed.sh"
run full-disk "$here/tests/sh/block_fulldisk.sh"
run read-only "$here/tests/sh/block_readonly.sh"
run valgrind "$here/tests/sh/block_valgrind.sh"
[ -f "$here/tests/sh/corpus_roundtrip.sh" ] && run corpus "$here/tests/sh/corpus_roundtrip.sh"
[ "$status" = 0 ] && echo "nothing lost" || echo "FAILURES above"
exit "$status"
