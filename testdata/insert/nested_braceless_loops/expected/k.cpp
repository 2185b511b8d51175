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
        Work(3);
    for (int i = 0; i < n; i++)
        for (int j = 0; j < n; j++)
        {  // TIMING_PROBE_BRACE: INNER
#if 1  // TIMING_PROBE: INNER
            PipeBarrier<PIPE_ALL>();
            uint64_t probeStart_INNER = GetSystemCycle();
#endif
            Work(i + j);
#if 1  // TIMING_PROBE: INNER
            PipeBarrier<PIPE_ALL>();
            uint64_t probeEnd_INNER = GetSystemCycle();
            if (GetBlockIdx() == 0) {
                printf("[INNER] iter=%u start=%lu end=%lu dur=%lu\n", (unsigned)(j), probeStart_INNER, probeEnd_INNER, probeEnd_INNER - probeStart_INNER);
            }
#endif
        }  // TIMING_PROBE_BRACE: INNER
}
