#!/usr/bin/env bash
# One file named twice, or also through a symlink or a hard link, is one
# input: the run neither waits on its own lock nor edits the file twice.
# Under a timeout: a deadlock is a failure, not a stuck test.
#   bash tests/sh/block_samefile.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
cd "$scratch" || exit 1
kernel k.cpp
probe-strip --stdout k.cpp >want-strip.cpp || fail "strip --stdout"
probe-inject --probe STAGE_A --stdout k.cpp >want-inject.cpp || fail "inject --stdout"
cp k.cpp orig.cpp

# run WHAT CMD...: CMD under a timeout, exit 0 expected
run() {
	local what=$1
	shift
	out=$(timeout 10 "$@" 2>&1)
	local rc=$?
	if [ "$rc" = 124 ]; then fail "$what: deadlocked (killed after 10 s)"; return 1; fi
	[ "$rc" = 0 ] && ok "$what: exit 0" || { fail "$what: exit $rc: $out"; return 1; }
}
run "strip k.cpp k.cpp" probe-strip k.cpp k.cpp
same "stripped once" want-strip.cpp k.cpp

cp orig.cpp k.cpp
ln -s k.cpp link.cpp
run "inject through the file and a symlink to it" probe-inject --probe STAGE_A k.cpp link.cpp
same "enabled once" want-inject.cpp k.cpp
[ -L link.cpp ] && ok "the symlink stays a symlink" || fail "link.cpp was replaced"

cp orig.cpp k.cpp
ln k.cpp hard.cpp
# (the first name is rewritten: a rename gives it a new inode, as any editor
# that saves atomically does, so the hard link keeps the old text)
run "strip through the file and a hard link" probe-strip k.cpp ./k.cpp hard.cpp
same "stripped once (hard link)" want-strip.cpp k.cpp
rm hard.cpp

cp orig.cpp k.cpp
out=$(timeout 10 probe-strip --diff k.cpp k.cpp link.cpp)
rc=$?
[ "$rc" = 1 ] && ok "--diff of one file named thrice: exit 1" || fail "--diff: exit $rc"
[ "$(printf '%s\n' "$out" | grep -c '^--- ')" = 1 ] && ok "one diff, not three" || fail "diff printed $(printf '%s\n' "$out" | grep -c '^--- ') times"
out=$(timeout 10 probe-strip --check k.cpp link.cpp)
[ "$(printf '%s\n' "$out" | grep -c 'would change')" = 1 ] && ok "--check names the file once" || fail "--check: $out"
same "--diff and --check wrote nothing" orig.cpp k.cpp
no_temp_files .
finish
