#include "kernel_api.h"

static void Warmup(__gm__ float *x)
{
    Produce(x, 0);
    Produce(x, 1);
}

extern "C" __global__ __aicore__ void k(GM_ADDR x, int32_t n)
{
    for (int32_t i = 0; i < n; ++i) {
        if (i > 0) {
            Produce(reinterpret_cast<__gm__ float *>(x), i);
        }
        Consume(reinterpret_cast<__gm__ float *>(x), i);
    }
    Produce(reinterpret_cast<__gm__ float *>(x), n);
}
