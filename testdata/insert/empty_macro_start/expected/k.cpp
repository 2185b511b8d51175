#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Run(GM_ADDR workspace, int n)
{
#if 1  // TIMING_PROBE: WS
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_WS = GetSystemCycle();
#endif
    __gm__ uint8_t *user = GetUserWorkspace(workspace);
    __gm__ float *acc = reinterpret_cast<__gm__ float *>(user);
#if 1  // TIMING_PROBE: WS
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_WS = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[WS] start=%lu end=%lu dur=%lu\n", probeStart_WS, probeEnd_WS, probeEnd_WS - probeStart_WS);
    }
#endif
    for (int i = 0; i < n; i++) {
        acc[i] = 0.0f;
    }
}
