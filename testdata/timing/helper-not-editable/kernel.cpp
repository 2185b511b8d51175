#include "kernel_api.h"
#include "stages.h"

extern "C" __global__ __aicore__ void k(GM_ADDR x, GM_ADDR y, int32_t n)
{
    Stage(reinterpret_cast<__gm__ float *>(x), reinterpret_cast<__gm__ float *>(y), n);
}
