#!/usr/bin/env bash
# The size limits, measured: each input at full and half size
# through probe-strip / probe-inject / probe-list / probe-check, with wall
# time, peak RSS, and the full/half time ratio (~2 = linear). A `grep -c`
# over the same input is the baseline measured in the same run.
#   bench/limits.sh [BUILD_DIR] [quick]
# BUILD_DIR defaults to ./build; the inputs are generated under
# BUILD_DIR/limits-work (never /tmp: the 100,000-file tree and the 100 MB file
# are big) and removed at the end. `quick` divides every size by 10.
# Inputs (bench/gen_limits.py):
#   bigfile   a 100 MB kernel source, a probe pair per ~1 MB
#   longline  a probe pair around a single 20 MB line
#   nesting   a probe pair inside 1,000 nested #if levels
#   probes    10,000 probes (20,000 blocks) in one file
#   tree      100,000 files in one tree (1,000 per directory), one probe each;
#             inject/strip run with --diff over every file (nothing written),
#             inject-w/strip-w rewrite a tenth of the files in place
#             the files reach inject/strip/list through xargs -n 10000
#   log-probes    a probe log of 10,000 probes x 10 blocks in one run, through
#                 probe-report (a series, lane and table row per probe and block),
#                 also as a trace and an SVG
#   log-findings  a probe log of 2,000 runs of 50 probes, each line twice (a
#                 finding per run and probe: 100,000), through probe-report
set -uo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
build=$(cd "${1:-$here/build}" && pwd) || exit 2
quick=${2:-}
bin=$build/bin
work=$build/limits-work
for c in probe-inject probe-strip probe-list probe-check probe-report; do
	[ -x "$bin/$c" ] || { echo "limits: no $bin/$c: build first" >&2; exit 2; }
done
rm -rf "$work" && mkdir -p "$work" || exit 2
trap 'rm -rf "$work"' EXIT
export LC_ALL=C

div=1
[ "$quick" = quick ] && div=10

# measure NAME CMD...: one line "rc wall_s peak_rss_kb cpu_s first_stderr_line",
# the best wall and CPU (user+sys) time of $runs runs (default 3) at every
# size alike, so the full/half ratios compare like with like.
measure() {
	shift   # the name only labels the call site
	python3 - "$work/err" "${runs:-3}" "$@" <<'PY'
import os, resource, subprocess, sys, time
err_path, runs, cmd = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
# GNU time reports the command's own peak RSS and CPU time; getrusage of this
# process's children would also count the forked copy of the interpreter
rss_path = err_path + ".rss"
timer = ["/usr/bin/time", "-f", "%M %U %S", "-o", rss_path] if os.access("/usr/bin/time", os.X_OK) else []
best, cpu, rc, rss = None, None, 0, 0
for attempt in range(runs):
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.monotonic()
    # stdout to a file, not /dev/null: GNU grep stops at the first match
    # when its output is /dev/null, which would flatter the baseline
    with open(err_path, "wb") as err, open(err_path + ".out", "wb") as out:
        rc = subprocess.run(timer + cmd, stdout=out, stderr=err).returncode
    t = time.monotonic() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    c = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    best = t if best is None or t < best else best
    cpu = c if cpu is None or c < cpu else cpu
    if timer:
        words = open(rss_path).read().split()
        if len(words) >= 3 and words[-3].isdigit():
            rss = max(rss, int(words[-3]))
if not timer:
    rss = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
first = open(err_path, "rb").readline().decode("utf-8", "replace").strip()
print(f"{rc} {best:.4f} {rss} {cpu:.4f} {first}")
PY
}

rows=$work/rows
: >"$rows"
record() { # record CASE SIZE_LABEL CMD_NAME RESULT_LINE
	printf '%s\t%s\t%s\t%s\n' "$1" "$2" "$3" "$4" >>"$rows"
}

