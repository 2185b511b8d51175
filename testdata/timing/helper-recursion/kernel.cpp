#include "kernel_api.h"

__aicore__ inline void Walk(__gm__ float *xs, int32_t n)
{
    if (n <= 0) {
        return;
    }
    Produce(xs, n);
    Walk(xs, n - 1);
}

extern "C" __global__ __aicore__ void k(GM_ADDR x, int32_t n)
{
    Walk(reinterpret_cast<__gm__ float *>(x), n);
}
