#include "kernel_operator.h"
using namespace AscendC;

constexpr int Sq(int x)
{
    return x * x;
}

__aicore__ inline void Run(int n)
{
#if 1  // TIMING_PROBE: IF_N
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_IF_N = GetSystemCycle();
#endif
    if (n)
    {
        Sq(n);
#if 1  // TIMING_PROBE: IF_N
        PipeBarrier<PIPE_ALL>();
        uint64_t probeEnd_IF_N = GetSystemCycle();
        if (GetBlockIdx() == 0) {
            printf("[IF_N] start=%lu end=%lu dur=%lu\n", probeStart_IF_N, probeEnd_IF_N, probeEnd_IF_N - probeStart_IF_N);
        }
#endif
    }
}
