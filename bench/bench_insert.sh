#!/bin/bash
# bench_insert.sh [BIN_DIR] [RUNS] - speed of AST probe insertion:
# whole-process `probe-inject --around` into the TSORT32 kernel
# against `clang++ -fsyntax-only` on the same file with the same headers and
# flags, both measured here, in this run (alternating runs, medians). Prints
# the ratio; exits 1 when it is above the 1.5x budget.
set -u
here=$(cd "$(dirname "$0")/.." && pwd)
bin=$(cd "${1:-$here/build/bin}" && pwd)
runs=${2:-20}
budget=1.5
work=$(mktemp -d "${TMPDIR:-/tmp}/pk-bench-insert.XXXXXX")
trap 'rm -rf "$work"' EXIT
cp "$here"/kernels/tsort32/*.h "$here/kernels/tsort32/tsort32_kernel.cpp" "$work/"
"$bin/probe-strip" "$work/tsort32_kernel.cpp" || exit 2
clangxx=$(command -v clang++-14 || command -v clang++) || { echo "no clang++"; exit 2; }

# one run's wall time in microseconds
once() {
	local t0 t1
	t0=$(date +%s%N)
	"$@" >/dev/null 2>&1
	t1=$(date +%s%N)
	echo $(((t1 - t0) / 1000))
}

median() {
	sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : int((v[NR / 2] + v[NR / 2 + 1]) / 2) }'
}

fail=0
# name | extra flags for both sides
for setup in "stubs|" "simulation|-I $here/kernels/sim/include"; do
	IFS='|' read -r label extra <<<"$setup"
	# the tool's own flags (tool/clang/ast_parse.c): C++17, the stubs searched last.
	# Runs alternate, so a load spike on this shared machine hits both sides;
	# each side's median is compared.
	: >"$work/base.t"
	: >"$work/tool.t"
	for ((r = 0; r < runs; r++)); do
		# shellcheck disable=SC2086
		once "$clangxx" -fsyntax-only -x c++ -std=c++17 $extra -idirafter "$here/rules/stubs" \
			-w -ferror-limit=0 "$work/tsort32_kernel.cpp" >>"$work/base.t"
		# shellcheck disable=SC2086
		once "$bin/probe-inject" --probe BENCH --around TSORT32#1 --stdout "$work/tsort32_kernel.cpp" \
			-- $extra >>"$work/tool.t"
	done
	base=$(median <"$work/base.t")
	tool=$(median <"$work/tool.t")
	ratio=$(awk -v a="$tool" -v b="$base" 'BEGIN { printf "%.2f", a / b }')
	verdict=ok
	awk -v r="$ratio" -v m="$budget" 'BEGIN { exit !(r > m) }' && { verdict="OVER BUDGET"; fail=1; }
	printf '%-11s median of %d: clang++ -fsyntax-only %6d us   probe-inject %6d us   ratio %s (budget %s) %s\n' \
		"$label" "$runs" "$base" "$tool" "$ratio" "$budget" "$verdict"
done
exit $fail
