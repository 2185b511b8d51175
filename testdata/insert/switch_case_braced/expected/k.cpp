#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int n)
{
    switch (n) {
    case 0:
        Work(0);
        break;
    case 1: {
#if 1  // TIMING_PROBE: CASE1
        PipeBarrier<PIPE_ALL>();
        uint64_t probeStart_CASE1 = GetSystemCycle();
#endif
        Work(1);
#if 1  // TIMING_PROBE: CASE1
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_CASE1 = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[CASE1] start=%lu end=%lu dur=%lu\n", probeStart_CASE1, probeEnd_CASE1, probeEnd_CASE1 - probeStart_CASE1);
        }
#endif
        break;
    }
    }
}
