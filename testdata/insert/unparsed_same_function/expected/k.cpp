#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Seen(int n)
{
    Work(n);
}

__aicore__ inline void Unseen(int n)
{
    SdkOnlyCall(n);
#if 1  // TIMING_PROBE: UNSEEN
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_UNSEEN = GetSystemCycle();
#endif
    Work(n);
#if 1  // TIMING_PROBE: UNSEEN
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_UNSEEN = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[UNSEEN] start=%lu end=%lu dur=%lu\n", probeStart_UNSEEN, probeEnd_UNSEEN, probeEnd_UNSEEN - probeStart_UNSEEN);
    }
#endif
}
