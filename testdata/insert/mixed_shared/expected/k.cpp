#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

extern "C" __global__ __aicore__ void mix(GM_ADDR x)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIC {
        Work(1);
    }
    if ASCEND_IS_AIV {
        Work(2);
    }
#if 1  // TIMING_PROBE: ALL
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_ALL = GetSystemCycle();
#endif
    Work(3);
#if 1  // TIMING_PROBE: ALL
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_ALL = GetSystemCycle();
    if ASCEND_IS_AIV {
        if (GetBlockIdx() == 0 && GetSubBlockIdx() == 0) {
            printf("[ALL] start=%lu end=%lu dur=%lu\n", probeStart_ALL, probeEnd_ALL, probeEnd_ALL - probeStart_ALL);
        }
    }
#endif
}
