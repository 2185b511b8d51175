#!/usr/bin/env bash
# kill -9 at any moment of an in-place rewrite leaves the old or the new
# file, never a partial or empty one. A multi-MB kernel is
# rewritten again and again and killed after a random delay spread over the
# time one rewrite takes, so kills land while reading, while writing the
# temporary file, at fsync and around the rename.
#   bash tests/sh/block_kill.sh BIN_DIR SRC_DIR [ROUNDS]
source "$(dirname "$0")/block-lib.bash" "$@"
rounds=${3:-12}
cd "$scratch" || exit 1
big_kernel orig.cpp 12
probe-inject --probe P3 --no-base --stdout orig.cpp >new-inject.cpp || fail "inject --stdout"
probe-strip --stdout orig.cpp >new-strip.cpp || fail "strip --stdout"
cmp -s orig.cpp new-inject.cpp && fail "inject would change nothing: the test would prove nothing"

now_us() { echo $(($(date +%s%N) / 1000)); }
# wait_temp PID: spin (shell builtins only) until PID's temporary file shows up
wait_temp() {
	while kill -0 "$1" 2>/dev/null; do
		for f in .probekit.*; do [ -e "$f" ] && return 0; done
	done
	return 1
}
# How long one rewrite takes here, and how long its write phase is. Only to
# spread the kills over the run; nothing is timed or compared with a limit.
cp orig.cpp k.cpp
t0=$(now_us)
probe-inject --probe P3 --no-base k.cpp &
pid=$!
wait_temp "$pid"
t1=$(now_us)
wait "$pid" || fail "a plain rewrite failed"
t2=$(now_us)
same "a rewrite that is not killed gives the new version" new-inject.cpp k.cpp
span_us=$((t2 - t0 + 1)) write_us=$((t2 - t1 + 1))

old=0 new=0 bad=0 left=0 in_write=0
for i in $(seq 1 "$rounds"); do
	cp orig.cpp k.cpp
	if [ $((i % 2)) = 0 ]; then cmd=(probe-inject --probe P3 --no-base k.cpp); want=new-inject.cpp
	else cmd=(probe-strip k.cpp); want=new-strip.cpp; fi
	"${cmd[@]}" 2>/dev/null &
	pid=$!
	# odd rounds: anywhere in the run; even rounds: while the new text is written
	if [ $((i % 4)) -lt 2 ]; then
		delay_us=$(( (RANDOM * 32768 + RANDOM) % span_us ))
	else
		wait_temp "$pid" && in_write=$((in_write + 1))
		delay_us=$(( (RANDOM * 32768 + RANDOM) % write_us ))
	fi
	sleep "$(printf '%d.%06d' $((delay_us / 1000000)) $((delay_us % 1000000)))"
	kill -9 "$pid" 2>/dev/null
	wait "$pid" 2>/dev/null
	if cmp -s k.cpp orig.cpp; then old=$((old + 1))
	elif cmp -s k.cpp "$want"; then new=$((new + 1))
	else
		bad=$((bad + 1))
		fail "round $i (${cmd[0]}, killed after ${delay_us}us): k.cpp is neither the old nor the new version ($(stat -c %s k.cpp) bytes)"
	fi
	t=$(find . -maxdepth 1 -name '.probekit.*' | wc -l)
	left=$((left + t))
	rm -f .probekit.*
done
echo "kill -9: $rounds rounds (run ${span_us}us, write ${write_us}us, $in_write killed while writing): $old old, $new new, $bad partial; $left temporary files left by killed runs"
[ "$bad" = 0 ] && ok "never partial, never empty"

# What a killed run leaves is swept by the next write of the same file: a
# temporary of a process that is gone goes; one of a live process, of
# another file, or not of our shape stays.
true & dead=$!
wait "$dead"
kill -0 "$dead" 2>/dev/null && fail "pid $dead still alive: cannot test the sweep"
cp orig.cpp k.cpp
: >".probekit.k.cpp.$dead.aB3dE9"
: >".probekit.k.cpp.$$.aB3dE9"
: >".probekit.other.cpp.$dead.aB3dE9"
: >".probekit.k.cpp.$dead.tooLongSuffix"
probe-strip k.cpp || fail "strip after a killed run"
same "the rewrite after a killed run" new-strip.cpp k.cpp
[ -e ".probekit.k.cpp.$dead.aB3dE9" ] && fail "the dead run's temporary file was not swept"
for f in ".probekit.k.cpp.$$.aB3dE9" ".probekit.other.cpp.$dead.aB3dE9" ".probekit.k.cpp.$dead.tooLongSuffix"; do
	[ -e "$f" ] || fail "swept $f, which is not a dead run's temporary file of k.cpp"
done
rm -f .probekit.*
ok "a dead run's temporary file is swept; others are kept"
finish
