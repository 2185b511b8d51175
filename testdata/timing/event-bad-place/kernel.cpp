#include "kernel_api.h"

void DataCopy(__gm__ float *dst, __gm__ float *src, int32_t n);
void Compute(__gm__ float *y, int32_t n);

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, int32_t n)
{
    __gm__ float *xs = reinterpret_cast<__gm__ float *>(x);
    __gm__ float *ys = reinterpret_cast<__gm__ float *>(y);
    DataCopy(ys, xs, n);
    Compute(ys, n);
    pipe_barrier(PIPE_ALL);
}
