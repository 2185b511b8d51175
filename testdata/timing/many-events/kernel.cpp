#include "kernel_api.h"

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, int32_t n)
{
    __gm__ float *xs = reinterpret_cast<__gm__ float *>(x);
    __gm__ float *ys = reinterpret_cast<__gm__ float *>(y);
    Produce(xs, n);
    Produce(xs, n);
    Produce(xs, n);
    Produce(xs, n);
    CrossCoreSetFlag(1);
    CrossCoreWaitFlag(1);
    Consume(ys, n);
    Consume(ys, n);
    pipe_barrier(PIPE_ALL);
}
