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
    {  // TIMING_PROBE_BRACE: LOOP_BODY
#if 1  // TIMING_PROBE: LOOP_BODY
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart_LOOP_BODY = GetSystemCycle();
#endif
        Work(i);
#if 1  // TIMING_PROBE: LOOP_BODY
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_LOOP_BODY = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[LOOP_BODY] iter=%u start=%lu end=%lu dur=%lu\n", (unsigned)(i), probeStart_LOOP_BODY, probeEnd_LOOP_BODY, probeEnd_LOOP_BODY - probeStart_LOOP_BODY);
        }
#endif
    }  // TIMING_PROBE_BRACE: LOOP_BODY
    return n;
}

__aicore__ inline void Tail(int n)
{
    Work(n);
}
