#!/usr/bin/env bash
# read_once.sh BIN SRC PATH - one main command path run with the file layer's
# read hook (PROBEKIT_TEST_READS): every file the run reads, inputs and rules
# files alike, must be read exactly once, and the files the path needs must
# be among them (a run that read nothing would not pass).
set -u
bin=$1 src=$2 path=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
export PROBEKIT_RULES_DIR="$src/rules"
fail=0

# run NAME... -- CMD...: CMD in $tmp/w, then the reads checked; NAME are
# files (as the log names them: a path ending so, or rules/X) that must be read
run() {
	local want=()
	while [ "$1" != -- ]; do want+=("$1"); shift; done
	shift
	local log=$tmp/reads.$RANDOM
	(cd "$tmp/w" && PROBEKIT_TEST_READS=$log "$@" >"$tmp/out" 2>"$tmp/err")
	local rc=$?
	if [ $rc -ge 2 ]; then
		echo "FAIL: '$*' exited $rc:"; cat "$tmp/err"; fail=1; return
	fi
	touch "$log"
	[ -n "${READ_ONCE_SHOW:-}" ] && awk '{print "  read: " $NF}' "$log"
	# a line is "DEV:INODE PATH" or "PATH": the first word is the file; a
	# name read twice is read twice too, whether its reads logged the
	# identity or not (a prefilter's read and the set's read of one file)
	local twice
	twice=$(awk '{k=$1; n[k]++; name[k]=$NF; if (NF > 1) {p[$NF]++}} NF == 1 {p[$1]++}
	    END {for (k in n) if (n[k] > 1) print name[k] " read " n[k] " times"
	         for (q in p) if (p[q] > 1) print q " read " p[q] " times"}' "$log" | sort -u)
	if [ -n "$twice" ]; then
		echo "FAIL: '$*' read a file more than once:"; echo "$twice"; fail=1
	fi
	for w in "${want[@]}"; do
		if ! awk -v w="$w" '{p=$NF; if (p == w || substr(p, length(p) - length(w)) == "/" w) f=1} END {exit !f}' "$log"; then
			echo "FAIL: '$*' did not read $w (the hook saw: $(awk '{print $NF}' "$log" | tr '\n' ' '))"; fail=1
		fi
	done
}

case_dir() { rm -rf "$tmp/w"; cp -r "$src/testdata/$1" "$tmp/w"; rm -rf "$tmp/w/expected" "$tmp/w"/expected.* "$tmp/w/args" "$tmp/w/exit"; }

case $path in
block)
	case_dir block/allow_multiple
	run k.cpp -- "$bin/probe-inject" --probe STAGE_A --allow-multiple k.cpp ;;
around)
	case_dir insert/around_callee
	run k.cpp rules/api.ini -- "$bin/probe-inject" --no-base --probe STAGE_A_COMPUTE --around TSORT32 k.cpp ;;
timing)
	case_dir timing/simpler-mixed-scalars
	run aic/kernel_qk.cpp aic/tensor.h orchestration/attn_orch.cpp test_attn.py \
	    aiv/kernel_scale_rows.cpp rules/timing.ini rules/api.ini -- \
	    "$bin/probe-inject" --timing-tensor --slots 8 --host kernels/orchestration/attn_orch.cpp \
	    --test-script test_attn.py kernels/aic/kernel_qk.cpp ;;
timing-edit)
	case_dir timing/helper-events
	run kernel.cpp stages.h rules/timing.ini -- "$bin/probe-inject" --timing-tensor --host-by-hand \
	    --event body_start:issue=before:Body --event producer_done=after:Produce@Stage --edit stages.h kernel.cpp ;;
timing-extern)
	case_dir timing/pypto-callers
	run entry/entry.cpp norm_externs.py layer.py -- "$bin/probe-inject" --timing-tensor --slots 8 \
	    --host norm_externs.py:row_norm_cce --edit layer.py kernels/norm_cce/entry/entry.cpp ;;
strip)
	case_dir timing/simpler-mixed-scalars
	(cd "$tmp/w" && "$bin/probe-inject" -q --timing-tensor --slots 8 --host kernels/orchestration/attn_orch.cpp \
	    --test-script test_attn.py kernels/aic/kernel_qk.cpp 2>/dev/null) || { echo "FAIL: setup"; exit 1; }
	run aic/kernel_qk.cpp aic/kernel_qk.cpp.timing.json orchestration/attn_orch.cpp \
	    test_attn.py -- "$bin/probe-strip" kernels/aic/kernel_qk.cpp ;;
strip-dir)
	# a directory: the marker prefilter reads each candidate, the set
	# adopts those with a marker instead of reading them again
	case_dir timing/simpler-mixed-scalars
	(cd "$tmp/w" && "$bin/probe-inject" -q --timing-tensor --slots 8 --host kernels/orchestration/attn_orch.cpp \
	    --test-script test_attn.py kernels/aic/kernel_qk.cpp 2>/dev/null) || { echo "FAIL: setup"; exit 1; }
	run aic/kernel_qk.cpp aic/kernel_qk.cpp.timing.json orchestration/attn_orch.cpp \
	    test_attn.py -- "$bin/probe-strip" kernels ;;
list-dir)
	case_dir block/allow_multiple
	run k.cpp -- "$bin/probe-list" . ;;
list-dir-named)
	# a file named, then found again in the directory: one file, once
	case_dir block/allow_multiple
	run k.cpp -- "$bin/probe-list" k.cpp . ;;
strip-dir-plain | list-dir-plain)
	# a file named, and found again without a marker walking the directory
	# (./plain.cpp): the walk's read of it is the set's, not one more
	case_dir block/allow_multiple
	cat >"$tmp/w/plain.cpp" <<'EOF'
// Scale one row in place; no probe here.
void scale_row(float *row, int n, float s) {
    for (int i = 0; i < n; ++i) {
        row[i] *= s;
    }
}
EOF
	if [ "$path" = strip-dir-plain ]; then
		run k.cpp plain.cpp -- "$bin/probe-strip" plain.cpp .
	else
		run k.cpp plain.cpp -- "$bin/probe-list" . plain.cpp
	fi ;;
check)
	case_dir check/timing_event_map_leftover
	run kernel_tile_add.cpp rules/check.ini -- "$bin/probe-check" . ;;
check-named)
	# probe-check: a file named and found again walking '.' (./plain.cpp)
	case_dir check/timing_event_map_leftover
	cat >"$tmp/w/plain.cpp" <<'EOF'
// Clamp one row to [lo, hi]; no probe here.
void clamp_row(float *row, int n, float lo, float hi) {
    for (int i = 0; i < n; ++i) {
        row[i] = row[i] < lo ? lo : row[i] > hi ? hi : row[i];
    }
}
EOF
	run kernel_tile_add.cpp plain.cpp rules/check.ini -- "$bin/probe-check" plain.cpp . ;;
report)
	case_dir report/tensor-phases-arrival
	run sync.cpp.timing.csv sync.cpp.timing.json -- "$bin/probe-report" --timing sync.cpp.timing.csv ;;
*)
	echo "read_once.sh: unknown path '$path'"; exit 2 ;;
esac
[ $fail = 0 ] && echo "ok: $path reads each file once"
exit $fail
