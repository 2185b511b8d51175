// rms_scale.cpp - an operator kernel in the ops style: tensors, then the
// workspace and the tiling the framework passes last.
#include "kernel_api.h"

extern "C" __global__ __aicore__ void rms_scale(GM_ADDR x, GM_ADDR gamma, GM_ADDR y, GM_ADDR workspace,
                                                GM_ADDR tiling)
{
    __gm__ float *xs = reinterpret_cast<__gm__ float *>(x);
    __gm__ float *gs = reinterpret_cast<__gm__ float *>(gamma);
    __gm__ float *ys = reinterpret_cast<__gm__ float *>(y);
    const uint32_t n = *reinterpret_cast<__gm__ uint32_t *>(tiling);
    for (uint32_t i = 0; i < n; i++) {
        ys[i] = xs[i] * gs[i];
    }
    pipe_barrier(PIPE_ALL);
}
