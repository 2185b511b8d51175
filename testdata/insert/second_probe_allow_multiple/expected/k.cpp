#include "kernel_operator.h"
using namespace AscendC;

class KernelScale {
public:
    __aicore__ inline void CopyIn() {}
    __aicore__ inline void Compute() {}
    __aicore__ inline void CopyOut() {}
};

extern "C" __global__ __aicore__ void scale_custom(GM_ADDR x, GM_ADDR y)
{
#if 1  // TIMING_PROBE: T_BASE (turned on with COMPUTE)
    uint64_t probeBase_T_BASE = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[T_BASE] %lu\n", probeBase_T_BASE);
    }
#endif
    KernelScale op;
#if 1  // TIMING_PROBE: COPY_IN
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_COPY_IN = GetSystemCycle();
#endif
    op.CopyIn();
#if 1  // TIMING_PROBE: COPY_IN
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_COPY_IN = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[COPY_IN] start=%lu end=%lu dur=%lu\n", probeStart_COPY_IN, probeEnd_COPY_IN, probeEnd_COPY_IN - probeStart_COPY_IN);
    }
#endif
#if 1  // TIMING_PROBE: COMPUTE
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_COMPUTE = GetSystemCycle();
#endif
    op.Compute();
#if 1  // TIMING_PROBE: COMPUTE
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_COMPUTE = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[COMPUTE] start=%lu end=%lu dur=%lu\n", probeStart_COMPUTE, probeEnd_COMPUTE, probeEnd_COMPUTE - probeStart_COMPUTE);
    }
#endif
    op.CopyOut();
    (void)x;
    (void)y;
}
