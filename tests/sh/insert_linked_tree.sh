#!/bin/bash
# insert_linked_tree.sh BIN_DIR SRC_DIR - a header in a tree of symbolic
# links (a copy changed in a mirror of links, as build systems and sandboxes
# make) is parsed in the unit of a source file beside it, its includes
# followed as clang opens them: through the links, so to the copy.
set -u
bin=$(cd "$1" && pwd)
scratch=$(mktemp -d "${TMPDIR:-/tmp}/pk-insert-linked.XXXXXX")
trap 'rm -rf "$scratch"' EXIT
fail=0
mkdir -p "$scratch/op"
cat >"$scratch/op/scale_kernel.cpp" <<'K'
#include "kernel_operator.h"
using namespace AscendC;

struct ScaleTiling {
    uint32_t tileLength;
};

#include "scale_fp32.h"

extern "C" __global__ __aicore__ void scale_kernel(GM_ADDR x, GM_ADDR y)
{
    ScaleTiling t{256};
    ScaleFp32 op;
    op.Run(t, x, y);
}
K
cat >"$scratch/op/scale_fp32.h" <<'H'
#ifndef SCALE_FP32_H
#define SCALE_FP32_H
#include "scale_base.h"

class ScaleFp32 : public ScaleBase {
public:
    __aicore__ inline void Run(ScaleTiling &t, GM_ADDR x, GM_ADDR y)
    {
        (void)x;
        (void)y;
        CopyIn(t);
    }
};
#endif
H
cat >"$scratch/op/scale_base.h" <<'H'
#ifndef SCALE_BASE_H
#define SCALE_BASE_H

class ScaleBase {
public:
    __aicore__ inline void CopyIn(ScaleTiling &t)
    {
        (void)t;
        SetFlag<HardEvent::MTE2_V>(EVENT_ID0);
        WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
    }
};
#endif
H
# the mirror: every file a link to the tree, the header a copy
cp -as "$scratch/op" "$scratch/mirror" || { echo "SKIP: cp -as unavailable"; exit 77; }
rm "$scratch/mirror/scale_base.h"
cp "$scratch/op/scale_base.h" "$scratch/mirror/scale_base.h"
cd "$scratch" || exit 2
if ! "$bin/probe-inject" --probe WAIT_IN --wait WaitFlag --stdout mirror/scale_base.h >out 2>err; then
	echo "FAIL the header in the mirror was refused:"; cat err; fail=1
fi
if grep -q "could not parse" err; then
	echo "FAIL the header parsed with errors (not in the unit that includes it through the links):"
	cat err; fail=1
fi
grep -q 'TIMING_PROBE: WAIT_IN' out || { echo "FAIL no probe in the output"; fail=1; }
[ $fail = 0 ] && echo "ok"
exit $fail
