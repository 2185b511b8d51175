#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Load(int n) { (void)n; }
#define LOAD_TWO(n) Load(n); Load(n + 1)
#define LOAD_ONE(n) Load(n)

__aicore__ inline void Run(int n)
{
#if 1  // TIMING_PROBE: X
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_X = GetSystemCycle();
#endif
    LOAD_TWO(n);
#if 1  // TIMING_PROBE: X
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_X = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[X] start=%lu end=%lu dur=%lu\n", probeStart_X, probeEnd_X, probeEnd_X - probeStart_X);
    }
#endif
    LOAD_ONE(n);
    Load(n);
}
