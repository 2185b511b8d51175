#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int n)
{
  if (n) {
#if 1  // TIMING_PROBE: W
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_W = GetSystemCycle();
#endif
    Work(n);
#if 1  // TIMING_PROBE: W
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_W = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[W] start=%lu end=%lu dur=%lu\n", probeStart_W, probeEnd_W, probeEnd_W - probeStart_W);
    }
#endif
  }
}
