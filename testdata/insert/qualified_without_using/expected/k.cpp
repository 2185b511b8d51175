#include "kernel_operator.h"

__aicore__ inline void Work(int n) { (void)n; }

extern "C" __global__ __aicore__ void k(GM_ADDR x)
{
#if 1  // TIMING_PROBE: W
    AscendC::PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_W = AscendC::GetSystemCycle();
#endif
    Work(1);
#if 1  // TIMING_PROBE: W
    AscendC::PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_W = AscendC::GetSystemCycle();
    if (AscendC::GetBlockIdx() == 0) {
        AscendC::printf("[W] start=%lu end=%lu dur=%lu\n", probeStart_W, probeEnd_W, probeEnd_W - probeStart_W);
    }
#endif
}
