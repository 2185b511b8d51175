// vadd_kernel.cpp - z = x + y over n floats, each block its own slice, with
// the two probes a kernel engineer would write first (both off).
#include "kernel_operator.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void vadd_kernel(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t n)
{
#if 0  // TIMING_PROBE: T_BASE
    if (GetBlockIdx() == 0) {
        printf("[T_BASE] %lu\n", (uint64_t)GetSystemCycle());
    }
#endif
    const uint32_t blocks = GetBlockNum(), me = GetBlockIdx();
    const uint32_t per = (n + blocks - 1) / blocks;
    const uint32_t first = me * per, last = first + per < n ? first + per : n;
    __gm__ const float *xs = reinterpret_cast<__gm__ const float *>(x);
    __gm__ const float *ys = reinterpret_cast<__gm__ const float *>(y);
    __gm__ float *zs = reinterpret_cast<__gm__ float *>(z);
#if 0  // TIMING_PROBE: STAGE_ADD
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart = GetSystemCycle();
#endif
    for (uint32_t i = first; i < last; i++) {
        zs[i] = xs[i] + ys[i];
    }
#if 0  // TIMING_PROBE: STAGE_ADD
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[STAGE_ADD] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
    }
#endif
}
