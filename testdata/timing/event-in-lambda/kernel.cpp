#include "kernel_api.h"

extern "C" __global__ __aicore__ void k(GM_ADDR x, int32_t n)
{
    __gm__ float *p = reinterpret_cast<__gm__ float *>(x);
    auto drain = [&]() {
        pipe_barrier(PIPE_ALL);
    };
    Produce(p, n);
    drain();
}
