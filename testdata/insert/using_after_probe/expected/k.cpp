#include "kernel_operator.h"

__aicore__ inline void Work(int n) { (void)n; }

extern "C" __global__ __aicore__ void early(GM_ADDR x)
{
#if 1  // TIMING_PROBE: EARLY
    AscendC::PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_EARLY = AscendC::GetSystemCycle();
#endif
    Work(1);
#if 1  // TIMING_PROBE: EARLY
    AscendC::PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_EARLY = AscendC::GetSystemCycle();
    if (AscendC::GetBlockIdx() == 0) {
        AscendC::printf("[EARLY] start=%lu end=%lu dur=%lu\n", probeStart_EARLY, probeEnd_EARLY, probeEnd_EARLY - probeStart_EARLY);
    }
#endif
}

using namespace AscendC;

__aicore__ inline void Later() { Work(2); }
