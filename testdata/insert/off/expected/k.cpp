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
#if 0  // TIMING_PROBE: STAGE_A_COMPUTE
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_STAGE_A_COMPUTE = GetSystemCycle();
#endif
    TSORT32(a, a, a);
#if 0  // TIMING_PROBE: STAGE_A_COMPUTE
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_STAGE_A_COMPUTE = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[STAGE_A_COMPUTE] start=%lu end=%lu dur=%lu\n", probeStart_STAGE_A_COMPUTE, probeEnd_STAGE_A_COMPUTE, probeEnd_STAGE_A_COMPUTE - probeStart_STAGE_A_COMPUTE);
    }
#endif
    set_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    wait_flag(PIPE_V, PIPE_MTE3, EVENT_ID0);
    TSTORE(out, a);
    CrossCoreSetFlag<0, PIPE_MTE3>(0);
    CrossCoreWaitFlag<0, PIPE_S>(0);
    TLOAD(a, out);
    pipe_barrier(PIPE_ALL);
}

extern "C" __global__ __aicore__ void kern(GM_ADDR dst, GM_ADDR src)
{
#if 0  // TIMING_PROBE: T_BASE (inserted with a probe)
    uint64_t probeBase_T_BASE = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[T_BASE] %lu\n", probeBase_T_BASE);
    }
#endif
    Stage<float>(reinterpret_cast<__gm__ float *>(dst), reinterpret_cast<__gm__ float *>(src));
}
