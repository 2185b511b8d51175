#!/usr/bin/env bash
# bench_report.sh - probe-report on a generated printf probe log, with `wc -l`
# on the same file in the same rounds as information. The floor: a 100 MB log
# in at most 1.0 s (the best wall time is printed scaled to 100 MB).
#
# usage: [BENCH_SHAPE=steady|jitter] [BENCH_ROUNDS=N] bench/bench_report.sh [BIN_DIR] [LOG] [SIZE_MB]
#   BIN_DIR  where probe-report lives (default: build/bin)
#   LOG      log to generate and keep (default: build/bench/probe-100m.log,
#            probe-100m-jitter.log for the jitter shape)
#   SIZE_MB  log size (default 100)
# Prints wall and CPU (user + sys) times of both, best of BENCH_ROUNDS
# (default 5) rounds on a warm page cache, each round running both, the
# ratio of the bests and each round's ratio, and probe-report's peak
# memory. The machine's load is printed too: on a shared machine the wall
# ratio moves with it.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
bin=${1:-$here/build/bin}
shape=${BENCH_SHAPE:-steady}
case $shape in
steady) log=${2:-$here/build/bench/probe-100m.log} ;;
jitter) log=${2:-$here/build/bench/probe-100m-jitter.log} ;;
*) echo "bench_report: BENCH_SHAPE is steady or jitter" >&2; exit 2 ;;
esac
size_mb=${3:-100}
report=$bin/probe-report
[ -x "$report" ] || { echo "bench_report: no $report (build first)" >&2; exit 2; }
mkdir -p "$(dirname "$log")"

