#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kern(GM_ADDR x)
{
#if 0  // TIMING_PROBE: STAGE_A
    uint64_t probeStart_STAGE_A = GetSystemCycle();
#if 0  // TIMING_PROBE: STAGE_B
    uint64_t probeStart_STAGE_B = GetSystemCycle();
#endif
    Compute(x);
    uint64_t t = GetSystemCycle();
}
