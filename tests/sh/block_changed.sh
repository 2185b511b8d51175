#!/usr/bin/env bash
# A file changed by someone else between probekit's read and its write is
# not overwritten: exit 2, one message, and the other writer's bytes stay
# (never a lost update). The change is provoked at the exact
# moment with tests/sh/block_fault_shim.c (LD_PRELOAD): when probekit fsyncs its
# temporary file, the shim appends a line to the original.
#   bash tests/sh/block_changed.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
cd "$scratch" || exit 1
shim=$(build_shim "$scratch") || skip "no C compiler to build the LD_PRELOAD fault shim"

for cmd in "probe-inject --probe STAGE_A" "probe-inject --disable-all" "probe-strip"; do
	kernel k.cpp
	[ "$cmd" = "probe-inject --disable-all" ] && sed -i 's/^#if 0  \/\/ TIMING_PROBE: STAGE_B/#if 1  \/\/ TIMING_PROBE: STAGE_B/' k.cpp
	cp k.cpp before.cpp
	if run_expect 2 "$cmd on a file changed meanwhile" with_shim "$shim" env PK_SHIM_TOUCH=k.cpp $cmd k.cpp; then
		has "$cmd: message" "probekit: k.cpp: file changed since it was read; not overwritten"
	fi
	{ cat before.cpp; echo "// edited by someone else meanwhile"; } >want.cpp
	same "$cmd: the other writer's version stays" want.cpp k.cpp
	no_temp_files .
done

# the same run without the interference succeeds (the shim alone changes nothing)
kernel k.cpp
run_expect 0 "inject with the shim but no interference" with_shim "$shim" probe-inject --probe STAGE_A k.cpp
grep -q '^#if 1  // TIMING_PROBE: STAGE_A' k.cpp && ok "enabled without interference" || fail "not enabled"

# two files: the second one changes meanwhile; the first must not stay rewritten
mkdir set
kernel set/a.cpp
kernel set/b.cpp
cp set/a.cpp a.orig
if run_expect 2 "two files, the second changed meanwhile" \
	with_shim "$shim" env PK_SHIM_TOUCH=set/b.cpp probe-inject --probe STAGE_B set/a.cpp set/b.cpp; then
	has "names the changed file" "probekit: set/b.cpp: file changed since it was read"
fi
same "first file put back" a.orig set/a.cpp
no_temp_files set

# an edit of the same size whose writer set the mtime back (cp -p, touch -r,
# rsync): size and mtime match, the ctime does not
kernel k.cpp
if run_expect 2 "a same-size edit with the mtime set back" \
	with_shim "$shim" env PK_SHIM_SAMESIZE=k.cpp probe-inject --probe STAGE_A k.cpp; then
	has "same-size edit: message" "probekit: k.cpp: file changed since it was read; not overwritten"
fi
[ "$(head -c 1 k.cpp)" = / ] && ok "the same-size edit stays" || fail "the same-size edit was overwritten"
grep -q '^#if 1' k.cpp && fail "the probe was enabled over the other writer's edit"
no_temp_files .
finish
