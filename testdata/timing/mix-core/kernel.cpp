#include "kernel_api.h"
#define KERNEL_TASK_TYPE_DEFAULT(t)
#define ASCEND_IS_AIC (AscendC::GetSubBlockIdx() < 0)

extern "C" __global__ __aicore__ void mm_kernel(GM_ADDR a, GM_ADDR c)
{
    KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
    Produce(reinterpret_cast<__gm__ float *>(a), 1);
    Consume(reinterpret_cast<__gm__ float *>(c), 1);
}