# A harness-like log: T_BASE per run, one probe with block= and iter= fields,
# and ordinary program output between the probe lines. BENCH_SHAPE=steady
# (the default): each (block, iter) takes the same time in every run.
# BENCH_SHAPE=jitter: durations drawn at random in each run, runs of a
# stage (1,400-1,700 cycles) and of its WAIT part (1,000-40,999 cycles:
# the number of digits changes from line to line) in turn, one probe a
# run (docs/method.md, "One probe per run").
gen() {
	awk -v want=$((size_mb * 1024 * 1024)) -v jitter=$([ "$shape" = jitter ] && echo 1 || echo 0) 'BEGIN {
		srand(7)
		bytes = 0; run = 0; base = 1048576
		while (bytes < want) {
			run++; base += 10000000
			line = sprintf("[T_BASE] run=%d %.0f", run, base); print line; bytes += length(line) + 1
			line = sprintf("harness: repeat %d launched on stream 0", run); print line; bytes += length(line) + 1
			for (it = 0; it < 4096 && bytes < want; it++) {
				for (blk = 0; blk < 2; blk++) {
					s = base + 424 + it * 2000 + blk * 3; d = 1500 + (it * 7 + blk) % 61
					name = "STAGE_B"
					if (jitter && run % 2) d = 1400 + int(rand() * 301)
					else if (jitter) { name = "STAGE_B_WAIT"; d = 1000 + int(rand() * 40000) }
					line = sprintf("[%s] run=%d block=%d iter=%d start=%.0f end=%.0f dur=%d", name, run, blk, it, s, s + d, d)
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

# ROUNDS rounds (BENCH_ROUNDS, default 5), each running wc -l and
# probe-report back to back, so that both see the machine in the same state: on a
# shared VM the speed of memory moves from minute to minute, and measuring
# all of one tool before the other skews the ratio. Each run's wall, user
# and system seconds and peak RSS (kB) come from /usr/bin/time; without it
# bash's `time` gives the times and the RSS is unknown.
rounds=${BENCH_ROUNDS:-5}
gnu_time=""
/usr/bin/time -f %M true > /dev/null 2>&1 && gnu_time=1
run() { # OUT_FILE CMD...: prints "wall user sys rss major_faults"
	local out=$1 t
	shift
	if [ -n "$gnu_time" ]; then
		/usr/bin/time -f '%e %U %S %M %F' -o "$log.time" "$@" > "$out" 2> "$log.err" || return $?
		tail -1 "$log.time"
	else
		t=$( { TIMEFORMAT='%R %U %S'; time "$@" > "$out" 2> "$log.err"; } 2>&1 ) || return $?
		echo "$t unknown unknown"
	fi
}

lines=$(wc -l < "$log")
# one untimed run of probe-report first: its own pages may have been
# reclaimed too (a first run of probe-report on a one-line log after a
# while took 0.68 s, its next runs 0.00 s)
"$report" "$log" > /dev/null 2>&1 || true
rc=0
: > "$log.rounds"
for i in $(seq "$rounds"); do
	# warm the page cache before every round so both tools read from
	# memory: a kernel reclaiming cold pages (DAMON on these VMs) may
	# have dropped some of the file since the last round
	cat "$log" > /dev/null
	# which tool runs first alternates: on these VMs the second of two
	# back-to-back runs was measured a few per cent slower or faster
	# depending on the minute
	if [ $((i % 2)) -eq 1 ]; then
		w=$(run /dev/null wc -l "$log")
		r=$(run "$log.report" "$report" "$log") || { rc=$?; break; }
	else
		r=$(run "$log.report" "$report" "$log") || { rc=$?; break; }
		w=$(run /dev/null wc -l "$log")
	fi
	echo "$w $r" >> "$log.rounds"
done
[ $rc -eq 0 ] || { echo "bench_report: probe-report exit $rc:" >&2; head -3 "$log.err" >&2; exit 1; }
# the best run of each tool (by wall time), and per round the ratio
best() { sort -n -k"$1" "$log.rounds" | head -1 | cut -d' ' -f"$1-$(($1 + 3))"; }
read -r wc_wall wc_user wc_sys wc_rss <<< "$(best 1)"
read -r rep_wall rep_user rep_sys rep_rss <<< "$(best 6)"
cpu() { awk -v u="$1" -v s="$2" 'BEGIN { printf "%.2f", u + s }'; }
ratio() { awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "inf" }'; }
# a round where probe-report took major faults (pages read from disk: the
# page cache lost part of the log, or of the program, after all) is marked *
per_round=$(awk '{ printf "%s%.2f%s", (NR > 1 ? " " : ""), ($1 > 0 ? $6 / $1 : 0), ($10 > 0 ? "*" : "") }' "$log.rounds")
median=$(tr ' ' '\n' <<< "$per_round" | tr -d '*' | sort -n | awk '{ v[NR] = $1 } END { print (NR % 2) ? v[(NR + 1) / 2] : sprintf("%.2f", (v[NR / 2] + v[NR / 2 + 1]) / 2) }')
printf 'log:           %s (%d MB, %d lines)\n' "$log" $(($(stat -c %s "$log") / 1048576)) "$lines"
printf 'machine:       %s CPUs, load average %s\n' "$(nproc)" "$(cut -d' ' -f1-3 /proc/loadavg)"
printf '               best of %d   wall s   cpu s (user + sys)   peak RSS kB\n' "$rounds"
printf 'wc -l:                     %6.2f   %5.2f (%s + %s)   %s\n' "$wc_wall" "$(cpu "$wc_user" "$wc_sys")" "$wc_user" "$wc_sys" "$wc_rss"
printf 'probe-report:              %6.2f   %5.2f (%s + %s)   %s\n' "$rep_wall" "$(cpu "$rep_user" "$rep_sys")" "$rep_user" "$rep_sys" "$rep_rss"
printf 'ratio wall:    %s (best against best; information, not a target)\n' "$(ratio "$rep_wall" "$wc_wall")"
per100=$(awk -v w="$rep_wall" -v b="$(stat -c %s "$log")" 'BEGIN { printf "%.2f", w * 104857600 / b }')
printf 'per 100 MB:    %s s (floor: 1.0 s)\n' "$per100"
printf 'per round:     %s (median %s)\n' "$per_round" "$median"
# (wc -l reads through read(): its misses are no faults and not counted)
[ -n "$gnu_time" ] && awk '{ r += $10; n += ($10 > 0) } END { printf "major faults:  probe-report %d (pages read from disk: of the log, or of its own files; rounds with any: %d, marked *)\n", r, n }' "$log.rounds"
printf 'ratio cpu:     %s\n' "$(ratio "$(cpu "$rep_user" "$rep_sys")" "$(cpu "$wc_user" "$wc_sys")")"
# The generated log is clean: any finding means the parser misread it
# (a non-zero exit stopped the rounds above).
grep -q '^probes' "$log.report" || { echo "bench_report: probe-report produced no probe table" >&2; exit 1; }
