#include "kernel_api.h"

extern "C" __global__ __aicore__ void k(GM_ADDR x, int32_t n)
{
    if (n > 0) Produce(reinterpret_cast<__gm__ float *>(x), n);
}
