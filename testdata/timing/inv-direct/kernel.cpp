#include "kernel_api.h"

extern "C" __global__ __aicore__ void scale_kernel(GM_ADDR x, GM_ADDR y, uint32_t n, float s, int64_t bias)
{
    __gm__ float *xs = reinterpret_cast<__gm__ float *>(x);
    __gm__ float *ys = reinterpret_cast<__gm__ float *>(y);
    for (uint32_t i = 0; i < n; i++) {
        ys[i] = xs[i] * s + static_cast<float>(bias);
    }
    pipe_barrier(PIPE_ALL);
}
