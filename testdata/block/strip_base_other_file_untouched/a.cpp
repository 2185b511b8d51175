#include "kernel_operator.h"
using namespace AscendC;

class KernelAxpy {
public:
    __aicore__ inline void Load() {}
    __aicore__ inline void Axpy() {}
    __aicore__ inline void Store() {}
};

extern "C" __global__ __aicore__ void axpy_custom(GM_ADDR x, GM_ADDR y, GM_ADDR z)
{
#if 1  // TIMING_PROBE: T_BASE (inserted with a probe)
    uint64_t probeBase_T_BASE = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[T_BASE] %lu\n", probeBase_T_BASE);
    }
#endif
    KernelAxpy op;
    op.Load();
#if 1  // TIMING_PROBE: AXPY
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_AXPY = GetSystemCycle();
#endif
    op.Axpy();
#if 1  // TIMING_PROBE: AXPY
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_AXPY = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[AXPY] start=%lu end=%lu dur=%lu\n", probeStart_AXPY, probeEnd_AXPY, probeEnd_AXPY - probeStart_AXPY);
    }
#endif
    op.Store();
    (void)x;
    (void)y;
    (void)z;
}
