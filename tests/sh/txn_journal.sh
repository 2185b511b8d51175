#!/usr/bin/env bash
# txn_journal.sh - what the next run does with the journal of a killed
# multi-file write, as the user sees it: a replay says so in one line and
# the exit code is the run's own; a file edited after the crash is never
# overwritten (the journal is refused, exit 2, nothing touched); a
# truncated journal is refused, never rolled back half-way; probe-list
# reports a pending journal and leaves it; --discard-journal removes the
# journal alone and keeps the user's files as they are.
#   bash tests/sh/txn_journal.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
cd "$scratch" || exit 1
case_dir=$src/testdata/timing/simpler-tasks
K=kernels/aiv/kernel_scale.cpp
H=kernels/orchestration/scale_orch.cpp
T=test_scale.py
tt=(--timing-tensor --slots 8 --host "$H" --test-script "$T" "$K")
wait_journal() {
	for _ in $(seq 1 1500); do
		[ -n "$(find "$1" -name '.probekit-txn.*' | head -1)" ] && return 0
		sleep 0.02
	done
	return 1
}
# killed DIR: the timing tensor's write killed after its first rename
killed() {
	rm -rf "$1"
	mkdir "$1"
	cp -r "$case_dir/kernels" "$case_dir/$T" "$1/"
	(cd "$1" && PROBEKIT_TEST_RENAME_PAUSE=30 exec probe-inject "${tt[@]}" 2>/dev/null) &
	local pid=$!
	wait_journal "$1" || fail "$1: no journal"
	for _ in $(seq 500); do cmp -s "$case_dir/$K" "$1/$K" || break; sleep 0.02; done
	kill -9 "$pid"
	wait "$pid" 2>/dev/null
	cmp -s "$case_dir/$K" "$1/$K" && fail "$1: the kill did not land after the first rename"
	return 0
}
tree_sum() { (cd "$1" && find . -type f ! -name '.probekit*' -exec sha256sum {} + | sort); }

# a replay says so, and the run's own exit code follows
killed replay
cd replay || exit 1
run_expect 2 "the same inject after the kill (the set is then instrumented)" probe-inject "${tt[@]}"
has "the replay says so" "finished an earlier run's interrupted write"
has "the run's own refusal follows" "already has a timing tensor"
[ "$(printf '%s\n' "$out" | grep -c 'interrupted write')" = 1 ] && ok "the replay is one line" ||
	fail "the replay is not one line: $out"
for f in "$K" "$H" "$T" "$K.timing.json"; do
	same "replayed: $f is the new text" "$case_dir/expected/$f" "$f"
done
cd "$scratch" || exit 1

# a file edited after the crash: refused, the edit kept, nothing touched
killed edited
cd edited || exit 1
echo "# the user's edit" >>"$T"
before=$(tree_sum .)
run_expect 2 "an edit after the crash" probe-strip "$K"
has "the refusal names the edited file" "'test_scale.py' changed since"
has "the refusal names the way out" "--discard-journal"
[ "$(tree_sum .)" = "$before" ] && ok "nothing touched, the edit kept" || fail "a file changed"
run_expect 1 "probe-list with the journal pending" probe-list "$K"
has "probe-list reports it" "pending journal"
[ "$(tree_sum .)" = "$before" ] && ok "probe-list changed nothing" || fail "probe-list changed a file"
[ -n "$(find . -name '.probekit-txn.*')" ] && ok "probe-list left the journal" || fail "probe-list removed the journal"
# the test script holds no probe: its strip writes nothing but meets the journal
run_expect 0 "--discard-journal" probe-strip --discard-journal "$T"
has "--discard-journal says so" "journal discarded"
[ -z "$(find . -name '.probekit*')" ] && ok "--discard-journal removed every copy and temporary file" ||
	fail "left after --discard-journal: $(find . -name '.probekit*')"
grep -q "the user's edit" "$T" && ok "the edit survives the discard" || fail "the edit is gone"
cd "$scratch" || exit 1

# a truncated journal: refused, never acted on
killed truncated
cd truncated || exit 1
for j in $(find . -name '.probekit-txn.*'); do
	head -c 40 "$j" >"$j.cut" && cat "$j.cut" >"$j" && rm "$j.cut"
done
before=$(tree_sum .)
run_expect 2 "a truncated journal" probe-strip "$K"
has "the truncated journal is called damaged" "damaged"
[ "$(tree_sum .)" = "$before" ] && ok "a truncated journal: nothing touched" || fail "a truncated journal: a file changed"
finish
