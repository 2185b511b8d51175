#!/usr/bin/env bash
# timing_read_lock.sh - the timing tensor reads its files once, before it
# locks them: a kernel or a header changed between that read and the lock
# (held open here by PROBEKIT_TEST_LOCK_FIFO) is never written over with the
# old bytes: the run notices by the files' identity and reads them again.
source "$(dirname "$0")/block-lib.bash" "$@"
export PROBEKIT_RULES_DIR="$src/rules"
# run CHANGE: a fresh kernel and header, the run held before its locks
# while CHANGE (kernel or header) is edited, then the result checked
run() {
	local k=$scratch/$1
	mkdir -p "$k/.git"
	cp "$src/testdata/timing/side-header-unsigned/kernel_api.h" "$k/"
	cat >"$k/inner.h" <<'H'
#pragma once
inline int32_t packed_scale(__gm__ uint64_t *args)
{
    return static_cast<int32_t>(args[2]);
}
H
	cat >"$k/kernel.cpp" <<'K'
#include "kernel_api.h"
#include "inner.h"

extern "C" __aicore__ void kernel_entry(__gm__ uint64_t *args)
{
    __gm__ float *x = reinterpret_cast<__gm__ float *>(args[0]);
    int32_t n = static_cast<int32_t>(args[1]);
    Produce(x, n + packed_scale(args));
}
K
	rm -f "$scratch/p.ready" "$scratch/p.go"
	mkfifo "$scratch/p.ready" "$scratch/p.go" || skip "no mkfifo"
	(cd "$k" && PROBEKIT_TEST_LOCK_FIFO="$scratch/p" probe-inject --timing-tensor --host-by-hand kernel.cpp \
		>"$scratch/out" 2>"$scratch/err") &
	local pid=$!
	# the run has read every file and waits before its locks
	cat "$scratch/p.ready" >/dev/null
	if [ "$1" = kernel ]; then
		sed -i 's|^#include "inner.h"|&\n// changed while the run waited|' "$k/kernel.cpp"
	else
		sed -i 's|^#pragma once|&\n// changed while the run waited|' "$k/inner.h"
	fi
	echo go >"$scratch/p.go"
	wait $pid
	local rc=$?
	[ $rc = 0 ] && ok "$1 changed: the run succeeds" || { fail "$1 changed: exit $rc"; cat "$scratch/err" >&2; }
	local f=$k/kernel.cpp
	[ "$1" = header ] && f=$k/inner.h
	grep -q "changed while the run waited" "$f" && ok "$1 changed: the change is kept" ||
		fail "$1 changed: written over with the bytes read before the change"
	grep -q "TIMING_PROBE" "$k/kernel.cpp" && ok "$1 changed: the kernel is instrumented" ||
		fail "$1 changed: no timing tensor in the kernel"
	grep -q '@timing-was "2" \*/3/' "$k/inner.h" && ok "$1 changed: the header is renumbered" ||
		fail "$1 changed: inner.h: $(cat "$k/inner.h")"
	[ -s "$scratch/err" ] && fail "$1 changed: messages: $(cat "$scratch/err")" || ok "$1 changed: no message"
}

run kernel
run header
finish
