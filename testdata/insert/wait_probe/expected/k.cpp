#include "kernel_operator.h"
#include "pto/pto-inst.hpp"

using namespace AscendC;
using namespace pto;

template <typename T>
__aicore__ inline void Stage(__gm__ T *dst, __gm__ T *src)
{
    using V = Tile<TileType::Vec, T, 8, 32>;
    V a;
    TASSIGN(a, 0);
    GlobalTensor<T> in(src);
    GlobalTensor<T> out(dst);
    TLOAD(a, in);
    set_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    wait_flag(PIPE_MTE2, PIPE_V, EVENT_ID0);
    TSORT32(a, a, a);
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(out, a);
    CrossCoreSetFlag<0, PIPE_MTE3>(0);
#if 1  // TIMING_PROBE: STAGE_B_WAIT
    // wait probe, cross-core: this core's pipes drained first, start = ready to wait, end = the other cores have signalled
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_STAGE_B_WAIT = GetSystemCycle();
#endif
    CrossCoreWaitFlag<0, PIPE_S>(0);
#if 1  // TIMING_PROBE: STAGE_B_WAIT
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_STAGE_B_WAIT = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[STAGE_B_WAIT] start=%lu end=%lu dur=%lu\n", probeStart_STAGE_B_WAIT, probeEnd_STAGE_B_WAIT, probeEnd_STAGE_B_WAIT - probeStart_STAGE_B_WAIT);
    }
#endif
    TLOAD(a, out);
    pipe_barrier(PIPE_ALL);
}

extern "C" __global__ __aicore__ void kern(GM_ADDR dst, GM_ADDR src)
{
    Stage<float>(reinterpret_cast<__gm__ float *>(dst), reinterpret_cast<__gm__ float *>(src));
}
