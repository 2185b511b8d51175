#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void runDequant(GM_ADDR x, GM_ADDR y) { (void)x; (void)y; }

extern "C" __global__ __aicore__ void dequant_custom(GM_ADDR x, GM_ADDR y)
{
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 220
#if (ORIG_DTYPE_SCALE != DT_FLOAT || ORIG_DTYPE_Y == DT_INT32)
    runDequant(x, y);
#endif
#endif
}
