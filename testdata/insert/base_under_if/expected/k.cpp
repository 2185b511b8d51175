#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

extern "C" __global__ __aicore__ void vec_only(GM_ADDR x)
{
#if 1  // TIMING_PROBE: T_BASE
    uint64_t probeBase_T_BASE = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[T_BASE] %lu\n", probeBase_T_BASE);
    }
#endif
#if defined(__DAV_C220_VEC__)
    Work(1);
    return;
#else
    Work(2);
#endif
}
