#!/usr/bin/env bash
# probe-check time against the number of bare cycle reads it judges (each a
# finding whose function must be looked at): 2k, 16k and 100k reads, one per
# function, and the ratio of each to the 2k run (linear: 8 and 50).
#   bench/check_linear.sh [BUILD_DIR]
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/build}/bin
[ -x "$bin/probe-check" ] || { echo "no $bin/probe-check: build first" >&2; exit 2; }
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
gen() { # N FILE
	awk -v n="$1" 'BEGIN { print "extern unsigned long GetSystemCycle();";
		for (i = 0; i < n; i++) printf "static unsigned long t%d() {\n\treturn GetSystemCycle();\n}\n", i }' >"$2"
}
secs() { # FILE: best of 3, seconds
	local best=999 t
	for _ in 1 2 3; do
		local t0 t1
		t0=$(date +%s.%N)
		"$bin/probe-check" -j 1 "$1" >/dev/null
		t1=$(date +%s.%N)
		t=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
		best=$(awk -v a="$t" -v b="$best" 'BEGIN { print (a < b) ? a : b }')
	done
	echo "$best"
}
base=
for n in 2000 16000 100000; do
	gen "$n" "$tmp/k$n.cpp"
	s=$(secs "$tmp/k$n.cpp")
	[ -n "$base" ] || base=$s
	awk -v n="$n" -v s="$s" -v b="$base" 'BEGIN { printf "%6d reads: %7.3f s  ratio to 2k %6.1f (linear %d)\n", n, s, (b > 0 ? s / b : 0), n / 2000 }'
done
