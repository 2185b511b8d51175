#include "kernel_operator.h"
using namespace AscendC;

#define LOAD_TWO(n) Load(n); Load(n + 1)

__aicore__ inline void Load(int n) { (void)n; }
__aicore__ inline void Work(int n) { (void)n; }

__aicore__ inline void Run(int n)
{
    // 中文注释
    LOAD_TWO(n);
#if 0  // TIMING_PROBE: OLD
    uint64_t probeStart_OLD = GetSystemCycle();
#endif
    Work(n); Work(n + 1);
    Load(n); /* comment
    runs on */
    while (n > 0) --n;
    Work(0);
}
