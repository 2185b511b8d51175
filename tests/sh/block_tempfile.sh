#!/usr/bin/env bash
# The temporary file of an in-place rewrite: it fits the longest file names
# (NAME_MAX 255), and SIGTERM, SIGINT or SIGHUP during the write remove it
# and leave the source as it was. The signal is raised at the exact moment
# (the temporary file's fsync) by tests/sh/block_fault_shim.c.
#   bash tests/sh/block_tempfile.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
cd "$scratch" || exit 1

# names of 240 and 255 bytes
for n in 240 255; do
	long=$(printf "%0$((n - 4))d.cpp" 0)
	kernel "$long"
	cp "$long" orig.cpp
	if run_expect 0 "inject into a $n-byte file name" probe-inject --probe STAGE_A "$long"; then
		grep -q '^#if 1  // TIMING_PROBE: STAGE_A' "$long" && ok "$n-byte name rewritten" || fail "$n-byte name: not enabled"
	fi
	run_expect 0 "strip a $n-byte file name" probe-strip "$long"
	no_temp_files .
	rm -f "$long"
done
# the sweep of a dead run's temporary file knows the shortened name
long=$(printf "%0246d.cpp" 0)
kernel "$long"
true &
dead=$!
wait "$dead"
stale=".probekit.${long:0:217}.$dead.aB3dE9"
: >"$stale"
run_expect 0 "strip beside a dead run's shortened temporary" probe-strip "$long"
[ -e "$stale" ] && fail "the dead run's shortened temporary file was not swept" || ok "shortened temporary swept"
rm -f "$long"

shim=$(build_shim "$scratch") || skip "no C compiler to build the LD_PRELOAD fault shim"
for sig in TERM INT HUP; do
	num=$(kill -l "$sig")
	kernel k.cpp
	cp k.cpp orig.cpp
	with_shim "$shim" env PK_SHIM_SIGNAL="$num" probe-inject --probe STAGE_A k.cpp 2>/dev/null
	rc=$?
	[ "$rc" = $((128 + num)) ] && ok "SIG$sig mid-write: the run ends by the signal" || fail "SIG$sig: exit $rc"
	same "SIG$sig mid-write: the source as it was" orig.cpp k.cpp
	no_temp_files .
done
# several files: none is changed, no temporary stays
mkdir set
kernel set/a.cpp
kernel set/b.cpp
cp set/a.cpp set/orig
with_shim "$shim" env PK_SHIM_SIGNAL="$(kill -l TERM)" probe-strip set/a.cpp set/b.cpp 2>/dev/null
same "SIGTERM, two files: first as it was" set/orig set/a.cpp
same "SIGTERM, two files: second as it was" set/orig set/b.cpp
no_temp_files set
# probe-report -o writes through the same path
printf '[T_BASE] 100\n[STAGE_A] start=110 end=150 dur=40\n' >run.log
with_shim "$shim" env PK_SHIM_SIGNAL="$(kill -l TERM)" probe-report -o report.txt run.log 2>/dev/null
[ ! -e report.txt ] && ok "probe-report -o: nothing written" || fail "report.txt written"
no_temp_files .
# an ignored SIGHUP (nohup) stays ignored: the run completes
kernel k.cpp
(trap '' HUP; with_shim "$shim" env PK_SHIM_SIGNAL="$(kill -l HUP)" probe-inject --probe STAGE_A k.cpp)
rc=$?
[ "$rc" = 0 ] && grep -q '^#if 1  // TIMING_PROBE: STAGE_A' k.cpp && ok "ignored SIGHUP: written" || fail "ignored SIGHUP: exit $rc"
no_temp_files .
finish
