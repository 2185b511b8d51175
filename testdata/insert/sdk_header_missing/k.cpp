// the op's headers come from the build (an arch folder generated at build
// time); they bring kernel_operator.h, so this file never includes it
#include "arch35/moe_sort_one_core.h"

using namespace AscendC;

extern "C" __global__ __aicore__ void moe_sort(GM_ADDR x, GM_ADDR y, GM_ADDR workspace, GM_ADDR tiling)
{
    TPipe pipe;
    GlobalTensor<float> xGm;
    xGm.SetGlobalBuffer((__gm__ float *)x, 1024);
    PipeBarrier<PIPE_ALL>();
}
