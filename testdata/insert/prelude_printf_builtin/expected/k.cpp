// A kernel that calls printf with no header: the CCE compiler has it built in.
#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kern(GM_ADDR out)
{
    int64_t blk = AscendC::GetBlockIdx();
#if 1  // TIMING_PROBE: PRINT
    AscendC::PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_PRINT = AscendC::GetSystemCycle();
#endif
    printf("block %ld\n", blk);
#if 1  // TIMING_PROBE: PRINT
    AscendC::PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_PRINT = AscendC::GetSystemCycle();
    if (AscendC::GetBlockIdx() == 0) {
        AscendC::printf("[PRINT] start=%lu end=%lu dur=%lu\n", probeStart_PRINT, probeEnd_PRINT, probeEnd_PRINT - probeStart_PRINT);
    }
#endif
    pipe_barrier(PIPE_ALL);
}
