#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

extern "C" __global__ __aicore__ void mix(GM_ADDR x)
{
#if 1  // TIMING_PROBE: T_BASE
    uint64_t probeBase_T_BASE = GetSystemCycle();
    if ASCEND_IS_AIV {
        if (GetBlockIdx() == 0 && GetSubBlockIdx() == 0) {
            printf("[T_BASE] %lu\n", probeBase_T_BASE);
        }
    }
#endif
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    if ASCEND_IS_AIC {
        Work(1);
    }
    if ASCEND_IS_AIV {
        Work(2);
    }
    Work(3);
}
