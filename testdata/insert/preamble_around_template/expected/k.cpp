// 两步内核: scale, then scale back
#include "stage_ops.h"

extern "C" __global__ __aicore__ void scale_twice(__gm__ float *x, __gm__ float *y, uint32_t n)
{
    AscendC::ScaleTile<float>(y, x, n, 2.0f);
#if 1  // TIMING_PROBE: STEP
    AscendC::PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_STEP = AscendC::GetSystemCycle();
#endif
    AscendC::ScaleTile<float>(x, y, n, 0.5f);
#if 1  // TIMING_PROBE: STEP
    AscendC::PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_STEP = AscendC::GetSystemCycle();
    if (AscendC::GetBlockIdx() == 0) {
        AscendC::printf("[STEP] start=%lu end=%lu dur=%lu\n", probeStart_STEP, probeEnd_STEP, probeEnd_STEP - probeStart_STEP);
    }
#endif
}
