#!/usr/bin/env bash
# Two runs naming the same files in opposite order never deadlock: locks are
# taken in one order (device, inode) whatever the command line says. Each
# round starts both at once; a round that does not end within the timeout
# is a deadlock. Before the order was fixed, about 3 rounds in 100 hung.
#   bash tests/sh/block_lockorder.sh BIN_DIR SRC_DIR [ROUNDS]
source "$(dirname "$0")/block-lib.bash" "$@"
rounds=${3:-100}
cd "$scratch" || exit 1
# large enough that reading the first file (lock held) takes a while
big_kernel a.cpp 1
big_kernel b.cpp 1
hung=0 failed=0
for i in $(seq 1 "$rounds"); do
	timeout 20 probe-inject --probe P1 --no-base a.cpp b.cpp 2>/dev/null &
	p1=$!
	timeout 20 probe-inject --disable-all b.cpp a.cpp 2>/dev/null &
	p2=$!
	wait "$p1"
	r1=$?
	wait "$p2"
	r2=$?
	if [ "$r1" = 124 ] || [ "$r2" = 124 ]; then
		hung=$((hung + 1))
		fail "round $i: deadlock (a run killed after 20 s)"
		[ "$hung" -ge 2 ] && break
	elif [ "$r1" != 0 ] || [ "$r2" != 0 ]; then
		failed=$((failed + 1))
		fail "round $i: exit $r1 / $r2"
	fi
done
echo "$rounds rounds: $hung deadlocked, $failed failed"
[ "$hung" = 0 ] && ok "no deadlock in $rounds rounds"
probe-strip --check a.cpp b.cpp >/dev/null
[ $? = 1 ] && ok "both files still scan cleanly" || fail "files no longer scan cleanly"
no_temp_files .
finish
