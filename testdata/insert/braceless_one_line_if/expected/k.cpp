#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int n)
{
    if (n > 4) {  // TIMING_PROBE_BRACE: ONE split
#if 1  // TIMING_PROBE: ONE
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart_ONE = GetSystemCycle();
#endif
        Work(n);
#if 1  // TIMING_PROBE: ONE
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_ONE = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[ONE] start=%lu end=%lu dur=%lu\n", probeStart_ONE, probeEnd_ONE, probeEnd_ONE - probeStart_ONE);
        }
#endif
    }  // TIMING_PROBE_BRACE: ONE
    for (int i = 0; i < n; ++i) Work(i); // one line
    if (n > 8) Work(1); else Work(2);
    while (n > 0) --n;
}
