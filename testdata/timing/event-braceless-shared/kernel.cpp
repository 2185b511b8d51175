#include "kernel_api.h"

static __aicore__ inline void Body(__gm__ float *xs, int32_t n)
{
    for (int32_t i = 0; i < n; ++i)
        Produce(xs, i);
}

extern "C" __global__ __aicore__ void k(GM_ADDR x, int32_t n)
{
    __gm__ float *xs = reinterpret_cast<__gm__ float *>(x);
    if (n > 0)
        Produce(xs, n);
    else
        Consume(xs, n);
    Body(xs, n);
}
