#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int n)
{
    int left = n;
    do {
        Work(left);
        left--;
    } while (left > 0);
#if 1  // TIMING_PROBE: BRANCH
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_BRANCH = GetSystemCycle();
#endif
    if (n > 2)
        Work(2);
    else
        Work(3);
#if 1  // TIMING_PROBE: BRANCH
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_BRANCH = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[BRANCH] start=%lu end=%lu dur=%lu\n", probeStart_BRANCH, probeEnd_BRANCH, probeEnd_BRANCH - probeStart_BRANCH);
    }
#endif
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            Work(i + j);
}
