#include "kernel_operator.h"
using namespace AscendC;

static uint64_t probeStart_W = 0;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int probeEnd_W_2)
{
#if 1  // TIMING_PROBE: W
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_W_3 = GetSystemCycle();
#endif
    Work(probeEnd_W_2);
#if 1  // TIMING_PROBE: W
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_W_3 = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[W] start=%lu end=%lu dur=%lu\n", probeStart_W_3, probeEnd_W_3, probeEnd_W_3 - probeStart_W_3);
    }
#endif
}
