#!/usr/bin/env bash
# bench_report.sh - probe-report on a 1 GB printf probe log against `wc -l` on
# the same file, in the same run (issue #6 target: within 3x of wc -l).
#
# usage: bench/bench_report.sh [BIN_DIR] [LOG] [SIZE_MB]
#   BIN_DIR  where probe-report lives (default: build/bin)
#   LOG      log to generate and keep (default: build/bench/probe-1g.log)
#   SIZE_MB  log size (default 1024)
# Prints both wall times, the ratio, and probe-report's peak memory.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/build/bin}
log=${2:-$here/build/bench/probe-1g.log}
size_mb=${3:-1024}
report=$bin/probe-report
[ -x "$report" ] || { echo "bench_report: no $report (build first)" >&2; exit 2; }
mkdir -p "$(dirname "$log")"

# A harness-like log: T_BASE per run, one probe with block= and iter= fields,
# and ordinary program output between the probe lines.
gen() {
	awk -v want=$((size_mb * 1024 * 1024)) 'BEGIN {
		bytes = 0; run = 0; base = 1048576
		while (bytes < want) {
			run++; base += 10000000
			line = sprintf("[T_BASE] run=%d %.0f", run, base); print line; bytes += length(line) + 1
			line = sprintf("harness: repeat %d launched on stream 0", run); print line; bytes += length(line) + 1
			for (it = 0; it < 4096 && bytes < want; it++) {
				for (blk = 0; blk < 2; blk++) {
					s = base + 424 + it * 2000 + blk * 3; d = 1500 + (it * 7 + blk) % 61
					line = sprintf("[STAGE_B] run=%d block=%d iter=%d start=%.0f end=%.0f dur=%d", run, blk, it, s, s + d, d)
					print line; bytes += length(line) + 1
				}
				if (it % 64 == 0) { line = "tiling: 32 blocks of 256 rows, ub 196608 bytes"; print line; bytes += length(line) + 1 }
			}
		}
	}' > "$log.tmp" && mv "$log.tmp" "$log"
}
if [ ! -s "$log" ] || [ "$(($(stat -c %s "$log") / 1048576))" -lt "$size_mb" ]; then
	echo "bench_report: generating $log ($size_mb MB)"
	gen
fi

now() { date +%s.%N; }
# warm the page cache so both tools read from memory
cat "$log" > /dev/null

t0=$(now); lines=$(wc -l < "$log"); t1=$(now)
rc=0
if /usr/bin/time -f %M true 2> /dev/null; then
	t2=$(now); /usr/bin/time -f %M -o "$log.rss" "$report" "$log" > "$log.report" 2> "$log.err" || rc=$?; t3=$(now)
	rss_kb=$(tail -1 "$log.rss")
else
	t2=$(now); "$report" "$log" > "$log.report" 2> "$log.err" || rc=$?; t3=$(now)
	rss_kb=unknown
fi
wc_s=$(awk -v a="$t0" -v b="$t1" 'BEGIN { print b - a }')
rep_s=$(awk -v a="$t2" -v b="$t3" 'BEGIN { print b - a }')
printf 'log:           %s (%d MB, %d lines)\n' "$log" $(($(stat -c %s "$log") / 1048576)) "$lines"
printf 'wc -l:         %.3f s\n' "$wc_s"
printf 'probe-report:  %.3f s (peak RSS %s kB)\n' "$rep_s" "$rss_kb"
printf 'ratio:         %.2f (target <= 3)\n' "$(awk -v a="$rep_s" -v b="$wc_s" 'BEGIN { print a / b }')"
# The generated log is clean: any finding means the parser misread it.
[ $rc -eq 0 ] || { echo "bench_report: probe-report exit $rc:" >&2; head -3 "$log.err" >&2; exit 1; }
grep -q '^probes' "$log.report" || { echo "bench_report: probe-report produced no probe table" >&2; exit 1; }
