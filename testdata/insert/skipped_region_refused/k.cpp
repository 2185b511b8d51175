#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void Stage(int n) { (void)n; }

extern "C" __global__ __aicore__ void mm(GM_ADDR a, GM_ADDR c)
{
#if defined(__DAV_C220_CUBE__)
    Stage(1);
    CrossCoreSetFlag<0x2, PIPE_FIX>(3);
#else
    Stage(2);
#endif
}
