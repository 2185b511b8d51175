#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kern(GM_ADDR x)
{
#if 0  // TIMING_PROBE: T_BASE
    if (GetBlockIdx() == 0) {
        printf("[T_BASE] %lu\n", (uint64_t)GetSystemCycle());
    }
#endif
#if 1  // TIMING_PROBE: STAGE_A
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart = GetSystemCycle();
#endif
    StageA();
#if 1  // TIMING_PROBE: STAGE_A
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[STAGE_A] start=%lu end=%lu dur=%lu\n", probeStart, probeEnd, probeEnd - probeStart);
    }
#endif
}
