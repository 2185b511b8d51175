#include "kernel_operator.h"

__aicore__ inline void Work(int n) { (void)n; }

extern "C" __global__ __aicore__ void k(GM_ADDR x)
{
    Work(1);
}
