#include "kernel_operator.h"

extern "C" __global__ __aicore__ void kern(GM_ADDR x)
{
    StageA();
}
