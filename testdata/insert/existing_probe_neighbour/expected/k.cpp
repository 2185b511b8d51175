#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int n)
{
#if 0  // TIMING_PROBE: W
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_W = GetSystemCycle();
#endif
#if 1  // TIMING_PROBE: W2
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_W2 = GetSystemCycle();
#endif
    Work(n);
#if 1  // TIMING_PROBE: W2
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_W2 = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[W2] start=%lu end=%lu dur=%lu\n", probeStart_W2, probeEnd_W2, probeEnd_W2 - probeStart_W2);
    }
#endif
}
