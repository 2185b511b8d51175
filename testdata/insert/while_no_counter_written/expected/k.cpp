#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int n, int m)
{
    while (n > 0 && m > 0) {
        Work(n);
        --m;
    }
    while (n > 0) {
#if 1  // TIMING_PROBE: NONE
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart_NONE = GetSystemCycle();
#endif
        Work(m);
#if 1  // TIMING_PROBE: NONE
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_NONE = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[NONE] start=%lu end=%lu dur=%lu\n", probeStart_NONE, probeEnd_NONE, probeEnd_NONE - probeStart_NONE);
        }
#endif
        m = n;
    }
}
