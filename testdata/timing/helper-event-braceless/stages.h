// stages.h - the kernel's phases, in a header the timing build may edit.
#pragma once
#include "kernel_api.h"

template <typename T>
__aicore__ inline void Exchange(int32_t flag)
{
    CrossCoreSetFlag(flag);
    CrossCoreWaitFlag(flag);
}

__aicore__ inline void Stage(__gm__ float *xs, __gm__ float *ys, int32_t n)
{
    Produce(xs, n);
    Exchange<float>(1);
    Consume(ys, n);
}

__aicore__ inline void Drain(int32_t n)
{
    if (n > 0)
        pipe_barrier(PIPE_ALL);
}
