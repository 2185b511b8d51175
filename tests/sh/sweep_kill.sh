#!/usr/bin/env bash
# sweep_kill.sh - probe-sweep never leaves an instrumented source behind.
# SIGINT and SIGTERM while the command runs: the command's process group
# ends, both files are put back byte for byte, exit 128+N. kill -9 of
# probe-sweep itself: the next probe-sweep with the same --out, or
# probe-sweep --recover, or probe-strip --disable gives the original bytes
# back. A file the command edited beyond probe switches is left alone.
#   bash tests/sh/sweep_kill.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
[ -x "$bin/probe-sweep" ] || { fail "no $bin/probe-sweep"; finish; }
cd "$scratch" || exit 1
cp "$src/kernels/tsort32/tsort32_kernel.cpp" k.cpp
# a second file holding a probe of the same name: the two are one unit
printf '// tiling helper\n#if 0  // TIMING_PROBE: STAGE_A\n#define TILING_TRACE 1\n#endif\r\nint tiling;' >h.h
cp k.cpp k.orig
cp h.h h.orig
cleanup_hooks+=('for f in "$scratch"/*/*.pid; do [ -e "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null; done')

# The command records its pid beside its log, then waits.
slow='echo $$ >"$PROBE_LOG.pid"; echo "running $PROBE"; exec sleep 60'
# wait_for FILE: up to 30 s
wait_for() {
	for _ in $(seq 1 300); do [ -s "$1" ] && return 0; sleep 0.1; done
	return 1
}
# start OUT CMD: a sweep of STAGE_A then STAGE_B in the background, $spid;
# returns once STAGE_A's command runs
start() {
	probe-sweep --probes STAGE_A,STAGE_B --out "$1" --run "$2" k.cpp h.h >"$1.out" 2>"$1.err" &
	spid=$!
	wait_for "$1/STAGE_A.log.pid" || { fail "$1: the command never started: $(cat "$1.err")"; return 1; }
	grep -q '^#if 1  // TIMING_PROBE: STAGE_A' k.cpp && grep -q '^#if 1  // TIMING_PROBE: STAGE_A' h.h ||
		fail "$1: STAGE_A is not on in both files while its command runs"
	grep -q '^#if 1  // TIMING_PROBE: T_BASE' k.cpp || fail "$1: T_BASE is not on with STAGE_A"
	grep -q '^#if 1  // TIMING_PROBE: STAGE_B' k.cpp && fail "$1: STAGE_B is on during STAGE_A's run"
	return 0
}
restored() { # WHAT
	same "$1: k.cpp byte-identical" k.orig k.cpp
	same "$1: h.h byte-identical (CRLF line and no final newline kept)" h.orig h.h
}

# SIGINT and SIGTERM during the command.
for sig in INT TERM; do
	out=o-$sig
	start "$out" "$slow" || continue
	child=$(cat "$out/STAGE_A.log.pid")
	kill -"$sig" "$spid"
	wait "$spid"
	rc=$?
	want=$((128 + $(kill -l "$sig")))
	[ "$rc" = "$want" ] && ok "SIG$sig: exit $rc" || fail "SIG$sig: exit $rc, expected $want: $(cat "$out.err")"
	restored "SIG$sig"
	kill -0 "$child" 2>/dev/null && fail "SIG$sig: the command ($child) still runs"
	[ -e "$out/STAGE_B.log" ] && fail "SIG$sig: STAGE_B ran after the signal"
	[ -e "$out/.journal" ] && fail "SIG$sig: the journal was left although the files are back"
	grep -q "STAGE_A	exit $want" "$out/sweep.tsv" || fail "SIG$sig: sweep.tsv lacks STAGE_A's status: $(cat "$out/sweep.tsv")"
done

# A command deaf to SIGINT: the second Ctrl-C kills its process group.
deaf='trap "" INT TERM; echo $$ >"$PROBE_LOG.pid"; while :; do sleep 0.2; done'
if start o-deaf "$deaf"; then
	kill -INT "$spid"
	sleep 0.5
	kill -0 "$spid" 2>/dev/null || fail "deaf command: probe-sweep ended before the command did"
	kill -INT "$spid"
	wait "$spid"
	rc=$?
	[ "$rc" = 130 ] && ok "second SIGINT ends a command that ignores the first" || fail "deaf command: exit $rc"
	restored "deaf command"
	kill -0 "$(cat o-deaf/STAGE_A.log.pid)" 2>/dev/null && fail "deaf command still runs"
fi

# kill -9 of probe-sweep: the source stays instrumented until recovered.
kill9() { # OUT
	start "$1" "$slow" || return 1
	kill -9 "$spid"
	wait "$spid" 2>/dev/null
	kill -9 "$(cat "$1/STAGE_A.log.pid")" 2>/dev/null
	cmp -s k.orig k.cpp && { fail "kill -9: k.cpp is clean: the test proves nothing"; return 1; }
	[ -s "$1/.journal/index" ] || { fail "kill -9: no journal in $1"; return 1; }
	return 0
}
if start o-lock "$slow"; then
	run_expect 2 "a second sweep on the same --out" probe-sweep --all --out o-lock --run true k.cpp &&
		has "the lock names the running sweep" "another probe-sweep is running"
	kill -9 "$spid"
	wait "$spid" 2>/dev/null
	kill -9 "$(cat o-lock/STAGE_A.log.pid)" 2>/dev/null
	run_expect 0 "--recover after kill -9" probe-sweep --recover --out o-lock && has "--recover reports both files" "2 of 2 file(s) put back"
	restored "kill -9, then probe-sweep --recover"
	[ -e o-lock/.journal ] && fail "--recover left the journal"
fi
if kill9 o-next; then
	run_expect 2 "a sweep with another --out refuses the instrumented source" \
		probe-sweep --all --out o-other --run true k.cpp h.h && has "the refusal names the way back" "probe-sweep --recover --out DIR"
	run_expect 0 "the next sweep with the same --out" probe-sweep -q --probes STAGE_B --out o-next --run true k.cpp h.h &&
		has "the next sweep says it put the files back" "put back from its journal"
	restored "kill -9, then the next probe-sweep"
	[ -e o-next/.journal ] && fail "the next sweep left the journal"
fi
if kill9 o-strip; then
	run_expect 0 "probe-strip --disable after kill -9" probe-strip --disable k.cpp h.h
	restored "kill -9, then probe-strip --disable"
	run_expect 0 "--recover after probe-strip --disable" probe-sweep --recover --out o-strip &&
		has "nothing left to put back" "0 of 2 file(s) put back"
	[ -e o-strip/.journal ] && fail "--recover left the journal"
fi

# The command edits a source: not overwritten, the journal kept with its original.
run_expect 2 "a command that edits the source" probe-sweep --probes STAGE_A --out o-edit \
	--run 'echo "// edited" >>k.cpp' k.cpp h.h && has "the edit is named" "changed during the sweep by more than probe switches"
tail -1 k.cpp | grep -q '// edited' || fail "the edited k.cpp was overwritten"
same "h.h put back beside it" h.orig h.h
[ -s o-edit/.journal/index ] || fail "the journal of the edited file is gone"
run_expect 2 "--recover refuses the edited file too" probe-sweep --recover --out o-edit
cmp -s o-edit/.journal/orig.0 k.orig && ok "the journal holds k.cpp's original" || fail "o-edit/.journal/orig.0 is not k.cpp's original"
finish
