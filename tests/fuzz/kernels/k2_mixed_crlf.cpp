#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Work(int n) { (void)n; }

extern "C" __global__ __aicore__ void mix(GM_ADDR x)
{
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);
  if ASCEND_IS_AIC {
    Work(1);
    CrossCoreSetFlag<0x2, PIPE_FIX>(3);
  }
  if ASCEND_IS_AIV {
    CrossCoreWaitFlag(3);
    Work(2);
  }
  Work(3); /* shared */
}
