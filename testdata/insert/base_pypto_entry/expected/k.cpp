#include "kernel_operator.h"

__aicore__ inline void helper(__gm__ int64_t *args) { (void)args; }

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
#if 1  // TIMING_PROBE: T_BASE
    uint64_t probeBase_T_BASE = AscendC::GetSystemCycle();
    if (AscendC::GetBlockIdx() == 0) {
        AscendC::printf("[T_BASE] %lu\n", probeBase_T_BASE);
    }
#endif
    helper(args);
}
