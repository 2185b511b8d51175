#!/usr/bin/env bash
# sweep_timeout.sh - probe-sweep --timeout: a run that does not end in time
# has its whole process group stopped, is logged and listed as a timeout,
# the sweep goes on to the next probe, and the files are put back byte for
# byte. And the last line never says the files are as before when a
# command changed them.
#   bash tests/sh/sweep_timeout.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
[ -x "$bin/probe-sweep" ] || { fail "no $bin/probe-sweep"; finish; }
cd "$scratch" || exit 1
kernel k.cpp
cp k.cpp k.orig
cleanup_hooks+=('for f in "$scratch"/o*/*.pid; do [ -e "$f" ] && kill -9 "$(cat "$f")" 2>/dev/null; done')

# alive PID: runs and is not a zombie
alive() { [ -n "$(ps -o stat= -p "$1" 2>/dev/null | grep -v Z)" ]; }

# The command leaves a background job in its group, then waits for ever.
hang='sleep 300 & echo $! >"$PROBE_LOG.pid"; echo "running $PROBE"; sleep 300'
run_expect 1 "a command that never ends, --timeout 1" \
	probe-sweep --probes STAGE_A,STAGE_B --timeout 1 --out o --run "$hang" k.cpp
same "the file is put back" k.orig k.cpp
for p in STAGE_A STAGE_B; do
	grep -q "^$p	timeout	124	1	" o/sweep.tsv && ok "$p: timeout in sweep.tsv" ||
		fail "$p: no timeout row in sweep.tsv: $(cat o/sweep.tsv)"
	grep -q "^probe-sweep: timeout: run 1 of $p was stopped" "o/$p.log" && ok "$p: the timeout is in its log" ||
		fail "$p: its log does not say timeout: $(cat "o/$p.log")"
	grep -q "running $p" "o/$p.log" || fail "$p: its command's output is not in its log"
	bg=$(cat "o/$p.log.pid")
	for _ in $(seq 1 50); do alive "$bg" || break; sleep 0.1; done
	alive "$bg" && fail "$p: a job of the command's process group ($bg) still runs" ||
		ok "$p: the whole process group was stopped"
done
has "the summary names the timeouts" "STAGE_A (timeout), STAGE_B (timeout)"
[ -e o/.journal ] && fail "the journal was left although the files are back"

# A command that ends in time is not touched by --timeout.
run_expect 0 "a quick command under --timeout 30" \
	probe-sweep --probes STAGE_A --timeout 30 --out o2 --run 'echo "[T_BASE] 0"' k.cpp
grep -q "^STAGE_A	ok	0	" o2/sweep.tsv || fail "a quick run is not ok: $(cat o2/sweep.tsv)"

run_expect 2 "--timeout 0 is refused" probe-sweep --probes STAGE_A --timeout 0 --run true k.cpp
has "the refusal says what to give" "give the seconds a run may take"

# A command that edits the source: the last line says the files are not as before.
run_expect 2 "a command that edits the source" \
	probe-sweep --probes STAGE_A --out o3 --run 'echo "// edited" >>k.cpp' k.cpp
last=$(printf '%s\n' "$out" | tail -1)
case $last in
*"the files are as before"*) fail "the last line says the files are as before: $last" ;;
*"NOT as before"*"o3/.journal"*) ok "the last line says the files were changed and where the originals are" ;;
*) fail "the last line: $last" ;;
esac
finish
