#!/usr/bin/env bash
# A user other than root may rewrite only files that user may write: the
# directory's permission to replace a file (mode 0777) is not enough, or any
# user could rewrite another's 0644 file and become its owner. Runs the
# commands as the user nobody (setpriv), so it needs root to set up.
#   bash tests/sh/block_nonroot.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
[ "$(id -u)" = 0 ] || skip "not root: cannot run a command as another user"
command -v setpriv >/dev/null || skip "no setpriv"
id nobody >/dev/null 2>&1 || skip "no user nobody"
uid=$(id -u nobody) gid=$(id -g nobody)
as_nobody() { setpriv --reuid="$uid" --regid="$gid" --clear-groups "$@"; }
as_nobody test -x "$bin/probe" || skip "user nobody cannot run $bin/probe (a parent directory is closed)"
chmod 0755 "$scratch"
cd "$scratch" || exit 1
mkdir shared
chmod 0777 shared
kernel shared/root.cpp
chmod 0644 shared/root.cpp
cp shared/root.cpp orig.cpp
ino=$(inode shared/root.cpp)

for cmd in "probe-inject --probe STAGE_A" "probe-strip"; do
	if run_expect 2 "$cmd as nobody on root's 0644 file" as_nobody $cmd shared/root.cpp; then
		has "$cmd: message" "probekit: shared/root.cpp: no write permission on the file"
	fi
	same "$cmd: root's file untouched" orig.cpp shared/root.cpp
	[ "$(inode shared/root.cpp)" = "$ino" ] && ok "$cmd: same inode" || fail "$cmd: root's file was replaced"
	[ "$(stat -c %u shared/root.cpp)" = 0 ] && ok "$cmd: still root's" || fail "$cmd: owner now $(stat -c %u shared/root.cpp)"
done
# a file of two, the other one nobody's own: all or nothing
kernel shared/own.cpp
chown "$uid:$gid" shared/own.cpp
cp shared/own.cpp own.orig
run_expect 2 "nobody's file with root's" as_nobody probe-strip shared/own.cpp shared/root.cpp
same "nobody's own file not changed either" own.orig shared/own.cpp
# what nobody may write, nobody may rewrite
run_expect 0 "nobody rewrites its own file" as_nobody probe-strip shared/own.cpp
cmp -s own.orig shared/own.cpp && fail "nobody's own file was not stripped"
[ "$(stat -c %u shared/own.cpp)" = "$uid" ] && ok "nobody's file stays nobody's" || fail "owner changed"
# reading is still fine
run_expect 0 "nobody reads root's file (--diff exits 1 only on changes: none)" as_nobody probe-inject --disable-all --diff shared/root.cpp
no_temp_files shared
finish
