#include "kernel_operator.h"

__aicore__ inline void Work(int n) { (void)n; }

extern "C" __global__ __aicore__ void early(GM_ADDR x)
{
    Work(1);
}

using namespace AscendC;

__aicore__ inline void Later() { Work(2); }
