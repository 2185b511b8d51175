#include "kernel_api.h"

int32_t Ready(int32_t n);

extern "C" __global__ __aicore__ void k(GM_ADDR x, int32_t n)
{
    __gm__ float *p = reinterpret_cast<__gm__ float *>(x);
    if (Ready(n) > 0) {
        Consume(p, n);
    }
}
