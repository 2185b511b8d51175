#!/usr/bin/env python3
"""Write a tree of kernel-like C++ sources for benchmarks: gen_tree.py DIR MEGABYTES.

Files look like Ascend C / PTO kernels: comments (some Chinese), strings,
templates, disabled TIMING_PROBE blocks in one file of eight, a stray cycle
read in one of fifty, so probe-check and grep both have work to do."""
import os
import sys

BODY = r'''// 排序内核的一个阶段 (stage {i}) -- generated for benchmarks
#include "kernel_operator.h"
template <typename T, int TILE>
__aicore__ inline void Stage{i}(__gm__ T *dst, __gm__ const T *src, uint32_t n)
{{
    /* copy in, compute, copy out: {i} */
    for (uint32_t k = 0; k < n; k += TILE) {{
        DataCopy(dst + k, src + k, TILE);   // MTE2
        set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
        const char *msg = "tile {i} done";
        (void)msg;
    }}
}}
'''
PROBE = r'''#if 0  // TIMING_PROBE: STAGE_{i}
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_STAGE_{i} = GetSystemCycle();
#endif
'''
STRAY = "    uint64_t t{i} = GetSystemCycle();\n"


def main():
    root, mb = sys.argv[1], float(sys.argv[2])
    target = int(mb * 1024 * 1024)
    os.makedirs(root, exist_ok=True)
    total, f = 0, 0
    while total < target:
        sub = os.path.join(root, f"op{f // 100:03d}")
        os.makedirs(sub, exist_ok=True)
        parts = []
        size = 0
        i = 0
        while size < 48 * 1024:
            chunk = BODY.format(i=i)
            if f % 8 == 0 and i % 16 == 0:
                chunk = chunk.replace("    /* copy in", PROBE.format(i=i) + "    /* copy in")
            if f % 50 == 0 and i == 3:
                chunk = chunk.replace("    /* copy in", STRAY.format(i=i) + "    /* copy in")
            parts.append(chunk)
            size += len(chunk.encode())
            i += 1
        data = "".join(parts).encode()
        with open(os.path.join(sub, f"kernel_{f:05d}.cpp"), "wb") as out:
            out.write(data)
        total += len(data)
        f += 1
    print(f"{f} files, {total / 1048576:.1f} MiB in {root}")


if __name__ == "__main__":
    main()
