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
    if (n > 2)
        Work(2);
    else
    {  // TIMING_PROBE_BRACE: ELSE
#if 1  // TIMING_PROBE: ELSE
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart_ELSE = GetSystemCycle();
#endif
        Work(3);
#if 1  // TIMING_PROBE: ELSE
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_ELSE = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[ELSE] start=%lu end=%lu dur=%lu\n", probeStart_ELSE, probeEnd_ELSE, probeEnd_ELSE - probeStart_ELSE);
        }
#endif
    }  // TIMING_PROBE_BRACE: ELSE
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
            Work(i + j);
}
