#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int n)
{
#if 0  // TIMING_PROBE: W
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_W = GetSystemCycle();
#endif
    Work(n);
}
