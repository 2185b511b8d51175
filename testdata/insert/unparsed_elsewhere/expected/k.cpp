#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Seen(int n)
{
#if 1  // TIMING_PROBE: SEEN
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_SEEN = GetSystemCycle();
#endif
    Work(n);
#if 1  // TIMING_PROBE: SEEN
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_SEEN = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[SEEN] start=%lu end=%lu dur=%lu\n", probeStart_SEEN, probeEnd_SEEN, probeEnd_SEEN - probeStart_SEEN);
    }
#endif
}

__aicore__ inline void Unseen(int n)
{
    SdkOnlyCall(n);
    Work(n);
}
