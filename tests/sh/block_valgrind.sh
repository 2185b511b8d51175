#!/usr/bin/env bash
# The block commands under valgrind memcheck: zero errors
# and zero leaks on the main paths and the error paths. Needs a plain
# (unsanitized) build: under ASan+UBSan the sanitizers do this job and the
# test reports SKIP.
#   bash tests/sh/block_valgrind.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
command -v valgrind >/dev/null || skip "valgrind is not installed"
if nm "$bin/probe" 2>/dev/null | grep -q '__asan_init\|__ubsan_handle' ||
	ldd "$bin/probe" 2>/dev/null | grep -q 'libasan\|libubsan'; then
	skip "$bin/probe is built with sanitizers; valgrind needs a plain build"
fi
cd "$scratch" || exit 1
kernel k.cpp
printf '[broken]\npattern = (x\n' >bad.ini
runs=0
# vg CODE CMD...: CMD under memcheck must exit CODE (99 = memcheck found something)
vg() {
	local want=$1
	shift
	runs=$((runs + 1))
	valgrind -q --error-exitcode=99 --suppressions="$src/tests/sh/block_valgrind.supp" --leak-check=full --show-leak-kinds=definite,indirect,possible \
		--errors-for-leak-kinds=definite,indirect,possible --log-file=vg.log "$@" >/dev/null 2>vg.err
	local rc=$?
	if [ "$rc" = 99 ] || [ -s vg.log ]; then
		fail "memcheck: $*"
		head -30 vg.log >&2
	elif [ "$rc" != "$want" ]; then
		fail "exit $rc, expected $want: $*"
		head -3 vg.err >&2
	fi
}
vg 0 "$bin/probe-inject" --probe STAGE_A --stdout k.cpp
vg 1 "$bin/probe-inject" --probe STAGE_A --diff k.cpp
cp k.cpp w.cpp
vg 0 "$bin/probe-inject" --probe STAGE_A w.cpp
vg 1 "$bin/probe-inject" --disable-all --check w.cpp
vg 2 "$bin/probe-inject" --probe STAGE_B w.cpp
vg 0 "$bin/probe-inject" --probe STAGE_B --allow-multiple --stdout w.cpp
vg 2 "$bin/probe-inject" --probe STAGE_X k.cpp
vg 2 "$bin/probe-inject" --probe STAGE_A missing.cpp
vg 0 "$bin/probe-strip" --stdout k.cpp
vg 1 "$bin/probe-strip" --probe T_BASE --diff k.cpp
vg 0 "$bin/probe-strip" -o out.cpp w.cpp
vg 0 "$bin/probe-list" k.cpp w.cpp
vg 0 "$bin/probe-list" --format=json k.cpp
vg 1 "$bin/probe-check" w.cpp
vg 1 "$bin/probe-check" --strict -j 1 k.cpp out.cpp
vg 1 "$bin/probe-check" --format=sarif .
vg 2 "$bin/probe-check" --rules bad.ini k.cpp
vg 0 "$bin/probe-check" --help
echo "valgrind: $runs runs"
finish
