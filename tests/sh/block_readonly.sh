#!/usr/bin/env bash
# A read-only file or directory gives exit 2 and one clear message, and the
# file stays exactly as it was.
# "Read-only" means the mode bits: CI runs as root, where access(2) would
# say yes to everything, so the test uses chmod a-w as a user would.
#   bash tests/sh/block_readonly.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
cd "$scratch" || exit 1

# a read-only file
kernel k.cpp
cp k.cpp orig.cpp
chmod a-w k.cpp
ino=$(inode k.cpp)
if run_expect 2 "inject on a read-only file" probe-inject --probe STAGE_A k.cpp; then
	has "read-only file message" "probekit: k.cpp: file is read-only; not changed"
fi
same "read-only file untouched" orig.cpp k.cpp
[ "$(inode k.cpp)" = "$ino" ] && ok "read-only file keeps its inode" || fail "read-only file was replaced"
[ "$(stat -c %a k.cpp)" = 444 ] && ok "read-only file keeps its mode" || fail "mode changed: $(stat -c %a k.cpp)"
run_expect 2 "strip on a read-only file" probe-strip k.cpp && has "strip read-only message" "file is read-only"
same "read-only file untouched by strip" orig.cpp k.cpp
# nothing to change: no write, so no error
run_expect 0 "disable-all with nothing on, read-only file" probe-inject --disable-all k.cpp
# reading a read-only file is fine
run_expect 0 "--stdout from a read-only file" probe-inject --probe STAGE_A --stdout k.cpp
run_expect 0 "-o from a read-only file" probe-inject --probe STAGE_A -o out.cpp k.cpp
grep -q '^#if 1  // TIMING_PROBE: STAGE_A' out.cpp && ok "-o wrote the result" || fail "-o output lacks the enabled probe"
no_temp_files .

# a read-only directory
mkdir ro
kernel ro/k.cpp
chmod a-w ro
ino=$(inode ro/k.cpp)
if run_expect 2 "inject in a read-only directory" probe-inject --probe STAGE_A ro/k.cpp; then
	has "read-only directory message" "probekit: ro/k.cpp: directory"
	has "read-only directory message ends" "is read-only; not changed"
fi
same "file in read-only directory untouched" orig.cpp ro/k.cpp
[ "$(inode ro/k.cpp)" = "$ino" ] && ok "file in read-only directory keeps its inode" || fail "file was replaced"
no_temp_files ro
# -o into a read-only directory
run_expect 2 "-o into a read-only directory" probe-inject --probe STAGE_A -o ro/new.cpp k.cpp
[ ! -e ro/new.cpp ] && ok "-o created nothing in a read-only directory" || fail "ro/new.cpp exists"
chmod u+w ro

# all or nothing: the second file cannot be written, so the first is put back
mkdir set
kernel set/a.cpp
kernel set/b.cpp
cp set/a.cpp set/a.orig
chmod a-w set/b.cpp
if run_expect 2 "inject over two files, the second read-only" probe-inject --probe STAGE_B set/a.cpp set/b.cpp; then
	has "names the read-only file" "probekit: set/b.cpp: file is read-only; not changed"
fi
same "first file put back when the second failed" set/a.orig set/a.cpp
same "second file untouched" set/a.orig set/b.cpp
no_temp_files set
finish
