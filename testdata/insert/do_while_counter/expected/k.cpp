#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int n)
{
    int left = n;
    do {
#if 1  // TIMING_PROBE: DO
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart_DO = GetSystemCycle();
#endif
        Work(left);
#if 1  // TIMING_PROBE: DO
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_DO = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[DO] iter=%u start=%lu end=%lu dur=%lu\n", (unsigned)(left), probeStart_DO, probeEnd_DO, probeEnd_DO - probeStart_DO);
        }
#endif
        left--;
    } while (left > 0);
    if (n > 2)
        Work(2);
    else
        Work(3);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            Work(i + j);
}