# run_file CASE SCALE PROBE: generate one file at SCALE, time every command on it
run_file() {
	local kind=$1 scale=$2 name=$3 f=$work/$1-$2.cpp out=$work/out.cpp
	python3 "$here/bench/gen_limits.py" "$kind" "$scale" "$f" || exit 2
	local bytes
	bytes=$(stat -c %s "$f")
	record "$kind" "$scale" bytes "0 0 0 0 $bytes"
	record "$kind" "$scale" grep "$(measure grep grep -c TIMING_PROBE "$f")"
	record "$kind" "$scale" check "$(measure check "$bin/probe-check" "$f")"
	record "$kind" "$scale" list "$(measure list "$bin/probe-list" "$f")"
	record "$kind" "$scale" inject "$(measure inject "$bin/probe-inject" --probe "$name" -o "$out" "$f")"
	[ -s "$out" ] && ! cmp -s "$f" "$out" || record "$kind" "$scale" verify "1 0 0 0 inject wrote no change"
	rm -f "$out"
	record "$kind" "$scale" strip "$(measure strip "$bin/probe-strip" -o "$out" "$f")"
	if [ -f "$out" ] && grep -q TIMING_PROBE "$out"; then
		record "$kind" "$scale" verify "1 0 0 0 strip output still holds TIMING_PROBE"
	fi
	rm -f "$f" "$out"
}

run_tree() {
	local scale=$1 d=$work/tree-$1
	python3 "$here/bench/gen_limits.py" tree "$scale" "$d" || exit 2
	local bytes
	bytes=$(du -sb "$d" | cut -f1)
	record tree "$scale" bytes "0 0 0 0 $bytes"
	local each="find '$d' -name '*.cpp' -print0 | xargs -0 -n 10000"
	record tree "$scale" grep "$(measure grep grep -rc TIMING_PROBE "$d")"
	record tree "$scale" check "$(measure check "$bin/probe-check" "$d")"
	record tree "$scale" list "$(measure list sh -c "$each '$bin/probe-list'")"
	# every file, nothing written: load, scan, plan and diff (--diff exits 1
	# when it shows changes; only 2 is a refusal)
	local diff1="sh -c '\"\$0\" \"\$@\"; [ \$? -le 1 ]'"
	record tree "$scale" inject "$(measure inject sh -c "$each $diff1 '$bin/probe-inject' --probe STAGE_A --diff")"
	record tree "$scale" strip "$(measure strip sh -c "$each $diff1 '$bin/probe-strip' --diff")"
	# in place (atomic write, fsync per file) on a tenth of the files; a
	# second run would find nothing to do, so one run each
	find "$d" -name 'kernel*0.cpp' -print0 >"$work/part"
	local n_part
	n_part=$(tr -cd '\0' <"$work/part" | wc -c)
	local part="xargs -0 -n 10000 <'$work/part'"
	record tree "$scale" inject-w "$(runs=1 measure inject sh -c "$part '$bin/probe-inject' --probe STAGE_A")"
	local on
	on=$(grep -rl '^#if 1' "$d" | wc -l)
	[ "$on" -eq "$n_part" ] || record tree "$scale" verify "1 0 0 0 inject enabled $on of $n_part files"
	record tree "$scale" strip-w "$(runs=1 measure strip sh -c "$part '$bin/probe-strip'")"
	[ "$(grep -rl TIMING_PROBE "$d" | wc -l)" -eq $((scale - n_part)) ] ||
		record tree "$scale" verify "1 0 0 0 strip left TIMING_PROBE text in a rewritten file"
	record tree "$scale" nwrite "0 0 0 0 $n_part"
	rm -rf "$d"
}

# run_log CASE SCALE: a probe log at SCALE (see the top) through probe-report
run_log() {
	local kind=$1 scale=$2 f=$work/$1-$2.log
	case $kind in
	log-probes)
		awk -v n="$scale" 'BEGIN { print "[T_BASE] 1000"
			for (p = 0; p < n; p++) for (b = 0; b < 10; b++)
				printf "[P%05d] block=%d start=%d end=%d dur=100\n", p, b, 2000 + p, 2100 + p }' >"$f" ;;
	log-findings)
		awk -v n="$scale" 'BEGIN { for (r = 0; r < n; r++) { printf "[T_BASE] run=%d 1000\n", r
			for (p = 0; p < 50; p++) for (k = 0; k < 2; k++)
				printf "[P%02d] run=%d block=0 iter=0 start=%d end=%d dur=100\n", p, r,
					2000 + p * 200 + k * 100, 2100 + p * 200 + k * 100 } }' >"$f" ;;
	esac
	record "$kind" "$scale" bytes "0 0 0 0 $(stat -c %s "$f")"
	record "$kind" "$scale" grep "$(measure grep grep -c '^\[' "$f")"
	# (exit 1: the logs hold what probe-report warns about)
	record "$kind" "$scale" report "$(measure report "$bin/probe-report" "$f")"
	if [ "$kind" = log-probes ]; then # a lane per probe and block
		record "$kind" "$scale" trace "$(measure trace "$bin/probe-report" --format trace "$f")"
		record "$kind" "$scale" svg "$(measure svg "$bin/probe-report" --format svg "$f")"
	fi
	rm -f "$f"
}

