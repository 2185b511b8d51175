#!/usr/bin/env bash
# timing_side_headers.sh - the headers whose args[] reads the timing tensor
# renumbers are the ones the kernel's parse includes with quotes: a header
# two includes down is renumbered; one included only in a branch the
# preprocessor skips is not part of the kernel and stays as it is; one
# reached by "../" outside the kernel's work tree is never touched (a
# warning names it).
source "$(dirname "$0")/block-lib.bash" "$@"
export PROBEKIT_RULES_DIR="$src/rules"
repo=$scratch/repo
mkdir -p "$repo/.git" "$repo/k"
cp "$src/testdata/timing/side-header-unsigned/kernel_api.h" "$repo/k/"
# a header two includes down reading the packed arguments
cat >"$repo/k/inner.h" <<'H'
#pragma once
inline int32_t packed_scale(__gm__ uint64_t *args)
{
    return static_cast<int32_t>(args[3]);
}
H
cat >"$repo/k/outer.h" <<'H'
#pragma once
#include "inner.h"
H
cat >"$repo/k/skipped.h" <<'H'
#pragma once
inline int32_t packed_skipped(__gm__ uint64_t *args)
{
    return static_cast<int32_t>(args[3]);
}
H
cat >"$scratch/outside.h" <<'H'
#pragma once
inline int32_t packed_outside(__gm__ uint64_t *args)
{
    return static_cast<int32_t>(args[3]);
}
H
cat >"$repo/k/kernel.cpp" <<'K'
// an extern entry handing its packed arguments to readers in its headers
#include "kernel_api.h"
#include "outer.h"
#include "../../outside.h"
#if 0
#include "skipped.h"
#endif

extern "C" __aicore__ void kernel_entry(__gm__ uint64_t *args)
{
    __gm__ float *x = reinterpret_cast<__gm__ float *>(args[0]);
    int32_t n = static_cast<int32_t>(args[1]);
    Produce(x, n + packed_scale(args) + packed_outside(args));
}
K
cp "$scratch/outside.h" "$scratch/outside.h.orig"
cp "$repo/k/skipped.h" "$scratch/skipped.h.orig"
(cd "$repo/k" && probe-inject --timing-tensor --host-by-hand kernel.cpp) >"$scratch/out" 2>"$scratch/err"
rc=$?
[ $rc = 0 ] && ok "the run succeeds" || { fail "exit $rc"; cat "$scratch/err" >&2; }
grep -q '@timing-was "3" \*/4/' "$repo/k/inner.h" && ok "a header two includes down is renumbered" ||
	fail "inner.h not renumbered: $(cat "$repo/k/inner.h")"
cmp -s "$repo/k/skipped.h" "$scratch/skipped.h.orig" && ok "a header in a skipped branch stays" ||
	fail "skipped.h changed"
cmp -s "$scratch/outside.h" "$scratch/outside.h.orig" && ok "a header outside the work tree stays" ||
	fail "outside.h changed"
grep -q "outside.h: included with quotes, is outside the work tree" "$scratch/err" &&
	ok "the warning names the header outside" || fail "no warning: $(cat "$scratch/err")"
grep -q '"k/inner.h"\|"inner.h"' "$repo/k/kernel.cpp.timing.json" && ok "the event map lists the header" ||
	fail "the map does not list inner.h: $(cat "$repo/k/kernel.cpp.timing.json")"
finish
