#!/usr/bin/env bash
# txn_crash.sh - a multi-file write killed with -9 between two renames (the
# test-only pause PROBEKIT_TEST_RENAME_PAUSE holds it there) is finished by
# the next run from its journal: every set comes out all old or all new, and
# no .probekit.* temporary file or journal is left. The timing tensor's
# write (kernel, orchestration, test script, event map) and a block command
# over two files in two directories, in a loop, also killed at random times.
#   bash tests/sh/txn_crash.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
cd "$scratch" || exit 1
leftovers() { # DIR: temporaries or journals
	find "$1" -name '.probekit*' | head -3
}
# wait_journal DIR: until a journal appears (the renames are about to start)
wait_journal() {
	for _ in $(seq 1 200); do
		[ -n "$(find "$1" -name '.probekit-txn.*' | head -1)" ] && return 0
		sleep 0.02
	done
	return 1
}
case_dir=$src/testdata/timing/simpler-tasks
tt=(--timing-tensor --slots 8 --host kernels/orchestration/scale_orch.cpp --test-script test_scale.py
	kernels/aiv/kernel_scale.cpp)
# state DIR: old, new or mixed (the four files the run writes)
state() {
	local f old=0 new=0
	for f in kernels/aiv/kernel_scale.cpp kernels/orchestration/scale_orch.cpp test_scale.py; do
		cmp -s "$case_dir/$f" "$1/$f" && old=$((old + 1))
		cmp -s "$case_dir/expected/$f" "$1/$f" && new=$((new + 1))
	done
	f=kernels/aiv/kernel_scale.cpp.timing.json
	[ -e "$1/$f" ] || old=$((old + 1))
	cmp -s "$case_dir/expected/$f" "$1/$f" && new=$((new + 1))
	if [ "$old" = 4 ]; then echo old; elif [ "$new" = 4 ]; then echo new; else echo mixed; fi
}
fresh() { # DIR
	rm -rf "$1"
	mkdir "$1"
	cp -r "$case_dir/kernels" "$case_dir/test_scale.py" "$1/"
}

# 1. held between the first two renames, then killed: mixed until the next run
for i in 1 2 3; do
	d=tt$i
	fresh "$d"
	(cd "$d" && PROBEKIT_TEST_RENAME_PAUSE=30 exec "$bin/probe-inject" "${tt[@]}" 2>/dev/null) &
	pid=$!
	if ! wait_journal "$d"; then
		fail "run $i: no journal while the renames are held"
		kill -9 "$pid" 2>/dev/null
		wait "$pid" 2>/dev/null
		continue
	fi
	# the first rename follows the journal at once, the second waits 30 s:
	# poll for the first (a loaded machine may take a while to get there)
	for _ in $(seq 500); do
		[ "$(state "$d")" = mixed ] && break
		sleep 0.02
	done
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	[ "$(state "$d")" = mixed ] || fail "run $i: the kill did not land between the renames: $(state "$d")"
	# the next run of a rewriting command: the same one again (it then finds
	# the timing tensor there and refuses, exit 2)
	(cd "$d" && "$bin/probe-inject" "${tt[@]}" >/dev/null 2>&1)
	s=$(state "$d")
	[ "$s" = new ] && ok "run $i: killed between renames, the next run finished the set" ||
		fail "run $i: the set is $s after the next run"
	[ -z "$(leftovers "$d")" ] || fail "run $i: left behind: $(leftovers "$d")"
done

# 2. two files in two directories (a block command), killed at random times
mkdir -p a b
kernel a/k.cpp
kernel b/k.cpp
cp a/k.cpp k.orig
probe-inject --probe STAGE_A a/k.cpp b/k.cpp
cp a/k.cpp k.new
probe-inject --disable-all a/k.cpp b/k.cpp
bad=0
for i in $(seq 1 20); do
	pause=0
	[ $((i % 2)) = 0 ] && pause=5
	PROBEKIT_TEST_RENAME_PAUSE=$pause "$bin/probe-inject" --probe STAGE_A a/k.cpp b/k.cpp 2>/dev/null &
	pid=$!
	if [ "$pause" != 0 ]; then wait_journal a || wait_journal b; else sleep "0.00$((RANDOM % 9))"; fi
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	probe-inject --disable-all a/k.cpp b/k.cpp >/dev/null 2>&1 # the next run
	if ! cmp -s a/k.cpp b/k.cpp || [ -n "$(leftovers a)$(leftovers b)" ]; then
		bad=$((bad + 1))
		fail "loop $i: a/k.cpp and b/k.cpp differ or temporaries remain: $(leftovers a) $(leftovers b)"
	fi
	cmp -s a/k.cpp k.orig || fail "loop $i: not back to the original after --disable-all"
done
[ "$bad" = 0 ] && ok "20 kills of a two-directory write: the set was never left mixed"
finish