echo "limits: $(date -u '+%Y-%m-%d %H:%M UTC'), $(nproc) cores, $bin" >&2
for kind in bigfile:100:STAGE_0 longline:20:LONG_LINE nesting:1000:DEEP probes:10000:STAGE_5; do
	IFS=: read -r k full name <<<"$kind"
	full=$((full / div))
	[ "$full" -ge 2 ] || full=2
	echo "  $k $full ..." >&2
	run_file "$k" "$full" "$name"
	run_file "$k" $((full / 2)) "$name"
done
for kind in log-probes:10000 log-findings:2000; do
	IFS=: read -r k full <<<"$kind"
	full=$((full / div))
	echo "  $k $full ..." >&2
	run_log "$k" "$full"
	run_log "$k" $((full / 2))
done
tree_full=$((100000 / div))
echo "  tree $tree_full ..." >&2
run_tree "$tree_full"
run_tree $((tree_full / 2))

python3 - "$rows" <<'PY'
import sys
from collections import defaultdict

units = {"bigfile": "MB", "longline": "MB line", "nesting": "#if levels", "probes": "probes", "tree": "files",
         "log-probes": "probes", "log-findings": "runs"}
data = defaultdict(dict)   # (case) -> {(scale, cmd): (rc, t, rss, msg)}
order = []
for line in open(sys.argv[1]):
    case, scale, cmd, res = line.rstrip("\n").split("\t")
    rc, t, rss, cpu, *msg = res.split(" ", 4)
    if case not in order:
        order.append(case)
    data[case][(int(scale), cmd)] = (int(rc), float(t), int(rss), float(cpu), msg[0] if msg else "")

print(f"{'input':<24} {'cmd':<8} {'exit':>4} {'time s':>8} {'half s':>8} {'ratio':>6} {'cpu ratio':>9} {'RSS MB':>8} {'half MB':>8} {'x grep':>7}")
bad = 0
for case in order:
    scales = sorted({s for s, _ in data[case]}, reverse=True)
    full, half = scales[0], scales[-1]
    size = data[case][(full, "bytes")][4]
    label = f"{case} {full} {units[case]}"
    g = data[case][(full, "grep")][1]
    for cmd in ("check", "list", "inject", "strip", "inject-w", "strip-w", "report", "trace", "svg"):
        if (full, cmd) not in data[case]:
            continue
        rc, t, rss, cpu, msg = data[case][(full, cmd)]
        hrc, ht, hrss, hcpu, _ = data[case][(half, cmd)]
        ratio = t / ht if ht > 0 else float("nan")
        cratio = cpu / hcpu if hcpu > 0 else float("nan")
        vs = t / g if g > 0 else float("nan")
        print(f"{label:<24} {cmd:<8} {rc:>4} {t:>8.3f} {ht:>8.3f} {ratio:>6.2f} {cratio:>9.2f} {rss/1024:>8.1f} {hrss/1024:>8.1f} {vs:>7.1f}")
        if rc >= 2:
            print(f"{'':<24} refused: {msg}")
            bad += 1
        label = ""
    for s in (full, half):
        v = data[case].get((s, "verify"))
        if v:
            print(f"{'':<24} FAILED at {s}: {v[4]}")
            bad += 1
    print(f"{'':<24} input {int(size)/1048576:.1f} MB; grep -c baseline {g:.3f} s")
    if (full, "nwrite") in data[case]:
        nw, nh = int(data[case][(full, "nwrite")][4]), int(data[case][(half, "nwrite")][4])
        per = [1000 * data[case][(sc, c)][1] / n for c in ("inject-w", "strip-w") for sc, n in ((full, nw), (half, nh))]
        print(f"{'':<24} inject/strip: --diff over every file; inject-w/strip-w: in place on {nw} / {nh} files "
              f"({per[0]:.1f} / {per[1]:.1f} and {per[2]:.1f} / {per[3]:.1f} ms per file)")
print("ratio = wall time(full) / wall time(half), cpu ratio = the same for user+sys CPU time:")
print("~2 linear, ~4 quadratic; x grep = wall time / grep -c on the same input (measured in this run)")
sys.exit(1 if bad else 0)
PY
