#include "kernel_api.h"

__aicore__ inline void Stage(__gm__ float *xs, int32_t n)
{
    Produce(xs, n);
}

extern "C" __global__ __aicore__ void k(GM_ADDR x, int32_t n)
{
    Stage(reinterpret_cast<__gm__ float *>(x), n); void (*step)(__gm__ float *, int32_t) = Stage;
    step(reinterpret_cast<__gm__ float *>(x), n);
}
