#include "kernel_operator.h"

#define AICORE __aicore__

AICORE inline void helper(__gm__ int64_t *args) { (void)args; }

extern "C" AICORE void kernel_entry(__gm__ int64_t *args)
{
#if 1  // TIMING_PROBE: T_BASE
    uint64_t probeBase_T_BASE = AscendC::GetSystemCycle();
    if (AscendC::GetBlockIdx() == 0) {
        AscendC::printf("[T_BASE] %lu\n", probeBase_T_BASE);
    }
#endif
    helper(args);
}
