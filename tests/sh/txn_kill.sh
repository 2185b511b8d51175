#!/usr/bin/env bash
# txn_kill.sh - a 4-file timing-tensor set (kernel, orchestration, test
# script, event map) never ends mixed. Each round kills a run with -9 at
# one rename boundary (the test-only pause PROBEKIT_TEST_RENAME_PAUSE at
# PROBEKIT_TEST_RENAME_AT = 0..4: the journal written, after each rename,
# every file renamed): probe-inject --timing-tensor, probe-strip KERNEL, or
# probe-inject with a probe-strip KERNEL started beside it. Then probe-list
# must report the pending journal (and change nothing), and the next
# rewriting command on a file of the set (strip of the kernel, the same
# inject, strip --timing-tensor) must leave the set all old or all new,
# with no temporary file, journal or orphan event map left.
#   bash tests/sh/txn_kill.sh BIN_DIR SRC_DIR [ROUNDS]   (default 15: each
#   command at each boundary once; bench/reliability.sh runs 300)
source "$(dirname "$0")/block-lib.bash" "$@"
rounds=${3:-15}
cd "$scratch" || exit 1
case_dir=$src/testdata/timing/simpler-tasks
K=kernels/aiv/kernel_scale.cpp
H=kernels/orchestration/scale_orch.cpp
T=test_scale.py
M=$K.timing.json
tt=(--timing-tensor --slots 8 --host "$H" --test-script "$T" "$K")
# state DIR: old, new or mixed (the four files of the set)
state() {
	local f old=0 new=0
	for f in "$K" "$H" "$T"; do
		cmp -s "$case_dir/$f" "$1/$f" && old=$((old + 1))
		cmp -s "$case_dir/expected/$f" "$1/$f" && new=$((new + 1))
	done
	[ -e "$1/$M" ] || old=$((old + 1))
	cmp -s "$case_dir/expected/$M" "$1/$M" && new=$((new + 1))
	if [ "$old" = 4 ]; then echo old; elif [ "$new" = 4 ]; then echo new; else echo mixed; fi
}
leftovers() { find "$1" -name '.probekit*' | head -3; }
fresh() { # DIR old|new
	rm -rf "$1"
	mkdir "$1"
	if [ "$2" = old ]; then
		cp -r "$case_dir/kernels" "$case_dir/$T" "$1/"
	else
		cp -r "$scratch/newtpl/." "$1/"
	fi
}
wait_journal() {
	for _ in $(seq 1 1500); do
		[ -n "$(find "$1" -name '.probekit-txn.*' | head -1)" ] && return 0
		sleep 0.02
	done
	return 1
}

# the new state, made once by an uninterrupted run
fresh newtpl old
(cd newtpl && probe-inject "${tt[@]}" >/dev/null 2>&1)
[ "$(state newtpl)" = new ] || { fail "the uninterrupted inject does not give the expected set"; finish; }

ops=(inject strip both)
nexts=(strip-kernel inject strip-tt)
mixed=0 left=0 unreported=0 done_rounds=0 missed=0
for r in $(seq 0 $((rounds - 1))); do
	op=${ops[$((r % 3))]}
	at=$(((r / 3) % 5))
	nxt=${nexts[$(((r / 15) % 3))]}
	d=r$r
	case $op in inject | both) fresh "$d" old ;; strip) fresh "$d" new ;; esac
	if [ "$op" = strip ]; then
		(cd "$d" && PROBEKIT_TEST_RENAME_PAUSE=30 PROBEKIT_TEST_RENAME_AT=$at exec probe-strip "$K" 2>/dev/null) &
	else
		(cd "$d" && PROBEKIT_TEST_RENAME_PAUSE=30 PROBEKIT_TEST_RENAME_AT=$at exec probe-inject "${tt[@]}" \
			2>/dev/null) &
	fi
	pid=$!
	spid=
	if [ "$op" = both ]; then # a strip of the kernel beside it, started at once
		(cd "$d" && exec probe-strip "$K" >/dev/null 2>&1) &
		spid=$!
	fi
	if ! wait_journal "$d"; then
		# the strip beside it may have gone first: the inject then refuses
		# nothing and writes... only a run that never reached its renames
		missed=$((missed + 1))
	fi
	sleep 0.05
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	if [ -n "$spid" ]; then
		wait "$spid"
		src_rc=$?
		[ "$src_rc" = 0 ] || fail "round $r: the strip beside the killed inject exit $src_rc"
	fi
	s=$(state "$d")
	# probe-list reports a pending journal and never acts on one
	if [ -n "$(find "$d" -name '.probekit-txn.*' | head -1)" ]; then
		before=$(cd "$d" && find . -type f -exec sha256sum {} + | sort)
		out=$(cd "$d" && probe-list "$K" 2>&1)
		rc=$?
		[ "$rc" = 1 ] && [[ "$out" == *"pending journal"* ]] || {
			unreported=$((unreported + 1))
			fail "round $r ($op at $at): probe-list exit $rc without the pending journal: $out"
		}
		[ "$(cd "$d" && find . -type f -exec sha256sum {} + | sort)" = "$before" ] ||
			fail "round $r: probe-list changed a file"
	fi
	case $nxt in
	strip-kernel) (cd "$d" && probe-strip "$K" >/dev/null 2>&1) ;;
	inject) (cd "$d" && probe-inject "${tt[@]}" >/dev/null 2>&1) ;;
	strip-tt) (cd "$d" && probe-strip --timing-tensor "$K" >/dev/null 2>&1) ;;
	esac
	s2=$(state "$d")
	if [ "$s2" = mixed ]; then
		mixed=$((mixed + 1))
		fail "round $r ($op killed at rename $at, then $nxt): the set is mixed (was $s after the kill)"
	fi
	if [ -n "$(leftovers "$d")" ]; then
		left=$((left + 1))
		fail "round $r ($op at $at, then $nxt): left behind: $(leftovers "$d")"
	fi
	if [ -e "$d/$M" ] && ! grep -q 'TIMING_PROBE: @timing' "$d/$K"; then
		left=$((left + 1))
		fail "round $r: an event map without its kernel's timing tensor"
	fi
	done_rounds=$((done_rounds + 1))
	rm -rf "$d"
done
[ "$missed" -le $((rounds / 3)) ] || fail "$missed of $rounds rounds never reached their renames"
echo "kill -9: $done_rounds rounds of a 4-file set (inject, strip, inject beside a strip; at each of 5 rename" \
	"boundaries): $mixed mixed, $left with leftovers, $unreported unreported"
[ "$mixed$left$unreported" = 000 ] && ok "no set left mixed, nothing left behind"
finish
