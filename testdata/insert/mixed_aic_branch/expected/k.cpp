#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

extern "C" __global__ __aicore__ void mix(GM_ADDR x)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIC {
#if 1  // TIMING_PROBE: CUBE
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart_CUBE = GetSystemCycle();
#endif
        Work(1);
#if 1  // TIMING_PROBE: CUBE
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_CUBE = GetSystemCycle();
        if ASCEND_IS_AIC {
            if (GetBlockIdx() == 0) {
                printf("[CUBE] start=%lu end=%lu dur=%lu\n", probeStart_CUBE, probeEnd_CUBE, probeEnd_CUBE - probeStart_CUBE);
            }
        }
#endif
    }
    if ASCEND_IS_AIV {
        Work(2);
    }
    Work(3);
}
