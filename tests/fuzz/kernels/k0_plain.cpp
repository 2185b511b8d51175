#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }
__aicore__ inline void Load(int n) { (void)n; }

extern "C" __global__ __aicore__ void plain(GM_ADDR x, int n)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);
    Load(n);
    for (int i = 0; i < n; ++i) {
        Work(i);
        pipe_barrier(PIPE_ALL);
    }
    if (n > 4) Work(n);
    if (n > 8)
        Work(1);
    else
        Work(2);
    Load(0);
}
