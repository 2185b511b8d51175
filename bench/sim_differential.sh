#!/usr/bin/env bash
# sim_differential.sh [BUILD_DIR] [CASES] [SEED...] - the simulation's TSORT32
# against an independent statement of its documented order, at length: for
# each SEED, CASES random calls (float and half, 3- and 4-argument forms,
# 1..8 rows, up to 8192 columns, A2/A3 and A5 rules, values with NaN of both
# signs, +-inf, +-0, denormals, ties, repeated indices). ctest runs the same
# check briefly (kernel/sim/nan-differential, 400 cases, seed 20). Prints one
# line per seed and the totals; exit 1 if any 32-element block differs.
#   bash bench/sim_differential.sh build 20000 1 2 3
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd)
cases=${2:-20000}
shift $(($# >= 2 ? 2 : $#))
seeds=${*:-1}
exe=$build/bin/pto_style_test
[ -x "$exe" ] || { echo "no $exe: configure with -DPROBEKIT_KERNELS=ON and build" >&2; exit 2; }
total_cases=0 total_blocks=0 total_nans=0 status=0
for s in $seeds; do
	line=$("$exe" nan-differential "$cases" "$s" 2>/dev/null | tail -1)
	echo "$line"
	# ok nan-differential: seed S, N cases, B 32-element blocks (K NaN values), 0 mismatches
	if [[ $line =~ ^ok.*seed\ [0-9]+,\ ([0-9]+)\ cases,\ ([0-9]+)\ 32-element\ blocks\ \(([0-9]+)\ NaN ]]; then
		total_cases=$((total_cases + BASH_REMATCH[1]))
		total_blocks=$((total_blocks + BASH_REMATCH[2]))
		total_nans=$((total_nans + BASH_REMATCH[3]))
	else
		status=1
	fi
done
echo "total: $total_cases cases, $total_blocks blocks, $total_nans NaN values; $([ $status = 0 ] && echo "0 mismatches" || echo "FAILED (see above)")"
exit $status
