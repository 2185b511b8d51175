#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kern(GM_ADDR x)
{
#if 0  // TIMING_PROBE: STAGE_A
    uint64_t probeStart_STAGE_A = GetSystemCycle();
#ifdef PROBE_VERBOSE
    printf("[STAGE_A] begin %lu\n", probeBegin_STAGE_A);
#endif
#endif
    Compute(x);
#if 0  // TIMING_PROBE: STAGE_A
    uint64_t probeEnd_STAGE_A = GetSystemCycle();
    printf("[STAGE_A] start=%lu end=%lu dur=%lu\n", probeStart_STAGE_A, probeEnd_STAGE_A,
           probeEnd_STAGE_A - probeStart_STAGE_A);
#endif
}
