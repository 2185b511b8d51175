#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline int Work(int n) { return n; }

__aicore__ inline int Run(int n)
{
#if 1  // TIMING_PROBE: RUN
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_RUN = GetSystemCycle();
#endif
    if (n < 0)
    {  // TIMING_PROBE_BRACE: RUN
#if 1  // TIMING_PROBE: RUN
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_RUN = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[RUN] start=%lu end=%lu dur=%lu\n", probeStart_RUN, probeEnd_RUN, probeEnd_RUN - probeStart_RUN);
        }
#endif
        return -1;
    }  // TIMING_PROBE_BRACE: RUN
    Work(n);
    if (n == 0) {
        Work(0);
#if 1  // TIMING_PROBE: RUN
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_RUN = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[RUN] start=%lu end=%lu dur=%lu\n", probeStart_RUN, probeEnd_RUN, probeEnd_RUN - probeStart_RUN);
        }
#endif
        return 0;
    }
    for (int i = 0; i < n; ++i)
        Work(i);
#if 1  // TIMING_PROBE: RUN
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_RUN = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[RUN] start=%lu end=%lu dur=%lu\n", probeStart_RUN, probeEnd_RUN, probeEnd_RUN - probeStart_RUN);
    }
#endif
    return n;
}

__aicore__ inline void Tail(int n)
{
    Work(n);
}
