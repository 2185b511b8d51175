# block-lib.bash - shared helpers for tests/sh/block_*.sh (sourced; not a
# test itself: ctest runs tests/sh/*.sh only).
#
# A test calls `source block-lib.bash "$@"` with BIN_DIR SRC_DIR, records
# problems with fail, and ends with finish: exit 1 when anything failed.
# skip is for the environment only (no git, no mount permission): it prints
# "SKIP: why" and exits 77, which ctest shows as skipped. partial_skip WHY
# skips one part and lets the rest run; finish then exits 77 too (after any
# failure: 1), so a test that did not run whole never counts as passed.
set -u
export LC_ALL=C
bin=$(cd "${1:?usage: $0 BIN_DIR SRC_DIR}" && pwd)
src=$(cd "${2:-$(dirname "$0")/../..}" && pwd)
for c in probe-inject probe-strip probe-list probe-check; do
	[ -x "$bin/$c" ] || { echo "FAIL: no $bin/$c" >&2; exit 1; }
done
export PATH="$bin:$PATH"
name=$(basename "$0" .sh)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pk-$name.XXXXXX")
cleanup_hooks=()
cleanup() {
	for h in "${cleanup_hooks[@]}"; do eval "$h"; done
	chmod -R u+w "$scratch" 2>/dev/null
	rm -rf "$scratch"
}
trap cleanup EXIT
failures=0 skipped=0
fail() { echo "FAIL: $*" >&2; failures=$((failures + 1)); }
ok() { echo "ok: $*"; }
skip() { echo "SKIP: $*"; exit 77; }
partial_skip() { echo "SKIP (part): $*"; skipped=$((skipped + 1)); }
finish() {
	if [ "$failures" -gt 0 ]; then
		echo "$name: $failures failure(s)" >&2
		exit 1
	fi
	if [ "$skipped" -gt 0 ]; then
		echo "SKIP: $name: the rest passed, $skipped part(s) skipped (above)"
		exit 77
	fi
	echo "$name: all passed"
	exit 0
}

# same WHAT FILE1 FILE2: byte-identical
same() {
	if cmp -s "$2" "$3"; then ok "$1"; else
		fail "$1: $2 and $3 differ"
		diff -u "$2" "$3" | head -20 >&2
	fi
}
inode() { stat -c %i "$1"; }
# run_expect CODE WHAT CMD...: run CMD, output in $out, exit code must be CODE
run_expect() {
	local want=$1 what=$2
	shift 2
	out=$("$@" 2>&1)
	local rc=$?
	if [ "$rc" -ne "$want" ]; then
		fail "$what: exit $rc, expected $want: $*"
		printf '%s\n' "$out" | head -5 >&2
		return 1
	fi
	return 0
}
# has WHAT TEXT: $out contains TEXT
has() {
	case "$out" in
	*"$2"*) ok "$1" ;;
	*) fail "$1: output lacks '$2'"; printf '%s\n' "$out" | head -5 >&2; return 1 ;;
	esac
}
# no_temp_files DIR: no .probekit.* temporary left behind
no_temp_files() {
	local left
	left=$(find "$1" -name '.probekit.*' 2>/dev/null)
	if [ -z "$left" ]; then ok "no temporary files in $1"; else fail "temporary files left: $left"; fi
}

# kernel FILE: the small two-probe kernel of testdata/block (T_BASE, STAGE_A, STAGE_B)
kernel() {
	cat >"$1" <<'EOF'
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kern(GM_ADDR x)
{
#if 0  // TIMING_PROBE: T_BASE
    if (GetBlockIdx() == 0) {
        printf("[T_BASE] %lu\n", (uint64_t)GetSystemCycle());
    }
#endif
#if 0  // TIMING_PROBE: STAGE_A
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart = GetSystemCycle();
#endif
    StageA();
#if 0  // TIMING_PROBE: STAGE_A
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[STAGE_A] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
    }
#endif
    StageB();
#if 0  // TIMING_PROBE: STAGE_B
    printf("[STAGE_B] start=%lu\n", (uint64_t)GetSystemCycle());
#endif
}
EOF
}

# big_kernel FILE MB: a kernel of about MB megabytes: probes P0..P9 (start
# and end parts) around long stretches of code with UTF-8 comments
big_kernel() {
	python3 - "$1" "$2" <<'EOF'
import sys
path, mb = sys.argv[1], float(sys.argv[2])
filler = "    x = Compute(x, 17); // \u8ba1\u7b97 step\n" * 40
parts = ["#include \"kernel_operator.h\"\nextern \"C\" __global__ __aicore__ void kern(GM_ADDR g)\n{\n"]
size, i = 0, 0
while size < mb * 1e6:
    p = f"P{i % 10}"
    block = (f"#if 0  // TIMING_PROBE: {p}\n    uint64_t probeStart = GetSystemCycle();\n#endif\n" + filler +
             f"#if 0  // TIMING_PROBE: {p}\n    printf(\"[{p}] start=%lu end=%lu\\n\", probeStart, GetSystemCycle());\n#endif\n")
    parts.append("{\n" + block + "}\n")
    size += len(block.encode()) + 4
    i += 1
parts.append("}\n")
open(path, "w").write("".join(parts))
EOF
}

# build_shim DIR: compile tests/sh/block_fault_shim.c; prints the .so path
build_shim() {
	local cc=${CC:-cc}
	command -v "$cc" >/dev/null || return 1
	"$cc" -shared -fPIC -O1 -o "$1/block_fault_shim.so" "$src/tests/sh/block_fault_shim.c" -ldl || return 1
	echo "$1/block_fault_shim.so"
}
# with_shim SO CMD...: run CMD with the shim preloaded (also under ASan)
with_shim() {
	local so=$1
	shift
	LD_PRELOAD="$so" ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" "$@"
}
