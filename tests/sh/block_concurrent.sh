#!/usr/bin/env bash
# Two probekit processes on one file never interleave and never lose each
# other's change: both enable a different probe of the
# same multi-MB kernel at the same moment (--allow-multiple). Whatever the
# order, a run that exits 0 must find its probe on in the final file, and
# the final file must be exactly one of the versions the two runs could
# produce in sequence. A run may be refused (exit 2, "file changed"), never
# silently overwritten.
#   bash tests/sh/block_concurrent.sh BIN_DIR SRC_DIR [ROUNDS]
source "$(dirname "$0")/block-lib.bash" "$@"
rounds=${3:-6}
cd "$scratch" || exit 1
big_kernel orig.cpp 6
probe-inject --probe P1 --no-base --stdout orig.cpp >only1.cpp || fail "P1 --stdout"
probe-inject --probe P2 --no-base --stdout orig.cpp >only2.cpp || fail "P2 --stdout"
probe-inject --probe P2 --no-base --allow-multiple --stdout only1.cpp >both.cpp 2>/dev/null || fail "both --stdout"

serial=0 refused=0 mixed=0
for i in $(seq 1 "$rounds"); do
	cp orig.cpp k.cpp
	probe-inject --probe P1 --no-base --allow-multiple k.cpp 2>err1 &
	p1=$!
	probe-inject --probe P2 --no-base --allow-multiple k.cpp 2>err2 &
	p2=$!
	wait "$p1"; rc1=$?
	wait "$p2"; rc2=$?
	for n in 1 2; do
		rc=$((n == 1 ? rc1 : rc2))
		if [ "$rc" = 2 ]; then
			refused=$((refused + 1))
			grep -q "file changed since it was read" "err$n" ||
				fail "round $i: run $n exited 2 without saying the file changed: $(head -1 "err$n")"
		elif [ "$rc" != 0 ]; then
			fail "round $i: run $n exited $rc: $(head -1 "err$n")"
		fi
	done
	if cmp -s k.cpp both.cpp; then
		serial=$((serial + 1))
		[ "$rc1" = 0 ] && [ "$rc2" = 0 ] || fail "round $i: both probes on although a run failed"
	elif cmp -s k.cpp only1.cpp; then
		[ "$rc2" = 0 ] && fail "round $i: run 2 exited 0 but its probe P2 is off (lost update)"
	elif cmp -s k.cpp only2.cpp; then
		[ "$rc1" = 0 ] && fail "round $i: run 1 exited 0 but its probe P1 is off (lost update)"
	else
		mixed=$((mixed + 1))
		fail "round $i: the file is none of the versions two serial runs give ($(stat -c %s k.cpp) bytes)"
	fi
	no_temp_files .
done
echo "concurrent: $rounds rounds: $serial with both changes kept, $refused runs refused, $mixed mixed"
finish
