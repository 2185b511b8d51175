#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int n)
{
    if (n > 4) Work(n);
    for (int i = 0; i < n; ++i) {  // TIMING_PROBE_BRACE: ONE_FOR split
#if 1  // TIMING_PROBE: ONE_FOR
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart_ONE_FOR = GetSystemCycle();
#endif
        Work(i); // one line
#if 1  // TIMING_PROBE: ONE_FOR
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_ONE_FOR = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[ONE_FOR] iter=%u start=%lu end=%lu dur=%lu\n", (unsigned)(i), probeStart_ONE_FOR, probeEnd_ONE_FOR, probeEnd_ONE_FOR - probeStart_ONE_FOR);
        }
#endif
    }  // TIMING_PROBE_BRACE: ONE_FOR
    if (n > 8) Work(1); else Work(2);
    while (n > 0) --n;
}
