#include "kernel_api.h"

extern "C" __global__ __aicore__ void k(GM_ADDR x, int32_t n)
{
    for (int32_t i = 0; i < n; ++i)
        Produce(reinterpret_cast<__gm__ float *>(x), i);
}
