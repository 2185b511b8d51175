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
#if 0  // TIMING_PROBE: T_BASE (inserted with a probe)
    uint64_t probeBase_T_BASE = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[T_BASE] %lu\n", probeBase_T_BASE);
    }
#endif
    KernelAxpy op;
#if 0  // TIMING_PROBE: LOAD
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_LOAD = GetSystemCycle();
#endif
    op.Load();
#if 0  // TIMING_PROBE: LOAD
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_LOAD = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[LOAD] start=%lu end=%lu dur=%lu\n", probeStart_LOAD, probeEnd_LOAD, probeEnd_LOAD - probeStart_LOAD);
    }
#endif
    op.Axpy();
    op.Store();
    (void)x;
    (void)y;
    (void)z;
}
