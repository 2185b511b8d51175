#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline int Work(int n) { return n; }

__aicore__ inline int Run(int n)
{
    if (n < 0)
        return -1;
    Work(n);
    if (n == 0) {
        Work(0);
        return 0;
    }
    for (int i = 0; i < n; ++i)
        Work(i);
    return n;
}

__aicore__ inline void Tail(int n)
{
#if 1  // TIMING_PROBE: TAIL
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_TAIL = GetSystemCycle();
#endif
    Work(n);
#if 1  // TIMING_PROBE: TAIL
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_TAIL = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[TAIL] start=%lu end=%lu dur=%lu\n", probeStart_TAIL, probeEnd_TAIL, probeEnd_TAIL - probeStart_TAIL);
    }
#endif
}
