#include "kernel_operator.h"

extern "C" __global__ __aicore__ void other(GM_ADDR x)
{
    (void)x;
}
