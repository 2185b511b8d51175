#include "kernel_operator.h"
using namespace AscendC;

struct SoftmaxTilingData {
    uint32_t rows;
    uint32_t cols;
};

extern "C" __global__ __aicore__ void softmax(GM_ADDR x, GM_ADDR y, GM_ADDR tiling)
{
    REGISTER_TILING_DEFAULT(SoftmaxTilingData);
#if 1  // TIMING_PROBE: TILING
    PipeBarrier<PIPE_ALL>();
    uint64_t probeStart_TILING = GetSystemCycle();
#endif
    GET_TILING_DATA_WITH_STRUCT(SoftmaxTilingData, t, tiling);
#if 1  // TIMING_PROBE: TILING
    PipeBarrier<PIPE_ALL>();
    uint64_t probeEnd_TILING = GetSystemCycle();
    if (GetBlockIdx() == 0) {
        printf("[TILING] start=%lu end=%lu dur=%lu\n", probeStart_TILING, probeEnd_TILING, probeEnd_TILING - probeStart_TILING);
    }
#endif
    if (t.rows == 0) {
        return;
    }
    DataCopy(y, x, t.rows * t.cols);
}
