#!/bin/bash
# bench_insert.sh [BIN_DIR] [RUNS] - speed of AST probe insertion:
# whole-process `probe-inject --around` into the TSORT32 kernel
# against `clang++ -fsyntax-only` on the same file with the same headers and
# flags, both measured here, in this run (alternating runs, medians of the
# pair ratios, wall and CPU). Prints the ratios; exits 1 when the wall ratio
# is above the 1.2x budget. With the simulation's -I the tool precompiles
# the headers once for the parse and the check of the result.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$here/build/bin}" && pwd)
runs=${2:-20}
budget=1.2
work=$(mktemp -d "${TMPDIR:-/tmp}/pk-bench-insert.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$here"/kernels/tsort32/*.h "$here/kernels/tsort32/tsort32_kernel.cpp" "$work/"
"$bin/probe-strip" "$work/tsort32_kernel.cpp" || exit 2
clangxx=$(command -v clang++-14 || command -v clang++) || { echo "no clang++"; exit 2; }

fail=0
# name | extra flags for both sides
for setup in "stubs|" "simulation|-I $here/kernels/sim/include"; do
	IFS='|' read -r label extra <<<"$setup"
	# the tool's own flags (tool/clang/ast_parse.c): C++17, the stubs searched
	# last. Runs alternate (pairtime.py), so a load spike on this shared
	# machine hits both sides of a pair; the medians of the pair ratios count.
	# shellcheck disable=SC2086
	read -r tw tc bw bc rw rc < <(python3 "$here/bench/pairtime.py" --one-line -n "$runs" -- \
		"$bin/probe-inject" --probe BENCH --around TSORT32#1 --stdout "$work/tsort32_kernel.cpp" -- $extra \
		--vs "$clangxx" -fsyntax-only -x c++ -std=c++17 $extra -idirafter "$here/rules/stubs" \
		-w -ferror-limit=0 "$work/tsort32_kernel.cpp")
	verdict=ok
	awk -v r="$rw" -v m="$budget" 'BEGIN { exit !(r > m) }' && { verdict="OVER BUDGET"; fail=1; }
	printf '%-11s median of %d pairs: clang++ -fsyntax-only %.3f s (cpu %.3f)   probe-inject %.3f s (cpu %.3f)   ratio %s (cpu %s; budget %s) %s\n' \
		"$label" "$runs" "$bw" "$bc" "$tw" "$tc" "$rw" "$rc" "$budget" "$verdict"
done
exit $fail
