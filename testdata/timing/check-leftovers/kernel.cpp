#include "kernel_api.h"

extern "C" __aicore__ void kernel_entry(__gm__ int64_t *args)
{
    __gm__ float *x = reinterpret_cast<__gm__ float *>(args[0]);
    int32_t n = static_cast<int32_t>(args[/* TIMING_PROBE: @timing-was "1" */2/* TIMING_PROBE: @timing-end */]);
#if 0  // TIMING_PROBE: STAGE_A
    uint64_t probeStart_STAGE_A = AscendC::GetSystemCycle();
#endif
    Produce(x, n);
#if 0  // TIMING_PROBE: STAGE_A
    uint64_t probeEnd_STAGE_A = AscendC::GetSystemCycle();
#endif
}
