#include "kernel_api.h"

#define PRODUCE_TWICE(p, n) \
    do {                    \
        Produce(p, n);      \
        Produce(p, n + 1);  \
    } while (0)

extern "C" __global__ __aicore__ void k(GM_ADDR x, int32_t n)
{
    __gm__ float *p = reinterpret_cast<__gm__ float *>(x);
    PRODUCE_TWICE(p, n);
    Consume(p, n);
}
