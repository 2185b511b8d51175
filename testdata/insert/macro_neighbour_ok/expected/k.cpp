#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Load(int n) { (void)n; }
#define LOAD_TWO(n) Load(n); Load(n + 1)
#define LOAD_ONE(n) Load(n)

__aicore__ inline void Run(int n)
{
    LOAD_TWO(n);
    LOAD_ONE(n);
#if 1  // TIMING_PROBE: LOAD
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_LOAD = GetSystemCycle();
#endif
    Load(n);
#if 1  // TIMING_PROBE: LOAD
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_LOAD = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[LOAD] start=%lu end=%lu dur=%lu\n", probeStart_LOAD, probeEnd_LOAD, probeEnd_LOAD - probeStart_LOAD);
    }
#endif
}
