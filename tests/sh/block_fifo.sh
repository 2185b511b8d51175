#!/usr/bin/env bash
# A FIFO, socket or device named as a source is refused at once (exit 2),
# never opened in a way that waits for a writer. Every command runs under a
# timeout: a hang is a failure, not a stuck test.
#   bash tests/sh/block_fifo.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
cd "$scratch" || exit 1
mkfifo f.cpp || skip "mkfifo failed"
kernel k.cpp
cp k.cpp orig.cpp
for cmd in "probe-strip f.cpp" "probe-inject --probe STAGE_A f.cpp" "probe-inject --disable-all f.cpp" \
	"probe-list f.cpp" "probe-check f.cpp" "probe-strip --diff f.cpp" "probe-strip --stdout f.cpp" \
	"probe-inject --probe STAGE_A k.cpp f.cpp" "probe-inject --probe STAGE_A -o out.cpp f.cpp"; do
	out=$(timeout 10 $cmd 2>&1)
	rc=$?
	if [ "$rc" = 124 ]; then
		fail "$cmd: hung on the FIFO (killed after 10 s)"
		continue
	fi
	[ "$rc" = 2 ] && ok "$cmd: exit 2" || fail "$cmd: exit $rc, expected 2"
	has "$cmd: says what it is" "f.cpp: not a regular file"
done
same "the regular file beside the FIFO is untouched" orig.cpp k.cpp
[ -p f.cpp ] && ok "the FIFO is still a FIFO" || fail "f.cpp was replaced"
[ ! -e out.cpp ] && ok "-o wrote nothing" || fail "-o wrote out.cpp"
# a character device, too
out=$(timeout 10 probe-strip --stdout /dev/zero 2>&1)
rc=$?
[ "$rc" = 2 ] && ok "/dev/zero refused" || fail "/dev/zero: exit $rc, expected 2"
no_temp_files .
finish
