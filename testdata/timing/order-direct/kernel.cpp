#include "kernel_api.h"

extern "C" __global__ __aicore__ void k(GM_ADDR x, uint32_t n, GM_ADDR y)
{
    Produce(reinterpret_cast<__gm__ float *>(x), n);
    Consume(reinterpret_cast<__gm__ float *>(y), n);
}
