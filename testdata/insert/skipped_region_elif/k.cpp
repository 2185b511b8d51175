#include "kernel_operator.h"
using namespace AscendC;

__aicore__ inline void SyncAic(int n) { (void)n; }
__aicore__ inline void SyncAiv(int n) { (void)n; }

extern "C" __global__ __aicore__ void dispatch(GM_ADDR a)
{
#if defined(__DAV_VEC__)
    SyncAiv(1);
#elif defined(__DAV_CUBE__)
    SyncAic(1);
#else
    (void)a;
#endif
}
