#!/usr/bin/env bash
# A full disk gives exit 2 and leaves the file as it was, with no temporary
# file behind. Two ways, so the behaviour is tested on
# every machine:
#   1. a real full file system: a 1 MiB tmpfs, filled up (needs mount
#      permission, or a user namespace of its own (unshare -rm); reported
#      as a skipped part, the test as skipped, when neither is allowed)
#   2. ENOSPC in the middle of the write, from tests/sh/block_fault_shim.c
#   bash tests/sh/block_fulldisk.sh BIN_DIR SRC_DIR
source "$(dirname "$0")/block-lib.bash" "$@"
self=$(cd "$(dirname "$0")" && pwd)/$(basename "$0")
cd "$scratch" || exit 1
ran=0

# ---- 1. a real tmpfs -------------------------------------------------------
mkdir mnt
tmpfs_part() { # the tmpfs is mounted on mnt
	big_kernel mnt/k.cpp 0.3
	cp mnt/k.cpp orig.cpp
	# fill what is left, so the temporary copy cannot be written
	dd if=/dev/zero of=mnt/fill bs=4k 2>/dev/null
	ino=$(inode mnt/k.cpp)
	if run_expect 2 "inject on a full tmpfs" probe-inject --probe P3 mnt/k.cpp; then
		has "full disk message" "probekit: mnt/k.cpp: "
		has "full disk reason" "No space left on device"
	fi
	same "file on the full disk untouched" orig.cpp mnt/k.cpp
	[ "$(inode mnt/k.cpp)" = "$ino" ] && ok "file keeps its inode" || fail "file was replaced"
	no_temp_files mnt
	run_expect 2 "strip on a full tmpfs" probe-strip mnt/k.cpp
	same "file untouched by strip" orig.cpp mnt/k.cpp
	no_temp_files mnt
	# with room again the same command works
	rm mnt/fill
	run_expect 0 "inject after space was freed" probe-inject --probe P3 mnt/k.cpp
	grep -q '^#if 1  // TIMING_PROBE: P3' mnt/k.cpp && ok "enabled once there is room" || fail "not enabled"
	umount "$scratch/mnt"
}
if mount -t tmpfs -o size=1m pk-fulldisk "$scratch/mnt" 2>/dev/null; then
	cleanup_hooks+=("umount '$scratch/mnt' 2>/dev/null")
	ran=1
	tmpfs_part
	[ "${PK_FULLDISK_NS:-}" = 1 ] && finish # the run inside a namespace (below)
elif [ "${PK_FULLDISK_NS:-}" != 1 ] && unshare -rm true 2>/dev/null; then
	# no mount permission here, but a user and mount namespace of our own gives it
	ran=1
	ns_out=$(PK_FULLDISK_NS=1 unshare -rm bash "$self" "$bin" "$src" 2>&1)
	case $? in
	0) ok "real full disk, in a user namespace: $(printf '%s\n' "$ns_out" | grep -c '^ok:') checks" ;;
	77) partial_skip "real full disk: no tmpfs mount in a user namespace either" ;;
	*)
		fail "real full disk, in a user namespace:"
		printf '%s\n' "$ns_out" | grep -E '^FAIL' | head -10 >&2
		;;
	esac
elif [ "${PK_FULLDISK_NS:-}" = 1 ]; then
	skip "no tmpfs mount in the user namespace"
else
	partial_skip "real full disk: 'mount -t tmpfs' is not permitted here, nor in a user namespace (the ENOSPC part below still runs)"
fi

# ---- 2. ENOSPC injected in the middle of the write ---------------------------
if shim=$(build_shim "$scratch"); then
	ran=1
	big_kernel k.cpp 0.2
	cp k.cpp orig.cpp
	ino=$(inode k.cpp)
	for cmd in "probe-inject --probe P1" "probe-strip" "probe-strip --probe P2"; do
		if run_expect 2 "$cmd with ENOSPC mid-write" with_shim "$shim" env PK_SHIM_ENOSPC=1 $cmd k.cpp; then
			has "$cmd: message names the file" "probekit: k.cpp: "
			has "$cmd: message says why" "No space left on device"
		fi
		same "$cmd: file untouched after ENOSPC" orig.cpp k.cpp
		[ "$(inode k.cpp)" = "$ino" ] && ok "$cmd: inode kept" || fail "$cmd: file was replaced"
		no_temp_files .
	done
	# several files, all or nothing: a small file written whole before the big
	# one fails must not be replaced either (not even by its own old bytes)
	big_kernel small.cpp 0.001
	cp small.cpp small.orig.cpp
	sino=$(inode small.cpp)
	if run_expect 2 "two files, the second hits ENOSPC" with_shim "$shim" env PK_SHIM_ENOSPC=1 \
		probe-inject --probe P0 small.cpp k.cpp; then
		has "two files: the failing one is named" "probekit: k.cpp: "
	fi
	same "two files: the first is untouched" small.orig.cpp small.cpp
	[ "$(inode small.cpp)" = "$sino" ] && ok "two files: the first keeps its inode" || fail "two files: the first was replaced"
	same "two files: the second is untouched" orig.cpp k.cpp
	no_temp_files .
	# the timing tensor with an event in a helper header: kernel, header and
	# event map go together (needs the AST module)
	mkdir tt && cp "$src"/testdata/timing/helper-events/{kernel.cpp,stages.h,kernel_api.h} tt/
	python3 -c 'import sys; open(sys.argv[1], "a").write("// padding: the header passes 4 KiB\n" * 200)' tt/stages.h
	cp tt/kernel.cpp tt.kernel.orig; cp tt/stages.h tt.stages.orig
	if probe-inject --timing-tensor --help >/dev/null 2>&1; then
		if run_expect 2 "timing tensor, the header hits ENOSPC" with_shim "$shim" env PK_SHIM_ENOSPC=1 \
			probe-inject --timing-tensor --host-by-hand --event producer_done=after:Produce@Stage --edit tt/stages.h tt/kernel.cpp; then
			has "timing tensor: says nothing was written" "nothing written"
		fi
		same "timing tensor: kernel untouched" tt.kernel.orig tt/kernel.cpp
		same "timing tensor: header untouched" tt.stages.orig tt/stages.h
		[ ! -e tt/kernel.cpp.timing.json ] && ok "timing tensor: no event map" || fail "timing tensor: event map written"
		no_temp_files tt
	fi
	run_expect 2 "-o with ENOSPC mid-write" with_shim "$shim" env PK_SHIM_ENOSPC=1 probe-strip -o out.cpp k.cpp
	[ ! -e out.cpp ] && ok "-o left no partial output" || fail "partial out.cpp left behind ($(stat -c %s out.cpp) bytes)"
	no_temp_files .
else
	partial_skip "ENOSPC injection: no C compiler to build tests/sh/block_fault_shim.c"
fi
[ "$ran" = 1 ] || skip "neither a tmpfs mount nor a C compiler is available"
finish
