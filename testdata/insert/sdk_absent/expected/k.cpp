#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Run(int n)
{
#if 1  // TIMING_PROBE: SDK
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_SDK = GetSystemCycle();
#endif
    SdkOnlyCall(n);
#if 1  // TIMING_PROBE: SDK
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_SDK = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[SDK] start=%lu end=%lu dur=%lu\n", probeStart_SDK, probeEnd_SDK, probeEnd_SDK - probeStart_SDK);
    }
#endif
}
