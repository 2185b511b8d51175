#include "kernel_api.h"

extern "C" __global__ __aicore__ void k(GM_ADDR x, int32_t n)
{
    __gm__ float *p = reinterpret_cast<__gm__ float *>(x);
    Produce(p, n);
#if defined(PK_TWO_STAGE)
    CrossCoreSetFlag(1);
#endif
    Consume(p, n);
}
