#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int n, int m)
{
    while (n > 0 && m > 0) {
#if 1  // TIMING_PROBE: DEC
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart_DEC = GetSystemCycle();
#endif
        Work(n);
#if 1  // TIMING_PROBE: DEC
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_DEC = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[DEC] iter=%u start=%lu end=%lu dur=%lu\n", (unsigned)(m), probeStart_DEC, probeEnd_DEC, probeEnd_DEC - probeStart_DEC);
        }
#endif
        --m;
    }
    while (n > 0) {
        Work(m);
        m = n;
    }
}
